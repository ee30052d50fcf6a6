//! The runner-API forms that the runner-api sample of the seventh session
//! (`tests/realworld/sampled-kr.yaml`, its tune part) showed missed or wrongly reported. The files
//! are written for this test, modelled on (not copied from) the public files of that corpus:
//! - a python-gitlab tool that reads a runner's removed field by name, `getattr(r, "active",
//!   True)`, in the dict it builds for each runner `r` of `gl.runners.list()`;
//! - a deployment script built in a Python f-string whose `gitlab-runner register` command is
//!   continued over lines with an escaped backslash (`\\` at the end of each line of the source,
//!   one backslash in the string);
//! - a Terraform provider's data source that fills go-gitlab's `ListRunnersOptions.Status` from
//!   its own configuration (validated to `online`, `offline`, …): no removed status value, while
//!   `opts.Status = gitlab.Ptr("paused")` is one.
//!
//! Look-alikes stay silent: `getattr` of another object's `active`, a status filled from a
//! variable.

mod common;
use common::{assert_found, findings_of, scan_files};

/// An agent's tools over python-gitlab: list the runners with their state, pause one.
const PY_RUNNER_TOOLS: &str = r#"import gitlab


def _gl(url, token):
    return gitlab.Gitlab(url, private_token=token)


def list_runners(url, token, status=""):
    gl = _gl(url, token)
    kwargs = {"per_page": 50}
    if status:
        kwargs["status"] = status
    runners = gl.runners.list(**kwargs)
    return [
        {
            "id": r.id,
            "active": getattr(r, "active", True),
            "tags": getattr(r, "tag_list", []),
        }
        for r in runners
    ]


def feature_flags(flags):
    return [{"name": f.name, "active": getattr(f, "active", False)} for f in flags]
"#;

/// A cloud deployment that writes the runner's registration into an instance's startup script.
const PY_DEPLOY: &str = r#"import gitlab


class Deployment:
    def __init__(self, token, project_id, name, tags):
        self.token = token
        self.project_id = project_id
        self.name = name
        self.tags = tags

    def _registration_token(self):
        gl = gitlab.Gitlab("https://gitlab.example.com", private_token=self.token)
        return gl.projects.get(self.project_id).attributes["runners_token"]

    def startup_script(self):
        token = self._registration_token()
        return f'''#!/bin/sh
            gitlab-runner register \\
                --non-interactive \\
                --name={self.name} \\
                -u https://gitlab.example.com/ \\
                -r {token} \\
                --tag-list {self.tags} \\
                --executor docker '''
"#;

/// A provider's data source of the runners: its status filter is the provider's own
/// configuration, validated to the values the API still has; a test helper pins a removed one.
const GO_DATA_SOURCE: &str = r#"package provider

import (
	"context"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

type runnersModel struct {
	Status *string
	Paused *bool
}

func listRunners(ctx context.Context, client *gitlab.Client, config runnersModel) ([]*gitlab.Runner, error) {
	options := &gitlab.ListRunnersOptions{
		ListOptions: gitlab.ListOptions{PerPage: 20, Page: 1},
	}
	if config.Paused != nil {
		options.Paused = config.Paused
	}
	if config.Status != nil {
		options.Status = config.Status
	}
	runners, _, err := client.Runners.ListAllRunners(options, gitlab.WithContext(ctx))
	return runners, err
}

func pausedRunners(client *gitlab.Client) ([]*gitlab.Runner, error) {
	opts := &gitlab.ListRunnersOptions{}
	opts.Status = gitlab.Ptr("paused")
	runners, _, err := client.Runners.ListAllRunners(opts)
	return runners, err
}
"#;

#[test]
fn getattr_of_a_runner_field_by_name() {
    let found = scan_files(&[("tools/runners.py", PY_RUNNER_TOOLS)]);
    assert_found(
        &found,
        &[("tools/runners.py", 17, "runners-active-property")],
    );
    let lines: Vec<u64> = findings_of(&found, "tools/runners.py")
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(
        !lines.contains(&25),
        "getattr of a feature flag's active is no runner field: {lines:?}"
    );
}

#[test]
fn register_command_continued_with_escaped_backslashes() {
    let found = scan_files(&[("deploy.py", PY_DEPLOY)]);
    assert_found(
        &found,
        &[
            ("deploy.py", 22, "runner-registration-token"),
            ("deploy.py", 23, "runner-register-server-side-arguments"),
        ],
    );
}

#[test]
fn status_option_filled_from_a_variable_is_no_removed_value() {
    let found = scan_files(&[("internal/provider/runners.go", GO_DATA_SOURCE)]);
    let got = findings_of(&found, "internal/provider/runners.go");
    assert!(
        !got.iter().any(|(l, _)| *l == 22),
        "options.Status = config.Status is no removed status value: {got:?}"
    );
    assert_found(
        &found,
        &[(
            "internal/provider/runners.go",
            30,
            "runners-status-paused-active",
        )],
    );
}
