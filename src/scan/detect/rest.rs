//! REST endpoints in URLs: a method and a path template (`POST /projects/:id/runners/…`)
//! matched against the URLs a file writes (curl, wget, httpie, code, Ansible `uri`), with path
//! parameters in any spelling (`123`, `:id`, `{id}`, `${ID}`, `#{id}`, `%s`, `group%2Fproject`).
//!
//! A `/api/v4` path counts only where the URL shows the API: `/api/v4` in it, or a base such as
//! `$CI_API_V4_URL` or `{api_url}` before it. The method is read from the call (`-X POST`,
//! `requests.post`, `method: POST`); where none is visible the match is weak.

use super::{FileCtx, Hit};
use crate::catalog::model::{Method, RestApi};

/// A URL written in the file: its text range and parts.
struct Url<'t> {
    start: usize,
    end: usize,
    /// The path after `/api/v4` (or after the host), without query or fragment.
    path: &'t str,
    query: &'t str,
    /// The URL shows the REST API (`/api/v4`, or an API base variable).
    api: bool,
}

fn is_url_byte(c: u8) -> bool {
    !(c.is_ascii_whitespace()
        || matches!(
            c,
            b'"' | b'\''
                | b'`'
                | b'('
                | b')'
                | b','
                | b'<'
                | b'>'
                | b';'
                | b'|'
                | b'\\'
                | b'['
                | b']'
        ))
}

/// The URL-like word around `at`.
fn url_at(text: &str, at: usize) -> Url<'_> {
    let b = text.as_bytes();
    let mut start = at;
    while start > 0 && is_url_byte(b[start - 1]) {
        start -= 1;
    }
    let mut end = at;
    while end < b.len() && is_url_byte(b[end]) {
        end += 1;
    }
    // Trailing punctuation of prose.
    while end > at && matches!(b[end - 1], b'.' | b':') {
        end -= 1;
    }
    let word = &text[start..end];
    let (no_frag, _) = word
        .split_once('#')
        .filter(|(_, f)| !f.starts_with('{'))
        .unwrap_or((word, ""));
    let (before_query, query) = no_frag.split_once('?').unwrap_or((no_frag, ""));
    let (path, api) = if let Some(i) = before_query.find("/api/v4") {
        (&before_query[i + 7..], true)
    } else {
        let after_scheme = before_query
            .strip_prefix("https://")
            .or_else(|| before_query.strip_prefix("http://"));
        match after_scheme {
            Some(rest) => (rest.find('/').map_or("", |i| &rest[i..]), false),
            None => {
                let slash = before_query.find('/').unwrap_or(0);
                let base = &before_query[..slash];
                (
                    &before_query[slash..],
                    base.to_ascii_lowercase().contains("api"),
                )
            }
        }
    };
    Url {
        start,
        end,
        path,
        query,
        api,
    }
}

/// Does a written path match a template? `:x` is one segment, `*x` one or more (a registry
/// repository name such as `group/app`). `prefix`: the path may go on below the template.
pub fn path_matches(template: &str, path: &str, prefix: bool) -> bool {
    fn go(t: &[&str], p: &[&str], prefix: bool) -> bool {
        match t.first() {
            None => p.is_empty() || prefix,
            Some(ts) if ts.starts_with('*') => (1..=p.len()).any(|n| go(&t[1..], &p[n..], prefix)),
            Some(ts) => match p.first() {
                Some(ps) if ts.starts_with(':') || ts == ps => go(&t[1..], &p[1..], prefix),
                _ => false,
            },
        }
    }
    let t: Vec<&str> = template.split('/').filter(|s| !s.is_empty()).collect();
    let p: Vec<&str> = path
        .trim_end_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    go(&t, &p, prefix)
}

/// The text of the statement around `at`: its logical line (with `\` continuations) and, for
/// code and YAML, a few lines either side (a call's method is often on the line before).
fn context(text: &str, at: usize, lines_around: usize) -> &str {
    let b = text.as_bytes();
    let mut start = b[..at]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let mut end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i);
    // Continued lines before and after.
    while start > 1 && matches!(b[start - 2], b'\\' | b'`' | b'^') {
        start = b[..start - 1]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
    }
    while end > 0 && end < b.len() && matches!(b[end - 1], b'\\' | b'`' | b'^') {
        end = memchr::memchr(b'\n', &b[end + 1..]).map_or(b.len(), |i| end + 1 + i);
    }
    for _ in 0..lines_around {
        if start > 0 {
            start = b[..start - 1]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |i| i + 1);
        }
        if end < b.len() {
            end = memchr::memchr(b'\n', &b[end + 1..]).map_or(b.len(), |i| end + 1 + i);
        }
    }
    &text[start..end]
}

fn method_word(w: &str) -> Option<Method> {
    let w = w.trim_matches(|c: char| !c.is_ascii_alphabetic());
    if w.len() < 3 || w.len() > 6 {
        return None;
    }
    Method::parse(w)
}

/// The HTTP method a statement uses, if it shows one.
pub fn method_in(ctx: &str) -> Option<Method> {
    let words: Vec<&str> = ctx.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        // curl -X POST, -XPOST, --request POST, --request=POST; wget --method=POST;
        // Invoke-RestMethod -Method Post
        let value = match *w {
            "-X" | "--request" | "--method" | "-Method" => words.get(i + 1).copied(),
            _ => ["--request=", "--method=", "-X"]
                .iter()
                .find_map(|p| w.strip_prefix(p))
                .filter(|v| !v.is_empty()),
        };
        if let Some(m) = value.and_then(method_word) {
            return Some(m);
        }
    }
    let lower = ctx.to_ascii_lowercase();
    // Calls of HTTP clients in code: requests.post(, .put(, http_post(, HTTParty.delete(,
    // Net::HTTP::Post, http.MethodPost, HttpMethod.Post.
    for m in Method::ALL {
        let name = m.as_str().to_ascii_lowercase();
        for form in [
            format!(".{name}("),
            format!("_{name}("),
            format!("::{name}"),
            format!("method{name}"),
            format!("httpmethod.{name}"),
            format!("method: {name}"),
            format!("method: \"{name}\""),
            format!("method: '{name}'"),
            format!("method=\"{name}\""),
            format!("method='{name}'"),
            format!("\"method\": \"{name}\""),
            format!("(\"{name}\""),
            format!("('{name}'"),
        ] {
            if lower.contains(&form) {
                return Some(m);
            }
        }
    }
    // httpie: `http POST url`.
    for (i, w) in words.iter().enumerate() {
        if matches!(*w, "http" | "https" | "xh")
            && let Some(m) = words.get(i + 1).and_then(|n| method_word(n))
            && words[i + 1].chars().all(|c| c.is_ascii_uppercase())
        {
            return Some(m);
        }
    }
    // Defaults of command-line clients.
    if words.iter().any(|w| *w == "curl" || w.ends_with("/curl")) {
        let posts = words.iter().any(|w| {
            matches!(*w, "-d" | "-F" | "--form")
                || w.starts_with("--data")
                || w.starts_with("--form")
                || (w.starts_with("-d") && w.len() > 2 && !w.starts_with("--"))
        });
        return Some(if posts { Method::Post } else { Method::Get });
    }
    if words.iter().any(|w| *w == "wget" || w.ends_with("/wget")) {
        let posts = words
            .iter()
            .any(|w| w.starts_with("--post-data") || w.starts_with("--post-file"));
        return Some(if posts { Method::Post } else { Method::Get });
    }
    None
}

/// Does the request send `param` (in the query string or the statement)?
fn sends_param(url: &Url, ctx: &str, param: &str) -> bool {
    let in_query = url
        .query
        .split('&')
        .any(|kv| kv.split('=').next() == Some(param));
    in_query
        || [
            format!("{param}="),
            format!("\"{param}\""),
            format!("'{param}'"),
            format!("{param}:"),
        ]
        .iter()
        .any(|f| {
            ctx.match_indices(f.as_str())
                .any(|(at, _)| at == 0 || !super::is_ident_byte(ctx.as_bytes()[at - 1]))
        })
}

pub fn detect_endpoint(
    method: Option<Method>,
    template: &str,
    api: RestApi,
    prefix: bool,
    with_params: &[String],
    ctx: &FileCtx,
) -> Vec<Hit> {
    let text = ctx.src.text;
    // The last static segment anchors the search.
    let Some(anchor) = template
        .split('/')
        .rev()
        .find(|s| !s.is_empty() && !s.starts_with([':', '*']))
    else {
        return Vec::new();
    };
    let needle = format!("/{anchor}");
    let code_like = !matches!(ctx.src.class.kind, crate::catalog::FileKind::Shell);
    let mut out = Vec::new();
    let mut last_url_start = usize::MAX;
    for at in memchr::memmem::find_iter(text.as_bytes(), needle.as_bytes()) {
        let url = url_at(text, at);
        if url.start == last_url_start || ctx.src.in_comment(url.start) {
            continue;
        }
        if !path_matches(template, url.path, prefix) {
            continue;
        }
        if api == RestApi::V4 && !url.api {
            continue;
        }
        last_url_start = url.start;
        let stmt = context(text, at, if code_like { 3 } else { 0 });
        let near = context(text, at, 0);
        if !with_params.iter().all(|p| sends_param(&url, stmt, p)) {
            continue;
        }
        let seen = method_in(near).or_else(|| method_in(stmt));
        let weak = match (method, seen) {
            (Some(want), Some(got)) if want != got => continue,
            (Some(_), None) => true,
            _ => false,
        };
        let shown = match method {
            Some(m) => format!("{} {template}", m.as_str()),
            None => template.to_string(),
        };
        out.push(Hit {
            start: url.start,
            end: url.end,
            matched: shown,
            weak,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_match_any_parameter_spelling() {
        let t = "/projects/:id/runners/reset_registration_token";
        for p in [
            "/projects/42/runners/reset_registration_token",
            "/projects/{pid}/runners/reset_registration_token",
            "/projects/${PROJECT_ID}/runners/reset_registration_token",
            "/projects/group%2Fproj/runners/reset_registration_token",
            "/projects/%s/runners/reset_registration_token/",
        ] {
            assert!(path_matches(t, p, false), "{p}");
        }
        assert!(!path_matches(
            t,
            "/groups/1/runners/reset_registration_token",
            false
        ));
        assert!(!path_matches("/runners", "/runners/all", false));
        assert!(path_matches("/geo_nodes", "/geo_nodes/1/status", true));
        let reg = "/v2/*name/tags/reference/:tag";
        assert!(path_matches(
            reg,
            "/v2/group/sub/app/tags/reference/v1",
            false
        ));
        assert!(!path_matches(reg, "/v2/tags/reference/v1", false));
    }

    #[test]
    fn urls_and_api_bases() {
        let t = "curl -X POST \"$CI_API_V4_URL/runners/reset_registration_token\"";
        let u = url_at(t, t.find("/runners").unwrap());
        assert_eq!(u.path, "/runners/reset_registration_token");
        assert!(u.api);
        let t = "https://gitlab.example.com/api/v4/projects/1/ci/lint?ref=main&sha=abc";
        let u = url_at(t, t.find("/lint").unwrap());
        assert_eq!(u.path, "/projects/1/ci/lint");
        assert_eq!(u.query, "ref=main&sha=abc");
        let t = "fetch('/users/sign_in')";
        assert!(!url_at(t, t.find("/users").unwrap()).api);
    }

    #[test]
    fn methods_from_the_call() {
        assert_eq!(method_in("curl -X PUT x"), Some(Method::Put));
        assert_eq!(method_in("curl --request=DELETE x"), Some(Method::Delete));
        assert_eq!(method_in("curl -XPOST x"), Some(Method::Post));
        assert_eq!(method_in("curl --data 'a=b' x"), Some(Method::Post));
        assert_eq!(method_in("curl -H 'PRIVATE-TOKEN: x' x"), Some(Method::Get));
        assert_eq!(method_in("r = requests.post(url)"), Some(Method::Post));
        assert_eq!(
            method_in("req, _ := http.NewRequest(http.MethodPut, u, nil)"),
            Some(Method::Put)
        );
        assert_eq!(
            method_in("http POST https://x/api/v4/runners"),
            Some(Method::Post)
        );
        assert_eq!(method_in("    method: POST"), Some(Method::Post));
        assert_eq!(method_in("url = base + path"), None);
    }
}
