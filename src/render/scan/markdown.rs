//! Markdown for a merge-request comment: a summary table, then findings grouped by the version
//! that removes them, each group folded when long.

use std::io::{self, Write};

use super::Context;
use crate::scan::Report;
use crate::version::Milestone;

pub(super) fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

const FOLD_AFTER: usize = 10;

pub fn write(report: &Report, ctx: &Context, out: &mut dyn Write) -> io::Result<()> {
    let s = &report.summary;
    out.write_all("### uplint: deprecations and removals\n\n".as_bytes())?;
    let window = match &ctx.current {
        Some(c) => format!("upgrade from **{c}** to **{}**", ctx.target),
        None => format!("target **{}**", ctx.target),
    };
    write!(
        out,
        "{window}{}, {} files scanned\n\n",
        if ctx.api_v5 { ", REST API v5" } else { "" },
        s.files_scanned
    )?;
    out.write_all("| | count |\n|---|---:|\n".as_bytes())?;
    writeln!(out, "| :x: removed | {} |", s.removed)?;
    writeln!(out, "| :warning: deprecated | {} |", s.deprecated)?;
    writeln!(
        out,
        "| :arrows_counterclockwise: behaviour changes | {} |",
        s.behaviour_change
    )?;
    if s.unused_suppression > 0 {
        writeln!(out, "| unused suppressions | {} |", s.unused_suppression)?;
    }
    if s.errors > 0 {
        writeln!(out, "| files with problems | {} |", s.errors)?;
    }
    out.write_all(super::projects::markdown(report, ctx).as_bytes())?;
    if report.findings.is_empty() {
        out.write_all("\nNo findings.\n".as_bytes())?;
        return Ok(());
    }
    for (version, findings) in super::by_version(report) {
        let label = match version {
            Some(Milestone::Api(v)) => format!("REST API {v}"),
            Some(v) => v.to_string(),
            None => "uplint".to_string(),
        };
        write!(out, "\n#### {label} ({})\n\n", findings.len())?;
        let folded = findings.len() > FOLD_AFTER;
        if folded {
            out.write_all("<details><summary>Show findings</summary>\n\n".as_bytes())?;
        }
        out.write_all("| file | rule | found | replacement |\n|---|---|---|---|\n".as_bytes())?;
        for f in &findings {
            writeln!(
                out,
                "| `{}:{}` | `{}` | `{}` | {} |",
                cell(&f.path),
                f.line,
                f.id,
                cell(&f.matched).replace('`', "'"),
                cell(f.replacement.as_deref().unwrap_or("—"))
            )?;
        }
        if folded {
            out.write_all("\n</details>\n".as_bytes())?;
        }
    }
    Ok(())
}

pub fn render(report: &Report, ctx: &Context) -> String {
    super::to_string(|out| write(report, ctx, out))
}
