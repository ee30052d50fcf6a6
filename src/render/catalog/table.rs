//! A plain text table for terminals: one line per entry.

use super::removed_text;
use crate::catalog::Entry;

const REPLACEMENT_WIDTH: usize = 60;

fn clip(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(width - 1).collect();
        t.push('…');
        t
    }
}

pub fn render(entries: &[&Entry]) -> String {
    let rows: Vec<[String; 5]> = entries
        .iter()
        .map(|e| {
            [
                removed_text(e),
                e.surface.as_str().to_string(),
                e.change.as_str().to_string(),
                e.id.clone(),
                clip(
                    &e.replacement_text().unwrap_or_else(|| "-".into()),
                    REPLACEMENT_WIDTH,
                ),
            ]
        })
        .collect();
    let header = ["REMOVED", "SURFACE", "CHANGE", "ID", "REPLACEMENT"];
    let mut widths = header.map(|h| h.chars().count());
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: [&str; 5]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i == cells.len() - 1 {
                s.push_str(c);
            } else {
                s.push_str(c);
                s.push_str(&" ".repeat(widths[i] - c.chars().count() + 2));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(header);
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    let breaking = entries.iter().filter(|e| e.is_breaking()).count();
    out.push_str(&format!(
        "\n{} ({breaking} labelled breaking by the schedule)\n",
        crate::render::plural(entries.len(), "entry", "entries"),
    ));
    out
}
