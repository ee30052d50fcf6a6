//! What a scan produces: findings, per-file problems, and counts.

use serde::{Deserialize, Serialize};

use crate::catalog::Surface;
use crate::version::Milestone;

/// Where a finding stands for the chosen target version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Removed at or before the target version.
    Removed,
    /// Removed after the target version (or in REST API v5 without `--api v5`).
    Deprecated,
    /// Behaves differently from the version it changes in, at or before the target.
    BehaviourChange,
    /// A suppression comment that suppressed nothing.
    UnusedSuppression,
    /// Introduced after the oldest server version the code must still work with.
    Unavailable,
    /// A call the spec says is wrong (a missing required parameter, a forbidden body…).
    InvalidCall,
}

impl Status {
    /// Every status, in the order `scan --help` lists them.
    pub const ALL: [Status; 6] = [
        Status::Removed,
        Status::Deprecated,
        Status::BehaviourChange,
        Status::Unavailable,
        Status::InvalidCall,
        Status::UnusedSuppression,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Removed => "removed",
            Status::Deprecated => "deprecated",
            Status::BehaviourChange => "behaviour-change",
            Status::UnusedSuppression => "unused-suppression",
            Status::Unavailable => "unavailable",
            Status::InvalidCall => "invalid-call",
        }
    }
}

/// How serious a finding is; `--fail-on` compares against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Whether a finding is in the program itself or in its tests (a test's file by its path, a
/// mock inside a file, recorded responses).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Context {
    #[default]
    Production,
    Test,
}

impl Context {
    pub const fn as_str(self) -> &'static str {
        match self {
            Context::Production => "production",
            Context::Test => "test",
        }
    }

    pub fn is_test(self) -> bool {
        self == Context::Test
    }
}

/// One use of a scheduled item in a user's file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The entry id (or `unused-suppression`).
    pub id: String,
    /// Path relative to the scanned root, with `/`.
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub severity: Severity,
    pub status: Status,
    /// In the program or in its tests (reports before it was recorded: production).
    #[serde(default)]
    pub context: Context,
    pub removed_in: Option<Milestone>,
    /// The text that matched, e.g. `CI_JOB_JWT_V2` or `trigger.strategy: depend`.
    pub matched: String,
    pub message: String,
    pub replacement: Option<String>,
    /// The edits that apply the replacement, where the data defines them (see [`crate::fix`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<crate::fix::Fix>,
    /// Entries found on the same line that the schedule relates to this one, and how.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<crate::catalog::Related>,
    /// The source line of the finding, without its line break; a long line is cut to an
    /// excerpt around the match, which starts at `excerpt_column` (1 for a whole line).
    #[serde(skip)]
    pub source_line: String,
    #[serde(skip)]
    pub excerpt_column: usize,
    /// `column` and `end_column` in UTF-8 bytes (1-based), for formats that count bytes.
    #[serde(skip)]
    pub byte_column: usize,
    #[serde(skip)]
    pub end_byte_column: usize,
    /// The entry's surface, for grouping and `--select` (`None`: uplint's own finding, an
    /// unused suppression).
    #[serde(skip)]
    pub surface: Option<Surface>,
    /// The entry is marked as a breaking change.
    #[serde(skip)]
    pub breaking: bool,
    /// Which occurrence of the same (id, matched) this is in its file, from 0: with the path it
    /// identifies a finding without its line number (stable fingerprints).
    #[serde(skip)]
    pub occurrence: usize,
    /// The file the walk found, as it was walked (a scanned path joined with the names below
    /// it, bytes kept): what a fix reads and writes, never `path` joined to a root again.
    /// `None` for a finding read from a report.
    #[serde(skip)]
    pub file: Option<std::sync::Arc<std::path::Path>>,
}

impl Finding {
    /// The surface's name, `uplint` for uplint's own findings.
    pub fn surface_name(&self) -> &'static str {
        self.surface
            .map_or(super::UnusedSuppression::SURFACE, Surface::as_str)
    }

    /// The order of a report: by place, then rule, extent, status and message, so that the
    /// order is total and the output deterministic.
    #[allow(clippy::type_complexity)]
    pub fn sort_key(&self) -> (&str, usize, usize, &str, usize, usize, Status, &str) {
        (
            &self.path,
            self.line,
            self.column,
            &self.id,
            self.end_line,
            self.end_column,
            self.status,
            &self.message,
        )
    }
}

/// A file that could not be scanned fully, and why.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FileError {
    pub path: String,
    pub message: String,
}

/// Counts for the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub files_scanned: usize,
    pub files_skipped_binary: usize,
    pub findings: usize,
    pub removed: usize,
    pub deprecated: usize,
    pub behaviour_change: usize,
    pub unused_suppression: usize,
    pub unavailable: usize,
    pub invalid_call: usize,
    pub suppressed: usize,
    /// Of `findings`, those in tests.
    #[serde(default)]
    pub test: usize,
    /// Findings left out because the item was removed at or before `--current`.
    pub before_current: usize,
    pub errors: usize,
}

impl Summary {
    /// Count `findings` by status, and the `errors` problems.
    pub fn count(&mut self, findings: &[Finding], errors: usize) {
        self.findings = findings.len();
        self.errors = errors;
        self.test = findings.iter().filter(|f| f.context.is_test()).count();
        (
            self.removed,
            self.deprecated,
            self.behaviour_change,
            self.unused_suppression,
            self.unavailable,
            self.invalid_call,
        ) = (0, 0, 0, 0, 0, 0);
        for f in findings {
            *match f.status {
                Status::Removed => &mut self.removed,
                Status::Deprecated => &mut self.deprecated,
                Status::BehaviourChange => &mut self.behaviour_change,
                Status::UnusedSuppression => &mut self.unused_suppression,
                Status::Unavailable => &mut self.unavailable,
                Status::InvalidCall => &mut self.invalid_call,
            } += 1;
        }
    }
}
