//! The code-side forms of issue 35's "Why", each found at its line, and their look-alikes
//! silent. The tree is `tests/fixtures/realworld-forms-code/`: files written for this test,
//! modelled on the public files of the sampled corpus (`tests/realworld/sampled-code.yaml`):
//! an own Go client (struct tags, a query as structs and as a raw string, `fmt.Sprintf` paths,
//! `exec.Command`), Python (adjacent f-strings, dict access, an attribute read in a file whose
//! docstring links another platform's repository, python-gitlab's declarations), a zod and an
//! io-ts schema, a Vue component, the gitlab gem, gitlab4j getters, recorded responses without
//! the branches (approvals, a recorded update), the client library's own package, and
//! GitHub's, Azure DevOps' and an application's own objects with the same field names.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod common;

fn tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/realworld-forms-code")
}

/// (path, line, id) of every finding of a scan of the tree (target 18.0, REST API v5).
fn findings() -> BTreeSet<(String, u64, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(["scan", "--no-config", "--target", "18.0", "--api", "v5"])
        .args(["--format", "json", "."])
        .current_dir(tree())
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(0), "{v}");
    common::finding_keys(&v).into_iter().collect()
}

fn set(items: &[(&str, u64, &str)]) -> BTreeSet<(String, u64, String)> {
    items
        .iter()
        .map(|(p, l, i)| (p.to_string(), *l, i.to_string()))
        .collect()
}

fn assert_found(expected: &[(&str, u64, &str)]) {
    let all = findings();
    let missing: Vec<_> = set(expected).difference(&all).cloned().collect();
    assert!(
        missing.is_empty(),
        "not found: {missing:?}\nfindings: {all:?}"
    );
}

/// A client of its own in Go: the merge request's struct tags, a GraphQL field selected by a
/// struct tag (a query written as structs) and in a raw string, a path built by `fmt.Sprintf`,
/// `exec.Command("gitlab-runner", "register", …)`; a struct in a file named for the platform.
#[test]
fn go_client_of_its_own() {
    assert_found(&[
        ("mrclient.go", 18, "mr-merged-by"),
        ("mrclient.go", 19, "mr-merge-status"),
        ("mrclient.go", 27, "graphql-ci-runner-manager-fields"),
        ("mrclient.go", 42, "graphql-ci-runner-manager-fields"),
        ("mrclient.go", 49, "mr-changes-endpoint"),
        ("mrclient.go", 54, "runner-registration-token"),
        ("mrclient.go", 54, "runner-register-server-side-arguments"),
        ("models/gitlabMergeRequest.go", 10, "mr-merge-status"),
    ]);
}

/// Python: a path over adjacent f-strings (reported on the line of the literal that names the
/// endpoint), `mr.get("merge_status")`, `mr["merged_by"]…`, an
/// argument list with `--registration-token`; `merge_request.merge_status` in a file whose
/// docstring links a GitHub repository; python-gitlab's declared `filepath` of release links and
/// the registration token handed to `runners.create`.
#[test]
fn python_forms() {
    assert_found(&[
        ("mr_review.py", 9, "mr-changes-endpoint"),
        ("mr_review.py", 16, "mr-merge-status"),
        ("mr_review.py", 18, "mr-merged-by"),
        ("mr_review.py", 22, "runner-registration-token"),
        ("merge_bot.py", 11, "mr-merge-status"),
        ("release_links.py", 15, "release-links-filepath"),
        ("sync_runners.py", 8, "runners-api-registration-token"),
    ]);
}

/// A Python docstring is prose: the endpoint it documents is not reported there, the path the
/// function builds below it is.
#[test]
fn python_docstrings_are_prose() {
    let all = findings();
    assert!(all.contains(&("mr_diffs.py".into(), 12, "mr-changes-endpoint".into())));
    assert!(
        all.iter().all(|f| !(f.0 == "mr_diffs.py" && f.1 == 10)),
        "{all:?}"
    );
}

/// TypeScript, JavaScript and Vue: a zod and an io-ts schema of the merge request, a Vue
/// template reading `merged_by`, `cmd.push("--locked=false")`.
#[test]
fn typescript_javascript_vue_forms() {
    assert_found(&[
        ("schema.ts", 8, "mr-merge-status"),
        ("schema.ts", 13, "mr-merged-by"),
        ("MergeRequestCard.vue", 4, "mr-merged-by"),
        ("runner.js", 5, "runner-registration-token"),
        ("runner.js", 6, "runner-register-server-side-arguments"),
    ]);
}

/// Ruby with the gitlab gem (`merge_request_changes`, offset pagination of `users` with
/// `page:`), Java with gitlab4j (getters of removed fields).
#[test]
fn ruby_and_java_clients() {
    assert_found(&[
        ("release_tool.rb", 5, "mr-changes-endpoint"),
        ("release_tool.rb", 8, "users-offset-pagination"),
        ("MergeCheck.java", 7, "mr-merged-by"),
        ("MergeCheck.java", 8, "mr-merge-status"),
    ]);
}

/// Recorded responses of the merge request without its branches: the approvals (`iid` with
/// the approval state) and a recorded update (`merge_when_pipeline_succeeds`).
#[test]
fn recorded_merge_requests_without_branches() {
    assert_found(&[
        ("recorded/mr_approvals.json", 1, "mr-merge-status"),
        ("recorded/mr_update.json", 11, "mr-merge-status"),
        ("recorded/mr_update.json", 12, "mr-merged-by"),
    ]);
}

/// Go code of a client importing go-gitlab (its module path is no evidence of GitHub): a
/// one-word field read as a member (`approvalConfig.Approvers`, `.ApproverGroups`), a nested
/// struct named by its field with its tag written as an interpreted string.
#[test]
fn go_members_and_nested_structs() {
    assert_found(&[
        ("cmd/mr_approvers.go", 12, "mr-approvals-approvers"),
        ("cmd/mr_approvers.go", 15, "mr-approvals-approvers"),
        ("cmd/jobs_test.go", 14, "runners-active-property"),
    ]);
}

/// The client library's own package (no import of itself): its distinctive method names.
#[test]
fn client_library_own_package() {
    assert_found(&[(
        "gitlabclient/runners.go",
        7,
        "runner-reset-registration-token-endpoints",
    )]);
}

/// GitHub's `merged_by`, Azure DevOps' `MergeStatus`, an application's own `active` and
/// `status`, another API's `graphql:"ipAddress"`, and another server's own
/// `reset_registration_token` and a quiz app's `hasSolutions` (words other systems write: the
/// search index's hits for them are half other programs') are not reported.
#[test]
fn look_alikes_stay_silent() {
    let all = findings();
    let quiet = [
        "github_pr.go",
        "AzurePullRequest.cs",
        "subscriptions.py",
        "tokens/registration.rs",
        "quiz/PaperCard.jsx",
    ];
    for quiet in quiet {
        assert!(all.iter().all(|f| f.0 != quiet), "{quiet}: {all:?}");
    }
    assert!(
        all.iter().all(|f| !(f.0 == "mrclient.go" && f.1 == 34)),
        "{all:?}"
    );
}

/// Every finding of the tree is one of the lines named in the tests above.
#[test]
fn nothing_else_is_reported() {
    let expected = set(&[
        ("mrclient.go", 18, "mr-merged-by"),
        ("mrclient.go", 19, "mr-merge-status"),
        ("mrclient.go", 27, "graphql-ci-runner-manager-fields"),
        ("mrclient.go", 42, "graphql-ci-runner-manager-fields"),
        ("mrclient.go", 49, "mr-changes-endpoint"),
        ("mrclient.go", 54, "runner-registration-token"),
        ("mrclient.go", 54, "runner-register-server-side-arguments"),
        ("models/gitlabMergeRequest.go", 10, "mr-merge-status"),
        ("mr_review.py", 9, "mr-changes-endpoint"),
        ("mr_review.py", 16, "mr-merge-status"),
        ("mr_review.py", 18, "mr-merged-by"),
        ("mr_review.py", 22, "runner-registration-token"),
        ("merge_bot.py", 11, "mr-merge-status"),
        ("release_links.py", 15, "release-links-filepath"),
        ("sync_runners.py", 5, "runners-api-registration-token"),
        ("sync_runners.py", 8, "runners-api-registration-token"),
        ("schema.ts", 8, "mr-merge-status"),
        ("schema.ts", 13, "mr-merged-by"),
        ("MergeRequestCard.vue", 4, "mr-merged-by"),
        ("runner.js", 5, "runner-registration-token"),
        ("runner.js", 6, "runner-register-server-side-arguments"),
        ("release_tool.rb", 5, "mr-changes-endpoint"),
        ("release_tool.rb", 8, "users-offset-pagination"),
        ("MergeCheck.java", 7, "mr-merged-by"),
        ("MergeCheck.java", 8, "mr-merge-status"),
        ("recorded/mr_approvals.json", 1, "mr-merge-status"),
        ("recorded/mr_update.json", 11, "mr-merge-status"),
        ("recorded/mr_update.json", 12, "mr-merged-by"),
        (
            "gitlabclient/runners.go",
            7,
            "runner-reset-registration-token-endpoints",
        ),
        ("cmd/mr_approvers.go", 12, "mr-approvals-approvers"),
        ("cmd/mr_approvers.go", 15, "mr-approvals-approvers"),
        ("cmd/jobs_test.go", 14, "runners-active-property"),
        ("mr_diffs.py", 12, "mr-changes-endpoint"),
    ]);
    assert_eq!(findings(), expected);
}
