//! A relative API path handed to a generic call of a client of its own (TypeScript's
//! `http.getJson<{ … }>(…)`, whose type arguments may span lines), and a client's methods named
//! for the verb in camel case (`getJson`, `postJson`). Fixtures written for these tests,
//! modelled on a dependency updater's GitLab platform module.

mod common;
use common::scan_files;

const PLATFORM_MODULE: &str = r#"import { GitlabHttp } from '../../util/http/gitlab';

const gitlabApi = new GitlabHttp();

export async function isMergeable(repository: string, iid: number): Promise<boolean> {
  const res = await gitlabApi.getJson<{
    merge_status?: string;
    detailed_merge_status?: string;
    head_pipeline: { status: string } | null;
  }>(`projects/${repository}/merge_requests/${iid}`, { memCache: false });
  return res.body.detailed_merge_status === 'mergeable';
}

export async function approvals(repository: string, iid: number) {
  return gitlabApi.postJson(`projects/${repository}/merge_requests/${iid}/approve`, {});
}
"#;

/// Another forge's module of the same updater: the same shape, another platform's path.
const OTHER_FORGE: &str = r#"import { GiteaHttp } from '../../util/http/gitea';

const giteaApi = new GiteaHttp();

export async function isMergeable(repository: string, index: number): Promise<boolean> {
  const res = await giteaApi.getJson<{
    merge_status?: string;
    mergeable: boolean;
  }>(`repos/${repository}/pulls/${index}`);
  return res.body.mergeable;
}
"#;

#[test]
fn a_relative_path_in_a_generic_call_shows_the_response_type() {
    let found = scan_files(&[
        ("lib/platform/gitlab/index.ts", PLATFORM_MODULE),
        ("lib/platform/gitea/index.ts", OTHER_FORGE),
    ]);
    let ids: Vec<_> = found
        .iter()
        .map(|(p, l, id)| (p.as_str(), *l, id.as_str()))
        .collect();
    assert_eq!(
        ids,
        [("lib/platform/gitlab/index.ts", 7, "mr-merge-status")],
        "the response type's merge_status of the single merge request's GET, and nothing in \
         the other forge's module"
    );
}
