//! An Ansible task that makes the request (`uri:` POST to the runners API) sends every field
//! of its `body:`, however many lines the body takes: the registration token and the
//! server-side arguments are each found at their line. The same body posted to the endpoint
//! that replaced it (`/user/runners`) is not the removed call. Fixtures written for these tests.

mod common;

const TASKS: &str = r#"- name: Register the runner with GitLab
  ansible.builtin.uri:
    url: "{{ gitlab_url }}/api/v4/runners"
    method: POST
    body_format: form-urlencoded
    body:
      token: "{{ runner_registration_token }}"
      description: "{{ inventory_hostname }}"
      tag_list: "docker,linux"
      run_untagged: "false"
      locked: "true"
    status_code: 201
  register: runner_response

- name: Show the runner
  ansible.builtin.debug:
    var: runner_response.json.id
"#;

const ID: &str = "runners-api-registration-token";

#[test]
fn every_field_of_a_tasks_body_is_found() {
    let found = common::scan_files(&[("roles/runner/tasks/register.yml", TASKS)]);
    assert_eq!(
        common::lines_of(&found, "roles/runner/tasks/register.yml", ID),
        [3, 7, 9, 10, 11],
        "{found:?}"
    );
}

#[test]
fn the_same_body_to_the_new_endpoint_is_not_the_removed_call() {
    let text = TASKS
        .replace("/api/v4/runners\"", "/api/v4/user/runners\"")
        .replace(
            "token: \"{{ runner_registration_token }}\"",
            "runner_type: instance_type",
        );
    let found = common::scan_files(&[("roles/runner/tasks/register.yml", text.as_str())]);
    assert!(
        common::lines_of(&found, "roles/runner/tasks/register.yml", ID).is_empty(),
        "{found:?}"
    );
}
