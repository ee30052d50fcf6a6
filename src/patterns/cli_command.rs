//! A command line itself (`gitlab-runner exec`), outside comments, with its subcommand.

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind};
use crate::syntax::{FileCtx, FileKind};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CliCommand {
    pub command: String,
}

/// `gitlab-runner register` → (`gitlab-runner`, `register`).
pub fn program_and_subcommand(command: &str) -> (&str, &str) {
    command.split_once(' ').unwrap_or((command, ""))
}

/// The first word of a command: what a file that runs it must contain.
pub fn program(command: &str) -> String {
    program_and_subcommand(command).0.to_string()
}

/// The kinds of file command lines are looked for in.
pub fn runs_commands(kind: FileKind) -> bool {
    use FileKind::*;
    matches!(kind, Shell | Ci | Yaml | Helm | Code)
}

impl PatternKind for CliCommand {
    const NAME: &'static str = "cli_command";
    const REQUIRED: &'static [&'static str] = &["command"];
    const OPTIONAL: &'static [&'static str] = &[];
    const MATCHES: &'static str = "the command line itself";

    fn parse(f: &mut Fields) -> Option<Self> {
        let command = f.text("command")?;
        Some(CliCommand {
            command: f.check.non_empty(&command, "command")?,
        })
    }

    fn anchor(&self) -> String {
        program(&self.command)
    }

    fn literals(&self) -> Vec<String> {
        vec![self.command.clone()]
    }

    /// The subcommand, which [`FileCtx::commands`] asks about first.
    fn searched(&self) -> Vec<String> {
        vec![program_and_subcommand(&self.command).1.to_string()]
    }

    fn describe(&self) -> String {
        format!("command `{}`", self.command)
    }

    fn applies(&self, kind: FileKind) -> bool {
        runs_commands(kind)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        let (program, sub) = program_and_subcommand(&self.command);
        ctx.commands(program, sub)
            .iter()
            .filter(|c| !c.alias)
            .map(|c| Hit::new(c.program.start, c.subcommand.end, self.command.as_str()))
            .collect()
    }
}
