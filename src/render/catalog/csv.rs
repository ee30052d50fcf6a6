//! CSV (RFC 4180): one row per entry, a header row first.

use crate::catalog::Entry;

fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn render(entries: &[&Entry]) -> String {
    let mut out = String::from(
        "id,title,surface,change,removed_in,introduced_in,breaking,replacement,replacement_available_in\r\n",
    );
    for e in entries {
        let row = [
            e.id.clone(),
            e.title.clone(),
            e.surface.as_str().to_string(),
            e.change.as_str().to_string(),
            e.removed_in.map(|m| m.to_string()).unwrap_or_default(),
            e.introduced_in.map(|v| v.to_string()).unwrap_or_default(),
            e.breaking.map(|b| b.to_string()).unwrap_or_default(),
            e.replacement.clone().unwrap_or_default(),
            e.replacement_available_in
                .map(|v| v.to_string())
                .unwrap_or_default(),
        ];
        out.push_str(&row.iter().map(|f| field(f)).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    out
}
