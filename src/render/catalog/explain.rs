//! `uplint explain`: everything about one entry, as text.

use super::removed_text;
use crate::catalog::model::Endpoint;
use crate::catalog::{Change, Entry};

/// The width of the label column: the longest label (`introduced in:`, `deprecated in:`) and a
/// space, so that every value starts in the same column.
const LABEL_WIDTH: usize = "introduced in:".len() + 1;

pub fn render(e: &Entry) -> String {
    let mut out = format!("{}: {}\n\n", e.id, e.title);
    let mut field = |name: &str, value: String| {
        out.push_str(&format!(
            "  {:<LABEL_WIDTH$}{}\n",
            format!("{name}:"),
            value
        ));
    };
    field("surface", e.surface.as_str().to_string());
    field("change", e.change.as_str().to_string());
    if let Some(v) = e.introduced_in {
        field("introduced in", v.to_string());
    }
    if let Some(v) = e.deprecated_in {
        field("deprecated in", v.to_string());
    }
    if e.removed_in.is_some() {
        field("removed in", removed_text(e));
    }
    if let Some(b) = e.breaking {
        field("breaking", if b { "yes" } else { "no" }.to_string());
    }
    if let Some(r) = e.replacement_text() {
        field("replacement", r);
    }
    if let Some(n) = &e.notes {
        field("notes", n.clone());
    }
    if let Some(emptied) = &e.emptied {
        field("emptied", emptied.to_string());
    }
    for r in &e.related {
        field("related", format!("{}: {}", r.id, r.relation));
    }
    for ep in &e.endpoints {
        field("endpoint", endpoint_line(ep));
    }
    if e.detectable {
        out.push_str("\n  detected as:\n");
        for p in &e.patterns {
            out.push_str(&format!("    - {}\n", p.describe()));
        }
    } else {
        out.push_str("\n  not detectable: no file shows this item\n");
    }
    out.push_str(&fix_examples(e));
    if let Some(rule) = crate::fix::explain(e) {
        out.push_str(&format!("\n  fix (uplint scan --fix): {rule}\n"));
    }
    out.push_str(&format!(
        "\n  source: {} (spec: {})\n",
        e.source,
        e.spec.join("; ")
    ));
    out
}

/// One endpoint of an entry: method, path, its parameters and what else the schedule says.
fn endpoint_line(ep: &Endpoint) -> String {
    let params: Vec<String> = ep
        .params
        .iter()
        .map(|p| {
            format!(
                "{} ({}, {}{})",
                p.name,
                p.location,
                p.ty,
                if p.required { ", required" } else { "" }
            )
        })
        .collect();
    let mut s = format!("{} /api/v4{}", ep.method.as_str(), ep.path);
    if !params.is_empty() {
        s.push_str(&format!(": {}", params.join("; ")));
    }
    if ep.no_body {
        s.push_str("; no body fields");
    }
    if let Some(role) = &ep.role {
        s.push_str(&format!("; role {role}"));
    }
    s
}

/// The mechanical replacements of an entry as before/after examples: renames and moves, and
/// fields replaced by their negation; empty when there are none.
fn fix_examples(e: &Entry) -> String {
    let renames: Vec<(String, String)> = e
        .patterns
        .iter()
        .filter_map(|p| {
            p.rename()
                .map(|(old, new)| (old, new.to_string()))
                .or_else(|| {
                    crate::fix::inverted(p)
                        .map(|(old, new)| (old, format!("{new} (the negated value)")))
                })
        })
        .collect();
    if renames.is_empty() {
        return String::new();
    }
    // What the fix does, in the words of the fix's rule below: a rename only where the
    // schedule lists the item as renamed; elsewhere a replacement, and unsafe.
    let what = if e.change == Change::Renamed {
        "rename"
    } else {
        "replacement"
    };
    let mut out = format!("\n  example (machine-applicable {what}):\n");
    for (before, after) in renames {
        out.push_str(&format!("    - before: {before}\n      after:  {after}\n"));
    }
    out
}
