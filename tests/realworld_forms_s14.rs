//! Forms found in session 14's samples and whole repositories of the platform's users, each in
//! a fixture written for this test and modelled on what was seen.

mod common;

/// A register command built in a shell array written over several lines, with the removed
/// flags appended under a condition in a second array literal (`cmd+=(` ⏎ `--tag-list …`):
/// each appended flag is a use. Flags appended the same way to another program's array are not.
#[test]
fn flags_appended_to_a_register_array_over_several_lines() {
    let sh = "scripts/register-runner.sh";
    let found = common::scan_files(&[(
        sh,
        "#!/usr/bin/env bash\nset -euo pipefail\n\nregister_args=(\n  gitlab-runner register --non-interactive\n  --url \"$CI_SERVER_URL\"\n  --executor docker\n)\n\nif [ -n \"${LEGACY:-}\" ]; then\n  register_args+=(\n    --tag-list \"${TAGS:-docker}\"\n    --locked=false\n  )\nfi\n\nbuild_args=(\n  cargo build\n)\nbuild_args+=(\n  --locked\n)\n\n\"${register_args[@]}\"\n\"${build_args[@]}\"\n",
    )]);
    assert_eq!(
        common::lines_of(&found, sh, "runner-register-server-side-arguments"),
        [12, 13],
        "{found:?}"
    );
}
