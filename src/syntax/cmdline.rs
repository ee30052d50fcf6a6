//! Command lines with positions: `gitlab-runner register --locked=false \` … as a shell sees it,
//! wherever it is written (scripts, Dockerfiles, CI scripts, Ansible, Terraform strings, code).
//!
//! A command runs from its program word to the end of the logical line (a trailing `\`, `` ` ``
//! or `^` continues it), a shell operator (`;`, `&&`, `||`, `|`), or the end of the string that
//! holds it (`"gitlab-runner register --locked"` in code). A template expression (`{{ … }}`,
//! `{% … %}`) or a command substitution (`$(…)`) is one word, whatever it holds.
//!
//! The program may be held in a variable named after it (`{{ gitlab_runner_executable }}
//! register`, `& $gitLabRunnerPath register`), and a command may be stored in a variable and run
//! through it (`register_cmd: >- gitlab-runner register …` then `{{ register_cmd }} --locked`):
//! the words after such a use belong to the stored command ([`Command::alias`]).

use std::borrow::Cow;
use std::rc::Rc;

/// One word of a command line, unquoted, with its byte range in the file. A word written
/// without quotes or escapes is borrowed from the file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word<'t> {
    pub text: Cow<'t, str>,
    pub start: usize,
    pub end: usize,
}

impl<'t> Word<'t> {
    /// The word written at `start..end` of `text`, as written.
    fn at(text: &'t str, start: usize, end: usize) -> Self {
        Word {
            text: Cow::Borrowed(&text[start..end]),
            start,
            end,
        }
    }
}

/// A command: the program word, the subcommand and the words after it. The words of a command
/// line are read when they are asked for ([`Command::args`]): most commands are only counted,
/// and those whose arguments matter are the few whose line holds a flag looked for
/// ([`Command::args_reach`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command<'t> {
    pub program: Word<'t>,
    pub subcommand: Word<'t>,
    /// The command is the use of a variable that stores a command (`{{ register_cmd }}`): its
    /// program and subcommand are both that use.
    pub alias: bool,
    args: ArgsAt<'t>,
}

/// Where a command's arguments are.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ArgsAt<'t> {
    /// Read already (the command of a runner image, the items of an exec-form list).
    Read(Args<'t>),
    /// The words of the command line whose program (or stored command's use) is `at..end`,
    /// after the first `skip` (the options before the subcommand, and the subcommand); they end
    /// before `reach` when it is known ([`reach`]).
    Line {
        text: &'t str,
        /// The quote the command is written in, and the indentation of the folded YAML scalar
        /// that holds it ([`shape`]), found with its place.
        enclosing: Option<u8>,
        folded: Option<usize>,
        end: usize,
        skip: usize,
        reach: Option<usize>,
    },
}

impl<'t> Command<'t> {
    /// The words after the subcommand.
    pub fn args(&self) -> Args<'t> {
        match &self.args {
            ArgsAt::Read(args) => args.clone(),
            &ArgsAt::Line {
                text,
                enclosing,
                folded,
                end,
                skip,
                ..
            } => {
                let mut words = Vec::new();
                let mut push = |w| words.push(w);
                let mut buf = String::new();
                let mut groups = Groups::default();
                let state = (enclosing, folded, false);
                words_into(text, end, state, &mut push, &mut buf, &mut groups);
                let from = skip.min(words.len());
                Args {
                    to: words.len(),
                    words: Rc::new(words),
                    from,
                }
            }
        }
    }

    /// Each word after the subcommand, in order, read one at a time: what [`Self::args`] holds,
    /// without holding it (a command line of millions of words takes no memory per word).
    pub fn for_each_arg(&self, mut f: impl FnMut(&Word<'t>)) {
        match &self.args {
            ArgsAt::Read(args) => args.iter().for_each(f),
            &ArgsAt::Line {
                text,
                enclosing,
                folded,
                end,
                skip,
                ..
            } => {
                let mut n = 0;
                let mut each = |w: Word<'t>| {
                    if n >= skip {
                        f(&w);
                    }
                    n += 1;
                };
                let mut buf = String::new();
                let mut groups = Groups::default();
                let state = (enclosing, folded, false);
                words_into(text, end, state, &mut each, &mut buf, &mut groups);
            }
        }
    }

    /// A range of the text that holds every argument of the command, when it is known without
    /// reading them: from the end of the subcommand to the end of the logical line (its
    /// continuation lines included). `None` for a command whose words may run further (a
    /// folded YAML scalar, an exec-form list, a runner image's `command:`).
    pub fn args_reach(&self) -> Option<(usize, usize)> {
        match self.args {
            ArgsAt::Read(_) => None,
            ArgsAt::Line { reach, .. } => reach.map(|r| (self.subcommand.end, r)),
        }
    }

    /// For a command whose words run to the end of its logical line at the latest: where its
    /// words start (the end of its program) and the quote it is written in. Another command's
    /// words that pass a word ending there, outside quotes as this one is, go on as this
    /// command's words do: they hold its arguments.
    pub fn words_from(&self) -> Option<(usize, Option<u8>)> {
        match self.args {
            ArgsAt::Line {
                end,
                enclosing,
                reach: Some(_),
                ..
            } => Some((end, enclosing)),
            _ => None,
        }
    }
}

/// Whether `text[from..to]` holds a `-` at which `at(&text[..to], i)` holds, asked for many
/// `from` with the same `to` (the commands of one logical line, which all run to its end): the
/// line is read once for all of them, from its end back, not once per command.
#[derive(Default)]
pub struct DashWitness {
    /// The `to` asked about, the lowest `from` read, and the last `-` in `lo..to` that holds.
    to: Option<usize>,
    lo: usize,
    last: Option<usize>,
}

impl DashWitness {
    pub fn holds(
        &mut self,
        text: &[u8],
        from: usize,
        to: usize,
        at: impl Fn(&[u8], usize) -> bool,
    ) -> bool {
        if self.to != Some(to) {
            *self = DashWitness {
                to: Some(to),
                lo: to,
                last: None,
            };
        }
        if from >= self.lo {
            return self.last.is_some_and(|l| l >= from);
        }
        if self.last.is_none() {
            let line = &text[..to];
            let mut hi = self.lo;
            while let Some(k) = memchr::memrchr(b'-', &line[from..hi]) {
                if at(line, from + k) {
                    self.last = Some(from + k);
                    break;
                }
                hi = from + k;
            }
            self.lo = from;
        }
        self.last.is_some()
    }
}

/// [`dash_heads`]`(line) & flags != 0` for the `-` at `i` of `line`.
pub fn dash_head_at(line: &[u8], i: usize, flags: u64) -> bool {
    line.get(i + 1)
        .is_some_and(|&c| (1 << (c & 63)) & flags != 0)
}

/// The bit of a flag (`--locked`, `-r`) in a line's [`dash_heads`]: the byte after its dashes.
/// (A flag of dashes alone has every bit: it is looked for in every line.)
pub fn dash_head(flag: &str) -> u64 {
    match flag.bytes().find(|&c| c != b'-') {
        Some(after) => 1 << (after & 63),
        None => u64::MAX,
    }
}

/// The bits ([`dash_head`]) of the bytes that follow a `-` or a `--` in `line`: a line holds a
/// flag only if it has the flag's bit, so one pass over a command's line serves every flag
/// looked for in it (a line's bits hold more than its flags: a bit is a necessary condition).
pub fn dash_heads(line: &[u8]) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const LOW7: u64 = u64::from_ne_bytes([0x7F; 8]);
    let mut heads = 0;
    let mut i = 0;
    // Eight bytes at a time: the dashes among them as the high bits of a word (each byte's
    // bit is exact: no carry crosses a byte), then the byte after each dash.
    while let Some(word) = line.get(i..i + 9) {
        let x =
            u64::from_le_bytes(word[..8].try_into().expect("eight bytes")) ^ (ONES * b'-' as u64);
        // High bit of a byte set where the byte is 0 (a dash): neither its low seven bits nor
        // its high bit are set.
        let mut dashes = !(((x & LOW7) + LOW7) | x | LOW7);
        while dashes != 0 {
            let k = dashes.trailing_zeros() as usize / 8;
            // `-x` (a short flag), or the second dash of `--x`, whose next byte is x.
            heads |= 1 << (word[k + 1] & 63);
            dashes &= dashes - 1;
        }
        i += 8;
    }
    for j in (i..line.len()).filter(|&j| line[j] == b'-') {
        if let Some(&c) = line.get(j + 1) {
            heads |= 1 << (c & 63);
        }
    }
    heads
}

/// The words after a command's subcommand: a view of the words parsed once for the program's
/// occurrence (several subcommands are looked for in the same occurrences), not a copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args<'t> {
    words: Rc<Vec<Word<'t>>>,
    from: usize,
    to: usize,
}

impl<'t> From<Vec<Word<'t>>> for Args<'t> {
    fn from(words: Vec<Word<'t>>) -> Self {
        Args {
            to: words.len(),
            words: Rc::new(words),
            from: 0,
        }
    }
}

impl<'t> std::ops::Deref for Args<'t> {
    type Target = [Word<'t>];
    fn deref(&self) -> &[Word<'t>] {
        &self.words[self.from..self.to]
    }
}

impl<'a, 't> IntoIterator for &'a Args<'t> {
    type Item = &'a Word<'t>;
    type IntoIter = std::slice::Iter<'a, Word<'t>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')
}

/// The quote (`"`, `'`) that is open at `pos` on its line, if any ([`Track`] reads on).
#[cfg(test)]
fn open_quote(text: &[u8], line_start: usize, pos: usize) -> Option<u8> {
    scan_quote(text, line_start, pos, None).1
}

/// [`open_quote`] read on from `i`, where `quote` is open: where the reading stopped (`pos`, or
/// one byte past it after an escape) and the quote open at `pos`.
fn scan_quote(text: &[u8], mut i: usize, pos: usize, mut quote: Option<u8>) -> (usize, Option<u8>) {
    while i < pos {
        let c = text[i];
        match quote {
            Some(q) if c == b'\\' && q == b'"' => i += 1,
            Some(q) if c == q => quote = None,
            None if c == b'"' || c == b'\'' => {
                let in_word = c == b'\'' && i > 0 && text[i - 1].is_ascii_alphanumeric();
                if !in_word {
                    quote = Some(c);
                }
            }
            _ => {}
        }
        i += 1;
    }
    (i, quote)
}

/// The line start and the open quote ([`open_quote`]) of offsets asked in increasing order,
/// read on from the offset asked before on the same line (not from the line's start each
/// time): a line of many commands is read once.
#[derive(Default)]
struct Track {
    /// The last offset asked, its line's start, and where the quote reading stopped with the
    /// quote open there (`None` before the first question).
    pos: Option<usize>,
    line_start: usize,
    read: usize,
    quote: Option<u8>,
}

impl Track {
    fn line_start(&mut self, b: &[u8], at: usize) -> usize {
        match self.pos {
            Some(pos) if pos <= at => {
                if let Some(k) = memchr::memrchr(b'\n', &b[pos..at]) {
                    self.line_start = pos + k + 1;
                    (self.read, self.quote) = (self.line_start, None);
                }
            }
            _ => {
                self.line_start = super::line_start(b, at);
                (self.read, self.quote) = (self.line_start, None);
            }
        }
        self.pos = Some(at);
        self.line_start
    }

    fn open_quote(&mut self, b: &[u8], at: usize) -> Option<u8> {
        let line_start = self.line_start(b, at);
        if self.read > at {
            (self.read, self.quote) = (line_start, None);
        }
        (self.read, self.quote) = scan_quote(b, self.read, at, self.quote);
        self.quote
    }
}

/// Every `program subcommand …` in `text`. `program` is matched as a word (also as the last
/// part of a path or image name: `/usr/bin/gitlab-runner`, `gitlab/gitlab-runner:alpine`) or as
/// a variable named after it; then the uses of variables that store such a command.
/// Options between the program and the subcommand (`--debug`) are skipped.
pub fn find<'t>(text: &'t str, program: &str, subcommand: &str, yaml: bool) -> Vec<Command<'t>> {
    find_in(
        text,
        &Occurrences::of(text, program, yaml),
        subcommand,
        yaml,
        None,
    )
}

/// The places a program is written as a command, each with the words after it up to its
/// subcommand (the first word that is not an option): found once per program, then read for
/// each subcommand.
pub struct Occurrences<'t> {
    places: Vec<Place>,
    /// The words of all the places, one after the other (shared with the commands' arguments,
    /// not copied).
    words: Rc<Vec<Word<'t>>>,
}

/// Where a program is written as a command.
struct Place {
    /// The program's start and end.
    at: usize,
    end: usize,
    /// The range of its first words in [`Occurrences::words`] (all of them for an exec-form
    /// list, whose items are read at once).
    words: std::ops::Range<usize>,
    /// The quote the program is written in, and how far its words can run ([`shape`]).
    enclosing: Option<u8>,
    extent: Extent,
    /// The end of its logical line, for a command whose words end there at the latest
    /// ([`reach`]).
    reach: Option<usize>,
    /// For a program that starts its line in a file that is not YAML ([`opens_line`]): its
    /// words end with its logical line, so they are not read until a flag may be among them.
    /// The [`dash_heads`] of the rest of that line.
    plain: Option<u64>,
}

/// Does the program at `at..end` start its line (after blanks only) in a file that is not
/// YAML? Then no quote is open before it, it is no item of an exec-form list, no folded scalar
/// holds it, no variable stores it (its line has nothing before it) and no `image:` names it:
/// its words run to the end of its logical line ([`reach`]), and only those can hold its
/// flags.
fn opens_line(b: &[u8], at: usize, end: usize, yaml: bool) -> bool {
    !yaml
        && b.get(end) != Some(&b':')
        && b[..at]
            .iter()
            .rev()
            .take_while(|&&c| c != b'\n')
            .all(|&c| c == b' ' || c == b'\t')
}

impl<'t> Occurrences<'t> {
    /// The places are read in order, each line's quotes, groups and end once for all the
    /// places on it ([`Track`], [`Groups`], [`Reach`]).
    pub fn of(text: &'t str, program: &str, yaml: bool) -> Occurrences<'t> {
        Self::at_starts(text, program_starts(text, program), yaml)
    }

    /// The places of programs written at `starts` (in order).
    pub fn at_starts(text: &'t str, starts: Vec<(usize, usize)>, yaml: bool) -> Occurrences<'t> {
        let b = text.as_bytes();
        // The options before the subcommand are few: mostly the subcommand alone.
        let mut words = Vec::with_capacity(starts.len() * 2);
        let mut unquoted = String::new();
        let (mut track, mut groups, mut reaches) =
            (Track::default(), Groups::default(), Reach::default());
        let mut places: Vec<Place> = starts
            .into_iter()
            .map(|(at, end)| {
                let from = words.len();
                if opens_line(b, at, end, yaml) {
                    return Place {
                        at,
                        end,
                        words: from..from,
                        enclosing: None,
                        extent: Extent::Line,
                        reach: Some(reaches.of(b, end, Extent::Line).unwrap_or(b.len())),
                        plain: Some(0),
                    };
                }
                let (enclosing, extent) = shape(b, at, end, yaml, &mut track);
                let mut push = |w| words.push(w);
                let shape = (enclosing, extent);
                command_words_into(text, end, shape, &mut push, &mut unquoted, &mut groups);
                Place {
                    at,
                    end,
                    words: from..words.len(),
                    enclosing,
                    extent,
                    reach: reaches.of(b, end, extent),
                    plain: None,
                }
            })
            .collect();
        // The dash heads of the rest of each plain place's logical line, from the last place of
        // the line back: each part of the line between two places is read once.
        let mut after: Option<(usize, usize, u64)> = None;
        for place in places.iter_mut().rev() {
            let (Some(heads), Some(to)) = (&mut place.plain, place.reach) else {
                continue;
            };
            let (next, acc) = match after {
                Some((line_end, next, acc)) if line_end == to && next >= place.end => (next, acc),
                _ => (to, 0),
            };
            // A `-` just before the next place takes its head from the byte after it.
            *heads = acc | dash_heads(&b[place.end..(next + 1).min(to)]);
            after = Some((to, place.end, *heads));
        }
        Occurrences {
            places,
            words: Rc::new(words),
        }
    }
}

/// Like [`find`], over the program's occurrences parsed before. With `flags` (the [`dash_head`]s
/// of the flags looked for), a command that starts its line ([`opens_line`]) is left out when
/// its line holds none of them: its words are not read. Without, every command is found.
pub fn find_in<'t>(
    text: &'t str,
    occurrences: &Occurrences<'t>,
    subcommand: &str,
    yaml: bool,
    flags: Option<u64>,
) -> Vec<Command<'t>> {
    let mut out = Vec::new();
    let mut read = Vec::new();
    let mut unquoted = String::new();
    let mut groups = Groups::default();
    for place in &occurrences.places {
        let (at, end) = (place.at, place.end);
        let words: &[Word<'t>] = match place.plain {
            Some(heads) if flags.is_some_and(|f| heads & f == 0) => continue,
            Some(_) => {
                read.clear();
                let mut push = |w| read.push(w);
                let shape = (None, Extent::Line);
                command_words_into(text, end, shape, &mut push, &mut unquoted, &mut groups);
                &read
            }
            None => &occurrences.words[place.words.clone()],
        };
        let named = || {
            let i = words.iter().position(|w| !w.text.starts_with('-'))?;
            // The subcommand as its word, or glued to an expansion of collected options
            // (`register${OPTIONS:+ $OPTIONS}`, `register$EXTRA`).
            let sub = words[i].text.strip_prefix(subcommand);
            sub.is_some_and(|rest| rest.is_empty() || rest.starts_with('$'))
                .then(|| {
                    let args = match place.extent {
                        Extent::List(_) => ArgsAt::Read(Args {
                            words: occurrences.words.clone(),
                            from: place.words.start + i + 1,
                            to: place.words.end,
                        }),
                        extent => ArgsAt::Line {
                            text,
                            enclosing: place.enclosing,
                            folded: match extent {
                                Extent::Folded(indent) => Some(indent),
                                _ => None,
                            },
                            end,
                            skip: i + 1,
                            reach: place.reach,
                        },
                    };
                    (words[i].clone(), args)
                })
        };
        let found = named().or_else(|| {
            image_subcommand(text, at, subcommand)
                .map(|(sub, args)| (sub, ArgsAt::Read(args.into())))
        });
        let Some((sub, args)) = found else {
            continue;
        };
        out.push(Command {
            program: Word::at(text, at, end),
            subcommand: sub,
            args,
            alias: false,
        });
    }
    stored_commands(text, yaml, &mut out);
    out
}

/// The commands of `out` stored in a variable ([`holder`]: `REGISTER="gitlab-runner register …"`)
/// are run where the variable is used (`$REGISTER --tag-list …`): each use is a command whose
/// arguments follow it, added to `out` with `alias` set.
fn stored_commands<'t>(text: &'t str, yaml: bool, out: &mut Vec<Command<'t>>) {
    let b = text.as_bytes();
    let mut track = Track::default();
    let stored: Vec<(usize, &str)> = out
        .iter()
        .filter_map(|c| {
            let line_start = track.line_start(b, c.program.start);
            holder(b, line_start, c.program.start, yaml).map(|n| (c.program.start, n))
        })
        .collect();
    for (defined_at, name) in stored {
        let (mut track, mut reaches) = (Track::default(), Reach::default());
        let uses = variable_uses(text, name)
            .into_iter()
            .filter(|&(at, _)| at != defined_at);
        for (at, end) in uses.chain(appends_to(text, name)) {
            let word = Word::at(text, at, end);
            let (enclosing, extent) = shape(b, at, end, yaml, &mut track);
            let args = match extent {
                Extent::List(close) => ArgsAt::Read(flow_items(text, end + 1, close).into()),
                _ => ArgsAt::Line {
                    text,
                    enclosing,
                    folded: match extent {
                        Extent::Folded(indent) => Some(indent),
                        _ => None,
                    },
                    end,
                    skip: 0,
                    reach: reaches.of(b, end, extent),
                },
            };
            out.push(Command {
                program: word.clone(),
                subcommand: word,
                args,
                alias: true,
            });
        }
    }
}

/// The systems a program's release binaries are named for (`gitlab-runner-linux-amd64`).
const RELEASE_SYSTEMS: [&[u8]; 4] = [b"-linux-", b"-darwin-", b"-windows-", b"-freebsd-"];

/// The length of the system and architecture a release binary's name adds to its program's
/// (`-linux-amd64` of `gitlab-runner-linux-amd64`, `-windows-386` before `.exe`), else 0.
fn release_binary_suffix(rest: &[u8]) -> usize {
    RELEASE_SYSTEMS
        .iter()
        .find(|s| rest.starts_with(s))
        .map_or(0, |s| {
            let arch = rest[s.len()..]
                .iter()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                .count();
            if arch == 0 { 0 } else { s.len() + arch }
        })
}

/// Where `program` is written as a command word (or a variable named after it), in order.
fn program_starts(text: &str, program: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut written = Vec::new();
    let (mut starts, complete) = program_variables(text, program, &mut written);
    if !complete {
        written.clear();
        written.extend(memchr::memmem::find_iter(b, program.as_bytes()));
    }
    // Occurrences that do not overlap, as a substring search gives them.
    let mut after = 0;
    for at in written {
        if at < after {
            continue;
        }
        after = at + program.len();
        if at > 0 && (is_word_byte(b[at - 1]) && b[at - 1] != b'.' || b[at - 1] == b'$') {
            continue;
        }
        let mut end = at + program.len();
        // An image tag or an executable suffix.
        if b.get(end) == Some(&b':') {
            while end + 1 < b.len() && (is_word_byte(b[end + 1])) {
                end += 1;
            }
            end += 1;
        } else {
            end += release_binary_suffix(&b[end..]);
            if b[end..].starts_with(b".exe") {
                end += 4;
            }
        }
        if b.get(end).is_some_and(|&c| is_word_byte(c)) {
            continue;
        }
        // A quoted path that is the program word (`& "C:\GitLab-Runner\gitlab-runner.exe"
        // register`): the program ends past its closing quote, its words are not quoted.
        if quoted_path(b, at, end) {
            end += 1;
        }
        starts.push((at, end));
        if let Some(name) = assigned_to(b, at, end) {
            starts.extend(uses_of(text, name));
        }
    }
    // A variable quoted as a word of its own (`"$RUNNER" register`, `"${GITLAB_RUNNER}"
    // register`): the program ends past its closing quote, as a quoted path's does.
    for (at, end) in &mut starts {
        if *at > 0
            && matches!(b[*at - 1], b'"' | b'\'')
            && b[*at] == b'$'
            && b.get(*end) == Some(&b[*at - 1])
            && matches!(b.get(*end + 1), Some(b' ' | b'\t'))
        {
            *end += 1;
        }
    }
    starts.sort_unstable();
    starts.dedup();
    starts
}

/// How far after a subcommand its signature flag is looked for on the line.
const SIGNATURE_REACH: usize = 2048;

/// How far back on its line the expression before a subcommand is read.
const EXPRESSION_REACH: usize = 256;

/// Where a command's program is an expression written right before its subcommand (a blank
/// between): an interpolation (`${runnerCmd} register`, `{bin} register`, `#{cmd} register`),
/// a variable (`$RUNNER register`) or a substitution (`$(which x) register`), on a line where
/// one of `signature` (flags only that command takes) follows it. The expressions' ranges, in
/// order.
pub fn expression_starts(
    text: &str,
    subcommand: &str,
    signature: &[String],
) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(b, subcommand.as_bytes()) {
        let after = at + subcommand.len();
        if at < 2 || b[at - 1] != b' ' || !matches!(b.get(after), Some(b' ' | b'\t')) {
            continue;
        }
        // The signature's flag on the rest of the line and the lines a `\` at a line's end
        // continues it on, a bounded way on: a line of thousands of commands is not read to its
        // end for each.
        let reach = (after + SIGNATURE_REACH).min(b.len());
        let mut line_end = after;
        loop {
            line_end = memchr::memchr(b'\n', &b[line_end..reach]).map_or(reach, |i| line_end + i);
            let continued = b[after..line_end].trim_ascii_end().ends_with(b"\\");
            if !continued || line_end >= reach {
                break;
            }
            line_end += 1;
        }
        let line = &b[after..line_end];
        if !signature
            .iter()
            .any(|s| memchr::memmem::find(line, s.as_bytes()).is_some())
        {
            continue;
        }
        if let Some(start) = expression_start(b, at - 1) {
            out.push((start, at - 1));
        }
    }
    out
}

/// Where the expression that ends at `end` starts: `${…}`, `{…}`, `#{…}` (no brace inside),
/// `$(…)` (no parenthesis inside), `$name`; on its line.
fn expression_start(b: &[u8], end: usize) -> Option<usize> {
    let line_start = super::line_start_within(b, end, EXPRESSION_REACH);
    let within = &b[line_start..end];
    let (&last, body) = within.split_last()?;
    let open = |o: u8, c: u8| {
        let k = body.iter().rposition(|&x| x == o)?;
        (!body[k + 1..].contains(&c) && k + 1 < body.len()).then_some(line_start + k)
    };
    match last {
        b'}' => {
            let k = open(b'{', b'}')?;
            Some(if k > 0 && matches!(b[k - 1], b'$' | b'#') {
                k - 1
            } else {
                k
            })
        }
        b')' => {
            let k = open(b'(', b')')?;
            (k > 0 && b[k - 1] == b'$').then_some(k.saturating_sub(1))
        }
        c if super::is_ident_byte(c) => {
            let n = within
                .iter()
                .rev()
                .take_while(|&&x| super::is_ident_byte(x))
                .count();
            let s = end - n;
            (s > 0 && b[s - 1] == b'$').then_some(s.saturating_sub(1))
        }
        _ => None,
    }
}

/// The variable whose value is the program written at `at..end`: a quoted path that ends with it
/// on an assignment's line (`RUNNER_BIN = "/usr/local/bin/gitlab-runner"`, `runnerPath :=
/// "gitlab-runner"`, `const bin = process.env.RUNNER_BIN || "gitlab-runner";`). Its name, if
/// it has at least three characters.
fn assigned_to(b: &[u8], at: usize, end: usize) -> Option<&str> {
    let line_start = memchr::memrchr(b'\n', &b[..at]).map_or(0, |i| i + 1);
    let q = b.get(end).copied().unwrap_or(b'\n');
    if !matches!(q, b'"' | b'\'' | b'`') {
        return shell_assigned_to(b, line_start, at, q);
    }
    // The opening quote: the value is a path without blanks up to the program.
    let open = b[line_start..at].iter().rposition(|&c| c == q)? + line_start;
    if b[open + 1..at]
        .iter()
        .any(|c| c.is_ascii_whitespace() || *c == b'$' || *c == b'{')
    {
        return None;
    }
    // The assignment's `=` (not `==`, `!=`, `<=`, `>=`, `=>`) before it on the line, and the
    // name right before that (`:=` of Go too).
    let before = &b[line_start..open];
    let eq = (0..before.len()).find(|&i| {
        before[i] == b'='
            && before.get(i + 1).is_none_or(|&c| c != b'=' && c != b'>')
            && (i == 0 || !matches!(before[i - 1], b'=' | b'!' | b'<' | b'>'))
    })?;
    let name_end = before[..eq]
        .strip_suffix(b":")
        .unwrap_or(&before[..eq])
        .trim_ascii_end()
        .len();
    let name_start = before[..name_end]
        .iter()
        .rposition(|&c| !super::is_ident_byte(c))
        .map_or(0, |i| i + 1);
    variable_name(&before[name_start..name_end])
}

/// `name` if it is a variable's name of at least three characters (not one that a digit opens).
fn variable_name(name: &[u8]) -> Option<&str> {
    let ok = name.len() >= 3
        && name.iter().all(|&c| super::is_ident_byte(c))
        && !name[0].is_ascii_digit();
    ok.then(|| std::str::from_utf8(name).ok()).flatten()
}

/// A shell variable assigned the program unquoted: `RUNNER=/usr/bin/gitlab-runner` (or
/// `export RUNNER=…`) as a word of its own, the program at its end.
fn shell_assigned_to(b: &[u8], line_start: usize, at: usize, after: u8) -> Option<&str> {
    if !matches!(after, b'\n' | b'\r' | b' ' | b'\t' | b';') {
        return None;
    }
    let word_start = b[line_start..at]
        .iter()
        .rposition(|c| c.is_ascii_whitespace() || *c == b';')
        .map_or(line_start, |i| line_start + i + 1);
    let word = &b[word_start..at];
    let eq = word.iter().position(|&c| c == b'=')?;
    let path = word[eq + 1..]
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'/' | b'.' | b'-' | b'_'));
    path.then(|| variable_name(&word[..eq])).flatten()
}

/// Where the variable `name` is interpolated as a word of a string: `{name}` (Python's f-strings
/// and `.format`), `${name}`, `$name`, `#{name}`. Ranges of the whole use.
fn uses_of<'t>(text: &'t str, name: &'t str) -> impl Iterator<Item = (usize, usize)> + 't {
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, name.as_bytes()).filter_map(move |at| {
        let end = at + name.len();
        if b.get(end).is_some_and(|&c| super::is_ident_byte(c)) || at == 0 {
            return None;
        }
        match b[at - 1] {
            b'$' => Some((at - 1, end)),
            b'{' if b.get(end) == Some(&b'}') => {
                let opens = if at >= 2 && matches!(b[at - 2], b'$' | b'#') {
                    at - 2
                } else {
                    at - 1
                };
                Some((opens, end + 1))
            }
            _ => None,
        }
    })
}

/// Is the program at `at..end` the end of a quoted path that is a whole word followed by more
/// words (`"C:\Program Files\GitLab-Runner\gitlab-runner.exe" register`,
/// `'/usr/local/bin/gitlab-runner' register`)? Not an item of an exec-form list (`["…", …]`).
fn quoted_path(b: &[u8], at: usize, end: usize) -> bool {
    let Some(&q @ (b'"' | b'\'')) = b.get(end) else {
        return false;
    };
    // A path: the program right after the quote or a directory separator (not the last word
    // of a sentence, `"install gitlab-runner" …`).
    let path = at > 0 && (matches!(b[at - 1], b'/' | b'\\') || b[at - 1] == q);
    if !path || !matches!(b.get(end + 1), Some(b' ' | b'\t')) {
        return false;
    }
    let lo = at.saturating_sub(260);
    let Some(open) = b[lo..at]
        .iter()
        .rposition(|&c| c == q || c == b'\n')
        .map(|k| lo + k)
        .filter(|&o| b[o] == q)
    else {
        return false;
    };
    let before = b[..open].trim_ascii_end();
    (open == 0 || !is_word_byte(b[open - 1])) && !matches!(before.last(), Some(b'[' | b','))
}

/// The words after the program that spans `at..end` (an exec-form list's items, or the words of
/// the command line), appended to `out` (`unquoted`: a buffer for unquoting words), up to the
/// first that is not an option. `shape` is the program's ([`shape`]); `groups` what is known of
/// the groups of the line ([`group_end`]).
fn command_words_into<'t>(
    text: &'t str,
    end: usize,
    (enclosing, extent): (Option<u8>, Extent),
    out: &mut impl FnMut(Word<'t>),
    unquoted: &mut String,
    groups: &mut Groups,
) {
    match extent {
        Extent::List(close) => flow_items(text, end + 1, close).into_iter().for_each(out),
        Extent::Folded(indent) => {
            let state = (enclosing, Some(indent), true);
            words_into(text, end, state, out, unquoted, groups)
        }
        Extent::Line => words_into(text, end, (enclosing, None, true), out, unquoted, groups),
    }
}

/// How far the words after a program can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Extent {
    /// The program is an item of an exec-form list, which closes at this `]`.
    List(usize),
    /// The command is in a folded YAML scalar indented this much: it goes on over the lines
    /// indented as much.
    Folded(usize),
    /// To the end of its logical line at the latest.
    Line,
}

/// The quote the program at `at..end` is written in, if any, and how far its words can run.
fn shape(b: &[u8], at: usize, end: usize, yaml: bool, track: &mut Track) -> (Option<u8>, Extent) {
    // Read at the program's end: the same as at its start, but for a quoted path that ends
    // past its closing quote ([`quoted_path`]).
    let enclosing = track.open_quote(b, end);
    let line_start = track.line_start;
    let list = exec_form(b, at, end, enclosing).or_else(|| {
        (yaml && enclosing.is_none())
            .then(|| flow_item(b, at, end))
            .flatten()
    });
    let extent = match list {
        Some(close) => Extent::List(close),
        None => match yaml.then(|| folded_indent(b, line_start, at)).flatten() {
            Some(indent) => Extent::Folded(indent),
            None => Extent::Line,
        },
    };
    (enclosing, extent)
}

/// Where the words of a command line whose program ends at `end` end at the latest: the end
/// of its logical line (a line that ends in a continuation, `\`, `` ` `` or `^`, goes on). A
/// word never crosses a line break otherwise: a quoted string stops at the end of its line,
/// and template expressions and substitutions are words only when they close on their line.
/// `None` when the words may run further: the items of an exec-form list, a command in a
/// folded YAML scalar.
fn reach(b: &[u8], end: usize, extent: Extent) -> Option<usize> {
    if extent != Extent::Line {
        return None;
    }
    let mut i = end;
    loop {
        let Some(k) = memchr::memchr(b'\n', &b[i..]) else {
            return Some(b.len());
        };
        let n = i + k;
        let line = &b[..n];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !matches!(line.last(), Some(b'\\' | b'`' | b'^'))
            && !literal_goes_on(line, &b[n + 1..])
            && !commented_continuation(&line[line_around(b, n).0.min(line.len())..])
        {
            return Some(n);
        }
        i = n + 1;
        // Template directives alone on the lines after a continuation (`{% if tags -%}`) are
        // rendered away: the command goes on below them.
        while let Some(len) = directive_line(&b[i..]) {
            if i + len >= b.len() {
                return Some(b.len());
            }
            i += len + 1;
        }
    }
}

/// How far after a `\ ` a comment's line end is looked for ([`skip_blanks`]).
const COMMENT_REACH: usize = 256;

/// Does this line end in a continuation with a comment after it (`--executor docker \\ # why`)?
/// Neither the shell nor Docker continue it (the `\\` escapes the blank), but its author meant
/// the next line as the command's, and so it is read.
fn commented_continuation(line: &[u8]) -> bool {
    let Some(hash) = memchr::memrchr(b'#', line) else {
        return false;
    };
    let before = line[..hash].trim_ascii_end();
    before.len() < hash
        && before.ends_with(b"\\")
        && !line[hash..].iter().any(|c| matches!(c, b'"' | b'\''))
}

/// [`reach`] for ends asked in increasing order: an end within the logical line found before
/// has its end (the line is not read again for each command on it).
#[derive(Default)]
struct Reach(Option<(usize, usize)>);

impl Reach {
    fn of(&mut self, b: &[u8], end: usize, extent: Extent) -> Option<usize> {
        if extent != Extent::Line {
            return None;
        }
        match self.0 {
            Some((from, to)) if from <= end && end <= to => Some(to),
            _ => {
                let to = reach(b, end, extent)?;
                self.0 = Some((end, to));
                Some(to)
            }
        }
    }
}

/// The line of `at`: (start, end).
fn line_around(b: &[u8], at: usize) -> (usize, usize) {
    let s = memchr::memrchr(b'\n', &b[..at]).map_or(0, |i| i + 1);
    let e = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i);
    (s, e)
}

/// The column of a YAML key on the line `s..e` (after indentation and `- `), and the key.
fn yaml_key(b: &[u8], s: usize, e: usize) -> Option<(usize, &[u8])> {
    let line = &b[s..e];
    let mut col = indent_of(line);
    if line[col..].starts_with(b"- ") {
        col += 2;
        col += indent_of(&line[col..]);
    }
    let rest = &line[col..];
    let n = rest
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
        .count();
    (n > 0 && rest.get(n) == Some(&b':')).then(|| (col, &rest[..n]))
}

fn indent_of(line: &[u8]) -> usize {
    line.iter().take_while(|&&c| c == b' ').count()
}

/// For a program named in a YAML `image:` value (a compose service, a container), the words of
/// the `command:` or `args:` next to it: a string, a flow list or a block list. Likewise for a
/// program that is a container's `command:` (its `args:`) or `entrypoint:` (its `command:`).
fn image_command(text: &str, at: usize) -> Option<Vec<Word<'_>>> {
    let b = text.as_bytes();
    let (s, e) = line_around(b, at);
    let (col, key) = yaml_key(b, s, e)?;
    // The keys whose value runs the program: an image's command, or the arguments of a
    // container's own `command:`/`entrypoint:` (Kubernetes `args:`, compose `command:`).
    let runs: &[&[u8]] = match key {
        b"image" => &[b"command", b"args"],
        b"entrypoint" => &[b"command"],
        b"command" => &[b"args"],
        _ => return None,
    };
    // The sibling keys: the lines around at the same column, within the mapping.
    let mut siblings = Vec::new();
    let mut i = e + 1;
    while i < b.len() {
        let (ls, le) = line_around(b, i);
        let line = &b[ls..le];
        let t = line.trim_ascii();
        if !t.is_empty() && !t.starts_with(b"#") {
            let ind = indent_of(line);
            if ind < col || ind == col.saturating_sub(2) && t.starts_with(b"- ") {
                break;
            }
            if ind == col {
                siblings.push((ls, le));
            }
        }
        i = le + 1;
    }
    let mut i = s;
    let first_key_of_item = b[s..e].trim_ascii_start().starts_with(b"- ");
    while i > 0 && !first_key_of_item {
        let (ls, le) = line_around(b, i - 1);
        let line = &b[ls..le];
        let t = line.trim_ascii();
        i = ls;
        if t.is_empty() || t.starts_with(b"#") {
            continue;
        }
        match yaml_key(b, ls, le) {
            Some((c, _)) if c == col => {
                siblings.push((ls, le));
                if t.starts_with(b"- ") {
                    break;
                }
            }
            _ if indent_of(line) < col => break,
            _ => {}
        }
    }
    for (ls, le) in siblings {
        let Some((c, k)) = yaml_key(b, ls, le) else {
            continue;
        };
        if !runs.contains(&k) {
            continue;
        }
        let v = ls + c + k.len() + 1;
        let value = b[v..le].trim_ascii();
        let vs = v + (b[v..le].len() - b[v..le].trim_ascii_start().len());
        if value.starts_with(b"[") {
            return Some(flow_items(text, vs + 1, le));
        }
        if matches!(value, b">" | b">-" | b"|" | b"|-") {
            let next = le + 1;
            let ind = b.get(next..).map_or(0, indent_of);
            return Some(words(text, next + ind, None, Some(ind)));
        }
        // A quoted scalar (`command: "register --tag-list \"{{ tags }}\""`) holds the command:
        // its words are read inside the quotes, an escaped quote being a quote of the command's.
        if let Some(&q @ (b'"' | b'\'')) = value.first() {
            return Some(words(text, vs + 1, Some(q), None));
        }
        if !value.is_empty() {
            return Some(words(text, vs, None, None));
        }
        return Some(block_items(text, le + 1, col));
    }
    None
}

/// The subcommand and arguments of the command of a runner image (see [`image_command`]). The
/// command may start with a variable that stores the subcommand and its first arguments
/// (`command: "{{ register_args }} --token x"` with `register_args: >- register --locked`).
fn image_subcommand<'t>(
    text: &'t str,
    at: usize,
    subcommand: &str,
) -> Option<(Word<'t>, Vec<Word<'t>>)> {
    let mut it = image_command(text, at)?.into_iter();
    let w = it.by_ref().find(|w| !w.text.starts_with('-'))?;
    if w.text == subcommand {
        return Some((w, it.collect()));
    }
    let name = variable_refs(&w.text)
        .find(|&(s, e, _)| s == 0 && e == w.text.len())?
        .2;
    let mut stored = stored_value(text, name)?.into_iter();
    let sub = stored.next().filter(|s| s.text == subcommand)?;
    let mut args: Vec<Word> = stored.collect();
    args.extend(it);
    Some((sub, args))
}

/// The words of the YAML key `name:`'s value (a string or a block scalar), where it is set.
fn stored_value<'t>(text: &'t str, name: &str) -> Option<Vec<Word<'t>>> {
    let b = text.as_bytes();
    for at in memchr::memmem::find_iter(b, name.as_bytes()) {
        let (s, e) = line_around(b, at);
        let Some((col, key)) = yaml_key(b, s, e) else {
            continue;
        };
        if key != name.as_bytes() || s + col != at {
            continue;
        }
        let v = at + name.len() + 1;
        let value = b[v..e].trim_ascii();
        if matches!(value, b">" | b">-" | b"|" | b"|-") {
            let next = e + 1;
            let ind = b.get(next..).map_or(0, indent_of);
            if ind <= col {
                return None;
            }
            return Some(words(text, next + ind, None, Some(ind)));
        }
        if !value.is_empty() {
            let vs = v + (b[v..e].len() - b[v..e].trim_ascii_start().len());
            let quote = matches!(b[vs], b'"' | b'\'').then_some(b[vs]);
            return Some(words(text, vs + usize::from(quote.is_some()), quote, None));
        }
    }
    None
}

/// If the program is a whole quoted item of a list (`["gitlab-runner", "register", …]`: the exec
/// form of a Dockerfile, a compose or container `command:`), the offset of the list's `]`.
fn exec_form(b: &[u8], at: usize, end: usize, enclosing: Option<u8>) -> Option<usize> {
    let q = enclosing?;
    if b.get(end) != Some(&q) {
        return None;
    }
    let open = b[..at].iter().rposition(|&c| c == q)?;
    let before = b[..open].trim_ascii_end();
    if !matches!(before.last(), Some(b'[' | b',')) {
        return None;
    }
    let limit = (end + 4000).min(b.len());
    memchr::memchr(b']', &b[end..limit]).map(|i| end + i)
}

/// If the program is an unquoted item of a YAML flow list (`[gitlab-runner, register, …]`:
/// cloud-init's `runcmd` items, a container's `command:`), the offset of the list's `]`.
fn flow_item(b: &[u8], at: usize, end: usize) -> Option<usize> {
    let start = b[..at]
        .iter()
        .rposition(|&c| matches!(c, b'[' | b',' | b' ' | b'\t' | b'\n'))?;
    if !matches!(b[..=start].trim_ascii_end().last(), Some(b'[' | b',')) {
        return None;
    }
    if !matches!(b[end..].trim_ascii_start().first(), Some(b',' | b']')) {
        return None;
    }
    let limit = (end + 4000).min(b.len());
    memchr::memchr(b']', &b[end..limit]).map(|i| end + i)
}

/// The end of a Ruby interpolation `#{…}` or a `${…}` starting at `i` (its braces matched on its line:
/// `#{node['ci']['tags'].join(',')}` is one part of a word, `)` and quotes included).
fn interpolation_end(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i + 1) != Some(&b'{') {
        return None;
    }
    let mut depth = 0usize;
    for (k, &c) in b[i + 1..].iter().enumerate().take(1024) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1 + k + 1);
                }
            }
            b'\n' => return None,
            _ => {}
        }
    }
    None
}

/// The items of a flow list `[a, "b"]` from `i` to its `]` (before `end`).
fn flow_items(text: &str, mut i: usize, end: usize) -> Vec<Word<'_>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    while i < end {
        while i < end && matches!(b[i], b' ' | b',' | b'\n' | b'\r' | b'\t') {
            i += 1;
        }
        if i >= end || b[i] == b']' {
            break;
        }
        let q = matches!(b[i], b'"' | b'\'').then_some(b[i]);
        let body = i + usize::from(q.is_some());
        let stop = match q {
            Some(q) => memchr::memchr(q, &b[body..end]).map_or(end, |k| body + k),
            None => b[body..end]
                .iter()
                .position(|&c| c == b',' || c == b']')
                .map_or(end, |k| body + k),
        };
        // An empty quoted item (`""`, or a quote the list's `]` cuts off) is a word that spans
        // its quotes: it is still an argument (a flag's empty value), and it has a place.
        let (start, to) = if stop == body {
            (i, (stop + 1).min(end))
        } else {
            (body, stop)
        };
        out.push(Word {
            text: Cow::Borrowed(text[body..stop].trim()),
            start,
            end: to,
        });
        i = stop + usize::from(q.is_some());
    }
    out
}

/// The items of a block list (`- item` lines more indented than `col`) from `i`.
fn block_items(text: &str, mut i: usize, col: usize) -> Vec<Word<'_>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    while i < b.len() {
        let (ls, le) = line_around(b, i);
        let line = &b[ls..le];
        let t = line.trim_ascii();
        i = le + 1;
        if t.is_empty() || t.starts_with(b"#") {
            continue;
        }
        if indent_of(line) < col || !t.starts_with(b"- ") {
            break;
        }
        let start = ls + indent_of(line) + 2;
        let start = start + indent_of(&b[start..le]);
        let item = text[start..le].trim_end();
        let item = item.split(" #").next().unwrap_or(item);
        let quoted = item.len() > 1
            && (item.starts_with('"') && item.ends_with('"')
                || item.starts_with('\'') && item.ends_with('\''));
        let (start, item) = if quoted {
            (start + 1, &item[1..item.len() - 1])
        } else {
            (start, item)
        };
        out.push(Word {
            text: Cow::Borrowed(item),
            start,
            end: start + item.len(),
        });
    }
    out
}

/// Normalised for comparing names: lower case, without `-`, `_` and `.`.
fn squash(s: &str) -> String {
    s.bytes()
        .filter(|c| !matches!(c, b'-' | b'_' | b'.'))
        .map(|c| c.to_ascii_lowercase() as char)
        .collect()
}

/// Variables named after the program that stand where a program does: `{{ gitlab_runner_bin }}`,
/// `$GITLAB_RUNNER`, `${gitlab_runner_path}`, `& $gitLabRunnerPath` (the name, squashed, holds
/// the program's name, squashed). Ranges of the whole use, in order.
///
/// Found from the program's name, not from every variable use: its rarest letter is looked
/// for (`b` of `gitlab-runner`: the benchmark's shell files hold four times more `$` than `b`),
/// the name's other letters around it with only `-`, `_` and `.` between them, and then the
/// variable use around that: the same uses as [`variable_refs`] gives whose squashed name
/// holds the program's.
///
/// The same pass finds where the program is written as it is, when its anchor is one of its
/// letters written once (`b` of `gitlab-runner`): those places are pushed to `written`, and the
/// flag returned says so; a file that runs the program a thousand times is then read once for
/// the program and its variables, not twice.
fn program_variables(
    text: &str,
    program: &str,
    written: &mut Vec<usize>,
) -> (Vec<(usize, usize)>, bool) {
    let want = squash(program);
    let w = want.as_bytes();
    // A name is ASCII: it cannot hold a squashed name that is not.
    if w.is_empty() || !want.is_ascii() {
        return (Vec::new(), false);
    }
    // Letters from the rarest in English and code to the commonest.
    const RARITY: &[u8] = b"zqxjkvbpygfwmucldrhsnioate";
    let rank = |c: u8| RARITY.iter().position(|&r| r == c).unwrap_or(RARITY.len());
    let anchor = w
        .iter()
        .copied()
        .min_by_key(|&c| rank(c))
        .expect("not empty");
    let b = text.as_bytes();
    // Where the anchor is written once in the program, which holds a `-` between its letters:
    // the anchor of the program written as it is (`gitlab-runner register`, the common case)
    // is matched by that very text, which holds the `-`, so it is no variable's and is passed
    // over at once.
    let spelled = program.as_bytes();
    let sep = |c: &u8| matches!(c, b'-' | b'_' | b'.');
    let at_in_program = (spelled.contains(&b'-')
        && !spelled.first().is_some_and(sep)
        && !spelled.last().is_some_and(sep)
        && spelled.iter().filter(|&&c| c == anchor).count() == 1
        && w.iter().filter(|&&c| c == anchor).count() == 1)
        .then(|| spelled.iter().position(|&c| c == anchor))
        .flatten();
    let mut out = Vec::new();
    for p in memchr::memchr2_iter(anchor, anchor.to_ascii_uppercase(), b) {
        if let Some(i) = at_in_program
            && p >= i
            && b[p - i..].starts_with(spelled)
        {
            written.push(p - i);
            continue;
        }
        for k in (0..w.len()).filter(|&k| w[k] == anchor) {
            if let Some((ms, me)) = squashed_at(b, p, w, k) {
                // A variable's name holds no `-` (the program itself, `gitlab-runner`, does).
                if !b[ms..me].contains(&b'-') {
                    out.extend(variable_around(b, ms, me));
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    (out, at_in_program.is_some())
}

/// If `w` (squashed, lower case) is written around `p` with its letter `k` at `p`, in any case
/// and with only `-`, `_` and `.` between its letters: where it is written.
fn squashed_at(b: &[u8], p: usize, w: &[u8], k: usize) -> Option<(usize, usize)> {
    let sep = |c: u8| matches!(c, b'-' | b'_' | b'.');
    let mut end = p + 1;
    for &c in &w[k + 1..] {
        while b.get(end).is_some_and(|&x| sep(x)) {
            end += 1;
        }
        if b.get(end)?.to_ascii_lowercase() != c {
            return None;
        }
        end += 1;
    }
    let mut start = p;
    for &c in w[..k].iter().rev() {
        while start > 0 && sep(b[start - 1]) {
            start -= 1;
        }
        if start == 0 || b[start - 1].to_ascii_lowercase() != c {
            return None;
        }
        start -= 1;
    }
    Some((start, end))
}

/// The variable uses ([`variable_refs`]) whose name holds `ms..me`.
fn variable_around(b: &[u8], ms: usize, me: usize) -> impl Iterator<Item = (usize, usize)> {
    let ident = super::is_ident_byte;
    // The run of name bytes around `ms`, if it reaches `me`.
    fn run(b: &[u8], ms: usize, me: usize, name: impl Fn(u8) -> bool) -> Option<(usize, usize)> {
        let (s, e) = super::run_around(b, ms, name);
        (e >= me).then_some((s, e))
    }
    // `$name`, `${name}`.
    let dollar = run(b, ms, me, ident).and_then(|(s, e)| {
        if s >= 1 && b[s - 1] == b'$' {
            Some((s - 1, e))
        } else if s >= 2 && b[s - 1] == b'{' && b[s - 2] == b'$' && b.get(e) == Some(&b'}') {
            Some((s - 2, e + 1))
        } else {
            None
        }
    });
    // `{{ name }}`: a name or a dotted path, between blanks.
    let template = run(b, ms, me, |c| ident(c) || c == b'.').and_then(|(s, e)| {
        let mut i = s;
        while i > 0 && b[i - 1] == b' ' {
            i -= 1;
        }
        let mut j = e;
        while b.get(j) == Some(&b' ') {
            j += 1;
        }
        let opens = i >= 2 && b[i - 1] == b'{' && b[i - 2] == b'{' && (i == 2 || b[i - 3] != b'{');
        (opens && b[j..].starts_with(b"}}")).then(|| (i - 2, j + 2))
    });
    dollar.into_iter().chain(template)
}

/// Every variable use in `text`: `{{ name }}` (a plain name or dotted path, no filters),
/// `$name`, `${name}`. (start, end, name).
fn variable_refs(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    memchr::memchr2_iter(b'{', b'$', b).filter_map(move |at| {
        if b[at] == b'{' {
            if b.get(at + 1) != Some(&b'{') || (at > 0 && b[at - 1] == b'{') {
                return None;
            }
            let mut i = at + 2;
            while b.get(i) == Some(&b' ') {
                i += 1;
            }
            let s = i;
            while b.get(i).is_some_and(|&c| ident(c) || c == b'.') {
                i += 1;
            }
            let e = i;
            while b.get(i) == Some(&b' ') {
                i += 1;
            }
            (e > s && b[i..].starts_with(b"}}")).then(|| (at, i + 2, &text[s..e]))
        } else {
            let braced = b.get(at + 1) == Some(&b'{');
            let s = at + 1 + usize::from(braced);
            let mut i = s;
            while b.get(i).is_some_and(|&c| ident(c)) {
                i += 1;
            }
            if i == s || braced && b.get(i) != Some(&b'}') {
                return None;
            }
            Some((at, i + usize::from(braced), &text[s..i]))
        }
    })
}

/// Where a string is appended to the variable `name` (`cmd += " --tag-list " + tags`,
/// `` registerCommand += ` --locked` ``, Python's `cmd += f" …"`): the range from the name to
/// the string's opening quote, so that the string's words are read as the stored command's
/// further arguments.
fn appends_to<'t>(text: &'t str, name: &'t str) -> impl Iterator<Item = (usize, usize)> + 't {
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, name.as_bytes()).filter_map(move |at| {
        let end = at + name.len();
        if at > 0 && super::is_ident_byte(b[at - 1]) {
            return None;
        }
        let rest = b[end..].trim_ascii_start().strip_prefix(b"+=")?;
        let rest = rest.trim_ascii_start();
        let rest = rest.strip_prefix(b"f").unwrap_or(rest);
        let quote = b.len() - rest.len();
        matches!(rest.first(), Some(b'"' | b'\'' | b'`')).then_some((at, quote + 1))
    })
}

/// The uses of the variable `name` (`{{ name }}`, `$name`, `${name}`).
fn variable_uses(text: &str, name: &str) -> Vec<(usize, usize)> {
    variable_refs(text)
        .filter(|(_, _, n)| *n == name)
        .map(|(s, e, _)| (s, e))
        .collect()
}

/// The variable a command starting at `at` is stored in: `NAME="gitlab-runner register …"`
/// or `NAME: gitlab-runner register …` on its line, or a YAML key whose block scalar the
/// command starts (`register_cmd: >-` on the line above).
fn holder(b: &[u8], line_start: usize, at: usize, yaml: bool) -> Option<&str> {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let name_before = |line: &[u8], sep: &[u8]| -> Option<(usize, usize)> {
        let t = line.trim_ascii_start();
        let s = line.len() - t.len();
        let n = t.iter().take_while(|&&c| ident(c)).count();
        (n > 0 && t[n..].starts_with(sep)).then_some((s, s + n))
    };
    let before = &b[line_start..at];
    let trimmed = before.trim_ascii_end();
    let quoted = trimmed
        .strip_suffix(b"\"")
        .or_else(|| trimmed.strip_suffix(b"'"))
        .or_else(|| trimmed.strip_suffix(b"`"));
    // A string's prefix (Python's `f"…"`).
    let trimmed = quoted
        .map(|t| t.strip_suffix(b"f").unwrap_or(t))
        .unwrap_or(trimmed);
    if !trimmed.is_empty() {
        // On the same line: `NAME=` (shell) or `NAME:` (YAML) right before the command, and
        // only blanks before the name, or a declaration's keyword (`let`, `const`, `local`…).
        // Read from the command back (not from the line's start: a line may hold thousands
        // of commands).
        let t = trimmed.trim_ascii_end();
        let (&sep, t) = t.split_last()?;
        if sep != b'=' && sep != b':' {
            return None;
        }
        let t = t.trim_ascii_end();
        let n = t.iter().rev().take_while(|&&c| ident(c)).count();
        let s = t.len() - n;
        if n == 0 || !declaration_lead(&t[..s]) {
            return None;
        }
        return std::str::from_utf8(&b[line_start + s..line_start + t.len()]).ok();
    }
    if !yaml || line_start == 0 {
        return None;
    }
    // The line above opens a block scalar: `NAME: >-` / `NAME: |`.
    let prev_end = line_start - 1;
    let prev_start = memchr::memrchr(b'\n', &b[..prev_end]).map_or(0, |i| i + 1);
    let prev = b[prev_start..prev_end].trim_ascii_end();
    let (s, e) = name_before(prev, b":")?;
    let rest = prev[e + 1..].trim_ascii();
    let opens = matches!(rest, b">" | b">-" | b">+" | b"|" | b"|-" | b"|+");
    opens
        .then(|| std::str::from_utf8(&b[prev_start + s..prev_start + e]).ok())
        .flatten()
}

/// Is what comes before a variable's name on its line what an assignment starts with: blanks,
/// a declaration's keyword (`let`, `const`, `var`, `local`, `export`, `readonly`, `my`), or
/// PHP's `$`?
fn declaration_lead(lead: &[u8]) -> bool {
    let lead = lead.trim_ascii();
    let lead = lead.strip_suffix(b"$").unwrap_or(lead).trim_ascii_end();
    matches!(
        lead,
        b"" | b"let" | b"const" | b"var" | b"local" | b"export" | b"readonly" | b"my"
    )
}

/// If the command sits in a YAML scalar whose line breaks are spaces, the indentation its
/// lines keep: the command goes on over the following lines indented at least as much. That is
/// a folded block scalar (`key: >-` and indented lines below it), or a plain scalar over lines
/// (`cmd: gitlab-runner register` on the key's line, or alone on the line below `cmd:`, its
/// flags on the lines below, indented more than the key: Ansible's `shell:` and `cmd:`).
fn folded_indent(b: &[u8], line_start: usize, at: usize) -> Option<usize> {
    let indent = |s: usize| b[s..].iter().take_while(|&&c| c == b' ').count();
    let own = indent(line_start);
    // The plain value of a block list's item (`- gitlab-runner register` of cloud-init's
    // `runcmd:`, its flags on the lines below): it goes on over the lines indented more than
    // the item's dash.
    let item = line_start + own;
    if b[item..].starts_with(b"- ") && at >= item + 2 {
        // The program (or its path, `/usr/bin/gitlab-runner`) starts the item's value.
        let value = item + 2 + indent(item + 2);
        if value <= at && !b[value..at].iter().any(|c| c.is_ascii_whitespace()) {
            return Some(own + 1);
        }
    }
    if at != line_start + own {
        return plain_value_indent(b, line_start, at);
    }
    if own == 0 {
        return None; // the program does not start an indented line
    }
    let mut end = line_start.checked_sub(1)?;
    // The nearest less-indented, non-blank line above must open a folded scalar; a scalar's
    // lines are few, so the walk is bounded.
    for _ in 0..200 {
        let start = memchr::memrchr(b'\n', &b[..end]).map_or(0, |i| i + 1);
        let line = &b[start..end];
        let trimmed = line.trim_ascii_end();
        if !trimmed.is_empty() {
            let ind = indent(start);
            if ind < own {
                let opens =
                    trimmed.ends_with(b">") || trimmed.ends_with(b">-") || trimmed.ends_with(b">+");
                // A key with no value on its line: the program's line starts its plain value.
                let plain = trimmed.ends_with(b":") && !b[line_start + own..].starts_with(b"- ");
                return match (opens, plain) {
                    (true, _) => Some(own),
                    (_, true) => Some(ind + 1),
                    _ => None,
                };
            }
        }
        if start == 0 {
            return None;
        }
        end = start - 1;
    }
    None
}

/// For a program written in the plain (unquoted) value of a YAML key on the key's line
/// (`cmd: gitlab-runner register`, `- shell: gitlab-runner register`), the indentation of the
/// value's continuation lines: more than the key's column.
fn plain_value_indent(b: &[u8], line_start: usize, at: usize) -> Option<usize> {
    let (col, key) = yaml_key(b, line_start, at)?;
    let value = line_start + col + key.len() + 1;
    let first = value + indent_of(&b[value..at]);
    // The program is in the value, which is neither quoted nor a block or flow collection.
    let plain = first < at
        || !matches!(
            b.get(first),
            Some(b'"' | b'\'' | b'|' | b'>' | b'[' | b'{' | b'&' | b'!')
        );
    (first > value && plain && !b[first..at].contains(&b'#')).then_some(col + 1)
}

/// What [`group_end`] learnt of the line it was last asked about, so that a line of many
/// unclosed groups (`$( $( $( …`, `{{ {{ …`) is read once, not once per group.
#[derive(Default)]
struct Groups {
    /// A part of a line, `from..end`, with `end` its line break (or the text's end).
    from: usize,
    end: usize,
    /// No `}}` (`[0]`) or `%}` (`[1]`) at or after these offsets of the line (`usize::MAX`:
    /// not known).
    no_close: [usize; 2],
    /// After a `$(` at `subst_from` that does not close on the line: the `$(` after it that
    /// close, and where (sorted); the others do not.
    subst_from: Option<usize>,
    closes: Vec<(usize, usize)>,
}

/// The end of a template expression (`{{ … }}`, `{% … %}`, `${…}`, `#{…}`) or command
/// substitution (`$(…)`) that starts at `i`, if it closes on its line. A search that finds no close is remembered
/// in `known` for the rest of the line (each later group of the line is answered from it), and
/// one that finds it is paid for by the text it skips.
fn group_end(b: &[u8], i: usize, known: &mut Groups) -> Option<usize> {
    if !matches!(b.get(i), Some(b'{' | b'$' | b'#')) {
        return None;
    }
    // Ruby's `#{…}`, and a shell parameter expansion or JavaScript template expression
    // `${…}` (`${vols.map(v => `-v ${v}`).join(" ")}`): one word, its braces matched.
    if b[i] == b'#' || (b[i] == b'$' && b.get(i + 1) == Some(&b'{')) {
        return interpolation_end(b, i);
    }
    if !(known.from <= i && i < known.end) {
        let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
        *known = Groups {
            from: i,
            end,
            no_close: [usize::MAX; 2],
            subst_from: None,
            closes: Vec::new(),
        };
    }
    let line = &b[i..known.end];
    for (k, (open, close)) in [(&b"{{"[..], &b"}}"[..]), (b"{%", b"%}")]
        .into_iter()
        .enumerate()
    {
        if !line.starts_with(open) || i >= known.no_close[k] {
            continue;
        }
        match memchr::memmem::find(&line[open.len()..], close) {
            Some(p) => return Some(i + open.len() + p + close.len()),
            None => known.no_close[k] = i,
        }
    }
    if !line.starts_with(b"$(") {
        return None;
    }
    if known.subst_from.is_some_and(|from| from < i) {
        return known
            .closes
            .binary_search_by_key(&i, |&(at, _)| at)
            .ok()
            .map(|k| known.closes[k].1);
    }
    let mut depth = 0usize;
    for (k, &c) in line.iter().enumerate().skip(1) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + k + 1);
                }
            }
            _ => {}
        }
    }
    // It does not close on its line: the `(`s after it are matched once, all together (a
    // `(`'s close depends only on the text after it).
    let mut open = Vec::new();
    known.closes.clear();
    for (k, &c) in line.iter().enumerate().skip(2) {
        match c {
            b'(' => open.push(k),
            b')' => {
                if let Some(o) = open.pop()
                    && line[o - 1] == b'$'
                {
                    known.closes.push((i + o - 1, i + k + 1));
                }
            }
            _ => {}
        }
    }
    known.closes.sort_unstable();
    known.subst_from = Some(i);
    None
}

/// The quote state of a shell quote written as the escaped quote of the string that holds the
/// command (`\"…\"` in `"docker run … --description \"A (t3) runner\" --tag-list a"`).
const HOST_QUOTE: u8 = 1;

/// Is the byte at `i` a `\` that escapes `enclosing`, the quote of the string holding the
/// command?
fn c_is_host_escape(b: &[u8], i: usize, enclosing: Option<u8>) -> bool {
    b.get(i) == Some(&b'\\') && enclosing.is_some_and(|q| b.get(i + 1) == Some(&q))
}

/// A byte that, outside quotes, is part of a word and nothing more: not a quote, an escape, a
/// blank, an operator or the start of a group (ASCII only, so that a run of them is whole
/// characters).
fn plain_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'-' | b'_' | b'.' | b'/' | b',' | b'=' | b':' | b'+' | b'@' | b'%'
        )
}

/// The words from `pos` to the end of the command.
fn words(text: &str, i: usize, enclosing: Option<u8>, folded: Option<usize>) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    words_into(
        text,
        i,
        (enclosing, folded, false),
        &mut |w| out.push(w),
        &mut String::new(),
        &mut Groups::default(),
    );
    out
}

/// [`words`] appended to `out`; `word` is a buffer for a word being unquoted. With
/// `to_subcommand`, the words up to the first that is not an option (`-…`).
fn words_into<'t>(
    text: &'t str,
    mut i: usize,
    (enclosing, folded, to_subcommand): (Option<u8>, Option<usize>, bool),
    out: &mut impl FnMut(Word<'t>),
    word: &mut String,
    groups: &mut Groups,
) {
    let b = text.as_bytes();
    loop {
        i = skip_blanks(b, i, folded);
        let Some(&c) = b.get(i) else { break };
        // `#` starts a comment, but `#{…}` is Ruby's (and CoffeeScript's) interpolation in a
        // command string (`command "gitlab-runner register --url #{url} --tag-list …"`).
        let comment = c == b'#' && b.get(i + 1) != Some(&b'{');
        if Some(c) == enclosing
            && let Some(next) = continued_literal(b, i)
        {
            i = next;
            continue;
        }
        if matches!(c, b'\n' | b'\r' | b';' | b'|' | b'&' | b')') || comment || Some(c) == enclosing
        {
            break;
        }
        // One word, with quotes removed. While it has neither quotes nor escapes, it reads as
        // written and is not copied (`word` holds it only from its first quote or escape on).
        let start = i;
        let (end, as_written) = read_word(text, i, enclosing, word, groups);
        i = end;
        if i == start {
            break;
        }
        // Unquoting only removes bytes: a word as long as its span is written as it reads.
        let text = if as_written || word.len() == i - start {
            Cow::Borrowed(&text[start..i])
        } else {
            Cow::Owned(word.clone())
        };
        let option = text.starts_with('-');
        out(Word {
            text,
            start,
            end: i,
        });
        if to_subcommand && !option {
            break;
        }
    }
}

/// Where the command goes on when the string that holds it closes at `close` and another of the
/// same quote follows, alone or after a `+` (Python's implicit concatenation of adjacent
/// literals, `'register -n --tag-list {t}'` then `' -r {token}'` on the next line; JavaScript's
/// `"…" +` then `"…"`): the offset after that string's opening quote.
fn continued_literal(b: &[u8], close: usize) -> Option<usize> {
    let q = b[close];
    let mut k = close + 1;
    let mut plus = false;
    let mut lines = 0;
    // A string that ends in the shell's continuation, escaped (`"  --url x \\",`), goes on
    // in the next item of its list: the lines of a script written as a list of strings
    // (Packer's and Terraform's `inline = [ … ]`).
    let continued = close >= 2 && b[close - 2..close] == *b"\\\\";
    let mut comma = false;
    while let Some(&c) = b.get(k) {
        match c {
            b' ' | b'\t' | b'\r' => {}
            b'\n' if lines == 0 => lines = 1,
            b'+' if !plus => plus = true,
            b',' if continued && !comma && lines == 0 => comma = true,
            _ => break,
        }
        k += 1;
    }
    // On the same line only with a `+`: `'a' 'b'` on one line is rare, and `'x' == 'y'` is no
    // concatenation; at most one line on.
    (b.get(k) == Some(&q) && lines <= 1 && (plus || lines == 1) && b.get(k + 1) != Some(&q))
        .then_some(k + 1)
}

/// Does the string literal that closes at the end of `line` go on in one of the same quote that
/// opens `next` (the line after): [`continued_literal`]'s concatenation, seen from the line?
fn literal_goes_on(line: &[u8], next: &[u8]) -> bool {
    let t = line.trim_ascii_end();
    let t = t.strip_suffix(b"+").map_or(t, <[u8]>::trim_ascii_end);
    // A list item that ends in the escaped continuation (`"  --url x \\",`).
    let t = match t.strip_suffix(b",") {
        Some(u) if u.len() >= 3 && u[u.len() - 3..u.len() - 1] == *b"\\\\" => u,
        _ => t,
    };
    let Some(&q) = t.last().filter(|&&q| q == b'\'' || q == b'"') else {
        return false;
    };
    let n = next.trim_ascii_start();
    n.first() == Some(&q) && n.get(1) != Some(&q)
}

/// `i` past the blanks and line continuations at it (`\`, PowerShell's `` ` ``, cmd's `^`; with
/// `folded`, a YAML folded scalar's next line indented at least that much). A command written in
/// another language's string literal escapes the continuation's backslash (`\\` at the end of
/// each line of a Python or JavaScript string): the same continuation, as [`reach`] reads it.
fn skip_blanks(b: &[u8], mut i: usize, folded: Option<usize>) -> usize {
    loop {
        match b.get(i) {
            Some(b' ' | b'\t') => i += 1,
            Some(b'\n')
                if folded.is_some_and(|ind| {
                    let next = &b[i + 1..];
                    let n = next.iter().take_while(|&&c| c == b' ').count();
                    n >= ind && next.get(n).is_some_and(|&c| c != b'\n' && c != b'#')
                }) =>
            {
                i += 1
            }
            // A template's directive alone on a line less indented than the scalar's lines
            // (`%{ if tags != null ~}` of a Terraform template at the line's start): rendered
            // away, the command goes on below it. (One indented as the scalar is a word.)
            Some(b'\n') if folded.is_some() && directive_line(&b[i + 1..]).is_some() => {
                i += 1 + directive_line(&b[i + 1..]).unwrap_or(0);
            }
            // A continuation, and the template directives alone on the lines below it (`{% if
            // tags -%}` of a Jinja script template): rendered away, the command goes on.
            Some(b'\\' | b'`' | b'^') if matches!(b.get(i + 1), Some(b'\n')) => {
                i += 2;
                while let Some(len) = directive_line(&b[i..]) {
                    i = (i + len + 1).min(b.len());
                }
            }
            // The escaped continuation at the end of a list item's string (`"… \\",`): the
            // command goes on in the next item ([`continued_literal`]).
            Some(b'\\')
                if b.get(i + 1) == Some(&b'\\')
                    && matches!(b.get(i + 2), Some(b'"' | b'\''))
                    && continued_literal(b, i + 2).is_some() =>
            {
                i += 2
            }
            Some(b'\\') if b.get(i + 1) == Some(&b'\\') && line_break_at(b, i + 2) => {
                i += if b[i + 2] == b'\r' { 4 } else { 3 }
            }
            Some(b'\\' | b'`' | b'^')
                if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') =>
            {
                i += 3
            }
            Some(b'\\') if matches!(b.get(i + 1), Some(b' ' | b'\t')) => {
                // Only a short comment is read for (a long line of `\ ` words is not read to its
                // end for each).
                let reach = (i + COMMENT_REACH).min(b.len());
                let Some(end) = memchr::memchr(b'\n', &b[i..reach]).map(|k| i + k) else {
                    break;
                };
                if !commented_continuation(&b[i..end]) {
                    break;
                }
                i = end + 1;
            }
            _ => break,
        }
    }
    i
}

/// Does a line break (`\n` or `\r\n`) start at `i`?
fn line_break_at(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        Some(b'\n') => true,
        Some(b'\r') => b.get(i + 1) == Some(&b'\n'),
        _ => false,
    }
}

/// If `rest` starts with a line that holds only a template directive (`%{ if x ~}`,
/// `%{ endif }` of a Terraform template; `{% if x %}`, `{%- endif -%}` of Jinja), its length up
/// to its line break.
fn directive_line(rest: &[u8]) -> Option<usize> {
    let len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    let line = rest[..len].trim_ascii();
    let opens = line.starts_with(b"%{") || line.starts_with(b"{%");
    let closes = line.ends_with(b"}") && (line.starts_with(b"%{") || line.ends_with(b"%}"));
    (opens && closes && line.len() < 200).then_some(len)
}

/// The end of the word starting at `i` and whether it reads as written (no quotes, no
/// escapes); otherwise `word` holds it unquoted.
fn read_word(
    text: &str,
    mut i: usize,
    enclosing: Option<u8>,
    word: &mut String,
    groups: &mut Groups,
) -> (usize, bool) {
    let b = text.as_bytes();
    let start = i;
    word.clear();
    let mut as_written = true;
    let mut quote: Option<u8> = None;
    // The quote of the string that holds the command, escaped in it (`\"` in a JSON or
    // JavaScript string): a quote of the shell's, opened and closed by that escape.
    let host_escape = |i: usize| c_is_host_escape(b, i, enclosing);
    while let Some(&c) = b.get(i) {
        match quote {
            Some(HOST_QUOTE) if host_escape(i) => {
                quote = None;
                i += 2;
            }
            Some(q) if c == q => {
                quote = None;
                i += 1;
            }
            Some(b'"') if c == b'\\' && i + 1 < b.len() => {
                // The escaped character, whole (it may be several bytes).
                let ch = text[i + 1..].chars().next().unwrap_or('\u{fffd}');
                word.push(ch);
                i += 1 + ch.len_utf8();
            }
            Some(_) => {
                let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
                if c == b'\n' {
                    break;
                }
                word.push(ch);
                i += ch.len_utf8();
            }
            None => {
                if let Some(close) = group_end(b, i, groups) {
                    if !as_written {
                        word.push_str(&text[i..close]);
                    }
                    i = close;
                    continue;
                }
                // A blank or an operator ends the word; so does a continuation glued to it
                // (`…/docker.sock\` at its line's end):
                // the command goes on below ([`skip_blanks`] passes it).
                if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b';' | b'|' | b'&' | b')')
                    || Some(c) == enclosing
                    || (c == b'\\' && line_break_at(b, i + 1))
                {
                    break;
                }
                let escaped = c == b'\\' && i + 1 < b.len() && b[i + 1] != b'\n';
                if escaped && host_escape(i) {
                    if as_written {
                        word.push_str(&text[start..i]);
                        as_written = false;
                    }
                    quote = Some(HOST_QUOTE);
                    i += 2;
                    continue;
                }
                if (c == b'"' || c == b'\'' || escaped) && as_written {
                    word.push_str(&text[start..i]);
                    as_written = false;
                }
                if c == b'"' || c == b'\'' {
                    quote = Some(c);
                    i += 1;
                    continue;
                }
                if escaped {
                    let ch = text[i + 1..].chars().next().unwrap_or('\u{fffd}');
                    word.push(ch);
                    i += 1 + ch.len_utf8();
                    continue;
                }
                // A run of plain bytes at once.
                let run = b[i..]
                    .iter()
                    .position(|&c| !plain_word_byte(c))
                    .map_or(b.len(), |n| i + n);
                let next = if run > i {
                    run
                } else {
                    i + text[i..].chars().next().map_or(1, char::len_utf8)
                };
                if !as_written {
                    word.push_str(&text[i..next]);
                }
                i = next;
            }
        }
    }
    (i, as_written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(c: &Command) -> Vec<String> {
        c.args().iter().map(|w| w.text.to_string()).collect()
    }

    #[test]
    fn quotes_escaped_in_the_string_that_holds_the_command() {
        let t = "x = \"gitlab-runner register --description \\\"A (t3) b\\\" --tag-list a\\nsleep 1\";\n";
        let c = find(t, "gitlab-runner", "register", false);
        assert_eq!(c.len(), 1);
        assert_eq!(
            args(&c[0])[..3],
            ["--description", "A (t3) b", "--tag-list"]
        );
    }

    #[test]
    fn continuation_lines_and_quotes() {
        let t = "sudo gitlab-runner register \\\n  --non-interactive \\\n  --tag-list \"docker,aws\" \\\n  --locked=\"false\"\necho done --paused\n";
        let cmds = find(t, "gitlab-runner", "register", true);
        assert_eq!(cmds.len(), 1);
        assert_eq!(
            args(&cmds[0]),
            [
                "--non-interactive",
                "--tag-list",
                "docker,aws",
                "--locked=false"
            ]
        );
        // Words written as they read are borrowed from the text; unquoted ones are copies.
        assert!(matches!(
            cmds[0].args()[0].text,
            Cow::Borrowed("--non-interactive")
        ));
        assert!(matches!(&cmds[0].args()[2].text, Cow::Owned(w) if w == "docker,aws"));
        let locked = &cmds[0].args()[3];
        assert_eq!(&t[locked.start..locked.start + 8], "--locked");
    }

    #[test]
    fn image_names_paths_and_strings() {
        let t = "docker run --rm gitlab/gitlab-runner:alpine register -r $TOKEN --paused; x\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(args(&c[0]), ["-r", "$TOKEN", "--paused"]);
        let t = "cmd = \"/usr/bin/gitlab-runner register --locked\" + other\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(args(&c[0]), ["--locked"]);
        let t = "gitlab-runner --debug exec shell test\n";
        assert_eq!(find(t, "gitlab-runner", "exec", true).len(), 1);
        // A command line without a dash, in a file that is not YAML.
        let t = "gitlab-runner exec shell test\n";
        assert_eq!(find(t, "gitlab-runner", "exec", false).len(), 1);
        assert!(find(t, "gitlab-runner", "register", true).is_empty());
    }

    #[test]
    fn folded_yaml_scalars_continue_the_command() {
        let t = "- command: >-\n    gitlab-runner register --non-interactive\n    --registration-token {{ t }}\n- name: next\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(
            args(&c[0]),
            ["--non-interactive", "--registration-token", "{{ t }}"]
        );
        let t = "script:\n  - gitlab-runner register\n  - --locked\n";
        assert!(args(&find(t, "gitlab-runner", "register", true)[0]).is_empty());
    }

    #[test]
    fn template_expressions_and_substitutions_are_words() {
        let t = "- shell: >-\n    gitlab-runner register\n    {% if a | default(false) %}\n    --locked={{ x | bool }}\n    {% endif %}\n    --url=http://$(hostname -f)/ --tag-list=a\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(
            args(&c[0]),
            [
                "{% if a | default(false) %}",
                "--locked={{ x | bool }}",
                "{% endif %}",
                "--url=http://$(hostname -f)/",
                "--tag-list=a"
            ]
        );
    }

    #[test]
    fn programs_in_variables_named_after_them() {
        let t = "cmd: >-\n  {{ gitlab_runner_executable }} register --locked\n";
        assert_eq!(
            args(&find(t, "gitlab-runner", "register", true)[0]),
            ["--locked"]
        );
        let t = "& $gitLabRunnerPath `\n    register `\n    --registration-token $t\n";
        let c = find(t, "gitlab-runner", "register", false);
        assert_eq!(args(&c[0]), ["--registration-token", "$t"]);
        assert_eq!(c[0].program.text, "$gitLabRunnerPath");
        // A name at the very start of the text, in no variable use (an underflow once).
        assert!(
            program_variables("GITLAB_RUNNER x", "gitlab-runner", &mut Vec::new())
                .0
                .is_empty()
        );
        let t = "${GITLAB_RUNNER_BIN} register -r x\n$RUNNER register -r x\n{{ gitlab_runner.token }} x\n";
        let c = find(t, "gitlab-runner", "register", false);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].program.text, "${GITLAB_RUNNER_BIN}");
    }

    #[test]
    fn stored_commands_run_through_their_variable() {
        let t = "- set_fact:\n    reg_cmd: >-\n      gitlab-runner register\n      --locked=false\n- command: >\n    {{ reg_cmd }}\n    --registration-token '{{ t }}'\n- debug: msg={{ other }} --paused\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(c.len(), 2);
        assert_eq!(args(&c[0]), ["--locked=false"]);
        assert!(c[1].alias);
        assert_eq!(c[1].program.text, "{{ reg_cmd }}");
        assert_eq!(args(&c[1]), ["--registration-token", "{{ t }}"]);
        let t = "CMD=\"gitlab-runner register --non-interactive\"\n$CMD -r \"$T\"\necho $CMDX -r\n";
        let c = find(t, "gitlab-runner", "register", false);
        assert_eq!(c.len(), 2);
        assert_eq!(args(&c[1]), ["-r", "$T"]);
    }

    #[test]
    fn commands_of_runner_images() {
        let t = "services:\n  register:\n    image: gitlab/gitlab-runner:alpine\n    command: register --non-interactive --locked=false\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(args(&c[0]), ["--non-interactive", "--locked=false"]);
        let t = "  reg:\n    command: [\"register\", \"--tag-list\", \"a\"]\n    image: gitlab/gitlab-runner\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(args(&c[0]), ["--tag-list", "a"]);
        assert_eq!(&t[c[0].args()[0].start..c[0].args()[0].end], "--tag-list");
        let t = "containers:\n  - image: gitlab/gitlab-runner:v17\n    args:\n      - register\n      - --registration-token\n      - \"$(T)\"\n  - image: busybox\n    args: [register]\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(c.len(), 1);
        assert_eq!(args(&c[0]), ["--registration-token", "$(T)"]);
        let t = "- set_fact:\n    reg: >-\n      register\n      --locked=false\n- docker_container:\n    image: \"{{ gitlab_runner_image }}:{{ tag }}\"\n    command: >\n      {{ reg }}\n      --registration-token '{{ t }}'\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(
            args(&c[0]),
            ["--locked=false", "--registration-token", "{{ t }}"]
        );
        let t = "svc:\n  image: gitlab/gitlab-runner\n  command: run --user=gitlab-runner\n";
        assert!(find(t, "gitlab-runner", "register", true).is_empty());
    }

    #[test]
    fn programs_that_expressions_give() {
        let sig = ["--executor".to_string()];
        let starts = |t: &str| -> Vec<String> {
            expression_starts(t, "register", &sig)
                .into_iter()
                .map(|(s, e)| t[s..e].to_string())
                .collect()
        };
        let text = "a = `${runnerCmd} register --executor shell`\n\
                    b = f\"{binary} register -n --executor docker\"\n\
                    $(command -v x) register --executor ssh\n\
                    \"#{bin} register --executor shell\"\n\
                    $RUNNER register --url u --executor shell\n";
        assert_eq!(
            starts(text),
            [
                "${runnerCmd}",
                "{binary}",
                "$(command -v x)",
                "#{bin}",
                "$RUNNER"
            ]
        );
        // No signature flag after it on its line, or no expression before it.
        assert!(starts("${x} register --token t\n--executor shell\n").is_empty());
        assert!(
            starts("gitlab-runner register --executor shell\nre register --executor x\n")
                .is_empty()
        );
        assert!(starts("${a}{b} register --executor x").len() == 1);
    }

    #[test]
    fn exec_form_lists() {
        let t = "CMD [\"gitlab-runner\", \"register\", \"--locked\", \"false\"]\n";
        let c = find(t, "gitlab-runner", "register", false);
        assert_eq!(args(&c[0]), ["--locked", "false"]);
        assert_eq!(&t[c[0].args()[0].start..c[0].args()[0].end], "--locked");
        let t = "command:\n  [\"/usr/bin/gitlab-runner\",\n   \"register\",\n   \"-r\", \"x\"]\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(args(&c[0]), ["-r", "x"]);
        let t =
            "- name: reg\n  command: [\"gitlab-runner\"]\n  args: [\"register\", \"--paused\"]\n";
        assert_eq!(
            args(&find(t, "gitlab-runner", "register", true)[0]),
            ["--paused"]
        );
        let t = "[\"gitlab-runner\", \"run\"]\n";
        assert!(find(t, "gitlab-runner", "register", false).is_empty());
        // Unquoted items of a YAML flow list (cloud-init's runcmd).
        let t = "runcmd:\n  - [gitlab-runner, register, -n, --locked, \"false\"]\n  - [echo, --locked]\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(args(&c[0]), ["-n", "--locked", "false"]);
        let t = "runcmd:\n  - [/usr/bin/gitlab-runner, register,\n     --tag-list, a]\n";
        assert_eq!(
            args(&find(t, "gitlab-runner", "register", true)[0]),
            ["--tag-list", "a"]
        );
    }

    #[test]
    fn empty_list_items_are_words_with_a_place() {
        // Found by fuzzing: a quote that the list's `]` cuts off had an empty place.
        for (t, want) in [
            (
                "CMD [\"gitlab-runner\", \"register\", \"--tag-list\", \"\", \"-n\"]\n",
                "\"\"",
            ),
            ("CMD [\"gitlab-runner\", \"register\", \"-n\", \"]\n", "\""),
        ] {
            let c = find(t, "gitlab-runner", "register", false);
            let last = c[0].args().last().cloned().unwrap();
            let empty = c[0]
                .args()
                .iter()
                .find(|w| w.text.is_empty())
                .cloned()
                .unwrap();
            assert!(empty.start < empty.end, "{t:?}");
            assert_eq!(&t[empty.start..empty.end], want);
            assert!(last.end <= t.len());
        }
    }

    #[test]
    fn list_items_with_multibyte_ends() {
        let t = "- image: gitlab/gitlab-runner\n  args:\n    - \"register\n    - \"é\n    - 'x'\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert!(c.is_empty());
    }

    #[test]
    fn escaped_multibyte_characters() {
        // Found by fuzzing: a backslash before a multibyte character.
        let t = "gitlab-runner register \\é --locked \"a\\é\" --paused\n";
        let c = find(t, "gitlab-runner", "register", false);
        assert_eq!(args(&c[0]), ["é", "--locked", "aé", "--paused"]);
    }

    #[test]
    fn arguments_lie_within_the_reach_of_their_command() {
        let t = "gitlab-runner register \\\n  --locked \\\r\n  -r \"a\\\nb\" --paused\nnext --tag-list\n";
        let c = find(t, "gitlab-runner", "register", false);
        let (from, to) = c[0].args_reach().unwrap();
        assert_eq!(
            &t[from..to],
            " \\\n  --locked \\\r\n  -r \"a\\\nb\" --paused"
        );
        assert_eq!(args(&c[0]), ["--locked", "-r", "a\nb", "--paused"]);
        // Folded scalars and exec-form lists run past the line: no reach.
        let t = "- command: >-\n    gitlab-runner register\n    --locked\n";
        assert_eq!(
            find(t, "gitlab-runner", "register", true)[0].args_reach(),
            None
        );
        let t = "CMD [\"gitlab-runner\", \"register\",\n  \"--locked\"]\n";
        assert_eq!(
            find(t, "gitlab-runner", "register", false)[0].args_reach(),
            None
        );
    }

    /// Pieces of command lines, YAML and code, to make texts of.
    const PIECES: &[&str] = &[
        "gitlab-runner",
        " register",
        " --locked",
        " -r",
        " x",
        "\\",
        "`",
        "^",
        "\n",
        "\r\n",
        "\"",
        "'",
        " ",
        "  ",
        "- ",
        ": >-",
        ": |",
        "[",
        "]",
        ", ",
        "$(",
        ")",
        "{{",
        "}}",
        ";",
        "#",
        "=",
        "\\\n",
        "$GITLAB_RUNNER",
        "CMD=",
        "$CMD",
        "é",
    ];

    proptest::proptest! {
        /// Whatever the text, the words of a command are where its reach says.
        #[test]
        fn reach_holds_every_argument(
            before in proptest::collection::vec(proptest::sample::select(PIECES), 0..6),
            after in proptest::collection::vec(proptest::sample::select(PIECES), 0..30),
            yaml in proptest::bool::ANY,
        ) {
            let text = format!("{}gitlab-runner register{}", before.concat(), after.concat());
            for c in find(&text, "gitlab-runner", "register", yaml) {
                let reach = c.args_reach();
                for w in &c.args() {
                    if let Some((from, to)) = reach {
                        proptest::prop_assert!(w.start >= from && w.end <= to, "{text:?} {w:?}");
                    }
                }
            }
        }
    }

    proptest::proptest! {
        /// Eight bytes at a time, the bits are those of a byte-by-byte pass.
        #[test]
        fn dash_heads_as_byte_by_byte(line in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just(b'-'),
                proptest::strategy::Just(b'-' | 0x80),
                proptest::strategy::Just(b'-' ^ 1),
                proptest::strategy::Just(0u8),
                proptest::num::u8::ANY,
            ],
            0..40,
        )) {
            let mut heads = 0u64;
            for i in 0..line.len() {
                if line[i] == b'-' && i + 1 < line.len() {
                    heads |= 1 << (line[i + 1] & 63);
                }
            }
            proptest::prop_assert_eq!(dash_heads(&line), heads, "{:?}", line);
        }

        /// A line that holds a flag has the flag's bit: passing over the lines without it loses
        /// no flag.
        #[test]
        fn a_line_that_holds_a_flag_has_its_bit(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "--locked", "--lock", "-r", "-", "--", "---", "x", "r", "l", " ", "=", "\"",
                "--tag-list", "-rTOKEN", "é",
            ]), 0..20),
        ) {
            let line = parts.concat();
            for flag in ["--locked", "-r", "--tag-list", "--x", "-l", "---"] {
                if memchr::memmem::find(line.as_bytes(), flag.as_bytes()).is_some() {
                    proptest::prop_assert!(
                        dash_heads(line.as_bytes()) & dash_head(flag) != 0,
                        "{:?} {:?}", line, flag
                    );
                }
            }
        }
    }

    /// [`program_variables`] as it was: every variable use, squashed.
    fn program_variables_by_every_use(text: &str, program: &str) -> Vec<(usize, usize)> {
        let want = squash(program);
        variable_refs(text)
            .filter(|(_, _, name)| squash(name).contains(&want))
            .map(|(s, e, _)| (s, e))
            .collect()
    }

    proptest::proptest! {
        /// Looking for the program's name first finds the same variables as squashing every
        /// variable use.
        #[test]
        fn program_variables_agree_with_every_use(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "$", "{", "{{", "{{{", " ", "}}", "}", "GITLAB", "gitlab", "GitLab", "git", "lab",
                "_", "-", ".", "runner", "Runner", "RUNNER", "run", "ner", "b", "B", "x", "é", "\n",
                "path", "$$", "gitlab-runner", "GITLAB_RUNNER", "gitlab_runner", "gitLabRunner",
                "gitlab.runner",
            ]), 0..24),
        ) {
            let text = parts.concat();
            let mut written = Vec::new();
            let (variables, complete) = program_variables(&text, "gitlab-runner", &mut written);
            proptest::prop_assert_eq!(
                variables,
                program_variables_by_every_use(&text, "gitlab-runner"),
                "{:?}", text
            );
            // The places of the program found on the way are where a substring search finds it.
            proptest::prop_assert!(complete);
            let searched: Vec<usize> =
                memchr::memmem::find_iter(text.as_bytes(), "gitlab-runner").collect();
            proptest::prop_assert_eq!(written, searched, "{:?}", text);
        }
    }

    /// The program's places in `find_in(…, flags)`, and whether each is a stored command's use.
    fn places_with(t: &str, yaml: bool, flags: Option<u64>) -> Vec<(usize, bool)> {
        let occurrences = Occurrences::of(t, "gitlab-runner", yaml);
        find_in(t, &occurrences, "register", yaml, flags)
            .iter()
            .map(|c| (c.program.start, c.alias))
            .collect()
    }

    #[test]
    fn commands_that_open_their_line_are_read_only_if_a_flag_may_be_there() {
        let t = "gitlab-runner register --url x\ngitlab-runner register \\\n  --locked\n  \
                 gitlab-runner register --paused\nREG=\"gitlab-runner register\"\n$REG --locked\n";
        let locked = Some(dash_head("--locked"));
        let at = |s: &str| t.find(s).unwrap();
        // Every command, then those whose line may hold `--locked`: the one continued onto the
        // next line, and the stored command (its line is not the command's) with its use.
        assert_eq!(places_with(t, false, None).len(), 5);
        assert_eq!(
            places_with(t, false, locked),
            [
                (at("gitlab-runner register \\"), false),
                (at("gitlab-runner register\""), false),
                (at("$REG"), true),
            ]
        );
        // In YAML no command is passed over (a folded scalar goes on over its lines).
        assert_eq!(places_with(t, true, locked).len(), 5);
    }

    proptest::proptest! {
        /// Passing over the commands whose line holds no flag looked for loses no command whose
        /// words hold one.
        #[test]
        fn no_command_with_a_flag_is_passed_over(
            lines in proptest::collection::vec((
                proptest::sample::select(vec![
                    "", "  ", "REG=\"", "# ", "- ", "x; ", "[\"", "command: ", "key: >-\n  ",
                ]),
                proptest::sample::select(vec!["gitlab-runner register", "$REG", "gitlab-runner"]),
                proptest::collection::vec(proptest::sample::select(vec![
                    " --locked", "=1", " --url x", " -l", " \\\n", " \\\n  --locked", "\"",
                    "\", \"", "\n  --locked", " {{ x }}", "'",
                ]), 0..4),
            ), 0..6),
            yaml in proptest::bool::ANY,
        ) {
            let text: String = lines
                .iter()
                .map(|(before, program, after)| format!("{before}{program}{}\n", after.concat()))
                .collect();
            let locked = Some(dash_head("--locked"));
            let all = find(&text, "gitlab-runner", "register", yaml);
            let some = places_with(&text, yaml, locked);
            for c in &all {
                if c.args().iter().any(|w| w.text.starts_with("--locked")) {
                    proptest::prop_assert!(
                        some.contains(&(c.program.start, c.alias)), "{:?}", text
                    );
                }
            }
            let every: Vec<(usize, bool)> =
                all.iter().map(|c| (c.program.start, c.alias)).collect();
            proptest::prop_assert!(some.iter().all(|p| every.contains(p)), "{:?}", text);
        }
    }

    proptest::proptest! {
        /// The quote state read on from the offset before is the one read from the line's
        /// start, and so is the logical line's end ([`Track`], [`Reach`]).
        #[test]
        fn quotes_and_ends_read_on_agree(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "\"", "'", "\\", "a", "x'", " ", "\n", "\\\n", "`\n", "é",
            ]), 0..40),
        ) {
            let text = parts.concat();
            let b = text.as_bytes();
            let (mut track, mut reaches) = (Track::default(), Reach::default());
            for at in (0..b.len()).filter(|&i| text.is_char_boundary(i)) {
                let line_start = b[..at].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
                proptest::prop_assert_eq!(
                    track.open_quote(b, at), open_quote(b, line_start, at), "{:?} {}", text, at
                );
                proptest::prop_assert_eq!(
                    reaches.of(b, at, Extent::Line), reach(b, at, Extent::Line), "{:?}", text
                );
            }
        }
    }

    #[test]
    fn look_alikes_are_not_commands() {
        for t in [
            "my-gitlab-runner register --locked",
            "$gitlab-runner register",
            "gitlab-runners register",
            "gitlab-runner unregister --all",
        ] {
            assert!(find(t, "gitlab-runner", "register", true).is_empty(), "{t}");
        }
    }
}
