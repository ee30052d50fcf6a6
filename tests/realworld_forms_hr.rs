//! The runner-API forms that the runner-api sample (`tests/realworld/sampled-hr.yaml`, its tune
//! part) showed missed or wrongly reported. The files are written for this test, modelled on (not
//! copied from) the public files of that corpus:
//! - a typed client generated from an API collection, written compactly (`{method:'get',
//!   url:'api/v4/runners'}`, query keys `paused:string,status:string`): the method key without a
//!   space after its colon names the method, and a `status` key is no removed status value
//!   because a quoted `'paused'` (another parameter's name) comes later on its line;
//! - a request helper named for its verb (`post_wrapper(endpoint='/runners', …)`), which shows
//!   the method as `requests.post(` does;
//! - a Scala.js trait named for the runner (`trait RunnerSchema extends js.Object`) declaring
//!   the runner's removed fields;
//! - a dict bound to a name and handed to python-gitlab's `runners.update` by that name.
//!
//! Look-alikes stay silent: a GET of the same path, a `status` key beside a `paused` key, a
//! helper named for GET, a trait named for another object, a dict handed to another object.

mod common;
use common::{assert_found, assert_silent, scan_files};

/// A typed client of the runners API generated from an API collection: one line a method.
const TS_GENERATED: &str = r#"import { Client, Handler } from './client';

export default (client: Client, handler: Handler) => ({
  get: ({query}: {query?:{scope:string,paused:string,status:string,tag_list:string}}): Promise<{code:200}> => handler.apply({method:'get',url:'api/v4/runners',variable:[],query:[{name:'scope',type:'string'},{name:'paused',type:'string'},{name:'status',type:'string'}]}, [client, {query}]),
  register: ({data}: {data:{token:string,description:string}}): Promise<{code:201}> => handler.apply({method:'post',url:'api/v4/runners',variable:[],data:{mode:'raw',raw:{token:'string'}}}, [client, {data}]),
  paused: (): Promise<{code:200}> => handler.apply({method:'get',url:'api/v4/runners',query:[{name:'status',value:'paused'}]}, [client]),
});
"#;

/// The actions of an agent's GitLab integration: every call goes through a helper named for its
/// verb, with the path relative to the API.
const PY_ACTIONS: &str = r#"from ..http_wrapper import get_wrapper, post_wrapper, delete_wrapper
from .models import RunnerFilter, RegisterRunner, RunnerId


def list_all_runners(input: RunnerFilter):
    return get_wrapper(endpoint='/runners/all', args=input.dict(exclude_none=True))


def register_runner(input: RegisterRunner):
    return post_wrapper(endpoint='/runners', args=input.dict(exclude_none=True))


def list_owned_runners(input: RunnerFilter):
    return get_wrapper(endpoint='/runners', args=input.dict(exclude_none=True))


def remove_runner(input: RunnerId):
    return delete_wrapper(endpoint=f'/runners/{input.id}')
"#;

/// Scala.js typings of a client library's runner schema.
const SCALA_RUNNER: &str = r#"package typings.gitlab.runnersMod

import scala.scalajs.js

@js.native
trait RunnerSchema extends js.Object {

  var active: Boolean = js.native

  var description: String = js.native

  var ip_address: String = js.native
}
"#;

/// The same shape for another product's worker: not the platform's runner.
const SCALA_WORKER: &str = r#"package typings.queue.workersMod

import scala.scalajs.js

@js.native
trait WorkerSchema extends js.Object {

  var active: Boolean = js.native

  var ip_address: String = js.native
}
"#;

fn lines_with(
    found: &std::collections::BTreeSet<(String, u64, String)>,
    path: &str,
    id: &str,
) -> Vec<u64> {
    found
        .iter()
        .filter(|(p, _, i)| p == path && i == id)
        .map(|(_, l, _)| *l)
        .collect()
}

#[test]
fn compact_method_key_and_status_beside_a_paused_key() {
    let found = scan_files(&[("src/api/runners.ts", TS_GENERATED)]);
    // The POST of the registration is reported; the GET of the same path is not.
    assert_found(
        &found,
        &[("src/api/runners.ts", 5, "runners-api-registration-token")],
    );
    let posts = lines_with(
        &found,
        "src/api/runners.ts",
        "runners-api-registration-token",
    );
    assert!(
        !posts.contains(&4) && !posts.contains(&6),
        "a GET of api/v4/runners is no registration: {posts:?}"
    );
    // `status:string` beside `paused:string` is no removed status value; `value:'paused'` of the
    // status parameter is.
    let statuses = lines_with(&found, "src/api/runners.ts", "runners-status-paused-active");
    assert!(
        !statuses.contains(&4),
        "a status key beside a paused key is no removed value: {statuses:?}"
    );
}

#[test]
fn request_helper_named_for_its_verb() {
    let found = scan_files(&[("gitlab/actions/runners.py", PY_ACTIONS)]);
    assert_found(
        &found,
        &[(
            "gitlab/actions/runners.py",
            10,
            "runners-api-registration-token",
        )],
    );
    let posts = lines_with(
        &found,
        "gitlab/actions/runners.py",
        "runners-api-registration-token",
    );
    assert_eq!(
        posts,
        vec![10],
        "get_wrapper and delete_wrapper of /runners are no registration"
    );
}

#[test]
fn scala_trait_named_for_the_runner() {
    let found = scan_files(&[
        (
            "src/main/scala/typings/gitlab/runnersMod/RunnerSchema.scala",
            SCALA_RUNNER,
        ),
        (
            "src/main/scala/typings/queue/workersMod/WorkerSchema.scala",
            SCALA_WORKER,
        ),
    ]);
    assert_found(
        &found,
        &[
            (
                "src/main/scala/typings/gitlab/runnersMod/RunnerSchema.scala",
                8,
                "runners-active-property",
            ),
            (
                "src/main/scala/typings/gitlab/runnersMod/RunnerSchema.scala",
                12,
                "runners-ip-address",
            ),
        ],
    );
    assert_silent(
        &found,
        "src/main/scala/typings/queue/workersMod/WorkerSchema.scala",
    );
}

/// A runner pool manager that builds the update's attributes in a dict first, then hands the
/// dict to python-gitlab by its name.
const PY_POOL: &str = r#"import gitlab


class Pool:
    def __init__(self, url, token):
        self.gitlab = gitlab.Gitlab(url, private_token=token)

    def park(self, runner, tags):
        value = {'tag_list': tags, 'description': 'parked', 'active': False}
        self.gitlab.runners.update(runner.id, value)

    def remember(self, cache, runner):
        state = {'active': False, 'id': runner.id}
        cache.update(state)
"#;

#[test]
fn dict_handed_to_a_call_by_its_name() {
    let found = scan_files(&[("pool/manager.py", PY_POOL)]);
    assert_found(&found, &[("pool/manager.py", 9, "runners-active-property")]);
    let other: Vec<_> = found
        .iter()
        .filter(|(p, l, _)| p == "pool/manager.py" && *l == 13)
        .collect();
    assert!(
        other.is_empty(),
        "a dict handed to another object's update is not the runner's: {other:?}"
    );
}
