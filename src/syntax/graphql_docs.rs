//! GraphQL documents in a file: the file itself (`.graphql`, `.gql`) or documents embedded in
//! code (`gql` and `graphql` template literals, triple-quoted and plain strings that hold a
//! query), parsed with their occurrences at file offsets.

use std::cell::OnceCell;
use std::collections::HashSet;

use super::graphql::{self, Occurrence};
use super::{FileCtx, FileKind};

/// A GraphQL document found in a file: where it is, and its parse (made on first use, so that
/// documents holding no name a detector looks for are never parsed).
#[derive(Debug, Default)]
pub struct Doc {
    pub start: usize,
    pub end: usize,
    /// A template literal (`${…}` interpolations are blanked before parsing).
    template: bool,
    /// A string whose braces interpolate, doubled for a brace of its text: Python's f-strings
    /// (`f"""query {{ runner(id: "{rid}") {{ ipAddress }} }}"""`), C#'s `$"…"` (`{x}` is
    /// blanked, `{{` read as `{`).
    braces: bool,
    /// Embedded in code (its escapes are blanked before parsing).
    embedded: bool,
    /// Starts with an operation keyword: a `{`-only string that does not parse is taken for
    /// something other than GraphQL.
    keyword: bool,
    parsed: OnceCell<Parsed>,
}

/// A parsed document: its occurrences (file offsets) and its parse error.
#[derive(Debug, Default)]
pub struct Parsed {
    pub occurrences: Vec<Occurrence>,
    pub error: Option<(usize, String)>,
}

impl Doc {
    /// The document's text in the file.
    pub fn text<'t>(&self, file: &'t str) -> &'t str {
        &file[self.start..self.end]
    }

    /// The parse of the document (`file`: the text of the file it was found in).
    pub fn parsed(&self, file: &str) -> &Parsed {
        self.parsed.get_or_init(|| {
            let content = self.text(file);
            if !self.embedded {
                return parse_at(content, self.start);
            }
            let unescaped = unescape_in_place(content, self.template, self.braces);
            let parsed = parse_at(&unescaped, self.start);
            if parsed.error.is_some() && !self.keyword {
                // A `{`-only string that does not parse is most likely not GraphQL at all.
                return Parsed::default();
            }
            parsed
        })
    }

    /// The parse, if the document was parsed.
    pub fn parsed_so_far(&self) -> Option<&Parsed> {
        self.parsed.get()
    }
}

/// Copy a string literal's content with its escapes and `${…}` interpolations blanked, so the
/// GraphQL lexer sees the document and every offset stays.
fn unescape_in_place(content: &str, template: bool, braces: bool) -> String {
    let mut out = content.as_bytes().to_vec();
    let b = content.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if braces && matches!(b[i], b'{' | b'}') {
            if b.get(i + 1) == Some(&b[i]) {
                // `{{` and `}}`: one brace of the text.
                out[i + 1] = b' ';
                i += 2;
                continue;
            }
            if b[i] == b'{' {
                // An interpolation, to its closing brace.
                let end = memchr::memchr(b'}', &b[i..]).map_or(b.len(), |j| i + j + 1);
                for x in &mut out[i..end] {
                    if *x != b'\n' {
                        *x = b' ';
                    }
                }
                i = end;
                continue;
            }
        }
        if b[i] == b'\\' && i + 1 < b.len() {
            out[i] = b' ';
            if matches!(b[i + 1], b'n' | b't' | b'r') {
                out[i + 1] = b' ';
            }
            i += 2;
            continue;
        }
        if template && b[i] == b'$' && b.get(i + 1) == Some(&b'{') {
            let end = memchr::memchr(b'}', &b[i..]).map_or(b.len(), |j| i + j + 1);
            for x in &mut out[i..end] {
                if *x != b'\n' {
                    *x = b' ';
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// String literals of a source file: (content start, content end, is a template literal).
fn string_literals(ctx: &FileCtx) -> Vec<(usize, usize, bool)> {
    let text = ctx.src.text;
    let b = text.as_bytes();
    // One pass over the file's comments, in step with the quotes.
    let comments = ctx.src.comments();
    let mut next_comment = 0;
    let mut out = Vec::new();
    // Heredocs (Ruby, PHP) are literals too, and no quote inside one opens another.
    let heredocs = heredocs(ctx);
    let mut next_heredoc = 0;
    let mut i = 0;
    while i < b.len() {
        let Some(j) = memchr::memchr3(b'"', b'\'', b'`', &b[i..]) else {
            break;
        };
        i += j;
        while next_heredoc < heredocs.len() && heredocs[next_heredoc].1 <= i {
            out.push((heredocs[next_heredoc].0, heredocs[next_heredoc].1, false));
            next_heredoc += 1;
        }
        if heredocs.get(next_heredoc).is_some_and(|&(s, _)| s <= i) {
            i = heredocs[next_heredoc].1;
            continue;
        }
        let c = b[i];
        while next_comment < comments.len() && comments[next_comment].1 <= i {
            next_comment += 1;
        }
        if comments.get(next_comment).is_some_and(|&(s, _)| s <= i) {
            i = comments[next_comment].1;
            continue;
        }
        // Triple quotes (Python, GraphQL block strings inside code are rare).
        if b[i..].starts_with(&[c, c, c]) && c != b'`' {
            let close =
                memchr::memmem::find(&b[i + 3..], &[c, c, c]).map_or(b.len(), |j| i + 3 + j);
            out.push((i + 3, close, false));
            i = close + 3;
            continue;
        }
        let close = closing_quote(b, i + 1, c);
        out.push((i + 1, close, c == b'`'));
        i = close + 1;
    }
    out.extend(heredocs[next_heredoc..].iter().map(|&(s, e)| (s, e, false)));
    out
}

/// The bodies of the heredocs of a Ruby or PHP file (`<<~GRAPHQL`, `<<-EOS`, `<<SQL`,
/// `<<<'GQL'`): from the line after the opener to the line that holds the closing word alone
/// (PHP: or followed by `;` or `,`). Not in comments. Empty in other files.
pub(super) fn heredocs(ctx: &FileCtx) -> Vec<(usize, usize)> {
    let path = ctx.src.path;
    let php = path.ends_with(".php");
    if !(php || path.ends_with(".rb") || path.ends_with(".rake")) || !ctx.contains("<<") {
        return Vec::new();
    }
    let text = ctx.src.text;
    let b = text.as_bytes();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for at in memchr::memmem::find_iter(b, b"<<") {
        if out.last().is_some_and(|&(_, end)| at < end) || (at > 0 && b[at - 1] == b'<') {
            continue;
        }
        let mut k = at + 2;
        if php {
            if b.get(k) != Some(&b'<') {
                continue;
            }
            k += 1;
        } else if matches!(b.get(k), Some(b'~' | b'-')) {
            k += 1;
        }
        let quote = matches!(b.get(k), Some(b'\'' | b'"')).then(|| b[k]);
        k += usize::from(quote.is_some());
        let word_end = (k..b.len())
            .find(|&j| !(b[j].is_ascii_alphanumeric() || b[j] == b'_'))
            .unwrap_or(b.len());
        // The closing word: upper-case (`a <<b` is a shift), its quote closed.
        if word_end == k
            || !b[k].is_ascii_uppercase()
            || quote.is_some_and(|q| b.get(word_end) != Some(&q))
            || ctx.src.in_comment(at)
        {
            continue;
        }
        let word = &text[k..word_end];
        let Some(body) = memchr::memchr(b'\n', &b[word_end..]).map(|j| word_end + j + 1) else {
            continue;
        };
        let mut line = body;
        let end = loop {
            let line_end = memchr::memchr(b'\n', &b[line..]).map_or(b.len(), |j| line + j);
            let t = text[line..line_end].trim();
            let closes = t
                .strip_prefix(word)
                .is_some_and(|r| r.is_empty() || (php && r.starts_with([';', ',', ')'])));
            if closes || line_end == b.len() {
                break if closes { line } else { b.len() };
            }
            line = line_end + 1;
        };
        out.push((body, end));
    }
    out
}

/// Where the string literal opened by the quote `c`, whose content starts at `from`, ends: its
/// closing quote, or a line break for all but a template literal, or the end of the text. A
/// backslash escapes the byte after it.
pub(super) fn closing_quote(b: &[u8], from: usize, c: u8) -> usize {
    let line_break = if c == b'`' { c } else { b'\n' };
    let mut j = from;
    loop {
        match b
            .get(j..)
            .and_then(|rest| memchr::memchr3(c, b'\\', line_break, rest))
        {
            None => return b.len(),
            Some(k) if b[j + k] == b'\\' => j += k + 2,
            Some(k) => return j + k,
        }
    }
}

/// Does `hay` contain `needle` (lowercase ASCII) in any case? No copy of the text is made.
pub(crate) fn contains_ignore_case(hay: &[u8], needle: &[u8]) -> bool {
    let Some(&first) = needle.first() else {
        return true;
    };
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), hay).any(|at| {
        hay.get(at..at + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
    })
}

/// Does the text name GraphQL (in any case) or `gql`? A string literal that opens with `{` is
/// a document only in such a file.
fn mentions_graphql(text: &str) -> bool {
    contains_ignore_case(text.as_bytes(), b"graphql") || text.contains("gql")
}

/// Where a document in a string literal's content would start ([`lexed_documents`]): after the
/// blanks and, in a template literal, the `${…}` interpolations that come first (a client's
/// documents often begin with the fragments they use: `` gql`${fragment} query …` ``). An
/// interpolation ends at the first `}` after its `${`, as [`unescape_in_place`] blanks it.
fn document_start(content: &str, template: bool) -> &str {
    let mut rest = content.trim_start();
    loop {
        let skipped = if template && rest.starts_with("${") {
            rest.find('}').map_or("", |end| &rest[end + 1..])
        } else if rest.starts_with('#') && opens_line(content, rest) {
            // A GraphQL comment on a line of its own (`# fetches the runners`).
            rest.find('\n').map_or("", |end| &rest[end + 1..])
        } else {
            return rest;
        };
        rest = skipped.trim_start();
    }
}

/// Does `rest`, a suffix of `content`, start a line of it (after spaces and tabs)?
fn opens_line(content: &str, rest: &str) -> bool {
    content[..content.len() - rest.len()]
        .trim_end_matches([' ', '\t'])
        .ends_with('\n')
}

/// The quote whose literal's document may start at `at` ([`document_start`]): the opening
/// quote before it, with blanks, interpolations and comment lines between; or, where a
/// non-ASCII byte comes before the blanks (it may end a Unicode blank), that byte. `seen`: the
/// places gone back to already (an interpolation's `${`, a comment line's `#`): a place is
/// reached by several ways back (an interpolation's `}` may also end a comment line), and each
/// is looked at once (a second way to a quote found already leads to the same literal).
fn opening_quote(b: &[u8], at: usize, seen: &mut HashSet<usize>) -> Option<usize> {
    let blank = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0B' | b'\x0C');
    let i = b[..at].iter().rposition(|c| !blank(c))?;
    match b[i] {
        c if c >= 0x80 => Some(i),
        b'"' | b'\'' | b'`' => Some(i),
        // The end of an interpolation: it starts at a `${` with no `}` after it before here,
        // and may come right after the quote or another interpolation.
        b'}' => {
            let from = memchr::memrchr(b'}', &b[..i]).map_or(0, |j| j + 1);
            memchr::memmem::find_iter(&b[from..i], b"${")
                .find_map(|p| {
                    seen.insert(from + p)
                        .then(|| opening_quote(b, from + p, seen))
                        .flatten()
                })
                .or_else(|| after_comment_line(b, i, seen))
        }
        _ => after_comment_line(b, i, seen),
    }
}

/// How far back from a byte the start of its line is looked for, for a comment line.
const COMMENT_LINE_REACH: usize = 1024;

/// The opening quote ([`opening_quote`]) before the comment line ([`document_start`]: `#`
/// first on its line after spaces and tabs) that holds the byte at `i`.
fn after_comment_line(b: &[u8], i: usize, seen: &mut HashSet<usize>) -> Option<usize> {
    // A comment line is short: a line longer than the bound before `i` is none (each `{` of a
    // minified line would read it back to its start).
    let floor = i.saturating_sub(COMMENT_LINE_REACH);
    let line = match memchr::memrchr(b'\n', &b[floor..i]) {
        Some(j) => floor + j + 1,
        None if floor == 0 => 0,
        None => return None,
    };
    let first = b[line..=i]
        .iter()
        .position(|c| !matches!(c, b' ' | b'\t'))
        .map(|k| line + k)?;
    if b[first] == b'#' && seen.insert(first) {
        opening_quote(b, first, seen)
    } else {
        None
    }
}

/// The part of the text that holds the literal opened by the quote at `q` whose document may
/// start at `at` ([`opening_quote`]): from after the quote to the literal's end as
/// [`string_literals`] finds it, or further (a quote of three may close a literal of one
/// quote, or a long string: the later of the two ends). After a non-ASCII byte, the quote is
/// not known: the whole text.
fn literal_region(b: &[u8], q: usize, at: usize) -> (usize, usize) {
    let c = b[q];
    if c >= 0x80 {
        return (0, b.len());
    }
    let mut end = closing_quote(b, at, c);
    if c != b'`' && q >= 2 && b[q - 2] == c && b[q - 1] == c {
        let three = memchr::memmem::find(&b[at..], &[c, c, c]).map_or(b.len(), |j| at + j);
        end = end.max(three);
    }
    (q + 1, end)
}

/// Where the file's GraphQL documents may be, found without lexing its string literals: every
/// document [`documents`] finds lies in one of these parts (sorted, without repeats), so a name
/// that none of them holds is in no document. A document embedded in code is a literal whose
/// content, from [`document_start`], starts with a keyword (`query`…), or with `{` in a file
/// that [`mentions_graphql`]; the literal's opening quote comes before that content, with
/// blanks, interpolations and comment lines between ([`opening_quote`]). So where no keyword
/// and no such `{` follows a quote that way, there is no document, and the literals need not
/// be lexed (most files that name `query` name it as `req.query` or `querySelector`); and
/// where documents hold none of the names looked for (a client's own queries), they need not
/// be lexed either. A GraphQL file is one part.
pub fn document_regions(ctx: &FileCtx) -> Vec<(usize, usize)> {
    let text = ctx.src.text;
    if ctx.src.class.kind == FileKind::Graphql {
        return vec![(0, text.len())];
    }
    let b = text.as_bytes();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut add = |at: usize, out: &mut Vec<(usize, usize)>| {
        if let Some(q) = opening_quote(b, at, &mut seen) {
            out.push(literal_region(b, q, at));
        }
    };
    for k in DOCUMENT_KEYWORDS {
        if let Some(start) = ctx.search_start(k) {
            for at in memchr::memmem::find_iter(&b[start..], k.as_bytes()) {
                add(start + at, &mut out);
            }
        }
    }
    if mentions_graphql(text) {
        for at in memchr::memchr_iter(b'{', b) {
            add(at, &mut out);
        }
    }
    out.extend(heredocs(ctx).into_iter().filter(|&(s, e)| {
        let t = document_start(&text[s..e], false);
        DOCUMENT_KEYWORDS.iter().any(|k| t.starts_with(k))
            || (t.starts_with('{') && mentions_graphql(text))
    }));
    out.sort_unstable();
    out.dedup();
    out
}

/// The words a document in code may start with.
const DOCUMENT_KEYWORDS: [&str; 4] = ["query", "mutation", "subscription", "fragment"];

/// The documents of a file (not parsed yet).
pub fn documents(ctx: &FileCtx) -> Vec<Doc> {
    let text = ctx.src.text;
    if ctx.src.class.kind == FileKind::Graphql {
        if graphql::is_schema(text) {
            return Vec::new();
        }
        return vec![Doc {
            start: 0,
            end: text.len(),
            ..Doc::default()
        }];
    }
    if ctx.graphql_regions().is_empty() {
        return Vec::new();
    }
    lexed_documents(ctx)
}

/// The documents embedded in a file's string literals, found by lexing them all.
fn lexed_documents(ctx: &FileCtx) -> Vec<Doc> {
    let text = ctx.src.text;
    let mentions_graphql = std::cell::LazyCell::new(|| mentions_graphql(text));
    let mut docs = Vec::new();
    for (start, end, template) in string_literals(ctx) {
        let content = &text[start..end];
        let trimmed = document_start(content, template);
        let keyword = DOCUMENT_KEYWORDS.iter().any(|k| {
            trimmed.starts_with(k) && trimmed[k.len()..].starts_with([' ', '\n', '\t', '{', '('])
        });
        if !(keyword || (trimmed.starts_with('{') && *mentions_graphql)) {
            continue;
        }
        if !graphql::looks_like_document(trimmed) {
            continue;
        }
        docs.push(Doc {
            start,
            end,
            template,
            // Asked only of a document, not of every literal of the file.
            braces: !template && interpolates_braces(text.as_bytes(), start),
            embedded: true,
            keyword,
            parsed: OnceCell::new(),
        });
    }
    docs
}

/// Does the string literal whose content starts at `start` interpolate braces: a Python
/// f-string (`f"`, `f"""`, `rf"`, `Fr'`…) or a C# interpolated string (`$"`, `$@"`, `@$"`)?
fn interpolates_braces(b: &[u8], start: usize) -> bool {
    let Some(&quote) = start.checked_sub(1).and_then(|q| b.get(q)) else {
        return false;
    };
    // The opening quote: the first of three for a triple-quoted string.
    let mut q = start - 1;
    if q >= 2 && b[q - 1] == quote && b[q - 2] == quote {
        q -= 2;
    }
    let prefix_len = b[..q]
        .iter()
        .rev()
        .take_while(|c| matches!(c, b'f' | b'F' | b'r' | b'R' | b'b' | b'B' | b'$' | b'@'))
        .count();
    let prefix = &b[q - prefix_len..q];
    let alone = q == prefix_len || !crate::syntax::is_ident_byte(b[q - prefix_len - 1]);
    alone
        && prefix.len() <= 2
        && (prefix.iter().any(|c| matches!(c, b'f' | b'F')) || prefix.contains(&b'$'))
}

fn parse_at(doc: &str, base: usize) -> Parsed {
    let (mut occurrences, error) = graphql::parse(doc);
    for o in &mut occurrences {
        o.start += base;
        o.end += base;
    }
    Parsed {
        occurrences,
        error: error.map(|e| (base + e.offset, e.message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The end of a string literal is where a byte-by-byte scan finds it.
        #[test]
        fn closing_quotes_as_byte_by_byte(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "\"", "'", "`", "\\", "\n", "a", " ", "é", "\\\n",
            ]), 0..30),
            quote in proptest::sample::select(vec![b'"', b'\'', b'`']),
        ) {
            let text = parts.concat();
            let b = text.as_bytes();
            let mut j = 0;
            while j < b.len() && b[j] != quote && (quote == b'`' || b[j] != b'\n') {
                if b[j] == b'\\' {
                    j += 1;
                }
                j += 1;
            }
            proptest::prop_assert_eq!(closing_quote(b, 0, quote), j.min(b.len()), "{:?}", text);
        }
    }

    proptest::proptest! {
        /// Every document of a file lies in one of its regions ([`document_regions`]); a file
        /// said to have none holds none.
        #[test]
        fn no_document_is_passed_over(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "\"", "'", "`", "'''", "\\", "\n", " ", "\t", "\u{a0}", "é", "a", "(",
                "{", "}", "query", "mutation", "fragment", "subscription", "graphql", "gql",
                "GraphQL", "// ", "/*", "*/", "#", "x.query", "req.", " {", "\r\n", "${", "${f}",
                "$",
            ]), 0..24),
            name in proptest::sample::select(vec!["a.js", "a.py", "a.go", "a.rb", "a.sh"]),
        ) {
            let text = parts.concat();
            let src = crate::syntax::source::Source::new(
                name,
                &text,
                crate::syntax::classify::classify(name).unwrap(),
            );
            let ctx = FileCtx::new(&src);
            let regions = document_regions(&ctx);
            for doc in lexed_documents(&ctx) {
                proptest::prop_assert!(
                    regions.iter().any(|&(s, e)| s <= doc.start && doc.end <= e),
                    "{:?}: {:?} not in {:?}", text, (doc.start, doc.end), regions
                );
            }
        }
    }

    #[test]
    fn files_without_a_document_are_not_lexed() {
        let says = |name: &str, text: &str| {
            let class = crate::syntax::classify::classify(name).unwrap();
            let src = crate::syntax::source::Source::new(name, text, class);
            !document_regions(&FileCtx::new(&src)).is_empty()
        };
        // `query` and `{` after no quote: no document can start there.
        assert!(!says(
            "a.js",
            "const q = req.query;\nif (x) { run(q.graphql); }\n"
        ));
        // After a quote and blanks, in a file that names GraphQL for `{`.
        assert!(says(
            "a.js",
            "const q = gql`\n  query { project { id } }`;\n"
        ));
        assert!(says("a.py", "q = '''\n{ project { id } }'''  # graphql\n"));
        assert!(!says("a.py", "q = '''\n{ project { id } }'''\n"));
        // A non-ASCII blank (no-break space) before the keyword: maybe.
        assert!(says("a.js", "const q = \"\u{a0}query { a }\";\n"));
        // After the fragments the document uses, interpolated first.
        assert!(says(
            "a.ts",
            "const q = gql`\n  ${fragmentA}\n  ${fragmentB} query Q { a }\n`;\n"
        ));
        // After comment lines of the document's own.
        assert!(says(
            "a.ts",
            "const q = gql`\n  # the runners\n  ${f}\n  # of a project\n  query Q { a }\n`;\n"
        ));
        // A comment that does not open its line is no document's: after code, it may end on
        // a quote (\"may\"), else not.
        assert!(!says("a.py", "x = 1  # setting\nquery(x)\n"));
        // An object's closing brace before `query` is no interpolation.
        assert!(!says("a.js", "const o = { a: 1 }\nquery(o);\n"));
        assert!(!says("a.js", "run(`${a} x`, { b }) query(o);\n"));
    }

    #[test]
    fn documents_may_start_after_interpolations() {
        let docs = |name: &str, text: &str| {
            let class = crate::syntax::classify::classify(name).unwrap();
            let src = crate::syntax::source::Source::new(name, text, class);
            let ctx = FileCtx::new(&src);
            lexed_documents(&ctx)
                .iter()
                .map(|d| d.text(text).to_string())
                .collect::<Vec<_>>()
        };
        let text = "export const q = gql`\n  ${fragmentProject}\n  query Q { project { totalWeight } }\n`;\n";
        assert_eq!(
            docs("a.ts", text),
            ["\n  ${fragmentProject}\n  query Q { project { totalWeight } }\n"]
        );
        // Comment lines before the operation, and before the fragments.
        let text = "const q = gql`\n  # Runners.\n  ${f}\n  # Theirs.\n  query Q { a }\n`;\n";
        assert_eq!(
            docs("a.ts", text),
            ["\n  # Runners.\n  ${f}\n  # Theirs.\n  query Q { a }\n"]
        );
        // A `#` after the quote on its line comments the document out: no document starts.
        assert!(docs("a.ts", "const q = gql`# query Q { a }\n`;\n").is_empty());
        // Only a template literal interpolates: in quotes, `${` is text.
        assert!(docs("a.ts", "const q = \"${x} query Q { a }\";\n").is_empty());
        // Interpolations with no document after them.
        assert!(docs("a.ts", "const s = `${a} ${b}`;\n").is_empty());
    }

    #[test]
    fn escapes_and_interpolations_keep_offsets() {
        let s = r#"query { a(b: \"x\") }\n${FRAG}"#;
        let u = unescape_in_place(s, true, false);
        assert_eq!(u.len(), s.len());
        assert!(!u.contains('\\') && !u.contains("${"));
    }
}
