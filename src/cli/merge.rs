//! `uplint merge`: JSON reports made one, written in any format.

use std::path::Path;
use std::process::ExitCode;

use super::args::{Cli, MergeArgs, ScanFormat};
use super::scan::timeline;
use super::{Failure, Outcome, Usage};
use uplint::catalog::Catalog;
use uplint::fleet::merge::{merge_parsed as merge_reports, parse as parse_report};
use uplint::render::scan as render;
use uplint::scan::Report;

pub fn merge(cli: &Cli, a: &MergeArgs) -> Outcome {
    let formats = std::iter::once(a.format).chain(a.report.iter().map(|(f, _)| *f));
    if formats.into_iter().any(|f| f == ScanFormat::Rdjsonl) {
        return Err(Usage::MergeRdjsonl.into());
    }
    let cat = Catalog::load(&cli.data)?;
    // Each report is parsed as it is read, and its text dropped: memory holds the reports'
    // findings, not their texts as well.
    let mut parsed = Vec::new();
    for p in &a.reports {
        let text = std::fs::read_to_string(p).map_err(|source| Usage::Unreadable {
            path: p.clone(),
            source,
        })?;
        let name = p.display().to_string();
        parsed.push(parse_report(&name, &text, &cat).map_err(Usage::Merge)?);
    }
    let merged = merge_reports(parsed, &cat).map_err(Usage::Merge)?;
    let ctx = render::Context {
        target: merged.target,
        current: merged.current,
        min_version: merged.min_version,
        api_v5: merged.api_v5,
        elapsed: None,
        color: false,
        rules: render::rules_for(&merged.report, &cat),
        versions: timeline(&cat, merged.current),
        origin: merged.origin,
        projects: merged.projects,
        baseline: merged.baseline,
        tests_in_full: false,
    };
    // Each output is written as it is formatted: memory never holds a formatted whole.
    for (format, path) in &a.report {
        write_as(path, *format, &merged.report, &ctx)?;
    }
    let output = a.output.as_deref().unwrap_or(Path::new("-"));
    write_as(output, a.format, &merged.report, &ctx)?;
    Ok(ExitCode::SUCCESS)
}

/// Write `report` in `format` to `path` (`-`: standard output), streamed.
fn write_as(
    path: &Path,
    format: ScanFormat,
    report: &Report,
    ctx: &render::Context,
) -> Result<(), Failure> {
    Ok(uplint::output::write_output(path, |w| match format {
        ScanFormat::Human => render::write_human(report, ctx, w),
        ScanFormat::Concise => render::write_concise(report, w),
        ScanFormat::Json => render::write_json(report, ctx, w),
        ScanFormat::Codequality => render::write_codequality(report, w),
        ScanFormat::Sarif => render::write_sarif(report, ctx, w),
        ScanFormat::Junit => render::write_junit(report, ctx, w),
        ScanFormat::Github => render::write_github(report, w),
        ScanFormat::Rdjsonl => render::write_rdjsonl(report, w),
        ScanFormat::Markdown => render::write_markdown(report, ctx, w),
        ScanFormat::Html => render::write_html(report, ctx, w),
    })?)
}
