//! `uplint server` driven over standard input and output as an editor drives it: JSON-RPC
//! messages with `Content-Length` headers. The answers of a whole session are snapshots; the
//! diagnostics are those of `uplint scan` on the same files; what a client may send wrong is
//! answered or ignored, never a crash.

use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Value, json};

mod common;
use common::{file_uri, finding_span, read_lsp_frame};

/// Generous: a debug build on a shared machine.
const WAIT: Duration = Duration::from_secs(60);

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    pending: Vec<Value>,
    root: String,
}

impl Client {
    fn start(root: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_uplint"))
            .arg("server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start uplint server");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(v) = read_lsp_frame(&mut r) {
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            rx,
            next_id: 0,
            pending: Vec::new(),
            root: file_uri(root),
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, msg: Value) {
        let text = msg.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{text}", text.len()).as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn next(&mut self) -> Value {
        match self.rx.recv_timeout(WAIT) {
            Ok(v) => v,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server in {WAIT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// Send a request and wait for its response (notifications in between are kept).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(json!(id))
    }

    fn response(&mut self, id: Value) -> Value {
        loop {
            let v = self.next();
            if v.get("method").is_none() && v["id"] == id {
                return v;
            }
            self.pending.push(v);
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Value {
        if let Some(i) = self.pending.iter().position(|v| is_diagnostics_of(v, uri)) {
            return self.pending.remove(i)["params"]["diagnostics"].take();
        }
        loop {
            let mut v = self.next();
            if is_diagnostics_of(&v, uri) {
                return v["params"]["diagnostics"].take();
            }
            self.pending.push(v);
        }
    }

    fn initialize(&mut self) -> Value {
        let root = self.root.clone();
        let r = self.request(
            "initialize",
            json!({"processId": null, "rootUri": root, "capabilities": {}}),
        );
        self.notify("initialized", json!({}));
        r
    }

    fn open(&mut self, uri: &str, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
        );
    }

    /// Close the input and wait for the exit status; the server's standard error.
    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        (status.code(), err)
    }

    /// A workspace URI's text with the root written `file:///WORKSPACE`.
    fn redact(&self, v: &Value) -> Value {
        serde_json::from_str(&v.to_string().replace(&self.root, "file:///WORKSPACE")).unwrap()
    }
}

fn is_diagnostics_of(v: &Value, uri: &str) -> bool {
    v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri
}

const CI: &str = "build:\n  script:\n    - echo \"é → $CI_JOB_JWT_V2\"\n";
const GRAPHQL: &str =
    "query w($p: ID!) {\n  group(fullPath: $p) {\n    issues {\n      totalWeight\n    }\n  }\n}\n";

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".uplint.yml"), "min-version: \"16.5\"\n").unwrap();
    std::fs::write(dir.path().join(".gitlab-ci.yml"), CI).unwrap();
    std::fs::write(dir.path().join("weight.graphql"), GRAPHQL).unwrap();
    dir
}

#[test]
fn a_session_diagnostics_code_actions_hover_change_save_shutdown() {
    let dir = workspace();
    let mut c = Client::start(dir.path());
    let init = c.initialize();
    insta::assert_json_snapshot!("initialize", init);
    let ci = file_uri(&dir.path().join(".gitlab-ci.yml"));
    let gql = file_uri(&dir.path().join("weight.graphql"));
    c.open(&ci, "yaml", CI);
    c.open(&gql, "graphql", GRAPHQL);
    let ci_diags = c.diagnostics(&ci);
    // `é` and `→` are 5 bytes and 2 UTF-16 units: `CI_JOB_JWT_V2` (after `$`) starts at byte 20
    // of its line, UTF-16 unit 17.
    assert_eq!(
        ci_diags[0]["range"]["start"],
        json!({"line": 2, "character": 17})
    );
    assert_eq!(
        ci_diags[0]["range"]["end"],
        json!({"line": 2, "character": 30})
    );
    insta::assert_json_snapshot!("diagnostics_ci", ci_diags);
    let gql_diags = c.diagnostics(&gql);
    insta::assert_json_snapshot!("diagnostics_graphql", gql_diags);

    let range = gql_diags[0]["range"].clone();
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": gql}, "range": range, "context": {"diagnostics": gql_diags}}),
    );
    insta::assert_json_snapshot!("code_actions_graphql", c.redact(&actions));
    let preferred: Vec<&Value> = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["isPreferred"] == true)
        .collect();
    assert_eq!(preferred.len(), 1, "one preferred fix: {actions}");

    // The cursor at the start of the line, with the line's diagnostics (as Neovim and VS Code
    // ask): the same fix.
    let line_start =
        json!({"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}});
    let at_start = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": gql}, "range": line_start, "context": {"diagnostics": gql_diags}}),
    );
    assert_eq!(at_start["result"][0], actions["result"][0]);

    let range = ci_diags[0]["range"].clone();
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": ci}, "range": range, "context": {"diagnostics": ci_diags}}),
    );
    insta::assert_json_snapshot!("code_actions_ci", c.redact(&actions));

    let fix_all = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": gql}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
               "context": {"diagnostics": [], "only": ["source.fixAll"]}}),
    );
    insta::assert_json_snapshot!("fix_all_graphql", c.redact(&fix_all));

    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": gql}, "position": {"line": 3, "character": 9}}),
    );
    insta::assert_json_snapshot!("hover_graphql", hover);
    let nothing = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": gql}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(nothing["result"], Value::Null);

    // The fix applied by the editor: no finding left.
    let fixed = GRAPHQL.replace("totalWeight", "totalIssueWeight");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": gql, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(c.diagnostics(&gql), json!([]));
    // Saved with the old text again: found again.
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": gql}, "text": GRAPHQL}),
    );
    assert_eq!(c.diagnostics(&gql), gql_diags);
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": ci}}),
    );
    assert_eq!(c.diagnostics(&ci), json!([]));

    let shutdown = c.request("shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null, "{shutdown}");
    c.notify("exit", Value::Null);
    let (status, err) = c.finish();
    assert_eq!(status, Some(0), "{err}");
}

/// The findings of `uplint scan --format json` on a file: (id, line, column, end column).
fn scanned(dir: &Path, file: &str) -> Vec<(String, u64, u64, u64)> {
    let out = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .current_dir(dir)
        .args(["scan", "--format", "json", file])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(finding_span)
        .collect()
}

#[test]
fn diagnostics_are_the_findings_of_a_scan_of_the_same_file() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scan");
    let files = [
        "ci/.gitlab-ci.yml",
        "graphql/queries/security.gql",
        "code-js/src/projects.ts",
        "distinctive/app/oidc.properties",
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(dir.path());
    c.initialize();
    let mut total = 0;
    for f in files {
        let src = fixtures.join(f);
        let text = std::fs::read_to_string(&src).unwrap();
        let dest = dir.path().join(f);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::write(&dest, &text).unwrap();
        let u = file_uri(&dest);
        c.open(&u, "", &text);
        let diags = c.diagnostics(&u);
        let lines: Vec<&str> = text.lines().collect();
        // LSP columns count UTF-16 units; the scan's count characters.
        let char_col = |line: u64, units: u64| -> u64 {
            let l = lines[line as usize];
            let mut n = 0;
            let mut chars = 0;
            for c in l.chars() {
                if n >= units {
                    break;
                }
                n += c.len_utf16() as u64;
                chars += 1;
            }
            chars + 1
        };
        let got: Vec<(String, u64, u64, u64)> = diags
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let r = &d["range"];
                let line = r["start"]["line"].as_u64().unwrap();
                let end_line = r["end"]["line"].as_u64().unwrap();
                (
                    d["code"].as_str().unwrap().to_string(),
                    line + 1,
                    char_col(line, r["start"]["character"].as_u64().unwrap()),
                    char_col(end_line, r["end"]["character"].as_u64().unwrap()),
                )
            })
            .collect();
        let want = scanned(dir.path(), f);
        assert!(!want.is_empty(), "{f}: the fixture has findings");
        assert_eq!(got, want, "{f}");
        total += want.len();
    }
    assert!(total >= 4);
    c.request("shutdown", Value::Null);
    c.notify("exit", Value::Null);
    assert_eq!(c.finish().0, Some(0));
}

#[test]
fn the_configuration_is_read_again_when_it_is_saved() {
    let dir = workspace();
    let mut c = Client::start(dir.path());
    c.initialize();
    let gql = file_uri(&dir.path().join("weight.graphql"));
    c.open(&gql, "graphql", GRAPHQL);
    assert_eq!(c.diagnostics(&gql).as_array().unwrap().len(), 1);
    let config = dir.path().join(".uplint.yml");
    std::fs::write(&config, "ignore: [graphql-total-weight]\n").unwrap();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": file_uri(&config)}}),
    );
    assert_eq!(c.diagnostics(&gql), json!([]));
    // A broken file: said, and the defaults apply.
    std::fs::write(&config, "target: [\n").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&config), "type": 2}]}),
    );
    assert_eq!(c.diagnostics(&gql).as_array().unwrap().len(), 1);
    let said = c
        .pending
        .iter()
        .find(|v| v["method"] == "window/showMessage")
        .cloned()
        .expect("the broken configuration is said");
    assert!(
        said["params"]["message"]
            .as_str()
            .unwrap()
            .contains(".uplint.yml")
    );
    let (status, _) = c.finish();
    assert_eq!(status, Some(1), "the input ended without shutdown");
}

#[test]
fn what_a_client_sends_wrong_is_answered_or_ignored() {
    let dir = workspace();
    let mut c = Client::start(dir.path());
    // Before initialize: refused.
    let early = c.request("textDocument/hover", json!({}));
    assert_eq!(early["error"]["code"], -32002);
    c.initialize();
    // Not JSON, not a message, a frame without a length: answered or skipped.
    c.raw(b"Content-Length: 5\r\n\r\n{oops");
    let parse_error = c.next();
    assert_eq!(parse_error["error"]["code"], -32700, "{parse_error}");
    c.raw(b"Content-Type: x\r\n\r\n");
    c.send(json!({"jsonrpc": "2.0", "id": "q", "method": 3}));
    assert_eq!(c.response(json!("q"))["error"]["code"], -32600);
    // Unknown methods.
    let unknown = c.request("textDocument/rename", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    c.notify("$/unknownNotification", json!([1, 2]));
    // Bad params.
    let bad = c.request("textDocument/hover", json!({"textDocument": 5}));
    assert_eq!(bad["error"]["code"], -32602);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": 1}}));
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": "file:///nowhere", "version": 1}, "contentChanges": [{"text": "x"}]}));
    // A document that is not a file, by its language; changed by range past its end.
    let untitled = "untitled:Untitled-1";
    c.open(untitled, "graphql", GRAPHQL);
    assert_eq!(c.diagnostics(untitled)[0]["code"], "graphql-total-weight");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": untitled, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 90, "character": 0}, "end": {"line": 99, "character": 9}}, "text": "\n# é 😀"}]}),
    );
    assert_eq!(c.diagnostics(untitled).as_array().unwrap().len(), 1);
    // Positions out of range, in a document with a finding; a document never opened.
    for (line, character) in [(0, 999_999), (999_999, 0), (u32::MAX, u32::MAX)] {
        let p = json!({"line": line, "character": character});
        let h = c.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": untitled}, "position": p}),
        );
        assert!(h.get("result").is_some(), "{h}");
        let a = c.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": untitled}, "range": {"start": p, "end": p}, "context": {"diagnostics": []}}),
        );
        assert!(a.get("result").is_some(), "{a}");
    }
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": "file:///nowhere"}, "position": {"line": 0, "character": 0}}));
    assert_eq!(h["result"], Value::Null);
    // Binary-looking and partial content.
    let ci = file_uri(&dir.path().join(".gitlab-ci.yml"));
    c.open(
        &ci,
        "yaml",
        "job:\n  script: [\"$CI_JOB_JWT_V2\"\n\u{0}\u{1}: {{ [",
    );
    c.diagnostics(&ci);
    // Still serving; exit without shutdown ends it with status 1 and no panic.
    let alive = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": ci}, "position": {"line": 0, "character": 0}}),
    );
    assert!(alive.get("result").is_some());
    c.notify("exit", Value::Null);
    let (status, err) = c.finish();
    assert_eq!(status, Some(1));
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn requests_after_shutdown_are_refused() {
    let dir = workspace();
    let mut c = Client::start(dir.path());
    c.initialize();
    c.request("shutdown", Value::Null);
    let after = c.request("textDocument/hover", json!({}));
    assert_eq!(after["error"]["code"], -32600);
    c.notify("exit", Value::Null);
    assert_eq!(c.finish().0, Some(0));
}

mod fuzzed {
    use super::*;
    use proptest::prelude::*;

    const METHODS: [&str; 12] = [
        "textDocument/didOpen",
        "textDocument/didChange",
        "textDocument/didSave",
        "textDocument/didClose",
        "textDocument/codeAction",
        "textDocument/hover",
        "workspace/didChangeWatchedFiles",
        "initialized",
        "initialize",
        "$/cancelRequest",
        "textDocument/completion",
        "shutdown",
    ];

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            prop_oneof![
                Just("file:///w/.gitlab-ci.yml".to_string()),
                Just("untitled:1".to_string()),
                Just("totalWeight $CI_JOB_JWT_V2 é😀\n".to_string()),
                "\\PC{0,12}",
            ]
            .prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                prop::collection::btree_map(
                    prop_oneof![
                        Just("textDocument".to_string()),
                        Just("uri".to_string()),
                        Just("text".to_string()),
                        Just("range".to_string()),
                        Just("position".to_string()),
                        Just("line".to_string()),
                        Just("character".to_string()),
                        Just("contentChanges".to_string()),
                        Just("languageId".to_string()),
                        Just("version".to_string()),
                        Just("context".to_string()),
                        Just("changes".to_string()),
                    ],
                    inner,
                    0..4
                )
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// A frame: a message with a method (request or notification) and any params, or bytes.
    fn frame() -> impl Strategy<Value = Vec<u8>> {
        let message = (
            prop::sample::select(&METHODS[..]),
            prop::option::of(any::<u16>()),
            json_value(),
        )
            .prop_map(|(method, id, params)| {
                let mut m = json!({"jsonrpc": "2.0", "method": method, "params": params});
                if let Some(id) = id {
                    m["id"] = json!(id);
                }
                let text = m.to_string();
                format!("Content-Length: {}\r\n\r\n{text}", text.len()).into_bytes()
            });
        let garbage = prop::collection::vec(any::<u8>(), 0..40).prop_map(|body| {
            let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
            f.extend(body);
            f
        });
        prop_oneof![4 => message, 1 => garbage]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        #[test]
        fn the_server_survives_a_fuzzed_stream(frames in prop::collection::vec(frame(), 1..40)) {
            let dir = workspace();
            let mut c = Client::start(dir.path());
            c.initialize();
            for f in &frames {
                c.raw(f);
            }
            // Still answering, whatever came before (a `shutdown` among the frames makes this
            // one refused, and still answered).
            c.send(json!({"jsonrpc": "2.0", "id": "final", "method": "shutdown"}));
            let end = c.response(json!("final"));
            prop_assert!(end.get("result").is_some() || end.get("error").is_some());
            c.notify("exit", Value::Null);
            let (status, err) = c.finish();
            prop_assert_eq!(status, Some(0), "{}", err);
            prop_assert!(!err.contains("panicked"));
        }
    }
}
