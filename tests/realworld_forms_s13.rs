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
