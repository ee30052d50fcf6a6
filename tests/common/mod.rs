//! Helpers shared by the integration tests that read JSON reports.
// Each test crate uses some of these helpers, none all of them.
#![allow(dead_code)]

use std::collections::BTreeSet;
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
    let dir = write_tree(files);
    let out = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(["scan", "--format", "json", "--no-config"])
        .args(["--target", "18.0", "--api", "v5", "."])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .env_remove("CI_PROJECT_PATH")
        .output()
        .expect("the binary runs");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    finding_keys(&v).into_iter().collect()
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
