//! Forms that the fresh sample of JavaScript/TypeScript and JVM consumers
//! (`tests/realworld/sampled-hj.yaml`, its tune part) showed wrongly reported or missed, each at
//! its line. The files are written for this test, modelled on (not copied from) the public files
//! of that sample: an IDE plugin's dialog that filters its own GitLab merge request beans through
//! Java streams, and a unit test of an OIDC helper whose test names name the old job token.

mod common;
use common::{assert_found, findings_of};

/// A dialog over the plugin's own merge request beans (a class named for the resource in a
/// package named for the platform): the getter read through a method reference of the type and
/// through a lambda's parameter over a stream of a collection named for the resource.
const STREAMS: &str = r#"package org.example.helper.gitlab.ui;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.example.helper.gitlab.bean.MergeRequest;

public class MergeDialog {
    private List<MergeRequest> gitlabMergeRequests;
    private List<MergeRequest> selectedMergeRequests;
    private Set<String> allStatus;
    private List<String> names;

    void load() {
        allStatus = gitlabMergeRequests.stream().map(MergeRequest::getMergeStatus).collect(Collectors.toSet());
    }

    List<MergeRequest> mergeable() {
        return selectedMergeRequests.stream()
                .filter(u -> "can_be_merged".equals(u.getMergeStatus()))
                .collect(Collectors.toList());
    }

    boolean blocked() {
        return selectedMergeRequests.stream().anyMatch(o -> "cannot_be_merged".equals(o.getMergeStatus()));
    }

    List<String> upper() {
        return names.stream().filter(s -> s.getMergeStatus() != null).collect(Collectors.toList());
    }
}
"#;

/// A unit test of a helper that falls back to the old job token: the test's name is prose, the
/// assignment is a use.
const TEST_NAMES: &str = r#"import { describe, it, expect } from 'vitest';
import { getGitlabOidcToken } from '../../src/oidc/gitlab';

describe('getGitlabOidcToken', () => {
  it('should fall back to CI_JOB_JWT_V2', () => {
    delete process.env.VAULT_ID_TOKEN;
    process.env.CI_JOB_JWT_V2 = 'legacy-jwt-token';
    expect(getGitlabOidcToken()).toBe('legacy-jwt-token');
  });

  test("returns undefined without CI_JOB_JWT_V2", () => {
    expect(getGitlabOidcToken()).toBeUndefined();
  });
});
"#;

/// A log message in the helper itself stays found: only a test's name is passed over.
const HELPER: &str = r#"export function getGitlabOidcToken(): string | undefined {
  const legacy = process.env.CI_JOB_JWT_V2;
  if (legacy) console.warn('using CI_JOB_JWT_V2');
  return process.env.VAULT_ID_TOKEN ?? legacy;
}
"#;

#[test]
fn getters_through_java_streams_of_merge_requests_are_found() {
    let path = "src/main/java/org/example/helper/gitlab/ui/MergeDialog.java";
    let all = common::scan_files(&[(path, STREAMS)]);
    assert_found(
        &all,
        &[
            (path, 15, "mr-merge-status"),
            (path, 20, "mr-merge-status"),
            (path, 25, "mr-merge-status"),
        ],
    );
    // A lambda over a stream of other things (`names`) reads no merge request.
    assert!(
        !findings_of(&all, path).contains(&(29, "mr-merge-status".to_string())),
        "{all:?}"
    );
}

#[test]
fn the_name_of_a_test_is_no_use_of_a_variable() {
    let test = "tests/unit/oidc/gitlab.test.ts";
    let helper = "src/oidc/gitlab.ts";
    let all = common::scan_files(&[(test, TEST_NAMES), (helper, HELPER)]);
    let lines: Vec<u64> = findings_of(&all, test)
        .into_iter()
        .filter(|(_, id)| id == "ci-job-jwt")
        .map(|(l, _)| l)
        .collect();
    assert_eq!(lines, vec![7], "{all:?}");
    assert_found(
        &all,
        &[(helper, 2, "ci-job-jwt"), (helper, 3, "ci-job-jwt")],
    );
}
