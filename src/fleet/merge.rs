//! `uplint merge`: JSON reports of shards of one repository, or of many repositories, made one.
//!
//! Reports are merged only when they judged against the same upgrade (`--target`, `--current`,
//! `--min-version`, `--api`) and the same data; the shards of a project must all be there, once.
//! Several projects: every path gets its project as a prefix (`group/app/.gitlab-ci.yml`) and
//! the result lists each project's counts.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Origin, ProjectTotals, RecordedOptions, data_digest};
use crate::baseline::BaselineCounts;
use crate::catalog::Catalog;
use crate::scan::shard::{Shard, ShardError};
use crate::scan::{FileError, Finding, Report, Summary, UnusedSuppression};
use crate::version::ServiceVersion;

/// A report as `uplint scan --format json` writes it.
#[derive(Deserialize)]
struct JsonReport {
    target: ServiceVersion,
    current: Option<ServiceVersion>,
    min_version: Option<ServiceVersion>,
    api: String,
    findings: Vec<Finding>,
    errors: Vec<FileError>,
    summary: Summary,
    project: Option<String>,
    data: String,
    options: RecordedOptions,
    #[serde(default)]
    projects: Vec<ProjectTotals>,
    #[serde(default)]
    baseline: Option<BaselineCounts>,
}

/// The merged reports, and what they were made for.
pub struct Merged {
    pub target: ServiceVersion,
    pub current: Option<ServiceVersion>,
    pub min_version: Option<ServiceVersion>,
    pub api_v5: bool,
    pub report: Report,
    pub origin: Origin,
    /// Each project's counts, when there are several.
    pub projects: Vec<ProjectTotals>,
    /// The baselines' counts, summed, when the scans used one.
    pub baseline: Option<BaselineCounts>,
}

/// Reports that cannot be merged: each error names the file and says what to do.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error(
        "{file}:{line}:{column}: not a JSON report of `uplint scan`: {source}; make one with `uplint scan --format json`"
    )]
    NotAReport {
        file: String,
        line: usize,
        column: usize,
        source: serde_json::Error,
    },
    #[error("{0}: a merge of several projects; merge the projects' own reports instead")]
    AlreadyMerged(String),
    #[error("no reports to merge")]
    Nothing,
    #[error(
        "cannot merge reports of different upgrades: {first} was made with {what} {a}, {other} with {what} {b}; scan every project with the same --target, --current, --min-version, --api and data"
    )]
    DifferentUpgrades {
        first: String,
        other: String,
        what: &'static str,
        a: String,
        b: String,
    },
    #[error(
        "{file} was made with other data ({found}) than this merge loads ({loaded}); give uplint merge the same --data files as the scans"
    )]
    OtherData {
        file: String,
        found: String,
        loaded: String,
    },
    #[error(
        "project {project} is in several reports ({files}) that are not the shards of one scan; give each project once, or all of its shards"
    )]
    NotShards { project: String, files: String },
    #[error("{file}: {source}")]
    BadShard { file: String, source: ShardError },
    #[error(
        "project {project}: {file} is shard {shard}, but another report is a shard of {total}; merge the shards of one --shard I/N run"
    )]
    ShardTotals {
        project: String,
        file: String,
        shard: Shard,
        total: u64,
    },
    #[error("project {project}: shard {shard} is in both {first} and {second}")]
    ShardTwice {
        project: String,
        shard: Shard,
        first: String,
        second: String,
    },
    #[error(
        "project {project}: {file} was scanned with other --select, --ignore or --exclude than {first}"
    )]
    OtherOptions {
        project: String,
        file: String,
        first: String,
    },
    #[error("project {project}: {missing}; the merge would not be the whole scan")]
    MissingShards { project: String, missing: String },
    #[error(
        "{file}: options.shard `{shard}` has {total} shards; at most {MAX_SHARD_TOTAL} are merged (GitLab's parallel: allows 200)"
    )]
    TooManyShards {
        file: String,
        shard: Shard,
        total: u64,
    },
    #[error(
        "{file}: {at}: {what}; a report of `uplint scan` counts lines and columns from 1, at most {MAX_POSITION}, and ends no earlier than it starts"
    )]
    BadPosition {
        file: String,
        at: String,
        what: String,
    },
    #[error(
        "{file}: {at}: `{id}` is neither an entry of the data nor unused-suppression; merge reports made with this data"
    )]
    UnknownRule {
        file: String,
        at: String,
        id: String,
    },
    #[error(
        "{file}: {what}: the reports' counts add up to more than {max}; a report of `uplint scan` counts what it scanned",
        max = usize::MAX
    )]
    CountOverflow { file: String, what: &'static str },
}

/// The most shards of one project a merge takes (a report claiming more is refused before
/// anything is counted per shard).
pub const MAX_SHARD_TOTAL: u64 = 10_000;

/// The largest line or column a merged report may give: a scanned file is at most 256 MiB, so
/// no real position comes near; anything above is refused before arithmetic meets it.
pub const MAX_POSITION: usize = 1 << 32;

/// A report read and checked, ready to be merged.
pub struct Parsed {
    name: String,
    report: JsonReport,
}

/// Read one report (`name` is its file, for errors): well-formed JSON of a report of `uplint
/// scan`, of one project, each finding's position sane and its rule one of `catalog`.
pub fn parse(name: &str, text: &str, catalog: &Catalog) -> Result<Parsed, MergeError> {
    let report: JsonReport =
        serde_json::from_str(text).map_err(|source| MergeError::NotAReport {
            file: name.to_string(),
            line: source.line(),
            column: source.column(),
            source,
        })?;
    if report.project.is_none() || !report.projects.is_empty() {
        return Err(MergeError::AlreadyMerged(name.to_string()));
    }
    check_findings(name, &report.findings, catalog)?;
    Ok(Parsed {
        name: name.to_string(),
        report,
    })
}

/// Merge reports given as (file name, text).
pub fn merge(inputs: &[(String, String)], catalog: &Catalog) -> Result<Merged, MergeError> {
    let parsed = inputs
        .iter()
        .map(|(name, text)| parse(name, text, catalog))
        .collect::<Result<Vec<_>, _>>()?;
    merge_parsed(parsed, catalog)
}

/// Merge reports read with [`parse`].
pub fn merge_parsed(parsed: Vec<Parsed>, catalog: &Catalog) -> Result<Merged, MergeError> {
    let names: Vec<String> = parsed.iter().map(|p| p.name.clone()).collect();
    let reports: Vec<(&str, JsonReport)> = names
        .iter()
        .map(String::as_str)
        .zip(parsed.into_iter().map(|p| p.report))
        .collect();
    let Some((first_name, first)) = reports.first() else {
        return Err(MergeError::Nothing);
    };
    same_upgrade(first_name, first, &reports[1..])?;
    let digest = data_digest(catalog);
    if first.data != digest {
        return Err(MergeError::OtherData {
            file: first_name.to_string(),
            found: first.data.clone(),
            loaded: digest,
        });
    }
    let (target, current, min_version) = (first.target, first.current, first.min_version);
    let api_v5 = first.api == "v5";
    let mut baseline: Option<BaselineCounts> = None;
    for (name, r) in &reports {
        if let Some(b) = r.baseline {
            baseline = Some(match baseline {
                None => b,
                Some(a) => BaselineCounts {
                    hidden: add(name, "baseline.hidden", a.hidden, b.hidden)?,
                    gone: add(name, "baseline.gone", a.gone, b.gone)?,
                },
            });
        }
    }
    let (mut report, projects, single) = combine(reports)?;
    report.finish();
    restore(&mut report.findings, catalog);
    let (project, options) = match single {
        Some((p, o)) => (Some(p), o),
        None => (None, RecordedOptions::default()),
    };
    Ok(Merged {
        target,
        current,
        min_version,
        api_v5,
        report,
        origin: Origin {
            project,
            data: digest,
            options,
        },
        projects,
        baseline,
    })
}

/// The reports merged per project, then together (paths prefixed with their project when
/// there are several); the single project and its options when there is one.
#[allow(clippy::type_complexity)]
fn combine(
    reports: Vec<(&str, JsonReport)>,
) -> Result<
    (
        Report,
        Vec<ProjectTotals>,
        Option<(String, RecordedOptions)>,
    ),
    MergeError,
> {
    let mut by_project: BTreeMap<String, Vec<(&str, JsonReport)>> = BTreeMap::new();
    for (name, r) in reports {
        let project = r.project.clone().unwrap_or_default();
        by_project.entry(project).or_default().push((name, r));
    }
    let several = by_project.len() > 1;
    let mut report = Report::default();
    let mut projects = Vec::new();
    let mut single = None;
    for (project, parts) in by_project {
        let first_file = parts[0].0;
        let (mut part, options) = merge_project(&project, parts)?;
        if several {
            projects.push(ProjectTotals::new(&project, &part.summary));
            for f in &mut part.findings {
                f.path = format!("{project}/{}", f.path);
            }
            for e in &mut part.errors {
                e.path = format!("{project}/{}", e.path);
            }
        } else {
            single = Some((project, options));
        }
        absorb(&mut report, part, first_file)?;
    }
    Ok((report, projects, single))
}

/// `a + b`, or the refusal of a count that does not fit.
fn add(file: &str, what: &'static str, a: usize, b: usize) -> Result<usize, MergeError> {
    a.checked_add(b).ok_or_else(|| MergeError::CountOverflow {
        file: file.to_string(),
        what,
    })
}

/// [`Report::absorb`] with every count added checked (`file` is the report added).
fn absorb(into: &mut Report, from: Report, file: &str) -> Result<(), MergeError> {
    let (a, b) = (&mut into.summary, &from.summary);
    a.files_scanned = add(
        file,
        "summary.files_scanned",
        a.files_scanned,
        b.files_scanned,
    )?;
    a.files_skipped_binary = add(
        file,
        "summary.files_skipped_binary",
        a.files_skipped_binary,
        b.files_skipped_binary,
    )?;
    a.suppressed = add(file, "summary.suppressed", a.suppressed, b.suppressed)?;
    a.before_current = add(
        file,
        "summary.before_current",
        a.before_current,
        b.before_current,
    )?;
    into.findings.extend(from.findings);
    into.errors.extend(from.errors);
    Ok(())
}

/// Each finding (and each edit of its fix) starts at line and column 1 or later, ends no
/// earlier than it starts, stays below [`MAX_POSITION`], and names a rule of the data.
fn check_findings(file: &str, findings: &[Finding], catalog: &Catalog) -> Result<(), MergeError> {
    let bad = |at: String, what: String| MergeError::BadPosition {
        file: file.to_string(),
        at,
        what,
    };
    for (i, f) in findings.iter().enumerate() {
        let at = format!("findings[{i}]");
        if catalog.get(&f.id).is_none() && f.id != UnusedSuppression::ID {
            return Err(MergeError::UnknownRule {
                file: file.to_string(),
                at: format!("{at}.id"),
                id: f.id.clone(),
            });
        }
        check_span((f.line, f.column, f.end_line, f.end_column))
            .map_err(|what| bad(at.clone(), what))?;
        for (j, e) in f.fix.iter().flat_map(|x| x.edits.iter()).enumerate() {
            check_span((e.line, e.column, e.end_line, e.end_column))
                .map_err(|what| bad(format!("{at}.fix.edits[{j}]"), what))?;
        }
    }
    Ok(())
}

/// What is wrong with a (line, column, end line, end column) extent, if anything.
fn check_span(
    (line, column, end_line, end_column): (usize, usize, usize, usize),
) -> Result<(), String> {
    let named = [
        ("line", line),
        ("column", column),
        ("end_line", end_line),
        ("end_column", end_column),
    ];
    for (name, v) in named {
        if v == 0 || v > MAX_POSITION {
            return Err(format!("{name} is {v}"));
        }
    }
    if end_line < line {
        return Err(format!("end_line {end_line} is before line {line}"));
    }
    if end_line == line && end_column < column {
        return Err(format!(
            "end_column {end_column} is before column {column} on the same line"
        ));
    }
    Ok(())
}

/// Every report was made for the same upgrade (target, current, min-version, API) and data as
/// the first.
fn same_upgrade(
    first_name: &str,
    first: &JsonReport,
    others: &[(&str, JsonReport)],
) -> Result<(), MergeError> {
    let shown = |v: Option<ServiceVersion>| v.map_or_else(|| "none".to_string(), |v| v.to_string());
    for (name, r) in others {
        for (what, a, b) in [
            ("--target", first.target.to_string(), r.target.to_string()),
            ("--current", shown(first.current), shown(r.current)),
            (
                "--min-version",
                shown(first.min_version),
                shown(r.min_version),
            ),
            ("--api", first.api.clone(), r.api.clone()),
            ("data", first.data.clone(), r.data.clone()),
        ] {
            if a != b {
                return Err(MergeError::DifferentUpgrades {
                    first: first_name.to_string(),
                    other: name.to_string(),
                    what,
                    a,
                    b,
                });
            }
        }
    }
    Ok(())
}

/// One project's reports made one: either its single whole report, or all of its shards.
fn merge_project(
    project: &str,
    parts: Vec<(&str, JsonReport)>,
) -> Result<(Report, RecordedOptions), MergeError> {
    let whole = |o: &RecordedOptions| o.shard.is_none() || o.shard.as_deref() == Some("1/1");
    if parts.len() > 1 && parts.iter().any(|(_, r)| whole(&r.options)) {
        let files: Vec<&str> = parts.iter().map(|(n, _)| *n).collect();
        return Err(MergeError::NotShards {
            project: project.to_string(),
            files: files.join(", "),
        });
    }
    let mut total = None;
    let mut seen = BTreeMap::new();
    let first_options = RecordedOptions {
        shard: None,
        ..parts[0].1.options.clone()
    };
    for (name, r) in &parts {
        if whole(&r.options) {
            continue;
        }
        let shard = r
            .options
            .shard
            .as_deref()
            .map(Shard::parse)
            .transpose()
            .map_err(|source| MergeError::BadShard {
                file: name.to_string(),
                source,
            })?
            .expect("not whole");
        if shard.total > MAX_SHARD_TOTAL {
            return Err(MergeError::TooManyShards {
                file: name.to_string(),
                shard,
                total: shard.total,
            });
        }
        if *total.get_or_insert(shard.total) != shard.total {
            return Err(MergeError::ShardTotals {
                project: project.to_string(),
                file: name.to_string(),
                shard,
                total: total.unwrap_or_default(),
            });
        }
        if let Some(other) = seen.insert(shard.index, *name) {
            return Err(MergeError::ShardTwice {
                project: project.to_string(),
                shard,
                first: other.to_string(),
                second: name.to_string(),
            });
        }
        if (RecordedOptions {
            shard: None,
            ..r.options.clone()
        }) != first_options
        {
            return Err(MergeError::OtherOptions {
                project: project.to_string(),
                file: name.to_string(),
                first: parts[0].0.to_string(),
            });
        }
    }
    if let Some(total) = total {
        check_all_shards(project, total, &seen)?;
    }
    let mut report = Report::default();
    for (name, r) in parts {
        let part = Report {
            findings: r.findings,
            errors: r.errors,
            summary: r.summary,
        };
        absorb(&mut report, part, name)?;
    }
    report.finish();
    Ok((report, first_options))
}

/// Every shard 1..=`total` of a project was given, or the error lists the missing ones.
fn check_all_shards(
    project: &str,
    total: u64,
    seen: &BTreeMap<u64, &str>,
) -> Result<(), MergeError> {
    // `total` is at most MAX_SHARD_TOTAL: this loop is bounded.
    let missing: Vec<String> = (1..=total)
        .filter(|i| !seen.contains_key(i))
        .map(|i| format!("{i}/{total}"))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let (noun, verb) = if missing.len() == 1 {
        ("shard", "is")
    } else {
        ("shards", "are")
    };
    const SHOWN: usize = 20;
    let mut list = missing[..missing.len().min(SHOWN)].join(", ");
    if missing.len() > SHOWN {
        list.push_str(&format!(" and {} more", missing.len() - SHOWN));
    }
    Err(MergeError::MissingShards {
        project: project.to_string(),
        missing: format!("{noun} {list} {verb} missing"),
    })
}

/// What a JSON report leaves out, for the other formats: the entry's surface and breaking flag
/// (from the catalog), the occurrence of each (rule, matched text) in its file (report order,
/// as the scan numbers them, so Code Quality fingerprints stay the same), and in place of the
/// source line, which JSON reports do not carry, the matched text.
fn restore(findings: &mut [Finding], catalog: &Catalog) {
    let mut occurrences: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for f in findings {
        match catalog.get(&f.id) {
            Some(e) => {
                f.surface = Some(e.surface);
                f.breaking = e.is_breaking();
            }
            None => f.surface = None,
        }
        let n = occurrences
            .entry((f.path.clone(), f.id.clone(), f.matched.clone()))
            .or_insert(0);
        f.occurrence = *n;
        *n += 1;
        f.source_line = f.matched.replace(['\n', '\r'], " ");
        f.excerpt_column = f.column;
    }
}
