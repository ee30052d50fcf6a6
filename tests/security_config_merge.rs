//! Issue #34: settings from the scanned tree cannot turn on writes, booleans are booleans, a
//! refusal does not tell what exists outside; and `uplint merge` trusts nothing it reads.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Output};

fn uplint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_uplint"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

// --- Settings from the scanned tree -------------------------------------------------------

/// A query with a safe fix for 17.0 when the supported range starts at 16.5.
const QUERY: &str = "query {\n  group(fullPath: \"g\") {\n    issues { totalWeight }\n  }\n}\n";
const SETTINGS: &str = "target: \"17.0\"\ncurrent: \"16.5\"\n";

fn tree_with_config(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "q.graphql", QUERY);
    write(dir.path(), ".uplint.yml", &format!("{SETTINGS}{config}"));
    dir
}

fn assert_untouched(dir: &Path) {
    assert_eq!(fs::read_to_string(dir.join("q.graphql")).unwrap(), QUERY);
}

#[test]
fn a_discovered_configuration_cannot_turn_on_fixes() {
    for (config, key, flag) in [
        ("fix: true\n", "fix", "--fix"),
        ("unsafe-fixes: true\n", "unsafe-fixes", "--unsafe-fixes"),
        ("fix: true\nunsafe-fixes: true\n", "fix", "--fix"),
    ] {
        let dir = tree_with_config(config);
        for args in [&["scan", "."][..], &["scan", "--diff", "."]] {
            let o = uplint(dir.path(), args);
            let out = text(&o);
            assert_eq!(o.status.code(), Some(2), "{config} {args:?}: {out}");
            assert!(out.contains(&format!("`{key}` is not read")), "{out}");
            assert!(out.contains(flag), "says where it may be given: {out}");
            assert!(out.contains("--config"), "{out}");
            assert!(out.contains(".uplint.yml:"), "names the file: {out}");
            assert_untouched(dir.path());
        }
    }
    // Found above the scanned path, too.
    let dir = tree_with_config("fix: true\n");
    let o = uplint(
        &dir.path().join(".."),
        &["scan", dir.path().to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_untouched(dir.path());
}

#[test]
fn a_configuration_named_with_config_may_turn_on_fixes() {
    let dir = tree_with_config("fix: true\n");
    let o = uplint(dir.path(), &["scan", "--config", ".uplint.yml", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        fs::read_to_string(dir.path().join("q.graphql")).unwrap(),
        QUERY.replace("totalWeight", "totalIssueWeight")
    );
    // And --fix on the command line still works with a discovered configuration.
    let dir = tree_with_config("");
    let o = uplint(dir.path(), &["scan", "--fix", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_ne!(
        fs::read_to_string(dir.path().join("q.graphql")).unwrap(),
        QUERY
    );
}

#[test]
fn booleans_are_booleans() {
    for value in ["\"yes\"", "yes", "on", "\"true\"", "'true'", "1", "y"] {
        for key in ["fix", "unsafe-fixes"] {
            let dir = tree_with_config(&format!("{key}: {value}\n"));
            let o = uplint(dir.path(), &["scan", "--config", ".uplint.yml", "."]);
            let out = text(&o);
            assert_eq!(o.status.code(), Some(2), "{key}: {value}: {out}");
            assert!(
                out.contains(".uplint.yml:3:"),
                "{key}: {value}: file and line: {out}"
            );
            assert!(
                out.contains("`true` or `false`"),
                "{key}: {value}: what is right: {out}"
            );
            assert!(!out.contains("fixed"), "{out}");
            assert_untouched(dir.path());
        }
    }
}

/// The error of `uplint scan` with a configuration naming `data: [VALUE]` (or `baseline`), with
/// the value itself taken out.
fn refusal(dir: &Path, setting: &str, value: &str) -> String {
    let config = match setting {
        "data" => format!("data: [\"{value}\"]\n"),
        _ => format!("{setting}: \"{value}\"\n"),
    };
    write(dir, ".uplint.yml", &config);
    let o = uplint(dir, &["scan"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{setting}: {value}: {out}");
    assert!(out.contains("is refused"), "{out}");
    // Without the value and the snippet's underline (as long as the value), the text must
    // not depend on what lies outside.
    // Lines are wrapped by the value's length: compare words.
    out.replace(value, "VALUE")
        .lines()
        .filter(|l| !l.contains('─'))
        .flat_map(str::split_whitespace)
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_refusal_does_not_tell_what_exists_outside() {
    let outer = tempfile::tempdir().unwrap();
    let tree = outer.path().join("tree");
    fs::create_dir(&tree).unwrap();
    write(outer.path(), "exists.yml", "secret: 1\n");
    fs::create_dir(outer.path().join("exists-dir")).unwrap();
    let fifo = outer.path().join("fifo.yml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    symlink("../exists.yml", tree.join("link-exists")).unwrap();
    symlink("../missing.yml", tree.join("link-missing")).unwrap();
    symlink("../exists-dir", tree.join("link-dir")).unwrap();
    symlink("../fifo.yml", tree.join("link-fifo")).unwrap();
    for setting in ["data", "baseline"] {
        let texts: Vec<(&str, String)> = [
            "../exists.yml",
            "../missing.yml",
            "../exists-dir",
            "../fifo.yml",
            "link-exists",
            "link-missing",
            "link-dir",
            "link-fifo",
            "link-missing/x.yml",
            "link-dir/x.yml",
        ]
        .into_iter()
        .map(|v| (v, refusal(&tree, setting, v)))
        .collect();
        for (v, t) in &texts {
            assert_eq!(
                t, &texts[0].1,
                "{setting}: {v} and {} are told apart",
                texts[0].0
            );
            // The configuration's own directory is named; nothing else outside it.
            let outside = t.replace(tree.to_str().unwrap(), "TREE");
            assert!(!outside.contains(outer.path().to_str().unwrap()), "{t}");
            assert!(
                t.contains("inside the configuration file's directory"),
                "says what is wrong: {t}"
            );
        }
    }
}

// --- `uplint merge` trusts nothing it reads ------------------------------------------------

/// A JSON report of a scan with one finding (`runnerRegistrationToken`, removed in 18.0).
fn base_report() -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "values.yaml", "runnerRegistrationToken: x\n");
    let o = uplint(
        dir.path(),
        &[
            "scan",
            "--no-config",
            "--target",
            "18.0",
            "--format",
            "json",
            "--project",
            "p",
            ".",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// `uplint merge ARGS REPORTS…` with each report written to a file `rN.json`, within `limit`
/// (killed past it: a hang fails the test instead of stalling it).
fn merge(reports: &[serde_json::Value], args: &[&str], limit: std::time::Duration) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let mut all: Vec<String> = vec!["merge".into()];
    all.extend(args.iter().map(|a| a.to_string()));
    for (i, r) in reports.iter().enumerate() {
        let name = format!("r{i}.json");
        fs::write(dir.path().join(&name), serde_json::to_vec(r).unwrap()).unwrap();
        all.push(name);
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .current_dir(dir.path())
        .args(&all)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("uplint merge {args:?} still running after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// A merge of a few small reports takes well under a second; ten seconds is a hang.
const QUICK: std::time::Duration = std::time::Duration::from_secs(10);

fn refused_merge(reports: &[serde_json::Value], args: &[&str], says: &[&str]) {
    let o = merge(reports, args, QUICK);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {out}");
    assert!(!out.contains("panicked"), "{out}");
    for s in says {
        assert!(out.contains(s), "{args:?}: says `{s}`: {out}");
    }
    assert!(o.stdout.is_empty(), "nothing written: {out}");
}

#[test]
fn merge_refuses_a_shard_total_it_cannot_check() {
    let mut r = base_report();
    for shard in ["1/18446744073709551615", "3/10001"] {
        r["options"]["shard"] = shard.into();
        refused_merge(&[r.clone()], &[], &["r0.json", "options.shard", "10000"]);
    }
    // Two shards of a large total: the missing ones are counted, not all listed.
    r["options"]["shard"] = "1/10000".into();
    let mut r2 = r.clone();
    r2["options"]["shard"] = "2/10000".into();
    let o = merge(&[r, r2], &[], QUICK);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("3/10000") && out.contains("more"), "{out}");
    assert!(out.len() < 4000, "{out}");
}

#[test]
fn merge_refuses_positions_no_scan_makes() {
    let r = base_report();
    let cases: [(&str, usize, &str); 6] = [
        ("end_column", 0, "end_column is 0"),
        ("column", 0, "column is 0"),
        ("line", 0, "line is 0"),
        ("column", 30, "end_column 24 is before column 30"),
        ("end_line", 0, "end_line is 0"),
        ("column", 1usize << 40, "column is"),
    ];
    for (field, value, says) in cases {
        let mut bad = r.clone();
        bad["findings"][0][field] = value.into();
        for format in ["human", "sarif", "html"] {
            refused_merge(
                &[bad.clone()],
                &["--format", format],
                &["r0.json", "findings[0]", says],
            );
        }
    }
    let mut bad = r.clone();
    bad["findings"][0]["line"] = 5.into();
    bad["findings"][0]["end_line"] = 4.into();
    refused_merge(&[bad], &[], &["findings[0]", "end_line 4 is before line 5"]);
    let mut bad = r.clone();
    bad["findings"][0]["fix"]["edits"][0]["end_column"] = 0.into();
    refused_merge(
        &[bad],
        &[],
        &["findings[0].fix.edits[0]", "end_column is 0"],
    );
    let mut bad = r.clone();
    bad["findings"][0]["id"] = "made-up".into();
    refused_merge(&[bad], &[], &["findings[0].id", "made-up"]);
    // The report as made still merges.
    let o = merge(&[r], &["--format", "human"], QUICK);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn merge_refuses_counts_that_would_wrap() {
    let mut a = base_report();
    a["options"]["shard"] = "1/2".into();
    let mut b = a.clone();
    b["options"]["shard"] = "2/2".into();
    b["findings"] = serde_json::json!([]);
    for field in [
        "files_scanned",
        "files_skipped_binary",
        "suppressed",
        "before_current",
    ] {
        let (mut a, mut b) = (a.clone(), b.clone());
        a["summary"][field] = (u64::MAX / 2 + 1).into();
        b["summary"][field] = (u64::MAX / 2 + 1).into();
        refused_merge(
            &[a, b],
            &["--format", "json"],
            &[&format!("summary.{field}")],
        );
    }
    for field in ["hidden", "gone"] {
        let (mut a, mut b) = (a.clone(), b.clone());
        a["baseline"] = serde_json::json!({"hidden": 0, "gone": 0});
        b["baseline"] = a["baseline"].clone();
        a["baseline"][field] = u64::MAX.into();
        b["baseline"][field] = 1.into();
        refused_merge(
            &[a, b],
            &["--format", "json"],
            &[&format!("baseline.{field}")],
        );
    }
}

/// Peak resident memory of a finished child, in bytes (wait4's rusage, this child alone).
#[allow(clippy::zombie_processes)] // reaped by wait4, which Child does not know of
fn run_measured(dir: &Path, args: &[&str]) -> (i32, u64) {
    let child = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain data, written by the kernel; the pid is our own child's.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    (libc::WEXITSTATUS(status), usage.ru_maxrss as u64 * 1024)
}

#[test]
fn merge_writes_sarif_without_holding_it_whole() {
    // 50,000 short findings (a report of about 11 MB). Measured: streamed, about 70 MB at its
    // peak (the report read and parsed); formatted whole in memory first, about 720 MB.
    let mut r = base_report();
    let mut f = r["findings"][0].clone();
    f.as_object_mut().unwrap().remove("fix");
    f["message"] = "m".into();
    f["matched"] = "x".into();
    f["replacement"] = serde_json::Value::Null;
    let findings: Vec<serde_json::Value> = (1..=50_000usize)
        .map(|i| {
            let mut f = f.clone();
            f["line"] = i.into();
            f["end_line"] = i.into();
            f["path"] = format!("p{}.yaml", i % 1000).into();
            f
        })
        .collect();
    r["findings"] = findings.into();
    let dir = tempfile::tempdir().unwrap();
    let text = serde_json::to_vec(&r).unwrap();
    let size = text.len() as u64;
    fs::write(dir.path().join("big.json"), text).unwrap();
    drop(r);
    let (code, peak) = run_measured(
        dir.path(),
        &[
            "merge",
            "--format",
            "sarif",
            "--output",
            "out.sarif",
            "big.json",
        ],
    );
    assert_eq!(code, 0);
    let sarif: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path().join("out.sarif")).unwrap()).unwrap();
    assert_eq!(
        sarif["runs"][0]["results"].as_array().unwrap().len(),
        50_000
    );
    let ceiling = 300 << 20;
    assert!(
        peak < ceiling,
        "peak {} MB for a report of {} MB: the output is held whole",
        peak >> 20,
        size >> 20
    );
}
