//! A tool for several forges reads each one's pull request in a function, class or branch named
//! for it. In a file that names another platform, a field of the platform's merge request counts
//! where the block around it is named for the platform (`def get_pr_detail_gitlab(pr):`,
//! `class GitLabProvider`, `elif forge == "gitlab":`), also
//! under the other systems' name for the object (`pull_request`, `pr`); the same read in the
//! block named for GitHub, or in a block named for neither, stays silent. Fixtures written for
//! these tests.

mod common;

const PYTHON: &str = r#"import requests


def get_pr_detail_github(owner, repo, number):
    pull_request = requests.get(f"https://api.github.com/repos/{owner}/{repo}/pulls/{number}").json()
    return {
        'merger': pull_request['merged_by']['login'] if pull_request['merged_by'] else None,
    }


def get_pr_detail_gitlab(pull_request):
    return {
        'merger': pull_request['merged_by']['username'] if pull_request.get('merged_by') else None,
        'mergeable': pull_request.get('merge_status') == 'can_be_merged',
    }


def describe(pull_request):
    return pull_request.get('merged_by')
"#;

const TYPESCRIPT: &str = r#"import { Octokit } from "@octokit/rest";

export class GitHubProvider {
  merger(pr: any): string | undefined {
    return pr.merged_by?.login;
  }
}

export class GitLabProvider {
  constructor(private readonly base: string) {}

  merger(pr: any): string | undefined {
    return pr.merged_by?.username;
  }
}
"#;

const BRANCHES: &str = r#"def merger(forge, pr):
    if forge == "github":
        return pr["merged_by"]["login"]
    elif forge == "gitlab":
        return pr["merged_by"]["username"]
    return None
"#;

#[test]
fn a_field_in_a_block_named_for_the_platform_is_found() {
    let found = common::scan_files(&[
        ("forges/details.py", PYTHON),
        ("src/providers.ts", TYPESCRIPT),
        ("forges/merger.py", BRANCHES),
    ]);
    assert_eq!(
        common::lines_of(&found, "forges/details.py", "mr-merged-by"),
        [13],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "forges/details.py", "mr-merge-status"),
        [14],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "src/providers.ts", "mr-merged-by"),
        [13],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "forges/merger.py", "mr-merged-by"),
        [5],
        "{found:?}"
    );
}
