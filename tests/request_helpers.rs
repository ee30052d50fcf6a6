//! A path handed to a helper of the same file that sends the request (`get_all("/users")`,
//! `pullAll('/users')`) is read with the parameters the helper's body sends: consumers page
//! through lists with such a helper, so `page` is written a function away from the path.
//! Fixtures written for this test, modelled on small migration and sync tools.

mod common;

const PY_CLIENT: &str = r#"import requests

GITLAB = "https://gitlab.example.com/api/v4"


def get_all(path):
    items, page = [], 1
    while True:
        r = requests.get(f"{GITLAB}{path}", params={"per_page": 100, "page": page})
        r.raise_for_status()
        batch = r.json()
        if not batch:
            return items
        items.extend(batch)
        page += 1


def get_one(path, page=None):
    params = {"page": page} if page else {}
    return requests.get(f"{GITLAB}{path}", params=params).json()


def users():
    return get_all("/users")


def first_user():
    # The helper takes `page` from its caller, who sends none: no offset pagination.
    return get_one("/users")


def groups():
    return get_all("/groups")
"#;

const TS_CLIENT: &str = r#"import axios from 'axios';
import { config } from './config';

// The base URL is configured elsewhere: the token's header shows the platform's API.
const service = axios.create({
    baseURL: config.baseURL,
    headers: { 'private-token': config.token },
});

export async function pullUsers() {
    return await pullAll('/users');
}

export async function createUser(user: object) {
    return await post('/users', user);
}

async function post(api: string, body: object) {
    return (await service.post(api, body)).data;
}

export async function pullAll(api: string) {
    let page = 1;
    let list: any[] = [];
    let next = true;
    do {
        const res: any = await service.get(api, {
            params: { per_page: 100, page: page++ },
        });
        list = list.concat(res.data);
        next = res.headers['x-total-pages'] >= page;
    } while (next);
    return list;
}
"#;

/// The same client with another service's token header: its paths are not the platform's.
const OTHER_API: &str = r#"import axios from 'axios';

const service = axios.create({ baseURL: process.env.API, headers: { 'x-api-key': process.env.KEY } });

export async function users() {
    return (await service.get('/users', { params: { page: 2 } })).data;
}
"#;

#[test]
fn a_path_handed_to_a_paginating_helper_is_offset_pagination() {
    let found = common::scan_files(&[
        ("sync/gitlab_client.py", PY_CLIENT),
        ("src/gitlab_api.ts", TS_CLIENT),
        ("src/other_api.ts", OTHER_API),
    ]);
    assert_eq!(
        common::findings_of(&found, "sync/gitlab_client.py"),
        common::lines(&[(24, "users-offset-pagination")]),
    );
    assert_eq!(
        common::findings_of(&found, "src/gitlab_api.ts"),
        common::lines(&[(11, "users-offset-pagination")]),
    );
    assert_eq!(
        common::findings_of(&found, "src/other_api.ts"),
        common::lines(&[])
    );
}

/// A literal path appended to a base named for the API (`API_ENDPOINT + "/runners/"`), whose
/// value comes from another module, shows the API as `f"{API_ENDPOINT}/runners/"` does.
const PY_CONCATENATED: &str = r#"import requests

from gitlab_runner_api.settings import API_ENDPOINT, SITE_URL


def register(token):
    return requests.post(API_ENDPOINT + "/runners/", json={"token": token})


def home():
    # A site's own page: its base is not named for the API.
    return requests.get(SITE_URL + "/runners/")
"#;

#[test]
fn a_path_appended_to_a_base_named_for_the_api() {
    let found = common::scan_files(&[("gitlab_runner_api/client.py", PY_CONCATENATED)]);
    assert_eq!(
        common::findings_of(&found, "gitlab_runner_api/client.py"),
        common::lines(&[(7, "runners-api-registration-token")]),
    );
}

/// A path handed to a client's helper named for paging, defined in another file of the tool
/// (`self.client.get_paginated('/users')`): it pages the list with `page`, the offset
/// pagination's parameter. The same helper asked for keyset pagination, another list's path, and
/// a helper not named for paging are not. Modelled on a migration tool's orchestrator.
#[test]
fn a_path_handed_to_a_paging_helper_of_another_file() {
    let path = "migrate/orchestrator.py";
    let found = common::scan_files(&[(
        path,
        "from .api.client import GitLabClient\n\n\nclass Orchestrator:\n    def __init__(self, source: GitLabClient):\n        self.source = source\n\n    def users(self):\n        return self.source.get_paginated('/users')\n\n    def users_by_keyset(self):\n        return self.source.get_paginated('/users', params={'pagination': 'keyset', 'order_by': 'id'})\n\n    def groups(self):\n        return self.source.get_paginated('/groups')\n\n    def user(self, email):\n        return self.source.get('/users', params={'search': email})\n\n    async def all_users(self):\n        return await self.source.get_all_pages(\"/users\")\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "users-offset-pagination"),
        [9, 21],
        "{found:?}"
    );
}
