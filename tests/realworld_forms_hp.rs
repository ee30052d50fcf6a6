//! The code-side form that the Go and Python sample (`tests/realworld/sampled-hp.yaml`, its tune
//! part) showed missing: a Go client of its own that decodes the platform's merge request into an
//! unexported struct (`type glMR struct` with `json:"merge_status"`) and reads the field through
//! a method's receiver (`func (m *glMR) toPR()` … `m.MergeStatus`). The struct tag was found; the
//! reads were not, because a Go type that starts with a lower-case letter was not taken for a
//! type when the receiver's declaration was read. The file is written for this test, modelled on
//! (not copied from) the public file of that corpus. Look-alikes stay silent: a build server's own
//! unexported struct with a `MergeStatus` field read through its receiver, in a file that names
//! the platform too.

mod common;
use common::{assert_found, scan_files};

/// A forge adapter that shells out to the platform's CLI and decodes its merge request JSON.
const GO_FORGE: &str = r#"// Package forge talks to GitLab through the glab CLI.
package forge

import "encoding/json"

// glMR is the JSON of a merge request as glab prints it.
type glMR struct {
	Title       string `json:"title"`
	IID         int    `json:"iid"`
	MergeStatus string `json:"merge_status"`
	Draft       bool   `json:"draft"`
}

func (m *glMR) mergeable() bool {
	return m.MergeStatus == "can_be_merged" && !m.Draft
}

func (m *glMR) blocked(reason string) string {
	if m.Draft {
		return "draft"
	}
	return blockReason(m.MergeStatus, reason)
}

func decode(out []byte) (*glMR, error) {
	var mr glMR
	err := json.Unmarshal(out, &mr)
	return &mr, err
}

// buildState is the CI server's own record of a build, merged or not.
type buildState struct {
	MergeStatus string
	Ref         string
}

func (b *buildState) done() bool {
	return b.MergeStatus == "merged"
}
"#;

#[test]
fn read_of_a_removed_field_through_the_receiver_of_an_unexported_go_type() {
    let found = scan_files(&[("internal/forge/gitlab.go", GO_FORGE)]);
    assert_found(
        &found,
        &[
            ("internal/forge/gitlab.go", 10, "mr-merge-status"),
            ("internal/forge/gitlab.go", 15, "mr-merge-status"),
            ("internal/forge/gitlab.go", 22, "mr-merge-status"),
        ],
    );
    let own: Vec<_> = found
        .iter()
        .filter(|(p, l, _)| p == "internal/forge/gitlab.go" && (*l == 33 || *l == 38))
        .collect();
    assert!(
        own.is_empty(),
        "the build server's own MergeStatus is no merge request's: {own:?}"
    );
}
