//! YAML: the same objects as the JSON format.

use crate::catalog::Entry;

pub fn render(entries: &[&Entry]) -> String {
    if entries.is_empty() {
        return "[]\n".to_string();
    }
    serde_saphyr::to_string(&entries).expect("entries serialize to YAML")
}
