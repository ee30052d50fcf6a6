//! GraphQL selections written as Go structs (`github.com/shurcooL/graphql`, `hasura/go-graphql-client`):
//! a struct field's `graphql:"ipAddress"` tag selects the field, the structs around it are its
//! parents (`Runners struct { Nodes []struct { … } }`, each named by its own tag when it has one,
//! `graphql:"runners(type: INSTANCE_TYPE)"`, else by the Go field's name), an inline fragment's
//! tag (`graphql:"... on CiRunner"`) or the declared type (`type CiRunner struct`) gives the type.

use memchr::memmem;

/// One field a struct tag selects: its name, where the name is written, the names of the
/// selections around it (outermost first) and the type it is selected on, if written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagField<'a> {
    pub name: &'a str,
    pub start: usize,
    pub path: Vec<String>,
    pub type_condition: Option<&'a str>,
}

/// How many lines above a tag its enclosing structs are looked for.
const LOOK_BACK_LINES: usize = 200;

/// How many lines below a struct's opening line its closing `}` (and tag) is looked for.
const LOOK_AHEAD_LINES: usize = 400;

/// The `graphql:"…"` tags of a Go text that select `name`.
pub fn fields<'a>(text: &'a str, name: &str) -> Vec<TagField<'a>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for at in memmem::find_iter(b, b"graphql:\"") {
        let start = at + "graphql:\"".len();
        if !text[start..].starts_with(name) || !tag_name_ends(b, start + name.len()) {
            continue;
        }
        let (path, type_condition) = enclosing(text, at);
        out.push(TagField {
            name: &text[start..start + name.len()],
            start,
            path,
            type_condition,
        });
    }
    out
}

/// Does a tag's selected name end at `end` (its arguments, alias or the tag's quote follow)?
fn tag_name_ends(b: &[u8], end: usize) -> bool {
    matches!(b.get(end), Some(b'"' | b'(' | b' ' | b'@'))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The lines of `text` as (start, line), around the line that holds `at`: the index of that
/// line and the lines themselves, bounded above and below.
fn lines_around(text: &str, at: usize) -> (usize, Vec<(usize, &str)>) {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut above: Vec<(usize, &str)> = Vec::new();
    let mut end = line_start;
    while end > 0 && above.len() < LOOK_BACK_LINES {
        let s = text[..end - 1].rfind('\n').map_or(0, |i| i + 1);
        above.push((s, &text[s..end - 1]));
        end = s;
    }
    above.reverse();
    let own = above.len();
    let mut s = line_start;
    let mut lines = above;
    while s <= text.len() && lines.len() < own + 1 + LOOK_AHEAD_LINES {
        let e = text[s..].find('\n').map_or(text.len(), |i| s + i);
        lines.push((s, &text[s..e]));
        if e == text.len() {
            break;
        }
        s = e + 1;
    }
    (own, lines)
}

/// The selections around the tag at `at`: each struct that encloses its line (a line indented
/// less that opens `struct {`), named by the tag on its closing line or its Go field's name.
fn enclosing(text: &str, at: usize) -> (Vec<String>, Option<&str>) {
    let (own, lines) = lines_around(text, at);
    let mut level = indent(lines[own].1);
    let mut path: Vec<String> = Vec::new();
    let mut type_condition = None;
    for i in (0..own).rev() {
        let line = lines[i].1;
        if line.trim().is_empty() || indent(line) >= level {
            continue;
        }
        level = indent(line);
        let trimmed = line.trim();
        if !trimmed.ends_with("struct {") {
            break;
        }
        let first = trimmed.split_whitespace().next().unwrap_or("");
        if first == "type" {
            type_condition = trimmed.split_whitespace().nth(1);
            break;
        }
        if matches!(first, "var" | "const") || trimmed.contains(":=") || trimmed.contains('=') {
            break;
        }
        // The struct's closing line at the same indentation holds its tag.
        let closing = lines[i + 1..]
            .iter()
            .find(|(_, l)| indent(l) == level && l.trim_start().starts_with('}'))
            .map(|(_, l)| *l);
        match closing.and_then(tag_of) {
            Some(tag) if tag.starts_with("...") => {
                if type_condition.is_none() {
                    type_condition = tag.rsplit(' ').next().filter(|t| !t.is_empty());
                }
            }
            Some(tag) => path.push(selection_name(tag).to_string()),
            None => path.push(lower_first(first)),
        }
    }
    path.reverse();
    (path, type_condition)
}

/// The value of a line's `graphql:"…"` tag.
fn tag_of(line: &str) -> Option<&str> {
    let i = line.find("graphql:\"")? + "graphql:\"".len();
    let e = line[i..].find('"')?;
    Some(&line[i..i + e])
}

/// The field a tag selects: its name before arguments or directives (`runners(type: X)`), after
/// an alias (`all: runners`).
fn selection_name(tag: &str) -> &str {
    let head = tag.split(['(', '@']).next().unwrap_or(tag);
    head.rsplit(':').next().unwrap_or(head).trim()
}

/// A Go field's name as the GraphQL clients select it when no tag says otherwise.
fn lower_first(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_nested_structs() {
        let go = "var q struct {\n\tRunners struct {\n\t\tNodes []struct {\n\t\t\tID string\n\t\t\tIPAddress string `graphql:\"ipAddress\"`\n\t\t}\n\t} `graphql:\"runners(type: INSTANCE_TYPE)\"`\n}\n";
        let f = fields(go, "ipAddress");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].path, vec!["runners".to_string(), "nodes".to_string()]);
        assert_eq!(&go[f[0].start..f[0].start + 9], "ipAddress");
        let typed = "type CiRunner struct {\n\tIpAddress string `graphql:\"ipAddress\"`\n}\n";
        let f = fields(typed, "ipAddress");
        assert_eq!(f[0].type_condition, Some("CiRunner"));
        assert!(f[0].path.is_empty());
        let fragment = "var q struct {\n\tRunner struct {\n\t\tOn struct {\n\t\t\tV string `graphql:\"version\"`\n\t\t} `graphql:\"... on CiRunner\"`\n\t} `graphql:\"runner(id: $id)\"`\n}\n";
        let f = fields(fragment, "version");
        assert_eq!(f[0].type_condition, Some("CiRunner"));
        assert_eq!(f[0].path, vec!["runner".to_string()]);
        assert!(fields(go, "ipAddr").is_empty());
        assert_eq!(selection_name("all: runners(first: 5)"), "runners");
    }
}
