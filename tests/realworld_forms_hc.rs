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
