//! Issue #34: one identity for a file (the file classified, read, reported, fixed and shown in a
//! diff is the one the walk found, never its shown path joined to a root again), and ignore
//! files and CI includes confined to the scanned tree.
#![cfg(unix)]

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

/// A query with a removed field (`totalWeight`, removed in 17.0, fixable from 16.5).
const QUERY: &str = "query milestoneWeight($fullPath: ID!) {\n  group(fullPath: $fullPath) {\n    issues(state: opened) {\n      count\n      totalWeight\n    }\n  }\n}\n";

/// The same query with another line where the diff shows its context: had it been read in the
/// tree's file's place, `--diff` would show it.
const OUTSIDE: &str = "query milestoneWeight($fullPath: ID!) {\n  group(fullPath: $fullPath) {\n    issues(state: opened) {\n      outsideSecret\n      totalWeight\n    }\n  }\n}\n";

/// The most a run may take: a scan of a few files takes milliseconds, one that blocks on a FIFO
/// or reads without end never finishes.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Run `uplint scan --no-config --target 17.0 --current 16.5 ARGS` in `dir`, killed after
/// [`TIMEOUT`] (`None` then), its address space limited to 2 GiB (reading `/dev/zero` without
/// end fails at once rather than eating the machine's memory).
fn scan(dir: &Path, args: &[&str]) -> Option<Output> {
    let mut c = Command::new(env!("CARGO_BIN_EXE_uplint"));
    c.current_dir(dir)
        .args([
            "scan",
            "--no-config",
            "--target",
            "17.0",
            "--current",
            "16.5",
        ])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: `setrlimit` is async-signal-safe, and nothing else runs in the child.
    unsafe {
        c.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 2 << 30,
                rlim_max: 2 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    let mut child = c.spawn().unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        if started.elapsed() > TIMEOUT {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// [`scan`], which must finish.
fn finished(dir: &Path, args: &[&str]) -> Output {
    scan(dir, args).unwrap_or_else(|| panic!("uplint scan {args:?} did not finish in {TIMEOUT:?}"))
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

/// The `path:line` of each finding of a JSON report.
fn found(o: &Output) -> Vec<String> {
    json(o)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
        .collect()
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// A tree holding a file literally named `y\q.graphql` and a directory link `y` to `outside`.
fn backslash_tree(outside: &Path) -> tempfile::TempDir {
    let tree = tempfile::tempdir().unwrap();
    fs::write(tree.path().join("y\\q.graphql"), QUERY).unwrap();
    symlink(outside, tree.path().join("y")).unwrap();
    tree
}

/// `y\q.graphql` beside a link `y -> outside/`: the scan reports the file of the tree under its
/// own name, `--diff` shows its text, `--fix` fixes it, and the file outside (`q.graphql`, whose
/// path the shown name would make through the link) is neither shown nor written.
#[test]
fn a_backslash_name_is_the_file_found_not_a_path_through_a_link() {
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("q.graphql");
    fs::write(&target, OUTSIDE).unwrap();
    let tree = backslash_tree(outside.path());

    let plain = finished(tree.path(), &["--format", "json", "."]);
    assert_eq!(found(&plain), ["y\\q.graphql:5"]);
    let fix = &json(&plain)["findings"][0]["fix"]["edits"][0];
    assert_eq!(fix["path"], "y\\q.graphql", "{plain:?}");

    let diff = finished(tree.path(), &["--diff", "."]);
    let shown = String::from_utf8_lossy(&diff.stdout);
    assert!(shown.contains("+      totalIssueWeight"), "{shown}");
    assert!(shown.contains("a/y\\q.graphql"), "{shown}");
    assert!(!shown.contains("outsideSecret"), "{shown}");

    let fixed = finished(tree.path(), &["--fix", "--format", "json", "."]);
    assert_eq!(fixed.status.code(), Some(0), "{fixed:?}");
    assert_eq!(found(&fixed), Vec::<String>::new());
    assert_eq!(
        fs::read_to_string(tree.path().join("y\\q.graphql")).unwrap(),
        QUERY.replace("totalWeight", "totalIssueWeight")
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), OUTSIDE);
    assert!(
        fs::symlink_metadata(tree.path().join("y"))
            .unwrap()
            .is_symlink()
    );
}

/// What the shown name would make a path to is a FIFO outside, or, through a directory of the
/// tree, a link to `/dev/zero`: neither is opened, and every scan ends at once with the finding
/// of the tree's file (before, the scan blocked on the FIFO, or read `/dev/zero` without end).
#[test]
fn a_backslash_name_never_opens_a_fifo_or_a_device_by_its_shown_path() {
    let outside = tempfile::tempdir().unwrap();
    mkfifo(&outside.path().join("q.graphql"));
    let fifo_tree = backslash_tree(outside.path());

    let zero_tree = tempfile::tempdir().unwrap();
    fs::write(zero_tree.path().join("y\\q.graphql"), QUERY).unwrap();
    fs::create_dir(zero_tree.path().join("y")).unwrap();
    symlink("/dev/zero", zero_tree.path().join("y/q.graphql")).unwrap();

    for tree in [&fifo_tree, &zero_tree] {
        for args in [&["."][..], &["--diff", "."], &["--fix", "."]] {
            let mut all = vec!["--format", "json"];
            all.extend(args);
            let started = Instant::now();
            let out = finished(tree.path(), &all);
            assert!(
                started.elapsed() < TIMEOUT / 2,
                "{args:?} took {:?}",
                started.elapsed()
            );
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{args:?}: {out:?}"
            );
        }
        assert_eq!(
            fs::read_to_string(tree.path().join("y\\q.graphql")).unwrap(),
            QUERY.replace("totalWeight", "totalIssueWeight")
        );
    }
}

/// A name that is not UTF-8 is shown with its bad byte escaped (`\xff`), and fixed: the file
/// is reached by its own bytes, not by its shown name read back (before, it was shown with
/// U+FFFD, and `--fix` looked for a file of that name).
#[test]
fn a_name_that_is_not_utf8_is_shown_escaped_and_fixed_by_its_bytes() {
    let tree = tempfile::tempdir().unwrap();
    let name = OsStr::from_bytes(b"bad\xff.graphql");
    fs::write(tree.path().join(name), QUERY).unwrap();
    // The name the lossy shown path would give: a trap, not the file scanned.
    fs::write(tree.path().join("bad\u{FFFD}.graphql"), OUTSIDE).unwrap();

    let plain = finished(tree.path(), &["--format", "json", "."]);
    assert_eq!(
        found(&plain),
        ["bad\\xff.graphql:5", "bad\u{FFFD}.graphql:5"]
    );
    let fixed = finished(tree.path(), &["--fix", "--format", "json", "."]);
    assert_eq!(fixed.status.code(), Some(0), "{fixed:?}");
    assert_eq!(
        fs::read_to_string(tree.path().join(name)).unwrap(),
        QUERY.replace("totalWeight", "totalIssueWeight")
    );
    assert_eq!(
        fs::read_to_string(tree.path().join("bad\u{FFFD}.graphql")).unwrap(),
        OUTSIDE.replace("totalWeight", "totalIssueWeight")
    );
}

/// `--fix` writes through no link below a scanned path, even with `--follow`, which reads
/// through them: a directory link of the tree to a directory outside it leaves the outside
/// file as it was, and says why.
#[test]
fn fix_writes_through_no_directory_link_even_with_follow() {
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("q.graphql"), QUERY).unwrap();
    let tree = tempfile::tempdir().unwrap();
    symlink(outside.path(), tree.path().join("linked")).unwrap();
    let out = finished(tree.path(), &["--follow", "--fix", "--format", "json", "."]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        fs::read_to_string(outside.path().join("q.graphql")).unwrap(),
        QUERY
    );
    let report = json(&out);
    assert_eq!(report["errors"][0]["path"], "linked/q.graphql");
    let message = report["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("symbolic link"), "{message}");
}

// --- Ignore files are confined to the tree -------------------------------------------------

/// A tree with a finding in `q.graphql`, scanned with uplint's own walk and with the `ignore`
/// crate's (`--follow`): the finding is reported, and the ignore files not read are listed.
fn scan_both_walks(tree: &Path) -> Vec<serde_json::Value> {
    [&[][..], &["--follow"]]
        .iter()
        .map(|extra| {
            let mut args = vec!["--format", "json"];
            args.extend(*extra);
            args.push(".");
            let out = finished(tree, &args);
            assert_eq!(out.status.code(), Some(1), "{extra:?}: {out:?}");
            assert_eq!(found(&out), ["q.graphql:5"], "{extra:?}");
            json(&out)
        })
        .collect()
}

/// `.gitignore -> /dev/zero` (before: the scan read it without end and aborted, exit 134) and
/// `.ignore` a FIFO (before: the scan waited for a writer for ever) are not read: listed, and
/// the scan goes on.
#[test]
fn an_ignore_file_that_is_a_device_link_or_a_fifo_is_not_read() {
    let tree = tempfile::tempdir().unwrap();
    fs::write(tree.path().join("q.graphql"), QUERY).unwrap();
    symlink("/dev/zero", tree.path().join(".gitignore")).unwrap();
    fs::create_dir(tree.path().join("sub")).unwrap();
    mkfifo(&tree.path().join("sub/.ignore"));
    mkfifo(&tree.path().join("sub/.gitignore"));
    for report in scan_both_walks(tree.path()) {
        let e = common::errors(&report);
        assert!(
            e.iter()
                .any(|e| e.starts_with(".gitignore: ") && e.contains("symbolic link")),
            "{e:?}"
        );
        assert!(
            e.iter()
                .any(|e| e.starts_with("sub/.ignore: ") && e.contains("not a regular file")),
            "{e:?}"
        );
    }
}

/// An ignore file that is a link out of the tree (`.ignore -> /outside/rules`, whose rules would
/// ignore the file with the finding) is not read: the finding is reported (before, the file
/// was ignored, which told one bit of the outside file). Nor is a repository's `info/exclude`
/// read through a `.git` file naming a directory outside, or through a link.
#[test]
fn an_ignore_file_outside_the_tree_is_not_read() {
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("rules"), "*.graphql\n").unwrap();
    let gitdir = outside.path().join("gitdir");
    fs::create_dir_all(gitdir.join("info")).unwrap();
    fs::write(gitdir.join("info/exclude"), "*.graphql\n").unwrap();
    fs::write(gitdir.join("commondir"), ".\n").unwrap();

    let linked = tempfile::tempdir().unwrap();
    fs::write(linked.path().join("q.graphql"), QUERY).unwrap();
    symlink(outside.path().join("rules"), linked.path().join(".ignore")).unwrap();

    let gitfile = tempfile::tempdir().unwrap();
    fs::write(gitfile.path().join("q.graphql"), QUERY).unwrap();
    fs::write(
        gitfile.path().join(".git"),
        format!("gitdir: {}\n", gitdir.display()),
    )
    .unwrap();

    let exclude_link = tempfile::tempdir().unwrap();
    fs::write(exclude_link.path().join("q.graphql"), QUERY).unwrap();
    fs::create_dir_all(exclude_link.path().join(".git/info")).unwrap();
    symlink(
        gitdir.join("info/exclude"),
        exclude_link.path().join(".git/info/exclude"),
    )
    .unwrap();

    for tree in [&linked, &gitfile, &exclude_link] {
        scan_both_walks(tree.path());
    }
    // The same rules in the tree's own regular files do ignore it.
    let own = tempfile::tempdir().unwrap();
    fs::write(own.path().join("q.graphql"), QUERY).unwrap();
    fs::write(own.path().join(".ignore"), "*.graphql\n").unwrap();
    let out = finished(own.path(), &["--format", "json", "."]);
    assert_eq!(found(&out), Vec::<String>::new());
}

/// An ignore file larger than the limit (1 MiB) is not read, and said so.
#[test]
fn an_ignore_file_over_the_limit_is_not_read() {
    let tree = tempfile::tempdir().unwrap();
    fs::write(tree.path().join("q.graphql"), QUERY).unwrap();
    let mut rules = "# padding\n".repeat(120_000);
    rules.push_str("*.graphql\n");
    fs::write(tree.path().join(".gitignore"), rules).unwrap();
    for report in scan_both_walks(tree.path()) {
        let e = common::errors(&report);
        assert!(
            e.iter()
                .any(|e| e.starts_with(".gitignore: ") && e.contains("larger than 1 MiB")),
            "{e:?}"
        );
    }
}

// --- CI includes are confined to the project -----------------------------------------------

/// `include:` globs and paths that climb out of the project (`../../../../**/*.yml`, a local
/// `/../**`) walk nothing outside it: with a FIFO `.gitignore` in the directory above the
/// project, a walk started there would wait on it for ever (before, the scan hung; over a real
/// host it walked the whole file system). The project's own findings are reported, and only
/// those.
#[test]
fn an_outward_include_glob_walks_nothing_outside_the_project() {
    let base = tempfile::tempdir().unwrap();
    mkfifo(&base.path().join(".gitignore"));
    fs::write(
        base.path().join("outside.yml"),
        "job:\n  script: echo $CI_JOB_JWT\n",
    )
    .unwrap();
    let project = base.path().join("project");
    // A repository: the ignore files above it are not the scan's.
    fs::create_dir_all(project.join(".git")).unwrap();
    fs::create_dir_all(project.join("ci")).unwrap();
    fs::write(
        project.join(".gitlab-ci.yml"),
        "include:\n  - '../../../../**/*.yml'\n  - local: '/../**/*.yml'\n  - local: '../outside.yml'\n  - '/ci/*.yml'\nbuild:\n  script: echo $CI_JOB_JWT\n",
    )
    .unwrap();
    fs::write(
        project.join("ci/build.yml"),
        "test:\n  script: echo $CI_JOB_JWT\n",
    )
    .unwrap();
    let started = Instant::now();
    let out = finished(&project, &["--format", "json", "."]);
    assert!(started.elapsed() < TIMEOUT / 2);
    assert_eq!(
        found(&out),
        [".gitlab-ci.yml:7", "ci/build.yml:2"],
        "{out:?}"
    );
}
