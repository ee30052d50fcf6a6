//! The Go forms that the Go consumer sample (`tests/realworld/sampled-mp.yaml`, its tune part)
//! showed missed. The files are written for this test, modelled on (not copied from) the public
//! files of that corpus:
//! - a command of the runner written as an argument list in code: the program and its removed
//!   subcommand as adjacent quoted arguments (`exec.Command("gitlab-runner", "exec", …)`), and the
//!   subcommand as the first item of a list bound to a name that is handed to the program by that
//!   name (`args := []string{"exec"}` … `exec.Command("gitlab-runner", args...)`).
//!
//! Look-alikes stay silent: another program's `exec` (`docker exec`, `kubectl exec`), a list of
//! arguments that starts with `exec` handed to another program, the runner's other subcommands.

mod common;
use common::{assert_found, assert_silent, findings_of, scan_files};

/// A wrapper that runs the pipeline of the working copy with the runner's removed `exec`,
/// passing the project's variables as `--env` arguments.
const GO_EXEC_WRAPPER: &str = r#"package main

import (
	"fmt"
	"os/exec"
)

type Wrapper struct {
	vars map[string]string
}

// Run hands the user's arguments to the runner.
func (w *Wrapper) Run(user []string) error {
	argv := []string{"exec"}
	argv = append(argv, user...)
	for k, v := range w.vars {
		argv = append(argv, fmt.Sprintf("--env=%s=%q", k, v))
	}
	c := exec.Command("gitlab-runner", argv...)
	return c.Run()
}

// Shell runs one job of the file with the shell executor.
func Shell(job string) error {
	return exec.Command("gitlab-runner", "exec", "shell", job).Run()
}

// Version asks the runner for its version.
func Version() ([]byte, error) {
	return exec.Command("gitlab-runner", "--version").Output()
}
"#;

/// Other programs' `exec`, and a list that starts with `exec` handed to another program.
const GO_OTHER_EXEC: &str = r#"package deploy

import "os/exec"

// Inside runs a command in the runner's container.
func Inside(container string) error {
	return exec.Command("docker", "exec", container, "gitlab-runner", "list").Run()
}

// Pod runs a shell in the pod that hosts gitlab-runner.
func Pod(pod string) error {
	argv := []string{"exec", "-it", pod, "--", "sh"}
	return exec.Command("kubectl", argv...).Run()
}

// Verify checks the runner's registrations.
func Verify() error {
	return exec.Command("gitlab-runner", "verify", "--delete").Run()
}
"#;

#[test]
fn runner_exec_in_go_argument_lists() {
    let found = scan_files(&[
        ("cmd/wrap/main.go", GO_EXEC_WRAPPER),
        ("internal/deploy/exec.go", GO_OTHER_EXEC),
    ]);
    // The list bound to a name and handed to the runner, and the adjacent quoted arguments.
    assert_found(
        &found,
        &[
            ("cmd/wrap/main.go", 14, "runner-exec-command"),
            ("cmd/wrap/main.go", 25, "runner-exec-command"),
        ],
    );
    let lines: Vec<u64> = findings_of(&found, "cmd/wrap/main.go")
        .into_iter()
        .filter(|(_, id)| id == "runner-exec-command")
        .map(|(l, _)| l)
        .collect();
    assert_eq!(lines, vec![14, 25], "the runner's --version is no exec");
    assert_silent(&found, "internal/deploy/exec.go");
}

/// Thousands of lists that start with `exec` and of calls that hand lists to the runner, each
/// under its own name: the names handed to the program are read once, so the scan stays linear
/// (a check per list against every call would be quadratic).
#[test]
fn many_bound_lists_stay_linear() {
    let mut text = String::from("package main\n\nimport \"os/exec\"\n\nfunc f() {\n");
    for k in 0..20_000 {
        text.push_str(&format!(
            "\ta{k} := []string{{\"exec\"}}\n\t_ = exec.Command(\"gitlab-runner\", b{k}...)\n"
        ));
    }
    text.push_str("}\n");
    let start = std::time::Instant::now();
    let found = scan_files(&[("main.go", &text)]);
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    // No list is handed to the runner under its own name: nothing is reported.
    assert_silent(&found, "main.go");
}
