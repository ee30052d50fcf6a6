//! Messages that explain the schedule (issue 36): two entries that meet on one use say how they
//! relate (POST /api/v4/runners refuses registration tokens in 17.0; the tokens themselves go in
//! 18.0), and an item emptied before its removal says so where it is found, not only in
//! `explain`. The relation and the emptying are data (`related`, `emptied` in `data/*.yml`),
//! checked by the catalog loader. The tree is `tests/fixtures/schedule/`.

use std::path::{Path, PathBuf};

use uplint::catalog::Catalog;

fn tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/schedule")
}

fn scan(format: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_uplint"))
        .arg("scan")
        .arg(tree())
        .args(["--target", "18.0", "--format", format])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

const RELATION: &str = "the endpoint stops accepting registration tokens in 17.0 (410 Gone); the registration tokens themselves are removed in 18.0";
const EMPTIED: &str = "from 17.0, the Runners API returns an empty string in its place";

#[test]
fn related_entries_on_one_line_say_how_they_relate() {
    let json: serde_json::Value = serde_json::from_str(&scan("json")).unwrap();
    let findings = json["findings"].as_array().unwrap();
    let at = |line: u64, id: &str| -> Vec<&serde_json::Value> {
        findings
            .iter()
            .filter(|f| f["line"] == line && f["id"] == id)
            .collect()
    };
    // Line 4: the API call with the token (17.0) and the token (18.0) meet.
    for (id, other) in [
        (
            "runners-api-registration-token",
            "runner-registration-token",
        ),
        (
            "runner-registration-token",
            "runners-api-registration-token",
        ),
    ] {
        let found = at(4, id);
        assert!(!found.is_empty(), "{id}");
        for f in found {
            assert_eq!(
                f["related"],
                serde_json::json!([{"id": other, "relation": RELATION}])
            );
            let said = format!("(with {other} on this line: {RELATION})");
            assert!(f["message"].as_str().unwrap().contains(&said), "{f}");
        }
    }
    // Line 6: the token alone; nothing met.
    let alone = at(6, "runner-registration-token");
    assert_eq!(alone.len(), 1);
    assert!(alone[0].get("related").is_none(), "{}", alone[0]);
    assert!(!alone[0]["message"].as_str().unwrap().contains("with "));
    // The emptied item says so in the scan.
    let ip = at(9, "runners-ip-address");
    assert!(
        ip[0]["message"].as_str().unwrap().ends_with(EMPTIED),
        "{}",
        ip[0]
    );
}

#[test]
fn the_messages_in_each_format() {
    let concise = scan("concise");
    assert!(concise.contains(RELATION) && concise.contains(EMPTIED));
    insta::assert_snapshot!("concise", concise);
    let human: String = scan("human")
        .lines()
        .map(|l| match l.find(" in ") {
            Some(i) if l.starts_with("Summary") => format!("{} in [time]", &l[..i]),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("human", human);
    let mut json: serde_json::Value = serde_json::from_str(&scan("json")).unwrap();
    json["data"] = "[digest of the data]".into();
    insta::assert_json_snapshot!("json", json["findings"]);
}

/// `explain` shows both, and the relation declared on the 17.0 entry is held by the 18.0 one.
#[test]
fn explain_shows_the_relation_on_both_entries() {
    let cat = Catalog::load(&[]).unwrap();
    let api = cat.get("runners-api-registration-token").unwrap();
    let tokens = cat.get("runner-registration-token").unwrap();
    assert!(
        api.related
            .iter()
            .any(|r| r.id == tokens.id && r.relation == RELATION)
    );
    assert!(
        tokens
            .related
            .iter()
            .any(|r| r.id == api.id && r.relation == RELATION)
    );
    let ip = cat.get("runners-ip-address").unwrap();
    assert_eq!(ip.emptied.as_ref().unwrap().to_string(), EMPTIED);
    // The label, then the value in the labels' column (however wide).
    for (id, label, shown) in [
        (
            "runner-registration-token",
            "related:",
            format!("runners-api-registration-token: {RELATION}"),
        ),
        ("runners-ip-address", "emptied:", EMPTIED.to_string()),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_uplint"))
            .args(["explain", id])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(label))
            .unwrap_or_else(|| panic!("no {label} in {text}"));
        assert_eq!(line.trim_start(), shown, "{text}");
    }
}

fn entry(id: &str, removed: &str, extra: &str) -> String {
    format!(
        "  - id: {id}\n    title: {id}\n    surface: ci\n    change: removed\n    removed_in: \"{removed}\"\n    spec: [\"in-house\"]\n    patterns:\n      - {{kind: variable, name: {}}}\n{extra}",
        id.to_uppercase().replace('-', "_")
    )
}

fn load(entries: &[String]) -> Result<Catalog, Vec<String>> {
    let text = format!("schema_version: 1\nentries:\n{}", entries.concat());
    Catalog::from_texts(&[("custom.yml", &text)])
        .map_err(|e| e.0.iter().map(|e| e.to_string()).collect())
}

#[test]
fn the_loader_checks_relations_and_emptying() {
    let related =
        |id: &str| format!("    related:\n      - {{id: {id}, relation: the one goes first}}\n");
    // A relation is held by both entries.
    let cat = load(&[
        entry("in-a", "17.0", &related("in-b")),
        entry("in-b", "18.0", ""),
    ])
    .unwrap();
    assert_eq!(cat.get("in-b").unwrap().related[0].id, "in-a");
    assert_eq!(
        cat.get("in-b").unwrap().related[0].relation,
        "the one goes first"
    );
    for (entries, error) in [
        (
            vec![entry("in-a", "17.0", &related("in-nowhere"))],
            "custom.yml:12:14: `related` names `in-nowhere`, which no entry is",
        ),
        (
            vec![entry("in-a", "17.0", &related("in-a"))],
            "custom.yml:12:14: `in-a` names itself in `related`",
        ),
        (
            vec![
                entry("in-a", "17.0", &related("in-b")),
                entry("in-b", "18.0", &related("in-a")),
            ],
            "custom.yml:12:14: `in-a` and `in-b` both declare their relation",
        ),
        (
            vec![entry(
                "in-a",
                "17.0",
                "    related:\n      - {id: in-b, relation: \"\"}\n",
            )],
            "custom.yml:12:30: relation is empty",
        ),
        (
            vec![entry(
                "in-a",
                "17.0",
                "    emptied: {since: \"17.0\", how: empty}\n",
            )],
            "custom.yml:11:22: emptied.since 17.0 is not before removed_in 17.0",
        ),
        (
            vec![entry("in-a", "17.0", "    emptied: {since: \"16.0\"}\n")],
            "custom.yml:11:15: missing field `how`",
        ),
    ] {
        let errors = load(&entries).expect_err(error);
        assert!(errors.iter().any(|e| e == error), "{error}\n{errors:#?}");
    }
}
