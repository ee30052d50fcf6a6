//! A URL kept in a variable and posted a few lines on, with log lines between: the line above
//! that prints a string and the token (`log.Printf("token: " + registrationToken)`) is a
//! statement of its own, not the start of the URL's string (an expression goes on over a line
//! break only where an operator stands at the break), and a log line that prints the URL is
//! not the request: the call that shows a method is (`Post(url)`). Fixtures written for these
//! tests.

mod common;

const PROVIDER: &str = r#"package gitlabci

import (
	"log"

	"github.com/parnurzeal/gorequest"
)

// See the GitLab runners API: register a new runner.
func resourceRunnerCreate(baseURL, registrationToken string) (int, error) {
	log.Printf("[DEBUG] registering a runner with token: " + registrationToken)
	url := baseURL + "/runners"
	log.Printf("[DEBUG] registration url: " + url)
	req := gorequest.
		New().
		Post(url).
		Send("token=" + registrationToken)
	var out struct{ ID int }
	_, _, errs := req.EndStruct(&out)
	if len(errs) > 0 {
		return 0, errs[0]
	}
	return out.ID, nil
}
"#;

const API: &str = "runners-api-registration-token";

#[test]
fn a_url_posted_after_log_lines_is_found() {
    let found = common::scan_files(&[("gitlabci/resource_runner.go", PROVIDER)]);
    assert_eq!(
        common::lines_of(&found, "gitlabci/resource_runner.go", API),
        [12, 17],
        "{found:?}"
    );
}

#[test]
fn a_url_only_logged_is_no_request() {
    let logged = PROVIDER
        .replace("\treq := gorequest.\n\t\tNew().\n\t\tPost(url).\n\t\tSend(\"token=\" + registrationToken)\n", "")
        .replace("\t_, _, errs := req.EndStruct(&out)\n\tif len(errs) > 0 {\n\t\treturn 0, errs[0]\n\t}\n", "");
    assert!(!logged.contains("Post("), "{logged}");
    let found = common::scan_files(&[("gitlabci/resource_runner.go", logged.as_str())]);
    assert!(
        common::lines_of(&found, "gitlabci/resource_runner.go", API).is_empty(),
        "{found:?}"
    );
}
