//! The registration forms of infrastructure code that the IaC registration sample
//! (`tests/realworld/sampled-kg.yaml`, its tune part) showed missed or wrongly reported. The
//! files are written for this test, modelled on (not copied from) the public files of that
//! corpus:
//! - the registration token handed to the template that registers the runner, as a key of the
//!   variables of Terraform's `templatefile("user_data.sh", { … })`;
//! - a register command built from a list of strings (`join("", [...])`) whose strings of
//!   arguments quote their values (`" --executor 'docker' --tag-list 'a,b' "`);
//! - a register command written over the lines of a cloud-init Terraform template, with a
//!   template directive (`%{ if tags != null ~}`) alone on a line between its flags;
//! - a Salt state whose curl URLs hold Jinja expressions with blanks (`{{ project }}`): the
//!   project runners path is one path, not `}}/runners`.
//!
//! Look-alikes stay silent: another system's template variables, a message that names a flag,
//! the command after the template's directive, and `POST /projects/:id/runners` (enabling a
//! runner for a project).

mod common;
use common::{assert_found, assert_silent, findings_of, scan_files};

/// A runner host whose user data renders a template with the registration token.
const TF_USER_DATA: &str = r#"resource "aws_instance" "ci_runner" {
  ami           = data.aws_ami.ubuntu.id
  instance_type = var.instance_type

  user_data = templatefile("${path.module}/register-gitlab-runner.sh", {
    registration_token = var.ci_registration_token
    runner_tags        = "build,arm64"
  })

  tags = {
    Name = "gitlab-runner"
  }
}

locals {
  agent = templatefile("${path.module}/agent.sh.tpl", {
    runner_registration_token = var.agent_token
  })
}
"#;

/// The same shape for a GitHub Actions runner: the file does not name the platform.
const TF_OTHER_CI: &str = r#"resource "aws_instance" "actions_runner" {
  ami           = data.aws_ami.ubuntu.id
  instance_type = var.instance_type

  user_data = templatefile("${path.module}/actions-runner.sh", {
    registration_token = var.actions_registration_token
    labels             = "self-hosted,linux"
  })
}
"#;

#[test]
fn templatefile_variables_hand_the_registration_token() {
    let found = scan_files(&[
        ("infra/runner.tf", TF_USER_DATA),
        ("infra/actions.tf", TF_OTHER_CI),
    ]);
    assert_found(
        &found,
        &[
            ("infra/runner.tf", 6, "runner-registration-token"),
            ("infra/runner.tf", 17, "runner-registration-token"),
        ],
    );
    let lines: Vec<u64> = findings_of(&found, "infra/runner.tf")
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(
        !lines.contains(&7),
        "runner_tags is the template's own name: {lines:?}"
    );
    assert_silent(&found, "infra/actions.tf");
}

/// A runner agent's post-install command joined from strings of arguments.
const TF_JOINED: &str = r#"module "runner" {
  source = "./modules/runner"

  post_install = join("", [
    "gitlab-runner register --non-interactive --url 'https://gitlab.example.com/' --registration-token ${var.token}",
    " --executor 'docker' --docker-image 'alpine:3.19' --tag-list 'spot,build' ",
    " --run-untagged 'false' --locked 'true'",
  ])

  motd = "echo 'set --tag-list in the module' > /etc/motd"
}
"#;

#[test]
fn argument_strings_that_quote_their_values() {
    let found = scan_files(&[("runner/main.tf", TF_JOINED)]);
    assert_found(
        &found,
        &[
            ("runner/main.tf", 5, "runner-registration-token"),
            ("runner/main.tf", 6, "runner-register-server-side-arguments"),
            ("runner/main.tf", 7, "runner-register-server-side-arguments"),
        ],
    );
    let lines: Vec<u64> = findings_of(&found, "runner/main.tf")
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(
        !lines.contains(&10),
        "a message naming a flag is no argument: {lines:?}"
    );
}

/// cloud-init user data rendered by Terraform: the register command's flags go on below a
/// template directive.
const TFTPL_CLOUD_INIT: &str = r#"#cloud-config
packages:
  - docker.io
runcmd:
  - /usr/bin/gitlab-runner register
      --non-interactive
      --url ${gitlab_url}
      --registration-token ${registration_token}
      --executor docker
%{ if runner_tags != "" ~}
      --tag-list ${runner_tags}
%{ endif ~}
      --docker-image alpine:3.19
  - /usr/local/bin/backup-agent --locked
"#;

#[test]
fn template_directive_between_the_lines_of_a_folded_command() {
    let found = scan_files(&[("templates/cloud-init.yaml.tftpl", TFTPL_CLOUD_INIT)]);
    assert_found(
        &found,
        &[
            (
                "templates/cloud-init.yaml.tftpl",
                8,
                "runner-registration-token",
            ),
            (
                "templates/cloud-init.yaml.tftpl",
                11,
                "runner-register-server-side-arguments",
            ),
        ],
    );
    let lines: Vec<u64> = findings_of(&found, "templates/cloud-init.yaml.tftpl")
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(
        !lines.contains(&14),
        "the next command's --locked is not register's: {lines:?}"
    );
}

/// A Salt state that registers through the API, then enables the runner for projects.
const SLS_API: &str = r#"{% set gl = pillar["gitlab-runner"] %}
gitlab-runner_api_register:
  cmd.run:
    - name: |
        curl --silent --request POST "{{ gl.url }}/api/v4/runners" --form "token={{ gl.registration_token }}"

{% for project in gl.projects %}
gitlab-runner_enable_{{ loop.index }}:
  cmd.run:
    - name: |
        curl --silent --request POST --header "PRIVATE-TOKEN: {{ gl.admin_token }}" "{{ gl.url }}/api/v4/projects/{{ project }}/runners" --form "runner_id={{ gl.runner_id }}"
{% endfor %}
"#;

#[test]
fn template_expressions_inside_an_api_path() {
    let found = scan_files(&[("salt/gitlab-runner/api.sls", SLS_API)]);
    assert_found(
        &found,
        &[(
            "salt/gitlab-runner/api.sls",
            5,
            "runners-api-registration-token",
        )],
    );
    let lines: Vec<u64> = findings_of(&found, "salt/gitlab-runner/api.sls")
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(
        !lines.contains(&11),
        "POST /projects/:id/runners enables a runner, it registers none: {lines:?}"
    );
}

/// A runner module's main file: the variables of its registering template hand over the
/// registration token and the server-side arguments.
const TF_MODULE_LEGACY: &str = r#"locals {
  template_runner = templatefile("${path.module}/template/runner.tftpl",
    {
      runners_gitlab_url               = var.gitlab_url
      gitlab_runner_registration_token = var.registration_config["registration_token"]
      gitlab_runner_description        = var.registration_config["description"]
      gitlab_runner_tag_list           = var.registration_config["tag_list"]
      gitlab_runner_locked_to_project  = var.registration_config["locked_to_project"]
      gitlab_runner_run_untagged       = var.registration_config["run_untagged"]
      gitlab_runner_maximum_timeout    = var.registration_config["maximum_timeout"]
      gitlab_runner_access_level       = lookup(var.registration_config, "access_level", "not_protected")
  })
}
"#;

/// The same variables without a registration token: the runner is created another way.
const TF_MODULE_NEW: &str = r#"locals {
  template_runner = templatefile("${path.module}/template/runner.tftpl",
    {
      runners_gitlab_url     = var.gitlab_url
      runner_auth_token      = var.authentication_token
      gitlab_runner_tag_list = var.runner_config["tag_list"]
  })
}
"#;

#[test]
fn template_variables_of_a_runner_module() {
    let found = scan_files(&[
        ("module/main.tf", TF_MODULE_LEGACY),
        ("module-new/main.tf", TF_MODULE_NEW),
    ]);
    let sa = "runner-register-server-side-arguments";
    assert_found(
        &found,
        &[
            ("module/main.tf", 5, "runner-registration-token"),
            ("module/main.tf", 7, sa),
            ("module/main.tf", 8, sa),
            ("module/main.tf", 9, sa),
            ("module/main.tf", 10, sa),
            ("module/main.tf", 11, sa),
        ],
    );
    let lines: Vec<u64> = findings_of(&found, "module/main.tf")
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(
        !lines.contains(&6),
        "the description is no removed argument: {lines:?}"
    );
    assert_silent(&found, "module-new/main.tf");
}
