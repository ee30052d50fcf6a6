//! Auditing a fleet: shards of one tree, merged reports, baselines.

#[path = "../examples/gen_corpus.rs"]
#[allow(dead_code)]
mod gen_corpus;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use uplint::catalog::Catalog;
use uplint::scan::shard::Shard;
use uplint::scan::{Options, Report, Scanner};

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scan(cat: &Catalog, dir: &Path, shard: Option<Shard>) -> Report {
    let mut options = Options::new("18.0".parse().unwrap());
    options.current = Some("16.0".parse().unwrap());
    options.shard = shard;
    let scanner = Scanner::new(cat, options).unwrap();
    scanner.scan_paths(&[dir.to_path_buf()], dir)
}

/// For N in 1..=5, the shards of N together scan every file once and find exactly what the whole
/// scan finds.
fn assert_shards_make_the_whole(cat: &Catalog, dir: &Path) {
    let whole = scan(cat, dir, None);
    assert!(
        whole.summary.findings > 5,
        "{}: too few findings to prove anything",
        dir.display()
    );
    for total in 1..=5 {
        let mut findings = Vec::new();
        let mut files = 0;
        let mut per_shard = Vec::new();
        for index in 1..=total {
            let part = scan(cat, dir, Some(Shard { index, total }));
            files += part.summary.files_scanned;
            per_shard.push(part.summary.files_scanned);
            findings.extend(part.findings);
        }
        findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        assert_eq!(
            findings,
            whole.findings,
            "{} in {total} shards",
            dir.display()
        );
        assert_eq!(files, whole.summary.files_scanned, "{total} shards");
        if total > 1 && whole.summary.files_scanned >= 20 {
            assert!(
                per_shard
                    .iter()
                    .all(|&n| n > 0 && n < whole.summary.files_scanned),
                "{total} shards should each take a part: {per_shard:?}"
            );
        }
    }
}

#[test]
fn shards_of_the_sample_repository_make_the_whole_scan() {
    let cat = Catalog::embedded().unwrap();
    assert_shards_make_the_whole(&cat, &repo_root().join("examples/upgrade-audit"));
    assert_shards_make_the_whole(&cat, &repo_root().join("tests/fixtures"));
}

#[test]
fn shards_of_a_generated_corpus_make_the_whole_scan() {
    let cat = Catalog::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    // The benchmark's generator, small and without its very large files.
    gen_corpus::generate(dir.path(), 400, 7, 0);
    assert_shards_make_the_whole(&cat, dir.path());
}

fn uplint(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_uplint"));
    c.args(args).current_dir(dir).env("NO_COLOR", "1");
    for v in ["CI_NODE_INDEX", "CI_NODE_TOTAL", "CI_PROJECT_PATH"] {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn findings_of(o: &Output) -> Vec<serde_json::Value> {
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(o)));
    v["findings"].as_array().unwrap().clone()
}

#[test]
fn shard_auto_reads_the_ci_node_variables() {
    let root = repo_root();
    let sample = [
        "scan",
        "--format",
        "json",
        "--exit-zero",
        "examples/upgrade-audit",
    ];
    let whole = findings_of(&uplint(&root, &sample, &[]));
    let mut args = sample.to_vec();
    args.extend(["--shard", "auto"]);
    // Not in a parallel job: the whole tree.
    assert_eq!(findings_of(&uplint(&root, &args, &[])), whole);
    let mut union = Vec::new();
    for i in ["1", "2", "3"] {
        let o = uplint(
            &root,
            &args,
            &[("CI_NODE_INDEX", i), ("CI_NODE_TOTAL", "3")],
        );
        let part = findings_of(&o);
        assert!(part.len() < whole.len());
        union.extend(part);
    }
    assert_eq!(union.len(), whole.len());
    for f in &whole {
        assert!(union.contains(f), "{f} in no shard");
    }
    let o = uplint(
        &root,
        &args,
        &[("CI_NODE_INDEX", "4"), ("CI_NODE_TOTAL", "3")],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("CI_NODE_INDEX 4 is greater than CI_NODE_TOTAL 3"),
        "{}",
        stderr(&o)
    );
    let mut args = sample.to_vec();
    args.extend(["--shard", "3/2"]);
    let o = uplint(&root, &args, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("expected I/N"), "{}", stderr(&o));
}
