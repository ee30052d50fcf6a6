//! Helm chart values: the key path at the root of a values file (a key may hold several steps of
//! the path, `rbac.create:`, as Terraform `set` blocks and helm-unittest `set:` maps write them),
//! `.Values.path` in a chart template (with values: only where the template compares it with
//! one of them, `eq .Values.path "value"`), and `--set path=value` (also `--set-string`,
//! `--set-file`) on a command line.

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind, key_path_anchor, key_path_literals, with_values, yaml_key};
use crate::syntax::yaml::{Doc, Key, Segment, path_matches};
use crate::syntax::{FileCtx, FileKind, is_ident_byte};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HelmValue {
    pub path: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_with: Option<String>,
}

impl PatternKind for HelmValue {
    const NAME: &'static str = "helm_value";
    const REQUIRED: &'static [&'static str] = &["path"];
    const OPTIONAL: &'static [&'static str] = &["values", "replace_with"];
    const MATCHES: &'static str = "a Helm values path, and `--set path=value`";

    fn parse(f: &mut Fields) -> Option<Self> {
        let values = f.values();
        let replace_with = f.opt_non_empty("replace_with");
        let raw_path = f.text("path")?;
        Some(HelmValue {
            path: f.check.key_path(&raw_path)?,
            values: values?,
            replace_with: replace_with?,
        })
    }

    fn anchor(&self) -> String {
        key_path_anchor(&self.path)
    }

    fn literals(&self) -> Vec<String> {
        key_path_literals(&self.path, &self.values)
    }

    fn renamed(&self) -> String {
        self.path.join(".")
    }

    fn replace_with(&self) -> Option<&str> {
        self.replace_with.as_deref()
    }

    fn written_forms(&self) -> Vec<String> {
        super::key_path_written_forms(&self.path, &self.values, self.describe())
    }

    fn describe(&self) -> String {
        with_values(format!("Helm value {}", self.path.join(".")), &self.values)
    }

    fn applies(&self, kind: FileKind) -> bool {
        matches!(kind, FileKind::Helm | FileKind::Shell | FileKind::Ci)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        let dotted = self.path.join(".");
        match ctx.src.class.kind {
            FileKind::Helm if is_template(ctx.src.path) => {
                template_refs(&dotted, &self.values, ctx)
            }
            FileKind::Helm => values_keys(ctx.yaml(), &self.path, &self.values),
            _ => set_flags(&dotted, &self.values, ctx),
        }
    }
}

/// A chart template: under `templates/`, but not a values file that another tool renders from
/// there (`templates/values.yaml.tpl`, an Ansible role's `templates/runner-values.yaml.j2`).
fn is_template(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    (path.starts_with("templates/") || path.contains("/templates/"))
        && !name.contains("values")
        && ![".j2", ".jinja2", ".jinja", ".erb"]
            .iter()
            .any(|e| name.ends_with(e))
}

/// The values path of a key: its key path with dotted keys split into their steps; in a
/// helm-unittest suite, the keys below `tests[].set`. `None`: not a values key.
fn values_path(doc: &Doc, key: &Key, unittest: bool) -> Option<Vec<Segment>> {
    let mut path = doc.path(key).into_iter();
    if unittest {
        match (path.next(), path.next(), path.next()) {
            (Some(Segment::Key(t)), Some(Segment::Item), Some(Segment::Key(s)))
                if t == "tests" && s == "set" => {}
            _ => return None,
        }
    }
    let mut out = Vec::new();
    for seg in path {
        match seg {
            Segment::Key(k) => out.extend(k.split('.').map(|p| Segment::Key(p.to_string()))),
            Segment::Item => out.push(Segment::Item),
        }
    }
    Some(out)
}

/// The keys of a values file at the pattern's path, with the value condition.
fn values_keys(doc: &Doc, path: &[String], values: &[String]) -> Vec<Hit> {
    let last = key_path_anchor(path);
    let unittest = doc
        .keys
        .iter()
        .any(|k| k.name == "suite" && doc.path(k).len() == 1);
    let shown = path.join(".");
    let mut out = Vec::new();
    for key in &doc.keys {
        if !key.name.ends_with(last.as_str()) {
            continue;
        }
        let Some(vpath) = values_path(doc, key, unittest) else {
            continue;
        };
        if !path_matches(path, &vpath.iter().collect::<Vec<_>>()) {
            continue;
        }
        if values.is_empty() {
            out.push(Hit::new(key.start, key.end, shown.clone()));
        } else if let Some((s, e, v)) = yaml_key::value_hit(key, values) {
            out.push(Hit::new(s, e, format!("{shown}: {v}")));
        }
    }
    out
}

/// `.Values.a.b` references in a chart template (inside `{{ }}`). With values, only a
/// reference compared with one of them counts: `eq .Values.a.b "v"` or `eq "v" .Values.a.b`
/// (`ne` too); a template that reads the value says nothing about what it is set to.
fn template_refs(dotted: &str, values: &[String], ctx: &FileCtx) -> Vec<Hit> {
    let needle = format!(".Values.{dotted}");
    let text = ctx.src.text;
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, needle.as_bytes())
        .filter(|&at| {
            let end = at + needle.len();
            b.get(end).is_none_or(|&c| !is_ident_byte(c) && c != b'-')
                && (at == 0 || !is_ident_byte(b[at - 1]))
                && !ctx.src.in_comment(at)
                && (values.is_empty() || compared_only_with(values, &needle, text, at))
        })
        .map(|at| Hit::new(at + 8, at + needle.len(), dotted))
        .collect()
}

/// Is the reference at `at` compared with one of `values`, and is the same reference compared
/// with nothing else in its action? `(or (eq .Values.x "sidekiq") (eq .Values.x "webhook"))` is a
/// chart's own check of the allowed values, not a use of one.
fn compared_only_with(values: &[String], needle: &str, text: &str, at: usize) -> bool {
    let compared = |k: usize| compared_with(&text[..k], &text[k + needle.len()..]);
    if !compared(at).is_some_and(|v| values.contains(&v)) {
        return false;
    }
    let b = text.as_bytes();
    let open = memchr::memmem::rfind(&b[..at], b"{{").unwrap_or(0);
    let close = memchr::memmem::find(&b[at..], b"}}").map_or(b.len(), |k| at + k);
    memchr::memmem::find_iter(&b[open..close], needle.as_bytes())
        .filter_map(|k| compared(open + k))
        .all(|v| values.contains(&v))
}

/// The string a template reference is compared with by `eq`/`ne`, from the text before and
/// after it: `eq REF "v"` or `eq "v" REF`.
fn compared_with(before: &str, after: &str) -> Option<String> {
    fn is_comparison(s: &str) -> bool {
        let s = s.trim_end();
        let s = s.trim_end_matches('$');
        ["eq", "ne"].iter().any(|op| {
            s.strip_suffix(op)
                .is_some_and(|r| r.ends_with([' ', '(', '{', '-', '\t']))
        })
    }
    // The reference's own root: `$.Values` or `.Values`.
    let before = before.strip_suffix('$').unwrap_or(before);
    if let Some(rest) = after.trim_start_matches([' ', '\t']).strip_prefix('"') {
        let v = &rest[..rest.find('"')?];
        if is_comparison(before) {
            return Some(v.to_string());
        }
    }
    let quoted = before.trim_end().strip_suffix('"')?;
    let open = quoted.rfind('"')?;
    is_comparison(&quoted[..open]).then(|| quoted[open + 1..].to_string())
}

/// `--set a.b=v,c=d` and its variants, in scripts and CI files.
fn set_flags(dotted: &str, values: &[String], ctx: &FileCtx) -> Vec<Hit> {
    let text = ctx.src.text;
    let b = text.as_bytes();
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(b, b"--set") {
        if ctx.src.in_comment(at) {
            continue;
        }
        let mut i = at + 5;
        for suffix in ["-string", "-file", "-json", "-literal"] {
            if text[i..].starts_with(suffix) {
                i += suffix.len();
                break;
            }
        }
        match b.get(i) {
            Some(b' ' | b'=' | b'\t') => i += 1,
            _ => continue,
        }
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        let quote = match b.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                i += 1;
                Some(q)
            }
            _ => None,
        };
        // The assignments run to the end of the word.
        let end = text[i..]
            .find(|c: char| match quote {
                Some(q) => c == q as char || c == '\n',
                None => c.is_whitespace() || c == ';' || c == '"' || c == '\'',
            })
            .map_or(text.len(), |j| i + j);
        let mut pos = i;
        for assignment in text[i..end].split(',') {
            if let Some((key, value)) = assignment.split_once('=')
                && key == dotted
                && (values.is_empty() || values.iter().any(|v| v == value))
            {
                out.push(Hit::new(pos, pos + key.len(), dotted));
            }
            pos += assignment.len() + 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_in_templates() {
        let c = |t: &str| {
            let at = t.find(".Values.x").unwrap();
            compared_with(&t[..at], &t[at + 9..])
        };
        assert_eq!(c(r#"{{ if (eq .Values.x "webhook") }}"#), Some("webhook".into()));
        assert_eq!(c(r#"{{ if eq $.Values.x "sidekiq" }}"#), Some("sidekiq".into()));
        assert_eq!(c(r#"{{ if ne "sidekiq" .Values.x }}"#), Some("sidekiq".into()));
        assert_eq!(c(r#"{{ .Values.x | quote }}"#), None);
        assert_eq!(c(r#"{{ printf "%s" .Values.x }}"#), None);
        assert_eq!(c(r#"{{ default "sidekiq" .Values.x }}"#), None);
    }

    #[test]
    fn a_check_of_the_allowed_values_is_no_use() {
        let v = ["sidekiq".to_string()];
        let n = ".Values.x";
        let only = |t: &str| compared_only_with(&v, n, t, t.find(n).unwrap());
        assert!(only(r#"{{ if eq .Values.x "sidekiq" }}a{{ else if eq .Values.x "webhook" }}"#));
        assert!(!only(r#"{{ if not (or (eq $.Values.x "sidekiq") (eq $.Values.x "webhook")) }}"#));
        assert!(!only(r#"{{ if eq .Values.x "webhook" }}"#));
    }
}
