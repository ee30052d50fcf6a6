//! Human: findings grouped by file, each with its source line and a caret under the match, the
//! removal version and the replacement; then a summary.

use std::io::{self, Write};

use super::Context;
use crate::render::plural;
use crate::render::text::escape_line as esc;
use crate::scan::{Finding, Report, Severity};

struct Style {
    on: bool,
}

impl Style {
    fn paint(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn sev(&self, sev: Severity) -> String {
        match sev {
            Severity::Error => self.paint("1;31", "error"),
            Severity::Warning => self.paint("1;33", "warning"),
            Severity::Info => self.paint("1;36", "info"),
        }
    }
}

pub fn write(report: &Report, ctx: &Context, out: &mut dyn Write) -> io::Result<()> {
    let st = Style { on: ctx.color };
    let mut last_path: Option<&str> = None;
    let shown = |f: &&Finding| ctx.tests_in_full || !f.context.is_test();
    for f in report.findings.iter().filter(shown) {
        if last_path != Some(f.path.as_str()) {
            if last_path.is_some() {
                writeln!(out)?;
            }
            writeln!(out, "{}", st.paint("1", &esc(&f.path)))?;
            last_path = Some(&f.path);
        }
        finding(f, &st, out)?;
    }
    let tests = if ctx.tests_in_full {
        Vec::new()
    } else {
        super::tests_per_file(report)
    };
    if !tests.is_empty() {
        if last_path.is_some() {
            writeln!(out)?;
        }
        writeln!(out, "{}", st.paint("1", "Tests"))?;
        for (path, n) in &tests {
            let what = plural(*n, "test finding", "test findings");
            writeln!(out, "  {}: {what} (see --tests include)", esc(path))?;
        }
    }
    if !report.errors.is_empty() {
        if last_path.is_some() || !tests.is_empty() {
            writeln!(out)?;
        }
        writeln!(out, "{}", st.paint("1", "Problems"))?;
        for e in &report.errors {
            writeln!(out, "  {}: {}", esc(&e.path), esc(&e.message))?;
        }
    }
    if !report.findings.is_empty() || !report.errors.is_empty() {
        writeln!(out)?;
    }
    summary(report, ctx, &st, out)
}

/// One finding: its message, its source line with a caret under the match, the replacement.
fn finding(f: &Finding, st: &Style, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "  {}[{}] {}",
        st.sev(f.severity),
        st.paint("1", &esc(&f.id)),
        esc(&f.message)
    )?;
    let num = f.line.to_string();
    let pad = " ".repeat(num.len());
    let (line, start, width) = source_line(f);
    writeln!(out, "  {pad} {}", st.paint("34", "|"))?;
    writeln!(
        out,
        "  {} {} {}",
        st.paint("34", &num),
        st.paint("34", "|"),
        line
    )?;
    writeln!(
        out,
        "  {pad} {} {}{} {}",
        st.paint("34", "|"),
        " ".repeat(start),
        st.paint("1;31", &"^".repeat(width)),
        esc(&f.matched)
    )?;
    if let Some(r) = &f.replacement {
        writeln!(
            out,
            "  {pad} = {} {}",
            st.paint("1", "replacement:"),
            esc(r)
        )?;
    }
    if let Some(fix) = &f.fix {
        let text = super::fixes::summary(fix);
        writeln!(out, "  {pad} = {} {}", st.paint("1", "fix:"), esc(&text))?;
    }
    writeln!(out, "  {pad} = at {}:{}:{}", esc(&f.path), f.line, f.column)
}

/// The source line as shown (tabs as spaces, controls escaped), with the 0-based column of the
/// match in it and the caret's width.
fn source_line(f: &Finding) -> (String, usize, usize) {
    let chars: Vec<char> = f
        .source_line
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let (a, b) = super::display_columns(f);
    if !chars.iter().copied().any(crate::render::text::escaped) {
        return (chars.into_iter().collect(), a - 1, (b - a).max(1));
    }
    let start = (a - 1).min(chars.len());
    let end = (b - 1).clamp(start, chars.len());
    let part = |x: usize, y: usize| esc(&chars[x..y].iter().collect::<String>()).into_owned();
    let (before, matched, after) = (part(0, start), part(start, end), part(end, chars.len()));
    let col = before.chars().count();
    let width = matched.chars().count().max(1);
    (before + &matched + &after, col, width)
}

/// The summary: the version window, counts per status, what was left out.
fn summary(report: &Report, ctx: &Context, st: &Style, out: &mut dyn Write) -> io::Result<()> {
    let s = &report.summary;
    let window = match (&ctx.min_version, &ctx.current) {
        (Some(m), _) => format!("supported range {m} – {}", ctx.target),
        (None, Some(c)) => format!("upgrade {c} → {}", ctx.target),
        (None, None) => format!("target {}", ctx.target),
    };
    let api = if ctx.api_v5 { ", REST API v5" } else { "" };
    write!(
        out,
        "{} ({window}{api}): {}",
        st.paint("1", "Summary"),
        plural(s.files_scanned, "file scanned", "files scanned")
    )?;
    if let Some(t) = ctx.elapsed {
        write!(out, " in {:.2}s", t.as_secs_f64())?;
    }
    writeln!(out)?;
    write!(
        out,
        "  {}: {} removed, {} deprecated, {}",
        plural(s.findings, "finding", "findings"),
        s.removed,
        s.deprecated,
        plural(s.behaviour_change, "behaviour change", "behaviour changes")
    )?;
    if s.unavailable > 0 {
        write!(out, ", {} unavailable", s.unavailable)?;
    }
    if s.invalid_call > 0 {
        write!(
            out,
            ", {}",
            plural(s.invalid_call, "invalid call", "invalid calls")
        )?;
    }
    if s.unused_suppression > 0 {
        let n = s.unused_suppression;
        write!(
            out,
            ", {}",
            plural(n, "unused suppression", "unused suppressions")
        )?;
    }
    if s.test > 0 {
        write!(out, ", {} of them in tests", s.test)?;
    }
    writeln!(out)?;
    if s.suppressed > 0 {
        writeln!(out, "  {} suppressed", s.suppressed)?;
    }
    if let Some(b) = ctx.baseline {
        writeln!(
            out,
            "  {} hidden by the baseline; {} no longer found (rewrite the baseline to drop {})",
            plural(b.hidden, "finding", "findings"),
            plural(b.gone, "baseline entry", "baseline entries"),
            if b.gone == 1 { "it" } else { "them" }
        )?;
    }
    if s.before_current > 0 {
        writeln!(
            out,
            "  {} left out: already removed at or before {}",
            plural(s.before_current, "finding", "findings"),
            ctx.current
                .map_or_else(|| "?".to_string(), |c| c.to_string())
        )?;
    }
    if s.files_skipped_binary > 0 {
        writeln!(
            out,
            "  {} skipped",
            plural(s.files_skipped_binary, "binary file", "binary files")
        )?;
    }
    if s.errors > 0 {
        writeln!(
            out,
            "  {} (listed above)",
            plural(s.errors, "problem", "problems")
        )?;
    }
    Ok(())
}

pub fn render(report: &Report, ctx: &Context) -> String {
    super::to_string(|out| write(report, ctx, out))
}
