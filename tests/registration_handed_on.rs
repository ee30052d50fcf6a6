//! The registration token and its arguments handed on where they are not written beside the
//! call: a Terraform map of a template's variables kept in a local and handed to
//! `templatefile()` by its name; a Go request whose URL is a base with `/runners` appended,
//! assigned to a variable and posted a few lines on by a builder chain that sends `token=`;
//! Go's `http.PostForm` with a form filled by `form.Set("token", …)`. Another system's
//! runners (a file that does not name the platform), a list request (GET) and a map that hands
//! no registration token are not. Fixtures written for these tests.

mod common;

const TOKEN: &str = "runner-registration-token";
const ARGUMENTS: &str = "runner-register-server-side-arguments";
const API: &str = "runners-api-registration-token";

const LOCALS: &str = r#"locals {
  # Variables of the GitLab runner manager's service template.
  manager_vars = {
    gitlab_url         = var.gitlab_url
    registration_token = var.registration_token
    runner_name        = var.name
    locked             = var.runner.lock_to_project
    run_untagged       = var.runner.run_untagged
  }
  manager_rendered = templatefile("${path.module}/templates/manager.sh.tpl", local.manager_vars)

  cache_vars = {
    bucket = var.bucket
    locked = true
  }
  cache_rendered = templatefile("${path.module}/templates/cache.toml.tpl", local.cache_vars)
}
"#;

#[test]
fn a_local_map_handed_to_a_template_by_name_hands_it_the_registration() {
    let found = common::scan_files(&[("modules/runner/templates.tf", LOCALS)]);
    let path = "modules/runner/templates.tf";
    assert_eq!(common::lines_of(&found, path, TOKEN), [5], "{found:?}");
    // `locked` of the cache's map: that template is handed no registration token.
    assert_eq!(
        common::lines_of(&found, path, ARGUMENTS),
        [7, 8],
        "{found:?}"
    );
}

#[test]
fn a_map_handed_to_no_template_is_no_template_variables() {
    let text = LOCALS.replace("templatefile(", "jsonencode(");
    let found = common::scan_files(&[("modules/runner/templates.tf", text.as_str())]);
    let path = "modules/runner/templates.tf";
    assert!(
        common::lines_of(&found, path, ARGUMENTS).is_empty(),
        "{found:?}"
    );
}

const GO_CHAIN: &str = r#"package gitlabci

// Registers a runner with the GitLab instance behind baseURL.
func registerRunner(baseURL, registrationToken string) (int, error) {
	url := baseURL + "/runners"
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

const GO_FORM: &str = r#"package main

// registerWithGitLab posts the form of the runners API.
func registerWithGitLab(host, tok string) (*http.Response, error) {
	form := url.Values{}
	form.Set("description", "ci-runner")
	form.Set("token", tok)
	return http.PostForm(host+"/api/v4/runners", form)
}
"#;

#[test]
fn a_request_built_from_a_base_and_posted_a_few_lines_on_is_found() {
    let found = common::scan_files(&[
        ("gitlabci/resource_runner.go", GO_CHAIN),
        ("cmd/register.go", GO_FORM),
    ]);
    assert_eq!(
        common::lines_of(&found, "gitlabci/resource_runner.go", API),
        [5, 9],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "cmd/register.go", API),
        [7, 8],
        "{found:?}"
    );
}

#[test]
fn another_systems_runners_and_a_list_request_are_not_registration() {
    let other = GO_CHAIN
        .replace("the GitLab instance", "the CI service")
        .replace("gitlabci", "ciservice");
    let listing = GO_CHAIN.replace("Post(url)", "Get(url)").replace(
        "Send(\"token=\" + registrationToken)",
        "Query(\"per_page=100\")",
    );
    let found = common::scan_files(&[
        ("ciservice/resource_runner.go", other.as_str()),
        ("gitlabci/list_runners.go", listing.as_str()),
    ]);
    assert!(
        common::lines_of(&found, "ciservice/resource_runner.go", API).is_empty(),
        "{found:?}"
    );
    assert!(
        common::lines_of(&found, "gitlabci/list_runners.go", API).is_empty(),
        "{found:?}"
    );
}

#[test]
fn a_runner_modules_inputs_beside_its_registration_token_are_found() {
    let found = common::scan_files(&[
        (
            "deploy/runner.tf",
            "module \"ci_runner\" {\n  source                    = \"DeimosCloud/gitlab-runner/kubernetes\"\n  release_name              = \"ci-runner\"\n  runner_registration_token = var.runner_token\n  runner_tags               = \"k8s,build\"\n  runner_locked             = false\n  run_untagged_jobs         = true\n}\n",
        ),
        (
            "envs/prod/runner.tf",
            "module \"spot_runner\" {\n  source = \"aleks-fofanov/runner-aws-spot/gitlab\"\n\n  registration_token_ssm_param = \"/ci/prod/registration_token\"\n\n  runner = {\n    concurrent      = 4\n    run_untagged    = false\n    lock_to_project = true\n  }\n}\n",
        ),
        // Inputs of the same names without a registration token: another module's.
        (
            "deploy/other.tf",
            "module \"build_agents\" {\n  source            = \"./modules/agents\"\n  runner_tags       = \"build\"\n  runner_locked     = false\n  run_untagged_jobs = true\n}\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, "deploy/runner.tf", TOKEN),
        [4],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "deploy/runner.tf", ARGUMENTS),
        [5, 6, 7],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "envs/prod/runner.tf", TOKEN),
        [4],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "envs/prod/runner.tf", ARGUMENTS),
        [8, 9],
        "{found:?}"
    );
    assert!(
        common::lines_of(&found, "deploy/other.tf", ARGUMENTS).is_empty(),
        "{found:?}"
    );
}
