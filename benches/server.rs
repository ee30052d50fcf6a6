//! `uplint server`'s latency as an editor sees it: the time from a `didChange` of a
//! 10,000-line `.gitlab-ci.yml` (full text, as the server asks for) to its
//! `publishDiagnostics`, over the protocol on standard input and output; and the server's
//! resident memory over an hour of edits (simulated: 3,600 changes, one a second of typing,
//! sent back to back).
//!
//! Run with `cargo bench --bench server` (the bench profile: the release build). Set
//! `UPLINT_BIN` to time another binary (`.ci/run`'s release build). `--edits N` changes the
//! number of changes of the memory run.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const LINES: usize = 10_000;
const TIMED: usize = 300;

fn frame(out: &mut impl Write, v: &Value) {
    let text = v.to_string();
    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len()).unwrap();
    out.flush().unwrap();
}

fn read(r: &mut impl BufRead) -> Value {
    let mut len = 0;
    loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "the server ended");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse().unwrap();
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

/// A CI configuration of `LINES` lines: jobs with scripts, one of which uses `$CI_JOB_JWT_V2`,
/// and a line that edit `i` changes.
fn ci_file(i: usize) -> String {
    let mut s = String::with_capacity(LINES * 32);
    s.push_str(&format!("variables:\n  EDIT: \"{i}\"\n"));
    let mut n = 2;
    let mut job = 0;
    while n + 6 <= LINES {
        s.push_str(&format!(
            "job-{job}:\n  stage: test\n  image: alpine:3.{}\n  script:\n    - echo \"step {job}\"\n    - make test-{job}\n",
            job % 20
        ));
        n += 6;
        job += 1;
        if job == 800 {
            s.push_str("    - echo \"$CI_JOB_JWT_V2\"\n");
            n += 1;
        }
    }
    while n < LINES {
        s.push_str("# end\n");
        n += 1;
    }
    s
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

/// The next diagnostics the server publishes (other messages are passed over).
fn diagnostics(output: &mut BufReader<std::process::ChildStdout>) -> Value {
    loop {
        let v = read(output);
        if v["method"] == "textDocument/publishDiagnostics" {
            return v;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let edits: usize = args
        .iter()
        .position(|a| a == "--edits")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(3_600);
    let bin = std::env::var("UPLINT_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_uplint").into());
    let dir = std::env::temp_dir().join(format!("uplint-server-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(&bin)
        .args(["server"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start uplint server");
    let pid = child.id();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let root = format!("file://{}", dir.display());
    let uri = format!("{root}/.gitlab-ci.yml");
    frame(
        &mut input,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"rootUri": root, "capabilities": {}}}),
    );
    read(&mut output);
    frame(
        &mut input,
        &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    let text = ci_file(0);
    assert_eq!(text.lines().count(), LINES);
    frame(
        &mut input,
        &json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 0, "text": text}}}),
    );
    let change = |i: usize,
                  input: &mut std::process::ChildStdin,
                  output: &mut BufReader<std::process::ChildStdout>|
     -> (Duration, usize) {
        // The message is made before the clock starts: the editor has it already.
        let msg = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": i},
            "contentChanges": [{"text": ci_file(i)}]}});
        let started = Instant::now();
        frame(input, &msg);
        let v = diagnostics(output);
        (
            started.elapsed(),
            v["params"]["diagnostics"].as_array().map_or(0, Vec::len),
        )
    };
    // The diagnostics of the open.
    let v = diagnostics(&mut output);
    assert_eq!(
        v["params"]["diagnostics"].as_array().unwrap().len(),
        1,
        "{v}"
    );
    let mut times: Vec<Duration> = (1..=TIMED)
        .map(|i| change(i, &mut input, &mut output).0)
        .collect();
    times.sort();
    println!(
        "diagnostics after a change of a {LINES}-line .gitlab-ci.yml ({} KiB), {TIMED} changes: p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        text.len() / 1024,
        percentile(&times, 0.50).as_secs_f64() * 1e3,
        percentile(&times, 0.95).as_secs_f64() * 1e3,
        percentile(&times, 1.0).as_secs_f64() * 1e3,
    );
    let first = rss_kib(pid);
    let mut samples = vec![(TIMED, first)];
    let started = Instant::now();
    for i in 1..=edits {
        let (_, found) = change(TIMED + i, &mut input, &mut output);
        assert_eq!(found, 1);
        if i % (edits / 6).max(1) == 0 {
            samples.push((TIMED + i, rss_kib(pid)));
        }
    }
    let shown: Vec<String> = samples
        .iter()
        .map(|(n, kib)| format!("{n}: {} MiB", kib / 1024))
        .collect();
    println!(
        "resident memory after N changes ({edits} more in {:.1} s): {}",
        started.elapsed().as_secs_f64(),
        shown.join(", ")
    );
    frame(
        &mut input,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
    );
    read(&mut output);
    frame(&mut input, &json!({"jsonrpc": "2.0", "method": "exit"}));
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
