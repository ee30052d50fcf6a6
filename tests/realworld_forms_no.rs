//! The instance-configuration forms that the sample of Omnibus, chart, runner-config and metrics files
//! (`tests/realworld/sampled-no.yaml`, its tune part) showed missed. The files are written for this
//! test, modelled on (not copied from) the public files of that corpus:
//! - a shell's startup file (`.bash_aliases`, `.bashrc`, `.zshrc`, and the same names without the
//!   dot, as dotfiles repositories keep them) defines an alias or a function that runs the removed
//!   `gitlab-runner exec`: the file has neither an extension nor a `#!` line, and its name alone
//!   says it holds shell command lines. A commented-out command and another program's `exec` are
//!   silent.

mod common;
use common::{assert_found, findings_of, scan_files};

/// A developer's aliases: navigation, git, a local CI run through the runner, kubectl.
const ALIASES: &str = r#"alias ..='cd ..'
alias gs="git status"
alias gl='git log --oneline --graph'

# run one CI job locally:
alias cijob='gitlab-runner exec docker --docker-privileged --docker-volumes /var/run/docker.sock:/var/run/docker.sock'
# alias cishell='gitlab-runner exec shell'

alias dexec='docker exec -it'
alias k='kubectl'
"#;

/// A shell rc file: an alias and a function that run jobs through the runner.
const RC: &str = r#"export EDITOR=vim
export PATH="$HOME/bin:$PATH"

alias ll='ls -la'

localci() {
    gitlab-runner exec shell "$1" --env CI_DEBUG=true
}

alias ci-docker="gitlab-runner exec docker"
"#;

#[test]
fn a_shell_startup_file_runs_the_runner_exec_command() {
    let found = scan_files(&[
        ("home/.bash_aliases", ALIASES),
        ("dotfiles/zshrc", RC),
        ("dotfiles/.bashrc", RC),
    ]);
    assert_found(
        &found,
        &[
            ("home/.bash_aliases", 6, "runner-exec-command"),
            ("dotfiles/zshrc", 7, "runner-exec-command"),
            ("dotfiles/zshrc", 10, "runner-exec-command"),
            ("dotfiles/.bashrc", 7, "runner-exec-command"),
            ("dotfiles/.bashrc", 10, "runner-exec-command"),
        ],
    );
    // The commented-out alias (7) and `docker exec` (9) are no use of the runner's exec.
    let aliases = findings_of(&found, "home/.bash_aliases");
    assert_eq!(
        aliases.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
        vec![6],
        "{aliases:?}"
    );
}
