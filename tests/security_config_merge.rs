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
