//! JSON: the scan contract. Tests and scripts rely on its fields; keep it stable.

use serde::Serialize;

use super::Context;
use crate::baseline::BaselineCounts;
use crate::fleet::{ProjectTotals, RecordedOptions};
use crate::scan::{FileError, Finding, Report, Summary};
use crate::version::ServiceVersion;

#[derive(Serialize)]
struct Doc<'a> {
    target: ServiceVersion,
    current: Option<ServiceVersion>,
    min_version: Option<ServiceVersion>,
    api: &'a str,
    findings: &'a [Finding],
    errors: &'a [FileError],
    summary: &'a Summary,
    project: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    projects: &'a [ProjectTotals],
    data: &'a str,
    options: &'a RecordedOptions,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<BaselineCounts>,
}

/// Write the JSON report to `out` as it is serialized (no copy of the whole document in memory).
pub fn write_to(
    report: &Report,
    ctx: &Context,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let doc = Doc {
        target: ctx.target,
        current: ctx.current,
        min_version: ctx.min_version,
        api: if ctx.api_v5 { "v5" } else { "v4" },
        findings: &report.findings,
        errors: &report.errors,
        summary: &report.summary,
        project: ctx.origin.project.as_deref(),
        projects: &ctx.projects,
        data: &ctx.origin.data,
        options: &ctx.origin.options,
        baseline: ctx.baseline,
    };
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    out.write_all(b"\n")
}

/// The same, as `write` of the other formats.
pub fn write(
    report: &Report,
    ctx: &Context,
    mut out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    write_to(report, ctx, &mut out)
}

pub fn render(report: &Report, ctx: &Context) -> String {
    super::to_string(|out| write(report, ctx, out))
}
