//! Inputs the fuzzers once crashed on (fuzz/regressions/TARGET/), replayed through the same
//! code as the fuzz targets, so a fixed crash stays fixed without a fuzzer.

use std::path::Path;

use uplint::catalog::Catalog;
use uplint::scan::{Options, Scanner, cmdline, graphql, yaml};
use uplint::syntax::rest;

/// The file names the `scan_file` target picks from with its first byte.
const NAMES: &[&str] = &[
    ".gitlab-ci.yml",
    "chart/values.yaml",
    "chart/templates/d.yaml",
    "k8s/d.yaml",
    "run.sh",
    "Dockerfile",
    "gitlab.rb",
    "config.toml",
    "config/database.yml",
    "q.graphql",
    "app.py",
    "app.js",
    "main.go",
    "rules/geo.rules.yml",
    "dash.json",
    "r.tf",
    "a.service",
];

fn inputs(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect()
}

#[test]
fn scan_file_regressions() {
    let cat = Catalog::embedded().unwrap();
    let mut o = Options::new("18.0".parse().unwrap());
    o.min_version = Some("14.0".parse().unwrap());
    let scanner = Scanner::new(&cat, o).unwrap();
    let all = inputs("scan_file");
    assert!(
        !all.is_empty(),
        "the crash the scan_file fuzzer found is kept"
    );
    for data in all {
        let Some((&first, rest)) = data.split_first() else {
            continue;
        };
        let text = String::from_utf8_lossy(rest);
        // Every kind of file, not just the one the fuzzer picked.
        for name in NAMES
            .iter()
            .cycle()
            .skip(first as usize % NAMES.len())
            .take(NAMES.len())
        {
            let _ = scanner.scan_text(name, name, &text);
        }
    }
}

#[test]
fn parser_regressions() {
    for target in [
        "yaml_keys",
        "runner_flags",
        "graphql_documents",
        "rest_paths",
        "data_loader",
    ] {
        for data in inputs(target) {
            let text = String::from_utf8_lossy(&data);
            let _ = yaml::parse(&yaml::mask_templates(&text));
            let _ = yaml::fallback(&text);
            let _ = cmdline::find(&text, "gitlab-runner", "register", true);
            let _ = graphql::parse(&text);
            let _ = Catalog::from_texts(&[("fuzz.yml", &text)]);
        }
    }
}

/// The `runner_flags` target's invariant: a register command's words lie in order after its
/// subcommand, inside the text and within the reach it gives. One input, an exec-form list whose
/// last quote the `]` cut off, gave an empty word with no place.
#[test]
fn runner_flags_regressions() {
    let all = inputs("runner_flags");
    assert!(
        !all.is_empty(),
        "the input the runner_flags fuzzer found is kept"
    );
    for data in all {
        let text = String::from_utf8_lossy(&data);
        for yaml in [false, true] {
            for cmd in cmdline::find(&text, "gitlab-runner", "register", yaml) {
                let mut last = cmd.subcommand.end;
                let reach = cmd.args_reach();
                for w in &cmd.args() {
                    assert!(
                        w.start >= last && w.end <= text.len() && w.start < w.end,
                        "{w:?}"
                    );
                    assert!(reach.is_none_or(|(from, to)| w.start >= from && w.end <= to));
                    last = w.end;
                }
            }
        }
    }
}

/// Through the same calls as the `rest_paths` target. One input, a template of many `*x`
/// segments, took exponential time in the path matcher (it backtracked over every split).
#[test]
fn rest_paths_regressions() {
    let all = inputs("rest_paths");
    assert!(
        !all.is_empty(),
        "the slow input the rest_paths fuzzer found is kept"
    );
    for data in all {
        let text = String::from_utf8_lossy(&data);
        let (template, path) = text.split_once('\n').unwrap_or((&text, ""));
        let _ = rest::path_matches(template, path, false);
        let _ = rest::path_matches(template, path, true);
        for line in text.lines() {
            for (start, end, _) in rest::joined_strings(line) {
                assert!(start <= end && end <= line.len());
            }
        }
        let _ = rest::method_in(&text);
    }
}
