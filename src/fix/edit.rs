//! The edits of one finding, from its entry's data: a token rename (`replace_with` of a
//! pattern whose literal is the finding's text), a `gitlab.rb` setting rewrite (the same, in
//! the quoting the file uses), or a YAML key move (a Helm values path written as nested keys).

use super::Edit;
use super::yaml_move;

use crate::catalog::{Change, Entry};
use crate::scan::Finding;
use crate::syntax::FileKind;
use crate::syntax::source::Source;

/// The edits that replace the finding's item, what they do, and the replacement's name; `None`
/// when the data defines no mechanical replacement there (or the text is not what the finding
/// says, e.g. the file changed since the scan).
pub fn edits_for(entry: &Entry, f: &Finding, src: &Source) -> Option<(Vec<Edit>, String, String)> {
    let start = src.offset_of(f.line, f.byte_column)?;
    let end = src.offset_of(f.end_line, f.end_byte_column)?;
    let found = src.text.get(start..end)?;
    for p in &entry.patterns {
        if let Some((old, new)) = super::inverted(p) {
            if found == old {
                let edits = super::invert::invert(src, start, end, new)?;
                let what = format!("replace `{old}` by `{new}` with the negated value");
                return Some((edits, what, new.to_string()));
            }
            continue;
        }
        let Some((old, new)) = p.rename() else {
            continue;
        };
        let graphql = matches!(p.pattern, crate::patterns::Pattern::Graphql(_));
        if found == old && (graphql || in_platform_role(src, start, end)) {
            // A rename only where the schedule says renamed (the unsafe reason of the others
            // says they are not renames with the same meaning).
            let what = if entry.change == Change::Renamed {
                format!("rename `{old}` to `{new}`")
            } else {
                format!("replace `{old}` by `{new}`")
            };
            return Some((vec![Edit::new(src, start, end, new)], what, new.to_string()));
        }
        if src.class.kind == FileKind::Omnibus && found.replace('"', "'") == old {
            // `name["key"]`: the rewrite keeps the file's quotes.
            let quoted = new.replace('\'', "\"");
            let what = format!("rewrite `{found}` as `{quoted}`");
            return Some((
                vec![Edit::new(src, start, end, quoted)],
                what,
                new.to_string(),
            ));
        }
        let moved_key = old.rsplit('.').next().unwrap_or(&old);
        if f.matched == old
            && found == moved_key
            && old.contains('.')
            && matches!(src.class.kind, FileKind::Helm | FileKind::Yaml)
            && !is_chart_template(src.path)
        {
            let old_path: Vec<&str> = old.split('.').collect();
            let new_path: Vec<&str> = new.split('.').collect();
            let edits = yaml_move::move_key(src, start, &old_path, &new_path)?;
            let what = format!("move `{old}` to `{new}`");
            return Some((edits, what, new.to_string()));
        }
    }
    None
}

/// Is the text at `start..end` the platform's item in the platform's role, never an identifier
/// of the program? In code: a quoted key or string (`"filepath"`, `'filepath'`), a struct
/// tag's name (`json:"filepath,omitempty"`), a response object's property (`link.filepath`,
/// not in Go, whose fields are the program's own names), a JavaScript object key or
/// TypeScript field of the resource's type, a Jsonnet object's key (`filepath:`, inside `{`:
/// `filepath: string` in a parameter list is a parameter). A parameter, a local variable or a
/// Go field name is left alone: renaming it at one place breaks the code. Files of other
/// kinds (YAML keys, settings, variables) are the platform's own.
fn in_platform_role(src: &Source, start: usize, end: usize) -> bool {
    if src.class.kind != FileKind::Code {
        return true;
    }
    let bytes = src.text.as_bytes();
    let ext = src.path.rsplit_once('.').map_or("", |(_, e)| e);
    let after = bytes.get(end).copied();
    match start.checked_sub(1).and_then(|i| bytes.get(i)).copied() {
        Some(q @ (b'"' | b'\'' | b'`')) => after == Some(q) || (q == b'"' && after == Some(b',')),
        Some(b'.') => ext != "go",
        _ => {
            // Object keys of JavaScript and of Jsonnet (`key:`, `key::`, `key+:`).
            let keyed = matches!(
                ext,
                "js" | "jsx"
                    | "mjs"
                    | "cjs"
                    | "ts"
                    | "tsx"
                    | "mts"
                    | "cts"
                    | "jsonnet"
                    | "libsonnet"
            );
            let rest = &src.text[end..];
            keyed
                && (rest.starts_with(':') || rest.starts_with("?:") || rest.starts_with("+:"))
                && enclosing_bracket(bytes, start) == Some(b'{')
        }
    }
}

/// The innermost bracket open at `at` (read back over at most 64 KB, brackets in strings and
/// comments counted alike): an object's or type's `{`, or a parameter list's `(`, whose
/// `name: Type` is a parameter of the program, not a key.
fn enclosing_bracket(bytes: &[u8], at: usize) -> Option<u8> {
    let mut depth = 0usize;
    for &c in bytes[at.saturating_sub(1 << 16)..at].iter().rev() {
        match c {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth == 0 => return Some(c),
            b'(' | b'[' | b'{' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// A Helm chart template (not a values file): its keys are not values paths.
fn is_chart_template(path: &str) -> bool {
    path.starts_with("templates/") || path.contains("/templates/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::classify::classify;

    /// The edits of a finding of `id` at the first `item` after `after` in a code file.
    fn edits(id: &str, path: &str, text: &str, after: &str, item: &str) -> Option<String> {
        let cat = crate::catalog::Catalog::load(&[]).unwrap();
        let entry = cat.get(id).unwrap();
        let src = Source::new(path, text, classify(path).unwrap());
        let from = text.find(after).unwrap();
        let start = from + text[from..].find(item).unwrap();
        let (line, column) = src.line_col(start);
        let finding = Finding {
            id: id.to_string(),
            path: path.to_string(),
            line,
            column,
            end_line: line,
            end_column: column + item.len(),
            severity: crate::scan::Severity::Error,
            status: crate::scan::Status::Removed,
            context: crate::scan::Context::Production,
            removed_in: None,
            matched: item.to_string(),
            message: String::new(),
            replacement: None,
            fix: None,
            source_line: String::new(),
            excerpt_column: 1,
            byte_column: src.byte_column(start),
            end_byte_column: src.byte_column(start + item.len()),
            surface: None,
            breaking: false,
            occurrence: 0,
            file: None,
            related: Vec::new(),
        };
        edits_for(entry, &finding, &src).map(|(_, what, _)| what)
    }

    #[test]
    fn a_rename_never_touches_a_program_identifier() {
        let go = "func AddAssetLink(base, filepath string) error {\n\tos.Stat(filepath)\n\tbody := map[string]string{\"filepath\": filepath}\n\treturn send(body)\n}\n\ntype Link struct {\n\tFilepath string `json:\"filepath,omitempty\"`\n}\n";
        let py = "def add_asset_link(base, filepath):\n    data = {'filepath': filepath}\n    filepath = None\n";
        let id = "release-links-filepath";
        // The parameter, its use, a local variable: never.
        assert_eq!(edits(id, "links.go", go, "base, ", "filepath"), None);
        assert_eq!(edits(id, "links.go", go, "os.Stat(", "filepath"), None);
        assert_eq!(edits(id, "links.py", py, "base, ", "filepath"), None);
        assert_eq!(
            edits(id, "links.py", py, "\n    filepath", "filepath"),
            None
        );
        // A TypeScript parameter with its type is no object key; the object's key is.
        let ts = "function link(base: string, filepath: string) {\n  return { filepath: filepath };\n}\n";
        assert_eq!(edits(id, "links.ts", ts, "base: ", "filepath"), None);
        assert_eq!(
            edits(id, "links.ts", ts, "{ ", "filepath"),
            Some("rename `filepath` to `direct_asset_path`".to_string())
        );
        // The payload's key and the struct tag's name: renamed.
        let rename = Some("rename `filepath` to `direct_asset_path`".to_string());
        assert_eq!(edits(id, "links.go", go, "{\"", "filepath"), rename);
        assert_eq!(edits(id, "links.go", go, "json:", "filepath"), rename);
        assert_eq!(edits(id, "links.py", py, "{'", "filepath"), rename);
        // A response's property, a JavaScript key or TypeScript field of the resource's type.
        let js = "interface Link { filepath?: string }\nconst body = { filepath: p };\nuse(link.filepath, filepath);\n";
        assert_eq!(edits(id, "links.ts", js, "{ ", "filepath"), rename);
        assert_eq!(edits(id, "links.ts", js, "body", "filepath"), rename);
        assert_eq!(edits(id, "links.ts", js, "link.", "filepath"), rename);
        assert_eq!(edits(id, "links.ts", js, ", ", "filepath"), None);
        // Python's annotated parameter is no key.
        let annotated = "def add(filepath: str):\n    return link.filepath\n";
        assert_eq!(edits(id, "links.py", annotated, "add(", "filepath"), None);
        assert_eq!(
            edits(id, "links.py", annotated, "link.", "filepath"),
            rename
        );
    }
}
