//! The registration token put into a request body as its `token` where the body is built away
//! from the call that sends it: a dict filled in one method and handed to another that creates
//! the runner, a Terraform resource's `token` given the registration token, a JavaScript body.
//! Another system's runner token (a file naming GitHub), a `token` given anything else, and a
//! comparison are not. Fixtures written for these tests.

mod common;

const ID: &str = "runners-api-registration-token";

const MODULE: &str = r#"# Manage runners of a GitLab instance.
class RunnerManager:
    def create_or_update(self, description, options):
        arguments = {"locked": options["locked"]}
        if self.runner is None:
            arguments["description"] = description
            arguments["token"] = options["registration_token"]
            return self.create(arguments)
        if arguments.get("token") == options["registration_token"]:
            return None
        return self.update(arguments)

    def create(self, arguments):
        return self._gl.runners.create(arguments)
"#;

#[test]
fn the_registration_token_put_into_a_body_built_elsewhere_is_found() {
    let hcl = "# GitLab runner on the peripheral provider\nresource \"peripheral_gitlab_runner\" \"build\" {\n  url   = var.gitlab_url\n  token = var.runner_registration_token\n  image = \"gitlab/gitlab-runner:latest\"\n}\n";
    let js = "// Registers a GitLab runner.\nconst body = { description: 'ci', token: config.registrationToken };\nawait client.register(body);\n";
    let found = common::scan_files(&[
        ("plugins/modules/runner.py", MODULE),
        ("infra/runner.tf", hcl),
        ("src/register.js", js),
    ]);
    assert!(
        common::lines_of(&found, "plugins/modules/runner.py", ID).contains(&7),
        "{found:?}"
    );
    assert!(
        !common::lines_of(&found, "plugins/modules/runner.py", ID).contains(&9),
        "a comparison sends nothing: {found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "infra/runner.tf", ID),
        [4],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "src/register.js", ID),
        [2],
        "{found:?}"
    );
}

#[test]
fn another_systems_token_or_another_value_is_not() {
    let github = MODULE.replace("GitLab instance", "GitHub organisation");
    let other_value = MODULE.replace("options[\"registration_token\"]", "options[\"api_token\"]");
    let found = common::scan_files(&[
        ("github/runner.py", github.as_str()),
        ("plugins/modules/runner.py", other_value.as_str()),
    ]);
    assert!(
        common::lines_of(&found, "github/runner.py", ID).is_empty(),
        "{found:?}"
    );
    assert!(
        !common::lines_of(&found, "plugins/modules/runner.py", ID).contains(&7),
        "{found:?}"
    );
}
