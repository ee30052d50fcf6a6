//! A webhook receiver's models describe what the platform sends to a webhook, not an
//! endpoint's response: a class of the merge request event's `object_attributes`, or any
//! model in a package named for webhooks, keeps `merge_status` without a finding. The same
//! class in a REST client's package is the response. Fixtures written for this test, modelled
//! on Spring webhook receivers that forward merge request events to chat.

mod common;

/// A receiver's model of the event's merge request, named for `object_attributes`.
const OBJECT_ATTRIBUTES: &str = r#"package org.acme.notify.gitlab;

import com.alibaba.fastjson.annotation.JSONField;

public class MergeRequestObjectAttributes {
    private Integer iid;
    private String title;
    @JSONField(name = "merge_status")
    private String mergeStatus;
    @JSONField(name = "detailed_merge_status")
    private String detailedMergeStatus;
}
"#;

/// A merge request model in a webhook receiver's domain package.
fn domain_model(package: &str) -> String {
    format!(
        r#"package {package};

import lombok.Data;

@Data
public class MergeRequest {{
    private Integer iid;
    private String state;
    private String merge_status;
    private String merged_by;
}}
"#
    )
}

#[test]
fn webhook_models_keep_merge_status_without_a_finding() {
    let webhooks = domain_model("org.acme.gitlabwebhooks.domain");
    let client = domain_model("org.acme.gitlabclient.model");
    let found = common::scan_files(&[
        (
            "src/main/java/org/acme/notify/gitlab/MergeRequestObjectAttributes.java",
            OBJECT_ATTRIBUTES,
        ),
        (
            "src/main/java/org/acme/gitlabwebhooks/domain/MergeRequest.java",
            &webhooks,
        ),
        (
            "src/main/java/org/acme/gitlabclient/model/MergeRequest.java",
            &client,
        ),
    ]);
    common::assert_silent(
        &found,
        "src/main/java/org/acme/notify/gitlab/MergeRequestObjectAttributes.java",
    );
    common::assert_silent(
        &found,
        "src/main/java/org/acme/gitlabwebhooks/domain/MergeRequest.java",
    );
    // The REST client's model is the response: its removed fields are found.
    assert_eq!(
        common::findings_of(
            &found,
            "src/main/java/org/acme/gitlabclient/model/MergeRequest.java"
        ),
        common::lines(&[(9, "mr-merge-status"), (10, "mr-merged-by")]),
    );
}
