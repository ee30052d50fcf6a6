//! JSON: the scan contract. Tests and scripts rely on its fields; keep it stable.

use serde::Serialize;

use super::Context;
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
