//! The machine formats, checked the way their consumers read them: GitLab's Code Quality schema
//! and fingerprint rules, SARIF's required properties, unique JUnit test cases, reviewdog's byte
//! columns, and byte-for-byte determinism.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use uplint::catalog::Catalog;
use uplint::render::scan as render;
use uplint::scan::{Options, Report, Scanner};

const CODECLIMATE_SCHEMA: &str = include_str!("fixtures/schemas/codeclimate.json");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scan(dir: &Path) -> (Report, render::Context) {
    let cat = Catalog::embedded().unwrap();
    let scanner = Scanner::new(&cat, Options::new("18.0".parse().unwrap())).unwrap();
    let report = scanner.scan_paths(&[dir.to_path_buf()], dir);
    let ctx = render::Context {
        rules: render::rules_for(&report, &cat),
        versions: cat.removal_milestones(),
        ..render::Context::new("18.0".parse().unwrap())
    };
    (report, ctx)
}

/// Every tree of the fixture suite, and the sample repository.
fn trees() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join("tests/fixtures/scan"))
        .unwrap()
        .map(|d| d.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out.push(root().join("examples/upgrade-audit"));
    out
}

#[test]
fn the_schema_copy_matches_the_shared_schema() {
    let shared = root().join("../shared/schemas/codeclimate.json");
    if let Ok(text) = std::fs::read_to_string(shared) {
        assert_eq!(
            text, CODECLIMATE_SCHEMA,
            "copy ../shared/schemas/codeclimate.json to tests/fixtures/schemas/"
        );
    }
}

#[test]
fn code_quality_reports_are_valid_and_fingerprints_unique() {
    let schema: Value = serde_json::from_str(CODECLIMATE_SCHEMA).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut total = 0;
    for dir in trees() {
        let (report, _) = scan(&dir);
        let doc: Value = serde_json::from_str(&render::codequality(&report)).unwrap();
        let entries = doc.as_array().expect("a JSON array");
        assert_eq!(entries.len(), report.findings.len());
        let mut fingerprints = BTreeSet::new();
        for e in entries {
            let errors: Vec<String> = validator
                .iter_errors(e)
                .map(|err| err.to_string())
                .collect();
            assert!(errors.is_empty(), "{}: {e}: {errors:?}", dir.display());
            assert!(e["location"]["lines"]["begin"].is_u64());
            assert!(
                ["info", "minor", "major", "critical", "blocker"]
                    .contains(&e["severity"].as_str().unwrap())
            );
            assert!(!e["description"].as_str().unwrap().is_empty());
            assert!(
                fingerprints.insert(e["fingerprint"].as_str().unwrap().to_string()),
                "duplicate fingerprint in {}",
                dir.display()
            );
        }
        total += entries.len();
    }
    assert!(total > 80, "{total}");
    // A clean tree gives an empty array.
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(render::codequality(&scan(empty.path()).0).trim(), "[]");
}

#[test]
fn fingerprints_survive_lines_inserted_above() {
    let dir = tempfile::tempdir().unwrap();
    let ci = "a:\n  script:\n    - echo $CI_JOB_JWT $CI_JOB_JWT\n  after_script: [x]\n";
    std::fs::write(dir.path().join(".gitlab-ci.yml"), ci).unwrap();
    let before: Vec<String> = scan(dir.path())
        .0
        .findings
        .iter()
        .map(render::fingerprint)
        .collect();
    std::fs::write(
        dir.path().join(".gitlab-ci.yml"),
        format!("\n\n# moved\n\n{ci}"),
    )
    .unwrap();
    let (report, _) = scan(dir.path());
    let after: Vec<String> = report.findings.iter().map(render::fingerprint).collect();
    assert_eq!(report.findings[0].line, 7, "the finding moved");
    assert_eq!(before, after);
    assert_eq!(
        before.iter().collect::<BTreeSet<_>>().len(),
        3,
        "two uses on one line differ"
    );
}

#[test]
fn sarif_has_what_github_requires() {
    for dir in trees() {
        let (report, ctx) = scan(&dir);
        let doc: Value = serde_json::from_str(&render::sarif(&report, &ctx)).unwrap();
        assert_eq!(doc["version"], "2.1.0");
        assert!(doc["$schema"].as_str().unwrap().starts_with("https://"));
        let runs = doc["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 1);
        let driver = &runs[0]["tool"]["driver"];
        assert_eq!(driver["name"], "uplint");
        assert!(
            driver["informationUri"]
                .as_str()
                .unwrap()
                .starts_with("https://")
        );
        let rules = driver["rules"].as_array().unwrap();
        let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
        for r in rules {
            for field in ["shortDescription", "fullDescription", "help"] {
                assert!(
                    !r[field]["text"].as_str().unwrap().is_empty(),
                    "{field} of {}",
                    r["id"]
                );
            }
            assert!(r["properties"].get("security-severity").is_none());
        }
        for res in runs[0]["results"].as_array().unwrap() {
            let rule = res["ruleId"].as_str().unwrap();
            assert_eq!(ids[res["ruleIndex"].as_u64().unwrap() as usize], rule);
            assert!(["none", "note", "warning", "error"].contains(&res["level"].as_str().unwrap()));
            assert!(!res["message"]["text"].as_str().unwrap().is_empty());
            let loc = &res["locations"][0]["physicalLocation"];
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
            assert!(!uri.is_empty() && !uri.contains(' ') && !uri.starts_with('/'));
            let region = &loc["region"];
            for k in ["startLine", "startColumn", "endLine", "endColumn"] {
                assert!(region[k].as_u64().unwrap() >= 1, "{k}");
            }
            assert!(res["partialFingerprints"]["primaryLocationLineHash"].is_string());
            assert!(res["properties"].get("security-severity").is_none());
        }
    }
}

#[test]
fn junit_test_cases_are_unique_and_errors_fail() {
    for dir in trees() {
        let (report, ctx) = scan(&dir);
        let xml = render::junit(&report, &ctx);
        let cases: Vec<&str> = xml
            .lines()
            .filter(|l| l.trim_start().starts_with("<testcase "))
            .collect();
        assert_eq!(cases.len(), report.findings.len());
        let unique: BTreeSet<&str> = cases
            .iter()
            .map(|l| &l[..l.find(" file=").unwrap()])
            .collect();
        assert_eq!(
            unique.len(),
            cases.len(),
            "duplicate test cases in {}",
            dir.display()
        );
        let errors = report
            .findings
            .iter()
            // An error in tests is no failure.
            .filter(|f| f.severity == uplint::scan::Severity::Error && !f.context.is_test())
            .count();
        assert_eq!(xml.matches("<failure ").count(), errors);
        assert!(xml.contains(&format!("failures=\"{errors}\"")));
    }
}

#[test]
fn junit_and_html_escape_what_they_embed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a&b<c>.sh"),
        "echo \"<$CI_JOB_JWT>\" && x\n",
    )
    .unwrap();
    let (report, ctx) = scan(dir.path());
    assert_eq!(report.findings.len(), 1);
    let xml = render::junit(&report, &ctx);
    assert!(xml.contains("classname=\"a&amp;b&lt;c&gt;.sh\""), "{xml}");
    let html = render::html(&report, &ctx);
    assert!(
        html.contains("echo &quot;&lt;$<mark>CI_JOB_JWT</mark>&gt;&quot; &amp;&amp; x"),
        "{html}"
    );
    let sarif: Value = serde_json::from_str(&render::sarif(&report, &ctx)).unwrap();
    assert_eq!(
        sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "a%26b%3Cc%3E.sh"
    );
}

#[test]
fn rdjsonl_columns_are_utf8_bytes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("run.sh"), "echo \"héllo\" $CI_JOB_JWT\n").unwrap();
    let (report, _) = scan(dir.path());
    assert_eq!(report.findings[0].column, 15, "characters");
    let line: Value =
        serde_json::from_str(render::rdjsonl(&report).lines().next().unwrap()).unwrap();
    assert_eq!(line["location"]["range"]["start"]["column"], 16, "bytes");
    assert_eq!(line["location"]["range"]["end"]["column"], 26);
    assert_eq!(line["severity"], "ERROR");
    assert_eq!(line["code"]["value"], "ci-job-jwt");
}

#[test]
fn html_is_self_contained_with_filters() {
    let (report, ctx) = scan(&root().join("examples/upgrade-audit"));
    let html = render::html(&report, &ctx);
    for needle in [
        "<script",
        "id=\"f-version\"",
        "id=\"f-surface\"",
        "class=\"f-sev\"",
        "class=\"timeline\"",
        "By surface",
        "Removed in 17.0",
        "Removed in 18.0",
    ] {
        assert!(html.contains(needle), "{needle}");
    }
    // Nothing is loaded from elsewhere.
    for bad in ["src=\"http", "href=\"http", "@import", "url(http"] {
        assert!(!html.contains(bad), "{bad}");
    }
    assert_eq!(
        html.matches("<tr class=\"finding\"").count(),
        report.findings.len()
    );
}

#[test]
fn markdown_summary() {
    let (report, ctx) = scan(&root().join("examples/upgrade-audit"));
    insta::assert_snapshot!(render::markdown(&report, &ctx));
}

#[test]
fn every_format_is_deterministic() {
    let dir = root().join("tests/fixtures/scan/shell");
    let outputs = || {
        let (report, ctx) = scan(&dir);
        vec![
            render::json(&report, &ctx),
            render::concise(&report),
            render::codequality(&report),
            render::sarif(&report, &ctx),
            render::junit(&report, &ctx),
            render::github(&report),
            render::rdjsonl(&report),
            render::markdown(&report, &ctx),
            render::html(&report, &ctx),
        ]
    };
    assert_eq!(outputs(), outputs());
}
