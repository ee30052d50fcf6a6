//! Forms found by scanning whole public repositories (issues 35 and 36, `tests/realworld/repos.yaml`):
//! vendored dependency trees are not the repository's code; a parameter named like a field, or
//! another resource's field of the same name, is no use; Go struct tags, TypeScript's optional
//! properties and python-gitlab's managers of one object are. Fixtures written for these tests,
//! modelled on what the scans showed.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod common;
use common::write_tree as tree;

/// (path, line, id) of each finding of `uplint scan` of the tree, in order.
fn scan(dir: &Path, extra: &[&str]) -> Vec<(String, u64, String)> {
    let mut args = vec![
        "scan",
        "--no-config",
        "--format",
        "json",
        "--target",
        "18.0",
        "--api",
        "v5",
        "--fail-on",
        "never",
    ];
    args.extend(extra);
    args.push(".");
    let out = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(&args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    common::finding_keys(&v)
}

fn lines_of(found: &[(String, u64, String)], path: &str, id: &str) -> Vec<u64> {
    found
        .iter()
        .filter(|f| f.0 == path && f.2 == id)
        .map(|f| f.1)
        .collect()
}

const GO_CLIENT: &str = r#"package client

func (s *GeoNodesService) ListGeoNodes() {
	req, err := s.client.NewRequest(http.MethodGet, "geo_nodes", nil, nil)
}
"#;

#[test]
fn vendored_dependency_trees_are_not_read() {
    let dir = tree(&[
        // The repository's own call.
        ("cmd/sync.go", GO_CLIENT),
        // `go mod vendor`'s copy of a client library, npm's and Bundler's installs.
        (
            "vendor/gitlab.com/example/client-go/geo_nodes.go",
            GO_CLIENT,
        ),
        (
            "vendor/modules.txt",
            "# gitlab.com/example/client-go v0.1.0\n",
        ),
        (
            "web/node_modules/gl-client/geo.js",
            "module.exports = () => fetch(`${base}/api/v4/geo_nodes`);\n",
        ),
        (
            "vendor/bundle/ruby/3.2.0/gems/gl-1.0/lib/geo.rb",
            "def geo_nodes\n  get('/geo_nodes')\nend\n",
        ),
        // A directory of the project's own that happens to be called vendor.
        (
            "vendor/scripts/geo.sh",
            "curl \"$GITLAB_URL/api/v4/geo_nodes\" -H \"PRIVATE-TOKEN: $TOKEN\"\n",
        ),
    ]);
    let found = scan(dir.path(), &[]);
    let paths: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(paths, ["cmd/sync.go", "vendor/scripts/geo.sh"], "{found:?}");
}

const RELEASES_TS: &str = r#"import { RequestHelper, endpoint } from '../infrastructure';

export interface ReleaseEvidence {
  sha: string;
  filepath: string;
  collected_at: string;
}

export interface ReleaseLinkSchema {
  id: number;
  filepath: string;
  link_type: string;
}

export class ReleaseLinks {
  create(projectId: number, tagName: string, name: string, url: string) {
    return RequestHelper.post()(this, endpoint`projects/${projectId}/releases/${tagName}/assets/links`, {
      name,
      url,
    });
  }

  download(
    projectId: string | number,
    tagName: string,
    filepath: string,
    options?: Record<string, unknown>,
  ) {
    return RequestHelper.get()(this, endpoint`projects/${projectId}/releases/${tagName}/downloads/${filepath}`, options);
  }
}
"#;

const RELEASES_PY: &str = r#"import requests

def download_asset(base, project, tag, filepath: str, token: str):
    url = f"{base}/api/v4/projects/{project}/releases/{tag}/downloads/{filepath}"
    return requests.get(url, headers={"PRIVATE-TOKEN": token})

def add_link(base, project, tag, token):
    url = f"{base}/api/v4/projects/{project}/releases/{tag}/assets/links"
    return requests.post(url, json={"name": "bin", "url": "https://x/bin", "filepath": "/bin"})
"#;

const RELEASES_RB: &str = r#"class ReleaseClient
  def add_binary(project, tag)
    post("/api/v4/projects/#{project}/releases/#{tag}/assets/links", body: link(name: 'bin', filepath: '/bin/tool'))
  end
end
"#;

#[test]
fn parameters_and_other_resources_fields_are_no_uses() {
    let dir = tree(&[
        ("src/ProjectReleases.ts", RELEASES_TS),
        ("tools/releases.py", RELEASES_PY),
        ("lib/release_client.rb", RELEASES_RB),
    ]);
    let found = scan(dir.path(), &[]);
    // The link's field is the entry's; the evidence's field and the parameter are not.
    assert_eq!(
        lines_of(&found, "src/ProjectReleases.ts", "release-links-filepath"),
        [11],
        "{found:?}"
    );
    // A Python parameter annotation is no field; the payload's key is.
    assert_eq!(
        lines_of(&found, "tools/releases.py", "release-links-filepath"),
        [9],
        "{found:?}"
    );
    // Ruby's named arguments are the payload: still a use.
    assert_eq!(
        lines_of(&found, "lib/release_client.rb", "release-links-filepath"),
        [3],
        "{found:?}"
    );
    // Nothing to fix at the parameter or the evidence: the file keeps them under --fix.
    let before = std::fs::read_to_string(dir.path().join("src/ProjectReleases.ts")).unwrap();
    scan(dir.path(), &["--fix", "--unsafe-fixes"]);
    let after = std::fs::read_to_string(dir.path().join("src/ProjectReleases.ts")).unwrap();
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(
        changed,
        [("  filepath: string;", "  direct_asset_path: string;")],
        "only the link's field is renamed"
    );
}

const SETTINGS_GO: &str = r#"package gitlab

// Settings of the instance.
type Settings struct {
	ID       int    `json:"id"`
	HelpText string `json:"help_text"`
}

// UpdateSettingsOptions of UpdateSettings.
type UpdateSettingsOptions struct {
	SignInText *string `url:"sign_in_text,omitempty" json:"sign_in_text,omitempty"`
}

func (s *SettingsService) GetSettings() (*Settings, error) {
	req, err := s.client.NewRequest(http.MethodGet, "application/settings", nil, nil)
	return nil, err
}
"#;

const NOT_SETTINGS_GO: &str = r#"package forms

type Page struct {
	HelpText string `json:"help_text"`
}
"#;

const MR_TS: &str = r#"export async function waitForMergeable(api, projectId: number, iid: number) {
  const { body } = await api.getJson<{
    merge_status?: string;
    detailed_merge_status?: string;
  }>(`/api/v4/projects/${projectId}/merge_requests/${iid}`);
  return body;
}
"#;

const SETTINGS_PY: &str = r#"from gitlab.base import RESTObject
from gitlab.mixins import GetWithoutIdMixin, UpdateMixin
from gitlab.types import RequiredOptional


class ApplicationSettingsManager(GetWithoutIdMixin, UpdateMixin):
    _path = "/application/settings"
    _update_attrs = RequiredOptional(
        optional=(
            "signup_enabled",
            "sign_in_text",
        ),
    )
"#;

#[test]
fn struct_tags_optional_properties_and_singleton_managers_are_fields() {
    let dir = tree(&[
        ("settings.go", SETTINGS_GO),
        ("forms/page.go", NOT_SETTINGS_GO),
        ("src/automerge.ts", MR_TS),
        ("gitlab/v4/objects/settings.py", SETTINGS_PY),
    ]);
    let found = scan(dir.path(), &[]);
    // A struct tag names the field; its url and json tags are one finding.
    assert_eq!(
        lines_of(&found, "settings.go", "settings-sign-in-text-help-text"),
        [6, 11],
        "{found:?}"
    );
    // A struct that no request of the file reads is not the endpoint's.
    assert!(
        lines_of(&found, "forms/page.go", "settings-sign-in-text-help-text").is_empty(),
        "{found:?}"
    );
    // TypeScript's optional property is a key.
    assert_eq!(
        lines_of(&found, "src/automerge.ts", "mr-merge-status"),
        [3],
        "{found:?}"
    );
    // The update of a manager of one object is a PUT to its own path.
    assert_eq!(
        lines_of(
            &found,
            "gitlab/v4/objects/settings.py",
            "settings-sign-in-text-help-text"
        ),
        [11],
        "{found:?}"
    );
}

const DANGER_GITLAB_RB: &str = r#"module Danger
  module RequestSources
    class GitLab < RequestSource
      def client
        require "gitlab"
        @client ||= Gitlab.client(endpoint: endpoint, private_token: @token)
      end

      def mr_changes
        @mr_changes ||= client.merge_request_changes(ci_source.repo_slug, ci_source.pull_request_id)
      end
    end
  end
end
"#;

const OMNIBUS_GITLAB_RB: &str = r#"external_url 'https://gitlab.example.com'
gitlab_rails['backup_pg_schema'] = 'gitlab'
"#;

#[test]
fn a_ruby_library_named_gitlab_rb_is_code_not_omnibus_settings() {
    let dir = tree(&[
        ("lib/danger/request_sources/gitlab.rb", DANGER_GITLAB_RB),
        ("config/gitlab.rb", OMNIBUS_GITLAB_RB),
    ]);
    let found = scan(dir.path(), &[]);
    assert_eq!(
        lines_of(
            &found,
            "lib/danger/request_sources/gitlab.rb",
            "mr-changes-endpoint"
        ),
        [10],
        "{found:?}"
    );
    // The Omnibus settings file is still read as one.
    assert_eq!(
        lines_of(&found, "config/gitlab.rb", "backup-pg-schema"),
        [2],
        "{found:?}"
    );
}

const LAB_MR_SHOW_GO: &str = r#"package cmd

import (
	"strings"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func approvers(approvalConfig *gitlab.MergeRequestApprovals) (string, string) {
	var users, groups []string
	for _, a := range approvalConfig.Approvers {
		users = append(users, a.User.Username)
	}
	for _, g := range approvalConfig.ApproverGroups {
		groups = append(groups, g.Group.Name)
	}
	for _, approvers := range approvalConfig.ApprovedBy {
		users = append(users, approvers.User.Username)
	}
	return strings.Join(users, ", "), strings.Join(groups, ", ")
}
"#;

#[test]
fn go_gitlab_consumers_read_the_approval_configurations_approvers() {
    let dir = tree(&[("cmd/mr_show.go", LAB_MR_SHOW_GO)]);
    let found = scan(dir.path(), &[]);
    // The library's fields; a loop variable named `approvers` is the program's.
    assert_eq!(
        lines_of(&found, "cmd/mr_show.go", "mr-approvals-approvers"),
        [11, 14],
        "{found:?}"
    );
}

const SCHEMA_GRAPHQL: &str = r#""""
Direct the client to resolve this field locally.
"""
directive @client on FIELD

type Namespace {
  """
  Status of the temporary storage increase. The previous name `RunnerMembershipFilter` went in 15.4.
  """
  isTemporaryStorageIncreaseEnabled: Boolean!
  temporaryStorageIncreaseEndsOn: Time
  totalWeight: Int
}
"#;

const QUERY_GRAPHQL: &str = r#"query Storage($path: ID!) {
  namespace(fullPath: $path) {
    isTemporaryStorageIncreaseEnabled
  }
}
"#;

#[test]
fn a_copy_of_the_platforms_graphql_schema_is_no_use() {
    let dir = tree(&[
        // genqlient's copy of the schema, whose first definition has a description.
        ("gitlab_schema.graphql", SCHEMA_GRAPHQL),
        ("pkg/queries/storage.graphql", QUERY_GRAPHQL),
    ]);
    let found = scan(dir.path(), &[]);
    let in_schema: Vec<_> = found
        .iter()
        .filter(|f| f.0 == "gitlab_schema.graphql")
        .collect();
    assert!(in_schema.is_empty(), "{in_schema:?}");
    // A query that selects the field is a use.
    assert_eq!(
        lines_of(
            &found,
            "pkg/queries/storage.graphql",
            "graphql-temporary-storage-increase"
        ),
        [3],
        "{found:?}"
    );
}

/// (path, context) of each finding of the tree's JSON report.
fn contexts(dir: &Path) -> Vec<(String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args([
            "scan",
            "--no-config",
            "--format",
            "json",
            "--target",
            "18.0",
        ])
        .args(["--api", "v5", "--fail-on", "never", "."])
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["context"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

const MR_FIXTURE_JS: &str = r#"module.exports = {
  mergeRequest: {
    iid: 7,
    source_branch: 'feature',
    target_branch: 'main',
    merge_status: 'can_be_merged',
  },
};
"#;

const REGISTER_SH: &str = "#!/bin/sh\ngitlab-runner register --non-interactive --url \"$CI_SERVER_URL\" --registration-token \"$TOKEN\"\n";

#[test]
fn fixture_and_mock_modules_and_molecule_scenarios_are_tests() {
    let dir = tree(&[
        // Test data beside the module its spec tests, named as test directories are.
        ("lib/utils/simplifyMergeRequest/fixtures.js", MR_FIXTURE_JS),
        ("src/api/mergeRequest.mock.ts", MR_FIXTURE_JS),
        // An Ansible role's Molecule scenario.
        ("molecule/default/prepare.sh", REGISTER_SH),
        // The role's own task is production.
        ("files/register.sh", REGISTER_SH),
    ]);
    let mut found = contexts(dir.path());
    found.sort();
    found.dedup();
    assert_eq!(
        found,
        [
            ("files/register.sh".to_string(), "production".to_string()),
            (
                "lib/utils/simplifyMergeRequest/fixtures.js".to_string(),
                "test".to_string()
            ),
            (
                "molecule/default/prepare.sh".to_string(),
                "test".to_string()
            ),
            (
                "src/api/mergeRequest.mock.ts".to_string(),
                "test".to_string()
            ),
        ],
    );
}

const RUNNERS_GO: &str = r#"package gitlab

import "fmt"

// UpdateRunnerDetailsOptions of UpdateRunnerDetails.
type UpdateRunnerDetailsOptions struct {
	Description *string `url:"description,omitempty" json:"description,omitempty"`
	Active      *bool   `url:"active,omitempty" json:"active,omitempty"`
}

func (s *RunnersService) UpdateRunnerDetails(rid int, opt *UpdateRunnerDetailsOptions) error {
	u := fmt.Sprintf("runners/%d", rid)
	req, err := s.client.NewRequest(http.MethodPut, u, opt, nil)
	return err
}
"#;

#[test]
fn a_struct_field_tagged_twice_is_one_finding() {
    let dir = tree(&[("runners.go", RUNNERS_GO)]);
    let found = scan(dir.path(), &[]);
    assert_eq!(
        lines_of(&found, "runners.go", "runners-active-property"),
        [8],
        "{found:?}"
    );
}

/// A webhook payload's nested merge request and runner are the event's own objects, not the
/// REST API's resources: their fields are no use, whether declared in a struct nested in an
/// event type or read through an event variable; the same fields of the API's own types are.
#[test]
fn a_webhook_events_nested_objects_are_not_the_apis_resources() {
    let go = r#"package gitlab

// Types of the GitLab API and of its webhook events.

type MergeRequest struct {
	IID         int    `json:"iid"`
	MergeStatus string `json:"merge_status"`
}

type Runner struct {
	ID     int  `json:"id"`
	Active bool `json:"active"`
}

type PipelineEvent struct {
	ObjectKind   string `json:"object_kind"`
	MergeRequest struct {
		IID         int    `json:"iid"`
		MergeStatus string `json:"merge_status"`
	} `json:"merge_request"`
	Runner struct {
		ID     int  `json:"id"`
		Active bool `json:"active"`
	} `json:"runner"`
}

func describe(event *PipelineEvent, expectedEvent *PipelineEvent) bool {
	return event.MergeRequest.MergeStatus == "can_be_merged" && expectedEvent.Runner.Active
}
"#;
    let dir = tree(&[("gitlab/types.go", go)]);
    let found = scan(dir.path(), &[]);
    assert_eq!(
        lines_of(&found, "gitlab/types.go", "mr-merge-status"),
        vec![7],
        "{found:?}"
    );
    assert_eq!(
        lines_of(&found, "gitlab/types.go", "runners-active-property"),
        vec![12],
        "{found:?}"
    );
}

/// A web app's built assets: the bundler's minified JavaScript holds the client library it was
/// built from (every endpoint of it), whatever the file's name. The app's own source is read.
#[test]
fn a_bundlers_output_is_not_the_repositorys_code() {
    let sdk = "class G extends R{all(e){return p.get()(this,\"geo_nodes\",e)}show(e,t){return p.get()(this,`geo_nodes/${e}`,t)}}".repeat(40);
    let bundle = format!(
        "import{{Gitlab as q}}from\"@gitbeaker/rest\";(function(){{const u=1;}})();\n{sdk}\n"
    );
    let src = "import { Gitlab } from '@gitbeaker/rest';\nconst api = new Gitlab({ token });\nexport const sites = () => api.GeoNodes.all();\n";
    let found = common::scan_files(&[
        ("docs/assets/index-Q3x9Lp.js", &bundle),
        ("src/sites.ts", src),
    ]);
    assert!(found.iter().all(|(p, ..)| p == "src/sites.ts"), "{found:?}");
    // The same code written out by a person, one statement a line, is read.
    let written = format!(
        "import {{ Gitlab }} from \"@gitbeaker/rest\";\n{}",
        sdk.replace("}}", "}}\n").replace(")}", ")}\n")
    );
    let found = common::scan_files(&[("web/geo.js", &written)]);
    assert!(
        found.iter().any(|(_, _, id)| id == "geo-nodes-endpoints"),
        "{found:?}"
    );
}
