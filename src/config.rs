//! `.uplint.yml`: project settings for `uplint scan`, found upward from the scanned path.
//!
//! ```yaml
//! target: "17.0"          # the version being upgraded to
//! current: "16.5"         # the version running now
//! min-version: "14.0"     # the oldest server an API client must still work with
//! api: v5                 # treat REST API v5 removals as removed
//! select: [ci, helm]      # ids or surfaces to look for (default: all)
//! ignore: [ci-after-script-cancelled-jobs]
//! per-path-ignores:
//!   "legacy/**": [ci-job-jwt]
//! exclude: ["vendor/**", "**/testdata/**"]
//! data: [deprecations/]   # extra data files, relative to this file
//! fail-on: warning        # error (default), warning or never
//! tests: exclude          # test findings: exclude (default: reported, not counted by fail-on),
//!                         # include (counted as production) or ignore (left out)
//! baseline: uplint-baseline.json   # hide the findings it records, relative to this file
//! fix: true               # apply the safe fixes (as --fix); --config files only
//! unsafe-fixes: true      # with fix (or --fix, --diff): the unsafe fixes too; --config only
//! ```
//!
//! The scanned tree is untrusted. A file found in it ([`Origin::Found`]) may not set `fix` or
//! `unsafe-fixes` (refused: the scanned files cannot turn on writes into themselves; they come
//! from the command line or a file named with `--config`). Booleans are the YAML booleans `true`
//! and `false`, unquoted: `"yes"`, `on`, `"true"` are refused at their line and column. A path a
//! file names (`data`, `baseline`) must stay inside its directory; a refusal uses the same words
//! whether what lies outside exists, is a link, a directory or a FIFO, and never shows where a
//! link leads.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde_saphyr::Spanned;

use crate::catalog::error::{DataError, nearest};
use crate::catalog::{Catalog, Surface};
use crate::version::ServiceVersion;

/// The names uplint looks for, in this order, in each directory up from the scanned path.
pub const FILE_NAMES: [&str; 2] = [".uplint.yml", ".uplint.yaml"];

/// The largest configuration file read when found in the scanned tree, and the largest data
/// file a configuration file may name.
pub const MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

type S = Spanned<String>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Raw {
    target: Option<S>,
    current: Option<S>,
    min_version: Option<S>,
    api: Option<S>,
    select: Option<Vec<S>>,
    ignore: Option<Vec<S>>,
    per_path_ignores: Option<BTreeMap<String, Vec<S>>>,
    exclude: Option<Vec<S>>,
    data: Option<Vec<S>>,
    fail_on: Option<S>,
    tests: Option<S>,
    baseline: Option<S>,
    fix: Option<Spanned<Flag>>,
    unsafe_fixes: Option<Spanned<Flag>>,
}

/// A boolean setting: the YAML booleans `true` and `false`, unquoted, and nothing else (not
/// the string `"yes"`, not YAML 1.1's `on`).
#[derive(Clone, Copy, Debug)]
struct Flag(bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Flag, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Flag;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`true` or `false` (a YAML boolean, unquoted)")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Flag, E> {
                Ok(Flag(v))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// When findings make `uplint scan` exit with status 1 (`fail-on:`, `--fail-on`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    #[default]
    Error,
    Warning,
    Never,
}

/// What is done with the findings in tests (`tests:`, `--tests`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Tests {
    /// Reported apart, and not counted by `--fail-on`.
    #[default]
    Exclude,
    /// Counted by `--fail-on` as production findings are.
    Include,
    /// Left out of the report entirely.
    Ignore,
}

/// The settings of a scan, from one source: the configuration file or the command line.
/// [`Settings::update`] layers one source over another.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub target: Option<ServiceVersion>,
    pub current: Option<ServiceVersion>,
    pub min_version: Option<ServiceVersion>,
    pub api_v5: Option<bool>,
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub per_path_ignores: Vec<(String, Vec<String>)>,
    pub exclude: Vec<String>,
    pub fail_on: Option<FailOn>,
    /// What is done with the findings in tests.
    pub tests: Option<Tests>,
    /// Apply the safe fixes (`fix:`, `--fix`).
    pub fix: Option<bool>,
    /// Apply the unsafe fixes too (`unsafe-fixes:`, `--unsafe-fixes`).
    pub unsafe_fixes: Option<bool>,
}

impl Settings {
    /// Layer `over` (the command line) over these settings (the file): each value it gives
    /// wins, its `select` replaces when not empty, and its ignores and excludes come first and
    /// add up with these.
    pub fn update(&mut self, over: &Settings) {
        fn before(first: &[String], then: &mut Vec<String>) {
            then.splice(0..0, first.iter().cloned());
        }
        self.target = over.target.or(self.target);
        self.current = over.current.or(self.current);
        self.min_version = over.min_version.or(self.min_version);
        self.api_v5 = over.api_v5.or(self.api_v5);
        if !over.select.is_empty() {
            self.select.clone_from(&over.select);
        }
        before(&over.ignore, &mut self.ignore);
        before(&over.exclude, &mut self.exclude);
        self.per_path_ignores
            .splice(0..0, over.per_path_ignores.iter().cloned());
        self.fail_on = over.fail_on.or(self.fail_on);
        self.tests = over.tests.or(self.tests);
        self.fix = over.fix.or(self.fix);
        self.unsafe_fixes = over.unsafe_fixes.or(self.unsafe_fixes);
    }
}

/// Where a configuration file came from, which decides what it may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Found in or above the scanned tree: the file must lie in the directory it was found
    /// in (after resolving links), be a regular file and not be larger than [`MAX_FILE_SIZE`].
    Found,
    /// Named with `--config`: the user's choice, read wherever it is.
    CommandLine,
}

/// A loaded configuration file.
pub struct Config {
    pub path: PathBuf,
    pub settings: Settings,
    /// The data files it names, each checked to lie inside the directory tree of the file.
    pub data: Vec<PathBuf>,
    /// The baseline file it names (`baseline:`), checked like the data files.
    pub baseline: Option<PathBuf>,
    raw: Raw,
    text: Arc<str>,
}

/// The configuration file that applies to `start`: the nearest one in it or above it.
pub fn find(start: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(start).ok()?;
    let mut dir = if abs.is_dir() {
        Some(abs.as_path())
    } else {
        abs.parent()
    };
    while let Some(d) = dir {
        for name in FILE_NAMES {
            let p = d.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
        dir = d.parent();
    }
    None
}

fn err<T>(name: &str, text: &Arc<str>, s: &Spanned<T>, message: String, help: &str) -> DataError {
    let o = s.referenced.span().byte_offset().unwrap_or(0) as usize;
    let l = s.referenced.span().byte_len().unwrap_or(1) as usize;
    DataError::at(name, text, o, l.max(1), message).with_help(help)
}

/// Collects the problems of one configuration file.
struct Checker<'a> {
    name: &'a str,
    text: &'a Arc<str>,
    errors: Vec<DataError>,
}

impl Checker<'_> {
    fn push<T>(&mut self, s: &Spanned<T>, message: String, help: &str) {
        self.errors
            .push(err(self.name, self.text, s, message, help));
    }

    fn version(&mut self, s: &Option<S>, field: &str) -> Option<ServiceVersion> {
        let s = s.as_ref()?;
        let parsed = s.value.parse().ok();
        if parsed.is_none() {
            self.push(
                s,
                format!("`{}` is not a valid version for `{field}`", s.value),
                "write a service version such as \"17.0\" (quoted, so YAML keeps it a string)",
            );
        }
        parsed
    }

    fn api_v5(&mut self, s: &Option<S>) -> Option<bool> {
        let s = s.as_ref()?;
        match s.value.as_str() {
            "v5" => Some(true),
            "v4" => Some(false),
            _ => {
                self.push(s, format!("unknown api `{}`", s.value), "expected v4 or v5");
                None
            }
        }
    }

    fn fail_on(&mut self, s: &Option<S>) -> Option<FailOn> {
        let s = s.as_ref()?;
        let parsed = <FailOn as clap::ValueEnum>::from_str(&s.value, false).ok();
        if parsed.is_none() {
            let guess = nearest(&s.value, ["error", "warning", "never"])
                .map(|g| format!("did you mean `{g}`? "))
                .unwrap_or_default();
            self.push(
                s,
                format!("unknown fail-on `{}`", s.value),
                &format!("{guess}fail-on takes error, warning or never"),
            );
        }
        parsed
    }

    fn tests(&mut self, s: &Option<S>) -> Option<Tests> {
        let s = s.as_ref()?;
        let parsed = <Tests as clap::ValueEnum>::from_str(&s.value, false).ok();
        if parsed.is_none() {
            self.push(
                s,
                format!("unknown tests `{}`", s.value),
                "expected exclude, include or ignore",
            );
        }
        parsed
    }

    fn globs(&mut self, list: &Option<Vec<S>>) -> Vec<String> {
        for s in list.iter().flatten() {
            if let Err(e) = globset::Glob::new(&s.value) {
                self.push(
                    s,
                    format!("invalid glob `{}`: {e}", s.value),
                    "a glob such as `vendor/**`",
                );
            }
        }
        strings(list)
    }

    /// The data files the `data` setting names, each inside the tree of `dir`.
    fn data(&mut self, list: &Option<Vec<S>>, dir: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        let shown_dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let root = std::fs::canonicalize(shown_dir);
        for s in list.iter().flatten() {
            let confined = match &root {
                Ok(root) => confine::data(root, dir, &s.value),
                Err(e) => Err(confine::Refusal::Unreadable(e.kind())),
            };
            match confined {
                Ok(found) => files.extend(found),
                Err(refusal) => self.push(
                    s,
                    format!("`data` path `{}` is refused: {refusal}", s.value),
                    &format!(
                        "a configuration file may only name files inside its own directory ({}), by relative paths; pass other data with --data",
                        shown_dir.display()
                    ),
                ),
            }
        }
        files
    }
}

impl Checker<'_> {
    /// A setting that turns on writes (`fix`, `unsafe-fixes`): the user's to give, on the
    /// command line or in a file named with `--config`, never the scanned tree's.
    fn write_setting(
        &mut self,
        value: &Option<Spanned<Flag>>,
        key: &str,
        flag: &str,
        origin: Origin,
    ) {
        if let (Some(s), Origin::Found) = (value, origin) {
            self.push(
                s,
                format!("`{key}` is not read from a configuration file found in the scanned tree: the scanned files cannot turn on writes into themselves"),
                &format!("give it as {flag} on the command line, or in a configuration file named with --config"),
            );
        }
    }

    /// The baseline file a configuration names: relative, inside the file's directory tree,
    /// a regular file (or not there yet).
    fn baseline(&mut self, value: &Option<S>, dir: &Path) -> Option<PathBuf> {
        let s = value.as_ref()?;
        let shown_dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let confined = match std::fs::canonicalize(shown_dir) {
            Ok(root) => confine::data(&root, dir, &s.value),
            Err(e) => Err(confine::Refusal::Unreadable(e.kind())),
        };
        match confined {
            Ok(found) if found == [dir.join(&s.value)] => found.into_iter().next(),
            Ok(_) => {
                self.push(
                    s,
                    format!("`baseline` path `{}` is a directory", s.value),
                    "name the baseline file, e.g. `baseline: uplint-baseline.json`",
                );
                None
            }
            Err(refusal) => {
                self.push(
                    s,
                    format!("`baseline` path `{}` is refused: {refusal}", s.value),
                    &format!(
                        "a configuration file may only name files inside its own directory ({}), by relative paths; pass another baseline with --baseline",
                        shown_dir.display()
                    ),
                );
                None
            }
        }
    }
}

fn strings(v: &Option<Vec<S>>) -> Vec<String> {
    v.iter().flatten().map(|s| s.value.clone()).collect()
}

impl Config {
    /// Read and check a configuration file. A file [`Origin::Found`] in the tree must lie in
    /// the directory it was found in; the data files any configuration names must lie inside
    /// its directory tree. A refused file is not read, and no error shows what it holds.
    pub fn load(path: &Path, origin: Origin) -> Result<Config, Vec<DataError>> {
        Config::read(path, origin).map_err(as_config_errors)
    }

    fn read(path: &Path, origin: Origin) -> Result<Config, Vec<DataError>> {
        let name = path.display().to_string();
        let text: Arc<str> = confine::config_file(path, origin == Origin::Found)
            .map_err(|e| vec![DataError::file(&name, e.to_string())])?
            .into();
        let yaml = if text.trim().is_empty() { "{}" } else { &text };
        let options = serde_saphyr::options! { strict_booleans: true };
        let raw: Raw = serde_saphyr::from_str_with_options(yaml, options)
            .map_err(|e| vec![crate::catalog::error::yaml_error(&name, &text, &e)])?;
        let mut check = Checker {
            name: &name,
            text: &text,
            errors: Vec::new(),
        };
        let settings = Settings {
            target: check.version(&raw.target, "target"),
            current: check.version(&raw.current, "current"),
            min_version: check.version(&raw.min_version, "min-version"),
            api_v5: check.api_v5(&raw.api),
            fail_on: check.fail_on(&raw.fail_on),
            tests: check.tests(&raw.tests),
            fix: raw.fix.as_ref().map(|f| f.value.0),
            unsafe_fixes: raw.unsafe_fixes.as_ref().map(|f| f.value.0),
            exclude: check.globs(&raw.exclude),
            select: strings(&raw.select),
            ignore: strings(&raw.ignore),
            per_path_ignores: raw
                .per_path_ignores
                .iter()
                .flatten()
                .map(|(k, v)| (k.clone(), v.iter().map(|s| s.value.clone()).collect()))
                .collect(),
        };
        check.write_setting(&raw.fix, "fix", "--fix", origin);
        check.write_setting(&raw.unsafe_fixes, "unsafe-fixes", "--unsafe-fixes", origin);
        let dir = path.parent().unwrap_or(Path::new("."));
        let data = check.data(&raw.data, dir);
        let baseline = check.baseline(&raw.baseline, dir);
        if !check.errors.is_empty() {
            return Err(check.errors);
        }
        Ok(Config {
            path: path.to_path_buf(),
            settings,
            data,
            baseline,
            raw,
            text,
        })
    }

    /// Check that every id or surface the file names exists in the catalog.
    pub fn check_ids(&self, catalog: &Catalog) -> Result<(), Vec<DataError>> {
        self.unknown_ids(catalog).map_err(as_config_errors)
    }

    fn unknown_ids(&self, catalog: &Catalog) -> Result<(), Vec<DataError>> {
        let name = self.path.display().to_string();
        let mut errors = Vec::new();
        let lists = [&self.raw.select, &self.raw.ignore];
        let per_path: Vec<&S> = self
            .raw
            .per_path_ignores
            .iter()
            .flatten()
            .flat_map(|(_, v)| v)
            .collect();
        for s in lists.into_iter().flatten().flatten().chain(per_path) {
            if !is_id_or_surface(catalog, &s.value) {
                let known = catalog
                    .entries()
                    .iter()
                    .map(|e| e.id.as_str())
                    .chain(crate::catalog::Surface::ALL.iter().map(|x| x.as_str()));
                let guess = nearest(&s.value, known)
                    .map(|g| format!("did you mean `{g}`? "))
                    .unwrap_or_default();
                errors.push(err(
                    &name,
                    &self.text,
                    s,
                    format!("`{}` is neither an entry id nor a surface", s.value),
                    &format!("{guess}see `uplint query` for the ids, and the surfaces rest, graphql, ci, runner, helm, omnibus, registry, metrics, packages, security, instance, database, integrations"),
                ));
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// Is `s` an id of the catalog, a surface, or the id of unused-suppression findings?
pub fn is_id_or_surface(catalog: &Catalog, s: &str) -> bool {
    catalog.get(s).is_some() || Surface::parse(s).is_some() || s == "unused-suppression"
}

/// Confinement of what a configuration file names to its own directory tree.
mod confine {
    use std::io::{self, Read};
    use std::path::{Path, PathBuf};

    use super::MAX_FILE_SIZE;

    /// Why a path named in a configuration file is not read. Nothing here shows content, and
    /// no refusal tells what exists outside the directory: a path that leaves it (by `..` or
    /// through a link, to something that exists or not) and a path that is no regular file or
    /// directory get the same words.
    #[derive(Debug, thiserror::Error)]
    pub enum Refusal {
        #[error("it is an absolute path")]
        Absolute,
        #[error(
            "it must be a relative path to a regular file or directory inside the configuration file's directory, links included"
        )]
        NotInside,
        #[error("{} is larger than {} MiB", .0.display(), MAX_FILE_SIZE >> 20)]
        TooLarge(PathBuf),
        #[error("it cannot be read ({0})")]
        Unreadable(io::ErrorKind),
    }

    /// Where `shown` leads, checked to lie under `root` (canonical) once links are resolved.
    /// A path that does not resolve is `Unreadable(NotFound)` only when it simply is not there;
    /// any other failure is [`Refusal::NotInside`], as a path outside is.
    fn resolve(root: &Path, shown: &Path) -> Result<PathBuf, Refusal> {
        let canonical = std::fs::canonicalize(shown).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => Refusal::Unreadable(io::ErrorKind::NotFound),
            _ => Refusal::NotInside,
        })?;
        if canonical.starts_with(root) {
            Ok(canonical)
        } else {
            Err(Refusal::NotInside)
        }
    }

    /// A regular file no larger than the limit (`shown` names it in the refusal).
    fn check_file(canonical: &Path, shown: &Path) -> Result<(), Refusal> {
        let meta = std::fs::metadata(canonical).map_err(|_| Refusal::NotInside)?;
        if !meta.is_file() {
            Err(Refusal::NotInside)
        } else if meta.len() > MAX_FILE_SIZE {
            Err(Refusal::TooLarge(shown.to_path_buf()))
        } else {
            Ok(())
        }
    }

    /// A path that does not exist: what exists of it must lie inside `root` and be no link
    /// (a dangling link is refused as one that leads out), so that no answer tells what
    /// exists outside.
    fn missing_inside(root: &Path, shown: &Path) -> Result<(), Refusal> {
        let mut p = shown;
        loop {
            if std::fs::symlink_metadata(p).is_ok() {
                // `p == shown`: a dangling link.
                return match resolve(root, p) {
                    Ok(_) if p != shown => Ok(()),
                    _ => Err(Refusal::NotInside),
                };
            }
            match p.parent() {
                Some(q) if !q.as_os_str().is_empty() => p = q,
                _ => return Ok(()),
            }
        }
    }

    /// Does `rel` climb above its start with `..` (without looking at the file system)?
    fn climbs_out(rel: &Path) -> bool {
        let mut depth = 0usize;
        for c in rel.components() {
            match c {
                std::path::Component::ParentDir => match depth.checked_sub(1) {
                    Some(d) => depth = d,
                    None => return true,
                },
                std::path::Component::Normal(_) => depth += 1,
                _ => {}
            }
        }
        false
    }

    fn is_data_name(p: &Path) -> bool {
        matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("yml") | Some("yaml")
        )
    }

    /// The files a `data:` path names: the file, or the `.yml`/`.yaml` files of the directory
    /// (by name), each inside `root`, as `base/rel[/name]`. A path that does not exist is
    /// passed on for the catalog to report, as a `--data` path would be.
    pub fn data(root: &Path, base: &Path, rel: &str) -> Result<Vec<PathBuf>, Refusal> {
        let rel_path = Path::new(rel);
        if rel_path.has_root() {
            return Err(Refusal::Absolute);
        }
        if climbs_out(rel_path) {
            return Err(Refusal::NotInside);
        }
        let shown = base.join(rel_path);
        let canonical = match resolve(root, &shown) {
            Err(Refusal::Unreadable(io::ErrorKind::NotFound)) => {
                missing_inside(root, &shown)?;
                return Ok(vec![shown]);
            }
            r => r?,
        };
        if !canonical.is_dir() {
            check_file(&canonical, &shown)?;
            return Ok(vec![shown]);
        }
        let mut files = Vec::new();
        let entries = std::fs::read_dir(&canonical).map_err(|e| Refusal::Unreadable(e.kind()))?;
        for entry in entries.flatten() {
            let path = shown.join(entry.file_name());
            if !is_data_name(&path) {
                continue;
            }
            let inner = resolve(root, &path).map_err(|_| Refusal::NotInside)?;
            // The catalog reads the regular files of a directory and passes over the rest.
            if inner.is_file() {
                check_file(&inner, &path)?;
                files.push(path);
            }
        }
        files.sort();
        if files.is_empty() {
            // Let the catalog say that the directory holds no data file.
            files.push(shown);
        }
        Ok(files)
    }

    /// Why a configuration file was not read.
    #[derive(Debug, thiserror::Error)]
    pub enum ConfigFileError {
        #[error("configuration file refused: {0}")]
        Refused(#[from] Refusal),
        #[error("cannot read configuration: {0}")]
        Read(#[from] io::Error),
    }

    /// The text of a configuration file. One found in the tree must be a regular file that,
    /// links resolved, lies in the directory it was found in, and is not too large.
    pub fn config_file(path: &Path, confined: bool) -> Result<String, ConfigFileError> {
        if !confined {
            return Ok(std::fs::read_to_string(path)?);
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let root = std::fs::canonicalize(dir).map_err(|e| Refusal::Unreadable(e.kind()))?;
        let canonical = resolve(&root, path)?;
        check_file(&canonical, path)?;
        let mut text = String::new();
        std::fs::File::open(&canonical)?
            .take(MAX_FILE_SIZE)
            .read_to_string(&mut text)?;
        Ok(text)
    }
}

/// The problems of a configuration file, said as such: a misspelt setting gets the nearest
/// one and the list of settings, instead of the data files' help.
fn as_config_errors(errors: Vec<DataError>) -> Vec<DataError> {
    errors
        .into_iter()
        .map(|mut e| {
            if let Some((word, help)) = unknown_setting(&e.message) {
                let message = format!("unknown setting `{word}`");
                e.message = message.clone();
                e = e.with_label(message).with_help(help);
            }
            e.in_config()
        })
        .collect()
}

/// `unknown field `currnet`, expected one of target, current, …` → the word, and a help with
/// "did you mean `current`?" and the settings.
fn unknown_setting(message: &str) -> Option<(String, String)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (word, rest) = rest.split_once('`')?;
    let list = rest.split_once("expected one of ").map(|(_, l)| l)?;
    let settings: Vec<&str> = list.split(", ").map(str::trim).collect();
    let guess = nearest(word, settings.iter().copied())
        .map(|g| format!("did you mean `{g}`? "))
        .unwrap_or_default();
    let help = format!(
        "{guess}the settings of .uplint.yml are {}",
        settings.join(", ")
    );
    Some((word.to_string(), help))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_command_line_is_layered_over_the_file() {
        let v = |s: &str| s.parse::<ServiceVersion>().ok();
        let mut file = Settings {
            target: v("17.0"),
            current: v("16.5"),
            api_v5: Some(true),
            select: strings(&["ci"]),
            ignore: strings(&["helm"]),
            exclude: strings(&["vendor/**"]),
            fail_on: Some(FailOn::Warning),
            ..Settings::default()
        };
        let cli = Settings {
            target: v("18.0"),
            api_v5: Some(false),
            ignore: strings(&["ci-job-jwt"]),
            exclude: strings(&["tmp/**"]),
            ..Settings::default()
        };
        file.update(&cli);
        assert_eq!(file.target, v("18.0"));
        assert_eq!(file.current, v("16.5"), "kept: the command line gives none");
        assert_eq!(file.api_v5, Some(false));
        assert_eq!(file.select, ["ci"], "an empty --select keeps the file's");
        assert_eq!(file.ignore, ["ci-job-jwt", "helm"]);
        assert_eq!(file.exclude, ["tmp/**", "vendor/**"]);
        assert_eq!(file.fail_on, Some(FailOn::Warning));
        file.update(&Settings {
            select: strings(&["helm"]),
            ..Settings::default()
        });
        assert_eq!(file.select, ["helm"], "a --select replaces the file's");
    }
}
