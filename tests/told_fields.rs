//! A field told by the values only the platform's field takes: where a file compares
//! `merge_status` with `'can_be_merged'`, the field destructured from an object
//! (`const { iid, merge_status } = mr`) counts too. A merge request webhook's
//! `object_attributes` carry their own copy, and another system's `merge_status` compared with
//! its own values is not the platform's. Fixtures written for these tests.

mod common;

const ID: &str = "mr-merge-status";

#[test]
fn a_file_that_tells_the_field_by_its_values() {
    let found = common::scan_files(&[
        (
            "src/approve.ts",
            "import { listMergeRequests } from './api'\n\nexport async function approvable(projectId: number) {\n  const list = await listMergeRequests(projectId)\n  return list.filter((mr) => {\n    const { iid, merge_status } = mr\n    return iid > 0 && merge_status === 'can_be_merged'\n  })\n}\n",
        ),
        (
            "hooks/views.py",
            "def merge_event(request):\n    status = request.data['object_attributes']['merge_status']\n    if status == 'can_be_merged':\n        deploy()\n",
        ),
        (
            "src/pr.ts",
            "export function label(pr: { merge_status: string }) {\n  const { merge_status } = pr\n  return merge_status === 'clean' ? 'ok' : 'blocked'\n}\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, "src/approve.ts", ID),
        [6],
        "{found:?}"
    );
    common::assert_silent(&found, "hooks/views.py");
    common::assert_silent(&found, "src/pr.ts");
}
