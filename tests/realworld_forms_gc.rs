//! The CI and registration forms that the CI/registration sample
//! (`tests/realworld/sampled-gc.yaml`, its tune part) showed missing, each found at its line and
//! its look-alike silent. The files are written for this test, modelled on (not copied from) the
//! public files of that corpus: GitLab CI templates that other projects include, kept in a
//! templates repository under names that say nothing (`docker.yml`, `python/test.yml`,
//! `ci/custom.yml`, a `default:`-only file); a Terraform user-data template named `*.tpl` outside
//! a chart's `templates/` folder, whose long `gitlab-runner register` command ends with server-side
//! flags; and an env file named for the runner (`gitlab-runner.env`) that holds only the
//! registration token.

mod common;
use common::{assert_found, assert_silent, scan_files};

/// A job template of a CI templates repository: a hidden job and a job with `after_script`.
const CI_TEMPLATE_JOBS: &str = r#"# Shared Docker build jobs; include with
#   include: { project: group/ci-templates, file: docker.yml }
variables:
  DOCKER_TLS_CERTDIR: "/certs"

.docker:login:
  image: docker:27
  services:
    - docker:27-dind
  before_script:
    - docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" "$CI_REGISTRY"
  after_script:
    - docker logout "$CI_REGISTRY"

build:image:
  extends: .docker:login
  stage: build
  script:
    - docker build -t "$CI_REGISTRY_IMAGE:$CI_COMMIT_SHA" .
"#;

/// A project's own CI file beside the included template, with only `extends` and `stage`.
const CI_CUSTOM_JOB: &str = r#"include:
  - project: "group/ci-templates"
    file: "templates/java.yml"

verify:
  extends:
    - .java:base
  stage: verify
  after_script:
    - echo "custom after_script steps"
"#;

/// A template that sets only the defaults of every job.
const CI_DEFAULTS_ONLY: &str = "variables:\n  NOTE: this template is deprecated\n\ndefault:\n  before_script: echo \"$NOTE\"\n  after_script: echo \"$NOTE\"\n";

/// Look-alike: Travis CI's top-level `after_script` (Travis's own hook) in a YAML file of
/// another name.
const TRAVIS: &str = "language: python\nscript:\n  - pytest\nafter_script:\n  - coveralls\n";

#[test]
fn ci_templates_named_for_nothing_are_read_as_ci() {
    let all = scan_files(&[
        ("docker.yml", CI_TEMPLATE_JOBS),
        ("ci/custom.yml", CI_CUSTOM_JOB),
        ("deprecation.yml", CI_DEFAULTS_ONLY),
        ("ci/travis-python.yml", TRAVIS),
    ]);
    assert_found(
        &all,
        &[
            ("docker.yml", 12, "ci-after-script-cancelled-jobs"),
            ("ci/custom.yml", 9, "ci-after-script-cancelled-jobs"),
            ("deprecation.yml", 6, "ci-after-script-cancelled-jobs"),
        ],
    );
    assert_silent(&all, "ci/travis-python.yml");
}

/// Terraform user data kept as `template/runner.tpl` (no `#!` line), rendered by `templatefile`.
const USER_DATA_TPL: &str = r#"mkdir -p /etc/gitlab-runner
yum install -y gitlab-runner-${runner_version}

gitlab-runner register \
  --non-interactive \
  --name "${runner_name}" \
  --url "${gitlab_url}" \
  --registration-token "${registration_token}" \
  --executor "docker+machine" \
  --docker-image "${image}" \
  --machine-idle-nodes "${idle_count}" \
  --machine-machine-options "amazonec2-region=${region}" \
  --run-untagged \
  --locked="false" \
  --tag-list "aws, ${tags}"

service gitlab-runner restart
"#;

/// The same name in a chart's `templates/` folder is a chart helper, not shell.
const CHART_HELPER: &str =
    "{{- define \"runner.name\" -}}\n--locked={{ .Values.locked }}\n{{- end -}}\n";

#[test]
fn a_terraform_tpl_outside_chart_templates_is_a_script() {
    let all = scan_files(&[
        ("template/runner.tpl", USER_DATA_TPL),
        ("chart/templates/_helpers.tpl", CHART_HELPER),
    ]);
    assert_found(
        &all,
        &[
            ("template/runner.tpl", 8, "runner-registration-token"),
            (
                "template/runner.tpl",
                13,
                "runner-register-server-side-arguments",
            ),
            (
                "template/runner.tpl",
                14,
                "runner-register-server-side-arguments",
            ),
            (
                "template/runner.tpl",
                15,
                "runner-register-server-side-arguments",
            ),
        ],
    );
    assert_silent(&all, "chart/templates/_helpers.tpl");
}

#[test]
fn an_env_file_named_for_the_runner_holds_its_settings() {
    // No trailing newline, no CI_SERVER_URL: the file's name says which program reads it.
    let all = scan_files(&[
        ("gitlab-runner.env", "REGISTRATION_TOKEN=XXXXXXXX"),
        ("actions-runner.env", "REGISTRATION_TOKEN=XXXXXXXX"),
        ("app.env", "REGISTRATION_TOKEN=XXXXXXXX\n"),
    ]);
    assert_found(
        &all,
        &[("gitlab-runner.env", 1, "runner-registration-token")],
    );
    assert_silent(&all, "actions-runner.env");
    assert_silent(&all, "app.env");
}
