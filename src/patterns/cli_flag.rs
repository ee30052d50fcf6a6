//! Command-line flags: `gitlab-runner register --locked`, `-r TOKEN`, `--tag-list=a,b`, and the
//! environment variable the program reads for a flag.

use serde::Serialize;

use super::check::{Fields, is_ident};
use super::cli_command::{program, program_and_subcommand, runs_commands};
use super::variable::VARIABLE_NAME;
use super::{Hit, PatternKind, word_hits};
use crate::syntax::cmdline::dash_head;
use crate::syntax::{FileCtx, FileKind, WordBytes};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CliFlag {
    pub command: String,
    pub flag: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
}

/// A long flag and its short form, compared a few bytes at a time: a command's line is checked
/// for them at each `-` it holds (most are other flags, told apart by their first bytes without
/// a call to `memcmp`).
struct FlagHeads<'f> {
    flag: &'f [u8],
    /// The long flag's first four bytes, when it has four or more.
    head: Option<[u8; 4]>,
    short: Option<[u8; 2]>,
}

impl<'f> FlagHeads<'f> {
    fn new(flag: &'f str, short: Option<&str>) -> Self {
        let f = flag.as_bytes();
        FlagHeads {
            flag: f,
            head: f.get(..4).and_then(|h| h.try_into().ok()),
            short: short.and_then(|s| s.as_bytes().try_into().ok()),
        }
    }

    /// Does `line` hold the flag or the short flag (anywhere, as bytes)?
    fn holds(&self, line: &[u8]) -> bool {
        // A plain loop: a command's line is short, and `memchr` costs more to set up.
        (0..line.len()).filter(|&i| line[i] == b'-').any(|i| {
            let rest = &line[i..];
            let long = match self.head {
                Some(head) => {
                    rest.len() >= self.flag.len()
                        && rest[..4] == head
                        && rest[4..self.flag.len()] == self.flag[4..]
                }
                None => rest.starts_with(self.flag),
            };
            long || self.short.is_some_and(|s| rest.len() >= 2 && rest[..2] == s)
        })
    }
}

impl PatternKind for CliFlag {
    const NAME: &'static str = "cli_flag";
    const REQUIRED: &'static [&'static str] = &["command", "flag"];
    const OPTIONAL: &'static [&'static str] = &["short", "env"];
    const MATCHES: &'static str =
        "`command … --flag`, `--flag=value`, the short flag, and the environment variable";

    fn parse(f: &mut Fields) -> Option<Self> {
        let command = f.text("command")?;
        let command = f.check.non_empty(&command, "command")?;
        let flag = f.text("flag")?;
        let flag_ok = flag.value.starts_with("--")
            && flag.value.len() > 2
            && is_ident(&flag.value[2..], &['-']);
        let expected = "a long flag is `--` followed by letters, digits and dashes, e.g. `--tag-list`";
        let flag = f.check.checked(&flag, "flag", flag_ok, expected)?;
        let short = match f.opt_text("short")? {
            None => None,
            Some(s) => {
                let ok = s.value.len() == 2
                    && s.value.starts_with('-')
                    && s.value.as_bytes()[1].is_ascii_alphanumeric();
                let expected = "a short flag is `-` and one letter, e.g. `-r`";
                Some(f.check.checked(&s, "short flag", ok, expected)?)
            }
        };
        let env = match f.opt_text("env")? {
            None => None,
            Some(e) => Some(f.check.ident(&e, "environment variable", &[], VARIABLE_NAME)?),
        };
        Some(CliFlag {
            command,
            flag,
            short,
            env,
        })
    }

    fn anchor(&self) -> String {
        program(&self.command)
    }

    /// The program, or the flag itself: the program may be held in a variable. The environment
    /// variable too, so that the prefilter tells whether it occurs.
    fn anchors(&self) -> Vec<String> {
        let mut v = vec![self.anchor(), self.flag.clone()];
        v.extend(self.env.iter().cloned());
        v
    }

    /// The subcommand, which [`FileCtx::commands`] asks about first.
    fn searched(&self) -> Vec<String> {
        vec![program_and_subcommand(&self.command).1.to_string()]
    }

    fn literals(&self) -> Vec<String> {
        let mut v = vec![format!("{} {}", self.command, self.flag), self.flag.clone()];
        v.extend(self.short.iter().cloned());
        v.extend(self.env.iter().cloned());
        v
    }

    fn describe(&self) -> String {
        let mut s = format!("`{} {}`", self.command, self.flag);
        if let Some(short) = &self.short {
            s.push_str(&format!(" (or {short})"));
        }
        if let Some(env) = &self.env {
            s.push_str(&format!(", environment variable {env}"));
        }
        s
    }

    fn applies(&self, kind: FileKind) -> bool {
        runs_commands(kind)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        let (program, sub) = program_and_subcommand(&self.command);
        let (flag, short) = (self.flag.as_str(), self.short.as_deref());
        let mut out = Vec::new();
        // A flag is a word that starts with the flag as written (quotes only wrap it): only the
        // commands whose line holds the flag or the short flag are read.
        let written = ctx.contains(flag) || short.is_some_and(|s| ctx.contains(s));
        let written_in = FlagHeads::new(flag, short);
        let text = ctx.src.text.as_bytes();
        // The flags' bits ([`dash_head`]): only the commands whose line has one of them are
        // read, and of those only the ones whose line holds the flag or the short flag.
        let bits = dash_head(flag) | short.map_or(0, dash_head);
        let commands = written.then(|| ctx.flagged_commands(program, sub, bits));
        for cmd in commands.iter().flat_map(|c| c.iter()) {
            if cmd
                .args_reach()
                .is_some_and(|(from, to)| !written_in.holds(&text[from..to]))
            {
                continue;
            }
            cmd.for_each_arg(|w| {
                // `--flag` or `--flag=value`.
                let long = w.text.strip_prefix(flag).is_some_and(|rest| {
                    rest.is_empty() || rest.starts_with('=')
                });
                let short_hit = short.is_some_and(|s| {
                    w.text == s
                        || (w.text.starts_with(s)
                            && w.text.len() > s.len()
                            && !w.text.starts_with("--"))
                });
                if long || short_hit {
                    let shown = if long { flag } else { short.unwrap_or(flag) };
                    out.push(Hit::new(w.start, w.start + shown.len(), shown));
                }
            });
        }
        // The environment variable the program reads for the flag: only in files that run it.
        if let Some(env) = &self.env
            && ctx.contains(program)
        {
            out.extend(word_hits(env, ctx, WordBytes::Ident));
        }
        out
    }
}
