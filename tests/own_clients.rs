//! Clients of their own, without an SDK: a relative API path handed to a generic call
//! (TypeScript's `http.getJson<{ … }>(…)`, whose type arguments may span lines), a client's
//! methods named for the verb in camel case (`getJson`, `postJson`), Go's
//! `http.NewRequestWithContext`. Fixtures written for these tests, modelled on a dependency
//! updater's GitLab platform module and a runner manager's registration client.

mod common;
use common::{keys, scan_files as scan};

const PLATFORM_MODULE: &str = r#"import { GitlabHttp } from '../../util/http/gitlab';

const gitlabApi = new GitlabHttp();

export async function isMergeable(repository: string, iid: number): Promise<boolean> {
  const res = await gitlabApi.getJson<{
    merge_status?: string;
    detailed_merge_status?: string;
    head_pipeline: { status: string } | null;
  }>(`projects/${repository}/merge_requests/${iid}`, { memCache: false });
  return res.body.detailed_merge_status === 'mergeable';
}

export async function approvals(repository: string, iid: number) {
  return gitlabApi.postJson(`projects/${repository}/merge_requests/${iid}/approve`, {});
}
"#;

/// Another forge's module of the same updater: the same shape, another platform's path.
const OTHER_FORGE: &str = r#"import { GiteaHttp } from '../../util/http/gitea';

const giteaApi = new GiteaHttp();

export async function isMergeable(repository: string, index: number): Promise<boolean> {
  const res = await giteaApi.getJson<{
    merge_status?: string;
    mergeable: boolean;
  }>(`repos/${repository}/pulls/${index}`);
  return res.body.mergeable;
}
"#;

#[test]
fn a_relative_path_in_a_generic_call_shows_the_response_type() {
    assert_eq!(
        scan(&[
            ("lib/platform/gitlab/index.ts", PLATFORM_MODULE),
            ("lib/platform/gitea/index.ts", OTHER_FORGE),
        ]),
        keys(&[("lib/platform/gitlab/index.ts", 7, "mr-merge-status")]),
        "the response type's merge_status of the single merge request's GET, and nothing in \
         the other forge's module"
    );
}

const GO_REGISTRATION: &str = r#"package runner

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// GitlabAPI talks to the GitLab instance the runners register with.
type GitlabAPI struct {
	client   *http.Client
	basePath string
}

func (g GitlabAPI) register(ctx context.Context, token, name string) (*http.Response, error) {
	form := url.Values{}
	form.Add("token", token)
	form.Add("description", name)
	form.Add("tag_list", "docker,linux")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.basePath+"/runners", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	return g.client.Do(req)
}
"#;

/// A runner manager of another CI system with the same shape of call.
const GO_OTHER_RUNNERS: &str = r#"package fleet

import (
	"context"
	"net/http"
)

func list(ctx context.Context, c *http.Client, base string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/runners", nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}
"#;

#[test]
fn go_requests_with_a_context_are_requests() {
    assert_eq!(
        scan(&[
            ("runner/gitlab.go", GO_REGISTRATION),
            ("fleet/list.go", GO_OTHER_RUNNERS),
        ]),
        keys(&[
            ("runner/gitlab.go", 18, "runners-api-registration-token"),
            ("runner/gitlab.go", 20, "runners-api-registration-token"),
            ("runner/gitlab.go", 21, "runners-api-registration-token"),
        ]),
        "POST /runners through http.NewRequestWithContext in a GitLab client, with the form \
         built before it; nothing in a file that does not name the platform"
    );
}

const PY_REGISTRATION: &str = r#"import requests

GITLAB_URL = "https://gitlab.example.com/api/v4"


def register(token, tags):
    unused = {"token": "not sent"}
    payload = {
        "token": token,
        "description": "autoscaled",
        "tag_list": ",".join(tags),
    }
    session = requests.Session()
    oauth = {"token": session.headers.get("Authorization")}
    session.post(f"{GITLAB_URL}/oauth/revoke", data=oauth)
    resp = requests.post(f"{GITLAB_URL}/runners", data=payload, timeout=30)
    resp.raise_for_status()
    return resp.json()["token"]
"#;

#[test]
fn a_body_built_before_the_request_is_sent_with_it() {
    assert_eq!(
        scan(&[("tools/register.py", PY_REGISTRATION)]),
        keys(&[
            ("tools/register.py", 9, "runners-api-registration-token"),
            ("tools/register.py", 11, "runners-api-registration-token"),
            ("tools/register.py", 16, "runners-api-registration-token"),
        ]),
        "the payload's keys, not those of a dict the request is not given"
    );
}

const GO_SDK_OPTIONS: &str = r#"package gitlab

import "net/http"

// RegisterRunnerOptions are the arguments of RegisterRunner.
type RegisterRunnerOptions struct {
	Token       *string   `url:"token" json:"token"`
	Description *string   `url:"description,omitempty" json:"description,omitempty"`
	TagList     *[]string `url:"tag_list[],omitempty" json:"tag_list,omitempty"`
}

// ListRunnersOptions are the arguments of ListRunners.
type ListRunnersOptions struct {
	TagList *[]string `url:"tag_list,comma,omitempty" json:"tag_list,omitempty"`
}

// RegisterRunner registers a runner with a registration token.
func (s *RunnersService) RegisterRunner(opt *RegisterRunnerOptions, options ...RequestOptionFunc) (*Runner, *Response, error) {
	req, err := s.client.NewRequest(http.MethodPost, "runners", opt, options)
	if err != nil {
		return nil, nil, err
	}
	r := new(Runner)
	resp, err := s.client.Do(req, r)
	return r, resp, err
}

// ListRunners lists the runners the user sees.
func (s *RunnersService) ListRunners(opt *ListRunnersOptions, options ...RequestOptionFunc) ([]*Runner, *Response, error) {
	req, err := s.client.NewRequest(http.MethodGet, "runners", opt, options)
	if err != nil {
		return nil, nil, err
	}
	var rs []*Runner
	resp, err := s.client.Do(req, &rs)
	return rs, resp, err
}
"#;

#[test]
fn an_options_parameter_sends_its_types_fields() {
    assert_eq!(
        scan(&[("runners.go", GO_SDK_OPTIONS)]),
        keys(&[
            ("runners.go", 7, "runners-api-registration-token"),
            ("runners.go", 9, "runners-api-registration-token"),
            ("runners.go", 19, "runners-api-registration-token"),
        ]),
        "the register options' token and tag_list (one finding per field, not per tag), not \
         the list options' tag_list"
    );
}

const PHP_CLIENT_TEST: &str = r#"<?php

namespace Gitlab\Tests\Api;

final class MergeRequestsTest extends TestCase
{
    public function testChanges(): void
    {
        $api = $this->getApiMock();
        $api->expects($this->once())
            ->method('get')
            ->with('projects/1/merge_requests/2/changes')
            ->willReturn(['id' => 1]);
        $this->assertSame(['id' => 1], $api->changes(1, 2));
    }

    public function testTitle(): void
    {
        $api = $this->getApiMock();
        $api->expects($this->once())
            ->method('get')
            ->with('projects/1/merge_requests/2/title')
            ->willReturn('x');
    }
}
"#;

#[test]
fn a_method_on_a_line_above_in_the_chain_is_the_calls() {
    assert_eq!(
        scan(&[("tests/Api/MergeRequestsTest.php", PHP_CLIENT_TEST)]),
        keys(&[("tests/Api/MergeRequestsTest.php", 12, "mr-changes-endpoint")]),
        "the mock's expected GET of the changes path, whose method is two lines above"
    );
}
