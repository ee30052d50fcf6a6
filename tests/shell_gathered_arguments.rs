//! A shell script that gathers the arguments of `gitlab-runner register` before running it (in
//! the positional arguments with `set --`, in an array, in a string) passes each flag gathered:
//! each is found at its line. A variable of the same shape handed to another program is not.
//! Fixtures written for this test, modelled on runner images' entrypoints.

mod common;

const POSITIONAL: &str = r#"#!/bin/sh
set -e
if [ -n "$RUNNER_NEEDS_REGISTRATION" ]; then
  set -- gitlab-runner register \
    --non-interactive \
    --url "$RUNNER_URL" \
    --executor shell
  if [ -n "$RUNNER_TAGS" ]; then
    set -- "$@" --tag-list "$RUNNER_TAGS"
  fi
  "$@"
fi
exec gitlab-runner run --working-directory=/home/gitlab-runner
"#;

const ARRAY: &str = r#"#!/usr/bin/env bash
args=(register --non-interactive --url "${URL}" --token "${TOKEN}")
if [[ "${LOCKED:-}" == "false" ]]; then
  args+=(--locked=false)
fi
args+=(--maximum-timeout "${TIMEOUT}")
gitlab-runner "${args[@]}"
"#;

const STRING: &str = r#"#!/bin/sh
OPTS="--non-interactive --url $URL --token $TOKEN"
[ -n "$TAGS" ] && OPTS="$OPTS --tag-list $TAGS"
gitlab-runner register $OPTS

# The tools of the jobs, built with their lock files.
CARGO_FLAGS="--locked --offline"
cargo install $CARGO_FLAGS cargo-nextest
"#;

#[test]
fn gathered_register_arguments_are_found() {
    let found = common::scan_files(&[
        ("docker/entrypoint.sh", POSITIONAL),
        ("scripts/register.sh", ARRAY),
        ("scripts/setup.sh", STRING),
    ]);
    let server_side = "runner-register-server-side-arguments";
    assert_eq!(
        common::findings_of(&found, "docker/entrypoint.sh"),
        common::lines(&[(9, server_side)]),
    );
    assert_eq!(
        common::findings_of(&found, "scripts/register.sh"),
        common::lines(&[(4, server_side), (6, server_side)]),
    );
    // `--locked` for cargo (line 7) is no argument of the runner's register.
    assert_eq!(
        common::findings_of(&found, "scripts/setup.sh"),
        common::lines(&[(3, server_side)]),
    );
}
