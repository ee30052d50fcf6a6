//! Markdown for a merge-request comment: a summary table, then findings grouped by the version
//! that removes them, each group folded when long. Names from the scanned tree are escaped so
//! that nothing in them is read as Markdown or HTML (`code_span`, `inline`).

use std::io::{self, Write};

use super::Context;
use crate::scan::{Finding, Report};
use crate::version::Milestone;

/// Text of the data (a replacement) in a table cell: pipes escaped, line breaks as spaces.
pub(super) fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Text from the scanned tree (a file or project name, matched text) as a code span in a table
/// cell, shown as it is: controls escaped as in every line-based format, pipes escaped for the
/// table (GFM unescapes them inside code spans too), and delimited by a run of backticks longer
/// than any inside, padded with a space when it starts or ends with a backtick or a space.
pub(super) fn code_span(s: &str) -> String {
    let text = crate::render::text::escape_line(s).replace('|', "\\|");
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Text from the scanned tree as plain Markdown text (a link's text, a heading): controls
/// escaped as in every line-based format, then every ASCII punctuation character but `/`, `-`
/// and `.` (which mean something only at the start of a line) backslash-escaped, so that
/// nothing in it is markup, HTML, an entity, a link or a reference.
pub(super) fn inline(s: &str) -> String {
    let text = crate::render::text::escape_line(s);
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_ascii_punctuation() && !matches!(c, '/' | '-' | '.') {
            out.push('\\');
        }
        out.push(c);
    }
    out
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
    if s.test > 0 {
        writeln!(
            out,
            "| of them in tests (not counted by --fail-on) | {} |",
            s.test
        )?;
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
        // Production first, then the tests' (each marked).
        let (production, tests): (Vec<&&Finding>, Vec<&&Finding>) =
            findings.iter().partition(|f| !f.context.is_test());
        for f in production.into_iter().chain(tests) {
            writeln!(
                out,
                "| {}{} | {} | {} | {} |",
                code_span(&format!("{}:{}", f.path, f.line)),
                if f.context.is_test() { " (test)" } else { "" },
                code_span(&f.id),
                code_span(&f.matched),
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
