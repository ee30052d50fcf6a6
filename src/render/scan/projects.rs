//! The per-project view of a merge of several projects, for the HTML and Markdown audits: a
//! table of the projects by removed and deprecated counts, each linking to its findings. Empty
//! for the report of one project.

use std::collections::{HashMap, HashSet};

use super::markdown::{cell, code_span, inline};
use super::{Context, escape_xml as esc};
use crate::fleet::ProjectTotals;
use crate::scan::{Finding, Report};

/// The projects, most removed first, then most deprecated, then by name; with their anchors.
fn ranked(ctx: &Context) -> Vec<(String, &ProjectTotals)> {
    let mut list: Vec<&ProjectTotals> = ctx.projects.iter().collect();
    list.sort_by(|a, b| {
        (b.removed, b.deprecated, &a.name).cmp(&(a.removed, a.deprecated, &b.name))
    });
    list.into_iter()
        .enumerate()
        .map(|(i, p)| (format!("project-{}", i + 1), p))
        .collect()
}

/// The findings of each project: paths of a merge start with the project's name, and the longest
/// name that prefixes a path is its project.
fn by_project<'a>(report: &'a Report, ctx: &'a Context) -> HashMap<&'a str, Vec<&'a Finding>> {
    let names: HashSet<&str> = ctx.projects.iter().map(|p| p.name.as_str()).collect();
    let mut out: HashMap<&str, Vec<&Finding>> = HashMap::new();
    for f in &report.findings {
        let owner = f
            .path
            .match_indices('/')
            .map(|(i, _)| &f.path[..i])
            .rev()
            .find(|prefix| names.contains(prefix));
        if let Some(name) = owner {
            out.entry(name).or_default().push(f);
        }
    }
    out
}

/// The HTML table of projects.
pub fn html_table(ctx: &Context) -> String {
    if ctx.projects.len() < 2 {
        return String::new();
    }
    let mut h = String::from(
        "<h2>Projects</h2>\n<table class=\"projects\">\n<tr><th>project</th><th>removed</th><th>deprecated</th><th>behaviour changes</th><th>findings</th><th>files scanned</th><th>problems</th></tr>\n",
    );
    for (anchor, p) in ranked(ctx) {
        h.push_str(&format!(
            "<tr><td><a href=\"#{anchor}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            esc(&p.name),
            p.removed,
            p.deprecated,
            p.behaviour_change,
            p.findings,
            p.files_scanned,
            p.errors
        ));
    }
    h.push_str("</table>\n");
    h
}

/// Each project's findings in HTML, under the anchor its table row links to.
pub fn html_sections(report: &Report, ctx: &Context) -> String {
    let mut h = String::new();
    if ctx.projects.len() < 2 {
        return h;
    }
    let by_project = by_project(report, ctx);
    for (anchor, p) in ranked(ctx) {
        let findings = by_project.get(p.name.as_str()).cloned().unwrap_or_default();
        h.push_str(&format!(
            "<section class=\"project\" id=\"{anchor}\"><h2>Project {} <span class=\"muted\">({})</span></h2>\n",
            esc(&p.name),
            findings.len()
        ));
        if !findings.is_empty() {
            h.push_str("<table>\n<tr><th>place</th><th>finding</th><th>removed in</th><th>replacement</th></tr>\n");
        }
        for f in &findings {
            h.push_str(&format!(
                "<tr><td><code>{}:{}:{}</code></td><td><code>{}</code> {}</td><td>{}</td><td>{}</td></tr>\n",
                esc(&crate::render::text::escape_line(&f.path)),
                f.line,
                f.column,
                esc(&f.id),
                esc(&f.message),
                esc(&f.removed_in.map_or_else(|| "—".to_string(), |m| m.to_string())),
                esc(f.replacement.as_deref().unwrap_or("—"))
            ));
        }
        if !findings.is_empty() {
            h.push_str("</table>\n");
        }
        h.push_str("</section>\n");
    }
    h
}

/// A heading's anchor as GitLab (and GitHub) make it: lower case, punctuation dropped, spaces
/// as hyphens.
fn heading_anchor(text: &str) -> String {
    let mut out = String::new();
    for c in text.to_lowercase().chars() {
        if c.is_alphanumeric() || c == '_' || c == '-' {
            out.push(c);
        } else if c == ' ' && !out.ends_with('-') {
            out.push('-');
        }
    }
    out
}

/// The Markdown view: the table of projects, then each project's findings under a heading.
pub fn markdown(report: &Report, ctx: &Context) -> String {
    if ctx.projects.len() < 2 {
        return String::new();
    }
    let mut out = String::from(
        "\n#### Projects\n\n| project | removed | deprecated | behaviour changes | findings | files scanned |\n|---|---:|---:|---:|---:|---:|\n",
    );
    let ranked = ranked(ctx);
    for (_, p) in &ranked {
        out.push_str(&format!(
            "| [{}](#{}) | {} | {} | {} | {} | {} |\n",
            inline(&p.name),
            heading_anchor(&format!("project {}", p.name)),
            p.removed,
            p.deprecated,
            p.behaviour_change,
            p.findings,
            p.files_scanned
        ));
    }
    let by_project = by_project(report, ctx);
    for (_, p) in &ranked {
        let findings = by_project.get(p.name.as_str()).cloned().unwrap_or_default();
        out.push_str(&format!("\n#### project {}\n\n", inline(&p.name)));
        if findings.is_empty() {
            out.push_str("No findings.\n");
            continue;
        }
        out.push_str("| file | rule | status | replacement |\n|---|---|---|---|\n");
        for f in findings {
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                code_span(&format!("{}:{}", f.path, f.line)),
                code_span(&f.id),
                f.status.as_str(),
                cell(f.replacement.as_deref().unwrap_or("—"))
            ));
        }
    }
    out
}
