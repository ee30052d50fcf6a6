//! JavaScript and TypeScript: the names a file declares (parameters, `const`/`let`/`var` and
//! their destructured names, functions, classes, types, imports) and its function scopes (a
//! parameter list with its body, `x => …` with its body).

use super::{Kind, LIST_REACH, Names, REACH, Tok, is_punct, items, matching};

pub(super) const KEYWORDS: &[&str] = &[
    "abstract",
    "as",
    "async",
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "declare",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "from",
    "function",
    "get",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "is",
    "keyof",
    "let",
    "namespace",
    "new",
    "null",
    "of",
    "private",
    "protected",
    "public",
    "readonly",
    "return",
    "set",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "type",
    "typeof",
    "undefined",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// Words before `(` that make it no parameter list (a condition, a call's operand).
const NOT_PARAMETERS: &[&str] = &[
    "if", "for", "while", "switch", "with", "return", "typeof", "await", "new", "in", "of", "case",
    "void", "delete", "throw", "yield", "else", "do",
];

/// Modifiers of a constructor's parameters (`private readonly x: T`).
const MODIFIERS: &[&str] = &["public", "private", "protected", "readonly", "override"];

fn word<'t>(text: &'t str, toks: &[Tok], k: usize) -> Option<&'t str> {
    toks.get(k)
        .filter(|t| t.kind == Kind::Ident)
        .map(|t| &text[t.start..t.end])
}

/// `=>` at `k`.
fn is_arrow(toks: &[Tok], k: usize) -> bool {
    is_punct(toks, k, b'=') && is_punct(toks, k + 1, b'>') && toks[k].end == toks[k + 1].start
}

/// Where the body that starts at `k` (after `=>`) ends: its block's end, or its expression's
/// (the first `,` or `;` at its depth, or the bracket that closes around it).
fn body_end(toks: &[Tok], k: usize) -> usize {
    if is_punct(toks, k, b'{') {
        return matching(toks, k) + 1;
    }
    let Some(depth) = toks.get(k).map(|t| t.depth) else {
        return toks.len();
    };
    let reach = toks.len().min(k + LIST_REACH);
    (k..reach)
        .find(|&j| {
            toks[j].depth < depth
                || toks[j].depth == depth && matches!(toks[j].kind, Kind::Punct(b',' | b';'))
        })
        .unwrap_or(reach)
}

/// The end of the function whose parameter list opens at `open` (its body's end), or `None`
/// when the list is no function's (a call, a condition).
fn function_at(text: &str, toks: &[Tok], open: usize) -> Option<usize> {
    let before = open.checked_sub(1).and_then(|b| word(text, toks, b));
    if before.is_some_and(|w| NOT_PARAMETERS.contains(&w)) {
        return None;
    }
    let depth = toks[open].depth;
    let mut j = matching(toks, open) + 1;
    if is_punct(toks, j, b':') {
        // A return type, up to the body.
        let reach = toks.len().min(j + REACH);
        while j < reach
            && !(toks[j].depth == depth && (is_punct(toks, j, b'{') || is_arrow(toks, j)))
        {
            let t = toks[j];
            if t.depth < depth || t.depth == depth && matches!(t.kind, Kind::Punct(b';' | b',')) {
                return None;
            }
            j += 1;
        }
    }
    if is_arrow(toks, j) {
        return Some(body_end(toks, j + 2));
    }
    is_punct(toks, j, b'{').then(|| matching(toks, j) + 1)
}

/// The function scopes: each parameter list with its body, and `x => …`.
pub(super) fn scopes(toks: &[Tok], text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for k in 0..toks.len() {
        if is_punct(toks, k, b'(') {
            if let Some(end) = function_at(text, toks, k) {
                out.push((k, end));
            }
        } else if toks[k].kind == Kind::Ident && is_arrow(toks, k + 1) {
            out.push((k, body_end(toks, k + 3)));
        }
    }
    out
}

/// The names of a destructuring pattern opened at `open` (`{ a, b: c, ...d }`, `[a, b]`): each
/// name not followed by `:` (a key).
fn pattern(text: &str, toks: &[Tok], open: usize, names: &mut Names) {
    for j in open + 1..matching(toks, open).min(open + 1 + LIST_REACH) {
        if word(text, toks, j).is_some_and(|w| matches!(w, "const" | "let" | "var" | "function")) {
            break;
        }
        if let Some(w) = word(text, toks, j)
            && !is_punct(toks, j + 1, b':')
            && !KEYWORDS.contains(&w)
        {
            names.insert(w.to_string());
        }
    }
}

/// The names a binding at `k` declares: a name, or a pattern's.
fn binding(text: &str, toks: &[Tok], k: usize, names: &mut Names) {
    match toks.get(k).map(|t| t.kind) {
        Some(Kind::Ident) => names.insert(text[toks[k].start..toks[k].end].to_string()),
        Some(Kind::Punct(b'{' | b'[')) => pattern(text, toks, k, names),
        _ => {}
    }
}

/// The parameters of the list opened at `open`.
fn parameters(text: &str, toks: &[Tok], open: usize, names: &mut Names) {
    for (a, b) in items(toks, open) {
        let mut j = a;
        while j < b
            && (matches!(toks[j].kind, Kind::Newline | Kind::Punct(b'.'))
                || word(text, toks, j).is_some_and(|w| MODIFIERS.contains(&w)))
        {
            j += 1;
        }
        if word(text, toks, j) != Some("this") {
            binding(text, toks, j, names);
        }
    }
}

/// The declarations of a JavaScript or TypeScript file.
pub(super) fn declared(text: &str, toks: &[Tok]) -> Names {
    let mut names = Names::default();
    for k in 0..toks.len() {
        names.k = k;
        if is_punct(toks, k, b'(') && function_at(text, toks, k).is_some() {
            parameters(text, toks, k, &mut names);
            continue;
        }
        match word(text, toks, k) {
            Some("const" | "let" | "var") => binding(text, toks, k + 1, &mut names),
            Some("function" | "class" | "interface" | "enum" | "namespace" | "type") => {
                let j = if is_punct(toks, k + 1, b'*') {
                    k + 2
                } else {
                    k + 1
                };
                if let Some(w) = word(text, toks, j) {
                    names.insert(w.to_string());
                }
            }
            Some("import") => {
                let mut j = k + 1;
                while j < toks.len().min(k + REACH)
                    && !matches!(toks[j].kind, Kind::Value | Kind::Punct(b';'))
                    && word(text, toks, j) != Some("import")
                {
                    if let Some(w) = word(text, toks, j).filter(|w| !KEYWORDS.contains(w)) {
                        names.insert(w.to_string());
                    }
                    j += 1;
                }
            }
            Some(w) if is_arrow(toks, k + 1) && !KEYWORDS.contains(&w) => {
                names.insert(w.to_string());
            }
            _ => {}
        }
    }
    names
}
