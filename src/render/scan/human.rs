//! Human: findings grouped by file, each with its source line and a caret under the match, the
//! removal version and the replacement; then a summary.

use super::Context;
use crate::scan::{Report, Severity};

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

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn render(report: &Report, ctx: &Context) -> String {
    let st = Style { on: ctx.color };
    let mut out = String::new();
    let mut last_path: Option<&str> = None;
    for f in &report.findings {
        if last_path != Some(f.path.as_str()) {
            if last_path.is_some() {
                out.push('\n');
            }
            out.push_str(&st.paint("1", &f.path));
            out.push('\n');
            last_path = Some(&f.path);
        }
        out.push_str(&format!(
            "  {}[{}] {}\n",
            st.sev(f.severity),
            st.paint("1", &f.id),
            f.message
        ));
        let num = f.line.to_string();
        let pad = " ".repeat(num.len());
        let line: String = f
            .source_line
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        out.push_str(&format!("  {pad} {}\n", st.paint("34", "|")));
        out.push_str(&format!(
            "  {} {} {}\n",
            st.paint("34", &num),
            st.paint("34", "|"),
            line
        ));
        let (start, end) = super::display_columns(f);
        let width = (end - start).max(1);
        out.push_str(&format!(
            "  {pad} {} {}{} {}\n",
            st.paint("34", "|"),
            " ".repeat(start - 1),
            st.paint("1;31", &"^".repeat(width)),
            f.matched
        ));
        if let Some(r) = &f.replacement {
            out.push_str(&format!(
                "  {pad} = {} {r}\n",
                st.paint("1", "replacement:")
            ));
        }
        out.push_str(&format!(
            "  {pad} = at {}:{}:{}\n",
            f.path, f.line, f.column
        ));
    }
    if !report.errors.is_empty() {
        if !report.findings.is_empty() {
            out.push('\n');
        }
        out.push_str(&st.paint("1", "Problems"));
        out.push('\n');
        for e in &report.errors {
            out.push_str(&format!("  {}: {}\n", e.path, e.message));
        }
    }
    let s = &report.summary;
    if !out.is_empty() {
        out.push('\n');
    }
    let window = match (&ctx.min_version, &ctx.current) {
        (Some(m), _) => format!("supported range {m} – {}", ctx.target),
        (None, Some(c)) => format!("upgrade {c} → {}", ctx.target),
        (None, None) => format!("target {}", ctx.target),
    };
    let api = if ctx.api_v5 { ", REST API v5" } else { "" };
    out.push_str(&format!(
        "{} ({window}{api}): {}",
        st.paint("1", "Summary"),
        plural(s.files_scanned, "file scanned", "files scanned")
    ));
    if let Some(t) = ctx.elapsed {
        out.push_str(&format!(" in {:.2}s", t.as_secs_f64()));
    }
    out.push('\n');
    out.push_str(&format!(
        "  {}: {} removed, {} deprecated, {} behaviour changes",
        plural(s.findings, "finding", "findings"),
        s.removed,
        s.deprecated,
        s.behaviour_change
    ));
    if s.unavailable > 0 {
        out.push_str(&format!(", {} unavailable", s.unavailable));
    }
    if s.invalid_call > 0 {
        out.push_str(&format!(", {} invalid calls", s.invalid_call));
    }
    if s.unused_suppression > 0 {
        out.push_str(&format!(", {} unused suppressions", s.unused_suppression));
    }
    out.push('\n');
    if s.suppressed > 0 {
        out.push_str(&format!("  {} suppressed\n", s.suppressed));
    }
    if let Some(b) = ctx.baseline {
        out.push_str(&format!(
            "  {} hidden by the baseline; {} no longer found (rewrite the baseline to drop {})\n",
            plural(b.hidden, "finding", "findings"),
            plural(b.gone, "baseline entry", "baseline entries"),
            if b.gone == 1 { "it" } else { "them" }
        ));
    }
    if s.before_current > 0 {
        out.push_str(&format!(
            "  {} left out: already removed at or before {}\n",
            plural(s.before_current, "finding", "findings"),
            ctx.current.as_deref().unwrap_or("?")
        ));
    }
    if s.files_skipped_binary > 0 {
        out.push_str(&format!(
            "  {} skipped\n",
            plural(s.files_skipped_binary, "binary file", "binary files")
        ));
    }
    if s.errors > 0 {
        out.push_str(&format!(
            "  {} (listed above)\n",
            plural(s.errors, "problem", "problems")
        ));
    }
    out
}
