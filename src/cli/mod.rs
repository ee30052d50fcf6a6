//! Wiring: parse the command line, load the catalog, run a command, print, choose the exit status.

pub mod args;
mod fix;
mod merge;
mod query;
mod scan;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, ColorChoice, Command, DataCommand};
use uplint::catalog::error::InvalidVersion;
use uplint::catalog::{Catalog, DataErrors};
use uplint::output::WriteError;
use uplint::version::ServiceVersion;

/// How a command failed. Every failure exits with status 2.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Bad arguments or configuration: one message.
    #[error(transparent)]
    Usage(#[from] Usage),
    /// Invalid data or configuration files: diagnostics with source snippets.
    #[error(transparent)]
    Data(#[from] DataErrors),
}

/// A bad argument, an impossible combination, an output that cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum Usage {
    #[error(transparent)]
    Version(#[from] InvalidVersion),
    #[error("invalid value `{value}` for {flag}: the REST API versions are v4 and v5")]
    ApiVersion { flag: &'static str, value: String },
    #[error("{}: no such file or directory", .0.display())]
    NoSuchPath(std::path::PathBuf),
    #[error("`{0}` is neither an entry id nor a surface (see `uplint query`)")]
    UnknownId(String),
    #[error("unknown surface `{0}`; expected one of {1}")]
    UnknownSurface(String, String),
    #[error("no entry has the id or detects `{0}`; try `uplint query --search {0}`")]
    NoEntry(String),
    #[error("the data names no version to target")]
    NoTarget,
    #[error("--min-version {min} is after --target {target}: the supported range is empty")]
    EmptyRange {
        min: uplint::version::ServiceVersion,
        target: uplint::version::ServiceVersion,
    },
    #[error("--current {current} is after --target {target}")]
    CurrentAfterTarget {
        current: uplint::version::ServiceVersion,
        target: uplint::version::ServiceVersion,
    },
    #[error("--from {from} is after --to {to}: the window is (from, to]")]
    EmptyWindow {
        from: uplint::version::ServiceVersion,
        to: uplint::version::ServiceVersion,
    },
    #[error("--removed-in cannot be combined with --from/--to")]
    RemovedInWithWindow,
    /// The scan engine's own check of its options.
    #[error(transparent)]
    Scanner(#[from] uplint::scan::ScanError),
    #[error(transparent)]
    Shard(#[from] uplint::scan::shard::ShardError),
    #[error(transparent)]
    Baseline(#[from] uplint::baseline::BaselineError),
    #[error(transparent)]
    Merge(#[from] uplint::fleet::merge::MergeError),
    #[error(
        "uplint merge cannot write rdjsonl: JSON reports do not carry the byte columns it needs; scan with --report rdjsonl=FILE instead"
    )]
    MergeRdjsonl,
    #[error("cannot read {}: {source}", path.display())]
    Unreadable {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error("uplint server: {0}")]
    Server(uplint::server::ServerError),
    /// Standard output failed (a full disk, a closed terminal); a closed pipe is not this.
    #[error("cannot write standard output: {0}")]
    Stdout(std::io::Error),
}

impl From<InvalidVersion> for Failure {
    fn from(e: InvalidVersion) -> Self {
        Failure::Usage(e.into())
    }
}

impl From<WriteError> for Failure {
    fn from(e: WriteError) -> Self {
        Failure::Usage(e.into())
    }
}

pub type Outcome = Result<ExitCode, Failure>;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    let color = cli.color;
    match run(cli) {
        Ok(code) => code,
        Err(f) => {
            report_failure(&f, color);
            ExitCode::from(2)
        }
    }
}

/// Help, the version, or a usage error from the parser; help that cannot be written is a failure.
fn clap_exit(e: &clap::Error) -> ExitCode {
    match e.print() {
        Err(w) if e.use_stderr() || w.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(w) => {
            let _ = writeln!(std::io::stderr(), "error: {}", Usage::Stdout(w));
            return ExitCode::from(2);
        }
        Ok(()) => {}
    }
    // clap's own statuses: 0 for help and the version, 2 for a usage error.
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

fn run(cli: Cli) -> Outcome {
    match &cli.command {
        Command::Data(DataCommand::Check { files }) => query::data_check(files),
        Command::Query(a) => query::query(&load(&cli)?, a),
        Command::Explain(a) => query::explain(&load(&cli)?, a),
        Command::Versions(a) => query::versions(&load(&cli)?, a),
        Command::Scan(a) => scan::scan(&cli, a),
        Command::Merge(a) => merge::merge(&cli, a),
        Command::Server => server(&cli),
    }
}

/// `uplint server`: status 0 after `shutdown` and `exit`, 1 when the client left without them.
fn server(cli: &Cli) -> Outcome {
    use uplint::server::{End, ServerError, StartError};
    match uplint::server::run(cli.data.clone()) {
        Ok(End::Clean) => Ok(ExitCode::SUCCESS),
        Ok(End::Abrupt) => Ok(ExitCode::from(1)),
        Err(ServerError::Start(StartError::Data(e))) => Err(e.into()),
        Err(e) => Err(Usage::Server(e).into()),
    }
}

pub fn load(cli: &Cli) -> Result<Catalog, Failure> {
    Ok(Catalog::load(&cli.data)?)
}

/// A version past the newest one the data names is allowed (the data may lag the platform),
/// but said once on standard error: nothing removed after that version is known.
pub fn warn_past_data(cat: &Catalog, setting: &str, v: Option<ServiceVersion>) {
    let newest = cat.service_versions().last().copied();
    if let (Some(v), Some(newest)) = (v, newest)
        && v > newest
    {
        eprintln!(
            "uplint: warning: {setting} {v} is past the newest version the data covers ({newest}): \
             what is removed after {newest} is not known to this build of uplint"
        );
    }
}

/// Colour for standard output: `--color`, else `NO_COLOR` and whether it is a terminal.
pub fn use_color_stdout(choice: ColorChoice) -> bool {
    use_color(choice, std::io::stdout().is_terminal())
}

/// Write to stdout; a closed pipe (`uplint query | head`) is not an error, any other failure is.
pub fn print(s: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    stdout_result(out.write_all(s.as_bytes()).and_then(|()| out.flush()))
}

/// The outcome of writing standard output: a closed pipe ends the output quietly.
pub fn stdout_result(r: std::io::Result<()>) -> Result<(), Failure> {
    match r {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Usage::Stdout(e).into()),
        _ => Ok(()),
    }
}

fn use_color(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && terminal,
    }
}

fn report_failure(f: &Failure, color: ColorChoice) {
    let mut err = std::io::stderr().lock();
    match f {
        Failure::Usage(usage) => {
            let _ = writeln!(err, "error: {usage}");
        }
        Failure::Data(errors) => {
            let theme = if use_color(color, std::io::stderr().is_terminal()) {
                miette::GraphicalTheme::unicode()
            } else {
                miette::GraphicalTheme::unicode_nocolor()
            };
            let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
            for e in &errors.0 {
                let mut s = String::new();
                let _ = handler.render_report(&mut s, e);
                let _ = write!(err, "{s}");
            }
            let n = errors.0.len();
            let what = if errors.0.iter().all(|e| e.config) {
                "configuration"
            } else {
                "data"
            };
            let _ = writeln!(
                err,
                "error: invalid {what}: {n} problem{}; nothing was loaded",
                if n == 1 { "" } else { "s" }
            );
        }
    }
}
