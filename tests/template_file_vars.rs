//! Terraform's older way to render a runner's registering template: the `template_file` data
//! source, whose `vars` (written `vars = { … }`, or `vars { … }` before Terraform 0.12) hand the
//! template its variables. The registration token among them is a use, and so are `locked` and
//! `run_untagged` beside it; a template's other variables, and `locked` of a template that gets
//! no registration token, are not. Fixtures written for these tests.

mod common;

const EKS: &str = r#"# The GitLab runner of the CI node group.
data "template_file" "gitlab_runner" {
  template = file("${path.module}/templates/gitlab-runner-values.yaml")

  vars = {
    registration_token = local.gitlab_registration_token
    namespace          = kubernetes_namespace.ci.id
    locked             = false
    run_untagged       = true
  }
}

data "template_file" "cache_policy" {
  template = file("${path.module}/templates/cache-policy.json")

  vars = {
    bucket = aws_s3_bucket.gitlab_runner_cache.id
    locked = true
  }
}
"#;

const LEGACY: &str = r#"# GitLab runners on ECS
data "template_file" "gitlab_runner" {
  template = "${file("${path.module}/gitlab_runner.tpl")}"

  vars {
    app_image          = "${var.app_image}"
    registration_token = "${var.gitlab_registration_token}"
    app_region         = "${var.app_region}"
  }
}
"#;

#[test]
fn the_template_file_vars_that_register_a_runner_are_found() {
    let found = common::scan_files(&[("eks/gitlab-runner.tf", EKS), ("ecs/runner.tf", LEGACY)]);
    assert_eq!(
        common::lines_of(&found, "eks/gitlab-runner.tf", "runner-registration-token"),
        [6],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(
            &found,
            "eks/gitlab-runner.tf",
            "runner-register-server-side-arguments"
        ),
        [8, 9],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "ecs/runner.tf", "runner-registration-token"),
        [7],
        "{found:?}"
    );
}
