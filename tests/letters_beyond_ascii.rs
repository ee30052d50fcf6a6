//! Names glued to a letter of two bytes: each read of an identifier's start or end stops at a
//! character's end, not inside it (a byte in the middle of `é` made the scan of the file fail,
//! reported as an internal error). Fixtures written for these tests.

mod common;

#[test]
fn a_call_named_in_letters_beyond_ascii_is_read_without_a_fault() {
    // The called name after a letter of two bytes (`café(1)`): the scan neither fails nor
    // reports the file as an internal error.
    let py = "# GitLab client (api/v4)\nimport requests\n\ndef f():\n    détail = café(1)\n    return détail.get(\"ip_address\")\n";
    let report = common::scan_report(&[("c.py", py)], &[]);
    assert_eq!(common::errors(&report), Vec::<String>::new(), "{report:#}");
}

#[test]
fn a_declared_type_after_a_letter_beyond_ascii_is_read_without_a_fault() {
    // The type of a parameter glued to a letter of two bytes (`éMergeRequest mr`).
    let java = "// GitLab merge requests (api/v4)\nclass A {\n  void f(éMergeRequest mr) {\n    String s = mr.getMergeStatus();\n  }\n}\n";
    let report = common::scan_report(&[("A.java", java)], &[]);
    assert_eq!(common::errors(&report), Vec::<String>::new(), "{report:#}");
}
