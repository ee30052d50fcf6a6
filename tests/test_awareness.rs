//! Production and test findings (#36): every finding carries its context in every format; test
//! files and mocks are `test`, server routes are no client calls, `--tests` decides what
//! `--fail-on` counts; the error tracking call checks apply only where the request is written in
//! the call. The tree is `tests/fixtures/context/` (an SDK with a shared request helper, a mock
//! server, a Flask app, raw curl scripts, a JS client with its nock helper and its tests).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/context")
}

fn uplint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// The fixture tree scanned from inside it, in `format`, with extra flags.
fn scan(format: &str, extra: &[&str]) -> (String, Option<i32>) {
    let mut args = vec!["scan", "--config", ".uplint.yml", "--format", format];
    args.extend(extra);
    args.push(".");
    let o = uplint(&tree(), &args);
    (String::from_utf8(o.stdout).unwrap(), o.status.code())
}

/// (path, line, id, context, message) of each finding of the JSON report.
fn findings(extra: &[&str]) -> Vec<(String, u64, String, String, String)> {
    let (out, _) = scan("json", extra);
    let v: Value = serde_json::from_str(&out).unwrap();
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["id"].as_str().unwrap().to_string(),
                f["context"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn test_files_and_mocks_are_test_findings() {
    let all = findings(&[]);
    let context = |path: &str| -> Vec<&str> {
        all.iter()
            .filter(|f| f.0 == path)
            .map(|f| f.3.as_str())
            .collect()
    };
    // A test file by its path; the nock helper of a production-looking file by its region.
    assert!(
        context("gitlab/__tests__/runners.test.js")
            .iter()
            .all(|c| *c == "test")
    );
    assert!(!context("gitlab/__tests__/runners.test.js").is_empty());
    assert_eq!(context("gitlab/runners_helpers.js"), ["test"]);
    // The mocked response of a Go stub server.
    assert_eq!(context("sdk/error_tracking_mock.go"), ["test"]);
    // The client's own call and the scripts are production.
    assert_eq!(context("gitlab/runners.js"), ["production"]);
    assert!(
        context("scripts/register-runner.sh")
            .iter()
            .all(|c| *c == "production")
    );
}

#[test]
fn server_routes_are_no_client_calls() {
    let all = findings(&[]);
    let in_app: Vec<_> = all.iter().filter(|f| f.0 == "server/app.py").collect();
    assert!(in_app.is_empty(), "a Flask route is no call: {in_app:?}");
    // The Go mock's mux route is no call either: only the mocked response's field is left.
    let in_mock: Vec<_> = all
        .iter()
        .filter(|f| f.0 == "sdk/error_tracking_mock.go")
        .map(|f| f.2.as_str())
        .collect();
    assert_eq!(in_mock, ["error-tracking-integrated"]);
}

#[test]
fn error_tracking_call_checks_know_their_call() {
    let all = findings(&[]);
    let messages = |path: &str| -> Vec<&str> {
        all.iter()
            .filter(|f| f.0 == path)
            .map(|f| f.4.as_str())
            .collect()
    };
    // An SDK method through the client's NewRequest: its availability and its path only.
    let sdk = messages("sdk/error_tracking.go");
    assert!(
        !sdk.iter()
            .any(|m| m.contains("PRIVATE-TOKEN") || m.contains("without `active`")),
        "{sdk:?}"
    );
    assert!(
        sdk.iter().any(|m| m.contains("introduced in 12.7")),
        "{sdk:?}"
    );
    assert!(
        sdk.iter()
            .any(|m| m.contains("DELETE /projects/:id/error_tracking/client_keys without `key_id`")),
        "the true finding stays: {sdk:?}"
    );
    // A mock handler: no call check.
    assert!(
        !messages("sdk/error_tracking_mock.go")
            .iter()
            .any(|m| m.contains("without")),
    );
    // A raw curl without the header: the finding stays.
    assert!(
        messages("scripts/enable-error-tracking.sh")
            .iter()
            .any(|m| m.contains("without the PRIVATE-TOKEN header"))
    );
}

/// A tree whose only error is in a test file.
fn tests_only_tree(config: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("tests")).unwrap();
    std::fs::write(
        dir.path().join("tests/test_register.py"),
        "import requests\n\ndef test_register(url, token):\n    requests.post(f\"{url}/api/v4/runners\", data={\"token\": token})\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("app.py"), "print('hello')\n").unwrap();
    if let Some(c) = config {
        std::fs::write(dir.path().join(".uplint.yml"), c).unwrap();
    }
    dir
}

#[test]
fn tests_modes_decide_what_fail_on_counts() {
    let run = |config: Option<&str>, extra: &[&str]| {
        let dir = tests_only_tree(config);
        let mut args = vec!["scan", "--target", "18.0", "--format", "json"];
        args.extend(extra);
        args.push(".");
        let o = uplint(dir.path(), &args);
        let v: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
        (
            o.status.code(),
            v["summary"]["findings"].as_u64(),
            v["summary"]["test"].as_u64(),
        )
    };
    // Default: reported, not counted.
    let (code, n, test) = run(None, &[]);
    assert_eq!(code, Some(0));
    assert!(n.unwrap() >= 1);
    assert_eq!(n, test);
    // Counted as production.
    assert_eq!(run(None, &["--tests", "include"]).0, Some(1));
    assert_eq!(run(Some("tests: include\n"), &[]).0, Some(1));
    // The command line wins over the file.
    assert_eq!(
        run(Some("tests: include\n"), &["--tests", "exclude"]).0,
        Some(0)
    );
    // Left out.
    assert_eq!(
        run(None, &["--tests", "ignore"]),
        (Some(0), Some(0), Some(0))
    );
    // A bad value is refused at its place.
    let dir = tests_only_tree(Some("tests: maybe\n"));
    let o = uplint(dir.path(), &["scan", "--target", "18.0", "."]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown tests `maybe`"), "{err}");
}

#[test]
fn every_format_marks_test_findings() {
    // SARIF: properties.context, and `note` for a test finding.
    let (sarif, _) = scan("sarif", &[]);
    let v: Value = serde_json::from_str(&sarif).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    let mut seen = (false, false);
    for r in results {
        let path = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        match r["properties"]["context"].as_str().unwrap() {
            "test" => {
                assert_eq!(r["level"], "note", "{path}");
                seen.0 = true;
            }
            "production" => {
                assert_ne!(r["level"], "note", "{path}");
                seen.1 = true;
            }
            other => panic!("context {other}"),
        }
    }
    assert_eq!(seen, (true, true));
    // Code Quality: `info` for every test finding.
    let (cq, _) = scan("codequality", &[]);
    let v: Value = serde_json::from_str(&cq).unwrap();
    for issue in v.as_array().unwrap() {
        let test = issue["description"].as_str().unwrap().ends_with("[test]");
        let path = issue["location"]["path"].as_str().unwrap();
        let is_test_path = path.contains("__tests__")
            || path == "gitlab/runners_helpers.js"
            || path == "sdk/error_tracking_mock.go";
        assert_eq!(test, is_test_path, "{path}");
        if test {
            assert_eq!(issue["severity"], "info");
        }
    }
    // JUnit: a test finding is named `[test]` and never fails.
    let (junit, _) = scan("junit", &[]);
    for case in junit.split("<testcase ").skip(1) {
        if case.contains("[test]") {
            assert!(!case.contains("<failure"), "{case}");
        }
    }
    assert!(junit.contains("[test]"));
    // Concise: a `[test]` marker.
    let (concise, _) = scan("concise", &[]);
    for l in concise.lines() {
        assert_eq!(
            l.ends_with("[test]") || l.contains("[test] (use:"),
            l.starts_with("gitlab/__tests__/")
                || l.starts_with("gitlab/runners_helpers.js")
                || l.starts_with("sdk/error_tracking_mock.go"),
            "{l}"
        );
    }
    // GitHub: test findings are notices; rdjsonl: INFO.
    let (github, _) = scan("github", &[]);
    assert!(
        github
            .lines()
            .filter(|l| l.contains("file=gitlab/runners_helpers.js"))
            .all(|l| l.starts_with("::notice "))
    );
    let (rdjsonl, _) = scan("rdjsonl", &[]);
    for l in rdjsonl.lines().filter(|l| l.contains("runners_helpers.js")) {
        assert!(l.contains("\"severity\":\"INFO\""), "{l}");
    }
    // Markdown: marked; HTML: a data attribute and a section of their own.
    let (md, _) = scan("markdown", &[]);
    assert!(md.contains("`gitlab/runners_helpers.js:6` (test)"), "{md}");
    assert!(
        md.contains("| of them in tests (not counted by --fail-on) | 5 |"),
        "{md}"
    );
    let (html, _) = scan("html", &[]);
    assert!(html.contains("<h2>Findings in tests"));
    assert!(html.contains("<tr><td>gitlab/runners_helpers.js</td><td>1</td></tr>"));
    let (html_all, _) = scan("html", &["--tests", "include"]);
    assert!(html_all.contains("data-context=\"test\""));
}

#[test]
fn the_human_report_lists_production_first_and_summarises_tests() {
    let (human, _) = scan("human", &[]);
    let tests_at = human.find("\nTests\n").expect("a Tests section");
    // Every production file comes before the section; no test finding is shown in full.
    for production in [
        "gitlab/runners.js\n",
        "scripts/register-runner.sh\n",
        "sdk/error_tracking.go\n",
    ] {
        let at = human
            .find(production)
            .unwrap_or_else(|| panic!("{production}\n{human}"));
        assert!(at < tests_at, "{production}");
    }
    assert!(!human.contains("= at gitlab/runners_helpers.js"));
    assert!(
        human.contains("  gitlab/__tests__/runners.test.js: 3 test findings (see --tests include)")
    );
    assert!(human.contains("  gitlab/runners_helpers.js: 1 test finding (see --tests include)"));
    assert!(human.contains("5 of them in tests"), "{human}");
    // With `--tests include` they are shown in full, in place.
    let (full, _) = scan("human", &["--tests", "include"]);
    assert!(!full.contains("\nTests\n"));
    assert!(full.contains("= at gitlab/runners_helpers.js:6:12"));
}

#[test]
fn merge_reads_reports_with_and_without_the_context() {
    let (json, _) = scan("json", &[]);
    let new: Value = serde_json::from_str(&json).unwrap();
    let mut old = new.clone();
    for f in old["findings"].as_array_mut().unwrap() {
        f.as_object_mut().unwrap().remove("context");
    }
    old["summary"].as_object_mut().unwrap().remove("test");
    old["project"] = Value::from("old/project");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("new.json"), new.to_string()).unwrap();
    std::fs::write(dir.path().join("old.json"), old.to_string()).unwrap();
    let o = uplint(
        dir.path(),
        &["merge", "--format", "json", "new.json", "old.json"],
    );
    assert!(
        o.status.success() || o.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let merged: Value = serde_json::from_slice(&o.stdout).unwrap();
    let contexts = |prefix: &str| -> Vec<String> {
        merged["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["path"].as_str().unwrap().starts_with(prefix))
            .map(|f| f["context"].as_str().unwrap().to_string())
            .collect()
    };
    // The old report's findings are production; the new one's keep their context.
    assert!(contexts("old/project/").iter().all(|c| c == "production"));
    assert_eq!(
        contexts("").iter().filter(|c| *c == "test").count(),
        5,
        "the new report's five test findings"
    );
    assert_eq!(merged["summary"]["test"], 5);
}
