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
