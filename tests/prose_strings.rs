//! A removed name written in a message or description string is prose, as in a comment: an
//! error message that lists the variables a tool read (`'No OIDC token found (CI_JOB_JWT_V2 /
//! CI_JOB_JWT)'`), an `echo` that tells the user what to set, a usage line that names a
//! command's arguments (`echo "usage: $0 REGISTRATION_TOKEN"`). The reads and expansions of the
//! same names on the lines around are uses. Fixtures written for these tests.

mod common;

const ID: &str = "ci-job-jwt";

#[test]
fn a_name_in_a_message_is_prose_and_its_reads_are_uses() {
    let found = common::scan_files(&[
        (
            "release/oidc.py",
            "import os\n\n\ndef job_token():\n    token = os.environ.get(\"CI_JOB_JWT_V2\") or os.environ.get(\"CI_JOB_JWT\")\n    if not token:\n        raise RuntimeError(\"No GitLab OIDC token found (CI_JOB_JWT_V2 / CI_JOB_JWT)\")\n    return token\n",
        ),
        (
            "ci/vault-login.sh",
            "#!/bin/sh\nif [ -z \"${CI_JOB_JWT:-}\" ]; then\n  echo \"Set CI_JOB_JWT before you log in to Vault\" >&2\n  exit 1\nfi\nvault write auth/jwt/login role=deploy jwt=\"$CI_JOB_JWT\"\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, "release/oidc.py", ID),
        [5],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "ci/vault-login.sh", ID),
        [2, 6],
        "{found:?}"
    );
}

#[test]
fn a_usage_line_names_arguments_it_does_not_use_them() {
    let found = common::scan_files(&[(
        "bin/register-runner.sh",
        "#!/bin/sh\nif [ \"$#\" -ne 1 ]; then\n\techo \"usage: $0 REGISTRATION_TOKEN\"\n\texit 1\nfi\nREGISTRATION_TOKEN=\"$1\"\ngitlab-runner register --non-interactive --registration-token \"$REGISTRATION_TOKEN\"\n",
    )]);
    let lines = common::lines_of(
        &found,
        "bin/register-runner.sh",
        "runner-registration-token",
    );
    assert_eq!(lines, [6, 7], "{found:?}");
}
