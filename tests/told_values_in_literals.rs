//! A removed field told by a value only the platform's field takes, written in a literal: a
//! quoted key of a dict or object (`{"merge_status": "cannot_be_merged"}`, a test's table of
//! payloads), and a removed status among the comma-separated values of a query parameter
//! (`/runners?status=online,offline,paused`). The same words inside a longer string, and a
//! list of values that holds no removed one, are not. Fixtures written for this test, modelled
//! on a forge adapter's tests and a runner-provisioning script found in a fresh blind sample.

mod common;

#[test]
fn a_quoted_key_given_a_telling_value() {
    let path = "tests/test_forge.py";
    let found = common::scan_files(&[(
        path,
        "import pytest\n\n\n@pytest.mark.parametrize(\"payload,expected\", [\n    ({\"detailed_merge_status\": \"mergeable\"}, True),\n    # legacy fallback for old GitLab versions\n    ({\"merge_status\": \"cannot_be_merged\"}, False),\n    ({\"merge_status\": \"can_be_merged\"}, True),\n])\ndef test_signal(payload, expected):\n    log(\"merge_status can_be_merged is gone\")\n    assert signal(payload) is expected\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "mr-merge-status"),
        [7, 8],
        "{found:?}"
    );
}

#[test]
fn a_removed_status_listed_in_a_query() {
    let path = "scripts/find-runner.sh";
    let found = common::scan_files(&[(
        path,
        "#!/bin/sh\ncurl -sf -H \"PRIVATE-TOKEN: $TOKEN\" \\\n  \"$GITLAB_URL/api/v4/runners?type=instance_type&status=online,offline,paused\"\ncurl -sf -H \"PRIVATE-TOKEN: $TOKEN\" \\\n  \"$GITLAB_URL/api/v4/runners?type=instance_type&status=online,offline\"\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runners-status-paused-active"),
        [3],
        "{found:?}"
    );
}
