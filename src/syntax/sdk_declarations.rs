//! What python-gitlab's manager classes declare that their `create` and `update` send: under
//! `_path = "/runners"`, `_create_attrs = RequiredOptional(required=("token",), optional=(…))`
//! (before 2.x, a tuple of the required and the optional names). The library's own code, and
//! copies of it, send the API's parameters through these declarations, not through calls.

use super::sdk::matching;
use super::{FileCtx, WordBytes, word_offsets};

/// One `_create_attrs` or `_update_attrs` of a class with a `_path`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManagerDeclaration<'t> {
    /// The class's `_path` as written: `/runners`, `/projects/{project_id}/runners`,
    /// `/projects/%(project_id)s/runners`.
    pub path: &'t str,
    /// `_create_attrs` or `_update_attrs`.
    pub attributes: &'static str,
    /// The declaration's opening and closing brackets.
    pub open: usize,
    pub close: usize,
}

impl ManagerDeclaration<'_> {
    /// Where `name` is written as a string in the declaration (`"active"`, `'active'`): the
    /// offsets of the name, outside comments.
    pub fn quoted<'c>(&self, ctx: &'c FileCtx, name: &'c str) -> impl Iterator<Item = usize> + 'c {
        let text = ctx.src.text;
        let (open, close) = (self.open, self.close);
        ['"', '\''].into_iter().flat_map(move |q| {
            let quoted = format!("{q}{name}{q}");
            text[open..close]
                .match_indices(quoted.as_str())
                .map(move |(i, _)| open + i + 1)
                .filter(|&at| !ctx.src.in_comment(at))
                .collect::<Vec<_>>()
        })
    }
}

/// The declarations of the file's manager classes, in order (kept by
/// [`FileCtx::manager_declarations`]).
pub fn read<'t>(ctx: &FileCtx<'_, 't>) -> Vec<ManagerDeclaration<'t>> {
    let text: &'t str = ctx.src.text;
    let mut out = Vec::new();
    for at in ctx.word_offsets("_path", WordBytes::Ident) {
        if ctx.src.in_comment(at) {
            continue;
        }
        let Some(path) = assigned_string(text, at + "_path".len()) else {
            continue;
        };
        // The class body: up to the next line that starts a top-level statement.
        let body_end = text[at..]
            .match_indices('\n')
            .map(|(i, _)| at + i + 1)
            .find(|&line| {
                text[line..]
                    .chars()
                    .next()
                    .is_some_and(|c| !c.is_whitespace() && c != '#' && c != ')')
            })
            .unwrap_or(text.len());
        let body = &text[..body_end];
        for attributes in ["_create_attrs", "_update_attrs"] {
            for k in word_offsets(&body[at..], attributes, WordBytes::Ident) {
                let a = at + k;
                let rest = body[a + attributes.len()..].trim_start_matches([' ', '\t']);
                let Some(rest) = rest.strip_prefix('=') else {
                    continue;
                };
                // `RequiredOptional(required=(…), optional=(…))`, or the tuple of the two
                // tuples that older releases declared.
                let rest = rest.trim_start_matches([' ', '\t']);
                let value = rest.strip_prefix("RequiredOptional").unwrap_or(rest);
                if !value.starts_with('(') {
                    continue;
                }
                // `value` ends the body: its bracket is at the body's length less its own.
                let open = body.len() - value.len();
                if let Some(close) = matching(text, open) {
                    out.push(ManagerDeclaration {
                        path,
                        attributes,
                        open,
                        close,
                    });
                }
            }
        }
    }
    out
}

/// The string assigned after a name ending at `end` (`_path = "/runners"`), if the value is a
/// plain string literal.
fn assigned_string(text: &str, end: usize) -> Option<&str> {
    let rest = text[end..].trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix('=')?.trim_start_matches([' ', '\t']);
    let q = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let body = &rest[1..];
    let value = &body[..body.find([q, '\n'])?];
    body[value.len()..].starts_with(q).then_some(value)
}

/// The segments of an API path with every placeholder as `:id` (`{project_id}`,
/// `%(project_id)s`, `:id`), for comparing a manager's `_path` with an endpoint's template.
pub fn path_segments(path: &str) -> Vec<&str> {
    path.trim_matches('/')
        .split('/')
        .map(|s| {
            if s.starts_with('{') || s.starts_with(':') || s.contains("%(") {
                ":id"
            } else {
                s
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assigned_strings() {
        assert_eq!(assigned_string(" = \"/runners\"\n", 0), Some("/runners"));
        assert_eq!(assigned_string("='/runners'", 0), Some("/runners"));
        assert_eq!(assigned_string(" = \"/runners\n\"", 0), None);
        assert_eq!(assigned_string(" = base + \"/runners\"", 0), None);
        assert_eq!(assigned_string(" == \"/runners\"", 0), None);
    }

    #[test]
    fn placeholders_compare_equal() {
        assert_eq!(
            path_segments("/projects/{project_id}/runners"),
            path_segments("/projects/:id/runners")
        );
        assert_eq!(
            path_segments("/projects/%(project_id)s/runners"),
            vec!["projects", ":id", "runners"]
        );
        assert_ne!(path_segments("/runners/all"), path_segments("/runners/:id"));
    }
}
