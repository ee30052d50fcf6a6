//! Words of the legacy runner registration that are no use of it, found in a fresh blind sample
//! of registration files (sampled-pr): the legacy variables taken away by an `unset` that goes
//! on over lines, a module's own `tags` in a Terraform `locals { }` block beside the chart's
//! values, a register command printed as instructions, and `runner-registration-token` as
//! another system's label, path or audit record. Beside each, the use that stays found.
//! Fixtures written for this test, modelled on what the sample held.

mod common;

#[test]
fn an_unset_that_goes_on_over_lines_takes_the_variables_away() {
    let path = "runner/register.sh";
    let found = common::scan_files(&[(
        path,
        "#!/bin/sh\n# gitlab-runner register reads these from the environment: drop them for glrt tokens\nunset RUNNER_TAG_LIST \\\n      REGISTER_LOCKED REGISTER_ACCESS_LEVEL \\\n      REGISTER_PAUSED || true\ngitlab-runner register --non-interactive --url \"$CI_SERVER_URL\" --token \"$RUNNER_TOKEN\"\nexport REGISTER_LOCKED=false\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-register-server-side-arguments"),
        [7],
        "{found:?}"
    );
}

#[test]
fn a_modules_own_tags_in_locals_are_no_chart_value() {
    let path = "modules/gitlab-runner/locals.tf";
    let found = common::scan_files(&[(
        path,
        "locals {\n  name = var.name\n  tags = var.tags\n\n  helm_chart_values = {\n    \"gitlabUrl\"               = var.gitlab_url,\n    \"runnerRegistrationToken\" = var.runner_token,\n    \"runners\" = {\n      \"tags\" = \"eks,docker\"\n    }\n  }\n}\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-register-server-side-arguments"),
        [9],
        "{found:?}"
    );
}

#[test]
fn a_register_command_printed_as_instructions_is_not_run() {
    let path = "deploy/setup-runner.sh";
    let found = common::scan_files(&[(
        path,
        "#!/bin/bash\necho \"Next steps:\"\necho \"  sudo gitlab-runner register \\\\\"\necho \"    --url https://gitlab.example.com \\\\\"\necho \"    --registration-token <TOKEN> \\\\\"\necho \"    --tag-list 'deploy,ec2'\"\necho \"gitlab-runner register --non-interactive --registration-token $TOKEN\" >> /opt/register.sh\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-registration-token"),
        [7],
        "{found:?}"
    );
}

#[test]
fn the_secret_keys_name_as_another_systems_label_or_path() {
    let files = [
        (
            "src/routes/settings/runners/+page.svelte",
            "<p>Set the token as <code>WSRUNNER_REGISTRATION_TOKEN</code> on the host.</p>\n<code data-testid=\"runner-registration-token\" class=\"token\">{token}</code>\n",
        ),
        (
            "scripts/controller.mjs",
            "const args = [\n  'run',\n  `--volume=${tokenPath}:/run/secrets/runner-registration-token:ro`,\n];\n",
        ),
        (
            "services/audit/registration_test.go",
            "package audit\n\nimport \"gitea.dev/models/actions\"\n\nfunc check(t *testing.T, e Event) {\n\trequire.Equal(t, \"runner-registration-token:4\", e.ActorCredential)\n}\n",
        ),
        (
            "deploy/secret.sh",
            "kubectl create secret generic runner-secret \\\n  --from-literal=runner-registration-token=\"$TOKEN\" --from-literal=runner-token=\"\"\n",
        ),
        (
            "deploy/env.tf",
            "resource \"kubernetes_secret\" \"runner\" {\n  data = {\n    \"runner-registration-token\" = var.token\n  }\n}\n",
        ),
    ];
    let found = common::scan_files(&files);
    for (path, _) in &files[..3] {
        common::assert_silent(&found, path);
    }
    assert_eq!(
        common::lines_of(&found, "deploy/secret.sh", "runner-registration-token"),
        [2],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "deploy/env.tf", "runner-registration-token"),
        [3],
        "{found:?}"
    );
}

/// A register command whose program is an expression (`${RUNNER_BIN} register`) is known by a
/// flag only that command takes (`--executor`) also on a line its `\` continues onto; and
/// Veertu's build of the runner for Anka VMs, `anka-gitlab-runner`, registers as the runner does
/// (a data line: the alias). Modelled on an install script of Anka runners.
#[test]
fn register_commands_of_an_expression_and_of_the_anka_build() {
    let path = "gitlab/install-anka-runner.bash";
    let found = common::scan_files(&[(
        path,
        "#!/bin/bash\nanka-gitlab-runner-v${VERSION} register --non-interactive \\\n  --url \"$URL\" \\\n  --registration-token $TOKEN \\\n  --executor anka \\\n  --tag-list \"shared,iOS\"\nanka-gitlab-runner register --non-interactive \\\n  --url \"$URL\" \\\n  --registration-token $TOKEN \\\n  --tag-list specific\n${RUNNER_BIN} install --user \"$USER\" \\\n  --tag-list nothing-to-register\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-register-server-side-arguments"),
        [6, 10],
        "{found:?}"
    );
}

/// A register command written over adjacent string literals of another language (Python's
/// implicit concatenation, a `+` at a line's end): the arguments of the next literal are the
/// command's too. Modelled on a deployment CLI that registers its host's runner.
#[test]
fn a_command_over_adjacent_literals() {
    let path = "arms/commands/runner.py";
    let found = common::scan_files(&[(
        path,
        "import subprocess\n\n\ndef register_runner(url, token, tag):\n    subprocess.run('gitlab-runner register -n --executor shell --tag-list {t}'\n                   ' -u {u} -r {k} '.format(t=tag, u=url, k=token), shell=True)\n    subprocess.run('gitlab-runner register -n --executor shell ' +\n                   '-r ' + token, shell=True)\n    print('gitlab-runner register -n --executor shell', 'then -r is asked')\n",
    )]);
    assert_eq!(
        common::lines_of(&found, path, "runner-registration-token"),
        [6, 8],
        "{found:?}"
    );
}
