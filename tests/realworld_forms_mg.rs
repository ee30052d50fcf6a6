//! The registration forms of infrastructure code that the blind IaC registration sample
//! (`tests/realworld/sampled-mg.yaml`, its tune part) showed missed. The files are written for
//! this test, modelled on (not copied from) the public files of that corpus:
//! - the server-side registration arguments (`run_untagged`, `locked`, `tag_list`,
//!   `access_level`, `maximum_timeout`) as keys of a runner's settings in a configuration
//!   tool's data (a Salt pillar, Ansible vars), next to the `registration_token` of the same
//!   runner: the state or role hands them to `gitlab-runner register` with the token.
//!
//! Look-alikes stay silent: the same keys of a runner that registers with an authentication
//! token (no `registration_token` beside them), of another system's runner (GitHub's), and
//! of a runner mapping in a file that does not name the platform.

mod common;
use common::{assert_found, assert_silent, findings_of, scan_files};

/// A Salt pillar of a runner host: the runner's URL, registration token and server-side
/// arguments, and a second runner that registers with an authentication token.
const PILLAR: &str = r#"# Runner host pillar (GitLab CI)
gitlab_runner:
  url: https://gitlab.example.org
  registration_token: {{ salt['vault'].read_secret('ci/runner')['token'] }}
  executor: docker
  run_untagged: true
  locked: false
  tag_list: docker,amd64
  access_level: ref_protected
  maximum_timeout: 7200

build_runner:
  url: https://gitlab.example.org
  token: glrt-placeholder
  run_untagged: false
  locked: true
"#;

/// Ansible group vars: a list of runners under `gitlab_runners:`, one registering with the
/// legacy token, one created through the new flow.
const GROUP_VARS: &str = r#"---
gitlab_url: https://gitlab.example.org
gitlab_runners:
  - name: shell-runner
    registration_token: "{{ vault_runner_registration_token }}"
    executor: shell
    run_untagged: false
    tag_list: "shell,linux"
  - name: docker-runner
    token: "{{ vault_runner_auth_token }}"
    executor: docker
    run_untagged: true
    locked: false
"#;

/// The same keys for a GitHub Actions runner in a file that names the platform elsewhere.
const OTHER_CI: &str = r#"# Migrated from GitLab CI
github_runner:
  registration_token: "{{ gh_token }}"
  run_untagged: true
  locked: false
"#;

/// A runner mapping in a file that does not name the platform (a build farm's own runners).
const NO_PLATFORM: &str = r#"runner:
  registration_token: abc
  run_untagged: true
  locked: false
"#;

#[test]
fn server_side_arguments_beside_the_registration_token_of_a_runner() {
    let found = scan_files(&[
        ("pillar/runner.sls", PILLAR),
        ("group_vars/runners.yml", GROUP_VARS),
        ("pillar/actions.sls", OTHER_CI),
        ("farm/runner.yml", NO_PLATFORM),
    ]);
    let arg = "runner-register-server-side-arguments";
    assert_found(
        &found,
        &[
            ("pillar/runner.sls", 6, arg),
            ("pillar/runner.sls", 7, arg),
            ("pillar/runner.sls", 8, arg),
            ("pillar/runner.sls", 9, arg),
            ("pillar/runner.sls", 10, arg),
            ("group_vars/runners.yml", 7, arg),
            ("group_vars/runners.yml", 8, arg),
        ],
    );
    let pillar: Vec<u64> = findings_of(&found, "pillar/runner.sls")
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(
        !pillar.contains(&15) && !pillar.contains(&16),
        "the authentication-token runner's arguments: {pillar:?}"
    );
    let vars: Vec<u64> = findings_of(&found, "group_vars/runners.yml")
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(
        !vars.contains(&12) && !vars.contains(&13),
        "the new flow's runner: {vars:?}"
    );
    assert_silent(&found, "pillar/actions.sls");
    assert_silent(&found, "farm/runner.yml");
}
