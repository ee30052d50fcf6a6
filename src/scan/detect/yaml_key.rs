//! YAML key paths (`*.trigger.strategy: depend`), on the parsed structure: a key counts only at
//! its path, so `strategy:` elsewhere or in a comment is not a finding.

use super::{FileCtx, Hit};
use crate::scan::yaml::{self, Doc, Key, Value};

/// The matched value of a key, if `values` asks for one: its byte range and text.
fn value_hit<'d>(key: &'d Key, values: &[String]) -> Option<(usize, usize, &'d str)> {
    match &key.value {
        Value::Scalar(s) if values.contains(&s.text) => Some((key.start, s.end, &s.text)),
        Value::Sequence(items) => items
            .iter()
            .find(|s| values.contains(&s.text))
            .map(|s| (s.start, s.end, s.text.as_str())),
        _ => None,
    }
}

/// Keys of `doc` at `path` (anchored at the root), with the value and sibling conditions.
pub fn matching_keys(
    doc: &Doc,
    path: &[String],
    values: &[String],
    unless_sibling: Option<&str>,
) -> Vec<(usize, usize, String)> {
    let last = path.last().map(String::as_str).unwrap_or("*");
    let shown: Vec<&str> = path
        .iter()
        .map(String::as_str)
        .filter(|s| !s.starts_with('*'))
        .collect();
    let shown = shown.join(".");
    let mut out = Vec::new();
    for key in &doc.keys {
        if last != "*" && last != "**" && key.name != last {
            continue;
        }
        if !yaml::path_matches(path, &doc.path(key)) {
            continue;
        }
        if let Some(sib) = unless_sibling
            && doc.sibling(key.mapping, sib).is_some()
        {
            continue;
        }
        if values.is_empty() {
            out.push((key.start, key.end, shown.clone()));
        } else if let Some((s, e, v)) = value_hit(key, values) {
            out.push((s, e, format!("{shown}: {v}")));
        }
    }
    out
}

pub fn detect(
    path: &[String],
    values: &[String],
    unless_sibling: Option<&str>,
    ctx: &FileCtx,
) -> Vec<Hit> {
    if !ctx.is_yaml() {
        return Vec::new();
    }
    matching_keys(ctx.yaml(), path, values, unless_sibling)
        .into_iter()
        .map(|(s, e, m)| Hit::new(s, e, m))
        .collect()
}
