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
