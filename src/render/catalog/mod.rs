//! Output formats for catalog entries (`uplint query`, `uplint explain`, `uplint versions`).

mod csv;
mod explain;
mod json;
mod markdown;
mod table;
mod versions;
mod yaml;

pub use csv::render as csv;
pub use explain::render as explain;
pub use json::render as json;
pub use markdown::render as markdown;
pub use table::render as table;
pub use versions::{VersionRow, rows as version_rows, table as versions_table};
pub use yaml::render as yaml;

use crate::catalog::Entry;

/// `17.0`, `v5`, or `-` when the entry removes nothing.
pub(crate) fn removed_text(e: &Entry) -> String {
    e.removed_in
        .map(|m| m.to_string())
        .unwrap_or_else(|| "-".to_string())
}
