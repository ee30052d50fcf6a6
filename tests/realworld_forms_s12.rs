//! Forms found in session 12's fresh samples and whole repositories of the platform's users,
//! each in a fixture written for this test and modelled on what was seen.

mod common;

/// A register command in a JavaScript template literal (a Pulumi provider's instance user
/// data) whose arguments hold a `${…}` expression with spaces, a nested template literal and
/// a `)`: the expression is one word, and the flags after it are still the command's.
#[test]
fn a_template_expression_with_spaces_is_one_word_of_the_command() {
    let path = "provider/runner/userData.ts";
    let found = common::scan_files(&[(
        path,
        "export function userData(general: General, volumes: string[]): string {\n  return `#!/bin/bash\ngitlab-runner register \\\\\n  --non-interactive \\\\\n  --url \"${general.gitlabUrl}\" \\\\\n  --registration-token \"${general.token}\" \\\\\n  ${volumes.map(v => `--docker-volumes \"${v}\"`).join(\" \\\\\\n\")} \\\\\n  --tag-list \"${general.tagList}\" \\\\\n  --docker-privileged\n`;\n}\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-registration-token"),
        [6],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, path, "runner-register-server-side-arguments"),
        [8],
        "{found:?}"
    );
}

/// The same in a shell script: `${VAR:-a default with spaces}` is one word.
#[test]
fn a_parameter_expansion_with_spaces_is_one_word_of_the_command() {
    let path = "scripts/register.sh";
    let found = common::scan_files(&[(
        path,
        "#!/bin/bash\ngitlab-runner register --non-interactive \\\n  --registration-token \"$TOKEN\" \\\n  --description ${DESC:-a runner (docker)} \\\n  --locked=false\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-register-server-side-arguments"),
        [5],
        "{found:?}"
    );
}

/// A register command over the strings of a Packer provisioner's `inline` list, each line
/// ending in the shell's continuation escaped (`\\",`): the flags in the later items are the
/// command's.
#[test]
fn a_command_over_the_items_of_an_inline_list() {
    let path = "packer/runner-host.pkr.hcl";
    let found = common::scan_files(&[(
        path,
        "build {\n  sources = [\"source.qemu.base\"]\n\n  provisioner \"shell\" {\n    inline = [\n      \"sudo apt-get install -y gitlab-runner\",\n      \"sudo gitlab-runner register --non-interactive \\\\\",\n      \"  --url '${var.gitlab_url}' \\\\\",\n      \"  --token '${var.runner_token}' \\\\\",\n      \"  --executor docker \\\\\",\n      \"  --tag-list 'docker,linux'\",\n      \"sudo systemctl enable --now gitlab-runner\",\n    ]\n  }\n}\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-register-server-side-arguments"),
        [11],
        "{found:?}"
    );
}

/// Clients generated from the platform's OpenAPI description name each call after its
/// operation id (`getApiV4…` in TypeScript, `GetApiV4…` in Go): a call of a removed endpoint's
/// operation is its use, found from data alone (`kind: literal` lines in data/api-v5.yml and
/// data/18.0.yml). A longer name holding it (a wrapper's own function) and a comment are not.
#[test]
fn operation_ids_of_generated_clients_are_the_endpoints() {
    let go = "internal/tools/runners.go";
    let ts = "src/review/diff.ts";
    let found = common::scan_files(&[
        (
            go,
            "package tools\n\nimport (\n\t\"context\"\n\n\tclient \"example.com/gitlab-client-go/pkg/gitlab\"\n)\n\n// PostApiV4RunnersResetRegistrationToken is gone in 18.0.\nfunc registerPostApiV4RunnersResetRegistrationToken() {}\n\nfunc reset(ctx context.Context, c *client.Client, auth string) error {\n\t_, err := c.PostApiV4RunnersResetRegistrationToken(ctx, auth)\n\treturn err\n}\n",
        ),
        (
            ts,
            "import { MergeRequestsApi } from './generated/gitlab';\n\nexport async function diff(api: MergeRequestsApi, id: string, iid: number) {\n  const res = await api.getApiV4ProjectsIdMergeRequestsMergeRequestIidChanges({ id, mergeRequestIid: iid });\n  return res.data.changes;\n}\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, go, "runner-reset-registration-token-endpoints"),
        [13],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, ts, "mr-changes-endpoint"),
        [4],
        "{found:?}"
    );
}

/// A script's variable named for the registration token and given a command's output
/// (`runner_registration_token=$(curl … reset_registration_token | jq -r .token)`) is a value the
/// script computes, not a deployment's setting: the reset call on its line and the register
/// command that hands the variable on are the uses. The same name given a value in a tfvars file
/// stays a setting.
#[test]
fn a_variable_given_a_commands_output_is_no_setting() {
    let sh = "scenarios/gitlab/setup.sh";
    let tfvars = "env/prod.tfvars";
    let found = common::scan_files(&[
        (
            sh,
            "#!/bin/bash\nset -e\nrunner_registration_token=$(curl -s -H \"PRIVATE-TOKEN: $ADMIN\" -X POST \"http://localhost/api/v4/projects/2/runners/reset_registration_token\" | jq -r '.token')\ndocker run --rm gitlab/gitlab-runner register --non-interactive --url http://localhost/ --registration-token \"$runner_registration_token\" --executor docker\n",
        ),
        (
            tfvars,
            "gitlab_url = \"https://gitlab.example.com\"\nrunner_registration_token = \"GR1348941xyz\"\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, sh, "runner-registration-token"),
        [4],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, sh, "runner-reset-registration-token-endpoints"),
        [3],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, tfvars, "runner-registration-token"),
        [2],
        "{found:?}"
    );
}

/// A CI configuration a Go program writes in raw strings: the literal starts with a key on its
/// quote's line (`` return `stages:\n…` ``), and values are spliced in with `+` between
/// literals (`` `…token ` + token + `"\n…` ``): the literals after a splice go on with the same
/// configuration, whose trigger job asks for `strategy: depend`.
#[test]
fn a_ci_configuration_spliced_over_raw_strings() {
    let path = "cmd/seed/pipeline.go";
    let found = common::scan_files(&[(
        path,
        "package main\n\nfunc pipeline(token string) string {\n\treturn `stages:\n  - build\n  - test\n\nbuild:\n  stage: build\n  script:\n    - echo \"using token ` + token + `\"\n    - make\n\ndownstream:\n  stage: test\n  trigger:\n    include: ci/child.yml\n    strategy: depend\n`\n}\n\nfunc banner(name string) string {\n\treturn `title:\n  ` + name + `\n  strategy: depend\n`\n}\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "ci-trigger-strategy-depend"),
        [18],
        "{found:?}"
    );
}

/// A PHP file that renders a child pipeline: the text it outputs (outside `<?php … ?>`, its
/// `<?= … ?>` echoes part of their lines) is read as the CI configuration it is; the code is not.
#[test]
fn the_output_of_a_php_pipeline_generator_is_ci_configuration() {
    let path = ".gitlab/generate-tests.php";
    let found = common::scan_files(&[(
        path,
        "<?php\n\ninclude \"generate-common.php\";\n$after_script = 'cleanup';\n\n?>\nstages:\n  - test\n\n.unit_tests:\n  stage: test\n  script:\n    - make test\n  after_script:\n    - ./upload-junit.sh\n\n<?php foreach ($versions as $v): ?>\n\"unit: [<?= $v ?>]\":\n  extends: .unit_tests\n  variables:\n    PHP_VERSION: \"<?= $v ?>\"\n<?php endforeach; ?>\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "ci-after-script-cancelled-jobs"),
        [14],
        "{found:?}"
    );
}

/// The Go client's name of the field, `MergeStatus`, given one of the values only the
/// platform's field takes in a test's table of merge requests: a data line (a `rest_field` of
/// mr-merge-status in data/api-v5.yml). Azure DevOps' `MergeStatus` takes other values.
#[test]
fn the_go_clients_merge_status_given_a_telling_value() {
    let path = "server/events/vcs/gitlab_client_test.go";
    let other = "server/events/vcs/azure_client_test.go";
    let found = common::scan_files(&[
        (
            path,
            "package vcs\n\nimport (\n\t\"testing\"\n\n\tgitlab \"gitlab.com/gitlab-org/api/client-go\"\n)\n\nfunc TestMergeable(t *testing.T) {\n\tcases := []struct {\n\t\tmr *gitlab.MergeRequest\n\t}{\n\t\t{mr: &gitlab.MergeRequest{MergeStatus: \"can_be_merged\"}},\n\t\t{mr: &gitlab.MergeRequest{\n\t\t\tBlockingDiscussionsResolved: true,\n\t\t\tMergeStatus:                 \"cannot_be_merged\",\n\t\t}},\n\t}\n\t_ = cases\n}\n",
        ),
        (
            other,
            "package vcs\n\nfunc azurePR() PullRequest {\n\treturn PullRequest{MergeStatus: \"succeeded\", Status: \"active\"}\n}\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, path, "mr-merge-status"),
        [13, 16],
        "{found:?}"
    );
    assert!(found.iter().all(|f| f.0 != other), "{found:?}");
}

/// A test's mock server answering the runner managers' endpoint: the `ip_address` of the body
/// it answers with is the manager's (the replacement), not the runner's removed field; the
/// runners' own mock beside it still holds the runner's.
#[test]
fn a_field_of_another_endpoints_mock_is_that_endpoints() {
    let path = "internal/tools/runners/runners_test.go";
    let found = common::scan_files(&[(
        path,
        "package runners\n\nimport (\n\t\"net/http\"\n\t\"testing\"\n)\n\nfunc TestRunnerTools(t *testing.T) {\n\tmux := http.NewServeMux()\n\tmux.HandleFunc(\"GET /api/v4/runners/10\", func(w http.ResponseWriter, _ *http.Request) {\n\t\trespond(w, `{\"id\":10,\"ip_address\":\"10.0.0.9\",\"paused\":false}`)\n\t})\n\tmux.HandleFunc(\"GET /api/v4/runners/10/managers\", func(w http.ResponseWriter, _ *http.Request) {\n\t\trespond(w, `[{\"id\":1,\"system_id\":\"s-1\",\"ip_address\":\"10.0.0.1\"}]`)\n\t})\n}\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runners-ip-address"),
        [11],
        "{found:?}"
    );
}

/// A workflow node's description of an operation: the request line in a label's value
/// (`displayName: 'POST /api/v4/runners/reset_registration_token'`) names the endpoint for
/// people; the URL the node requests (`url: '=/api/v4/runners/reset_registration_token'`) is
/// the use.
#[test]
fn a_request_line_in_a_label_is_no_call() {
    let path = "nodes/GitLab/descriptions/RunnersDescription.ts";
    let found = common::scan_files(&[(
        path,
        "import type { INodeProperties } from 'n8n-workflow';\n\nexport const runnerOperations: INodeProperties[] = [\n  {\n    name: 'Reset Registration Token',\n    value: 'resetRegistrationToken',\n    routing: {\n      request: {\n        method: 'POST',\n        url: '=/api/v4/runners/reset_registration_token',\n      },\n    },\n  },\n  {\n    displayName: 'POST /api/v4/runners/reset_registration_token',\n    name: 'notice',\n    type: 'notice',\n    default: '',\n  },\n];\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-reset-registration-token-endpoints"),
        [10],
        "{found:?}"
    );
}

/// The types graphql-codegen generates for the platform's whole schema (its `typescript` output,
/// opening with the scalar map `export type Scalars = {`) declare every field, removed or not,
/// whichever the program selects: no finding there. The program's own document beside it,
/// which selects a removed field, is the use.
#[test]
fn types_generated_for_the_whole_schema_are_no_use() {
    let types = "src/graphql/gitlab/graphql.ts";
    let query = "src/queries/boards.ts";
    let found = common::scan_files(&[
        (
            types,
            "/* eslint-disable */\nexport type Maybe<T> = T | null;\n/** All built-in and custom scalars, mapped to their actual values */\nexport type Scalars = {\n  ID: { input: string; output: string; }\n  /** An example `CiRunnerID` is: `\"gid://gitlab/Ci::Runner/1\"`. */\n  CiRunnerID: { input: any; output: any; }\n};\n\nexport type BoardList = {\n  __typename?: 'BoardList';\n  /** Total weight of all issues in the list. */\n  totalWeight?: Maybe<Scalars['Int']['output']>;\n};\n\nexport type CiRunner = {\n  __typename?: 'CiRunner';\n  active: Scalars['Boolean']['output'];\n  ipAddress?: Maybe<Scalars['String']['output']>;\n};\n\nexport type Project = {\n  isTemporaryStorageIncreaseEnabled: Scalars['Boolean']['output'];\n};\n",
        ),
        (
            query,
            "import { gql } from '@apollo/client';\n\nexport const BOARD_LISTS = gql`\n  query boardLists($fullPath: ID!) {\n    project(fullPath: $fullPath) {\n      boards {\n        nodes {\n          lists {\n            nodes {\n              title\n              totalWeight\n            }\n          }\n        }\n      }\n    }\n  }\n`;\n",
        ),
    ]);
    assert!(found.iter().all(|f| f.0 != types), "{found:?}");
    assert_eq!(
        common::lines_of(&found, query, "graphql-total-weight"),
        [11],
        "{found:?}"
    );
}

/// A CI configuration rendered by Jsonnet (`.gitlab-ci.jsonnet`): its objects are read as the
/// configuration's keys, a job made by a function (`local deploy(name) = { stage: …,
/// trigger: { … } }`) and jobs under computed names (`['test_' + name]: { … }`) alike. A
/// Jsonnet file not named for the CI configuration is not read so (its `after_script` key is
/// no job's; `strategy: 'depend'` itself is a literal of the data, found in any code).
#[test]
fn a_ci_configuration_rendered_by_jsonnet() {
    let ci = ".gitlab-ci.jsonnet";
    let other = "dashboards/deploy.jsonnet";
    let found = common::scan_files(&[
        (
            ci,
            "local lang = std.extVar('lang');\n\nlocal downstream(name) =\n{\n  stage: 'launch',\n  needs: [{ job: 'generate' }],\n  trigger:\n  {\n    include: [{ artifact: name + '.yml', job: 'generate' }],\n    strategy: 'depend',\n  },\n};\n\nlocal tests(name) = {\n  ['test_' + lang + '_' + name]: {\n    stage: 'test',\n    trigger: {\n      include: [{ artifact: '.' + name + '-ci.yml', job: 'generate' }],\n      strategy: 'depend',\n    },\n  },\n};\n\n{\n  generate: {\n    stage: 'build',\n    script: ['jsonnet -m . pipelines.jsonnet'],\n  },\n  launch: downstream('app'),\n} + tests('unit')\n",
        ),
        (
            other,
            "local rollout = {\n  stage: 'canary',\n  after_script: ['notify'],\n};\n{ rollout: rollout }\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, ci, "ci-trigger-strategy-depend"),
        [10, 19],
        "{found:?}"
    );
    assert!(found.iter().all(|f| f.0 != other), "{found:?}");
}

/// A word before a colon is a key only where a key can stand (a line's start, after `{`, `,`,
/// `(`, `;`, `-`): `if merged_by:` is the condition of a Python statement on a local variable,
/// while the read of the response that set it is the use.
#[test]
fn a_statements_condition_is_no_key() {
    let path = "agent/tools/mr_summary.py";
    let found = common::scan_files(&[(
        path,
        "import requests\n\n\ndef summary(base, pid, iid, token):\n    mr = requests.get(f\"{base}/api/v4/projects/{pid}/merge_requests/{iid}\", headers={\"PRIVATE-TOKEN\": token}).json()\n    merged_by = mr.get(\"merged_by\", {}).get(\"username\") if mr.get(\"merged_by\") else None\n    lines = [mr[\"title\"]]\n    if merged_by:\n        lines.append(f\"Merged by: {merged_by}\")\n    return lines\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "mr-merged-by"),
        [6],
        "{found:?}"
    );
}

/// A GraphQL client's runner, named by its global id (`gid://gitlab/Ci::Runner/123`) in a file
/// that shows no REST API, is the GraphQL API's object: its `Active` is not the REST runners'
/// removed `active`. The same read in a REST client's file stays a use.
#[test]
fn a_graphql_clients_runner_is_not_the_rest_resource() {
    let gql = "internal/graphql/convert_runner_test.go";
    let rest = "internal/rest/runners_test.go";
    let body = |id: &str| {
        format!(
            "package x\n\nimport \"testing\"\n\nfunc TestRunner(t *testing.T) {{\n\ttests := []struct {{\n\t\tinput RunnerFields\n\t}}{{\n\t\t{{input: RunnerFields{{Id: \"{id}\", Active: true}}}},\n\t}}\n\tfor _, tt := range tests {{\n\t\tresult := convertRunner(tt.input)\n\t\tif result.Active != tt.input.Active {{\n\t\t\tt.Error(\"active differs\")\n\t\t}}\n\t}}\n}}\n"
        )
    };
    let rest_body = body("1").replace(
        "import \"testing\"",
        "import \"testing\"\n\nconst api = \"https://gitlab.example.com/api/v4/runners\"",
    );
    let found = common::scan_files(&[
        (gql, &body("gid://gitlab/Ci::Runner/123")),
        (rest, &rest_body),
    ]);
    assert!(found.iter().all(|f| f.0 != gql), "{found:?}");
    assert!(
        !common::lines_of(&found, rest, "runners-active-property").is_empty(),
        "{found:?}"
    );
}
