//! A Go client's response type with the runner as a pointer to an anonymous struct
//! (`Runner *struct { Active *bool … }`, as code generators write it) holds the runner's
//! fields; a pipeline's anonymous struct of the same shape keeps its own `active`. Fixture
//! written for this test, modelled on clients generated from the platform's OpenAPI document.

mod common;

const JOB: &str = r#"package gitlab

import "time"

// GetJobResponse is the job as the GitLab API returns it.
type GetJobResponse struct {
	Id   *int32  `json:"id,omitempty"`
	Name *string `json:"name,omitempty"`
	// Runner API_Entities_Ci_Runner model
	Runner *struct {
		Active      *bool   `json:"active,omitempty"`
		Description *string `json:"description,omitempty"`
		IpAddress   *string `json:"ip_address,omitempty"`
		IsShared    *bool   `json:"is_shared,omitempty"`
	} `json:"runner,omitempty"`
	Schedule *struct {
		Active    *bool      `json:"active,omitempty"`
		NextRunAt *time.Time `json:"next_run_at,omitempty"`
	} `json:"schedule,omitempty"`
}
"#;

#[test]
fn a_pointer_to_an_anonymous_runner_struct_holds_the_runners_fields() {
    let found = common::scan_files(&[("pkg/gitlab/job.go", JOB)]);
    assert_eq!(
        common::findings_of(&found, "pkg/gitlab/job.go"),
        common::lines(&[(11, "runners-active-property"), (13, "runners-ip-address"),]),
    );
}
