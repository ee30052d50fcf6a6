//! Issue 35, helper "fr": forms of runner registration and of the runner API that the tuning part
//! of `tests/realworld/sampled-fr.yaml` showed missing (or, once, wrongly reported), each found at
//! its line, and the look-alikes next to them silent. The fixtures are written here, modelled on
//! (not copied from) the public files seen: a Rust client's runner struct and the JSON responses
//! its tests hold in raw strings, a register command whose subcommand is glued to an expansion of
//! its options, register arguments collected in a string (shell and PowerShell), an env file of
//! the runner image with an unusual name, and an Ansible role's map of extra register flags.

mod common;
use common::{findings_of as of, lines, scan_files as scan};

const TOKEN: &str = "runner-registration-token";
const ARGS: &str = "runner-register-server-side-arguments";
const ACTIVE: &str = "runners-active-property";
const IP: &str = "runners-ip-address";

/// A Rust client of the runners API: the fields of `pub struct Runner` (serde) and the keys of
/// the recorded responses its tests keep in raw strings (`r#"{ … }"#`) and Python's triple
/// quotes are the resource's removed fields. A manager's `ip_address` and another tool's
/// `Agent` with `active` stay silent.
#[test]
fn rust_runner_struct_and_responses_in_raw_strings() {
    let rs = r##"use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct Runner {
    pub id: u64,
    pub runner_type: String,
    pub active: bool,
    pub ip_address: Option<String>,
    pub is_shared: bool,
}

#[derive(Debug, Deserialize)]
pub struct RunnerManager {
    pub system_id: String,
    pub ip_address: Option<String>,
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses() {
        let body = r#"{
            "id": 7,
            "runner_type": "project_type",
            "active": false,
            "ip_address": "192.0.2.4",
            "is_shared": false
        }"#;
        let runner: super::Runner = serde_json::from_str(body).unwrap();
        assert!(!runner.active);
    }
}
"##;
    let py = r#"import json

RUNNER = json.loads("""{
    "id": 3,
    "runner_type": "instance_type",
    "is_shared": true,
    "active": true
}""")
"#;
    let found = scan(&[("src/api/runner.rs", rs), ("tests/fixtures.py", py)]);
    assert_eq!(
        of(&found, "src/api/runner.rs"),
        lines(&[(7, ACTIVE), (8, IP), (25, ACTIVE), (26, IP), (30, ACTIVE)]),
        "{found:?}"
    );
    assert_eq!(
        of(&found, "tests/fixtures.py"),
        lines(&[(7, ACTIVE)]),
        "{found:?}"
    );

    let other = r##"#[derive(Debug)]
pub struct Agent {
    pub id: u64,
    pub active: bool,
    pub ip_address: Option<String>,
}

fn sample() -> &'static str {
    r#"{ "id": 1, "active": true, "ip_address": "192.0.2.9" }"#
}
"##;
    let found = scan(&[("src/agent.rs", other)]);
    assert!(of(&found, "src/agent.rs").is_empty(), "{found:?}");
}

/// `gitlab-runner register${OPTIONS:+ $OPTIONS} -n --locked`: the subcommand is glued to an
/// expansion of collected options. Its flags count, and so do the options collected for it in a
/// string (`OPTIONS+=" --tag-list ${TAGS}"`). Another program's glued subcommand stays silent.
#[test]
fn register_glued_to_an_expansion_and_options_collected_in_a_string() {
    let sh = r#"#!/bin/bash
export CI_SERVER_URL=${URL:?URL required}
OPTIONS=""
if [[ -n "$TAGS" ]]; then
    OPTIONS+=" --tag-list ${TAGS// /,}"
fi
gitlab-runner register${OPTIONS:+ $OPTIONS} -n --description "$NAME" --locked
exec gitlab-runner run
"#;
    let found = scan(&[("context/init.sh", sh)]);
    assert_eq!(
        of(&found, "context/init.sh"),
        lines(&[(5, ARGS), (7, ARGS)]),
        "{found:?}"
    );

    let other = sh
        .replace("gitlab-runner", "ci-agent")
        .replace("CI_SERVER_URL", "AGENT_SERVER");
    let found = scan(&[("context/agent.sh", &other)]);
    assert!(of(&found, "context/agent.sh").is_empty(), "{found:?}");
}

/// The register arguments of the legacy branch held in one string, expanded into the command
/// later (PowerShell's `-ArgumentList`, a shell variable): each removed flag of the string
/// counts on its line. A log message that lists the flags separated by commas is prose.
#[test]
fn register_arguments_collected_in_a_string_and_a_message_listing_them() {
    let ps1 = r#"$Exe = "C:\GitLab-Runner\gitlab-runner.exe"
foreach ($Tok in $TokenList.Split(';')) {
  if ($Tok -like 'glrt-*') {
    $TokArgs = "--token $Tok"
    Write-Log "authentication token: these are set in the UI and ignored here: --tag-list, --locked, --run-untagged, --maximum-timeout"
  } else {
    $TokArgs = "--registration-token $Tok --tag-list $Tags --locked=false --maximum-timeout 7200"
  }
  $RegArgs = "register --non-interactive --url `"$Url`" $TokArgs --executor shell"
  Start-Process -Wait -FilePath $Exe -ArgumentList $RegArgs
}
"#;
    let found = scan(&[("runner/windows.ps1", ps1)]);
    assert_eq!(
        of(&found, "runner/windows.ps1"),
        lines(&[(7, TOKEN), (7, ARGS)]),
        "{found:?}"
    );
}

/// An env file of the runner image's register environment under a name of its own
/// (`env.gitlab.runner`, sourced by the image's init): `REGISTRATION_TOKEN` counts beside the
/// image's `CI_SERVER_URL`, as the `REGISTER_*` names do. Another tool's env file with a
/// `REGISTRATION_TOKEN` of its own stays silent.
#[test]
fn env_file_with_a_name_of_its_own() {
    let env = r#"# Runner registration
CI_SERVER_URL=${CI_SERVER_URL:-https://gitlab.example.com}
RUNNER_NAME=${RUNNER_NAME:-$(hostname)}
REGISTRATION_TOKEN=${REGISTRATION_TOKEN:-}
REGISTER_LOCKED=${REGISTER_LOCKED:-"true"}
RUNNER_EXECUTOR=${RUNNER_EXECUTOR:-docker}
"#;
    let other = "# Agent\nAGENT_SERVER=${AGENT_SERVER:-https://ci.example.org}\nREGISTRATION_TOKEN=${REGISTRATION_TOKEN:-}\n";
    let found = scan(&[
        ("rootfs/etc/conf.d/env.gitlab.runner", env),
        ("rootfs/etc/conf.d/env.build.agent", other),
    ]);
    assert_eq!(
        of(&found, "rootfs/etc/conf.d/env.gitlab.runner"),
        lines(&[(4, TOKEN), (5, ARGS)]),
        "{found:?}"
    );
    assert!(
        of(&found, "rootfs/etc/conf.d/env.build.agent").is_empty(),
        "{found:?}"
    );
}

/// An Ansible role's map of extra register flags (`gitlab_runner_extra_registration_params`,
/// keys written as the flags without dashes): `run-untagged` and `locked` are the removed
/// arguments. The same keys of another map stay silent.
#[test]
fn ansible_role_map_of_extra_register_flags() {
    let yml = r#"- hosts: runners
  become: yes
  roles:
    - role: gitlab_runner
      gitlab_runner_executor: docker
      gitlab_runner_extra_registration_params:
        name: '{{ ansible_hostname }}'
        run-untagged: ''
        locked: 'false'
        docker-image: 'alpine:3'
"#;
    let other = yml.replace("gitlab_runner_extra_registration_params", "service_options");
    let found = scan(&[
        ("playbooks/runner.yml", yml),
        ("playbooks/other.yml", &other),
    ]);
    assert_eq!(
        of(&found, "playbooks/runner.yml"),
        lines(&[(8, ARGS), (9, ARGS)]),
        "{found:?}"
    );
    assert!(of(&found, "playbooks/other.yml").is_empty(), "{found:?}");
}
