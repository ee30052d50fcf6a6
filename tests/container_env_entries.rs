//! A container's environment entry (`- name: RUNNER_TAG_LIST` with `value: ${RUNNER_TAG_LIST}`
//! of a template parameter below it) is one setting: one finding, at its name. A webhook
//! struct named for the event's `objectAttributes` in lower camel case keeps `merge_status`
//! without a finding. Fixtures written for this test, modelled on OpenShift templates of the
//! runner and small webhook receivers.

mod common;

const TEMPLATE: &str = r#"apiVersion: template.openshift.io/v1
kind: Template
metadata:
  name: gitlab-runner
objects:
  - apiVersion: apps/v1
    kind: Deployment
    spec:
      template:
        spec:
          containers:
            - name: runner
              image: gitlab/gitlab-runner:latest
              env:
                - name: CI_SERVER_URL
                  value: https://${GITLAB_HOST}
                - name: RUNNER_TAG_LIST
                  value: ${RUNNER_TAG_LIST}
parameters:
  - name: GITLAB_HOST
"#;

const WEBHOOK: &str = r#"package main

const eventHeader = "X-Gitlab-Event"

// The merge request event's attributes, as the GitLab webhook sends them.
type objectAttributes struct {
	IID          int    `json:"iid"`
	TargetBranch string `json:"target_branch"`
	SourceBranch string `json:"source_branch"`
	MergeStatus  string `json:"merge_status"`
}
"#;

#[test]
fn one_container_env_entry_is_one_setting() {
    let found = common::scan_files(&[
        ("openshift/runner-template.yaml", TEMPLATE),
        ("cmd/trigger/main.go", WEBHOOK),
    ]);
    assert_eq!(
        common::findings_of(&found, "openshift/runner-template.yaml"),
        common::lines(&[(17, "runner-register-server-side-arguments")]),
    );
    common::assert_silent(&found, "cmd/trigger/main.go");
}
