//! Known detection gaps of issue 35, each closed in its general form and each with a
//! look-alike that stays silent. The files are written for these tests, modelled on public
//! files of the kinds named (old Ansible, Puppet and shell installs of the runner, Salt pillars,
//! SDK consumers in Go and TypeScript); none is copied.

mod common;
use common::{Keys, assert_found, assert_silent};

/// No finding on these lines of `path`.
fn assert_silent_lines(all: &Keys, path: &str, lines: &[u64]) {
    let there: Vec<_> = all
        .iter()
        .filter(|(p, l, _)| p == path && lines.contains(l))
        .collect();
    assert!(
        there.is_empty(),
        "{path} {lines:?} must stay silent: {there:?}"
    );
}

const SERVER_SIDE: &str = "runner-register-server-side-arguments";
const TOKEN: &str = "runner-registration-token";

/// Gap 1: the runner's program under its old name (`gitlab-ci-multi-runner`, before 10.0), in
/// a shell install script, a Puppet `exec`, an Ansible `command:`; and the current name as an
/// absolute path, with `.exe`, after `sudo`, as the runner image's command of `docker run`.
#[test]
fn the_runner_under_its_old_name_and_other_spellings_of_the_program() {
    let install = "#!/bin/bash\n\
set -e\n\
curl -L https://packages.gitlab.com/install/repositories/runner/gitlab-ci-multi-runner/script.deb.sh | bash\n\
apt-get install -y gitlab-ci-multi-runner\n\
gitlab-ci-multi-runner register --non-interactive \\\n\
  --url \"$CI_URL\" --registration-token \"$REG\" \\\n\
  --executor shell --tag-list \"deploy,shell\" --locked=false\n\
sudo /usr/bin/gitlab-ci-multi-runner register -n --run-untagged=true --access-level not_protected\n\
gitlab-ci-multi-runner start\n";
    let puppet = "class profile::ci_runner (String $token, Array $tags = ['puppet']) {\n\
  $opts = \"--url https://git.example.org/ --executor docker --tag-list ${join($tags, ',')}\"\n\
  exec { 'register-runner':\n\
    command => \"gitlab-ci-multi-runner register --non-interactive --locked=false ${opts}\",\n\
    unless  => 'grep -q token /etc/gitlab-runner/config.toml',\n\
  }\n\
  package { 'gitlab-ci-multi-runner': ensure => installed }\n\
}\n";
    let other = "#!/bin/sh\n\
/usr/bin/gitlab-runner register --non-interactive --tag-list a,b\n\
gitlab-runner.exe register --non-interactive --maximum-timeout 3600\n\
sudo gitlab-runner register --non-interactive --locked\n\
docker run --rm -v /srv/runner:/etc/gitlab-runner gitlab/gitlab-runner:v15.0.0 register \\\n\
  --non-interactive --tag-list docker --paused\n";
    // Look-alikes: the package, the image and the program under its old name without
    // register, and register's own words in prose.
    let alike = "FROM sameersbn/gitlab-ci-multi-runner:1.1.4\n\
RUN apt-get install -y gitlab-ci-multi-runner && echo '--locked is handled by the UI'\n\
CMD [\"gitlab-ci-multi-runner\", \"run\", \"--working-directory\", \"/home/ci\"]\n";
    let all = common::scan_files(&[
        ("install.sh", install),
        ("manifests/runner.pp", puppet),
        ("spellings.sh", other),
        ("Dockerfile", alike),
    ]);
    assert_found(
        &all,
        &[
            ("install.sh", 6, TOKEN),
            ("install.sh", 7, SERVER_SIDE),
            ("install.sh", 8, SERVER_SIDE),
            ("manifests/runner.pp", 4, SERVER_SIDE),
            ("spellings.sh", 2, SERVER_SIDE),
            ("spellings.sh", 3, SERVER_SIDE),
            ("spellings.sh", 4, SERVER_SIDE),
            ("spellings.sh", 6, SERVER_SIDE),
        ],
    );
    assert_silent_lines(&all, "install.sh", &[3, 4, 9]);
    assert_silent_lines(&all, "manifests/runner.pp", &[7]);
    assert_silent(&all, "Dockerfile");
}

/// Gap 5: go-gitlab's `RegisterNewRunnerOptions` in a consumer: keyed fields of its composite
/// literal, and the fields a variable of the type is given afterwards; the new flow's
/// `CreateUserRunnerOptions` with the same fields stays silent.
#[test]
fn go_gitlab_register_options_in_a_consumer() {
    let fleet = r#"package fleet

import (
	"fmt"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

type Spec struct {
	Tags    []string
	Timeout int
}

func registerLegacy(c *gitlab.Client, regToken string, s Spec) (string, error) {
	opts := &gitlab.RegisterNewRunnerOptions{
		Token:       gitlab.Ptr(regToken),
		Description: gitlab.Ptr("fleet"),
		TagList:     &s.Tags,
		RunUntagged: gitlab.Ptr(len(s.Tags) == 0),
	}
	if s.Timeout > 0 {
		opts.MaximumTimeout = gitlab.Ptr(s.Timeout)
	}
	opts.Locked = gitlab.Ptr(false)
	var extra gitlab.RegisterNewRunnerOptions
	extra.AccessLevel = gitlab.Ptr("ref_protected")
	if extra.AccessLevel == nil {
		return "", fmt.Errorf("unreachable")
	}
	r, _, err := c.Runners.RegisterNewRunner(opts)
	if err != nil {
		return "", err
	}
	return r.Token, nil
}

func createCurrent(c *gitlab.Client, s Spec) (string, error) {
	opts := &gitlab.CreateUserRunnerOptions{
		RunnerType: gitlab.Ptr("instance_type"),
		TagList:    &s.Tags,
		Locked:     gitlab.Ptr(false),
	}
	opts.MaximumTimeout = gitlab.Ptr(s.Timeout)
	r, _, err := c.Users.CreateUserRunner(opts)
	if err != nil {
		return "", err
	}
	return r.Token, nil
}

func pause(o *gitlab.RegisterNewRunnerOptions) {
	o.Paused = gitlab.Ptr(true)
}

func retag(o *gitlab.UpdateRunnerDetailsOptions, tags []string) {
	o.TagList = &tags
}
"#;
    let all = common::scan_files(&[("internal/fleet/register.go", fleet)]);
    let p = "internal/fleet/register.go";
    let id = "runners-api-registration-token";
    assert_found(
        &all,
        &[
            (p, 16, id),
            (p, 18, id),
            (p, 19, id),
            (p, 22, id),
            (p, 24, id),
            (p, 26, id),
            (p, 30, id),
            (p, 52, id),
        ],
    );
    // Reading a field is no setting of it; the new flow's options, and another options type's
    // parameter of the same name, are not the endpoint's.
    assert_silent_lines(&all, p, &[17, 27, 38, 39, 40, 41, 42, 43, 44, 45, 56]);
}

/// Gap 4: gitbeaker's `CreateRunnerOptions` (the options of `Runners.create` and
/// `Runners.register`, POST /runners with a registration token): the keys of the call's
/// options, of a value annotated with the type and the fields it is given; the same keys for
/// `Runners.edit` (`EditRunnerOptions`, PUT /runners/:id) and `UserRunners.create` stay silent.
#[test]
fn gitbeaker_create_runner_options() {
    let ts = r#"import { Gitlab } from '@gitbeaker/rest';
import type { CreateRunnerOptions, EditRunnerOptions } from '@gitbeaker/core';

const api = new Gitlab({ host: process.env.GITLAB_URL, token: process.env.GITLAB_TOKEN! });

export async function registerLegacy(regToken: string, tags: string[]) {
  const created = await api.Runners.create(regToken, {
    description: 'ci-fleet',
    tagList: tags,
    runUntagged: tags.length === 0,
  });
  const options: CreateRunnerOptions = {
    locked: false,
    accessLevel: 'ref_protected',
  };
  options.maximumTimeout = 3600;
  await api.Runners.register(regToken, { ...options, paused: true });
  return created.token;
}

export async function retag(runnerId: number, tags: string[]) {
  const edit: EditRunnerOptions = { tagList: tags, locked: true };
  edit.maximumTimeout = 600;
  await api.Runners.edit(runnerId, edit);
  await api.UserRunners.create('instance_type', { tagList: tags, locked: false });
}
"#;
    let all = common::scan_files(&[("src/runners.ts", ts)]);
    let p = "src/runners.ts";
    let id = "runners-api-registration-token";
    assert_found(
        &all,
        &[
            (p, 9, id),
            (p, 10, id),
            (p, 13, id),
            (p, 14, id),
            (p, 16, id),
            (p, 17, id),
        ],
    );
    assert_silent_lines(&all, p, &[8, 21, 22, 23, 24, 25, 26]);
}

/// Gap 2: the registration token as a key of a runner's settings in another tool's data: a
/// Salt pillar (`gitlab-runner:` above it, or a deployment named for runners two keys up),
/// Ansible vars, Chef attributes, a JSON role, a Terraform object read by its path. GitHub's
/// runner, Consul's and Buildkite's `registration_token` stay silent, and so does a runner key
/// in a file that never names the platform.
#[test]
fn registration_token_under_a_runner_key() {
    let pillar = r#"# GitLab CI runners of the build farm
gitlab-runner:
  url: https://gitlab.example.net/
  registration_token: {{ salt['vault'].read_secret('ci/runner')['token'] }}
  executor: docker
deployments:
  build-runners:
    config:
      run_as: gitlab-runner
      registration-token: GR1348941example
"#;
    let vars = r#"---
gitlab_url: https://gitlab.corp.example
runner:
  registrationToken: "{{ vault_runner_token }}"
  concurrent: 4
github_runner:
  registration_token: "{{ vault_gh_token }}"
consul:
  registration_token: "{{ consul_token }}"
"#;
    let chef = "default['gitlab_runner']['url'] = 'https://gitlab.example.org'\n\
default['gitlab_runner']['registration_token'] = 'changeme'\n\
default['buildkite_runner']['registration_token'] = 'other'\n";
    let role = "{\n  \"name\": \"ci\",\n  \"default_attributes\": {\n    \"gitlab-runner\": {\n      \"registration_token\": \"x\",\n      \"tags\": [\"docker\"]\n    }\n  }\n}\n";
    let tf = "resource \"null_resource\" \"runner\" {\n\
  triggers = {\n\
    token = md5(var.settings.runner.registrationToken)\n\
  }\n\
}\n\
# registers against gitlab\n";
    // No platform named: a CI runner of something else.
    let other = "runner:\n  registration_token: abc\n  server: https://ci.example.org\n";
    let all = common::scan_files(&[
        ("pillar/ci/runners.sls", pillar),
        ("group_vars/ci.yml", vars),
        ("cookbooks/ci/attributes/default.rb", chef),
        ("roles/ci.json", role),
        ("infra/runner.tf", tf),
        ("deploy/other.yml", other),
    ]);
    assert_found(
        &all,
        &[
            ("pillar/ci/runners.sls", 4, TOKEN),
            ("pillar/ci/runners.sls", 10, TOKEN),
            ("group_vars/ci.yml", 4, TOKEN),
            ("cookbooks/ci/attributes/default.rb", 2, TOKEN),
            ("roles/ci.json", 5, TOKEN),
            ("infra/runner.tf", 3, TOKEN),
        ],
    );
    assert_silent_lines(&all, "group_vars/ci.yml", &[7, 9]);
    assert_silent_lines(&all, "cookbooks/ci/attributes/default.rb", &[3]);
    assert_silent(&all, "deploy/other.yml");
}

/// Gap 6: register's flags in JavaScript and TypeScript strings: a template literal nested in
/// another, a CDK-style `commands.push` of one flag, an array joined into the command, and a
/// command inside a JSON-escaped string (a CDK snapshot's user data), where `\"…\"` quotes a
/// value holding parentheses. Prose about a flag and another subcommand stay silent.
#[test]
fn register_flags_in_javascript_strings() {
    let ts = r#"import { UserData } from 'aws-cdk-lib/aws-ec2';

export function runnerUserData(token: string, tags: string[], url: string): UserData {
  const userData = UserData.forLinux();
  const commands: string[] = ['yum install -y docker'];
  commands.push(`gitlab-runner register --non-interactive --url ${url} ${`--tag-list ${tags.join(',')}`} --executor docker`);
  commands.push(`--tag-list "${tags.join(',')}"`);
  commands.push('--locked=false');
  const flags = ['register', '--non-interactive', `--maximum-timeout=${3600}`, '--run-untagged'].join(' ');
  commands.push(`gitlab-runner ${flags}`);
  commands.push('gitlab-runner run --working-directory /home/gitlab-runner');
  console.log('tags are set with --tag-list on the runner page');
  userData.addCommands(...commands);
  return userData;
}
"#;
    let snapshot = r##"test('user data', () => {
  expect(template).toEqual({
    UserData: [
      "#!/bin/bash\nmkdir -p $(dirname '/etc/agent.json')\naws s3 cp 's3://",
      "/asset.json' '/etc/agent.json'\ndocker run -d --name gitlab-runner-register public.ecr.aws/gitlab/gitlab-runner:latest register --non-interactive --url https://gitlab.com/ --description \"Runner on EC2 (t3.small)\" --docker-image \"alpine:3\" --tag-list \"aws,cdk\" --locked=false\nsleep 2",
    ],
  });
});
"##;
    let all = common::scan_files(&[("lib/user-data.ts", ts), ("test/runner.test.ts", snapshot)]);
    let p = "lib/user-data.ts";
    assert_found(
        &all,
        &[
            (p, 6, SERVER_SIDE),
            (p, 7, SERVER_SIDE),
            (p, 8, SERVER_SIDE),
            (p, 9, SERVER_SIDE),
            ("test/runner.test.ts", 5, SERVER_SIDE),
        ],
    );
    assert_silent_lines(&all, p, &[11, 12]);
    let on_five: Vec<_> = all
        .iter()
        .filter(|(q, l, i)| q == "test/runner.test.ts" && *l == 5 && i == SERVER_SIDE)
        .collect();
    assert_eq!(on_five.len(), 1, "{all:?}");
}

/// Gap 3: a webhook receiver's structs of the JSON the platform posts (`MergeEventPayload`
/// with a nested `MergeRequest` struct, `MergeRequestPayload`) and the reads of a value
/// declared with such a type are not the REST resource; the REST client's own merge request
/// struct beside them is.
#[test]
fn webhook_payload_structs_are_not_the_rest_resource() {
    let hook = r#"package receiver

import "net/http"

// MergeEventPayload is what GitLab posts to the webhook on a merge request event.
type MergeEventPayload struct {
	ObjectKind   string `json:"object_kind"`
	MergeRequest struct {
		IID         int    `json:"iid"`
		MergeStatus string `json:"merge_status"`
		MergedBy    *User  `json:"merged_by"`
	} `json:"object_attributes"`
}

type MergeRequestPayload struct {
	ObjectKind  string `json:"object_kind"`
	MergeStatus string `json:"merge_status"`
}

type User struct {
	Username string `json:"username"`
}

func status(p MergeEventPayload) string {
	return p.MergeRequest.MergeStatus
}

func serve(w http.ResponseWriter, r *http.Request) {}
"#;
    let client = r#"package gitlabclient

// gitlabMR is a merge request of the GitLab REST API (GET /projects/:id/merge_requests/:iid).
type gitlabMR struct {
	IID         int    `json:"iid"`
	MergeStatus string `json:"merge_status"`
}
"#;
    let all = common::scan_files(&[("receiver/hook.go", hook), ("gitlabclient/mr.go", client)]);
    assert_found(&all, &[("gitlabclient/mr.go", 6, "mr-merge-status")]);
    assert_silent(&all, "receiver/hook.go");
}

/// Gap 8: a TypeScript parameter named `active` (typed inline, destructured, with a default,
/// used as a value) is the program's own, not the runner's removed field, in a file that calls
/// the runners API; the field sent in a request body is reported.
#[test]
fn a_parameter_named_active_is_the_programs_own() {
    let ts = r#"// Admin helpers over the GitLab runners API.
import { http } from './http';

export async function listRunners(active: boolean, page = 1) {
  return http.get(`/api/v4/runners/all?page=${page}`, { params: { status: active ? 'online' : 'offline' } });
}

export function runnerRow({ active, id }: { active: boolean; id: number }) {
  return http.get(`/api/v4/runners/${id}`).then((r) => ({ ...r, shown: active }));
}

export async function setActive(id: number, active = true) {
  return http.put(`/api/v4/runners/${id}`, { paused: !active });
}

export async function legacyEnable(id: number) {
  return http.put(`/api/v4/runners/${id}`, { active: true });
}
"#;
    let all = common::scan_files(&[("src/admin/runners.ts", ts)]);
    let p = "src/admin/runners.ts";
    assert_found(&all, &[(p, 17, "runners-active-property")]);
    assert_silent_lines(&all, p, &[4, 5, 8, 9, 12, 13]);
}

/// Gap 7: two related entries meet on one use even where the use is a command continued over
/// several lines (the API call on one line, its registration token on the next); a command
/// after it, on its own line, is not part of that use.
#[test]
fn related_entries_meet_in_a_command_continued_over_lines() {
    let sh = "#!/bin/sh\n\
curl --request POST \"$CI_SERVER_URL/api/v4/runners\" \\\n  --form \"token=$REGISTRATION_TOKEN\" \\\n  --form \"description=build\"\n\
gitlab-runner register --non-interactive --url \"$CI_SERVER_URL\" --registration-token \"$REGISTRATION_TOKEN\"\n";
    let v = common::scan_report(&[("register.sh", sh)], &[]);
    let findings = v["findings"].as_array().unwrap();
    let related = |line: u64, id: &str| -> Vec<String> {
        findings
            .iter()
            .filter(|f| f["line"] == line && f["id"] == id)
            .flat_map(|f| f["related"].as_array().cloned().unwrap_or_default())
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect()
    };
    // The endpoint on line 2 meets the token on line 3 of the same command.
    assert_eq!(related(2, "runners-api-registration-token"), [TOKEN], "{v}");
    let endpoint = findings
        .iter()
        .find(|f| f["line"] == 2 && f["id"] == "runners-api-registration-token")
        .unwrap();
    assert!(
        endpoint["message"]
            .as_str()
            .unwrap()
            .contains("in this statement, line 3"),
        "{endpoint}"
    );
    // The register command on line 5 is a use of its own: no API call meets it.
    assert!(related(5, TOKEN).is_empty(), "{v}");
}

/// Gap 7 in code: a call written over several lines (its lines end in an open bracket or a
/// comma) is one use of the endpoint and the token it sends.
#[test]
fn related_entries_meet_in_a_call_written_over_lines() {
    let py = r#"import os
import requests

GITLAB = os.environ["CI_SERVER_URL"] + "/api/v4"


def register(tags):
    resp = requests.post(
        f"{GITLAB}/runners",
        data={
            "token": os.environ["REGISTRATION_TOKEN"],
            "tag_list": ",".join(tags),
        },
    )
    return resp.json()["token"]
"#;
    let dir = common::write_tree(&[("register.py", py)]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args([
            "scan",
            "--format",
            "json",
            "--no-config",
            "--target",
            "18.0",
            "--api",
            "v5",
        ])
        .arg(".")
        .current_dir(dir.path())
        .output()
        .expect("the binary runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let endpoint: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["line"] == 9 && f["id"] == "runners-api-registration-token")
        .collect();
    assert_eq!(endpoint.len(), 1, "{v}");
    let related: Vec<&str> = endpoint[0]["related"]
        .as_array()
        .map(|r| r.iter().map(|x| x["id"].as_str().unwrap()).collect())
        .unwrap_or_default();
    assert_eq!(related, [TOKEN], "{v}");
}
