//! `gitlab-runner register` run through a variable that holds the program's path, whatever the
//! variable is named: `{RUNNER_BIN} register …` in a Python f-string, `${bin} register …` in a
//! JavaScript template, `#{RUNNER_CMD}` in Ruby, `"$RUNNER" register …` in a shell script. The
//! server-side arguments of such a command are its own; the same words after another program's
//! variable are not. Fixtures written for these tests.

mod common;

const ID: &str = "runner-register-server-side-arguments";

#[test]
fn a_variable_assigned_the_program_runs_it() {
    let found = common::scan_files(&[
        (
            "tools/enrol.py",
            "import subprocess\n\nRUNNER_BIN = \"/usr/local/bin/gitlab-runner\"\n\n\ndef enrol(url, tok, tags):\n    cmd = f\"{RUNNER_BIN} register --non-interactive --url {url} --token {tok} --tag-list {tags} --locked=false\"\n    subprocess.run(cmd, shell=True, check=True)\n",
        ),
        (
            "scripts/enrol.js",
            "const { execSync } = require('child_process');\nconst bin = process.env.RUNNER_BIN || 'gitlab-runner';\nexecSync(`${bin} register --non-interactive --token ${tok} --tag-list docker --access-level not_protected`);\n",
        ),
        (
            "lib/enrol.rb",
            "RUNNER_CMD = '/opt/gitlab-runner/bin/gitlab-runner'\nsystem(\"#{RUNNER_CMD} register --non-interactive --tag-list docker\")\n",
        ),
        (
            "bin/enrol.sh",
            "#!/bin/sh\nRUNNER=/usr/local/bin/gitlab-runner\n\"$RUNNER\" register --non-interactive --token \"$TOK\" --tag-list docker\n$RUNNER register --non-interactive --locked=false\n\"$GITLAB_RUNNER\" register --maximum-timeout 600\n",
        ),
    ]);
    assert_eq!(
        common::lines_of(&found, "tools/enrol.py", ID),
        [7],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "scripts/enrol.js", ID),
        [3],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "lib/enrol.rb", ID),
        [2],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "bin/enrol.sh", ID),
        [3, 4, 5],
        "{found:?}"
    );
}

#[test]
fn another_programs_variable_is_not_the_runner() {
    let found = common::scan_files(&[
        (
            "tools/deploy.py",
            "RUNNER_BIN = \"/usr/local/bin/gitlab-runner\"\nHELM = \"/usr/local/bin/helm\"\n\n\ndef up(tags):\n    run(f\"{HELM} upgrade --install ci ./chart --set tags={tags} --locked\")\n    run(f\"systemctl restart {RUNNER_BIN}\")\n",
        ),
        (
            "bin/tool.sh",
            "#!/bin/sh\nTOOL=/usr/bin/gitlab-runner-helper\n$TOOL register --tag-list x\n",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}
