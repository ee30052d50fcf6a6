//! Auditing a fleet: what a JSON report records about the scan that made it (so that reports of
//! shards and of many projects can be merged, and mixing upgrade windows is refused), and the
//! merge itself.

pub mod merge;

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::catalog::Catalog;
use crate::scan::Summary;
use crate::scan::shard::fnv1a64;

/// What a report scanned and with which options, beyond the upgrade window.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// The project: `--project`, else `CI_PROJECT_PATH`, else the scanned directory's name.
    /// `None` for a merge of several projects.
    pub project: Option<String>,
    /// A digest of the data the scan judged against (embedded and `--data`), see [`data_digest`].
    pub data: String,
    pub options: RecordedOptions,
}

/// The scan options a report records besides the upgrade window.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedOptions {
    /// `I/N` when the report holds one shard of the files.
    pub shard: Option<String>,
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub exclude: Vec<String>,
}

/// One project's counts in a merge of several projects.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectTotals {
    pub name: String,
    pub files_scanned: usize,
    pub findings: usize,
    pub removed: usize,
    pub deprecated: usize,
    pub behaviour_change: usize,
    pub errors: usize,
}

impl ProjectTotals {
    pub fn new(name: &str, s: &Summary) -> ProjectTotals {
        ProjectTotals {
            name: name.to_string(),
            files_scanned: s.files_scanned,
            findings: s.findings,
            removed: s.removed,
            deprecated: s.deprecated,
            behaviour_change: s.behaviour_change,
            errors: s.errors,
        }
    }
}

/// The project a scan of `root` reports: the flag, else GitLab's `CI_PROJECT_PATH`, else the
/// name of the scanned directory.
pub fn project_name(flag: Option<&str>, ci_project_path: Option<String>, root: &Path) -> String {
    if let Some(p) = flag.filter(|p| !p.is_empty()) {
        return p.to_string();
    }
    if let Some(p) = ci_project_path.filter(|p| !p.is_empty()) {
        return p;
    }
    let abs = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    abs.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| abs.to_string_lossy().into_owned())
}

/// A digest of a catalog: FNV-1a 64 of its entries serialized as compact JSON (the fields of
/// `uplint query --format json`, keys sorted) without the path of the file each came from, as
/// `fnv1a64:` and 16 hex digits. Reports made with different data differ in it; the same data
/// files named by another path (each CI job's build directory) do not.
pub fn data_digest(catalog: &Catalog) -> String {
    let mut entries = serde_json::to_value(catalog.entries()).expect("entries serialize to JSON");
    for e in entries.as_array_mut().into_iter().flatten() {
        if let Some(fields) = e.as_object_mut() {
            fields.remove("source");
        }
    }
    let json = serde_json::to_vec(&entries).expect("JSON values serialize");
    format!("fnv1a64:{:016x}", fnv1a64(&json))
}
