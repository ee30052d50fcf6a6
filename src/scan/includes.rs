//! Files a CI configuration includes locally (`include: local: ci/build.yml`, `include:
//! 'ci/*.yml'`): they are CI configuration whatever their name. Followed from the
//! `.gitlab-ci.yml` at a scanned root, recursively.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::syntax::ci_jobs::Jobs;
use crate::syntax::yaml::{self, Segment, Value};

/// The local include paths (relative to the project root) a CI file names.
#[cfg(test)]
fn local_includes(text: &str) -> Vec<String> {
    includes_of(&yaml::parse(text))
}

/// The local include paths of a parsed CI file.
fn includes_of(doc: &yaml::Doc) -> Vec<String> {
    let mut out = Vec::new();
    for key in &doc.keys {
        let path = doc.path(key);
        let top_include = matches!(path.first(), Some(Segment::Key(k)) if k == "include");
        if !top_include {
            continue;
        }
        let is_local = key.name == "local";
        let is_include = path.len() == 1;
        match &key.value {
            Value::Scalar(s) if is_local || is_include => out.push(s.text.clone()),
            // `include: [a.yml, b.yml]`: plain strings are local files unless they are URLs.
            Value::Sequence(items) if is_include || is_local => {
                out.extend(items.iter().map(|s| s.text.clone()))
            }
            _ => {}
        }
    }
    out.retain(|p| !p.contains("://") && !p.contains('$'));
    out.sort();
    out.dedup();
    out
}

/// A project's CI configuration: the files `root/.gitlab-ci.yml` includes locally
/// (recursively, as paths under `root`) and the jobs of all of them together.
#[derive(Debug, Default)]
pub struct CiProject {
    pub files: BTreeSet<PathBuf>,
    pub jobs: Jobs,
}

/// Read the CI configuration of the project at `root`.
pub fn ci_project(root: &Path) -> CiProject {
    let (files, parts) = ci_project_parts(root);
    let mut jobs = Jobs::default();
    for (_, part) in parts {
        jobs.include(part);
    }
    CiProject { files, jobs }
}

/// The files `root/.gitlab-ci.yml` includes locally (recursively, as paths under `root`), and
/// the jobs of each file read (the root's first), in the order [`ci_project`] merges them.
pub fn ci_project_parts(root: &Path) -> (BTreeSet<PathBuf>, Vec<(PathBuf, Jobs)>) {
    let mut found = BTreeSet::new();
    let mut parts = Vec::new();
    let Ok(canonical_root) = root.canonicalize() else {
        return (found, parts);
    };
    let mut queue = vec![root.join(".gitlab-ci.yml")];
    let mut seen = BTreeSet::new();
    let mut globs = 0;
    while let Some(file) = queue.pop() {
        if !seen.insert(file.clone()) || seen.len() > 1000 {
            continue;
        }
        let Some(text) = read_confined(&canonical_root, &file) else {
            continue;
        };
        let doc = yaml::parse(&text);
        for inc in includes_of(&doc) {
            // A path of the project: `/` is its root; one that climbs out of it is no include.
            let Some(rel) = normalised(&inc) else {
                continue;
            };
            let targets: Vec<PathBuf> = if rel.contains('*') {
                globs += 1;
                if globs > MAX_GLOBS {
                    continue;
                }
                expand_glob(root, &canonical_root, &rel)
            } else {
                vec![root.join(&rel)]
            };
            for t in targets {
                if t.is_file() && within(&canonical_root, &t) {
                    found.insert(t.clone());
                    queue.push(t);
                }
            }
        }
        parts.push((file, Jobs::from_doc(&doc)));
    }
    (found, parts)
}

/// The largest CI file read to follow includes.
const MAX_CI_FILE: u64 = 16 * 1024 * 1024;

/// Does `path` resolve (symlinks followed) to somewhere inside `root`?
fn within(canonical_root: &Path, path: &Path) -> bool {
    path.canonicalize()
        .is_ok_and(|p| p.starts_with(canonical_root))
}

/// The text of a CI file, when it resolves to a regular file of reasonable size inside the
/// project: an `include: local: ../…` or a link out of the tree is never read, nor a FIFO
/// (opened without blocking, refused by the type of what was opened).
fn read_confined(canonical_root: &Path, path: &Path) -> Option<String> {
    use std::io::Read;
    let real = path.canonicalize().ok()?;
    if !real.starts_with(canonical_root) {
        return None;
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(&real).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_CI_FILE {
        return None;
    }
    let mut text = String::new();
    file.take(MAX_CI_FILE).read_to_string(&mut text).ok()?;
    Some(text)
}

/// The most glob patterns followed in one project (each walks part of the tree).
const MAX_GLOBS: usize = 64;

/// An include's path made relative to the project's root, lexically: a leading `/` is the
/// root (as GitLab reads it), `.` and empty components dropped, `..` takes one back; `None`
/// when it would climb out of the root (or names the root itself).
fn normalised(include: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in include.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The files of the project that the glob `pattern` (normalised: relative to the root, no
/// `..`) names. The walk starts at the pattern's longest literal directory, inside the root
/// and reached with no link out of it; it follows no link and reads no ignore file.
fn expand_glob(root: &Path, canonical_root: &Path, pattern: &str) -> Vec<PathBuf> {
    let Ok(glob) = globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
    else {
        return Vec::new();
    };
    let matcher = glob.compile_matcher();
    // The fixed directory part of the pattern bounds the walk.
    let mut fixed: Vec<&str> = pattern.split('/').collect();
    fixed.pop();
    let fixed: PathBuf = fixed.into_iter().take_while(|s| !s.contains('*')).collect();
    let start = root.join(&fixed);
    if !within(canonical_root, &start) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for entry in ignore::WalkBuilder::new(&start)
        .standard_filters(false)
        .follow_links(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build()
        .flatten()
    {
        if let Ok(rel) = entry.path().strip_prefix(root)
            && entry.file_type().is_some_and(|t| t.is_file())
            && matcher.is_match(rel)
        {
            out.push(entry.path().to_path_buf());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_never_leave_the_project() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir_all(root.join("ci")).unwrap();
        std::fs::write(dir.path().join("outside.yml"), "x:\n  id_tokens: {}\n").unwrap();
        std::fs::write(
            root.join(".gitlab-ci.yml"),
            "include:\n  - local: ../outside.yml\n  - local: ci/linked.yml\n  - local: ci/inside.yml\n",
        )
        .unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside.yml"), root.join("ci/linked.yml"))
            .unwrap();
        std::fs::write(root.join("ci/inside.yml"), ".t:\n  id_tokens: {}\n").unwrap();
        let project = ci_project(&root);
        let files: Vec<_> = project
            .files
            .iter()
            .map(|p| p.strip_prefix(&root).unwrap().to_owned())
            .collect();
        assert_eq!(files, [PathBuf::from("ci/inside.yml")]);
        assert!(project.jobs.contains(".t"));
        assert!(!project.jobs.contains("x"));
    }

    /// Include paths are the project's: `/` is its root, and one that climbs out is none.
    #[test]
    fn include_paths_are_normalised_inside_the_root() {
        assert_eq!(normalised("/ci/a.yml").as_deref(), Some("ci/a.yml"));
        assert_eq!(normalised("ci//./a.yml").as_deref(), Some("ci/a.yml"));
        assert_eq!(normalised("ci/x/../a.yml").as_deref(), Some("ci/a.yml"));
        for out in [
            "../a.yml",
            "/../a.yml",
            "../../../../**/*.yml",
            "ci/../../a",
            "/",
            ".",
        ] {
            assert_eq!(normalised(out), None, "{out}");
        }
    }

    /// A glob that climbs out of the project walks nothing outside it, and one whose literal
    /// directory is a link out of the tree is not followed there.
    #[test]
    fn outward_globs_walk_nothing_outside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir_all(root.join("ci")).unwrap();
        std::fs::create_dir_all(dir.path().join("elsewhere")).unwrap();
        std::fs::write(dir.path().join("outside.yml"), "x:\n  id_tokens: {}\n").unwrap();
        std::fs::write(dir.path().join("elsewhere/y.yml"), "y:\n  id_tokens: {}\n").unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), root.join("linked")).unwrap();
        std::fs::write(root.join("ci/inside.yml"), ".t:\n  id_tokens: {}\n").unwrap();
        std::fs::write(
            root.join(".gitlab-ci.yml"),
            "include:\n  - '../**/*.yml'\n  - local: '/../../**'\n  - '/linked/*.yml'\n  - '/ci/*.yml'\n",
        )
        .unwrap();
        let project = ci_project(&root);
        let files: Vec<_> = project.files.iter().collect();
        assert_eq!(files, [&root.join("ci/inside.yml")]);
        assert!(project.jobs.contains(".t"));
        assert!(!project.jobs.contains("x") && !project.jobs.contains("y"));
        assert_eq!(
            expand_glob(&root, &root.canonicalize().unwrap(), "linked/*.yml"),
            Vec::<PathBuf>::new()
        );
    }

    #[test]
    fn include_forms() {
        let t = "include:\n  - local: ci/build.yml\n  - '/ci/test.yml'\n  - project: other/project\n    file: /x.yml\n  - remote: https://example.com/x.yml\n  - template: Auto-DevOps.gitlab-ci.yml\n";
        assert_eq!(local_includes(t), ["/ci/test.yml", "ci/build.yml"]);
        assert_eq!(local_includes("include: ci/one.yml\n"), ["ci/one.yml"]);
        assert_eq!(
            local_includes("include:\n  local: ci/two.yml\n"),
            ["ci/two.yml"]
        );
    }
}
