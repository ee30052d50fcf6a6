//! Forms found in session 15's samples and whole repositories of the platform's users, each in
//! a fixture written for this test and modelled on what was seen.

mod common;

/// A merge request's path kept in a variable and the removed endpoint appended to it lines
/// below (`base + '/changes'`, the fallback when `/diffs` answers 404): the use is where
/// `/changes` is written. Another API's path kept the same way (`/pulls/…`) is not the
/// endpoint, and neither is a variable assigned something other than a path.
#[test]
fn an_endpoint_appended_to_a_variable_that_holds_the_path() {
    let js = "lib/forge/gitlab.js";
    let found = common::scan_files(&[(
        js,
        "'use strict';\n\nfunction details(host, token, p, n) {\n    var base = '/projects/' + p.id + '/merge_requests/' + n;\n    var pulls = '/repos/' + p.name + '/pulls/' + n;\n    var other = pick(p);\n    return Promise.all([\n        call(host, token, base + '/approvals'),\n        call(host, token, base + '/diffs').then(null, function () {\n            return call(host, token, base + '/changes');\n        }),\n        call(host, token, pulls + '/changes'),\n        call(host, token, other + '/changes'),\n    ]);\n}\n\nmodule.exports = { details: details };\n",
    )]);
    assert_eq!(
        common::lines_of(&found, js, "mr-changes-endpoint"),
        [10],
        "{found:?}"
    );
}

/// The same in a template literal (`${root}/changes` below `const root =
/// \`${projectPath(repo)}/merge_requests/${iid}\``), in a module that serves several forges,
/// and a shell script's `"$MR_URL/changes"` below `MR_URL="$API/projects/…/merge_requests/…"`.
#[test]
fn an_endpoint_after_an_interpolated_variable_in_code_and_shell() {
    let ts = "src/server/providers.ts";
    let sh = "ci/mr-files.sh";
    let found = common::scan_files(&[
        (
            ts,
            "export async function mergeRequestFiles(server: Server, repo: string, iid: number) {\n  if (server.type === \"gitlab\") {\n    const root = `${projectPath(repo)}/merge_requests/${iid}`\n    const [mr, changes] = await Promise.all([\n      providerFetch(server, \"GET\", root),\n      providerFetch(server, \"GET\", `${root}/changes`),\n    ])\n    return { mr, changes }\n  }\n  const pulls = `/repos/${repo}/pulls/${iid}`\n  return providerFetch(server, \"GET\", `${pulls}/files`)\n}\n",
        ),
        (
            sh,
            "#!/bin/sh\nset -eu\nMR_URL=\"$CI_API_V4_URL/projects/$CI_PROJECT_ID/merge_requests/$CI_MERGE_REQUEST_IID\"\ncurl -sf --header \"PRIVATE-TOKEN: $TOKEN\" \"$MR_URL/changes\" > changes.json\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, ts, "mr-changes-endpoint"),
        [6],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, sh, "mr-changes-endpoint"),
        [4],
        "{found:?}"
    );
}

/// A base URL that ends with its `/` interpolated right before the first segment
/// (`${gitlab}projects/${id}/merge_requests/${iid}/changes`).
#[test]
fn a_path_glued_to_an_interpolated_base() {
    let js = "src/client.js";
    let found = common::scan_files(&[(
        js,
        "const rp = require('request-promise');\nconst gitlab = process.env.GITLAB_API;\n\nfunction changes(merge, token) {\n  return rp(\n    `${gitlab}projects/${merge.project_id}/merge_requests/${merge.iid}/changes?private_token=${token}`\n  );\n}\n",
    )]);
    assert_eq!(
        common::lines_of(&found, js, "mr-changes-endpoint"),
        [6],
        "{found:?}"
    );
}

/// A pipeline library's job written in Python with `after_script=[…]` as a keyword argument,
/// in a file that names the platform: a use of the job's `after_script`. An empty list, and
/// the same keyword in a Travis loader that names no platform, are not.
#[test]
fn after_script_as_a_pipeline_librarys_keyword_argument() {
    let job = "tests/test_jobs.py";
    let travis = "tests/test_travis_loader.py";
    let found = common::scan_files(&[
        (
            job,
            "from pipelines_gitlab import Job, Pipeline\n\n\ndef test_job_with_cleanup():\n    job = Job(\n        name=\"test\",\n        script=[\"pytest\"],\n        after_script=[\"echo done\"],\n    )\n    empty = Job(name=\"lint\", script=[\"ruff\"], after_script=[])\n    assert Pipeline(jobs=[job, empty]).to_dict()\n",
        ),
        (
            travis,
            "from loader import Loader\n\n\ndef test_steps():\n    settings = dict(install='pip install .', after_script=['a', 'b'])\n    assert Loader().load_steps(settings)\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, job, "ci-after-script-cancelled-jobs"),
        [8],
        "{found:?}"
    );
    assert!(
        common::lines_of(&found, travis, "ci-after-script-cancelled-jobs").is_empty(),
        "{found:?}"
    );
}

/// `totalWeight` is a field of other GraphQL APIs too (a subgraph's pool fragment): it counts
/// where the file shows the platform's GraphQL API (a selection by `fullPath`, or the
/// platform's name), not in a query of pools.
#[test]
fn another_graphql_apis_total_weight_is_not_the_platforms() {
    let pools = "src/hooks/use-pools.ts";
    let board = "src/board/lists.ts";
    let found = common::scan_files(&[
        (
            pools,
            "import axios from \"axios\";\n\nexport async function pools(url: string) {\n  const response = await axios.post(url, {\n    query:\n      \"query Pools($first: Int, $where: Pool_filter) {\\n  pools(first: $first, where: $where) {\\n    ...PoolFields\\n  }\\n}\\nfragment PoolFields on Pool {\\n  id\\n  address\\n  totalWeight\\n  totalLiquidity\\n}\",\n    variables: { first: 10 },\n  });\n  return response.data;\n}\n",
        ),
        (
            board,
            "import { gql } from \"graphql-request\";\n\nexport const BOARD_LISTS = gql`\n  query lists($path: ID!) {\n    project(fullPath: $path) {\n      board(id: \"1\") {\n        lists {\n          nodes {\n            title\n            totalWeight\n          }\n        }\n      }\n    }\n  }\n`;\n",
        ),
    ]);
    assert!(
        common::lines_of(&found, pools, "graphql-total-weight").is_empty(),
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, board, "graphql-total-weight"),
        [10],
        "{found:?}"
    );
}

/// CI configuration written by code whose string starts in ways the reader did not take for a
/// document: a key and its value on the quote's line (`"""stages: [test, child]` of a
/// `.gitlab-ci.yml` a test commits), a comment line first (`# Written by …` in a template
/// literal, with an escaped backquote in it), and a job named by a format placeholder
/// (`{0:}-run:` of a `str.format` template).
#[test]
fn ci_configuration_in_code_strings_that_start_unusually() {
    let harness = "harness/postconditions.py";
    let init = "src/commands/init.ts";
    let template = "util/gen_ci.py";
    let found = common::scan_files(&[
        (
            harness,
            "def pipeline_actions():\n    return [\n        {\n            \"action\": \"create\",\n            \"file_path\": \".gitlab-ci.yml\",\n            \"content\": \"\"\"stages: [test, child]\nsuccess:\n  stage: test\n  script: ['echo ok']\nchild:\n  stage: child\n  trigger:\n    include: child.yml\n    strategy: depend\n\"\"\",\n        },\n    ]\n",
        ),
        (
            init,
            "/**\n * The job `after_script` prints the report (`when: always` keeps it).\n */\nexport function pipeline(version: string): string {\n  return `# Written by \\`tool init\\`. Safe to edit.\nreview:\n  image: node:22\n  script:\n    - npx tool@${version} review\n  after_script:\n    - npx tool@${version} report || true\n`;\n}\n",
        ),
        (
            template,
            "import sys\n\nMAIN = '''\n{0:}-run:\n  stage: build\n  trigger:\n    include:\n      - artifact: ci/{0:}-ci.yml\n        job: prepare\n    strategy: depend\n'''\n\nprint(MAIN.format(sys.argv[1]))\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, harness, "ci-trigger-strategy-depend"),
        [14],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, init, "ci-after-script-cancelled-jobs"),
        [10],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, template, "ci-trigger-strategy-depend"),
        [10],
        "{found:?}"
    );
}

/// A trigger's `strategy: 'depend'` in a Jsonnet pipeline generator, and a job prototype's
/// single-quoted `'after_script':` key in a Python generator that names its CI file.
#[test]
fn trigger_strategy_and_after_script_keys_in_pipeline_generators() {
    let jsonnet = ".generate-config.jsonnet";
    let py = "ci/optimize_pipeline.py";
    let found = common::scan_files(&[
        (
            jsonnet,
            "local langs = ['c', 'go'];\n\n{\n  ['test_' + lang]: {\n    stage: 'test',\n    trigger: {\n      include: [{ artifact: lang + '-ci.yml', job: 'generate_' + lang }],\n      strategy: 'depend',\n    },\n  }\n  for lang in langs\n}\n",
        ),
        (
            py,
            "# Shrinks the generated gitlab_ci pipeline.\n\ndef optimizer(yaml):\n    common_job = {\n        'variables': {'ACTION': 'NONE'},\n        'after_script': ['rm -rf \"./scratch\"'],\n    }\n    return common_job\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, jsonnet, "ci-trigger-strategy-depend"),
        [8],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, py, "ci-after-script-cancelled-jobs"),
        [6],
        "{found:?}"
    );
}

/// A removed field read with the replacement as its fallback (`mr.get("merged_by") or
/// mr.get("merge_user")`) is still read; a key filled from the replacement is not.
#[test]
fn a_read_with_the_replacement_as_fallback_is_a_read() {
    let py = "routers/gitlab.py";
    let found = common::scan_files(&[(
        py,
        "import httpx\n\nAPI = \"https://gitlab.example.com/api/v4\"\n\n\ndef merger(pid, iid):\n    mr = httpx.get(f\"{API}/projects/{pid}/merge_requests/{iid}\").json()\n    merged_by = mr.get(\"merged_by\") or mr.get(\"merge_user\") or {}\n    row = {\"merged_by\": mr.get(\"merge_user\")}\n    return merged_by.get(\"username\"), row\n",
    )]);
    assert_eq!(
        common::lines_of(&found, py, "mr-merged-by"),
        [8],
        "{found:?}"
    );
}

/// A child pipeline a shell script appends to a file named by a variable (`cat <<EOF >>
/// "$OUTPUT_FILE"`): the heredoc's text tells what it is.
#[test]
fn a_heredoc_written_to_a_file_named_by_a_variable() {
    let sh = ".gitlab/scripts/generate-pipeline.sh";
    let found = common::scan_files(&[(
        sh,
        "#!/usr/bin/env bash\nset -e\n\nOUTPUT_FILE=\".gitlab/generated-pipeline.yml\"\n\nif [ \"${LANGUAGE}\" = \"rust\" ]; then\n  cat <<EOF >> \"$OUTPUT_FILE\"\nrust_pipeline:\n  extends: .pipeline_template\n  trigger:\n    include: .gitlab/rust.gitlab-ci.yml\n    strategy: depend\nEOF\nfi\n",
    )]);
    assert_eq!(
        common::lines_of(&found, sh, "ci-trigger-strategy-depend"),
        [12],
        "{found:?}"
    );
}

/// In a file that calls the merge requests endpoint, a field destructured from each response
/// object with a pattern's default (`const { iid = "", merge_status = "" } = mr`) is the
/// platform's field; the same name as an element of a list of the program's own values
/// (`[title, merged_by, author]`) is not, and neither is an object the program builds (the
/// tests of `app_objects.rs` keep `return { approvers, configured }` silent).
#[test]
fn a_field_destructured_with_a_default_from_the_endpoints_response() {
    let js = "src/reminder.js";
    let py = "export_merge_requests.py";
    let found = common::scan_files(&[
        (
            js,
            "const axios = require(\"axios\");\n\nconst base = () => \"https://gitlab.com/api/v4/projects/\" + process.env.PROJECT_ID;\n\nasync function remind() {\n  const response = await axios.get(base() + \"/merge_requests?state=opened\");\n  response.data.forEach((mr) => {\n    const {\n      iid = \"\",\n      merge_status = \"\",\n    } = mr;\n    console.log(iid, merge_status);\n  });\n}\n\nmodule.exports = remind;\n",
        ),
        (
            py,
            "import requests\n\n\ndef rows(base, pid, token):\n    out = []\n    for mr in requests.get(f\"{base}/api/v4/projects/{pid}/merge_requests\", headers={\"PRIVATE-TOKEN\": token}).json():\n        merged_by = (mr.get(\"merge_user\") or {}).get(\"username\", \"\")\n        out.append([mr[\"title\"], merged_by, mr[\"author\"][\"username\"]])\n    return out\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, js, "mr-merge-status"),
        [10],
        "{found:?}"
    );
    assert!(
        common::lines_of(&found, py, "mr-merged-by").is_empty(),
        "{found:?}"
    );
}
