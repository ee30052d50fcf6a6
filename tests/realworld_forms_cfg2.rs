//! Issue 35, configuration side, second round: the forms the held-back part of
//! `tests/realworld/sampled-cfg.yaml` showed missing, each found at its line, and the
//! look-alikes next to them silent. The fixtures are written here, modelled on (not copied
//! from) the public files seen: a Terraform file whose S3 ARN string ends in `/*` before the
//! runner's `user_data`, a Salt pillar's list of register flags, a Windows runner image's
//! `ENV RUNNER_SHELL`, an Ansible `docker_container` command list, and a test asserting that a
//! script unsets the legacy registration variables.

mod common;
use common::{findings_of as of, lines, scan_files as scan};

const TOKEN: &str = "runner-registration-token";
const ARGS: &str = "runner-register-server-side-arguments";
const CMD: &str = "runner-windows-cmd-shell";

/// A `/*` inside a Terraform string (an IAM policy's `"${bucket.arn}/*"`) opens no block
/// comment: the runner's `user_data` after it is read. A real block comment still hides what
/// it holds.
#[test]
fn slash_star_in_a_terraform_string_does_not_hide_the_user_data_after_it() {
    let tf = r#"resource "aws_iam_policy" "cache" {
  policy = jsonencode({
    Statement = [{
      Action   = ["s3:GetObject", "s3:PutObject"]
      Resource = ["${aws_s3_bucket.cache.arn}/*"]
    }]
  })
}

resource "aws_instance" "gitlab-runner" {
  ami       = data.aws_ami.runner.id
  user_data = <<EOT
#!/bin/bash
export RUNNER_TAG_LIST=${var.runner_tags}
export REGISTRATION_TOKEN=${var.runner_token}
/opt/bootstrap-runner.sh
EOT
}

/* An older way, kept for reference:
export REGISTER_LOCKED=false
*/
"#;
    let found = scan(&[("infra/runner.tf", tf)]);
    assert_eq!(
        of(&found, "infra/runner.tf"),
        lines(&[(14, ARGS), (15, TOKEN)]),
        "{found:?}"
    );
}

/// A Salt pillar's runner settings: register flags as items of YAML lists, with no
/// `gitlab-runner register` written in the file (the state that runs it is elsewhere). A
/// commented-out item, a sentence and the other flags stay silent.
#[test]
fn register_flags_as_items_of_a_salt_pillars_lists() {
    let sls = "runners:
  build-hosts:
    service:
      - gitlab-runner
    settings:
      user: gitlab-runner
      flags:
        - --env CACHE_DIR=/cache
        - --locked=false   # keep it shared
        #- --run-untagged
      kinds:
        docker:
          flags:
            - --docker-image alpine:3.19
            - --tag-list docker,linux
            - --docker-privileged
        shell:
          flags:
            - --tag-list \"shell\"
      notes:
        - --locked is what older installs used
";
    let found = scan(&[("pillar/runners/build-hosts.sls", sls)]);
    assert_eq!(
        of(&found, "pillar/runners/build-hosts.sls"),
        lines(&[(9, ARGS), (15, ARGS), (19, ARGS)]),
        "{found:?}"
    );
    // The same list in a file that does not name the runner is another program's flags.
    let other = sls.replace("gitlab-runner", "build-agent");
    let found = scan(&[("pillar/agents.sls", &other)]);
    assert!(of(&found, "pillar/agents.sls").is_empty(), "{found:?}");
}

/// An Ansible `docker_container` of the runner image whose command list holds a flag and its
/// value as one item (`- --tag-list "a"`).
#[test]
fn a_flag_and_its_value_as_one_item_of_a_containers_command_list() {
    let yml = "- name: Register the runner
  docker_container:
    name: runner-register
    image: gitlab/gitlab-runner:v16.11.0
    command:
      - register
      - --non-interactive
      - --url \"https://git.example.org/\"
      - --tag-list \"builds\"
      - --description \"build runner\"
    detach: false
";
    let found = scan(&[("roles/runner/tasks/main.yml", yml)]);
    assert_eq!(
        of(&found, "roles/runner/tasks/main.yml"),
        lines(&[(9, ARGS)]),
        "{found:?}"
    );
}

/// The removed CMD shell given through the runner image's environment (`ENV RUNNER_SHELL`) or
/// register's `--shell`: only with the value `cmd`; PowerShell is the way forward.
#[test]
fn the_cmd_shell_through_the_runner_images_environment_and_register() {
    let dockerfile = "FROM mcr.microsoft.com/windows/servercore:ltsc2022
ENV CI_SERVER_URL=''
ENV RUNNER_EXECUTOR='shell'
ENV RUNNER_SHELL='cmd'
RUN choco install -y gitlab-runner
";
    let script = "gitlab-runner register --non-interactive --executor shell --shell cmd
gitlab-runner register --non-interactive --executor shell --shell=pwsh
";
    let compose = "services:
  runner:
    image: example/windows-gitlab-runner
    environment:
      RUNNER_SHELL: \"cmd\"
  other:
    image: example/windows-gitlab-runner
    environment:
      RUNNER_SHELL: powershell
";
    let found = scan(&[
        ("win/Dockerfile", dockerfile),
        ("register.sh", script),
        ("compose.yml", compose),
    ]);
    assert_eq!(
        of(&found, "win/Dockerfile"),
        lines(&[(4, CMD)]),
        "{found:?}"
    );
    assert_eq!(of(&found, "register.sh"), lines(&[(1, CMD)]), "{found:?}");
    assert_eq!(of(&found, "compose.yml"), lines(&[(5, CMD)]), "{found:?}");
}

/// `unset` takes the legacy registration variables away (what a chart's register script does
/// for the new flow, and what a test of it asserts): not a use of them. Setting them still is.
#[test]
fn unsetting_the_legacy_registration_variables_is_no_use_of_them() {
    let ts = r#"import { expect, test } from "vitest";
import { renderChart } from "./render";

test("the runner's register script drops the legacy settings", () => {
  const script = renderChart("gitlab-runner").configMap["register-the-runner"];
  expect(script).toContain("unset RUNNER_TAG_LIST");
  expect(script).toContain("unset -v REGISTER_LOCKED REGISTER_RUN_UNTAGGED");
});
"#;
    let sh = "#!/bin/sh
if [ -n \"$RUNNER_TOKEN\" ]; then
  unset RUNNER_TAG_LIST REGISTER_LOCKED; unset REGISTER_RUN_UNTAGGED
fi
export RUNNER_TAG_LIST=docker
gitlab-runner register --non-interactive
";
    let found = scan(&[("tests/register.test.ts", ts), ("register.sh", sh)]);
    assert!(of(&found, "tests/register.test.ts").is_empty(), "{found:?}");
    assert_eq!(of(&found, "register.sh"), lines(&[(5, ARGS)]), "{found:?}");
}

/// The `unset` and list-item checks read a short way back from each name: a line of 60,000
/// names or flags is not walked back to its start for each (that was quadratic: minutes).
#[test]
fn many_names_on_one_line_stay_linear() {
    let names = "RUNNER_TAG_LIST ".repeat(60_000);
    let flags = "- --locked ".repeat(60_000);
    let files = [
        ("names.sh", format!("unset {names}\n")),
        ("flags.yml", format!("x: gitlab-runner\ny: {flags}\n")),
    ];
    let start = std::time::Instant::now();
    let found = scan(&[(files[0].0, &files[0].1), (files[1].0, &files[1].1)]);
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    // The list items on line 2 are `- --locked` after `- `: items of a flow of text, not of a
    // block list (only the line's first item starts it); the names: one finding a line at most.
    assert!(
        of(&found, "flags.yml").iter().all(|(l, _)| *l == 2),
        "{found:?}"
    );
    assert!(of(&found, "names.sh").len() <= 1, "{found:?}");
}
