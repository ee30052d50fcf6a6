//! Filters over the catalog: what `uplint query` selects.

use super::model::{Entry, Surface};
use crate::version::{ApiVersion, Milestone, ServiceVersion};

/// A query. Version filters select the removals of a window; the others narrow the result.
///
/// - `removed_in`: entries removed exactly at that milestone.
/// - `from`/`to`: entries removed in a service version in `(from, to]` (what an upgrade from
///   `from` to `to` changes). Either end may be open.
/// - `api_v5`: REST API v5 removals. Alone it selects them; with a version filter it adds them.
/// - `surfaces`, `breaking`, `search`: narrow whatever the version filters selected.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub removed_in: Option<Milestone>,
    pub from: Option<ServiceVersion>,
    pub to: Option<ServiceVersion>,
    pub api_v5: bool,
    pub surfaces: Vec<Surface>,
    pub breaking: bool,
    pub search: Option<String>,
}

impl Filter {
    fn has_version_filter(&self) -> bool {
        self.removed_in.is_some() || self.from.is_some() || self.to.is_some()
    }

    fn in_version_filter(&self, e: &Entry) -> bool {
        let is_v5 = e.removed_in == Some(Milestone::Api(ApiVersion::V5));
        if !self.has_version_filter() {
            return !self.api_v5 || is_v5;
        }
        if self.api_v5 && is_v5 {
            return true;
        }
        if let Some(m) = self.removed_in {
            return e.removed_in == Some(m);
        }
        match e.removed_in {
            Some(Milestone::Service(v)) => {
                self.from.is_none_or(|f| v > f) && self.to.is_none_or(|t| v <= t)
            }
            _ => false,
        }
    }

    pub fn matches(&self, e: &Entry) -> bool {
        if !self.in_version_filter(e) {
            return false;
        }
        if !self.surfaces.is_empty() && !self.surfaces.contains(&e.surface) {
            return false;
        }
        if self.breaking && !e.is_breaking() {
            return false;
        }
        if let Some(text) = &self.search {
            return search_matches(e, text);
        }
        true
    }

    pub fn apply<'a>(&self, entries: &'a [Entry]) -> Vec<&'a Entry> {
        entries.iter().filter(|e| self.matches(e)).collect()
    }
}

/// Case-insensitive substring search over id, title, patterns, replacement and notes, and over
/// the ways the entry's items are written in files (see [`written_form_matches`]).
fn search_matches(e: &Entry, text: &str) -> bool {
    let needle = text.to_lowercase();
    let hit = |s: &str| s.to_lowercase().contains(&needle);
    hit(&e.id)
        || hit(&e.title)
        || e.replacement.as_deref().is_some_and(hit)
        || e.notes.as_deref().is_some_and(hit)
        || written_form_matches(e, text)
}

/// Letters and digits only, lower case: `$CI_JOB_JWT_V2`, `strategy: depend`,
/// `--registration-token` and `gl.geonodes` compare by what is written, not by punctuation.
pub fn written_form(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Is `text` (punctuation and case aside) part of a way the entry's items are written: a
/// literal its patterns detect, or a pattern's description (`*.trigger.strategy: depend`,
/// `gitlab-runner register --registration-token`)? At least three letters or digits.
///
/// An expression on a client object counts without its receivers, whatever the variables are
/// called: `gl.geonodes` is written like `geonodes`, `git.GeoNodes.ListGeoNodes` like
/// `GeoNodes.ListGeoNodes` or `ListGeoNodes`, `git.GeoNodes` like `GeoNodes`.
pub fn written_form_matches(e: &Entry, text: &str) -> bool {
    let without_receivers = text.match_indices('.').map(|(i, _)| &text[i + 1..]);
    let needles: Vec<String> = std::iter::once(text)
        .chain(without_receivers)
        .map(written_form)
        .filter(|n| n.len() >= 3)
        .collect();
    if needles.is_empty() {
        return false;
    }
    e.patterns
        .iter()
        .flat_map(|p| p.written_forms())
        .map(|form| written_form(&form))
        .any(|form| needles.iter().any(|n| form.contains(n.as_str())))
}
