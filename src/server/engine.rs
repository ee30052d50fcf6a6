//! What the server scans with: the catalog, the scanner and the fix range built from the
//! command line's data and the workspace's `.uplint.yml`, as `uplint scan` builds them; and one
//! document's findings, as a scan of the same text gives them.

use std::path::{Path, PathBuf};

use super::ci::CiContext;
use super::document::Kind;
use crate::catalog::{Catalog, DataErrors};
use crate::config::{self, Config, Origin, Settings};
use crate::scan::{FileInput, FileResult, Finding, Options, Scanner};
use crate::syntax::FileKind;
use crate::syntax::ci_jobs::ProjectJobs;
use crate::syntax::source::Source;
use crate::version::ServiceVersion;

/// Why the workspace's settings were not taken (the server goes on without them).
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("{}: {}", path.display(), errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Config {
        path: PathBuf,
        errors: Vec<crate::catalog::error::DataError>,
    },
    #[error("the data names no version to target")]
    NoTarget,
    #[error("min-version {min} is after target {target}: the supported range is empty")]
    EmptyRange {
        min: ServiceVersion,
        target: ServiceVersion,
    },
    #[error("current {current} is after target {target}")]
    CurrentAfterTarget {
        current: ServiceVersion,
        target: ServiceVersion,
    },
    #[error(transparent)]
    Scanner(#[from] crate::scan::ScanError),
}

/// Why the server cannot start: the command line's data, or data that names no target.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Data(#[from] DataErrors),
    #[error(transparent)]
    Settings(#[from] SettingsError),
}

/// The catalog and scanner of a workspace.
pub struct Engine {
    pub catalog: Catalog,
    pub scanner: Scanner,
    /// The lower end of the supported range, which decides whether a fix is safe.
    pub range_start: Option<ServiceVersion>,
    /// `exclude:` of the configuration, as the walk applies it.
    exclude: ignore::overrides::Override,
    root: Option<PathBuf>,
    /// The workspace's CI project.
    pub ci: CiContext,
}

impl Engine {
    /// The engine of the workspace at `root`, with the data of the command line: the
    /// configuration when it is valid, else the defaults and why the configuration was left.
    pub fn load(
        data: &[PathBuf],
        root: Option<&Path>,
    ) -> Result<(Engine, Option<SettingsError>), StartError> {
        let found = root.and_then(config::find);
        let (mut engine, why) = match found.map(|p| Self::with_config(data, root, &p)) {
            Some(Ok(engine)) => (engine, None),
            Some(Err(why)) => (Self::plain(data, root)?, Some(why)),
            None => (Self::plain(data, root)?, None),
        };
        engine.ci = CiContext::read(root);
        Ok((engine, why))
    }

    /// Without a configuration file.
    fn plain(data: &[PathBuf], root: Option<&Path>) -> Result<Engine, StartError> {
        let catalog = Catalog::load(data)?;
        let (scanner, range_start) = build(&catalog, &Settings::default())?;
        Ok(Engine {
            catalog,
            scanner,
            range_start,
            exclude: ignore::overrides::Override::empty(),
            root: root.map(Path::to_path_buf),
            ci: CiContext::default(),
        })
    }

    fn with_config(
        data: &[PathBuf],
        root: Option<&Path>,
        path: &Path,
    ) -> Result<Engine, SettingsError> {
        let bad = |errors| SettingsError::Config {
            path: path.to_path_buf(),
            errors,
        };
        let config = Config::load(path, Origin::Found).map_err(bad)?;
        let mut all = data.to_vec();
        all.extend(config.data.iter().cloned());
        let catalog = Catalog::load(&all).map_err(|e| bad(e.0))?;
        config.check_ids(&catalog).map_err(bad)?;
        let (scanner, range_start) = build(&catalog, &config.settings)?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut overrides = ignore::overrides::OverrideBuilder::new(base);
        for g in &config.settings.exclude {
            let _ = overrides.add(&format!("!{g}"));
        }
        Ok(Engine {
            catalog,
            scanner,
            range_start,
            exclude: overrides
                .build()
                .unwrap_or_else(|_| ignore::overrides::Override::empty()),
            root: root.map(Path::to_path_buf),
            ci: CiContext::default(),
        })
    }

    /// Is the file at `path` (absolute) left out by `exclude:`, itself or a directory above it?
    pub fn excluded(&self, path: &Path) -> bool {
        if self.exclude.is_empty() {
            return false;
        }
        let stop = self.root.as_deref();
        let mut at = Some(path);
        let mut is_dir = false;
        while let Some(p) = at {
            if Some(p) == stop {
                break;
            }
            if self.exclude.matched(p, is_dir).is_ignore() {
                return true;
            }
            at = p.parent();
            is_dir = true;
        }
        false
    }

    /// The findings of one document's text, of the kind `kind` (shown as its path, judged with
    /// the CI project's jobs when it is part of it), each with its fix: what a scan of the same
    /// file reports.
    pub fn findings(&self, kind: &Kind, text: &str) -> Vec<Finding> {
        let (path, class) = (kind.shown.as_str(), kind.class);
        let file = FileInput {
            path,
            class,
            text,
            ci_project: kind
                .ci_project
                .as_deref()
                .filter(|_| class.kind == FileKind::Ci)
                .map(|(before, after)| ProjectJobs::Around(before, after)),
        };
        let mut result = FileResult::default();
        self.scanner
            .scan_into(&mut Default::default(), &file, &mut result);
        let mut findings = result.findings;
        findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let src = Source::new(path, text, class);
        crate::fix::attach(&self.catalog, &src, &mut findings, self.range_start);
        findings
    }
}

/// The scanner of the settings, as `uplint scan` makes it: the target defaults to the newest
/// removal, and the versions must be in order.
fn build(cat: &Catalog, s: &Settings) -> Result<(Scanner, Option<ServiceVersion>), SettingsError> {
    let target = match s.target {
        Some(v) => v,
        None => cat.newest_removal().ok_or(SettingsError::NoTarget)?,
    };
    if let Some(min) = s.min_version
        && min > target
    {
        return Err(SettingsError::EmptyRange { min, target });
    }
    if let Some(current) = s.current
        && current > target
    {
        return Err(SettingsError::CurrentAfterTarget { current, target });
    }
    let mut o = Options::new(target);
    o.current = s.current;
    o.min_version = s.min_version;
    o.api_v5 = s.api_v5.unwrap_or(false);
    o.select.clone_from(&s.select);
    o.ignore.clone_from(&s.ignore);
    o.per_path_ignores.clone_from(&s.per_path_ignores);
    o.exclude.clone_from(&s.exclude);
    let range_start = crate::fix::range_start(o.min_version, o.current);
    Ok((Scanner::new(cat, o)?, range_start))
}
