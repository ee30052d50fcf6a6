//! A register command continued over a script template's lines goes on past the template's
//! directives alone on their lines (`{% if tags -%}` of Jinja, `%{ if tags != "" ~}` of a
//! Terraform template), which rendering removes: the flags below them are the command's. A
//! command that ended before the directive does not take the flags after it. Fixtures written
//! for these tests.

mod common;

const JINJA: &str = "#!/bin/sh\n# {{ ansible_managed }}\ngitlab-runner register --non-interactive \\\n    --url {{ gitlab_url }} \\\n    --registration-token {{ runner_token }} \\\n    {% if runner_tags -%}\n    --tag-list \"{{ runner_tags | join(',') }}\" \\\n    {% endif -%}\n    {% if runner_untagged -%}\n    --run-untagged \\\n    {% endif -%}\n    --executor shell\n";

#[test]
fn flags_below_a_templates_directives_are_the_commands() {
    let found = common::scan_files(&[("roles/runner/templates/register.sh.j2", JINJA)]);
    let path = "roles/runner/templates/register.sh.j2";
    assert_eq!(
        common::lines_of(&found, path, "runner-registration-token"),
        [5],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, path, "runner-register-server-side-arguments"),
        [7, 10],
        "{found:?}"
    );
}

#[test]
fn a_command_that_ended_does_not_take_the_flags_below() {
    let text = "#!/bin/sh\ngitlab-runner verify\n{% if runner_tags -%}\necho --tag-list is set\n{% endif -%}\n";
    let found = common::scan_files(&[("roles/runner/templates/verify.sh.j2", text)]);
    assert!(found.is_empty(), "{found:?}");
}
