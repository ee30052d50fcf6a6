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

/// Child pipelines that programs write, in the forms a fresh sample showed: a shell heredoc
/// appended to a `.yml` of no telling name, a shell `echo "` over many lines, a Go program
/// writing one line per `Fprintf`, a C++ builder appending lines to a string, a Python list of
/// lines, and Python dicts dumped as the configuration. Each job's `strategy: depend` under
/// `trigger:` and `after_script:` is found where it is written; a GitHub Actions workflow
/// written the same way is not CI.
#[test]
fn ci_configuration_that_programs_write_line_by_line() {
    let files: [(&str, &str); 7] = [
        (
            ".gitlab/trigger-e2e.sh",
            "#!/usr/bin/env bash\nset -e\ncat <<EOF >e2e.yml\nstages:\n  - e2e\nEOF\nif [ -n \"$RUN_E2E\" ]; then\ncat <<EOF >>e2e.yml\nrun-e2e:\n  stage: e2e\n  trigger:\n    project: acme/e2e-suite\n    strategy: depend\nEOF\nfi\n",
        ),
        (
            "scripts/generate_pipeline.sh",
            "#!/bin/bash\nfor system in $SYSTEMS; do\n  echo \"\n${system}_run:\n  stage: run\n  tags: [\\\"$system\\\"]\n  script:\n    - echo \\\"run on $system\\\"\n  after_script:\n    - bash scripts/collect.sh\n\" >> child.yml\ndone\n",
        ),
        (
            "internal/pipeline/write.go",
            "package pipeline\n\nfunc write(buf *bytes.Buffer, stages []string) {\n\tfor i, s := range stages {\n\t\tfmt.Fprintf(buf, \"agent-%d:\\n\", i)\n\t\tfmt.Fprintf(buf, \"  trigger:\\n\")\n\t\tfmt.Fprintf(buf, \"    include: .gitlab/ci/%s.yml\\n\", s)\n\t\tfmt.Fprintf(buf, \"    strategy: depend\\n\")\n\t}\n}\n",
        ),
        (
            "src/planner/ci_builder.hpp",
            "std::string trigger_job(const Tier& t) {\n  std::string s;\n  s += t.name + \":\\n\";\n  s += \"  stage: tiers\\n\";\n  s += \"  trigger:\\n\";\n  s += \"    include:\\n\";\n  s += \"      - artifact: \" + t.file + \"\\n\";\n  s += \"    strategy: depend\\n\";\n  return s;\n}\n",
        ),
        (
            "ci/build_matrix.py",
            "TEMPLATE = [\n    \".build:\",\n    \"  stage: build\",\n    \"  script:\",\n    \"    - ./gradlew assemble\",\n    \"  after_script:\",\n    \"    - rm -f key.jks\",\n]\n\nprint(\"\\n\".join(TEMPLATE))\n",
        ),
        (
            "ci/generate_child.py",
            "import yaml\n\n\ndef trigger_job(name, child):\n    return {\n        f\"trigger:{name}\": {\n            \"stage\": \"deploy\",\n            \"trigger\": {\n                \"include\": [{\"artifact\": child, \"job\": \"generate\"}],\n                \"strategy\": \"depend\",\n            },\n        }\n    }\n\n\nprint(yaml.safe_dump(trigger_job(\"a\", \"a.yml\")))\n",
        ),
        (
            "tools/write_workflow.py",
            "STEPS = [\n    \"jobs:\",\n    \"  build:\",\n    \"    runs-on: ubuntu-latest\",\n    \"    strategy:\",\n    \"      matrix: {os: [a, b]}\",\n    \"    steps:\",\n    \"      - run: make\",\n]\n",
        ),
    ];
    let found = common::scan_files(&files);
    let depend = |p: &str| common::lines_of(&found, p, "ci-trigger-strategy-depend");
    let after = |p: &str| common::lines_of(&found, p, "ci-after-script-cancelled-jobs");
    assert_eq!(depend(files[0].0), [13], "{found:?}");
    assert_eq!(after(files[1].0), [9], "{found:?}");
    assert_eq!(depend(files[2].0), [8], "{found:?}");
    assert_eq!(depend(files[3].0), [8], "{found:?}");
    assert_eq!(after(files[4].0), [6], "{found:?}");
    assert_eq!(depend(files[5].0), [10], "{found:?}");
    assert!(found.iter().all(|(p, ..)| p != files[6].0), "{found:?}");
}

/// `strategy: depend` in the other ways code writes it, found by the data's literals alone: a
/// variable holding a trigger's dict, the gcip library's `TriggerStrategy.DEPEND`. The words
/// in a comment or another key's value are not.
#[test]
fn strategy_depend_however_code_writes_it() {
    let py = "ci/pipeline_builder.py";
    let gcip = "ci/pipeline.py";
    let found = common::scan_files(&[
        (
            py,
            "def trigger_job(stage, artifact, job):\n    rules = make_rules(stage)\n    # 'strategy': 'depend' waits for the child\n    trigger = {\n        'strategy': 'depend',\n        'include': [{'artifact': str(artifact), 'job': job}],\n    }\n    return {'stage': stage, 'trigger': trigger, 'rules': rules, 'note': 'strategy: depend'}\n",
        ),
        (
            gcip,
            "from gcip import Pipeline, TriggerJob, TriggerStrategy\n\npipeline = Pipeline()\npipeline.add_children(\n    TriggerJob(\n        project=\"team/deploy\",\n        branch=\"main\",\n        strategy=TriggerStrategy.DEPEND,\n    )\n)\npipeline.write_yaml()\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, py, "ci-trigger-strategy-depend"),
        [5],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, gcip, "ci-trigger-strategy-depend"),
        [8],
        "{found:?}"
    );
}

/// A shell script whose lines before its `echo "` hold closing quotes at their ends
/// (`OUT="child.yml"`): the quote that opens the job's text is still told from those that
/// close. An ID token a job names `CI_JOB_JWT` under `id_tokens:` is the replacement declared,
/// not the removed variable; reading `$CI_JOB_JWT` in a job without it is.
#[test]
fn echo_after_closing_quotes_and_id_tokens_named_like_the_old_token() {
    let sh = "scripts/gen.sh";
    let ci = ".gitlab-ci.yml";
    let found = common::scan_files(&[
        (
            sh,
            "#!/bin/bash\nOUT=\"child.yml\"\necho \"# generated\" > \"$OUT\"\nfor s in $SYSTEMS; do\n  tag=$(echo \"$s\" | sed 's/\"//g')\n  echo \"\n${s}_run:\n  stage: run\n  id_tokens:\n    CI_JOB_JWT:\n      aud: https://ci.example.com\n  script:\n    - ./run.sh\n  after_script:\n    - ./collect.sh\n\" >> \"$OUT\"\ndone\n",
        ),
        (
            ci,
            "deploy:\n  id_tokens:\n    CI_JOB_JWT:\n      aud: https://vault.example.com\n  script:\n    - vault login -method=jwt jwt=$CI_JOB_JWT\nold:\n  script:\n    - curl -H \"JOB-TOKEN: $CI_JOB_JWT\" https://vault.example.com\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, sh, "ci-after-script-cancelled-jobs"),
        [14],
        "{found:?}"
    );
    assert!(
        common::lines_of(&found, sh, "ci-job-jwt").is_empty(),
        "{found:?}"
    );
    let jwt = common::lines_of(&found, ci, "ci-job-jwt");
    assert!(!jwt.contains(&3) && jwt.contains(&9), "{found:?}");
}

/// A Vue component's bound attribute holds code: `merge_status` compared there with a value
/// only the platform's field takes is the field. The same words in a plain attribute's text are
/// not.
#[test]
fn a_bound_attribute_of_a_template_is_code() {
    let vue = "src/components/MergeRequestItem.vue";
    let found = common::scan_files(&[(
        vue,
        "<template>\n  <li\n    :class=\"mr.merge_status === 'can_be_merged' ?\n    'item item-ok' : 'item'\"\n    title=\"merge_status === 'can_be_merged' means no conflicts\"\n  >\n    {{ mr.title }}\n  </li>\n</template>\n\n<script>\nexport default { props: ['mr'] }\n</script>\n",
    )]);
    assert_eq!(
        common::lines_of(&found, vue, "mr-merge-status"),
        [3],
        "{found:?}"
    );
}

/// A loop variable of no telling name read for the platform's own numbering of merge requests
/// (`c["iid"]`) holds one: its `merged_by` is the removed field. A GitHub pull request read the
/// same way (`c["number"]`, `merged_by.login`) is not.
#[test]
fn a_variable_read_for_iid_holds_a_merge_request() {
    let gl = "reports/management/commands/crawl.py";
    let gh = "reports/management/commands/crawl_github.py";
    let found = common::scan_files(&[
        (
            gl,
            "from reports.clients import Gitlab\n\n\ndef rows(merges):\n    for c in merges:\n        yield {\n            \"merge_id\": c[\"iid\"],\n            \"title\": c[\"title\"],\n            \"reviewer\": c[\"merged_by\"][\"username\"],\n        }\n",
        ),
        (
            gh,
            "from reports.clients import GitHub\n\n\ndef rows(pulls):\n    for c in pulls:\n        yield {\n            \"merge_id\": c[\"number\"],\n            \"reviewer\": c[\"merged_by\"][\"login\"],\n        }\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, gl, "mr-merged-by"),
        [9],
        "{found:?}"
    );
    assert!(
        common::lines_of(&found, gh, "mr-merged-by").is_empty(),
        "{found:?}"
    );
}

/// A heredoc whose word follows a blank (`cat << EOF`), printing the runner chart's values from
/// a shell function: read as the values it holds.
#[test]
fn a_heredoc_word_after_a_blank() {
    let sh = "scripts/generate-values.sh";
    let found = common::scan_files(&[(
        sh,
        "#!/bin/bash\ngenerate_runner_values() {\n    cat << EOF\n# runner chart values\ngitlabUrl: ${GITLAB_URL}\nrunnerRegistrationToken: \"${RUNNER_REGISTRATION_TOKEN}\"\nconcurrent: 10\nEOF\n}\ngenerate_runner_values > values.yaml\n",
    )]);
    assert_eq!(
        common::lines_of(&found, sh, "helm-runner-registration-token"),
        [6],
        "{found:?}"
    );
}

/// A deploy script that keeps the chart's value in a shell variable of the same camel-cased
/// name: the assignment is the script's own; the `--set` that hands it to the chart is the use.
#[test]
fn a_shell_variable_named_like_a_chart_value() {
    let sh = "gitlab-runner/deploy.sh";
    let found = common::scan_files(&[(
        sh,
        "#!/bin/bash\ngitlabUrl=$1\nrunnerRegistrationToken=$2\noverride=\"--set gitlabUrl=$gitlabUrl --set runnerRegistrationToken=$runnerRegistrationToken\"\nhelm upgrade --install runner gitlab/gitlab-runner $override\n",
    )]);
    assert_eq!(
        common::lines_of(&found, sh, "helm-runner-registration-token"),
        [4],
        "{found:?}"
    );
}

/// A flag alone at the start of a line of an array's items (`--run-untagged="true"` in
/// `register_cmd+=(`) is the command's argument, not a shell variable assigned.
#[test]
fn a_flag_at_a_lines_start_is_no_assignment() {
    let sh = "scripts/gitlab-runner.sh";
    let found = common::scan_files(&[(
        sh,
        "#!/bin/bash\nregister_cmd=(\n  sudo gitlab-runner register --non-interactive\n  --url \"$CI_SERVER_URL\"\n  --registration-token \"$TOKEN\"\n)\nregister_cmd+=(\n  --run-untagged=\"true\"\n)\n\"${register_cmd[@]}\"\n",
    )]);
    assert!(
        common::lines_of(&found, sh, "runner-register-server-side-arguments").contains(&8),
        "{found:?}"
    );
}

/// Two more ways programs write child pipelines: a Python template whose `"""\` escapes the
/// line break after the quote, and jobs appended line by line under an `if` each, with their
/// trigger in flow style (`trigger: { include: …, strategy: depend }`).
#[test]
fn python_templates_and_flow_style_triggers_written_by_code() {
    let tpl = "ci/generate_pipeline.py";
    let lines = "security/rendering/child_pipeline.py";
    let found = common::scan_files(&[
        (
            tpl,
            "JOB = \"\"\"\\\ntest-__SHA__:\n  stage: test\n  script:\n    - ./run.sh __SHA__\n  after_script:\n    - ./collect.sh\n\"\"\"\n\nprint(JOB.replace(\"__SHA__\", sha))\n",
        ),
        (
            lines,
            "def render(plan):\n    lines = []\n    lines.append(\"stages:\")\n    lines.append(\"  - security\")\n    lines.append(\"\")\n\n    if \"sast\" in plan.jobs:\n        lines.append(\"sast:\")\n        lines.append(\"  stage: security\")\n        lines.append('  trigger: { include: [ { local: \"/scans/sast.yml\" } ], strategy: depend }')\n        lines.append(\"\")\n    return \"\\n\".join(lines)\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, tpl, "ci-after-script-cancelled-jobs"),
        [6],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, lines, "ci-trigger-strategy-depend"),
        [10],
        "{found:?}"
    );
}

/// A PHP script that writes trigger jobs with a heredoc (`<<<FILE_CONTENT` … `FILE_CONTENT .
/// "\n\n";`): the heredoc is read as the CI configuration it holds.
#[test]
fn a_php_heredoc_that_writes_trigger_jobs() {
    let php = ".gitlab/generate-packages-pipelines.php";
    let found = common::scan_files(&[(
        php,
        "<?php declare(strict_types=1);\n\n$ci = '';\nforeach (['a', 'b'] as $package) {\n    $ci .= <<<FILE_CONTENT\npackage-$package:\n  trigger:\n    include: \"packages/$package/.gitlab-ci.yml\"\n    strategy: depend\nFILE_CONTENT . \"\\n\\n\";\n}\nfile_put_contents(__DIR__ . '/generated.yml', $ci);\n",
    )]);
    assert_eq!(
        common::lines_of(&found, php, "ci-trigger-strategy-depend"),
        [9],
        "{found:?}"
    );
}
