//! The scan engine: walk a tree, classify each file, find which literals it holds, run the
//! detectors of the patterns it may hold, and hand their hits to the sink, which turns them into
//! findings for a target version. It produces findings and knows nothing of output formats.

#[cfg(target_os = "linux")]
mod directory_walk;
mod endpoint_contract;
mod file_guard;
pub mod finding;
#[cfg(unix)]
mod ignore_files;
mod includes;
mod prefilter;
pub mod shard;
mod sink;
mod suppress;
mod walk;

use std::path::PathBuf;
use std::sync::Arc;

use crate::syntax::embedded;
/// The file model the scan reads files with (kept here for the names the library had).
pub use crate::syntax::{classify, cmdline, graphql, source, yaml};
pub use finding::{Context, FileError, Finding, Severity, Status, Summary};
pub use includes::{CiProject, ci_project, ci_project_parts};
pub use sink::{UNUSED_SUPPRESSION, UnusedSuppression};

use crate::catalog::{Catalog, Entry};
use crate::syntax::classify::{FileKind, KindSet};
use crate::syntax::source::Source;
use crate::syntax::{FileCtx, FirstOffsets};
use crate::version::ServiceVersion;
use sink::{Produced, Sink};

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

/// A scanner that cannot be built from its options.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error("invalid per-path glob `{glob}`: {source}")]
    PerPathGlob {
        glob: String,
        source: globset::Error,
    },
}

/// What a detector looks for.
enum Detector {
    /// The uses of the entry's pattern of this index.
    Pattern(usize),
    /// The calls of an entry's endpoints that break their contract.
    EndpointContract,
    /// The distinctive forms of the entry's pattern of this index, in every file.
    Distinctive(usize),
}

/// One detector of one entry (an index of the catalog's entries), and the kinds of file it
/// applies to.
struct Target {
    entry: usize,
    detector: Detector,
    kinds: KindSet,
}

impl Target {
    fn applies(&self, kind: FileKind) -> bool {
        self.kinds.contains(kind)
    }

    fn detect(&self, entry: &Entry, ctx: &FileCtx) -> Vec<Produced> {
        match self.detector {
            Detector::Pattern(p) => entry.patterns[p]
                .pattern
                .detect(ctx)
                .into_iter()
                .map(|h| (h, None))
                .collect(),
            Detector::EndpointContract => endpoint_contract::detect(&entry.endpoints, ctx),
            Detector::Distinctive(p) => {
                let pattern = &entry.patterns[p];
                let hits: Vec<Produced> = (pattern.distinctive.iter())
                    .flat_map(|d| d.detect(ctx))
                    .map(|h| (h, None))
                    .collect();
                // Another system that writes the forms too is named in the file: the forms
                // alone are not the platform's (asked only where a form was found).
                if !hits.is_empty()
                    && crate::patterns::distinctive::names_other_system(&pattern.other_systems, ctx)
                {
                    return Vec::new();
                }
                hits
            }
        }
    }

    /// Are the target's hits requests of an endpoint (its REST path, or its contract), which a
    /// server route or a mock does not make?
    fn call(&self, entry: &Entry) -> sink::Call {
        let rest = |p: usize| {
            matches!(
                entry.patterns[p].pattern,
                crate::patterns::Pattern::RestEndpoint(_)
            )
        };
        match self.detector {
            Detector::EndpointContract => sink::Call::Contract,
            Detector::Pattern(p) | Detector::Distinctive(p) if rest(p) => sink::Call::Endpoint,
            _ => sink::Call::None,
        }
    }

    /// Are the target's hits a fallback, dropped where a precise detector of the same entry
    /// found the same text?
    fn fallback(&self) -> bool {
        matches!(self.detector, Detector::Distinctive(_))
    }
}

/// What scanning one file gave.
#[derive(Default)]
pub struct FileResult {
    pub findings: Vec<Finding>,
    pub errors: Vec<FileError>,
    pub suppressed: usize,
    pub before_current: usize,
}

/// Scratch space of one worker, reused across the files it scans.
#[derive(Default)]
pub struct Scratch {
    prefilter: prefilter::Scratch,
}

/// One file to scan: its shown path, its class, its text, and the CI configuration it is part
/// of (for CI files that a project's `.gitlab-ci.yml` is or includes).
#[derive(Clone, Copy)]
pub struct FileInput<'a> {
    pub path: &'a str,
    pub class: classify::Class,
    pub text: &'a str,
    pub ci_project: Option<crate::syntax::ci_jobs::ProjectJobs<'a>>,
}

/// A scanner built once from a catalog and options, then run over any number of files.
pub struct Scanner {
    /// Every entry of the catalog, selected or not (suppressions may name any).
    entries: Arc<[Entry]>,
    /// Which entries are looked for in this run ([`selected`]), by index.
    selected: Vec<bool>,
    targets: Vec<Target>,
    prefilter: prefilter::Prefilter,
    options: Options,
    per_path: Vec<(globset::GlobMatcher, Vec<String>)>,
    /// The words that show which system a file's names belong to (the catalog's evidence).
    evidence: Arc<crate::catalog::Evidence>,
}

/// A region's copy up to the end of the line where the region ends: the blank text after it
/// holds nothing to find, and parsing it again for each region made a file of many regions
/// (a spec's YAML heredocs) cost the number of regions times its size. The offsets before the
/// end are the file's own.
fn through_last_line(copy: &str, region_end: usize) -> &str {
    let end = region_end.min(copy.len());
    match memchr::memchr(b'\n', &copy.as_bytes()[end..]) {
        Some(i) => &copy[..end + i + 1],
        None => copy,
    }
}

/// Is the entry looked for in this run (`--select`, `--ignore`, detectable)?
fn selected(entry: &Entry, options: &Options) -> bool {
    entry.detectable
        && (options.select.is_empty() || options.select.iter().any(|s| sink::names(entry, s)))
        && !options.ignore.iter().any(|s| sink::names(entry, s))
}

impl Scanner {
    pub fn new(catalog: &Catalog, options: Options) -> Result<Scanner, ScanError> {
        let entries = catalog.shared_entries();
        let evidence = Arc::clone(catalog.evidence());
        let selected: Vec<bool> = entries.iter().map(|e| selected(e, &options)).collect();
        let mut targets = Vec::new();
        // Per target: the literals of which one must occur, those of which one must also, and
        // those it asks about.
        let mut needs: Vec<prefilter::Needs> = Vec::new();
        for (i, e) in entries.iter().enumerate().filter(|&(i, _)| selected[i]) {
            for (j, p) in e.patterns.iter().enumerate() {
                let kinds =
                    KindSet::of(FileKind::ALL.into_iter().filter(|&k| p.pattern.applies(k)));
                needs.push(prefilter::Needs {
                    anchors: p.anchors(),
                    context: p.context_anchors(&evidence),
                    searched: p.pattern.searched(&evidence),
                    kinds,
                });
                targets.push(Target {
                    entry: i,
                    detector: Detector::Pattern(j),
                    kinds,
                });
                // Its distinctive forms: in every file, whatever its kind.
                if !p.distinctive.is_empty() {
                    needs.push(prefilter::Needs {
                        anchors: p.distinctive.iter().map(|d| d.text().to_string()).collect(),
                        kinds: KindSet::all(),
                        ..Default::default()
                    });
                    targets.push(Target {
                        entry: i,
                        detector: Detector::Distinctive(j),
                        kinds: KindSet::all(),
                    });
                }
            }
            if e.change == crate::catalog::Change::Introduced && !e.endpoints.is_empty() {
                let mut searched: Vec<String> = e
                    .patterns
                    .iter()
                    .flat_map(|p| p.pattern.searched(&evidence))
                    .collect();
                searched.sort();
                searched.dedup();
                // Wherever one of the entry's patterns may occur.
                let kinds = KindSet::all();
                needs.push(prefilter::Needs {
                    anchors: e.patterns.iter().map(|p| p.anchor()).collect(),
                    searched,
                    kinds,
                    ..Default::default()
                });
                targets.push(Target {
                    entry: i,
                    detector: Detector::EndpointContract,
                    kinds,
                });
            }
        }
        let mut per_path = Vec::new();
        for (glob, ids) in &options.per_path_ignores {
            let g = globset::Glob::new(glob).map_err(|source| ScanError::PerPathGlob {
                glob: glob.clone(),
                source,
            })?;
            per_path.push((g.compile_matcher(), ids.clone()));
        }
        Ok(Scanner {
            prefilter: prefilter::Prefilter::new(&needs),
            entries,
            selected,
            targets,
            options,
            per_path,
            evidence,
        })
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Scan files and directories; `root` is what paths are shown relative to.
    pub fn scan_paths(&self, paths: &[PathBuf], root: &std::path::Path) -> Report {
        walk::scan(self, paths, root)
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
        self.scan_class_with(&mut Scratch::default(), path, class, text)
    }

    /// [`Self::scan_class`] with a scratch space kept from file to file (as a walking thread
    /// keeps its own), which spares making it again for each file.
    pub fn scan_class_with(
        &self,
        scratch: &mut Scratch,
        path: &str,
        class: classify::Class,
        text: &str,
    ) -> FileResult {
        let mut result = FileResult::default();
        let file = FileInput {
            path,
            class,
            text,
            ci_project: None,
        };
        self.scan_into(scratch, &file, &mut result);
        result
    }

    /// Scan one file's text into `result`, with a worker's scratch space.
    pub fn scan_into(&self, scratch: &mut Scratch, file: &FileInput, result: &mut FileResult) {
        let FileInput {
            path, class, text, ..
        } = *file;
        let in_use = embedded::markers_in_use(path, class);
        let markers = self.prefilter.candidates(
            text.as_bytes(),
            &mut scratch.prefilter,
            &in_use,
            classify::sniffed_kinds(class.kind),
        );
        let candidates = scratch.prefilter.candidates();
        if candidates.is_empty() && !markers.suppression {
            return;
        }
        // A bundler's minified output holds the libraries it was built from, not uses: asked only
        // of a file in which something was found.
        if classify::is_bundled(path, text) {
            return;
        }
        let class = classify::sniff(class, text);
        let src = Source::new(path, text, class);
        let surely_absent = |needle: &[u8]| scratch.prefilter.surely_absent(needle);
        let first = FirstOffsets {
            index: self.prefilter.index(),
            first: scratch.prefilter.first_offsets(),
            surely_absent: &surely_absent,
        };
        let ctx = FileCtx::new(&src)
            .with_evidence(&self.evidence)
            .with_ci_project(file.ci_project)
            .with_first_offsets(first, true);
        let mut sink = Sink::new(self);
        self.detect(candidates, &ctx, &mut sink);
        sink::parse_notes(&ctx, &mut result.errors);
        // Text of another kind inside the file (a block scalar of runner TOML, a heredoc of CI
        // YAML…), scanned as what it is on a copy blank outside it: the hits' offsets are the
        // file's own, so suppressions, repeats and places work as for the file.
        // One level of nesting too: runner TOML in the values of an Argo CD application. The
        // detectors see a region under the name of a file of its kind.
        let regions = if markers.embedded {
            embedded::regions_with_markers(path, class, text)
        } else {
            Vec::new()
        };
        for region in regions {
            let inner = embedded::isolate(text, &region);
            let inner = through_last_line(&inner, region.end);
            let inner_src = Source::new(region.file_name(), inner, region.class);
            let inner_ctx = FileCtx::new(&inner_src)
                .with_evidence(&self.evidence)
                .with_first_offsets(first, false);
            self.detect(candidates, &inner_ctx, &mut sink);
            for nested in embedded::regions(region.file_name(), region.class, inner) {
                let nested_text = embedded::isolate(inner, &nested);
                let nested_text = through_last_line(&nested_text, nested.end);
                let nested_src = Source::new(nested.file_name(), nested_text, nested.class);
                let nested_ctx = FileCtx::new(&nested_src)
                    .with_evidence(&self.evidence)
                    .with_first_offsets(first, false);
                self.detect(candidates, &nested_ctx, &mut sink);
            }
        }
        sink.finish(&src, markers.suppression, result);
    }

    /// Run the candidate detectors that apply to the file's kind, into the sink.
    fn detect(&self, candidates: &[usize], ctx: &FileCtx, sink: &mut Sink) {
        for &t in candidates {
            let target = &self.targets[t];
            if !target.applies(ctx.src.class.kind) {
                continue;
            }
            let fallback = target.fallback();
            let entry = &self.entries[target.entry];
            let call = target.call(entry);
            for (hit, verdict) in target.detect(entry, ctx) {
                if fills_from_replacement(ctx.src.text.as_bytes(), &hit, entry) {
                    continue;
                }
                sink.accept(target.entry, hit, verdict, fallback, call);
            }
        }
    }
}

/// Is the field found (a snake-case name) given the value of the entry's replacement field
/// later on its line (`"merge_status": mr.get("detailed_merge_status")`: an app's own key,
/// filled from the replacement)? Only where the replacement is itself a field's name, and the
/// field is a key or an assignment's target (`:`, `=`, `=>` after it): a read that falls back
/// to the replacement (`mr.get("merged_by") or mr.get("merge_user")`) still reads the field.
fn fills_from_replacement(b: &[u8], hit: &crate::patterns::Hit, entry: &Entry) -> bool {
    let snake = |s: &str| {
        s.contains('_')
            && s.bytes()
                .all(|c| c.is_ascii_lowercase() || c == b'_' || c.is_ascii_digit())
    };
    let Some(replacement) = entry.replacement.as_deref().filter(|r| snake(r)) else {
        return false;
    };
    if !snake(&hit.matched) || hit.end > b.len() {
        return false;
    }
    // Read at most 200 bytes on: a line of thousands of fields is not read to its end for each.
    let near = &b[hit.end..(hit.end + 200).min(b.len())];
    let rest = memchr::memchr(b'\n', near).map_or(near, |k| &near[..k]);
    let lead = rest
        .iter()
        .position(|&c| !matches!(c, b'"' | b'\'' | b']' | b' ' | b'\t'))
        .map_or(&[][..], |k| &rest[k..]);
    let filled = lead.starts_with(b":")
        || lead.starts_with(b"=>")
        || (lead.starts_with(b"=") && !lead.starts_with(b"=="));
    if !filled {
        return false;
    }
    let word = crate::syntax::is_ident_byte;
    memchr::memmem::find_iter(rest, replacement.as_bytes()).any(|i| {
        let before = i > 0 && word(rest[i - 1]);
        let after = rest.get(i + replacement.len()).is_some_and(|&c| word(c));
        !before && !after
    })
}

#[cfg(test)]
mod tests {
    use super::through_last_line;

    #[test]
    fn a_regions_copy_keeps_the_line_where_it_ends() {
        let copy = "    \n  a: 1\n  b: 2\n      \n    \n";
        let end = copy.find("b: 2").unwrap() + 2;
        assert_eq!(through_last_line(copy, end), "    \n  a: 1\n  b: 2\n");
        // Ending at the end of the text, or past the last line break.
        assert_eq!(through_last_line(copy, copy.len()), copy);
        assert_eq!(through_last_line("  a: 1", 6), "  a: 1");
        assert_eq!(through_last_line("  a: 1", 99), "  a: 1");
    }
}
