//! The data files as written: serde types that keep the position of every value, so that each
//! check can point at the offending text. Self-contained (serde and serde-saphyr only): the build
//! script includes this file to turn the embedded YAML into JSON, which loads faster and goes
//! through the same checks.

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

type S = Spanned<String>;

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    pub schema_version: Spanned<u32>,
    pub entries: Vec<RawEntry>,
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
    pub detectable: Option<Spanned<bool>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patterns: Vec<RawPattern>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<RawEndpoint>,
    pub spec: Vec<S>,
}

/// A pattern as written: `kind` and the fields of that kind. A flat struct rather than a
/// tagged enum, so that every value keeps its position.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawPattern {
    pub kind: S,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<S>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<S>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unless_sibling: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_with: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<Spanned<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with_params: Option<Vec<S>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endpoints: Option<Vec<S>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parents: Option<Vec<S>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unless_argument: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<S>,
}

/// The fields each pattern kind takes: (kind, required, optional).
pub const PATTERN_KINDS: &[(&str, &[&str], &[&str])] = &[
    ("variable", &["name"], &["replace_with"]),
    (
        "yaml_key",
        &["path", "files"],
        &["values", "unless_sibling", "replace_with"],
    ),
    ("helm_value", &["path"], &["values", "replace_with"]),
    ("cli_flag", &["command", "flag"], &["short", "env"]),
    ("cli_command", &["command"], &[]),
    ("omnibus_setting", &["key"], &["values", "replace_with"]),
    ("toml_key", &["table", "key"], &["values"]),
    ("metric", &["name"], &["replace_with"]),
    (
        "rest_endpoint",
        &["path"],
        &["method", "api", "prefix", "with_params"],
    ),
    (
        "rest_field",
        &["name", "endpoints"],
        &["values", "replace_with"],
    ),
    (
        "graphql",
        &["element", "name"],
        &["parents", "unless_argument", "replace_with"],
    ),
    ("literal", &["text", "files"], &[]),
];

impl RawPattern {
    /// Every field that is present, with its position.
    pub fn present(&self) -> Vec<(&'static str, serde_saphyr::Location)> {
        let mut out = Vec::new();
        let one = |out: &mut Vec<_>, n, f: &Option<S>| {
            if let Some(s) = f {
                out.push((n, s.referenced));
            }
        };
        let many = |out: &mut Vec<_>, n, f: &Option<Vec<S>>| {
            if let Some(v) = f {
                // An empty list has no element to point at; use the kind's position.
                out.push((n, v.first().map_or(self.kind.referenced, |s| s.referenced)));
            }
        };
        one(&mut out, "name", &self.name);
        one(&mut out, "path", &self.path);
        many(&mut out, "values", &self.values);
        many(&mut out, "files", &self.files);
        one(&mut out, "unless_sibling", &self.unless_sibling);
        one(&mut out, "replace_with", &self.replace_with);
        one(&mut out, "command", &self.command);
        one(&mut out, "flag", &self.flag);
        one(&mut out, "short", &self.short);
        one(&mut out, "env", &self.env);
        one(&mut out, "key", &self.key);
        one(&mut out, "table", &self.table);
        one(&mut out, "method", &self.method);
        one(&mut out, "api", &self.api);
        if let Some(p) = &self.prefix {
            out.push(("prefix", p.referenced));
        }
        many(&mut out, "with_params", &self.with_params);
        many(&mut out, "endpoints", &self.endpoints);
        one(&mut out, "element", &self.element);
        many(&mut out, "parents", &self.parents);
        one(&mut out, "unless_argument", &self.unless_argument);
        one(&mut out, "text", &self.text);
        out
    }
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
