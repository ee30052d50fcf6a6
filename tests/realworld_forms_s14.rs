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

/// A crawler's loop over the platform's merge requests that never names the platform: the
/// loop variable is read for `iid` (the platform's own numbering) a few lines above its
/// `merged_by`. The file's only evidence is that read, by name (`c["iid"]`).
#[test]
fn a_merge_request_read_by_name_in_a_file_that_names_no_platform() {
    let py = "crawler/management/commands/crawl.py";
    let found = common::scan_files(&[(
        py,
        "from crawler.models import MergeRequest\n\n\nclass Command(BaseCommand):\n    def handle(self, merges):\n        for c in merges:\n            row = {\n                \"merge_id\": c[\"iid\"],\n                \"title\": c[\"title\"],\n                \"reviewer\": c[\"merged_by\"][\"username\"]\n                if c[\"merged_by\"] is not None\n                else \"\",\n            }\n            MergeRequest.objects.create(**row)\n",
    )]);
    assert_eq!(
        common::lines_of(&found, py, "mr-merged-by"),
        [10, 11],
        "{found:?}"
    );
}

/// A path joined from literals over lines (Python's implicit concatenation in parentheses):
/// the finding is on the line of the literal that names the removed endpoint, `"/changes…"`.
#[test]
fn a_path_joined_over_lines_is_reported_where_the_endpoint_is_named() {
    let py = "src/review/forges/gitlab.py";
    let found = common::scan_files(&[(
        py,
        "import httpx\n\n\nclass GitLabForge:\n    async def files(self, mr):\n        url = (\n            f\"{self._base}/api/v4/projects/{mr.project_id}/merge_requests/{mr.iid}\"\n            \"/changes?access_raw_diffs=true\"\n        )\n        return await self._http.get(url)\n",
    )]);
    assert_eq!(
        common::lines_of(&found, py, "mr-changes-endpoint"),
        [8],
        "{found:?}"
    );
}

/// The register command's arguments gathered in a double-quoted string continued over lines
/// (`args="--non-interactive \` ⏎ `--tag-list '${TAGS}' \` …) and run by `eval "gitlab-runner
/// register ${args}"`: each removed flag on its own line is a use. The variables the script
/// needs, listed in a message on the terminal's error stream, are not.
#[test]
fn flags_in_a_string_continued_over_lines() {
    let sh = "runner/register.sh";
    let found = common::scan_files(&[(
        sh,
        "#!/bin/bash\nif [ -z \"$CI_SERVER_URL\" ] || [ -z \"$REGISTRATION_TOKEN\" ]; then\n    echo \"missing variables:\" >&2\n    echo \"  - REGISTRATION_TOKEN\" >&2\n    exit 1\nfi\nargs=\"--non-interactive \\\n    --url '${CI_SERVER_URL}' \\\n    --registration-token '${REGISTRATION_TOKEN}' \\\n    --executor 'docker' \\\n    --tag-list '${RUNNER_TAGS:-docker}' \\\n    --locked='false' \\\n    --access-level='not_protected'\"\neval \"gitlab-runner register ${args}\"\n",
    )]);
    assert_eq!(
        common::lines_of(&found, sh, "runner-register-server-side-arguments"),
        [11, 12, 13],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, sh, "runner-registration-token"),
        [9],
        "{found:?}"
    );
}

/// A Chef recipe named for what it installs (`recipes/gitlab.rb`) is Ruby code, not Omnibus
/// settings: the register command in its `execute` resource is found.
#[test]
fn a_chef_recipe_named_gitlab_rb_is_code() {
    let rb = "cookbooks/ci/recipes/gitlab.rb";
    let found = common::scan_files(&[(
        rb,
        "token = node['gitlab']['runner_token']\n\nservice 'gitlab-runner' do\n  action [:enable, :start]\nend\n\nexecute 'Register Runner' do\n  command \"gitlab-runner register -n -u '#{server}' -r '#{token}' --executor docker --locked false\"\nend\n",
    )]);
    assert_eq!(
        common::lines_of(&found, rb, "runner-registration-token"),
        [8],
        "{found:?}"
    );
}

/// Another program's flag of the same name (a hypervisor worker that registers with its
/// controller: `cirrus worker --registration-token=…`) is not the runner's, by the data's
/// `other_systems`.
#[test]
fn another_programs_registration_token_flag() {
    let sh = "docker/worker-entrypoint.sh";
    let found = common::scan_files(&[(
        sh,
        "#!/bin/sh\nset -e\ncirrus worker \\\n  --controller=\"${CONTROLLER_ADDR}\" \\\n  --registration-token=\"${REGISTRATION_TOKEN:-dev}\" \\\n  --log-level=info\n",
    )]);
    assert!(found.is_empty(), "{found:?}");
}

/// A path handed to a shell function of the file (`$(check_port /runners)`) is sent with the
/// method of the function's body: plain `curl` GETs, so the runner list is no registration
/// (POST /runners).
#[test]
fn a_path_handed_to_a_shell_function_has_its_method() {
    let sh = "bin/setup.sh";
    let found = common::scan_files(&[(
        sh,
        "#!/bin/bash\ncheck_port() {\n  curl --silent --output /dev/null -w '%{http_code}' \"$GITLAB_URL/$1\"\n}\nregister() {\n  curl --request POST \"$GITLAB_URL/api/v4/$1\" --form \"token=$TOKEN\"\n}\nuntil [ \"$(check_port /api/v4/runners)\" = \"200\" ]; do sleep 5; done\nregister_out=$(register runners)\n",
    )]);
    assert!(
        common::lines_of(&found, sh, "runners-api-registration-token").is_empty(),
        "{found:?}"
    );
}

/// A program that writes a job's `after_script:` under a condition, lines away from the job's
/// `script:` (a shell script echoing child-pipeline jobs, a JavaScript generator pushing lines,
/// a Rust translator's `push_str`): the written key is the platform's CI keyword where the file
/// writes CI elsewhere. A Travis CI template written the same way is not the platform's.
#[test]
fn a_job_script_key_written_apart_from_its_job() {
    let sh = "scripts/generate-jobs.sh";
    let js = "src/ci/render.js";
    let rs = "src/backends/gitlab.rs";
    let go = "cmd/gen/main.go";
    let found = common::scan_files(&[
        (
            sh,
            "#!/bin/bash\nfor t in \"$@\"; do\n    echo \"test-${t}:\"\n    echo '  stage: test'\n    echo '  script:'\n    echo \"    - ctest -R ${t}\"\n    # collect the logs even when the job fails\n    logs=\"\"\n    for f in build/logs/*.csv; do\n      logs=\"${logs} ${f}\"\n    done\n    echo \"    - echo ${logs}\"\n    echo '  after_script:'\n    echo '    - mv build/logs/run.csv build/logs/run-${CI_JOB_ID}.csv'\ndone\n",
        ),
        (
            js,
            "// Renders .gitlab-ci.yml for each stage.\nexport function render(stage, cfg) {\n  const lines = [];\n  lines.push(`${stage}:`);\n  lines.push('  script:');\n  lines.push(`    - npm run ${stage}`);\n  if (cfg.hooks.length > 0) {\n    lines.push('  after_script:');\n    lines.push(`    - curl -X POST ${cfg.hooks[0]}`);\n  }\n  return lines.join('\\n');\n}\n",
        ),
        (
            rs,
            "pub fn stage(job: &mut String, s: &Stage) {\n    job.push_str(\"stages:\\n\");\n    job.push_str(&format!(\"  - {}\\n\", s.name));\n    job.push_str(&format!(\"{}:\\n\", s.name));\n    job.push_str(\"  script:\\n\");\n    for step in &s.steps {\n        job.push_str(&step.line());\n    }\n    if let Some(post) = &s.always {\n        job.push_str(\"  after_script:\\n\");\n        for step in post {\n            job.push_str(&step.line());\n        }\n    }\n}\n",
        ),
        (
            go,
            "package main\n\nconst travisTemplate = `language: minimal\nsudo: required\nscript:\n  - docker build .\nafter_script:\n  - docker images\n`\n",
        ),
    ]);
    let after = "ci-after-script-cancelled-jobs";
    assert_eq!(common::lines_of(&found, sh, after), [13], "{found:?}");
    assert_eq!(common::lines_of(&found, js, after), [8], "{found:?}");
    assert_eq!(common::lines_of(&found, rs, after), [10], "{found:?}");
    assert!(common::lines_of(&found, go, after).is_empty(), "{found:?}");
}

/// A job written as a Python dict and dumped to `.gitlab-ci.yml`: its `"after_script":` key is
/// the platform's keyword (a `literal` of the data with a `context`: the file names the CI
/// file). The same key of a Travis CI configuration's dict, in a file that names no GitLab CI,
/// is not.
#[test]
fn a_job_dict_dumped_as_the_ci_file() {
    let gl = "apps/deploy_to_yml.py";
    let travis = "tools/travis_defaults.py";
    let found = common::scan_files(&[
        (
            gl,
            "import yaml\n\n\ndef deploy(model_id):\n    jobs = {\n        \"stages\": [\"deploy\"],\n        \"deploy\": {\n            \"stage\": \"deploy\",\n            \"script\": [\"docker compose up -d\"],\n            \"after_script\": [f\"python update_status.py -m {model_id}\"],\n        },\n    }\n    with open(\".gitlab-ci.yml\", \"w\") as f:\n        yaml.dump(jobs, f)\n",
        ),
        (
            travis,
            "DEFAULTS = {\n    \"language\": \"python\",\n    \"script\": [\"pytest\"],\n    \"after_script\": [\"coveralls\"],\n}\n",
        ),
    ]);
    let after = "ci-after-script-cancelled-jobs";
    assert_eq!(common::lines_of(&found, gl, after), [10], "{found:?}");
    assert!(
        common::lines_of(&found, travis, after).is_empty(),
        "{found:?}"
    );
}

/// Merge request models of the platform's responses written three more ways: a C# positional
/// record whose properties name their JSON keys (`[property: JsonPropertyName("merge_status")]`,
/// with `iid`, `detailed_merge_status`, `web_url` and `url`), a NestJS DTO class whose
/// properties follow their decorators and are definitely assigned (`merge_status!: string;`),
/// and a path in a template literal with a commented-out line below it.
#[test]
fn merge_request_models_and_a_path_above_a_commented_line() {
    let cs = "src/Scm/GitlabScm.cs";
    let ts = "src/gitlab/gitlab.dto.ts";
    let svc = "src/gitlab.service.ts";
    let found = common::scan_files(&[
        (
            cs,
            "using System.Text.Json.Serialization;\n\nnamespace Review.Scm;\n\ninternal sealed record MrPayload(\n    [property: JsonPropertyName(\"iid\")] int Iid,\n    [property: JsonPropertyName(\"web_url\")] string? WebUrl,\n    [property: JsonPropertyName(\"url\")] string? Url,\n    [property: JsonPropertyName(\"detailed_merge_status\")] string? DetailedMergeStatus,\n    [property: JsonPropertyName(\"merge_status\")] string? MergeStatus);\n",
        ),
        (
            ts,
            "import { ApiProperty } from '@nestjs/swagger';\nimport { IsNumber, IsString } from 'class-validator';\n\n/** A GitLab merge request with its diffs. */\nexport class MergeRequestWithDiffsDto {\n  @ApiProperty({ description: 'internal ID' }) @IsNumber() iid!: number;\n  @ApiProperty({ description: 'Overall merge status' })\n  @IsString()\n  merge_status!: string;\n}\n",
        ),
        (
            svc,
            "export class GitlabService {\n  async changes(projectId: number, iid: number) {\n    const baseUrl = this.base;\n    const url = `${baseUrl}/api/v4/projects/${projectId}/merge_requests/${iid}/changes`\n    // const url = `${baseUrl}/projects/${projectId}/merge_requests/${iid}/diffs`;\n    return fetch(url);\n  }\n}\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, cs, "mr-merge-status"),
        [10],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, ts, "mr-merge-status"),
        [9],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, svc, "mr-changes-endpoint"),
        [4],
        "{found:?}"
    );
}

/// Look-alikes: a trigger job printed as instructions through a logging call
/// (`print_msg("    strategy: depend", log=log)`) writes no CI file; a tool's own output key
/// filled from the replacement (`"merge_status": mr.get("detailed_merge_status")`) reads the
/// replacement. The tool's read of the removed field itself still counts.
#[test]
fn printed_instructions_and_a_key_filled_from_the_replacement() {
    let hook = "easybuild/hooks/ci_hook.py";
    let tool = "tools/gitlab_tools.py";
    let found = common::scan_files(&[
        (
            hook,
            "def end_hook(pipeline_file, log):\n    print_msg(\"To trigger this pipeline, add to your .gitlab-ci.yml:\", log=log)\n    print_msg(\"build_pipeline:\", log=log)\n    print_msg(\"  trigger:\", log=log)\n    print_msg(\"    include: %s\" % pipeline_file, log=log)\n    print_msg(\"    strategy: depend\", log=log)\n",
        ),
        (
            tool,
            "import gitlab\n\n\ndef summary(result):\n    return {\n        \"iid\": result.get(\"iid\"),\n        \"source_branch\": result.get(\"source_branch\"),\n        \"merge_status\": result.get(\"detailed_merge_status\"),\n        \"legacy_status\": result.get(\"merge_status\"),\n    }\n",
        ),
    ]);
    assert!(
        common::lines_of(&found, hook, "ci-trigger-strategy-depend").is_empty(),
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, tool, "mr-merge-status"),
        [9],
        "{found:?}"
    );
}

/// A pipeline library's trigger written as a keyword argument (`Trigger(include=…,
/// strategy="depend")`): a `literal` of the data, no detector of its own. (Found in sampled-vb's
/// held part, after its blind score.)
#[test]
fn a_trigger_strategy_as_a_keyword_argument() {
    let py = "ci/jobs.py";
    let found = common::scan_files(&[(
        py,
        "from wetwire_gitlab.pipeline import Job, Trigger\n\ntrigger_docs = Job(\n    name=\"trigger-docs\",\n    stage=\"trigger\",\n    trigger=Trigger(\n        include=[{\"local\": \"docs/.gitlab-ci.yml\"}],\n        strategy=\"depend\",\n    ),\n)\n",
    )]);
    assert_eq!(
        common::lines_of(&found, py, "ci-trigger-strategy-depend"),
        [8],
        "{found:?}"
    );
}
