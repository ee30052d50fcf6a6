//! Outputs are not the scanned repository's to choose (issue 34): a link committed at a
//! report's path is refused, names cannot break a line-based format, Markdown, XML or a SARIF
//! URI, a failure to write standard output is an error, and an interrupted write leaves no
//! temporary file. Each test runs the built binary.

use std::os::unix::fs::symlink;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SECRET: &str = "ssh-ed25519 AAAA victim@host\n";
/// A file with one finding (removed in 17.0).
const JWT: &str = "echo $CI_JOB_JWT\n";
/// A fixable finding (`--diff` shows it with `--current 16.5`).
const TOTAL_WEIGHT: &str =
    "query {\n  group(fullPath: \"g\") {\n    issues {\n      totalWeight\n    }\n  }\n}\n";

fn uplint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_uplint"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run uplint")
}

fn scan(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["scan", "--no-config", "--target", "18.0"];
    all.extend_from_slice(args);
    uplint(dir, &all)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("reports are UTF-8")
}

/// A checkout with a finding, beside a victim's directory outside it.
fn checkout() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let outside = tmp.path().join("home");
    std::fs::create_dir_all(repo.join("sub")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(repo.join("build.sh"), JWT).unwrap();
    std::fs::write(outside.join("authorized_keys"), SECRET).unwrap();
    (tmp, repo, outside)
}

/// Every file below `dir` (links not followed), relative.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_dir() {
            out.extend(files(&e.path()).into_iter().map(|f| format!("{name}/{f}")));
        } else {
            out.push(name);
        }
    }
    out.sort();
    out
}

#[test]
fn an_output_through_a_link_inside_the_scanned_tree_is_refused_and_nothing_is_written() {
    // (the link to create in the checkout, its target, where the scan runs, the arguments)
    let cases: &[(&str, &str, &str, &[&str])] = &[
        // The CI template's command line with a committed link at the JUnit report's path.
        (
            "uplint-junit.xml",
            "../home/authorized_keys",
            "repo",
            &[
                "--report",
                "codequality=gl-code-quality-report.json",
                "--report",
                "junit=uplint-junit.xml",
                ".",
            ],
        ),
        // An absolute link, given as --output, the root spelt as a path from outside.
        (
            "report.txt",
            "ABS/home/authorized_keys",
            ".",
            &["--output", "repo/report.txt", "repo"],
        ),
        // A linked directory in the middle of the path.
        (
            "sub/out",
            "../../home",
            "repo",
            &["--output", "sub/out/authorized_keys", "."],
        ),
        // `..` through the link: the kernel follows the link before `..`.
        (
            "sub/out",
            "../../home",
            "repo",
            &["--output", "sub/out/../home/authorized_keys", "."],
        ),
        // A dangling link: it would create a file outside.
        (
            "uplint.json",
            "../home/new-file",
            "repo",
            &["--format", "json", "--output", "uplint.json", "."],
        ),
        // The baseline is an output too; the scanned path is a file of the tree.
        (
            "baseline.json",
            "../home/authorized_keys",
            "repo",
            &["--write-baseline", "baseline.json", "build.sh"],
        ),
    ];
    for (link, target, cwd, args) in cases {
        let (tmp, repo, outside) = checkout();
        let target = target.replace("ABS", &tmp.path().display().to_string());
        symlink(&target, repo.join(link)).unwrap();
        let before = files(&repo);
        let o = scan(&tmp.path().join(cwd), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("is a symbolic link inside the scanned tree"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(
            std::fs::read_to_string(outside.join("authorized_keys")).unwrap(),
            SECRET,
            "{args:?}"
        );
        assert_eq!(files(&outside), ["authorized_keys"], "{args:?}");
        assert_eq!(files(&repo), before, "{args:?}: no other output written");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn an_output_outside_the_scanned_tree_still_goes_through_its_link() {
    let (_tmp, repo, outside) = checkout();
    symlink("reports/latest.txt", outside.join("report.txt")).unwrap();
    std::fs::create_dir(outside.join("reports")).unwrap();
    let o = scan(
        &repo,
        &["--format", "concise", "--output", "../home/report.txt", "."],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let written = std::fs::read_to_string(outside.join("reports/latest.txt")).unwrap();
    assert!(
        written.starts_with("build.sh:1:7: error ci-job-jwt"),
        "{written}"
    );
    assert!(
        std::fs::symlink_metadata(outside.join("report.txt"))
            .unwrap()
            .is_symlink()
    );
    // A file of the tree that is no link is replaced as before.
    std::fs::write(repo.join("uplint.txt"), "old").unwrap();
    let o = scan(
        &repo,
        &["--format", "concise", "--output", "uplint.txt", "."],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(repo.join("uplint.txt"))
            .unwrap()
            .contains("ci-job-jwt")
    );
}

/// Names that would start a line with `INJECTED` if written raw.
const HOSTILE: [&str; 6] = [
    "a\nINJECTED ssh-ed25519 AAAA attacker.sh",
    "b\rINJECTED.sh",
    "c\r\nINJECTED.sh",
    "d\x1b[2K\x1b[1GINJECTED.sh",
    "e\u{2028}INJECTED.sh",
    "f\u{85}\u{2029}\x0b\x0cINJECTED.sh",
];

/// Whether a line of `text` (split at every line terminator a reader could honour) starts
/// with the injected text, or the text holds a raw control character.
fn breaks_a_line(text: &str) -> bool {
    let raw_control = text
        .chars()
        .any(|c| (c.is_control() && c != '\n') || matches!(c, '\u{2028}' | '\u{2029}'));
    let starts = text
        .split(['\n', '\r', '\u{2028}', '\u{2029}', '\u{85}', '\x0b', '\x0c'])
        .any(|l| {
            l.trim_start_matches(['\x1b', '[', '2', 'K', '1', 'G'])
                .starts_with("INJECTED")
        });
    raw_control || starts
}

#[test]
fn names_with_line_breaks_and_controls_stay_on_one_line_in_every_line_based_format() {
    let dir = tempfile::tempdir().unwrap();
    for name in HOSTILE {
        std::fs::write(dir.path().join(name), JWT).unwrap();
    }
    for format in ["concise", "human", "junit", "markdown", "html"] {
        let o = scan(dir.path(), &["--color", "never", "--format", format, "."]);
        assert_eq!(o.status.code(), Some(1), "{format}: {}", stderr(&o));
        let out = stdout(&o);
        assert_eq!(out.matches("INJECTED").count() % HOSTILE.len(), 0, "{out}");
        assert!(out.contains("INJECTED"), "{format}: {out}");
        assert!(!breaks_a_line(&out), "{format}:\n{out}");
    }
    // One finding, one line.
    let concise = stdout(&scan(dir.path(), &["--format", "concise", "."]));
    assert_eq!(concise.lines().count(), HOSTILE.len(), "{concise}");
    assert!(concise.contains("a\\nINJECTED ssh-ed25519 AAAA attacker.sh:1:7: error"));
    assert!(concise.contains("d\\x1b[2K\\x1b[1GINJECTED.sh:1:7"));
    assert!(concise.contains("e\\u{2028}INJECTED.sh:1:7"));
    // The JSON report keeps the real names.
    let json: serde_json::Value =
        serde_json::from_slice(&scan(dir.path(), &["--format", "json", "."]).stdout).unwrap();
    let mut paths: Vec<&str> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    paths.sort();
    assert_eq!(paths, HOSTILE);
}

#[test]
fn a_diff_header_of_a_hostile_name_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "q\nINJECTED.graphql",
        "r\rINJECTED.graphql",
        "s\x1bINJECTED.graphql",
    ] {
        std::fs::write(dir.path().join(name), TOTAL_WEIGHT).unwrap();
    }
    let o = scan(dir.path(), &["--current", "16.5", "--diff", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.matches("diff --git ").count(), 3, "{out}");
    assert!(!breaks_a_line(&out), "{out}");
    assert!(out.contains("diff --git a/q\\nINJECTED.graphql b/q\\nINJECTED.graphql\n"));
}

#[test]
fn markdown_escapes_backticks_pipes_and_line_breaks_in_names() {
    let dir = tempfile::tempdir().unwrap();
    let names = [
        "a`<img src=x onerror=alert(1)>`.sh",
        "b|c|d.sh",
        "e\rf.sh",
        "g``h.sh",
    ];
    for name in names {
        std::fs::write(dir.path().join(name), JWT).unwrap();
    }
    let o = scan(dir.path(), &["--format", "markdown", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let md = stdout(&o);
    assert!(!md.contains('\r'), "{md}");
    let rows: Vec<&str> = md.lines().filter(|l| l.contains("ci-job-jwt")).collect();
    assert_eq!(rows.len(), names.len(), "{md}");
    for row in rows {
        // Four cells: five pipes that are not escaped.
        let bytes = row.as_bytes();
        let cells = (0..bytes.len())
            .filter(|&i| bytes[i] == b'|' && (i == 0 || bytes[i - 1] != b'\\'))
            .count();
        assert_eq!(cells, 5, "{row}");
        // The name's code span is fenced by a longer run than any run of backticks in it.
        if row.contains("img") {
            assert!(
                row.starts_with("| ``a`<img src=x onerror=alert(1)>`.sh:1`` |"),
                "{row}"
            );
        }
        if row.contains("g``h") {
            assert!(row.starts_with("| ```g``h.sh:1``` |"), "{row}");
        }
    }
    assert!(md.contains("| `b\\|c\\|d.sh:1` |"), "{md}");
    assert!(md.contains("| `e\\rf.sh:1` |"), "{md}");
}

#[test]
fn junit_holds_no_character_that_xml_forbids() {
    let dir = tempfile::tempdir().unwrap();
    let names = [
        "n\u{FFFE}.sh",
        "o\u{FFFF}.sh",
        "p\x01\x08.sh",
        "q\t\"&<'>.sh",
    ];
    for name in names {
        std::fs::write(dir.path().join(name), JWT).unwrap();
    }
    for format in ["junit", "html"] {
        let o = scan(dir.path(), &["--format", format, "."]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let xml = stdout(&o);
        let forbidden = |c: char| {
            matches!(c, '\u{FFFE}' | '\u{FFFF}')
                || ((c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r'))
        };
        assert!(!xml.chars().any(forbidden), "{format}: {xml:?}");
        assert_eq!(xml.matches("<testcase ").count() % 4, 0);
        if format == "junit" {
            assert_eq!(xml.matches("<testcase ").count(), 4, "{xml}");
            assert!(
                xml.contains("classname=\"q\\t&quot;&amp;&lt;&#39;&gt;.sh\""),
                "{xml}"
            );
            // No raw tab, LF or CR inside any attribute value.
            for tag in xml.split('<').skip(1) {
                let tag = tag.split('>').next().unwrap();
                assert!(!tag.contains(['\t', '\r']), "{tag:?}");
            }
        }
    }
}

#[test]
fn a_sarif_uri_of_a_name_with_a_colon_has_no_scheme() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("javascript:alert(1).sh"), JWT).unwrap();
    std::fs::create_dir(dir.path().join("http:")).unwrap();
    std::fs::write(dir.path().join("http:/x#y?z.sh"), JWT).unwrap();
    let o = scan(dir.path(), &["--format", "sarif", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let sarif: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut uris: Vec<String> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    uris.sort();
    assert_eq!(
        uris,
        ["http%3A/x%23y%3Fz.sh", "javascript%3Aalert%281%29.sh"]
    );
    for uri in &uris {
        // RFC 3986: a scheme is what comes before the first `:` of the first segment.
        let first = uri.split('/').next().unwrap();
        assert!(!first.contains(':'), "{uri}");
        assert!(
            uri.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b)),
            "{uri}"
        );
    }
}

fn dev_full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full"),
    )
}

#[test]
fn a_failure_to_write_standard_output_exits_2_but_a_closed_pipe_does_not() {
    let (_tmp, repo, _) = checkout();
    std::fs::write(repo.join("q.graphql"), TOTAL_WEIGHT).unwrap();
    let commands: &[&[&str]] = &[
        &["scan", "--no-config", "--target", "18.0", "."],
        &[
            "scan",
            "--no-config",
            "--target",
            "18.0",
            "--format",
            "json",
            ".",
        ],
        &[
            "scan",
            "--no-config",
            "--target",
            "18.0",
            "--format",
            "sarif",
            ".",
        ],
        &["scan", "--no-config", "--current", "16.5", "--diff", "."],
        &["query"],
        &["query", "--literals"],
        &["explain", "ci-job-jwt"],
        &["versions"],
        &["--help"],
    ];
    for args in commands {
        let o = Command::new(env!("CARGO_BIN_EXE_uplint"))
            .current_dir(&repo)
            .args(*args)
            .stdout(dev_full())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write standard output"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // A reader that stops early (`| head`) is no failure: the scan's status is its findings'.
    for (args, status) in [
        (&["query"][..], 0),
        (&["scan", "--no-config", "--target", "18.0", "."][..], 1),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_uplint"))
            .current_dir(&repo)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(status), "{args:?}: {}", stderr(&o));
    }
}

/// Temporary files of outputs left in `dir`.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".uplint-tmp-"))
        .collect()
}

#[test]
fn a_write_interrupted_by_a_signal_leaves_no_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    // Large reports: the temporary files exist while tens of megabytes are written and synced.
    std::fs::write(src.join("big.sh"), JWT.repeat(60_000)).unwrap();
    let mut caught = 0;
    let mut attempts = 0;
    // In turn: a signal that this test's own parent ignores (SIGINT in a background job) is
    // ignored by the child too, and uplint leaves it so; the others still count.
    let signals = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];
    while caught < 3 && attempts < 60 {
        let signal = signals[attempts % signals.len()];
        attempts += 1;
        let mut child = Command::new(env!("CARGO_BIN_EXE_uplint"))
            .current_dir(&out)
            .args(["scan", "--no-config", "--target", "18.0"])
            .args(["--report", "json=a.json", "--report", "sarif=b.sarif"])
            .args(["--report", "html=c.html", "--format", "human"])
            .args(["--output", "d.txt"])
            .arg(&src)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait for a temporary file to appear, then interrupt the process.
        let mut seen = false;
        while child.try_wait().unwrap().is_none() {
            if !leftovers(&out).is_empty() {
                // SAFETY: a signal to our own child, still running.
                unsafe { libc::kill(child.id() as libc::pid_t, signal) };
                seen = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        let status = child.wait().unwrap();
        if seen && status.signal() == Some(signal) {
            caught += 1;
            assert!(
                leftovers(&out).is_empty(),
                "signal {signal}: {:?}",
                leftovers(&out)
            );
        }
        for f in std::fs::read_dir(&out).unwrap() {
            std::fs::remove_file(f.unwrap().path()).unwrap();
        }
    }
    assert!(
        caught > 0,
        "no run was interrupted during a write in {attempts} attempts"
    );
}

/// The scanned path is a part of a git checkout (`uplint scan src`) and the report goes to the
/// top of the checkout: the checkout's links are the repository's too, and are refused there.
#[test]
fn an_output_in_the_git_work_tree_around_a_scanned_part_is_confined_too() {
    let (_tmp, repo, outside) = checkout();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::rename(repo.join("build.sh"), repo.join("sub/build.sh")).unwrap();
    symlink(
        outside.join("authorized_keys"),
        repo.join("uplint-junit.xml"),
    )
    .unwrap();
    let o = scan(&repo, &["sub", "--report", "junit=uplint-junit.xml"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is a symbolic link inside the scanned tree"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("authorized_keys")).unwrap(),
        SECRET
    );
    // Without a .git directory around it, the top of the directory is not the repository's.
    std::fs::remove_dir(repo.join(".git")).unwrap();
    let o = scan(&repo, &["sub", "--report", "junit=uplint-junit.xml"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}
