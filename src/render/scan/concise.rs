//! Concise: one `path:line:col: severity id message` line per finding, for editors and hooks.
//! Every line stands alone, so output split into chunks (pre-commit) stays readable; names are
//! escaped (`crate::render::text`), so a finding is always one line.

use std::io::{self, Write};

use crate::render::text::escape_line as esc;
use crate::scan::Report;

pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for f in &report.findings {
        write!(
            out,
            "{}:{}:{}: {} {} {}",
            esc(&f.path),
            f.line,
            f.column,
            f.severity.as_str(),
            esc(&f.id),
            esc(&f.message)
        )?;
        if f.context.is_test() {
            write!(out, " [test]")?;
        }
        if let Some(r) = &f.replacement {
            write!(out, " (use: {})", esc(r))?;
        }
        writeln!(out)?;
    }
    for e in &report.errors {
        writeln!(out, "{}: error uplint-io {}", esc(&e.path), esc(&e.message))?;
    }
    Ok(())
}

pub fn render(report: &Report) -> String {
    super::to_string(|out| write(report, out))
}
