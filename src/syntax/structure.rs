//! The structure of a source file, read to check that a fix leaves the code whole: its strings
//! and comments end, its brackets pair up, and the names its code uses are still declared in it
//! as they were. Not a parser: a lexer per language family (Go, Python, JavaScript/TypeScript,
//! Ruby) and a reading of the declarations (function names and parameters, variables,
//! constants, types, imports, assignments, loop and block variables; JavaScript's in
//! `structure/script.rs`, Ruby's in `structure/ruby.rs`) by function scope.
//!
//! What it gives is compared before and after an edit ([`Structure::count`]): a file that
//! already had problems (a newer syntax it does not know, a name declared in another file of the
//! package) has them before and after alike, and only what the edit adds counts. Read only when
//! fixes are applied, never in the scan.

use std::collections::HashSet;

// Named by its path, so that the module reads the same when included from elsewhere
// (`scripts/reparse-measure`).
#[path = "structure/ruby.rs"]
mod ruby;
#[path = "structure/script.rs"]
mod script;

/// The languages whose structure is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Go,
    Python,
    /// JavaScript and TypeScript (and their JSX forms).
    Script,
    Ruby,
}

impl Lang {
    /// The language of a file, from its name; `None` for a file whose structure is not read.
    pub fn of_path(path: &str) -> Option<Lang> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
        Some(match ext {
            "go" => Lang::Go,
            "py" | "pyi" => Lang::Python,
            "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => Lang::Script,
            "rb" | "rake" | "gemspec" => Lang::Ruby,
            _ if matches!(name, "Gemfile" | "Rakefile") => Lang::Ruby,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Lang::Go => "Go",
            Lang::Python => "Python",
            Lang::Script => "JavaScript/TypeScript",
            Lang::Ruby => "Ruby",
        }
    }
}

/// What does not hold together in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A string, rune, regular expression or heredoc that does not end.
    UnterminatedString,
    /// A block comment that does not end.
    UnterminatedComment,
    /// An opening bracket never closed.
    Unclosed(u8),
    /// A closing bracket with no opening one (or another's).
    Unexpected(u8),
    /// A string with a name written right after its end (`'sp'ec'`): a quote where none was.
    Joined,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Problem::UnterminatedString => f.write_str("a string that does not end"),
            Problem::UnterminatedComment => f.write_str("a comment that does not end"),
            Problem::Unclosed(c) => write!(f, "`{}` never closed", *c as char),
            Problem::Unexpected(c) => write!(f, "`{}` that closes nothing", *c as char),
            Problem::Joined => f.write_str("a string joined to the name after it"),
        }
    }
}

/// A file's structure: its problems (with their byte offsets) and the names its code uses
/// that it declares nowhere in their scope (sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Structure {
    pub problems: Vec<(usize, Problem)>,
    pub undeclared: Vec<String>,
}

impl Structure {
    /// What `self` (after an edit) has that `before` had not, in words; `None` when it is no
    /// worse: no more problems than before, and no name used and not declared that was not so.
    pub fn worse_than(&self, before: &Structure, text: &str) -> Option<String> {
        if self.problems.len() > before.problems.len() {
            let new = self
                .problems
                .iter()
                .find(|p| !before.problems.iter().any(|q| q.1 == p.1))
                .or(self.problems.first());
            return Some(match new {
                Some(&(at, p)) => {
                    let line = 1 + memchr::memchr_iter(b'\n', &text.as_bytes()[..at]).count();
                    format!("{p} at line {line}")
                }
                None => "it would no longer parse".to_string(),
            });
        }
        // Once per scope: a name undeclared in more scopes than before is lost.
        let mut known: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for name in &before.undeclared {
            *known.entry(name).or_default() += 1;
        }
        let lost = self.undeclared.iter().find(|name| {
            let n = known.entry(name.as_str()).or_default();
            let lost = *n == 0;
            *n = n.saturating_sub(1);
            lost
        });
        lost.map(|name| format!("`{name}` would be used and not declared"))
    }
}

/// Read the structure of `text` as `lang`.
pub fn read(lang: Lang, text: &str) -> Structure {
    let mut lx = Lexer {
        b: text.as_bytes(),
        i: 0,
        lang,
        stack: Vec::new(),
        toks: Vec::new(),
        problems: Vec::new(),
        heredocs: Vec::new(),
        formatted: false,
    };
    lx.run();
    let undeclared = undeclared(text, &lx.toks, lang);
    Structure {
        problems: lx.problems,
        undeclared,
    }
}

/// How many tokens a list or group is read for its names (a Go `const ( … )` block, a
/// parameter list, a pattern), and how many a keyword's names are looked for after it: bounds
/// that keep the reading linear on hostile text (a million unclosed `var (`).
const LIST_REACH: usize = 1024;
const REACH: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    /// A string or number.
    Value,
    Punct(u8),
    Newline,
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    start: usize,
    end: usize,
    kind: Kind,
    /// How many brackets are open around it.
    depth: usize,
    /// An opening bracket's closing one (its index), `usize::MAX` when none closes it.
    pair: usize,
}

/// How a string ends and what it holds.
#[derive(Clone, Copy, Debug)]
struct Quote {
    close: u8,
    /// Python's `'''` and `"""`.
    triple: bool,
    /// May hold line breaks.
    multiline: bool,
    escapes: bool,
    /// `${` (JavaScript templates) or `#{` (Ruby): the byte before `{` that opens code.
    interp: Option<u8>,
    /// Python's f-strings: `{ … }` holds code, `{{` is a brace.
    braces: bool,
    /// Ruby's `%w[ … ]` and the like: the bracket that nests inside, and how deep.
    nest: Option<u8>,
    depth: usize,
    start: usize,
}

enum Frame {
    /// A bracket, its offset and its token's index.
    Open(u8, usize, usize),
    /// Code inside a string's `${ … }` or `#{ … }`: at its `}` the string goes on.
    Interp(Quote),
}

struct Lexer<'t> {
    b: &'t [u8],
    i: usize,
    lang: Lang,
    stack: Vec<Frame>,
    toks: Vec<Tok>,
    problems: Vec<(usize, Problem)>,
    /// Ruby heredocs opened on the current line: (start, terminator, indented).
    heredocs: Vec<(usize, &'t [u8], bool)>,
    /// The string at the cursor has an `f` prefix (Python).
    formatted: bool,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

fn is_ident(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

impl<'t> Lexer<'t> {
    fn push(&mut self, start: usize, end: usize, kind: Kind) {
        let depth = self.stack.len();
        self.toks.push(Tok {
            start,
            end,
            kind,
            depth,
            pair: usize::MAX,
        });
    }

    fn run(&mut self) {
        while self.i < self.b.len() {
            let c = self.b[self.i];
            match c {
                b'\n' => {
                    self.push(self.i, self.i + 1, Kind::Newline);
                    self.i += 1;
                    if !self.heredocs.is_empty() {
                        self.heredoc_bodies();
                    }
                }
                b' ' | b'\t' | b'\r' => self.i += 1,
                _ if self.comment() => {}
                _ if is_ident_start(c) => self.ident(),
                b'0'..=b'9' => {
                    let s = self.i;
                    while self.i < self.b.len()
                        && (is_ident(self.b[self.i]) || self.b[self.i] == b'.')
                    {
                        self.i += 1;
                    }
                    self.push(s, self.i, Kind::Value);
                }
                b'(' | b'[' | b'{' => {
                    self.push(self.i, self.i + 1, Kind::Punct(c));
                    self.stack.push(Frame::Open(c, self.i, self.toks.len() - 1));
                    self.i += 1;
                }
                b')' | b']' | b'}' => self.close(c),
                _ => {
                    if !self.string_start() {
                        self.push(self.i, self.i + 1, Kind::Punct(c));
                        self.i += 1;
                    }
                }
            }
        }
        for f in std::mem::take(&mut self.stack) {
            match f {
                Frame::Open(c, at, _) => self.problems.push((at, Problem::Unclosed(c))),
                Frame::Interp(q) => self.problems.push((q.start, Problem::UnterminatedString)),
            }
        }
        for (at, _, _) in std::mem::take(&mut self.heredocs) {
            self.problems.push((at, Problem::UnterminatedString));
        }
    }

    /// A comment at the cursor: skipped (true), or none.
    fn comment(&mut self) -> bool {
        let rest = &self.b[self.i..];
        let line = matches!(self.lang, Lang::Go | Lang::Script) && rest.starts_with(b"//")
            || matches!(self.lang, Lang::Python | Lang::Ruby) && rest[0] == b'#';
        if line {
            self.i += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            return true;
        }
        if matches!(self.lang, Lang::Go | Lang::Script) && rest.starts_with(b"/*") {
            match memchr::memmem::find(&rest[2..], b"*/") {
                Some(k) => self.i += 2 + k + 2,
                None => {
                    self.problems.push((self.i, Problem::UnterminatedComment));
                    self.i = self.b.len();
                }
            }
            return true;
        }
        let at_line_start = self.i == 0 || self.b[self.i - 1] == b'\n';
        if self.lang == Lang::Ruby && at_line_start && rest.starts_with(b"=begin") {
            match memchr::memmem::find(rest, b"\n=end") {
                Some(k) => {
                    let end = k + 5;
                    self.i += end + memchr::memchr(b'\n', &rest[end..]).unwrap_or(rest.len() - end);
                }
                None => {
                    self.problems.push((self.i, Problem::UnterminatedComment));
                    self.i = self.b.len();
                }
            }
            return true;
        }
        false
    }

    fn ident(&mut self) {
        let s = self.i;
        while self.i < self.b.len() && is_ident(self.b[self.i]) {
            self.i += 1;
        }
        // Ruby's `name?` and `name!` methods.
        if self.lang == Lang::Ruby
            && matches!(self.b.get(self.i), Some(b'?' | b'!'))
            && self.b.get(self.i + 1) != Some(&b'=')
        {
            self.i += 1;
        }
        // Python's string prefixes (`f"…"`, `rb'…'`) are part of the string.
        if self.lang == Lang::Python
            && matches!(self.b.get(self.i), Some(b'"' | b'\''))
            && self.i - s <= 2
            && self.b[s..self.i].iter().all(|c| b"rRbBuUfF".contains(c))
        {
            self.formatted = self.b[s..self.i].iter().any(|c| b"fF".contains(c));
            return;
        }
        self.push(s, self.i, Kind::Ident);
    }

    fn close(&mut self, c: u8) {
        let open = match c {
            b')' => b'(',
            b']' => b'[',
            _ => b'{',
        };
        let mut closed = None;
        match self.stack.last() {
            Some(Frame::Interp(q)) if c == b'}' => {
                let q = *q;
                self.stack.pop();
                self.i += 1;
                self.string(q);
                return;
            }
            Some(Frame::Open(o, _, t)) if *o == open => {
                closed = Some(*t);
                self.stack.pop();
            }
            _ => {
                // Closes an outer bracket: those opened since are unclosed. Else it closes
                // nothing, and is passed over.
                // Looked for among the last 64 open (a closing bracket after a million
                // unclosed ones is not read against each of them).
                let floor = self.stack.len().saturating_sub(64);
                let outer = self.stack[floor..]
                    .iter()
                    .rposition(|f| match f {
                        Frame::Open(o, _, _) => *o == open,
                        Frame::Interp(_) => false,
                    })
                    .map(|i| floor + i);
                let no_interp_between = outer
                    .is_some_and(|k| self.stack[k..].iter().all(|f| matches!(f, Frame::Open(..))));
                match outer {
                    Some(k) if no_interp_between => {
                        for f in self.stack.drain(k + 1..) {
                            if let Frame::Open(o, at, _) = f {
                                self.problems.push((at, Problem::Unclosed(o)));
                            }
                        }
                        if let Some(Frame::Open(_, _, t)) = self.stack.pop() {
                            closed = Some(t);
                        }
                    }
                    _ => self.problems.push((self.i, Problem::Unexpected(c))),
                }
            }
        }
        self.push(self.i, self.i + 1, Kind::Punct(c));
        if let Some(t) = closed {
            self.toks[t].pair = self.toks.len() - 1;
        }
        self.i += 1;
    }

    /// Does the token before the cursor end a value (so that `/` divides and `%` is modulo)?
    fn after_value(&self) -> bool {
        match self.toks.last() {
            None => false,
            Some(t) => match t.kind {
                Kind::Value => true,
                Kind::Punct(c) => matches!(c, b')' | b']' | b'}'),
                Kind::Newline => false,
                Kind::Ident => !matches!(
                    &self.b[t.start..t.end],
                    b"return"
                        | b"typeof"
                        | b"case"
                        | b"in"
                        | b"of"
                        | b"new"
                        | b"delete"
                        | b"void"
                        | b"throw"
                        | b"yield"
                        | b"await"
                        | b"if"
                        | b"unless"
                        | b"when"
                        | b"and"
                        | b"or"
                        | b"not"
                        | b"puts"
                        | b"p"
                ),
            },
        }
    }

    /// A string at the cursor: read to its end (true), or none.
    fn string_start(&mut self) -> bool {
        let c = self.b[self.i];
        let plain = |close, multiline, interp| Quote {
            close,
            triple: false,
            multiline,
            escapes: true,
            interp,
            braces: false,
            nest: None,
            depth: 0,
            start: 0,
        };
        let (q, skip) = match (self.lang, c) {
            (Lang::Go, b'"' | b'\'') => (plain(c, false, None), 1),
            (Lang::Go, b'`') => (
                Quote {
                    escapes: false,
                    ..plain(c, true, None)
                },
                1,
            ),
            (Lang::Python, b'"' | b'\'') => {
                let triple = self.b[self.i..].starts_with(&[c, c, c]);
                (
                    Quote {
                        triple,
                        braces: std::mem::take(&mut self.formatted),
                        ..plain(c, triple, None)
                    },
                    if triple { 3 } else { 1 },
                )
            }
            (Lang::Script, b'"' | b'\'') => (plain(c, false, None), 1),
            (Lang::Script, b'`') => (plain(c, true, Some(b'$')), 1),
            (Lang::Script | Lang::Ruby, b'/') if !self.after_value() => {
                (plain(b'/', self.lang == Lang::Ruby, None), 1)
            }
            (Lang::Ruby, b'"') => (plain(c, true, Some(b'#')), 1),
            (Lang::Ruby, b'\'') => (plain(c, true, None), 1),
            (Lang::Ruby, b'`') => (plain(c, true, Some(b'#')), 1),
            (Lang::Ruby, b'%') if !self.after_value() => match self.percent_literal() {
                Some(x) => x,
                None => return false,
            },
            (Lang::Ruby, b'<') if self.heredoc() => return true,
            (Lang::Ruby, b'$') if self.b.get(self.i + 1).is_some_and(u8::is_ascii_punctuation) => {
                self.i += 2;
                self.push(self.i - 2, self.i, Kind::Ident);
                return true;
            }
            (Lang::Ruby, b'?')
                if self
                    .b
                    .get(self.i + 1)
                    .is_some_and(|&c| c.is_ascii_graphic())
                    && !self
                        .b
                        .get(self.i + 2)
                        .is_some_and(|&c| is_ident(c) || c == b'\'' || c == b'"')
                    && !self.after_value() =>
            {
                // A character literal, `?a`.
                self.push(self.i, self.i + 2, Kind::Value);
                self.i += 2;
                return true;
            }
            _ => return false,
        };
        let q = Quote { start: self.i, ..q };
        self.i += skip;
        self.string(q);
        true
    }

    /// Ruby's `%w[ … ]`, `%q( … )`, `%( … )` and the like: the quote and the bytes of its start.
    fn percent_literal(&self) -> Option<(Quote, usize)> {
        let rest = &self.b[self.i + 1..];
        let (kind, delim_at) = match rest.first()? {
            c if b"qQwWiIrsx".contains(c) => (Some(*c), 1),
            _ => (None, 0),
        };
        let d = *rest.get(delim_at)?;
        if d.is_ascii_alphanumeric() || d.is_ascii_whitespace() || d == b'=' {
            return None;
        }
        let close = match d {
            b'(' => b')',
            b'[' => b']',
            b'{' => b'}',
            b'<' => b'>',
            other => other,
        };
        let interp = !matches!(kind, Some(b'q' | b'w' | b'i' | b's'));
        Some((
            Quote {
                close,
                triple: false,
                multiline: true,
                escapes: true,
                interp: interp.then_some(b'#'),
                braces: false,
                nest: (close != d).then_some(d),
                depth: 0,
                start: self.i,
            },
            1 + delim_at + 1,
        ))
    }

    /// A Ruby heredoc's start (`<<~ID`, `<<-ID`, `<<ID`, quoted or not): its body is read at
    /// the end of the line (true), or none.
    fn heredoc(&mut self) -> bool {
        let rest = &self.b[self.i..];
        if !rest.starts_with(b"<<") {
            return false;
        }
        let indented = matches!(rest.get(2), Some(b'~' | b'-'));
        let mut k = 2 + usize::from(indented);
        let quote = match rest.get(k) {
            Some(&q @ (b'\'' | b'"' | b'`')) => {
                k += 1;
                Some(q)
            }
            _ => None,
        };
        let id_start = k;
        while rest.get(k).is_some_and(|&c| is_ident(c)) {
            k += 1;
        }
        if k == id_start {
            return false;
        }
        let first = rest[id_start];
        let bare = !indented && quote.is_none();
        // `a <<B` where `a` is a value is a shift; a bare `<<ID` needs a capital.
        if bare
            && (!first.is_ascii_uppercase()
                || self.after_value() && self.b.get(self.i.wrapping_sub(1)) != Some(&b' '))
        {
            return false;
        }
        let id = &rest[id_start..k];
        if let Some(q) = quote {
            if rest.get(k) != Some(&q) {
                return false;
            }
            k += 1;
        }
        self.heredocs.push((self.i, id, indented));
        self.push(self.i, self.i + k, Kind::Value);
        self.i += k;
        true
    }

    /// The bodies of the heredocs opened on the line just ended: skipped to their terminators.
    fn heredoc_bodies(&mut self) {
        for (at, id, indented) in std::mem::take(&mut self.heredocs) {
            let mut found = false;
            while self.i < self.b.len() {
                let end =
                    memchr::memchr(b'\n', &self.b[self.i..]).map_or(self.b.len(), |k| self.i + k);
                let line = &self.b[self.i..end];
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                let line = if indented {
                    line.trim_ascii_start()
                } else {
                    line
                };
                self.i = (end + 1).min(self.b.len());
                if line == id {
                    found = true;
                    break;
                }
            }
            if !found {
                self.problems.push((at, Problem::UnterminatedString));
            }
        }
    }

    /// A name written right after a string's end (a regular expression's flags and keywords
    /// such as `'a'if` aside): a problem.
    fn joined(&mut self, q: Quote) {
        let regex = q.close == b'/' || q.start < self.b.len() && self.b[q.start] == b'%';
        if regex || !self.b.get(self.i).is_some_and(|&c| is_ident_start(c)) {
            return;
        }
        let end = (self.i..self.b.len())
            .find(|&k| !is_ident(self.b[k]))
            .unwrap_or(self.b.len());
        const KEYWORDS: &[&[u8]] = &[
            b"if",
            b"else",
            b"for",
            b"in",
            b"and",
            b"or",
            b"not",
            b"is",
            b"unless",
            b"then",
            b"do",
            b"rescue",
            b"while",
            b"until",
            b"instanceof",
            b"of",
            b"as",
        ];
        if !KEYWORDS.contains(&&self.b[self.i..end]) {
            self.problems.push((self.i, Problem::Joined));
        }
    }

    /// Read a string from the cursor (past its opening) to its end, or to an interpolation's
    /// start (then the code inside is read, and the string goes on at its `}`).
    fn string(&mut self, mut q: Quote) {
        let b = self.b;
        while self.i < b.len() {
            let c = b[self.i];
            if q.escapes && c == b'\\' {
                self.i += 2;
                continue;
            }
            if c == b'\n' && !q.multiline {
                // Python and Go strings end with their line; so do JavaScript's quoted ones.
                self.problems.push((q.start, Problem::UnterminatedString));
                return;
            }
            if q.close == b'/' && c == b'[' && self.lang != Lang::Ruby {
                // A class of a regular expression: `/[/]/`.
                if let Some(k) = b[self.i..].iter().position(|&x| x == b']' || x == b'\n') {
                    self.i += k;
                    if b[self.i] == b'\n' {
                        continue;
                    }
                }
            }
            if let Some(lead) = q.interp
                && c == lead
                && b.get(self.i + 1) == Some(&b'{')
            {
                self.stack.push(Frame::Interp(q));
                self.i += 2;
                return;
            }
            if q.braces && c == b'{' {
                if b.get(self.i + 1) == Some(&b'{') {
                    self.i += 2;
                    continue;
                }
                self.stack.push(Frame::Interp(q));
                self.i += 1;
                return;
            }
            if q.nest == Some(c) {
                q.depth += 1;
            } else if c == q.close {
                if q.depth > 0 {
                    q.depth -= 1;
                } else if !q.triple || b[self.i..].starts_with(&[c, c, c]) {
                    self.i += if q.triple { 3 } else { 1 };
                    self.push(q.start, self.i, Kind::Value);
                    self.joined(q);
                    return;
                }
            }
            self.i += 1;
        }
        self.problems.push((q.start, Problem::UnterminatedString));
    }
}

const GO_KEYWORDS: &[&str] = &[
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Names declared, each at a token (a scope is found from it) and whether it is declared in
/// the scope around that token's (a function's name, not its parameters).
#[derive(Default)]
struct Names {
    /// The token the next names are declared at.
    k: usize,
    list: Vec<(usize, String, bool)>,
}

impl Names {
    fn insert(&mut self, w: String) {
        self.list.push((self.k, w, false));
    }

    fn up(&mut self, w: String) {
        self.list.push((self.k, w, true));
    }
}

/// The scopes of a file: ranges of tokens, sorted by their start (the file first), each with
/// the one around it.
struct Scopes {
    /// (start, end, parent)
    list: Vec<(usize, usize, usize)>,
    /// The innermost scope of each token.
    owner: Vec<usize>,
}

impl Scopes {
    /// The scopes of `ranges` (each a function's tokens) in a file of `len` tokens, in one
    /// sweep: a token's scope is the innermost open at it.
    fn new(len: usize, mut ranges: Vec<(usize, usize)>) -> Scopes {
        ranges.sort_by_key(|&(a, b)| (a, std::cmp::Reverse(b)));
        let mut list = vec![(0, len, 0)];
        let mut owner = vec![0; len];
        let mut open: Vec<usize> = vec![0];
        let mut next = ranges.iter().peekable();
        for (k, owned) in owner.iter_mut().enumerate() {
            while open.len() > 1 && list[open[open.len() - 1]].1 <= k {
                open.pop();
            }
            while let Some(&&(a, b)) = next.peek()
                && a <= k
            {
                next.next();
                let id = list.len();
                list.push((a, b.min(len), open[open.len() - 1]));
                open.push(id);
            }
            *owned = open[open.len() - 1];
        }
        Scopes { list, owner }
    }
}

/// The names the code uses (an identifier not after `.`, not a key before `:`, not a keyword
/// argument before `=`) that no declaration of its scope or the scopes around it names, once
/// per scope, sorted.
fn undeclared(text: &str, toks: &[Tok], lang: Lang) -> Vec<String> {
    let (names, scopes, keywords) = match lang {
        Lang::Go => (go_declared(text, toks), go_scopes(toks, text), GO_KEYWORDS),
        Lang::Python => (
            python_declared(text, toks),
            python_scopes(toks, text),
            PYTHON_KEYWORDS,
        ),
        Lang::Script => (
            script::declared(text, toks),
            script::scopes(toks, text),
            script::KEYWORDS,
        ),
        Lang::Ruby => (
            ruby::declared(text, toks),
            ruby::scopes(toks, text),
            ruby::KEYWORDS,
        ),
    };
    let scopes = Scopes::new(toks.len(), scopes);
    let mut declared: Vec<HashSet<&str>> = vec![HashSet::new(); scopes.list.len()];
    for (k, w, up) in &names.list {
        let mut s = scopes.owner.get(*k).copied().unwrap_or(0);
        if *up {
            s = scopes.list[s].2;
        }
        declared[s].insert(w);
    }
    // Looked for in the scope and at most 256 around it (past them, taken as declared: a
    // function nested deeper is no client's code).
    let known = |mut s: usize, w: &str| {
        for _ in 0..256 {
            if declared[s].contains(w) {
                return true;
            }
            if s == 0 {
                return false;
            }
            s = scopes.list[s].2;
        }
        true
    };
    let word = |t: &Tok| &text[t.start..t.end];
    let punct = |k: usize| toks.get(k).map(|t| t.kind);
    let mut out: HashSet<(usize, &str)> = HashSet::new();
    for (k, t) in toks.iter().enumerate() {
        if t.kind != Kind::Ident || keywords.contains(&word(t)) {
            continue;
        }
        // A selector, an f-string's conversion (`{x!r}`), a Ruby symbol, constant path,
        // instance, class or global variable (`:x`, `A::X`, `@x`, `$x`).
        let joined_to = |c: u8| punct(k - 1) == Some(Kind::Punct(c)) && toks[k - 1].end == t.start;
        let after_dot = k > 0
            && (punct(k - 1) == Some(Kind::Punct(b'.'))
                || lang == Lang::Python && joined_to(b'!')
                || lang == Lang::Ruby && (joined_to(b':') || joined_to(b'@') || joined_to(b'$')));
        let next = punct(k + 1);
        let next2 = punct(k + 2);
        let single = |c: u8| next == Some(Kind::Punct(c)) && next2 != Some(Kind::Punct(b'='));
        // Go's composite keys and labels and JavaScript's object keys and annotated names
        // (`Field: v`, `key: v`, `x: T`) are no uses; in Python `x:` is one (`if x:`,
        // `{x: y}`, `a[x:y]`), or a declaration too (`x: int = 1`).
        let key = lang != Lang::Python && single(b':');
        let keyword_argument = t.depth > 0 && single(b'=');
        let s = scopes.owner[k];
        if !(after_dot || key || keyword_argument || known(s, word(t))) {
            out.insert((s, word(t)));
        }
    }
    let mut out: Vec<String> = out.into_iter().map(|(_, w)| w.to_string()).collect();
    out.sort();
    out
}

/// Go's function scopes: from `func` to the end of its body.
fn go_scopes(toks: &[Tok], text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for k in 0..toks.len() {
        if toks[k].kind != Kind::Ident || &text[toks[k].start..toks[k].end] != "func" {
            continue;
        }
        let depth = toks[k].depth;
        let mut j = k + 1;
        while j < toks.len().min(k + REACH) && toks[j].kind != Kind::Newline {
            match toks[j].kind {
                Kind::Punct(b'{') => {
                    out.push((k, matching(toks, j) + 1));
                    break;
                }
                Kind::Punct(b'(' | b'[') => j = matching(toks, j) + 1,
                Kind::Punct(b')' | b']' | b'}' | b',' | b'=') if toks[j].depth <= depth => break,
                _ => j += 1,
            }
        }
    }
    out
}

/// Python's function scopes: from `def` to the next statement indented as far or less.
fn python_scopes(toks: &[Tok], text: &str) -> Vec<(usize, usize)> {
    let column = |k: usize| {
        let start = toks[k].start;
        start - text[..start].rfind('\n').map_or(0, |i| i + 1)
    };
    let statement_start = |k: usize| {
        toks[k].depth == 0
            && toks[k].kind != Kind::Newline
            && (k == 0 || toks[k - 1].kind == Kind::Newline && toks[k - 1].depth == 0)
    };
    // In one pass: the functions open, each its `def` and the indentation of its line; a
    // statement as far in or further out ends those as far in as it or further.
    let mut out = Vec::new();
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut indent = 0;
    for k in 0..toks.len() {
        if statement_start(k) {
            indent = column(k);
            while let Some(&(def, at)) = open.last()
                && at >= indent
            {
                out.push((def, k));
                open.pop();
            }
        }
        if toks[k].kind == Kind::Ident && &text[toks[k].start..toks[k].end] == "def" {
            open.push((k, indent));
        }
    }
    out.extend(open.into_iter().map(|(def, _)| (def, toks.len())));
    out
}

fn is_punct(toks: &[Tok], k: usize, c: u8) -> bool {
    toks.get(k).is_some_and(|t| t.kind == Kind::Punct(c))
}

/// The token that closes the bracket opened at `open` (its index), or the end.
fn matching(toks: &[Tok], open: usize) -> usize {
    toks[open].pair.min(toks.len())
}

/// The items of a bracketed list (`open` its opening bracket): each the range of its tokens.
fn items(toks: &[Tok], open: usize) -> Vec<(usize, usize)> {
    let end = matching(toks, open);
    let inner = toks[open].depth + 1;
    let mut out = Vec::new();
    let mut from = open + 1;
    let end = end.min(open + 1 + LIST_REACH);
    for (k, t) in toks.iter().enumerate().take(end).skip(open + 1) {
        if t.depth == inner && t.kind == Kind::Punct(b',') {
            out.push((from, k));
            from = k + 1;
        }
    }
    out.push((from, end));
    out.retain(|&(a, b)| a < b && toks[a..b].iter().any(|t| t.kind != Kind::Newline));
    out
}

/// The names of a Go parameter list opened at `open`, when it names its parameters.
fn go_params(text: &str, toks: &[Tok], open: usize, names: &mut Names) {
    let list = items(toks, open);
    let first = |&(a, _): &(usize, usize)| {
        let a = (a..toks.len()).find(|&k| toks[k].kind != Kind::Newline)?;
        let t = toks[a];
        let w = &text[t.start..t.end];
        (t.kind == Kind::Ident && !GO_KEYWORDS.contains(&w)).then_some((a, w))
    };
    // Named when an item is a name and a type (`a, b string`, `x []int`, `opts ...Opt`).
    let named = list.iter().any(|item| {
        first(item).is_some_and(|(a, _)| a + 1 < item.1 && !is_punct(toks, a + 1, b'.'))
    });
    if named {
        for item in &list {
            if let Some((_, w)) = first(item) {
                names.insert(w.to_string());
            }
        }
    }
}

/// Go's declarations: functions and their receivers, parameters and results (named), variables,
/// constants and types (alone or grouped), `:=`, and import aliases.
fn go_declared(text: &str, toks: &[Tok]) -> Names {
    let word = |k: usize| {
        toks.get(k)
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| &text[t.start..t.end])
    };
    let mut names = Names::default();
    let params = |open: usize, names: &mut Names| go_params(text, toks, open, names);
    let mut read_to = 0;
    for k in 0..toks.len() {
        names.k = k;
        match word(k) {
            Some("func") => {
                let mut j = k + 1;
                if is_punct(toks, j, b'(') {
                    let close = matching(toks, j);
                    if word(close + 1).is_some() && is_punct(toks, close + 2, b'(') {
                        params(j, &mut names); // a method's receiver
                        j = close + 1;
                    }
                }
                if let Some(w) = word(j) {
                    names.up(w.to_string());
                    j += 1;
                }
                if is_punct(toks, j, b'[') {
                    params(j, &mut names); // type parameters
                    j = matching(toks, j) + 1;
                }
                if is_punct(toks, j, b'(') {
                    params(j, &mut names);
                    j = matching(toks, j) + 1;
                    if is_punct(toks, j, b'(') {
                        params(j, &mut names); // named results
                    }
                }
            }
            Some("package") => {
                if let Some(w) = word(k + 1) {
                    names.insert(w.to_string());
                }
            }
            // A group inside one already read (no Go, a hostile text) is not read again.
            Some("var" | "const" | "type" | "import") if k >= read_to => {
                let group = is_punct(toks, k + 1, b'(');
                let end = if group { matching(toks, k + 1) } else { k + 2 };
                let end = end.min(k + 1 + LIST_REACH);
                read_to = end;
                let mut at_start = true;
                for j in k + 1..end.min(toks.len()) {
                    match toks[j].kind {
                        Kind::Newline | Kind::Punct(b'(' | b';') => at_start = true,
                        // An import's package, by the last part of its path (`go-yaml` as
                        // `yaml` too): its written name is not read.
                        Kind::Value if at_start && word(k) == Some("import") => {
                            let path = text[toks[j].start..toks[j].end].trim_matches(['"', '`']);
                            let last = path.rsplit('/').next().unwrap_or(path);
                            names.insert(last.to_string());
                            names
                                .insert(last.rsplit(['-', '.']).next().unwrap_or(last).to_string());
                            at_start = false;
                        }
                        Kind::Ident if at_start => {
                            names.insert(text[toks[j].start..toks[j].end].to_string());
                            // `a, b int`: the names before the type.
                            let mut n = j + 1;
                            while is_punct(toks, n, b',') && word(n + 1).is_some() {
                                names.insert(word(n + 1).unwrap_or_default().to_string());
                                n += 2;
                            }
                            at_start = false;
                        }
                        _ => at_start = false,
                    }
                }
            }
            _ => {}
        }
        // `a, b := …`
        if is_punct(toks, k, b':')
            && is_punct(toks, k + 1, b'=')
            && toks[k].end == toks[k + 1].start
        {
            declare_backwards(text, toks, k, &mut names);
        }
    }
    names
}

/// The names of `a, b` before the token at `k` (an assignment's `=` or `:=`).
fn declare_backwards(text: &str, toks: &[Tok], k: usize, names: &mut Names) {
    let mut j = k;
    // Inside a subscript read backwards (`a[i] = …` declares nothing).
    let mut subscript = 0usize;
    while j > 0 {
        j -= 1;
        match toks[j].kind {
            Kind::Punct(b']') => subscript += 1,
            Kind::Punct(b'[') if subscript > 0 => subscript -= 1,
            Kind::Ident if subscript == 0 => {
                // `a.b = …` and `a[i] = …` set a part of `a`; `x.a = …` sets `x`'s.
                let dotted = j > 0 && is_punct(toks, j - 1, b'.');
                let owner = is_punct(toks, j + 1, b'.') || is_punct(toks, j + 1, b'[');
                if !dotted && !owner {
                    names.insert(text[toks[j].start..toks[j].end].to_string());
                }
            }
            _ if subscript > 0 => {}
            Kind::Punct(b',' | b'(' | b')' | b'[' | b'*' | b'.') => {}
            _ => break,
        }
    }
}

/// Python's declarations: functions and classes and their parameters, lambdas' parameters,
/// assignments' targets (`a, b = …`, `x: int = …`, `x := …`), loop variables, `as` names,
/// imports, `global` and `nonlocal`.
fn python_declared(text: &str, toks: &[Tok]) -> Names {
    let word = |k: usize| {
        toks.get(k)
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| &text[t.start..t.end])
    };
    let mut names = Names::default();
    for k in 0..toks.len() {
        names.k = k;
        let statement_start = k == 0
            || matches!(toks[k - 1].kind, Kind::Newline | Kind::Punct(b';'))
                && toks[k - 1].depth == 0
                && toks[k].depth == 0;
        match word(k) {
            Some(kw @ ("def" | "class")) => {
                if let Some(w) = word(k + 1) {
                    if kw == "def" {
                        names.up(w.to_string());
                    } else {
                        names.insert(w.to_string());
                    }
                }
                if is_punct(toks, k + 2, b'(') && word(k) == Some("def") {
                    for (a, _) in items(toks, k + 2) {
                        let a = (a..toks.len())
                            .find(|&j| {
                                !matches!(toks[j].kind, Kind::Newline | Kind::Punct(b'*' | b'/'))
                            })
                            .unwrap_or(a);
                        if let Some(w) = word(a) {
                            names.insert(w.to_string());
                        }
                    }
                }
            }
            Some(kw @ ("lambda" | "for" | "from" | "as" | "global" | "nonlocal" | "import")) => {
                python_listed(text, toks, k, kw, &mut names);
            }
            Some(w)
                if statement_start
                    && is_punct(toks, k + 1, b':')
                    && !PYTHON_KEYWORDS.contains(&w) =>
            {
                names.insert(w.to_string()); // `x: int = …`
            }
            _ => {}
        }
        python_assignment(text, toks, k, &mut names);
    }
    names
}

/// The names a Python keyword's list declares: a lambda's parameters, a loop's variables, the
/// module imported from (neither a use nor the file's own), an `as` name, the names of
/// `global`, `nonlocal` and `import`.
fn python_listed(text: &str, toks: &[Tok], k: usize, kw: &str, names: &mut Names) {
    let word = |k: usize| {
        toks.get(k)
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| &text[t.start..t.end])
    };
    match kw {
        "lambda" => {
            let mut j = k + 1;
            // Its parameters end at `:`, its line or another keyword at the latest.
            let ends = |j: usize| {
                is_punct(toks, j, b':')
                    || toks[j].kind == Kind::Newline && toks[j].depth == 0
                    || word(j).is_some_and(|w| PYTHON_KEYWORDS.contains(&w))
            };
            while j < toks.len().min(k + REACH) && !ends(j) {
                if let Some(w) = word(j)
                    && matches!(toks[j - 1].kind, Kind::Punct(b',' | b'*') | Kind::Ident)
                {
                    names.insert(w.to_string());
                }
                j += 1;
            }
        }
        "for" => {
            let mut j = k + 1;
            while j < toks.len().min(k + REACH)
                && !word(j).is_some_and(|w| PYTHON_KEYWORDS.contains(&w))
                && toks[j].kind != Kind::Newline
            {
                if let Some(w) = word(j) {
                    names.insert(w.to_string());
                }
                j += 1;
            }
        }
        "from" => {
            // The module imported from: neither a use nor a name of the file's own.
            let mut j = k + 1;
            while let Some(w) = word(j).filter(|w| !PYTHON_KEYWORDS.contains(w) && j < k + REACH) {
                names.insert(w.to_string());
                j += 2;
            }
        }
        "as" => {
            if let Some(w) = word(k + 1).filter(|w| !PYTHON_KEYWORDS.contains(w)) {
                names.insert(w.to_string());
            }
        }
        _ => {
            let mut j = k + 1;
            while j < toks.len().min(k + REACH) {
                match toks[j].kind {
                    Kind::Ident
                        if word(j).is_some_and(|w| PYTHON_KEYWORDS.contains(&w) && w != "as") =>
                    {
                        break;
                    }
                    Kind::Ident if word(j) != Some("as") => {
                        if !is_punct(toks, j - 1, b'.') {
                            names.insert(word(j).unwrap_or_default().to_string());
                        }
                    }
                    Kind::Ident | Kind::Punct(b',' | b'.' | b'(' | b')') => {}
                    Kind::Newline if toks[j].depth > 0 => {}
                    _ => break,
                }
                j += 1;
            }
        }
    }
}

/// The targets of a Python assignment (`a, b = …`) or walrus (`x := …`) whose `=` is at `k`.
fn python_assignment(text: &str, toks: &[Tok], k: usize, names: &mut Names) {
    if !is_punct(toks, k, b'=') {
        return;
    }
    let joined = |c: &[u8]| {
        k > 0
            && matches!(toks[k - 1].kind, Kind::Punct(p) if c.contains(&p))
            && toks[k - 1].end == toks[k].start
    };
    if joined(b":") {
        declare_backwards(text, toks, k - 1, names);
    } else if toks[k].depth == 0 && !is_punct(toks, k + 1, b'=') && !joined(b"=!<>+-*/%&|^@") {
        declare_backwards(text, toks, k, names);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Is `after` worse than `before`?
    fn worse(lang: Lang, before: &str, after: &str) -> bool {
        read(lang, after)
            .worse_than(&read(lang, before), after)
            .is_some()
    }

    #[test]
    fn whole_files_have_no_problems() {
        let go = "package x\n\nimport (\n\t\"fmt\"\n\tstr \"strings\"\n)\n\ntype Link struct {\n\tFilepath string `json:\"filepath,omitempty\"`\n}\n\nfunc (l *Link) Add(base, filepath string, n ...int) (err error) {\n\tvar total, count int\n\tfor i, v := range n {\n\t\ttotal += i + v\n\t}\n\tcount = len(n)\n\tbody := map[string]string{\"filepath\": filepath, \"b\": base}\n\tfmt.Println(str.ToUpper(l.Filepath), body, total, count, '\\'', \"}\")\n\treturn nil\n}\n";
        assert_eq!(read(Lang::Go, go).problems, vec![]);
        // Builtins and imported packages are declared elsewhere.
        let s = read(Lang::Go, go);
        assert_eq!(
            s.undeclared,
            ["Filepath", "error", "int", "len", "nil", "string", "string"],
            "{s:?}"
        );
        let py = "import os\nfrom a import b as c\n\ndef add(base, filepath, *args, timeout: int = 3, **kw):\n    data = {'filepath': filepath, \"b\": f\"{base}\"}\n    for k, v in data.items():\n        print(k, v)\n    x: int = 1\n    y = [z for z in args if (w := z)]\n    s = '''a\n'b' \"\"\"\n'''\n    return os.path.join(c, timeout=x, y=y)\n";
        let s = read(Lang::Python, py);
        assert_eq!(s.problems, vec![]);
        assert_eq!(s.undeclared, ["print"]);
        let ts = "const a = `x ${b + `y ${c}`} }`;\nconst re = /[/]\"/g; // '\nlet d = a / 2 / 3;\nfunction f(x: Array<string>) { return { filepath: x[0] }; }\n/* ' */\n";
        assert_eq!(read(Lang::Script, ts).problems, vec![]);
        let rb = "x = %w[a b [c]]\ny = \"a #{z.map { |q| \"#{q}\" }} b\"\ns = <<~EOS\n  it's ( open\n  EOS\nputs s, %q(a (b) c), y =~ /\\d{2}'/\nh = { 'filepath' => 1, filepath: 2 }\n=begin\n( '\n=end\n";
        assert_eq!(read(Lang::Ruby, rb).problems, vec![]);
    }

    #[test]
    fn a_broken_edit_is_worse() {
        let go = "package x\n\nfunc f(base, filepath string) {\n\tg(map[string]string{\"filepath\": filepath})\n}\n";
        let go_worse = |after: String| worse(Lang::Go, go, &after);
        // A quote in a replacement, a bracket in one.
        assert!(go_worse(go.replace("\"filepath\"", "\"file\"path\"")));
        assert!(go_worse(go.replace("\"filepath\":", "\"filepath\":(")));
        // A parameter renamed at its declaration only, or at its uses only.
        let renamed = go.replace("base, filepath", "base, direct_asset_path");
        assert_eq!(
            read(Lang::Go, &renamed)
                .worse_than(&read(Lang::Go, go), &renamed)
                .as_deref(),
            Some("`filepath` would be used and not declared")
        );
        assert!(go_worse(go.replace(": filepath", ": direct_asset_path")));
        // A key renamed inside its string, a parameter renamed everywhere: no worse.
        assert!(!go_worse(
            go.replace("\"filepath\":", "\"direct_asset_path\":")
        ));
        assert!(!go_worse(
            go.replace("filepath string", "p string")
                .replace(": filepath", ": p")
        ));
        // The same name declared in another function does not hide the loss.
        let two = format!("{go}\nfunc h(filepath string) {{ g(filepath) }}\n");
        assert!(worse(
            Lang::Go,
            &two,
            &two.replacen("base, filepath", "base, p", 1)
        ));
        let py = "def f(base, filepath):\n    return {'filepath': filepath}\n\ndef g(filepath):\n    return filepath\n";
        let py_worse = |after: String| worse(Lang::Python, py, &after);
        assert!(py_worse(py.replace("(base, filepath)", "(base, path)")));
        assert!(py_worse(py.replace("'filepath'", "'file'path'")));
        assert!(py_worse(py.replace("'filepath'", "'filepath")));
        // A use inside an f-string's braces counts; `{{` is a brace.
        let f = "def g(name):\n    return f\"{{x}} {name!r:>4} {'a'}\"\n";
        assert_eq!(read(Lang::Python, f), Structure::default());
        assert!(worse(Lang::Python, f, &f.replace("g(name)", "g(n)")));
        // A signature over several lines, its `)` at the start of one: the body is still its.
        let multi = "class A:\n    def __init__(\n        self, config_files=None\n    ) -> None:\n        self.f = config_files\n\n    def g(self):\n        return self.f\n";
        assert_eq!(read(Lang::Python, multi), Structure::default());
        let renamed = multi.replace("self, config_files", "self, files");
        assert!(worse(Lang::Python, multi, &renamed));
        // Setting a part of a name declares nothing.
        let part = "def f(m, d):\n    m.value = 1\n    d['k'] = 2\n";
        assert!(worse(
            Lang::Python,
            part,
            &part.replace("f(m, d)", "f(n, d)")
        ));
        assert!(worse(
            Lang::Python,
            part,
            &part.replace("f(m, d)", "f(m, e)")
        ));
        assert!(!py_worse(py.replace("'filepath'", "'direct_asset_path'")));
        for (lang, text, key) in [
            (
                Lang::Script,
                "const body = { 'filepath': p };\n",
                "'filepath'",
            ),
            (
                Lang::Script,
                "const body = { \"filepath\": `${p}` };\n",
                "\"filepath\"",
            ),
            (Lang::Ruby, "body = { 'filepath' => p }\n", "'filepath'"),
            (Lang::Ruby, "body = { \"filepath\" => p }\n", "\"filepath\""),
        ] {
            assert_eq!(read(lang, text).problems, vec![], "{text}");
            for broken in [
                text.replace(key, &format!("{key}}}")),
                text.replace(key, &key[..key.len() - 1]),
                text.replace(key, &format!("{}{}x{}", &key[..3], &key[..1], &key[3..])),
            ] {
                assert!(worse(lang, text, &broken), "{broken}");
            }
            assert!(!worse(
                lang,
                text,
                &text.replace("filepath", "direct_asset_path")
            ));
        }
    }
}
