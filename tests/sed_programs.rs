//! A variable's name in the quoted program of a `sed` command is text the program matches or
//! writes (a script that masks secrets in a recorded environment dump: `sed -i
//! '/CI_JOB_JWT=/c\CI_JOB_JWT=secret' ci.env`), not the variable; its expansion in a program
//! (`sed "s/@TOKEN@/$CI_JOB_JWT_V2/"`) is. Fixtures written for this test, modelled on a tool
//! that records the environment of CI systems.

mod common;

#[test]
fn a_name_a_sed_program_matches_is_no_use() {
    let path = "scripts/collect.sh";
    let found = common::scan_files(&[(
        path,
        "#!/usr/bin/env bash\nenv > \"${CI_SERVICE_NAME}.env\"\n# filter: gitlab\nsed -i '/CI_JOB_TOKEN=/c\\CI_JOB_TOKEN=secret' \"${CI_SERVICE_NAME}.env\"\nsed -i '/CI_JOB_JWT=/c\\CI_JOB_JWT=secret' \"${CI_SERVICE_NAME}.env\"\nsed -i \"/CI_JOB_JWT_V2=/d\" \"${CI_SERVICE_NAME}.env\"\nsed \"s/@TOKEN@/$CI_JOB_JWT_V2/\" vault.tpl > vault.hcl\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "ci-job-jwt"),
        [7],
        "{found:?}"
    );
}
