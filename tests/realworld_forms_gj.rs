//! The code-side forms that the sampled corpus of JavaScript/TypeScript consumers and runner-API
//! callers (`tests/realworld/sampled-gj.yaml`) showed wrongly reported, each at its line. The
//! files are written for this test, modelled on (not copied from) the public files of that
//! corpus: a launcher extension that maps the platform's GraphQL merge request (`mergeUser`)
//! into a model of its own with a `mergedBy` member, and reads that member in another file.

mod common;
use common::{assert_found, assert_silent};

/// The app's own model, built from a GraphQL fragment: `mergedBy` is its own name for the
/// fragment's `mergeUser`.
const OWN_MODEL: &str = r#"import { graphql } from "./graphql";

export type Person = { username: string; displayName: string };

export type MergeRequest = {
  iid: string;
  title: string;
  approvedBy: Person[];
  mergedBy?: Person;
};

export const fragment = graphql(`
  fragment MergeRequest on MergeRequest {
    iid
    title
    mergeUser { username name }
  }
`);
"#;

/// Reads of the app's own member, on a variable named for the merge request, in a file that
/// imports the model from a folder named for the platform.
const OWN_READS: &str = r#"import { MergeRequest } from "../gitlab/mergeRequest";

export function mergedLabel(mr: MergeRequest): string | undefined {
  if (mr.mergedBy && mr.mergedBy.username !== "bot") {
    return `merged by ${mr.mergedBy.displayName}`;
  }
  return undefined;
}
"#;

/// The same read where gitbeaker hands out camel-cased responses (`camelize: true`): the
/// platform's `merged_by` under its camel-cased name.
const CAMELIZED_READS: &str = r#"import { Gitlab } from "@gitbeaker/rest";

const api = new Gitlab({ token: process.env.GITLAB_TOKEN, camelize: true });

export async function mergedBy(projectId: number, iid: number) {
  const mr = await api.MergeRequests.show(projectId, iid);
  return mr.mergedBy?.username;
}
"#;

/// A plain REST read in a script beside them stays found.
const REST_READS: &str = r#"export async function status(base, token, project, iid) {
  const res = await fetch(`${base}/api/v4/projects/${project}/merge_requests/${iid}`, {
    headers: { "PRIVATE-TOKEN": token },
  });
  const mr = await res.json();
  return mr.merged_by ? mr.merged_by.username : null;
}
"#;

#[test]
fn camel_cased_members_of_an_own_model_in_script_files_are_silent() {
    let all = common::scan_files(&[
        ("src/gitlab/mergeRequest.ts", OWN_MODEL),
        ("src/mergeRequests/accessories.ts", OWN_READS),
        ("src/camelized.ts", CAMELIZED_READS),
        ("scripts/status.js", REST_READS),
    ]);
    assert_silent(&all, "src/gitlab/mergeRequest.ts");
    assert_silent(&all, "src/mergeRequests/accessories.ts");
    assert_found(
        &all,
        &[
            ("src/camelized.ts", 7, "mr-merged-by"),
            ("scripts/status.js", 6, "mr-merged-by"),
        ],
    );
}
