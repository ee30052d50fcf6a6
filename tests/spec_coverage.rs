//! The data covers the spec: every row of sections 1, 7, 8 and 9 has an entry with the right
//! version, and every entry cites rows that exist.
//!
//! The spec is read from the copy under tests/fixtures/spec; when the shared original sits
//! beside the repository, the copy must equal it, so the two cannot drift apart.

use std::collections::BTreeSet;
use std::path::Path;

use uplint::catalog::Catalog;
use uplint::version::{ApiVersion, Milestone, ServiceVersion};

const SPEC: &str = include_str!("fixtures/spec/removal-schedule.md");
const ALSO_REMOVED: &str = "Also removed in 17.0, without API impact";

/// A table row of the spec: the section label, its cells.
struct Row {
    section: String,
    cells: Vec<String>,
}

impl Row {
    fn key(&self) -> String {
        format!("{}: {}", self.section, self.cells[0])
    }
}

fn section_label(heading: &str) -> Option<String> {
    let (hashes, title) = heading.split_once(' ')?;
    match hashes.len() {
        2 | 3 => {
            let num = title.split_whitespace().next()?.trim_end_matches('.');
            Some(num.to_string())
        }
        4 => {
            let version = title
                .split_whitespace()
                .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))?;
            if title.starts_with("Versions ") {
                Some(format!("9.2/{}", version.split('.').next()?))
            } else {
                Some(format!("9.2/{version}"))
            }
        }
        _ => None,
    }
}

fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut in_table = false;
    for line in SPEC.lines() {
        if line.starts_with('#') {
            if let Some(l) = section_label(line) {
                section = l;
            }
            in_table = false;
            continue;
        }
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let cells: Vec<String> = line
            .trim_matches('|')
            .split(" | ")
            .map(|c| c.trim().trim_matches('|').trim().to_string())
            .collect();
        if !in_table {
            in_table = true; // the header row
            continue;
        }
        if cells[0].starts_with("---") {
            continue;
        }
        let top = section.split(['.', '/']).next().unwrap();
        if ["1", "7", "8", "9"].contains(&top) {
            out.push(Row {
                section: section.clone(),
                cells,
            });
        }
    }
    out
}

/// Every key a data entry must cite: one per row, and one per item of the "Also removed" row.
fn required_keys() -> Vec<(String, Row)> {
    let mut keys = Vec::new();
    for row in rows() {
        if row.cells[0] == ALSO_REMOVED {
            for item in row.cells[1].split("; ") {
                let key = format!("{}: {}", row.key(), item.trim());
                keys.push((
                    key,
                    Row {
                        section: row.section.clone(),
                        cells: row.cells.clone(),
                    },
                ));
            }
        } else {
            keys.push((row.key(), row));
        }
    }
    keys
}

fn v(s: &str) -> ServiceVersion {
    s.parse().unwrap()
}

#[test]
fn the_spec_copy_matches_the_shared_spec() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/removal-schedule.md");
    if let Ok(text) = std::fs::read_to_string(&shared) {
        assert_eq!(
            text, SPEC,
            "tests/fixtures/spec/removal-schedule.md is out of date: copy ../shared/spec/removal-schedule.md over it and update data/"
        );
    }
}

#[test]
fn the_parser_sees_every_table() {
    let sections: BTreeSet<String> = rows().into_iter().map(|r| r.section).collect();
    let expected: BTreeSet<String> = ["1", "7", "8", "9.2/18.0", "9.2/17.0", "9.2/16", "9.3"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(sections, expected);
    assert!(required_keys().len() > 80, "{}", required_keys().len());
}

#[test]
fn every_spec_row_has_an_entry_with_the_right_version() {
    let cat = Catalog::embedded().unwrap();
    let mut missing = Vec::new();
    let mut wrong = Vec::new();
    for (key, row) in required_keys() {
        let entries: Vec<_> = cat
            .entries()
            .iter()
            .filter(|e| e.spec.contains(&key))
            .collect();
        if entries.is_empty() {
            missing.push(key);
            continue;
        }
        let expect_removed = match row.section.as_str() {
            "9.2/18.0" => Some(Milestone::Service(v("18.0"))),
            "9.2/17.0" => Some(Milestone::Service(v("17.0"))),
            "9.2/16" => Some(Milestone::Service(v(&row.cells[0]))),
            "9.3" => Some(Milestone::Api(ApiVersion::V5)),
            "7" if row.cells[2].starts_with("v5") => Some(Milestone::Api(ApiVersion::V5)),
            "7" => Some(Milestone::Service(v(&row.cells[2]))),
            _ => None,
        };
        for e in &entries {
            if let Some(m) = expect_removed
                && e.removed_in != Some(m)
            {
                wrong.push(format!(
                    "{}: removed_in {:?}, spec says {m}",
                    e.id, e.removed_in
                ));
            }
            if row.section == "1" && e.introduced_in != Some(v(&row.cells[1])) {
                wrong.push(format!(
                    "{}: introduced_in {:?}, spec says {}",
                    e.id, e.introduced_in, row.cells[1]
                ));
            }
            if row.section == "9.3" && e.breaking != Some(true) {
                wrong.push(format!("{}: v5 changes are breaking", e.id));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "spec rows without an entry:\n{}",
        missing.join("\n")
    );
    assert!(
        wrong.is_empty(),
        "entries that disagree with the spec:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_cited_row_exists() {
    let keys: BTreeSet<String> = required_keys().into_iter().map(|(k, _)| k).collect();
    let cat = Catalog::embedded().unwrap();
    let dangling: Vec<String> = cat
        .entries()
        .iter()
        .flat_map(|e| e.spec.iter().map(move |s| (e, s)))
        .filter(|(_, s)| !keys.contains(*s))
        .map(|(e, s)| format!("{}: {s}", e.id))
        .collect();
    assert!(
        dangling.is_empty(),
        "citations of rows the spec lacks:\n{}",
        dangling.join("\n")
    );
}

#[test]
fn every_also_removed_item_is_its_own_entry() {
    let cat = Catalog::embedded().unwrap();
    for (key, _) in required_keys()
        .iter()
        .filter(|(k, _)| k.contains(ALSO_REMOVED))
    {
        let n = cat
            .entries()
            .iter()
            .filter(|e| e.spec.contains(key))
            .count();
        assert_eq!(n, 1, "{key}");
    }
}

#[test]
fn the_error_tracking_api_endpoints_are_recorded_with_params_and_role() {
    let cat = Catalog::embedded().unwrap();
    let put = cat.get("error-tracking-settings-put").unwrap();
    let ep = &put.endpoints[0];
    assert_eq!(ep.path, "/projects/:id/error_tracking/settings");
    assert_eq!(ep.role.as_deref(), Some("Maintainer"));
    let required: Vec<&str> = ep
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(required, ["id", "active", "integrated"]);
    let keys = cat.get("error-tracking-client-keys").unwrap();
    assert!(
        keys.endpoints
            .iter()
            .any(|e| e.no_body && e.method.as_str() == "POST")
    );
}
