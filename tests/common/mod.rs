//! Helpers shared by the integration tests that read JSON reports.
// Each test crate uses some of these helpers, none all of them.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// (path, line, id) of each finding of a JSON report, in the report's order.
pub fn finding_keys(v: &Value) -> Vec<(String, u64, String)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["id"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Write `files` (path, text) into a fresh temporary tree.
pub fn write_tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// Scan `files` (path, text) in a fresh tree, from its root, for target 18.0 and REST API v5
/// without configuration: the findings as (path, line, id).
pub fn scan_files(files: &[(&str, &str)]) -> BTreeSet<(String, u64, String)> {
    finding_keys(&scan_report(files, &[])).into_iter().collect()
}

/// The JSON report of a scan of `files` (path, text) in a fresh tree, from its root, for target
/// 18.0 and REST API v5 without configuration, with the options `extra` (`--tests include`).
pub fn scan_report(files: &[(&str, &str)], extra: &[&str]) -> Value {
    let dir = write_tree(files);
    let out = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(["scan", "--format", "json", "--no-config"])
        .args(["--target", "18.0", "--api", "v5"])
        .args(extra)
        .arg(".")
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .env_remove("CI_PROJECT_PATH")
        .output()
        .expect("the binary runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

/// The report's errors, as `PATH: MESSAGE`.
pub fn errors(v: &Value) -> Vec<String> {
    v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{}: {}",
                e["path"].as_str().unwrap(),
                e["message"].as_str().unwrap()
            )
        })
        .collect()
}

/// A finding's (id, line, column, end column), as an editor's diagnostic is compared with it.
pub fn finding_span(f: &Value) -> (String, u64, u64, u64) {
    let n = |k: &str| f[k].as_u64().unwrap();
    let id = f["id"].as_str().unwrap().to_string();
    (id, n("line"), n("column"), n("end_column"))
}

/// One message of the Language Server Protocol's framing (`Content-Length: N`, a blank line,
/// N bytes of JSON); None at the end of the stream or on a frame that is not JSON.
pub fn read_lsp_frame(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse().ok();
        }
    }
    let mut body = vec![0; len?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// The `file://` URI of a path.
pub fn file_uri(p: &Path) -> String {
    format!("file://{}", p.display())
}

/// Findings as (path, line, id).
pub type Keys = BTreeSet<(String, u64, String)>;

/// Owned (path, line, id) triples.
pub fn keys(items: &[(&str, u64, &str)]) -> Keys {
    items
        .iter()
        .map(|&(p, l, id)| (p.into(), l, id.into()))
        .collect()
}

/// Every (path, line, id) of `expected` is a finding of `all`.
pub fn assert_found(all: &Keys, expected: &[(&str, u64, &str)]) {
    let missing: Vec<_> = expected
        .iter()
        .filter(|&&(p, l, i)| !all.contains(&(p.to_string(), l, i.to_string())))
        .collect();
    assert!(
        missing.is_empty(),
        "not found: {missing:?}\nfindings: {all:?}"
    );
}

/// No finding in `path` at all.
pub fn assert_silent(all: &Keys, path: &str) {
    let there: Vec<_> = all.iter().filter(|(p, _, _)| p == path).collect();
    assert!(there.is_empty(), "{path} must stay silent: {there:?}");
}

/// The findings of one file, as (line, id).
pub fn findings_of(found: &Keys, path: &str) -> BTreeSet<(u64, String)> {
    found
        .iter()
        .filter(|(p, ..)| Path::new(p) == Path::new(path))
        .map(|(_, l, id)| (*l, id.clone()))
        .collect()
}

/// Owned (line, id) pairs, to compare with [`findings_of`].
pub fn lines(expected: &[(u64, &str)]) -> BTreeSet<(u64, String)> {
    expected
        .iter()
        .map(|(l, id)| (*l, id.to_string()))
        .collect()
}

/// The lines of `path` where `id` is found, in order.
pub fn lines_of(found: &Keys, path: &str, id: &str) -> Vec<u64> {
    found
        .iter()
        .filter(|(p, _, i)| p == path && i == id)
        .map(|(_, l, _)| *l)
        .collect()
}
