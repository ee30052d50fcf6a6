//! Markdown for a merge-request comment: a summary table, then findings grouped by the version
//! that removes them, each group folded when long.

use super::Context;
use crate::scan::Report;

pub(super) fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

const FOLD_AFTER: usize = 10;

pub fn render(report: &Report, ctx: &Context) -> String {
    let s = &report.summary;
    let mut out = String::from("### uplint: deprecations and removals\n\n");
    let window = match &ctx.current {
        Some(c) => format!("upgrade from **{c}** to **{}**", ctx.target),
        None => format!("target **{}**", ctx.target),
    };
    out.push_str(&format!(
        "{window}{}, {} files scanned\n\n",
        if ctx.api_v5 { ", REST API v5" } else { "" },
        s.files_scanned
    ));
    out.push_str("| | count |\n|---|---:|\n");
    out.push_str(&format!("| :x: removed | {} |\n", s.removed));
    out.push_str(&format!("| :warning: deprecated | {} |\n", s.deprecated));
    out.push_str(&format!(
        "| :arrows_counterclockwise: behaviour changes | {} |\n",
        s.behaviour_change
    ));
    if s.unused_suppression > 0 {
        out.push_str(&format!(
            "| unused suppressions | {} |\n",
            s.unused_suppression
        ));
    }
    if s.errors > 0 {
        out.push_str(&format!("| files with problems | {} |\n", s.errors));
    }
    out.push_str(&super::projects::markdown(report, ctx));
    if report.findings.is_empty() {
        out.push_str("\nNo findings.\n");
        return out;
    }
    for (version, findings) in super::by_version(report) {
        let label = match version.as_str() {
            v if v.starts_with('v') => format!("REST API {v}"),
            "" => "uplint".to_string(),
            v => v.to_string(),
        };
        out.push_str(&format!("\n#### {label} ({})\n\n", findings.len()));
        let folded = findings.len() > FOLD_AFTER;
        if folded {
            out.push_str("<details><summary>Show findings</summary>\n\n");
        }
        out.push_str("| file | rule | found | replacement |\n|---|---|---|---|\n");
        for f in &findings {
            out.push_str(&format!(
                "| `{}:{}` | `{}` | `{}` | {} |\n",
                cell(&f.path),
                f.line,
                f.id,
                cell(&f.matched).replace('`', "'"),
                cell(f.replacement.as_deref().unwrap_or("—"))
            ));
        }
        if folded {
            out.push_str("\n</details>\n");
        }
    }
    out
}
