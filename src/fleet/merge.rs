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
use crate::scan::shard::Shard;
use crate::scan::{FileError, Finding, Report, Summary};

/// A report as `uplint scan --format json` writes it.
#[derive(Deserialize)]
struct JsonReport {
    target: String,
    current: Option<String>,
    min_version: Option<String>,
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
    pub target: String,
    pub current: Option<String>,
    pub min_version: Option<String>,
    pub api_v5: bool,
    pub report: Report,
    pub origin: Origin,
    /// Each project's counts, when there are several.
    pub projects: Vec<ProjectTotals>,
    /// The baselines' counts, summed, when the scans used one.
    pub baseline: Option<BaselineCounts>,
}

/// Merge reports given as (file name, text). Errors name the file and say what to do.
pub fn merge(inputs: &[(String, String)], catalog: &Catalog) -> Result<Merged, String> {
    let mut reports = Vec::new();
    for (name, text) in inputs {
        let r: JsonReport = serde_json::from_str(text).map_err(|e| {
            format!(
                "{name}:{}:{}: not a JSON report of `uplint scan`: {e}; make one with `uplint scan --format json`",
                e.line(),
                e.column()
            )
        })?;
        if r.project.is_none() || !r.projects.is_empty() {
            return Err(format!(
                "{name}: a merge of several projects; merge the projects' own reports instead"
            ));
        }
        reports.push((name.as_str(), r));
    }
    let Some((first_name, first)) = reports.first() else {
        return Err("no reports to merge".into());
    };
    let none = || "none".to_string();
    for (name, r) in &reports[1..] {
        for (what, a, b) in [
            ("--target", first.target.clone(), r.target.clone()),
            (
                "--current",
                first.current.clone().unwrap_or_else(none),
                r.current.clone().unwrap_or_else(none),
            ),
            (
                "--min-version",
                first.min_version.clone().unwrap_or_else(none),
                r.min_version.clone().unwrap_or_else(none),
            ),
            ("--api", first.api.clone(), r.api.clone()),
            ("data", first.data.clone(), r.data.clone()),
        ] {
            if a != b {
                return Err(format!(
                    "cannot merge reports of different upgrades: {first_name} was made with {what} {a}, {name} with {what} {b}; scan every project with the same --target, --current, --min-version, --api and data"
                ));
            }
        }
    }
    let digest = data_digest(catalog);
    if first.data != digest {
        return Err(format!(
            "{first_name} was made with other data ({}) than this merge loads ({digest}); give uplint merge the same --data files as the scans",
            first.data
        ));
    }
    let (target, current, min_version) = (
        first.target.clone(),
        first.current.clone(),
        first.min_version.clone(),
    );
    let api_v5 = first.api == "v5";
    let baseline = reports
        .iter()
        .filter_map(|(_, r)| r.baseline)
        .reduce(|a, b| BaselineCounts {
            hidden: a.hidden + b.hidden,
            gone: a.gone + b.gone,
        });

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
        report.absorb(part);
    }
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

/// One project's reports made one: either its single whole report, or all of its shards.
fn merge_project(
    project: &str,
    parts: Vec<(&str, JsonReport)>,
) -> Result<(Report, RecordedOptions), String> {
    let whole = |o: &RecordedOptions| o.shard.is_none() || o.shard.as_deref() == Some("1/1");
    if parts.len() > 1 && parts.iter().any(|(_, r)| whole(&r.options)) {
        let files: Vec<&str> = parts.iter().map(|(n, _)| *n).collect();
        return Err(format!(
            "project {project} is in several reports ({}) that are not the shards of one scan; give each project once, or all of its shards",
            files.join(", ")
        ));
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
            .map_err(|e| format!("{name}: {e}"))?
            .expect("not whole");
        if *total.get_or_insert(shard.total) != shard.total {
            return Err(format!(
                "project {project}: {name} is shard {shard}, but another report is a shard of {}; merge the shards of one --shard I/N run",
                total.unwrap_or_default()
            ));
        }
        if let Some(other) = seen.insert(shard.index, *name) {
            return Err(format!(
                "project {project}: shard {shard} is in both {other} and {name}"
            ));
        }
        if (RecordedOptions {
            shard: None,
            ..r.options.clone()
        }) != first_options
        {
            return Err(format!(
                "project {project}: {name} was scanned with other --select, --ignore or --exclude than {}",
                parts[0].0
            ));
        }
    }
    if let Some(total) = total {
        let missing: Vec<String> = (1..=total)
            .filter(|i| !seen.contains_key(i))
            .map(|i| format!("{i}/{total}"))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "project {project}: {} {} {} missing; the merge would not be the whole scan",
                if missing.len() == 1 {
                    "shard"
                } else {
                    "shards"
                },
                missing.join(", "),
                if missing.len() == 1 { "is" } else { "are" }
            ));
        }
    }
    let mut report = Report::default();
    for (_, r) in parts {
        report.absorb(Report {
            findings: r.findings,
            errors: r.errors,
            summary: r.summary,
        });
    }
    report.finish();
    Ok((report, first_options))
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
                f.surface = e.surface.as_str().to_string();
                f.breaking = e.is_breaking();
            }
            None => f.surface = "uplint".to_string(),
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
