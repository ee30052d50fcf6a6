//! Written forms of known items that are data lines, not code: each is found in a fixture
//! written for this test, and its look-alike is not.

mod common;

/// A command-line tool's own output of the merge request approvals response, named for the
/// approvals resource: the response carries the merge request's `merge_status` too (data line
/// `resource_field merge_status` of the `merge_request_approvals` resource, `mr-merge-status`).
const APPROVALS_OUTPUT: &str = r#"package output

// What `mr approvals` prints, from the GitLab approvals of a merge request.
type mergeRequestApprovalsView struct {
	IID         int64    `json:"iid"`
	MergeStatus string   `json:"merge_status"`
	Approved    bool     `json:"approved"`
	Approvers   []string `json:"approvers"`
}
"#;

/// The same view of a pipeline: not the approvals resource.
const PIPELINE_OUTPUT: &str = r#"package output

// What `pipeline show` prints, from the GitLab pipeline.
type pipelineView struct {
	ID          int64  `json:"id"`
	MergeStatus string `json:"merge_status"`
}
"#;

#[test]
fn merge_status_of_the_approvals_resource_is_a_data_line() {
    let found = common::scan_files(&[
        ("internal/output/approvals.go", APPROVALS_OUTPUT),
        ("internal/output/pipeline.go", PIPELINE_OUTPUT),
    ]);
    assert_eq!(
        common::findings_of(&found, "internal/output/approvals.go"),
        common::lines(&[(6, "mr-merge-status"), (8, "mr-approvals-approvers")]),
    );
    common::assert_silent(&found, "internal/output/pipeline.go");
}
