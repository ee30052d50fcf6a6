//! Issue 35, helper "hc": forms the tune part of `tests/realworld/sampled-hc.yaml` showed
//! missing, each found at its line, and their look-alikes silent. The fixtures are written
//! here, modelled on (not copied from) the sampled files.

use std::collections::BTreeSet;

mod common;
use common::scan_files as scan;

const AFTER: &str = "ci-after-script-cancelled-jobs";

fn hit(path: &str, line: u64, id: &str) -> (String, u64, String) {
    (path.to_string(), line, id.to_string())
}

/// A CI templates folder's file of hidden jobs only (`.prepare:` with `before_script`,
/// `after_script` and `cache`, extended by the including project's jobs): its name says nothing
/// of CI, its shape does. Its `after_script` is the entry's; the same hooks in a Travis file
/// (top-level keys, no hidden job) and a hidden key of one hook alone stay silent.
#[test]
fn after_script_of_a_hidden_job_template_in_an_unnamed_included_file() {
    let found: BTreeSet<(String, u64, String)> = scan(&[
        (
            "ci/parts/10_prepare.yml",
            "# Shared steps, extended by the jobs of the projects that include this file.\n\n.prepare:\n  before_script:\n    - make deps\n  after_script:\n    - make collect-logs\n  cache:\n    key: deps\n    paths:\n      - vendor/\n",
        ),
        (
            ".travis.yml",
            "language: php\nbefore_script:\n  - composer install\nafter_script:\n  - ./report.sh\n",
        ),
        (
            "conf/hooks.yml",
            ".notes:\n  after_script: a note, not a job\n",
        ),
    ])
    .into_iter()
    .collect();
    assert!(
        found.contains(&hit("ci/parts/10_prepare.yml", 6, AFTER)),
        "after_script of the hidden job not found in {found:#?}"
    );
    let loud: Vec<_> = found
        .iter()
        .filter(|f| f.0 == ".travis.yml" || f.0 == "conf/hooks.yml")
        .collect();
    assert!(loud.is_empty(), "look-alikes reported: {loud:#?}");
}

const TOKEN: &str = "runner-registration-token";

/// The registration token read by subscript from a runner settings map named for the runner
/// (`var.runner_settings["registration_token"]` handed to the template of a register script,
/// HCL; `cfg.runner["registration_token"]` in Python): the key under its parent, written as a
/// path. The same read of a GitHub runner's map, and of a map not named for a runner, stay
/// silent.
#[test]
fn registration_token_read_by_subscript_of_a_runner_settings_map() {
    let found: BTreeSet<(String, u64, String)> = scan(&[
        (
            "infra/bootstrap.tf",
            "data \"template_file\" \"bootstrap\" {\n  template = file(\"${path.module}/bootstrap.sh.tpl\")\n  vars = {\n    gitlab_url = var.gitlab_url\n    reg_token  = var.runner_settings[\"registration_token\"]\n  }\n}\n",
        ),
        (
            "infra/github.tf",
            "locals {\n  # GitLab mirrors only; runners are GitHub's\n  token = var.github_runner[\"registration_token\"]\n  other = var.settings[\"registration_token\"]\n}\n",
        ),
    ])
    .into_iter()
    .collect();
    assert!(
        found.contains(&hit("infra/bootstrap.tf", 5, TOKEN)),
        "subscript read of the runner map's registration_token not found in {found:#?}"
    );
    let loud: Vec<_> = found.iter().filter(|f| f.0 == "infra/github.tf").collect();
    assert!(loud.is_empty(), "look-alikes reported: {loud:#?}");
}

const ARGS: &str = "runner-register-server-side-arguments";

/// A registration request sent through the REST API by a generic HTTP task (an Ansible `uri`
/// whose body is a map built in a fact, the URL a variable defined elsewhere): the POST
/// /runners parameters `tag_list`, `run_untagged`, `locked`, `maximum_timeout` are keys of a
/// map named for the registration, in a file that names a registration token. The new flow's
/// request (POST /user/runners with `runner_type`, no registration token anywhere) and a
/// runner schema's fields beside a registration token (a client library's type) stay silent.
#[test]
fn registration_parameters_as_keys_of_a_request_map_beside_a_registration_token() {
    let found: BTreeSet<(String, u64, String)> = scan(&[
        (
            "roles/ci_runner/tasks/api_register.yml",
            "- name: Build the registration request\n  set_fact:\n    registration_request:\n      description: \"{{ runner_name }}\"\n      token: \"{{ ci_registration_token }}\"\n      tag_list: \"{{ runner_tags | join(',') }}\"\n      run_untagged: false\n      locked: true\n      maximum_timeout: 3600\n\n- name: Register\n  uri:\n    url: \"{{ ci_api_base }}/runners\"\n    method: POST\n    body_format: json\n    body: \"{{ registration_request }}\"\n",
        ),
        (
            "src/types/runner.ts",
            "// The runner as GET /runners/:id returns it; registration_token is sent on registration only.\nexport interface RunnerSchema {\n  id: number;\n  tag_list: string[] | null;\n  maximum_timeout: number | null;\n  run_untagged: boolean;\n  locked: boolean;\n}\n",
        ),
        (
            "roles/ci_runner/tasks/api_create.yml",
            "- name: Create the runner\n  uri:\n    url: \"{{ ci_api_base }}/user/runners\"\n    method: POST\n    headers:\n      PRIVATE-TOKEN: \"{{ api_token }}\"\n    body_format: json\n    body:\n      runner_type: project_type\n      project_id: \"{{ project_id }}\"\n      tag_list: \"{{ runner_tags | join(',') }}\"\n      run_untagged: false\n      locked: true\n",
        ),
    ])
    .into_iter()
    .collect();
    for line in [6, 7, 8, 9] {
        assert!(
            found.contains(&hit("roles/ci_runner/tasks/api_register.yml", line, ARGS)),
            "line {line}: registration parameter not found in {found:#?}"
        );
    }
    let loud: Vec<_> = found
        .iter()
        .filter(|f| f.0 != "roles/ci_runner/tasks/api_register.yml")
        .collect();
    assert!(loud.is_empty(), "look-alikes reported: {loud:#?}");
}
