//! A command line itself (`gitlab-runner exec`), outside comments, with its subcommand.

use std::collections::HashSet;

use serde::Serialize;

use super::check::{Fields, is_ident};
use super::{Hit, PatternKind};
use crate::syntax::{FileCtx, FileKind, WordBytes, is_ident_byte, line_start_within};

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
        let found = std::iter::once(program)
            .chain(aliases)
            .flat_map(|p| {
                ctx.commands(p, sub)
                    .iter()
                    .filter(|c| !c.alias)
                    .map(|c| Hit::new(c.program.start, c.subcommand.end, self.command.as_str()))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>();
        let mut out = found;
        if ctx.src.class.kind == FileKind::Code && !sub.is_empty() && !sub.contains(' ') {
            let programs: Vec<&str> = std::iter::once(program)
                .chain(self.aliases.iter().map(String::as_str))
                .collect();
            let listed = listed_subcommands(ctx, &programs, sub);
            let known: Vec<(usize, usize)> = out.iter().map(|h| (h.start, h.end)).collect();
            out.extend(
                listed
                    .into_iter()
                    .filter(|&at| !known.iter().any(|&(s, e)| (s..=e).contains(&at)))
                    .map(|at| Hit::new(at, at + sub.len(), self.command.as_str())),
            );
        }
        out
    }
}

/// How far back from a quoted subcommand the program's quoted name, or the line that binds the
/// list, is looked for.
const LIST_REACH: usize = 256;

/// The subcommand as a quoted argument of the program in code's argument lists: right after the
/// program's quoted name (`exec.Command("gitlab-runner", "exec", …)`, `["gitlab-runner",
/// "exec"]`, `spawn("gitlab-runner", ["exec", …])`), or as the first item of a list bound to a
/// name (`args := []string{"exec"}`, `args = ["exec", …]`) that the file hands to the program by
/// that name (`exec.Command("gitlab-runner", args...)`, `["gitlab-runner", *args]`). Another
/// program's subcommand of the same name (`"docker", "exec"`) is not it.
fn listed_subcommands(ctx: &FileCtx, programs: &[&str], sub: &str) -> Vec<usize> {
    let text = ctx.src.text.as_bytes();
    let word = WordBytes::Other(|c| is_ident_byte(c) || c == b'-');
    let mut out = Vec::new();
    let mut handed: Option<HashSet<&[u8]>> = None;
    for at in ctx.word_offsets(sub, word) {
        let end = at + sub.len();
        let Some(&quote) = at.checked_sub(1).and_then(|i| text.get(i)) else {
            continue;
        };
        if !matches!(quote, b'"' | b'\'' | b'`') || text.get(end) != Some(&quote) {
            continue;
        }
        if ctx.src.in_comment(at) {
            continue;
        }
        let lo = at.saturating_sub(LIST_REACH);
        let before = skip_blanks_back(text, lo, at - 1);
        // `"gitlab-runner", "exec"` or `"gitlab-runner", ["exec"`.
        let before = if before > lo && text[before - 1] == b'[' {
            let inner = skip_blanks_back(text, lo, before - 1);
            if inner > lo && text[inner - 1] == b',' { inner } else { before }
        } else {
            before
        };
        if before > lo && text[before - 1] == b',' {
            let p = skip_blanks_back(text, lo, before - 1);
            if programs.iter().any(|prog| quoted_ends_at(text, p, prog)) {
                out.push(at);
            }
            continue;
        }
        // The first item of a list literal bound to a name on its line. The names handed to
        // the program are read once a file, when the first such list is met.
        if before > lo
            && matches!(text[before - 1], b'{' | b'[')
            && let Some(name) = bound_list(text, before - 1)
            && handed
                .get_or_insert_with(|| handed_names(text, programs))
                .contains(&name)
        {
            out.push(at);
        }
    }
    out
}

/// Where the blanks (spaces, tabs, line ends) that end at `to` start, not before `lo`.
fn skip_blanks_back(text: &[u8], lo: usize, to: usize) -> usize {
    let mut i = to;
    while i > lo && matches!(text[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
        i -= 1;
    }
    i
}

/// Does a quoted `word` end at `end` (its closing quote is the byte before `end`), as a whole
/// string?
fn quoted_ends_at(text: &[u8], end: usize, word: &str) -> bool {
    let n = word.len();
    if end < n + 2 {
        return false;
    }
    let (open, close) = (text[end - n - 2], text[end - 1]);
    matches!(close, b'"' | b'\'' | b'`') && open == close && &text[end - n - 1..end - 1] == word.as_bytes()
}

/// The name a list literal opening at `open` is bound to on its line: `args := []string{`,
/// `var args = []string{`, `args = [`, `const args = [`, `args: list[str] = [`.
fn bound_list(text: &[u8], open: usize) -> Option<&[u8]> {
    let start = line_start_within(text, open, LIST_REACH);
    let mut lead = text[start..open].trim_ascii_end();
    // Go's element type written before the brace.
    for ty in [&b"[]string"[..], b"[]any", b"[]interface{}"] {
        if let Some(rest) = lead.strip_suffix(ty) {
            lead = rest.trim_ascii_end();
            break;
        }
    }
    let lead = lead
        .strip_suffix(b":=")
        .or_else(|| lead.strip_suffix(b"="))?
        .trim_ascii_end();
    // A type annotation (`args: list[str]`, `var args []string`): the name is the first word.
    let lead = lead.trim_ascii_start();
    let lead = ["var ", "let ", "const ", "local "]
        .iter()
        .find_map(|k| lead.strip_prefix(k.as_bytes()))
        .unwrap_or(lead)
        .trim_ascii_start();
    let n = lead.iter().take_while(|&&c| is_ident_byte(c)).count();
    let rest = lead[n..].trim_ascii_start();
    (n > 0 && !lead[0].is_ascii_digit() && (rest.is_empty() || rest.starts_with(b":") || rest.starts_with(b"[]")))
        .then_some(&lead[..n])
}

/// The names of the lists the file hands to the program: after its quoted name, a comma and the
/// list (`"gitlab-runner", args...`, `"gitlab-runner", *args`, `'gitlab-runner', ...args`), or
/// after a list of it, the list joined to it (`["gitlab-runner"] + args`). One pass over the
/// file for each of the program's names.
fn handed_names<'t>(text: &'t [u8], programs: &[&str]) -> HashSet<&'t [u8]> {
    let mut names = HashSet::new();
    for program in programs {
        let finder = memchr::memmem::Finder::new(program.as_bytes());
        for p in finder.find_iter(text) {
            let end = p + program.len() + 1;
            if p == 0 || end > text.len() || !quoted_ends_at(text, end, program) {
                continue;
            }
            let rest = text[end..].trim_ascii_start();
            let rest = if let Some(r) = rest.strip_prefix(b"]") {
                match r.trim_ascii_start().strip_prefix(b"+") {
                    Some(r) => r,
                    None => continue,
                }
            } else if let Some(r) = rest.strip_prefix(b",") {
                r
            } else {
                continue;
            };
            let rest = rest.trim_ascii_start();
            let rest = rest
                .strip_prefix(b"...")
                .or_else(|| rest.strip_prefix(b"*"))
                .unwrap_or(rest);
            let n = rest.iter().take_while(|&&c| is_ident_byte(c)).count();
            if n > 0 {
                names.insert(&rest[..n]);
            }
        }
    }
    names
}
