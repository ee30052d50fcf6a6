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
