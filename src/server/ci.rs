//! The workspace's CI configuration, as `uplint scan` of the workspace reads it: the files its
//! `.gitlab-ci.yml` includes locally (CI configuration whatever their name) and the jobs of all
//! of them together, which judge the jobs of each (a job's `id_tokens:` may come from a
//! template of another file). Read from the files on disk when the workspace opens and again
//! when a file that may be part of it is saved; a document of the project is judged with its
//! own jobs as its text has them now, between those of the other files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::scan::ci_project_parts;
use crate::syntax::ci_jobs::Jobs;

#[derive(Debug, Default)]
pub struct CiContext {
    /// The jobs of each file of the project, in the order a scan merges them, by canonical path.
    parts: Vec<(Option<PathBuf>, Jobs)>,
    /// The canonical path of each file of the project, and whether it is included (rather than
    /// the project's own `.gitlab-ci.yml`), as the scan's walk keeps them.
    files: BTreeMap<PathBuf, bool>,
}

impl CiContext {
    /// The CI configuration of the workspace at `root` (none without a root).
    pub fn read(root: Option<&Path>) -> CiContext {
        let Some(root) = root else {
            return CiContext::default();
        };
        let (included, parts) = ci_project_parts(root);
        let root_file = root.join(".gitlab-ci.yml");
        let mut files = BTreeMap::new();
        let included = included.iter().map(|f| (f, true));
        for (f, is_included) in included.chain(std::iter::once((&root_file, false))) {
            if let Ok(c) = f.canonicalize() {
                files.entry(c).or_insert(is_included);
            }
        }
        let parts = parts
            .into_iter()
            .map(|(path, jobs)| (path.canonicalize().ok(), jobs))
            .collect();
        CiContext { parts, files }
    }

    /// Is the file at `path` part of the project: `Some(true)` included, `Some(false)` the
    /// project's own `.gitlab-ci.yml`, `None` not part of it.
    pub fn membership(&self, path: &Path) -> Option<bool> {
        if self.files.is_empty() {
            return None;
        }
        self.files.get(&path.canonicalize().ok()?).copied()
    }

    /// The jobs of the files the project merges before the file at `path` and after it (those
    /// of every file but this one's first reading), when it is part of the project.
    pub fn around(&self, path: &Path) -> Option<(Jobs, Jobs)> {
        let canonical = path.canonicalize().ok()?;
        let at = self
            .parts
            .iter()
            .position(|(p, _)| p.as_ref() == Some(&canonical))?;
        let fold = |parts: &[(Option<PathBuf>, Jobs)]| {
            let mut jobs = Jobs::default();
            for (_, part) in parts {
                jobs.include(part.clone());
            }
            jobs
        };
        Some((fold(&self.parts[..at]), fold(&self.parts[at + 1..])))
    }
}
