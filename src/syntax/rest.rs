//! REST endpoints in URLs: a method and a path template (`POST /projects/:id/runners/…`)
//! matched against the URLs a file writes (curl, wget, httpie, code, Ansible `uri`), with path
//! parameters in any spelling (`123`, `:id`, `{id}`, `${ID}`, `#{id}`, `%s`, `group%2Fproject`).
//!
//! A `/api/v4` path counts only where the URL shows the API: `/api/v4` in it, or a base such as
//! `$CI_API_V4_URL` or `{api_url}` before it. The method is read from the call (`-X POST`,
//! `requests.post`, `method: POST`); where none is visible the match is weak.

use serde::Serialize;

use super::{FileCtx, FileKind, is_ident_byte, line_start, line_start_within, path_variable};

/// Which REST surface a path belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RestApi {
    /// `{base_url}/api/v4` + path (the prefix is optional where the path is written).
    V4,
    /// The container registry's own API (`/v2/...`).
    Registry,
    /// A path of the instance's web server (`/-/jwks`, `/admin/...`).
    Instance,
}

impl RestApi {
    pub fn parse(s: &str) -> Option<RestApi> {
        match s {
            "v4" => Some(RestApi::V4),
            "registry" => Some(RestApi::Registry),
            "instance" => Some(RestApi::Instance),
            _ => None,
        }
    }
}

/// HTTP methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
    Head,
}

impl Method {
    pub const ALL: [Method; 6] = [
        Method::Get,
        Method::Post,
        Method::Put,
        Method::Patch,
        Method::Delete,
        Method::Head,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Head => "HEAD",
        }
    }

    pub fn parse(s: &str) -> Option<Method> {
        Method::ALL
            .into_iter()
            .find(|m| m.as_str().eq_ignore_ascii_case(s))
    }
}

/// A URL written in the file: its text range and parts.
struct Url<'t> {
    start: usize,
    end: usize,
    /// The path after `/api/v4` (or after the host), without query or fragment.
    path: &'t str,
    query: &'t str,
    /// The URL shows the REST API (`/api/v4`, or an API base variable).
    api: bool,
    /// The path goes on as a pattern after a `/` (a regular expression's `(…)` or `[…]`:
    /// `"^/api/v4/runners/(.*)/reset_authentication_token$"`): which endpoint it is is not
    /// written.
    pattern: bool,
    /// The word before the first `/` is the path's own first segment (`user/runners`), not
    /// where the path is: `path` is not the endpoint's path (a relative path is read from its
    /// string literal, in code).
    relative: bool,
    /// The word starts with its path's `/` (`"/merge_requests/%d/changes"`): nothing is written
    /// before it, not even a broken interpolation's end.
    bare: bool,
    /// An interpolation (or its end) is all that is written before the path's `/`:
    /// `f"{self.base_url}/merge_requests/{iid}/changes"`, `${base}/merge_requests/…`, or the
    /// `)}` that closes `${encodeURIComponent(\n  project\n)}` on the line above.
    based: bool,
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

/// How far along its line a URL-like word is extended over template expressions.
const TEMPLATE_REACH: usize = 256;

/// A URL-like word (`start..end`) widened over the template expressions (`{{ project }}`,
/// `{{ pillar["url"] }}`) it begins or ends inside: their blanks and quotes do not end the
/// word, so `"{{ url }}/api/v4/projects/{{ project }}/runners"` is one path, not `}}/runners`.
/// Only expressions that open and close on the word's line, within [`TEMPLATE_REACH`].
fn over_templates(b: &[u8], (mut start, mut end): (usize, usize)) -> (usize, usize) {
    let find = |hay: &[u8], pat: &[u8]| hay.windows(2).rposition(|w| w == pat);
    // A word that shows the API's root (`}}/api/v4/runners`) has its path already.
    let shows_api =
        |s: usize, e: usize| std::str::from_utf8(&b[s..e]).is_ok_and(|w| api_v4_at(w).is_some());
    for _ in 0..8 {
        if shows_api(start, end) {
            break;
        }
        let lo = super::line_start_within(b, start, TEMPLATE_REACH);
        let before = &b[lo..start];
        // The word starts inside an expression opened before it (`{{ project ` then `}}/…`).
        match (find(before, b"{{"), find(before, b"}}")) {
            (Some(open), close)
                if close.is_none_or(|c| c < open) && !before[open..].contains(&b'\n') =>
            {
                start = super::run_around(b, lo + open, is_url_byte).0;
            }
            _ => break,
        }
    }
    for _ in 0..8 {
        let word = &b[start..end];
        let opened = find(word, b"{{");
        if opened.is_none() || find(word, b"}}").is_some_and(|c| c > opened.unwrap_or(0)) {
            break;
        }
        let hi = (end + TEMPLATE_REACH).min(b.len());
        let Some(close) = b[end..hi].windows(2).position(|w| w == b"}}") else {
            break;
        };
        if b[end..end + close].contains(&b'\n') {
            break;
        }
        end = super::run_around(b, end + close, is_url_byte).1;
    }
    (start, end)
}

/// The URL-like word around `at`.
fn url_at(text: &str, at: usize) -> Url<'_> {
    let b = text.as_bytes();
    let (start, mut end) = over_templates(b, super::run_around(b, at, is_url_byte));
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
    // `relative`: `'user/runners'`, a path relative to the API, whose first segment is a word,
    // not a host (`gitlab.example.com/…`, `localhost/…`), a variable (`$BASE/…`, `{base}/…`) or
    // a placeholder (`%s/…`). Its path is not the part after that word.
    let (path, api, relative) = if let Some(i) = api_v4_at(before_query) {
        (&before_query[i + 6..], true, false)
    } else {
        let after_scheme = before_query
            .strip_prefix("https://")
            .or_else(|| before_query.strip_prefix("http://"));
        match after_scheme {
            Some(rest) => (rest.find('/').map_or("", |i| &rest[i..]), false, false),
            None => {
                let slash = before_query.find('/').unwrap_or(0);
                let base = &before_query[..slash];
                // A base URL interpolated right before the first segment
                // (`${gitlab}projects/${id}/…` where the base ends with its `/`).
                let path_from = glued_segment(base).unwrap_or(slash);
                (
                    &before_query[path_from..],
                    base.to_ascii_lowercase().contains("api"),
                    path_from == slash && relative_segment(base),
                )
            }
        }
    };
    let pattern = end > start && b[end - 1] == b'/' && matches!(b.get(end), Some(b'(' | b'['));
    let bare = word.starts_with('/');
    // A whole interpolation before the `/` (`{self.base_url}`, `${base}`, `#{base}`), or the
    // `}` that ends one opened on a line above (the line holds nothing else before it, but a
    // call's `)`); not the end of one opened in the same word's line (`#{url_encode project}`).
    let line_lead = text[text[..start].rfind('\n').map_or(0, |i| i + 1)..start].trim();
    let based = !bare
        && word.find('/').is_some_and(|slash| {
            let head = &word[..slash];
            let whole = (head.starts_with('{') || head.starts_with("${") || head.starts_with("#{"))
                && head.ends_with('}')
                && !head.contains(':');
            whole || (head == "}" && matches!(line_lead, "" | ")"))
        });
    // A literal path appended to a base named for the API (`API_ENDPOINT + "/runners/"`,
    // `self.api_url + '/users'`) shows the API as the same base interpolated does
    // (`f"{API_ENDPOINT}/runners/"`).
    let api = api || (bare && concatenated_to_api_base(b, start));
    Url {
        bare,
        based,
        start,
        end,
        path,
        query,
        api,
        pattern,
        relative,
    }
}

/// Where the first path segment starts in a word's head that is an interpolation with the
/// segment glued to it (`projects` of `${gitlab}projects`, `{base}projects`, `#{root}projects`):
/// the interpolated base ends with its own `/`.
fn glued_segment(head: &str) -> Option<usize> {
    let open = ["${", "#{", "{"].iter().find(|o| head.starts_with(**o))?;
    let close = head.find('}')?;
    let name = &head[open.len()..close];
    let segment = &head[close + 1..];
    (!name.is_empty()
        && name.bytes().all(|c| is_ident_byte(c) || c == b'.')
        && relative_segment(segment))
    .then_some(close + 1)
}

/// Is the string literal whose content starts at `start` appended to a name that holds `api`
/// (`API_ENDPOINT + "/runners/"`, `self.api_url + '/users'`, `apiBase . "/users"`)?
fn concatenated_to_api_base(b: &[u8], start: usize) -> bool {
    base_name_before(b, start).is_some_and(|name| {
        let last = name.rsplit(|&c| c == b'.').next().unwrap_or(name);
        last.to_ascii_lowercase().windows(3).any(|w| w == b"api")
    })
}

/// The name a literal path at `start` (after its opening quote) is appended to with `+` or
/// `.` (`baseURL + "/runners"`, `$base . '/users'`), if it is.
fn base_name_before(b: &[u8], start: usize) -> Option<&[u8]> {
    if start == 0 || !matches!(b[start - 1], b'"' | b'\'' | b'`') {
        return None;
    }
    let before = b[..start - 1].trim_ascii_end();
    let before = before
        .strip_suffix(b"+")
        .or_else(|| before.strip_suffix(b"."))
        .map(<[u8]>::trim_ascii_end)?;
    let name_len = before
        .iter()
        .rev()
        .take(64)
        .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$'))
        .count();
    (name_len > 0).then(|| &before[before.len() - name_len..])
}

/// Where `api/v4` starts in a URL word, as the API's base: after a `/`, at the start of a
/// relative path (`"api/v4/projects/%d"`), or right after a placeholder or interpolation
/// (`%sapi/v4`, `{base}api/v4`); and followed by `/` or nothing.
fn api_v4_at(word: &str) -> Option<usize> {
    let b = word.as_bytes();
    word.match_indices("api/v4").map(|(i, _)| i).find(|&i| {
        let before = i == 0
            || matches!(b[i - 1], b'/' | b'}')
            || (i >= 2 && b[i - 2] == b'%' && b[i - 1].is_ascii_alphabetic());
        before && matches!(b.get(i + 6), None | Some(b'/' | b'?'))
    })
}

/// Does a built string start as a relative path (`projects/{}/merge_requests`): its first word,
/// before a `/`, a path segment ([`relative_segment`])?
fn relative_start(joined: &str) -> bool {
    joined
        .split_once('/')
        .is_some_and(|(base, _)| relative_segment(base))
}

/// Is the text before a path's first `/` the path's own first segment (a lower-case word:
/// `user` of `user/runners`) rather than where the path is (a host, a variable, an API base)?
fn relative_segment(base: &str) -> bool {
    base.starts_with(|c: char| c.is_ascii_lowercase())
        && base
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'-')
        && base != "localhost"
        && !base.contains("api")
}

/// The string literals of a text joined into the strings the code builds, with each joined
/// expression written `{}` and each interpolation (`{pid}`, `${encodeURIComponent(id)}`,
/// `#{id}`) too: concatenation (`"/projects/" + id + "/runners"`, `'/a/' . $id . '/b'`) and
/// adjacent literals (Python's and Ruby's `f"{base}/projects/{pid}/" f"merge_requests"`), on one
/// line or over a few (a parenthesised string split over lines). Literals are read line by line
/// (a quote that does not close on its line opens no literal). Read from the lines around a
/// path ([`joined_strings_near`]). Returns (byte offset of the first piece, end of the last piece, joined
/// text), in order, for strings of two pieces or more that hold a `/`.
pub fn joined_strings(text: &str) -> Vec<(usize, usize, String)> {
    let mut out: Vec<(usize, usize, String)> = Vec::new();
    // The current chain's pieces: (opening quote, closing quote, how it joins the piece before).
    let mut chain: Vec<(usize, usize, Join)> = Vec::new();
    let flush = |chain: &mut Vec<(usize, usize, Join)>, out: &mut Vec<_>| {
        if chain.len() > 1 && chain.iter().any(|&(o, c, _)| text[o + 1..c].contains('/')) {
            let mut joined = String::new();
            for &(open, close, join) in chain.iter() {
                let mut piece = &text[open + 1..close];
                match join {
                    Join::Adjacent => {}
                    Join::Expression => joined.push_str("{}"),
                    Join::Segment { expression } => {
                        // One `/` between segments, whichever side wrote it.
                        joined.truncate(joined.trim_end_matches('/').len());
                        joined.push_str(if expression { "/{}/" } else { "/" });
                        piece = piece.trim_start_matches('/');
                    }
                }
                push_interpolated(&mut joined, piece);
            }
            out.push((chain[0].0 + 1, chain[chain.len() - 1].1, joined));
        }
        chain.clear();
    };
    for (open, close) in string_literals(text) {
        let join = chain.last().and_then(|&(_, last, _)| {
            let between = &text[last + 1..open];
            joins(between)
                .map(|expression| {
                    if expression {
                        Join::Expression
                    } else {
                        Join::Adjacent
                    }
                })
                .or_else(|| {
                    // The call is looked for from the chain's first piece.
                    segment_join(between)
                        .filter(|_| in_join_call(text, chain[0].0))
                        .map(|expression| Join::Segment { expression })
                })
        });
        match join {
            Some(join) => chain.push((open, close, join)),
            None => {
                flush(&mut chain, &mut out);
                chain.push((open, close, Join::Adjacent));
            }
        }
    }
    flush(&mut chain, &mut out);
    out
}

/// How a string piece joins the one before it in a built string.
#[derive(Clone, Copy)]
enum Join {
    /// Written right after it (adjacent literals, `"a" + "b"`).
    Adjacent,
    /// With an expression between (`"/projects/" + id + "/runners"`).
    Expression,
    /// As the next path segment, an argument of a path-joining call (`urljoin(base,
    /// "/projects/", id, "releases")`), with or without an expression between.
    Segment { expression: bool },
}

/// The code between two arguments of a call, if it is only a comma or a comma, one simple
/// expression (a name, a member, an index, a call without arguments of its own but one:
/// `strconv.Itoa(id)`) and a comma: `Some(expression)`.
fn segment_join(between: &str) -> Option<bool> {
    let t = between.trim();
    let inner = t.strip_prefix(',')?;
    if inner.trim().is_empty() {
        return Some(false);
    }
    let inner = inner.strip_suffix(',')?.trim();
    let simple = inner.len() <= 60
        && inner
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"_.$[]()".contains(&c));
    (simple && !inner.is_empty()).then_some(true)
}

/// Is the literal opening at `at` an argument of a call that joins path segments
/// (`urljoin(`, `urlJoin(`, `path.Join(`, `url.JoinPath(`, `File.join(`, `Path.Combine(`)?
/// The call's open parenthesis is looked for within a bound, counting nested ones.
fn in_join_call(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let from = at.saturating_sub(200);
    let mut depth = 0usize;
    let Some(open) = (from..at).rev().find(|&i| match b[i] {
        b')' => {
            depth += 1;
            false
        }
        b'(' if depth > 0 => {
            depth -= 1;
            false
        }
        b'(' => true,
        _ => false,
    }) else {
        return false;
    };
    let callee_start = b[..open]
        .iter()
        .rposition(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':')))
        .map_or(0, |i| i + 1);
    let callee = text[callee_start..open].to_ascii_lowercase();
    let name = callee.rsplit(['.', ':']).next().unwrap_or("");
    name.contains("join") || name == "combine"
}

/// How many lines before and after a path's line a string built over lines is read from.
const BUILT_LINES: usize = 6;

/// [`joined_strings`] of the lines around `at` ([`BUILT_LINES`] either side), at their offsets
/// in `text`: only the code near a path is lexed, in a file that writes a path at all.
fn joined_strings_near(text: &str, at: usize) -> Vec<(usize, usize, String)> {
    let b = text.as_bytes();
    let mut start = line_start(b, at);
    for _ in 0..BUILT_LINES {
        if start == 0 {
            break;
        }
        start = line_start(b, start - 1);
    }
    let mut end = at;
    for _ in 0..=BUILT_LINES {
        match memchr::memchr(b'\n', &b[end..]) {
            Some(i) => end += i + 1,
            None => {
                end = b.len();
                break;
            }
        }
    }
    let mut out = joined_strings(&text[start..end]);
    for (s, e, _) in &mut out {
        *s += start;
        *e += start;
    }
    out
}

/// The string literals of a text, line by line: (offset of the opening quote, offset of the
/// closing one). A backslash escapes the next byte; a quote that does not close on its line
/// opens nothing.
fn string_literals(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    string_literal_bytes(text.as_bytes())
}

/// [`string_literals`] of bytes.
pub(crate) fn string_literal_bytes(b: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let c = b[i];
            if !matches!(c, b'"' | b'\'' | b'`') {
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < b.len() && b[j] != c && b[j] != b'\n' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            if j < b.len() && b[j] == c {
                let open = i;
                i = j + 1;
                return Some((open, j));
            }
            // Unclosed on its line: go on after it.
            i += 1;
        }
        None
    })
}

/// How the code between two string literals joins them, if it does: `Some(false)` for adjacent
/// literals (only blanks and the next literal's prefix, `f`, `r`, `b`, `u`, `$`, `@`),
/// `Some(true)` for a concatenation with an expression between (`+ id +`, `. $id .`), `Some(false)`
/// for a concatenation of the two alone (`" + "`). At most two line breaks apart.
fn joins(between: &str) -> Option<bool> {
    if between.len() > 80 || between.bytes().filter(|&c| c == b'\n').count() > 2 {
        return None;
    }
    // The next piece in a comment (`// const url = `…``, a line commented out below) is none.
    if between.contains('\n') {
        let last = between.rsplit('\n').next().unwrap_or("");
        if last.contains('#') || last.contains("//") {
            return None;
        }
    }
    // A comment at the end of a line between the pieces (`f"…/"  # the project`).
    let uncommented: String;
    let between = if between.contains('\n') && between.contains(['#', '/']) {
        uncommented = between
            .split('\n')
            .map(|l| {
                l.find(['#'])
                    .or_else(|| l.find("//"))
                    .map_or(l, |i| &l[..i])
            })
            .collect::<Vec<_>>()
            .join("\n");
        uncommented.as_str()
    } else {
        between
    };
    // The next literal's prefix, where one is written right before its quote.
    let t = between.trim_end_matches(['f', 'F', 'r', 'R', 'b', 'B', 'u', 'U', '$', '@']);
    let t = if t.len() + 2 >= between.len() && (t.is_empty() || t.ends_with(char::is_whitespace)) {
        t
    } else {
        between
    };
    // A line continued with `\` (Ruby, Python, shell-like code).
    let t = t.trim().trim_end_matches('\\').trim();
    if t.is_empty() {
        return Some(false);
    }
    joined_by_operator(t).then(|| !t.trim_matches(['+', '.', '<', '>']).trim().is_empty())
}

/// `piece` added to a built string, each interpolation (`{…}`, `${…}`, `#{…}`, braces
/// balanced) written `{}`.
pub(super) fn push_interpolated(out: &mut String, piece: &str) {
    let mut rest = piece;
    while let Some(i) = rest.find('{') {
        let lead = &rest[..i];
        let lead = lead.strip_suffix(['$', '#']).unwrap_or(lead);
        let mut depth = 0usize;
        let close = rest[i..].char_indices().find_map(|(k, c)| {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i + k);
                    }
                }
                _ => {}
            }
            None
        });
        let Some(close) = close else { break };
        out.push_str(lead);
        out.push_str("{}");
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
}

/// Is the code between two string pieces a concatenation (`+ id +`, `. $id .`, `<> id <>`)?
fn joined_by_operator(between: &str) -> bool {
    let t = between.trim();
    let starts = t.starts_with(['+', '.']) || t.starts_with("<>");
    let ends = t.ends_with(['+', '.']) || t.ends_with("<>");
    // Over a line break, one expression goes on only where an operator stands at the break
    // (`"/projects/" + id +` then `"/runners"`); a line that ends without one ends the
    // expression (`log.Printf("token: " + t)` above `url := base + "/runners"`).
    let continued = t.match_indices('\n').all(|(i, _)| {
        let (before, after) = (t[..i].trim_end(), t[i + 1..].trim_start());
        before.ends_with(['+', '.']) || after.starts_with(['+', '.']) || before.ends_with("<>")
    });
    starts && ends && continued && t.len() <= 80 && !t.contains([';', ','])
}

/// The fixed segments of a path template: not empty, not a parameter (`:id`, `*name`).
pub fn fixed_segments(template: &str) -> impl DoubleEndedIterator<Item = &str> {
    template
        .split('/')
        .filter(|s| !s.is_empty() && !s.starts_with([':', '*']))
}

/// The value written right after a key or parameter name ending at `end` (`: null`, `=None`,
/// `=> nil`; `== x` too where `comparison`), lowercased; `$` kept (a variable is no value).
pub fn value_after(text: &str, end: usize, comparison: bool) -> Option<String> {
    let rest = text[end..]
        .trim_start_matches(['"', '\'', '`', ']'])
        .trim_start();
    let rest = rest
        .strip_prefix("=>")
        .or_else(|| rest.strip_prefix("==").filter(|_| comparison))
        .or_else(|| rest.strip_prefix(':'))
        .or_else(|| rest.strip_prefix('='))?;
    let v: String = rest
        .trim_start()
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    (!v.is_empty()).then(|| v.to_ascii_lowercase())
}

/// Is a path specific enough to be the platform's API without a visible `/api/v4` or API base?
/// A resource name with `_` or `-` (`reset_registration_token`, `error_tracking`) is; `/users`
/// alone is not.
pub fn distinctive(template: &str) -> bool {
    fixed_segments(template).any(|s| s.contains(['_', '-']))
}

/// Does a written path match a template? `:x` is one segment, `*x` one or more (a registry
/// repository name such as `group/app`). `prefix`: the path may go on below the template.
pub fn path_matches(template: &str, path: &str, prefix: bool) -> bool {
    let p: Vec<&str> = path
        .trim_end_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    // at[j]: the template's segments read so far can end at path segment j (in time
    // proportional to the product of the lengths, however many `*` segments there are).
    let mut at = vec![false; p.len() + 1];
    at[0] = true;
    for ts in template.split('/').filter(|s| !s.is_empty()) {
        let mut next = vec![false; p.len() + 1];
        if ts.starts_with('*') {
            // One or more segments.
            let mut reachable = false;
            for j in 1..=p.len() {
                reachable |= at[j - 1];
                next[j] = reachable;
            }
        } else {
            for j in 0..p.len() {
                next[j + 1] = at[j] && (ts.starts_with(':') || ts == p[j]);
            }
        }
        at = next;
        if !at.contains(&true) {
            return false;
        }
    }
    at[p.len()] || (prefix && at.contains(&true))
}

/// The call expression around `at` in code: from the start of the line that opens the innermost
/// unclosed `(` before `at`, to the `)` that closes it (`requests.put(url, params={...})` over
/// several lines). None when `at` is not inside parentheses.
fn call_span(text: &str, at: usize) -> Option<(usize, usize)> {
    call_span_at(text, at, 0)
}

/// Does a `{` after `before` open a block (a function's, a loop's or a condition's body: after
/// `=>` or a `)`) rather than an object literal (after `(`, `,`, `=`, `:`)?
fn opens_block(before: &[u8]) -> bool {
    let end = before
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    let before = &before[..end];
    before.ends_with(b"=>") || before.ends_with(b")")
}

/// The call expression `levels` parentheses further out than [`call_span`]'s (a regex group or
/// an inner call inside `rsps.add(method=…, url=re.compile(…))`).
fn call_span_at(text: &str, at: usize, levels: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let open = enclosing_open(b, at, levels)?;
    let mut depth = 0usize;
    let upper = (at + 4000).min(b.len());
    // A generic call (`api.getJson<{ merge_status: string }>(…)`, `client.get<MergeRequest>(…)`):
    // the statement starts at its callee, before the type arguments.
    let callee = generic_arguments_start(b, open).unwrap_or(open);
    let close = (open..upper).find(|&i| {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                return depth == 0;
            }
            _ => {}
        }
        false
    })?;
    let start = b[..callee]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    Some((start, close + 1))
}

/// The `(` of the call expression `levels` parentheses further out than the innermost one that
/// holds `at`, unless `at` is in a block (a callback's or a loop's body) before it.
fn enclosing_open(b: &[u8], at: usize, levels: usize) -> Option<usize> {
    let lower = at.saturating_sub(2000);
    let mut skip = levels;
    let mut depth = 0usize;
    let mut braces = 0usize;
    let mut open = None;
    for i in (lower..at).rev() {
        match b[i] {
            b'}' => braces += 1,
            b'{' if braces > 0 => braces -= 1,
            // A block that `at` is in (a callback's or a loop's body: `async (req, res) => {`,
            // `for (…) {`): what holds `at` is a statement of that block, not an argument of a
            // call around the block (an Express route's `app.post(…)` is no request).
            b'{' if depth == 0 && opens_block(&b[lower..i]) => return None,
            b'{' => {}
            b')' => depth += 1,
            b'(' if depth == 0 && skip > 0 => skip -= 1,
            b'(' if depth == 0 => {
                open = Some(i);
                break;
            }
            b'(' => depth -= 1,
            _ => {}
        }
    }
    open
}

/// The name of the function or method whose call holds `at` as an argument (`post_wrapper` of
/// `post_wrapper(endpoint='/runners', …)`), if it is written right before its `(`.
fn callee_of(text: &str, at: usize) -> Option<&str> {
    let b = text.as_bytes();
    let open = enclosing_open(b, at, 0)?;
    let start = b[..open]
        .iter()
        .rposition(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
        .map_or(0, |i| i + 1);
    (start < open).then(|| &text[start..open])
}

/// Is the path at `start` handed to a request by code of a file that names the platform? A
/// relative path specific to the API (`projects/${p}/merge_requests/${iid}/changes`) handed to a
/// helper whose name says it requests (`this.callGitLabApi(…)`) or kept in a variable named for
/// a URL (`url = 'runners/reset_…'`); a path appended to a base (`baseURL + "/runners"`,
/// `f"{base}/runners"`) by a call that shows its method (`Post(url)` a few lines on); a path
/// handed to a request helper named for its verb (`post_wrapper(endpoint='/runners', …)`).
fn handed_in_own_code(
    win: &str,
    start: usize,
    url: &Url<'_>,
    shows_method: bool,
    relative: bool,
    specific: bool,
) -> bool {
    if relative {
        return specific
            && (callee_through_generics(win, start).is_some_and(names_a_request)
                || assigned_variable(context(win, start, 0)).is_some_and(names_a_url));
    }
    let appended = url.based || (url.bare && base_name_before(win.as_bytes(), start).is_some());
    (appended && shows_method) || callee_of(win, start).and_then(verb_named).is_some()
}

/// The name of the function or method whose call holds `at` as an argument, also when type
/// arguments stand between the name and its `(` (`callGitLabApi<any>(`).
fn callee_through_generics(text: &str, at: usize) -> Option<&str> {
    let b = text.as_bytes();
    let open = enclosing_open(b, at, 0)?;
    let end = generic_arguments_start(b, open).unwrap_or(open);
    let start = b[..end]
        .iter()
        .rposition(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
        .map_or(0, |i| i + 1);
    (start < end).then(|| &text[start..end])
}

/// Does a function's name say it makes a request (`callGitLabApi`, `apiGet`, `request`,
/// `fetchJson`, `httpGet`), not that it keeps or shows a string (`remember`, `log`)?
fn names_a_request(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["api", "gitlab", "request", "fetch", "http"]
        .iter()
        .any(|w| lower.contains(w))
}

/// Does a variable's name say it holds a URL or a path (`url`, `apiPath`, `endpoint`)?
fn names_a_url(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["url", "uri", "path", "endpoint"]
        .iter()
        .any(|w| lower.contains(w))
}

/// The method a request helper's name says in snake case: `post_wrapper`, `get_request`,
/// `delete_resource` (the verb, then `_` and more of the name).
fn verb_named(name: &str) -> Option<Method> {
    let (verb, rest) = name.split_once('_')?;
    if rest.is_empty() || !verb.bytes().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    method_word(verb)
}

/// Where the type arguments of a generic call whose `(` is at `open` start (the `<` after the
/// callee's name), if `(` follows a `>` that closes them within a few lines.
fn generic_arguments_start(b: &[u8], open: usize) -> Option<usize> {
    if open == 0 || b[open - 1] != b'>' {
        return None;
    }
    let lower = open.saturating_sub(1000);
    // Angle brackets, and the braces of a type literal (whose members end in `;`).
    let (mut depth, mut braces) = (0usize, 0usize);
    for i in (lower..open).rev() {
        match b[i] {
            b'>' => depth += 1,
            b'<' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    // A name, not a space or an operator, is right before the type arguments.
                    return (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
                        .then_some(i);
                }
            }
            b'}' => braces += 1,
            b'{' => braces = braces.checked_sub(1)?,
            b';' if braces == 0 => return None,
            b'(' | b')' => return None,
            _ => {}
        }
    }
    None
}

/// The statement of a URL at `at` and the method it shows: the call expression in code (or,
/// when the URL is assigned to a variable, the call that uses the variable in the lines after),
/// the task in YAML, the command line elsewhere.
fn statement(text: &str, at: usize, kind: FileKind, block: bool) -> (&str, Option<Method>) {
    let near = context(text, at, 0);
    match kind {
        FileKind::Code => {
            let span = call_span(text, at).map(|(a, b)| &text[a..b]);
            if let Some(stmt) = span
                && let Some(m) = method_in(stmt)
                    .or_else(|| callee_of(text, at).and_then(verb_named))
                    .or_else(|| fetch_default(text, at, stmt))
            {
                return (stmt, Some(m));
            }
            // The URL inside an inner call or a regex group: the enclosing calls.
            for levels in 1..3 {
                if let Some((a, b)) = call_span_at(text, at, levels)
                    && let Some(m) = method_in(&text[a..b])
                {
                    return (&text[a..b], Some(m));
                }
            }
            // `url := fmt.Sprintf(...)` … `http.NewRequest(http.MethodPost, url, nil)`: the
            // first use whose call shows a method (a log line that prints the URL before the
            // request shows none), else the first use.
            if let Some(var) = assigned_variable(near) {
                let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
                let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
                let mut pos = line_end;
                let mut first_use = None;
                for _ in 0..8 {
                    if pos >= text.len() {
                        break;
                    }
                    let next_end = text[pos + 1..]
                        .find('\n')
                        .map_or(text.len(), |i| pos + 1 + i);
                    let line = &text[pos + 1..next_end];
                    if let Some(k) = super::word_offsets(line, var, super::WordBytes::Ident).next()
                    {
                        let use_at = pos + 1 + k;
                        let (a, b) = call_span(text, use_at).unwrap_or((pos + 1, next_end));
                        let stmt = &text[start..chain_end(text, b).max(a)];
                        if let Some(m) = method_of_call(text, a, b) {
                            return (stmt, Some(m));
                        }
                        first_use.get_or_insert(stmt);
                    }
                    pos = next_end;
                }
                if let Some(stmt) = first_use {
                    return (stmt, method_in(near));
                }
            }
            let stmt = span.unwrap_or_else(|| context(text, at, 1));
            // A builder chain goes on to the end of the statement: `….POST(…).build();`
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let mut limit = (at + 800).min(text.len());
            while !text.is_char_boundary(limit) {
                limit -= 1;
            }
            let chain = text[at..limit].find(';').map(|i| &text[line_start..at + i]);
            let method = method_in(near)
                .or_else(|| method_in(stmt))
                .or_else(|| chain.and_then(method_in))
                .or_else(|| chain_above(text, at).and_then(method_in));
            (chain.filter(|_| span.is_none()).unwrap_or(stmt), method)
        }
        FileKind::Yaml | FileKind::Helm | FileKind::Ci | FileKind::Shell
            if block || kind != FileKind::Shell =>
        {
            let stmt = context(text, at, 3);
            // An Ansible task's request is its whole list item (`uri:` with its `body:` of
            // many lines).
            let stmt = match yaml_task(text, at).filter(|_| kind == FileKind::Yaml) {
                Some(task) => {
                    let offset = |s: &str| s.as_ptr() as usize - text.as_ptr() as usize;
                    let (a, b) = (offset(stmt), offset(stmt) + stmt.len());
                    let (c, d) = (offset(task), offset(task) + task.len());
                    &text[a.min(c)..b.max(d)]
                }
                None => stmt,
            };
            (stmt, method_in(near).or_else(|| method_in(stmt)))
        }
        FileKind::Shell if method_in(near).is_none() => {
            assigned_then_called(text, at, near).unwrap_or((near, None))
        }
        _ => (near, method_in(near)),
    }
}

/// How many calls of a chain after a request's call are read as its statement.
const CHAIN_CALLS: usize = 6;

/// Where the call chain that goes on after `end` (a call's `)`) ends: its next calls
/// (`.Send("token=" + t)`, `.set(…)` on the lines after), each within [`WINDOW`].
fn chain_end(text: &str, end: usize) -> usize {
    let b = text.as_bytes();
    let mut e = end;
    for _ in 0..CHAIN_CALLS {
        let rest = text[e..].trim_start();
        let Some(next) = rest.strip_prefix('.') else {
            break;
        };
        let next = next.trim_start();
        let name = next
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
            .count();
        if name == 0 || next.as_bytes().get(name) != Some(&b'(') {
            break;
        }
        let open = b.len() - next.len() + name;
        match balanced_end(text, open, (open + WINDOW).min(b.len())) {
            Some(close) => e = close,
            None => break,
        }
    }
    e
}

/// The Fetch API's method where the URL at `at` is handed to `fetch(…)` (`await fetch(url)`,
/// `window.fetch(url, { headers })`) with no `method` among its options: GET, its default.
fn fetch_default(text: &str, at: usize, call: &str) -> Option<Method> {
    (callee_of(text, at) == Some("fetch") && !call.contains("method")).then_some(Method::Get)
}

/// The method a call at `a..b` shows, read with its chain's line breaks taken out
/// (`gorequest.New().` then `Post(url)` on the next line) and the line above's `.` before it.
fn method_of_call(text: &str, a: usize, b: usize) -> Option<Method> {
    method_in(&text[a..b]).or_else(|| {
        let a = b - text[a..b].trim_start().len();
        let lead = if text[..a].trim_end().ends_with('.') {
            "."
        } else {
            ""
        };
        let call = &text[a..b];
        let broken = lead == "." || call.contains(".\n") || call.contains(".\r\n");
        broken
            .then(|| {
                let mut joined = String::with_capacity(call.len() + 1);
                joined.push_str(lead);
                for (i, line) in call.lines().enumerate() {
                    joined.push_str(if i == 0 { line } else { line.trim_start() });
                }
                method_in(&joined)
            })
            .flatten()
    })
}

/// How many lines above and below a place its YAML list item is read.
const TASK_LINES: usize = 40;

/// The YAML list item that holds `at` (an Ansible task: from its `- ` line to the next line
/// indented as far or less), read within [`TASK_LINES`] lines each way.
fn yaml_task(text: &str, at: usize) -> Option<&str> {
    let b = text.as_bytes();
    let indent = |l: &[u8]| l.iter().take_while(|&&c| c == b' ').count();
    let line_end = |s: usize| memchr::memchr(b'\n', &b[s..]).map_or(b.len(), |i| s + i);
    let mut s = line_start_within(b, at, WINDOW);
    let mut limit = indent(&b[s..line_end(s)]) + 1;
    let mut item = None;
    for _ in 0..TASK_LINES {
        let line = &b[s..line_end(s)];
        let ind = indent(line);
        if line[ind..].iter().any(|c| !c.is_ascii_whitespace()) && ind < limit {
            if line[ind..].starts_with(b"- ") {
                item = Some((s, ind));
                break;
            }
            // A key of an outer mapping: the item is further out.
            limit = ind;
        }
        if s == 0 || limit == 0 {
            break;
        }
        s = line_start_within(b, s - 1, WINDOW);
    }
    let (start, ind) = item?;
    let mut end = line_end(start);
    for _ in 0..TASK_LINES {
        if end >= b.len() {
            break;
        }
        let next = line_end(end + 1);
        let line = &b[end + 1..next];
        let own = indent(line);
        if line[own..].iter().any(|c| !c.is_ascii_whitespace()) && own <= ind {
            break;
        }
        end = next;
    }
    Some(&text[start..end])
}

/// The lines of a call chain written over lines above the one of `at`, from its head to `at`
/// (PHPUnit's `$api->expects(…)` / `->method('get')` / `->with('projects/1/…')`, a builder's
/// `.get()` / `.uri("/runners")`), when `at`'s line continues a chain (starts with `->` or `.`).
fn chain_above(text: &str, at: usize) -> Option<&str> {
    let b = text.as_bytes();
    let continues = |start: usize| {
        let code = text[start..].trim_start_matches([' ', '\t']);
        code.starts_with("->") || (code.starts_with('.') && !code.starts_with(".."))
    };
    let mut start = line_start_within(b, at, WINDOW);
    if !continues(start) {
        return None;
    }
    for _ in 0..CHAIN_LINES {
        if start == 0 {
            break;
        }
        start = line_start_within(b, start - 1, WINDOW);
        if !continues(start) {
            break;
        }
    }
    Some(&text[start..at])
}

/// How many lines above a place its call chain is read for the method.
const CHAIN_LINES: usize = 8;

/// A shell variable assigned the URL (`url=https://…/api/v4/runners`) and used by the next
/// command that shows a method (`curl -sfX GET "$url"`, within 8 lines): the statement from
/// the assignment to that command, and its method.
fn assigned_then_called<'t>(
    text: &'t str,
    at: usize,
    near: &str,
) -> Option<(&'t str, Option<Method>)> {
    let var = assigned_variable(near)?;
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut pos = text[at..].find('\n').map_or(text.len(), |i| at + i);
    for _ in 0..8 {
        if pos >= text.len() {
            return None;
        }
        let end = text[pos + 1..]
            .find('\n')
            .map_or(text.len(), |i| pos + 1 + i);
        let line = &text[pos + 1..end];
        if let Some(k) = super::word_offsets(line, var, super::WordBytes::Ident).next() {
            let stmt = context(text, pos + 1 + k, 0);
            let stmt_end = stmt.as_ptr() as usize - text.as_ptr() as usize + stmt.len();
            return method_in(stmt).map(|m| (&text[start..stmt_end], Some(m)));
        }
        pos = end;
    }
    None
}

/// The variable a line assigns (`url := …`, `url = …`, `const url = …`), if it does.
pub fn assigned_variable(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = ["const ", "let ", "var ", "val ", "my "]
        .iter()
        .find_map(|k| t.strip_prefix(k))
        .unwrap_or(t);
    let end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))?;
    let (name, rest) = t.split_at(end);
    let rest = rest.trim_start();
    let assigns = rest.starts_with(":=") || (rest.starts_with('=') && !rest.starts_with("=="));
    (assigns && !name.is_empty()).then(|| name.trim_start_matches('$'))
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

/// How code spells each method in a call, lowercased; built once.
fn method_forms() -> &'static [(Method, Vec<String>)] {
    static FORMS: std::sync::OnceLock<Vec<(Method, Vec<String>)>> = std::sync::OnceLock::new();
    FORMS.get_or_init(|| {
        Method::ALL
            .iter()
            .map(|&m| {
                let name = m.as_str().to_ascii_lowercase();
                let forms = [
                    format!(".{name}("),
                    // PHP (and Perl) method calls: `$this->httpClient->get('geo_nodes')`.
                    format!("->{name}("),
                    format!(".{name}async("),
                    format!("_{name}("),
                    format!("requesthelper.{name}<"),
                    // A request helper called bare (Ruby gem: `post('/runners', body: b)`).
                    format!(" {name}('"),
                    format!(" {name}(\""),
                    // Mocks of the `responses` library: `method=responses.GET`.
                    format!("responses.{name}"),
                    format!("::{name}"),
                    format!("method{name}"),
                    format!("httpmethod.{name}"),
                    format!("method: {name}"),
                    format!("method: \"{name}\""),
                    format!("method: '{name}'"),
                    // A compact object literal (generated clients): `{method:'get',url:…}`.
                    format!("method:'{name}'"),
                    format!("method:\"{name}\""),
                    format!("\"method\":\"{name}\""),
                    format!("method=\"{name}\""),
                    format!("method='{name}'"),
                    format!("method = \"{name}\""),
                    format!("method = '{name}'"),
                    format!("\"method\": \"{name}\""),
                    format!("(\"{name}\""),
                    format!("('{name}'"),
                    // A Ruby symbol: WebMock's `stub_request(:post, url)`, Faraday's
                    // `run_request(:delete, …)`.
                    format!("(:{name},"),
                ];
                let mut forms = forms.to_vec();
                if m == Method::Post {
                    // Go's `http.PostForm(url, form)` and its clients' like.
                    forms.push(".postform(".into());
                }
                if m == Method::Delete {
                    // gitbeaker's request helper: `RequestHelper.del()(this, 'runners/2')`.
                    forms.extend(["requesthelper.del(".into(), "requesthelper.del<".into()]);
                }
                (m, forms)
            })
            .collect()
    })
}

/// The HTTP method a statement uses, if it shows one.
pub fn method_in(ctx: &str) -> Option<Method> {
    let words: Vec<&str> = ctx.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        // curl -X POST, -XPOST, --request POST, --request=POST; wget --method=POST;
        // Invoke-RestMethod -Method Post
        // Short options grouped before -X take its value too (curl -sfX GET).
        let grouped = w.len() > 2
            && w.ends_with('X')
            && w.strip_prefix('-')
                .is_some_and(|o| o.bytes().all(|c| c.is_ascii_alphabetic()));
        let value = match *w {
            "-X" | "--request" | "--method" | "-Method" => words.get(i + 1).copied(),
            _ if grouped => words.get(i + 1).copied(),
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
    for (m, forms) in method_forms() {
        if forms.iter().any(|f| lower.contains(f.as_str())) {
            return Some(*m);
        }
    }
    // A client's method named for the verb, in camel case: `api.getJson(…)`,
    // `http.postJson<T>(…)`, `client.deleteWithAuth(…)`.
    for m in Method::ALL {
        let dotted = format!(".{}", m.as_str().to_ascii_lowercase());
        if ctx.match_indices(&dotted).any(|(i, _)| {
            let rest = &ctx[i + dotted.len()..];
            rest.starts_with(|c: char| c.is_ascii_uppercase())
                && rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .is_some_and(|k| rest[k..].starts_with(['(', '<']))
        }) {
            return Some(m);
        }
    }
    // A method handed to a request helper as a string argument of its own, written as HTTP
    // writes it: `doRequest(ctx, "GET", url)`, `new Request('GET', $url)`.
    for m in Method::ALL {
        let name = m.as_str();
        let quoted = |q: char| {
            ctx.match_indices(name)
                .any(|(i, _)| ctx[..i].ends_with(q) && ctx[i + name.len()..].starts_with(q))
        };
        if quoted('"') || quoted('\'') {
            return Some(m);
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
pub fn sends_param(query: &str, ctx: &str, param: &str) -> bool {
    let in_query = query
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
                .any(|(at, _)| at == 0 || !is_ident_byte(ctx.as_bytes()[at - 1]))
        })
        || shorthand_property(ctx, param)
}

/// Is `name` a shorthand property of an object literal in `ctx` (`{ active, integrated }` in
/// JavaScript: the key and the variable that holds its value)?
fn shorthand_property(ctx: &str, name: &str) -> bool {
    let b = ctx.as_bytes();
    ctx.match_indices(name).any(|(at, _)| {
        let end = at + name.len();
        (at == 0 || !is_ident_byte(b[at - 1]))
            && !b.get(end).is_some_and(|&c| is_ident_byte(c))
            && ctx[..at].trim_end().ends_with(['{', ','])
            && ctx[end..].trim_start().starts_with([',', '}'])
    })
}

/// The string literal around `at` on its line, if it is a path: its content's range and the
/// content with interpolations (`#{…}`, `${…}`) written `{}`. None when the literal holds
/// whitespace outside interpolations or is no path (a URL with a scheme is left to [`url_at`]).
fn literal_path(text: &str, at: usize) -> Option<(usize, usize, String)> {
    let b = text.as_bytes();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let mut i = line_start;
    let mut open: Option<(u8, usize)> = None;
    while i < line_end {
        let c = b[i];
        match open {
            None if matches!(c, b'"' | b'\'' | b'`') => open = Some((c, i + 1)),
            Some((q, s)) if c == q => {
                if s <= at && at < i {
                    return normalize_literal(&text[s..i]).map(|t| (s, i, t));
                }
                open = None;
            }
            Some(_) if c == b'\\' => i += 1,
            _ => {}
        }
        i += 1;
    }
    None
}

fn normalize_literal(lit: &str) -> Option<String> {
    let mut out = String::with_capacity(lit.len());
    push_interpolated(&mut out, lit);
    let ok = !out.contains(char::is_whitespace)
        && !out.contains("://")
        && out.contains(|c: char| c.is_ascii_alphabetic());
    ok.then_some(out)
}

/// Does a statement hand a path to a REST client's request builder? (go-gitlab
/// `NewRequest(`, client-go `withPath(`, gitbeaker `RequestHelper.` and tagged `endpoint`,
/// python-gitlab `http_get(`…)
fn hands_to_request_builder(stmt: &str) -> bool {
    [
        "NewRequest(",
        "NewRequestWithContext(",
        "withPath(",
        "RequestHelper.",
        "endpoint`",
        "http_get(",
        "http_post(",
        "http_put(",
        "http_delete(",
        "http_list(",
    ]
    .iter()
    .any(|b| stmt.contains(b))
        || runs_glab_api(stmt)
}

/// Does the statement run the platform's CLI's `api` command, which takes the API's paths
/// relative to `/api/v4` (`glab api projects/…`, or its arguments as a list: `exec("glab",
/// ["api", `projects/${p}/…`])`)?
fn runs_glab_api(stmt: &str) -> bool {
    if stmt.contains("glab api ") {
        return true;
    }
    let quoted = |w: &str| {
        ['"', '\'', '`']
            .iter()
            .any(|q| stmt.contains(&format!("{q}{w}{q}")))
    };
    quoted("glab") && quoted("api")
}

/// A call of an endpoint found in the file: the URL's range, the statement around it, the method
/// seen (if any) and the URL's query string.
pub struct Call<'t> {
    pub start: usize,
    pub end: usize,
    pub statement: &'t str,
    pub method: Option<Method>,
    pub query: String,
    /// The path as written, after `/api/v4` (parameters in their spelling).
    pub path: String,
}

/// Every call in the file whose URL matches `template` (read through
/// [`FileCtx::rest_calls`], which keeps them for the other detectors).
///
/// A path found is `relative` when it is written without `/` for a client's request builder
/// (`"geo_nodes"`, `fmt.Sprintf("projects/%s/…")` handed to `NewRequest`): it counts only when
/// the statement hands it to one, and the builder shows the API. Each place is read in a window
/// of the text around it (`win`, starting at `ws`; `start` and `end` are in the window): a line
/// of thousands of calls is not read from its start for each.
pub fn calls<'a>(
    template: &str,
    api: RestApi,
    prefix: bool,
    ctx: &FileCtx<'_, 'a>,
) -> Vec<Call<'a>> {
    let text = ctx.src.text;
    let Some((anchor, needle)) = anchor_and_needle(template) else {
        return Vec::new();
    };
    let kind = ctx.src.class.kind;
    let code_like = kind == FileKind::Code;
    let single = code_like && fixed_segments(template).count() == 1;
    let segments = if code_like && ctx.offsets(needle).is_empty() && joins_paths(ctx) {
        quoted_segments(ctx, anchor)
    } else {
        Vec::new()
    };
    if !single && segments.is_empty() && ctx.offsets(needle).is_empty() {
        return Vec::new();
    }
    let needs_api = api == RestApi::V4 && !distinctive(template);
    // A file that spells out the API base (`BASE = ".../api/v4"`) shows the API for its paths.
    // So does the Ruby gem's client class, whose request helpers take API paths.
    let file_api = ctx.shows_rest_api_base();
    // Terraform/HCL: a request is a block (`url = …` and `method = …` on their own lines).
    let hcl = is_hcl(ctx.src.path);
    let mut out: Vec<Call> = Vec::new();
    // A relative path of two fixed segments or more, one of them distinctive
    // (`projects/%d/merge_requests/%d/changes`), is the platform's API whoever is handed it
    // in a call that shows its method (`api.get(…)`, `requests.get(urljoin(base, …))`).
    let specific = distinctive(template) && fixed_segments(template).nth(1).is_some();
    let lone_form = distinctive(template) && !specific && code_like;
    let names_platform = std::cell::LazyCell::new(|| ctx.names_platform());
    let scoped = code_like.then(|| below_project(template)).flatten();
    let mut push =
        |win: &'a str, ws: usize, start: usize, end: usize, url: &Url, relative: bool| -> bool {
            // Cheapest checks first: the path, then overlap, then comments.
            if url.pattern
                || url.relative
                || !(path_matches(template, url.path, prefix)
                    || ((url.bare || (url.based && *names_platform))
                        && scoped.is_some_and(|t| path_matches(t, url.path, prefix))))
            {
                return false;
            }
            // A path handed to a client's request builder (`gl.http_post("/runners", …)`) shows
            // the API too.
            let shows_api = relative || !needs_api || url.api || file_api;
            let at = ws + start;
            if overlaps_recent(&out, at)
                || ctx.src.in_comment(at)
                || (code_like && super::test_names::in_test_name(win.as_bytes(), start))
            {
                return false;
            }
            let (stmt, method) = statement(win, start, kind, hcl);
            // A path with a leading `/` counts only when the call that takes it is the builder.
            let handed = if relative {
                hands_to_request_builder(stmt)
                    || (method.is_some() && (specific || (lone_form && *names_platform)))
            } else {
                shows_api || handed_to_builder(win, start)
            } || (code_like
                && *names_platform
                && handed_in_own_code(win, start, url, method.is_some(), relative, specific));
            if !handed {
                return false;
            }
            out.push(Call {
                start: at,
                end: ws + end,
                statement: stmt,
                method,
                query: url.query.to_string(),
                path: url.path.to_string(),
            });
            true
        };
    // A client library's relative path whose only fixed segment is the first: `"runners"`,
    // `'geo_nodes/status'`.
    // A call's path holds every fixed segment of the template, as written in the file.
    let written = |t: &str| fixed_segments(t).all(|s| ctx.contains(s));
    if !written(template) && !scoped.is_some_and(written) {
        return Vec::new();
    }
    if single {
        for &at in ctx.offsets(anchor).iter() {
            relative_literal_at(text, at, &mut push);
        }
    }
    for &abs in ctx.offsets(needle).iter() {
        path_at(text, abs, needle, code_like, &mut push);
    }
    for abs in segments {
        joined_path_at(text, abs, needle, &mut push);
    }
    out.sort_by_key(|c| c.start);
    out
}

/// A template's last fixed segment, and that segment after its `/` (`/lint` of
/// `/projects/:id/ci/lint`): a call's path is found where the latter is written, but for a
/// client's relative path whose only fixed segment is the first. Asked first, and its offsets
/// kept: it is the rarest of the segments mostly, and one of four bytes or more is known absent
/// from the prefilter's pass (a segment like `ci` or `all` alone is searched for through the
/// whole file). (A template starts with `/`, as the data's check of REST paths requires: a
/// segment has its `/` before it in the template.)
fn anchor_and_needle(template: &str) -> Option<(&str, &str)> {
    let anchor = fixed_segments(template).next_back()?;
    let at = anchor.as_ptr() as usize - template.as_ptr() as usize;
    Some((anchor, &template[at.saturating_sub(1)..at + anchor.len()]))
}

/// Does the file call a path-joining function ([`in_join_call`])? Asked once per file (the
/// answers are kept), before any quoted segment is looked for.
fn joins_paths(ctx: &FileCtx<'_, '_>) -> bool {
    ["join(", "Join(", "JoinPath(", "Combine("]
        .iter()
        .any(|w| ctx.contains(w))
}

/// In code, a template's last segment may be an argument of its own to a path-joining call
/// (`url.JoinPath(base, "projects", id, "merge_requests", iid, "changes")`): where `anchor` is
/// written as a whole quoted string.
fn quoted_segments(ctx: &FileCtx<'_, '_>, anchor: &str) -> Vec<usize> {
    let b = ctx.src.text.as_bytes();
    (ctx.offsets(anchor).iter().copied())
        .filter(|&i| {
            i > 0
                && matches!(b[i - 1], b'"' | b'\'' | b'`')
                && b.get(i + anchor.len()) == Some(&b[i - 1])
        })
        .collect()
}

/// Is the file Terraform's or another HCL file?
fn is_hcl(path: &str) -> bool {
    [".tf", ".tfvars", ".hcl"].iter().any(|e| path.ends_with(e))
}

/// Does a call found already hold `at`? Calls are found in the order of the text, but for a
/// few: an overlap is with one of the last ones found.
fn overlaps_recent(out: &[Call], at: usize) -> bool {
    out.iter()
        .rev()
        .take(RECENT_CALLS)
        .any(|c| c.start <= at && at < c.end.max(c.start + 1))
}

/// Is the URL at `start` an argument of a call of a request builder?
fn handed_to_builder(win: &str, start: usize) -> bool {
    call_span(win, start).is_some_and(|(a, b)| hands_to_request_builder(&win[a..b]))
}

/// What [`calls`] does with a path found: `(window, window's start, start, end, url,
/// relative)`, true when it is a call.
type Push<'p, 'a> = &'p mut dyn FnMut(&'a str, usize, usize, usize, &Url<'_>, bool) -> bool;

/// A client library's relative path at `at` whose only fixed segment is the first: `"runners"`,
/// `'geo_nodes/status'`.
fn relative_literal_at<'a>(text: &'a str, at: usize, push: Push<'_, 'a>) {
    let b = text.as_bytes();
    let (ws, win) = window(text, at);
    if at > 0
        && matches!(b[at - 1], b'"' | b'\'' | b'`')
        && let Some((start, end, lit)) = literal_path(win, at - ws)
    {
        let full = format!("/{lit}");
        push(win, ws, start, end, &url_at(&full, 0), true);
    }
}

/// The URL written where `needle` (the template's last fixed segment) is, at `abs`: in code,
/// built from several literals, an interpolated literal, or a relative path for a request
/// builder.
fn path_at<'a>(text: &'a str, abs: usize, needle: &str, code_like: bool, push: Push<'_, 'a>) {
    if label_value(text.as_bytes(), abs) {
        return;
    }
    let (ws, win) = window(text, abs);
    let at = abs - ws;
    // In code, a URL may be built from several literals (concatenated, adjacent, over a
    // few lines): the joined view wins.
    if code_like && joined_at(win, ws, at, needle, push) {
        return;
    }
    let url = url_at(win, at);
    // The path argument of the platform's CLI (`glab api projects/:id/…`) is an API path.
    if url.relative && glab_api_argument(win, url.start) {
        let full = format!("/api/v4/{}", &win[url.start..url.end]);
        if push(win, ws, url.start, url.end, &url_at(&full, 0), false) {
            return;
        }
    }
    // A URL word that starts inside an interpolation (`project_id}/runners` of
    // `"/projects/#{url_encode project_id}/runners"`) is read from its whole literal.
    let broken = code_like && win[url.start..at].contains('}') && !win[url.start..at].contains('{');
    if (!broken && push(win, ws, url.start, url.end, &url, false))
        || after_variable(win, ws, &url, needle, push)
        || !code_like
    {
        return;
    }
    // A string literal with interpolations (`"/projects/#{url_encode project}/…"`), or a
    // relative path for a request builder (`"projects/%s/error_tracking/settings"`).
    if let Some((start, end, lit)) = literal_path(win, at) {
        if lit.starts_with(|c: char| c.is_ascii_lowercase()) && api_v4_at(&lit) != Some(0) {
            let full = format!("/{lit}");
            push(win, ws, start, end, &url_at(&full, 0), true);
        } else if let Some(k) = lit.find(needle) {
            // `/projects/{}/…`, `{}/api/v4/projects/{}/…` (an interpolation of its own
            // holding quotes or brackets: `{mr['iid']}`).
            push(win, ws, start, end, &url_at(&lit, k), false);
        }
    }
}

/// The keys whose values are text shown to people or written for them (a UI's labels, an API
/// description's summaries): a request line in one (`displayName: 'POST /api/v4/runners/…'` of
/// a workflow node's notice) names the endpoint, it does not call it.
const LABEL_KEYS: [&str; 8] = [
    "displayName",
    "description",
    "title",
    "summary",
    "label",
    "hint",
    "placeholder",
    "tooltip",
];

/// Is `at` inside a string literal that is the value of one of the [`LABEL_KEYS`] on its line
/// (`"displayName": "POST /api/v4/…"`, `description = '…'`)?
fn label_value(b: &[u8], at: usize) -> bool {
    let line = super::file::line_start_within(b, at, 300);
    let before = &b[line..at];
    let Some(q) = before
        .iter()
        .rposition(|&c| matches!(c, b'"' | b'\'' | b'`'))
    else {
        return false;
    };
    let lead = before[..q].trim_ascii_end();
    let Some(lead) = lead.strip_suffix(b":").or_else(|| lead.strip_suffix(b"=")) else {
        return false;
    };
    let key = lead.trim_ascii_end();
    let key = key
        .strip_suffix(b"\"")
        .or_else(|| key.strip_suffix(b"'"))
        .unwrap_or(key);
    LABEL_KEYS.iter().any(|k| {
        key.ends_with(k.as_bytes())
            && key[..key.len() - k.len()]
                .last()
                .is_none_or(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
    })
}

/// How far back on its line the `glab api` before a path is looked for.
const GLAB_REACH: usize = 256;

/// Is the word at `start` the path argument of `glab api`, the platform's CLI, whose path is
/// relative to `/api/v4`: `glab api projects/…` in a shell line or a string, `"glab", "api",
/// f"projects/…"` in an argument list, with options and their values between
/// (`glab api --paginate -X GET projects/…`)?
fn glab_api_argument(text: &str, start: usize) -> bool {
    // A short way back: the command and its options stand right before the path.
    let line = &text[super::line_start_within(text.as_bytes(), start, GLAB_REACH)..start];
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ',' | '[' | '(' | '{'))
        .filter(|w| !w.is_empty())
        .rev()
        // A string's prefix (`f"…"`, `$"…"`) is no word of the command.
        .skip_while(|w| matches!(*w, "f" | "r" | "b" | "rf" | "fr" | "$" | "@"))
        .take(12)
        .collect();
    let Some(api) = words.iter().position(|w| *w == "api") else {
        return false;
    };
    let options = (0..api).all(|k| words[k].starts_with('-') || words[k + 1].starts_with('-'));
    let glab = words
        .get(api + 1)
        .is_some_and(|w| *w == "glab" || w.ends_with("/glab"));
    options && glab
}

/// The strings built from several literals around `at` (in `win`, at `ws` in the file) that
/// hold `needle`, handed to `push`; whether any built string covers `at`.
fn joined_at<'a>(win: &'a str, ws: usize, at: usize, needle: &str, push: Push<'_, 'a>) -> bool {
    let built = joined_strings_near(win, at);
    let first = built.partition_point(|(_, end, _)| *end <= at);
    let mut covered = false;
    for (start, end, joined) in built[first..].iter().take_while(|(s, _, _)| *s <= at) {
        covered = true;
        let Some(k) = joined.find(needle) else {
            continue;
        };
        // Over lines, the finding is where the segment that names the endpoint is written
        // (`"/changes"` below `f"…/merge_requests/{iid}"`).
        let first = *start;
        let start = &piece_start(win, first, at);
        let pushed = if relative_start(joined) {
            let full = format!("/{joined}");
            push(win, ws, *start, *end, &url_at(&full, k + 1), true)
        } else {
            push(win, ws, *start, *end, &url_at(joined, k), false)
        };
        // Appended to a variable that holds the path's start (`base + "/merge_requests/" +
        // iid + "/changes"`).
        if !pushed && let Some(name) = variable_before(win.as_bytes(), first) {
            through_variable(win, ws, (*start, *end), name, joined, needle, push);
        }
    }
    covered
}

/// The variable a literal path at `start` (after its quote) is appended to (`base + '/changes'`,
/// `$base . '/changes'`), if it is one.
fn variable_before(b: &[u8], start: usize) -> Option<&str> {
    let name = base_name_before(b, start)?;
    let name = std::str::from_utf8(name).ok()?;
    let name = name.strip_prefix('$').unwrap_or(name);
    path_variable::variable_name(name).then_some(name)
}

/// A URL written after a variable that holds its start ([`path_variable`]): `${root}/changes`,
/// `"$MR_URL/changes"`, `base + '/changes'`.
fn after_variable<'a>(
    win: &'a str,
    ws: usize,
    url: &Url,
    needle: &str,
    push: Push<'_, 'a>,
) -> bool {
    let word = &win[url.start..url.end];
    let (name, rest) = match path_variable::leading_variable(word) {
        Some((name, head)) => (name, &word[head..]),
        None if url.bare => match variable_before(win.as_bytes(), url.start) {
            Some(name) => (name, word),
            None => return false,
        },
        None => return false,
    };
    through_variable(win, ws, (url.start, url.end), name, rest, needle, push)
}

/// The path the assignment of `name` above builds, with `rest` after it, handed to `push` for
/// the span `start..end` where the path is written.
fn through_variable<'a>(
    win: &'a str,
    ws: usize,
    (start, end): (usize, usize),
    name: &str,
    rest: &str,
    needle: &str,
    push: Push<'_, 'a>,
) -> bool {
    let Some(base) = path_variable::assigned_path(win, start, name) else {
        return false;
    };
    let full = format!("{base}{rest}");
    let Some(k) = full.rfind(needle) else {
        return false;
    };
    if relative_start(&full) {
        let full = format!("/{full}");
        push(win, ws, start, end, &url_at(&full, k + 1), true)
    } else {
        push(win, ws, start, end, &url_at(&full, k), false)
    }
}

/// Where the literal holding `at` starts, when a string joined from `start` reaches it over
/// lines: its line's first quote before `at` (else `start`).
fn piece_start(win: &str, start: usize, at: usize) -> usize {
    let Some(nl) = win[start..at].rfind('\n') else {
        return start;
    };
    let line = start + nl + 1;
    win[line..at]
        .find(['"', '\'', '`'])
        .map_or(start, |q| line + q)
}

/// A template's last segment written as a quoted argument of its own at `abs`: the path the
/// joining call builds ([`joined_strings`]), if it holds `needle`.
fn joined_path_at<'a>(text: &'a str, abs: usize, needle: &str, push: Push<'_, 'a>) {
    let (ws, win) = window(text, abs);
    joined_at(win, ws, abs - ws, needle, push);
}

/// A project's endpoint as written below the project's own path, for a helper that puts it
/// there (`c.projectPath(fmt.Sprintf("/merge_requests/%d/changes", iid))`): the template
/// without `/projects/:id`, where what is left is specific on its own.
fn below_project(template: &str) -> Option<&str> {
    template
        .strip_prefix("/projects/:id")
        .filter(|t| distinctive(t) && fixed_segments(t).nth(1).is_some())
}

/// How far before and after a path the text is read for its call (its line, the lines around,
/// the statement): a line of thousands of calls is read in windows, each place in its own.
const WINDOW: usize = 4096;

/// How many of the last calls found a new one is checked against for overlap.
const RECENT_CALLS: usize = 64;

/// The window of the text around `at`: its start, and its text (on character boundaries).
fn window(text: &str, at: usize) -> (usize, &str) {
    let mut start = at.saturating_sub(WINDOW);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let mut end = (at + WINDOW).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (start, &text[start..end])
}

/// How many lines, and bytes, before a request a variable that holds its body is looked for.
const BODY_REACH_LINES: usize = 30;
const BODY_REACH_BYTES: usize = 8192;

/// Where a request's body is built before the request (`form := url.Values{}` …
/// `form.Add("token", t)` … `NewRequest(…, strings.NewReader(form.Encode()))`, `data = {` …
/// `}` … `requests.post(url, data=data)`): for each variable the statement at
/// `stmt_start..stmt_end` names that is assigned in the lines before it (up to
/// [`BODY_REACH_LINES`], not past the function's start), the assigned value's braces, and the
/// lines after it that write the variable (`form.Add(`, `data["k"] =`), as byte ranges.
pub fn body_builders(text: &str, stmt_start: usize, stmt_end: usize) -> Vec<(usize, usize)> {
    let stmt = &text[stmt_start..stmt_end];
    let b = text.as_bytes();
    // Read back at most this far: a line of thousands of requests is not read for each.
    let floor = stmt_start.saturating_sub(BODY_REACH_BYTES);
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut signature = None;
    let mut end = line_start_within(b, stmt_start, stmt_start - floor);
    while lines.len() < BODY_REACH_LINES && end > floor {
        let start = line_start_within(b, end - 1, end - 1 - floor);
        let line = &text[start..end];
        let code = line.trim_start();
        if ["func ", "def ", "function ", "fn "]
            .iter()
            .any(|k| code.starts_with(k))
        {
            signature = Some(line);
            break;
        }
        lines.push((start, line));
        end = start;
    }
    lines.reverse();
    let mut out = Vec::new();
    // A parameter of the function handed to the request (`opt *RegisterNewRunnerOptions` …
    // `NewRequest(http.MethodPost, "runners", opt, …)`): its type's declaration in the file.
    if let Some(sig) = signature {
        out.extend(
            parameter_types(sig)
                .filter(|(name, _)| names_word(stmt, name))
                .filter_map(|(_, ty)| type_body(text, ty)),
        );
    }
    for (i, &(start, line)) in lines.iter().enumerate() {
        let Some(var) = assigned_name(line).filter(|v| names_word(stmt, v)) else {
            continue;
        };
        // The value's braces (a map or dict literal over several lines).
        let value_end = line
            .find(['{', '['])
            .and_then(|k| balanced_end(text, start + k, stmt_start))
            .unwrap_or(start + line.len());
        out.push((start, value_end));
        for &(s, l) in &lines[i + 1..] {
            let code = l.trim_start();
            if code.starts_with(var)
                && code[var.len()..].starts_with(['.', '['])
                && code.contains(['"', '\''])
            {
                out.push((s, s + l.len()));
            }
        }
    }
    out
}

/// The parameters of a function's signature line whose type is a named one, as (name, type):
/// Go's `opt *RegisterNewRunnerOptions`, TypeScript's `opts: RegisterRunnerOptions`.
fn parameter_types(sig: &str) -> impl Iterator<Item = (&str, &str)> {
    // Every list on the line but Go's receiver (`func (s *RunnersService) Name(opt *T) (*R,
    // error)`): the parameters, and results, which have no names.
    let receiver = sig.trim_start().starts_with("func (");
    sig.match_indices('(')
        .skip(usize::from(receiver))
        .flat_map(|(open, _)| {
            let inner = &sig[open + 1..];
            inner[..inner.find([')', '(']).unwrap_or(inner.len())].split(',')
        })
        .filter_map(|p| {
            let p = p.trim();
            let (name, ty) = p.split_once(':').or_else(|| p.split_once(' '))?;
            let ty = ty.trim().trim_start_matches(['*', '&', '?']).trim();
            let ty = ty.rsplit('.').next().unwrap_or(ty);
            let is_name = |t: &str| {
                t.starts_with(|c: char| c.is_ascii_uppercase())
                    && t.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
            };
            (is_ident_word(name.trim()) && is_name(ty)).then_some((name.trim(), ty))
        })
}

fn is_ident_word(w: &str) -> bool {
    !w.is_empty() && w.bytes().all(is_ident_byte) && !w.starts_with(|c: char| c.is_ascii_digit())
}

/// The braces of the declaration of type `ty` in the file (`type T struct {`, `interface T {`,
/// `type T = {`), as a byte range.
fn type_body(text: &str, ty: &str) -> Option<(usize, usize)> {
    [
        format!("type {ty} struct"),
        format!("interface {ty} "),
        format!("type {ty} = "),
    ]
    .iter()
    .find_map(|decl| {
        let at = super::word_offsets(text, decl, super::WordBytes::Ident).next()?;
        let open = at + text[at..].find('{')?;
        let end = balanced_end(text, open, (open + TYPE_BODY_REACH).min(text.len()))?;
        Some((at, end))
    })
}

/// The longest type declaration read for a request's body.
const TYPE_BODY_REACH: usize = 16 * 1024;

/// The variable a line assigns: `form := url.Values{}`, `data = {`, `const body = {`,
/// `var form = new FormData()`.
fn assigned_name(line: &str) -> Option<&str> {
    let code = line.trim_start();
    let code = ["const ", "let ", "var ", "val "]
        .iter()
        .find_map(|k| code.strip_prefix(k))
        .unwrap_or(code);
    let name_end = code.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (name, rest) = code.split_at(name_end);
    let rest = rest.trim_start();
    let rest = rest
        .strip_prefix(':')
        .filter(|r| !r.starts_with('='))
        .map_or(rest, |r| {
            r.trim_start_matches(|c: char| c != '=' && c != '\n')
        });
    (!name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && (rest.starts_with("= ") || rest.starts_with(":= ") || rest.starts_with("=\t")))
    .then_some(name)
}

/// Does `text` hold `word` as a whole identifier?
fn names_word(text: &str, word: &str) -> bool {
    let b = text.as_bytes();
    text.match_indices(word).any(|(at, _)| {
        (at == 0 || !is_ident_byte(b[at - 1]))
            && !b.get(at + word.len()).is_some_and(|&c| is_ident_byte(c))
    })
}

/// The offset after the bracket that closes the one at `open`, if it closes before `limit`.
fn balanced_end(text: &str, open: usize, limit: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate().take(limit).skip(open) {
        match c {
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_of_a_body() {
        for (line, name) in [
            ("\tform := url.Values{}\n", Some("form")),
            ("    payload = {\n", Some("payload")),
            ("  const body: RegisterBody = {\n", Some("body")),
            ("let data = new FormData();\n", Some("data")),
            ("    if payload == {}:\n", None),
            ("    payload[\"token\"] = t\n", None),
            ("    return payload\n", None),
        ] {
            assert_eq!(assigned_name(line), name, "{line:?}");
        }
        let text = "payload = {\n    \"token\": t,\n}\npayload[\"tag_list\"] = tags\nrequests.post(url, data=payload)\n";
        let at = text.find("requests").unwrap();
        let spans = body_builders(text, at, text.len());
        let parts: Vec<_> = spans.iter().map(|&(a, b)| &text[a..b]).collect();
        assert_eq!(
            parts,
            [
                "payload = {\n    \"token\": t,\n}",
                "payload[\"tag_list\"] = tags\n"
            ]
        );
    }

    /// A call is found where the template's last fixed segment is written after a `/` (the
    /// first thing asked of a file), or, for a client's relative path whose only fixed segment
    /// is the first, where that segment is written at all.
    #[test]
    fn a_call_needs_its_last_segment_after_a_slash_but_a_relative_first_segment() {
        let count = |path: &str, template: &str, text: &str| {
            let src = crate::syntax::source::Source::new(
                path,
                text,
                crate::syntax::classify::classify(path).unwrap(),
            );
            calls(template, RestApi::V4, false, &FileCtx::new(&src)).len()
        };
        let lint = "/projects/:id/ci/lint";
        assert_eq!(
            count(
                "run.sh",
                lint,
                "curl \"$CI_API_V4_URL/projects/1/ci/lint\"\n"
            ),
            1
        );
        // Every segment written, `lint` only without its `/`: no call.
        assert_eq!(
            count(
                "run.sh",
                lint,
                "curl \"$CI_API_V4_URL/projects/1/ci\" # lint\n"
            ),
            0
        );
        let go = "func (s *GeoNodesService) ListGeoNodes() {\n\treturn s.client.NewRequest(http.MethodGet, \"geo_nodes\", nil, nil)\n}\n";
        assert_eq!(count("client.go", "/geo_nodes", go), 1);
    }

    #[test]
    fn a_word_before_the_first_slash_is_a_relative_path_s_own_segment() {
        for (text, relative, path) in [
            ("'user/runners'", true, "/runners"),
            ("projects/42/runners", true, "/42/runners"),
            ("gitlab.example.com/runners", false, "/runners"),
            ("localhost/runners", false, "/runners"),
            ("$BASE/runners", false, "/runners"),
            ("%s/runners", false, "/runners"),
            ("myapi/runners", false, "/runners"),
            ("https://gitlab/runners", false, "/runners"),
            ("/api/v4/runners", false, "/runners"),
            ("/runners", false, "/runners"),
        ] {
            let at = text.find("/runners").unwrap();
            let url = url_at(text, at);
            assert_eq!((url.relative, url.path), (relative, path), "{text}");
        }
    }

    #[test]
    fn shorthand_properties_send_their_parameter() {
        let put = "RequestHelper.put()(this, url, {\n  searchParams: {\n    active,\n    integrated,\n  },\n});";
        assert!(sends_param("", put, "active"));
        assert!(sends_param("", put, "integrated"));
        assert!(sends_param(
            "",
            "patch(url, { searchParams: { ...rest, active } })",
            "active"
        ));
        assert!(!sends_param(
            "",
            "put(url, { searchParams: { inactive, reactive_x } })",
            "active"
        ));
        assert!(!sends_param("", "put(url, isActive(active))", "active"));
    }

    #[test]
    fn the_request_helper_of_gitbeaker_names_its_method() {
        assert_eq!(
            method_in("RequestHelper.del()(this, 'runners', {"),
            Some(Method::Delete)
        );
        assert_eq!(
            method_in("RequestHelper.del<void>()(this, 'runners/2')"),
            Some(Method::Delete)
        );
        assert_eq!(method_in("await redis.del(key)"), None);
    }

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
        // Several `*` segments: each takes one or more segments, wherever they fall.
        let many = "/*a/x/*b/y";
        assert!(path_matches(many, "/1/2/x/3/y", false));
        assert!(path_matches(many, "/1/x/2/x/3/y", false));
        assert!(!path_matches(many, "/x/3/y", false));
        assert!(!path_matches(many, "/1/x/y", false));
        assert!(path_matches(many, "/1/x/2/y/z", true));
        assert!(!path_matches(many, "/1/x/2/y/z", false));
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
        // A regular expression over paths names no one endpoint.
        let t = r#"regexp.MustCompilePOSIX("^/api/v4/runners/(.*)/reset_authentication_token$")"#;
        assert!(url_at(t, t.find("/runners").unwrap()).pattern);
        let t = r#"if r.URL.Path != "/api/v4/runners" {"#;
        assert!(!url_at(t, t.find("/runners").unwrap()).pattern);
    }

    #[test]
    fn concatenated_urls() {
        let line = r#"    r = requests.post(base + "/projects/" + str(pid) + "/runners/reset_registration_token", headers=h)"#;
        let joined = joined_strings(line);
        assert_eq!(joined.len(), 1);
        assert_eq!(joined[0].2, "/projects/{}/runners/reset_registration_token");
        assert_eq!(&line[joined[0].0..joined[0].0 + 10], "/projects/");
        assert!(line[..joined[0].1].ends_with("reset_registration_token"));
        let php = "$u = '/projects/' . $id . '/error_tracking/settings';";
        assert_eq!(
            joined_strings(php)[0].2,
            "/projects/{}/error_tracking/settings"
        );
        // Arguments of a call are not one string; a lone string is no concatenation.
        assert!(joined_strings(r#"f("/a/", x, "/b")"#).is_empty());
        assert!(distinctive("/runners/reset_registration_token"));
        assert!(!distinctive("/users"));
        assert!(!distinctive("/projects/:id/packages"));
    }

    #[test]
    fn strings_built_from_adjacent_literals_over_lines() {
        let py = "url = f\"{base}/api/v4/projects/{pid}/\" f\"merge_requests/{iid}/changes\"\n";
        let built = joined_strings(py);
        assert_eq!(built.len(), 1);
        assert_eq!(
            built[0].2,
            "{}/api/v4/projects/{}/merge_requests/{}/changes"
        );
        let split = "url = (\n    f\"{b}/projects/{mr['project_id']}/\"  # project\n    f\"merge_requests/{iid}/changes\"\n)\n";
        assert_eq!(
            joined_strings(split)[0].2,
            "{}/projects/{}/merge_requests/{}/changes"
        );
        let rb = "URI(\"#{@base}/projects/#{pid}/\" \\\n    \"merge_requests/#{iid}/changes\")";
        assert_eq!(
            joined_strings(rb)[0].2,
            "{}/projects/{}/merge_requests/{}/changes"
        );
        let js = "api.get(\n  \"/projects/\" +\n    encodeURIComponent(p) +\n    \"/runners\",\n);";
        assert_eq!(joined_strings(js)[0].2, "/projects/{}/runners");
        // Separate statements, list elements and far-apart lines are not one string.
        assert!(joined_strings("a = \"/x/\"\nb = \"y/z\"\n").is_empty());
        assert!(joined_strings("[\"projects/1/\",\n \"merge_requests/2\"]").is_empty());
        // The arguments of a path-joining call, segment by segment.
        let js = "urlJoin(api, `/projects/${id}`, \"releases\")";
        assert_eq!(joined_strings(js)[0].2, "/projects/{}/releases");
        let py = "urljoin(base, \"/projects/\", pid, \"merge_requests/\", \"changes\")";
        assert_eq!(
            joined_strings(py)[0].2,
            "/projects/{}/merge_requests/changes"
        );
        // Arguments of another call are not joined.
        assert!(joined_strings("log(\"/projects/\", \"releases\")").is_empty());
        assert!(joined_strings("x(\"/a/\"\n\n\n\n\"b/c\")").is_empty());
    }

    #[test]
    fn the_api_base_without_its_leading_slash() {
        for (word, path) in [
            (
                "api/v4/projects/%s/merge_requests",
                "/projects/%s/merge_requests",
            ),
            ("%sapi/v4/runners", "/runners"),
            ("{}/api/v4/runners", "/runners"),
        ] {
            let u = url_at(word, 0);
            assert!(u.api, "{word}");
            assert_eq!(u.path, path, "{word}");
        }
        assert_eq!(api_v4_at("myapi/v4/runners"), None);
        assert_eq!(api_v4_at("/api/v40/runners"), None);
    }

    #[test]
    fn call_expressions() {
        let t = "a = requests.get(x)\nb = requests.put(\n    f\"{BASE}/projects/{pid}/error_tracking/settings\",\n    params={\"active\": True},\n)\nc = requests.patch(y, params={\"integrated\": True})\n";
        let at = t.find("/projects").unwrap();
        let (a, b) = call_span(t, at).unwrap();
        let span = &t[a..b];
        assert!(
            span.starts_with("b = requests.put(") && span.ends_with(')'),
            "{span}"
        );
        assert!(span.contains("active") && !span.contains("integrated"));
        assert!(call_span("url = \"/x\"", 7).is_none());
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
        assert_eq!(method_in("  method = \"PUT\""), Some(Method::Put));
        assert_eq!(method_in("wget --post-data=x u"), Some(Method::Post));
        assert_eq!(method_in("wget -q -O- u"), Some(Method::Get));
        assert_eq!(method_in("url = base + path"), None);
        assert_eq!(
            method_in("rsps.add(method=responses.DELETE, url=u)"),
            Some(Method::Delete)
        );
    }
}
