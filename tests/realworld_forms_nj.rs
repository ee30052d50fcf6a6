//! The JVM/.NET/PHP forms that the SDK-spelling sample (`tests/realworld/sampled-nj.yaml`, its
//! tune part) showed missed. The files are written for this test, modelled on (not copied from)
//! the public files of that corpus:
//! - a C# client whose entity classes keep the API's snake-case names with each word capitalized
//!   (`mergeRequest.Merge_Status == "can_be_merged"`, GitLabSharp's spelling): the platform's
//!   field read from a variable named for the merge request;
//! - a Java or Android model of the REST merge request whose serialization annotations carry the
//!   resource's own keys (`iid`, `source_branch`, `target_branch`) but whose class is not named
//!   `MergeRequest` (`ForgePullRequest`) or whose file never names the platform: the keys say
//!   which object it is. A webhook's `object_attributes` model has the same keys plus the event's
//!   own (`action`, `url`, `last_commit`) and stays silent, and so does GitHub's pull request
//!   (no `iid`);
//! - a type named for the webhook's `object_attributes` (`MergeRequestAttributes`) is the event's,
//!   not the REST response's, even where the file names the platform.

mod common;
use common::{assert_found, findings_of, scan_files};

/// A Windows client's merge form: the entity's members keep the API's names, capitalized.
const MERGE_FORM: &str = r#"using System;
using GitLabSharp.Entities;

namespace Reviewer.Forms
{
   internal partial class MergeForm
   {
      private void applyStatus(MergeRequest mergeRequest)
      {
         if (mergeRequest.Merge_Status == null)
         {
            _canMerge = false;
         }
         else if (mergeRequest.Merge_Status == "can_be_merged")
         {
            _canMerge = true;
         }
         // Merge_Status may also read "checking"
         labelStatus.Text = "GitLab says: " + mergeRequest.Merged_By?.Username;
      }

      private bool _canMerge;
   }
}
"#;

#[test]
fn capitalized_snake_members_of_the_entity_are_the_fields() {
    let path = "Reviewer/Forms/MergeForm.cs";
    let found = scan_files(&[(path, MERGE_FORM)]);
    assert_found(
        &found,
        &[
            (path, 10, "mr-merge-status"),
            (path, 14, "mr-merge-status"),
            (path, 19, "mr-merged-by"),
        ],
    );
    let got = findings_of(&found, path);
    assert!(
        got.iter().all(|(l, _)| *l != 18),
        "a comment is no use: {got:?}"
    );
}

/// A bot's model of the REST merge request, named for a pull request of any forge.
const FORGE_PR: &str = r#"package org.example.bot.model.forge;

import com.fasterxml.jackson.annotation.JsonProperty;

public class ForgePullRequest {
    @JsonProperty("id")
    private Integer id;
    @JsonProperty("iid")
    private Integer iid;
    @JsonProperty("source_branch")
    private String sourceBranch;
    @JsonProperty("target_branch")
    private String targetBranch;
    @JsonProperty("web_url")
    private String webUrl;
    @JsonProperty("merge_status")
    private String mergeStatus;
    @JsonProperty("merged_by")
    private ForgeUser mergedBy;
}
"#;

/// An Android client's merge request list item; the file never names the platform.
const LIST_ITEM: &str = r#"package org.example.app.models.mr;

import com.google.gson.annotations.SerializedName;

public class MrListItem {

	@SerializedName("iid")
	private int iid;

	@SerializedName("merged_by")
	private Object mergedBy;

	@SerializedName("source_branch")
	private String sourceBranch;

	@SerializedName("target_branch")
	private String targetBranch;

	@SerializedName("merge_status")
	private String mergeStatus;
}
"#;

/// A chat bridge's model of a webhook's `object_attributes`: the same keys and the event's own.
const HOOK_ATTRIBUTES: &str = r#"package org.example.bridge.model;

import com.fasterxml.jackson.annotation.JsonProperty;

public class Attributes {
    @JsonProperty("iid")
    private int iid;
    @JsonProperty("source_branch")
    private String sourceBranch;
    @JsonProperty("target_branch")
    private String targetBranch;
    @JsonProperty("merge_status")
    private String mergeStatus;
    @JsonProperty("url")
    private String url;
    @JsonProperty("action")
    private String action;
}
"#;

/// The same attributes in a file that names the platform, the class named for the merge request's
/// attributes (the webhook's `object_attributes`), its event keys plain fields.
const GITLAB_HOOK_ATTRIBUTES: &str = r#"package org.example.chat.gitlab.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import lombok.Data;

@Data
public class MergeRequestAttributes {
    private int iid;
    @JsonProperty("target_branch")
    private String targetBranch;
    @JsonProperty("merge_status")
    private String mergeStatus;
    private String action;
}
"#;

/// GitHub's pull request: `merged_by`, branches as objects, no `iid`.
const GITHUB_PR: &str = r#"package org.example.hub.model;

import com.google.gson.annotations.SerializedName;

public class PullRequest {
    @SerializedName("number") private int number;
    @SerializedName("merged_by") private User mergedBy;
    @SerializedName("merge_commit_sha") private String mergeCommitSha;
}
"#;

#[test]
fn annotated_keys_of_the_resource_say_it_is_the_merge_request() {
    let (pr, item) = (
        "src/main/java/org/example/bot/model/forge/ForgePullRequest.java",
        "app/src/main/java/org/example/app/models/mr/MrListItem.java",
    );
    let found = scan_files(&[(pr, FORGE_PR), (item, LIST_ITEM)]);
    assert_found(
        &found,
        &[
            (pr, 16, "mr-merge-status"),
            (pr, 18, "mr-merged-by"),
            (item, 10, "mr-merged-by"),
            (item, 19, "mr-merge-status"),
        ],
    );
}

#[test]
fn a_webhook_attributes_model_and_a_github_pull_request_stay_silent() {
    let (hook, hub) = (
        "src/main/java/org/example/bridge/model/Attributes.java",
        "src/main/java/org/example/hub/model/PullRequest.java",
    );
    let chat = "src/main/java/org/example/chat/gitlab/model/MergeRequestAttributes.java";
    let found = scan_files(&[
        (hook, HOOK_ATTRIBUTES),
        (hub, GITHUB_PR),
        (chat, GITLAB_HOOK_ATTRIBUTES),
    ]);
    assert!(findings_of(&found, hook).is_empty(), "{found:?}");
    assert!(findings_of(&found, hub).is_empty(), "{found:?}");
    assert!(findings_of(&found, chat).is_empty(), "{found:?}");
}
