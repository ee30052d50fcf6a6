//! reviewdog rdjsonl: one diagnostic object per line; columns in UTF-8 bytes, end exclusive.

use std::io::{self, Write};

use serde_json::json;

use super::INFORMATION_URI;
use crate::scan::{Report, Severity};

pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for f in &report.findings {
        let (start_col, end_col) = (f.byte_column, f.end_byte_column);
        let mut message = format!("{} ({})", f.message, f.matched);
        if let Some(r) = &f.replacement {
            message.push_str(&format!(". Replacement: {r}"));
        }
        let mut d = json!({
            "message": message,
            "location": {
                "path": f.path,
                "range": {
                    "start": {"line": f.line, "column": start_col},
                    "end": {"line": f.end_line, "column": end_col},
                },
            },
            "severity": match f.severity {
                _ if f.context.is_test() => "INFO",
                Severity::Error => "ERROR",
                Severity::Warning => "WARNING",
                Severity::Info => "INFO",
            },
            "source": {"name": "uplint", "url": INFORMATION_URI},
            "code": {"value": f.id},
        });
        super::fixes::insert(&mut d, "suggestions", super::fixes::rdjsonl(f));
        out.write_all(
            serde_json::to_string(&d)
                .expect("diagnostics serialize")
                .as_bytes(),
        )?;
        writeln!(out)?;
    }
    Ok(())
}

pub fn render(report: &Report) -> String {
    super::to_string(|out| write(report, out))
}
