//! A script that sets a variable itself and prints it (`REGISTRATION_TOKEN=$(…)`, then `echo
//! "Registration token: $REGISTRATION_TOKEN"`) shows its own value to the person running it: the
//! use is where it sets it and where it hands it on, not the message. A variable the script
//! does not set (the platform's `CI_JOB_JWT`) printed is still a use of it. Fixtures written for
//! these tests.

mod common;

const SETUP: &str = r#"#!/usr/bin/env bash
set -euo pipefail

register_runners () {
    echo "Registering the runners"
    REGISTRATION_TOKEN=$(docker exec gitlab gitlab-rails runner "puts Gitlab::CurrentSettings.runners_registration_token")
    echo "Registration token: $REGISTRATION_TOKEN"
    docker compose exec runner gitlab-runner register \
        --non-interactive \
        --url "http://gitlab" \
        --registration-token "$REGISTRATION_TOKEN" \
        --executor docker
}

show_identity () {
    echo "job token: ${CI_JOB_JWT}"
}
"#;

#[test]
fn a_message_printing_the_script_s_own_variable_is_no_use() {
    let found = common::scan_files(&[("scripts/setup.sh", SETUP)]);
    assert_eq!(
        common::lines_of(&found, "scripts/setup.sh", "runner-registration-token"),
        [6, 11],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "scripts/setup.sh", "ci-job-jwt"),
        [16],
        "{found:?}"
    );
}
