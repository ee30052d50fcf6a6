//! The validated data model: entries of the removal schedule and their detection patterns.
//!
//! These types carry no source positions; the loader (`load.rs`) checks the YAML and builds them.

use serde::Serialize;

pub use crate::patterns::graphql::GraphqlElement;
pub use crate::patterns::{Pattern, SourcedPattern};
pub use crate::syntax::{FileKind, Method, RestApi};
use crate::version::{Milestone, ServiceVersion};

/// Where a change is visible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Surface {
    Rest,
    Graphql,
    Ci,
    Runner,
    Helm,
    Omnibus,
    Registry,
    Metrics,
    Packages,
    Security,
    Instance,
    Database,
    Integrations,
}

impl Surface {
    pub const ALL: [Surface; 13] = [
        Surface::Rest,
        Surface::Graphql,
        Surface::Ci,
        Surface::Runner,
        Surface::Helm,
        Surface::Omnibus,
        Surface::Registry,
        Surface::Metrics,
        Surface::Packages,
        Surface::Security,
        Surface::Instance,
        Surface::Database,
        Surface::Integrations,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Surface::Rest => "rest",
            Surface::Graphql => "graphql",
            Surface::Ci => "ci",
            Surface::Runner => "runner",
            Surface::Helm => "helm",
            Surface::Omnibus => "omnibus",
            Surface::Registry => "registry",
            Surface::Metrics => "metrics",
            Surface::Packages => "packages",
            Surface::Security => "security",
            Surface::Instance => "instance",
            Surface::Database => "database",
            Surface::Integrations => "integrations",
        }
    }

    pub fn parse(s: &str) -> Option<Surface> {
        Surface::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// What kind of change an entry describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// The item is gone.
    Removed,
    /// The item is gone under its old name; the same thing exists under a new name.
    Renamed,
    /// The item stays but behaves differently.
    BehaviourChange,
    /// Input the service accepted is now refused (410, 400, rejected).
    RejectedInput,
    /// The role or permission needed for an action changes.
    PermissionChange,
    /// The item appeared in this version (the availability table).
    Introduced,
}

impl Change {
    pub const ALL: [Change; 6] = [
        Change::Removed,
        Change::Renamed,
        Change::BehaviourChange,
        Change::RejectedInput,
        Change::PermissionChange,
        Change::Introduced,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Change::Removed => "removed",
            Change::Renamed => "renamed",
            Change::BehaviourChange => "behaviour-change",
            Change::RejectedInput => "rejected-input",
            Change::PermissionChange => "permission-change",
            Change::Introduced => "introduced",
        }
    }

    pub fn parse(s: &str) -> Option<Change> {
        Change::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// Where a request carries a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamLocation {
    Path,
    Query,
    Body,
    Header,
}

impl ParamLocation {
    pub const ALL: [ParamLocation; 4] = [
        ParamLocation::Path,
        ParamLocation::Query,
        ParamLocation::Body,
        ParamLocation::Header,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ParamLocation::Path => "path",
            ParamLocation::Query => "query",
            ParamLocation::Body => "body",
            ParamLocation::Header => "header",
        }
    }

    pub fn parse(s: &str) -> Option<ParamLocation> {
        ParamLocation::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// The type of a parameter, in the spelling of the API documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ParamType {
    #[serde(rename = "integer")]
    Integer,
    #[serde(rename = "string")]
    String,
    #[serde(rename = "boolean")]
    Boolean,
    /// An id or a URL-encoded path.
    #[serde(rename = "integer/string")]
    IntegerOrString,
    #[serde(rename = "array")]
    Array,
    #[serde(rename = "hash")]
    Hash,
    #[serde(rename = "datetime")]
    Datetime,
    #[serde(rename = "file")]
    File,
}

impl ParamType {
    pub const ALL: [ParamType; 8] = [
        ParamType::Integer,
        ParamType::String,
        ParamType::Boolean,
        ParamType::IntegerOrString,
        ParamType::Array,
        ParamType::Hash,
        ParamType::Datetime,
        ParamType::File,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ParamType::Integer => "integer",
            ParamType::String => "string",
            ParamType::Boolean => "boolean",
            ParamType::IntegerOrString => "integer/string",
            ParamType::Array => "array",
            ParamType::Hash => "hash",
            ParamType::Datetime => "datetime",
            ParamType::File => "file",
        }
    }

    pub fn parse(s: &str) -> Option<ParamType> {
        ParamType::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

impl std::fmt::Display for ParamLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for ParamType {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parameter of an endpoint (from the spec's endpoint tables).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Param {
    pub name: String,
    #[serde(rename = "in")]
    pub location: ParamLocation,
    #[serde(rename = "type")]
    pub ty: ParamType,

    pub required: bool,
    /// The only values the parameter accepts, where the spec restricts them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// An endpoint the spec documents, with its parameters and the role it requires.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Endpoint {
    pub method: Method,
    pub path: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    /// The request carries no body fields.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_body: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

/// One entry of the schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub id: String,
    pub title: String,
    pub surface: Surface,
    pub change: Change,
    pub removed_in: Option<Milestone>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated_in: Option<ServiceVersion>,
    pub introduced_in: Option<ServiceVersion>,
    pub breaking: Option<bool>,
    pub replacement: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacement_available_in: Option<ServiceVersion>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The item is emptied before its removal (the platform still returns it, empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emptied: Option<Emptied>,
    /// Entries that meet this one on a use, and how they relate (declared on either entry,
    /// held by both).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
    pub detectable: bool,
    pub patterns: Vec<SourcedPattern>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<Endpoint>,
    /// The spec rows the entry comes from (`SECTION: FIRST CELL`).
    pub spec: Vec<String>,
    /// The data file the entry was loaded from.
    pub source: String,
}

/// An item emptied before its removal: since when, if the schedule says, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Emptied {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<ServiceVersion>,
    pub how: String,
}

impl std::fmt::Display for Emptied {
    /// `from 17.0, the Runners API returns an empty string in its place`.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self.since {
            Some(v) => write!(f, "from {v}, {}", self.how),
            None => f.write_str(&self.how),
        }
    }
}

/// Another entry that meets an entry on a use, and how the two relate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Related {
    pub id: String,
    pub relation: String,
}

impl Entry {
    pub fn is_breaking(&self) -> bool {
        self.breaking == Some(true)
    }

    /// The replacement with its availability, e.g. `totalIssueWeight (since 16.2)`.
    pub fn replacement_text(&self) -> Option<String> {
        let r = self.replacement.as_deref()?;
        Some(match self.replacement_available_in {
            Some(v) => format!("{r} (since {v})"),
            None => r.to_string(),
        })
    }

    /// Every literal of every pattern, without repeats, in pattern order.
    pub fn literals(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for p in &self.patterns {
            for l in p.literals() {
                if !out.contains(&l) {
                    out.push(l);
                }
            }
        }
        out
    }
}

impl serde::Serialize for Milestone {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Milestone {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <String as serde::Deserialize>::deserialize(d)?;
        s.parse().map_err(|_| {
            serde::de::Error::custom(format!("`{s}` is not a version (MAJOR.MINOR) or v5"))
        })
    }
}

impl<'de> serde::Deserialize<'de> for ServiceVersion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <String as serde::Deserialize>::deserialize(d)?;
        s.parse()
            .map_err(|_| serde::de::Error::custom(format!("`{s}` is not a version (MAJOR.MINOR)")))
    }
}

impl serde::Serialize for ServiceVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
