//! Concise: one `path:line:col: severity id message` line per finding, for editors and hooks.
//! Every line stands alone, so output split into chunks (pre-commit) stays readable.

use crate::scan::Report;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for f in &report.findings {
        out.push_str(&format!(
            "{}:{}:{}: {} {} {}",
            f.path,
            f.line,
            f.column,
            f.severity.as_str(),
            f.id,
            f.message
        ));
        if let Some(r) = &f.replacement {
            out.push_str(&format!(" (use: {r})"));
        }
        out.push('\n');
    }
    for e in &report.errors {
        out.push_str(&format!("{}: error uplint-io {}\n", e.path, e.message));
    }
    out
}
