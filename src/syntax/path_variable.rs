//! A path written after a variable that holds its start: `${root}/changes`, `f"{mr_url}/changes"`,
//! `base + '/changes'`, `"$MR_URL/changes"`, `$base . '/changes'`. What the variable holds is
//! read from its nearest assignment above (`var base = '/projects/' + p.id + '/merge_requests/'
//! + n;`, `const root = \`${projectPath(repo)}/merge_requests/${iid}\``) as a path skeleton, each
//! expression in it written `{}`; the REST reader puts it before the path.

use super::is_ident_byte;

/// How far above a use the variable's assignment is looked for.
const REACH: usize = 3000;

/// The longest assigned value read (one line of it).
const VALUE_REACH: usize = 400;

/// The longest variable name looked for.
const NAME_REACH: usize = 64;

/// The variable a URL word starts with, when the path follows it (`${root}` of
/// `${root}/changes`, `{mr_url}`, `#{base}`, `$MR_URL`, `${MR_URL}`), and the length of the
/// word's head that names it.
pub fn leading_variable(word: &str) -> Option<(&str, usize)> {
    let slash = word.find('/')?;
    let head = &word[..slash];
    let name = ["${", "#{", "{"]
        .iter()
        .find_map(|open| head.strip_prefix(open)?.strip_suffix('}'))
        .or_else(|| head.strip_prefix('$'))?;
    variable_name(name).then_some((name, slash))
}

/// Is `name` a variable's or a member's name (`base`, `self.base_url`, `this.root`)?
pub fn variable_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= NAME_REACH
        && !name.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && !name.ends_with('.')
        && name.bytes().all(|c| is_ident_byte(c) || c == b'.')
}

/// The path skeleton the nearest assignment of `name` before `at` gives it (`name = …`,
/// `name := …`, `const name = …`, `$name = …`, shell's `NAME=…`), if its value is a path built
/// of string literals and expressions. The nearest assignment decides: one whose value is no
/// path gives none.
pub fn assigned_path(text: &str, at: usize, name: &str) -> Option<String> {
    let mut from = at.saturating_sub(REACH);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let region = &text[from..at];
    let b = region.as_bytes();
    for (i, _) in region.rmatch_indices(name) {
        if i > 0 && (is_ident_byte(b[i - 1]) || b[i - 1] == b'.') {
            continue;
        }
        let after = region[i + name.len()..].trim_start_matches([' ', '\t']);
        let value = after.strip_prefix(":=").or_else(|| {
            after
                .strip_prefix('=')
                .filter(|v| !v.starts_with(['=', '>', '~']))
        });
        if let Some(value) = value {
            return skeleton(value);
        }
    }
    None
}

/// The path a value builds (read to its line's end or its `;`), each expression `{}`, each
/// interpolation `{}`: `'/projects/' + p.id + '/merge_requests/' + n` gives
/// `/projects/{}/merge_requests/{}`; a formatting call (`fmt.Sprintf("/projects/%d/…", …)`,
/// `"…".format(…)`) gives its format string. None when the value holds anything else (a
/// condition, a call of another kind), no literal, or no `/`.
fn skeleton(value: &str) -> Option<String> {
    let mut end = value.find('\n').unwrap_or(value.len()).min(VALUE_REACH);
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    let line = &value[..end];
    let b = line.as_bytes();
    let mut out = String::new();
    let (mut i, mut literal) = (0, false);
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' | b'+' => i += 1,
            b';' => break,
            b'"' | b'\'' | b'`' => {
                let close = closing_quote(b, i)?;
                super::rest::push_interpolated(&mut out, &line[i + 1..close]);
                literal = true;
                i = close + 1;
                // `"…".format(…)`, `"…" % (…)`: the format string is the path.
                let rest = line[i..].trim_start();
                if rest.starts_with(".format(") || rest.starts_with('%') {
                    break;
                }
            }
            // PHP's and Perl's concatenation.
            b'.' if b.get(i + 1) == Some(&b' ') => i += 1,
            _ => {
                let e = expression_end(b, i)?;
                let expr = &line[i..e];
                if let Some(open) = expr.find('(')
                    && formats(&expr[..open])
                {
                    let inner = &line[i + open + 1..];
                    let q = inner.find(['"', '\'', '`'])?;
                    let close = closing_quote(inner.as_bytes(), q)?;
                    out.push_str(&inner[q + 1..close]);
                    literal = true;
                    break;
                }
                // A string's prefix (`f"…"`, `$"…"`, `@"…"`) is no expression.
                if !matches!(expr, "f" | "r" | "b" | "u" | "rf" | "fr" | "$" | "@" | "$@")
                    || !matches!(b.get(e), Some(b'"' | b'\''))
                {
                    out.push_str("{}");
                }
                i = e;
            }
        }
    }
    (literal && out.contains('/') && !out.contains(char::is_whitespace)).then_some(out)
}

/// Is a called name a formatting function (`fmt.Sprintf`, `String.format`, `sprintf`,
/// `format!`)?
fn formats(callee: &str) -> bool {
    let last = callee.rsplit(['.', ':']).next().unwrap_or(callee);
    matches!(
        last,
        "Sprintf" | "sprintf" | "format" | "format!" | "Format"
    )
}

/// The closing quote of the literal opened at `open` on the line (a line, so a literal that
/// does not close on it has none), escapes skipped.
fn closing_quote(b: &[u8], open: usize) -> Option<usize> {
    let q = b[open];
    let close = super::graphql_docs::closing_quote(b, open + 1, q);
    (b.get(close) == Some(&q)).then_some(close)
}

/// The end of a simple expression at `i`: a name, members, indexes and call arguments
/// (brackets balanced on the line). None where none starts at `i` (an operator other than
/// `+`, a comma, a condition).
fn expression_end(b: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut e = i;
    while e < b.len() {
        let c = b[e];
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            b')' | b']' | b'}' => break,
            b'"' | b'\'' | b'`' if depth > 0 => e = closing_quote(b, e)?,
            _ if depth > 0 => {}
            b'"' | b'\'' => break,
            c if is_ident_byte(c) || matches!(c, b'.' | b'$' | b'@' | b'!' | b':') => {}
            _ => break,
        }
        e += 1;
    }
    (e > i && depth == 0 && !b[i..e].ends_with(b":")).then_some(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path_of(text: &str, name: &str) -> Option<String> {
        assigned_path(text, text.len(), name)
    }

    #[test]
    fn concatenation_with_a_trailing_expression() {
        assert_eq!(
            path_of(
                "var base = '/projects/' + p.id + '/merge_requests/' + n;\n",
                "base"
            ),
            Some("/projects/{}/merge_requests/{}".into())
        );
    }

    #[test]
    fn template_literal_f_string_and_shell() {
        assert_eq!(
            path_of("const root = `${path(repo)}/merge_requests/${n}`\n", "root"),
            Some("{}/merge_requests/{}".into())
        );
        assert_eq!(
            path_of(
                "    mr_url = f\"{api}/projects/{pid}/merge_requests/{iid}\"\n",
                "mr_url"
            ),
            Some("{}/projects/{}/merge_requests/{}".into())
        );
        assert_eq!(
            path_of(
                "MR_URL=\"$API/projects/$PID/merge_requests/$IID\"\n",
                "MR_URL"
            ),
            Some("$API/projects/$PID/merge_requests/$IID".into())
        );
    }

    #[test]
    fn formatting_calls() {
        assert_eq!(
            path_of(
                "base := fmt.Sprintf(\"/projects/%d/merge_requests/%d\", p, i)\n",
                "base"
            ),
            Some("/projects/%d/merge_requests/%d".into())
        );
        assert_eq!(
            path_of(
                "base = \"/projects/{}/merge_requests/{}\".format(p, i)\n",
                "base"
            ),
            Some("/projects/{}/merge_requests/{}".into())
        );
    }

    #[test]
    fn the_nearest_assignment_decides_and_comparisons_are_none() {
        let text = "base = '/projects/1/merge_requests/2'\nbase = other(x)\n";
        assert_eq!(path_of(text, "base"), None);
        assert_eq!(path_of("if base == '/a/b' {\n", "base"), None);
        assert_eq!(path_of("database = '/a/b'\n", "base"), None);
        assert_eq!(path_of("base = cond ? '/a' : '/b'\n", "base"), None);
    }

    #[test]
    fn leading_variables() {
        assert_eq!(leading_variable("${root}/changes"), Some(("root", 7)));
        assert_eq!(leading_variable("{self.mr}/changes"), Some(("self.mr", 9)));
        assert_eq!(leading_variable("$MR_URL/changes"), Some(("MR_URL", 7)));
        assert_eq!(leading_variable("{0}/changes"), None);
        assert_eq!(leading_variable("{}/changes"), None);
        assert_eq!(leading_variable("/changes"), None);
    }
}
