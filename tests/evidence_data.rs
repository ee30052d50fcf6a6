//! Evidence is data: the words that show which system a file's names belong to
//! (`data/evidence.yml`, or `evidence:` in a user's data file) are loaded, checked and used by the
//! scan like the entries' own names.

use std::process::Command;

mod common;

use uplint::catalog::Catalog;
use uplint::catalog::evidence::Shows;

#[test]
fn the_embedded_evidence_says_where_its_words_were_seen() {
    let catalog = Catalog::embedded().expect("embedded data loads");
    let ev = catalog.evidence();
    let words = |s| ev.words(s).collect::<Vec<_>>();
    assert!(words(Shows::RestApi).contains(&"/api/v4"));
    assert!(words(Shows::RestApi).contains(&"PRIVATE-TOKEN"));
    assert!(words(Shows::Platform).contains(&"GitLab"));
    assert!(words(Shows::OtherPlatform).contains(&"GitHub"));
    let unsourced: Vec<&str> = ev
        .markers()
        .iter()
        .filter(|m| m.seen_in.is_empty())
        .map(|m| m.text.as_str())
        .collect();
    assert!(
        unsourced.is_empty(),
        "markers without `seen_in`: {unsourced:?}"
    );
}

#[test]
fn a_bad_evidence_group_is_refused_at_its_place() {
    let text = "schema_version: 1\nevidence:\n  - shows: rest_api\n    markers: [\"My Host\"]\n    files: [kode]\n    seen_in: [\"nowhere\"]\n";
    let err = Catalog::from_texts(&[("corp.yml", text)]).expect_err("refused");
    let lines: Vec<String> = err.0.iter().map(|e| e.to_string()).collect();
    let all = lines.join("\n");
    assert!(
        all.contains("corp.yml:3:") && all.contains("rest_api"),
        "{all}"
    );
    assert!(
        all.contains("corp.yml:4:") && all.contains("has a space"),
        "{all}"
    );
    assert!(all.contains("corp.yml:5:") && all.contains("kode"), "{all}");
    assert!(
        all.contains("corp.yml:6:") && all.contains("seen_in"),
        "{all}"
    );
    let text = "schema_version: 1\nevidence:\n  - shows: platform\n    markers: []\n";
    let err = Catalog::from_texts(&[("corp.yml", text)]).expect_err("refused");
    assert!(err.0[0].to_string().contains("no `markers`"), "{:?}", err.0);
}

/// A runner registration posted to a base URL the file names only by an in-house variable:
/// `/runners` is a path many services have, so it counts once the user's data says that
/// variable is the platform's API.
#[test]
fn a_users_evidence_shows_the_api_for_generic_paths() {
    let dir = common::write_tree(&[
        (
            "src/enrol.py",
            "import os\n\nimport requests\n\nROOT = os.environ[\"ACME_FORGE_URL\"]\n\n\ndef enrol(secret):\n    return requests.post(ROOT + \"/runners\", data={\"token\": secret, \"description\": \"ci box\"})\n",
        ),
        (
            "acme.yml",
            "schema_version: 1\nevidence:\n  - shows: rest-api\n    markers: [ACME_FORGE_URL]\n",
        ),
    ]);
    let scan = |extra: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_uplint"))
            .current_dir(dir.path())
            .args(["scan", "--no-config", "--format", "json"])
            .args(extra)
            .arg("src")
            .output()
            .unwrap();
        common::finding_keys(&serde_json::from_slice(&o.stdout).unwrap())
    };
    assert!(
        scan(&[]).is_empty(),
        "without the evidence, /runners is anyone's path"
    );
    let found = scan(&["--data", "acme.yml"]);
    let want = (
        "enrol.py".to_string(),
        9,
        "runners-api-registration-token".to_string(),
    );
    assert!(found.contains(&want), "{found:?}");
}

#[test]
fn data_check_counts_the_evidence_and_refuses_a_bad_group() {
    let dir = common::write_tree(&[
        (
            "acme.yml",
            "schema_version: 1\nevidence:\n  - shows: rest-api\n    markers: [ACME_FORGE_URL, acme-forge-token]\n",
        ),
        (
            "bad.yml",
            "schema_version: 1\nevidence:\n  - shows: api\n    markers: [ACME_FORGE_URL]\n",
        ),
    ]);
    let check = |file: &str| {
        Command::new(env!("CARGO_BIN_EXE_uplint"))
            .current_dir(dir.path())
            .args(["data", "check", file])
            .output()
            .unwrap()
    };
    let o = check("acme.yml");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("ok: 0 entries and 2 evidence markers in 1 path valid"),
        "{err}"
    );
    let o = check("bad.yml");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bad.yml:3:")
            && err.contains("rest-api, platform, other-platform, graphql-api"),
        "{err}"
    );
}
