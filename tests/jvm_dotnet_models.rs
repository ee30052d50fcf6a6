//! Models of the platform's merge request in C#, Java and Kotlin as their style guides write
//! them: a C# class whose brace opens on its own line, with auto-properties; a member named by a
//! serialization annotation on the line above (one finding, at the annotation, which writes
//! the API's name; none when the annotation names another field); a Kotlin data class's
//! `val`. Fixtures written for this test, modelled on small API clients and bots.

mod common;

const CSHARP: &str = r#"using System.Text.Json.Serialization;

namespace Reviewer.GitLab
{
    public class GitLabMergeRequest
    {
        [JsonPropertyName("iid")]
        public int Iid { get; set; }

        [JsonPropertyName("merge_status")]
        public string MergeStatus { get; set; }

        [JsonPropertyName("detailed_merge_status")]
        public string Status { get; set; }

        public GitLabUser MergedBy { get; set; }
    }

    public class PullRequest
    {
        public string MergeStatus { get; set; }
    }
}
"#;

const JAVA: &str = r#"package com.example.gitlab;

import com.fasterxml.jackson.annotation.JsonProperty;

public class GitlabMergeRequest {
    @JsonProperty("merged_by")
    private GitlabUser mergedBy;

    @JsonProperty("detailed_merge_status")
    private String mergeStatus;
}
"#;

const KOTLIN: &str = r#"package com.example.gitlab

// A merge request of the GitLab REST API, read with Gson.
data class GitlabMergeRequest(
    val iid: Long,
    val merge_status: String,
    val title: String,
)
"#;

#[test]
fn merge_request_models_of_csharp_java_and_kotlin() {
    let found = common::scan_files(&[
        ("src/GitLab/GitLabMergeRequest.cs", CSHARP),
        (
            "src/main/java/com/example/gitlab/GitlabMergeRequest.java",
            JAVA,
        ),
        ("app/src/main/kotlin/GitlabMergeRequest.kt", KOTLIN),
    ]);
    assert_eq!(
        common::findings_of(&found, "src/GitLab/GitLabMergeRequest.cs"),
        common::lines(&[(10, "mr-merge-status"), (16, "mr-merged-by")]),
    );
    assert_eq!(
        common::findings_of(
            &found,
            "src/main/java/com/example/gitlab/GitlabMergeRequest.java"
        ),
        common::lines(&[(6, "mr-merged-by")]),
    );
    assert_eq!(
        common::findings_of(&found, "app/src/main/kotlin/GitlabMergeRequest.kt"),
        common::lines(&[(6, "mr-merge-status")]),
    );
}
