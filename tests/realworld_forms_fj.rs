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

/// A Kotlin transformer whose parameter is declared with the client's merge request type under
/// an alias, a Java method whose parameter is the merge request, and the same reads on a pull
/// request and on a webhook's attributes.
const KOTLIN_TRANSFORMER: &str = r#"package com.example.provider.gitlab

import org.gitlab4j.api.models.MergeRequest as MergeRequestModel

object GitlabMergeRequestTransformer {
    fun transform(input: MergeRequestModel): Summary {
        return Summary(
            id = input.iid,
            mergeable = input.mergeStatus == "can_be_merged",
            mergedBy = input.mergedBy?.username,
        )
    }
}
"#;

const JAVA_PARAMETER: &str = r#"package com.example.bot;

import org.gitlab4j.api.models.MergeRequest;
import org.gitlab4j.api.webhook.MergeRequestEvent.ObjectAttributes;

public class Notifier {

    public String line(MergeRequest request) {
        return request.getIid() + " " + request.getMergeStatus();
    }

    public String hook(ObjectAttributes attributes) {
        return attributes.getIid() + " " + attributes.getMergeStatus();
    }
}
"#;

const KOTLIN_OTHER: &str = r#"package com.example.provider.gitlab

import com.example.github.PullRequest

object PullRequestTransformer {
    fun transform(input: PullRequest): Summary {
        return Summary(id = input.number, mergeable = input.mergeStatus == "clean")
    }
}
"#;

#[test]
fn reads_on_a_parameter_declared_with_the_resource_type() {
    let all = common::scan_files(&[
        (
            "provider/gitlab/GitlabMergeRequestTransformer.kt",
            KOTLIN_TRANSFORMER,
        ),
        (
            "bot/src/main/java/com/example/bot/Notifier.java",
            JAVA_PARAMETER,
        ),
        ("provider/gitlab/PullRequestTransformer.kt", KOTLIN_OTHER),
    ]);
    assert_found(
        &all,
        &[
            (
                "provider/gitlab/GitlabMergeRequestTransformer.kt",
                9,
                "mr-merge-status",
            ),
            (
                "provider/gitlab/GitlabMergeRequestTransformer.kt",
                10,
                "mr-merged-by",
            ),
            (
                "bot/src/main/java/com/example/bot/Notifier.java",
                9,
                "mr-merge-status",
            ),
        ],
    );
    let notifier = common::findings_of(&all, "bot/src/main/java/com/example/bot/Notifier.java");
    assert!(
        !notifier.iter().any(|(line, _)| *line == 13),
        "the webhook attributes' merge status is no REST field: {notifier:?}"
    );
    assert_silent(&all, "provider/gitlab/PullRequestTransformer.kt");
}

/// A Scala model of the merge request with zio-json's `@jsonField` (in a package named the
/// reverse-domain way after the author's account on another platform, `com.github.<name>`), a Kotlin one with
/// kotlinx.serialization's `@SerialName`, and the recorded response of a Java test class in a
/// text block; a webhook model with the same annotation stays silent.
const SCALA_MODEL: &str = r#"package com.github.example.gitlabbot.domain

import zio.json.*

case class MRInfo(
  iid: Int,
  title: String,
  @jsonField("source_branch")
  sourceBranch: String,
  @jsonField("merge_status")
  mergeStatus: String,
)
"#;

const KOTLIN_SERIAL: &str = r#"package com.example.gitlab

import kotlinx.serialization.SerialName
import kotlinx.serialization.Serializable

@Serializable
data class GitLabMergeRequest(
    val iid: Long,
    @SerialName("merged_by")
    val mergedBy: GitLabUser? = null,
)

@Serializable
data class MergeRequestHookAttributes(
    val iid: Long,
    @SerialName("merge_status")
    val mergeStatus: String,
)
"#;

const JAVA_TEXT_BLOCK: &str = r#"package com.example.gitlab.data;

import org.junit.jupiter.api.Test;

class CompressingServiceTest {

    private final String recorded = """
            [
              {
                "id": 12,
                "iid": 3,
                "source_branch": "fix",
                "target_branch": "main",
                "merged_by": null,
                "merge_status": "can_be_merged",
                "detailed_merge_status": "mergeable"
              }
            ]
            """;

    @Test
    void compresses() {
    }
}
"#;

#[test]
fn jvm_serialization_annotations_and_text_block_responses() {
    let all = common::scan_files(&[
        (
            "src/main/scala/com/github/example/gitlabbot/domain/MRInfo.scala",
            SCALA_MODEL,
        ),
        (
            "src/main/kotlin/com/example/gitlab/Models.kt",
            KOTLIN_SERIAL,
        ),
        (
            "src/test/java/com/example/gitlab/data/CompressingServiceTest.java",
            JAVA_TEXT_BLOCK,
        ),
    ]);
    assert_found(
        &all,
        &[
            (
                "src/main/scala/com/github/example/gitlabbot/domain/MRInfo.scala",
                10,
                "mr-merge-status",
            ),
            (
                "src/main/kotlin/com/example/gitlab/Models.kt",
                9,
                "mr-merged-by",
            ),
            (
                "src/test/java/com/example/gitlab/data/CompressingServiceTest.java",
                14,
                "mr-merged-by",
            ),
            (
                "src/test/java/com/example/gitlab/data/CompressingServiceTest.java",
                15,
                "mr-merge-status",
            ),
        ],
    );
    let kotlin = common::findings_of(&all, "src/main/kotlin/com/example/gitlab/Models.kt");
    assert!(
        !kotlin.iter().any(|(line, _)| *line >= 14),
        "the webhook model's merge status is no REST field: {kotlin:?}"
    );
}

/// A MicroProfile REST client interface: its `@Path` annotations are the requests it sends. The
/// same annotation on a JAX-RS resource the application serves is a route, not a call.
const REST_CLIENT: &str = r#"package com.example.reviewer.client;

import jakarta.ws.rs.*;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.util.Map;

@Path("/api/v4")
@RegisterRestClient(configKey = "gitlab-api")
public interface GitLabClient {

    @GET
    @Path("/projects/{projectId}/merge_requests/{mrIid}/changes")
    Map<String, Object> changes(@PathParam("projectId") long projectId, @PathParam("mrIid") long mrIid);

    @GET
    @Path("/projects/{projectId}/merge_requests/{mrIid}/diffs")
    Map<String, Object> diffs(@PathParam("projectId") long projectId, @PathParam("mrIid") long mrIid);
}
"#;

const SERVED_RESOURCE: &str = r#"package com.example.fake;

import jakarta.ws.rs.*;

@Path("/api/v4")
public class FakeGitLabResource {

    @GET
    @Path("/projects/{projectId}/merge_requests/{mrIid}/changes")
    public String changes(@PathParam("projectId") long projectId, @PathParam("mrIid") long mrIid) {
        return "{}";
    }
}
"#;

#[test]
fn declarative_rest_client_paths_are_calls() {
    let all = common::scan_files(&[
        (
            "src/main/java/com/example/reviewer/client/GitLabClient.java",
            REST_CLIENT,
        ),
        (
            "src/main/java/com/example/fake/FakeGitLabResource.java",
            SERVED_RESOURCE,
        ),
    ]);
    assert_found(
        &all,
        &[(
            "src/main/java/com/example/reviewer/client/GitLabClient.java",
            13,
            "mr-changes-endpoint",
        )],
    );
    let client = common::findings_of(
        &all,
        "src/main/java/com/example/reviewer/client/GitLabClient.java",
    );
    assert_eq!(client.len(), 1, "only the removed endpoint: {client:?}");
    assert_silent(
        &all,
        "src/main/java/com/example/fake/FakeGitLabResource.java",
    );
}

/// A Java lambda whose parameter the functional interface before it types (`Consumer<MergeRequest>
/// … return pr -> …`), and one over another type.
const JAVA_LAMBDA: &str = r#"package com.example.bot.strategy;

import java.util.function.Consumer;
import org.gitlab4j.api.models.MergeRequest;
import org.gitlab4j.api.models.Issue;

public class MergedStrategy {

    protected Consumer<MergeRequest> action() {
        return pr -> log("merged {} {}", pr.getIid(), pr.getMergeStatus());
    }

    protected Consumer<Issue> other() {
        return pr -> log("issue {} {}", pr.getIid(), pr.getMergeStatus());
    }
}
"#;

#[test]
fn lambda_parameter_typed_by_its_functional_interface() {
    let all = common::scan_files(&[("bot/MergedStrategy.java", JAVA_LAMBDA)]);
    assert_found(&all, &[("bot/MergedStrategy.java", 10, "mr-merge-status")]);
    let found = common::findings_of(&all, "bot/MergedStrategy.java");
    assert_eq!(found.len(), 1, "not on the issue's lambda: {found:?}");
}
