//! The sink: the one stage that turns the hits of the detectors of one file into findings. It
//! judges each hit for the version window (status, severity, message), drops what the run does
//! not report (removed before `--current`, per-path ignores, inline suppressions), removes
//! repeats, and reports the suppressions that suppressed nothing.

use std::collections::HashMap;

use super::finding::{Context, FileError, Finding, Severity, Status};
use super::suppress;
use super::{FileResult, Scanner};
use crate::catalog::{Change, Entry};
use crate::patterns::Hit;
use crate::syntax::classify::{self, FileKind};
use crate::syntax::roles;
use crate::syntax::source::Source;
use crate::version::{ApiVersion, Milestone};

/// uplint's own rule: a suppression comment that suppresses nothing. Defined once, here; the
/// reporters describe it from these.
pub struct UnusedSuppression;

impl UnusedSuppression {
    pub const ID: &'static str = Status::UnusedSuppression.as_str();
    pub const TITLE: &'static str = "Suppression comment that suppresses nothing";
    pub const REPLACEMENT: &'static str = "remove the suppression";
    /// Where its findings are grouped: uplint itself, not a surface of the platform.
    pub const SURFACE: &'static str = "uplint";
}

/// The id of the pseudo-rule of suppressions that suppress nothing.
pub const UNUSED_SUPPRESSION: &str = UnusedSuppression::ID;

/// A detector's own judgement of a hit, where the entry's removal does not decide it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub status: Status,
    pub severity: Severity,
    pub message: String,
}

/// What a detector produces: a hit, with its verdict if the detector judges it itself.
pub type Produced = (Hit, Option<Verdict>);

/// At most this many findings are reported for one file (each holds its message and excerpt,
/// about a kilobyte): a file of nothing but removed items (a 100 MB line of `$CI_JOB_JWT`) does
/// not make the report hundreds of times its size. The rest are counted in one error.
pub const MAX_FINDINGS_PER_FILE: usize = 10_000;

/// At most this many hits of one file are kept to be judged (several detectors may find one
/// use): the memory of a file's hits stays bounded too.
const MAX_HITS_PER_FILE: usize = 4 * MAX_FINDINGS_PER_FILE;

/// What kind of request a hit is, for the regions that make no requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// Not a request (a field, a variable, a key…).
    None,
    /// The path of an endpoint: a server route serves it, it does not call it.
    Endpoint,
    /// A check of a request's contract (headers, parameters): never on a route or a mock.
    Contract,
}

/// One hit of an entry.
struct Raw {
    call: Call,
    entry: usize,
    hit: Hit,
    verdict: Option<Verdict>,
    /// Found by a distinctive form alone: dropped where another detector of the entry found
    /// the same text.
    fallback: bool,
}

/// Collects the hits of one file and turns them into its findings.
pub struct Sink<'s> {
    scanner: &'s Scanner,
    raw: Vec<Raw>,
    /// Hits not kept: past [`MAX_HITS_PER_FILE`].
    dropped: usize,
}

/// Where a finding is: its range as lines and columns, and its source excerpt.
struct Place {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    byte_column: usize,
    end_byte_column: usize,
    source_line: String,
    excerpt_column: usize,
}

impl Place {
    fn of(src: &Source, start: usize, end: usize) -> Place {
        let (line, column) = src.line_col(start);
        let (end_line, end_column) = src.line_col(end);
        let (source_line, excerpt_column) = src.excerpt_at(start, line, column);
        Place {
            line,
            column,
            end_line,
            end_column,
            byte_column: src.byte_column(start),
            end_byte_column: src.byte_column(end),
            source_line,
            excerpt_column,
        }
    }
}

impl<'s> Sink<'s> {
    pub fn new(scanner: &'s Scanner) -> Self {
        Self {
            scanner,
            raw: Vec::new(),
            dropped: 0,
        }
    }

    /// A hit of entry `entry` (`fallback`: found by a distinctive form alone). An introduced
    /// item is a finding only when the oldest supported server lacks it.
    pub fn accept(
        &mut self,
        entry: usize,
        hit: Hit,
        verdict: Option<Verdict>,
        fallback: bool,
        call: Call,
    ) {
        if self.raw.len() >= MAX_HITS_PER_FILE {
            self.dropped += 1;
            return;
        }
        let e = &self.scanner.entries[entry];
        let verdict = match verdict {
            Some(v) => Some(v),
            None if e.change != Change::Introduced => None,
            None => {
                let (Some(min), Some(introduced)) =
                    (self.scanner.options.min_version, e.introduced_in)
                else {
                    return;
                };
                if introduced <= min || hit.weak {
                    return;
                }
                Some(Verdict {
                    status: Status::Unavailable,
                    severity: Severity::Error,
                    message: format!(
                        "{}: introduced in {introduced}, after the oldest supported version {min}",
                        e.title
                    ),
                })
            }
        };
        self.raw.push(Raw {
            call,
            entry,
            hit,
            verdict,
            fallback,
        });
    }

    /// Drop the fallback hits whose text another detector of the same entry found (its hit
    /// overlaps): one finding for one use.
    fn drop_covered_fallbacks(&mut self) {
        if !self.raw.iter().any(|r| r.fallback) {
            return;
        }
        // The precise hits by entry and start, each with the furthest end of its entry's hits
        // up to it: a fallback [s, e) is covered when a hit of its entry starts before e and
        // reaches past s. One sort and a binary search per fallback (a line holding a variable
        // 60,000 times makes as many hits of each kind).
        let mut precise: Vec<(usize, usize, usize)> = self
            .raw
            .iter()
            .filter(|r| !r.fallback)
            .map(|r| (r.entry, r.hit.start, r.hit.end))
            .collect();
        precise.sort_unstable();
        let mut reach = Vec::with_capacity(precise.len());
        for (i, &(entry, _, end)) in precise.iter().enumerate() {
            let before = i
                .checked_sub(1)
                .filter(|&j| precise[j].0 == entry)
                .map_or(0, |j| reach[j]);
            reach.push(before.max(end));
        }
        self.raw.retain(|r| {
            if !r.fallback {
                return true;
            }
            let first_after = precise.partition_point(|&(e, s, _)| (e, s) < (r.entry, r.hit.end));
            let covered = first_after
                .checked_sub(1)
                .is_some_and(|j| precise[j].0 == r.entry && reach[j] > r.hit.start);
            !covered
        });
    }

    /// The findings of the file. `marker`: the file may hold suppressions.
    pub fn finish(mut self, src: &Source, marker: bool, result: &mut FileResult) {
        self.drop_covered_fallbacks();
        // One finding per entry, place and verdict.
        self.raw.sort_by(|a, b| {
            fn key(r: &Raw) -> (usize, usize, usize, Option<&str>) {
                let message = r.verdict.as_ref().map(|v| v.message.as_str());
                (r.hit.start, r.entry, r.hit.end, message)
            }
            key(a).cmp(&key(b))
        });
        self.raw.dedup_by(|a, b| {
            a.entry == b.entry && a.hit.start == b.hit.start && a.verdict == b.verdict
        });
        let mut suppressions = if marker {
            suppress::find(src)
        } else {
            Vec::new()
        };
        let path_ignores: Vec<&String> = self
            .scanner
            .per_path
            .iter()
            .filter(|(g, _)| g.is_match(src.path))
            .flat_map(|(_, ids)| ids)
            .collect();
        let mut occurrences: HashMap<(usize, String), usize> = HashMap::new();
        let roles = Roles::of(src, &self.raw);
        let first = result.findings.len();
        let mut entries: Vec<&Entry> = Vec::new();
        let mut left_out = self.dropped;
        // (Detectors also stop at `patterns::MAX_WORD_HITS` places of one word: past the
        // limits the number of uses is not known, only that there are more.)
        for raw in std::mem::take(&mut self.raw) {
            if result.findings.len() >= MAX_FINDINGS_PER_FILE {
                left_out += 1;
                continue;
            }
            let Some(context) = roles.context(&raw) else {
                continue;
            };
            let entry = &self.scanner.entries[raw.entry];
            if self.scanner.before_current(entry) {
                result.before_current += 1;
                continue;
            }
            if path_ignores.iter().any(|s| names(entry, s)) {
                result.suppressed += 1;
                continue;
            }
            let line = src.line_col(raw.hit.start).0;
            if suppress::apply(&mut suppressions, &entry.id, line) {
                result.suppressed += 1;
                continue;
            }
            let occurrence = occurrences
                .entry((raw.entry, raw.hit.matched.clone()))
                .or_insert(0);
            let mut finding = self.finding(src, entry, raw.hit, raw.verdict, *occurrence);
            finding.context = context;
            result.findings.push(finding);
            entries.push(entry);
            *occurrence += 1;
        }
        relate(&mut result.findings[first..], &entries, src);
        if left_out > 0 {
            result.errors.push(FileError {
                path: src.path.to_string(),
                message: format!(
                    "more uses than are reported: at most {MAX_FINDINGS_PER_FILE} findings are \
                     reported for one file"
                ),
            });
        }
        self.unused(src, &suppressions, &mut occurrences, result);
    }

    fn finding(
        &self,
        src: &Source,
        entry: &Entry,
        hit: Hit,
        verdict: Option<Verdict>,
        occurrence: usize,
    ) -> Finding {
        let p = Place::of(src, hit.start, hit.end);
        let Verdict {
            status,
            mut severity,
            message,
        } = verdict.unwrap_or_else(|| self.scanner.judge(entry));
        if hit.weak {
            severity = Severity::Info;
        }
        Finding {
            context: Context::Production,
            id: entry.id.clone(),
            path: src.path.to_string(),
            line: p.line,
            column: p.column,
            end_line: p.end_line,
            end_column: p.end_column,
            severity,
            status,
            removed_in: entry.removed_in,
            message,
            replacement: entry.replacement_text(),
            fix: None,
            matched: hit.matched,
            source_line: p.source_line,
            excerpt_column: p.excerpt_column,
            byte_column: p.byte_column,
            end_byte_column: p.end_byte_column,
            surface: Some(entry.surface),
            breaking: entry.is_breaking(),
            occurrence,
            file: None,
            related: Vec::new(),
        }
    }

    /// Suppressions that suppressed nothing, as findings of their own.
    fn unused(
        &self,
        src: &Source,
        suppressions: &[suppress::Suppression],
        occurrences: &mut HashMap<(usize, String), usize>,
        result: &mut FileResult,
    ) {
        for id in suppressions.iter().flat_map(|s| &s.ids) {
            if id.used {
                continue;
            }
            let name = &id.id;
            let known = self.scanner.entries.iter().position(|e| &e.id == name);
            let message = if known.is_some_and(|i| self.scanner.selected[i]) {
                format!("suppression of `{name}` suppresses nothing")
            } else if known.is_some() {
                // Known, but not looked for in this run (--select, --ignore, not detectable).
                continue;
            } else {
                format!("suppression names `{name}`, which is no id uplint knows")
            };
            let p = Place::of(src, id.start, id.end);
            let occurrence = occurrences.entry((usize::MAX, name.clone())).or_insert(0);
            result.findings.push(Finding {
                context: Context::Production,
                id: UnusedSuppression::ID.to_string(),
                path: src.path.to_string(),
                line: p.line,
                column: p.column,
                end_line: p.end_line,
                end_column: p.end_column,
                severity: Severity::Warning,
                status: Status::UnusedSuppression,
                removed_in: None,
                matched: name.clone(),
                message,
                replacement: Some(UnusedSuppression::REPLACEMENT.to_string()),
                fix: None,
                source_line: p.source_line,
                excerpt_column: p.excerpt_column,
                byte_column: p.byte_column,
                end_byte_column: p.end_byte_column,
                surface: None,
                breaking: false,
                occurrence: *occurrence,
                file: None,
                related: Vec::new(),
            });
            *occurrence += 1;
        }
    }
}

/// What a file's hits stand in: a test's file (by its path, or recorded HTTP interactions),
/// the mocks and server routes of a code file ([`roles`]). Read once per file with hits.
struct Roles {
    test_file: bool,
    regions: Vec<roles::Region>,
}

impl Roles {
    fn of(src: &Source, raw: &[Raw]) -> Roles {
        let test_file = classify::is_test_path(src.path) || recorded_interactions(src);
        let regions = if !raw.is_empty() && src.class.kind == FileKind::Code {
            let hits: Vec<usize> = raw.iter().map(|r| r.hit.start).collect();
            roles::regions(src.text, &hits)
        } else {
            Vec::new()
        };
        Roles { test_file, regions }
    }

    /// The context of a hit, or `None` where it is not a use at all: an endpoint's path in a
    /// server route, a check of a request's contract in a route or a mock.
    fn context(&self, raw: &Raw) -> Option<Context> {
        let role = roles::role_at(&self.regions, raw.hit.start);
        match (raw.call, role) {
            (Call::Endpoint, Some(r)) if r.route => return None,
            (Call::Contract, Some(_)) => return None,
            _ => {}
        }
        Some(if self.test_file || role.is_some_and(|r| r.test) {
            Context::Test
        } else {
            Context::Production
        })
    }
}

/// A YAML file of recorded HTTP interactions (a VCR or vcrpy cassette, wherever it lies).
fn recorded_interactions(src: &Source) -> bool {
    src.class.kind == FileKind::Yaml
        && (src.text.starts_with("---\nhttp_interactions:")
            || src.text.starts_with("http_interactions:")
            || src.text.starts_with("interactions:")
            || src.text.starts_with("---\ninteractions:"))
}

/// Does `name` (an id or a surface, from `--select`, `--ignore` or a per-path ignore) name the
/// entry?
pub fn names(entry: &Entry, name: &str) -> bool {
    name == entry.id || name == entry.surface.as_str()
}

impl Scanner {
    /// The status, severity and message of a finding of `entry` for the target version.
    fn judge(&self, entry: &Entry) -> Verdict {
        let o = &self.options;
        let (status, severity) = match entry.removed_in {
            Some(Milestone::Service(v)) if v <= o.target => {
                if entry.change == Change::BehaviourChange {
                    (Status::BehaviourChange, Severity::Warning)
                } else {
                    (Status::Removed, Severity::Error)
                }
            }
            Some(Milestone::Api(ApiVersion::V5)) if o.api_v5 => (Status::Removed, Severity::Error),
            _ => (Status::Deprecated, Severity::Warning),
        };
        Verdict {
            status,
            severity,
            message: message(entry, status),
        }
    }

    fn before_current(&self, entry: &Entry) -> bool {
        match (entry.removed_in, self.options.current) {
            (Some(Milestone::Service(v)), Some(cur)) => v <= cur,
            _ => false,
        }
    }
}

fn message(entry: &Entry, status: Status) -> String {
    let when = match entry.removed_in {
        Some(Milestone::Api(a)) => format!("REST API {a}"),
        Some(m) => m.to_string(),
        None => "a later version".to_string(),
    };
    let message = match status {
        Status::Removed => format!("{}: removed in {when}", entry.title),
        Status::BehaviourChange => format!("{}: behaviour changes in {when}", entry.title),
        Status::Deprecated if entry.change == Change::BehaviourChange => {
            format!("{}: behaviour will change in {when}", entry.title)
        }
        _ => format!("{}: deprecated, removed in {when}", entry.title),
    };
    // An item emptied before its removal says so where it is used, not only in `explain`.
    match &entry.emptied {
        Some(emptied) if status != Status::Removed => format!("{message}; {emptied}"),
        _ => message,
    }
}

/// Findings of two related entries on one use: each says how the other relates to it
/// (`entries`: the entry of each finding). A use is a line, or a statement continued over
/// several lines: a command whose lines end in `\`, `` ` `` or `^` (`curl --request POST
/// …/runners \` with `--form "token=…"` on the next line), a call whose lines end in an open
/// bracket or a comma (`requests.post(` then `f"{base}/runners",` then `data={"token": t})`).
fn relate(findings: &mut [Finding], entries: &[&Entry], src: &Source) {
    if entries.iter().all(|e| e.related.is_empty()) {
        return;
    }
    // The first line of each finding's command, asked only of the files where a related entry
    // is found (few): the lines above it are read while they continue onto it.
    let mut first_line = HashMap::new();
    let mut command_of = |line: usize| -> usize {
        *first_line.entry(line).or_insert_with(|| {
            let mut l = line;
            while l > 1 && line - l < CONTINUED_LINES && continues(src.line_text(l - 1)) {
                l -= 1;
            }
            l
        })
    };
    let commands: Vec<usize> = findings.iter().map(|f| command_of(f.line)).collect();
    for i in 0..findings.len() {
        for rel in &entries[i].related {
            let line = findings[i].line;
            let meets = (0..findings.len())
                .filter(|&j| commands[j] == commands[i] && findings[j].id == rel.id)
                .map(|j| findings[j].line)
                .min_by_key(|&l| (l != line, l));
            let Some(other_line) = meets else {
                continue;
            };
            if findings[i].related.iter().any(|r| r.id == rel.id) {
                continue;
            }
            let f = &mut findings[i];
            let place = if other_line == line {
                "on this line".to_string()
            } else {
                format!("in this statement, line {other_line}")
            };
            f.message
                .push_str(&format!(" (with {} {place}: {})", rel.id, rel.relation));
            f.related.push(rel.clone());
        }
    }
}

/// How many lines back a command's first line is looked for.
const CONTINUED_LINES: usize = 64;

/// Does a line go on onto the next: a trailing `\` (PowerShell's `` ` ``, cmd's `^`), or an open
/// bracket or a comma of a call or literal written over lines?
fn continues(line: &str) -> bool {
    line.trim_end()
        .ends_with(['\\', '`', '^', '(', '[', '{', ','])
}

/// Notes for the structures of the file that did not parse (their names were matched in a
/// simpler way). A template's YAML (`.gitlab-ci.yml.erb`, a Helm chart's templates) gets none:
/// its tags are masked before it is parsed, but a control tag written after a value
/// (`<%- if x %>url: "<%= x %>"<% end %>`) still leaves text YAML cannot hold, and reading its
/// keys line by line is what such a file needs, not something its author can fix.
pub fn parse_notes(ctx: &crate::syntax::FileCtx, errors: &mut Vec<FileError>) {
    let src = ctx.src;
    for (offset, message) in ctx.graphql_errors() {
        let (line, col) = src.line_col(offset);
        errors.push(FileError {
            path: src.path.to_string(),
            message: format!(
                "GraphQL document does not parse at {line}:{col}: {message}; its names were matched as words instead"
            ),
        });
    }
    if let Some((offset, message)) = ctx.yaml_error().filter(|_| !src.class.templated) {
        let (line, col) = src.line_col(*offset);
        errors.push(FileError {
            path: src.path.to_string(),
            message: format!(
                "YAML does not parse at {line}:{col}: {message}; keys were read line by line instead"
            ),
        });
    }
}
