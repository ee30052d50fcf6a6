//! The code-side forms that the sampled corpus of Go and JVM/.NET/PHP consumers
//! (`tests/realworld/sampled-gg.yaml`) showed missing, each at its line. The files are written
//! for this test, modelled on (not copied from) the public files of that corpus: a PHP service
//! calling the platform through php-gitlab-api (`$client->mergeRequests()->changes(…)`, the
//! users list paged by offset), and a Kotlin model of the REST merge request whose properties
//! are written in camelCase and mapped to the API's names by a naming strategy. Their look-alikes
//! stay silent: the same PHP calls without the removed argument or without the library, and
//! Kotlin classes that are no REST merge request.

mod common;
use common::{assert_found, assert_silent, findings_of, lines};

const PHP_SERVICE: &str = r#"<?php

declare(strict_types=1);

namespace App\Review;

use Gitlab\Client;
use Psr\Log\LoggerInterface;

final class ReviewService
{
    public function __construct(
        private readonly Client $gitlab,
        private readonly LoggerInterface $logger,
    ) {
    }

    public function changedFiles(int $projectId, int $iid): array
    {
        $mr = $this->gitlab->mergeRequests()->changes($projectId, $iid);

        return array_column($mr['changes'], 'new_path');
    }

    public function allUsers(): iterable
    {
        $page = 1;
        do {
            $users = $this->gitlab->users()->all([
                'page' => $page,
                'per_page' => 100,
            ]);
            yield from $users;
            $page++;
        } while ($users !== []);
    }

    public function findUser(string $username): ?array
    {
        $found = $this->gitlab->users()->all(['username' => $username]);

        return $found[0] ?? null;
    }

    public function groups(string $search): array
    {
        return $this->gitlab->groups()->all(['search' => $search, 'page' => 1]);
    }

    public function diffs(int $projectId, int $iid): array
    {
        return $this->gitlab->mergeRequests()->diffs($projectId, $iid);
    }
}
"#;

/// The same method names on the application's own repository objects, without the library.
const PHP_OWN: &str = r#"<?php

namespace App\Audit;

final class History
{
    public function __construct(private readonly Store $store)
    {
    }

    public function recent(int $page): array
    {
        $log = $this->store->mergeRequests()->changes(42, 7);

        return $this->store->users()->all(['page' => $page]) + $log;
    }
}
"#;

#[test]
fn php_gitlab_api_changes_and_users_paged_by_offset() {
    let all = common::scan_files(&[
        ("src/Review/ReviewService.php", PHP_SERVICE),
        ("src/Audit/History.php", PHP_OWN),
    ]);
    assert_found(
        &all,
        &[
            ("src/Review/ReviewService.php", 20, "mr-changes-endpoint"),
            (
                "src/Review/ReviewService.php",
                30,
                "users-offset-pagination",
            ),
        ],
    );
    assert_eq!(
        findings_of(&all, "src/Review/ReviewService.php"),
        lines(&[(20, "mr-changes-endpoint"), (30, "users-offset-pagination")]),
        "the users list by username, the groups list paged and the diffs call are no findings"
    );
    assert_silent(&all, "src/Audit/History.php");
}

const KOTLIN_MODELS: &str = r#"package org.example.stats.gitlab

import com.fasterxml.jackson.databind.PropertyNamingStrategies
import com.fasterxml.jackson.databind.annotation.JsonNaming
import java.time.ZonedDateTime

@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy::class)
data class GitlabUser(
  val id: Long,
  val username: String,
)

@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy::class)
data class GitlabMergeRequest(
  val id: Long,
  val iid: Long,
  val title: String,
  val sourceBranch: String,
  val targetBranch: String,
  val mergedBy: GitlabUser? = null,
  val mergedAt: ZonedDateTime? = null,
  var mergeStatus: String,
  val detailedMergeStatus: String? = null,
)

/** What the report shows of a merge request: the crawler's own record. */
data class ReviewSummary(
  val title: String,
  val mergedBy: String?,
  val mergeStatus: String,
)

@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy::class)
data class MergeRequestObjectAttributes(
  val iid: Long,
  val mergeStatus: String,
)
"#;

#[test]
fn kotlin_properties_of_the_rest_merge_request() {
    let all = common::scan_files(&[(
        "src/main/kotlin/org/example/stats/gitlab/Models.kt",
        KOTLIN_MODELS,
    )]);
    assert_eq!(
        findings_of(&all, "src/main/kotlin/org/example/stats/gitlab/Models.kt"),
        lines(&[(20, "mr-merged-by"), (22, "mr-merge-status")]),
        "the merge request's properties; not the report's own record, nor the webhook's attributes"
    );
}

/// A CLI's model of the merge request the REST API returns, generated from a response (its tags
/// are the API's keys), in a file that names nothing: the struct's own keys (`iid`,
/// `source_branch`, `target_branch`) say which resource it is.
const GO_RESPONSE_MODEL: &str = r#"package models

type CreateMergeRequestResponse struct {
	Assignees []interface{} `json:"assignees"`
	Author    struct {
		ID       int64  `json:"id"`
		Username string `json:"username"`
	} `json:"author"`
	ChangesCount string      `json:"changes_count"`
	Iid          int64       `json:"iid"`
	MergeStatus  string      `json:"merge_status"`
	MergedBy     interface{} `json:"merged_by"`
	SourceBranch string      `json:"source_branch"`
	TargetBranch string      `json:"target_branch"`
	WebURL       string      `json:"web_url"`
}

type WaveSummary struct {
	Wave        int    `json:"wave"`
	MergeStatus string `json:"merge_status"`
}
"#;

/// A webhook receiver's types, in a file that names nothing either: the merge request's
/// attributes are the payload's `object_attributes`.
const GO_HOOK_MODEL: &str = r#"package hooks

type ObjectAttr struct {
	Iid          int    `json:"iid"`
	SourceBranch string `json:"source_branch"`
	TargetBranch string `json:"target_branch"`
	MergeStatus  string `json:"merge_status"`
}

type Request struct {
	ObjectKind string     `json:"object_kind"`
	Object     ObjectAttr `json:"object_attributes"`
}
"#;

#[test]
fn go_struct_whose_own_tags_are_the_merge_requests() {
    let all = common::scan_files(&[
        (
            "cmd/models/create_merge_request_response.go",
            GO_RESPONSE_MODEL,
        ),
        ("hooks/request.go", GO_HOOK_MODEL),
    ]);
    assert_eq!(
        findings_of(&all, "cmd/models/create_merge_request_response.go"),
        lines(&[(11, "mr-merge-status"), (12, "mr-merged-by")]),
        "the response model's fields; not another struct's merge_status"
    );
    assert_silent(&all, "hooks/request.go");
}

/// A dashboard's DTO of the merge request list, its properties named as the API's keys, in a
/// file that names nothing: its own keys say which resource it is.
const KOTLIN_DTO: &str = r#"package org.example.dashboard.remote.dto

data class MergeRequestsItem(
    val author: Author,
    val closed_at: String?,
    val draft: Boolean,
    val id: Int,
    val iid: Int,
    val merge_status: String,
    val merged_by: Author?,
    val source_branch: String,
    val target_branch: String,
    val web_url: String,
)

data class Author(
    val id: Int,
    val username: String,
)

data class PipelineRow(
    val merge_status: String,
    val ref: String,
)
"#;

/// A webhook receiver's classes: the attributes of the merge request event.
const KOTLIN_HOOK: &str = r#"package org.example.hooks

data class MergeRequestHook(
    val object_kind: String,
    val object_attributes: MrAttributes,
)

data class MrAttributes(
    val iid: Int,
    val source_branch: String,
    val target_branch: String,
    val merge_status: String,
)
"#;

#[test]
fn kotlin_dto_whose_own_properties_are_the_merge_requests() {
    let all = common::scan_files(&[
        (
            "src/main/kotlin/org/example/dashboard/remote/dto/MergeRequestsItem.kt",
            KOTLIN_DTO,
        ),
        (
            "src/main/kotlin/org/example/hooks/MergeRequestHook.kt",
            KOTLIN_HOOK,
        ),
    ]);
    assert_eq!(
        findings_of(
            &all,
            "src/main/kotlin/org/example/dashboard/remote/dto/MergeRequestsItem.kt"
        ),
        lines(&[(9, "mr-merge-status"), (10, "mr-merged-by")]),
        "the DTO's properties; not another class's merge_status"
    );
    assert_silent(
        &all,
        "src/main/kotlin/org/example/hooks/MergeRequestHook.kt",
    );
}
