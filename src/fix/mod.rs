//! Fixes: the edits that replace a finding's item with the schedule's replacement, and whether
//! applying them is safe for the version range the code must support.
//!
//! Layering: above the scan engine (it reads findings and the files they are in) and the
//! catalog (patterns' `replace_with`, entries' `replacement_available_in`); below the reporters,
//! which show a finding's [`Fix`], and the CLI, which applies them ([`apply`]).
//!
//! The safety rule: a fix is **safe** when the replacement is a pure rename with the same
//! meaning (the entry's change is `renamed`), the data says since when the replacement exists,
//! and that version is at or before the lower end of the supported range (`--min-version`, else
//! `--current`). Otherwise it is **unsafe**, and the fix says why.

pub mod apply;
pub mod confined;
pub mod diff;
mod edit;
mod invert;
mod yaml_move;

use serde::{Deserialize, Serialize};

use crate::catalog::{Catalog, Change, Entry};
use crate::scan::Finding;
use crate::syntax::source::Source;
use crate::version::ServiceVersion;

pub use edit::edits_for;

/// Whether a fix may be applied without review (ruff's safe/unsafe).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    Safe,
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One replacement of a byte range of a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    /// Path relative to the scanned root, with `/` (as the finding's).
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub replacement: String,
    /// The replaced range in bytes of the file's text (without a byte order mark).
    #[serde(skip)]
    pub start: usize,
    #[serde(skip)]
    pub end: usize,
    /// `column` and `end_column` in UTF-8 bytes (1-based).
    #[serde(skip)]
    pub byte_column: usize,
    #[serde(skip)]
    pub end_byte_column: usize,
}

impl Edit {
    /// An edit of `src` replacing `start..end` with `replacement`.
    pub fn new(src: &Source, start: usize, end: usize, replacement: impl Into<String>) -> Edit {
        let (line, column) = src.line_col(start);
        let (end_line, end_column) = src.line_col(end);
        Edit {
            path: src.path.to_string(),
            line,
            column,
            end_line,
            end_column,
            replacement: replacement.into(),
            start,
            end,
            byte_column: src.byte_column(start),
            end_byte_column: src.byte_column(end),
        }
    }
}

/// A finding's fix: its edits and whether they are safe to apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fix {
    pub applicability: Applicability,
    /// Why the fix is unsafe.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What the fix does, e.g. "rename `totalWeight` to `totalIssueWeight`".
    pub description: String,
    pub edits: Vec<Edit>,
}

/// The lower end of the supported range: `--min-version`, else `--current`.
pub fn range_start(
    min_version: Option<ServiceVersion>,
    current: Option<ServiceVersion>,
) -> Option<ServiceVersion> {
    min_version.or(current)
}

/// The applicability of replacing an entry's item with `new`, and why it is unsafe.
pub fn applicability(
    entry: &Entry,
    new: &str,
    range_start: Option<ServiceVersion>,
) -> (Applicability, Option<String>) {
    let unsafe_because = |why: String| (Applicability::Unsafe, Some(why));
    if entry.change != Change::Renamed {
        return unsafe_because(format!(
            "the schedule lists the item as {}, with `{new}` as its replacement, not as a rename with the same meaning",
            entry.change.as_str()
        ));
    }
    let Some(since) = entry.replacement_available_in else {
        return unsafe_because(format!(
            "the schedule does not say since when `{new}` exists"
        ));
    };
    match range_start {
        None => unsafe_because(format!(
            "`{new}` exists since {since}; the lower end of the supported range is unknown: give --min-version or --current"
        )),
        Some(start) if since > start => unsafe_because(format!(
            "`{new}` exists since {since}; the supported range starts at {start}"
        )),
        Some(_) => (Applicability::Safe, None),
    }
}

/// The mechanical replacements the data defines for an entry: (old, new), a rename or move
/// (`replace_with`) or a field replaced by its negation (`replace_inverted`).
pub fn replacements(entry: &Entry) -> Vec<(String, &str)> {
    entry
        .patterns
        .iter()
        .filter_map(|p| p.rename().or_else(|| inverted(p)))
        .collect()
}

/// A REST field replaced by one holding the negated boolean.
pub fn inverted(p: &crate::patterns::Pattern) -> Option<(String, &str)> {
    match p {
        crate::patterns::Pattern::RestField(f) => {
            Some((f.name.clone(), f.replace_inverted.as_deref()?))
        }
        _ => None,
    }
}

/// What `explain` says of an entry's fixes: the rule as it applies to this entry.
pub fn explain(entry: &Entry) -> Option<String> {
    let renames = replacements(entry);
    let (_, new) = renames.first()?;
    Some(match applicability(entry, new, None) {
        (_, Some(why))
            if entry.change != Change::Renamed || entry.replacement_available_in.is_none() =>
        {
            format!("unsafe (applied with --unsafe-fixes): {why}")
        }
        _ => format!(
            "safe when the supported range starts at {} or later (--min-version, else --current); unsafe otherwise, or when neither is given",
            entry.replacement_available_in.expect("checked above")
        ),
    })
}

/// Give every finding of `findings` (of one file, whose text is `text`) the fix its entry's
/// data defines there, if any.
pub fn attach(
    cat: &Catalog,
    src: &Source,
    findings: &mut [Finding],
    range_start: Option<ServiceVersion>,
) {
    for f in findings.iter_mut() {
        let Some(entry) = cat.get(&f.id) else {
            continue;
        };
        if let Some((edits, description, new)) = edits_for(entry, f, src) {
            let (applicability, reason) = applicability(entry, &new, range_start);
            f.fix = Some(Fix {
                applicability,
                reason,
                description,
                edits,
            });
        }
    }
}
