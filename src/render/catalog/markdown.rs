//! Markdown: a table, for issues and merge-request descriptions.

use super::removed_text;
use crate::catalog::Entry;

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

pub fn render(entries: &[&Entry]) -> String {
    let mut out = String::from(
        "| Removed in | Surface | ID | Change | Replacement |\n|---|---|---|---|---|\n",
    );
    for e in entries {
        out.push_str(&format!(
            "| {} | {} | `{}` | {} | {} |\n",
            removed_text(e),
            e.surface.as_str(),
            e.id,
            cell(&e.title),
            cell(&e.replacement_text().unwrap_or_else(|| "—".into())),
        ));
    }
    out.push_str(&format!(
        "\n{}\n",
        crate::render::plural(entries.len(), "entry", "entries")
    ));
    out
}
