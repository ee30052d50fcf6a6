//! The Python and Go forms that the python/go sample (`tests/realworld/sampled-kp.yaml`, its tune
//! part) showed missed or wrongly reported. The files are written for this test, modelled on (not
//! copied from) the public files of that corpus:
//! - the client library's registration options written where the file does not import the
//!   library: a runner operator's own copy of the type (`op.RegisterNewRunnerOptions{Token: …}`,
//!   handed to the operator's client that converts it), and a tool whose import of the library
//!   under another name (`gl`) is outside the text read; the fields given to the type count
//!   where the file shows the platform (the library's `Runners.RegisterNewRunner` call there is
//!   still not found: without the import it is no distinctive form, the library's own tests and
//!   messages write it too);
//! - a Python docstring after a `def` line that ends with a comment (`:  # noqa: ANN401`): prose,
//!   as any docstring.
//!
//! Look-alikes stay silent: a type of the same name in a file that does not show the platform,
//! and the variable named in a docstring.

mod common;
use common::{assert_found, assert_silent, findings_of, lines, scan_files};

/// A test of a runner operator: its own copy of the library's registration options, handed to
/// the operator's client (which converts it to the library's type and registers).
const GO_OPERATOR_TEST: &str = r#"package api

import (
	"testing"

	runnerop "example.dev/gitlab-runner-operator/api/v1alpha1"
)

func TestClientRegister(t *testing.T) {
	cl, _ := NewClient("token", "")
	_, _ = cl.Register(runnerop.RegisterNewRunnerOptions{
		Token:       ptr("reg-token"),
		Description: nil,
		TagList:     []string{"operator-test"},
	})
}
"#;

/// A tool of an MCP server: the library is imported as `gl` above the part read here.
const GO_TOOL_FRAGMENT: &str = r#"// Register creates a runner with a registration token.
func Register(ctx context.Context, client *gitlabclient.Client, in RegisterInput) (Output, error) {
	opts := &gl.RegisterNewRunnerOptions{
		Token: new(in.Token),
	}
	if in.Locked != nil {
		opts.Locked = in.Locked
	}
	if len(in.TagList) > 0 {
		opts.TagList = &in.TagList
	}
	r, _, err := client.GL().Runners.RegisterNewRunner(opts, gl.WithContext(ctx))
	if err != nil {
		return Output{}, err
	}
	return toOutput(r), nil
}
"#;

/// A build tool's own options type of the same name, in a file that does not show the platform.
const GO_OTHER_TOOL: &str = r#"package farm

type RegisterNewRunnerOptions struct {
	Token   string
	TagList []string
}

func register(pool *Pool) {
	opts := farm.RegisterNewRunnerOptions{
		Token:   pool.Secret,
		TagList: pool.Labels,
	}
	pool.Add(opts)
}
"#;

/// An OIDC check: the variable named in the method's docstring, and read below it.
const PY_OIDC: &str = r#"import os


class GitLabOIDCValidator:
    """Checks the job's OIDC token."""

    def validate(self, subject=None) -> bool:  # noqa: ANN401
        """Validate the token.

        If ``None``, reads ``CI_JOB_JWT_V2`` of the job.
        """
        token = subject or os.environ.get("CI_JOB_JWT_V2", "")
        return bool(token)
"#;

#[test]
fn registration_options_without_the_library_import() {
    let found = scan_files(&[
        ("api/client_test.go", GO_OPERATOR_TEST),
        ("tools/register.go", GO_TOOL_FRAGMENT),
        ("farm/register.go", GO_OTHER_TOOL),
    ]);
    assert_found(
        &found,
        &[
            ("api/client_test.go", 12, "runners-api-registration-token"),
            ("api/client_test.go", 14, "runners-api-registration-token"),
            ("tools/register.go", 4, "runners-api-registration-token"),
            ("tools/register.go", 7, "runners-api-registration-token"),
            ("tools/register.go", 10, "runners-api-registration-token"),
        ],
    );
    // The description is no item; a type of the same name where nothing shows the platform is
    // another system's.
    assert!(
        !findings_of(&found, "api/client_test.go")
            .iter()
            .any(|(l, _)| *l == 13),
        "{found:?}"
    );
    assert_silent(&found, "farm/register.go");
}

#[test]
fn docstring_after_a_header_that_ends_with_a_comment() {
    let found = scan_files(&[("releasekit/oidc.py", PY_OIDC)]);
    assert_eq!(
        findings_of(&found, "releasekit/oidc.py"),
        lines(&[(12, "ci-job-jwt")]),
        "{found:?}"
    );
}
