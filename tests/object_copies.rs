//! An object literal that copies a value named for the platform's resource before its keys
//! (`{ ...baseMergeRequest, merged_by: … }`, Python's `{**mr, "merge_status": …}`) is that
//! resource. Fixtures written for this test, modelled on an MCP server's schema tests.

mod common;

const SCHEMA_TESTS: &str = r#"import { GitLabMergeRequestSchema } from "../src/schemas";

const baseMergeRequest = { id: "1", iid: 7, title: "Fix", state: "opened" };

export const cases = [
  {
    name: "gitlab merge request keeps merged_by",
    input: {
      ...baseMergeRequest,
      state: "merged",
      merged_by: { id: "8", username: "merger" },
    },
  },
];
"#;

/// The same tests for the GitHub side of the same server.
const GITHUB_TESTS: &str = r#"import { GitHubPullRequestSchema } from "../src/schemas";

const basePullRequest = { number: 7, title: "Fix", state: "open" };

export const cases = [
  {
    name: "github pull request keeps merged_by",
    input: {
      ...basePullRequest,
      merged_by: { login: "merger" },
    },
  },
];
"#;

const PY_COPY: &str = r#"import gitlab


def merged(mr):
    return {**mr, "merge_status": "can_be_merged", "state": "merged"}


def closed(issue):
    return {**issue, "merge_status": "n/a"}
"#;

#[test]
fn a_copy_of_a_merge_request_is_one() {
    let found = common::scan_files(&[
        ("test/schema-tests.ts", SCHEMA_TESTS),
        ("test/github-tests.ts", GITHUB_TESTS),
        ("tools/copy.py", PY_COPY),
    ]);
    let expected = common::keys(&[
        ("test/schema-tests.ts", 11, "mr-merged-by"),
        ("tools/copy.py", 5, "mr-merge-status"),
    ]);
    assert_eq!(
        found, expected,
        "the merge request's copies, not the pull request's or the issue's"
    );
}

/// Shorthand properties are keys of the object (`{ id, iid, title, … }`): a factory of the
/// merge request whose `iid` is written shorthand is the merge request, and so is a
/// destructuring parameter naming its keys.
const FACTORY: &str = r#"export function buildMergeRequest(iid, overrides = {}) {
  return {
    id: overrides.id ?? iid,
    iid,
    state: overrides.state ?? "opened",
    merged_by: overrides.merged_by ?? null,
    target_branch: overrides.target_branch ?? "main",
    source_branch: overrides.source_branch ?? "feature",
  };
}

export function printMergeRequest({ iid, source_branch, target_branch, merge_status: status }) {
  return `!${iid} ${source_branch} -> ${target_branch} (${status})`;
}

// An issue has an iid too, and no branches.
export function buildIssue(iid) {
  return { iid, title: "t", merged_by: null };
}
"#;

#[test]
fn shorthand_properties_are_keys() {
    let found = common::scan_files(&[("test/factories/merge-requests.js", FACTORY)]);
    assert_eq!(
        common::findings_of(&found, "test/factories/merge-requests.js"),
        common::lines(&[(6, "mr-merged-by"), (12, "mr-merge-status")]),
    );
}
