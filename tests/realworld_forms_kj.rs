//! Forms that the fresh sample of JavaScript/TypeScript and JVM/.NET/PHP consumers
//! (`tests/realworld/sampled-kj.yaml`, its tune part) showed missed, each at its line. The files
//! are written for this test, modelled on (not copied from) the public files of that sample: a
//! PHPUnit test of a merge reminder that fakes the approvals response the PHP client library
//! (`Gitlab\Api\MergeRequests::approvals`) returns, as PHP arrays with `'key' => value` entries;
//! a TypeScript extension that runs the platform's CLI (`glab api <path>`) with its arguments as
//! a list, the API path written without its leading `/`.

mod common;
use common::{assert_found, findings_of};

/// A reminder's unit test: the fake approvals response is a PHP array bound to a variable named
/// for the resource, its removed keys written with `=>`.
const REMINDER_TEST: &str = r#"<?php declare(strict_types=1);

namespace Example\Reminder\Tests;

use Example\Reminder\ApprovalFinder;
use Gitlab\Api\MergeRequests;
use Gitlab\Client;

class ApprovalFinderTest extends TestCase
{
    public function testFindsApprovers()
    {
        $approvers = [['user' => $this->fakeUser()]];
        $groups = [['group' => $this->fakeGroup()]];

        $mergeRequestApproval = $this->fakeApproval([
            'approvers' => $approvers,
            'approver_groups' => $groups,
            'approved_by' => [],
        ]);

        $finder = new ApprovalFinder($this->clientReturning($mergeRequestApproval));
        $this->assertEquals($approvers, $finder->find(1, 2)->getApprovers());
    }

    private function clientReturning(array $approval): Client
    {
        $api = $this->createMock(MergeRequests::class);
        $api->method('approvals')->willReturn($approval);
        $client = $this->createMock(Client::class);
        $client->method('mergeRequests')->willReturn($api);
        return $client;
    }
}
"#;

/// An application's own form rules name the same keys: no response of the platform.
const RULES: &str = r#"<?php

namespace App\Http\Requests;

use Illuminate\Foundation\Http\FormRequest;

class StoreWorkflowRequest extends FormRequest
{
    public function rules(): array
    {
        $rules = [
            'approvers' => 'required|array',
            'approver_groups' => 'array',
        ];
        return $rules;
    }
}
"#;

#[test]
fn php_array_keys_of_a_faked_approvals_response_are_found() {
    let path = "tests/ApprovalFinderTest.php";
    let all = common::scan_files(&[(path, REMINDER_TEST)]);
    assert_found(
        &all,
        &[
            (path, 17, "mr-approvals-approvers"),
            (path, 18, "mr-approvals-approvers"),
        ],
    );
    // The test's own local variables and the finder's getter are no fields of the response.
    let found = findings_of(&all, path);
    for line in [13, 14, 23] {
        assert!(
            !found.contains(&(line, "mr-approvals-approvers".to_string())),
            "{all:?}"
        );
    }
}

#[test]
fn php_array_keys_of_an_apps_own_rules_stay_silent() {
    let path = "app/Http/Requests/StoreWorkflowRequest.php";
    let all = common::scan_files(&[(path, RULES)]);
    assert!(findings_of(&all, path).is_empty(), "{all:?}");
}

/// An editor extension asks the platform's CLI for a merge request's changes: `glab api` takes
/// the API's path relative to `/api/v4`, here a list element of the command's arguments.
const GLAB_PROVIDER: &str = r#"import type { Runner } from "./runner";

export async function loadChanges(run: Runner, repoRef: string, projectPath: string, iid: number) {
  const changesResult = await run.exec("glab", [
    "-R",
    repoRef,
    "api",
    `projects/${projectPath}/merge_requests/${iid}/changes`,
  ]);
  if (changesResult.code !== 0) {
    throw new Error(changesResult.stderr);
  }
  return JSON.parse(changesResult.stdout);
}

export async function loadLocal(run: Runner, projectPath: string, iid: number) {
  return run.exec("git", ["diff", `projects/${projectPath}/merge_requests/${iid}/changes`]);
}
"#;

#[test]
fn a_relative_api_path_handed_to_glab_api_is_found() {
    let path = "extensions/pr/gitlab.ts";
    let all = common::scan_files(&[(path, GLAB_PROVIDER)]);
    assert_found(&all, &[(path, 8, "mr-changes-endpoint")]);
    // The same text handed to another program is no request of the API.
    let found = findings_of(&all, path);
    assert!(
        !found.contains(&(18, "mr-changes-endpoint".to_string())),
        "{all:?}"
    );
}
