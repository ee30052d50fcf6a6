//! Issue 35, helper "kc": forms the tune part of `tests/realworld/sampled-kc.yaml` showed
//! missing, each found at its line, and their look-alikes silent. The fixtures are written
//! here, modelled on (not copied from) the sampled files.

use std::collections::BTreeSet;

mod common;
use common::scan_files as scan;

const AFTER: &str = "ci-after-script-cancelled-jobs";

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
