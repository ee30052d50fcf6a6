//! `uplint merge`: JSON reports made one, written in any format.

use std::process::ExitCode;

use super::args::{Cli, MergeArgs, ScanFormat};
use super::scan::{render_as, timeline, write_atomically};
use super::{Failure, Outcome, print};
use uplint::catalog::Catalog;
use uplint::fleet::merge::merge as merge_reports;
use uplint::render::scan as render;

pub fn merge(cli: &Cli, a: &MergeArgs) -> Outcome {
    let formats = std::iter::once(a.format).chain(a.report.iter().map(|(f, _)| *f));
    if formats.into_iter().any(|f| f == ScanFormat::Rdjsonl) {
        return Err(Failure::Usage(
            "uplint merge cannot write rdjsonl: JSON reports do not carry the byte columns it needs; scan with --report rdjsonl=FILE instead".into(),
        ));
    }
    let mut inputs = Vec::new();
    for p in &a.reports {
        let text = std::fs::read_to_string(p)
            .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", p.display())))?;
        inputs.push((p.display().to_string(), text));
    }
    let cat = Catalog::load(&cli.data)?;
    let merged = merge_reports(&inputs, &cat).map_err(Failure::Usage)?;
    let current = match &merged.current {
        Some(c) => Some(
            cat.parse_cli_version("--current", c)
                .map_err(Failure::Usage)?,
        ),
        None => None,
    };
    let ctx = render::Context {
        target: merged.target,
        current: merged.current,
        min_version: merged.min_version,
        api_v5: merged.api_v5,
        elapsed: None,
        color: false,
        rules: render::rules_for(&merged.report, &cat),
        versions: timeline(&cat, current),
        origin: merged.origin,
        projects: merged.projects,
        baseline: merged.baseline,
    };
    for (format, path) in &a.report {
        write_atomically(path, &render_as(*format, &merged.report, &ctx))
            .map_err(Failure::Usage)?;
    }
    let out = render_as(a.format, &merged.report, &ctx);
    match &a.output {
        Some(path) => write_atomically(path, &out).map_err(Failure::Usage)?,
        None => print(&out),
    }
    Ok(ExitCode::SUCCESS)
}
