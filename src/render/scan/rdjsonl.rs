//! reviewdog rdjsonl: one diagnostic object per line; columns in UTF-8 bytes, end exclusive.

use serde_json::json;

use super::INFORMATION_URI;
use crate::scan::{Report, Severity};

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for f in &report.findings {
        let (start_col, end_col) = (f.byte_column, f.end_byte_column);
        let mut message = format!("{} ({})", f.message, f.matched);
        if let Some(r) = &f.replacement {
            message.push_str(&format!(". Replacement: {r}"));
        }
        let d = json!({
            "message": message,
            "location": {
                "path": f.path,
                "range": {
                    "start": {"line": f.line, "column": start_col},
                    "end": {"line": f.end_line, "column": end_col},
                },
            },
            "severity": match f.severity {
                Severity::Error => "ERROR",
                Severity::Warning => "WARNING",
                Severity::Info => "INFO",
            },
            "source": {"name": "uplint", "url": INFORMATION_URI},
            "code": {"value": f.id},
        });
        out.push_str(&serde_json::to_string(&d).expect("diagnostics serialize"));
        out.push('\n');
    }
    out
}
