//! Loading and validating data files.
//!
//! A data file is YAML: `schema_version: 1` and a list of `entries`. The raw serde types keep
//! the position of every value so that each check can point at the offending text. Patterns are
//! read by their kinds ([`crate::patterns`]). Loading is all or nothing: a caller gets every
//! entry of every file, or the errors.

use std::collections::HashMap;
use std::sync::Arc;

use serde_saphyr::{Location, Spanned};

use super::error::{DataError, offset_of, yaml_error};
use super::evidence::{Evidence, Marker, Shows};
use super::model::{
    Change, Emptied, Endpoint, Entry, Param, ParamLocation, ParamType, Related, SourcedPattern,
    Surface,
};
use super::raw::{RawEmptied, RawEndpoint, RawEntry, RawEvidence, RawFile, RawParam};
use crate::patterns::check::{Check, Problem};
use crate::syntax::FileKind;
use crate::syntax::classify::KindSet;
use crate::version::{Milestone, ServiceVersion};

/// The schema version this build reads.
pub const SCHEMA_VERSION: u32 = 1;

type S = Spanned<String>;

/// Where an id was defined, for duplicate-id errors.
#[derive(Clone)]
pub(crate) struct IdSite {
    file: String,
    line: usize,
    column: usize,
}

/// Parses and validates data files, accumulating entries and errors.
#[derive(Default)]
pub(crate) struct Loader {
    pub entries: Vec<Entry>,
    /// The `evidence` of every file, in the order read.
    pub evidence: Vec<Marker>,
    pub errors: Vec<DataError>,
    ids: HashMap<String, IdSite>,
    /// The `related` ids of the entries loaded, checked once every file is read.
    relations: Vec<Relation>,
}

/// A `related` id as written, for the checks that need every entry: where it is written
/// (file, text, offset, length), which entry names it, and the one it names.
struct Relation {
    file: String,
    text: Arc<str>,
    offset: usize,
    len: usize,
    from: String,
    to: String,
}

/// Checks of one file: the file's name and text, for positions.
struct FileCtx<'a> {
    name: &'a str,
    text: &'a Arc<str>,
    check: Check,
}

impl FileCtx<'_> {
    fn offset(&self, at: Location) -> usize {
        match at.span().byte_offset() {
            Some(o) => o as usize,
            None => offset_of(self.text, at.line() as usize, at.column() as usize),
        }
    }

    /// The problems found, as errors pointing into the file.
    fn errors(&self) -> Vec<DataError> {
        self.check
            .problems
            .iter()
            .map(|p: &Problem| {
                let span_len = p.at.span().byte_len().filter(|_| p.whole);
                let len = span_len.map_or(p.len, |l| l as usize);
                let e = DataError::at(
                    self.name,
                    self.text,
                    self.offset(p.at),
                    len.max(1),
                    &p.message,
                );
                match &p.help {
                    Some(h) => e.with_help(h),
                    None => e,
                }
            })
            .collect()
    }

    fn problems(&self) -> usize {
        self.check.problems.len()
    }

    fn service_version(&mut self, s: &S, field: &str) -> Option<ServiceVersion> {
        let v = s.value.parse::<ServiceVersion>().ok();
        if v.is_none() {
            self.check.err_at(
                s,
                format!("`{}` is not a valid version for `{field}`", s.value),
                Some("a service version is MAJOR.MINOR or MAJOR.MINOR.PATCH, e.g. `17.0` or `16.3.0`".into()),
            );
        }
        v
    }

    fn milestone(&mut self, s: &S, field: &str) -> Option<Milestone> {
        let v = s.value.parse::<Milestone>().ok();
        if v.is_none() {
            self.check.err_at(
                s,
                format!("`{}` is not a valid version for `{field}`", s.value),
                Some("write a service version such as `17.0` (MAJOR.MINOR), or `v5` for the REST API v5".into()),
            );
        }
        v
    }
}

fn is_kebab_id(s: &str) -> bool {
    !s.is_empty()
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && !s.ends_with('-')
        && !s.contains("--")
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// `a, b, c`: the spellings of a closed set, written out only when a help message shows them
/// (four sets are checked for each of about a hundred entries at every start).
struct Spellings<T: 'static>(&'static [T], fn(T) -> &'static str);

impl<T: Copy> std::fmt::Display for Spellings<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        for (i, x) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str((self.1)(*x))?;
        }
        Ok(())
    }
}

/// The versions of an entry, each checked.
struct Versions {
    removed_in: Option<Milestone>,
    deprecated_in: Option<ServiceVersion>,
    introduced_in: Option<ServiceVersion>,
    replacement_available_in: Option<ServiceVersion>,
}

impl Loader {
    /// All the entries, sorted (introductions by version, then removals by milestone and id),
    /// or every error: nothing is half-loaded.
    pub fn finish(mut self) -> Result<super::Catalog, super::DataErrors> {
        self.relate();
        if !self.errors.is_empty() {
            return Err(super::DataErrors(self.errors));
        }
        let mut entries = self.entries;
        // Ids are unique, so are the keys: an unstable sort gives the one order, in place.
        entries.sort_unstable_by(|a, b| super::sort_key(a).cmp(&super::sort_key(b)));
        Ok(super::Catalog {
            entries: entries.into(),
            evidence: Arc::new(Evidence::new(self.evidence)),
        })
    }

    /// Check each `related` id against every entry loaded (it names one; the two entries do
    /// not both declare the relation), and give the named entry the relation too.
    fn relate(&mut self) {
        let index: HashMap<String, usize> = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id.clone(), i))
            .collect();
        for r in std::mem::take(&mut self.relations) {
            let error = |message: String, help: &str| {
                DataError::at(&r.file, &r.text, r.offset, r.len, message).with_help(help)
            };
            let (Some(&to), Some(&from)) = (index.get(&r.to), index.get(&r.from)) else {
                if !self.ids.contains_key(&r.to) {
                    self.errors.push(error(
                        format!("`related` names `{}`, which no entry is", r.to),
                        "name the id of an entry of the data (`uplint query --search WORD` finds it)",
                    ));
                }
                continue;
            };
            let Some(relation) = self.entries[from]
                .related
                .iter()
                .find(|x| x.id == r.to)
                .map(|x| x.relation.clone())
            else {
                continue;
            };
            if self.entries[to].related.iter().any(|x| x.id == r.from) {
                self.errors.push(error(
                    format!("`{}` and `{}` both declare their relation", r.from, r.to),
                    "declare a relation on one of the two entries: the other gets it too",
                ));
                continue;
            }
            self.entries[to].related.push(Related {
                id: r.from,
                relation,
            });
        }
    }

    /// Loads a data file compiled to JSON by the build script (the embedded data). The same
    /// checks run; `false` if the JSON does not parse (the caller then reads the YAML).
    pub fn add_compiled(&mut self, name: &str, json: &str) -> bool {
        match serde_json::from_str::<RawFile>(json) {
            Ok(raw) => {
                self.add_raw(name, &Arc::from(""), raw);
                true
            }
            Err(_) => false,
        }
    }

    /// Parses one data file. Its entries are kept only if the whole file is valid.
    pub fn add_file(&mut self, name: &str, text: &str) {
        let text: Arc<str> = Arc::from(text);
        let raw: RawFile = match serde_saphyr::from_str(&text) {
            Ok(r) => r,
            Err(e) => {
                self.errors.push(yaml_error(name, &text, &e));
                return;
            }
        };
        self.add_raw(name, &text, raw);
    }

    fn add_raw(&mut self, name: &str, text: &Arc<str>, raw: RawFile) {
        let mut ctx = FileCtx {
            name,
            text,
            check: Check::default(),
        };
        if raw.schema_version.value != SCHEMA_VERSION {
            ctx.check.err_loc(
                raw.schema_version.referenced,
                format!("unsupported schema_version {}", raw.schema_version.value),
                &format!("this build of uplint reads `schema_version: {SCHEMA_VERSION}`"),
            );
            self.errors.extend(ctx.errors());
            return;
        }
        let mut entries = Vec::new();
        for raw_entry in &raw.entries {
            if let Some(entry) = self.entry(&mut ctx, raw_entry) {
                entries.push(entry);
            }
        }
        let evidence: Vec<Marker> = raw
            .evidence
            .iter()
            .flat_map(|r| evidence(&mut ctx, r))
            .collect();
        if ctx.problems() == 0 {
            self.entries.extend(entries);
            self.evidence.extend(evidence);
        } else {
            self.errors.extend(ctx.errors());
        }
    }

    /// The id, checked for its spelling and unique across files.
    fn id(&mut self, ctx: &mut FileCtx, raw: &S) -> Option<String> {
        let id = ctx.check.non_empty(raw, "id")?;
        if !is_kebab_id(&id) {
            ctx.check.err_at(
                raw,
                format!("invalid id `{id}`"),
                Some("an id is kebab-case: lowercase letters, digits and single dashes, e.g. `ci-job-jwt`".into()),
            );
            return Some(id);
        }
        if let Some(first) = self.ids.get(&id) {
            // Compiled (embedded) data has no positions: name the file alone.
            let at = if first.line == 0 {
                first.file.clone()
            } else {
                format!("{}:{}:{}", first.file, first.line, first.column)
            };
            let help = format!(
                "ids must be unique across all data files; `{id}` is first defined in {at}"
            );
            ctx.check
                .err_at(raw, format!("duplicate id `{id}`"), Some(help));
            return Some(id);
        }
        let (line, column) = if ctx.text.is_empty() {
            (0, 0)
        } else {
            super::error::line_col(ctx.text, ctx.offset(raw.referenced))
        };
        let site = IdSite {
            file: ctx.name.to_string(),
            line,
            column,
        };
        self.ids.insert(id.clone(), site);
        Some(id)
    }

    fn entry(&mut self, ctx: &mut FileCtx, r: &RawEntry) -> Option<Entry> {
        let before = ctx.problems();
        let id = self.id(ctx, &r.id);
        let title = ctx.check.non_empty(&r.title, "title");
        let surface = ctx.check.one_of(
            &r.surface,
            "surface",
            Surface::parse,
            Spellings(&Surface::ALL, Surface::as_str),
        );
        let change = ctx.check.one_of(
            &r.change,
            "change",
            Change::parse,
            Spellings(&Change::ALL, Change::as_str),
        );
        let versions = versions(ctx, r, change);
        let replacement = ctx.check.opt(&r.replacement, "replacement").flatten();
        let notes = ctx.check.opt(&r.notes, "notes").flatten();
        let emptied = r.emptied.as_ref().and_then(|e| emptied(ctx, e));
        if let (Some(Emptied { since: Some(v), .. }), Some(Milestone::Service(rm)), Some(e)) =
            (&emptied, versions.removed_in, &r.emptied)
            && *v >= rm
            && let Some(raw) = &e.since
        {
            let help = "an item emptied in its removal's version is removed: drop `emptied`";
            ctx.check.err_at(
                raw,
                format!("emptied.since {v} is not before removed_in {rm}"),
                Some(help.into()),
            );
        }
        let related = self.related(ctx, r);
        let (detectable, patterns) = patterns(ctx, r);
        let endpoints = r
            .endpoints
            .iter()
            .filter_map(|e| endpoint(ctx, e))
            .collect();
        if r.spec.is_empty() {
            ctx.check.err_at(
                &r.id,
                "entry cites no spec row",
                Some(
                    "add `spec: [\"SECTION: FIRST CELL\"]` naming the row(s) the entry comes from"
                        .into(),
                ),
            );
        }
        let spec = ctx.check.strings(&r.spec, "spec reference");

        if ctx.problems() > before {
            return None;
        }
        Some(Entry {
            id: id?,
            title: title?,
            surface: surface?,
            change: change?,
            removed_in: versions.removed_in,
            deprecated_in: versions.deprecated_in,
            introduced_in: versions.introduced_in,
            breaking: r.breaking,
            replacement,
            replacement_available_in: versions.replacement_available_in,
            notes,
            emptied,
            related,
            detectable,
            patterns,
            endpoints,
            spec: spec?,
            source: ctx.name.to_string(),
        })
    }
}

impl Loader {
    /// An entry's `related` entries: each id spelled as an id, not the entry's own, named once,
    /// with a relation in words (whether the id is an entry's is checked once all are loaded).
    fn related(&mut self, ctx: &mut FileCtx, r: &RawEntry) -> Vec<Related> {
        let mut out: Vec<Related> = Vec::new();
        for rel in &r.related {
            let relation = ctx.check.non_empty(&rel.relation, "relation");
            let Some(id) = ctx.check.non_empty(&rel.id, "related id") else {
                continue;
            };
            let problem = if !is_kebab_id(&id) {
                Some(format!("invalid id `{id}` in `related`"))
            } else if id == r.id.value {
                Some(format!("`{id}` names itself in `related`"))
            } else if out.iter().any(|x| x.id == id) {
                Some(format!("`{id}` is named twice in `related`"))
            } else {
                None
            };
            if let Some(message) = problem {
                let help = "name each other entry that meets this one on a use once, by its id";
                ctx.check.err_at(&rel.id, message, Some(help.into()));
                continue;
            }
            self.relations.push(Relation {
                file: ctx.name.to_string(),
                text: ctx.text.clone(),
                offset: ctx.offset(rel.id.referenced),
                len: rel.id.value.len().max(1),
                from: r.id.value.trim().to_string(),
                to: id.clone(),
            });
            if let Some(relation) = relation {
                out.push(Related { id, relation });
            }
        }
        out
    }
}

/// An entry's `emptied`: how the item is emptied before its removal, and since when (a
/// service version before the removal).
fn emptied(ctx: &mut FileCtx, e: &RawEmptied) -> Option<Emptied> {
    let how = ctx.check.non_empty(&e.how, "emptied.how");
    let since = match &e.since {
        Some(s) => Some(ctx.service_version(s, "emptied.since")?),
        None => None,
    };
    Some(Emptied { since, how: how? })
}

/// The versions of an entry, their order, and the one its change needs.
fn versions(ctx: &mut FileCtx, r: &RawEntry, change: Option<Change>) -> Versions {
    let v = Versions {
        removed_in: r
            .removed_in
            .as_ref()
            .and_then(|s| ctx.milestone(s, "removed_in")),
        deprecated_in: r
            .deprecated_in
            .as_ref()
            .and_then(|s| ctx.service_version(s, "deprecated_in")),
        introduced_in: r
            .introduced_in
            .as_ref()
            .and_then(|s| ctx.service_version(s, "introduced_in")),
        replacement_available_in: r
            .replacement_available_in
            .as_ref()
            .and_then(|s| ctx.service_version(s, "replacement_available_in")),
    };
    version_order(ctx, r, &v);
    match change {
        Some(Change::Introduced) if v.introduced_in.is_none() => ctx.check.err_at(
            &r.change,
            "an `introduced` entry needs `introduced_in`",
            Some("add `introduced_in: MAJOR.MINOR`".into()),
        ),
        Some(c) if c != Change::Introduced && v.removed_in.is_none() && r.removed_in.is_none() => {
            ctx.check.err_at(
                &r.change,
                format!("a `{}` entry needs `removed_in`", c.as_str()),
                Some("add `removed_in: MAJOR.MINOR` (or `v5` for the REST API v5)".into()),
            )
        }
        _ => {}
    }
    v
}

/// Removal after introduction and deprecation, deprecation after introduction, the replacement
/// available by the removal.
fn version_order(ctx: &mut FileCtx, r: &RawEntry, v: &Versions) {
    if let (Some(Milestone::Service(rm)), Some(raw_rm)) = (v.removed_in, &r.removed_in) {
        for (name, earlier) in [
            ("deprecated_in", v.deprecated_in),
            ("introduced_in", v.introduced_in),
        ] {
            if let Some(e) = earlier
                && rm < e
            {
                ctx.check.err_at(
                    raw_rm,
                    format!("removed_in {rm} is before {name} {e}"),
                    Some(format!(
                        "an item cannot be removed before it was {}",
                        &name[..name.len() - 3]
                    )),
                );
            }
        }
        if let (Some(a), Some(raw)) = (v.replacement_available_in, &r.replacement_available_in)
            && a > rm
        {
            ctx.check.err_at(
                raw,
                format!("replacement_available_in {a} is after removed_in {rm}"),
                Some("the replacement must be available no later than the removal".into()),
            );
        }
    }
    if let (Some(d), Some(i), Some(raw)) = (v.deprecated_in, v.introduced_in, &r.deprecated_in)
        && d < i
    {
        ctx.check.err_at(
            raw,
            format!("deprecated_in {d} is before introduced_in {i}"),
            None,
        );
    }
}

/// Whether the entry is detectable, and its patterns (each read by its kind).
fn patterns(ctx: &mut FileCtx, r: &RawEntry) -> (bool, Vec<SourcedPattern>) {
    let patterns: Vec<SourcedPattern> = r
        .patterns
        .iter()
        .filter_map(|p| SourcedPattern::parse(p, &mut ctx.check))
        .collect();
    let detectable = r.detectable.as_ref().is_none_or(|d| d.value);
    if detectable && r.patterns.is_empty() {
        ctx.check.err_at(
            &r.id,
            "entry has no detection patterns",
            Some(
                "add `patterns`, or say `detectable: false` when no file can reveal the item"
                    .into(),
            ),
        );
    }
    if !detectable
        && !r.patterns.is_empty()
        && let Some(d) = &r.detectable
    {
        ctx.check.err_loc(
            d.referenced,
            "entry says `detectable: false` but has patterns",
            "remove the patterns, or the `detectable: false`",
        );
    }
    (detectable, patterns)
}

fn endpoint(ctx: &mut FileCtx, e: &RawEndpoint) -> Option<Endpoint> {
    let method = ctx.check.method(&e.method);
    let path = ctx.check.rest_path(&e.path);
    let role = ctx.check.opt(&e.role, "role").flatten();
    let params = e.params.iter().filter_map(|p| param(ctx, p)).collect();
    Some(Endpoint {
        method: method?,
        path: path?,
        params,
        no_body: e.no_body,
        role,
    })
}

fn param(ctx: &mut FileCtx, p: &RawParam) -> Option<Param> {
    let name = ctx.check.non_empty(&p.name, "parameter name");
    let location = ctx.check.one_of(
        &p.location,
        "parameter location",
        ParamLocation::parse,
        Spellings(&ParamLocation::ALL, ParamLocation::as_str),
    );
    let ty = ctx.check.one_of(
        &p.ty,
        "parameter type",
        ParamType::parse,
        Spellings(&ParamType::ALL, ParamType::as_str),
    );
    let values = ctx.check.strings(&p.values, "parameter value");
    Some(Param {
        name: name?,
        location: location?,
        ty: ty?,
        required: p.required,
        values: values?,
    })
}

/// A group of evidence: what it shows, its words (each not empty, without spaces), the kinds
/// of file it counts in, and where the words were seen.
fn evidence(ctx: &mut FileCtx, r: &RawEvidence) -> Vec<Marker> {
    let shows = ctx.check.one_of(
        &r.shows,
        "shows",
        Shows::parse,
        Spellings(&Shows::ALL, Shows::as_str),
    );
    let mut kinds = Vec::new();
    for f in &r.files {
        kinds.extend(ctx.check.one_of(
            f,
            "files",
            FileKind::parse,
            Spellings(&FileKind::ALL, FileKind::as_str),
        ));
    }
    let mut seen_in = Vec::new();
    for s in &r.seen_in {
        match s.value.parse::<crate::patterns::seen_in::SeenIn>() {
            Ok(x) => seen_in.push(x),
            Err(why) => ctx.check.err_at(
                s,
                format!(
                    "`{}` source `{}`: {why}",
                    crate::patterns::seen_in::FIELD,
                    s.value
                ),
                Some(format!("write it as {}", crate::patterns::seen_in::FORMAT)),
            ),
        }
    }
    if r.markers.is_empty() {
        ctx.check.err_at(
            &r.shows,
            "an evidence group has no `markers`",
            Some("list the words that show it, e.g. `markers: [/api/v4]`".into()),
        );
    }
    let words: Vec<String> = r
        .markers
        .iter()
        .filter_map(|m| {
            let w = ctx.check.non_empty(m, "marker")?;
            if w.contains(char::is_whitespace) || w != m.value {
                ctx.check.err_at(
                    m,
                    format!("marker `{}` has a space", m.value),
                    Some("a marker is one word as files write it, e.g. `PRIVATE-TOKEN`".into()),
                );
                return None;
            }
            Some(w)
        })
        .collect();
    let Some(shows) = shows else {
        return Vec::new();
    };
    let kinds = if r.files.is_empty() {
        KindSet::all()
    } else {
        KindSet::of(kinds)
    };
    let seen_in: Arc<[_]> = seen_in.into();
    words
        .into_iter()
        .map(|text| Marker {
            shows,
            text,
            kinds,
            seen_in: Arc::clone(&seen_in),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_ids() {
        assert!(is_kebab_id("ci-job-jwt"));
        assert!(is_kebab_id("geo-v5"));
        for bad in ["Ci", "a_b", "-a", "a-", "a--b", "1a", ""] {
            assert!(!is_kebab_id(bad), "{bad}");
        }
    }
}
