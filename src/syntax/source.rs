//! One file being scanned: its text, where lines start, and where comments are.
//! Computed once per file, and only for files the prefilter found something in.

use std::cell::{Cell, OnceCell, RefCell};

use super::classify::{Class, CommentStyle};

/// A file's text with its line index and comment ranges, each computed on first use.
pub struct Source<'a> {
    pub path: &'a str,
    pub text: &'a str,
    pub class: Class,
    /// The starts of the lines asked about, with their numbers: a line's number is counted
    /// from the nearest known line before it, and no other line is indexed.
    lines: RefCell<LineMarks>,
    /// Byte ranges of comments, sorted, not overlapping (all of them: for suppressions).
    comments: OnceCell<Vec<(usize, usize)>>,
    /// Byte ranges of `/* … */` comments (slash styles), for `in_comment`.
    blocks: OnceCell<Vec<(usize, usize)>>,
    /// The line last asked about by `in_comment`, lexed once for all its offsets (a line that
    /// holds a word 40,000 times is not lexed 40,000 times).
    line_comments: RefCell<LineComments>,
    /// The place last asked about by `line_col`, `byte_column` and `excerpt_at`: the next place
    /// on the same line is counted from it, not from the line's start.
    cursor: Cell<Cursor>,
}

/// The comments of one line ([`Source::in_comment`]).
struct LineComments {
    /// The line: `start..end` (`end` at its line break or the text's end).
    start: usize,
    end: usize,
    /// Where the blanks at the line's start end.
    blanks_end: usize,
    /// The comments that start on the line, lexed from its start (made on first need).
    ranges: Option<Vec<(usize, usize)>>,
}

/// A place whose line and column are known ([`Source::line_col`]).
#[derive(Clone, Copy)]
struct Cursor {
    line_start: usize,
    line: usize,
    /// A byte offset (a character boundary) on the line and its 1-based column in characters.
    pos: usize,
    col: usize,
    /// The end of the line's text without its trailing `\r`s, once asked for.
    text_end: Option<usize>,
}

impl<'a> Source<'a> {
    pub fn new(path: &'a str, text: &'a str, class: Class) -> Self {
        Self {
            path,
            text,
            class,
            lines: RefCell::new(LineMarks { marks: Vec::new() }),
            comments: OnceCell::new(),
            blocks: OnceCell::new(),
            line_comments: RefCell::new(LineComments {
                start: usize::MAX,
                end: 0,
                blanks_end: 0,
                ranges: None,
            }),
            cursor: Cell::new(Cursor {
                line_start: usize::MAX,
                line: 0,
                pos: 0,
                col: 0,
                text_end: None,
            }),
        }
    }

    /// The known line starts, the first line's among them (put there when a line is first
    /// asked about: most files scanned are asked about none, and make no list).
    fn lines(&self) -> std::cell::RefMut<'_, LineMarks> {
        let mut lines = self.lines.borrow_mut();
        if lines.marks.is_empty() {
            lines.marks.push((0, 1));
        }
        lines
    }

    /// The line of `offset` (1-based) and where it starts.
    fn line_of(&self, offset: usize) -> (usize, usize) {
        let b = self.text.as_bytes();
        let offset = offset.min(b.len());
        let mut lines = self.lines();
        let k = lines.marks.partition_point(|&(s, _)| s <= offset);
        let (known, n) = lines.marks[k - 1];
        let start = memchr::memrchr(b'\n', &b[known..offset]).map_or(known, |i| known + i + 1);
        if start == known {
            return (n, known);
        }
        let line = n + memchr::memchr_iter(b'\n', &b[known..start]).count();
        lines.marks.insert(k, (start, line));
        (line, start)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let c = self.locate(offset);
        (c.line, c.col)
    }

    /// The place of `offset` (floored to a character boundary), counted from the place last
    /// asked about when it is on the same line: each of many places on one long line costs
    /// the distance from the one before, not from the line's start.
    fn locate(&self, offset: usize) -> Cursor {
        let text = self.text;
        let at = floor(text, offset);
        let c = self.cursor.get();
        let same_line = c.line_start != usize::MAX
            && c.line_start <= at
            && (at <= c.pos || memchr::memchr(b'\n', &text.as_bytes()[c.pos..at]).is_none());
        let c = if same_line {
            let col = if at >= c.pos {
                c.col + text[c.pos..at].chars().count()
            } else {
                c.col - text[at..c.pos].chars().count()
            };
            Cursor { pos: at, col, ..c }
        } else {
            let (line, start) = self.line_of(offset);
            Cursor {
                line_start: start,
                line,
                pos: at,
                col: text[start..at].chars().count() + 1,
                text_end: None,
            }
        };
        self.cursor.set(c);
        c
    }

    /// The text of a 1-based line, without its line break.
    /// (Empty for a line past the end.)
    pub fn line_text(&self, line: usize) -> &'a str {
        let Some(start) = self.line_start(line) else {
            return "";
        };
        let b = self.text.as_bytes();
        let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |i| start + i);
        self.text[start..end].trim_end_matches('\r')
    }

    /// Where a 1-based line starts (`None`: past the end), counted from the nearest line
    /// already known above it, so that asking about the lines of many findings in order costs
    /// one pass over the text.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        let b = self.text.as_bytes();
        let mut lines = self.lines();
        let k = lines.marks.partition_point(|&(_, n)| n <= line);
        let &(mut start, n) = lines.marks.get(k.checked_sub(1)?)?;
        for _ in n..line {
            start += memchr::memchr(b'\n', &b[start..])? + 1;
        }
        if n < line {
            lines.marks.insert(k, (start, line));
        }
        Some(start)
    }

    /// The byte offset of a 1-based line and byte column, if the text has it there.
    pub fn offset_of(&self, line: usize, byte_column: usize) -> Option<usize> {
        let at = self.line_start(line)? + byte_column.checked_sub(1)?;
        (at <= self.text.len() && self.text.is_char_boundary(at)).then_some(at)
    }

    /// The 1-based column of `offset` in UTF-8 bytes.
    pub fn byte_column(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        offset - self.locate(offset).line_start + 1
    }

    /// [`Self::excerpt`] of the place at `offset`, whose line and column are `line` and
    /// `column` ([`Self::line_col`]): the same text, found from the offset (about `2 * EXCERPT`
    /// characters walked), not by counting from the line's start.
    pub fn excerpt_at(&self, offset: usize, line: usize, column: usize) -> (String, usize) {
        let mut c = self.locate(offset);
        if c.line != line || c.col != column {
            return self.excerpt(line, column);
        }
        let b = self.text.as_bytes();
        let text_end = *c.text_end.get_or_insert_with(|| {
            let end =
                memchr::memchr(b'\n', &b[c.line_start..]).map_or(b.len(), |i| c.line_start + i);
            c.line_start + self.text[c.line_start..end].trim_end_matches('\r').len()
        });
        self.cursor.set(c);
        if text_end - c.line_start <= 4 * EXCERPT || c.pos > text_end {
            return self.excerpt(line, column);
        }
        let first = column.saturating_sub(EXCERPT).max(1);
        // Back from the offset to the excerpt's first character, then its characters.
        let before = self.text[c.line_start..c.pos].char_indices().rev();
        let from = before
            .take(column - first)
            .last()
            .map_or(c.pos, |(i, _)| c.line_start + i);
        let excerpt: String = self.text[from..text_end]
            .chars()
            .take(2 * EXCERPT)
            .collect();
        (excerpt, first)
    }

    /// The line of `offset` for display: whole when short, else an excerpt of about
    /// `2 * EXCERPT` characters around it. Returns the text and the 1-based column (in
    /// characters) where it starts.
    pub fn excerpt(&self, line: usize, column: usize) -> (String, usize) {
        let text = self.line_text(line);
        if text.len() <= 4 * EXCERPT {
            return (text.to_string(), 1);
        }
        let first = column.saturating_sub(EXCERPT).max(1);
        let excerpt: String = text.chars().skip(first - 1).take(2 * EXCERPT).collect();
        (excerpt, first)
    }

    /// Is `offset` inside a comment? Only the offset's line is lexed (line comments end with
    /// their line), plus, for the slash styles, the file's `/* … */` blocks found once.
    pub fn in_comment(&self, offset: usize) -> bool {
        let style = self.class.comments;
        if style == CommentStyle::None {
            return false;
        }
        let python = style == CommentStyle::Hash && self.path.ends_with(".py");
        if python || matches!(style, CommentStyle::Slash | CommentStyle::HashAndSlash) {
            // Python's docstrings are its prose, as `/* … */` blocks are the slash styles'.
            let blocks = self.blocks.get_or_init(|| {
                if python {
                    docstrings(self.text)
                } else {
                    block_comments(self.text, style)
                }
            });
            let i = blocks.partition_point(|&(s, _)| s <= offset);
            if i > 0 && offset < blocks[i - 1].1 {
                return true;
            }
        }
        let b = self.text.as_bytes();
        let offset = offset.min(b.len());
        // At a line's end (its line break or the text's end) no comment of the line holds the
        // offset: each ends at the line's end at the latest.
        if matches!(b.get(offset), None | Some(b'\n')) {
            return false;
        }
        let mut line = self.line_comments.borrow_mut();
        if !(line.start <= offset && offset < line.end) {
            let start = super::line_start(b, offset);
            let end = memchr::memchr(b'\n', &b[offset..]).map_or(b.len(), |i| offset + i);
            let blanks = b[start..end]
                .iter()
                .take_while(|&&c| c == b' ' || c == b'\t')
                .count();
            *line = LineComments {
                start,
                end,
                blanks_end: start + blanks,
                ranges: None,
            };
        }
        // Only blanks before it on its line, and no comment starts at it: no line comment holds
        // it (what most places asked about are: commands at the start of their line).
        if offset <= line.blanks_end && !matches!(b.get(offset), Some(b'#' | b'/' | b';')) {
            return false;
        }
        let (start, len) = (line.start, line.end - line.start);
        // The line lexed from its start to its end, once: the text is not cut at the line's end
        // (a line comment or a string it meets ends there, and a block comment that runs further
        // holds its offsets all the same), and the comments that start after an offset do not
        // change those before it.
        let ranges = line.ranges.get_or_insert_with(|| {
            let mut ranges = Vec::new();
            each_comment(&self.text[start..], style, len + 1, false, |s, e| {
                ranges.push((s, e))
            });
            ranges
        });
        let at = offset - start;
        let i = ranges.partition_point(|&(s, _)| s <= at);
        i > 0 && at < ranges[i - 1].1
    }

    pub fn comments(&self) -> &[(usize, usize)] {
        self.comments
            .get_or_init(|| comment_ranges(self.text, self.class.comments))
    }
}

/// About half the characters of a long line's excerpt ([`Source::excerpt`]).
const EXCERPT: usize = 120;

/// Known line starts: (offset, 1-based line number), sorted by both; the first line's is
/// there once a line is asked about ([`Source::lines`]). Counting the line breaks between two
/// offsets (a SIMD count) is several times faster than collecting where each is, and a finding
/// deep in a big file needs only its own.
struct LineMarks {
    marks: Vec<(usize, usize)>,
}

fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `/* … */` ranges of a file in `style`, found by the comment lexer, which knows quotes and
/// line comments: a `/*` inside a string (`"${aws_s3_bucket.b.arn}/*"`, `"src/*.js"`) or a line
/// comment (`// see a/*`) opens no block, and the text after it is read. A file without `/*`
/// is not lexed.
fn block_comments(text: &str, style: CommentStyle) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    if memchr::memmem::find(b, b"/*").is_none() {
        return out;
    }
    // Lexed from the file's start: a string's escaped line break carries it to the next line.
    each_comment(text, style, text.len(), true, |s, e| {
        if b[s..].starts_with(b"/*") {
            out.push((s, e));
        }
    });
    out
}

/// Byte ranges of Python docstrings: a triple-quoted string that starts a line and is a statement
/// of its own, first in the module or right after a line that ends with `:` (a `def`'s or a
/// `class`'s); a triple-quoted string handed on (`query = """…"""`, `f(\n"""…""")`) is not one.
fn docstrings(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let dq = memchr::memmem::Finder::new(b"\"\"\"");
    let sq = memchr::memmem::Finder::new(b"'''");
    // The next place of each triple quote at or after `i`, searched for again only once `i`
    // has passed it (a file without one of them is not searched through for each of the other).
    let next = |f: &memchr::memmem::Finder, from: usize| f.find(&b[from..]).map(|k| from + k);
    let (mut nd, mut ns) = (next(&dq, 0), next(&sq, 0));
    let mut out = Vec::new();
    let mut i = 0;
    // The start of the line of `i`, carried forward (a long line is not read back from each
    // quote on it).
    let mut line_start = 0;
    loop {
        if nd.is_some_and(|d| d < i) {
            nd = next(&dq, i);
        }
        if ns.is_some_and(|s| s < i) {
            ns = next(&sq, i);
        }
        let (start, finder) = match (nd, ns) {
            (Some(d), Some(s)) if s < d => (s, &sq),
            (Some(d), _) => (d, &dq),
            (None, Some(s)) => (s, &sq),
            (None, None) => break,
        };
        if let Some(k) = memchr::memrchr(b'\n', &b[i..start]) {
            line_start = i + k + 1;
        }
        let close = finder
            .find(&b[start + 3..])
            .map_or(b.len(), |k| start + 3 + k + 3);
        if opens_docstring(text, line_start, start) {
            out.push((start, close));
        }
        if let Some(k) = memchr::memrchr(b'\n', &b[start..close]) {
            line_start = start + k + 1;
        }
        i = close;
    }
    out
}

/// Is the triple quote at `start` (on the line that starts at `line_start`) the start of a
/// statement that follows a block's header or nothing (see [`docstrings`])?
fn opens_docstring(text: &str, line_start: usize, start: usize) -> bool {
    let lead = text[line_start..start].trim_start();
    if !(lead.is_empty() || (lead.len() == 1 && "rRuUbB".contains(lead))) {
        return false;
    }
    let code_before = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    code_before.is_none_or(ends_block_header)
}

/// Does the code line end a block's header: `:` last, or before a comment (`def f():  # noqa`)?
fn ends_block_header(line: &str) -> bool {
    line.ends_with(':')
        || line
            .match_indices(':')
            .any(|(i, _)| line[i + 1..].trim_start().starts_with('#'))
}

/// The bytes where [`comment_ranges`] stops outside quotes: quotes, and the bytes that start a
/// comment in the style (made once, not for each line lexed). A line break changes nothing there.
const fn stops(hash: bool, slash: bool, semicolon: bool) -> [bool; 256] {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'\'' as usize] = true;
    t[b'`' as usize] = true;
    t[b'#' as usize] = hash;
    t[b'/' as usize] = slash;
    t[b';' as usize] = semicolon;
    t
}

static STOPS_HASH: [bool; 256] = stops(true, false, false);
static STOPS_SLASH: [bool; 256] = stops(false, true, false);
static STOPS_HASH_AND_SLASH: [bool; 256] = stops(true, true, false);
static STOPS_SEMICOLON: [bool; 256] = stops(true, false, true);

/// How far a lexer must go for its stops to be found by vector searches.
const FAR: usize = 256;

/// Where the next byte that [`each_comment`] stops at outside quotes is, from vector searches:
/// one for quotes, one for the bytes that start comments, each kept until it is passed.
struct NextStop<'b> {
    b: &'b [u8],
    /// The next quote, and the next byte that starts a comment, at or after where last asked
    /// (`b.len()`: none).
    quote: usize,
    comment: usize,
    /// The bytes that start a comment: one or two.
    starts: (u8, Option<u8>),
}

impl<'b> NextStop<'b> {
    fn new(b: &'b [u8], starts: (u8, Option<u8>)) -> Self {
        let mut next = NextStop {
            b,
            quote: 0,
            comment: 0,
            starts,
        };
        next.quote = next.quote_from(0);
        next.comment = next.comment_from(0);
        next
    }

    fn quote_from(&self, i: usize) -> usize {
        memchr::memchr3(b'"', b'\'', b'`', &self.b[i..]).map_or(self.b.len(), |j| i + j)
    }

    fn comment_from(&self, i: usize) -> usize {
        let rest = &self.b[i..];
        let found = match self.starts {
            (a, None) => memchr::memchr(a, rest),
            (a, Some(c)) => memchr::memchr2(a, c, rest),
        };
        found.map_or(self.b.len(), |j| i + j)
    }

    /// The first stop at or after `i` (`b.len()` if none; `i <= b.len()`).
    fn at_or_after(&mut self, i: usize) -> usize {
        if self.quote < i {
            self.quote = self.quote_from(i);
        }
        if self.comment < i {
            self.comment = self.comment_from(i);
        }
        self.quote.min(self.comment)
    }
}

/// Comment ranges, found by a small lexer that knows quotes: a `#` inside `"…"` is no comment.
/// Strings do not span lines here, except `/* … */` comments in the slash style.
fn comment_ranges(text: &str, style: CommentStyle) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    each_comment(text, style, text.len(), text.len() > FAR, |s, e| {
        out.push((s, e))
    });
    out
}

/// [`comment_ranges`], handed to `found` one by one, of the comments that start before `until`
/// (the text after them is not lexed).
///
/// `far`: the stops are found by vector searches ([`NextStop`]), which pays where the text to
/// lex is long (a whole file); a line's start (what `in_comment` lexes) is short, and a byte
/// loop costs less there. Both give the same ranges.
fn each_comment(
    text: &str,
    style: CommentStyle,
    until: usize,
    far: bool,
    mut found: impl FnMut(usize, usize),
) {
    if style == CommentStyle::None {
        return;
    }
    let b = text.as_bytes();
    let hash = matches!(
        style,
        CommentStyle::Hash | CommentStyle::HashAndSlash | CommentStyle::Semicolon
    );
    let slash = matches!(style, CommentStyle::Slash | CommentStyle::HashAndSlash);
    let semicolon = style == CommentStyle::Semicolon;
    // Outside quotes, only these bytes can change anything (`stops`); the others are skipped.
    // `starts`: those of them that start a comment.
    let (stops, starts) = match (hash, slash, semicolon) {
        (true, true, _) => (&STOPS_HASH_AND_SLASH, (b'#', Some(b'/'))),
        (true, false, false) => (&STOPS_HASH, (b'#', None)),
        (true, false, true) => (&STOPS_SEMICOLON, (b'#', Some(b';'))),
        (false, ..) => (&STOPS_SLASH, (b'/', None)),
    };
    let mut far = far.then(|| NextStop::new(b, starts));
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < b.len() && i < until {
        if let Some(q) = quote {
            // Inside a string: only its end, an escape or the end of the line matter.
            let Some(j) = memchr::memchr3(b'\n', b'\\', q, &b[i..]) else {
                break;
            };
            i += j;
            match b[i] {
                b'\\' if q != b'\'' => i += 2,
                b'\\' => i += 1,
                _ => {
                    // The closing quote or the end of the line.
                    quote = None;
                    i += 1;
                }
            }
            continue;
        }
        i = match &mut far {
            Some(next) => next.at_or_after(i),
            None => {
                while i < b.len().min(until) && !stops[usize::from(b[i])] {
                    i += 1;
                }
                i
            }
        };
        if i >= until {
            break;
        }
        let Some(&c) = b.get(i) else { break };
        let prev_space = i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'\n' | b'\r');
        let line_end = || memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |j| i + j);
        // Only blanks before it on its line.
        // (Walked back over the blanks only: a line of many `;` is not walked once per `;`.)
        let line_start = || {
            let blanks = b[..i]
                .iter()
                .rev()
                .take_while(|&&c| matches!(c, b' ' | b'\t'))
                .count();
            i == blanks || b[i - blanks - 1] == b'\n'
        };
        if (hash && c == b'#' && prev_space) || (semicolon && c == b';' && line_start()) {
            let end = line_end();
            found(i, end);
            i = end;
            continue;
        }
        if slash && c == b'/' && b.get(i + 1) == Some(&b'/') && (i == 0 || b[i - 1] != b':') {
            let end = line_end();
            found(i, end);
            i = end;
            continue;
        }
        if slash && c == b'/' && b.get(i + 1) == Some(&b'*') {
            let end = memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |j| i + 2 + j + 2);
            found(i, end);
            i = end;
            continue;
        }
        if matches!(c, b'"' | b'\'' | b'`') {
            // An apostrophe inside a word (don't) opens no string.
            let in_word = c == b'\'' && i > 0 && b[i - 1].is_ascii_alphanumeric();
            if !in_word {
                quote = Some(c);
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::FileKind;

    #[test]
    fn python_docstrings() {
        let py = concat!(
            "\"\"\"Module.\"\"\"\nimport x\n\n\ndef f():\n",
            "    \"\"\"\n    GET /users\n    \"\"\"\n",
            "    q = \"\"\"\n    query { a }\n    \"\"\"\n",
            "    g(\n        '''b'''\n    )\n",
        );
        let d = docstrings(py);
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!(&py[d[0].0..d[0].1], "\"\"\"Module.\"\"\"");
        assert!(py[d[1].0..d[1].1].contains("GET /users"));
        // Linear on one long line of triple-quoted strings (none starts a line but the first).
        let line = "\"\"\"a\"\"\" ".repeat(200_000);
        let t = std::time::Instant::now();
        assert_eq!(docstrings(&line).len(), 1);
        assert!(t.elapsed().as_secs() < 10);
    }

    /// The comment lexer before it skipped uninteresting bytes in a tight loop: the reference
    /// the fast one must agree with.
    fn reference_comment_ranges(text: &str, style: CommentStyle) -> Vec<(usize, usize)> {
        if style == CommentStyle::None {
            return Vec::new();
        }
        let b = text.as_bytes();
        let hash = matches!(
            style,
            CommentStyle::Hash | CommentStyle::HashAndSlash | CommentStyle::Semicolon
        );
        let slash = matches!(style, CommentStyle::Slash | CommentStyle::HashAndSlash);
        let semicolon = style == CommentStyle::Semicolon;
        let mut out = Vec::new();
        let mut i = 0;
        let mut quote: Option<u8> = None;
        let mut line_start = true;
        while i < b.len() {
            let c = b[i];
            if c == b'\n' {
                quote = None;
                line_start = true;
                i += 1;
                continue;
            }
            if let Some(q) = quote {
                if c == b'\\' && q != b'\'' {
                    i += 2;
                    continue;
                }
                if c == q {
                    quote = None;
                }
                i += 1;
                line_start = false;
                continue;
            }
            let prev_space = i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'\n' | b'\r');
            let line_end = || memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |j| i + j);
            if (hash && c == b'#' && prev_space) || (semicolon && c == b';' && line_start) {
                let end = line_end();
                out.push((i, end));
                i = end;
                continue;
            }
            if slash && c == b'/' && b.get(i + 1) == Some(&b'/') && (i == 0 || b[i - 1] != b':') {
                let end = line_end();
                out.push((i, end));
                i = end;
                continue;
            }
            if slash && c == b'/' && b.get(i + 1) == Some(&b'*') {
                let end =
                    memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |j| i + 2 + j + 2);
                out.push((i, end));
                i = end;
                continue;
            }
            if matches!(c, b'"' | b'\'' | b'`') {
                // An apostrophe inside a word (don't) opens no string.
                let in_word = c == b'\'' && i > 0 && b[i - 1].is_ascii_alphanumeric();
                if !in_word {
                    quote = Some(c);
                }
            }
            if !matches!(c, b' ' | b'\t') {
                line_start = false;
            }
            i += 1;
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        #[test]
        fn comment_ranges_agree_with_the_byte_by_byte_lexer(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "'", "\"", "`", "\\", "#", " #", "//", "/*", "*/", ";", "\n", "\r\n", " ",
                    "\t", "a", "é", ":",
                ]),
                0..80,
            ),
        ) {
            let text = pieces.concat();
            for style in [
                CommentStyle::Hash,
                CommentStyle::Slash,
                CommentStyle::HashAndSlash,
                CommentStyle::Semicolon,
                CommentStyle::None,
            ] {
                let reference = reference_comment_ranges(&text, style);
                let ranges = comment_ranges(&text, style);
                proptest::prop_assert_eq!(ranges, reference.clone(), "{:?}", style);
                // With the stops found by vector searches and byte by byte, whatever the length.
                for far in [false, true] {
                    let mut found = Vec::new();
                    each_comment(&text, style, text.len(), far, |s, e| found.push((s, e)));
                    proptest::prop_assert_eq!(&found, &reference, "{:?} far: {}", style, far);
                }
                // An offset is in a comment when a comment of its line (lexed whole), or a
                // block comment of the file, holds it.
                let s = src(&text, style);
                // The blocks: the comments of the whole file's lexing that open with `/*` (a
                // `/*` in a string or a line comment opens none).
                let blocks: Vec<(usize, usize)> =
                    if matches!(style, CommentStyle::Slash | CommentStyle::HashAndSlash) {
                        reference
                            .iter()
                            .copied()
                            .filter(|&(a, _)| text[a..].starts_with("/*"))
                            .collect()
                    } else {
                        Vec::new()
                    };
                proptest::prop_assert_eq!(
                    if blocks.is_empty() { Vec::new() } else { block_comments(&text, style) },
                    blocks.clone()
                );
                for offset in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
                    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
                    let in_line = reference_comment_ranges(&text[line_start..line_end], style)
                        .iter()
                        .any(|&(a, e)| line_start + a <= offset && offset < line_start + e);
                    let in_block = blocks.iter().any(|&(a, e)| a <= offset && offset < e);
                    proptest::prop_assert_eq!(
                        s.in_comment(offset), in_line || in_block, "{:?} {}", style, offset
                    );
                }
            }
        }
    }

    /// Lines and columns are the same whatever order offsets and lines are asked for in (the
    /// line index grows as far as asked).
    #[test]
    fn lines_and_columns_in_any_order() {
        let text = "first\nsécond line\r\n\n\nlast é without break";
        let naive = |offset: usize| {
            let before = &text[..offset];
            let line = before.matches('\n').count() + 1;
            let start = before.rfind('\n').map_or(0, |i| i + 1);
            (
                line,
                text[start..offset].chars().count() + 1,
                offset - start + 1,
            )
        };
        let offsets: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        let lines = ["first", "sécond line", "", "", "last é without break"];
        for order in [offsets.clone(), offsets.iter().rev().copied().collect()] {
            let s = src(text, CommentStyle::Hash);
            for (k, &offset) in order.iter().enumerate() {
                let (line, col, byte_col) = naive(offset);
                assert_eq!(s.line_col(offset), (line, col), "{offset}");
                assert_eq!(s.byte_column(offset), byte_col, "{offset}");
                let asked = 1 + k % lines.len();
                assert_eq!(s.line_text(asked), lines[asked - 1], "line {asked}");
            }
        }
        // A line asked for first, before any offset.
        assert_eq!(
            src(text, CommentStyle::Hash).line_text(5),
            "last é without break"
        );
        assert_eq!(src(text, CommentStyle::Hash).line_text(2), "sécond line");
        assert_eq!(src(text, CommentStyle::Hash).line_text(9), "");
    }

    fn src(text: &str, comments: CommentStyle) -> Source<'_> {
        Source::new(
            "f",
            text,
            Class {
                kind: FileKind::Shell,
                comments,
                templated: false,
                chart_template: false,
            },
        )
    }

    #[test]
    fn hash_comments_respect_quotes() {
        let t = "echo \"#no\" # yes\nurl=http://x#frag\n# whole\n";
        let s = src(t, CommentStyle::Hash);
        assert!(!s.in_comment(t.find("#no").unwrap()));
        assert!(s.in_comment(t.find("# yes").unwrap() + 3));
        assert!(!s.in_comment(t.find("#frag").unwrap()));
        assert!(s.in_comment(t.find("whole").unwrap()));
    }

    /// A `/*` inside a string or a line comment opens no block comment: the text after it is
    /// read (an S3 ARN `"${b.arn}/*"` before a Terraform `user_data`, a glob `"src/*.js"`).
    #[test]
    fn slash_star_in_strings_and_line_comments_opens_no_block() {
        let t = "r = [\"${aws_s3_bucket.b.arn}/*\"]\nuser_data = <<EOF\nexport RUNNER_TAG_LIST=a\nEOF\nx = 1 // b/*\ny = 'src/*.js'\nz = 2\n/* real\n c */ w\n";
        for style in [CommentStyle::HashAndSlash, CommentStyle::Slash] {
            let s = src(t, style);
            assert!(
                !s.in_comment(t.find("RUNNER_TAG_LIST").unwrap()),
                "{style:?}"
            );
            assert!(!s.in_comment(t.find("x = 1").unwrap()), "{style:?}");
            assert!(!s.in_comment(t.find("z = 2").unwrap()), "{style:?}");
            assert!(s.in_comment(t.find(" c */").unwrap() + 1), "{style:?}");
            assert!(!s.in_comment(t.find(" w").unwrap() + 1), "{style:?}");
        }
        // A `/*` in a `#` comment (Terraform, PHP) opens none either.
        let t = "# see a/*\nexport REGISTRATION_TOKEN=x\n";
        let s = src(t, CommentStyle::HashAndSlash);
        assert!(!s.in_comment(t.find("REGISTRATION_TOKEN").unwrap()));
    }

    #[test]
    fn slash_comments() {
        let t = "let u = \"http://a//b\"; // c1\n/* c2\n c3 */ x";
        let s = src(t, CommentStyle::Slash);
        assert!(!s.in_comment(t.find("//b").unwrap()));
        assert!(s.in_comment(t.find("c1").unwrap()));
        assert!(s.in_comment(t.find("c3").unwrap()));
        assert!(!s.in_comment(t.find(" x").unwrap() + 1));
    }

    #[test]
    fn line_and_column_count_characters() {
        let t = "aé\nxyz\n";
        let s = src(t, CommentStyle::None);
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(3), (1, 3));
        assert_eq!(s.line_col(4), (2, 1));
        assert_eq!(s.line_text(2), "xyz");
        assert_eq!(s.line_text(1), "aé");
    }

    #[test]
    fn offsets_of_lines_and_byte_columns_in_any_order() {
        let t = "aé\nxyz\n\nlast";
        let s = src(t, CommentStyle::None);
        // Asked out of order, so that the known lines are used from above and below.
        assert_eq!(s.offset_of(4, 2), Some(t.find("ast").unwrap()));
        assert_eq!(s.offset_of(2, 1), Some(t.find("xyz").unwrap()));
        assert_eq!(s.offset_of(1, 2), Some(1));
        // Inside a character, past the end, column 0, line 0, a line past the last.
        assert_eq!(s.offset_of(1, 3), None);
        assert_eq!(s.offset_of(4, 6), None);
        assert_eq!(s.offset_of(2, 0), None);
        assert_eq!(s.offset_of(0, 1), None);
        assert_eq!(s.offset_of(5, 1), None);
        assert_eq!(s.line_start(3), Some(8));
        assert_eq!(s.line_text(3), "");
        assert_eq!(s.line_text(4), "last");
    }
}
