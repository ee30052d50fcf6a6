//! A field of an API object as a client library exposes it (`mr.merge_status`, `mr.MergedBy`,
//! `runner.active`, `r.IPAddress`), in a file that imports the library. A common word
//! (`generic: true`: `active`, `status`) counts only on an object the file shows to be the
//! resource: from the library's manager or service for it, a loop over such a list, or a type
//! annotation (see [`crate::syntax::sdk`]). An object of unknown kind is not reported, nor are
//! a webhook payload's attributes (`event.ObjectAttributes.MergeStatus`).

use serde::Serialize;

use super::check::Fields;
use super::sdk_call::{import_anchors, sdk_code};
use super::{Hit, PatternKind};
use crate::syntax::sdk::{self, Resource, Sdk};
use crate::syntax::{FileCtx, FileKind, WordBytes};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SdkField {
    pub sdk: Sdk,
    pub name: String,
    pub resource: Resource,
    /// A common word: only on an object known to be the resource.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub generic: bool,
    /// Only where the field is compared with one of these values (`r.Status == "paused"`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// The `resource` and `name` fields of a field pattern.
pub fn resource_and_name(f: &mut Fields) -> Option<(Resource, String)> {
    let resource = f.text("resource")?;
    let resource = f
        .check
        .one_of(&resource, "resource", Resource::parse, Resource::NAMES)?;
    let name = f.text("name")?;
    let name = f.check.ident(
        &name,
        "field name",
        &[],
        "a field name is letters, digits and `_`",
    )?;
    Some((resource, name))
}

impl PatternKind for SdkField {
    const NAME: &'static str = "sdk_field";
    const REQUIRED: &'static [&'static str] = &["sdk", "name", "resource"];
    const OPTIONAL: &'static [&'static str] = &["generic", "values"];
    const MATCHES: &'static str = "an object's field in a file that imports the library (`generic`: only on an object known to be the resource)";

    fn parse(f: &mut Fields) -> Option<Self> {
        let generic = f.flag("generic");
        let values = f.values();
        let sdk = f.text("sdk")?;
        let sdk = f.check.one_of(&sdk, "sdk", Sdk::parse, Sdk::NAMES)?;
        let (resource, name) = resource_and_name(f)?;
        Some(SdkField {
            sdk,
            name,
            resource,
            generic: generic?,
            values: values?,
        })
    }

    fn anchor(&self) -> String {
        self.name.clone()
    }

    fn context_anchors(&self) -> Vec<String> {
        import_anchors(self.sdk)
    }

    fn describe(&self) -> String {
        let g = if self.generic { " (on a known object)" } else { "" };
        let s = format!(
            "{} field {} of a {}{g}",
            self.sdk.as_str(),
            self.name,
            self.resource.as_str()
        );
        super::with_values(s, &self.values)
    }

    fn applies(&self, kind: FileKind) -> bool {
        sdk_code(kind)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        let file = ctx.sdk();
        if !file.imports(self.sdk) {
            return Vec::new();
        }
        let text = ctx.src.text;
        let b = text.as_bytes();
        let mut out = Vec::new();
        for at in ctx.word_offsets(&self.name, WordBytes::Ident) {
            let end = at + self.name.len();
            if at == 0 || ctx.src.in_comment(at) {
                continue;
            }
            // `x.name` (not a call), `x["name"]`, or Python's `getattr(x, "name", default)`.
            let quoted = at >= 2
                && matches!(b[at - 1], b'"' | b'\'')
                && b.get(end) == Some(&b[at - 1]);
            let dot = if b[at - 1] == b'.' && b.get(end) != Some(&b'(') {
                Some(at - 1)
            } else if quoted && b[at - 2] == b'[' && sdk::receiver(text, at - 2).is_some() {
                Some(at - 2)
            } else if quoted {
                super::resource_field::attribute_by_name(text, at - 1)
            } else {
                None
            };
            let Some(dot) = dot else { continue };
            // A webhook payload's attributes (`event.ObjectAttributes.MergeStatus`,
            // `payload["object_attributes"]["merge_status"]`) are no REST response.
            let line_start = crate::syntax::line_start_within(text.as_bytes(), at, 512);
            let before = &text[line_start..at];
            if before.contains("ObjectAttributes") || before.contains("object_attributes") {
                continue;
            }
            let known = || file.resource_before(text, dot) == Some(self.resource);
            if !self.values.is_empty()
                && !compared_value(text, end).is_some_and(|v| self.values.contains(&v))
            {
                continue;
            }
            if !self.generic || known() {
                out.push(Hit::new(at, end, self.name.clone()));
            }
        }
        out
    }
}

/// The string a field is compared with (`== "paused"`, `!== 'active'`), lowercased.
fn compared_value(text: &str, end: usize) -> Option<String> {
    let rest = text[end..].trim_start();
    let rest = ["===", "!==", "==", "!="]
        .iter()
        .find_map(|op| rest.strip_prefix(op))?
        .trim_start();
    let q = rest.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let body = &rest[1..];
    Some(body[..body.find(q)?].to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons() {
        assert_eq!(compared_value(" == \"paused\" {", 0).as_deref(), Some("paused"));
        assert_eq!(compared_value(" !== 'Active')", 0).as_deref(), Some("active"));
        assert_eq!(compared_value(" = \"paused\"", 0), None);
    }
}
