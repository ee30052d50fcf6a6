//! A REST path built by a path-joining call, segment by segment (`url.JoinPath`, `urlJoin`,
//! `path.Join`), is read as the path it builds, whether the segments carry their slashes or
//! not. Fixtures written for this test, modelled on small API clients of their own.

mod common;

const GO_CLIENT: &str = r#"package gitlab

import (
	"net/http"
	"net/url"
	"strconv"
)

// Changes of a merge request.
func (c *Client) Changes(project, iid int) (*http.Response, error) {
	u, err := url.JoinPath(c.base, "api/v4/projects", strconv.Itoa(project), "merge_requests", strconv.Itoa(iid), "changes")
	if err != nil {
		return nil, err
	}
	return c.http.Get(u)
}

// Files of the repository: another path of the same client.
func (c *Client) Tree(project int) (*http.Response, error) {
	u, _ := url.JoinPath(c.base, "api/v4/projects", strconv.Itoa(project), "repository", "tree")
	return c.http.Get(u)
}
"#;

const TS_RELEASE: &str = r#"import got from "got";
import urlJoin from "url-join";

const API = "https://gitlab.example.com/api/v4";

export async function release(projectId: string, tag: string) {
  const endpoint = urlJoin(API, `/projects/${projectId}`, "releases");
  const json = {
    tag_name: tag,
    assets: { links: [{ name: "binary", url: "https://example.com/b", filepath: "/bin/b" }] },
  };
  await got.post(endpoint, { json });
}

// Another call's arguments are not joined into a path.
export function note(projectId: string) {
  console.log("/projects/", projectId, "releases");
}
"#;

#[test]
fn paths_joined_segment_by_segment_are_read() {
    let found = common::scan_files(&[
        ("internal/gitlab/client.go", GO_CLIENT),
        ("src/release.ts", TS_RELEASE),
    ]);
    assert_eq!(
        common::findings_of(&found, "internal/gitlab/client.go"),
        common::lines(&[(11, "mr-changes-endpoint")]),
    );
    assert_eq!(
        common::findings_of(&found, "src/release.ts"),
        common::lines(&[(10, "release-links-filepath")]),
    );
}
