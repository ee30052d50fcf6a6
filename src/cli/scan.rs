//! `uplint scan`: settings from the command line and `.uplint.yml`, the scan, the report, the
//! exit status.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use super::args::{Cli, ScanArgs, ScanFormat};
use super::{Failure, Outcome, Usage, print, use_color_stdout};
use uplint::baseline::{self, Baseline};
use uplint::catalog::{Catalog, DataErrors};
use uplint::config::{self, Config, FailOn, Origin, Settings, Tests};
use uplint::fleet;
use uplint::render::scan as render;
use uplint::scan::shard::Shard;
use uplint::scan::{Options, Report, Scanner, Severity};
use uplint::version::ServiceVersion;

pub fn scan(cli: &Cli, a: &ScanArgs) -> Outcome {
    if let Some(p) = a
        .paths
        .iter()
        .find(|p| std::fs::symlink_metadata(p).is_err())
    {
        return Err(Usage::NoSuchPath(p.clone()).into());
    }
    // Before anything is read or written: no output may be redirected by the scanned tree.
    check_outputs(a)?;
    let config = load_config(a)?;
    let mut data = cli.data.clone();
    data.extend(config.iter().flat_map(|c| c.data.iter().cloned()));
    let cat = Catalog::load(&data)?;
    if let Some(c) = &config {
        c.check_ids(&cat).map_err(DataErrors)?;
    }
    let baseline_path = a
        .baseline
        .clone()
        .or_else(|| config.as_ref().and_then(|c| c.baseline.clone()));
    // The one merge: the command line over the file.
    let mut settings = config.map(|c| c.settings).unwrap_or_default();
    settings.update(&command_line(a, &cat)?);
    for (flag, v) in [
        ("the target version", settings.target),
        ("the current version", settings.current),
        ("the minimum version", settings.min_version),
    ] {
        super::warn_past_data(&cat, flag, v);
    }
    let options = options(&settings, &cat, a)?;
    let scanner = Scanner::new(&cat, options).map_err(Usage::Scanner)?;

    // Paths are shown relative to the one directory scanned, else as given.
    let root: PathBuf = match a.paths.as_slice() {
        [one] if one.is_dir() => one.clone(),
        _ => PathBuf::from("."),
    };
    // The baseline is read before the scan, so that a bad file is known at once.
    let baseline = baseline_path
        .map(|p| Baseline::load(&p))
        .transpose()
        .map_err(Usage::Baseline)?;
    let started = Instant::now();
    let mut report = scanner.scan_paths(&a.paths, &root);
    let elapsed = started.elapsed();
    let tests = settings.tests.unwrap_or_default();
    if tests == Tests::Ignore {
        report.findings.retain(|f| !f.context.is_test());
        report.finish();
    }
    let fixes = super::fix::settings(&settings, scanner.options());
    // Fixes read (and write) the files the walk found, as it found them.
    let o = scanner.options();
    let reach = uplint::fix::confined::Confinement::new(&a.paths, o.follow_links, o.max_file_size);
    uplint::fix::apply::attach_report(&mut report, &cat, &reach, fixes.range_start);
    if a.diff {
        return super::fix::diff(&scanner, &cat, &report, &reach, fixes);
    }
    let mut refused = false;
    if settings.fix == Some(true) {
        (report, refused) = super::fix::fix(&scanner, &cat, report, &a.paths, &root, &reach, fixes);
    }
    if let Some(path) = &a.write_baseline {
        write_file(path, &baseline::render(&report))?;
    }
    let baseline = baseline.map(|b| b.apply(&mut report, scanner.options().shard.as_ref()));
    let mut ctx = context(&report, &cat, scanner.options(), elapsed);
    // Only the JSON report records what was scanned (the data digest costs a serialization).
    let json = std::iter::once(a.format)
        .chain(a.report.iter().map(|(f, _)| *f))
        .any(|f| f == ScanFormat::Json);
    if json {
        ctx.origin = origin(a, &cat, scanner.options(), &root);
    }
    ctx.baseline = baseline;
    ctx.tests_in_full = tests == Tests::Include;
    write_reports(cli, a, &report, ctx)?;
    let code = if refused {
        ExitCode::from(2)
    } else {
        exit_code(
            &report,
            settings.fail_on.unwrap_or_default(),
            tests,
            a.exit_zero,
        )
    };
    // The process ends with this call: freeing the catalog's, the scanner's and the report's
    // blocks one by one would cost 0.2-0.3 ms of a one-file scan's 4-5 ms, for nothing.
    std::mem::forget((cat, scanner, report));
    Ok(code)
}

/// The directories whose links an output may not pass through: each directory given, the
/// directory of each file given (canonical: links resolved), and the git work tree around each
/// (the nearest directory above holding `.git`): `uplint scan src --report junit=report.xml`
/// run at the top of an untrusted checkout must not write through the checkout's links either.
fn scanned_roots(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = paths
        .iter()
        .filter_map(|p| {
            let c = p.canonicalize().ok()?;
            if c.is_dir() {
                Some(c)
            } else {
                c.parent().map(Path::to_path_buf)
            }
        })
        .collect();
    let work_trees: Vec<PathBuf> = roots
        .iter()
        .filter_map(|r| {
            r.ancestors()
                .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
                .map(Path::to_path_buf)
        })
        .collect();
    roots.extend(work_trees);
    roots.sort();
    roots.dedup();
    roots
}

/// Every output of the run (`--output`, each `--report`, `--write-baseline`) checked against
/// the scanned roots: one that the tree could redirect through a link refuses the whole run.
fn check_outputs(a: &ScanArgs) -> Result<(), Failure> {
    let roots = scanned_roots(&a.paths);
    let outputs = a
        .output
        .iter()
        .chain(a.report.iter().map(|(_, p)| p))
        .chain(a.write_baseline.iter());
    for p in outputs {
        uplint::output::check_confined(p, &roots)?;
    }
    Ok(())
}

/// What the report records of the scan: the project, the data, the options beyond the window.
fn origin(a: &ScanArgs, cat: &Catalog, o: &Options, root: &Path) -> fleet::Origin {
    fleet::Origin {
        project: Some(fleet::project_name(
            a.project.as_deref(),
            std::env::var("CI_PROJECT_PATH").ok(),
            root,
        )),
        data: fleet::data_digest(cat),
        options: fleet::RecordedOptions {
            shard: o.shard.map(|s| s.to_string()),
            select: o.select.clone(),
            ignore: o.ignore.clone(),
            exclude: o.exclude.clone(),
        },
    }
}

/// The configuration file: `--config FILE` as given, else the nearest `.uplint.yml`, confined
/// to the tree it is found in.
fn load_config(a: &ScanArgs) -> Result<Option<Config>, Failure> {
    if a.no_config {
        return Ok(None);
    }
    let found = match &a.config {
        Some(p) => Some((p.clone(), Origin::CommandLine)),
        None => config::find(&a.paths[0]).map(|p| (p, Origin::Found)),
    };
    let Some((path, origin)) = found else {
        return Ok(None);
    };
    Ok(Some(Config::load(&path, origin).map_err(DataErrors)?))
}

/// The settings the command line gives.
fn command_line(a: &ScanArgs, cat: &Catalog) -> Result<Settings, Failure> {
    for s in a.select.iter().chain(&a.ignore) {
        if !config::is_id_or_surface(cat, s) {
            return Err(Usage::UnknownId(s.clone()).into());
        }
    }
    let version = |flag: &str, v: &Option<String>| -> Result<Option<ServiceVersion>, Failure> {
        Ok(match v {
            Some(s) => Some(cat.parse_cli_version(flag, s)?),
            None => None,
        })
    };
    Ok(Settings {
        target: version("--target", &a.target)?,
        current: version("--current", &a.current)?,
        min_version: version("--min-version", &a.min_version)?,
        api_v5: a.api.as_deref().map(|v| v == "v5"),
        select: a.select.clone(),
        ignore: a.ignore.clone(),
        per_path_ignores: Vec::new(),
        exclude: a.exclude.clone(),
        fail_on: a.fail_on,
        tests: a.tests,
        fix: (a.fix || a.unsafe_fixes).then_some(true),
        unsafe_fixes: a.unsafe_fixes.then_some(true),
    })
}

/// The scan's options from the merged settings: the target defaults to the newest removal,
/// and the versions must be in order.
fn options(s: &Settings, cat: &Catalog, a: &ScanArgs) -> Result<Options, Usage> {
    let target = match s.target {
        Some(v) => v,
        None => cat.newest_removal().ok_or(Usage::NoTarget)?,
    };
    if let Some(min) = s.min_version
        && min > target
    {
        return Err(Usage::EmptyRange { min, target });
    }
    if let Some(current) = s.current
        && current > target
    {
        return Err(Usage::CurrentAfterTarget { current, target });
    }
    let mut options = Options::new(target);
    options.current = s.current;
    options.min_version = s.min_version;
    options.api_v5 = s.api_v5.unwrap_or(false);
    options.threads = a.threads;
    options.follow_links = a.follow;
    options.select.clone_from(&s.select);
    options.ignore.clone_from(&s.ignore);
    options.per_path_ignores.clone_from(&s.per_path_ignores);
    options.exclude.clone_from(&s.exclude);
    options.shard = a
        .shard
        .as_deref()
        .map(|v| Shard::resolve(v, |k| std::env::var(k).ok()))
        .transpose()?;
    Ok(options)
}

fn context(
    report: &Report,
    cat: &Catalog,
    o: &Options,
    elapsed: std::time::Duration,
) -> render::Context {
    render::Context {
        target: o.target,
        current: o.current,
        min_version: o.min_version,
        api_v5: o.api_v5,
        elapsed: Some(elapsed),
        color: false,
        rules: render::rules_for(report, cat),
        versions: timeline(cat, o.current),
        origin: fleet::Origin::default(),
        projects: Vec::new(),
        baseline: None,
        tests_in_full: false,
    }
}

/// Every extra report first, so a failure to write one is known before the main output.
fn write_reports(
    cli: &Cli,
    a: &ScanArgs,
    report: &Report,
    mut ctx: render::Context,
) -> Result<(), Failure> {
    for (format, path) in &a.report {
        write_file(path, &render_as(*format, report, &ctx))?;
    }
    // `--output -` is standard output.
    let output = a.output.as_deref().filter(|p| *p != Path::new("-"));
    ctx.color = output.is_none() && use_color_stdout(cli.color);
    match (output, a.format) {
        // The largest report, streamed: memory stays flat however many findings there are.
        (None, ScanFormat::Json) => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            // A closed pipe (`| head`) is not an error.
            super::stdout_result(
                render::json_to(report, &ctx, &mut out).and_then(|()| out.flush()),
            )?;
        }
        (Some(path), format) => write_file(path, &render_as(format, report, &ctx))?,
        (None, format) => print(&render_as(format, report, &ctx))?,
    }
    Ok(())
}

/// 1 when a finding reaches the `--fail-on` level (and not `--exit-zero`), else 0. Findings in
/// tests count only with `--tests include`.
fn exit_code(report: &Report, fail_on: FailOn, tests: Tests, exit_zero: bool) -> ExitCode {
    let worst = report
        .findings
        .iter()
        .filter(|f| tests == Tests::Include || !f.context.is_test())
        .map(|f| f.severity)
        .max();
    let fails = match fail_on {
        FailOn::Never => false,
        FailOn::Error => worst == Some(Severity::Error),
        FailOn::Warning => worst >= Some(Severity::Warning),
    };
    if fails && !exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

pub(super) fn render_as(format: ScanFormat, report: &Report, ctx: &render::Context) -> String {
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
pub(super) fn timeline(
    cat: &Catalog,
    current: Option<ServiceVersion>,
) -> Vec<uplint::version::Milestone> {
    let mut milestones = cat.removal_milestones();
    if let Some(c) = current.map(uplint::version::Milestone::Service)
        && !milestones.contains(&c)
    {
        milestones.push(c);
        milestones.sort();
    }
    milestones
}

/// Write an output file (`-` is standard output) without damaging what is there.
pub(super) fn write_file(path: &Path, content: &str) -> Result<(), Failure> {
    Ok(uplint::output::write_output(path, |w| {
        w.write_all(content.as_bytes())
    })?)
}
