//! Issue 35, configuration side: the forms of "Why" that configuration and infrastructure
//! files write, each found at its line, and their look-alikes silent. The fixtures are written
//! here, modelled on the sampled public files of `tests/realworld/sampled-cfg.yaml` (runner
//! image environments in Dockerfiles, ECS definitions and user data; a runner operator's custom
//! resource; chart values set from jsonnet, Salt and Terraform; Ansible and HCL argument lists).

use std::collections::BTreeSet;

mod common;
use common::scan_files as scan;

const TOKEN: &str = "runner-registration-token";
const ARGS: &str = "runner-register-server-side-arguments";

fn hit(path: &str, line: u64, id: &str) -> (String, u64, String) {
    (path.to_string(), line, id.to_string())
}

/// Every expected finding is there, and nothing is found in `silent` files.
fn assert_found(found: &BTreeSet<(String, u64, String)>, expected: &[(&str, u64, &str)]) {
    for (path, line, id) in expected {
        assert!(
            found.contains(&hit(path, *line, id)),
            "{path}:{line} {id} not found in {found:#?}"
        );
    }
}

fn assert_silent(found: &BTreeSet<(String, u64, String)>, paths: &[&str]) {
    let loud: Vec<_> = found
        .iter()
        .filter(|f| paths.contains(&f.0.as_str()))
        .collect();
    assert!(loud.is_empty(), "look-alikes reported: {loud:#?}");
}

#[test]
fn runner_image_environment_in_env_compose_kubernetes_cloud_init_and_user_data() {
    let found = scan(&[
        (
            "runner.env",
            "CI_SERVER_URL=https://gitlab.example.org\nREGISTRATION_TOKEN=GR13489xyz\nRUNNER_TAG_LIST=docker\nREGISTER_LOCKED=false\nREGISTER_RUN_UNTAGGED=true\nREGISTER_ACCESS_LEVEL=not_protected\nREGISTER_MAXIMUM_TIMEOUT=600\nREGISTER_PAUSED=false\nREGISTER_MAINTENANCE_NOTE=ops\n",
        ),
        (
            "compose.yaml",
            "services:\n  ci-runner:\n    image: gitlab/gitlab-runner:v16.11.0\n    environment:\n      CI_SERVER_URL: https://gitlab.example.org\n      REGISTRATION_TOKEN: ${REG_TOKEN}\n      REGISTER_RUN_UNTAGGED: \"false\"\n",
        ),
        (
            "deploy/runner.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ci-runner\nspec:\n  template:\n    spec:\n      containers:\n        - name: runner\n          image: gitlab/gitlab-runner:alpine\n          env:\n            - name: REGISTRATION_TOKEN\n              valueFrom:\n                secretKeyRef: {name: ci-runner, key: token}\n            - name: RUNNER_TAG_LIST\n              value: k8s\n",
        ),
        (
            "cloud-init.yaml",
            "#cloud-config\nruncmd:\n  - docker run -d -e REGISTER_LOCKED=false -e REGISTRATION_TOKEN=GR13489xyz gitlab/gitlab-runner\n",
        ),
        (
            "infra/ec2.tf",
            "resource \"aws_instance\" \"ci\" {\n  ami       = var.ami\n  user_data = <<-EOT\n    #!/bin/bash\n    export RUNNER_TAG_LIST=ec2\n    export REGISTRATION_TOKEN=${var.reg_token}\n    gitlab-runner register --non-interactive --url https://gitlab.example.org\n  EOT\n}\n",
        ),
    ]);
    assert_found(
        &found,
        &[
            ("runner.env", 2, TOKEN),
            ("runner.env", 3, ARGS),
            ("runner.env", 4, ARGS),
            ("runner.env", 5, ARGS),
            ("runner.env", 6, ARGS),
            ("runner.env", 7, ARGS),
            ("runner.env", 8, ARGS),
            ("runner.env", 9, ARGS),
            ("compose.yaml", 6, TOKEN),
            ("compose.yaml", 7, ARGS),
            ("deploy/runner.yaml", 12, TOKEN),
            ("deploy/runner.yaml", 15, ARGS),
            ("cloud-init.yaml", 3, TOKEN),
            ("cloud-init.yaml", 3, ARGS),
            ("infra/ec2.tf", 5, ARGS),
            ("infra/ec2.tf", 6, TOKEN),
        ],
    );
}

#[test]
fn gitlab_image_variable_that_seeds_the_shared_runner_registration_token() {
    // A new written form of an existing item, added as a data line only.
    let found = scan(&[
        (
            "ecs/gitlab.tf",
            "resource \"aws_ecs_task_definition\" \"gitlab\" {\n  container_definitions = <<-EOF\n    [{\"name\": \"gitlab\", \"image\": \"gitlab/gitlab-ce:latest\",\n      \"environment\": [\n        {\"name\": \"GITLAB_SHARED_RUNNERS_REGISTRATION_TOKEN\", \"value\": \"${random_string.t.result}\"}\n      ]}]\n  EOF\n}\n",
        ),
        (
            "start.sh",
            "docker run -d --env GITLAB_SHARED_RUNNERS_REGISTRATION_TOKEN=\"$TOKEN\" gitlab/gitlab-ce\n",
        ),
        // Longer names are other words.
        (
            "other.env",
            "MY_GITLAB_SHARED_RUNNERS_REGISTRATION_TOKEN_FILE=/x\n",
        ),
    ]);
    assert_found(
        &found,
        &[("ecs/gitlab.tf", 5, TOKEN), ("start.sh", 1, TOKEN)],
    );
    assert_silent(&found, &["other.env"]);
}

#[test]
fn runner_operator_custom_resource_with_registration_token_and_tag_list() {
    let found = scan(&[
        (
            "k8s/runner.yaml",
            "apiVersion: gitlab.k8s.alekc.dev/v1beta1\nkind: Runner\nmetadata:\n  name: builds\nspec:\n  registration_config:\n    token: \"GR13489xyz\"\n    tag_list:\n      - builds\n",
        ),
        // The operator's new flow: an access token creates the runner (POST /user/runners).
        (
            "k8s/runner-new.yaml",
            "apiVersion: gitlab.k8s.alekc.dev/v1beta2\nkind: Runner\nmetadata:\n  name: builds\nspec:\n  authentication:\n    access_token: \"glpat-x\"\n    create_options:\n      run_untagged: true\n      tag_list:\n        - builds\n",
        ),
        // Another system's registration_config.
        (
            "device.yaml",
            "registration_config:\n  token: abc\n  tag_list: [a]\n",
        ),
    ]);
    assert_found(
        &found,
        &[("k8s/runner.yaml", 7, TOKEN), ("k8s/runner.yaml", 8, ARGS)],
    );
    assert_silent(&found, &["k8s/runner-new.yaml", "device.yaml"]);
}

#[test]
fn chart_values_from_jsonnet_salt_and_terraform_set_blocks() {
    let found = scan(&[
        (
            "lib/runner.libsonnet",
            "{\n  values: {\n    gitlabUrl: 'https://gitlab.example.org',\n    runnerRegistrationToken: std.extVar('token'),\n  },\n}\n",
        ),
        (
            "salt/runner/init.sls",
            "ci-runner:\n  helm.release_present:\n    - chart: gitlab/gitlab-runner\n    - values:\n        runnerRegistrationToken: {{ pillar['ci']['token'] }}\n",
        ),
        (
            "helm.tf",
            "resource \"helm_release\" \"runner\" {\n  chart = \"gitlab-runner\"\n  set_sensitive {\n    name  = \"runnerRegistrationToken\"\n    value = var.token\n  }\n}\n",
        ),
    ]);
    let chart = "helm-runner-registration-token";
    assert_found(
        &found,
        &[
            ("lib/runner.libsonnet", 4, chart),
            ("salt/runner/init.sls", 5, chart),
            ("helm.tf", 4, chart),
        ],
    );
}

#[test]
fn runner_registration_token_as_a_secret_key() {
    let found = scan(&[
        (
            "secret.yaml",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: gitlab-runner\ntype: Opaque\nstringData:\n  runner-registration-token: \"GR13489xyz\"\n  runner-token: \"\"\n",
        ),
        (
            "runner.jsonnet",
            "{\n  secret: {\n    data_:: {\n      \"runner-registration-token\": error 'set me',\n    },\n  },\n}\n",
        ),
    ]);
    assert_found(
        &found,
        &[("secret.yaml", 7, TOKEN), ("runner.jsonnet", 4, TOKEN)],
    );
}

#[test]
fn runner_registration_token_of_github_runners_stays_silent() {
    let found = scan(&[
        (
            "install-runner.sh",
            "#!/bin/bash\n[ \"$#\" -eq 1 ] || { echo \"Usage: install-runner.sh <runner-registration-token>\"; exit 1; }\ncd actions-runner && ./config.sh --url https://github.com/org/repo --token \"$1\"\n",
        ),
        (
            "payload.go",
            "package p\n\n// The github-runner configure step.\nconst script = `TOKEN=$(curl -s \"${METADATA_URL}/runner-registration-token/\")`\n",
        ),
    ]);
    assert_silent(&found, &["install-runner.sh", "payload.go"]);
}

#[test]
fn chart_registration_values_where_the_chart_registers_with_a_registration_token() {
    let found = scan(&[
        (
            "values.yaml",
            "gitlabUrl: https://gitlab.example.org\nrunnerRegistrationToken: \"GR13489xyz\"\nrunners:\n  tags: \"docker,linux\"\n  runUntagged: false\n  locked: true\n  maximumTimeout: 3600\n  protected: true\n",
        ),
        // The new flow: runnerToken; the registration token only commented out.
        (
            "new/values.yaml",
            "# runnerRegistrationToken: \"\"\nrunnerToken: \"glrt-x\"\nrunners:\n  tags: \"docker\"\n  runUntagged: true\n  locked: false\n",
        ),
    ]);
    assert_found(
        &found,
        &[
            ("values.yaml", 2, "helm-runner-registration-token"),
            ("values.yaml", 4, ARGS),
            ("values.yaml", 5, ARGS),
            ("values.yaml", 6, ARGS),
            ("values.yaml", 7, ARGS),
            ("values.yaml", 8, ARGS),
        ],
    );
    assert_silent(&found, &["new/values.yaml"]);
}

#[test]
fn metric_names_in_another_tools_mapping() {
    let found = scan(&[
        (
            "exporter/mapping.yml",
            "mappings:\n  geo_repositories_synced: geo_repos_synced_total\n  geo_repositories_checksum_mismatch: geo_repos_mismatch\n",
        ),
        (
            "collector/metrics.py",
            "RENAMES = {\n    \"geo_repositories_verified\": \"repos_verified\",\n}\n",
        ),
        (
            "exporter/new.yml",
            "mappings:\n  geo_project_repositories_synced: synced\n",
        ),
        // A monitoring integration's table of the metrics it collects (modelled on an agent
        // check's metadata.csv), and a table that names only the replacement.
        (
            "integration/metadata.csv",
            "metric_name,metric_type,interval,unit_name,description\ngitlab.geo_repositories,gauge,,,Repositories on the primary\ngitlab.geo_repositories_failed,gauge,,,Repositories that failed to sync\n",
        ),
        (
            "integration/new.csv",
            "metric_name,metric_type\ngitlab.geo_project_repositories_failed,gauge\n",
        ),
    ]);
    assert_found(
        &found,
        &[
            (
                "integration/metadata.csv",
                3,
                "geo-legacy-repository-metrics",
            ),
            ("exporter/mapping.yml", 2, "geo-legacy-repository-metrics"),
            (
                "exporter/mapping.yml",
                3,
                "geo-repository-metrics-without-replacement",
            ),
            ("collector/metrics.py", 2, "geo-legacy-repository-metrics"),
        ],
    );
    assert_silent(&found, &["exporter/new.yml", "integration/new.csv"]);
    let in_table: Vec<_> = found
        .iter()
        .filter(|(p, ..)| p == "integration/metadata.csv")
        .collect();
    assert_eq!(in_table.len(), 1, "{in_table:?}");
}

#[test]
fn ci_include_of_the_auto_test_template() {
    let found = scan(&[
        (
            ".gitlab-ci.yml",
            "include:\n  - template: Jobs/Build.gitlab-ci.yml\n  - template: Jobs/Test.gitlab-ci.yml\nstages: [build, test]\n",
        ),
        (
            "other/.gitlab-ci.yml",
            "# Auto Test (Jobs/Test.gitlab-ci.yml) was removed: we build only.\ninclude:\n  - template: Jobs/Build.gitlab-ci.yml\n",
        ),
    ]);
    assert_found(
        &found,
        &[(".gitlab-ci.yml", 3, "auto-devops-herokuish-auto-test")],
    );
    assert_silent(&found, &["other/.gitlab-ci.yml"]);
}

#[test]
fn after_script_in_an_included_ci_file_with_an_unusual_name() {
    let found = scan(&[
        (
            ".gitlab-ci.yml",
            "include:\n  - local: pipeline/steps-and-cleanup.yaml\nstages: [test]\n",
        ),
        (
            "pipeline/steps-and-cleanup.yaml",
            "unit:\n  stage: test\n  script:\n    - make test\n  after_script:\n    - make clean\n",
        ),
        // Travis CI's after_script.
        (
            ".travis.yml",
            "language: python\nscript: pytest\nafter_script:\n  - echo done\n",
        ),
    ]);
    assert_found(
        &found,
        &[(
            "pipeline/steps-and-cleanup.yaml",
            5,
            "ci-after-script-cancelled-jobs",
        )],
    );
    assert_silent(&found, &[".travis.yml"]);
}

#[test]
fn database_yml_that_declares_only_main() {
    let found = scan(&[
        (
            "config/database.yml",
            "production:\n  main:\n    adapter: postgresql\n    database: gitlabhq_production\n",
        ),
        (
            "two/config/database.yml",
            "production:\n  main:\n    adapter: postgresql\n    database: gitlabhq_production\n  ci:\n    adapter: postgresql\n    database: gitlabhq_production_ci\n",
        ),
    ]);
    assert_found(
        &found,
        &[("config/database.yml", 2, "single-database-connection")],
    );
    assert_silent(&found, &["two/config/database.yml"]);
}

#[test]
fn register_flags_as_quoted_arguments_with_their_values() {
    let found = scan(&[
        (
            "runner/locals.tf",
            "locals {\n  register_args = join(\" \", [\n    \"--non-interactive\",\n    \"--tag-list ${join(\",\", var.tags)}\",\n    \"--locked=${var.locked}\",\n    \"--description is what the UI shows\",\n  ])\n  register = \"gitlab-runner register ${local.register_args}\"\n}\n",
        ),
        (
            "src/user-data.ts",
            "export const lines = (p: Props) => [\n  `gitlab-runner register --url ${p.url} \\\n  ${p.modern ? '' : `--tag-list \"${p.tags.join(',')}\" `} --executor docker`,\n];\n",
        ),
        (
            "register.sh",
            "#!/bin/sh\ngitlab-runner register --non-interactive \"--locked=false\"\n",
        ),
    ]);
    assert_found(
        &found,
        &[
            ("runner/locals.tf", 4, ARGS),
            ("runner/locals.tf", 5, ARGS),
            ("src/user-data.ts", 3, ARGS),
            ("register.sh", 2, ARGS),
        ],
    );
    // A sentence that starts with a flag is not its argument; a flag the command line already
    // shows is reported once.
    assert!(!found.contains(&hit("runner/locals.tf", 6, ARGS)));
    let register = found.iter().filter(|f| f.0 == "register.sh").count();
    assert_eq!(register, 1, "{found:#?}");
}

#[test]
fn shell_url_variable_takes_the_method_of_the_command_that_uses_it() {
    let found = scan(&[(
        "rotate.sh",
        "#!/bin/bash\nurl=https://$HOST/api/v4/runners\nrid=\"$(curl -sfX GET -H \"PRIVATE-TOKEN: $pat\" \"$url\" | jq .[].id)\"\nurl=https://$HOST/api/v4/runners?token=$tkn\ncurl -sfX DELETE -H \"PRIVATE-TOKEN: $pat\" \"$url\"\nurl=https://$HOST/api/v4/groups/$gid/runners/reset_registration_token\ncurl -sfX POST -H \"PRIVATE-TOKEN: $pat\" \"$url\"\n",
    )]);
    // GET and DELETE /runners are not the registration; the reset is a POST.
    assert!(
        !found
            .iter()
            .any(|f| f.2 == "runners-api-registration-token"),
        "{found:#?}"
    );
    assert_found(
        &found,
        &[("rotate.sh", 6, "runner-reset-registration-token-endpoints")],
    );
}

#[test]
fn register_flags_in_another_languages_argument_list() {
    let found = scan(&[
        (
            "tools/register.py",
            "import subprocess\n\ndef register(tok):\n    args = [\"gitlab-runner\", \"register\", \"--registration-token\", tok, \"--tag-list\", \"ci\"]\n    subprocess.run(args, check=True)\n",
        ),
        (
            "tools/register.js",
            "const args = [\"register\", \"--non-interactive\"];\nargs.push(\"--locked=false\");\nspawn(\"gitlab-runner\", args);\n",
        ),
        (
            "tools/register.go",
            "package tools\n\nimport \"os/exec\"\n\nfunc Register(tok string) error {\n\treturn exec.Command(\"gitlab-runner\", \"register\", \"--tag-list\", \"go\", \"--registration-token\", tok).Run()\n}\n",
        ),
    ]);
    assert_found(
        &found,
        &[
            ("tools/register.py", 4, TOKEN),
            ("tools/register.py", 4, ARGS),
            ("tools/register.js", 2, ARGS),
            ("tools/register.go", 6, ARGS),
            ("tools/register.go", 6, TOKEN),
        ],
    );
}
