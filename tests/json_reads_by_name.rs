//! A decoded response's member read by its name through a JSON library's call, whatever the
//! library names it: `get`/`opt` and a type (org.json's `mr.optString("merge_status")`,
//! `mr.optJSONObject("merged_by")`), circe's `mr.downField("merge_status")`, besides the
//! `get`, `fetch`, `dig` and `path` of the others. It counts where the receiver is named for
//! the resource in a file that names the platform; another forge's pull request and an
//! application's own record are silent. Fixtures written for these tests.

mod common;

const JAVA: &str = r#"package dev.example.watch;

import org.json.JSONObject;

/** Polls the GitLab merge requests of a project (https://gitlab.com/api/v4). */
public class MrWatcher {
    boolean ready(JSONObject mr) {
        String status = mr.optString("merge_status", "unchecked");
        JSONObject mergedBy = mr.optJSONObject("merged_by");
        return "can_be_merged".equals(status) && mergedBy == null;
    }
}
"#;

const SCALA: &str = r#"package example.gitlab

import io.circe.HCursor

// Decodes a merge request of the GitLab API (/api/v4/projects/:id/merge_requests).
object MrDecoder {
  def status(mr: HCursor): String =
    mr.downField("merge_status").as[String].getOrElse("unchecked")
}
"#;

#[test]
fn typed_and_cursor_reads_of_the_merge_request_are_found() {
    let found = common::scan_files(&[
        ("src/main/java/MrWatcher.java", JAVA),
        ("src/main/scala/MrDecoder.scala", SCALA),
    ]);
    let java = "src/main/java/MrWatcher.java";
    assert_eq!(common::lines_of(&found, java, "mr-merge-status"), [8]);
    assert_eq!(common::lines_of(&found, java, "mr-merged-by"), [9]);
    assert_eq!(
        common::lines_of(&found, "src/main/scala/MrDecoder.scala", "mr-merge-status"),
        [8],
        "{found:?}"
    );
}

#[test]
fn another_forges_pull_request_and_an_apps_own_record_are_not() {
    let github = JAVA
        .replace("GitLab merge requests", "GitHub pull requests")
        .replace("https://gitlab.com/api/v4", "https://api.github.com")
        .replace("(JSONObject mr)", "(JSONObject pr)")
        .replace("mr.opt", "pr.opt");
    let own = r#"import org.json.JSONObject;

class Orders {
    String state(JSONObject order) {
        return order.optString("merge_status", "none");
    }
}
"#;
    let found = common::scan_files(&[("GhWatcher.java", github.as_str()), ("Orders.java", own)]);
    assert!(found.is_empty(), "{found:?}");
}
