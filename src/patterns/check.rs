//! The checks of data values, with the position of what is wrong: shared by the pattern kinds
//! (their fields) and the catalog loader (entries and endpoints). A problem is recorded, not
//! returned, so that one pass reports every problem of a file.

use serde_saphyr::{Location, Spanned};

use super::raw::{RawPattern, RawValue};
use crate::syntax::{FileKind, Method};

type S = Spanned<String>;

/// Something wrong in a data file: where, what, and what would be right.
#[derive(Clone, Debug)]
pub struct Problem {
    pub at: Location,
    /// The length of the offending text where the position has none.
    pub len: usize,
    /// Point at the whole value the position spans (else at `len` bytes).
    pub whole: bool,
    pub message: String,
    pub help: Option<String>,
}

/// Records problems while values are checked.
#[derive(Default)]
pub struct Check {
    pub problems: Vec<Problem>,
}

impl Check {
    pub fn err_at(&mut self, s: &S, message: impl Into<String>, help: Option<String>) {
        self.problems.push(Problem {
            at: s.referenced,
            len: s.value.len(),
            whole: true,
            message: message.into(),
            help,
        });
    }

    pub fn err_loc(&mut self, at: Location, message: impl Into<String>, help: &str) {
        self.problems.push(Problem {
            at,
            len: 1,
            whole: false,
            message: message.into(),
            help: Some(help.to_string()),
        });
    }

    pub fn non_empty(&mut self, s: &S, what: &str) -> Option<String> {
        let v = s.value.trim();
        if v.is_empty() {
            self.err_at(
                s,
                format!("{what} is empty"),
                Some(format!("give a {what}")),
            );
            None
        } else {
            Some(v.to_string())
        }
    }

    pub fn checked(&mut self, s: &S, what: &str, ok: bool, expected: &str) -> Option<String> {
        let v = self.non_empty(s, what)?;
        if ok {
            Some(v)
        } else {
            self.err_at(
                s,
                format!("invalid {what} `{}`", s.value),
                Some(expected.to_string()),
            );
            None
        }
    }

    /// One of a closed set of spellings (`parse` gives the value of a valid one).
    pub fn one_of<T>(
        &mut self,
        s: &S,
        what: &str,
        parse: impl Fn(&str) -> Option<T>,
        all: impl std::fmt::Display,
    ) -> Option<T> {
        let v = parse(&s.value);
        if v.is_none() {
            self.err_at(
                s,
                format!("unknown {what} `{}`", s.value),
                Some(format!("expected one of {all}")),
            );
        }
        v
    }

    pub fn files(&mut self, list: &[S], context: &S) -> Option<Vec<FileKind>> {
        if list.is_empty() {
            self.err_at(
                context,
                "pattern has an empty `files` list",
                Some(format!("name the kinds of file: {}", file_kinds())),
            );
            return None;
        }
        let all = file_kinds();
        list.iter()
            .map(|f| self.one_of(f, "file kind", FileKind::parse, &all))
            .collect()
    }

    pub fn strings(&mut self, list: &[S], what: &str) -> Option<Vec<String>> {
        let mut out = Vec::new();
        for s in list {
            out.push(self.non_empty(s, what)?);
        }
        Some(out)
    }

    pub fn opt(&mut self, s: &Option<S>, what: &str) -> Option<Option<String>> {
        match s {
            None => Some(None),
            Some(s) => self.non_empty(s, what).map(Some),
        }
    }

    pub fn ident(&mut self, s: &S, what: &str, extra: &[char], expected: &str) -> Option<String> {
        let ok = is_ident(&s.value, extra);
        self.checked(s, what, ok, expected)
    }

    pub fn key_path(&mut self, s: &S) -> Option<Vec<String>> {
        let v = self.non_empty(s, "key path")?;
        let segs: Vec<String> = v.split('.').map(str::to_string).collect();
        if segs
            .iter()
            .any(|p| p.is_empty() || p.contains(char::is_whitespace))
            || segs.iter().all(|p| p.starts_with('*'))
            || segs
                .iter()
                .any(|p| p.starts_with('*') && p != "*" && p != "**")
        {
            self.err_at(
                s,
                format!("invalid key path `{v}`"),
                Some("a key path is dot-separated keys, e.g. `*.trigger.strategy` (`*` is any one key, `**` any number of keys)".into()),
            );
            return None;
        }
        Some(segs)
    }

    pub fn rest_path(&mut self, s: &S) -> Option<String> {
        let v = self.non_empty(s, "REST path")?;
        let ok = v.starts_with('/')
            && !v.contains(char::is_whitespace)
            && !v.starts_with("/api/")
            && v.len() > 1
            && v[1..].split('/').all(|seg| !seg.is_empty());
        if !ok {
            self.err_at(
                s,
                format!("invalid REST path `{v}`"),
                Some("a path starts with `/`, has no empty segment, no spaces, and leaves out the `/api/v4` prefix, e.g. `/projects/:id/ci/lint`".into()),
            );
            return None;
        }
        Some(v)
    }

    pub fn method(&mut self, s: &S) -> Option<Method> {
        let exact = |v: &str| Method::parse(v).filter(|m| m.as_str() == v);
        self.one_of(
            s,
            "HTTP method",
            exact,
            "GET, POST, PUT, PATCH, DELETE, HEAD",
        )
    }
}

fn file_kinds() -> String {
    FileKind::ALL
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Letters, digits, `_` and `extra`, not starting with a digit.
pub fn is_ident(s: &str, extra: &[char]) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || extra.contains(&c))
}

/// The fields of one pattern, read by its kind. Presence and applicability were checked
/// against the kind's schema before the kind reads them.
pub struct Fields<'r> {
    raw: &'r RawPattern,
    pub check: &'r mut Check,
}

impl<'r> Fields<'r> {
    pub fn new(raw: &'r RawPattern, check: &'r mut Check) -> Self {
        Self { raw, check }
    }

    /// The `kind` value, to point at when a problem concerns the whole pattern.
    pub fn kind(&self) -> &'r S {
        &self.raw.kind
    }

    fn get(&self, name: &str) -> Option<&'r Spanned<RawValue>> {
        self.raw
            .fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    fn wrong_type(&mut self, name: &str, v: &Spanned<RawValue>, takes: &str) {
        self.check.err_loc(
            v.referenced,
            format!("`{name}` takes {takes}"),
            &format!("write `{name}` as {takes}"),
        );
    }

    /// A single text field, if present (a boolean counts as its text).
    pub fn opt_text(&mut self, name: &str) -> Option<Option<S>> {
        let Some(v) = self.get(name) else {
            return Some(None);
        };
        let text = match &v.value {
            RawValue::Text(t) => t.clone(),
            RawValue::Bool(b) => b.to_string(),
            RawValue::List(_) => {
                self.wrong_type(name, v, "one value");
                return None;
            }
        };
        Some(Some(Spanned::new(text, v.referenced, v.defined)))
    }

    /// A required text field.
    pub fn text(&mut self, name: &str) -> Option<S> {
        self.opt_text(name).flatten()
    }

    /// A list field (empty if absent).
    pub fn list(&mut self, name: &str) -> Option<Vec<S>> {
        match self.get(name) {
            None => Some(Vec::new()),
            Some(v) => match &v.value {
                RawValue::List(l) => Some(l.clone()),
                _ => {
                    self.wrong_type(name, v, "a list");
                    None
                }
            },
        }
    }

    /// A boolean field (`false` if absent).
    pub fn flag(&mut self, name: &str) -> Option<bool> {
        match self.get(name) {
            None => Some(false),
            Some(v) => match &v.value {
                RawValue::Bool(b) => Some(*b),
                _ => {
                    self.wrong_type(name, v, "true or false");
                    None
                }
            },
        }
    }

    /// An optional non-empty text field (`replace_with`, `unless_sibling`).
    pub fn opt_non_empty(&mut self, name: &str) -> Option<Option<String>> {
        let s = self.opt_text(name)?;
        self.check.opt(&s, name)
    }

    /// The `values` a pattern may restrict its match to (empty: any value).
    pub fn values(&mut self) -> Option<Vec<String>> {
        let list = self.list("values")?;
        self.check.strings(&list, "value")
    }

    /// The `files` field: kinds of file, pointed at `context` when empty.
    pub fn files(&mut self, context: &S) -> Option<Vec<FileKind>> {
        let list = self.list("files")?;
        self.check.files(&list, context)
    }

    /// Every field that is present, with the position of its name (where known; else of its
    /// value: a list at its first element, an empty list at the pattern's kind).
    pub fn present(raw: &RawPattern) -> Vec<(&str, Location)> {
        raw.fields
            .iter()
            .enumerate()
            .map(|(i, (name, v))| {
                let value_at = match &v.value {
                    RawValue::List(l) => l.first().map_or(raw.kind.referenced, |s| s.referenced),
                    _ => v.referenced,
                };
                let at = raw.names_at.get(i).copied().unwrap_or(value_at);
                (name.as_str(), at)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patterns::Pattern;

    /// The problems of one pattern written in YAML: (line, column, message).
    fn problems(yaml: &str) -> Vec<(u32, u32, String)> {
        let raw: RawPattern = serde_saphyr::from_str(yaml).unwrap();
        let mut check = Check::default();
        let parsed = Pattern::parse(&raw, &mut check);
        assert_eq!(parsed.is_some(), check.problems.is_empty());
        check
            .problems
            .iter()
            .map(|p| (p.at.line() as u32, p.at.column() as u32, p.message.clone()))
            .collect()
    }

    #[test]
    fn fields_are_checked_where_written() {
        assert_eq!(problems("kind: variable\nname: X\nreplace_with: ~\n"), []);
        assert_eq!(
            problems("kind: variable\nname: X\nnmae: Y\n"),
            [(3, 1, "`nmae` does not apply to a `variable` pattern".into())]
        );
        assert_eq!(
            problems("kind: rest_endpoint\npath: /projects/:id\nprefix: \"yes\"\n"),
            [(3, 9, "`prefix` takes true or false".into())]
        );
        assert_eq!(
            problems("kind: yaml_key\npath: [a, b]\nfiles: [ci]\n"),
            [(2, 7, "`path` takes one value".into())]
        );
        assert_eq!(
            problems("kind: toml_key\ntable: runners\n"),
            [(1, 7, "a `toml_key` pattern needs `key`".into())]
        );
    }
}
