//! The catalog: the removal schedule loaded from the embedded data and the user's own files,
//! validated, and queried. It knows nothing of scanning or output formats.

pub mod error;
pub mod evidence;
mod load;
pub mod model;
pub mod query;
mod raw;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use error::{DataError, DataErrors};
pub use evidence::Evidence;
pub use load::SCHEMA_VERSION;
pub use model::{Change, Emptied, Entry, FileKind, Pattern, Related, Surface};

use crate::version::{Milestone, ServiceVersion};

/// The data files built into the binary: name, YAML text, and the same data as JSON (made by
/// the build script; empty if the YAML did not parse, in which case the YAML is read).
pub const EMBEDDED: &[(&str, &str, &str)] = &[
    (
        "introduced.yml",
        include_str!("../../data/introduced.yml"),
        include_str!(concat!(env!("OUT_DIR"), "/introduced.yml.json")),
    ),
    (
        "16.6.yml",
        include_str!("../../data/16.6.yml"),
        include_str!(concat!(env!("OUT_DIR"), "/16.6.yml.json")),
    ),
    (
        "16.7.yml",
        include_str!("../../data/16.7.yml"),
        include_str!(concat!(env!("OUT_DIR"), "/16.7.yml.json")),
    ),
    (
        "16.8.yml",
        include_str!("../../data/16.8.yml"),
        include_str!(concat!(env!("OUT_DIR"), "/16.8.yml.json")),
    ),
    (
        "16.9.yml",
        include_str!("../../data/16.9.yml"),
        include_str!(concat!(env!("OUT_DIR"), "/16.9.yml.json")),
    ),
    (
        "17.0.yml",
        include_str!("../../data/17.0.yml"),
        include_str!(concat!(env!("OUT_DIR"), "/17.0.yml.json")),
    ),
    (
        "18.0.yml",
        include_str!("../../data/18.0.yml"),
        include_str!(concat!(env!("OUT_DIR"), "/18.0.yml.json")),
    ),
    (
        "evidence.yml",
        include_str!("../../data/evidence.yml"),
        include_str!(concat!(env!("OUT_DIR"), "/evidence.yml.json")),
    ),
    (
        "api-v5.yml",
        include_str!("../../data/api-v5.yml"),
        include_str!(concat!(env!("OUT_DIR"), "/api-v5.yml.json")),
    ),
];

/// A loaded, validated set of entries.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// Shared with the scanners built from the catalog, which keep them without a copy.
    entries: Arc<[Entry]>,
    /// The words that show which system a file's names belong to.
    evidence: Arc<Evidence>,
}

impl Catalog {
    /// The embedded data alone.
    pub fn embedded() -> Result<Catalog, DataErrors> {
        Catalog::load(&[])
    }

    /// The embedded data plus the user's files or directories (`--data PATH`).
    /// All or nothing: any error in any file means no catalog.
    pub fn load(extra: &[PathBuf]) -> Result<Catalog, DataErrors> {
        let mut loader = embedded_loader();
        add_paths(&mut loader, extra);
        loader.finish()
    }

    /// Validate files (`uplint data check`): the same checks as loading, and their ids must not
    /// clash with the embedded ones. Returns how many entries and evidence markers the files
    /// hold.
    ///
    /// A file of uplint's own data directory (a directory that holds every embedded file's
    /// name, as `data/` of a checkout does) is checked in the place of the embedded file of its
    /// name, as the catalog will load it once built in: `uplint data check data/18.0.yml` after
    /// an edit checks the edited entries against the rest, not against their own older copy.
    pub fn check_files(files: &[PathBuf]) -> Result<(usize, usize), DataErrors> {
        let replaced: BTreeSet<&str> = EMBEDDED
            .iter()
            .map(|(name, ..)| *name)
            .filter(|name| files.iter().any(|f| replaces_embedded(f, name)))
            .collect();
        let mut loader = embedded_loader_without(&replaced);
        let embedded = (loader.entries.len(), loader.evidence.len());
        add_paths(&mut loader, files);
        let catalog = loader.finish()?;
        Ok((
            catalog.entries.len() - embedded.0,
            catalog.evidence.markers().len() - embedded.1,
        ))
    }

    /// A catalog from in-memory files alone, without the embedded data (tests, fuzzing).
    pub fn from_texts(files: &[(&str, &str)]) -> Result<Catalog, DataErrors> {
        let mut loader = load::Loader::default();
        for (name, text) in files {
            loader.add_file(name, text);
        }
        loader.finish()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries, shared (a scanner keeps them for as long as it lives).
    pub fn shared_entries(&self) -> Arc<[Entry]> {
        Arc::clone(&self.entries)
    }

    /// The evidence of every data file loaded.
    pub fn evidence(&self) -> &Arc<Evidence> {
        &self.evidence
    }

    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// Entries that detect `token` (case-sensitive first; case-insensitive if nothing matched).
    /// A token matches a literal exactly, or a path/command literal of which it is a segment.
    pub fn find_by_literal(&self, token: &str) -> Vec<&Entry> {
        let token = token.trim().trim_start_matches('$');
        let exact: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| {
                e.literals()
                    .iter()
                    .any(|l| literal_matches(l, token, false))
            })
            .collect();
        if !exact.is_empty() {
            return exact;
        }
        self.entries
            .iter()
            .filter(|e| e.literals().iter().any(|l| literal_matches(l, token, true)))
            .collect()
    }

    /// Entries whose items are written like `text` in files, punctuation and case aside
    /// (`strategy: depend`, `--registration-token`, `$CI_JOB_JWT_V2`): the literal matches
    /// first ([`Catalog::find_by_literal`]), else every entry of which it is a written form.
    pub fn find_by_written_form(&self, text: &str) -> Vec<&Entry> {
        let by_literal = self.find_by_literal(text);
        if !by_literal.is_empty() {
            return by_literal;
        }
        self.entries
            .iter()
            .filter(|e| query::written_form_matches(e, text))
            .collect()
    }

    /// Every service version the data names (removals, deprecations, introductions), ascending.
    pub fn service_versions(&self) -> Vec<ServiceVersion> {
        let mut set = BTreeSet::new();
        for e in self.entries.iter() {
            if let Some(Milestone::Service(v)) = e.removed_in {
                set.insert(v);
            }
            set.extend(e.introduced_in);
            set.extend(e.deprecated_in);
        }
        set.into_iter().collect()
    }

    /// Every milestone at which something is removed, ascending (`v5` last).
    pub fn removal_milestones(&self) -> Vec<Milestone> {
        let set: BTreeSet<Milestone> = self.entries.iter().filter_map(|e| e.removed_in).collect();
        set.into_iter().collect()
    }

    /// The newest service version at which something is removed.
    pub fn newest_removal(&self) -> Option<ServiceVersion> {
        self.removal_milestones()
            .iter()
            .rev()
            .find_map(|m| m.service())
    }

    /// Parse a version given on the command line and check the data knows about it (or that
    /// it lies between versions the data knows). The error lists the known versions.
    pub fn parse_cli_version(
        &self,
        flag: &str,
        s: &str,
    ) -> Result<ServiceVersion, error::InvalidVersion> {
        s.parse::<ServiceVersion>()
            .map_err(|_| error::InvalidVersion {
                flag: flag.to_string(),
                value: s.to_string(),
                known: self.service_versions(),
            })
    }
}

fn literal_matches(literal: &str, token: &str, ignore_case: bool) -> bool {
    let eq = |a: &str, b: &str| {
        if ignore_case {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    eq(literal, token)
        || literal
            .split(['/', '.', ' ', '[', ']', '\''])
            .any(|seg| !seg.is_empty() && eq(seg, token))
}

fn sort_key(e: &Entry) -> (u8, Option<Milestone>, Option<ServiceVersion>, &str) {
    // Introductions first (by version), then removals by milestone, then by id.
    match e.removed_in {
        None => (0, None, e.introduced_in, &e.id),
        Some(m) => (1, Some(m), None, &e.id),
    }
}

fn embedded_loader() -> load::Loader {
    embedded_loader_without(&BTreeSet::new())
}

/// A loader holding the embedded files but those named in `left_out`.
fn embedded_loader_without(left_out: &BTreeSet<&str>) -> load::Loader {
    let mut loader = load::Loader::default();
    for (name, yaml, json) in EMBEDDED.iter().filter(|(n, ..)| !left_out.contains(n)) {
        let name = format!("data/{name}");
        if json.is_empty() || !loader.add_compiled(&name, json) {
            loader.add_file(&name, yaml);
        }
    }
    loader
}

/// The embedded data read from its YAML, with positions (tests compare it with the JSON route).
pub fn embedded_from_yaml() -> Result<Catalog, DataErrors> {
    let mut loader = load::Loader::default();
    for (name, yaml, _) in EMBEDDED {
        loader.add_file(&format!("data/{name}"), yaml);
    }
    loader.finish()
}

/// Is `file` the embedded file `name` of a copy of uplint's data directory?
fn replaces_embedded(file: &Path, name: &str) -> bool {
    let dir = match file.parent() {
        Some(d) if d.as_os_str().is_empty() => Path::new("."),
        Some(d) => d,
        None => return false,
    };
    file.file_name().is_some_and(|n| n == name)
        && file.is_file()
        && EMBEDDED.iter().all(|(n, ..)| dir.join(n).is_file())
}

fn add_paths(loader: &mut load::Loader, paths: &[PathBuf]) {
    for path in paths {
        match data_files(path) {
            Ok(files) => {
                for f in files {
                    let shown = f.display().to_string();
                    match std::fs::read_to_string(&f) {
                        Ok(text) => loader.add_file(&shown, &text),
                        Err(e) => loader.errors.push(DataError::file(
                            &shown,
                            format!("cannot read data file: {e}"),
                        )),
                    }
                }
            }
            Err(e) => loader.errors.push(*e),
        }
    }
}

/// The data files a `--data PATH` names: the file itself, or the `.yml`/`.yaml` files of a
/// directory in name order.
fn data_files(path: &Path) -> Result<Vec<PathBuf>, Box<DataError>> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path)
        .map_err(|e| DataError::file(&shown, format!("cannot read data path: {e}")))
        .map_err(Box::new)?;
    if meta.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| {
            Box::new(DataError::file(
                &shown,
                format!("cannot read data directory: {e}"),
            ))
        })?
        .filter_map(|d| d.ok().map(|d| d.path()))
        .filter(|p| {
            p.is_file()
                && matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("yml") | Some("yaml")
                )
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Box::new(DataError::file(
            &shown,
            "data directory holds no .yml or .yaml file",
        )));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_file_loads() {
        let cat = Catalog::embedded()
            .unwrap_or_else(|e| panic!("embedded data is invalid:\n{}", error::render_plain(&e.0)));
        assert!(cat.entries().len() > 50);
    }

    #[test]
    fn the_compiled_json_gives_the_same_catalog_as_the_yaml() {
        let from_yaml = embedded_from_yaml()
            .unwrap_or_else(|e| panic!("embedded data is invalid:\n{}", error::render_plain(&e.0)));
        assert!(EMBEDDED.iter().all(|(_, _, json)| !json.is_empty()));
        assert_eq!(Catalog::embedded().unwrap().entries(), from_yaml.entries());
    }

    #[test]
    fn every_data_file_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|d| d.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".yml"))
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = EMBEDDED.iter().map(|(n, ..)| n.to_string()).collect();
        embedded.sort();
        assert_eq!(on_disk, embedded);
    }

    #[test]
    fn every_file_starts_with_schema_version() {
        for (name, text, _) in EMBEDDED {
            let first = text
                .lines()
                .find(|l| !l.starts_with('#') && !l.trim().is_empty())
                .unwrap();
            assert_eq!(first, "schema_version: 1", "{name}");
        }
    }
}
