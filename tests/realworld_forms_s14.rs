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
