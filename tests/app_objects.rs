//! An object in the merge request's shape that is not the platform's response: one a dashboard
//! builds from another platform's pull requests. The same shape built from the platform's
//! merge request is found. Fixtures written for this test, modelled on dashboards that show
//! both platforms' requests.

mod common;

const FROM_GITHUB: &str = r#"// Pull requests of GitHub, in the dashboard's unified shape.
export function fromGitHub(pr) {
  return {
    id: pr.id,
    iid: pr.number,
    title: pr.title,
    source_branch: pr.head.ref,
    target_branch: pr.base.ref,
    merged_by: null,
  };
}
"#;

const FROM_GITLAB: &str = r#"// Merge requests of GitLab, in the dashboard's unified shape.
export function fromGitLab(mr) {
  return {
    id: mr.id,
    iid: mr.iid,
    title: mr.title,
    source_branch: mr.source_branch,
    target_branch: mr.target_branch,
    merged_by: mr.merged_by,
  };
}
"#;

#[test]
fn objects_not_from_the_platform_are_silent() {
    let found = common::scan_files(&[
        ("src/github.js", FROM_GITHUB),
        ("src/gitlab.js", FROM_GITLAB),
    ]);
    common::assert_silent(&found, "src/github.js");
    assert_eq!(
        common::findings_of(&found, "src/gitlab.js"),
        common::lines(&[(9, "mr-merged-by")]),
    );
}

/// A variable declared with its type (`const approvers: string[] = …`) in a file that calls the
/// approvals endpoint is the app's own list, not the response's field; the response's field read
/// from the response is found.
const APPROVALS: &str = r#"const API = "https://gitlab.example.com/api/v4";

export async function details(projectId: number, iid: number) {
  const url = `${API}/projects/${projectId}/merge_requests/${iid}/approvals`;
  const approvals = await fetch(url).then((r) => r.json());
  const approvers: string[] = approvals?.approved_by?.map((i: any) => i.user.username) || [];
  const configured = approvals.approvers;
  return { approvers, configured };
}
"#;

#[test]
fn a_variable_declared_with_its_type_is_no_field() {
    let found = common::scan_files(&[("src/api.ts", APPROVALS)]);
    assert_eq!(
        common::findings_of(&found, "src/api.ts"),
        common::lines(&[(7, "mr-approvals-approvers")]),
    );
}
