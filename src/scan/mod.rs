//! The scan engine: walk a tree, classify each file, prefilter it with one automaton, run the
//! detectors of the patterns it may hold, and turn their hits into findings for a target
//! version. It produces findings and knows nothing of output formats.

pub mod classify;
pub mod cmdline;
pub mod detect;
pub mod finding;
pub mod graphql;
mod includes;
mod prefilter;
pub mod shard;
pub mod source;
mod suppress;
mod walk;
pub mod yaml;

use std::collections::HashMap;
use std::path::PathBuf;

pub use finding::{FileError, Finding, Severity, Status, Summary};

use crate::catalog::{Catalog, Change, Entry, Pattern};
use crate::version::{ApiVersion, Milestone, ServiceVersion};
use detect::FileCtx;
use source::Source;

/// What a scan looks for and how it judges what it finds.
#[derive(Clone, Debug)]
pub struct Options {
    /// The version being upgraded to.
    pub target: ServiceVersion,
    /// The version running now: items removed at or before it are left out.
    pub current: Option<ServiceVersion>,
    /// The oldest server version the code must still work with: what was introduced after it
    /// is reported as unavailable.
    pub min_version: Option<ServiceVersion>,
    /// Treat REST API v5 removals as removed.
    pub api_v5: bool,
    /// Only these ids or surfaces (empty: all).
    pub select: Vec<String>,
    /// Never these ids or surfaces.
    pub ignore: Vec<String>,
    /// Per-path ignores: (glob, ids or surfaces).
    pub per_path_ignores: Vec<(String, Vec<String>)>,
    /// Globs of paths not to scan.
    pub exclude: Vec<String>,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Follow symbolic links (loops are detected and reported).
    pub follow_links: bool,
    /// Files larger than this are listed as errors and not read.
    pub max_file_size: u64,
    /// Only the files of this shard (`--shard I/N`).
    pub shard: Option<shard::Shard>,
}

impl Options {
    pub fn new(target: ServiceVersion) -> Self {
        Self {
            target,
            current: None,
            min_version: None,
            api_v5: false,
            select: Vec::new(),
            ignore: Vec::new(),
            per_path_ignores: Vec::new(),
            exclude: Vec::new(),
            threads: 0,
            follow_links: false,
            max_file_size: 256 * 1024 * 1024,
            shard: None,
        }
    }
}

/// The result of a scan: sorted findings, per-file problems, counts.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
    pub errors: Vec<FileError>,
    pub summary: Summary,
}

impl Report {
    /// Add the findings, problems and file counts of `from` (finding counts are made by
    /// [`Summary::count`] once everything is in).
    pub fn absorb(&mut self, from: Report) {
        self.findings.extend(from.findings);
        self.errors.extend(from.errors);
        let (a, b) = (&mut self.summary, from.summary);
        a.files_scanned += b.files_scanned;
        a.files_skipped_binary += b.files_skipped_binary;
        a.suppressed += b.suppressed;
        a.before_current += b.before_current;
    }

    /// In report order (total, deterministic), each problem once (a directory every shard
    /// could not read), counted.
    pub fn finish(&mut self) {
        self.findings
            .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        self.errors.sort();
        self.errors.dedup();
        self.summary.count(&self.findings, self.errors.len());
    }
}

/// One (entry, pattern) the scanner looks for.
struct Target {
    entry: usize,
    pattern: Pattern,
}

/// What scanning one file gave.
#[derive(Default)]
pub struct FileResult {
    pub findings: Vec<Finding>,
    pub errors: Vec<FileError>,
    pub suppressed: usize,
    pub before_current: usize,
}

/// A scanner built once from a catalog and options, then run over any number of files.
pub struct Scanner {
    entries: Vec<Entry>,
    targets: Vec<Target>,
    prefilter: prefilter::Prefilter,
    options: Options,
    per_path: Vec<(globset::GlobMatcher, Vec<String>)>,
    /// Every id of the catalog, selected or not (for suppressions of unknown ids).
    known_ids: Vec<String>,
}

fn selected(entry: &Entry, list: &[String]) -> bool {
    list.iter()
        .any(|s| s == &entry.id || s == entry.surface.as_str())
}

impl Scanner {
    pub fn new(catalog: &Catalog, options: Options) -> Result<Scanner, String> {
        let mut entries = Vec::new();
        let mut targets = Vec::new();
        for e in catalog.entries() {
            if !e.detectable {
                continue;
            }
            if !options.select.is_empty() && !selected(e, &options.select) {
                continue;
            }
            if selected(e, &options.ignore) {
                continue;
            }
            for p in &e.patterns {
                targets.push(Target {
                    entry: entries.len(),
                    pattern: p.clone(),
                });
            }
            entries.push(e.clone());
        }
        let literals: Vec<String> = targets.iter().map(|t| t.pattern.anchor()).collect();
        let mut per_path = Vec::new();
        for (glob, ids) in &options.per_path_ignores {
            let g = globset::Glob::new(glob)
                .map_err(|e| format!("invalid per-path glob `{glob}`: {e}"))?;
            per_path.push((g.compile_matcher(), ids.clone()));
        }
        let context: Vec<Vec<String>> = targets
            .iter()
            .map(|t| t.pattern.context_anchors())
            .collect();
        Ok(Scanner {
            known_ids: catalog.entries().iter().map(|e| e.id.clone()).collect(),
            prefilter: prefilter::Prefilter::new(&literals, &context),
            entries,
            targets,
            options,
            per_path,
        })
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Scan files and directories; `root` is what paths are shown relative to.
    pub fn scan_paths(&self, paths: &[PathBuf], root: &std::path::Path) -> Report {
        walk::scan(self, paths, root)
    }

    /// The status and severity of a finding of `entry` for the target version.
    fn judge(&self, entry: &Entry) -> (Status, Severity) {
        let o = &self.options;
        match entry.removed_in {
            Some(Milestone::Service(v)) if v <= o.target => {
                if entry.change == Change::BehaviourChange {
                    (Status::BehaviourChange, Severity::Warning)
                } else {
                    (Status::Removed, Severity::Error)
                }
            }
            Some(Milestone::Api(ApiVersion::V5)) if o.api_v5 => (Status::Removed, Severity::Error),
            _ => (Status::Deprecated, Severity::Warning),
        }
    }

    fn before_current(&self, entry: &Entry) -> bool {
        match (entry.removed_in, self.options.current) {
            (Some(Milestone::Service(v)), Some(cur)) => v <= cur,
            _ => false,
        }
    }

    fn message(entry: &Entry, status: Status) -> String {
        let when = match entry.removed_in {
            Some(Milestone::Api(a)) => format!("REST API {a}"),
            Some(m) => m.to_string(),
            None => "a later version".to_string(),
        };
        match status {
            Status::Removed => format!("{}: removed in {when}", entry.title),
            Status::BehaviourChange => format!("{}: behaviour changes in {when}", entry.title),
            Status::Deprecated if entry.change == Change::BehaviourChange => {
                format!("{}: behaviour will change in {when}", entry.title)
            }
            _ => format!("{}: deprecated, removed in {when}", entry.title),
        }
    }

    /// Scan one file's text. `path` is shown in findings; `class_path` decides the file kind.
    pub fn scan_text(&self, path: &str, class_path: &str, text: &str) -> FileResult {
        match classify::classify(class_path) {
            Some(class) => self.scan_class(path, class, text),
            None => FileResult::default(),
        }
    }

    /// Scan one file's text as a file of the given class.
    pub fn scan_class(&self, path: &str, class: classify::Class, text: &str) -> FileResult {
        let mut result = FileResult::default();
        let mut seen = Vec::new();
        let (candidates, marker) = self.prefilter.candidates(text.as_bytes(), &mut seen);
        if candidates.is_empty() && !marker {
            return result;
        }
        let src = Source::new(path, text, class);
        let ctx = FileCtx::new(&src);
        // Each hit with its verdict: (status, severity, message), or None to judge it by its
        // entry's removal.
        type Verdict = Option<(Status, Severity, String)>;
        let mut raw: Vec<(usize, detect::Hit, Verdict)> = Vec::new();
        let mut checked_calls: Vec<usize> = Vec::new();
        for &t in &candidates {
            let target = &self.targets[t];
            let entry = &self.entries[target.entry];
            if entry.change == Change::Introduced
                && !entry.endpoints.is_empty()
                && !checked_calls.contains(&target.entry)
            {
                checked_calls.push(target.entry);
                for p in detect::error_tracking::check(&entry.endpoints, &ctx) {
                    raw.push((
                        target.entry,
                        p.hit,
                        Some((Status::InvalidCall, p.severity, p.message)),
                    ));
                }
            }
            if !detect::applies(&target.pattern, class.kind) {
                continue;
            }
            for hit in detect::detect(&target.pattern, &ctx) {
                if entry.change != Change::Introduced {
                    raw.push((target.entry, hit, None));
                    continue;
                }
                // An introduced item is a finding only when the oldest supported server lacks it.
                if let (Some(min), Some(introduced)) =
                    (self.options.min_version, entry.introduced_in)
                    && introduced > min
                    && !hit.weak
                {
                    let message = format!(
                        "{}: introduced in {introduced}, after the oldest supported version {min}",
                        entry.title
                    );
                    raw.push((
                        target.entry,
                        hit,
                        Some((Status::Unavailable, Severity::Error, message)),
                    ));
                }
            }
        }
        for (offset, message) in ctx.graphql_errors() {
            let (line, col) = src.line_col(offset);
            result.errors.push(FileError {
                path: path.to_string(),
                message: format!(
                    "GraphQL document does not parse at {line}:{col}: {message}; its names were matched as words instead"
                ),
            });
        }
        if let Some((offset, message)) = ctx.yaml_error() {
            let (line, col) = src.line_col(*offset);
            result.errors.push(FileError {
                path: path.to_string(),
                message: format!(
                    "YAML does not parse at {line}:{col}: {message}; keys were read line by line instead"
                ),
            });
        }
        // One finding per entry, place and verdict.
        raw.sort_by(|(e1, h1, v1), (e2, h2, v2)| {
            (h1.start, *e1, h1.end, v1.as_ref().map(|v| &v.2)).cmp(&(
                h2.start,
                *e2,
                h2.end,
                v2.as_ref().map(|v| &v.2),
            ))
        });
        raw.dedup_by(|a, b| a.0 == b.0 && a.1.start == b.1.start && a.2 == b.2);

        let mut suppressions = if marker {
            suppress::find(&src)
        } else {
            Vec::new()
        };
        let path_ignores: Vec<&String> = self
            .per_path
            .iter()
            .filter(|(g, _)| g.is_match(path))
            .flat_map(|(_, ids)| ids)
            .collect();
        let mut occurrences: HashMap<(usize, String), usize> = HashMap::new();
        for (e, hit, verdict) in raw {
            let entry = &self.entries[e];
            if self.before_current(entry) {
                result.before_current += 1;
                continue;
            }
            if path_ignores
                .iter()
                .any(|s| **s == entry.id || *s == entry.surface.as_str())
            {
                result.suppressed += 1;
                continue;
            }
            let (line, column) = src.line_col(hit.start);
            let (end_line, end_column) = src.line_col(hit.end);
            let (byte_column, end_byte_column) =
                (src.byte_column(hit.start), src.byte_column(hit.end));
            let mut suppressed = false;
            for s in &mut suppressions {
                if let Some(i) = s.covers(&entry.id, line) {
                    s.ids[i].3 = true;
                    suppressed = true;
                }
            }
            if suppressed {
                result.suppressed += 1;
                continue;
            }
            let (source_line, excerpt_column) = src.excerpt(line, column);
            let (status, mut severity, message) = match verdict {
                Some(v) => v,
                None => {
                    let (status, severity) = self.judge(entry);
                    (status, severity, Self::message(entry, status))
                }
            };
            if hit.weak {
                severity = Severity::Info;
            }
            let occurrence = occurrences.entry((e, hit.matched.clone())).or_insert(0);
            result.findings.push(Finding {
                id: entry.id.clone(),
                path: path.to_string(),
                line,
                column,
                end_line,
                end_column,
                severity,
                status,
                removed_in: entry.removed_in.map(|m| m.to_string()),
                message,
                replacement: entry.replacement_text(),
                matched: hit.matched,
                source_line,
                excerpt_column,
                byte_column,
                end_byte_column,
                surface: entry.surface.as_str().to_string(),
                breaking: entry.is_breaking(),
                occurrence: *occurrence,
            });
            *occurrence += 1;
        }
        for s in &suppressions {
            for (id, start, end, used) in &s.ids {
                if *used {
                    continue;
                }
                let message = if self.entries.iter().any(|e| &e.id == id) {
                    format!("suppression of `{id}` suppresses nothing")
                } else if self.known_ids.contains(id) {
                    // Known, but not looked for in this run (--select, --ignore, not detectable).
                    continue;
                } else {
                    format!("suppression names `{id}`, which is no id uplint knows")
                };
                let (line, column) = src.line_col(*start);
                let (end_line, end_column) = src.line_col(*end);
                let (excerpt, excerpt_column) = src.excerpt(line, column);
                let occurrence = occurrences.entry((usize::MAX, id.clone())).or_insert(0);
                result.findings.push(Finding {
                    id: "unused-suppression".to_string(),
                    path: path.to_string(),
                    line,
                    column,
                    end_line,
                    end_column,
                    severity: Severity::Warning,
                    status: Status::UnusedSuppression,
                    removed_in: None,
                    matched: id.clone(),
                    message,
                    replacement: Some("remove the suppression".to_string()),
                    source_line: excerpt,
                    excerpt_column,
                    byte_column: src.byte_column(*start),
                    end_byte_column: src.byte_column(*end),
                    surface: "uplint".to_string(),
                    breaking: false,
                    occurrence: *occurrence,
                });
                *occurrence += 1;
            }
        }
        result
    }
}
