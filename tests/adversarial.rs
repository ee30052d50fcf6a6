//! Adversarial inputs scanned within a generous time and memory ceiling: sizes at which the
//! quadratic (or unbounded) code took minutes (or gigabytes) and the linear code takes well
//! under a second, so a ceiling ten times above the linear figure fails only a regression.
//! `scripts/adversarial-bench.py` measures the growth ratios with the release binary.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Scans `name` holding `text` alone, with the address space limited to `mem_mib` MiB, and
/// returns its CPU time; fails if that exceeds `secs` (or its wall time `secs` times
/// [`HANG_FACTOR`]: the scan is killed), the scan crashes, or it ends in anything but a report
/// (exit 0 or 1).
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which gives its CPU time"
)]
fn scan_within(name: &str, text: &str, secs: u64, mem_mib: u64) -> Duration {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    let limit = mem_mib << 20;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_uplint"));
    cmd.args(["scan", "--no-config", "--format", "json"])
        .arg(Path::new(name))
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let rl = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &rl) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    loop {
        // The scan's own CPU time is what is bounded: on a machine loaded by other work the
        // wall time of a linear scan can be many times its CPU time. The wall clock only
        // stops a scan that hangs.
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is this test's own child, not yet reaped; the pointers are to locals.
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            let cpu = Duration::from_secs(usage.ru_utime.tv_sec as u64)
                + Duration::from_micros(usage.ru_utime.tv_usec as u64)
                + Duration::from_secs(usage.ru_stime.tv_sec as u64)
                + Duration::from_micros(usage.ru_stime.tv_usec as u64);
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            assert!(
                matches!(code, Some(0 | 1)),
                "{name}: wait status {status} within {mem_mib} MiB after {cpu:?} of CPU: {err}"
            );
            assert!(
                cpu <= Duration::from_secs(secs),
                "{name}: {cpu:?} of CPU, over {secs} s ({} KB)",
                text.len() / 1000
            );
            return cpu;
        }
        assert_eq!(
            reaped,
            0,
            "wait4 failed: {}",
            std::io::Error::last_os_error()
        );
        if start.elapsed() > Duration::from_secs(secs * HANG_FACTOR) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "{name}: not done in {} s ({} KB)",
                secs * HANG_FACTOR,
                text.len() / 1000
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How many times its CPU ceiling a scan may take in wall time before it is taken to hang.
const HANG_FACTOR: u64 = 6;

const CI: &str = "job:\n  script:\n    - ";

/// The form (a): an unclosed `$(` repeated on one command line. Before: 600 KB took
/// 48 s (release); each `$(` searched to the end of its line for its close.
#[test]
fn unclosed_substitutions_on_one_command_line() {
    let subst = "$( ".repeat(200_000);
    scan_within(
        "register.sh",
        &format!("gitlab-runner register --locked {subst}\n"),
        20,
        1024,
    );
    scan_within(
        ".gitlab-ci.yml",
        &format!("{CI}gitlab-runner register --locked {subst}\n"),
        20,
        1024,
    );
    // Unclosed templates: the same search for `}}` and `%}`.
    let t = format!(
        "gitlab-runner register --locked {}\n",
        "{{ ".repeat(200_000)
    );
    scan_within("template.sh", &t, 20, 1024);
}

/// The form (b): a variable 40,000 times on one line. Before: the comment check and the
/// finding's column lexed the line from its start for each occurrence (680 KB: 23 s).
#[test]
fn a_variable_repeated_on_one_line() {
    let line = "$CI_JOB_JWT ".repeat(60_000);
    scan_within("jwt.sh", &format!("echo {line}\n"), 20, 2048);
    scan_within(".gitlab-ci.yml", &format!("{CI}echo {line}\n"), 20, 2048);
    // Many findings on one line: a flag repeated (each finding's column and excerpt).
    let flags = "--locked ".repeat(60_000);
    scan_within(
        "flags.sh",
        &format!("gitlab-runner register {flags}\n"),
        20,
        2048,
    );
}

/// The form (c): a huge command line. Before: its words were collected (40 bytes each
/// for a two-byte word), 185 MB for 8 MB; now they are read one at a time.
#[test]
fn a_huge_command_line_in_bounded_memory() {
    let words = "x ".repeat(8_000_000);
    let text = format!("gitlab-runner register --locked {words}\n");
    // The file (16 MB) is read, and the text is decoded in place: a few times its size.
    scan_within("big.sh", &text, 30, 200);
}

/// Comments in the semicolon style (`.conf`): a line of `;` each walked back to the line's start.
#[test]
fn a_line_of_semicolons() {
    // The command at the line's end: whether it is in a comment lexes the line before it.
    let text = format!(
        "ExecStart=echo {}gitlab-runner register --locked\n",
        "; ".repeat(300_000)
    );
    scan_within("runner.conf", &text, 20, 1024);
}

/// A file of nothing but removed items: each finding holds its message and excerpt (about a
/// kilobyte), so two million of them took gigabytes. At most 10,000 findings are reported for
/// one file, and the rest is said in one error.
#[test]
fn a_file_of_nothing_but_removed_items_in_bounded_memory() {
    let line = format!("echo {}\n", "$CI_JOB_JWT ".repeat(1000));
    let text = line.repeat(2000);
    scan_within("many.sh", &text, 30, 400);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("many.sh"), &text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(["scan", "--no-config", "--format", "json", "many.sh"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["findings"].as_array().unwrap().len(), 10_000);
    let errors = v["errors"].as_array().unwrap();
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("at most 10000 findings are reported for one file"),
        "{errors:?}"
    );
}

/// Several commands on one logical line: the words of each run to the line's end, and each
/// command's quote state, end, groups and flag checks were read from the line's start or to its
/// end (150 KB: over 20 s in debug before, each form). Now each line is read once for all its
/// commands, and a command whose words an earlier one's went through is not read again.
#[test]
fn many_commands_on_one_line() {
    for (name, each) in [
        ("plain.sh", "gitlab-runner register --locked "),
        ("quoted.sh", "gitlab-runner register --locked \""),
        ("subst.sh", "gitlab-runner register --locked $( "),
    ] {
        let text = format!("{}\n", each.repeat(150_000 / each.len()));
        scan_within(name, &text, 20, 1024);
    }
    let ci = format!("{CI}{}\n", "gitlab-runner register --locked ".repeat(5_000));
    scan_within(".gitlab-ci.yml", &ci, 20, 1024);
}

/// A command on each of many `\`-continued lines: each one's words and flag check ran to the end
/// of the whole continued line (200 KB: over a minute in debug before).
#[test]
fn commands_on_continued_lines() {
    let text = format!("{}\n", "gitlab-runner register --locked \\\n".repeat(6_000));
    scan_within("continued.sh", &text, 20, 1024);
}

/// REST calls repeated on one line: each call's line, statement, call and literal were read
/// from the line's start (80 KB: 7 s, 160 KB: 28 s in debug before). Now each is read in a
/// window of the text around it.
#[test]
fn rest_calls_on_one_line() {
    let call = "get(\"/api/v4/runners/reset_registration_token\") ";
    let text = format!("{}\n", call.repeat(4_000));
    scan_within("client.rb", &text, 20, 1024);
    let js = format!(
        "{}\n",
        "await api.post(`/api/v4/runners`, {token}); ".repeat(4_000)
    );
    scan_within("client.js", &js, 20, 1024);
}

/// Fields of the platform's responses repeated on one line (found by hunting variants): each
/// one's line was read to its end for a compared value, from its start for an open string, and
/// each new hit checked against all found before (Python, 400 KB: 1.9 s release, 800 KB about 8 s: quadratic).
#[test]
fn response_fields_on_one_line() {
    let reads = "mr.get(\"merge_status\") ".repeat(35_000);
    let py = format!("# gitlab /merge_requests\nmr = get_mr()\n{reads}\n");
    scan_within("client.py", &py, 20, 1024);
    let tags = "MergedBy int `json:\"merged_by\"` ".repeat(12_000);
    let go = format!("// gitlab merge_requests\ntype gitlabMR struct {{ {tags}}}\n");
    scan_within("client.go", &go, 20, 1024);
}

/// Found while reviewing issue 35's fourth session: a struct of many fields, one per line
/// (1 MB took 4 s release, ×4 per doubling: whether the struct's type is a webhook payload's
/// part was asked once per field, each time searching the whole file), and a script gathering
/// many flags in a variable (740 KB took 27 s release: each flag searched the whole file for
/// where the variable is handed on). Each question is now answered once per name.
#[test]
fn many_fields_of_one_type_and_many_gathered_flags() {
    let fields = "\tMergedBy int `json:\"merged_by\"`\n".repeat(32_000);
    let go = format!("// gitlab merge_requests\ntype gitlabMR struct {{\n{fields}}}\n");
    scan_within("client.go", &go, 20, 1024);
    let flags = "OPTS=\"$OPTS --tag-list t\"\n".repeat(16_000);
    let sh = format!("#!/bin/sh\n{flags}gitlab-runner register $OPTS\n");
    scan_within("register.sh", &sh, 20, 1024);
}

/// Found while adding request helpers (issue 35, fifth session): the definition of the function a
/// `/users` path is handed to is looked for once per name and for at most a few names, not once
/// per call (a file of many calls of many names would search the file for each).
#[test]
fn many_paths_handed_to_many_functions() {
    // 20,000 names: a search of the file per name would read 7 GB; the bounded lookups take
    // about 3 s in a debug build.
    let calls: String = (0..20_000).map(|i| format!("f{i}(\"/users\")\n")).collect();
    let py = format!("# gitlab api/v4\n{calls}");
    scan_within("client.py", &py, 20, 1024);
}

/// Found while reviewing issue 35's tenth session: in a file that names GraphQL, every `{` of a
/// minified line was asked whether a comment line holds the byte before it, and each read the
/// line back to its start (this 2 MB line: 6.5 s release, ×4 per doubling). The start of a
/// comment line is now looked for within a bound.
#[test]
fn braces_of_a_minified_line_that_names_graphql() {
    let line = "f(a){b}; ".repeat(240_000);
    let ts = format!("// graphql client\nconst x = {line} s.totalWeight;\n");
    scan_within("client.ts", &ts, 20, 1024);
}

/// Session 14's readers of arrays over lines: a register flag in one array and a line of
/// 100,000 openings of the same array name (each opening was read to the file's end: 24 s on
/// the first build of the reader), and the flags of a string continued over many lines.
#[test]
fn many_array_openings_and_a_long_continued_string() {
    let openings = format!(
        "#!/bin/bash\ngitlab-runner register --url x\nargs=(\n  --locked\n)\n{}\n\"${{args[@]}}\"\n",
        "args=(".repeat(100_000)
    );
    scan_within("openings.sh", &openings, 20, 512);
    let continued = format!(
        "#!/bin/bash\nX=\"a \\\n{}  --tag-list t \\\n\"\ngitlab-runner register $X\n",
        "  --locked \\\n".repeat(50_000)
    );
    scan_within("continued.sh", &continued, 20, 512);
}
