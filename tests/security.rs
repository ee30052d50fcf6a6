//! Issue #10: a scanned repository cannot make uplint print files from outside it, and writing
//! an output never damages what it writes to.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt, symlink};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output};

const CANARY: &str = "uplint-canary-7f3a9c-secret";

fn uplint_command(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_uplint"));
    c.current_dir(dir).args(args).env("UPLINT_CANARY", CANARY);
    c
}

fn uplint(dir: &Path, args: &[&str]) -> Output {
    uplint_command(dir, args).output().unwrap()
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

/// A repository with one finding: `runnerRegistrationToken` is removed in 18.0.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "values.yaml", "runnerRegistrationToken: x\n");
    dir
}

const SCAN: [&str; 6] = [
    "scan",
    "--no-config",
    "--target",
    "18.0",
    "--format",
    "concise",
];

fn scan_to(dir: &Path, output: &str) -> Output {
    let mut args = SCAN.to_vec();
    args.extend(["--output", output]);
    uplint(dir, &args)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("uplint-tmp"))
        .collect()
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// Are we root? A file we create belongs to our user.
fn is_root(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(dir).unwrap().uid() == 0
}

const REPORT_LINE: &str = "values.yaml:1:1: error helm-runner-registration-token";

// --- Configuration from the repository is confined to it ---------------------------------

fn refused(dir: &Path, config: &str, what: &str) {
    refused_setting(dir, config, "data", what);
}

fn refused_setting(dir: &Path, config: &str, setting: &str, what: &str) {
    write(dir, ".uplint.yml", config);
    let o = uplint(dir, &["scan"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{config}: {out}");
    assert!(
        out.contains(&format!("`{setting}`")),
        "names the setting: {out}"
    );
    assert!(out.contains(what), "names the path `{what}`: {out}");
    assert!(
        !out.contains(CANARY),
        "{config}: the environment leaked: {out}"
    );
    assert!(
        !out.contains("root:"),
        "{config}: /etc/passwd leaked: {out}"
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn a_configuration_cannot_name_the_environment_of_the_process() {
    let dir = repo();
    refused(
        dir.path(),
        "data: [/proc/self/environ]\n",
        "/proc/self/environ",
    );
    refused(
        dir.path(),
        "data:\n  - ../../../../../../proc/self/environ\n",
        "../../../../../../proc/self/environ",
    );
}

#[test]
fn a_configuration_cannot_name_a_baseline_outside_its_tree() {
    let dir = repo();
    refused_setting(
        dir.path(),
        "baseline: /proc/self/environ\n",
        "baseline",
        "/proc/self/environ",
    );
    refused_setting(dir.path(), "baseline: ../x.json\n", "baseline", "../x.json");
}

#[test]
fn a_configuration_cannot_name_an_absolute_path_or_leave_its_tree() {
    let dir = repo();
    refused(dir.path(), "data: [/etc/passwd]\n", "/etc/passwd");
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "x.yml", &format!("secret: {CANARY}\n"));
    let nested = dir.path().join("sub");
    fs::create_dir(&nested).unwrap();
    let rel = format!("../{}/x.yml", outside.path().display());
    refused(dir.path(), "data: [../x]\n", "../x");
    refused(
        dir.path(),
        &format!("data: [\"{}\"]\n", outside.path().join("x.yml").display()),
        "x.yml",
    );
    refused(dir.path(), &format!("data: [\"{rel}\"]\n"), "x.yml");
}

#[test]
fn a_configuration_cannot_reach_out_through_a_symlink() {
    let dir = repo();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.yml", &format!("token: {CANARY}\n"));
    symlink(
        outside.path().join("secret.yml"),
        dir.path().join("data.yml"),
    )
    .unwrap();
    refused(dir.path(), "data: [data.yml]\n", "data.yml");
    // A directory inside whose files point out.
    fs::create_dir(dir.path().join("deprecations")).unwrap();
    symlink(
        outside.path().join("secret.yml"),
        dir.path().join("deprecations/x.yml"),
    )
    .unwrap();
    refused(dir.path(), "data: [deprecations]\n", "deprecations");
    // A directory that is itself a link out.
    symlink(outside.path(), dir.path().join("linked")).unwrap();
    refused(dir.path(), "data: [linked]\n", "linked");
    // The configuration file itself as a link out.
    fs::remove_file(dir.path().join(".uplint.yml")).unwrap();
    symlink("/proc/self/environ", dir.path().join(".uplint.yml")).unwrap();
    let o = uplint(dir.path(), &["scan"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains(".uplint.yml") && !out.contains(CANARY),
        "{out}"
    );
}

#[test]
fn a_configuration_cannot_name_a_fifo_or_a_huge_file() {
    let dir = repo();
    let fifo = dir.path().join("pipe.yml");
    mkfifo(&fifo);
    refused(dir.path(), "data: [pipe.yml]\n", "pipe.yml");
    let big = fs::File::create(dir.path().join("big.yml")).unwrap();
    big.set_len(64 * 1024 * 1024).unwrap();
    refused(dir.path(), "data: [big.yml]\n", "big.yml");
    // The configuration file itself.
    fs::remove_file(dir.path().join(".uplint.yml")).unwrap();
    fs::rename(dir.path().join("big.yml"), dir.path().join(".uplint.yml")).unwrap();
    let o = uplint(dir.path(), &["scan"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("configuration file refused"), "{err}");
    assert!(err.contains("16 MiB"), "{err}");
}

#[test]
fn data_inside_the_tree_still_loads_and_shows_its_snippets() {
    let dir = repo();
    write(
        dir.path(),
        "deprecations/in-house.yml",
        "schema_version: 1\nentries:\n  - id: in-house-thing\n    titel: x\n",
    );
    symlink("deprecations", dir.path().join("linked")).unwrap();
    write(dir.path(), ".uplint.yml", "data: [linked]\n");
    let o = uplint(dir.path(), &["scan"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("linked/in-house.yml"), "{out}");
    assert!(
        out.contains("titel: x"),
        "the snippet of a project file: {out}"
    );
}

#[test]
fn paths_on_the_command_line_are_not_confined() {
    let dir = repo();
    let outside = tempfile::tempdir().unwrap();
    write(
        outside.path(),
        "x.yml",
        "schema_version: 1\nentries:\n  - id: outside-thing\n    titel: shown\n",
    );
    let data = outside.path().join("x.yml");
    let o = uplint(
        dir.path(),
        &["scan", "--no-config", "--data", data.to_str().unwrap()],
    );
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("titel: shown"), "{out}");
    write(outside.path(), "cfg.yml", "target: \"17.x\"\n");
    let config = outside.path().join("cfg.yml");
    let o = uplint(dir.path(), &["scan", "--config", config.to_str().unwrap()]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("target: \"17.x\""), "{out}");
    // What a configuration file names stays inside its tree, wherever the file is.
    write(outside.path(), "cfg.yml", "data: [/proc/self/environ]\n");
    let o = uplint(dir.path(), &["scan", "--config", config.to_str().unwrap()]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains("`data` path `/proc/self/environ` is refused"),
        "{out}"
    );
    assert!(!out.contains(CANARY), "{out}");
}

// --- Writing outputs ----------------------------------------------------------------------

#[test]
fn output_to_a_fifo_read_by_another_process() {
    // Outside the scanned tree (inside it, a FIFO is refused: tests/security_outputs.rs).
    let dir = repo();
    let out = tempfile::tempdir().unwrap();
    let fifo = out.path().join("report.pipe");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    let o = scan_to(dir.path(), fifo.to_str().unwrap());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(reader.join().unwrap().contains(REPORT_LINE));
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(leftovers(out.path()).is_empty());
}

#[test]
fn output_through_a_symlink() {
    // Outside the scanned tree (inside it, a link is refused: tests/security_outputs.rs).
    let dir = repo();
    let out = tempfile::tempdir().unwrap();
    fs::create_dir(out.path().join("reports")).unwrap();
    write(out.path(), "reports/latest.txt", "old\n");
    symlink("reports/latest.txt", out.path().join("report.txt")).unwrap();
    let link = out.path().join("report.txt");
    let o = scan_to(dir.path(), link.to_str().unwrap());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    let got = fs::read_to_string(out.path().join("reports/latest.txt")).unwrap();
    assert!(got.contains(REPORT_LINE), "{got}");
    assert!(leftovers(out.path()).is_empty() && leftovers(&out.path().join("reports")).is_empty());
}

#[test]
fn output_to_a_private_file_keeps_its_mode() {
    let dir = repo();
    let p = dir.path().join("report.txt");
    fs::write(&p, "old\n").unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
    let o = scan_to(dir.path(), "report.txt");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(
        fs::metadata(&p).unwrap().permissions().mode() & 0o7777,
        0o600
    );
    assert!(fs::read_to_string(&p).unwrap().contains(REPORT_LINE));
    assert!(leftovers(dir.path()).is_empty());
}

#[test]
fn output_dash_is_standard_output() {
    let dir = repo();
    let o = scan_to(dir.path(), "-");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains(REPORT_LINE));
    assert!(!dir.path().join("-").exists());
    let mut args = SCAN.to_vec();
    args.extend(["--report", "json=-", "--output", "out.txt"]);
    let o = uplint(dir.path(), &args);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["findings"], 1);
}

#[test]
fn output_in_a_missing_directory() {
    let dir = repo();
    let o = scan_to(dir.path(), "no/such/dir/report.txt");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot write no/such/dir/report.txt: directory no/such/dir does not exist"),
        "{err}"
    );
    assert!(!dir.path().join("no").exists());
}

#[test]
fn output_in_a_read_only_directory() {
    let dir = repo();
    // The child may run as an unprivileged user: the tree must be readable to it.
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let ro = dir.path().join("ro");
    fs::create_dir(&ro).unwrap();
    fs::write(ro.join("report.txt"), "old\n").unwrap();
    fs::set_permissions(ro.join("report.txt"), fs::Permissions::from_mode(0o666)).unwrap();
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).unwrap();
    let mut args = SCAN.to_vec();
    args.extend(["--output", "ro/report.txt"]);
    let mut cmd = uplint_command(dir.path(), &args);
    if is_root(dir.path()) {
        // Root writes anywhere: run as nobody, for whom the directory is read-only.
        cmd.uid(65534).gid(65534);
    }
    let o = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error: cannot write ro/report.txt: cannot create a temporary file in ro:"),
        "{err}"
    );
    assert!(err.contains("ermission denied"), "{err}");
    assert_eq!(fs::read_to_string(ro.join("report.txt")).unwrap(), "old\n");
    assert!(leftovers(&ro).is_empty());
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn output_to_a_character_device_leaves_it_a_device() {
    let dir = repo();
    if !is_root(dir.path()) {
        eprintln!("note: not root, cannot make a device node: character-device case skipped");
        return;
    }
    // A null device of our own (major 1, minor 3), never the machine's /dev/null.
    let dev = dir.path().join("null");
    let made = Command::new("mknod")
        .args([dev.to_str().unwrap(), "c", "1", "3"])
        .status()
        .unwrap();
    assert!(made.success());
    for _ in 0..2 {
        let o = scan_to(dir.path(), "null");
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let meta = fs::symlink_metadata(&dev).unwrap();
        assert!(meta.file_type().is_char_device(), "{meta:?}");
    }
    assert!(leftovers(dir.path()).is_empty());
}
