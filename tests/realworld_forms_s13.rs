//! Forms found in session 13's fresh samples and whole repositories of the platform's users,
//! each in a fixture written for this test and modelled on what was seen.

mod common;

/// A CI configuration written in TypeScript (node-gitlab-ci's `.gitlab-ci.ts`: jobs made by
/// `config.job(name, { … })` and `config.extends([…], name, { … })`): its objects are the
/// configuration's keys. A Travis CI configuration written the same way in another file is not.
#[test]
fn a_ci_configuration_written_in_typescript() {
    let ci = "devops/.gitlab/.gitlab-ci.ts";
    let travis = "generators/app/index.js";
    let found = common::scan_files(&[
        (
            ci,
            "import { ExtendConfigFunction } from \"node-gitlab-ci\";\n\nconst extendConfig: ExtendConfigFunction = async (config) => {\n    config.job(\n        \"report coverage\",\n        {\n            after_script: [\"test $COV_TOKEN && ./upload.sh\"]\n        },\n        true\n    );\n\n    config.extends([\".install\", \".report coverage\"], \"unit\", {\n        stage: \"test\",\n        script: [\n            \"yarn test --ci\",\n        ],\n        after_script: [\"./scripts/cleanup.sh\"],\n        artifacts: { when: \"always\" },\n    });\n};\n\nexport { extendConfig };\n",
        ),
        (
            travis,
            "module.exports = class extends Generator {\n  writing() {\n    this.composeWith('travis', {\n      config: {\n        script: ['npm test'],\n        after_script: ['npm run coveralls'],\n      },\n    });\n  }\n};\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, ci, "ci-after-script-cancelled-jobs"),
        [7, 17],
        "{found:?}"
    );
    assert!(
        common::lines_of(&found, travis, "ci-after-script-cancelled-jobs").is_empty(),
        "{found:?}"
    );
}

/// The platform's API paths in languages uplint has no reader of its own for (an OCaml client
/// generated from the OpenAPI description, a Haskell and a Lua client): a path in a string is
/// a path in any language.
#[test]
fn api_paths_in_the_strings_of_any_language() {
    let ml = "src/gitlabc_projects_runners.ml";
    let hs = "src/GitLab/MergeRequests.hs";
    let lua = "lua/gitlab/api.lua";
    let found = common::scan_files(&[
        (
            ml,
            "module Reset_registration_token = struct\n  module Responses = struct\n    type t = [ `Created | `Unauthorized ] [@@deriving show, eq]\n  end\n\n  let url = \"/api/v4/projects/{id}/runners/reset_registration_token\"\n\n  let make params =\n    Openapi.Request.make ~headers:[] ~url ~responses:Responses.t `Post\nend\n",
        ),
        (
            hs,
            "module GitLab.MergeRequests where\n\n-- | The changes of a merge request.\nmergeRequestChanges :: Int -> Int -> GitLab (Maybe MergeRequest)\nmergeRequestChanges pid iid =\n  gitlabGetOne (\"/projects/\" <> T.pack (show pid) <> \"/merge_requests/\" <> T.pack (show iid) <> \"/changes\") []\n",
        ),
        (
            lua,
            "local M = {}\n\nfunction M.reset_token(project)\n  return curl.post(M.base .. \"/api/v4/projects/\" .. project .. \"/runners/reset_registration_token\", { headers = M.headers })\nend\n\nreturn M\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, ml, "runner-reset-registration-token-endpoints"),
        [6],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, hs, "mr-changes-endpoint"),
        [6],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, lua, "runner-reset-registration-token-endpoints"),
        [4],
        "{found:?}"
    );
}

/// A register command in a Dockerfile's RUN whose continuation carries a comment after the
/// backslash (`--executor "docker" \ # Use Docker executor`): the flags below it are still the
/// command's, as its author meant.
#[test]
fn a_continuation_with_a_comment_after_it_goes_on() {
    let path = "runner/Dockerfile";
    let found = common::scan_files(&[(
        path,
        "FROM gitlab/gitlab-runner:latest\n\nRUN gitlab-runner register --non-interactive \\\n    --url \"https://gitlab.example.com/\" \\\n    --executor \"docker\" \\ # the Docker executor\n    --tag-list \"docker,linux\" \\\n    --locked=\"false\"\n\nCMD [\"run\", \"--user=gitlab-runner\"]\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-register-server-side-arguments"),
        [6, 7],
        "{found:?}"
    );
}

/// A script that hands `--registration-token` its value from `$REGISTRATION_TOKEN`: a check
/// that the variable is set is the script's own, and the use is the flag. In a script that
/// leaves the variable for the register command to read from the environment, the check is
/// the use.
#[test]
fn reads_of_the_token_variable_beside_the_flag_are_the_scripts_own() {
    let flagged = "scripts/setup-runner.sh";
    let implicit = "docker/entrypoint.sh";
    let found = common::scan_files(&[
        (
            flagged,
            "#!/bin/bash\nREGISTRATION_TOKEN=\"${RUNNER_TOKEN:-${1:-}}\"\nif [ -z \"$REGISTRATION_TOKEN\" ]; then\n  echo \"usage: $0 TOKEN\"; exit 1\nfi\ndocker exec runner gitlab-runner register --non-interactive \\\n  --url \"$CI_SERVER_URL\" \\\n  --registration-token \"$REGISTRATION_TOKEN\" \\\n  --executor docker\necho \"registered with ${REGISTRATION_TOKEN:0:4}…\"\n",
        ),
        (
            implicit,
            "#!/bin/sh\nif [ -n \"$REGISTRATION_TOKEN\" ] && [ ! -s /etc/gitlab-runner/config.toml ]; then\n  gitlab-runner register --non-interactive --executor docker\nfi\nexec gitlab-runner run\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, flagged, "runner-registration-token"),
        [2, 8],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, implicit, "runner-registration-token"),
        [2],
        "{found:?}"
    );
}
