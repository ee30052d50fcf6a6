//! `glab api PATH`, the platform's CLI, takes a path of the v4 REST API without `/api/v4`
//! (`projects/:id/merge_requests/12/changes`): in a shell line, in a string code runs through a
//! shell, in an argument list, with options before the path. Another forge's CLI (`gh api`) and
//! a relative path that nothing is handed are not the platform's. Fixtures written for these
//! tests.

mod common;

const ID: &str = "mr-changes-endpoint";

#[test]
fn the_path_argument_of_glab_api_is_an_api_path() {
    let found = common::scan_files(&[
        (
            "review/diff.go",
            "package review\n\nimport \"fmt\"\n\nfunc diffCmd(project, iid string) string {\n\treturn fmt.Sprintf(\"glab api --paginate projects/%s/merge_requests/%s/changes\", project, iid)\n}\n",
        ),
        (
            "scripts/mr-diff.sh",
            "#!/bin/sh\nset -eu\nglab api \"projects/$CI_PROJECT_ID/merge_requests/$MR_IID/changes\" | jq -r '.changes[].new_path'\nglab api -X GET projects/:id/merge_requests/12/changes\n",
        ),
        (
            "bot/fetch.py",
            "import subprocess\n\n\ndef changes(pid, iid):\n    out = subprocess.run([\"glab\", \"api\", f\"projects/{pid}/merge_requests/{iid}/changes\"], capture_output=True)\n    return out.stdout\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, "review/diff.go", ID),
        [6],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "scripts/mr-diff.sh", ID),
        [3, 4],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "bot/fetch.py", ID),
        [5],
        "{found:?}"
    );
}

#[test]
fn another_forges_cli_and_a_path_without_the_api_are_not_found() {
    let found = common::scan_files(&[
        (
            "review/pr.go",
            "package review\n\nimport \"fmt\"\n\nfunc prCmd(n int) string {\n\treturn fmt.Sprintf(\"gh api repos/o/r/pulls/%d/files\", n)\n}\n\nfunc key(project string, iid int) string {\n\treturn fmt.Sprintf(\"projects/%s/merge_requests/%d/changes\", project, iid)\n}\n",
        ),
        (
            "scripts/notes.sh",
            "#!/bin/sh\n# glab api projects/:id/merge_requests/1/changes is what we used before\necho done\n",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}
