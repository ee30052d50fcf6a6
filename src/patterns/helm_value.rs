//! Helm chart values: the key path at the root of a values file, `.Values.path` in a chart
//! template, and `--set path=value` (also `--set-string`, `--set-file`) on a command line.

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind, key_path_anchor, key_path_literals, with_values, yaml_key};
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
            FileKind::Helm if is_template(ctx.src.path) => template_refs(&dotted, ctx),
            FileKind::Helm => yaml_key::key_hits(ctx.yaml(), &self.path, &self.values, None),
            _ => set_flags(&dotted, &self.values, ctx),
        }
    }
}

fn is_template(path: &str) -> bool {
    path.starts_with("templates/") || path.contains("/templates/")
}

/// `.Values.a.b` references in a chart template (inside `{{ }}`).
fn template_refs(dotted: &str, ctx: &FileCtx) -> Vec<Hit> {
    let needle = format!(".Values.{dotted}");
    let b = ctx.src.text.as_bytes();
    memchr::memmem::find_iter(b, needle.as_bytes())
        .filter(|&at| {
            b.get(at + needle.len())
                .is_none_or(|&c| !is_ident_byte(c) && c != b'-')
                && (at == 0 || !is_ident_byte(b[at - 1]))
                && !ctx.src.in_comment(at)
        })
        .map(|at| Hit::new(at + 8, at + needle.len(), dotted))
        .collect()
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
