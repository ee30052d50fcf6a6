//! Ruby: the names a file declares (methods and their parameters, block parameters,
//! assignments, `rescue => e`, loop variables, classes and modules) and its method scopes (from
//! `def` to the `end` written as far in as it: how Ruby code is laid out).

use super::{Kind, Names, REACH, Tok, is_punct, items};

pub(super) const KEYWORDS: &[&str] = &[
    "BEGIN",
    "END",
    "alias",
    "and",
    "begin",
    "break",
    "case",
    "class",
    "def",
    "defined?",
    "do",
    "else",
    "elsif",
    "end",
    "ensure",
    "false",
    "for",
    "if",
    "in",
    "module",
    "next",
    "nil",
    "not",
    "or",
    "redo",
    "rescue",
    "retry",
    "return",
    "self",
    "super",
    "then",
    "true",
    "undef",
    "unless",
    "until",
    "when",
    "while",
    "yield",
    "__method__",
    "__FILE__",
    "__LINE__",
];

fn word<'t>(text: &'t str, toks: &[Tok], k: usize) -> Option<&'t str> {
    toks.get(k)
        .filter(|t| t.kind == Kind::Ident)
        .map(|t| &text[t.start..t.end])
}

/// The column of the token at `k`.
fn column(text: &str, toks: &[Tok], k: usize) -> usize {
    let start = toks[k].start;
    start - text[..start].rfind('\n').map_or(0, |i| i + 1)
}

/// Is the token at `k` the first of its line?
fn starts_line(toks: &[Tok], k: usize) -> bool {
    k == 0 || toks[k - 1].kind == Kind::Newline
}

/// The method scopes: from `def` to the `end` at the start of a line, as far in as the `def`.
pub(super) fn scopes(toks: &[Tok], text: &str) -> Vec<(usize, usize)> {
    // In one pass: the methods open, each its `def` and its column; an `end` at a line's
    // start closes the one as far in, and those further in that were left open.
    let mut out = Vec::new();
    let mut open: Vec<(usize, usize)> = Vec::new();
    for k in 0..toks.len() {
        if !starts_line(toks, k) {
            continue;
        }
        match word(text, toks, k) {
            Some("def") => open.push((k, column(text, toks, k))),
            Some("end") => {
                let at = column(text, toks, k);
                while let Some(&(def, c)) = open.last()
                    && c >= at
                {
                    out.push((def, k + 1));
                    open.pop();
                    if c == at {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    out.extend(open.into_iter().map(|(def, _)| (def, toks.len())));
    out
}

/// The first name of each item from `a` to `b` split at `,` (`*args`, `&block`, `key:`).
fn first_names(text: &str, toks: &[Tok], list: &[(usize, usize)], names: &mut Names) {
    for &(a, b) in list {
        let name =
            (a..b).find(|&j| !matches!(toks[j].kind, Kind::Newline | Kind::Punct(b'*' | b'&')));
        if let Some(w) = name.and_then(|j| word(text, toks, j)) {
            names.insert(w.to_string());
        }
    }
}

/// A method's parameters after its name (at `k`): in parentheses, or to the line's end.
fn parameters(text: &str, toks: &[Tok], k: usize, names: &mut Names) {
    if is_punct(toks, k, b'(') && toks[k - 1].end == toks[k].start {
        first_names(text, toks, &items(toks, k), names);
        return;
    }
    let reach = toks.len().min(k + REACH);
    let end = (k..reach)
        .find(|&j| toks[j].kind == Kind::Newline || is_punct(toks, j, b';'))
        .unwrap_or(reach);
    let mut list = Vec::new();
    let mut from = k;
    for j in k..end {
        if is_punct(toks, j, b',') && toks[j].depth == toks[k].depth {
            list.push((from, j));
            from = j + 1;
        }
    }
    list.push((from, end));
    first_names(text, toks, &list, names);
}

/// The declarations of a Ruby file.
pub(super) fn declared(text: &str, toks: &[Tok]) -> Names {
    let mut names = Names::default();
    for k in 0..toks.len() {
        names.k = k;
        match word(text, toks, k) {
            Some("def") => {
                // `def name`, `def self.name`, `def name=`.
                let mut j = k + 1;
                if word(text, toks, j) == Some("self") && is_punct(toks, j + 1, b'.') {
                    j += 2;
                }
                if let Some(w) = word(text, toks, j) {
                    names.up(w.to_string());
                    parameters(text, toks, j + 1, &mut names);
                }
            }
            Some("class" | "module") => {
                if let Some(w) = word(text, toks, k + 1) {
                    names.insert(w.to_string());
                }
            }
            Some("for") => {
                let mut j = k + 1;
                while let Some(w) =
                    word(text, toks, j).filter(|w| !KEYWORDS.contains(w) && j < k + REACH)
                {
                    names.insert(w.to_string());
                    j += if is_punct(toks, j + 1, b',') { 2 } else { 1 };
                }
            }
            Some("rescue") => {
                // `rescue Error => e`
                let reach = toks.len().min(k + REACH);
                let end = (k..reach)
                    .find(|&j| toks[j].kind == Kind::Newline)
                    .unwrap_or(reach);
                if let Some(j) = (k..end).find(|&j| is_arrow(toks, j))
                    && let Some(w) = word(text, toks, j + 2)
                {
                    names.insert(w.to_string());
                }
            }
            _ => {}
        }
        // Block parameters: `do |a, b|`, `{ |a, (b, c)| … }`.
        if is_punct(toks, k, b'|')
            && k > 0
            && (word(text, toks, k - 1) == Some("do") || is_punct(toks, k - 1, b'{'))
            && let Some(close) = (k + 1..toks.len().min(k + REACH))
                .take_while(|&j| toks[j].kind != Kind::Newline)
                .find(|&j| is_punct(toks, j, b'|'))
        {
            for j in k + 1..close {
                if let Some(w) = word(text, toks, j) {
                    names.insert(w.to_string());
                }
            }
        }
        assignment(text, toks, k, &mut names);
    }
    names
}

/// `=>` at `k`.
fn is_arrow(toks: &[Tok], k: usize) -> bool {
    is_punct(toks, k, b'=') && is_punct(toks, k + 1, b'>') && toks[k].end == toks[k + 1].start
}

/// The targets of an assignment whose `=` is at `k` (`a = …`, `a, b = …`, `a ||= …`).
fn assignment(text: &str, toks: &[Tok], k: usize, names: &mut Names) {
    if !is_punct(toks, k, b'=') {
        return;
    }
    // The punctuation at `j` is one of `c`, written right before the token after it.
    let joined = |j: usize, c: &[u8]| {
        matches!(toks.get(j).map(|t| t.kind), Some(Kind::Punct(p)) if c.contains(&p))
            && toks.get(j + 1).is_some_and(|n| toks[j].end == n.start)
    };
    // Not `==`, `=~`, `=>`, `!=`, `<=`, `>=`, nor a compare's second `=`.
    if joined(k, b"=~>") || k > 0 && joined(k - 1, b"=!<>") {
        return;
    }
    let mut j = k;
    // `||=`, `+=`: the operator's bytes.
    while j > 0 && joined(j - 1, b"|&+-*/%^") {
        j -= 1;
    }
    while j > 0 {
        j -= 1;
        match toks[j].kind {
            Kind::Ident => {
                let part = j > 0 && (is_punct(toks, j - 1, b'.') || is_punct(toks, j - 1, b'@'));
                let owner = is_punct(toks, j + 1, b'.') || is_punct(toks, j + 1, b'[');
                if !part && !owner {
                    names.insert(text[toks[j].start..toks[j].end].to_string());
                }
            }
            Kind::Punct(b',' | b'*' | b'.' | b'@') => {}
            Kind::Punct(b']') => j = open_of(toks, j),
            _ => break,
        }
    }
}

/// The bracket that the one at `close` closes: the first token before it as deep as it.
fn open_of(toks: &[Tok], close: usize) -> usize {
    (0..close)
        .rev()
        .find(|&j| toks[j].depth == toks[close].depth)
        .unwrap_or(0)
}
