//! The code-side forms that the Python and Ruby sample (`tests/realworld/sampled-gp.yaml`, its
//! tune part) showed missing: a client library's call in a file that does not import the library
//! itself (a module of a larger tool, which gets its client from elsewhere). The evidence is
//! then the call's receiver: the gitlab gem's `merge_request_changes` on an object named for the
//! platform (`gitlab.`, `Gitlab.`, `@gitlab_client.`), python-gitlab's `changes()` on an object
//! named for the merge request (`mr.`, `self.mr.`) in a file that names the platform. The files
//! are written for this test, modelled on (not copied from) the public files of that corpus.
//! Look-alikes stay silent: the same method of an object named for nothing, the gem's method name
//! in another language's string (an MCP tool's name), `changes()` of another object, and
//! `mr.changes()` in a file that names no platform at all.

mod common;
use common::{assert_found, assert_silent, scan_files};

/// A Ruby helper of a test-selection tool: its client comes from a method of another module.
const RUBY_TOOL: &str = r#"# frozen_string_literal: true

module Selector
  class ChangedFiles
    def initialize(project_path, iid)
      @project_path = project_path
      @iid = iid
    end

    def paths
      diff.changes.flat_map { |c| [c['old_path'], c['new_path']] }.uniq
    end

    private

    def diff
      @diff ||= gitlab.merge_request_changes(@project_path, @iid)
    end

    def other
      store.merge_request_changes(@project_path, @iid)
    end
  end
end
"#;

/// A gem-style spec: the module's method called directly, without `require 'gitlab'`.
const RUBY_SPEC: &str = r#"describe '.merge_request_changes' do
  before do
    @changes = Gitlab.merge_request_changes(4, 9)
  end

  it 'returns the diff' do
    expect(@changes.changes).to be_a Array
  end
end
"#;

/// An MCP server's tool table naming the gem's method in a string: no call of the gem.
const JS_TOOLS: &str = r#"export const tools = [
  { name: 'gitlab.merge_request_changes', description: 'diff of a merge request' },
  { name: 'gitlab.list_mrs', description: 'open merge requests' },
];
"#;

/// A reviewer module handed a python-gitlab merge request by its caller (no import here).
const PY_REVIEWER: &str = r#"class Reviewer:
    """Posts review comments on a GitLab merge request."""

    def __init__(self, mr, llm):
        self.mr = mr
        self.llm = llm

    def files(self):
        diffs = self.mr.changes()['changes']
        return [d['new_path'] for d in diffs]

    def summary(self, mr):
        data = mr.changes()
        return len(data['changes'])

    def history(self, store):
        return store.changes()
"#;

/// The same call in a file that names no platform: nothing says whose merge request it is.
const PY_NO_PLATFORM: &str = r#"def modified(merge_requests):
    for mr in merge_requests:
        for c in mr.changes()['changes']:
            yield c['new_path']
"#;

#[test]
fn gem_call_on_an_object_named_for_the_platform_without_require() {
    let found = scan_files(&[
        ("tooling/changed_files.rb", RUBY_TOOL),
        ("spec/merge_requests_spec.rb", RUBY_SPEC),
        ("mcp/tools.js", JS_TOOLS),
    ]);
    assert_found(
        &found,
        &[
            ("tooling/changed_files.rb", 17, "mr-changes-endpoint"),
            ("spec/merge_requests_spec.rb", 3, "mr-changes-endpoint"),
        ],
    );
    let rb: Vec<_> = found
        .iter()
        .filter(|(p, l, _)| p == "tooling/changed_files.rb" && *l == 21)
        .collect();
    assert!(
        rb.is_empty(),
        "store.merge_request_changes is no gem call: {rb:?}"
    );
    let spec: Vec<_> = found
        .iter()
        .filter(|(p, l, _)| p == "spec/merge_requests_spec.rb" && *l == 1)
        .collect();
    assert!(spec.is_empty(), "the describe text is no call: {spec:?}");
    assert_silent(&found, "mcp/tools.js");
}

#[test]
fn python_gitlab_changes_on_a_merge_request_in_a_module_without_import() {
    let found = scan_files(&[
        ("review/reviewer.py", PY_REVIEWER),
        ("metrics/modified.py", PY_NO_PLATFORM),
    ]);
    assert_found(
        &found,
        &[
            ("review/reviewer.py", 9, "mr-changes-endpoint"),
            ("review/reviewer.py", 13, "mr-changes-endpoint"),
        ],
    );
    let store: Vec<_> = found
        .iter()
        .filter(|(p, l, _)| p == "review/reviewer.py" && *l == 17)
        .collect();
    assert!(
        store.is_empty(),
        "store.changes() is another object's: {store:?}"
    );
    assert_silent(&found, "metrics/modified.py");
}

/// A release-notes helper reading python-gitlab merge requests handed to it: no import and no
/// name of the platform, but the merge request's `iid` (the platform's own numbering) is read from
/// the same objects.
const PY_NOTES: &str = r#"def render(section_mrs, lines):
    for mr in section_mrs:
        who = mr.merged_by["name"] if mr.merged_by else mr.author["name"]
        lines.append(f"- {mr.title} (!{mr.iid}) merged by {who}")
        if mr.merge_status != "can_be_merged":
            lines.append("  (conflicts)")
    return lines
"#;

/// Another tool's pull requests (`number`, no `iid`): the same reads are not the platform's.
const PY_OTHER_NOTES: &str = r#"def render(pulls, lines):
    for mr in pulls:
        who = mr.merged_by["login"] if mr.merged_by else ""
        lines.append(f"- {mr.title} (#{mr.number}) merged by {who}")
    return lines
"#;

#[test]
fn merge_request_reads_shown_by_the_iid_read_from_the_same_file() {
    let found = scan_files(&[
        ("notes/render.py", PY_NOTES),
        ("notes/other.py", PY_OTHER_NOTES),
    ]);
    assert_found(
        &found,
        &[
            ("notes/render.py", 3, "mr-merged-by"),
            ("notes/render.py", 5, "mr-merge-status"),
        ],
    );
    assert_silent(&found, "notes/other.py");
}
