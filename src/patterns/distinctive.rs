//! Distinctive written forms: `distinctive` on any pattern lists the forms of it (some of its
//! literals) that no other system writes (`CI_JOB_JWT_V2`, `runnerRegistrationToken`,
//! `--registration-token`, `REGISTER_RUN_UNTAGGED`). Such a form is found standing alone,
//! outside comments, in every text file uplint reads, in any language and of any kind, with no
//! other evidence; the pattern's own detection still finds its other forms where it applies.
//! A name other systems also use (`active`, `status`, `locked`, `tags`) is not listed: it
//! counts only with the evidence its pattern asks for.
//!
//! A form that another system writes too, in files that name that system
//! (`runner-registration-token` is also a GitHub Actions runner's placeholder and a GARM
//! metadata path), lists the other system's names in `other_systems`: in a file holding one of
//! them the form alone is not evidence of the platform and is not reported (the pattern's own
//! detection still is).

use serde::Serialize;

use super::check::Check;
use super::raw::{RawPattern, RawValue};
use super::{Hit, word_hits};
use crate::syntax::{FileCtx, FileKind, WordBytes, is_ident_byte};

/// The field's name, common to every pattern kind.
pub const FIELD: &str = "distinctive";

/// The field naming the other systems that write a pattern's distinctive forms too.
pub const OTHER_SYSTEMS: &str = "other_systems";

/// What a name of another system may be.
const OTHER: &str = "a name of the other system, at least 6 characters, as its files write it, e.g. `actions-runner`";

/// What a distinctive form may be.
const FORM: &str = "a word of one of the pattern's literals (`uplint query --literals`), of at least 6 letters, digits, `_` or `-`, e.g. `REGISTER_RUN_UNTAGGED` or `--registration-token`";

/// The shortest distinctive form: shorter words are too likely to be another system's.
const SHORTEST: usize = 6;

/// A written form found anywhere.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Distinctive(String);

impl Distinctive {
    pub fn text(&self) -> &str {
        &self.0
    }

    /// The form standing alone (no letter, digit, `_` or, for a form with a `-`, `-` next to
    /// it) outside comments.
    pub fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        // A GraphQL schema (a copy of the platform's, for a client's code generator) defines
        // the platform's fields and types: no use of them.
        if ctx.src.class.kind == FileKind::Graphql
            && crate::syntax::graphql::is_schema(ctx.src.text)
        {
            return Vec::new();
        }
        // Nor do the types generated for a whole schema ([`crate::syntax::graphql_types::
        // whole_schema`]) use its fields.
        if ctx.src.class.kind == FileKind::Code
            && ctx.contains(crate::syntax::graphql_types::WHOLE_SCHEMA)
        {
            return Vec::new();
        }
        let bytes = if self.0.bytes().all(is_ident_byte) {
            WordBytes::Ident
        } else {
            WordBytes::Other(|c| is_ident_byte(c) || c == b'-')
        };
        let mut hits = word_hits(&self.0, ctx, bytes);
        let text = ctx.src.text.as_bytes();
        if self.0.starts_with("--") {
            hits.retain(|h| {
                !in_list_of_flags(text, h.start, h.end) && !super::in_printed_message(text, h.start)
            });
        } else if self.0.contains('-') {
            // A name of words joined by `-` is a key (`runner-registration-token:` of a
            // secret, `--from-literal=runner-registration-token=`, `key: runner-registration-token`
            // of a reference to it); elsewhere it is a label or a path's segment of another
            // system (`data-testid="…"`, `/run/secrets/…:ro`).
            hits.retain(|h| key_written_or_referred(text, h.start, h.end));
        }
        // A chart value's camel-cased name assigned at a shell line's start
        // (`runnerRegistrationToken=$2`) is the script's own variable; what it is handed to
        // (`--set runnerRegistrationToken=$runnerRegistrationToken`) is the value.
        if ctx.src.class.kind == FileKind::Shell
            && self.0.bytes().any(|c| c.is_ascii_lowercase())
            && self.0.bytes().all(is_ident_byte)
        {
            hits.retain(|h| !shell_assignment(text, h.start, h.end));
        }
        // An upper-case name called (`REGISTER_LOCKED(a, n)`) is a macro or a function, not
        // the environment variable.
        if self.0.bytes().all(|c| !c.is_ascii_lowercase()) {
            let text = ctx.src.text.as_bytes();
            hits.retain(|h| text.get(h.end) != Some(&b'('));
            // `unset NAME` takes the variable away (what the new flow does with the legacy
            // registration variables): not a use of it.
            hits.retain(|h| !super::cli_flag::unset_at(text, h.start));
            // A container's `value: ${NAME}` right below its `- name: NAME` is the same
            // setting, found at its name.
            let name = &self.0;
            hits.retain(|h| !super::cli_flag::value_of_named_entry(text, h.start, name));
            // An ID token a job names as it likes (`id_tokens:` over `CI_JOB_JWT:`): the
            // replacement declared, not the variable.
            hits.retain(|h| !super::variable::declares_an_id_token(text, h.start, h.end));
        }
        hits
    }
}

/// Is the word at `start..end` a shell variable assigned at its line's start (`name=…`,
/// `export name=…`, `local name=…`)?
fn shell_assignment(text: &[u8], start: usize, end: usize) -> bool {
    if text.get(end) != Some(&b'=') {
        return false;
    }
    let line_start = memchr::memrchr(b'\n', &text[..start]).map_or(0, |i| i + 1);
    let lead = text[line_start..start].trim_ascii();
    matches!(lead, b"" | b"export" | b"local" | b"declare" | b"readonly")
}

/// Is the word at `start..end` written as a key (followed by `:` or `=`, after its closing
/// quote if quoted, and not a path's segment) or referred to as one (`key: word`, `key=word`)?
fn key_written_or_referred(text: &[u8], start: usize, end: usize) -> bool {
    let mut after = &text[end..];
    if let Some(rest) = after
        .strip_prefix(b"\"")
        .or_else(|| after.strip_prefix(b"'"))
    {
        after = rest;
    }
    let after = after.trim_ascii_start();
    let keyed =
        matches!(after.first(), Some(b':' | b'=')) && !(start > 0 && text[start - 1] == b'/');
    let mut before = text[..start].trim_ascii_end();
    if let Some(rest) = before
        .strip_suffix(b"\"")
        .or_else(|| before.strip_suffix(b"'"))
    {
        before = rest.trim_ascii_end();
    }
    let referred = [&b"key:"[..], b"key=", b"\"key\":", b"key\":"]
        .iter()
        .any(|k| before.ends_with(k));
    keyed || referred
}

/// Is the flag at `start..end` an item of a list of flags in prose (`"ignored: --tag-list,
/// --locked, --run-untagged"`): followed by a comma, or after another flag and a comma? A
/// command line never writes a comma right after a flag's name.
fn in_list_of_flags(text: &[u8], start: usize, end: usize) -> bool {
    if text.get(end) == Some(&b',') {
        return true;
    }
    let before = text[..start].trim_ascii_end();
    let Some(before) = before.strip_suffix(b",") else {
        return false;
    };
    let word = before
        .iter()
        .rev()
        .take_while(|&&c| is_ident_byte(c) || c == b'-')
        .count();
    before[before.len() - word..].starts_with(b"--")
}

/// Does the file name one of the other systems that write the distinctive forms too?
pub fn names_other_system(other_systems: &[String], ctx: &FileCtx) -> bool {
    other_systems.iter().any(|name| ctx.contains(name))
}

/// Read the `other_systems` field of a raw pattern whose distinctive forms are `forms`.
pub fn parse_other_systems(
    raw: &RawPattern,
    forms: &[Distinctive],
    check: &mut Check,
) -> Vec<String> {
    let Some((_, value)) = raw.fields.iter().find(|(n, _)| n == OTHER_SYSTEMS) else {
        return Vec::new();
    };
    let RawValue::List(items) = &value.value else {
        check.err_loc(
            value.referenced,
            format!("`{OTHER_SYSTEMS}` takes a list of names"),
            &format!("write each as {OTHER}"),
        );
        return Vec::new();
    };
    if forms.is_empty() {
        check.err_loc(
            value.referenced,
            format!("`{OTHER_SYSTEMS}` applies to the `{FIELD}` forms, and this pattern has none"),
            &format!("give `{FIELD}` too, or remove `{OTHER_SYSTEMS}`"),
        );
        return Vec::new();
    }
    let mut out = Vec::new();
    for item in items {
        if item.value.trim().len() >= SHORTEST && item.value.trim() == item.value {
            out.push(item.value.clone());
        } else {
            check.err_at(
                item,
                format!(
                    "`{OTHER_SYSTEMS}` name `{}` is too short or padded",
                    item.value
                ),
                Some(format!("write it as {OTHER}")),
            );
        }
    }
    out
}

fn well_formed(form: &str, literals: &[String]) -> bool {
    form.len() >= SHORTEST
        && form.bytes().all(|c| is_ident_byte(c) || c == b'-')
        && form.bytes().any(|c| c.is_ascii_alphabetic())
        && literals.iter().any(|l| {
            l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .any(|w| w == form)
        })
}

/// Read the `distinctive` field of a raw pattern whose literals are `literals`, if present.
pub fn parse(raw: &RawPattern, literals: &[String], check: &mut Check) -> Vec<Distinctive> {
    let Some((_, value)) = raw.fields.iter().find(|(n, _)| n == FIELD) else {
        return Vec::new();
    };
    let items: Vec<serde_saphyr::Spanned<String>> = match &value.value {
        RawValue::Text(t) => vec![serde_saphyr::Spanned::new(
            t.clone(),
            value.referenced,
            value.defined,
        )],
        RawValue::List(l) => l.clone(),
        RawValue::Bool(_) => {
            check.err_loc(
                value.referenced,
                format!("`{FIELD}` takes a written form or a list of them"),
                &format!("write each form as {FORM}"),
            );
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for item in items {
        if well_formed(&item.value, literals) {
            out.push(Distinctive(item.value));
        } else {
            check.err_at(
                &item,
                format!(
                    "`{FIELD}` form `{}` is not a distinctive literal of this pattern",
                    item.value
                ),
                Some(format!(
                    "write it as {FORM}; this pattern's literals: {}",
                    literals.join(", ")
                )),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let lits = [
            "gitlab-runner register --locked".to_string(),
            "--locked".into(),
            "REGISTER_LOCKED".into(),
            "CI_JOB_JWT_V2".into(),
            "tags".into(),
        ];
        assert!(well_formed("REGISTER_LOCKED", &lits));
        assert!(well_formed("--locked", &lits));
        assert!(well_formed("CI_JOB_JWT_V2", &lits));
        // Not a literal of the pattern, a phrase, too short.
        assert!(!well_formed("REGISTER_PAUSED", &lits));
        assert!(!well_formed("gitlab-runner register --locked", &lits));
        assert!(!well_formed("tags", &lits));
        // A word of a literal: a path's segment.
        let path = ["/runners/reset_registration_token".to_string()];
        assert!(well_formed("reset_registration_token", &path));
        assert!(!well_formed("reset_registration", &path));
    }
}
