//! A variable that holds the result of a call named for the resource is the resource, whatever
//! the variable's own name: `detail = api.get_runner(item["id"])` then `detail.get("ip_address")`
//! (the request is sent by a wrapper in another file), `const mr = …` aside. A call named for
//! another object of the resource (`get_runner_managers`: the replacement's managers) is not,
//! nor is such a call in a file that names no platform. Fixtures written for these tests,
//! modelled on a migration tool's runner export.

mod common;

const ID: &str = "runners-ip-address";

const EXPORT: &str = r#""""Exports the runners of a GitLab instance before a migration."""
import json

from .gitlab_api import GitLabApi


def export(api: GitLabApi, out):
    rows = []
    for item in api.list_runners():
        detail = api.get_runner(item["id"])
        managers = api.get_runner_managers(item["id"])
        rows.append({
            "id": item["id"],
            "address": detail.get("ip_address"),
            "manager_address": managers[0].get("ip_address") if managers else None,
        })
    json.dump(rows, out)
"#;

const JS: &str = r#"// Shows a runner of the GitLab instance.
export async function show(client, id) {
  const info = await client.fetchRunnerDetails(id);
  return `${info.description} at ${info["ip_address"]}`;
}
"#;

#[test]
fn the_result_of_a_call_named_for_the_runner_is_the_runner() {
    let found = common::scan_files(&[("tool/export_runners.py", EXPORT), ("web/show.js", JS)]);
    assert_eq!(
        common::lines_of(&found, "tool/export_runners.py", ID),
        [14],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "web/show.js", ID),
        [4],
        "{found:?}"
    );
}

#[test]
fn another_objects_call_and_a_file_without_the_platform_are_not() {
    let unnamed = EXPORT
        .replace("of a GitLab instance", "of the build farm")
        .replace(
            "from .gitlab_api import GitLabApi",
            "from .farm import FarmApi",
        )
        .replace("GitLabApi", "FarmApi");
    let found = common::scan_files(&[("farm/export_runners.py", unnamed.as_str())]);
    assert!(found.is_empty(), "{found:?}");
}
