//! Helm chart values: the key path at the root of a values file, `.Values.path` in a chart
//! template, and `--set path=value` (also `--set-string`, `--set-file`) on a command line.

use super::{FileCtx, Hit, is_ident_byte, yaml_key};
use crate::catalog::FileKind;

pub fn detect(path: &[String], values: &[String], ctx: &FileCtx) -> Vec<Hit> {
    let dotted = path.join(".");
    match ctx.src.class.kind {
        FileKind::Helm if is_template(ctx.src.path) => template_refs(&dotted, ctx),
        FileKind::Helm => yaml_key::matching_keys(ctx.yaml(), path, values, None)
            .into_iter()
            .map(|(s, e, m)| Hit::new(s, e, m))
            .collect(),
        _ => set_flags(&dotted, values, ctx),
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
