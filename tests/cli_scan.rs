//! `uplint scan` as a user runs it: statuses for a target, the JSON contract, suppressions,
//! configuration, exit statuses, and a tree full of problems.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

mod common;
use common::errors;

fn uplint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("CI_PROJECT_PATH")
        .output()
        .expect("the binary runs")
}

fn json(dir: &Path, args: &[&str]) -> (Value, Option<i32>) {
    let mut all = vec!["scan", "--format", "json"];
    all.extend_from_slice(args);
    let o = uplint(dir, &all);
    let v: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    (v, o.status.code())
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn find<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {v:#}"))
}

/// A repository that uses CI_JOB_JWT_V2, strategy: depend and runnerRegistrationToken.
fn upgrade_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        ".gitlab-ci.yml",
        "deploy:\n  script:\n    - vault login -method=jwt jwt=$CI_JOB_JWT_V2\n\ndownstream:\n  trigger:\n    project: a/b\n    strategy: depend\n",
    );
    write(
        dir.path(),
        "chart/values.yaml",
        "runnerRegistrationToken: \"\"\nconcurrent: 4\n",
    );
    dir
}

#[test]
fn upgrade_from_16_5_to_17_0() {
    let dir = upgrade_repo();
    let (v, code) = json(dir.path(), &["--target", "17.0", "--current", "16.5"]);
    assert_eq!(code, Some(1));
    assert_eq!(v["target"], "17.0");
    assert_eq!(v["current"], "16.5");
    let jwt = find(&v, "ci-job-jwt");
    assert_eq!(
        (jwt["status"].as_str(), jwt["severity"].as_str()),
        (Some("removed"), Some("error"))
    );
    assert_eq!(jwt["removed_in"], "17.0");
    assert_eq!(
        jwt["replacement"],
        "ID tokens via the id_tokens keyword (since 15.7)"
    );
    assert_eq!(
        (jwt["line"].as_u64(), jwt["column"].as_u64()),
        (Some(3), Some(36))
    );
    assert_eq!(jwt["matched"], "CI_JOB_JWT_V2");
    let depend = find(&v, "ci-trigger-strategy-depend");
    assert_eq!(depend["removed_in"], "17.0");
    assert_eq!(depend["status"], "behaviour-change");
    assert_eq!(depend["severity"], "warning");
    assert_eq!(
        depend["replacement"],
        "show exactly the status of the downstream pipeline"
    );
    let helm = find(&v, "helm-runner-registration-token");
    assert_eq!(
        (helm["status"].as_str(), helm["severity"].as_str()),
        (Some("deprecated"), Some("warning"))
    );
    assert_eq!(helm["removed_in"], "18.0");
    assert_eq!(
        helm["replacement"],
        "runnerToken of the new runner token architecture"
    );

    let (v, code) = json(dir.path(), &["--target", "18.0", "--current", "16.5"]);
    assert_eq!(code, Some(1));
    assert_eq!(find(&v, "ci-job-jwt")["severity"], "error");
    assert_eq!(
        find(&v, "helm-runner-registration-token")["severity"],
        "error"
    );
    assert_eq!(
        find(&v, "helm-runner-registration-token")["status"],
        "removed"
    );
    // A behaviour change stays a warning whatever the target.
    assert_eq!(
        find(&v, "ci-trigger-strategy-depend")["severity"],
        "warning"
    );
}

#[test]
fn current_leaves_out_what_is_already_removed() {
    let dir = upgrade_repo();
    let (v, _) = json(dir.path(), &["--target", "18.0", "--current", "17.0"]);
    let ids: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["helm-runner-registration-token"]);
    assert_eq!(v["summary"]["before_current"], 2);
    let human = String::from_utf8(
        uplint(
            dir.path(),
            &["scan", "--target", "18.0", "--current", "17.0"],
        )
        .stdout,
    )
    .unwrap();
    assert!(
        human.contains("2 findings left out: already removed at or before 17.0"),
        "{human}"
    );
}

#[test]
fn json_contract() {
    let dir = upgrade_repo();
    let (v, _) = json(dir.path(), &[]);
    assert_eq!(
        v["target"], "18.0",
        "the default target is the newest version in the data"
    );
    assert!(v["current"].is_null());
    for f in v["findings"].as_array().unwrap() {
        for key in [
            "id",
            "path",
            "line",
            "column",
            "end_line",
            "end_column",
            "severity",
            "status",
            "removed_in",
            "matched",
            "message",
            "replacement",
        ] {
            assert!(f.get(key).is_some(), "{key} missing in {f}");
        }
    }
    let paths: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [".gitlab-ci.yml", ".gitlab-ci.yml", "chart/values.yaml"]
    );
    assert!(v["errors"].as_array().unwrap().is_empty());
    assert_eq!(v["summary"]["files_scanned"], 2);
    assert_eq!(v["summary"]["findings"], 3);
    // Deterministic: the same bytes twice.
    let a = uplint(dir.path(), &["scan", "--format", "json"]).stdout;
    let b = uplint(dir.path(), &["scan", "--format", "json"]).stdout;
    assert_eq!(a, b);
}

/// The entries the rendered outputs show: fixed, so that a new entry of the data (which could
/// match something in these trees) changes none of the snapshots below.
const RENDERED: &str = "ci-after-script-cancelled-jobs,ci-job-jwt,ci-trigger-strategy-depend,\
dast-zap-variables,runner-legacy-shell-escaping,runner-windows-cmd-shell,\
runner-termination-grace-period-seconds";

/// The formats on trees of their own (`tests/fixtures/render/`, unmarked copies of fixture
/// trees that the recipe for a new entry does not touch), for a fixed set of entries.
#[test]
fn rendered_outputs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scan = |format: &str, tree: &str| {
        let o = uplint(
            root,
            &[
                "scan",
                "--no-config",
                "--target",
                "17.0",
                "--select",
                RENDERED,
                "--format",
                format,
                tree,
            ],
        );
        assert_eq!(
            o.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    // The data digest changes with every edit of the data: not part of the snapshot.
    let json = scan("json", "tests/fixtures/render/ci");
    let digest = json.find("\"data\": \"fnv1a64:").expect("a data digest");
    let json = format!(
        "{}\"data\": \"[digest]\"{}",
        &json[..digest],
        &json[digest + 34..]
    );
    insta::assert_snapshot!("scan_ci_json", json);
    let human: String = scan("human", "tests/fixtures/render/ci")
        .lines()
        .map(|l| match l.find(" in ") {
            Some(i) if l.starts_with("Summary") => format!("{} in [time]", &l[..i]),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("scan_ci_human", human);
    let concise = scan("concise", "tests/fixtures/render/runner");
    insta::assert_snapshot!("scan_runner_concise", concise);
}

#[test]
fn explicit_files_as_pre_commit_passes_them() {
    let dir = upgrade_repo();
    let o = uplint(
        dir.path(),
        &[
            "scan",
            "--format",
            "concise",
            "chart/values.yaml",
            ".gitlab-ci.yml",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8(o.stdout).unwrap();
    let first: Vec<&str> = out.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        first,
        [
            ".gitlab-ci.yml:3:36:",
            ".gitlab-ci.yml:8:5:",
            "chart/values.yaml:1:1:"
        ]
    );
}

/// A file named on the command line is read whatever the ignore files say (as ripgrep does),
/// also through a symbolic link; a directory's ignored files are not.
#[test]
fn named_files_are_read_even_when_ignored() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    write(dir.path(), ".gitignore", "generated/\n");
    write(
        dir.path(),
        "generated/.gitlab-ci.yml",
        "a:\n  script: echo $CI_JOB_JWT\n",
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        "generated/.gitlab-ci.yml",
        dir.path().join("link.gitlab-ci.yml"),
    )
    .unwrap();
    let scanned = |args: &[&str]| -> Vec<String> {
        let (v, _) = json(dir.path(), args);
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
            .collect()
    };
    assert_eq!(scanned(&["."]), Vec::<String>::new());
    assert_eq!(
        scanned(&["generated/.gitlab-ci.yml"]),
        ["generated/.gitlab-ci.yml:2"]
    );
    #[cfg(unix)]
    {
        assert_eq!(
            scanned(&["link.gitlab-ci.yml", "generated/.gitlab-ci.yml"]),
            ["generated/.gitlab-ci.yml:2", "link.gitlab-ci.yml:2"]
        );
        // A named link to a FIFO is refused, not opened (which would wait for a writer).
        assert!(
            Command::new("mkfifo")
                .arg(dir.path().join("pipe"))
                .status()
                .unwrap()
                .success()
        );
        std::os::unix::fs::symlink("pipe", dir.path().join("pipe.gitlab-ci.yml")).unwrap();
        let (v, code) = json(dir.path(), &["pipe.gitlab-ci.yml"]);
        assert_eq!(code, Some(0));
        assert_eq!(
            v["errors"][0]["message"],
            "not a regular file (FIFO, socket or device): not read"
        );
    }
}

/// Files named one by one (a pre-commit hook's call) are read in the calling thread without
/// the directory walker: each is still scanned, listed as the walker lists it, or refused.
#[cfg(unix)]
#[test]
fn named_files_that_cannot_be_read_are_listed_with_the_others_scanned() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "ok.gitlab-ci.yml", "a:\n  script: echo $CI_JOB_JWT\n");
    std::os::unix::fs::symlink("ok.gitlab-ci.yml", d.join("link.gitlab-ci.yml")).unwrap();
    std::os::unix::fs::symlink("nowhere.sh", d.join("gone.sh")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.sh")).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(d.join("pipe.sh"))
            .status()
            .unwrap()
            .success()
    );
    let (v, code) = json(
        d,
        &[
            "ok.gitlab-ci.yml",
            "zero.sh",
            "gone.sh",
            "pipe.sh",
            "link.gitlab-ci.yml",
        ],
    );
    assert_eq!(code, Some(1));
    let found: Vec<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
        .collect();
    assert_eq!(found, ["link.gitlab-ci.yml:2", "ok.gitlab-ci.yml:2"]);
    assert_eq!(
        errors(&v),
        [
            "gone.sh: No such file or directory (os error 2)",
            "pipe.sh: not a regular file (FIFO, socket or device): not read",
            "zero.sh: not a regular file (FIFO, socket or device): not read",
        ]
    );
    assert_eq!(v["summary"]["files_scanned"], 2, "{}", v["summary"]);
}

#[test]
fn inline_and_file_suppressions() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        ".gitlab-ci.yml",
        "a:\n  script:\n    - echo $CI_JOB_JWT  # uplint: ignore[ci-job-jwt]\n    # uplint: ignore[ci-job-jwt, dast-zap-variables]\n    - echo $CI_JOB_JWT_V1\n    - echo $CI_JOB_JWT_V2\n    - echo ok  # uplint: ignore[ci-trigger-strategy-depend]\n    - echo ok  # uplint: ignore[no-such-rule]\n",
    );
    write(
        dir.path(),
        "b.sh",
        "# uplint: ignore-file[ci-job-jwt]\necho $CI_JOB_JWT\necho $CI_JOB_JWT_V2\n",
    );
    let (v, code) = json(dir.path(), &[]);
    let got: Vec<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{}:{}:{} {} {}",
                f["path"].as_str().unwrap(),
                f["line"],
                f["column"],
                f["id"].as_str().unwrap(),
                f["matched"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ".gitlab-ci.yml:4:34 unused-suppression dast-zap-variables",
            ".gitlab-ci.yml:6:13 ci-job-jwt CI_JOB_JWT_V2",
            ".gitlab-ci.yml:7:33 unused-suppression ci-trigger-strategy-depend",
            ".gitlab-ci.yml:8:33 unused-suppression no-such-rule",
        ]
    );
    assert_eq!(v["summary"]["suppressed"], 4);
    assert_eq!(code, Some(1));
    let unknown = &v["findings"][3];
    assert_eq!(
        unknown["message"],
        "suppression names `no-such-rule`, which is no id uplint knows"
    );
    assert_eq!(unknown["severity"], "warning");
}

#[test]
fn configuration_file() {
    let dir = upgrade_repo();
    write(dir.path(), "legacy/old.sh", "echo $CI_JOB_JWT\n");
    write(dir.path(), "vendor/lib.sh", "echo $CI_JOB_JWT\n");
    write(
        dir.path(),
        ".uplint.yml",
        "target: \"17.0\"\ncurrent: \"16.5\"\nignore: [ci-trigger-strategy-depend]\nper-path-ignores:\n  \"legacy/**\": [ci-job-jwt]\nexclude: [\"vendor/**\"]\nfail-on: warning\n",
    );
    // Found upward from a subdirectory too.
    std::fs::create_dir_all(dir.path().join("chart")).unwrap();
    let (v, code) = json(&dir.path().join("chart"), &[]);
    assert_eq!(v["target"], "17.0");
    assert_eq!(code, Some(1), "fail-on warning: the deprecation fails");
    let (v, _) = json(dir.path(), &[]);
    let ids: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["ci-job-jwt", "helm-runner-registration-token"]);
    // The command line wins.
    let (v, _) = json(dir.path(), &["--target", "18.0"]);
    assert_eq!(v["target"], "18.0");
    let (v, _) = json(dir.path(), &["--no-config"]);
    assert_eq!(v["target"], "18.0");
    assert_eq!(v["findings"].as_array().unwrap().len(), 5);
}

#[test]
fn bad_configuration_is_an_error_with_position() {
    let dir = upgrade_repo();
    for (text, at, what) in [
        (
            "target: \"17.x\"\n",
            ".uplint.yml:1:9",
            "`17.x` is not a valid version for `target`",
        ),
        (
            "targte: \"17.0\"\n",
            ".uplint.yml:1:1",
            "unknown setting `targte`",
        ),
        (
            "ignore: [ci-job-jw]\n",
            ".uplint.yml:1:10",
            "`ci-job-jw` is neither an entry id nor a surface",
        ),
    ] {
        write(dir.path(), ".uplint.yml", text);
        let o = uplint(dir.path(), &["scan"]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains(at) && err.contains(what), "{err}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn exit_statuses() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "values.yaml", "runnerRegistrationToken: x\n");
    let code = |args: &[&str]| uplint(dir.path(), args).status.code();
    assert_eq!(
        code(&["scan", "--target", "17.0"]),
        Some(0),
        "a deprecation is no error"
    );
    assert_eq!(
        code(&["scan", "--target", "17.0", "--fail-on", "warning"]),
        Some(1)
    );
    assert_eq!(code(&["scan", "--target", "18.0"]), Some(1));
    assert_eq!(code(&["scan", "--target", "18.0", "--exit-zero"]), Some(0));
    assert_eq!(
        code(&["scan", "--target", "18.0", "--fail-on", "never"]),
        Some(0)
    );
    assert_eq!(
        code(&["scan", "--target", "18.0", "--ignore", "helm"]),
        Some(0)
    );
    assert_eq!(
        code(&["scan", "--target", "18.0", "--select", "ci-job-jwt"]),
        Some(0)
    );
    assert_eq!(code(&["scan", "--target", "17.x"]), Some(2));
    assert_eq!(code(&["scan", "--select", "nope"]), Some(2));
    assert_eq!(code(&["scan", "no/such/path"]), Some(2));
    assert_eq!(
        code(&["scan", "--current", "18.0", "--target", "17.0"]),
        Some(2)
    );
}

#[test]
fn output_file() {
    let dir = upgrade_repo();
    let o = uplint(
        dir.path(),
        &["scan", "--format", "json", "--output", "report.json"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap())
            .unwrap();
    assert_eq!(v["summary"]["findings"], 3);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            n.contains("uplint-tmp").then_some(n)
        })
        .collect();
    assert!(leftovers.is_empty());
    let o = uplint(dir.path(), &["scan", "--output", "no/such/dir/report.json"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn supported_range_of_an_error_tracking_client() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (v, code) = json(
        root,
        &[
            "--no-config",
            "--min-version",
            "14.0",
            "--target",
            "17.0",
            // The client lies under tests/: its findings are the tests', counted only so.
            "--tests",
            "include",
            "tests/fixtures/api-client/error_tracking.py",
        ],
    );
    assert_eq!(code, Some(1));
    assert_eq!(
        (v["min_version"].as_str(), v["target"].as_str()),
        (Some("14.0"), Some("17.0"))
    );
    let got: Vec<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {} {} {}",
                f["line"],
                f["id"].as_str().unwrap(),
                f["status"].as_str().unwrap(),
                f["matched"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            "22 error-tracking-settings-put unavailable PUT /projects/:id/error_tracking/settings",
            "22 error-tracking-settings-put invalid-call PUT /projects/:id/error_tracking/settings",
            "29 error-tracking-client-keys unavailable GET /projects/:id/error_tracking/client_keys",
            "34 error-tracking-client-keys unavailable POST /projects/:id/error_tracking/client_keys",
            "34 error-tracking-client-keys invalid-call POST /projects/:id/error_tracking/client_keys",
            "41 error-tracking-client-keys unavailable DELETE /projects/:id/error_tracking/client_keys/:key_id",
        ]
    );
    let put = &v["findings"][1];
    assert_eq!(
        put["message"],
        "PUT /projects/:id/error_tracking/settings without `integrated`: the parameter is required"
    );
    assert_eq!(put["severity"], "error");
    // The correct GET settings call (line 9) and the PATCH with `active` (line 13) are fine.
    assert!(
        !got.iter()
            .any(|g| g.starts_with("9 ") || g.starts_with("13 "))
    );
    // From 15.10 on, every part exists: only the invalid calls remain.
    let (v, _) = json(
        root,
        &[
            "--no-config",
            "--min-version",
            "15.10",
            "tests/fixtures/api-client/error_tracking.py",
        ],
    );
    let statuses: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["invalid-call", "invalid-call"]);
    let human = String::from_utf8(
        uplint(
            root,
            &[
                "scan",
                "--no-config",
                "--min-version",
                "14.0",
                "--target",
                "17.0",
                "tests/fixtures/api-client",
            ],
        )
        .stdout,
    )
    .unwrap();
    assert!(
        human.contains("Summary (supported range 14.0 – 17.0)"),
        "{human}"
    );
    let o = uplint(root, &["scan", "--min-version", "18.0", "--target", "17.0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn calls_without_a_token_and_wrong_values() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (v, _) = json(
        root,
        &["--no-config", "tests/fixtures/api-client/error-tracking.sh"],
    );
    let got: Vec<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {} {}",
                f["line"],
                f["severity"].as_str().unwrap(),
                f["message"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            "3 error PATCH /projects/:id/error_tracking/settings without `active`: the parameter is required",
            "3 warning PATCH /projects/:id/error_tracking/settings without the PRIVATE-TOKEN header",
            "4 error PUT /projects/:id/error_tracking/settings with `integrated=false`: only true is accepted",
            "4 warning PUT /projects/:id/error_tracking/settings without the PRIVATE-TOKEN header",
            "5 error DELETE /projects/:id/error_tracking/client_keys/:key_id with `key_id` = `my-key`: a numeric id is required",
            "5 warning DELETE /projects/:id/error_tracking/client_keys/:key_id without the PRIVATE-TOKEN header",
            "6 error DELETE /projects/:id/error_tracking/client_keys without `key_id`: a DELETE needs the id",
        ]
    );
}

#[test]
fn several_reports_in_one_run() {
    let dir = upgrade_repo();
    let o = uplint(
        dir.path(),
        &[
            "scan",
            "--format",
            "concise",
            "--report",
            "codequality=gl-code-quality-report.json",
            "--report",
            "sarif=out/uplint.sarif",
        ],
    );
    // The directory of a report must exist: nothing is created behind the user's back.
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot write out/uplint.sarif"));
    std::fs::create_dir(dir.path().join("out")).unwrap();
    let o = uplint(
        dir.path(),
        &[
            "scan",
            "--format",
            "concise",
            "--report",
            "codequality=gl-code-quality-report.json",
            "--report",
            "sarif=out/uplint.sarif",
            "--report",
            "junit=junit.xml",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(String::from_utf8(o.stdout).unwrap().lines().count(), 3);
    let cq: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("gl-code-quality-report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(cq.as_array().unwrap().len(), 3);
    let sarif: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/uplint.sarif")).unwrap(),
    )
    .unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 3);
    assert!(
        std::fs::read_to_string(dir.path().join("junit.xml"))
            .unwrap()
            .contains("<testsuites")
    );
    let o = uplint(dir.path(), &["scan", "--report", "pdf=x.pdf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown format `pdf`"));
}

/// A tree of hostile files under `d/good`: binary, Latin-1, broken YAML, a 50 MB line, a
/// symlink loop, a FIFO, CRLF, a dangling link, an unreadable file. Whether this user can read
/// the unreadable file anyway (root can).
#[cfg(unix)]
fn hostile_tree(d: &Path) -> bool {
    use std::os::unix::fs::symlink;
    write(
        d,
        "good/.gitlab-ci.yml",
        "job:\n  script: [echo $CI_JOB_JWT]\n",
    );
    std::fs::write(d.join("good/binary.sh"), b"\x7fELF\x00\x00 CI_JOB_JWT").unwrap();
    std::fs::write(
        d.join("good/latin1.sh"),
        b"# caf\xe9\necho $CI_JOB_JWT_V1\n",
    )
    .unwrap();
    write(
        d,
        "good/broken.gitlab-ci.yml",
        "job:\n  script: [echo $CI_JOB_JWT_V2\n  trigger:\n    strategy: depend\n",
    );
    // A 50 MB file of one line, with a finding at its end.
    let mut big = vec![b'x'; 50 * 1024 * 1024];
    big.extend_from_slice(b" $CI_JOB_JWT\n");
    std::fs::write(d.join("good/huge.sh"), big).unwrap();
    symlink(".", d.join("good/loop")).unwrap();
    let fifo = d.join("good/pipe.sh");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    std::fs::write(d.join("good/crlf.sh"), "echo ok\r\necho $CI_JOB_JWT\r\n").unwrap();
    // Unreadable: a link to nothing (followed), and a file without read permission.
    symlink("missing-target.sh", d.join("good/dangling.sh")).unwrap();
    let locked = d.join("good/locked.sh");
    std::fs::write(&locked, "echo $CI_JOB_JWT\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    // A privileged user (root in CI containers) reads it anyway.
    std::fs::read(&locked).is_ok()
}

#[cfg(unix)]
#[test]
fn a_tree_full_of_problems_is_scanned_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let locked_readable = hostile_tree(d);

    let o = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args([
            "scan",
            "--format",
            "json",
            "--follow",
            "--no-config",
            "good",
            "good/vanished.sh",
        ])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "a path that does not exist is a usage error"
    );

    let o = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args([
            "scan",
            "--format",
            "json",
            "--follow",
            "--no-config",
            "good",
        ])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let found: Vec<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{}:{}:{} {}",
                f["path"].as_str().unwrap(),
                f["line"],
                f["column"],
                f["matched"].as_str().unwrap()
            )
        })
        .collect();
    let mut expected = vec![
        ".gitlab-ci.yml:2:18 CI_JOB_JWT",
        "broken.gitlab-ci.yml:2:18 CI_JOB_JWT_V2",
        "broken.gitlab-ci.yml:4:5 trigger.strategy: depend",
        "crlf.sh:2:7 CI_JOB_JWT",
        "huge.sh:1:52428803 CI_JOB_JWT",
        "latin1.sh:2:7 CI_JOB_JWT_V1",
    ];
    if locked_readable {
        expected.insert(6, "locked.sh:1:7 CI_JOB_JWT");
    }
    assert_eq!(found, expected);
    let errors = errors(&v);
    let has = |p: &str, m: &str| errors.iter().any(|e| e.starts_with(p) && e.contains(m));
    assert!(
        has("broken.gitlab-ci.yml", "YAML does not parse at"),
        "{errors:?}"
    );
    assert!(has("latin1.sh", "not valid UTF-8"), "{errors:?}");
    assert!(has("pipe.sh", "not a regular file"), "{errors:?}");
    assert!(has("loop", "symbolic link loop"), "{errors:?}");
    assert!(
        has("dangling.sh", "No such file or directory"),
        "{errors:?}"
    );
    if !locked_readable {
        assert!(
            has("locked.sh", "cannot read: Permission denied"),
            "{errors:?}"
        );
    }
    assert_eq!(v["summary"]["files_skipped_binary"], 1);
}

#[test]
fn a_target_past_the_data_is_said_once_whatever_the_number_of_files() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..3 {
        write(
            dir.path(),
            &format!("ci{i}/.gitlab-ci.yml"),
            "job:\n  script: echo $CI_JOB_JWT_V2\n",
        );
    }
    write(dir.path(), ".uplint.yml", "target: \"19.0\"\n");
    let o = uplint(dir.path(), &["scan", "--format", "concise", "."]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.matches(
            "warning: the target version 19.0 is past the newest version the data covers (18.0)"
        )
        .count(),
        1,
        "{err}"
    );
    assert_eq!(o.status.code(), Some(1), "{err}");
    let o = uplint(
        dir.path(),
        &["scan", "--format", "concise", "--target", "18.0", "."],
    );
    assert!(!String::from_utf8_lossy(&o.stderr).contains("past the newest"));
}

#[test]
fn a_registration_block_gives_one_token_finding_per_line() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "register.sh",
        "#!/bin/sh\n\
         : \"${REGISTRATION_TOKEN:?set REGISTRATION_TOKEN first}\"\n\
         gitlab-runner register \\\n  --non-interactive \\\n  --url \"$CI_SERVER_URL\" \\\n  \
         --registration-token \"${REGISTRATION_TOKEN:?set REGISTRATION_TOKEN}\" \\\n  \
         --executor shell\n",
    );
    let (v, _) = json(dir.path(), &["--target", "18.0", "."]);
    let token: Vec<(u64, u64)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["id"] == "runner-registration-token")
        .map(|f| (f["line"].as_u64().unwrap(), f["column"].as_u64().unwrap()))
        .collect();
    // Line 6 is the flag, found once though its value names the variable twice; line 2 checks
    // that the variable the flag is handed is set: the script's own, no use of its own.
    assert_eq!(token, [(6, 3)], "{v:#}");
}

#[test]
fn a_typo_in_the_configuration_is_a_configuration_error_with_the_nearest_setting() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".gitlab-ci.yml", "a:\n  script: echo hi\n");
    for (text, at, what, guess) in [
        (
            "currnet: \"16.5\"\n",
            ":1:1",
            "unknown setting `currnet`",
            "did you mean `current`?",
        ),
        (
            "fail-on: warnings\n",
            ":1:10",
            "unknown fail-on `warnings`",
            "did you mean `warning`?",
        ),
        (
            "ignore: [ci-job-jwtt]\n",
            ":1:10",
            "`ci-job-jwtt` is neither",
            "did you mean `ci-job-jwt`?",
        ),
    ] {
        write(dir.path(), ".uplint.yml", text);
        let o = uplint(dir.path(), &["scan", "."]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("uplint::config"), "{err}");
        assert!(err.contains(&format!(".uplint.yml{at}: {what}")), "{err}");
        assert!(err.contains(guess), "{err}");
        assert!(
            err.contains("error: invalid configuration: 1 problem"),
            "{err}"
        );
        assert!(!err.contains("data/README.md"), "{err}");
    }
}
