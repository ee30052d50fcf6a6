//! A script whose name has no extension (`bin/register-runner`, a runner image's
//! `entrypoint`) is read as what its `#!` line runs: a shell script's register flags and
//! the runner image's variables are found. A shell test script (`test`, `*_test.sh`, `*.bats`)
//! is test code. Fixtures written for this test, modelled on runner images' scripts.

mod common;

const REGISTER: &str = r#"#!/usr/bin/env bash
set -euo pipefail
gitlab-runner register \
  --non-interactive \
  --url "${CI_SERVER_URL}" \
  --registration-token "${RUNNER_TOKEN}" \
  --tag-list "docker,linux"
"#;

const IMAGE_TEST: &str = r#"#!/bin/bash
set -e
docker build -t acme/gitlab-runner:test .
docker run --rm -e "CI_SERVER_URL=https://gitlab.example.com" \
  -e "REGISTRATION_TOKEN=not-a-token" acme/gitlab-runner:test
"#;

/// No `#!` line: notes whose name says nothing are not read as commands.
const NOTES: &str = r#"Register with gitlab-runner register --tag-list docker, then restart.
"#;

#[test]
fn scripts_without_extension_are_read_by_their_interpreter() {
    let found = common::scan_files(&[
        ("bin/register-runner", REGISTER),
        ("test", IMAGE_TEST),
        ("NOTES", NOTES),
    ]);
    assert_eq!(
        common::findings_of(&found, "bin/register-runner"),
        common::lines(&[
            (6, "runner-registration-token"),
            (7, "runner-register-server-side-arguments"),
        ]),
    );
    assert_eq!(
        common::findings_of(&found, "test"),
        common::lines(&[(5, "runner-registration-token")]),
    );
    common::assert_silent(&found, "NOTES");
}

#[test]
fn a_shell_test_script_is_test_code() {
    let report = common::scan_report(
        &[("test", IMAGE_TEST), ("bin/register-runner", REGISTER)],
        &["--tests", "include"],
    );
    let tests: Vec<(String, bool)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["context"] == "test",
            )
        })
        .collect();
    assert!(tests.contains(&("test".to_string(), true)), "{tests:?}");
    assert!(
        tests.iter().all(|(p, t)| p != "bin/register-runner" || !t),
        "{tests:?}"
    );
}
