//! `uplint scan`: settings from the command line and `.uplint.yml`, the scan, the report, the
//! exit status.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use super::args::{Cli, FailOnArg, ScanArgs, ScanFormat};
use super::{Failure, Outcome, print, use_color_stdout};
use uplint::baseline::{self, Baseline};
use uplint::catalog::{Catalog, DataErrors};
use uplint::config::{self, Config, FailOn};
use uplint::fleet;
use uplint::render::scan as render;
use uplint::scan::shard::Shard;
use uplint::scan::{Options, Scanner, Severity};
use uplint::version::ServiceVersion;

fn version(cat: &Catalog, flag: &str, s: &str) -> Result<ServiceVersion, Failure> {
    cat.parse_cli_version(flag, s).map_err(Failure::Usage)
}

pub fn scan(cli: &Cli, a: &ScanArgs) -> Outcome {
    for p in &a.paths {
        if std::fs::symlink_metadata(p).is_err() {
            return Err(Failure::Usage(format!(
                "{}: no such file or directory",
                p.display()
            )));
        }
    }
    // Settings: the command line wins over the file.
    let config = if a.no_config {
        None
    } else {
        let path = match &a.config {
            Some(p) => Some(p.clone()),
            None => config::find(&a.paths[0]),
        };
        match path {
            Some(p) => Some(Config::load(&p).map_err(|e| Failure::Data(DataErrors(e)))?),
            None => None,
        }
    };
    let mut data = cli.data.clone();
    if let Some(c) = &config {
        data.extend(c.data.iter().cloned());
    }
    let cat = Catalog::load(&data)?;
    if let Some(c) = &config {
        c.check_ids(&cat)
            .map_err(|e| Failure::Data(DataErrors(e)))?;
    }
    for s in a.select.iter().chain(&a.ignore) {
        if !config::is_id_or_surface(&cat, s) {
            return Err(Failure::Usage(format!(
                "`{s}` is neither an entry id nor a surface (see `uplint query`)"
            )));
        }
    }
    let target = match &a.target {
        Some(s) => version(&cat, "--target", s)?,
        None => match config.as_ref().and_then(|c| c.target) {
            Some(v) => v,
            None => cat
                .newest_removal()
                .ok_or_else(|| Failure::Usage("the data names no version to target".into()))?,
        },
    };
    let current = match &a.current {
        Some(s) => Some(version(&cat, "--current", s)?),
        None => config.as_ref().and_then(|c| c.current),
    };
    let min_version = match &a.min_version {
        Some(s) => Some(version(&cat, "--min-version", s)?),
        None => config.as_ref().and_then(|c| c.min_version),
    };
    if let Some(m) = min_version
        && m > target
    {
        return Err(Failure::Usage(format!(
            "--min-version {m} is after --target {target}: the supported range is empty"
        )));
    }
    if let Some(c) = current
        && c > target
    {
        return Err(Failure::Usage(format!(
            "--current {c} is after --target {target}"
        )));
    }
    let api_v5 = match a.api.as_deref() {
        Some(v) => v == "v5",
        None => config.as_ref().is_some_and(|c| c.api_v5),
    };
    let fail_on = match a.fail_on {
        Some(FailOnArg::Error) => FailOn::Error,
        Some(FailOnArg::Warning) => FailOn::Warning,
        Some(FailOnArg::Never) => FailOn::Never,
        None => config
            .as_ref()
            .and_then(|c| c.fail_on)
            .unwrap_or(FailOn::Error),
    };
    let mut options = Options::new(target);
    options.current = current;
    options.min_version = min_version;
    options.api_v5 = api_v5;
    options.threads = a.threads;
    options.follow_links = a.follow;
    options.select = a.select.clone();
    options.ignore = a.ignore.clone();
    options.exclude = a.exclude.clone();
    options.shard = a
        .shard
        .as_deref()
        .map(|s| Shard::resolve(s, |k| std::env::var(k).ok()))
        .transpose()
        .map_err(Failure::Usage)?;
    if let Some(c) = &config {
        if options.select.is_empty() {
            options.select = c.select.clone();
        }
        options.ignore.extend(c.ignore.iter().cloned());
        options.per_path_ignores = c.per_path_ignores.clone();
        options.exclude.extend(c.exclude.iter().cloned());
    }
    let scanner = Scanner::new(&cat, options).map_err(Failure::Usage)?;

    // Paths are shown relative to the one directory scanned, else as given.
    let root: PathBuf = match a.paths.as_slice() {
        [one] if one.is_dir() => one.clone(),
        _ => PathBuf::from("."),
    };
    // The baseline is read before the scan, so that a bad file is known at once.
    let baseline = a
        .baseline
        .clone()
        .or_else(|| config.as_ref().and_then(|c| c.baseline.clone()))
        .map(|p| Baseline::load(&p))
        .transpose()
        .map_err(Failure::Usage)?;
    let started = Instant::now();
    let mut report = scanner.scan_paths(&a.paths, &root);
    let elapsed = started.elapsed();
    if let Some(path) = &a.write_baseline {
        write_atomically(path, &baseline::render(&report)).map_err(Failure::Usage)?;
    }
    let baseline = baseline.map(|b| b.apply(&mut report, scanner.options().shard.as_ref()));

    let to_terminal = a.output.is_none();
    let mut ctx = render::Context {
        target: target.to_string(),
        current: current.map(|c| c.to_string()),
        min_version: min_version.map(|m| m.to_string()),
        api_v5,
        elapsed: Some(elapsed),
        color: false,
        rules: render::rules_for(&report, &cat),
        versions: timeline(&cat, current),
        origin: fleet::Origin {
            project: Some(fleet::project_name(
                a.project.as_deref(),
                std::env::var("CI_PROJECT_PATH").ok(),
                &root,
            )),
            data: fleet::data_digest(&cat),
            options: fleet::RecordedOptions {
                shard: scanner.options().shard.map(|s| s.to_string()),
                select: scanner.options().select.clone(),
                ignore: scanner.options().ignore.clone(),
                exclude: scanner.options().exclude.clone(),
            },
        },
        projects: Vec::new(),
        baseline,
    };
    // Every extra report first, so a failure to write one is known before the main output.
    for (format, path) in &a.report {
        let out = render_as(*format, &report, &ctx);
        write_atomically(path, &out).map_err(Failure::Usage)?;
    }
    ctx.color = to_terminal && use_color_stdout(cli.color);
    match (&a.output, a.format) {
        // The largest report, streamed: memory stays flat however many findings there are.
        (None, ScanFormat::Json) => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            // A closed pipe (`| head`) is not an error.
            let _ = render::json_to(&report, &ctx, &mut out).and_then(|()| out.flush());
        }
        (Some(path), format) => {
            write_atomically(path, &render_as(format, &report, &ctx)).map_err(Failure::Usage)?
        }
        (None, format) => print(&render_as(format, &report, &ctx)),
    }

    let worst = report.findings.iter().map(|f| f.severity).max();
    let fails = match fail_on {
        FailOn::Never => false,
        FailOn::Error => worst == Some(Severity::Error),
        FailOn::Warning => worst >= Some(Severity::Warning),
    };
    Ok(if fails && !a.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

pub(super) fn render_as(
    format: ScanFormat,
    report: &uplint::scan::Report,
    ctx: &render::Context,
) -> String {
    match format {
        ScanFormat::Human => render::human(report, ctx),
        ScanFormat::Concise => render::concise(report),
        ScanFormat::Json => render::json(report, ctx),
        ScanFormat::Codequality => render::codequality(report),
        ScanFormat::Sarif => render::sarif(report, ctx),
        ScanFormat::Junit => render::junit(report, ctx),
        ScanFormat::Github => render::github(report),
        ScanFormat::Rdjsonl => render::rdjsonl(report),
        ScanFormat::Markdown => render::markdown(report, ctx),
        ScanFormat::Html => render::html(report, ctx),
    }
}

/// The versions of the timeline: every removal milestone of the data, and the version running
/// now.
pub(super) fn timeline(cat: &Catalog, current: Option<ServiceVersion>) -> Vec<String> {
    let mut milestones = cat.removal_milestones();
    if let Some(c) = current.map(uplint::version::Milestone::Service)
        && !milestones.contains(&c)
    {
        milestones.push(c);
        milestones.sort();
    }
    milestones.iter().map(|m| m.to_string()).collect()
}

/// Write through a temporary file beside the target and rename it: a reader never sees a
/// half-written report, and a failed write leaves the old file.
pub fn write_atomically(path: &Path, content: &str) -> Result<(), String> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.uplint-tmp-{}", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| {
            f.write_all(content.as_bytes())?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {e}", path.display())
    })
}
