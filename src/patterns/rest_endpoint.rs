//! REST endpoints in URLs: a method and a path template (`POST /projects/:id/runners/…`)
//! matched against the calls a file makes (see [`crate::syntax::rest`]). Where the method is not
//! visible the match is weak.

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind, path_anchor};
use crate::syntax::request_helper;
use crate::syntax::rest::{self, Method, RestApi};
use crate::syntax::{FileCtx, FileKind, WordBytes};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RestEndpoint {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Method>,
    pub path: String,
    pub api: RestApi,
    /// The path is a prefix: every endpoint below it matches too.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub prefix: bool,
    /// The call matches only when it sends all of these parameters.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub with_params: Vec<String>,
    /// Parts of the names of helpers that send `with_params` themselves, wherever they are
    /// defined (`paginat`: `get_paginated("/users")` pages with `page`): a path handed to one
    /// matches though the helper's body is not in the file, unless the call asks for keyset
    /// pagination.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sent_by_helpers_named: Vec<String>,
}

/// The kinds of file HTTP calls are looked for in.
pub fn makes_requests(kind: FileKind) -> bool {
    use FileKind::*;
    matches!(kind, Shell | Ci | Code | Yaml | Helm)
}

impl PatternKind for RestEndpoint {
    const NAME: &'static str = "rest_endpoint";
    const REQUIRED: &'static [&'static str] = &["path"];
    const OPTIONAL: &'static [&'static str] = &[
        "method",
        "api",
        "prefix",
        "with_params",
        "sent_by_helpers_named",
    ];
    const MATCHES: &'static str =
        "a method and path template (`:id` is one segment, `*name` one or more)";

    fn parse(f: &mut Fields) -> Option<Self> {
        let api = match f.opt_text("api")? {
            None => RestApi::V4,
            Some(a) => f.check.one_of(&a, "api", RestApi::parse, "v4, registry, instance")?,
        };
        let method = match f.opt_text("method")? {
            None => None,
            Some(m) => Some(f.check.method(&m)?),
        };
        let path = f.text("path")?;
        let path = f.check.rest_path(&path)?;
        let prefix = f.flag("prefix")?;
        let with_params = f.list("with_params")?;
        let helpers = f.list("sent_by_helpers_named")?;
        Some(RestEndpoint {
            method,
            path,
            api,
            prefix,
            with_params: f.check.strings(&with_params, "parameter")?,
            sent_by_helpers_named: f.check.strings(&helpers, "part of a helper's name")?,
        })
    }

    fn anchor(&self) -> String {
        path_anchor(&self.path).unwrap_or(&self.path).to_string()
    }

    fn literals(&self) -> Vec<String> {
        vec![self.path.clone()]
    }

    fn searched_evidence(&self) -> &'static [crate::catalog::evidence::Shows] {
        use crate::catalog::evidence::Shows;
        &[Shows::RestApi, Shows::Platform]
    }

    fn describe(&self) -> String {
        let m = self.method.map(|m| m.as_str()).unwrap_or("ANY");
        let base = match self.api {
            RestApi::V4 => "/api/v4",
            RestApi::Registry | RestApi::Instance => "",
        };
        let tail = if self.prefix { "/…" } else { "" };
        let mut s = format!("{m} {base}{}{tail}", self.path);
        if !self.with_params.is_empty() {
            s.push_str(&format!(" with {}", self.with_params.join(" and ")));
        }
        s
    }

    fn applies(&self, kind: FileKind) -> bool {
        makes_requests(kind)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        detect(self, ctx)
    }
}

/// How far before a URL the variable that its query interpolates is looked for.
const QUERY_REACH: usize = 600;

/// The code that builds a query a URL interpolates whole (`?${p}`, `?{params}`), from the
/// variable's assignment in the lines before to the URL (`const p = new URLSearchParams({
/// per_page: …, page: … })`): where its parameters are written.
fn query_built_before<'t>(text: &'t str, query: &str, at: usize) -> Option<&'t str> {
    let name = query
        .strip_prefix("${")
        .or_else(|| query.strip_prefix('{'))?
        .strip_suffix('}')?;
    if name.is_empty() || !name.bytes().all(crate::syntax::is_ident_byte) {
        return None;
    }
    let mut from = at.saturating_sub(QUERY_REACH);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let region = &text[from..at];
    let b = region.as_bytes();
    let decl = region.rmatch_indices(name).find(|&(i, _)| {
        let end = i + name.len();
        (i == 0 || !crate::syntax::is_ident_byte(b[i - 1]))
            && region[end..].trim_start().starts_with('=')
            && !region[end..].trim_start().starts_with("==")
    })?;
    Some(&region[decl.0..])
}

/// Is the path at `at` handed to a helper whose name says it sends the parameters
/// ([`RestEndpoint::sent_by_helpers_named`]), in a statement that does not ask for keyset
/// pagination?
fn handed_to_a_named_helper(e: &RestEndpoint, text: &str, at: usize, statement: &str) -> bool {
    !e.sent_by_helpers_named.is_empty()
        && !statement.contains("keyset")
        && request_helper::callee(text, at)
            .is_some_and(|name| e.sent_by_helpers_named.iter().any(|h| name.contains(h.as_str())))
}

/// At most this many helpers' definitions are looked for in a file (each a search of the file:
/// a file of many calls of different names is not searched once per name).
const MAX_HELPERS: usize = 16;

/// A request helper's signature and body, by name (each helper's definition is looked for once).
type Helpers<'t> = Vec<(&'t str, Option<(&'t str, &'t str)>)>;

/// The helper of the file that the path at `at` is handed to, if its body may send `params`
/// without taking them from its caller (no parameter of its signature is named for one).
fn helper_of<'t>(
    text: &'t str,
    at: usize,
    params: &[String],
    helpers: &mut Helpers<'t>,
) -> Option<(&'t str, &'t str)> {
    let name = request_helper::callee(text, at)?;
    if let Some(&(_, found)) = helpers.iter().find(|(n, _)| *n == name) {
        return found;
    }
    if helpers.len() >= MAX_HELPERS {
        return None;
    }
    let found = request_helper::definition_of(text, name).filter(|(signature, _)| {
        params
            .iter()
            .all(|p| crate::syntax::word_offsets(signature, p, WordBytes::Ident).next().is_none())
    });
    helpers.push((name, found));
    found
}

fn detect(e: &RestEndpoint, ctx: &FileCtx) -> Vec<Hit> {
    let (method, template, with_params) = (e.method, e.path.as_str(), &e.with_params);
    let mut out = Vec::new();
    let mut helpers = Vec::new();
    for call in ctx.rest_calls(template, e.api, e.prefix).iter() {
        let built = query_built_before(ctx.src.text, &call.query, call.start);
        let direct = |p: &String| {
            rest::sends_param(&call.query, call.statement, p)
                || built.is_some_and(|b| rest::sends_param("", b, p))
        };
        // A helper of the file the path is handed to (`get_all("/users")`) may send the
        // parameters itself, from no parameter of its own (`params={"page": page}` where `page`
        // is its loop's), and show the method.
        let mut helper = None;
        if !with_params.iter().all(direct) {
            helper = helper_of(ctx.src.text, call.start, with_params, &mut helpers);
            let sent = match helper {
                Some((_, body)) => with_params
                    .iter()
                    .all(|p| direct(p) || rest::sends_param("", body, p)),
                None => handed_to_a_named_helper(e, ctx.src.text, call.start, call.statement),
            };
            if !sent {
                continue;
            }
        }
        // A path handed to a helper of the file shows the method the helper's body sends
        // (`checkPort /runners` of `checkPort() { curl … "$HOST/$1"; }`: curl's GET).
        if helper.is_none() && call.method.is_none() && method.is_some() {
            helper = helper_of(ctx.src.text, call.start, with_params, &mut helpers);
        }
        let call_method = call
            .method
            .or_else(|| helper.and_then(|(_, body)| rest::method_in(body)));
        let weak = match (method, call_method) {
            (Some(want), Some(got)) if want != got => continue,
            (Some(_), None) => true,
            _ => false,
        };
        let shown = match method {
            Some(m) => format!("{} {template}", m.as_str()),
            None => template.to_string(),
        };
        out.push(Hit {
            start: call.start,
            end: call.end,
            matched: shown,
            weak,
        });
    }
    out
}
