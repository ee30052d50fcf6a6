//! `gitlab-runner register` run through a variable that holds the program's path, whatever the
//! variable is named: `{RUNNER_BIN} register …` in a Python f-string, `${bin} register …` in a
//! JavaScript template, `#{RUNNER_CMD}` in Ruby, `"$RUNNER" register …` in a shell script. The
//! server-side arguments of such a command are its own; the same words after another program's
//! variable are not. A program that an expression gives (`${runnerCmd} register`, a function's
//! result) is the runner where a flag only its `register` takes (`--executor`) follows; a
//! command kept in a variable goes on where a string is appended to it (`cmd += " --tag-list
//! …"`). Fixtures written for these tests.

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

#[test]
fn an_expression_running_register_with_the_runners_own_flag_is_the_runner() {
    let found = common::scan_files(&[
        (
            "src/routes/runners.ts",
            "import { exec } from 'child_process';\nimport { runnerBinary } from '$lib/runner';\n\nexport async function create(url: string, regToken: string, tags: string) {\n  const cmd = runnerBinary();\n  let registerCommand = `${cmd} register --non-interactive --url ${url} -r ${regToken} --executor docker`;\n  if (tags) {\n    registerCommand += ` --tag-list ${tags}`;\n  }\n  registerCommand += ' --locked=false';\n  await exec(registerCommand);\n}\n",
        ),
        (
            "tools/enrol.py",
            "import subprocess\n\n\ndef enrol(binary, url, tok, tags):\n    cmd = f\"{binary} register -n --url {url} --registration-token {tok} --executor shell\"\n    if tags:\n        cmd += f\" --tag-list {tags}\"\n    subprocess.run(cmd, shell=True)\n",
        ),
        (
            "bin/enrol.sh",
            "#!/bin/sh\n$(command -v gitlab-runner || echo /opt/runner) register -n --executor shell --tag-list linux\n",
        ),
    ]);
    let registration = "runner-registration-token";
    assert_eq!(
        common::lines_of(&found, "src/routes/runners.ts", registration),
        [6],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "src/routes/runners.ts", ID),
        [8, 10],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "tools/enrol.py", ID),
        [7],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "bin/enrol.sh", ID),
        [2],
        "{found:?}"
    );
}

#[test]
fn another_tools_register_without_the_runners_flag_is_not() {
    let found = common::scan_files(&[
        (
            "bin/services.sh",
            "#!/bin/sh\n$CONSUL register --name web --tag-list a,b --locked\n${svc} register --token abc -r 1\n",
        ),
        (
            "src/agent.ts",
            "let cmd = `${agent} register --labels linux --name ci`;\ncmd += ' --locked';\nexec(cmd);\n",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}
