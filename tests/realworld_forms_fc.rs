//! The code-side forms that the item-rich JS/TS and Python sample
//! (`tests/realworld/sampled-fc.yaml`, its tune part) showed missing or wrongly reported, each
//! found at its line and its look-alike silent. The files are written for this test, modelled on
//! (not copied from) the public files of that corpus: webhook payloads written as object literals
//! in a bot's tests (a merge request's `merge_status`, a build's runner `active`), webhook payload
//! types reached through `object_attributes` or an event type, a merge request type whose name
//! says nothing (`RequestType`) but whose members are the merge request's, and python-gitlab's
//! `mr.changes()` in a fragment that shows the library by its manager chain
//! (`project.mergerequests.get(…)`) instead of an import.

mod common;
use common::{assert_found, assert_silent, findings_of, scan_files};

/// A bot's test fixture: a merge request webhook and a pipeline webhook as JS object literals,
/// beside a mocked REST response of the merge request (no `object_kind`): only the mock is the
/// REST field.
const JS_HOOK_FIXTURES: &str = r#"// Fixtures for the bot's GitLab webhook handler.
const mergeRequestHook = {
  object_kind: 'merge_request',
  user: { name: 'Ada', username: 'ada' },
  object_attributes: {
    iid: 7,
    source_branch: 'feature/x',
    target_branch: 'main',
    merge_status: 'unchecked',
    action: 'open',
  },
};

const pipelineHook = {
  "object_kind": "pipeline",
  "merge_request": {
    "iid": 7,
    "source_branch": "feature/x",
    "target_branch": "main",
    "merge_status": "can_be_merged"
  },
  "builds": [
    {
      "id": 1,
      "runner": {
        "id": 3,
        "active": true,
        "runner_type": "instance_type",
        "is_shared": true
      }
    }
  ]
};

// What GET /projects/:id/merge_requests/:iid returns, for the client's tests.
const restMergeRequest = {
  iid: 7,
  source_branch: 'feature/x',
  target_branch: 'main',
  merge_status: 'can_be_merged',
};

module.exports = { mergeRequestHook, pipelineHook, restMergeRequest };
"#;

/// The same in Python: a webhook payload dict in a test of a GitLab notifier.
const PY_HOOK_FIXTURE: &str = r#"import pytest


@pytest.fixture
def gitlab_merge_payload():
    return {
        "object_kind": "merge_request",
        "object_attributes": {
            "iid": 1,
            "source_branch": "feature",
            "target_branch": "main",
            "state": "merged",
            "merge_status": "can_be_merged",
        },
    }
"#;

#[test]
fn webhook_payload_literals_are_silent_and_the_rest_mock_is_found() {
    let all = scan_files(&[
        ("test/fixtures/hooks.js", JS_HOOK_FIXTURES),
        ("tests/test_notify.py", PY_HOOK_FIXTURE),
    ]);
    assert_found(&all, &[("test/fixtures/hooks.js", 40, "mr-merge-status")]);
    let js = findings_of(&all, "test/fixtures/hooks.js");
    assert_eq!(
        js,
        [(40, "mr-merge-status".to_string())].into_iter().collect(),
        "only the REST mock's merge_status: {js:?}"
    );
    assert_silent(&all, "tests/test_notify.py");
}

/// Webhook payload types of a notification bot: the merge request's attributes are reached
/// through `object_attributes`, the note hook's merge request through an event type.
const TS_HOOK_TYPES: &str = r#"// Types of the GitLab webhooks the bot receives.
export interface MergeRequestHookEvent {
  object_kind: 'merge_request';
  object_attributes: MergeRequestAttributes;
}

export interface MergeRequestAttributes {
  iid: number;
  source_branch: string;
  target_branch: string;
  merge_status: string;
  detailed_merge_status: string;
}

export interface GitLabMergeRequest {
  iid: number;
  source_branch: string;
  target_branch: string;
  merge_status: string;
}

export interface NoteHook {
  object_kind: 'note';
  merge_request?: GitLabMergeRequest;
}
"#;

/// A merge request type of a review tool, its name generic and the file naming no platform:
/// its members (`iid`, `source_branch`, `target_branch`) are the merge request's.
const TS_GENERIC_TYPE: &str = r#"import { User } from './user';

export interface RequestType {
  id: number;
  iid: number;
  title: string;
  merged_by: User;
  target_branch: string;
  source_branch: string;
  merge_status: 'can_be_merged' | 'cannot_be_merged';
  web_url: string;
}
"#;

/// Another tool's object with `merged_by` and no merge request's members: silent.
const TS_OTHER_TYPE: &str = r#"export interface ChangeRecord {
  id: number;
  title: string;
  merged_by: string;
  merged_at: string;
}
"#;

#[test]
fn webhook_payload_types_are_silent_and_a_type_shaped_like_the_mr_is_found() {
    let all = scan_files(&[
        ("src/types/webhooks.ts", TS_HOOK_TYPES),
        ("types/REQUESTS.ts", TS_GENERIC_TYPE),
        ("types/records.ts", TS_OTHER_TYPE),
    ]);
    assert_silent(&all, "src/types/webhooks.ts");
    assert_found(
        &all,
        &[
            ("types/REQUESTS.ts", 7, "mr-merged-by"),
            ("types/REQUESTS.ts", 10, "mr-merge-status"),
        ],
    );
    assert_silent(&all, "types/records.ts");
}

/// A fragment of a Python review helper: python-gitlab is shown by its manager chain, not by an
/// import (the import is in another module).
const PY_FRAGMENT: &str = r#"def collect(gl, components):
    project = gl.projects.get(components["namespace"])
    mr = project.mergerequests.get(components["mr_id"])
    title = mr.title
    changes = mr.changes()
    return title, changes.get("changes", [])
"#;

/// A Python file of another kind whose `changes()` is its own (no python-gitlab chain): silent.
const PY_OTHER: &str = r#"class Diff:
    def changes(self):
        return []


def collect(repo):
    mr = repo.merge(3)
    return mr.changes()
"#;

#[test]
fn python_gitlab_shown_by_its_manager_chain() {
    let all = scan_files(&[
        ("review/fetch.py", PY_FRAGMENT),
        ("tools/diff.py", PY_OTHER),
    ]);
    assert_found(&all, &[("review/fetch.py", 5, "mr-changes-endpoint")]);
    assert_silent(&all, "tools/diff.py");
}

/// A Python client whose base URL holds the project (`{base}/projects/{id}`), its paths written
/// after it.
const PY_BASED: &str = r#"import requests


class GitLabClient:
    def __init__(self, url, project_id, token):
        self.base_url = f"{url}/api/v4/projects/{project_id}"
        self.headers = {"PRIVATE-TOKEN": token}

    def changes(self, mr_iid):
        url = f"{self.base_url}/merge_requests/{mr_iid}/changes"
        return requests.get(url, headers=self.headers, timeout=30).json()
"#;

/// A TypeScript client whose template literal's interpolation spans lines: the path goes on
/// after the `)}` that closes it.
const TS_BASED: &str = r#"import { env } from './env';

export async function mrChanges(mrId: string) {
  const url = `${env.GITLAB_API_URL}/projects/${encodeURIComponent(
    env.GITLAB_PROJECT_ID
  )}/merge_requests/${mrId}/changes`;
  const res = await fetch(url, { headers: { 'PRIVATE-TOKEN': env.TOKEN } });
  return res.json();
}
"#;

/// An application of its own, naming no platform, with routes of the same shape: silent.
const PY_OWN_ROUTES: &str = r#"def review_link(base, review_id):
    return f"{base}/merge_requests/{review_id}/changes"
"#;

#[test]
fn paths_written_after_an_interpolated_base() {
    let all = scan_files(&[
        ("client/gitlab_client.py", PY_BASED),
        ("src/infra/client.ts", TS_BASED),
        ("app/links.py", PY_OWN_ROUTES),
    ]);
    assert_found(
        &all,
        &[
            ("client/gitlab_client.py", 10, "mr-changes-endpoint"),
            ("src/infra/client.ts", 6, "mr-changes-endpoint"),
        ],
    );
    assert_silent(&all, "app/links.py");
}

/// An Airflow task of a Python pipeline: the merge request it creates is python-gitlab's, and so
/// is its `changes()`.
const PY_CREATED: &str = r#"def open_experiment_mr(gl, project_name, branch, ts):
    project = gl.projects.get(project_name)
    mr = project.mergerequests.create({
        "source_branch": branch,
        "target_branch": "main",
        "title": f"Run experiment on {ts}",
    })
    changes = mr.changes()
    print(f"MR changes:\n {changes}")
"#;

/// A bot's simulation of a merge request webhook, the payload built as a JS object with a value
/// only the REST field takes (`'can_be_merged'`): the event's, silent.
const JS_SIMULATED_HOOK: &str = r#"// Simulate GitLab merge request events against the bot.
function buildPayload(mrId, action) {
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    project: { id: 42, path_with_namespace: 'group/app' },
    object_attributes: {
      id: mrId,
      iid: mrId,
      target_branch: 'main',
      source_branch: 'feature',
      merge_status: 'can_be_merged',
      action,
    },
  };
}

module.exports = { buildPayload };
"#;

#[test]
fn created_merge_request_and_simulated_hook() {
    let all = scan_files(&[
        ("dags/experiment.py", PY_CREATED),
        ("tests/simulate-merge-request.js", JS_SIMULATED_HOOK),
    ]);
    assert_found(&all, &[("dags/experiment.py", 8, "mr-changes-endpoint")]);
    assert_silent(&all, "tests/simulate-merge-request.js");
}

/// A dashboard's server listing the platform's users page by page, the query built in a
/// `URLSearchParams` two lines above the URL that interpolates it; and the same URL with a
/// query that sends no `page` (a search by username): silent.
const TS_USERS_PAGES: &str = r#"const PER_PAGE = 100;

export async function listUsers(base: string, token: string) {
  const out: unknown[] = [];
  for (let page = 1; page <= 20; page++) {
    const p = new URLSearchParams({
      per_page: String(PER_PAGE),
      page: String(page),
    });
    const url = `${base}/api/v4/users?${p}`;
    const r = await fetch(url, { headers: { 'PRIVATE-TOKEN': token } });
    const chunk = await r.json();
    out.push(...chunk);
    if (chunk.length < PER_PAGE) break;
  }
  return out;
}

export async function findUser(base: string, token: string, username: string) {
  const q = new URLSearchParams({ username });
  const url = `${base}/api/v4/users?${q}`;
  return (await fetch(url, { headers: { 'PRIVATE-TOKEN': token } })).json();
}
"#;

#[test]
fn query_built_in_a_variable_the_url_interpolates() {
    let all = scan_files(&[("server/users.ts", TS_USERS_PAGES)]);
    let found = findings_of(&all, "server/users.ts");
    assert_eq!(
        found,
        [(10, "users-offset-pagination".to_string())]
            .into_iter()
            .collect(),
        "{found:?}"
    );
}

/// The same listing inside an Express route: the route's `app.post(…)` around the handler is no
/// request; the request is the call that uses the URL (`gitlabFetch(url, token, 'GET')`).
const TS_ROUTE: &str = r#"import express from 'express';

const app = express();

app.post('/api/list-users', async (req, res) => {
  const base = String(req.body?.gitlabUrl);
  const out: unknown[] = [];
  for (let page = 1; page <= 20; page++) {
    const p = new URLSearchParams({
      per_page: '100',
      page: String(page),
    });
    const url = `${base}/api/v4/users?${p}`;
    let r: Response;
    try {
      r = await gitlabFetch(url, String(req.body?.token), 'GET');
    } catch {
      res.status(502).json({ error: 'no answer' });
      return;
    }
    out.push(...(await r.json()));
  }
  res.json({ users: out });
});
"#;

#[test]
fn a_request_inside_a_route_handler_is_its_own_call() {
    let all = scan_files(&[("server/index.ts", TS_ROUTE)]);
    assert_found(&all, &[("server/index.ts", 13, "users-offset-pagination")]);
}
