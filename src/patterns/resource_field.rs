//! A field in a definition or a recorded response of an API resource: a key of a Go struct
//! (`json:"merged_by"`) or a TypeScript interface or type (`ip_address: string;`) whose name says
//! it is the resource (`MergeRequest`, `RegisterNewRunnerOptions`; not `RunnerManager`, nor
//! webhook payloads), in a file that mentions the platform; or a key of a JSON object whose own
//! keys say it is the resource (a runner has `runner_type` or `is_shared`, a merge request `iid`,
//! `source_branch` and `target_branch`), also written as an object literal in code (a mock).

use serde::Serialize;

use super::check::Fields;
use super::sdk_field::resource_and_name;
use super::{Hit, PatternKind};
use crate::syntax::sdk::{self, Resource};
use crate::syntax::{FileCtx, FileKind, WordBytes};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceField {
    pub name: String,
    pub resource: Resource,
}

impl PatternKind for ResourceField {
    const NAME: &'static str = "resource_field";
    const REQUIRED: &'static [&'static str] = &["name", "resource"];
    const OPTIONAL: &'static [&'static str] = &[];
    const MATCHES: &'static str =
        "a field of the resource's type definition (Go struct tag, TypeScript interface) or of a recorded JSON response";

    fn parse(f: &mut Fields) -> Option<Self> {
        let (resource, name) = resource_and_name(f)?;
        Some(ResourceField { name, resource })
    }

    fn anchor(&self) -> String {
        self.name.clone()
    }

    /// The resource's type name or a characteristic key must be in the file too.
    fn context_anchors(&self) -> Vec<String> {
        match self.resource {
            Resource::Runner => vec!["Runner".into(), "runner_type".into(), "is_shared".into()],
            Resource::MergeRequest => vec!["MergeRequest".into(), "source_branch".into()],
            Resource::MergeRequestApprovals => vec!["Approval".into(), "approvals_".into()],
        }
    }

    fn describe(&self) -> String {
        format!(
            "field {} in a {} definition or recorded response",
            self.name,
            self.resource.as_str()
        )
    }

    fn applies(&self, kind: FileKind) -> bool {
        matches!(kind, FileKind::Code | FileKind::Monitoring)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        let text = ctx.src.text;
        let b = text.as_bytes();
        let json = ctx.src.path.ends_with(".json");
        // A webhook payload (`"object_kind": "build"`) is no REST response: its `runner` and
        // `merge_request` objects are the events' own.
        if json && ctx.contains("\"object_kind\"") {
            return Vec::new();
        }
        // A type definition counts in a file that mentions the platform; a recorded response's
        // own keys say enough.
        let platform = !json && mentions_platform(text);
        let mut out = Vec::new();
        for at in ctx.word_offsets(&self.name, WordBytes::Ident) {
            let end = at + self.name.len();
            if at == 0 || ctx.src.in_comment(at) {
                continue;
            }
            let ok = if json {
                b[at - 1] == b'"'
                    && b.get(end) == Some(&b'"')
                    && text[end + 1..].trim_start().starts_with(':')
                    && self.json_object_is_resource(ctx, at)
            } else {
                // Inside a type definition, its name says which resource it is, nested objects
                // included (a webhook payload's `runner: { active: boolean; … }` is no runner's
                // REST field).
                let in_type = ctx.enclosing_type(at);
                (platform
                    && (go_tag(text, at, end) || ts_member(text, at, end))
                    && in_type.is_some_and(|t| self.resource.names_type(t)))
                    // A recorded response written as an object literal in code (a mock).
                    || (in_type.is_none()
                        && literal_key(text, at, end)
                        && self.json_object_is_resource(ctx, at))
            };
            if ok {
                out.push(Hit::new(at, end, self.name.clone()));
            }
        }
        out
    }
}

impl ResourceField {
    fn json_object_is_resource(&self, ctx: &FileCtx, at: usize) -> bool {
        sdk::innermost_object(ctx.json_objects(), at).is_some_and(|(open, close)| {
            self.resource
                .keys_say(&sdk::own_keys(ctx.src.text, open, close))
        })
    }
}

/// Does the file mention the platform at all (`gitlab`, `GitLab`, `Gitlab`)?
fn mentions_platform(text: &str) -> bool {
    ["gitlab", "GitLab", "Gitlab", "GITLAB"]
        .iter()
        .any(|w| memchr::memmem::find(text.as_bytes(), w.as_bytes()).is_some())
}

/// `json:"name"` or `json:"name,omitempty"` in a Go struct tag.
fn go_tag(text: &str, at: usize, end: usize) -> bool {
    text[..at].ends_with("json:\"") && matches!(text.as_bytes().get(end), Some(b'"' | b','))
}

/// A key of an object literal: `name: v` or `"name": v` after `{`, `,` or at the start of a line.
fn literal_key(text: &str, at: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let quoted = matches!(b[at - 1], b'"' | b'\'') && b.get(end) == Some(&b[at - 1]);
    let (key_start, key_end) = if quoted { (at - 1, end + 1) } else { (at, end) };
    let line_start = text[..key_start].rfind('\n').map_or(0, |i| i + 1);
    let lead = text[line_start..key_start].trim_end();
    let rest = &text[key_end..];
    (lead.is_empty() || lead.ends_with(['{', ','])) && rest.starts_with(':') && !rest.starts_with("::")
}

/// `name: T;`, `name?: T`, `readonly name: T` as a member line of a TypeScript interface.
fn ts_member(text: &str, at: usize, end: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let lead = text[line_start..at].trim();
    let rest = &text[end..];
    (lead.is_empty() || lead == "readonly") && (rest.starts_with(':') || rest.starts_with("?:"))
}
