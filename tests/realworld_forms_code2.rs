//! The code-side forms that the second sampled corpus of consumers
//! (`tests/realworld/sampled-code2.yaml`) showed missing, each found at its line, and their
//! look-alikes silent. The files are written for this test, modelled on (not copied from) the
//! public files of that corpus: a PHP client's relative paths handed to `->get(…)`, a Go
//! client's path written below the project's own (`projectPath("/merge_requests/%d/changes")`),
//! a pydantic model whose field is far below its `class` line, a file whose path names the
//! platform while its prose compares it with another, Java fields and serialization
//! annotations, Python's `hasattr`/`getattr` by name, an API dict read inside the resource's
//! own model, and a TypeScript interface generated from a response in a file that names
//! nothing.

mod common;
use common::{assert_found, assert_silent};

const PHP_CLIENT: &str = r#"<?php

namespace Acme\GitLab\Api;

/**
 * Geo sites of a GitLab instance, through the client's own HTTP wrapper.
 */
class GeoSites extends Resource
{
    public function all(): array
    {
        return $this->http->get('geo_nodes')->decode();
    }

    public function edit(int $id, array $body): array
    {
        return $this->http
            ->json($body)
            ->put("geo_nodes/{$id}")
            ->decode();
    }

    public function diff($project, int $iid): array
    {
        return $this->http->get($this->expand(
            'projects/:id/merge_requests/:merge_request_iid/changes',
            [$project, $iid]
        ))->decode();
    }
}
"#;

/// The same relative path in a PHP file of an application that names no platform: its own
/// `geo_nodes` table of a map service.
const PHP_OTHER: &str = r#"<?php

class MapRepository
{
    public function nodes(): array
    {
        return $this->db->get('geo_nodes')->rows();
    }
}
"#;

/// A PHP client's relative paths handed to its HTTP wrapper's `->get(…)`/`->put(…)`: a path of
/// one distinctive segment (`geo_nodes`) in a file that names the platform, and a path with the
/// API's `:id` placeholders.
#[test]
fn php_relative_paths_in_arrow_calls() {
    let all = common::scan_files(&[
        ("src/Api/GeoSites.php", PHP_CLIENT),
        ("app/MapRepository.php", PHP_OTHER),
    ]);
    assert_found(
        &all,
        &[
            ("src/Api/GeoSites.php", 12, "geo-nodes-endpoints"),
            ("src/Api/GeoSites.php", 19, "geo-nodes-endpoints"),
            ("src/Api/GeoSites.php", 26, "mr-changes-endpoint"),
        ],
    );
    assert_silent(&all, "app/MapRepository.php");
}

const GO_SCOPED: &str = r#"package forge

import (
	"context"
	"fmt"
	"net/http"
)

// changedPaths lists the files a merge request touches.
func (c *Client) changedPaths(ctx context.Context, iid int) ([]string, error) {
	var out struct {
		Changes []struct {
			NewPath string `json:"new_path"`
		} `json:"changes"`
	}
	u := c.inProject(fmt.Sprintf("/merge_requests/%d/changes", iid))
	if err := c.call(ctx, http.MethodGet, u, &out); err != nil {
		return nil, err
	}
	notes := c.inProject(fmt.Sprintf("/merge_requests/%d/notes", iid))
	_ = notes
	return nil, nil
}
"#;

/// A project's endpoint written below the project's own path, for a helper that puts it there.
#[test]
fn go_path_below_the_project() {
    let all = common::scan_files(&[("forge/mr.go", GO_SCOPED)]);
    assert_found(&all, &[("forge/mr.go", 16, "mr-changes-endpoint")]);
    let lines: Vec<u64> = all.iter().map(|(_, l, _)| *l).collect();
    assert_eq!(lines, [16], "{all:?}");
}

/// A pydantic model of the merge request whose fields take four lines each: `merged_by` is
/// more than 80 lines below the `class` line.
fn pydantic_far() -> String {
    let mut s = String::from(
        "\"\"\"Response models of the GitLab REST API.\"\"\"\nfrom pydantic import BaseModel, Field\n\n\nclass MergeRequest(BaseModel):\n",
    );
    for i in 0..30 {
        s.push_str(&format!(
            "    field_{i}: str | None = Field(\n        default=None,\n        description=\"Field {i} of the merge request.\",\n    )\n"
        ));
    }
    s.push_str("    merged_by: User | None = Field(\n        default=None, description=\"Who merged it.\"\n    )\n");
    s
}

/// A file whose path names the platform and no other is the platform's, though its prose
/// names another platform ("the GitLab counterpart to GitHub's"); a file whose path names both
/// still needs the evidence near the field.
const RUNNER_MODELS: &str = r#""""Input models of the runners API."""
from pydantic import BaseModel


class RunnerModel(BaseModel):
    runner_id: int | None = None
    description: str | None = None
    active: bool | None = None
    paused: bool | None = None
"#;

fn prose_naming_another() -> String {
    let mut s = String::new();
    for i in 0..60 {
        s.push_str(&format!("# Note {i}: nothing of interest here.\n"));
    }
    s.push_str("# Dependency updates work like the GitHub counterpart.\n");
    s
}

#[test]
fn pydantic_fields_far_below_and_paths_naming_the_platform() {
    let own = format!("{RUNNER_MODELS}\n{}", prose_naming_another());
    let all = common::scan_files(&[
        ("gitlab_api/response_models.py", &pydantic_far()),
        ("gitlab_api/input_models.py", &own),
        ("bridge/github_gitlab_models.py", &own),
    ]);
    assert_found(
        &all,
        &[
            ("gitlab_api/response_models.py", 126, "mr-merged-by"),
            ("gitlab_api/input_models.py", 8, "runners-active-property"),
        ],
    );
    assert_silent(&all, "bridge/github_gitlab_models.py");
}

const JAVA_RUNNER: &str = r#"package org.acme.gitlab.model;

public class GitLabRunner {

    private Integer id;
    private Boolean active;
    @JsonProperty("is_shared")
    private Boolean shared;

    public Boolean getActive() {
        return active;
    }
}
"#;

const JAVA_MR: &str = r#"package org.acme.gitlab.model;

import com.fasterxml.jackson.annotation.JsonProperty;

public class GitLabMergeRequest {
    private Long iid;
    @JsonProperty("merge_status")
    private String status;
    @SerializedName("merged_by")
    private GitLabUser merger;
}
"#;

/// Look-alikes: the merge request webhook's payload and a pipeline schedule's `active`.
const JAVA_HOOK: &str = r#"package org.acme.gitlab.hooks;

public class MergeRequestWebhook {
    @JsonProperty("merge_status")
    private String mergeStatus;
}
"#;

const JAVA_SCHEDULE: &str = r#"package org.acme.gitlab.model;

public class GitLabPipelineSchedule {
    private Boolean active;
}
"#;

/// Java fields of the platform's resource, and the API's names in serialization annotations.
#[test]
fn java_fields_and_serialization_annotations() {
    let all = common::scan_files(&[
        (
            "src/main/java/org/acme/gitlab/model/GitLabRunner.java",
            JAVA_RUNNER,
        ),
        (
            "src/main/java/org/acme/gitlab/model/GitLabMergeRequest.java",
            JAVA_MR,
        ),
        (
            "src/main/java/org/acme/gitlab/hooks/MergeRequestWebhook.java",
            JAVA_HOOK,
        ),
        (
            "src/main/java/org/acme/gitlab/model/GitLabPipelineSchedule.java",
            JAVA_SCHEDULE,
        ),
    ]);
    assert_found(
        &all,
        &[
            (
                "src/main/java/org/acme/gitlab/model/GitLabRunner.java",
                6,
                "runners-active-property",
            ),
            (
                "src/main/java/org/acme/gitlab/model/GitLabMergeRequest.java",
                7,
                "mr-merge-status",
            ),
            (
                "src/main/java/org/acme/gitlab/model/GitLabMergeRequest.java",
                9,
                "mr-merged-by",
            ),
        ],
    );
    assert_silent(
        &all,
        "src/main/java/org/acme/gitlab/hooks/MergeRequestWebhook.java",
    );
    assert_silent(
        &all,
        "src/main/java/org/acme/gitlab/model/GitLabPipelineSchedule.java",
    );
}

const PY_READS: &str = r#""""Reads of the GitLab API for the review bot."""
from dataclasses import dataclass


def required_approvers(mr) -> int:
    approvals = mr.approvals.get()
    if hasattr(approvals, "approvers"):
        return len(approvals.approvers)
    settings = load_settings()
    return len(getattr(settings, "approvers", []))


@dataclass
class GitLabMergeRequest:
    iid: int
    mergeable: bool

    @classmethod
    def from_api(cls, data: dict) -> "GitLabMergeRequest":
        return cls(
            iid=data["iid"],
            mergeable=data.get("merge_status") == "can_be_merged",
        )


class ReviewReport:
    def row(self, data: dict) -> list:
        return [data.get("merge_status"), data.get("title")]


class MergeRequestWebhookHandler:
    def handle(self, payload: dict) -> None:
        attrs = payload["object_attributes"]
        self.status = attrs.get("merge_status")
"#;

/// Python's attribute read by name, and the API's dict read inside the resource's own model;
/// the same reads on an application's settings, report rows and a webhook's payload stay
/// silent.
#[test]
fn python_reads_by_name_and_inside_the_model() {
    let all = common::scan_files(&[("bot/gitlab_reads.py", PY_READS)]);
    assert_found(
        &all,
        &[
            ("bot/gitlab_reads.py", 7, "mr-approvals-approvers"),
            ("bot/gitlab_reads.py", 22, "mr-merge-status"),
        ],
    );
    for line in [10, 28, 34] {
        assert!(
            !all.iter().any(|(_, l, _)| *l == line),
            "look-alike at line {line} reported: {all:?}"
        );
    }
}

const TS_GENERATED: &str = r#"// Generated from a sample response.

export interface MergeRequest {
    id:                   number;
    iid:                  number;
    project_id:           number;
    title:                string;
    source_branch:        string;
    target_branch:        string;
    merged_by:            null;
    merge_user:           null;
    merge_status:         string;
    detailed_merge_status: string;
}
"#;

/// Look-alikes in files that name no platform: an application's own merge request (none of the
/// platform's keys) and a pull request.
const TS_OWN: &str = r#"export interface MergeRequest {
    id: number;
    title: string;
    merged_by: string;
    merge_status: "open" | "done";
}

export interface PullRequest {
    number: number;
    head: string;
    base: string;
    merged_by: string;
}
"#;

/// A TypeScript interface generated from the platform's response, in a file that names
/// nothing: its own keys (`iid`, `source_branch`, `target_branch`) say it is the merge request.
#[test]
fn typescript_interface_of_the_resources_shape() {
    let all = common::scan_files(&[
        ("src/service/types.d.ts", TS_GENERATED),
        ("src/model/own.ts", TS_OWN),
    ]);
    assert_found(
        &all,
        &[
            ("src/service/types.d.ts", 10, "mr-merged-by"),
            ("src/service/types.d.ts", 12, "mr-merge-status"),
        ],
    );
    assert_silent(&all, "src/model/own.ts");
}

const PHP_MOCK: &str = r#"<?php

namespace Acme\GitLab\Tests\Api;

final class MergeRequestsTest extends TestCase
{
    public function testChanges(): void
    {
        $api = $this->getApiMock();
        $api->expects($this->once())
            ->method('get')
            ->with('projects/7/merge_requests/3/changes')
            ->willReturn(['id' => 3]);
        $this->assertSame(['id' => 3], $api->changes(7, 3));
    }

    public function testUnrelated(): void
    {
        $log->method('get');
        $cache->remember('projects/7/merge_requests/3/changes');
    }
}
"#;

/// A fluent chain's method on a line of its own above the path (a PHPUnit mock's
/// `->method('get')` then `->with('projects/…/changes')`); a path in another statement than
/// the method's stays silent.
#[test]
fn fluent_chain_method_above_the_path() {
    let v = common::scan_report(
        &[("tests/Api/MergeRequestsTest.php", PHP_MOCK)],
        &["--tests", "include"],
    );
    let lines: Vec<(u64, String)> = common::finding_keys(&v)
        .into_iter()
        .map(|(_, l, i)| (l, i))
        .collect();
    assert_eq!(lines, [(12, "mr-changes-endpoint".to_string())], "{v}");
}
