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
//! baseline: uplint-baseline.json   # hide the findings it records, relative to this file
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde_saphyr::Spanned;

use crate::catalog::error::DataError;
use crate::catalog::{Catalog, Surface};
use crate::version::ServiceVersion;

/// The names uplint looks for, in this order, in each directory up from the scanned path.
pub const FILE_NAMES: [&str; 2] = [".uplint.yml", ".uplint.yaml"];

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
    baseline: Option<S>,
}

/// When findings make `uplint scan` exit with status 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOn {
    Error,
    Warning,
    Never,
}

/// A loaded configuration file.
pub struct Config {
    pub path: PathBuf,
    pub target: Option<ServiceVersion>,
    pub current: Option<ServiceVersion>,
    pub min_version: Option<ServiceVersion>,
    pub api_v5: bool,
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub per_path_ignores: Vec<(String, Vec<String>)>,
    pub exclude: Vec<String>,
    pub data: Vec<PathBuf>,
    pub fail_on: Option<FailOn>,
    /// A baseline file (`--baseline`), relative to the configuration file.
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

fn err(name: &str, text: &Arc<str>, s: &S, message: String, help: &str) -> DataError {
    let o = s.referenced.span().byte_offset().unwrap_or(0) as usize;
    let l = s.referenced.span().byte_len().unwrap_or(1) as usize;
    DataError::at(name, text, o, l.max(1), message).with_help(help)
}

impl Config {
    pub fn load(path: &Path) -> Result<Config, Vec<DataError>> {
        let name = path.display().to_string();
        let text: Arc<str> = match std::fs::read_to_string(path) {
            Ok(t) => Arc::from(t),
            Err(e) => {
                return Err(vec![DataError::file(
                    &name,
                    format!("cannot read configuration: {e}"),
                )]);
            }
        };
        let raw: Raw = if text.trim().is_empty() {
            serde_saphyr::from_str("{}")
                .map_err(|e| vec![crate::catalog::error::yaml_error(&name, &text, &e)])?
        } else {
            serde_saphyr::from_str(&text)
                .map_err(|e| vec![crate::catalog::error::yaml_error(&name, &text, &e)])?
        };
        let mut errors = Vec::new();
        let mut version = |s: &Option<S>, field: &str| -> Option<ServiceVersion> {
            let s = s.as_ref()?;
            match s.value.parse() {
                Ok(v) => Some(v),
                Err(_) => {
                    errors.push(err(
                        &name,
                        &text,
                        s,
                        format!("`{}` is not a valid version for `{field}`", s.value),
                        "write a service version such as \"17.0\" (quoted, so YAML keeps it a string)",
                    ));
                    None
                }
            }
        };
        let target = version(&raw.target, "target");
        let current = version(&raw.current, "current");
        let min_version = version(&raw.min_version, "min-version");
        let api_v5 = match &raw.api {
            None => false,
            Some(s) if s.value == "v5" => true,
            Some(s) if s.value == "v4" => false,
            Some(s) => {
                errors.push(err(
                    &name,
                    &text,
                    s,
                    format!("unknown api `{}`", s.value),
                    "expected v4 or v5",
                ));
                false
            }
        };
        let fail_on = match &raw.fail_on {
            None => None,
            Some(s) => match s.value.as_str() {
                "error" => Some(FailOn::Error),
                "warning" => Some(FailOn::Warning),
                "never" => Some(FailOn::Never),
                _ => {
                    errors.push(err(
                        &name,
                        &text,
                        s,
                        format!("unknown fail-on `{}`", s.value),
                        "expected error, warning or never",
                    ));
                    None
                }
            },
        };
        for s in raw.exclude.iter().flatten() {
            if let Err(e) = globset::Glob::new(&s.value) {
                errors.push(err(
                    &name,
                    &text,
                    s,
                    format!("invalid glob `{}`: {e}", s.value),
                    "a glob such as `vendor/**`",
                ));
            }
        }
        let base = path.parent().unwrap_or(Path::new("."));
        let strings = |v: &Option<Vec<S>>| -> Vec<String> {
            v.iter().flatten().map(|s| s.value.clone()).collect()
        };
        let config = Config {
            path: path.to_path_buf(),
            target,
            current,
            min_version,
            api_v5,
            select: strings(&raw.select),
            ignore: strings(&raw.ignore),
            per_path_ignores: raw
                .per_path_ignores
                .iter()
                .flatten()
                .map(|(k, v)| (k.clone(), v.iter().map(|s| s.value.clone()).collect()))
                .collect(),
            exclude: strings(&raw.exclude),
            data: raw
                .data
                .iter()
                .flatten()
                .map(|s| base.join(&s.value))
                .collect(),
            fail_on,
            baseline: raw.baseline.as_ref().map(|s| base.join(&s.value)),
            raw,
            text,
        };
        if errors.is_empty() {
            Ok(config)
        } else {
            Err(errors)
        }
    }

    /// Check that every id or surface the file names exists in the catalog.
    pub fn check_ids(&self, catalog: &Catalog) -> Result<(), Vec<DataError>> {
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
                errors.push(err(
                    &name,
                    &self.text,
                    s,
                    format!("`{}` is neither an entry id nor a surface", s.value),
                    "see `uplint query` for the ids, and the surfaces rest, graphql, ci, runner, helm, omnibus, registry, metrics, packages, security, instance, database, integrations",
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
