//! Pattern kinds: the ways a user's file shows the use of a scheduled item. Each kind is one
//! file that owns all of it: its fields as written (the schema and their checks), what it gives
//! the scanner's prefilter (its anchor, context anchors and literals), its description for
//! `explain`, the kinds of file it applies to, and its detection. Model: one lint rule per file.
//!
//! Adding a kind: a new file here implementing [`PatternKind`], and one line in the
//! `pattern_kinds!` table below (plus its fixtures and its row in `data/README.md`, which a test
//! compares with the kinds' schemas).
//!
//! Layering: below the catalog (which stores [`Pattern`]s and loads them through
//! [`Pattern::parse`]) and above [`crate::syntax`] (how a file is read). It knows nothing of
//! findings, versions or output formats.

pub mod check;
pub mod distinctive;
pub mod raw;
pub mod seen_in;

use serde::Serialize;

use crate::syntax::{FileCtx, FileKind, WordBytes, is_ident_byte};
use check::{Check, Fields};
use distinctive::Distinctive;
use raw::RawPattern;
use seen_in::SeenIn;

/// A pattern of an entry, with where its spelling was seen (`seen_in`, a field every kind
/// takes). Derefs to the pattern.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourcedPattern {
    #[serde(flatten)]
    pub pattern: Pattern,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seen_in: Vec<SeenIn>,
    /// The written forms found in any text file (see [`distinctive`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub distinctive: Vec<Distinctive>,
    /// Other systems that write the distinctive forms too: in a file naming one of them, the
    /// forms alone are not reported (see [`distinctive`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_systems: Vec<String>,
}

impl std::ops::Deref for SourcedPattern {
    type Target = Pattern;
    fn deref(&self) -> &Pattern {
        &self.pattern
    }
}

impl SourcedPattern {
    /// Check a raw pattern against its kind's schema and parse it with its sources. `None`:
    /// the problems are in `check`.
    pub fn parse(raw: &RawPattern, check: &mut Check) -> Option<SourcedPattern> {
        let before = check.problems.len();
        let seen_in = seen_in::parse(raw, check);
        let pattern = Pattern::parse(raw, check)?;
        let distinctive = distinctive::parse(raw, &pattern.literals(), check);
        let other_systems = distinctive::parse_other_systems(raw, &distinctive, check);
        (check.problems.len() == before).then_some(SourcedPattern {
            pattern,
            seen_in,
            distinctive,
            other_systems,
        })
    }
}

/// One use of a pattern in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    /// What is shown as matched (`CI_JOB_JWT_V2`, `trigger.strategy: depend`).
    pub matched: String,
    /// The match lacks context that would confirm it (e.g. the HTTP method is not visible).
    pub weak: bool,
}

impl Hit {
    pub fn new(start: usize, end: usize, matched: impl Into<String>) -> Self {
        Self {
            start,
            end,
            matched: matched.into(),
            weak: false,
        }
    }
}

/// One kind of pattern. Implemented once per file of this module.
pub trait PatternKind: Sized {
    /// The `kind:` spelling in data files.
    const NAME: &'static str;
    /// The fields a pattern of this kind must have.
    const REQUIRED: &'static [&'static str];
    /// The fields it may have.
    const OPTIONAL: &'static [&'static str];
    /// What it matches, as `data/README.md` says it.
    const MATCHES: &'static str;

    /// Read and check the fields (present and applicable ones only; presence of the required
    /// ones is checked before). `None`: a problem was recorded.
    fn parse(fields: &mut Fields) -> Option<Self>;

    /// The one literal a file must contain for the pattern to match anywhere in it (its
    /// rarest fixed part): what the prefilter looks for, and `query --literals` lists.
    fn anchor(&self) -> String;

    /// The literals of which a file must contain one for the pattern to match anywhere in it:
    /// by default the anchor alone.
    fn anchors(&self) -> Vec<String> {
        vec![self.anchor()]
    }

    /// Literals of which a file must also contain one (empty: none needed).
    fn context_anchors(&self) -> Vec<String> {
        Vec::new()
    }

    /// Other literals the detector looks for in a file (whether they occur, where): the
    /// prefilter finds them in the same pass as the anchors, so the detector need not.
    fn searched(&self) -> Vec<String> {
        Vec::new()
    }

    /// The evidence (`data/evidence.yml`) whose words the file must also hold one of, besides
    /// [`Self::context_anchors`] (none: no such condition).
    fn context_evidence(&self) -> &'static [crate::catalog::evidence::Shows] {
        &[]
    }

    /// The evidence whose words the detector asks about, as [`Self::searched`].
    fn searched_evidence(&self) -> &'static [crate::catalog::evidence::Shows] {
        &[]
    }

    /// The literals a user's file shows when it uses the item (`explain TOKEN`); by default
    /// the anchor alone.
    fn literals(&self) -> Vec<String> {
        vec![self.anchor()]
    }

    /// The ways a user's file writes the item, for search by written form: the literals and
    /// the description by default; a key with values adds `key: value`.
    fn written_forms(&self) -> Vec<String> {
        let mut forms = self.literals();
        forms.push(self.describe());
        forms
    }

    /// What the pattern's `replace_with` replaces: by default its anchor.
    fn renamed(&self) -> String {
        self.anchor()
    }

    /// The pattern's `replace_with`, for kinds that take one.
    fn replace_with(&self) -> Option<&str> {
        None
    }

    /// A machine-applicable rename: the literal and what replaces it.
    fn rename(&self) -> Option<(String, &str)> {
        let r = self.replace_with()?;
        Some((self.renamed(), r))
    }

    /// A one-line human description, for `explain` and tables.
    fn describe(&self) -> String;

    /// Does the pattern apply to a kind of file at all?
    fn applies(&self, kind: FileKind) -> bool;

    /// Every use of the pattern in the file.
    fn detect(&self, ctx: &FileCtx) -> Vec<Hit>;
}

/// `s`, or `s = a | b` when a pattern restricts the values.
pub fn with_values(s: String, values: &[String]) -> String {
    if values.is_empty() {
        s
    } else {
        format!("{s} = {}", values.join(" | "))
    }
}

/// The longest literal segment of a path template (`/projects/:id/runners` → `projects`).
pub fn path_anchor(path: &str) -> Option<&str> {
    crate::syntax::rest::fixed_segments(path).max_by_key(|s| s.len())
}

/// The registration table: `Variant => module::Type`, one line per kind, in the order
/// `data/README.md` and error messages list them.
macro_rules! pattern_kinds {
    ($($variant:ident => $module:ident :: $ty:ident,)*) => {
        $(pub mod $module;)*

        /// A structured detection pattern: one of the kinds.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        pub enum Pattern {
            $($variant($module::$ty),)*
        }

        /// Every kind: its name, required and optional fields, and what it matches.
        pub const KINDS: &[KindSchema] = &[
            $(KindSchema {
                name: <$module::$ty as PatternKind>::NAME,
                required: <$module::$ty as PatternKind>::REQUIRED,
                optional: <$module::$ty as PatternKind>::OPTIONAL,
                matches: <$module::$ty as PatternKind>::MATCHES,
            },)*
        ];

        /// Calls `$call` on the kind inside a pattern.
        macro_rules! each_kind {
            ($pattern:expr, $p:ident => $call:expr) => {
                match $pattern {
                    $(Pattern::$variant($p) => $call,)*
                }
            };
        }

        impl Pattern {
            /// Parse the fields of a pattern of kind `kind` (a name of [`KINDS`]).
            fn parse_kind(kind: &str, fields: &mut Fields) -> Option<Pattern> {
                $(if kind == <$module::$ty as PatternKind>::NAME {
                    return <$module::$ty as PatternKind>::parse(fields).map(Pattern::$variant);
                })*
                None
            }
        }
    };
}

pattern_kinds! {
    Variable => variable::Variable,
    YamlKey => yaml_key::YamlKey,
    HelmValue => helm_value::HelmValue,
    CliFlag => cli_flag::CliFlag,
    CliCommand => cli_command::CliCommand,
    IacArgument => iac_argument::IacArgument,
    OmnibusSetting => omnibus_setting::OmnibusSetting,
    TomlKey => toml_key::TomlKey,
    Metric => metric::Metric,
    RestEndpoint => rest_endpoint::RestEndpoint,
    RestField => rest_field::RestField,
    RestParam => rest_param::RestParam,
    SdkCall => sdk_call::SdkCall,
    SdkField => sdk_field::SdkField,
    ResourceField => resource_field::ResourceField,
    Graphql => graphql::Graphql,
    Literal => literal::Literal,
}

/// A kind's schema, as the registration table lists it.
#[derive(Clone, Copy, Debug)]
pub struct KindSchema {
    pub name: &'static str,
    pub required: &'static [&'static str],
    pub optional: &'static [&'static str],
    pub matches: &'static str,
}

impl KindSchema {
    fn takes(&self) -> String {
        let mut all: Vec<&str> = self.required.to_vec();
        all.extend(self.optional);
        all.push(seen_in::FIELD);
        all.push(distinctive::FIELD);
        all.push(distinctive::OTHER_SYSTEMS);
        all.join(", ")
    }
}

impl Pattern {
    /// Check a raw pattern against its kind's schema and parse it. `None`: the problems are in
    /// `check`.
    pub fn parse(raw: &RawPattern, check: &mut Check) -> Option<Pattern> {
        let Some(schema) = KINDS.iter().find(|k| k.name == raw.kind.value) else {
            let all: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
            check.err_at(
                &raw.kind,
                format!("unknown pattern kind `{}`", raw.kind.value),
                Some(format!("expected one of {}", all.join(", "))),
            );
            return None;
        };
        let kind = schema.name;
        let present = Fields::present(raw);
        let before = check.problems.len();
        for (field, at) in &present {
            if !schema.required.contains(field)
                && !schema.optional.contains(field)
                && *field != seen_in::FIELD
                && *field != distinctive::FIELD
                && *field != distinctive::OTHER_SYSTEMS
            {
                check.err_loc(
                    *at,
                    format!("`{field}` does not apply to a `{kind}` pattern"),
                    &format!("a `{kind}` pattern takes {}", schema.takes()),
                );
            }
        }
        for field in schema.required {
            if !present.iter().any(|(f, _)| f == field) {
                check.err_at(
                    &raw.kind,
                    format!("a `{kind}` pattern needs `{field}`"),
                    Some(format!("a `{kind}` pattern takes {}", schema.takes())),
                );
            }
        }
        if check.problems.len() > before {
            return None;
        }
        let p = Pattern::parse_kind(kind, &mut Fields::new(raw, check))?;
        (check.problems.len() == before).then_some(p)
    }

    /// The `kind:` spelling.
    pub fn kind(&self) -> &'static str {
        fn name<K: PatternKind>(_: &K) -> &'static str {
            K::NAME
        }
        each_kind!(self, p => name(p))
    }

    pub fn anchor(&self) -> String {
        each_kind!(self, p => p.anchor())
    }

    pub fn anchors(&self) -> Vec<String> {
        each_kind!(self, p => p.anchors())
    }

    /// The literals of which the file must also hold one: the detector's own, and the words of
    /// the evidence it needs.
    pub fn context_anchors(&self, ev: &crate::catalog::Evidence) -> Vec<String> {
        let mut v = each_kind!(self, p => p.context_anchors());
        for shows in each_kind!(self, p => p.context_evidence()) {
            v.extend(ev.words(*shows).map(str::to_string));
        }
        v
    }

    /// The literals the detector asks about: its own, and the words of the evidence it reads.
    pub fn searched(&self, ev: &crate::catalog::Evidence) -> Vec<String> {
        let mut v = each_kind!(self, p => p.searched());
        for shows in each_kind!(self, p => p.searched_evidence()) {
            v.extend(ev.words(*shows).map(str::to_string));
        }
        v
    }

    pub fn literals(&self) -> Vec<String> {
        each_kind!(self, p => p.literals())
    }

    pub fn written_forms(&self) -> Vec<String> {
        each_kind!(self, p => p.written_forms())
    }

    pub fn rename(&self) -> Option<(String, &str)> {
        each_kind!(self, p => p.rename())
    }

    pub fn describe(&self) -> String {
        each_kind!(self, p => p.describe())
    }

    pub fn applies(&self, kind: FileKind) -> bool {
        each_kind!(self, p => p.applies(kind))
    }

    pub fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        each_kind!(self, p => p.detect(ctx))
    }
}

/// `word` standing alone outside comments (not preceded or followed by a byte `is_word`
/// accepts): variables, metric names, literals, environment variables.
/// Nor the text of a shell expansion's error message (`${TOKEN:?set REGISTRATION_TOKEN}`
/// names the variable; it does not use it).
pub fn word_hits(word: &str, ctx: &FileCtx, bytes: WordBytes) -> Vec<Hit> {
    let text = ctx.src.text.as_bytes();
    // What a file's kind makes prose, asked once for the file.
    let kind = ctx.src.class.kind;
    let code = kind == FileKind::Code;
    let script = code || kind == FileKind::Shell;
    let yaml = kind == FileKind::Yaml;
    // Where the script first sets the word as its own variable: looked for once, if asked.
    let set_at = std::cell::LazyCell::new(|| first_assignment(text, word.as_bytes()));
    ctx.word_offsets(word, bytes)
        .filter(|&at| {
            !(ctx.src.in_comment(at)
                || in_expansion_message(text, at)
                || (code && crate::syntax::test_names::in_test_name(text, at))
                || (script && in_prose_string(text, at, at + word.len()))
                || (script && in_usage_string(text, at))
                || (kind == FileKind::Shell
                    && (in_terminal_message(text, at, &|| *set_at)
                        || in_terminal_heredoc(text, at)))
                || (yaml && crate::syntax::yaml::in_message(text, at))
                || in_sed_program(text, at))
        })
        .map(|at| Hit::new(at, at + word.len(), word))
        .take(MAX_WORD_HITS)
        .collect()
}

/// At most this many places of one word are taken in one file: the scan keeps at most 40,000
/// hits of a file and reports at most 10,000 findings (`scan::sink`), and a file that holds a
/// word millions of times costs no memory per occurrence past these.
pub const MAX_WORD_HITS: usize = 40_000;

/// How far back on its line a word is looked at for the `${NAME:?` it may stand in.
const EXPANSION_LOOK_BACK: usize = 256;

/// Is the bare word at `at` in the message of `${NAME:?message}` or `${NAME?message}`? Looks
/// back at most [`EXPANSION_LOOK_BACK`] bytes, within the line; an expansion closed before the
/// word (`${A:?x} WORD`, or one nested in the message: `${A:?${B} is unset: set WORD}`) is
/// passed over.
fn in_expansion_message(b: &[u8], at: usize) -> bool {
    if at == 0 || b[at - 1] == b'$' {
        return false;
    }
    let floor = at.saturating_sub(EXPANSION_LOOK_BACK);
    let mut i = at;
    let mut closed = 0usize;
    while i > floor + 1 {
        i -= 1;
        match b[i] {
            b'\n' => return false,
            b'}' => closed += 1,
            b'{' if b[i - 1] == b'$' && closed > 0 => closed -= 1,
            b'{' if b[i - 1] == b'$' => {
                let name_end = i
                    + 1
                    + b[i + 1..at]
                        .iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                        .count();
                let rest = &b[name_end..at];
                return name_end > i + 1 && (rest.starts_with(b":?") || rest.starts_with(b"?"));
            }
            _ => {}
        }
    }
    false
}

/// Is the word at `at` written as itself in the quoted program of a `sed` command on its line
/// (`sed -i '/CI_JOB_JWT=/c\\CI_JOB_JWT=secret' env`, `sed 's/REGISTRATION_TOKEN=.*//'`): text
/// the program matches or writes, not the variable (an expansion, `$NAME`, is the variable).
fn in_sed_program(b: &[u8], at: usize) -> bool {
    if at > 0 && matches!(b[at - 1], b'$' | b'{') {
        return false;
    }
    let line = &b[crate::syntax::line_start_within(b, at, PROSE_REACH)..at];
    let Some(sed) = memchr::memmem::rfind(line, b"sed ") else {
        return false;
    };
    let command = sed == 0 || matches!(line[sed - 1], b' ' | b'\t' | b'|' | b';' | b'(' | b'&');
    let program = &line[sed + 4..];
    let quotes = |q: u8| program.iter().filter(|&&c| c == q).count();
    command && (quotes(b'\'') % 2 == 1 || quotes(b'"') % 2 == 1)
}

/// Is the word at `at` in a string that opens with `usage` on its line (`echo "usage: $0
/// REGISTRATION_TOKEN"`, `print("Usage: register.py URL REGISTRATION_TOKEN")`): a command's
/// synopsis names its arguments, it does not use them.
fn in_usage_string(b: &[u8], at: usize) -> bool {
    let line = &b[crate::syntax::line_start_within(b, at, PROSE_REACH)..at];
    line.iter().enumerate().any(|(i, &c)| {
        matches!(c, b'"' | b'\'')
            && line[i + 1..].len() >= 5
            && line[i + 1..i + 6].eq_ignore_ascii_case(b"usage")
            && !line[i + 1..].contains(&c)
    })
}

/// Is the word at `at` written as itself (not expanded) in what a shell `echo` or `printf` prints
/// to the terminal (`echo "   runnerRegistrationToken: \"TOKEN\""`, `echo "set REGISTRATION_TOKEN"`)?
/// The statement starts the word's line, and nothing on the line sends its output elsewhere or
/// runs a command (`>`, `>>`, a pipe, `` ` ``, `$(`, a continuation): a message for the person
/// running the script names the item, it does not use it. Reads at most [`PROSE_REACH`] bytes
/// either side of the word (a longer line is no message).
/// `set_at`: where the script first sets the word as its own variable ([`first_assignment`]).
fn in_terminal_message(b: &[u8], at: usize, set_at: &dyn Fn() -> Option<usize>) -> bool {
    // An expansion (`echo $CI_JOB_JWT`) prints the value: a use, not a name; unless the script
    // set the variable itself above (`REGISTRATION_TOKEN=$(…)`, then `echo "token:
    // $REGISTRATION_TOKEN"`): then it prints the script's own value, used where it is handed on.
    if expanded(b, at) && set_at().is_none_or(|s| s > at) {
        return false;
    }
    let start = crate::syntax::line_start_within(b, at, PROSE_REACH);
    let head = b[start..at].trim_ascii_start();
    if !(head.starts_with(b"echo ") || head.starts_with(b"printf ")) {
        return false;
    }
    let hi = (at + PROSE_REACH).min(b.len());
    let Some(end) = memchr::memchr(b'\n', &b[at..hi])
        .map(|k| at + k)
        .or((hi == b.len()).then_some(hi))
    else {
        return false;
    };
    let line = &b[start..end];
    !line.iter().any(|&c| matches!(c, b'>' | b'|' | b'`'))
        && !line.windows(2).any(|w| w == b"$(")
        && !line.trim_ascii_end().ends_with(b"\\")
}

/// Is the flag at `at` a word of a message an `echo`, `printf` or `Write-Host` that starts its
/// line prints, the string neither redirected nor piped after its closing quote (`echo "
/// --registration-token <TOKEN> \\"`, instructions printed line by line)? A line that writes the
/// text on (`echo "…" >> register.sh`, `| sh`) runs it. Unlike [`in_terminal_message`], a `>` or
/// a trailing `\` inside the printed string is text. Reads at most [`PROSE_REACH`] bytes either
/// side of the flag.
pub(crate) fn in_printed_message(b: &[u8], at: usize) -> bool {
    let start = crate::syntax::line_start_within(b, at, PROSE_REACH);
    let head = b[start..at].trim_ascii_start();
    let command = [&b"echo "[..], b"printf ", b"Write-Host "]
        .iter()
        .any(|c| head.starts_with(c));
    if !command || !head.iter().any(|&c| c == b'"' || c == b'\'') {
        return false;
    }
    let hi = (at + PROSE_REACH).min(b.len());
    let end = memchr::memchr(b'\n', &b[at..hi]).map_or(hi, |k| at + k);
    // What follows the string's closing quote: a redirection or a pipe there writes it on.
    let rest = &b[at..end];
    let tail = rest
        .iter()
        .rposition(|&c| c == b'"' || c == b'\'')
        .map_or(rest, |q| &rest[q + 1..]);
    // A message sent to the terminal's other stream (`>&2`, `1>&2`) is still printed.
    let tail = tail.trim_ascii();
    let to_stream = [&b">&2"[..], b"1>&2", b">&1", b"2>&1"].contains(&tail);
    to_stream || !tail.iter().any(|&c| c == b'>' || c == b'|')
}

/// Where a line first sets the shell variable `name` (`NAME=…`, `export NAME=…`, `local NAME=…`,
/// `readonly NAME=…`, at the start of the line). Read once a word and file (a line of thousands
/// of `$NAME` asks for each).
fn first_assignment(b: &[u8], name: &[u8]) -> Option<usize> {
    let assignment = memchr::memmem::Finder::new(name);
    let mut from = 0;
    while let Some(k) = assignment.find(&b[from..]) {
        let i = from + k;
        from = i + name.len().max(1);
        if b.get(i + name.len()) != Some(&b'=') || (i > 0 && is_ident_byte(b[i - 1])) {
            continue;
        }
        // The line's start, looked for within a bound (a long line is no assignment's).
        let start = crate::syntax::line_start_within(b, i, 64);
        if start > 0 && b[start - 1] != b'\n' {
            continue;
        }
        let head = b[start..i].trim_ascii_start();
        if head.is_empty()
            || [&b"export "[..], b"local ", b"readonly ", b"declare "].contains(&head)
        {
            return Some(i);
        }
    }
    None
}

/// Is the word at `at` what a shell expansion reads (`$NAME`, `${NAME`, `${#NAME`, `${!NAME`)?
fn expanded(b: &[u8], at: usize) -> bool {
    let before = |k: usize| at.checked_sub(k).map(|i| b[i]);
    match before(1) {
        Some(b'$') => true,
        Some(b'{') => before(2) == Some(b'$'),
        Some(b'#' | b'!') => before(2) == Some(b'{') && before(3) == Some(b'$'),
        _ => false,
    }
}

/// How far back from a word the line that opens the heredoc holding it is looked for.
const HEREDOC_REACH: usize = 4 * 1024;

/// Is the word at `at` written as itself (not expanded) in the body of a heredoc that `cat` prints
/// to the terminal: a script's help text (`cat <<EOF` … `Auto-detected via CI_JOB_JWT_V2` …
/// `EOF`, also `cat <<-'USAGE'`, `cat >&2 <<EOF`)? The heredoc's line starts with `cat` and sends
/// its output nowhere else (no `>` into a file, pipe or `$(`: a heredoc written into a file or fed
/// to a command is data the script uses), and no line between it and the word closes it. Looks back at most
/// [`HEREDOC_REACH`] bytes, and only for the words the prefilter found.
fn in_terminal_heredoc(b: &[u8], at: usize) -> bool {
    if expanded(b, at) {
        return false;
    }
    let floor = at.saturating_sub(HEREDOC_REACH);
    let word_line = crate::syntax::line_start_within(b, at, at - floor);
    // The nearest line above the word that opens a heredoc (`<<`, not a here-string `<<<`).
    let mut cur = word_line;
    let (open_start, open_end, marker) = loop {
        if cur <= floor || cur == 0 {
            return false;
        }
        let end = cur - 1;
        let start = crate::syntax::line_start_within(b, end, end - floor);
        if start == floor && floor > 0 {
            return false;
        }
        let line = &b[start..end];
        let marker = line
            .windows(2)
            .enumerate()
            .find(|&(i, w)| {
                w == b"<<" && line.get(i + 2) != Some(&b'<') && (i == 0 || line[i - 1] != b'<')
            })
            .map(|(i, _)| i);
        if let Some(m) = marker {
            break (start, end, m);
        }
        cur = start;
    };
    let line = &b[open_start..open_end];
    let head = line.trim_ascii_start();
    if !(head.starts_with(b"cat ") || head.starts_with(b"cat<"))
        || line.contains(&b'|')
        // `>&2` prints to the terminal all the same; any other `>` writes a file.
        || line
            .iter()
            .enumerate()
            .any(|(i, &c)| c == b'>' && line.get(i + 1) != Some(&b'&'))
        || line.windows(2).any(|w| w == b"$(")
    {
        return false;
    }
    // The delimiter: `<<EOF`, `<<-EOF`, `<< 'EOF'`, `<<"EOF"`.
    let rest = line[marker + 2..]
        .strip_prefix(b"-")
        .unwrap_or(&line[marker + 2..]);
    let rest = rest.trim_ascii_start();
    let rest = rest
        .strip_prefix(b"'")
        .or_else(|| rest.strip_prefix(b"\""))
        .unwrap_or(rest);
    let len = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    if len == 0 {
        return false;
    }
    let delimiter = &rest[..len];
    // No line between the heredoc's line and the word's closes it.
    !b[open_end + 1..word_line]
        .split(|&c| c == b'\n')
        .any(|l| l.trim_ascii() == delimiter)
}

/// How far around a word the string literal that holds it is looked for.
const PROSE_REACH: usize = 400;

/// Is the word at `start..end` written as itself in a string of prose, a message or a
/// description (`'No GitLab OIDC token found (CI_JOB_JWT_V2 / CI_JOB_JWT)'`, `"CI_JOB_JWT is
/// not set"`)? The string, on the word's line, holds three words of letters besides it and
/// nothing that a command, a path or an expansion writes (`=`, `$`, `{`, `--`, `/` next to a
/// letter, `://`). A name expanded (`"$CI_JOB_JWT"`) or alone in its string
/// (`os.environ["CI_JOB_JWT"]`) is no prose.
fn in_prose_string(b: &[u8], start: usize, end: usize) -> bool {
    let line_start = crate::syntax::line_start_within(b, start, PROSE_REACH);
    let Some(open) = (line_start..start)
        .rev()
        .find(|&i| matches!(b[i], b'"' | b'\'' | b'`'))
    else {
        return false;
    };
    let quote = b[open];
    // The quote opens a string: an even number of the same quotes before it on the line.
    if b[line_start..open].iter().filter(|&&c| c == quote).count() % 2 != 0 {
        return false;
    }
    let hi = (end + PROSE_REACH).min(b.len());
    let Some(close) = (end..hi).find(|&i| b[i] == quote || b[i] == b'\n') else {
        return false;
    };
    if b[close] != quote {
        return false;
    }
    let content = &b[open + 1..close];
    let code_like = content
        .iter()
        .any(|&c| matches!(c, b'=' | b'$' | b'{' | b'|'))
        || content.windows(2).any(|w| w == b"--" || w == b"//")
        || content
            .windows(2)
            .any(|w| w[0] == b'/' && w[1].is_ascii_alphanumeric());
    if code_like {
        return false;
    }
    let words = [&b[open + 1..start], &b[end..close]]
        .into_iter()
        .flat_map(|part| part.split(|c| c.is_ascii_whitespace()))
        .map(|w| w.trim_ascii_start().strip_prefix(b"(").unwrap_or(w))
        .filter(|w| {
            let w = w
                .strip_suffix(b")")
                .unwrap_or(w)
                .strip_suffix(b":")
                .or_else(|| w.strip_suffix(b","))
                .or_else(|| w.strip_suffix(b"."))
                .unwrap_or(w);
            w.len() > 1 && w.iter().all(u8::is_ascii_alphabetic)
        })
        .count();
    words >= 3
}

/// The last fixed key of a key path (`*.trigger.strategy` → `strategy`).
pub fn key_path_anchor(path: &[String]) -> String {
    path.iter()
        .rev()
        .find(|s| !s.starts_with('*'))
        .cloned()
        .unwrap_or_default()
}

/// A key path as a finding shows it: its fixed keys, dotted (`*.trigger.strategy` →
/// `trigger.strategy`).
pub fn shown_path(path: &[String]) -> String {
    let fixed: Vec<&str> = path
        .iter()
        .map(String::as_str)
        .filter(|s| !s.starts_with('*'))
        .collect();
    fixed.join(".")
}

/// The written forms of a key path with values: its literals and description, and `key: value`
/// for each value (`trigger.strategy: depend`).
pub fn key_path_written_forms(path: &[String], values: &[String], describe: String) -> Vec<String> {
    let shown = shown_path(path);
    let mut forms = key_path_literals(path, values);
    forms.extend(values.iter().map(|v| format!("{shown}: {v}")));
    forms.push(describe);
    forms
}

/// The literals of a key path with values: the dotted path, its last fixed key, the values.
pub fn key_path_literals(path: &[String], values: &[String]) -> Vec<String> {
    let mut v = vec![path.join("."), key_path_anchor(path)];
    v.extend(values.iter().cloned());
    v
}

/// Answers of a question about names (a type's, a variable's), each asked once: a question
/// that reads the whole file is not asked again for each use of the name (few names: a list).
pub(super) struct Answers<K>(Vec<(K, bool)>);

impl<K> Default for Answers<K> {
    fn default() -> Self {
        Answers(Vec::new())
    }
}

impl<K: PartialEq + Copy> Answers<K> {
    pub(super) fn is(&mut self, name: K, ask: impl FnOnce() -> bool) -> bool {
        if let Some(&(_, known)) = self.0.iter().find(|(n, _)| *n == name) {
            return known;
        }
        let known = ask();
        self.0.push((name, known));
        known
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_in_an_expansions_message_is_not_a_use() {
        let at = |t: &str, n: usize| {
            let b = t.as_bytes();
            let i = t.match_indices("REGISTRATION_TOKEN").nth(n).unwrap().0;
            in_expansion_message(b, i)
        };
        let t = r#"--registration-token "${REGISTRATION_TOKEN:?set REGISTRATION_TOKEN}""#;
        assert!(!at(t, 0));
        assert!(at(t, 1));
        assert!(at("${TOKEN?REGISTRATION_TOKEN is unset}", 0));
        assert!(
            !at("${TOKEN:-REGISTRATION_TOKEN}", 0),
            "a default is not a message"
        );
        assert!(!at("${A:?x} REGISTRATION_TOKEN", 0), "after the expansion");
        assert!(!at("${A:?x\nREGISTRATION_TOKEN", 0), "on the next line");
        assert!(
            !at("${A:?x $REGISTRATION_TOKEN}", 0),
            "an expansion in the message"
        );
        let nested = "${REGISTRATION_TOKEN:?${REGISTRATION_TOKEN} unset: set REGISTRATION_TOKEN}";
        assert!(!at(nested, 0) && !at(nested, 1), "the uses");
        assert!(at(nested, 2), "a message with an expansion before the word");
        assert!(
            !at("${A:?x} ${B} REGISTRATION_TOKEN", 0),
            "after two expansions"
        );
    }

    /// The backticked names of a table cell, without the notes in parentheses.
    fn names(cell: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut depth = 0;
        let mut rest = cell;
        while let Some(c) = rest.chars().next() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                '`' if depth == 0 => {
                    let end = rest[1..].find('`').expect("closing backtick");
                    out.push(rest[1..=end].to_string());
                    rest = &rest[end + 2..];
                    continue;
                }
                _ => {}
            }
            rest = &rest[c.len_utf8()..];
        }
        out
    }

    /// `data/README.md` lists every kind, in the registration order, with its fields and what
    /// it matches.
    #[test]
    fn readme_table_matches_the_kinds() {
        let readme = include_str!("../../data/README.md");
        let rows: Vec<Vec<&str>> = readme
            .lines()
            .skip_while(|l| !l.starts_with("| kind |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
            .collect();
        assert_eq!(rows.len(), KINDS.len(), "one row per kind");
        for (row, kind) in rows.iter().zip(KINDS) {
            assert_eq!(row[0], format!("`{}`", kind.name));
            assert_eq!(
                names(row[1]),
                kind.required,
                "required fields of {}",
                kind.name
            );
            assert_eq!(
                names(row[2]),
                kind.optional,
                "optional fields of {}",
                kind.name
            );
            assert_eq!(row[3], kind.matches, "what {} matches", kind.name);
        }
    }
}
