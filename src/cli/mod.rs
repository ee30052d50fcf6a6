//! Wiring: parse the command line, load the catalog, run a command, print, choose the exit status.

pub mod args;
mod merge;
mod query;
mod scan;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, ColorChoice, Command, DataCommand};
use uplint::catalog::{Catalog, DataErrors};

/// How a command failed. Every failure exits with status 2.
pub enum Failure {
    /// Bad arguments or configuration: one message.
    Usage(String),
    /// Invalid data files: diagnostics with source snippets.
    Data(DataErrors),
}

impl From<DataErrors> for Failure {
    fn from(e: DataErrors) -> Self {
        Failure::Data(e)
    }
}

pub type Outcome = Result<ExitCode, Failure>;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let color = cli.color;
    match run(cli) {
        Ok(code) => code,
        Err(f) => {
            report_failure(&f, color);
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Outcome {
    match &cli.command {
        Command::Data(DataCommand::Check { files }) => query::data_check(files),
        Command::Query(a) => query::query(&load(&cli)?, a),
        Command::Explain(a) => query::explain(&load(&cli)?, a),
        Command::Versions(a) => query::versions(&load(&cli)?, a),
        Command::Scan(a) => scan::scan(&cli, a),
        Command::Merge(a) => merge::merge(&cli, a),
    }
}

pub fn load(cli: &Cli) -> Result<Catalog, Failure> {
    Ok(Catalog::load(&cli.data)?)
}

/// Write to stdout; a closed pipe (`uplint query | head`) is not an error.
/// Colour for standard output: `--color`, else `NO_COLOR` and whether it is a terminal.
pub fn use_color_stdout(choice: ColorChoice) -> bool {
    use_color(choice, std::io::stdout().is_terminal())
}

pub fn print(s: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes());
    let _ = out.flush();
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
        Failure::Usage(msg) => {
            let _ = writeln!(err, "error: {msg}");
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
            let _ = writeln!(
                err,
                "error: invalid data: {n} problem{}; nothing was loaded",
                if n == 1 { "" } else { "s" }
            );
        }
    }
}
