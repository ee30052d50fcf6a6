//! The runner run under the name of its release binary (`./gitlab-runner-linux-amd64 exec
//! docker`, `sudo ./gitlab-runner-darwin-arm64 register …`, `gitlab-runner-windows-amd64.exe
//! register`), downloaded and run without renaming: its commands are the runner's. A program
//! whose name only starts the same (`gitlab-runner-helper`, `gitlab-runner-cleanup`) is not.
//! Fixtures written for these tests.

mod common;

const SCRIPT: &str = r#"#!/usr/bin/env bash
set -e
curl -L --output gitlab-runner-linux-amd64 "$RUNNER_URL"
chmod +x gitlab-runner-linux-amd64
#./gitlab-runner-linux-amd64 exec shell test
./gitlab-runner-linux-amd64 exec docker --docker-privileged test
sudo ./gitlab-runner-darwin-arm64 register --non-interactive --url "$URL" \
  --registration-token "$TOKEN" --executor shell --tag-list mac
gitlab-runner-windows-amd64.exe register --registration-token "$TOKEN" --executor shell
gitlab-runner-cleanup exec docker test
"#;

#[test]
fn the_runner_under_its_release_binary_s_name_is_the_runner() {
    let found = common::scan_files(&[("ci/run-local.sh", SCRIPT)]);
    let path = "ci/run-local.sh";
    assert_eq!(
        common::lines_of(&found, path, "runner-exec-command"),
        [6],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, path, "runner-registration-token"),
        [8, 9],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, path, "runner-register-server-side-arguments"),
        [8],
        "{found:?}"
    );
}
