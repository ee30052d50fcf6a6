//! A command line itself (`gitlab-runner exec`), outside comments, with its subcommand.

use serde::Serialize;

use super::check::{Fields, is_ident};
use super::{Hit, PatternKind};
use crate::syntax::{FileCtx, FileKind};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CliCommand {
    pub command: String,
    /// Other names of the program (`gitlab-ci-multi-runner`, the runner's name before 10.0).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
}

/// A pattern's `aliases`: other names of its command's program, each a program's name
/// (letters, digits, `-`, `_`, `.`).
pub fn parse_aliases(f: &mut Fields) -> Option<Vec<String>> {
    let aliases = f.list("aliases")?;
    let mut out = Vec::with_capacity(aliases.len());
    for a in &aliases {
        let expected = "a program's name, e.g. `gitlab-ci-multi-runner`";
        let ok = a.value.len() >= 3 && is_ident(&a.value, &['-', '.']);
        out.push(f.check.checked(a, "alias", ok, expected)?);
    }
    Some(out)
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
    const OPTIONAL: &'static [&'static str] = &["aliases"];
    const MATCHES: &'static str = "the command line itself (also under one of the program's `aliases`)";

    fn parse(f: &mut Fields) -> Option<Self> {
        let command = f.text("command")?;
        let command = f.check.non_empty(&command, "command")?;
        let aliases = parse_aliases(f)?;
        Some(CliCommand { command, aliases })
    }

    fn anchor(&self) -> String {
        program(&self.command)
    }

    /// The program under any of its names.
    fn anchors(&self) -> Vec<String> {
        let mut v = vec![self.anchor()];
        v.extend(self.aliases.iter().cloned());
        v
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
        // The program itself may be held in a variable named after it (`{{ runner_bin }}`):
        // its commands are looked for without it written; an alias only where it is.
        let aliases = self.aliases.iter().map(String::as_str).filter(|a| ctx.contains(a));
        std::iter::once(program)
            .chain(aliases)
            .flat_map(|p| {
                ctx.commands(p, sub)
                    .iter()
                    .filter(|c| !c.alias)
                    .map(|c| Hit::new(c.program.start, c.subcommand.end, self.command.as_str()))
                    .collect::<Vec<_>>()
            })
            .collect()
    }
}
