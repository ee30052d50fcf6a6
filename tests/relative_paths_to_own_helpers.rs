//! A relative path specific to the platform's API (`projects/${p}/merge_requests/${iid}/changes`:
//! two fixed segments or more, one of them the platform's own) handed to a helper of the file's
//! own (`this.callGitLabApi<any>(…)`) is the API's path in a file that names the platform, with
//! no method shown. The same path in a file that names no platform is not. Fixtures written for
//! these tests.

mod common;

const SERVICE: &str = r#"export class GitLabService {
  async changes(projectPath: string, iid: number) {
    const project = encodeURIComponent(projectPath);
    const details = await this.callGitLabApi<any>(`projects/${project}/merge_requests/${iid}`);
    const changes = await this.callGitLabApi<any>(
      `projects/${project}/merge_requests/${iid}/changes`,
    );
    return { details, changes };
  }
}
"#;

const ID: &str = "mr-changes-endpoint";

#[test]
fn a_specific_relative_path_handed_to_an_own_helper_is_found() {
    let found = common::scan_files(&[("src/gitlab.service.ts", SERVICE)]);
    assert_eq!(
        common::lines_of(&found, "src/gitlab.service.ts", ID),
        [6],
        "{found:?}"
    );
}

#[test]
fn a_specific_relative_path_kept_in_a_url_variable_is_found() {
    let text = "# GitLab merge request helper\ndef changes_url(project_id, iid):\n    api_path = f\"projects/{project_id}/merge_requests/{iid}/changes\"\n    return api_path\n\ndef cache_key(project_id, iid):\n    return remember(f\"projects/{project_id}/merge_requests/{iid}/changes\")\n";
    let found = common::scan_files(&[("tools/gitlab_mr.py", text)]);
    assert_eq!(
        common::lines_of(&found, "tools/gitlab_mr.py", ID),
        [3],
        "{found:?}"
    );
}

#[test]
fn the_same_path_in_a_file_naming_no_platform_is_not() {
    let text = SERVICE
        .replace("GitLabService", "ReviewService")
        .replace("callGitLabApi", "callApi");
    let found = common::scan_files(&[("src/review.service.ts", text.as_str())]);
    assert!(
        common::lines_of(&found, "src/review.service.ts", ID).is_empty(),
        "{found:?}"
    );
}
