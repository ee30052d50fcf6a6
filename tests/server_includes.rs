//! `uplint server` judges the CI files of a project as `uplint scan` of the project does: a
//! file the workspace's `.gitlab-ci.yml` includes locally is CI configuration whatever its name,
//! and the jobs of every file of the project judge each file's jobs (a job's `id_tokens:` may
//! come from a template of another file). The server's diagnostics of each file are compared
//! with the findings `uplint scan` gives it in a scan of the workspace.

use std::io::{BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

mod common;
use common::{file_uri, finding_span, read_lsp_frame};

/// Generous: a debug build on a shared machine.
const WAIT: Duration = Duration::from_secs(60);

/// A finding or diagnostic: (id, line, column, end column), 1-based (the files are ASCII, so
/// LSP's UTF-16 columns are the scan's character columns).
type Found = (String, u64, u64, u64);

struct Client {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
    /// Messages received while waiting for something else.
    pending: Vec<Value>,
}

impl Client {
    /// Start the server and initialize it with the workspace `root`.
    fn start(root: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_uplint"))
            .arg("server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
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
        let mut c = Client {
            stdin: child.stdin.take().unwrap(),
            child,
            rx,
            next_id: 0,
            pending: Vec::new(),
        };
        c.request(
            "initialize",
            json!({"processId": null, "rootUri": file_uri(root), "capabilities": {}}),
        );
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, msg: Value) {
        let text = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{text}", text.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let v = self
                .rx
                .recv_timeout(WAIT)
                .expect("an answer from the server");
            if v.get("method").is_none() && v["id"] == id {
                return v;
            }
            self.pending.push(v);
        }
    }

    fn open(&mut self, path: &Path) {
        let text = std::fs::read_to_string(path).unwrap();
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": file_uri(path), "languageId": "yaml", "version": 1, "text": text}}),
        );
    }

    /// The next diagnostics published for the file, as (id, line, column, end column).
    fn diagnostics(&mut self, path: &Path) -> Vec<Found> {
        let u = file_uri(path);
        let is_of = |v: &Value| {
            v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == u.as_str()
        };
        let v = match self.pending.iter().position(is_of) {
            Some(i) => self.pending.remove(i),
            None => loop {
                let v = self
                    .rx
                    .recv_timeout(WAIT)
                    .expect("diagnostics from the server");
                if is_of(&v) {
                    break v;
                }
                self.pending.push(v);
            },
        };
        let mut found: Vec<Found> = v["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let (start, end) = (&d["range"]["start"], &d["range"]["end"]);
                let n = |p: &Value, k: &str| p[k].as_u64().unwrap();
                (
                    d["code"].as_str().unwrap().to_string(),
                    n(start, "line") + 1,
                    n(start, "character") + 1,
                    n(end, "character") + 1,
                )
            })
            .collect();
        found.sort();
        found
    }

    fn finish(mut self) -> Option<i32> {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.child.wait().unwrap().code()
    }
}

/// The findings of `uplint scan --format json .` in `dir`, of the file `file` (as the scan
/// shows its path).
fn scanned(dir: &Path, file: &str) -> Vec<Found> {
    let out = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .current_dir(dir)
        .args(["scan", "--format", "json", "."])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut found: Vec<Found> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["path"] == file)
        .map(finding_span)
        .collect();
    found.sort();
    found
}

/// The project: `.gitlab-ci.yml` includes `ci/deploy.yml` (a name a scan alone would read as
/// plain YAML) and `ci/templates.yml`, whose hidden job `.tokens` gives `id_tokens:` to the jobs
/// that extend it, in either file.
const ROOT_CI: &str = "include:\n  - local: ci/deploy.yml\n  - local: /ci/templates.yml\n\nbuild:\n  extends: .tokens\n  secrets:\n    DB:\n      vault: db/password@ops\n  script: echo build\n";
const DEPLOY: &str = "deploy:\n  extends: .tokens\n  secrets:\n    DB:\n      vault: db/password@ops\n  script: echo deploy\n\nread:\n  secrets:\n    KEY:\n      vault: app/key@ops\n  script: echo \"$CI_JOB_JWT\"\n";
const TEMPLATES: &str =
    ".tokens:\n  id_tokens:\n    VAULT_ID_TOKEN:\n      aud: https://vault.example.com\n";

fn project(root_ci: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("ci")).unwrap();
    std::fs::write(dir.path().join(".gitlab-ci.yml"), root_ci).unwrap();
    std::fs::write(dir.path().join("ci/deploy.yml"), DEPLOY).unwrap();
    std::fs::write(dir.path().join("ci/templates.yml"), TEMPLATES).unwrap();
    dir
}

fn jwt(line: u64, column: u64, end: u64) -> Found {
    ("ci-job-jwt".to_string(), line, column, end)
}

/// Each file of the project gets the findings a scan of the workspace gives it: the included
/// `ci/deploy.yml` is CI configuration (its `read` job's `secrets:` without `id_tokens:`), its
/// `deploy` job and the root's `build` job take `id_tokens:` from the template of another file.
/// (Before: `ci/deploy.yml` was plain YAML, with only the `$CI_JOB_JWT` finding, and `build`
/// was flagged, its template unknown.)
#[test]
fn included_ci_files_get_the_findings_of_a_scan_of_the_project() {
    let dir = project(ROOT_CI);
    let root = dir.path();
    let mut c = Client::start(root);
    let want = [
        (".gitlab-ci.yml", vec![]),
        ("ci/deploy.yml", vec![jwt(9, 3, 10), jwt(12, 18, 28)]),
        ("ci/templates.yml", vec![]),
    ];
    for (file, expected) in want {
        let path = root.join(file);
        c.open(&path);
        let got = c.diagnostics(&path);
        assert_eq!(
            got,
            scanned(root, file),
            "{file}: the server and the scan differ"
        );
        assert_eq!(got, expected, "{file}");
    }
    assert_eq!(c.finish(), Some(0));
}

/// The project is read again when one of its files is saved: `ci/deploy.yml`, open while the
/// root does not include it, becomes CI configuration of the project once the root that
/// includes it is saved, and its diagnostics are published again. (Before: it stayed plain
/// YAML.)
#[test]
fn saving_the_root_ci_file_reads_the_project_again() {
    let dir = project("build:\n  script: echo build\n");
    let root = dir.path();
    let mut c = Client::start(root);
    let deploy = root.join("ci/deploy.yml");
    c.open(&deploy);
    let before = c.diagnostics(&deploy);
    assert_eq!(before, scanned(root, "ci/deploy.yml"));
    assert_eq!(before, [jwt(12, 18, 28)], "not included yet: plain YAML");

    let ci = root.join(".gitlab-ci.yml");
    c.open(&ci);
    c.diagnostics(&ci);
    std::fs::write(&ci, ROOT_CI).unwrap();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": file_uri(&ci)}, "text": ROOT_CI}),
    );
    let after = c.diagnostics(&deploy);
    assert_eq!(after, scanned(root, "ci/deploy.yml"));
    assert_eq!(after, [jwt(9, 3, 10), jwt(12, 18, 28)]);
    assert_eq!(c.diagnostics(&ci), scanned(root, ".gitlab-ci.yml"));
    assert_eq!(c.finish(), Some(0));
}

/// A document of the project is judged with its own jobs as its text has them now (an edit not
/// yet saved), between the jobs of the other files: the root's `build` job that no longer
/// extends `.tokens` is flagged at once, the included file's `read` job that gains
/// `id_tokens:` is not; each as a scan gives once the text is written. (Before: the jobs were
/// those of the files as last read, the edits not seen until saved.)
#[test]
fn edits_not_yet_saved_are_judged_with_the_rest_of_the_project() {
    let dir = project(ROOT_CI);
    let root = dir.path();
    let mut c = Client::start(root);
    let change = |c: &mut Client, path: &Path, text: &str| {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": file_uri(path), "version": 2}, "contentChanges": [{"text": text}]}),
        );
    };

    let ci = root.join(".gitlab-ci.yml");
    c.open(&ci);
    assert_eq!(c.diagnostics(&ci), []);
    let edited = ROOT_CI.replace("  extends: .tokens\n", "");
    change(&mut c, &ci, &edited);
    let got = c.diagnostics(&ci);
    assert_eq!(got, [jwt(6, 3, 10)], "build lost its id_tokens");
    std::fs::write(&ci, &edited).unwrap();
    assert_eq!(got, scanned(root, ".gitlab-ci.yml"));

    let deploy = root.join("ci/deploy.yml");
    c.open(&deploy);
    assert_eq!(c.diagnostics(&deploy), [jwt(9, 3, 10), jwt(12, 18, 28)]);
    let edited = DEPLOY.replace(
        "read:\n",
        "read:\n  id_tokens:\n    VAULT_ID_TOKEN:\n      aud: https://vault.example.com\n",
    );
    change(&mut c, &deploy, &edited);
    let got = c.diagnostics(&deploy);
    assert_eq!(got, [jwt(15, 18, 28)], "read has its id_tokens");
    std::fs::write(&deploy, &edited).unwrap();
    assert_eq!(got, scanned(root, "ci/deploy.yml"));
    assert_eq!(c.finish(), Some(0));
}
