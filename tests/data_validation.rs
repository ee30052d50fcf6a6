//! Every validation error: what the user sees (snapshots of the rendered diagnostic), and that
//! it names the file, line and column.

use uplint::catalog::Catalog;
use uplint::catalog::error::render_plain;

const GOOD_ENTRY: &str = "  - id: in-house-thing
    title: An in-house deprecation
    surface: ci
    change: removed
    removed_in: \"17.0\"
    spec: [\"in-house\"]
    patterns:
      - kind: variable
        name: OLD_THING
";

/// Load one file; return `file:line:col: message` of each error and the rendered report.
fn errors(text: &str) -> (Vec<String>, String) {
    let err =
        Catalog::from_texts(&[("custom.yml", text)]).expect_err("the file should be rejected");
    let lines = err.0.iter().map(|e| e.to_string()).collect();
    (lines, render_plain(&err.0))
}

fn entry_with(extra: &str) -> String {
    format!("schema_version: 1\nentries:\n{GOOD_ENTRY}{extra}")
}

#[test]
fn the_good_entry_loads() {
    let cat = Catalog::from_texts(&[("custom.yml", &entry_with(""))]).unwrap();
    assert_eq!(cat.entries()[0].id, "in-house-thing");
}

#[test]
fn typo_in_a_field_name() {
    let text = entry_with("").replace("removed_in:", "removd_in:");
    let (lines, report) = errors(&text);
    assert_eq!(
        lines[0],
        "custom.yml:7:5: unknown field `removd_in`, expected one of id, title, surface, change, removed_in, deprecated_in, introduced_in, breaking, replacement, replacement_available_in, notes, emptied, related, detectable, patterns, endpoints, spec"
    );
    insta::assert_snapshot!(report);
}

#[test]
fn missing_required_field() {
    let text = entry_with("").replace("    title: An in-house deprecation\n", "");
    let (lines, report) = errors(&text);
    assert_eq!(lines, ["custom.yml:3:5: missing field `title`"]);
    insta::assert_snapshot!(report);
}

#[test]
fn duplicate_id_within_a_file() {
    let text = entry_with(GOOD_ENTRY);
    let (lines, report) = errors(&text);
    assert_eq!(lines, ["custom.yml:12:9: duplicate id `in-house-thing`"]);
    insta::assert_snapshot!(report);
}

#[test]
fn id_clashing_with_the_embedded_data() {
    let text = entry_with("").replace("in-house-thing", "ci-job-jwt");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("custom.yml");
    std::fs::write(&path, text).unwrap();
    let err = Catalog::load(&[path]).unwrap_err();
    assert_eq!(err.0.len(), 1);
    assert!(
        err.0[0]
            .to_string()
            .ends_with("custom.yml:3:9: duplicate id `ci-job-jwt`")
    );
    assert!(
        err.0[0]
            .help
            .as_deref()
            .unwrap()
            .ends_with("first defined in data/17.0.yml")
    );
}

#[test]
fn malformed_version() {
    let text = entry_with("").replace("removed_in: \"17.0\"", "removed_in: 17.x");
    let (lines, report) = errors(&text);
    assert_eq!(
        lines,
        ["custom.yml:7:17: `17.x` is not a valid version for `removed_in`"]
    );
    insta::assert_snapshot!(report);
}

#[test]
fn removed_before_introduced_or_deprecated() {
    let text = entry_with("").replace(
        "removed_in: \"17.0\"",
        "removed_in: \"16.9\"\n    introduced_in: \"16.10\"\n    deprecated_in: \"17.1\"",
    );
    let (lines, report) = errors(&text);
    assert_eq!(
        lines,
        [
            "custom.yml:7:17: removed_in 16.9 is before deprecated_in 17.1",
            "custom.yml:7:17: removed_in 16.9 is before introduced_in 16.10",
        ]
    );
    insta::assert_snapshot!(report);
}

#[test]
fn replacement_available_after_removal() {
    let text = entry_with("").replace(
        "removed_in: \"17.0\"",
        "removed_in: \"17.0\"\n    replacement_available_in: \"17.1\"",
    );
    let (lines, report) = errors(&text);
    assert_eq!(
        lines,
        ["custom.yml:8:31: replacement_available_in 17.1 is after removed_in 17.0"]
    );
    insta::assert_snapshot!(report);
}

#[test]
fn entry_without_patterns_must_say_it_is_not_detectable() {
    let text = entry_with("").replace(
        "    patterns:\n      - kind: variable\n        name: OLD_THING\n",
        "",
    );
    let (lines, report) = errors(&text);
    assert_eq!(lines, ["custom.yml:3:9: entry has no detection patterns"]);
    insta::assert_snapshot!(report);
    let fixed = text.replace("    spec:", "    detectable: false\n    spec:");
    assert!(Catalog::from_texts(&[("custom.yml", &fixed)]).is_ok());
}

#[test]
fn empty_and_invalid_patterns() {
    let cases = [
        (
            "name: OLD_THING",
            "name: \"\"",
            "custom.yml:11:15: variable name is empty",
        ),
        (
            "name: OLD_THING",
            "name: OLD-THING",
            "custom.yml:11:15: invalid variable name `OLD-THING`",
        ),
        (
            "kind: variable\n        name: OLD_THING",
            "kind: rest_endpoint\n        path: projects/:id",
            "custom.yml:11:15: invalid REST path `projects/:id`",
        ),
        (
            "kind: variable\n        name: OLD_THING",
            "kind: yaml_key\n        path: a..b\n        files: [ci]",
            "custom.yml:11:15: invalid key path `a..b`",
        ),
        (
            "kind: variable\n        name: OLD_THING",
            "kind: yaml_key\n        path: a.b\n        files: [cl]",
            "custom.yml:12:17: unknown file kind `cl`",
        ),
        (
            "kind: variable\n        name: OLD_THING",
            "kind: cli_flag\n        command: gitlab-runner register\n        flag: locked",
            "custom.yml:12:15: invalid flag `locked`",
        ),
        (
            "kind: variable\n        name: OLD_THING",
            "kind: omnibus_setting\n        key: sidekiq[queue_selector]",
            "custom.yml:11:14: invalid gitlab.rb setting `sidekiq[queue_selector]`",
        ),
    ];
    for (from, to, expected) in cases {
        let text = entry_with("").replace(from, to);
        let (lines, _) = errors(&text);
        assert_eq!(lines, [expected], "{to}");
    }
}

#[test]
fn unknown_pattern_kind() {
    let text = entry_with("").replace("kind: variable", "kind: variabel");
    let (lines, report) = errors(&text);
    assert_eq!(lines, ["custom.yml:10:15: unknown pattern kind `variabel`"]);
    insta::assert_snapshot!(report);
}

#[test]
fn wrong_schema_version() {
    let text = entry_with("").replace("schema_version: 1", "schema_version: 2");
    let (lines, report) = errors(&text);
    assert_eq!(lines, ["custom.yml:1:17: unsupported schema_version 2"]);
    insta::assert_snapshot!(report);
}

#[test]
fn nothing_is_half_loaded() {
    let bad = entry_with("")
        .replace("in-house-thing", "other-thing")
        .replace("17.0", "17.x");
    let dir = tempfile::tempdir().unwrap();
    let good_path = dir.path().join("a-good.yml");
    let bad_path = dir.path().join("b-bad.yml");
    std::fs::write(&good_path, entry_with("")).unwrap();
    std::fs::write(&bad_path, bad).unwrap();
    assert!(Catalog::load(&[dir.path().to_path_buf()]).is_err());
    assert!(Catalog::load(&[good_path]).is_ok());
}

/// A closed set's value that is not one of it: the help lists the set.
#[test]
fn unknown_surface_and_change_list_their_spellings() {
    let text = entry_with("")
        .replace("surface: ci", "surface: cii")
        .replace("change: removed", "change: gone");
    let (lines, report) = errors(&text);
    assert_eq!(
        lines,
        [
            "custom.yml:5:14: unknown surface `cii`",
            "custom.yml:6:13: unknown change `gone`"
        ]
    );
    insta::assert_snapshot!(report);
}
