//! The CI forms that the CI-configuration sample (`tests/realworld/sampled-nc.yaml`, its tune part)
//! showed wrongly reported. The files are written for this test, modelled on (not copied from) the
//! public files of that corpus:
//! - a help text a shell script prints with `cat <<EOF … EOF` (`4. GitLab CI - picked up from
//!   CI_JOB_JWT_V2`): the person running the script reads the variable's name, the script does not
//!   read the variable. The same heredoc written into a file (`cat > job.env <<EOF`) or piped into
//!   a command is data the job uses, and an expansion in a help text (`$CI_JOB_JWT_V2`) prints the
//!   value: both stay uses.

mod common;
use common::{findings_of, scan_files};

/// A script CI jobs fetch and run: it picks its credential from the job's environment, prints
/// its help with two heredocs, and writes an env file with another.
const UPLOADER: &str = r#"#!/usr/bin/env bash
set -euo pipefail

auth_header() {
    if [ -n "${UPLOAD_API_KEY:-}" ]; then
        echo "x-api-key: $UPLOAD_API_KEY"
    elif [ -n "${CI_JOB_JWT_V2:-}" ]; then
        echo "Job-Token: $CI_JOB_JWT_V2"
    fi
}

usage() {
    cat <<EOF
Report uploader

Authentication (first match wins):
  1. UPLOAD_API_KEY   - a project key
  2. GitLab CI        - picked up from CI_JOB_JWT_V2
EOF
}

usage_short() {
	cat <<-'USAGE'
	upload.sh all      (needs CI_JOB_JWT or UPLOAD_API_KEY)
	USAGE
}

write_env() {
    cat > job.env <<EOF
TOKEN_VARIABLE=CI_JOB_JWT_V2
EOF
    cat <<EOF | sh
export LEGACY=CI_JOB_JWT
EOF
    cat <<EOF
token length: ${#CI_JOB_JWT_V2}, value: $CI_JOB_JWT
EOF
}

die_without_token() {
    cat >&2 <<EOF
no token: set UPLOAD_API_KEY or run in a job that has CI_JOB_JWT_V2
EOF
    exit 1
}
"#;

#[test]
fn a_help_text_printed_from_a_heredoc_is_no_use() {
    let path = "scripts/upload.sh";
    let found = scan_files(&[(path, UPLOADER)]);
    let got = findings_of(&found, path);
    let jwt = |line: u64| (line, "ci-job-jwt".to_string());
    // The help texts of `cat <<EOF`, `cat <<-'USAGE'` and `cat >&2 <<EOF` name the variables
    // (18, 24, 42).
    for line in [18, 24, 42] {
        assert!(
            got.iter().all(|(l, _)| *l != line),
            "line {line} is a help text: {got:?}"
        );
    }
    // The test and the header read the token (7, 8); the heredoc written into a file (30) and the
    // one piped into `sh` (33) are data the job uses; an expansion prints the value (36).
    for line in [7, 8, 30, 33, 36] {
        assert!(got.contains(&jwt(line)), "line {line} is a use: {got:?}");
    }
}
