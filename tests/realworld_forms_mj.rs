//! The consumer forms that the sample of Python, JavaScript/TypeScript and JVM/PHP consumers
//! (`tests/realworld/sampled-mj.yaml`, its tune part) showed missed or wrongly reported. The files
//! are written for this test, modelled on (not copied from) the public files of that corpus:
//! - gitbeaker's merge request resource called by its own method names on a client that another
//!   module made (`import { api } from "../lib/gitlab"` … `api.MergeRequests.showChanges(…)`):
//!   the call is the library's, whichever module imported it, as python-gitlab's
//!   `.mergerequests.get(` already is;
//! - a webhook receiver that binds the event's `object_attributes` to a variable named for the
//!   merge request (`$merge_request = $request['object_attributes'];`) and reads
//!   `$merge_request['merge_status']` lines later: the event's copy of the field, not the REST
//!   API's.
//!
//! Look-alikes stay silent: a UI toggle named `showChanges`, go-gitlab's PascalCase methods on
//! a `MergeRequests` service, and the same receiver rebound from a REST call before the read is
//! still reported.

mod common;
use common::{assert_found, assert_silent, findings_of, scan_files};

/// A code-review tool's diff fetcher; the client comes from the tool's own module.
const TS_DIFF_TOOL: &str = r#"import { api } from "../../lib/gitlab";
import { z } from "zod";

export const fetchDiff = async (projectId: string, iid: number, path: string) => {
  let file: any = { diff: "" };
  try {
    const res = await api.MergeRequests.showChanges(projectId, iid);
    file = res?.changes.find((c: any) => c.new_path === path);
  } catch (e) {
    console.error(e);
  }
  return file;
};
"#;

/// The same tool's other module: a UI flag that only shares the method's name.
const TS_TOGGLE: &str = r#"export class DiffPanel {
  private visible = false;

  showChanges(): void {
    this.visible = true;
  }

  render(): string {
    this.showChanges();
    return this.visible ? "open" : "closed";
  }
}
"#;

/// A PHP webhook receiver of a CI dashboard that uses the PHP client for its comments.
const PHP_HOOK: &str = r#"<?php
use Gitlab\Client;

class MergeHook
{
  public function handle($request)
  {
    if ($request['object_kind'] !== 'merge_request') {
      return;
    }
    $merge_request = $request['object_attributes'];
    $iid = $merge_request['iid'];
    $branch = $merge_request['source_branch'];
    $merge_status = $merge_request['merge_status'];
    if ($merge_status === 'unchecked') {
      $this->build($iid, $branch);
    }
  }

  public function refresh($client, $project, $iid)
  {
    $merge_request = $client->api('merge_requests')->show($project, $iid);
    return $merge_request['merge_status'];
  }
}
"#;

#[test]
fn gitbeaker_resource_call_on_a_client_from_another_module() {
    // go-gitlab's methods on its `MergeRequests` service are PascalCase: no gitbeaker call (the
    // file imports no go-gitlab either).
    let go = "package bot\n\nfunc diff(c *Client) {\n\tc.MergeRequests.ShowChanges(1, 2)\n}\n";
    let found = scan_files(&[
        ("src/tools/diff.ts", TS_DIFF_TOOL),
        ("src/ui/panel.ts", TS_TOGGLE),
        ("bot/diff.go", go),
    ]);
    assert_found(&found, &[("src/tools/diff.ts", 7, "mr-changes-endpoint")]);
    assert_silent(&found, "src/ui/panel.ts");
    assert_silent(&found, "bot/diff.go");
}

#[test]
fn field_of_a_variable_bound_from_a_webhook_payload() {
    let found = scan_files(&[("plugins/hook/hook.php", PHP_HOOK)]);
    let here = findings_of(&found, "plugins/hook/hook.php");
    // The event's copy (line 14) is no REST field …
    assert!(
        !here.contains(&(14, "mr-merge-status".to_string())),
        "the webhook payload's merge_status must stay silent: {here:?}"
    );
    // … the REST response bound to the same name later still is.
    assert_found(&found, &[("plugins/hook/hook.php", 23, "mr-merge-status")]);
}
