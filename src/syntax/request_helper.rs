//! A request helper of the file: a function defined in the same file that a path is handed to
//! (`get_all("/users")`, `pullAll('/users')`), whose body sends the request with what the call
//! does not write (`params={"per_page": 100, "page": page}`). Consumers page through lists with
//! such a helper, so the parameters of the request are written a function away from its path.

use super::is_ident_byte;

/// How far before a path the call that it is an argument of may open.
const CALL_REACH: usize = 512;

/// At most this much of a Python helper's body is read (a brace's body: as far as
/// [`super::sdk::matching`] reads).
const BODY_REACH: usize = 8 * 1024;

/// Words that open a definition, written right before the function's name.
const DEFINES: [&str; 4] = ["def", "function", "func", "fn"];

/// Words that come before a call's parentheses without calling a function.
const NOT_CALLS: [&str; 10] = [
    "if", "for", "while", "switch", "return", "await", "print", "catch", "with", "elif",
];

/// The helper that the argument at `at` is handed to: its signature (the name to the parameters'
/// closing parenthesis) and its body, when the function is defined in `text`.
pub fn helper(text: &str, at: usize) -> Option<(&str, &str)> {
    definition_of(text, callee(text, at)?)
}

/// The definition of the function `name` in `text`: its signature and body (the first found).
/// The file is searched once per call: ask once per name.
pub fn definition_of<'t>(text: &'t str, name: &str) -> Option<(&'t str, &'t str)> {
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, name.as_bytes()).find_map(|k| {
        let end = k + name.len();
        let named = (k == 0 || !is_ident_byte(b[k - 1]))
            && (b.get(end) == Some(&b'(') || assigned_function(&text[end..]));
        named.then(|| definition(text, k, end)).flatten()
    })
}

/// The name of the function whose call holds `at` among its arguments.
pub fn callee(text: &str, at: usize) -> Option<&str> {
    let b = text.as_bytes();
    let floor = at.saturating_sub(CALL_REACH);
    let mut depth = 0usize;
    let mut i = at;
    let open = loop {
        if i <= floor {
            return None;
        }
        i -= 1;
        match b[i] {
            b')' | b']' | b'}' => depth += 1,
            b'[' | b'{' if depth == 0 => return None,
            b'(' if depth == 0 => break i,
            b'(' | b'[' | b'{' => depth -= 1,
            b';' => return None,
            _ => {}
        }
    };
    // A shell command substitution (`$(check_port /runners)`): its command is the first word.
    if open > 0 && b[open - 1] == b'$' {
        let word = &b[open + 1..at];
        let n = word
            .iter()
            .take_while(|&&c| is_ident_byte(c) || c == b'-')
            .count();
        let rest = &word[n..];
        let name = &text[open + 1..open + 1 + n];
        let command =
            n > 0 && !word[0].is_ascii_digit() && rest.first().is_some_and(|c| *c == b' ');
        return command.then_some(name);
    }
    let end = open;
    let start = end
        - b[..end]
            .iter()
            .rev()
            .take_while(|&&c| is_ident_byte(c))
            .count();
    let name = &text[start..end];
    // A method called on an object (`self._get_all(`, `c.getAll(`, `$this->all(`) counts too:
    // only a definition in the file makes it a helper.
    let keyword = NOT_CALLS.contains(&name) || DEFINES.contains(&name);
    (!name.is_empty() && !name.as_bytes()[0].is_ascii_digit() && !keyword).then_some(name)
}

/// Is what follows a name an assignment of a function (`= async (`, `= function (`, `: (`)?
fn assigned_function(after: &str) -> bool {
    let Some(rest) = after
        .trim_start()
        .strip_prefix('=')
        .filter(|r| !r.starts_with(['=', '>']))
    else {
        return false;
    };
    let rest = rest.trim_start();
    let rest = rest.strip_prefix("async").unwrap_or(rest).trim_start();
    rest.starts_with('(') || rest.starts_with("function")
}

/// The definition whose name is written at `k..end`: its signature and body. A definition is
/// the name after `def`/`function`/`func`/`fn` (or a Go receiver's `)`), a method of a class
/// (the name first on its line, its parameters followed by `{`), or a function assigned to
/// the name.
fn definition(text: &str, k: usize, end: usize) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    let line_start = memchr::memrchr(b'\n', &b[..k]).map_or(0, |i| i + 1);
    let before = text[line_start..k].trim_end();
    let keyword = DEFINES.iter().any(|d| {
        before
            .strip_suffix(d)
            .is_some_and(|r| r.is_empty() || r.ends_with([' ', '\t', '*']))
    }) || (before.ends_with(')') && before.trim_start().starts_with("func"));
    let first_on_line = before.split_whitespace().all(|w| {
        matches!(
            w,
            "async" | "public" | "private" | "protected" | "static" | "export" | "override"
        )
    });
    let assigned = b.get(end) != Some(&b'(');
    if !(keyword || first_on_line || assigned) {
        return None;
    }
    let open = end + memchr::memchr(b'(', &b[end..(end + 64).min(b.len())])?;
    let close = super::sdk::matching(text, open)? + 1;
    let signature = &text[k..close];
    let python = before.ends_with("def");
    let body = if python {
        indented_body(text, close, line_start)
    } else {
        // The body's brace follows the parameters (past a return type or an arrow).
        let brace = close + memchr::memchr(b'{', &b[close..(close + 200).min(b.len())])?;
        let between = text[close..brace].trim();
        // A return type (`: Promise<T>`, Go's `error`), or an arrow where a function is
        // assigned: not a call on its own line (`get_all('/a')`, `pullAll(x).then(r => {`).
        let arrow = assigned && between.ends_with("=>");
        let typed = !between.contains(['\n', ';', '(', '.', '='])
            && (between.is_empty() || keyword || between.starts_with(':'));
        if !(arrow || typed) {
            return None;
        }
        &text[brace..super::sdk::matching(text, brace)? + 1]
    };
    Some((signature, body))
}

/// A Python function's body: the lines after its signature indented deeper than `def`'s line.
fn indented_body(text: &str, from: usize, def_line: usize) -> &str {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let def_indent = indent(&text[def_line..]);
    let start = text[from..].find('\n').map_or(text.len(), |i| from + i + 1);
    let mut end = start;
    for line in text[start..].split_inclusive('\n') {
        if end - start > BODY_REACH || (!line.trim().is_empty() && indent(line) <= def_indent) {
            break;
        }
        end += line.len();
    }
    &text[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body_of(text: &str, needle: &str) -> Option<String> {
        helper(text, text.find(needle).unwrap()).map(|(_, b)| b.to_string())
    }

    #[test]
    fn python_and_typescript_helpers() {
        let py = "def get_all(path):\n    r = s.get(path, params={'page': p})\n    return r\n\ndef users():\n    return get_all('/users')\n";
        assert_eq!(
            body_of(py, "/users").as_deref(),
            Some("    r = s.get(path, params={'page': p})\n    return r\n\n")
        );
        let ts = "export async function pullAll(api: string): Promise<any[]> {\n  return get(api, { params: { page } });\n}\nconst users = () => pullAll('/users');\n";
        assert!(body_of(ts, "/users").unwrap().contains("page"));
        let assigned = "const pullAll = async (api) => {\n  return get(api, { page: 1 });\n};\npullAll('/users');\n";
        assert!(body_of(assigned, "/users").unwrap().contains("page"));
        let method = "class C {\n  async pullAll(api: string) {\n    return this.get(api, { page: 1 });\n  }\n  users() { return this.pullAll('/users'); }\n}\n";
        assert!(body_of(method, "/users").unwrap().contains("page"));
        let go = "func (c *Client) getAll(path string) error {\n\treturn c.get(path, \"page=1\")\n}\nfunc users() { getAll(\"/users\") }\n";
        assert!(body_of(go, "/users").unwrap().contains("page"));
    }

    #[test]
    fn calls_that_are_no_helpers() {
        // Defined nowhere in the file, a keyword.
        assert_eq!(body_of("get_all('/users')\n", "/users"), None);
        assert_eq!(body_of("if ('/users' in x) {}\n", "/users"), None);
        // A call of the helper on its own line is not its definition.
        assert_eq!(
            body_of("get_all('/a')\nget_all('/users')\n", "/users"),
            None
        );
        assert_eq!(
            body_of(
                "pullAll('/a').then(r => {\n  page(r);\n});\npullAll('/users');\n",
                "/users"
            ),
            None
        );
    }
}
