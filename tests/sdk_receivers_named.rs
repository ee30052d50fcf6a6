//! A method of a client library's object called on a receiver the file never binds but whose
//! name says what it holds (a function's parameter `mr`: `def changed(mr): mr.changes()`) is
//! the library's method on that object, in a file importing the library. A receiver named for
//! something else (`repo.changes()`) is not. Fixtures written for these tests.

mod common;

const SCRIPT: &str = r#"import gitlab


def changed_files(mr):
    return {c["new_path"] for c in mr.changes()["changes"]}


def repo_changes(repo):
    return repo.changes()
"#;

#[test]
fn a_method_on_a_receiver_named_for_the_object_is_found() {
    let found = common::scan_files(&[("ci/changed.py", SCRIPT)]);
    assert_eq!(
        common::lines_of(&found, "ci/changed.py", "mr-changes-endpoint"),
        [5],
        "{found:?}"
    );
}
