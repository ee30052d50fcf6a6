//! A setting named for the runner's registration token, given a value where a deployment sets
//! its variables: Ansible group vars, Terraform tfvars and a module's argument, an env file, a
//! compose file's environment. `gitlab_runner_registration_token` says whose token it is;
//! `runner_registration_token` counts in a file that names the platform (a GitHub Actions
//! runner's setting of the same name does not). A reference to the variable (`{{ … }}`, a
//! `when:` condition) is no setting. The runner image's `REGISTRATION_TOKEN`, handed to a
//! registering script from a file that names the platform, is the token too; a GitHub Actions
//! runner's `REGISTRATION_TOKEN` is not. Fixtures written for these tests.

mod common;

const ID: &str = "runner-registration-token";

#[test]
fn a_setting_named_for_the_registration_token_is_found() {
    let found = common::scan_files(&[
        (
            "inventory/group_vars/runners.yml",
            "gitlab_runner_coordinator_url: https://gitlab.example.com\ngitlab_runner_registration_token: \"{{ vault_runner_token }}\"\ngitlab_runner_concurrent: 4\n",
        ),
        (
            "infra/prod.tfvars",
            "gitlab_url                = \"https://gitlab.example.com\"\nrunner_registration_token = \"GR1348941example\"\n",
        ),
        (
            "infra/main.tf",
            "module \"gitlab_runner\" {\n  source                    = \"./modules/gitlab-runner\"\n  runner_registration_token = var.runner_registration_token\n}\n",
        ),
        (
            "runner/.env",
            "GITLAB_URL=https://gitlab.example.com\ngitlab_runner_registration_token=GR1348941example\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, "inventory/group_vars/runners.yml", ID),
        [2],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "infra/prod.tfvars", ID),
        [2],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "infra/main.tf", ID),
        [3],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "runner/.env", ID),
        [2],
        "{found:?}"
    );
}

#[test]
fn another_systems_setting_and_references_are_not_settings() {
    let found = common::scan_files(&[
        (
            "actions/terraform.tfvars",
            "github_org                = \"acme\"\nrunner_registration_token = \"AABBCC\"\n",
        ),
        (
            "roles/runner/tasks/main.yml",
            "- name: Show the token's length\n  ansible.builtin.debug:\n    msg: \"{{ gitlab_runner_registration_token | length }}\"\n  when: gitlab_runner_registration_token is defined\n",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn the_runner_images_registration_token_in_a_file_naming_the_platform() {
    let found = common::scan_files(&[
        (
            "azure/main.tf",
            "data \"template_file\" \"init\" {\n  template = file(\"${path.module}/scripts/init.sh\")\n  vars = {\n    REGISTRATION_TOKEN = var.registration_token\n    GITLAB_URL         = var.gitlab_url\n  }\n}\n",
        ),
        (
            "actions/main.tf",
            "data \"template_file\" \"init\" {\n  template = file(\"${path.module}/scripts/actions-runner.sh\")\n  vars = {\n    REGISTRATION_TOKEN = var.registration_token\n    GITHUB_URL         = var.github_url\n  }\n}\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, "azure/main.tf", ID),
        [4],
        "{found:?}"
    );
    common::assert_silent(&found, "actions/main.tf");
}
