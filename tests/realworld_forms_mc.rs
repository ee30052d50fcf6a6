//! The registration forms that the script-and-container sample (`tests/realworld/sampled-mc.yaml`,
//! its tune part) showed missed or wrongly reported. The files are written for this test, modelled
//! on (not copied from) the public files of that corpus:
//! - a `gitlab-runner register` over continuation lines where one line's backslash is glued to
//!   its last word (`--docker-volumes /var/run/docker.sock:/var/run/docker.sock\`): the shell
//!   joins the lines all the same, so the flags below it are the command's;
//! - a message printed to the terminal (`echo "   runnerRegistrationToken: \"YOUR_TOKEN\""`,
//!   `echo "set REGISTRATION_TOKEN first"`): a script telling its user what to do names the item,
//!   it does not use it. The same `echo` written into a file (`>`, `>>`, `| tee`) or piped into a
//!   command is a use, and so is an expansion (`echo $CI_JOB_JWT` prints the value).

mod common;
use common::{assert_found, findings_of, lines, scan_files};

/// A cloud instance's user data: the runner registered twice, one continuation glued to a word.
const USER_DATA: &str = r#"#!/usr/bin/env bash
set -o errexit

curl -L https://packages.gitlab.com/install/repositories/runner/gitlab-runner/script.deb.sh | bash
apt-get install -y gitlab-runner

gitlab-runner register -n \
  --url "${ci_url}" \
  --registration-token "${ci_token}" \
  --executor docker \
  --docker-image "alpine:3.19" \
  --docker-volumes /var/run/docker.sock:/var/run/docker.sock\
  --tag-list "${ci_tags}" \
  --locked=false

gitlab-runner register -n \
  --url "${ci_url}" \
  --registration-token "${ci_token}" \
  --executor shell\
  --run-untagged=true
"#;

/// A lab's bring-up script: it reads the instance's registration token, prints it, registers,
/// and prints the next steps for the chart.
const LAB_SCRIPT: &str = r#"#!/bin/bash
set -e

REGISTRATION_TOKEN=$(docker exec gitlab gitlab-rails runner "puts Gitlab::CurrentSettings.runners_registration_token")
echo "Registration Token: $REGISTRATION_TOKEN"
echo -e "Next: set runnerRegistrationToken: \"TOKEN\" in values.yml"
printf 'Then export REGISTRATION_TOKEN for the next step\n'

docker exec gitlab-runner gitlab-runner register \
  --non-interactive \
  --url "http://gitlab.lab" \
  --registration-token "$REGISTRATION_TOKEN" \
  --executor docker

echo "runnerRegistrationToken: \"$REGISTRATION_TOKEN\"" >> values.yml
echo "REGISTRATION_TOKEN=$REGISTRATION_TOKEN" | tee -a runner.env
"#;

#[test]
fn continuation_glued_to_the_last_word_goes_on() {
    let found = scan_files(&[("templates/user_data.sh", USER_DATA)]);
    let path = "templates/user_data.sh";
    assert_found(
        &found,
        &[
            (path, 9, "runner-registration-token"),
            (path, 13, "runner-register-server-side-arguments"),
            (path, 14, "runner-register-server-side-arguments"),
            (path, 18, "runner-registration-token"),
            (path, 20, "runner-register-server-side-arguments"),
        ],
    );
}

#[test]
fn a_message_printed_to_the_terminal_is_no_use() {
    let found = scan_files(&[("scripts/lab-up.sh", LAB_SCRIPT)]);
    let got = findings_of(&found, "scripts/lab-up.sh");
    // The names an echo and a printf print to the terminal (6, 7) are silent, and so is the
    // expansion on line 5: it prints the value the script set itself on line 4 (a platform
    // variable printed, `echo $CI_JOB_JWT`, is still a use: tests/echoed_own_variables.rs).
    for line in [5, 6, 7] {
        assert!(
            got.iter().all(|(l, _)| *l != line),
            "line {line} prints a message: {got:?}"
        );
    }
    // The flag, and the same echo written into a file or piped into `tee`, are uses.
    let want = lines(&[
        (4, "runner-registration-token"),
        (12, "runner-registration-token"),
        (15, "helm-runner-registration-token"),
        (16, "runner-registration-token"),
    ]);
    for w in &want {
        assert!(got.contains(w), "missing {w:?} in {got:?}");
    }
}

/// A script that installs the runner chart with values it writes, then prints an example
/// pipeline whose job has `tags:`.
const CHART_SCRIPT: &str = r#"#!/usr/bin/env bash
set -euo pipefail

cat >/tmp/runner-values.yaml <<EOF
gitlabUrl: ${GITLAB_URL}
runnerRegistrationToken: "${RUNNER_TOKEN}"
runners:
  tags: "k8s,lab"
  locked: false
  runUntagged: true
EOF

helm upgrade --install gitlab-runner gitlab/gitlab-runner -f /tmp/runner-values.yaml

cat <<EOF
Example .gitlab-ci.yml:

build-job:
  stage: build
  tags:
    - k8s
  script:
    - make
EOF
"#;

#[test]
fn a_ci_jobs_tags_beside_chart_values_are_not_the_charts() {
    let found = scan_files(&[("install-runner.sh", CHART_SCRIPT)]);
    let got = findings_of(&found, "install-runner.sh");
    let chart = "runner-register-server-side-arguments";
    for line in [8, 9, 10] {
        assert!(
            got.contains(&(line, chart.to_string())),
            "the chart's runners value at {line}: {got:?}"
        );
    }
    assert!(
        got.iter().all(|(l, _)| *l != 20),
        "a CI job's tags are not the chart's: {got:?}"
    );
}
