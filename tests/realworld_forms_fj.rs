//! The code-side forms that the sampled corpus of Go and JVM consumers
//! (`tests/realworld/sampled-fj.yaml`) showed missing or wrongly reported, each at its line.
//! The files are written for this test, modelled on (not copied from) the public files of that
//! corpus: a gitlab4j client calling the removed changes endpoint through the merge request API
//! (on one line and as a fluent chain over two), and a Java model of the merge request webhook's
//! `object_attributes` beside the REST merge request model.

mod common;
use common::{assert_found, assert_silent};

const GITLAB4J_SERVICE: &str = r#"package com.example.review;

import java.util.List;

import org.gitlab4j.api.GitLabApi;
import org.gitlab4j.api.GitLabApiException;
import org.gitlab4j.api.models.Diff;
import org.gitlab4j.api.models.MergeRequest;

public class ReviewService {

    private final GitLabApi api;

    public ReviewService(GitLabApi api) {
        this.api = api;
    }

    public List<Diff> files(Object project, Long iid) throws GitLabApiException {
        MergeRequest withChanges = api.getMergeRequestApi().getMergeRequestChanges(project, iid);
        return withChanges.getChanges();
    }

    public List<Diff> cachedFiles(Long project, Long iid) throws GitLabApiException {
        return api.getMergeRequestApi()
                .getMergeRequestChanges(project, iid)
                .getChanges();
    }

    public List<Diff> diffs(Long project, Long iid) throws GitLabApiException {
        return api.getMergeRequestApi().getDiffs(project, iid);
    }
}
"#;

/// The same method name on a client of the application's own, in a file without gitlab4j.
const OWN_CLIENT: &str = r#"package com.example.review;

import java.util.List;

public interface ChangesClient {

    /** The files a merge request changes, read from the repository service. */
    List<String> getMergeRequestChanges(long project, long iid);

    default int count(long project, long iid) {
        return this.getMergeRequestChanges(project, iid).size();
    }
}
"#;

#[test]
fn gitlab4j_merge_request_changes_on_one_line_and_in_a_chain() {
    let all = common::scan_files(&[
        (
            "src/main/java/com/example/review/ReviewService.java",
            GITLAB4J_SERVICE,
        ),
        (
            "src/main/java/com/example/review/ChangesClient.java",
            OWN_CLIENT,
        ),
    ]);
    assert_found(
        &all,
        &[
            (
                "src/main/java/com/example/review/ReviewService.java",
                19,
                "mr-changes-endpoint",
            ),
            (
                "src/main/java/com/example/review/ReviewService.java",
                25,
                "mr-changes-endpoint",
            ),
        ],
    );
    let service: Vec<_> = all
        .iter()
        .filter(|(p, _, _)| p == "src/main/java/com/example/review/ReviewService.java")
        .collect();
    assert_eq!(
        service.len(),
        2,
        "only the two calls of the removed endpoint: {service:?}"
    );
    assert_silent(&all, "src/main/java/com/example/review/ChangesClient.java");
}

const REST_MODEL: &str = r#"package com.example.gitlab.api.model;

import java.util.List;

/** A merge request of the GitLab REST API. */
public class MergeRequest {

    private Integer iid;
    private String sourceBranch;
    private String targetBranch;
    private String mergeStatus;

    public String getMergeStatus() {
        return mergeStatus;
    }
}
"#;

const HOOK_MODEL: &str = r#"package com.example.gitlab.hook.model;

import java.util.Date;

/** The object_attributes of a GitLab merge request webhook. */
public class MergeRequestObjectAttributes {

    private Integer iid;
    private String sourceBranch;
    private String targetBranch;
    private String mergeStatus;
    private Date updatedAt;

    public String getMergeStatus() {
        return mergeStatus;
    }
}
"#;

#[test]
fn webhook_object_attributes_model_is_no_rest_merge_request() {
    let all = common::scan_files(&[
        (
            "src/main/java/com/example/gitlab/api/model/MergeRequest.java",
            REST_MODEL,
        ),
        (
            "src/main/java/com/example/gitlab/hook/model/MergeRequestObjectAttributes.java",
            HOOK_MODEL,
        ),
    ]);
    assert_found(
        &all,
        &[(
            "src/main/java/com/example/gitlab/api/model/MergeRequest.java",
            11,
            "mr-merge-status",
        )],
    );
    assert_silent(
        &all,
        "src/main/java/com/example/gitlab/hook/model/MergeRequestObjectAttributes.java",
    );
}
