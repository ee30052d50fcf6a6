//! A loop's element typed by its declaration (`for (Runner r : runners)`, C#'s `foreach
//! (Runner r in runners)`) is the resource the type names: its getters of removed fields count
//! in a file that names the platform. An application's own `Runner` (a race's runner, in a file
//! that names no platform) is silent. Fixtures written for these tests.

mod common;

const AUDIT: &str = r#"package com.example.ci;

import org.gitlab4j.api.GitLabApi;
import org.gitlab4j.api.models.Runner;

public class RunnerAudit {
    public void print(GitLabApi api) throws Exception {
        for (Runner r : api.getRunnersApi().getAllRunners()) {
            if (r.getActive()) {
                System.out.println(r.getDescription() + " " + r.getIpAddress());
            }
        }
    }
}
"#;

#[test]
fn a_loop_elements_getters_of_the_platforms_runner_are_found() {
    let found = common::scan_files(&[("src/main/java/RunnerAudit.java", AUDIT)]);
    let path = "src/main/java/RunnerAudit.java";
    assert_eq!(
        common::lines_of(&found, path, "runners-active-property"),
        [9],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, path, "runners-ip-address"),
        [10],
        "{found:?}"
    );
}

#[test]
fn an_applications_own_runner_is_not() {
    let race = AUDIT
        .replace("import org.gitlab4j.api.GitLabApi;\n", "")
        .replace("org.gitlab4j.api.models.Runner", "com.example.race.Runner")
        .replace("GitLabApi api", "RaceRepository api")
        .replace("api.getRunnersApi().getAllRunners()", "api.finishers()");
    let found = common::scan_files(&[("src/main/java/RaceAudit.java", race.as_str())]);
    assert!(found.is_empty(), "{found:?}");
}
