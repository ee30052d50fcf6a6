//! The scanner on fixture trees, one per kind of file. Each tree holds real-looking positives
//! and look-alikes; `expected.txt` lists every finding as `path:line:col id`. Equality proves
//! both that every positive is found at its place and that no look-alike is reported.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use uplint::catalog::{Catalog, Pattern};
use uplint::scan::{Options, Report, Scanner};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scan")
}

fn scan(dir: &Path, target: &str) -> Report {
    let cat = Catalog::embedded().unwrap();
    let scanner = Scanner::new(&cat, Options::new(target.parse().unwrap())).unwrap();
    scanner.scan_paths(&[dir.to_path_buf()], dir)
}

fn lines(report: &Report) -> Vec<String> {
    report
        .findings
        .iter()
        .map(|f| format!("{}:{}:{} {}", f.path, f.line, f.column, f.id))
        .collect()
}

fn trees() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|d| d.unwrap().path())
        .filter(|p| p.join("expected.txt").is_file())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_tree_gives_exactly_its_expected_findings() {
    let mut failures = Vec::new();
    for dir in trees() {
        let report = scan(&dir, "18.0");
        let got = lines(&report);
        let expected: Vec<String> = std::fs::read_to_string(dir.join("expected.txt"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| l.split(" #").next().unwrap().trim().to_string())
            .collect();
        if got != expected {
            let name = dir.file_name().unwrap().to_string_lossy();
            let g: BTreeSet<_> = got.iter().collect();
            let e: BTreeSet<_> = expected.iter().collect();
            failures.push(format!(
                "{name}:\n  missing: {:?}\n  unexpected: {:?}",
                e.difference(&g).collect::<Vec<_>>(),
                g.difference(&e).collect::<Vec<_>>()
            ));
        }
        assert!(report.errors.is_empty(), "{:?}", report.errors);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(trees().len() >= 10);
}

/// Pattern kinds the configuration-side scanner detects; fields and GraphQL documents are
/// matched by the code-side detectors.
fn config_side(p: &Pattern) -> bool {
    !matches!(p, Pattern::RestField { .. } | Pattern::Graphql { .. })
}

#[test]
fn every_detectable_entry_has_a_positive_fixture() {
    let cat = Catalog::embedded().unwrap();
    let mut found = BTreeSet::new();
    for dir in trees() {
        for f in scan(&dir, "18.0").findings {
            found.insert(f.id);
        }
    }
    let missing: Vec<&str> = cat
        .entries()
        .iter()
        .filter(|e| e.detectable && e.removed_in.is_some())
        .filter(|e| e.patterns.iter().any(config_side))
        .filter(|e| !found.contains(&e.id))
        .map(|e| e.id.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "entries without a positive fixture: {missing:?}"
    );
}
