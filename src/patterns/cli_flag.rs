//! Command-line flags: `gitlab-runner register --locked`, `-r TOKEN`, `--tag-list=a,b`, and the
//! environment variable the program reads for a flag.

use serde::Serialize;

use super::check::{Fields, is_ident};
use super::cli_command::{program, program_and_subcommand, runs_commands};
use super::variable::VARIABLE_NAME;
use super::{Hit, PatternKind, with_values, word_hits};
use crate::syntax::cmdline::{Command, DashWitness, dash_head};
use crate::syntax::{FileCtx, FileKind, WordBytes, is_ident_byte, line_start_within};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CliFlag {
    pub command: String,
    pub flag: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
    /// Literals that, like the program's name, show that a file runs the program: where one
    /// occurs, the environment variable counts, and so does the flag written as a quoted
    /// argument of another language's argument list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<String>,
    /// Only these values of the flag (and of its environment variable) are the item
    /// (`--shell cmd`, `RUNNER_SHELL='cmd'`); empty: any value.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// Other names of the program that run the same command (`gitlab-ci-multi-runner`, the
    /// runner's name before 10.0): `alias register --flag` is the same use.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// What runs the program inside its image (the runner image's `/entrypoint`): a name other
    /// programs' images use too, so `entrypoint register --flag` counts only in a file that
    /// names the program (its image).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub entrypoints: Vec<String>,
    /// Flags only this command takes (`--executor` of `gitlab-runner register`): where one
    /// follows the subcommand on its line, the command is this one whatever expression runs
    /// the program (`${runnerCmd} register …`, `{bin} register …`, `$(which x) register …`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub signature: Vec<String>,
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

    /// Does the `-` at `i` of `line` start the flag or the short flag (as bytes)?
    fn at(&self, line: &[u8], i: usize) -> bool {
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
    }
}

impl PatternKind for CliFlag {
    const NAME: &'static str = "cli_flag";
    const REQUIRED: &'static [&'static str] = &["command", "flag"];
    const OPTIONAL: &'static [&'static str] =
        &["short", "env", "context", "values", "aliases", "entrypoints", "signature"];
    const MATCHES: &'static str = "`command … --flag`, `--flag=value`, the short flag; in a file naming the program or a `context`, the environment variable, the flag as a quoted argument (`[\"register\", \"--locked=false\"]`) and as a YAML list item (`- --tag-list docker`); with `values`, only those values (`--shell cmd`, `RUNNER_SHELL='cmd'`); the same under the program's `aliases` (old names), under its image's `entrypoints` in a file naming the program, and under any expression run with the subcommand where one of the `signature` flags follows it on the line (`${bin} register --executor shell -r …`)";

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
        let context = f.list("context")?;
        let context = f.check.strings(&context, "context")?;
        let values = f.values()?;
        let aliases = f.list("aliases")?;
        let aliases = f.check.strings(&aliases, "aliases")?;
        let entrypoints = f.list("entrypoints")?;
        let entrypoints = f.check.strings(&entrypoints, "entrypoints")?;
        let signature = f.list("signature")?;
        let signature = f.check.strings(&signature, "signature")?;
        Some(CliFlag {
            command,
            flag,
            short,
            env,
            context,
            values,
            aliases,
            entrypoints,
            signature,
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
        v.extend(self.signature.iter().cloned());
        v
    }

    /// The subcommand, which [`FileCtx::commands`] asks about first, and the context.
    fn searched(&self) -> Vec<String> {
        let mut v = vec![program_and_subcommand(&self.command).1.to_string()];
        v.extend(self.context.iter().cloned());
        v
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
        with_values(s, &self.values)
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
        let commands = written.then(|| self.commands(ctx, program, sub, bits));
        let commands: &[Command] = commands.as_deref().map_or(&[], |c| c.as_slice());
        // The commands in the order they are written, and where the words of each start.
        let mut order: Vec<usize> = (0..commands.len()).collect();
        order.sort_by_key(|&k| commands[k].program.start);
        let mut starts: Vec<(usize, Option<u8>, usize)> = (commands.iter().enumerate())
            .filter_map(|(k, c)| c.words_from().map(|(at, quote)| (at, quote, k)))
            .collect();
        starts.sort_unstable();
        // A command whose words an earlier command's words went through (several commands on
        // one line: the words of each run to the line's end) has no flag they did not have: it
        // is not read again.
        let mut passed = vec![false; commands.len()];
        let mut witness = DashWitness::default();
        for &k in &order {
            let cmd = &commands[k];
            if passed[k]
                || cmd.args_reach().is_some_and(|(from, to)| {
                    !witness.holds(text, from, to, |line, i| written_in.at(line, i))
                })
            {
                continue;
            }
            let quote = cmd.words_from().map(|(_, quote)| quote);
            let mut next = 0;
            cmd.for_each_arg(|w| {
                if let Some(quote) = quote {
                    next += starts[next..].partition_point(|s| s.0 < w.end);
                    while let Some(&(at, q, j)) = starts.get(next).filter(|s| s.0 == w.end) {
                        passed[j] |= q == quote && at > cmd.program.end;
                        next += 1;
                    }
                }
                // `--flag`, `--flag=value`, or a word that holds the flag and its value (a YAML
                // list item `- --tag-list "a"` is one word).
                let long = w.text.strip_prefix(flag).is_some_and(|rest| {
                    rest.is_empty() || rest.starts_with(['=', ' ', '\t'])
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
        // What needs evidence that the file runs the program: its name (or an old one) or a
        // context.
        // The file's own name also says which program reads it (`gitlab-runner.env`, an env
        // file that holds only `REGISTRATION_TOKEN=…`).
        let file_name = ctx.src.path.rsplit('/').next().unwrap_or(ctx.src.path);
        let named = ctx.contains(program)
            || self.aliases.iter().any(|a| ctx.contains(a))
            || file_name.contains(program);
        if !(named || self.context.iter().any(|c| ctx.contains(c))) {
            return self.with_value(out, text);
        }
        // The flag as a quoted argument of a list that holds the subcommand
        // (`["register", "--locked=false"]`, `exec.Command("gitlab-runner", "register", …)`,
        // HCL's `join(" ", ["--tag-list ${var.tags}", …])`, a shell array), in code and in shell
        // files; one the command's own words already found is not added again. (A YAML list is
        // a command's arguments, read with the program its `image:` names.)
        // So is the flag as an item of a YAML block list (a Salt pillar's or an Ansible
        // variable's list of register flags, `- --tag-list docker`, whose file need not name
        // the subcommand), in any file that runs commands.
        if written {
            let found: Vec<(usize, usize)> = out.iter().map(|h| (h.start, h.end)).collect();
            let words = [program, sub];
            let args = list_arguments(flag, argument_places(ctx, program, sub), &words, ctx);
            let args = args.into_iter();
            out.extend(args.filter(|q| !found.iter().any(|&(s, e)| (s..=e).contains(&q.start))));
        }
        // The environment variable the program reads for the flag ([`env_uses`]).
        if let Some(env) = &self.env {
            let uses = env_uses(env, ctx, &out);
            out.extend(uses);
        }
        self.with_value(out, text)
    }
}

/// Where a file writes the flag as an argument outside a command line: quoted in code and
/// shell files that name the subcommand, gathered in a shell variable, and, in a YAML file that
/// names the program (a compose file or manifest that runs its image), a value of arguments the
/// image's entrypoint hands to the command (`RUNNER_EXTRA_ARGS: "--tag-list=docker"`).
fn argument_places(ctx: &FileCtx, program: &str, sub: &str) -> (bool, bool, bool) {
    let kind = ctx.src.class.kind;
    let yaml_values = matches!(kind, FileKind::Yaml | FileKind::Helm) && ctx.contains(program);
    let quoted = matches!(kind, FileKind::Code | FileKind::Shell)
        && (sub.is_empty() || ctx.contains(sub));
    let shell = quoted && kind == FileKind::Shell;
    (quoted, shell, yaml_values)
}

/// How far back a container env entry's `value:` and `name:` lines are read.
const ENTRY_REACH: usize = 256;

/// Is the variable at `at` on the line right below a `name: ENV` line (a Kubernetes or
/// OpenShift container's `env:` entry, `- name: RUNNER_TAG_LIST` then `value: ${RUNNER_TAG_LIST}`
/// of a template parameter)? That entry is one setting, found at its name.
pub(super) fn value_of_named_entry(text: &[u8], at: usize, env: &str) -> bool {
    // Both lines are short: read back within a bound (a line of thousands of uses is not read
    // back to its start for each).
    let start = line_start_within(text, at, ENTRY_REACH);
    if start == 0 || text[start - 1] != b'\n' {
        return false;
    }
    let own_start = start - 1;
    let line = &text[own_start + 1..at];
    if !line.trim_ascii_start().starts_with(b"value:") {
        return false;
    }
    let prev_start = line_start_within(text, own_start, ENTRY_REACH);
    if prev_start > 0 && text[prev_start - 1] != b'\n' {
        return false;
    }
    let prev = text[prev_start..own_start].trim_ascii();
    let prev = prev.strip_prefix(b"- ").unwrap_or(prev);
    prev.strip_prefix(b"name:")
        .map(|v| v.trim_ascii().trim_ascii_start())
        .is_some_and(|v| v.strip_prefix(b"\"").unwrap_or(v).starts_with(env.as_bytes()))
}

/// The uses of the environment variable `env` the program reads for the flag, one per line,
/// leaving out the lines where the flag itself is written (`found`): there the variable is the
/// flag's value (`--registration-token "$REGISTRATION_TOKEN"`), one use, found as the flag. A
/// definition that names and uses it (`REGISTRATION_TOKEN: ${REGISTRATION_TOKEN:?…}`) is one
/// setting.
fn env_uses(env: &str, ctx: &FileCtx, found: &[Hit]) -> Vec<Hit> {
    let text = ctx.src.text.as_bytes();
    let mut env_hits = word_hits(env, ctx, WordBytes::Ident);
    // `unset NAME` takes the variable away (the new flow's scripts do so): no use. A
    // container's `value: ${NAME}` right below its `- name: NAME` is the same setting.
    env_hits.retain(|h| !unset_at(text, h.start) && !value_of_named_entry(text, h.start, env));
    // The bare name in a printed message (`echo "  - REGISTRATION_TOKEN" >&2`, a list of the
    // variables a script needs) names the variable; it reads nothing.
    env_hits.retain(|h| {
        h.start == 0
            || matches!(text[h.start - 1], b'$' | b'{')
            || !super::in_printed_message(text, h.start)
    });
    // In a file that hands the flag its value (`--registration-token "$REGISTRATION_TOKEN"`),
    // a check that the variable is set (`if [ -z "$REGISTRATION_TOKEN" ]`, `:
    // "${REGISTRATION_TOKEN:?…}"`) is the script's own: the use is the flag. Its settings
    // (`REGISTRATION_TOKEN=…`, `-e REGISTRATION_TOKEN`) and other reads still count.
    if !found.is_empty() {
        env_hits.retain(|h| !set_check(text, h.start, env.len()));
    }
    env_hits.sort_by_key(|h| h.start);
    if env_hits.is_empty() {
        return env_hits;
    }
    let flag_lines = line_numbers(text, found.iter().map(|h| h.start));
    let env_lines = line_numbers(text, env_hits.iter().map(|h| h.start));
    let mut last = None;
    env_hits
        .into_iter()
        .zip(env_lines)
        .filter(|(_, line)| {
            flag_lines.binary_search(line).is_err() && last.replace(*line) != Some(*line)
        })
        .map(|(h, _)| h)
        .collect()
}

/// Is the name at `at` (`len` bytes) read only to check that it is set: `[ -z "$NAME" ]`,
/// `[[ -n $NAME ]]`, `test -z "${NAME}"`, or `: "${NAME:?message}"`?
fn set_check(text: &[u8], at: usize, len: usize) -> bool {
    let braced = at >= 2 && text[at - 1] == b'{' && text[at - 2] == b'$';
    let dollar = at >= 1 && text[at - 1] == b'$';
    if !(braced || dollar) {
        return false;
    }
    let start = if braced { at - 2 } else { at - 1 };
    let before = text[..start].trim_ascii_end();
    let before = before.strip_suffix(b"\"").unwrap_or(before).trim_ascii_end();
    if before.ends_with(b"-z") || before.ends_with(b"-n") {
        return true;
    }
    // `: "${NAME:?…}"`, `: ${NAME:?…}`: the no-op command whose expansion stops the script.
    let line_start = memchr::memrchr(b'\n', &text[..start]).map_or(0, |i| i + 1);
    braced && before.get(line_start..) == Some(b":") && text[at + len..].starts_with(b":?")
}

impl CliFlag {
    /// The commands of the program and of its other names whose line holds one of the flags'
    /// `bits`: the program's own list as found once per file, merged only where an alias (or,
    /// in a file naming the program, an entrypoint) occurs.
    fn commands<'a>(
        &self,
        ctx: &FileCtx<'_, 'a>,
        program: &str,
        sub: &str,
        bits: u64,
    ) -> std::rc::Rc<Vec<Command<'a>>> {
        let own = ctx.flagged_commands(program, sub, bits);
        let entrypoints = (!self.entrypoints.is_empty() && ctx.contains(program))
            .then_some(self.entrypoints.iter())
            .into_iter()
            .flatten();
        let others: Vec<&String> = (self.aliases.iter().chain(entrypoints))
            .filter(|name| ctx.contains(name))
            .collect();
        let expressions = ctx.expression_commands(sub, &self.signature);
        if others.is_empty() && expressions.is_empty() {
            return own;
        }
        let mut all = own.as_ref().clone();
        for name in others {
            all.extend(ctx.flagged_commands(name, sub, bits).iter().cloned());
        }
        // An expression that is the program found already (a variable assigned its path).
        let known: Vec<usize> = all.iter().map(|c| c.program.start).collect();
        all.extend(
            (expressions.iter())
                .filter(|c| !known.contains(&c.program.start))
                .cloned(),
        );
        std::rc::Rc::new(all)
    }

    /// With `values`, the hits whose value (written after them: `=cmd`, ` cmd`, `='cmd'`,
    /// `: "cmd"`, `", "cmd"`) is one of them; else all.
    fn with_value(&self, mut hits: Vec<Hit>, text: &[u8]) -> Vec<Hit> {
        if !self.values.is_empty() {
            hits.retain(|h| {
                value_after(text, h.end)
                    .is_some_and(|v| self.values.iter().any(|w| w.as_bytes().eq_ignore_ascii_case(v)))
            });
        }
        hits
    }
}

/// The value written after a flag or a variable's name ending at `end`: past blanks, quotes and
/// one `=`, `:` or `,` on the same line, a word of letters, digits, `_`, `-` and `.`.
fn value_after(text: &[u8], end: usize) -> Option<&[u8]> {
    let mut i = end;
    let mut signs = 0;
    while let Some(&c) = text.get(i) {
        match c {
            b' ' | b'\t' | b'"' | b'\'' => {}
            b'=' | b':' | b',' if signs == 0 => signs += 1,
            _ => break,
        }
        i += 1;
        if i - end > 8 {
            return None;
        }
    }
    let n = text[i..]
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
        .count();
    (n > 0).then(|| &text[i..i + n])
}

/// Is the name at `at` an operand of `unset` (`unset RUNNER_TAG_LIST`, `unset -v A B`, `then
/// unset A`, a name on a line that continues `unset A \`), in a command that starts its line, a
/// string, or follows `;`, `&&`, `||`, `(`? Only the names and options just before it are read,
/// a short way back: each of many names on one line costs a few bytes, not the line.
pub fn unset_at(text: &[u8], at: usize) -> bool {
    const REACH: usize = 256;
    let lo = at.saturating_sub(REACH);
    let mut i = at;
    while i > lo {
        let c = text[i - 1];
        if is_ident_byte(c) || matches!(c, b' ' | b'\t' | b'-') {
            i -= 1;
            continue;
        }
        // A line continuation (`\` ending the line above): the command goes on.
        let k = if c == b'\n' && i >= 2 && text[i - 2] == b'\r' {
            i - 2
        } else {
            i - 1
        };
        if c == b'\n' && k > lo && text[k - 1] == b'\\' {
            i = k - 1;
            continue;
        }
        break;
    }
    let boundary = i == 0
        || (i > lo
            && matches!(text[i - 1], b'\n' | b';' | b'&' | b'|' | b'(' | b'{' | b'"' | b'\'' | b'`'));
    if !boundary {
        return false;
    }
    let mut run = text[i..at].trim_ascii_start();
    for keyword in [&b"then"[..], b"do", b"else"] {
        if let Some(rest) = run.strip_prefix(keyword).filter(|r| r.first() == Some(&b' ')) {
            run = rest.trim_ascii_start();
        }
    }
    run.strip_prefix(b"unset")
        .is_some_and(|rest| matches!(rest.first(), Some(b' ' | b'\t')))
}

/// `flag` as an argument outside comments: with `quoted`, a whole quoted string or one with its
/// value (`"--locked"`, `'--locked=false'`, `"--tag-list ${tags}"`, `` `--tag-list "${t}"` ``);
/// or a word of a quoted string of arguments only ([`in_argument_string`]); with `shell`, a word
/// of the arguments a script gathers in a variable ([`gathered_at`]) and hands to a line naming
/// one of `words` ([`handed_to`]); and a YAML block list's item (`- --locked=false`,
/// `- --tag-list docker`). Not a sentence that starts with it (`"--locked is gone"`,
/// `- --locked is gone`).
fn list_arguments(
    flag: &str,
    (quoted, shell, yaml_values): (bool, bool, bool),
    words: &[&str],
    ctx: &FileCtx,
) -> Vec<Hit> {
    let text = ctx.src.text.as_bytes();
    // Whether each gathering variable is handed to the program: the file is read once a name.
    let mut handed = super::Answers::default();
    ctx.word_offsets(flag, WordBytes::Other(|c| is_ident_byte(c) || c == b'-'))
        .filter(|&at| {
            let quote = if at > 0 { text[at - 1] } else { 0 };
            let after = at + flag.len();
            // Gathered in a shell variable: an argument where the variable is handed to the
            // command (`CARGO_FLAGS="--locked"` for another program is not).
            let gathered = if shell { gathered_at(text, at) } else { None };
            if let Some(name) = gathered {
                return matches!(quote, b' ' | b'\t' | b'(' | b'"' | b'\'')
                    && matches!(
                        text.get(after),
                        None | Some(b' ' | b'\t' | b'\n' | b'\r' | b'=' | b'"' | b'\'' | b')')
                    )
                    && handed.is(name, || {
                        handed_to(text, name, words) || array_holds(text, name, words)
                    });
            }
            if quoted
                && matches!(quote, b'"' | b'\'' | b'`')
                && match text.get(after) {
                    Some(&c) if c == quote || c == b'=' => true,
                    Some(b' ') => one_value(&text[after + 1..], quote),
                    _ => false,
                }
            {
                return true;
            }
            if quoted && in_argument_string(text, at) {
                return true;
            }
            if yaml_values && value_of_arguments(text, at) {
                return true;
            }
            list_item_at(text, at)
                && match text.get(after) {
                    None | Some(b'\n' | b'\r' | b'=') => true,
                    Some(b' ' | b'\t') => one_item_value(&text[after..]),
                    _ => false,
                }
        })
        .filter(|&at| !ctx.src.in_comment(at) && !super::in_printed_message(text, at))
        .map(|at| Hit::new(at, at + flag.len(), flag))
        .collect()
}

/// How far around a flag the string that holds it is looked for.
const STRING_REACH: usize = 512;

/// Is the flag at `at` inside a quoted string of arguments on its line (`"--registration-token
/// $T --tag-list $L --locked=false"`, `" --tag-list ${TAGS// /,}"`): a string that starts with
/// a flag and holds only flags and, after a flag, its one value? Collected arguments are
/// expanded into the command later. A message that names flags (`"ignored: --tag-list,
/// --locked"`, `"--locked is gone"`) is no such string.
fn in_argument_string(text: &[u8], at: usize) -> bool {
    let lo = line_start_within(text, at, STRING_REACH);
    // The string open at the flag, read from the line's start: the values a string of
    // arguments quotes inside it (`" --executor 'docker' --tag-list 'a,b' "`) are not it.
    let mut open_at = None;
    for i in lo..at {
        let c = text[i];
        if matches!(c, b'"' | b'\'') && !escaped(text, i) {
            match open_at {
                None => open_at = Some((i, c)),
                Some((_, q)) if q == c => open_at = None,
                Some(_) => {}
            }
        }
    }
    let Some((open, quote)) = open_at else {
        return false;
    };
    // The string starts with a flag (cheapest test first: most strings that hold a flag are
    // messages).
    if !text[open + 1..at].trim_ascii_start().starts_with(b"-") {
        return false;
    }
    // The quote opens a string: an even number of the same quotes before it on the line.
    if (lo..open).filter(|&i| text[i] == quote && !escaped(text, i)).count() % 2 != 0 {
        return false;
    }
    let hi = (at + STRING_REACH).min(text.len());
    let Some(close) = (at..hi).find(|&i| text[i] == quote && !escaped(text, i)) else {
        return false;
    };
    if text[at..close].contains(&b'\n') {
        return false;
    }
    arguments_only(&text[open + 1..close])
}

/// Is the flag at `at` the start of a YAML key's value of arguments only, plain or quoted
/// (`REGISTER_ARGS: --locked=false --access-level=not_protected`, `EXTRA: "--tag-list=a"`)? Not
/// an item of a list (a service's `command: ["register", "--locked"]` is read with its image).
fn value_of_arguments(text: &[u8], at: usize) -> bool {
    let quote = match text[..at].last() {
        Some(&q @ (b'"' | b'\'')) => Some(q),
        _ => None,
    };
    let before = text[..at - usize::from(quote.is_some())].trim_ascii_end();
    if !before.ends_with(b":") || at == before.len() {
        return false;
    }
    let line_start = line_start_within(before, before.len(), STRING_REACH);
    let key = before[line_start..before.len() - 1].trim_ascii();
    let key = key.strip_prefix(b"- ").unwrap_or(key).trim_ascii_start();
    if key.is_empty() || !key.iter().all(|&c| is_ident_byte(c) || c == b'-' || c == b'.') {
        return false;
    }
    let reach = (at + STRING_REACH).min(text.len());
    let end = memchr::memchr(b'\n', &text[at..reach]).map_or(reach, |i| at + i);
    let value = &text[at..end];
    let value = match quote {
        // Up to the closing quote (an escaped one is the value's own). The flag with its value
        // (`"--tag-list=\"a, b\""`) is the whole string too.
        Some(q) => match (0..value.len()).find(|&i| value[i] == q && !escaped(value, i)) {
            Some(close) if value[..close].split(|c| *c == b' ').next().is_some_and(|w| w.contains(&b'=')) => {
                return true;
            }
            Some(close) => &value[..close],
            None => return false,
        },
        None => (1..value.len())
            .find(|&i| value[i] == b'#' && value[i - 1].is_ascii_whitespace())
            .map_or(value, |i| &value[..i]),
    };
    arguments_only(value)
}

/// Is the quote at `i` escaped (`\"`, PowerShell's `` `" ``)?
fn escaped(text: &[u8], i: usize) -> bool {
    i > 0 && matches!(text[i - 1], b'\\' | b'`')
}

/// Does `s` hold only command-line arguments: words that are flags (`--x`, `--x=v`, `-x`), each
/// maybe followed by one value word? Expansions (`${A// /,}`, `$(cmd)`) are one word.
fn arguments_only(s: &[u8]) -> bool {
    let mut words = Vec::new();
    let (mut depth, mut start) = (0usize, None);
    for (i, &c) in s.iter().enumerate() {
        match c {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c.is_ascii_whitespace() && depth == 0 {
            if let Some(st) = start.take() {
                words.push(&s[st..i]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    words.extend(start.map(|st| &s[st..]));
    let mut value_may_follow = false;
    for (k, w) in words.iter().enumerate() {
        if w.starts_with(b"-") {
            if w.len() < 2 || matches!(w[w.len() - 1], b',' | b'.' | b':' | b';') {
                return false;
            }
            value_may_follow = !w.contains(&b'=');
        } else if k == 0 || !value_may_follow {
            return false;
        } else {
            value_may_follow = false;
        }
    }
    words.len() > 1 || words.first().is_some_and(|w| w.starts_with(b"-"))
}

/// Is the word at `at` gathered as an argument by a shell script: on a line that sets a variable
/// (`OPTS="$OPTS --tag-list $T"`, `ARGS+=(--locked=false)`, `local args=(…)`) or the positional
/// arguments (`set -- "$@" --tag-list "$T"`), to be handed to the command later (`"$@"`,
/// `gitlab-runner register $OPTS`)? Only the line's start is read, within a bound.
fn gathered_at(text: &[u8], at: usize) -> Option<&[u8]> {
    let start = line_start_within(text, at, STRING_REACH);
    if start > 0 && text[start - 1] != b'\n' {
        return None; // a line longer than the bound: its start is not read
    }
    let mut line = &text[start..at];
    // An element line of an array written over several lines (`ARGS+=(` … `--tag-list "$T"` … `)`).
    if line.iter().all(|&c| c == b' ' || c == b'\t') {
        return open_array_above(text, start);
    }
    // Most flags are on a command's line: neither an assignment nor `set --` before them.
    if memchr::memchr(b'=', line).is_none() && !line.windows(7).any(|w| w == b"set -- ") {
        return None;
    }
    // The last statement of the line before the word (`[ -n "$L" ] && OPTS="$OPTS --locked"`).
    for sep in [&b"&& "[..], b"|| ", b"; ", b"then ", b"else "] {
        if let Some(i) = line.windows(sep.len()).rposition(|w| w == sep) {
            line = &line[i + sep.len()..];
        }
    }
    let mut line = line.trim_ascii_start();
    if line.starts_with(b"set -- ") {
        return Some(b"@");
    }
    for keyword in [&b"local "[..], b"export ", b"readonly ", b"declare -a ", b"typeset "] {
        if let Some(rest) = line.strip_prefix(keyword) {
            line = rest.trim_ascii_start();
            break;
        }
    }
    let n = line.iter().take_while(|&&c| is_ident_byte(c)).count();
    let rest = &line[n..];
    (n > 0 && !line[0].is_ascii_digit() && (rest.starts_with(b"=") || rest.starts_with(b"+=")))
        .then_some(&line[..n])
}

/// How many lines above an array's element its opening line (`ARGS+=(`) is looked for.
const ARRAY_REACH: usize = 32;

/// The name of the shell array whose opening line (`ARGS=(`, `ARGS+=(`, `local args=(`, alone
/// on its line) is above the line starting at `start`, with only element lines between (none
/// holding `)` or `=(`). Read back at most [`ARRAY_REACH`] lines of at most [`STRING_REACH`]
/// bytes each.
fn open_array_above(text: &[u8], start: usize) -> Option<&[u8]> {
    if start > 1 && text[..start - 1].trim_ascii_end().ends_with(b"\\") {
        return open_string_above(text, start);
    }
    for line in lines_above(text, start) {
        if let Some(open) = line.strip_suffix(b"(") {
            let open = open.strip_suffix(b"=")?;
            return shell_name(open.strip_suffix(b"+").unwrap_or(open));
        }
        if line.contains(&b')') || line.windows(2).any(|w| w == b"=(") {
            return None;
        }
    }
    None
}

/// The name of the shell variable whose double-quoted value, continued over lines by `\`, holds
/// the line starting at `start` (`ARGS="--non-interactive \` ⏎ … ⏎ `--tag-list '$T' \`): its
/// opening line (`ARGS="…\`, `local args="…\`) is above, with only continued lines between.
/// Read back at most [`ARRAY_REACH`] lines of at most [`STRING_REACH`] bytes each.
fn open_string_above(text: &[u8], start: usize) -> Option<&[u8]> {
    for line in lines_above(text, start) {
        if !line.ends_with(b"\\") {
            return None;
        }
        if let Some(q) = memchr::memchr(b'"', line)
            && line.iter().filter(|&&c| c == b'"').count() % 2 == 1
        {
            return shell_name(line[..q].strip_suffix(b"=")?);
        }
    }
    None
}

/// The lines above the line starting at `start`, nearest first, trimmed: at most
/// [`ARRAY_REACH`] of them, and none longer than [`STRING_REACH`] bytes (the walk stops there).
fn lines_above(text: &[u8], start: usize) -> impl Iterator<Item = &[u8]> {
    let mut end = start;
    std::iter::from_fn(move || {
        if end == 0 {
            return None;
        }
        let s = line_start_within(text, end - 1, STRING_REACH);
        if s > 0 && text[s - 1] != b'\n' {
            return None;
        }
        let line = text[s..end - 1].trim_ascii();
        end = s;
        Some(line)
    })
    .take(ARRAY_REACH)
}

/// The shell variable's name that `lead` ends with (after a blank or a keyword: `local args`).
fn shell_name(lead: &[u8]) -> Option<&[u8]> {
    let name = lead.rsplit(|&c| c == b' ' || c == b'\t').next()?;
    let ident =
        !name.is_empty() && !name[0].is_ascii_digit() && name.iter().all(|&c| is_ident_byte(c));
    ident.then_some(name)
}

/// Does the shell array `name` hold one of `words` where it is first written over lines
/// (`ARGS=(` ⏎ `gitlab-runner register` …)? Each opening is read up to its `)`, at most
/// [`ARRAY_REACH`] lines of [`STRING_REACH`] bytes.
fn array_holds(text: &[u8], name: &[u8], words: &[&str]) -> bool {
    let mut open = Vec::with_capacity(name.len() + 2);
    open.extend_from_slice(name);
    open.extend_from_slice(b"=(");
    memchr::memmem::find_iter(text, &open).any(|at| {
        let from = at + open.len();
        // Only an opening that ends its line (`ARGS=(` ⏎): each line opens at most one, so
        // the bodies read are at most [`ARRAY_REACH`] lines a line of the file.
        let opens = (at == 0 || !is_ident_byte(text[at - 1]))
            && matches!(text.get(from), Some(b'\n' | b'\r'));
        if !opens {
            return false;
        }
        let mut body = &text[from..(from + ARRAY_REACH * STRING_REACH).min(text.len())];
        let mut lines = 0;
        let end = body
            .iter()
            .position(|&c| {
                lines += usize::from(c == b'\n');
                c == b')' || lines > ARRAY_REACH
            })
            .unwrap_or(body.len());
        body = &body[..end];
        words
                .iter()
                .any(|w| memchr::memmem::find(body, w.as_bytes()).is_some())
    })
}

/// Is the variable `name` (`@`: the positional arguments) expanded on a line that also holds
/// one of `words` (the program or its subcommand: `gitlab-runner register $OPTS`,
/// `gitlab-runner "${ARGS[@]}"`, `exec "$@"` below `set -- gitlab-runner register`)?
fn handed_to(text: &[u8], name: &[u8], words: &[&str]) -> bool {
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'$', &text[at..]) {
        let d = at + i;
        at = d + 1;
        let rest = &text[d + 1..];
        let rest = rest.strip_prefix(b"{").unwrap_or(rest);
        let expands = rest.starts_with(name)
            && !rest.get(name.len()).is_some_and(|&c| is_ident_byte(c));
        if !expands {
            continue;
        }
        let s = memchr::memrchr(b'\n', &text[..d]).map_or(0, |k| k + 1);
        let e = memchr::memchr(b'\n', &text[d..]).map_or(text.len(), |k| d + k);
        let line = &text[s..e];
        if name == b"@" || words.iter().any(|w| memchr::memmem::find(line, w.as_bytes()).is_some()) {
            return true;
        }
    }
    false
}

/// Is `rest` (after the flag and a space, inside a string quoted by `quote`) the flag's one
/// value: an interpolation or a quoted value, or one word up to the closing quote? A sentence
/// (`"--locked is gone"`) has more words.
fn one_value(rest: &[u8], quote: u8) -> bool {
    match rest.first() {
        Some(b'$' | b'{' | b'"' | b'\'') => true,
        Some(_) => rest
            .iter()
            .position(|&c| c == quote || c.is_ascii_whitespace())
            .is_some_and(|i| i > 0 && rest[i] == quote),
        None => false,
    }
}

/// Does a YAML block list's item start at `at` (only blanks and `- ` before it on its line)?
/// Read back over those bytes only: a flag repeated on one long line is not walked back to the
/// line's start each time.
fn list_item_at(text: &[u8], at: usize) -> bool {
    let spaces = text[..at].iter().rev().take_while(|&&c| c == b' ').count();
    let dash = at - spaces;
    if spaces == 0 || dash == 0 || text[dash - 1] != b'-' {
        return false;
    }
    let indent = text[..dash - 1]
        .iter()
        .rev()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    let start = dash - 1 - indent;
    start == 0 || text[start - 1] == b'\n'
}

/// Is `rest` (after the flag, up to the line's end or a ` #` comment) one value: a single word,
/// or a quoted value or interpolation? A sentence has more words.
fn one_item_value(rest: &[u8]) -> bool {
    let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
    let line = &rest[..end];
    let line = (1..line.len())
        .find(|&i| line[i] == b'#' && line[i - 1].is_ascii_whitespace())
        .map_or(line, |i| &line[..i]);
    let v = line.trim_ascii();
    match v.first() {
        None => true,
        Some(b'"' | b'\'' | b'$' | b'{') => true,
        Some(_) => !v.iter().any(u8::is_ascii_whitespace),
    }
}

/// The 0-based line of each offset, in one pass over the text: the offsets are sorted first
/// (the answer is in the order of the sorted offsets, ascending). A line with thousands of hits
/// is not searched back to its start for each.
fn line_numbers(text: &[u8], offsets: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut offsets: Vec<usize> = offsets.collect();
    offsets.sort_unstable();
    let mut breaks = memchr::memchr_iter(b'\n', text).peekable();
    let mut line = 0;
    offsets
        .into_iter()
        .map(|at| {
            while breaks.next_if(|&b| b < at).is_some() {
                line += 1;
            }
            line
        })
        .collect()
}
