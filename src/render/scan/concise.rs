//! Concise: one `path:line:col: severity id message` line per finding, for editors and hooks.
//! Every line stands alone, so output split into chunks (pre-commit) stays readable.

use std::io::{self, Write};

use crate::scan::Report;

pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for f in &report.findings {
        write!(
            out,
            "{}:{}:{}: {} {} {}",
            f.path,
            f.line,
            f.column,
            f.severity.as_str(),
            f.id,
            f.message
        )?;
        if let Some(r) = &f.replacement {
            write!(out, " (use: {r})")?;
        }
        writeln!(out)?;
    }
    for e in &report.errors {
        writeln!(out, "{}: error uplint-io {}", e.path, e.message)?;
    }
    Ok(())
}

pub fn render(report: &Report) -> String {
    super::to_string(|out| write(report, out))
}
