//! A field read into a variable that a line below compares with a value only the platform's
//! field takes (`merge_status = data.get('merge_status')` then `if merge_status ==
//! 'can_be_merged':`) is the platform's field, in a file that calls none of its endpoints (the
//! JSON of `glab mr view`). A read whose variable is compared with an application's own values
//! is not. Fixtures written for these tests.

mod common;

const VIEW: &str = r#"import json
import subprocess


def pr_view(number):
    out = subprocess.run(["glab", "mr", "view", str(number), "-F", "json"], capture_output=True)
    data = json.loads(out.stdout)
    merge_status = data.get('merge_status', 'unknown')
    if merge_status == 'can_be_merged':
        return 'mergeable'
    return 'unknown'


def job_view(job):
    merge_status = job.get('merge_status', 'none')
    if merge_status == 'queued':
        return 'waiting'
    return merge_status
"#;

#[test]
fn a_field_told_through_its_variable_is_found() {
    let found = common::scan_files(&[("scripts/vcs.py", VIEW)]);
    assert_eq!(
        common::lines_of(&found, "scripts/vcs.py", "mr-merge-status"),
        [8],
        "{found:?}"
    );
}
