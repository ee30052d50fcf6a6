//! A command in a YAML plain scalar that runs over lines (Ansible's `shell:` or `cmd:` with the
//! flags on the lines below, indented more than the key) is one command: its flags are found
//! at their lines. Fixtures written for this test, modelled on Ansible roles that install and
//! register a runner.

mod common;

/// The value on the key's line, the flags below it; the next key ends the command.
const ON_THE_KEY_LINE: &str = r#"---
- name: Register the runner
  ansible.builtin.shell:
    cmd: gitlab-runner register
        --non-interactive
        --url {{ gitlab_url }}
        --token {{ runner_token }}
        --locked="{{ runner_locked }}"
        --tag-list {{ runner_tags | join(',') }}
    creates: /etc/gitlab-runner/.registered

- name: List the runners
  ansible.builtin.command: gitlab-runner list
  args:
    chdir: /etc/gitlab-runner
"#;

/// The value alone on the line below its key.
const BELOW_THE_KEY: &str = r#"---
- name: Register
  shell:
    gitlab-runner register
      --non-interactive
      --registration-token {{ registration_token }}
      --run-untagged
  args:
    creates: /etc/gitlab-runner/config.toml
"#;

/// Look-alikes: another subcommand's plain value over lines, and a key below the command
/// (not indented more than its key) whose name is a flag's.
const LOOKALIKES: &str = r#"---
- name: Verify
  ansible.builtin.command: gitlab-runner verify
      --delete
      --name {{ runner_name }}
  register: verified

- name: Register
  ansible.builtin.shell: gitlab-runner register --non-interactive --token {{ t }}
  tags:
    - locked
"#;

#[test]
fn the_flags_of_a_plain_scalar_over_lines_are_found() {
    let found = common::scan_files(&[
        ("roles/runner/tasks/register.yml", ON_THE_KEY_LINE),
        ("roles/runner/tasks/legacy.yml", BELOW_THE_KEY),
        ("roles/runner/tasks/verify.yml", LOOKALIKES),
    ]);
    common::assert_found(
        &found,
        &[
            (
                "roles/runner/tasks/register.yml",
                8,
                "runner-register-server-side-arguments",
            ),
            (
                "roles/runner/tasks/register.yml",
                9,
                "runner-register-server-side-arguments",
            ),
            (
                "roles/runner/tasks/legacy.yml",
                6,
                "runner-registration-token",
            ),
            (
                "roles/runner/tasks/legacy.yml",
                7,
                "runner-register-server-side-arguments",
            ),
        ],
    );
    assert_eq!(
        common::findings_of(&found, "roles/runner/tasks/register.yml"),
        common::lines(&[
            (8, "runner-register-server-side-arguments"),
            (9, "runner-register-server-side-arguments"),
        ]),
    );
    common::assert_silent(&found, "roles/runner/tasks/verify.yml");
}
