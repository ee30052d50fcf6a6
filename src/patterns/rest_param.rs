//! A parameter sent with a call of one endpoint: `--form "token=…"` or `-d tag_list=…` of the
//! same curl command, `"token":` in the body of the same request. Unlike `rest_field`, which
//! counts a field anywhere in a file that calls its endpoints, the parameter must be part of the
//! statement that makes the call, with the call's method seen: a file that posts the same
//! fields to a newer endpoint (`/user/runners`) and to the removed one is judged per request.

use serde::Serialize;

use super::check::Fields;
use super::rest_endpoint::makes_requests;
use super::{Hit, PatternKind, path_anchor};
use crate::syntax::sdk::Sdk;
use crate::syntax::sdk_declarations::path_segments;
use crate::syntax::{Method, RestApi, rest};
use crate::syntax::{FileCtx, FileKind, is_ident_byte};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RestParam {
    pub name: String,
    pub path: String,
    pub method: Method,
    /// Names of the values only this parameter is given (`registration_token` for `token`):
    /// the parameter given one (`"token": registration_token`, `args['token'] =
    /// opts['registration_token']`) counts wherever the body is built, in a file that names the
    /// platform and no other.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub given: Vec<String>,
}

impl PatternKind for RestParam {
    const NAME: &'static str = "rest_param";
    const REQUIRED: &'static [&'static str] = &["name", "path", "method"];
    const OPTIONAL: &'static [&'static str] = &["given"];
    const MATCHES: &'static str =
        "a parameter (`name=`, `\"name\":`) in the statement that calls the endpoint with the method; in python-gitlab's own code, the parameter declared in `_create_attrs` (POST) or `_update_attrs` (PUT) of the manager whose `_path` is the endpoint; with `given`, the parameter given a value so named anywhere in a file that names the platform";

    fn parse(f: &mut Fields) -> Option<Self> {
        let name = f.text("name")?;
        let name = f.check.ident(
            &name,
            "parameter name",
            &[],
            "a parameter name is letters, digits and `_`",
        );
        let path = f.text("path")?;
        let path = f.check.rest_path(&path);
        let method = f.text("method")?;
        let method = f.check.method(&method);
        let given = f.list("given")?;
        let given = f.check.strings(&given, "value name");
        Some(RestParam {
            name: name?,
            path: path?,
            method: method?,
            given: given?,
        })
    }

    fn anchor(&self) -> String {
        self.name.clone()
    }

    /// The endpoint's rarest segment: rarer than a parameter such as `token`; with `given`,
    /// the values' names.
    fn anchors(&self) -> Vec<String> {
        if !self.given.is_empty() {
            return self.given.clone();
        }
        vec![path_anchor(&self.path).unwrap_or(&self.path).to_string()]
    }

    /// A file must also send the parameter.
    fn context_anchors(&self) -> Vec<String> {
        vec![self.name.clone()]
    }

    fn searched_evidence(&self) -> &'static [crate::catalog::evidence::Shows] {
        use crate::catalog::evidence::Shows;
        &[Shows::RestApi, Shows::Platform]
    }

    fn describe(&self) -> String {
        format!(
            "parameter `{}` of {} /api/v4{}",
            self.name,
            self.method.as_str(),
            self.path
        )
    }

    fn applies(&self, kind: FileKind) -> bool {
        makes_requests(kind)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        if !self.given.is_empty() {
            return self.given_a_named_value(ctx);
        }
        let text = ctx.src.text;
        let mut out = Vec::new();
        for call in ctx.rest_calls(&self.path, RestApi::V4, false).iter() {
            if call.method != Some(self.method) || registers_a_mock_response(call.statement) {
                continue;
            }
            // The statement is a part of the file's text.
            let Some(base) = (call.statement.as_ptr() as usize)
                .checked_sub(text.as_ptr() as usize)
                .filter(|b| b + call.statement.len() <= text.len())
            else {
                continue;
            };
            let mut places: Vec<usize> = param_offsets(call.statement, &self.name)
                .map(|at| base + at)
                .collect();
            // A body built in a variable before the request, and handed to it.
            for (s, e) in rest::body_builders(text, base, base + call.statement.len()) {
                let part = &text[s..e];
                places.extend(param_offsets(part, &self.name).map(|at| s + at));
                places.extend(setter_offsets(part, &self.name).map(|at| s + at));
                places.extend(tag_offsets(part, &self.name).map(|at| s + at));
            }
            places.sort_unstable();
            let mut last_line = None;
            for at in places {
                // One field of a struct, one finding: its `url:"…"` and `json:"…"` tags both
                // name it.
                let line = crate::syntax::line_start(text.as_bytes(), at);
                if is_tag(text, at, &self.name) && last_line.replace(line) == Some(line)
                {
                    continue;
                }
                if !ctx.src.in_comment(at) && !out.iter().any(|h: &Hit| h.start == at) {
                    out.push(Hit::new(at, at + self.name.len(), self.name.as_str()));
                }
            }
        }
        self.declared(ctx, &mut out);
        out
    }
}

impl RestParam {
    /// The parameter given a value named by one of `given`, as a key or an entry set, in a
    /// file that names the platform and no other system.
    fn given_a_named_value(&self, ctx: &FileCtx) -> Vec<Hit> {
        let evidence = ctx.evidence();
        if !evidence.platform().iter().any(|w| ctx.contains(w))
            || evidence.other_platform().iter().any(|w| ctx.contains(w))
        {
            return Vec::new();
        }
        let text = ctx.src.text;
        let b = text.as_bytes();
        let mut places: Vec<usize> = param_offsets(text, &self.name)
            .chain(setter_offsets(text, &self.name))
            .filter(|&at| !ctx.src.in_comment(at))
            .filter(|&at| {
                // The value: the rest of the line, a short way.
                let from = at + self.name.len();
                let end = memchr::memchr(b'\n', &b[from..]).map_or(b.len(), |i| from + i);
                let value = &b[from..end.min(from + VALUE_REACH)];
                self.given
                    .iter()
                    .any(|g| memchr::memmem::find(value, g.as_bytes()).is_some())
            })
            .collect();
        places.sort_unstable();
        places.dedup();
        places
            .into_iter()
            .map(|at| Hit::new(at, at + self.name.len(), self.name.as_str()))
            .collect()
    }

    /// python-gitlab's own code sends the parameter where a manager class declares it: a POST
    /// parameter of the manager's `_path` in its `_create_attrs`, a PUT parameter of
    /// `_path/:id` (or `_path`, for a manager of one object) in its `_update_attrs`.
    fn declared(&self, ctx: &FileCtx, out: &mut Vec<Hit>) {
        let attributes = match self.method {
            Method::Post => "_create_attrs",
            Method::Put => "_update_attrs",
            _ => return,
        };
        // The declarations first: most files have none, and reading them is one word search
        // where reading the file's imports is a pass over its lines.
        let declarations = ctx.manager_declarations();
        if declarations.is_empty() || !ctx.sdk().imports(Sdk::PythonGitlab) {
            return;
        }
        let endpoint = path_segments(&self.path);
        for d in declarations {
            let mut path = path_segments(d.path);
            // An update is a PUT to `_path/:id`, or to `_path` itself for a manager of one
            // object without an id (`/application/settings`).
            let singleton = self.method == Method::Put && path == endpoint;
            if self.method == Method::Put {
                path.push(":id");
            }
            if d.attributes != attributes || (path != endpoint && !singleton) {
                continue;
            }
            for at in d.quoted(ctx, &self.name) {
                if !out.iter().any(|h: &Hit| h.start == at) {
                    out.push(Hit::new(at, at + self.name.len(), self.name.as_str()));
                }
            }
        }
    }
}

/// How far along its line a parameter's value is read for its name.
const VALUE_REACH: usize = 200;

/// A test double's registration (`responses.add(…, json={…})`, WebMock's `to_return`, nock's
/// `.reply`): the body there is the mocked response, not what a request sends.
fn registers_a_mock_response(stmt: &str) -> bool {
    [
        "responses.add(",
        "rsps.add(",
        "httpretty.register_uri(",
        "to_return(",
        ".reply(",
        "respond_with(",
    ]
    .iter()
    .any(|m| stmt.contains(m))
}

/// Where `name` is sent in a statement: `name=` (a form or query field), `"name":`, `'name':`,
/// `name:` or `"name" =>` (a body).
fn param_offsets<'s>(stmt: &'s str, name: &'s str) -> impl Iterator<Item = usize> + 's {
    let b = stmt.as_bytes();
    memchr::memmem::find_iter(b, name.as_bytes()).filter(move |&at| {
        if at > 0 && (is_ident_byte(b[at - 1]) || matches!(b[at - 1], b'-' | b'.' | b'$')) {
            return false;
        }
        let mut e = at + name.len();
        if at > 0 && matches!(b[at - 1], b'"' | b'\'') && b.get(e) == Some(&b[at - 1]) {
            e += 1;
        }
        while b.get(e) == Some(&b' ') {
            e += 1;
        }
        match b.get(e) {
            // Not `name==` (a comparison) nor `name=$(curl …)` (the response kept in a variable).
            Some(b'=') => !matches!(b.get(e + 1), Some(b'=')) && !b[e + 1..].starts_with(b"$("),
            Some(b':') => b.get(e + 1).is_none_or(|c| *c == b' '),
            _ => false,
        }
    })
}

/// The places of `name` set as an entry of a body being built: `form.Add("name", v)`,
/// `form.append('name', v)`, `params.put("name", v)`, `data["name"] = v`.
fn setter_offsets<'s>(part: &'s str, name: &'s str) -> impl Iterator<Item = usize> + 's {
    const SETTERS: [&str; 6] = [".Add(", ".Set(", ".add(", ".set(", ".append(", ".put("];
    let b = part.as_bytes();
    memchr::memmem::find_iter(b, name.as_bytes()).filter(move |&at| {
        let end = at + name.len();
        let Some(&q) = at.checked_sub(1).map(|i| &b[i]).filter(|q| matches!(q, b'"' | b'\'')) else {
            return false;
        };
        if b.get(end) != Some(&q) {
            return false;
        }
        let lead = &part[..at - 1];
        let tail = part[end + 1..].trim_start();
        (SETTERS.iter().any(|s| lead.ends_with(s)) && tail.starts_with(','))
            || (lead.ends_with('[')
                && tail.starts_with(']')
                && tail[1..].trim_start().starts_with('=')
                && !tail[1..].trim_start().starts_with("=="))
    })
}

/// The places of `name` as the name in a Go struct tag of a request's options
/// (`url:"tag_list[],omitempty"`, `json:"token"`).
fn tag_offsets<'s>(part: &'s str, name: &'s str) -> impl Iterator<Item = usize> + 's {
    memchr::memmem::find_iter(part.as_bytes(), name.as_bytes())
        .filter(move |&at| is_tag(part, at, name))
}

/// Is `name`, at `at` of `text`, the name of a struct tag?
fn is_tag(text: &str, at: usize, name: &str) -> bool {
    let lead = &text.as_bytes()[..at];
    [&b"url:\""[..], b"json:\"", b"form:\"", b"query:\""]
        .iter()
        .any(|k| lead.ends_with(k))
        && matches!(text.as_bytes().get(at + name.len()), Some(b'"' | b',' | b'['))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_as_requests_send_them() {
        let offs = |s: &str| param_offsets(s, "token").collect::<Vec<_>>();
        assert_eq!(offs("--form \"token=$T\""), [8]);
        assert_eq!(offs("-d token=x -F 'token=y'"), [3, 15]);
        assert_eq!(offs("json={\"token\": t}"), [7]);
        assert!(offs("-H \"PRIVATE-TOKEN: x\" $token= private_token=1 token==").is_empty());
        assert!(offs("token=$(curl -X POST url)").is_empty());
        assert!(registers_a_mock_response(
            "rsps.add(method=responses.POST, url=u, json={\"token\": \"glrt-x\"})"
        ));
        assert!(!registers_a_mock_response("requests.post(u, json={\"token\": t})"));
    }
}
