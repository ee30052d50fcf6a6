//! A member of an inline object type (a parameter's `mr: { …; merge_status?: string; }`) is a
//! field of the resource the parameter is named for, in a file that names the platform; the
//! same member of a parameter named for something else (`job: {`), or in a file naming no
//! platform, is not. Fixtures written for these tests.

mod common;

const PRESENT: &str = r#"/** Shapes returned to the agent from the GitLab API. */
export function presentMergeRequest(mr: {
  id: number;
  iid: number;
  title: string;
  detailed_merge_status?: string;
  merge_status?: string;
}) {
  return { id: mr.id, title: mr.title };
}

export function presentJob(job: {
  id: number;
  merge_status?: string;
}) {
  return { id: job.id };
}
"#;

const ID: &str = "mr-merge-status";

#[test]
fn a_member_of_a_parameters_inline_type_is_the_resources_field() {
    let found = common::scan_files(&[("src/present.ts", PRESENT)]);
    assert_eq!(
        common::lines_of(&found, "src/present.ts", ID),
        [7],
        "{found:?}"
    );
}

#[test]
fn the_same_member_in_a_file_naming_no_platform_is_not() {
    let text = PRESENT.replace(" from the GitLab API", "");
    let found = common::scan_files(&[("src/present.ts", text.as_str())]);
    assert!(
        common::lines_of(&found, "src/present.ts", ID).is_empty(),
        "{found:?}"
    );
}
