//! Regions of a code file that are not the program's own requests: the HTTP mocks of tests
//! (`nock(…)`, `responses.add(…)`, `httptest.NewServer(…)`, WebMock's `stub_request(…)`, msw's
//! `http.get(…)`) and the definitions of server routes (Flask's `@app.route(…)`, Express's
//! `app.post(…)`, Sinatra's `post '/…' do`, Go's `http.HandleFunc(…)`, gin's `r.POST(…)`).
//! A finding in a mock is a test's; a server route is not a client's call at all.
//!
//! Read only for files that have hits, once per file: a search for each marker, then the
//! balanced parentheses of the call (and of the calls chained to it) it opens.

/// What a region is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Role {
    /// A test's construct (a mock): findings there are the tests'.
    pub test: bool,
    /// A server's route definition: the path written there is served, not requested.
    pub route: bool,
}

const MOCK: Role = Role {
    test: true,
    route: false,
};
const ROUTE: Role = Role {
    test: false,
    route: true,
};
/// A route of a test's server (`mux.HandleFunc` of go's httptest, msw's handlers).
const MOCK_ROUTE: Role = Role {
    test: true,
    route: true,
};

use aho_corasick::Span;
use aho_corasick::packed::{self, Searcher};
use std::sync::LazyLock;

/// A region of a file, by byte offsets, and its role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub start: usize,
    pub end: usize,
    pub role: Role,
}

/// Calls that open a mock or a route: the text ends with the call's `(`. A marker that starts
/// with a letter must not follow a letter, digit, `_` or `.` (`user.Get(` is no `r.Get(`).
const CALLS: &[(&str, Role)] = &[
    // JavaScript: nock, fetch-mock, axios-mock-adapter, sinon.
    ("nock(", MOCK),
    ("fetchMock.", MOCK),
    (".onGet(", MOCK),
    (".onPost(", MOCK),
    (".onPut(", MOCK),
    (".onPatch(", MOCK),
    (".onDelete(", MOCK),
    (".onAny(", MOCK),
    (".respondWith(", MOCK),
    // Python: responses, requests-mock, httpretty, respx.
    ("responses.add(", MOCK),
    ("responses.get(", MOCK),
    ("responses.post(", MOCK),
    ("responses.put(", MOCK),
    ("responses.patch(", MOCK),
    ("responses.delete(", MOCK),
    ("responses.upsert(", MOCK),
    ("responses.replace(", MOCK),
    ("register_uri(", MOCK),
    ("requests_mock.", MOCK),
    ("httpretty.", MOCK),
    ("respx.", MOCK),
    // Ruby: WebMock.
    ("stub_request(", MOCK),
    ("stub_request ", MOCK),
    // Go: httptest, gock, httpmock; a test's mux.
    ("httptest.NewServer(", MOCK),
    ("httptest.NewTLSServer(", MOCK),
    ("httptest.NewUnstartedServer(", MOCK),
    ("gock.New(", MOCK),
    ("httpmock.RegisterResponder(", MOCK),
    ("mux.HandleFunc(", MOCK_ROUTE),
    ("mux.Handle(", MOCK_ROUTE),
    // Go servers: net/http, gorilla, gin, echo, chi.
    (".HandleFunc(", ROUTE),
    ("http.Handle(", ROUTE),
    (".GET(", ROUTE),
    (".POST(", ROUTE),
    (".PUT(", ROUTE),
    (".PATCH(", ROUTE),
    (".DELETE(", ROUTE),
    ("r.Get(", ROUTE),
    ("r.Post(", ROUTE),
    ("r.Put(", ROUTE),
    ("r.Patch(", ROUTE),
    ("r.Delete(", ROUTE),
    // JavaScript servers: Express, Fastify, Koa routers (FastAPI's `app.post` too).
    ("app.get(", ROUTE),
    ("app.post(", ROUTE),
    ("app.put(", ROUTE),
    ("app.patch(", ROUTE),
    ("app.delete(", ROUTE),
    ("app.all(", ROUTE),
    ("router.get(", ROUTE),
    ("router.post(", ROUTE),
    ("router.put(", ROUTE),
    ("router.patch(", ROUTE),
    ("router.delete(", ROUTE),
    ("router.all(", ROUTE),
    ("server.get(", ROUTE),
    ("server.post(", ROUTE),
    ("fastify.get(", ROUTE),
    ("fastify.post(", ROUTE),
];

/// msw's handlers: read only in a file that names msw (elsewhere `http.get(` is Node's client).
const MSW_CALLS: &[(&str, Role)] = &[
    ("http.get(", MOCK_ROUTE),
    ("http.post(", MOCK_ROUTE),
    ("http.put(", MOCK_ROUTE),
    ("http.patch(", MOCK_ROUTE),
    ("http.delete(", MOCK_ROUTE),
    ("http.all(", MOCK_ROUTE),
    ("rest.get(", MOCK_ROUTE),
    ("rest.post(", MOCK_ROUTE),
    ("rest.put(", MOCK_ROUTE),
    ("rest.patch(", MOCK_ROUTE),
    ("rest.delete(", MOCK_ROUTE),
    ("rest.all(", MOCK_ROUTE),
];

/// The calls of a decorator or annotation line (`@app.route(`, `@router.post(`,
/// `@PostMapping(`) that define a route.
const DECORATED: &[&str] = &[
    ".route(",
    ".api_route(",
    ".get(",
    ".post(",
    ".put(",
    ".patch(",
    ".delete(",
    "Mapping(",
    "@Path(",
];

/// Annotations that declare an interface as an HTTP client of another service.
const DECLARATIVE_CLIENTS: [&str; 3] = ["@RegisterRestClient", "@FeignClient", "@HttpExchange"];

/// Sinatra's, Grape's and Rails routes' verbs: `post '/api/v4/runners' do`.
const RUBY_VERBS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// How far before a hit's line a mock or route that holds the hit is looked for: a call opened
/// further back (a mock of thousands of lines) is not seen. The markers are searched for only
/// near the hits, so a long file with a hit at its end costs a window, not the file (a 10 MB
/// generated client: 8 ms of marker search for one hit on its last line before this bound).
pub const REACH: usize = 256 * 1024;

/// The mocks and routes of a code file's text that can hold one of the offsets `hits`: those
/// that start on a hit's line or at most [`REACH`] bytes before it, in order of their start.
pub fn regions(text: &str, hits: &[usize]) -> Vec<Region> {
    regions_within(text, hits, REACH)
}

/// [`regions`] with the reach `reach`.
fn regions_within(text: &str, hits: &[usize], reach: usize) -> Vec<Region> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    if hits.is_empty() {
        return out;
    }
    let msw = memchr::memmem::find(bytes, b"msw").is_some();
    // A declarative HTTP client's interface (MicroProfile `@RegisterRestClient`, Spring Cloud
    // `@FeignClient`, Spring's `@HttpExchange`) annotates the requests it sends with `@Path(` and
    // `@GetMapping(`: those are calls of the API, not routes the file serves. Asked once, and
    // only where a decorated line is met.
    let client = std::cell::LazyCell::new(|| {
        DECLARATIVE_CLIENTS
            .iter()
            .any(|c| memchr::memmem::find(bytes, c.as_bytes()).is_some())
    });
    for (from, upto) in windows(bytes, hits, reach) {
        // Markers and lines are read in the window (from a line's start to the end of a hit's
        // line); a call they open is followed to its end wherever that is.
        markers(bytes, from, upto, &CALL_MARKERS, CALLS, &mut out);
        if msw {
            markers(bytes, from, upto, &MSW_MARKERS, MSW_CALLS, &mut out);
        }
        lines(text, from, upto, &client, &mut out);
    }
    out.sort_by_key(|r| (r.start, r.end, r.role.test, r.role.route));
    out
}

/// The parts of the text read for the hits: from the start of the line `reach` bytes before a
/// hit's line to the end of the hit's line (with its line break), the overlapping ones merged.
fn windows(bytes: &[u8], hits: &[usize], reach: usize) -> Vec<(usize, usize)> {
    let mut hits = hits.to_vec();
    hits.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for h in hits {
        let h = h.min(bytes.len());
        // A hit before the last window's end is on its lines (a line of many hits is read once).
        if out.last().is_some_and(|last| h < last.1) {
            continue;
        }
        let upto = (line_end(bytes, h) + 1).min(bytes.len());
        let from = line_start(bytes, line_start(bytes, h).saturating_sub(reach));
        match out.last_mut() {
            Some(last) if from <= last.1 => last.1 = last.1.max(upto),
            _ => out.push((from, upto)),
        }
    }
    out
}

/// The calls `calls`' markers open, found in one pass of `searcher` (built from those markers,
/// in order). Each search starts one byte after the last match's start, so that overlapping
/// markers are all seen (`mux.HandleFunc(` is also `.HandleFunc(`; `fetchMock.onGet(` holds
/// `.onGet(`); no marker is a prefix of another.
fn markers(
    bytes: &[u8],
    mut from: usize,
    upto: usize,
    searcher: &Searcher,
    calls: &[(&str, Role)],
    out: &mut Vec<Region>,
) {
    while let Some(m) = searcher.find_in(&bytes[..upto], Span::from(from..upto)) {
        from = m.start() + 1;
        let (marker, role) = calls[m.pattern().as_usize()];
        call(bytes, m.start(), marker.as_bytes(), role, out);
    }
}

/// A searcher of the literals of `calls` (SIMD, for at most 64 of them: hence two sets).
fn searcher(calls: &[(&str, Role)]) -> Searcher {
    let mut builder = packed::Config::new()
        .match_kind(packed::MatchKind::LeftmostLongest)
        .builder();
    builder.extend(calls.iter().map(|&(m, _)| m));
    builder
        .build()
        .expect("a packed searcher takes up to 128 short literals")
}

static CALL_MARKERS: LazyLock<Searcher> = LazyLock::new(|| searcher(CALLS));
static MSW_MARKERS: LazyLock<Searcher> = LazyLock::new(|| searcher(MSW_CALLS));

/// The role of the regions that hold `offset` (both flags of all of them), if any does.
pub fn role_at(regions: &[Region], offset: usize) -> Option<Role> {
    regions
        .iter()
        .take_while(|r| r.start <= offset)
        .filter(|r| offset < r.end)
        .map(|r| r.role)
        .reduce(|a, b| Role {
            test: a.test || b.test,
            route: a.route || b.route,
        })
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The call that `marker`, found at `at`, opens: from its line's start to the end of its
/// parentheses and of the calls chained to it (`nock(…).get(…).reply(…)`).
fn call(bytes: &[u8], at: usize, m: &[u8], role: Role, out: &mut Vec<Region>) {
    if is_word(m[0]) && at > 0 && (is_word(bytes[at - 1]) || bytes[at - 1] == b'.') {
        return;
    }
    let start = line_start(bytes, at);
    let after = at + m.len();
    let end = if m.last() == Some(&b'(') {
        chain_end(bytes, after - 1).unwrap_or_else(|| line_end(bytes, at))
    } else {
        // `fetchMock.get(…)`, `stub_request :post, …`: the line, and a call it opens.
        match memchr::memchr(b'(', &bytes[after..line_end(bytes, at)]) {
            Some(i) => chain_end(bytes, after + i).unwrap_or_else(|| line_end(bytes, at)),
            None => line_end(bytes, at),
        }
    };
    // A server route's handler body (`app.post('/x', async (req, res) => { … })`, a Go
    // `func(w, r) { … }`) is the server's own code: the requests it makes to other services
    // are calls. The route is what comes before the body: its path and options.
    let end = if role == ROUTE {
        handler_body(&bytes[after..end]).map_or(end, |i| after + i)
    } else {
        end
    };
    out.push(Region { start, end, role });
}

/// Where a handler's body opens in a route's arguments: the first `{` after `=>` or a `)` (an
/// arrow function's or a function literal's body), not an options object (`{ schema }` after
/// `,` or `(`).
fn handler_body(args: &[u8]) -> Option<usize> {
    args.iter().enumerate().find_map(|(i, &c)| {
        if c != b'{' {
            return None;
        }
        let before = &args[..i];
        let end = before
            .iter()
            .rposition(|c| !c.is_ascii_whitespace())
            .map_or(0, |k| k + 1);
        let before = &before[..end];
        (before.ends_with(b"=>") || before.ends_with(b")")).then_some(i)
    })
}

/// Decorator lines that define a route, and Ruby's route lines, of `from..upto` (`from` a line's
/// start). `client`: does the file declare an HTTP client of another service?
fn lines(
    text: &str,
    from: usize,
    upto: usize,
    client: &std::cell::LazyCell<bool, impl FnOnce() -> bool>,
    out: &mut Vec<Region>,
) {
    let bytes = text.as_bytes();
    let head = &bytes[from..upto];
    // Only a line that starts with a decorator's `@`, or with a Ruby verb and ` '/`, can define
    // a route: those lines are found by searching for `@`, ` '/` and ` "/`, not line by line.
    let mut starts: Vec<usize> = memchr::memchr_iter(b'@', head)
        .chain(memchr::memmem::find_iter(head, b" '/"))
        .chain(memchr::memmem::find_iter(head, b" \"/"))
        .filter_map(|at| {
            let at = from + at;
            let start = line_start(bytes, at);
            let lead = text[start..at].trim_start();
            (lead.is_empty() || RUBY_VERBS.contains(&lead)).then_some(start)
        })
        .collect();
    starts.sort_unstable();
    starts.dedup();
    for line_start in starts {
        let end = (line_end(bytes, line_start) + 1).min(upto);
        let line = &text[line_start..end];
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        // `@app.route(`: the decorator's name with its `(`.
        let head = trimmed.find('(').map(|i| &trimmed[..=i]);
        if let Some(head) = head.filter(|h| h.starts_with('@'))
            && DECORATED.iter().any(|d| head.ends_with(d))
        {
            if **client {
                continue;
            }
            let open = line_start + indent + head.len() - 1;
            let end = chain_end(bytes, open).unwrap_or(end);
            out.push(Region {
                start: line_start,
                end,
                role: ROUTE,
            });
        } else if ruby_route(trimmed) {
            out.push(Region {
                start: line_start,
                end,
                role: ROUTE,
            });
        }
    }
}

/// `post '/api/v4/runners' do`, `get "/x" do |id|`, `post '/x', to: 'a#b'`: a route of
/// Sinatra, Grape or Rails (a client's call of the gitlab gem has parentheses).
fn ruby_route(line: &str) -> bool {
    let Some((verb, rest)) = line.split_once(' ') else {
        return false;
    };
    if !RUBY_VERBS.contains(&verb) || !(rest.starts_with("'/") || rest.starts_with("\"/")) {
        return false;
    }
    let rest = rest.trim_end();
    rest.ends_with(" do") || rest.contains(" do |") || rest.contains("to:")
}

fn line_start(bytes: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1)
}

fn line_end(bytes: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i)
}

/// The end of the parentheses opened at `open`, and of the calls chained after them
/// (`.get(…)` on the same or a following line). `None`: they do not close.
fn chain_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut end = balanced(bytes, open)?;
    loop {
        let mut i = end;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes.get(i) != Some(&b'.') {
            return Some(end);
        }
        i += 1;
        while i < bytes.len() && is_word(bytes[i]) {
            i += 1;
        }
        if bytes.get(i) != Some(&b'(') {
            return Some(end);
        }
        match balanced(bytes, i) {
            Some(e) => end = e,
            None => return Some(end),
        }
    }
}

/// The offset after the `)` that closes the `(` at `open`, skipping strings (a quote's string
/// ends at its line's end, a backtick's may span lines). `None`: it does not close.
fn balanced(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            q @ (b'"' | b'\'' | b'`') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q && (q == b'`' || bytes[i] != b'\n') {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The roles at the offset of `needle`'s first occurrence after `after`.
    fn role(text: &str, after: &str, needle: &str) -> Option<Role> {
        let from = text.find(after).unwrap();
        let at = from + text[from..].find(needle).unwrap();
        role_at(&regions(text, &[at]), at)
    }

    #[test]
    fn mocks_of_each_library() {
        let nock = "const scope = nock('https://gitlab.example.com')\n  .post('/api/v4/runners')\n  .reply(201, {token: 'x'});\nawait fetch('/api/v4/runners');\n";
        assert_eq!(role(nock, "", ".post("), Some(MOCK));
        assert_eq!(role(nock, "reply", "token"), Some(MOCK));
        assert_eq!(role(nock, "await", "/api/v4"), None);
        let py = "responses.add(\n    responses.POST,\n    \"https://gitlab.example.com/api/v4/runners\",\n    json={\"token\": \"x\"},\n)\nrequests.post(f\"{url}/api/v4/runners\")\n";
        assert_eq!(role(py, "", "/api/v4"), Some(MOCK));
        assert_eq!(role(py, "requests.post", "/api/v4"), None);
        let go = "mux.HandleFunc(\"/api/v4/runners\", func(w http.ResponseWriter, r *http.Request) {\n\ttestMethod(t, r, \"POST\")\n\tfmt.Fprint(w, `{\"id\": 1, \"token\": \"x\"}`)\n})\nreq, _ := http.NewRequest(\"POST\", base+\"/api/v4/runners\", nil)\n";
        assert_eq!(role(go, "", "/api/v4"), Some(MOCK_ROUTE));
        assert_eq!(role(go, "Fprint", "token"), Some(MOCK_ROUTE));
        assert_eq!(role(go, "NewRequest", "/api/v4"), None);
        let rb = "stub_request(:post, \"https://gitlab.example.com/api/v4/runners\")\n  .to_return(body: '{}')\n";
        assert_eq!(role(rb, "", "/api/v4"), Some(MOCK));
        let msw = "import { http } from 'msw'\nhttp.post('/api/v4/runners', () => HttpResponse.json({}))\n";
        assert_eq!(role(msw, "http.post", "/api/v4"), Some(MOCK_ROUTE));
        // Without msw, `http.get(` is Node's client.
        let node = "http.get('https://gitlab.example.com/api/v4/runners', cb)\n";
        assert_eq!(role(node, "", "/api/v4"), None);
    }

    #[test]
    fn server_routes() {
        let flask = "@app.route('/api/v4/runners', methods=['POST'])\ndef register():\n    return jsonify(token='x')\n";
        assert_eq!(role(flask, "", "/api/v4"), Some(ROUTE));
        assert_eq!(role(flask, "def", "token"), None);
        let fastapi = "@router.post(\"/api/v4/runners\")\nasync def register(): ...\n";
        assert_eq!(role(fastapi, "", "/api/v4"), Some(ROUTE));
        let express =
            "app.post('/api/v4/runners', (req, res) => {\n  res.json({ token: 'x' })\n})\n";
        assert_eq!(role(express, "", "/api/v4"), Some(ROUTE));
        let sinatra = "post '/api/v4/runners' do\n  json token: 'x'\nend\n";
        assert_eq!(role(sinatra, "", "/api/v4"), Some(ROUTE));
        let gin = "r.POST(\"/api/v4/runners\", register)\n";
        assert_eq!(role(gin, "", "/api/v4"), Some(ROUTE));
        let go = "http.HandleFunc(\"/api/v4/runners\", register)\n";
        assert_eq!(role(go, "", "/api/v4"), Some(ROUTE));
        let spring = "@PostMapping(\"/api/v4/runners\")\npublic Runner register() {}\n";
        assert_eq!(role(spring, "", "/api/v4"), Some(ROUTE));
    }

    #[test]
    fn client_calls_are_no_routes() {
        for text in [
            "post('/runners', body: options)\n",
            "resp = user.Get(\"/api/v4/runners\")\n",
            "client.R().Get(\"/api/v4/runners\")\n",
            "api.get('/api/v4/runners')\n",
            "requests.post(url + '/api/v4/runners')\n",
            "@property\ndef runners(self): return self.get('/api/v4/runners')\n",
        ] {
            assert_eq!(role(text, "", "/runners"), None, "{text}");
        }
    }

    /// The regions as the first version found them: a search per marker, then each line.
    fn regions_marker_by_marker(text: &str) -> Vec<Region> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let msw = memchr::memmem::find(bytes, b"msw").is_some();
        let sets: &[&[(&str, Role)]] = if msw { &[CALLS, MSW_CALLS] } else { &[CALLS] };
        for &(marker, role) in sets.iter().copied().flatten() {
            for at in memchr::memmem::find_iter(bytes, marker.as_bytes()) {
                call(bytes, at, marker.as_bytes(), role, &mut out);
            }
        }
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let trimmed = line.trim_start();
            let end = start + line.len();
            let head = trimmed.find('(').map(|i| &trimmed[..=i]);
            if let Some(head) = head.filter(|h| h.starts_with('@'))
                && DECORATED.iter().any(|d| head.ends_with(d))
            {
                let open = start + (line.len() - trimmed.len()) + head.len() - 1;
                let end = chain_end(bytes, open).unwrap_or(end);
                out.push(Region {
                    start,
                    end,
                    role: ROUTE,
                });
            } else if ruby_route(trimmed) {
                out.push(Region {
                    start,
                    end,
                    role: ROUTE,
                });
            }
            start = end;
        }
        out.sort_by_key(|r| (r.start, r.end, r.role.test, r.role.route));
        out
    }

    proptest::proptest! {
        /// The one-pass search finds what a search per marker finds, overlapping markers
        /// (`mux.HandleFunc(`, `fetchMock.onGet(`) and lines with other spaces included.
        #[test]
        fn one_pass_finds_what_each_marker_finds(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "nock(", "fetchMock.", ".onGet(", "mux.HandleFunc(", ".HandleFunc(", "r.Get(",
                "app.post(", "http.get(", "msw", "stub_request ", "responses.add(", "respx.",
                "@app.route(", "@PostMapping(", "post '/x' do", "get \"/y\", to: 'a#b'",
                "(", ")", "'", "\"", "`", "\n", " ", "\t", "\r", "\u{a0}", ".", "x", "user",
            ]), 0..40),
            percent in 0usize..=100,
        ) {
            let text = parts.concat();
            let all = regions_marker_by_marker(&text);
            proptest::prop_assert_eq!(&regions(&text, &[text.len()]), &all, "{:?}", text);
            // Up to an offset, the roles of the offsets before it are those of all regions.
            let cut = text.len() * percent / 100;
            let upto = (0..=cut).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            let some = regions(&text, &[upto]);
            for at in 0..=upto {
                proptest::prop_assert_eq!(role_at(&some, at), role_at(&all, at), "{:?} {}", text, upto);
            }
        }
    }

    proptest::proptest! {
        /// With a reach, the role of a hit is that of the regions that start at most the reach
        /// before its line (and of no region the whole file lacks).
        #[test]
        fn the_windows_see_what_starts_within_reach(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "nock(", ".onGet(", "mux.HandleFunc(", "app.post(", "@app.route(", "post '/x' do",
                "(", ")", "'", "`", "\n", " ", ".", "x", "user",
            ]), 0..60),
            picks in proptest::collection::vec(0usize..=100, 1..4),
            reach in 0usize..40,
        ) {
            let text = parts.concat();
            let all = regions_marker_by_marker(&text);
            let hits: Vec<usize> = picks.iter().map(|p| text.len() * p / 100).collect();
            let some = regions_within(&text, &hits, reach);
            let bytes = text.as_bytes();
            for &h in &hits {
                let from = line_start(bytes, line_start(bytes, h).saturating_sub(reach));
                let near: Vec<Region> = all.iter().copied().filter(|r| r.start >= from).collect();
                let flags = |r: Option<Role>| r.map_or((false, false), |r| (r.test, r.route));
                let (near, some, all) =
                    (flags(role_at(&near, h)), flags(role_at(&some, h)), flags(role_at(&all, h)));
                if hits.len() == 1 {
                    proptest::prop_assert_eq!(some, near, "{:?} {}", text, h);
                }
                // Another hit's window, merged with this one's, may see further back.
                proptest::prop_assert!(near.0 <= some.0 && some.0 <= all.0, "{:?} {}", text, h);
                proptest::prop_assert!(near.1 <= some.1 && some.1 <= all.1, "{:?} {}", text, h);
            }
        }
    }

    #[test]
    fn a_mock_far_above_its_hit_is_not_read() {
        // Past the reach, the marker is not searched for: the file's size does not matter.
        let far = format!(
            "nock('https://x')\n{}fetch('/api/v4/runners')\n",
            "// x\n".repeat(REACH / 5 + 1)
        );
        let hit = far.find("/api").unwrap();
        assert_eq!(role_at(&regions(&far, &[hit]), hit), None);
        let open = format!(
            "nock('https://x', () =>\n{}fetch('/api/v4/runners'))\n",
            "// x\n".repeat(100)
        );
        let hit = open.find("/api").unwrap();
        assert_eq!(role_at(&regions(&open, &[hit]), hit), Some(MOCK));
    }

    #[test]
    fn an_unclosed_call_is_its_line() {
        let text = "nock('https://x'\nfetch('/api/v4/runners')\n";
        assert_eq!(role(text, "", "https"), Some(MOCK));
        assert_eq!(role(text, "fetch", "/api"), None);
    }
}
