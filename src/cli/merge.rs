//! `uplint merge`: JSON reports made one, written in any format.

use std::process::ExitCode;

use super::args::{Cli, MergeArgs, ScanFormat};
use super::scan::{render_as, timeline, write_file};
use super::{Outcome, Usage, print};
use uplint::catalog::Catalog;
use uplint::fleet::merge::merge as merge_reports;
use uplint::render::scan as render;

pub fn merge(cli: &Cli, a: &MergeArgs) -> Outcome {
    let formats = std::iter::once(a.format).chain(a.report.iter().map(|(f, _)| *f));
    if formats.into_iter().any(|f| f == ScanFormat::Rdjsonl) {
        return Err(Usage::MergeRdjsonl.into());
    }
    let mut inputs = Vec::new();
    for p in &a.reports {
        let text = std::fs::read_to_string(p).map_err(|source| Usage::Unreadable {
            path: p.clone(),
            source,
        })?;
        inputs.push((p.display().to_string(), text));
    }
    let cat = Catalog::load(&cli.data)?;
    let merged = merge_reports(&inputs, &cat).map_err(Usage::Merge)?;
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
    };
    for (format, path) in &a.report {
        write_file(path, &render_as(*format, &merged.report, &ctx))?;
    }
    let out = render_as(a.format, &merged.report, &ctx);
    match a
        .output
        .as_deref()
        .filter(|p| *p != std::path::Path::new("-"))
    {
        Some(path) => write_file(path, &out)?,
        None => print(&out)?,
    }
    Ok(ExitCode::SUCCESS)
}
