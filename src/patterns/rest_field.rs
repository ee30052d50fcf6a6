//! Fields of REST requests and responses (`merged_by`, a runner's `active`): reported only in a
//! file that calls one of the field's endpoints, and only where the word is used as a field: a
//! key (`"active":`, `active:`, `'active' =>`), an attribute or jq path (`.active`), a query or
//! keyword parameter (`active=`), a subscript (`["active"]`), a symbol (`:active`). A look-alike in
//! a file that never calls those endpoints is not the platform's field, unless the field is
//! compared with or given one of its `telling_values`, values only the platform's field takes
//! (`merge_status == 'can_be_merged'`). In a file that imports a client library, attributes and
//! keyword arguments are left to the object-aware SDK kinds.

use serde::Serialize;

use super::check::Fields;
use super::rest_endpoint::makes_requests;
use super::{Hit, PatternKind, path_anchor, with_values};
use crate::syntax::rest::{self, RestApi};
use crate::syntax::{FileCtx, FileKind, WordBytes};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RestField {
    pub name: String,
    pub endpoints: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_with: Option<String>,
    /// The field that replaces this one with the negated boolean (`active` → `paused`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_inverted: Option<String>,
    /// Values only the platform's field takes: the field compared with or given one of them
    /// counts in a file that shows none of its endpoints.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub telling_values: Vec<String>,
    /// Words of the names of other resources' types that hold a field of the same name
    /// (`Evidence`: a release evidence's `filepath` is not a link's): a field in the body of a
    /// type whose name has one of them is not this one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_in_types: Vec<String>,
}

impl PatternKind for RestField {
    const NAME: &'static str = "rest_field";
    const REQUIRED: &'static [&'static str] = &["name", "endpoints"];
    const OPTIONAL: &'static [&'static str] =
        &["values", "replace_with", "replace_inverted", "telling_values", "not_in_types"];
    const MATCHES: &'static str = "a request or response field where its endpoint is used, or where it is compared with or given one of its `telling_values`";

    fn parse(f: &mut Fields) -> Option<Self> {
        let values = f.values();
        let replace_with = f.opt_non_empty("replace_with");
        let replace_inverted = f.opt_non_empty("replace_inverted");
        let telling_values = f.list("telling_values").and_then(|l| f.check.strings(&l, "value"));
        let not_in_types = f
            .list("not_in_types")
            .and_then(|l| f.check.strings(&l, "type name word"));
        let name = f.text("name")?;
        let endpoints = f.list("endpoints")?;
        if endpoints.is_empty() {
            f.check.err_at(
                &name,
                "a REST field needs the endpoints it belongs to",
                Some("add `endpoints: [/path/:id, ...]`".into()),
            );
            return None;
        }
        let mut eps = Vec::new();
        for e in &endpoints {
            eps.push(f.check.rest_path(e)?);
        }
        Some(RestField {
            name: f.check.ident(
                &name,
                "field name",
                &[],
                "a field name is letters, digits and `_`",
            )?,
            endpoints: eps,
            values: values?,
            replace_with: replace_with?,
            replace_inverted: replace_inverted?,
            telling_values: telling_values?,
            not_in_types: not_in_types?,
        })
    }

    fn anchor(&self) -> String {
        self.name.clone()
    }

    /// A file must also call one of the field's endpoints, or hold one of its telling values.
    fn context_anchors(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .endpoints
            .iter()
            .filter_map(|e| path_anchor(e).map(str::to_string))
            .chain(self.telling_values.iter().cloned())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    fn searched_evidence(&self) -> &'static [crate::catalog::evidence::Shows] {
        use crate::catalog::evidence::Shows;
        &[Shows::RestApi, Shows::Platform]
    }

    fn replace_with(&self) -> Option<&str> {
        self.replace_with.as_deref()
    }

    fn describe(&self) -> String {
        let s = format!("REST field {} of {}", self.name, self.endpoints.join(", "));
        with_values(s, &self.values)
    }

    fn applies(&self, kind: FileKind) -> bool {
        makes_requests(kind)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        detect(self, ctx)
    }
}

/// Is the word at `at..end` used as a field?
fn field_position(text: &str, at: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let before = if at > 0 { b[at - 1] } else { b' ' };
    let after = b.get(end).copied().unwrap_or(b' ');
    // A quoted word that is the value of a key (`"state": "active"`), compared with
    // (`status == "active"`) or one of a union of values (`'stale' | 'active'`) is no field.
    let value = at > 1 && {
        // Bytes: the quote before `at` may follow a multi-byte character.
        let lead = b[..at - 1].trim_ascii_end();
        let tail = b.get(end + 1..).unwrap_or_default().trim_ascii_start();
        lead.ends_with(b":")
            || lead.ends_with(b"=")
            || (lead.ends_with(b"|") && !lead.ends_with(b"||"))
            || (tail.starts_with(b"|") && !tail.starts_with(b"||"))
    };
    let quoted = matches!(before, b'"' | b'\'' | b'`') && before == after && !value;
    let attribute = before == b'.' || (before == b':' && at > 1 && b[at - 2] != b':');
    let keyword = after == b'=' && b.get(end + 1) != Some(&b'=');
    // `name:`, and TypeScript's optional `name?:`.
    let colon = if after == b'?' { end + 1 } else { end };
    // Not a variable declared with its type (`const approvers: string[] = …`, `let x: T`).
    // A key opens its line or follows `{`, `,`, `(`, `;` or a list item's `-`: not the
    // condition of a statement (`if merged_by:`, `while active:`).
    let key = b.get(colon) == Some(&b':')
        && b.get(colon + 1) != Some(&b':')
        && !declares_variable(&b[..at])
        && key_lead(b, at);
    quoted || attribute || keyword || key || struct_tag(b, at, after)
}

/// Does what stands before `at` on its line let the word be a key: nothing, or a `{`, `,`, `(`,
/// `;` or `-` (a quote or `?` of the key itself aside)?
fn key_lead(b: &[u8], at: usize) -> bool {
    let start = crate::syntax::line_start_within(b, at, 400);
    let lead = b[start..at].trim_ascii_end();
    let lead = lead
        .strip_suffix(b"\"")
        .or_else(|| lead.strip_suffix(b"'"))
        .unwrap_or(lead)
        .trim_ascii_end();
    lead.is_empty() || matches!(lead.last(), Some(b'{' | b',' | b'(' | b';' | b'-' | b'['))
}

/// Is the word at `at` read from a webhook's payload on its line
/// (`request.data['object_attributes']['merge_status']`): the merge request event carries its
/// own copy of the fields, which the REST API's removal does not touch.
fn webhook_attribute(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    // A short way back only: a line of thousands of reads is not read again for each.
    let start = crate::syntax::line_start_within(b, at, WEBHOOK_REACH);
    memchr::memmem::find(&b[start..at], b"object_attributes").is_some()
}

/// Is the field on the line (or after the line) of a request path of the API that is none of its endpoints (a
/// mock's `HandleFunc("GET /api/v4/runners/10/managers", …)` answering `{"ip_address": …}`, the
/// runner manager's field, beside the runners' own mocks)? The nearest `/api/v4/` path before
/// it on its line or the line before says whose object it is.
fn another_endpoints_line(field: &RestField, text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    // Its line and the one before (a handler's path, then the body it answers with).
    let line = crate::syntax::line_start_within(b, at, 400);
    let start = if line > 0 && at - line < 400 {
        crate::syntax::line_start_within(b, line - 1, 400 - (at - line))
    } else {
        line
    };
    let Some(k) = memchr::memmem::rfind(&b[start..at], b"/api/v4/") else {
        return false;
    };
    let path_start = start + k + "/api/v4".len();
    let path_end = b[path_start..at]
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'/' | b'_' | b'-' | b'.')))
        .map_or(at, |e| path_start + e);
    // Only a path written out to its end (no `${id}`, `%d` or `{id}` the search stopped at).
    let written_out = matches!(
        b.get(path_end),
        Some(b'"' | b'\'' | b'`' | b' ' | b'?' | b',' | b')')
    );
    let path = &text[path_start..path_end];
    written_out
        && path.len() > 1
        && !field
            .endpoints
            .iter()
            .any(|e| crate::syntax::rest::path_matches(e, path, false))
}

/// Is the word at `at` read through a variable or field named for a webhook's event or payload
/// (`event.MergeRequest.MergeStatus`, `payload.merge_request.merge_status`, `hook.runner.active`)?
/// The event's nested objects are what the platform sends a webhook, not the API's resources.
fn read_through_event(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    if at == 0 || b[at - 1] != b'.' {
        return false;
    }
    let from = at.saturating_sub(120);
    let start = b[from..at - 1]
        .iter()
        .rposition(|&c| !(c.is_ascii_alphanumeric() || c == b'_' || c == b'.'))
        .map_or(from, |k| from + k + 1);
    text[start..at - 1].split('.').any(|part| {
        let lower = part.to_ascii_lowercase();
        ["event", "payload", "hook"].iter().any(|w| lower.contains(w))
    })
}

/// How far back on its line a field's read is looked at for a webhook payload's key.
const WEBHOOK_REACH: usize = 160;

/// Is the word at `at..end` a shorthand property of an object pattern or literal (`{ iid,
/// merge_status }`), with or without a pattern's default (`merge_status = "",`): `{` or `,`
/// before it, `,` or `}` after it, blanks aside?
fn shorthand_property(text: &str, at: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let before = b[..at].trim_ascii_end().last();
    let after = b[end..].trim_ascii_start();
    let after = pattern_default_end(after).map_or(after, |k| after[k..].trim_ascii_start());
    matches!(before, Some(b'{' | b',')) && matches!(after.first(), Some(b',' | b'}'))
}

/// How far around a word the braces that hold it are looked for.
const BRACKET_REACH: usize = 400;

/// Is the word at `at` in an object pattern that is assigned (`const { iid, merge_status = "" }
/// = mr`): the innermost bracket open before it (within [`BRACKET_REACH`]) is a brace, and the
/// brace that closes it is followed by `=`? Not a list, a call's arguments, or an object the
/// program builds (`return { approvers, configured }`).
fn in_object_pattern(b: &[u8], at: usize) -> bool {
    let mut depth = 0usize;
    let mut opened = false;
    for &c in b[at.saturating_sub(BRACKET_REACH)..at].iter().rev() {
        match c {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
            b'{' => {
                opened = true;
                break;
            }
            b'(' | b'[' => return false,
            _ => {}
        }
    }
    if !opened {
        return false;
    }
    let mut depth = 0usize;
    let after = &b[at..(at + BRACKET_REACH).min(b.len())];
    for (k, &c) in after.iter().enumerate() {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            b'}' => {
                let rest = after[k + 1..].trim_ascii_start();
                return rest.starts_with(b"=") && !rest.starts_with(b"==") && !rest.starts_with(b"=>");
            }
            b')' | b']' => return false,
            _ => {}
        }
    }
    false
}

/// The longest default of an object pattern's property read (`= ""`, `= 0`, `= []`).
const DEFAULT_REACH: usize = 80;

/// Where a pattern's default value written at the start of `after` (`= ""`, `= 0`, `= null`,
/// `= []`, `= {}`) ends: a literal, an empty list or object, or a name.
fn pattern_default_end(after: &[u8]) -> Option<usize> {
    let rest = after.strip_prefix(b"=")?;
    if rest.first().is_some_and(|&c| c == b'=' || c == b'>') {
        return None;
    }
    let value = rest.trim_ascii_start();
    let skipped = after.len() - value.len();
    let value = &value[..value.len().min(DEFAULT_REACH)];
    let len = match value.first()? {
        &q @ (b'"' | b'\'' | b'`') => value[1..].iter().position(|&c| c == q)? + 2,
        b'[' if value.get(1) == Some(&b']') => 2,
        b'{' if value.get(1) == Some(&b'}') => 2,
        _ => value
            .iter()
            .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'-')
            .count(),
    };
    (len > 0).then_some(skipped + len)
}

/// Does `lead` (the text before a word) end with a keyword that declares a variable (`const `,
/// `let `, `var `)?
fn declares_variable(lead: &[u8]) -> bool {
    let word_end = lead.trim_ascii_end();
    if word_end.len() == lead.len() {
        return false;
    }
    [&b"const"[..], b"let", b"var"].iter().any(|k| {
        word_end.ends_with(k)
            && word_end
                .len()
                .checked_sub(k.len() + 1)
                .is_none_or(|i| !word_end[i].is_ascii_alphanumeric() && word_end[i] != b'_')
    })
}

/// The keys of Go struct tags that name a field of a request or response.
const TAG_KEYS: [&str; 5] = ["json", "url", "form", "query", "mapstructure"];

/// Is the word at `at` the name in a Go struct tag (`json:"merged_by"`,
/// `url:"active,omitempty"`)? `after`: the byte after the word.
fn struct_tag(b: &[u8], at: usize, after: u8) -> bool {
    if at < 2 || b[at - 1] != b'"' || b[at - 2] != b':' || !matches!(after, b'"' | b',') {
        return false;
    }
    let key_end = at - 2;
    let key_start = b[..key_end]
        .iter()
        .rposition(|c| !c.is_ascii_lowercase())
        .map_or(0, |i| i + 1);
    let before_key = key_start.checked_sub(1).map(|i| b[i]);
    TAG_KEYS.iter().any(|k| k.as_bytes() == &b[key_start..key_end])
        && matches!(before_key, Some(b'`' | b' '))
}

/// Does a `json:"name"` tag follow on the line after `end` (a struct field tagged
/// `url:"name" json:"name"`)?
fn json_tag_follows(text: &str, end: usize, name: &str) -> bool {
    let rest = &text.as_bytes()[end..];
    let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
    let tag = format!("json:\"{name}");
    memchr::memmem::find(line, tag.as_bytes()).is_some_and(|i| {
        matches!(line.get(i + tag.len()), Some(b'"' | b','))
    })
}

/// How far back the opening bracket around a key is looked for (a parameter list is short;
/// a line of thousands of keys is not read back far for each).
const OPENER_REACH: usize = 512;

/// Is the key at `at` a parameter in a declaration's parameter list (`download(filepath:
/// string)`, `def f(filepath: str)`): the nearest bracket open around it is a `(`? Not in Ruby,
/// Kotlin, Swift or Scala, whose calls name their arguments so (`create(filepath: "x")`).
fn parameter_annotation(path: &str, text: &str, at: usize) -> bool {
    let named_arguments = [".rb", ".kt", ".kts", ".swift", ".scala", ".rake", ".gemspec"];
    if named_arguments.iter().any(|e| path.ends_with(e)) {
        return false;
    }
    let b = text.as_bytes();
    let from = at.saturating_sub(OPENER_REACH);
    let mut depth = 0usize;
    // A member of an object type that annotates a parameter (`({ active }: { active: boolean
    // })`) is the parameter's too: its `{` follows a `:`, and the search goes on outside it.
    let mut in_type = false;
    for i in (from..at).rev() {
        match b[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
            b'(' => return true,
            b'{' if !in_type && b[from..i].trim_ascii_end().ends_with(b":") => in_type = true,
            b'[' | b'{' => return false,
            _ => {}
        }
    }
    false
}

/// Does `value` (as written in code) mean one of `values`? `null` also matches None and nil.
fn value_matches(written: &str, values: &[String]) -> bool {
    values.iter().any(|v| {
        written == v.to_ascii_lowercase()
            || (v == "null" && matches!(written, "none" | "nil" | "undefined"))
    })
}

/// How far along its line the text around a field is read.
const ON_LINE_REACH: usize = 1024;

/// One of `values` quoted after the field that ends at `end`, on its line (`== "paused"`,
/// `: 'active'`).
/// How many lines after a read its variable is looked for, compared with a telling value.
const TOLD_LINES: usize = 5;

/// Is the field read at `at` kept in a variable (`merge_status = data.get('merge_status')`)
/// that one of the next lines compares with one of `values` (`if merge_status ==
/// 'can_be_merged':`)?
fn told_through_variable(text: &str, at: usize, values: &[String]) -> bool {
    let b = text.as_bytes();
    let start = crate::syntax::line_start_within(b, at, ON_LINE_REACH);
    let Some(var) = rest::assigned_variable(&text[start..at]) else {
        return false;
    };
    let mut pos = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i);
    for _ in 0..TOLD_LINES {
        if pos >= b.len() {
            break;
        }
        let line_end = memchr::memchr(b'\n', &b[pos + 1..]).map_or(b.len(), |i| pos + 1 + i);
        let line = &text[pos + 1..line_end];
        if let Some(k) = crate::syntax::word_offsets(line, var, WordBytes::Ident).next()
            && quoted_on_line(text, pos + 1 + k + var.len(), values)
        {
            return true;
        }
        pos = line_end;
    }
    false
}

fn quoted_on_line(text: &str, end: usize, values: &[String]) -> bool {
    // Within a bound of the field: a line of thousands of fields is not read to its end for
    // each.
    let mut limit = (end + ON_LINE_REACH).min(text.len());
    while !text.is_char_boundary(limit) {
        limit -= 1;
    }
    let line_end = memchr::memchr(b'\n', &text.as_bytes()[end..limit]).map_or(limit, |i| end + i);
    let mut line = &text[end..line_end];
    // The key's own closing quote (`"status": "paused"`, `['status'] == 'paused'`).
    if line.starts_with(['"', '\'']) {
        line = &line[1..];
    }
    // The quoted values that follow the field: the first quoted string after it, and those
    // after that one in a list (`in ('paused', 'active')`, `'stale' | 'active'`). A quoted word
    // after another key is that key's (`paused:string,status:string,…{name:'paused'}`).
    let mut rest = line;
    let mut first = true;
    while let Some(q) = rest.find(['"', '\'']) {
        let between = &rest[..q];
        let list_gap = between
            .chars()
            .all(|c| c.is_whitespace() || matches!(c, ',' | '|'));
        if !first && !list_gap {
            return false;
        }
        let quote = rest.as_bytes()[q] as char;
        let Some(len) = rest[q + 1..].find(quote) else {
            return false;
        };
        let word = &rest[q + 1..q + 1 + len];
        if values.iter().any(|v| v == word) {
            return true;
        }
        rest = &rest[q + 2 + len..];
        first = false;
    }
    false
}

/// Is `at` inside a string that opens on its line (an odd number of unescaped `"` before it:
/// `t.Errorf("MergeRequest.merge_status is %v", …)` is prose, not the field)? Code inside a
/// string (`"#{mr.merge_status}"`, an ERB tag in an HTML attribute) counts from where it opens.
fn in_string_on_its_line(text: &str, at: usize) -> bool {
    // From the line's start, or a bound before `at` on a longer line (one of thousands of
    // fields is not counted from the line's start for each).
    let floor = at.saturating_sub(ON_LINE_REACH);
    let mut start =
        memchr::memrchr(b'\n', &text.as_bytes()[floor..at]).map_or(floor, |i| floor + i + 1);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    if let Some(code) = ["<%", "{{", "${", "#{"]
        .iter()
        .filter_map(|open| text[start..at].rfind(open))
        .max()
    {
        start += code;
    }
    // A template's bound attribute (Vue's `:class="…"`, `v-if="…"`, `@click="…"`, Angular's
    // `[class]="…"`, `*ngIf="…"`) holds an expression of code, not a string.
    if let Some(eq) = text[start..at].rfind("=\"")
        && bound_attribute(&text.as_bytes()[start..start + eq])
    {
        start += eq + 2;
    }
    let b = &text.as_bytes()[start..at];
    let quotes = (0..b.len())
        .filter(|&i| b[i] == b'"' && (i == 0 || b[i - 1] != b'\\'))
        .count();
    quotes % 2 == 1
}

/// Does the text before a `="` end in the name of a template attribute bound to an expression
/// (`:class`, `v-if`, `@click`, `[class]`, `(click)`, `*ngIf`)?
fn bound_attribute(before: &[u8]) -> bool {
    let n = before
        .iter()
        .rev()
        .take_while(|&&c| c.is_ascii_alphanumeric() || b":@-_.[]()*".contains(&c))
        .count();
    let name = &before[before.len() - n..];
    n > 1
        && before.len() > n
        && before[before.len() - n - 1].is_ascii_whitespace()
        && (matches!(name[0], b':' | b'@' | b'[' | b'(' | b'*') || name.starts_with(b"v-"))
}

/// Where the field at `at..end` starts with its own quotes: a quoted key (`{"merge_status":
/// "can_be_merged"}`) is a string of its own, not a word of a longer one.
fn own_quote_start(text: &str, at: usize, end: usize) -> usize {
    let b = text.as_bytes();
    let quoted = at > 0
        && matches!(b[at - 1], b'"' | b'\'')
        && b.get(end) == Some(&b[at - 1]);
    if quoted { at - 1 } else { at }
}

/// Is one of `values` written right after the field that ends at `end`? In code (`code`), a
/// word written without quotes is a name (`status: active ? …`, a variable), unless it is a
/// literal of the language (`true`, `null`, `None`, `nil`, a number) or the field is written in
/// a string (`"…/runners/all?status=active"`).
fn value_written(text: &str, end: usize, values: &[String], code: bool) -> bool {
    rest::value_after(text, end, true).is_some_and(|v| {
        value_matches(&v, values)
            && (!code
                || quoted_after(text, end)
                || is_code_literal(&v)
                || in_any_string_on_its_line(text, end))
    }) || listed_in_query(text, end, values)
}

/// How much of a query parameter's value [`listed_in_query`] reads.
const QUERY_VALUE_REACH: usize = 256;

/// Is one of `values` an item of the comma-separated value of a URL's query parameter that
/// ends at `end` (`…/runners?status=online,offline,paused`)?
fn listed_in_query(text: &str, end: usize, values: &[String]) -> bool {
    let b = text.as_bytes();
    let in_query = end > 0 && {
        let start = b[..end]
            .iter()
            .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
            .map_or(0, |i| i + 1);
        start > 0 && matches!(b[start - 1], b'?' | b'&')
    };
    let Some(rest) = text[end..].strip_prefix('=').filter(|_| in_query) else {
        return false;
    };
    // A query value is short: at most [`QUERY_VALUE_REACH`] bytes of it are read (a minified
    // line of many queries is not read to its end for each).
    let mut reach = rest.len().min(QUERY_VALUE_REACH);
    while !rest.is_char_boundary(reach) {
        reach -= 1;
    }
    let value = rest[..reach]
        .split(|c: char| matches!(c, '&' | '"' | '\'' | '`' | '#') || c.is_whitespace())
        .next()
        .unwrap_or("");
    value.contains(',')
        && value
            .split(',')
            .any(|item| value_matches(&item.to_ascii_lowercase(), values))
}

/// Is `at` inside a string of any quote (`"`, `'`, `` ` ``) that opens on its line? (Counted
/// within a bound before `at`, escaped quotes passed over.)
fn in_any_string_on_its_line(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let floor = at.saturating_sub(ON_LINE_REACH);
    let start = memchr::memrchr(b'\n', &b[floor..at]).map_or(floor, |i| floor + i + 1);
    let mut open: Option<u8> = None;
    let mut i = start;
    while i < at {
        let c = b[i];
        match open {
            Some(_) if c == b'\\' => i += 1,
            Some(q) if c == q => open = None,
            None if matches!(c, b'"' | b'\'' | b'`') => open = Some(c),
            _ => {}
        }
        i += 1;
    }
    open.is_some()
}

/// Is the value written after the field that ends at `end` quoted (`: "active"`, `= 'x'`)?
fn quoted_after(text: &str, end: usize) -> bool {
    let rest = text[end..].trim_start_matches(['"', '\'', '`', ']']).trim_start();
    let rest = ["=>", "==", ":", "="]
        .iter()
        .find_map(|sep| rest.strip_prefix(sep))
        .unwrap_or(rest);
    rest.trim_start().starts_with(['"', '\'', '`'])
}

/// A literal of a programming language that a field's value may be written as without quotes.
fn is_code_literal(v: &str) -> bool {
    matches!(v, "true" | "false" | "null" | "none" | "nil" | "undefined")
        || v.bytes().all(|c| c.is_ascii_digit())
}

/// Is the key at `at..end` the program's own (a parameter annotation) or another resource's (a
/// field of a type [`RestField::not_in_types`] names, or of a webhook event's type)?
fn key_of_program(field: &RestField, ctx: &FileCtx, at: usize, end: usize) -> bool {
    let b = ctx.src.text.as_bytes();
    let colon = if b.get(end) == Some(&b'?') { end + 1 } else { end };
    let key = b.get(colon) == Some(&b':') && b.get(colon + 1) != Some(&b':');
    let code = ctx.src.class.kind == FileKind::Code;
    if key && code && parameter_annotation(ctx.src.path, ctx.src.text, at) {
        return true;
    }
    // A webhook event's type is not the response of the endpoint the file calls, nor is a
    // webhook payload written as an object literal (a bot's fixture or simulation).
    ctx.enclosing_type(at).is_some_and(|t| {
        crate::syntax::sdk::names_event(t)
            || field.not_in_types.iter().any(|w| t.contains(w.as_str()))
    }) || super::resource_field::in_event_payload(ctx.src.text, ctx.json_objects(), at)
}

fn detect(field: &RestField, ctx: &FileCtx) -> Vec<Hit> {
    let (name, values) = (&field.name, &field.values);
    let uses_endpoint = field
        .endpoints
        .iter()
        .any(|e| !ctx.rest_calls(e, RestApi::V4, false).is_empty());
    if !uses_endpoint && field.telling_values.is_empty() {
        return Vec::new();
    }
    let text = ctx.src.text;
    let code = ctx.src.class.kind == FileKind::Code;
    let telling = &field.telling_values;
    let told_at = |at: usize| {
        let end = at + name.len();
        (value_written(text, end, telling, code)
            || quoted_on_line(text, end, telling)
            || told_through_variable(text, at, telling))
            && !in_string_on_its_line(text, own_quote_start(text, at, end))
    };
    // Compared with one of its telling values anywhere in the file (`merge_status !==
    // 'can_be_merged'` below `const { merge_status } = mr`), the name destructured from an
    // object is the API's field. (Other reads still need their own value: a file may hold
    // the platform's field and an application's own of the same name.)
    let file_told = !uses_endpoint
        && ctx
            .word_offsets(name, WordBytes::Ident)
            .any(|at| !ctx.src.in_comment(at) && told_at(at));
    let mut out = Vec::new();
    let mut last_tag: Option<usize> = None;
    for at in ctx.word_offsets(name, WordBytes::Ident) {
        let end = at + name.len();
        // In a file that calls one of the field's endpoints or tells the field by its values, a
        // shorthand property too (`const { iid, merge_status = "" } = mr`).
        let placed = field_position(text, at, end);
        let shorthand = !placed
            && (file_told || (uses_endpoint && in_object_pattern(text.as_bytes(), at)))
            && shorthand_property(text, at, end)
            && !in_any_string_on_its_line(text, at);
        if ctx.src.in_comment(at)
            || !(placed || shorthand)
            || webhook_attribute(text, at)
            || read_through_event(text, at)
        {
            continue;
        }
        // A parameter of the program's own function, or a field of another resource's type.
        if key_of_program(field, ctx, at, end) || another_endpoints_line(field, text, at) {
            continue;
        }
        // In a file that uses a client library, an attribute (`x.active`) or a keyword argument
        // (`list(active=True)`) counts only on an object or call of known kind: that is the SDK
        // kinds' business (`sdk_field`, `sdk_call`).
        let b = text.as_bytes();
        let attribute = at > 0 && b[at - 1] == b'.';
        let keyword = b.get(end) == Some(&b'=') && b.get(end + 1) != Some(&b'=');
        if (attribute || keyword) && !ctx.sdk().imports.is_empty() {
            continue;
        }
        if !uses_endpoint && !shorthand && !told_at(at) {
            continue;
        }
        if !values.is_empty() {
            // `status == "paused"` on the same line.
            let quoted = !values.iter().any(|v| v == "null") && quoted_on_line(text, end, values);
            if !quoted && !value_written(text, end, values, code) {
                continue;
            }
        }
        // One struct field, one finding: its `url:"…"` and `json:"…"` tags name it twice. The
        // json tag's is the one the resource's type definition reports too.
        let tag = struct_tag(b, at, b.get(end).copied().unwrap_or(b' '));
        if tag && last_tag.is_some_and(|prev| !b[prev..at].contains(&b'\n')) {
            continue;
        }
        if tag && !b[..at].ends_with(b"json:\"") && json_tag_follows(text, end, name) {
            continue;
        }
        last_tag = tag.then_some(at);
        let shown = if values.is_empty() {
            name.to_string()
        } else {
            format!("{name}: {}", values.join(" | "))
        };
        out.push(Hit::new(at, end, shown));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_and_names_are_the_programs_own() {
        let t = "function f({ active, id }: { active: boolean; id: number }) {";
        assert!(parameter_annotation("a.ts", t, t.rfind("active").unwrap()));
        let t = "http.put(url, { body: { active: true } })";
        assert!(!parameter_annotation("a.ts", t, t.find("active").unwrap()));
        let values = ["active".to_string()];
        let t = "{ status: active ? 1 : 2 }";
        let end = t.find("status").unwrap() + 6;
        assert!(!value_written(t, end, &values, true));
        assert!(value_written(t, end, &values, false));
        let t = "{ status: 'active' }";
        assert!(value_written(t, end, &values, true));
        let t = "get(`/runners/all?status=active`)";
        let end = t.find("status").unwrap() + 6;
        assert!(value_written(t, end, &values, true));
    }

    #[test]
    fn positions_that_are_fields() {
        for (t, word) in [
            ("x[\"merged_by\"]", "merged_by"),
            ("mr.merged_by", "merged_by"),
            ("{active: true}", "active"),
            ("params = {'active' => false}", "active"),
            ("curl -d active=false", "active"),
            ("jq '.[] | .ip_address'", "ip_address"),
            ("r[:active]", "active"),
        ] {
            let at = t.find(word).unwrap();
            assert!(field_position(t, at, at + word.len()), "{t}");
        }
        for (t, word) in [
            ("const approvers: string[] = []", "approvers"),
            ("  let active: boolean;", "active"),
            ("active = true", "active"),
            ("if active {", "active"),
            ("Foo::active", "active"),
            ("{\"state\": \"active\"}", "active"),
            ("if runner[\"status\"] == \"active\":", "active"),
            ("r.status !== 'active'", "active"),
            ("status?: 'stale' | 'active' | 'paused';", "active"),
            ("status?: 'active' | 'paused';", "active"),
        ] {
            let at = t.find(word).unwrap();
            assert!(!field_position(t, at, at + word.len()), "{t}");
        }
    }

    #[test]
    fn prose_in_a_string_is_not_the_field() {
        let t = "t.Errorf(\"MergeRequest.merge_status is %v\", x)";
        assert!(in_string_on_its_line(t, t.find("merge_status").unwrap()));
        let t = "mr.merge_status == \"can_be_merged\" && f(\"a\\\"b\")";
        assert!(!in_string_on_its_line(t, t.find("merge_status").unwrap()));
        let t = "log(\"x\"); ok = mr.merge_status == 'can_be_merged'";
        assert!(!in_string_on_its_line(t, t.find("merge_status").unwrap()));
        let t = "<span class=\"fa-<%= mr.merge_status == 'can_be_merged' ? 'a' : 'b' %>\">";
        assert!(!in_string_on_its_line(t, t.find("merge_status").unwrap()));
        let t = "puts \"ready: #{mr.merge_status == 'can_be_merged'}\"";
        assert!(!in_string_on_its_line(t, t.find("merge_status").unwrap()));
    }

    #[test]
    fn values() {
        assert_eq!(
            rest::value_after("\"private_profile\": null,", 17, true).as_deref(),
            Some("null")
        );
        assert_eq!(
            rest::value_after("private_profile=None)", 15, true).as_deref(),
            Some("none")
        );
        assert!(value_matches("nil", &["null".into()]));
        assert!(!value_matches("true", &["null".into()]));
    }
}
