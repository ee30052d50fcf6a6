//! `uplint scan --fix`, `--unsafe-fixes` and `--diff` with the built binary: every entry with a
//! replacement turns its fixture's `before/` tree into exactly its `after/` tree, a second run
//! changes nothing, and the `--diff` output applies with `git apply`; the version range decides
//! whether a fix is safe; writes keep CRLF and byte order marks and refuse what they must.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fix");

fn uplint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_uplint"))
        .current_dir(dir)
        .args(["scan", "--no-config", "--target", "18.0"])
        .args(args)
        .output()
        .expect("run uplint")
}

/// Every file of a tree, by relative path.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    for (rel, bytes) in tree(from) {
        let p = to.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

fn show(t: &BTreeMap<String, Vec<u8>>) -> String {
    t.iter()
        .map(|(k, v)| format!("== {k}\n{}", String::from_utf8_lossy(v)))
        .collect()
}

fn fixture_dirs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(FIXTURES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

fn git_apply(dir: &Path, patch: &Path, check: bool) -> Output {
    let mut c = Command::new("git");
    c.current_dir(dir).arg("apply");
    if check {
        c.arg("--check");
    }
    c.arg(patch).output().expect("run git apply")
}

#[test]
fn every_fixture_pair_is_fixed_exactly_once_and_its_diff_applies() {
    let dirs = fixture_dirs();
    assert!(!dirs.is_empty());
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let args_text = std::fs::read_to_string(dir.join("args")).unwrap();
        let args: Vec<&str> = args_text.split_whitespace().collect();
        let before = tree(&dir.join("before"));
        let after = tree(&dir.join("after"));
        assert_ne!(before, after, "{name}: the pair must differ");

        // --diff writes nothing, exits 1, and its output applies with git apply.
        let work = tempfile::tempdir().unwrap();
        copy_tree(&dir.join("before"), work.path());
        let out = uplint(work.path(), &[&args[..], &["--diff", "."]].concat());
        assert_eq!(out.status.code(), Some(1), "{name}: --diff exit status");
        assert_eq!(tree(work.path()), before, "{name}: --diff wrote something");
        let patch_dir = tempfile::tempdir().unwrap();
        let patch = patch_dir.path().join("fix.diff");
        std::fs::write(&patch, &out.stdout).unwrap();
        let check = git_apply(work.path(), &patch, true);
        assert!(
            check.status.success(),
            "{name}: git apply --check: {}\n{}",
            String::from_utf8_lossy(&check.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(git_apply(work.path(), &patch, false).status.success());
        assert_eq!(
            show(&tree(work.path())),
            show(&after),
            "{name}: the diff applied"
        );

        // --fix turns before into exactly after; a second run changes nothing.
        let work = tempfile::tempdir().unwrap();
        copy_tree(&dir.join("before"), work.path());
        let out = uplint(
            work.path(),
            &[&args[..], &["--fix", "--fail-on", "never", "."]].concat(),
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(show(&tree(work.path())), show(&after), "{name}: --fix");
        let again = uplint(
            work.path(),
            &[&args[..], &["--fix", "--fail-on", "never", "."]].concat(),
        );
        assert_eq!(again.status.code(), Some(0));
        assert_eq!(
            show(&tree(work.path())),
            show(&after),
            "{name}: a second --fix"
        );
        let diff = uplint(work.path(), &[&args[..], &["--diff", "."]].concat());
        assert_eq!(diff.status.code(), Some(0), "{name}: --diff after the fix");
        assert!(diff.stdout.is_empty(), "{name}: --diff after the fix");

        // An unsafe fixture's fix is not applied without --unsafe-fixes.
        if args.contains(&"--unsafe-fixes") {
            let safe_only: Vec<&str> = args
                .iter()
                .copied()
                .filter(|a| *a != "--unsafe-fixes")
                .collect();
            let work = tempfile::tempdir().unwrap();
            copy_tree(&dir.join("before"), work.path());
            uplint(
                work.path(),
                &[&safe_only[..], &["--fix", "--fail-on", "never", "."]].concat(),
            );
            assert_eq!(
                tree(work.path()),
                before,
                "{name}: an unsafe fix was applied by --fix"
            );
        }
    }
}

#[test]
fn every_entry_with_a_replacement_has_a_fixture_pair() {
    let cat = uplint::catalog::Catalog::load(&[]).unwrap();
    let missing: Vec<&str> = cat
        .entries()
        .iter()
        .filter(|e| !uplint::fix::replacements(e).is_empty())
        .map(|e| e.id.as_str())
        .filter(|id| !Path::new(FIXTURES).join(id).join("before").is_dir())
        .collect();
    assert!(
        missing.is_empty(),
        "entries without a fix fixture: {missing:?}"
    );
}

const QUERY: &str = "query {\n  group(fullPath: \"g\") {\n    issues { totalWeight }\n  }\n}\n";

fn succeeded(out: &Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
}

fn assert_fixed(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(text, QUERY.replace("totalWeight", "totalIssueWeight"));
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

#[test]
fn the_supported_range_decides_whether_a_rename_is_safe() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("q.graphql");
    std::fs::write(&q, QUERY).unwrap();

    let out = uplint(
        dir.path(),
        &["--current", "16.0", "--format", "json", "--fix", "."],
    );
    assert_eq!(
        std::fs::read_to_string(&q).unwrap(),
        QUERY,
        "not fixed for 16.0"
    );
    let fix = &json(&out)["findings"][0]["fix"];
    assert_eq!(fix["applicability"], "unsafe");
    assert_eq!(
        fix["reason"],
        "`totalIssueWeight` exists since 16.2; the supported range starts at 16.0"
    );
    assert_eq!(
        fix["edits"],
        serde_json::json!([{"path": "q.graphql", "line": 3, "column": 14, "end_line": 3, "end_column": 25, "replacement": "totalIssueWeight"}])
    );

    // --min-version is the lower end when given.
    let out = uplint(
        dir.path(),
        &[
            "--current",
            "16.5",
            "--min-version",
            "16.0",
            "--format",
            "json",
            ".",
        ],
    );
    assert_eq!(json(&out)["findings"][0]["fix"]["applicability"], "unsafe");

    // Without a version the lower end is unknown.
    let out = uplint(dir.path(), &["--format", "json", "."]);
    let reason = json(&out)["findings"][0]["fix"]["reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        reason.contains("lower end of the supported range is unknown"),
        "{reason}"
    );

    let out = uplint(dir.path(), &["--current", "16.0", "--unsafe-fixes", "."]);
    succeeded(&out);
    assert_fixed(&q);

    std::fs::write(&q, QUERY).unwrap();
    let out = uplint(
        dir.path(),
        &["--current", "16.5", "--format", "json", "--fix", "."],
    );
    assert_eq!(
        json(&out)["findings"],
        serde_json::json!([]),
        "nothing remains"
    );
    assert_fixed(&q);
}

/// A tree with `q.graphql` (totalWeight) and a `.uplint.yml` for 16.0 → 17.0 with `settings`.
fn configured(settings: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.graphql"), QUERY).unwrap();
    let config = format!("target: \"17.0\"\ncurrent: \"16.0\"\n{settings}");
    std::fs::write(dir.path().join(".uplint.yml"), config).unwrap();
    dir
}

/// `uplint scan ARGS` with the tree's own configuration.
fn scan_configured(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_uplint"))
        .current_dir(dir)
        .arg("scan")
        .args(args)
        .output()
        .unwrap()
}

/// `uplint scan --config .uplint.yml ARGS`: the user names the file, so it may ask for fixes.
fn scan_named(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["--config", ".uplint.yml"];
    all.extend_from_slice(args);
    scan_configured(dir, &all)
}

#[test]
fn fix_true_in_the_configuration_fixes() {
    let dir = configured("fix: true\nunsafe-fixes: true\n");
    succeeded(&scan_named(dir.path(), &["."]));
    assert_fixed(&dir.path().join("q.graphql"));
}

#[test]
fn unsafe_fixes_in_the_configuration_alone_writes_nothing() {
    let dir = configured("unsafe-fixes: true\n");
    let out = scan_named(dir.path(), &["."]);
    assert_eq!(out.status.code(), Some(1), "the finding remains");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("q.graphql")).unwrap(),
        QUERY
    );
    // It widens --diff and --fix.
    let diff = scan_named(dir.path(), &["--diff", "."]);
    assert!(String::from_utf8_lossy(&diff.stdout).contains("+    issues { totalIssueWeight }"));
    succeeded(&scan_named(dir.path(), &["--fix", "."]));
    assert_fixed(&dir.path().join("q.graphql"));
}

#[test]
fn crlf_and_a_byte_order_mark_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("q.graphql");
    let before = format!("\u{FEFF}{}", QUERY.replace('\n', "\r\n"));
    std::fs::write(&q, &before).unwrap();
    let diff = uplint(dir.path(), &["--current", "16.5", "--diff", "."]);
    let patch = dir.path().join("../fix-crlf.diff");
    std::fs::write(&patch, &diff.stdout).unwrap();
    let check = git_apply(dir.path(), &patch, true);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    std::fs::remove_file(&patch).unwrap();
    uplint(dir.path(), &["--current", "16.5", "--fix", "."]);
    assert_eq!(
        std::fs::read_to_string(&q).unwrap(),
        before.replace("totalWeight", "totalIssueWeight")
    );
}

#[cfg(unix)]
#[test]
fn a_read_only_file_is_listed_and_the_others_are_fixed() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.graphql"), dir.path().join("b.graphql"));
    std::fs::write(&a, QUERY).unwrap();
    std::fs::write(&b, QUERY).unwrap();
    std::fs::set_permissions(&a, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(&b, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = uplint(
        dir.path(),
        &["--current", "16.5", "--format", "json", "--fix", "."],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&a).unwrap(), QUERY);
    assert_eq!(
        std::fs::read_to_string(&b).unwrap(),
        QUERY.replace("totalWeight", "totalIssueWeight")
    );
    assert_eq!(
        std::fs::metadata(&b).unwrap().permissions().mode() & 0o777,
        0o640
    );
    let report = json(&out);
    assert_eq!(
        report["errors"],
        serde_json::json!([{"path": "a.graphql", "message": "is read-only: not fixed"}])
    );
    assert_eq!(
        report["findings"].as_array().unwrap().len(),
        1,
        "a.graphql's finding remains"
    );
    assert_eq!(tree(dir.path()).len(), 2, "no temporary file left");
}

#[cfg(unix)]
#[test]
fn a_link_to_a_file_outside_the_scanned_paths_is_not_written() {
    let outside = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let target = outside.path().join("q.graphql");
    std::fs::write(&target, QUERY).unwrap();
    std::os::unix::fs::symlink(&target, dir.path().join("q.graphql")).unwrap();
    let out = uplint(
        dir.path(),
        &[
            "--current",
            "16.5",
            "--follow",
            "--format",
            "json",
            "--fix",
            ".",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), QUERY);
    assert!(
        std::fs::symlink_metadata(dir.path().join("q.graphql"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let message = json(&out)["errors"][0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(message.contains("outside the scanned paths"), "{message}");
}

#[test]
fn sarif_results_carry_fixes_and_rdjsonl_diagnostics_suggestions() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.graphql"), QUERY).unwrap();
    let out = uplint(dir.path(), &["--current", "16.5", "--format", "sarif", "."]);
    let sarif = json(&out);
    let fixes = &sarif["runs"][0]["results"][0]["fixes"];
    assert_eq!(
        fixes,
        &serde_json::json!([{
            "description": {"text": "rename `totalWeight` to `totalIssueWeight` (safe: uplint scan --fix)"},
            "artifactChanges": [{
                "artifactLocation": {"uri": "q.graphql", "uriBaseId": "%SRCROOT%"},
                "replacements": [{
                    "deletedRegion": {"startLine": 3, "startColumn": 14, "endLine": 3, "endColumn": 25},
                    "insertedContent": {"text": "totalIssueWeight"},
                }],
            }],
        }])
    );
    let out = uplint(
        dir.path(),
        &["--current", "16.5", "--format", "rdjsonl", "."],
    );
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        line["suggestions"],
        serde_json::json!([{
            "range": {"start": {"line": 3, "column": 14}, "end": {"line": 3, "column": 25}},
            "text": "totalIssueWeight",
        }])
    );
    // A finding without a fix has neither.
    std::fs::write(
        dir.path().join("q.graphql"),
        "query { runnerPlatforms { nodes { name } } }\n",
    )
    .unwrap();
    let out = uplint(dir.path(), &["--current", "16.5", "--format", "sarif", "."]);
    assert!(json(&out)["runs"][0]["results"][0].get("fixes").is_none());
}

/// The README's `--diff` example is what uplint prints for the `graphql-total-weight` fixture.
#[test]
fn the_readme_shows_real_diff_output() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let shown: String = readme
        .lines()
        .skip_while(|l| !l.contains("--current 16.5 --diff"))
        .skip(1)
        .take_while(|l| !l.starts_with("uplint: "))
        .map(|l| format!("{l}\n"))
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .current_dir(Path::new(FIXTURES).join("graphql-total-weight/before"))
        .args([
            "scan",
            "--no-config",
            "--target",
            "17.0",
            "--current",
            "16.5",
            "--diff",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), shown);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("uplint: 1 fix in 1 file would be applied")
    );
}

/// A fix that would make the file fail to parse is not applied (an in-house entry whose
/// replacement is no GraphQL name), and files not scanned are never touched.
#[test]
fn a_fix_that_breaks_the_parse_is_left_out_and_unscanned_files_stay() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("entries.yml"),
        "schema_version: 1\nentries:\n  - id: inhouse-weight-total\n    title: weightTotal\n    surface: graphql\n    change: renamed\n    removed_in: \"17.0\"\n    replacement: weight\n    replacement_available_in: \"16.0\"\n    spec: [\"in-house\"]\n    patterns:\n      - {kind: graphql, element: field, name: weightTotal, replace_with: \"weight {\"}\n",
    )
    .unwrap();
    let broken = "query { group(fullPath: \"g\") { weightTotal } }\n";
    std::fs::write(dir.path().join("a.graphql"), broken).unwrap();
    std::fs::write(dir.path().join("b.graphql"), QUERY).unwrap();
    let data = dir.path().join("entries.yml");
    let out = uplint(
        dir.path(),
        &[
            "--data",
            data.to_str().unwrap(),
            "--current",
            "16.5",
            "--format",
            "json",
            "--fix",
            "a.graphql",
        ],
    );
    let report = json(&out);
    assert_eq!(
        report["findings"][0]["id"], "inhouse-weight-total",
        "{report}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.graphql")).unwrap(),
        broken
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b.graphql")).unwrap(),
        QUERY
    );
}
