//! Arguments a runner image's entrypoint hands to `gitlab-runner register`, kept as a YAML
//! value in a compose file or manifest that runs the image: quoted (`"--tag-list=\"a, b\""`) or
//! plain (`EXTRA: --locked=false --access-level=not_protected`). A sentence that names a flag,
//! and the same flags for another program in a file that does not name the runner, are not.
//! An example command printed by an Ansible message (`debug: msg: |`, `fail: msg:`) is not
//! run. Fixtures written for these tests.

mod common;

const ID: &str = "runner-register-server-side-arguments";

#[test]
fn register_arguments_in_a_yaml_value_of_the_runners_image() {
    let found = common::scan_files(&[(
        "deploy/docker-compose.yml",
        "services:\n  runner:\n    image: example/gitlab-runner:latest\n    environment:\n      RUNNER_URL: \"https://gitlab.example.com/\"\n      RUNNER_MULTI_PARAMS: \"--tag-list=\\\"build, test\\\"\"\n      RUNNER_EXTRA: --locked=false --access-level=not_protected\n      NOTE: \"--locked is gone in 18.0\"\n",
    )]);
    assert_eq!(
        common::lines_of(&found, "deploy/docker-compose.yml", ID),
        [6, 7],
        "{found:?}"
    );
}

#[test]
fn the_same_flags_for_another_program_are_not() {
    let found = common::scan_files(&[(
        "build/docker-compose.yml",
        "services:\n  builder:\n    image: rust:1.80\n    environment:\n      CARGO_FLAGS: --locked --offline\n      EXTRA: \"--tag-list=a\"\n",
    )]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn an_example_command_in_an_ansible_message_is_not_run() {
    let found = common::scan_files(&[(
        "roles/runner/tasks/main.yml",
        "- name: Example command for registering the runner\n  ansible.builtin.debug:\n    msg: |\n      ssh {{ ansible_user }}@{{ ansible_fqdn }} \\\n      gitlab-runner register \\\n      --registration-token \"TOKEN\" \\\n      --tag-list docker\n\n- name: Fail without a token\n  ansible.builtin.fail:\n    msg: \"gitlab-runner register --registration-token needs gitlab_runner_token\"\n  when: gitlab_runner_token is undefined\n\n- name: Register\n  ansible.builtin.command: >\n    gitlab-runner register --non-interactive\n    --registration-token {{ gitlab_runner_token }}\n    --tag-list docker\n",
    )]);
    let path = "roles/runner/tasks/main.yml";
    assert_eq!(
        common::lines_of(&found, path, "runner-registration-token"),
        [17],
        "{found:?}"
    );
    assert_eq!(common::lines_of(&found, path, ID), [18], "{found:?}");
}

/// The runner image's `command:` written as a quoted YAML scalar, its own quotes escaped
/// (modelled on an Ansible role that runs the image with `docker_container`): the command's
/// words are read inside the scalar, as they are in a plain one.
#[test]
fn the_images_command_in_a_quoted_scalar() {
    let path = "roles/runner/tasks/main.yml";
    let found = common::scan_files(&[(
        path,
        "- name: Register the runner\n  docker_container:\n    image: gitlab/gitlab-runner\n    name: runner-register\n    command: \"register --non-interactive --url \\\"{{ url }}\\\" --registration-token \\\"{{ token }}\\\" --tag-list \\\"{{ tags }}\\\" --locked=\\\"{{ locked }}\\\"\"\n- name: Run the runner\n  docker_container:\n    image: gitlab/gitlab-runner\n    command: 'run --working-directory /home/gitlab-runner'\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-registration-token"),
        [5],
        "{found:?}"
    );
    assert_eq!(common::lines_of(&found, path, ID), [5], "{found:?}");
}
