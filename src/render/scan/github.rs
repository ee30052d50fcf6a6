//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`.

use std::io::{self, Write};

use crate::scan::{Report, Severity};

/// Escape a message: `%`, CR and LF.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a parameter value: as a message, plus `:` and `,`.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for f in &report.findings {
        let kind = match f.severity {
            _ if f.context.is_test() => "notice",
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut message = format!("{} ({})", f.message, f.matched);
        if let Some(r) = &f.replacement {
            message.push_str(&format!("\nReplacement: {r}"));
        }
        if f.context.is_test() {
            message.push_str("\n[test]");
        }
        writeln!(
            out,
            "::{kind} file={},line={},endLine={},col={},endColumn={},title={}::{}",
            property(&f.path),
            f.line,
            f.end_line,
            f.column,
            f.end_column,
            property(&format!("uplint {}", f.id)),
            data(&message)
        )?;
    }
    Ok(())
}

pub fn render(report: &Report) -> String {
    super::to_string(|out| write(report, out))
}

#[cfg(test)]
mod tests {
    #[test]
    fn escaping() {
        assert_eq!(super::data("50%\r\nx"), "50%25%0D%0Ax");
        assert_eq!(super::property("a:b,c"), "a%3Ab%2Cc");
    }
}
