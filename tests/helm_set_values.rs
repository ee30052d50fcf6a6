//! Chart values set one by one, by their path, as Helm's users write them: Terraform's `set` and
//! `set_sensitive` blocks of a `helm_release`, helmfile's `set:` list, the CLI's `--set` and
//! `--set-string`. The runner chart's registration values count where the same release sets
//! `runnerRegistrationToken` (the chart then registers with `gitlab-runner register`).
//! Fixtures written for this test, modelled on runner deployments.

mod common;

const TERRAFORM: &str = r#"resource "google_compute_instance" "builder" {
  name         = "builder"
  machine_type = "e2-standard-4"
  tags         = ["ci", "builder"]
}

resource "helm_release" "gitlab_runner" {
  name       = "gitlab-runner"
  repository = "https://charts.gitlab.io"
  chart      = "gitlab-runner"

  set_sensitive {
    name  = "runnerRegistrationToken"
    value = var.registration_token
  }

  set {
    name  = "runners.tags"
    value = "gcp\\,docker"
  }

  set {
    name  = "image.tag"
    value = "v17.0.0"
  }
}
"#;

const HELMFILE: &str = r#"releases:
  - name: gitlab-runner
    chart: gitlab/gitlab-runner
    set:
      - name: runnerRegistrationToken
        value: {{ requiredEnv "RUNNER_TOKEN" }}
      - name: runners.locked
        value: false
"#;

const SCRIPT: &str = r#"#!/bin/sh
set -eu
helm upgrade --install runner gitlab/gitlab-runner \
  --set gitlabUrl=https://gitlab.example.com/ \
  --set runnerRegistrationToken="$TOKEN" \
  --set image.tags=latest \
  --set-string runners.runUntagged=true
"#;

#[test]
fn registration_values_set_by_path() {
    let found = common::scan_files(&[
        ("infra/runner.tf", TERRAFORM),
        ("helmfile.yaml", HELMFILE),
        ("scripts/deploy-runner.sh", SCRIPT),
    ]);
    assert_eq!(
        common::findings_of(&found, "infra/runner.tf"),
        common::lines(&[
            (13, "helm-runner-registration-token"),
            (18, "runner-register-server-side-arguments")
        ]),
    );
    assert_eq!(
        common::findings_of(&found, "helmfile.yaml"),
        common::lines(&[
            (5, "helm-runner-registration-token"),
            (7, "runner-register-server-side-arguments")
        ]),
    );
    assert_eq!(
        common::findings_of(&found, "scripts/deploy-runner.sh"),
        common::lines(&[
            (5, "helm-runner-registration-token"),
            (7, "runner-register-server-side-arguments")
        ]),
    );
}
