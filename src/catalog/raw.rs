//! The data files as written: serde types that keep the position of every value, so that each
//! check can point at the offending text. Self-contained but for the raw pattern (serde and
//! serde-saphyr only): the build script includes this file and `patterns/raw.rs` to turn the
//! embedded YAML into JSON, which loads faster and goes through the same checks.

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

pub use crate::patterns::raw::RawPattern;

type S = Spanned<String>;

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    pub schema_version: Spanned<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<RawEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<RawEvidence>,
}

/// Words that show which system a file's names belong to (`data/evidence.yml`).
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvidence {
    pub shows: S,
    pub markers: Vec<S>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<S>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seen_in: Vec<S>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawEntry {
    pub id: S,
    pub title: S,
    pub surface: S,
    pub change: S,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed_in: Option<S>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated_in: Option<S>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub introduced_in: Option<S>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaking: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement: Option<S>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement_available_in: Option<S>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<S>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emptied: Option<RawEmptied>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<RawRelated>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detectable: Option<Spanned<bool>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patterns: Vec<RawPattern>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<RawEndpoint>,
    pub spec: Vec<S>,
}

/// The item is emptied before its removal: since when (if the schedule says) and how.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawEmptied {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<S>,
    pub how: S,
}

/// Another entry that meets this one on a use, and how the two relate.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawRelated {
    pub id: S,
    pub relation: S,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawEndpoint {
    pub method: S,
    pub path: S,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<RawParam>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_body: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<S>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawParam {
    pub name: S,
    #[serde(rename = "in")]
    pub location: S,
    #[serde(rename = "type")]
    pub ty: S,
    pub required: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<S>,
}
