//! Loading and validating data files.
//!
//! A data file is YAML: `schema_version: 1` and a list of `entries`. The raw serde types below
//! keep the position of every value so that each check can point at the offending text.
//! Loading is all or nothing: a caller gets every entry of every file, or the errors.

use std::collections::HashMap;
use std::sync::Arc;

use serde_saphyr::Spanned;

use super::error::{DataError, offset_of, yaml_error};
use super::model::{
    Change, Endpoint, Entry, FileKind, GraphqlElement, Method, Param, Pattern, RestApi, Surface,
};
use crate::version::{Milestone, ServiceVersion};

/// The schema version this build reads.
pub const SCHEMA_VERSION: u32 = 1;

use super::raw::{PATTERN_KINDS, RawEntry, RawFile, RawPattern};

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
    pub errors: Vec<DataError>,
    ids: HashMap<String, IdSite>,
}

/// Checks of one file: the file's name and text, for positions.
struct FileCtx<'a> {
    name: &'a str,
    text: &'a Arc<str>,
    errors: Vec<DataError>,
}

impl FileCtx<'_> {
    fn span_of(&self, s: &S) -> (usize, usize) {
        let loc = s.referenced;
        let span = loc.span();
        match (span.byte_offset(), span.byte_len()) {
            (Some(o), Some(l)) => (o as usize, l as usize),
            _ => (
                offset_of(self.text, loc.line() as usize, loc.column() as usize),
                s.value.len(),
            ),
        }
    }

    fn err_at(&mut self, s: &S, message: impl Into<String>, help: Option<String>) {
        let (o, l) = self.span_of(s);
        let mut e = DataError::at(self.name, self.text, o, l.max(1), message);
        if let Some(h) = help {
            e = e.with_help(h);
        }
        self.errors.push(e);
    }

    fn err_loc(&mut self, loc: serde_saphyr::Location, message: impl Into<String>, help: &str) {
        let o = match loc.span().byte_offset() {
            Some(o) => o as usize,
            None => offset_of(self.text, loc.line() as usize, loc.column() as usize),
        };
        let e = DataError::at(self.name, self.text, o, 1, message).with_help(help);
        self.errors.push(e);
    }

    fn non_empty(&mut self, s: &S, what: &str) -> Option<String> {
        let v = s.value.trim();
        if v.is_empty() {
            self.err_at(
                s,
                format!("{what} is empty"),
                Some(format!("give a {what}")),
            );
            None
        } else {
            Some(v.to_string())
        }
    }

    fn service_version(&mut self, s: &S, field: &str) -> Option<ServiceVersion> {
        match s.value.parse::<ServiceVersion>() {
            Ok(v) => Some(v),
            Err(_) => {
                self.err_at(
                    s,
                    format!("`{}` is not a valid version for `{field}`", s.value),
                    Some("a service version is MAJOR.MINOR or MAJOR.MINOR.PATCH, e.g. `17.0` or `16.3.0`".into()),
                );
                None
            }
        }
    }

    fn milestone(&mut self, s: &S, field: &str) -> Option<Milestone> {
        match s.value.parse::<Milestone>() {
            Ok(v) => Some(v),
            Err(_) => {
                self.err_at(
                    s,
                    format!("`{}` is not a valid version for `{field}`", s.value),
                    Some("write a service version such as `17.0` (MAJOR.MINOR), or `v5` for the REST API v5".into()),
                );
                None
            }
        }
    }

    fn checked(&mut self, s: &S, what: &str, ok: bool, expected: &str) -> Option<String> {
        let v = self.non_empty(s, what)?;
        if ok {
            Some(v)
        } else {
            self.err_at(
                s,
                format!("invalid {what} `{}`", s.value),
                Some(expected.to_string()),
            );
            None
        }
    }

    fn files(&mut self, list: &[S], context: &S) -> Option<Vec<FileKind>> {
        if list.is_empty() {
            self.err_at(
                context,
                "pattern has an empty `files` list",
                Some(format!("name the kinds of file: {}", file_kinds())),
            );
            return None;
        }
        let mut out = Vec::new();
        for f in list {
            match FileKind::parse(&f.value) {
                Some(k) => out.push(k),
                None => {
                    self.err_at(
                        f,
                        format!("unknown file kind `{}`", f.value),
                        Some(format!("expected one of {}", file_kinds())),
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    fn strings(&mut self, list: &[S], what: &str) -> Option<Vec<String>> {
        let mut out = Vec::new();
        for s in list {
            out.push(self.non_empty(s, what)?);
        }
        Some(out)
    }

    fn opt(&mut self, s: &Option<S>, what: &str) -> Option<Option<String>> {
        match s {
            None => Some(None),
            Some(s) => self.non_empty(s, what).map(Some),
        }
    }

    fn ident(&mut self, s: &S, what: &str, extra: &[char], expected: &str) -> Option<String> {
        let ok = is_ident(&s.value, extra);
        self.checked(s, what, ok, expected)
    }

    fn key_path(&mut self, s: &S) -> Option<Vec<String>> {
        let v = self.non_empty(s, "key path")?;
        let segs: Vec<String> = v.split('.').map(str::to_string).collect();
        if segs
            .iter()
            .any(|p| p.is_empty() || p.contains(char::is_whitespace))
            || segs.iter().all(|p| p.starts_with('*'))
            || segs
                .iter()
                .any(|p| p.starts_with('*') && p != "*" && p != "**")
        {
            self.err_at(
                s,
                format!("invalid key path `{v}`"),
                Some("a key path is dot-separated keys, e.g. `*.trigger.strategy` (`*` is any one key, `**` any number of keys)".into()),
            );
            return None;
        }
        Some(segs)
    }

    fn rest_path(&mut self, s: &S) -> Option<String> {
        let v = self.non_empty(s, "REST path")?;
        let ok = v.starts_with('/')
            && !v.contains(char::is_whitespace)
            && !v.starts_with("/api/")
            && v.len() > 1
            && v[1..].split('/').all(|seg| !seg.is_empty());
        if !ok {
            self.err_at(
                s,
                format!("invalid REST path `{v}`"),
                Some("a path starts with `/`, has no empty segment, no spaces, and leaves out the `/api/v4` prefix, e.g. `/projects/:id/ci/lint`".into()),
            );
            return None;
        }
        Some(v)
    }

    fn method(&mut self, s: &S) -> Option<Method> {
        match Method::parse(&s.value) {
            Some(m) if s.value == m.as_str() => Some(m),
            _ => {
                self.err_at(
                    s,
                    format!("unknown HTTP method `{}`", s.value),
                    Some("expected one of GET, POST, PUT, PATCH, DELETE, HEAD".into()),
                );
                None
            }
        }
    }
}

fn file_kinds() -> String {
    FileKind::ALL
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn is_ident(s: &str, extra: &[char]) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || extra.contains(&c))
}

fn is_kebab_id(s: &str) -> bool {
    !s.is_empty()
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && !s.ends_with('-')
        && !s.contains("--")
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// `postgres_exporter['per_table_stats']` → `[postgres_exporter, per_table_stats]`.
fn parse_omnibus_key(s: &str) -> Option<Vec<String>> {
    let open = s.find('[')?;
    let head = &s[..open];
    if !is_ident(head, &[]) {
        return None;
    }
    let mut out = vec![head.to_string()];
    let mut rest = &s[open..];
    while !rest.is_empty() {
        let inner = rest.strip_prefix("['")?;
        let end = inner.find("']")?;
        let key = &inner[..end];
        if key.is_empty() || key.contains(['\'', '[', ']']) {
            return None;
        }
        out.push(key.to_string());
        rest = &inner[end + 2..];
    }
    Some(out)
}

impl Loader {
    /// All the entries, sorted (introductions by version, then removals by milestone and id),
    /// or every error: nothing is half-loaded.
    pub fn finish(self) -> Result<super::Catalog, super::DataErrors> {
        if !self.errors.is_empty() {
            return Err(super::DataErrors(self.errors));
        }
        let mut entries = self.entries;
        entries.sort_by(|a, b| super::sort_key(a).cmp(&super::sort_key(b)));
        Ok(super::Catalog { entries })
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
            errors: Vec::new(),
        };
        if raw.schema_version.value != SCHEMA_VERSION {
            ctx.err_loc(
                raw.schema_version.referenced,
                format!("unsupported schema_version {}", raw.schema_version.value),
                &format!("this build of uplint reads `schema_version: {SCHEMA_VERSION}`"),
            );
            self.errors.append(&mut ctx.errors);
            return;
        }
        let mut entries = Vec::new();
        for raw_entry in &raw.entries {
            if let Some(entry) = self.entry(&mut ctx, raw_entry) {
                entries.push(entry);
            }
        }
        if ctx.errors.is_empty() {
            self.entries.extend(entries);
        } else {
            self.errors.append(&mut ctx.errors);
        }
    }

    fn entry(&mut self, ctx: &mut FileCtx, r: &RawEntry) -> Option<Entry> {
        let before = ctx.errors.len();
        let id = ctx.non_empty(&r.id, "id");
        if let Some(id) = &id {
            if !is_kebab_id(id) {
                ctx.err_at(
                    &r.id,
                    format!("invalid id `{id}`"),
                    Some("an id is kebab-case: lowercase letters, digits and single dashes, e.g. `ci-job-jwt`".into()),
                );
            } else {
                let (o, _) = ctx.span_of(&r.id);
                let (line, column) = if ctx.text.is_empty() {
                    (0, 0)
                } else {
                    super::error::line_col(ctx.text, o)
                };
                if let Some(first) = self.ids.get(id) {
                    // Compiled (embedded) data has no positions: name the file alone.
                    let at = if first.line == 0 {
                        first.file.clone()
                    } else {
                        format!("{}:{}:{}", first.file, first.line, first.column)
                    };
                    let help = format!(
                        "ids must be unique across all data files; `{id}` is first defined in {at}"
                    );
                    ctx.err_at(&r.id, format!("duplicate id `{id}`"), Some(help));
                } else {
                    self.ids.insert(
                        id.clone(),
                        IdSite {
                            file: ctx.name.to_string(),
                            line,
                            column,
                        },
                    );
                }
            }
        }
        let title = ctx.non_empty(&r.title, "title");
        let surface = match Surface::parse(&r.surface.value) {
            Some(s) => Some(s),
            None => {
                let all: Vec<&str> = Surface::ALL.iter().map(|s| s.as_str()).collect();
                ctx.err_at(
                    &r.surface,
                    format!("unknown surface `{}`", r.surface.value),
                    Some(format!("expected one of {}", all.join(", "))),
                );
                None
            }
        };
        let change = match Change::parse(&r.change.value) {
            Some(c) => Some(c),
            None => {
                let all: Vec<&str> = Change::ALL.iter().map(|s| s.as_str()).collect();
                ctx.err_at(
                    &r.change,
                    format!("unknown change `{}`", r.change.value),
                    Some(format!("expected one of {}", all.join(", "))),
                );
                None
            }
        };
        let removed_in = r
            .removed_in
            .as_ref()
            .and_then(|s| ctx.milestone(s, "removed_in"));
        let deprecated_in = r
            .deprecated_in
            .as_ref()
            .and_then(|s| ctx.service_version(s, "deprecated_in"));
        let introduced_in = r
            .introduced_in
            .as_ref()
            .and_then(|s| ctx.service_version(s, "introduced_in"));
        let replacement_available_in = r
            .replacement_available_in
            .as_ref()
            .and_then(|s| ctx.service_version(s, "replacement_available_in"));

        // Ordering of the dates.
        if let (Some(Milestone::Service(rm)), Some(raw_rm)) = (removed_in, &r.removed_in) {
            for (name, v) in [
                ("deprecated_in", deprecated_in),
                ("introduced_in", introduced_in),
            ] {
                if let Some(v) = v
                    && rm < v
                {
                    ctx.err_at(
                        raw_rm,
                        format!("removed_in {rm} is before {name} {v}"),
                        Some(format!(
                            "an item cannot be removed before it was {}",
                            &name[..name.len() - 3]
                        )),
                    );
                }
            }
            if let (Some(v), Some(raw)) = (replacement_available_in, &r.replacement_available_in)
                && v > rm
            {
                ctx.err_at(
                    raw,
                    format!("replacement_available_in {v} is after removed_in {rm}"),
                    Some("the replacement must be available no later than the removal".into()),
                );
            }
        }
        if let (Some(d), Some(i), Some(raw)) = (deprecated_in, introduced_in, &r.deprecated_in)
            && d < i
        {
            ctx.err_at(
                raw,
                format!("deprecated_in {d} is before introduced_in {i}"),
                None,
            );
        }
        match change {
            Some(Change::Introduced) if introduced_in.is_none() => ctx.err_at(
                &r.change,
                "an `introduced` entry needs `introduced_in`",
                Some("add `introduced_in: MAJOR.MINOR`".into()),
            ),
            Some(c)
                if c != Change::Introduced && removed_in.is_none() && r.removed_in.is_none() =>
            {
                ctx.err_at(
                    &r.change,
                    format!("a `{}` entry needs `removed_in`", c.as_str()),
                    Some("add `removed_in: MAJOR.MINOR` (or `v5` for the REST API v5)".into()),
                )
            }
            _ => {}
        }

        let replacement = ctx.opt(&r.replacement, "replacement").flatten();
        let notes = ctx.opt(&r.notes, "notes").flatten();
        let mut patterns = Vec::new();
        for p in &r.patterns {
            if let Some(p) = pattern(ctx, p) {
                patterns.push(p);
            }
        }
        let detectable = r.detectable.as_ref().is_none_or(|d| d.value);
        if detectable && r.patterns.is_empty() {
            ctx.err_at(
                &r.id,
                "entry has no detection patterns",
                Some(
                    "add `patterns`, or say `detectable: false` when no file can reveal the item"
                        .into(),
                ),
            );
        }
        if !detectable && !r.patterns.is_empty() {
            let loc = r.detectable.as_ref().map(|d| d.referenced);
            if let Some(loc) = loc {
                ctx.err_loc(
                    loc,
                    "entry says `detectable: false` but has patterns",
                    "remove the patterns, or the `detectable: false`",
                );
            }
        }
        let mut endpoints = Vec::new();
        for e in &r.endpoints {
            let method = ctx.method(&e.method);
            let path = ctx.rest_path(&e.path);
            let role = ctx.opt(&e.role, "role").flatten();
            let mut params = Vec::new();
            for p in &e.params {
                let name = ctx.non_empty(&p.name, "parameter name");
                let location = ctx.checked(
                    &p.location,
                    "parameter location",
                    matches!(
                        p.location.value.as_str(),
                        "path" | "query" | "body" | "header"
                    ),
                    "expected one of path, query, body, header",
                );
                let ty = ctx.non_empty(&p.ty, "parameter type");
                let values = ctx.strings(&p.values, "parameter value");
                if let (Some(name), Some(location), Some(ty), Some(values)) =
                    (name, location, ty, values)
                {
                    params.push(Param {
                        name,
                        location,
                        ty,
                        required: p.required,
                        values,
                    });
                }
            }
            if let (Some(method), Some(path)) = (method, path) {
                endpoints.push(Endpoint {
                    method,
                    path,
                    params,
                    no_body: e.no_body,
                    role,
                });
            }
        }
        if r.spec.is_empty() {
            ctx.err_at(
                &r.id,
                "entry cites no spec row",
                Some(
                    "add `spec: [\"SECTION: FIRST CELL\"]` naming the row(s) the entry comes from"
                        .into(),
                ),
            );
        }
        let spec = ctx.strings(&r.spec, "spec reference");

        if ctx.errors.len() > before {
            return None;
        }
        Some(Entry {
            id: id?,
            title: title?,
            surface: surface?,
            change: change?,
            removed_in,
            deprecated_in,
            introduced_in,
            breaking: r.breaking,
            replacement,
            replacement_available_in,
            notes,
            detectable,
            patterns,
            endpoints,
            spec: spec?,
            source: ctx.name.to_string(),
        })
    }
}

fn pattern(ctx: &mut FileCtx, r: &RawPattern) -> Option<Pattern> {
    const VAR: &str = "a variable name is letters, digits and `_`, not starting with a digit";
    let Some(&(kind, required, optional)) =
        PATTERN_KINDS.iter().find(|(k, _, _)| *k == r.kind.value)
    else {
        let all: Vec<&str> = PATTERN_KINDS.iter().map(|(k, _, _)| *k).collect();
        ctx.err_at(
            &r.kind,
            format!("unknown pattern kind `{}`", r.kind.value),
            Some(format!("expected one of {}", all.join(", "))),
        );
        return None;
    };
    let present = r.present();
    let before = ctx.errors.len();
    let takes = || {
        let mut all: Vec<&str> = required.to_vec();
        all.extend(optional);
        all.join(", ")
    };
    for (field, loc) in &present {
        if !required.contains(field) && !optional.contains(field) {
            ctx.err_loc(
                *loc,
                format!("`{field}` does not apply to a `{kind}` pattern"),
                &format!("a `{kind}` pattern takes {}", takes()),
            );
        }
    }
    for field in required {
        if !present.iter().any(|(f, _)| f == field) {
            ctx.err_at(
                &r.kind,
                format!("a `{kind}` pattern needs `{field}`"),
                Some(format!("a `{kind}` pattern takes {}", takes())),
            );
        }
    }
    if ctx.errors.len() > before {
        return None;
    }
    // From here every required field is present.
    let req = |f: &Option<S>| f.clone().expect("required field checked above");
    let empty = Vec::new();
    let list = |f: &Option<Vec<S>>| f.clone().unwrap_or_default();
    let values = ctx.strings(r.values.as_ref().unwrap_or(&empty), "value");
    let replace_with = ctx.opt(&r.replace_with, "replace_with");
    let p = match kind {
        "variable" => Pattern::Variable {
            name: ctx.ident(&req(&r.name), "variable name", &[], VAR)?,
            replace_with: replace_with?,
        },
        "yaml_key" => {
            let path = req(&r.path);
            Pattern::YamlKey {
                path: ctx.key_path(&path)?,
                values: values?,
                files: ctx.files(&list(&r.files), &path)?,
                unless_sibling: ctx.opt(&r.unless_sibling, "unless_sibling")?,
                replace_with: replace_with?,
            }
        }
        "helm_value" => Pattern::HelmValue {
            path: ctx.key_path(&req(&r.path))?,
            values: values?,
            replace_with: replace_with?,
        },
        "cli_flag" => {
            let flag = req(&r.flag);
            let flag_ok = flag.value.starts_with("--")
                && flag.value.len() > 2
                && is_ident(&flag.value[2..], &['-']);
            Pattern::CliFlag {
                command: ctx.non_empty(&req(&r.command), "command")?,
                flag: ctx.checked(
                    &flag,
                    "flag",
                    flag_ok,
                    "a long flag is `--` followed by letters, digits and dashes, e.g. `--tag-list`",
                )?,
                short: match &r.short {
                    None => None,
                    Some(s) => {
                        let ok = s.value.len() == 2
                            && s.value.starts_with('-')
                            && s.value.as_bytes()[1].is_ascii_alphanumeric();
                        Some(ctx.checked(
                            s,
                            "short flag",
                            ok,
                            "a short flag is `-` and one letter, e.g. `-r`",
                        )?)
                    }
                },
                env: match &r.env {
                    None => None,
                    Some(e) => Some(ctx.ident(e, "environment variable", &[], VAR)?),
                },
            }
        }
        "cli_command" => Pattern::CliCommand {
            command: ctx.non_empty(&req(&r.command), "command")?,
        },
        "omnibus_setting" => {
            let key = req(&r.key);
            let parsed = parse_omnibus_key(key.value.trim());
            if parsed.is_none() {
                ctx.err_at(
                    &key,
                    format!("invalid gitlab.rb setting `{}`", key.value),
                    Some(
                        "write it as in gitlab.rb, e.g. `postgres_exporter['per_table_stats']`"
                            .into(),
                    ),
                );
            }
            Pattern::OmnibusSetting {
                key: parsed?,
                values: values?,
                replace_with: replace_with?,
            }
        }
        "toml_key" => Pattern::TomlKey {
            table: ctx.non_empty(&req(&r.table), "table")?,
            key: ctx.ident(
                &req(&r.key),
                "TOML key",
                &['-'],
                "a bare TOML key: letters, digits, `_` and `-`",
            )?,
            values: values?,
        },
        "metric" => Pattern::Metric {
            name: ctx.ident(
                &req(&r.name),
                "metric name",
                &[':'],
                "a metric name is letters, digits, `_` and `:`",
            )?,
            replace_with: replace_with?,
        },
        "rest_endpoint" => {
            let api = match &r.api {
                None => RestApi::V4,
                Some(a) => match a.value.as_str() {
                    "v4" => RestApi::V4,
                    "registry" => RestApi::Registry,
                    "instance" => RestApi::Instance,
                    _ => {
                        ctx.err_at(
                            a,
                            format!("unknown api `{}`", a.value),
                            Some("expected one of v4, registry, instance".into()),
                        );
                        return None;
                    }
                },
            };
            Pattern::RestEndpoint {
                method: match &r.method {
                    None => None,
                    Some(m) => Some(ctx.method(m)?),
                },
                path: ctx.rest_path(&req(&r.path))?,
                api,
                prefix: r.prefix.as_ref().is_some_and(|p| p.value),
                with_params: ctx.strings(&list(&r.with_params), "parameter")?,
            }
        }
        "rest_field" => {
            let name = req(&r.name);
            let endpoints = list(&r.endpoints);
            if endpoints.is_empty() {
                ctx.err_at(
                    &name,
                    "a REST field needs the endpoints it belongs to",
                    Some("add `endpoints: [/path/:id, ...]`".into()),
                );
                return None;
            }
            let mut eps = Vec::new();
            for e in &endpoints {
                eps.push(ctx.rest_path(e)?);
            }
            Pattern::RestField {
                name: ctx.ident(
                    &name,
                    "field name",
                    &[],
                    "a field name is letters, digits and `_`",
                )?,
                endpoints: eps,
                values: values?,
                replace_with: replace_with?,
            }
        }
        "graphql" => {
            let element = req(&r.element);
            let el = match element.value.as_str() {
                "field" => GraphqlElement::Field,
                "type" => GraphqlElement::Type,
                "enum_value" => GraphqlElement::EnumValue,
                "argument" => GraphqlElement::Argument,
                "query" => GraphqlElement::Query,
                _ => {
                    ctx.err_at(
                        &element,
                        format!("unknown GraphQL element `{}`", element.value),
                        Some("expected one of field, type, enum_value, argument, query".into()),
                    );
                    return None;
                }
            };
            let mut parents = Vec::new();
            for p in &list(&r.parents) {
                let ok = !p.value.is_empty() && p.value.split('.').all(|s| is_ident(s, &[]));
                parents.push(ctx.checked(
                    p,
                    "GraphQL parent",
                    ok,
                    "a parent is a type name or a dotted field path, e.g. `CiRunner` or `runners.nodes`",
                )?);
            }
            Pattern::Graphql {
                element: el,
                name: ctx.ident(
                    &req(&r.name),
                    "GraphQL name",
                    &[],
                    "a GraphQL name is letters, digits and `_`",
                )?,
                parents,
                unless_argument: ctx.opt(&r.unless_argument, "unless_argument")?,
                replace_with: replace_with?,
            }
        }
        "literal" => {
            let text = req(&r.text);
            let t = ctx.non_empty(&text, "literal")?;
            if t.len() < 4 {
                ctx.err_at(
                    &text,
                    format!("literal `{t}` is too short to be distinctive"),
                    Some("a literal needs at least 4 characters".into()),
                );
                return None;
            }
            Pattern::Literal {
                text: t,
                files: ctx.files(&list(&r.files), &text)?,
            }
        }
        _ => unreachable!("every kind of PATTERN_KINDS is handled"),
    };
    (ctx.errors.len() == before).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn omnibus_keys_parse() {
        assert_eq!(
            parse_omnibus_key("postgres_exporter['flags']['collector.stat_user_tables']").unwrap(),
            vec!["postgres_exporter", "flags", "collector.stat_user_tables"]
        );
        assert!(parse_omnibus_key("postgres_exporter").is_none());
        assert!(parse_omnibus_key("x['a'").is_none());
        assert!(parse_omnibus_key("x['']").is_none());
    }

    #[test]
    fn kebab_ids() {
        assert!(is_kebab_id("ci-job-jwt"));
        assert!(is_kebab_id("geo-v5"));
        for bad in ["Ci", "a_b", "-a", "a-", "a--b", "1a", ""] {
            assert!(!is_kebab_id(bad), "{bad}");
        }
    }
}
