//! JSON: an array of entry objects. Tests and scripts rely on its fields; keep it stable.

use crate::catalog::Entry;

pub fn render(entries: &[&Entry]) -> String {
    let mut s = serde_json::to_string_pretty(entries).expect("entries serialize to JSON");
    s.push('\n');
    s
}
