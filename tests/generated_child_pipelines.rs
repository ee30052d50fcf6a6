//! A CI configuration a script writes into a multi-line string of its own language (a dynamic
//! child pipeline: a Node script's template literal, a Python triple-quoted string, a Go raw
//! string) is read as CI configuration, at the lines of the outer file. A workflow of another CI
//! system in such a string is not. Fixtures written for this test, modelled on a monorepo's
//! change-detection script that writes one trigger job per package.

mod common;

const NODE: &str = r#"#!/usr/bin/env bash
set -euo pipefail
node <<'EOF'
const fs = require('fs');
const jobs = [];
for (const pkg of ['api', 'web']) {
  jobs.push(`
trigger:${pkg}:
  stage: trigger
  trigger:
    include:
      - artifact: child-${pkg}.yml
        job: detect
    strategy: depend
`);
}
const gha = `
jobs:
  build:
    runs-on: ubuntu-latest
    strategy: depend
`;
fs.writeFileSync('child.yml', 'stages: [trigger]\n' + jobs.join(''));
EOF
"#;

const PYTHON: &str = r#"import pathlib

CHILD = """
stages:
  - test
unit:
  stage: test
  script:
    - make test
  after_script:
    - make clean
"""


def main():
    pathlib.Path("child-pipeline.yml").write_text(CHILD)
"#;

#[test]
fn trigger_jobs_a_node_script_writes() {
    let path = ".gitlab/ci/detect-changes.sh";
    let found = common::scan_files(&[(path, NODE)]);
    assert_eq!(
        common::lines_of(&found, path, "ci-trigger-strategy-depend"),
        [14],
        "{found:?}"
    );
}

#[test]
fn a_child_pipeline_in_a_python_string() {
    let path = "tools/generate_pipeline.py";
    let found = common::scan_files(&[(path, PYTHON)]);
    assert_eq!(
        common::lines_of(&found, path, "ci-after-script-cancelled-jobs"),
        [10],
        "{found:?}"
    );
}
