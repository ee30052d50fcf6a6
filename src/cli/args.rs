//! The command line: every command, flag and its help.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use uplint::config::{FailOn, Tests};

#[derive(Parser, Debug)]
#[command(
    name = "uplint",
    version,
    about = "Deprecation-schedule linter and query engine for the GitLab platform",
    long_about = "uplint knows the platform's schedule of deprecated and removed features (REST API v4 \
and v5, GraphQL, CI/CD variables and keywords, runner registration, Helm values, Omnibus settings, \
metrics) and the error tracking API. It answers questions about the schedule and finds removed items \
in a repository.",
    after_help = "Examples:\n  uplint scan --current 16.5 --target 17.0   what in this repository breaks in the upgrade\n  uplint query --from 16.5 --to 17.0         what breaks when upgrading from 16.5 to 17.0\n  uplint explain totalWeight                 what replaces totalWeight\n  uplint versions                            the timeline\n  uplint data check my-deprecations.yml      validate in-house data files",
    propagate_version = true
)]
pub struct Cli {
    /// Add data files or directories (same schema as the embedded data); repeatable.
    #[arg(long = "data", value_name = "PATH", global = true)]
    pub data: Vec<PathBuf>,

    /// When to use colour in diagnostics.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

// Parsed once per run: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List entries of the schedule, filtered.
    #[command(
        after_help = "Version filters select removals; --surface, --breaking and --search narrow them.\n\n\
Examples:\n  uplint query --from 16.5 --to 17.0          what breaks in an upgrade from 16.5 to 17.0\n  \
uplint query --removed-in 18.0 --format json\n  uplint query --api v5                       what REST API v5 removes\n  \
uplint query --surface graphql --search runner\n  uplint query --search='strategy: depend'     the entry of a line you found in a file\n  uplint query --breaking --format markdown"
    )]
    Query(QueryArgs),

    /// Everything about one entry, found by id or by a literal it detects.
    #[command(
        after_help = "Examples:\n  uplint explain ci-job-jwt\n  uplint explain CI_JOB_JWT_V2\n  uplint explain totalWeight\n  uplint explain --format json runnerRegistrationToken"
    )]
    Explain(ExplainArgs),

    /// The timeline: each version with its number of entries, and of those the schedule labels
    /// breaking.
    #[command(after_help = "Examples:\n  uplint versions\n  uplint versions --format json")]
    Versions(VersionsArgs),

    /// Find removed and deprecated items in files and directories.
    #[command(
        after_help = "Status and severity of a finding, for the target version:\n  \
removed             removed at or before the target                       error\n  \
deprecated          removed after the target (or in REST API v5)          warning\n  \
behaviour-change    behaves differently from a version <= the target      warning\n  \
unavailable         introduced after --min-version                        error\n  \
invalid-call        a call the spec rejects (missing required parameter)  error\n  \
unused-suppression  an `uplint: ignore[ID]` comment that hides nothing    warning\n\
An invalid call that only lacks the PRIVATE-TOKEN header is a warning; a finding whose context\n\
cannot confirm it (an HTTP method not in view) is info.\n\n\
Exit status: 0 no finding at the --fail-on level, 1 findings, 2 usage, configuration or data error.\n\n\
Suppress a finding with a comment `uplint: ignore[ID]` on its line or the line before, or a whole\n\
file with `uplint: ignore-file[ID]` in its first 10 lines. Settings are read from the nearest\n\
.uplint.yml above the scanned path (or --config FILE).\n\n\
Examples:\n  uplint scan                                  scan the current directory\n  uplint scan --target 17.0 --current 16.5     what breaks in the upgrade from 16.5 to 17.0\n  \
uplint scan --format concise .gitlab-ci.yml  one line per finding\n  uplint scan --format json --output uplint.json\n  uplint scan --select ci,helm --ignore ci-after-script-cancelled-jobs"
    )]
    Scan(ScanArgs),

    /// Merge JSON reports (the shards of one repository, or many repositories) into any format.
    #[command(
        after_help = "The reports must come from scans of one upgrade (same --target, --current, --min-version,\n\
--api and data); a project's shards must all be there. Reports of several projects give paths\n\
prefixed with the project, and the HTML and Markdown audits a per-project view.\n\n\
Examples:\n  uplint merge shard-*.json --format json --output uplint.json\n  \
uplint merge reports/*.json --format html --output fleet-audit.html --report markdown=fleet.md"
    )]
    Merge(MergeArgs),

    /// The Language Server Protocol over standard input and output: diagnostics, quick fixes
    /// and explanations in the editor.
    #[command(
        after_help = "Started by an editor, not by hand: see docs/editors.md. Documents are scanned as `uplint scan`\n\
scans their files, with the workspace's .uplint.yml (re-read when it changes).\n\n\
Example:\n  uplint server"
    )]
    Server,

    /// Work with data files.
    #[command(subcommand)]
    Data(DataCommand),
}

#[derive(Args, Debug)]
pub struct ScanArgs {
    /// Files or directories to scan.
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// The version being upgraded to [default: the newest version in the data].
    #[arg(long, value_name = "V")]
    pub target: Option<String>,

    /// The version running now: only what changes after it is reported.
    #[arg(long, value_name = "V")]
    pub current: Option<String>,

    /// The oldest server version the code must still work with: API parts introduced after it
    /// are reported as unavailable. With --target it defines the supported range.
    #[arg(long, value_name = "V")]
    pub min_version: Option<String>,

    /// `v5`: treat REST API v5 removals as removed (errors), not deprecations [default: v4].
    #[arg(long, value_name = "VERSION", value_parser = ["v4", "v5"])]
    pub api: Option<String>,

    /// Only these ids or surfaces (comma-separated or repeated).
    #[arg(long, value_name = "ID", value_delimiter = ',')]
    pub select: Vec<String>,

    /// Never these ids or surfaces (comma-separated or repeated).
    #[arg(long, value_name = "ID", value_delimiter = ',')]
    pub ignore: Vec<String>,

    /// The lowest severity that makes the exit status 1 [default: error].
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub fail_on: Option<FailOn>,

    /// Findings in tests (test files, mocks) [default: exclude].
    #[arg(long, value_enum, value_name = "MODE")]
    pub tests: Option<Tests>,

    /// Exit with status 0 even when there are findings.
    #[arg(long)]
    pub exit_zero: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = ScanFormat::Human)]
    pub format: ScanFormat,

    /// Write the report to FILE instead of standard output (`-`: standard output).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Also write a report in FORMAT to FILE (repeatable), e.g.
    /// `--report codequality=gl-code-quality-report.json --report sarif=uplint.sarif`.
    #[arg(long, value_name = "FORMAT=FILE", value_parser = parse_report)]
    pub report: Vec<(ScanFormat, PathBuf)>,

    /// Read settings from FILE instead of the nearest .uplint.yml.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,

    /// Do not read any .uplint.yml.
    #[arg(long)]
    pub no_config: bool,

    /// Globs of paths not to scan (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,

    /// Follow symbolic links (loops are detected and listed).
    #[arg(long)]
    pub follow: bool,

    /// Worker threads (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,

    /// Apply the safe fixes to the scanned files, then report what remains.
    #[arg(long)]
    pub fix: bool,

    /// Apply the unsafe fixes too (implies --fix unless --diff is given).
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Print the fixes as a unified diff and write nothing (exit 1 when there is one).
    #[arg(long, conflicts_with = "fix")]
    pub diff: bool,

    /// Scan only shard I of N of the files (a stable hash of each path relative to the root), or
    /// `auto`: GitLab's CI_NODE_INDEX/CI_NODE_TOTAL of a `parallel:` job.
    #[arg(long, value_name = "I/N|auto")]
    pub shard: Option<String>,

    /// The project name the JSON report records [default: CI_PROJECT_PATH, else the scanned
    /// directory's name].
    #[arg(long, value_name = "NAME")]
    pub project: Option<String>,

    /// Report only findings not recorded in this baseline file (see --write-baseline); the
    /// summary counts the hidden ones and the entries no longer found.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// Record every finding of this scan in a baseline file (line-independent fingerprints).
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// JSON reports of `uplint scan --format json`.
    #[arg(value_name = "REPORT", required = true)]
    pub reports: Vec<PathBuf>,

    /// Output format. rdjsonl is not one: JSON reports do not carry the byte columns it needs
    /// (scan with --report rdjsonl=FILE instead).
    #[arg(long, value_parser = merge_format(), default_value = "human")]
    pub format: ScanFormat,

    /// Write the result to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Also write the result in FORMAT to FILE (repeatable).
    #[arg(long, value_name = "FORMAT=FILE", value_parser = parse_report)]
    pub report: Vec<(ScanFormat, PathBuf)>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScanFormat {
    /// Grouped by file, with source lines and a summary.
    Human,
    /// One `path:line:col: severity id message` line per finding.
    Concise,
    /// The JSON contract: target, current, findings, errors, summary.
    Json,
    /// GitLab Code Quality (artifacts:reports:codequality).
    Codequality,
    /// SARIF 2.1.0 (GitHub code scanning).
    Sarif,
    /// JUnit XML (artifacts:reports:junit).
    Junit,
    /// GitHub Actions annotations.
    Github,
    /// reviewdog rdjsonl.
    Rdjsonl,
    /// Markdown for a merge-request comment.
    Markdown,
    /// A self-contained HTML audit report.
    Html,
}

/// A `--report` value that is not `FORMAT=FILE`.
#[derive(Debug, thiserror::Error)]
pub enum ReportArgError {
    #[error("expected FORMAT=FILE, e.g. sarif=uplint.sarif, not `{0}`")]
    NoEquals(String),
    #[error("unknown format `{0}`; expected one of {1}")]
    UnknownFormat(String, String),
    #[error("the report needs a file name after `=`")]
    NoFile,
}

/// The formats `merge` writes: every scan format but rdjsonl, with their help.
fn merge_format() -> impl clap::builder::TypedValueParser<Value = ScanFormat> {
    let names = ScanFormat::value_variants()
        .iter()
        .filter(|f| **f != ScanFormat::Rdjsonl)
        .filter_map(ValueEnum::to_possible_value);
    clap::builder::TypedValueParser::map(clap::builder::PossibleValuesParser::new(names), |s| {
        ScanFormat::from_str(&s, false).expect("a name of a format")
    })
}

fn parse_report(s: &str) -> Result<(ScanFormat, PathBuf), ReportArgError> {
    let (format, file) = s
        .split_once('=')
        .ok_or_else(|| ReportArgError::NoEquals(s.to_string()))?;
    let format = ScanFormat::from_str(format, true).map_err(|_| {
        let names: Vec<String> = ScanFormat::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        ReportArgError::UnknownFormat(format.to_string(), names.join(", "))
    })?;
    if file.is_empty() {
        return Err(ReportArgError::NoFile);
    }
    Ok((format, PathBuf::from(file)))
}

#[derive(Args, Debug)]
pub struct QueryArgs {
    /// Entries removed in exactly this version (`17.0`, or `v5` for the REST API v5).
    #[arg(long, value_name = "V")]
    pub removed_in: Option<String>,

    /// Lower end of an upgrade window (exclusive): the version running now.
    #[arg(long, value_name = "V")]
    pub from: Option<String>,

    /// Upper end of an upgrade window (inclusive): the version upgraded to.
    #[arg(long, value_name = "V")]
    pub to: Option<String>,

    /// v5: add the REST API v5 removals to what the other filters select (alone: list only
    /// them); v4: the default, as with scan.
    #[arg(long, value_name = "VERSION", value_parser = ["v4", "v5"])]
    pub api: Option<String>,

    /// Only these surfaces (comma-separated or repeated): rest, graphql, ci, runner, helm, …
    #[arg(long, value_name = "S", value_delimiter = ',')]
    pub surface: Vec<String>,

    /// Only the entries the schedule itself labels breaking (today those of the REST API v5
    /// table). What an upgrade breaks is everything removed or changed in its window:
    /// --from A --to B.
    #[arg(long)]
    pub breaking: bool,

    /// Case-insensitive text over id, title, replacement and notes, or the way an item is written
    /// in files, punctuation and case aside (`strategy: depend`, `$CI_JOB_JWT_V2`); a form that
    /// starts with `-` goes after `=`: `--search=--registration-token`.
    #[arg(long, value_name = "TEXT")]
    pub search: Option<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = QueryFormat::Human)]
    pub format: QueryFormat,

    /// Print the literals the selected entries are detected by, one per line, sorted and unique
    /// (the scanner's prefilter; e.g. for `rg -F -f`).
    #[arg(long, conflicts_with = "format")]
    pub literals: bool,
}

/// The formats of `query`. The one for people is `human` in every command (`table` is its
/// former name here, still accepted).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum QueryFormat {
    /// A table, one entry per row, and a count.
    #[value(alias = "table")]
    Human,
    /// An array of entries, as `explain --format json` gives one.
    Json,
    /// The entries as YAML.
    Yaml,
    /// A Markdown table.
    Markdown,
    /// Comma-separated values with a header row.
    Csv,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// An entry id (`ci-job-jwt`), a literal it detects (`CI_JOB_JWT_V2`, `totalWeight`), or the
    /// way the item is written in a file, punctuation and case aside (`strategy: depend`).
    #[arg(value_name = "ID|TOKEN")]
    pub target: String,

    /// Output format.
    #[arg(long, value_enum, default_value_t = ExplainFormat::Human)]
    pub format: ExplainFormat,
}

/// The formats of `explain` and `versions`. The one for people is `human` in every command
/// (`text` is its former name here, still accepted).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    /// Labelled text (explain) or a table (versions).
    #[value(alias = "text")]
    Human,
    /// JSON.
    Json,
}

#[derive(Args, Debug)]
pub struct VersionsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExplainFormat::Human)]
    pub format: ExplainFormat,
}

#[derive(Subcommand, Debug)]
pub enum DataCommand {
    /// Validate data files (same checks as loading; ids must not clash with the embedded data).
    #[command(
        after_help = "Exit status: 0 when every file is valid, 2 otherwise.\n\nExample:\n  uplint data check deprecations/ in-house.yml"
    )]
    Check {
        /// Files or directories of `.yml`/`.yaml` files.
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
    },
}
