//! Issue 35, helper "kc": forms the tune part of `tests/realworld/sampled-kc.yaml` showed
//! missing, each found at its line, and their look-alikes silent. The fixtures are written
//! here, modelled on (not copied from) the sampled files.

use std::collections::BTreeSet;

mod common;
use common::scan_files as scan;

const AFTER: &str = "ci-after-script-cancelled-jobs";
const TOKEN: &str = "runner-registration-token";

fn hit(path: &str, line: u64, id: &str) -> (String, u64, String) {
    (path.to_string(), line, id.to_string())
}

fn found(files: &[(&str, &str)]) -> BTreeSet<(String, u64, String)> {
    scan(files).into_iter().collect()
}

/// A CI templates repository keeps its shared jobs in a `templates/` folder, the folder a Helm
/// chart keeps its templates in: a file of jobs there (a component's `spec: inputs:` header, a
/// hidden job with `script` and `after_script`, a `docker --format '{{.Id}}'` in its script)
/// is CI configuration by its shape, and its `after_script` is the entry's. A chart's template in the same kind of folder (Go template
/// actions, a ConfigMap whose data has `script` and `image` keys) stays a chart template.
#[test]
fn after_script_of_a_ci_template_kept_under_a_templates_folder() {
    let found = found(&[
        (
            "templates/publish/template.yml",
            "spec:\n  inputs:\n    stage:\n      default: publish\n---\n\n.publish:\n  stage: $[[ inputs.stage ]]\n  image: alpine:3.20\n  script:\n    - ./publish.sh\n  after_script:\n    - ID=$(docker image inspect app --format '{{.Id}}')\n    - ./cleanup.sh \"$ID\"\n",
        ),
        (
            "chart/templates/jobs.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-jobs\ndata:\n  script: |\n    echo run\n  image: {{ .Values.image }}\n  after_script: |\n    echo done\n",
        ),
    ]);
    assert!(
        found.contains(&hit("templates/publish/template.yml", 12, AFTER)),
        "after_script of the template job not found in {found:#?}"
    );
    let loud: Vec<_> = found
        .iter()
        .filter(|f| f.0 == "chart/templates/jobs.yaml")
        .collect();
    assert!(loud.is_empty(), "look-alikes reported: {loud:#?}");
}

/// A CI file named for the pipeline it belongs to (`.gitlab-ci-java-template.yml`,
/// `.gitlab-ci.release.yml`) is CI configuration whatever folder holds it; its `after_script`
/// is the entry's. A Travis file beside it keeps its own hooks to itself.
#[test]
fn after_script_in_a_file_named_for_the_gitlab_ci_pipeline() {
    let found = found(&[
        (
            "templates/.gitlab-ci-java-template.yml",
            "variables:\n  JAVA_OPTS: \"-Xmx512m\"\n\nunit:\n  stage: test\n  script:\n    - ./gradlew test\n  after_script:\n    - ./gradlew jacocoReport\n",
        ),
        (
            "ci/.gitlab-ci.release.yml",
            "release:\n  stage: deploy\n  script: [\"./release.sh\"]\n  after_script: [\"./notify.sh\"]\n",
        ),
        (
            "templates/.travis.yml",
            "language: java\nscript:\n  - ./gradlew test\nafter_script:\n  - ./report.sh\n",
        ),
    ]);
    for want in [
        hit("templates/.gitlab-ci-java-template.yml", 8, AFTER),
        hit("ci/.gitlab-ci.release.yml", 4, AFTER),
    ] {
        assert!(found.contains(&want), "{want:?} not found in {found:#?}");
    }
    let loud: Vec<_> = found
        .iter()
        .filter(|f| f.0 == "templates/.travis.yml")
        .collect();
    assert!(loud.is_empty(), "look-alikes reported: {loud:#?}");
}

/// The registration token of the runner role set in a deployment's Ansible variables
/// (`group_vars`, a playbook's `vars:`), the name saying whose token it is:
/// `gitlab_runner_registration_token: <value>`. The role's own reads of the variable (`when:`,
/// a Jinja expression) are no setting, and another CI's runner token stays silent.
#[test]
fn runner_registration_token_set_in_ansible_variables() {
    let found = found(&[
        (
            "ansible/group_vars/runners.yml",
            "---\nci_domain: ci.example.org\n\ngitlab_runner_coordinator_url: \"https://{{ ci_domain }}\"\ngitlab_runner_registration_token: \"{{ vault_runner_token }}\"\ngitlab_runner_concurrent: 4\n",
        ),
        (
            "ansible/roles/runner/tasks/main.yml",
            "- name: Register\n  ansible.builtin.include_tasks: register.yml\n  when: gitlab_runner_registration_token | length > 0\n",
        ),
        (
            "ansible/group_vars/forge.yml",
            "forgejo_runner_registration_token: abc123\ngithub_runner_registration_token: def456\n",
        ),
    ]);
    assert!(
        found.contains(&hit("ansible/group_vars/runners.yml", 5, TOKEN)),
        "the role variable set in group_vars not found in {found:#?}"
    );
    let loud: Vec<_> = found
        .iter()
        .filter(|f| f.0 != "ansible/group_vars/runners.yml")
        .collect();
    assert!(loud.is_empty(), "look-alikes reported: {loud:#?}");
}
