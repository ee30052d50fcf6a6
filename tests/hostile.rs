//! Hostile input, scanned to the end: every problem listed, no panic, no hang, the exit status as
//! documented (1 when findings, whatever problems were listed).

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

mod common;
use common::errors;

fn scan(dir: &Path, extra: &[&str]) -> (Output, Value) {
    let mut args = vec!["scan", "--no-config", "--format", "json"];
    args.extend_from_slice(extra);
    let o = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(&args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(o.status.code(), Some(101));
    let v = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    (o, v)
}

fn found(v: &Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{}:{}:{} {}",
                f["path"].as_str().unwrap(),
                f["line"],
                f["column"],
                f["matched"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn alias_bomb_and_deep_nesting() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Billion laughs: nine levels of nine aliases.
    let mut bomb = String::from(
        "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n",
    );
    let mut prev = "a".to_string();
    for i in 0..9 {
        let name = format!("l{i}");
        bomb.push_str(&format!("{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
        prev = name;
    }
    bomb.push_str("job:\n  script: [echo $CI_JOB_JWT]\n");
    std::fs::write(d.join(".gitlab-ci.yml"), &bomb).unwrap();
    // 10,000 levels of nesting, in YAML (flow and block) and in GraphQL (a file named for the
    // platform: `totalWeight` counts only where the platform's GraphQL API is shown).
    std::fs::write(
        d.join("deep-flow.yaml"),
        format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)),
    )
    .unwrap();
    let mut block = String::new();
    for i in 0..10_000 {
        block.push_str(&" ".repeat(i % 100));
        block.push_str("k:\n");
    }
    std::fs::write(d.join("deep-block.yaml"), block).unwrap();
    std::fs::write(
        d.join("gitlab-deep.graphql"),
        format!(
            "query {}totalWeight {}",
            "{ a ".repeat(10_000),
            "}".repeat(10_000)
        ),
    )
    .unwrap();
    let (o, v) = scan(d, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        found(&v),
        [
            ".gitlab-ci.yml:12:18 CI_JOB_JWT",
            "gitlab-deep.graphql:1:40007 totalWeight"
        ]
    );
    assert!(
        errors(&v).iter().any(|e| e
            .starts_with("gitlab-deep.graphql: GraphQL document does not parse")
            && e.contains("too deep")),
        "{:?}",
        errors(&v)
    );

    // The same bomb as a data file: refused (or loaded), quickly, never expanded into memory.
    let data = d.join("bomb-data.yml");
    std::fs::write(
        &data,
        format!("schema_version: 1\nextra: {bomb}entries: []\n"),
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(["data", "check"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn sparse_gigabyte_file_is_listed_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let f = std::fs::File::create(dir.path().join("huge.sh")).unwrap();
    f.set_len(1 << 30).unwrap();
    std::fs::write(dir.path().join("ok.sh"), "echo $CI_JOB_JWT\n").unwrap();
    let (o, v) = scan(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(found(&v), ["ok.sh:1:7 CI_JOB_JWT"]);
    assert_eq!(
        errors(&v),
        ["huge.sh: file is 1024 MiB, over the 256 MiB limit: not read"]
    );
}

#[test]
fn encodings_and_line_endings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bom.sh"), b"\xEF\xBB\xBFecho $CI_JOB_JWT\n").unwrap();
    std::fs::write(
        d.join("crlf.gitlab-ci.yml"),
        "a:\r\n  trigger:\r\n    strategy: depend\r\n",
    )
    .unwrap();
    let utf16 = |text: &str, le: bool| -> Vec<u8> {
        let mut v = if le {
            vec![0xFF, 0xFE]
        } else {
            vec![0xFE, 0xFF]
        };
        for u in text.encode_utf16() {
            v.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        v
    };
    std::fs::write(
        d.join("utf16le.sh"),
        utf16("# é\necho $CI_JOB_JWT_V1\n", true),
    )
    .unwrap();
    std::fs::write(
        d.join("utf16be.sh"),
        utf16("echo é $CI_JOB_JWT_V2\n", false),
    )
    .unwrap();
    let (_, v) = scan(d, &[]);
    assert_eq!(
        found(&v),
        [
            "bom.sh:1:7 CI_JOB_JWT",
            "crlf.gitlab-ci.yml:3:5 trigger.strategy: depend",
            "utf16be.sh:1:9 CI_JOB_JWT_V2",
            "utf16le.sh:2:7 CI_JOB_JWT_V1",
        ]
    );
    assert!(errors(&v).is_empty(), "{:?}", errors(&v));
}

#[cfg(unix)]
#[test]
fn strange_names_and_special_files() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("line\nbreak.sh"), "echo $CI_JOB_JWT\n").unwrap();
    std::fs::write(
        d.join(std::ffi::OsStr::from_bytes(b"bad\xffname.sh")),
        "echo $CI_JOB_JWT\n",
    )
    .unwrap();
    // A link to a device file, followed: listed, not read.
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.sh")).unwrap();
    // A directory without permissions (a privileged user reads it anyway).
    let locked = d.join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::write(locked.join("inner.sh"), "echo $CI_JOB_JWT\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let privileged = std::fs::read_dir(&locked).is_ok();
    let (o, v) = scan(d, &["--follow"]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(o.status.code(), Some(1));
    let f = found(&v);
    assert!(
        f.contains(&"line\nbreak.sh:1:7 CI_JOB_JWT".to_string()),
        "{f:?}"
    );
    assert!(
        // Invalid UTF-8 is shown escaped, not replaced (issue #34).
        f.contains(&"bad\\xffname.sh:1:7 CI_JOB_JWT".to_string()),
        "{f:?}"
    );
    let e = errors(&v);
    assert!(
        e.contains(&"zero.sh: not a regular file (FIFO, socket or device): not read".to_string()),
        "{e:?}"
    );
    if privileged {
        assert!(
            f.contains(&"locked/inner.sh:1:7 CI_JOB_JWT".to_string()),
            "{f:?}"
        );
    } else {
        assert!(
            e.iter()
                .any(|x| x.starts_with("locked") && x.contains("Permission denied")),
            "{e:?}"
        );
    }
}

#[test]
fn files_that_vanish_during_the_scan() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_path_buf();
    for i in 0..3000 {
        std::fs::write(
            d.join(format!("f{i:04}.sh")),
            format!("echo {i}\necho $CI_JOB_JWT\n"),
        )
        .unwrap();
    }
    let child = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(["scan", "--no-config", "--format", "json", "--threads", "1"])
        .current_dir(&d)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Delete files while the scan runs: some are read, some are gone, some are in between.
    for i in (0..3000).rev().step_by(2) {
        let _ = std::fs::remove_file(d.join(format!("f{i:04}.sh")));
    }
    let o = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    assert!(matches!(o.status.code(), Some(0 | 1)));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = v["findings"].as_array().unwrap().len();
    assert!(
        findings >= 1500,
        "the files never deleted are all reported: {findings}"
    );
    for e in errors(&v) {
        assert!(e.contains("No such file or directory"), "{e}");
    }
}

#[test]
fn a_finding_on_a_huge_line_keeps_an_excerpt() {
    use uplint::catalog::Catalog;
    use uplint::render::scan as render;
    use uplint::scan::{Options, Scanner};
    let cat = Catalog::embedded().unwrap();
    let scanner = Scanner::new(&cat, Options::new("18.0".parse().unwrap())).unwrap();
    let text = format!(
        "{} é $CI_JOB_JWT {}\n",
        "x".repeat(1_000_000),
        "y".repeat(1_000_000)
    );
    let r = scanner.scan_text("big.sh", "big.sh", &text);
    let f = &r.findings[0];
    assert_eq!((f.line, f.column), (1, 1_000_005));
    assert_eq!(f.byte_column, 1_000_006, "é is two bytes");
    assert!(
        f.source_line.chars().count() <= 240,
        "{}",
        f.source_line.len()
    );
    let report = uplint::scan::Report {
        findings: r.findings.clone(),
        ..Default::default()
    };
    let human = render::human(&report, &render::Context::new("18.0".parse().unwrap()));
    let lines: Vec<&str> = human.lines().collect();
    let source = lines.iter().find(|l| l.contains("$CI_JOB_JWT")).unwrap();
    let caret = lines.iter().find(|l| l.contains('^')).unwrap();
    assert_eq!(
        source
            .find("CI_JOB_JWT")
            .map(|i| source[..i].chars().count()),
        caret.find('^').map(|i| caret[..i].chars().count()),
        "the caret stands under the match:\n{source}\n{caret}"
    );
    let rd: serde_json::Value =
        serde_json::from_str(render::rdjsonl(&report).lines().next().unwrap()).unwrap();
    assert_eq!(rd["location"]["range"]["start"]["column"], 1_000_006);
}
