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

fn ok(o: Output) -> Vec<u8> {
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "exit {:?}: {}",
        o.status.code(),
        stderr(&o)
    );
    o.stdout
}

/// Scan `tree` (below the repository root) from 16.0 to 18.0 in `format`, with more arguments.
fn scan_to(tree: &str, format: &str, more: &[&str]) -> Vec<u8> {
    scan_for("18.0", tree, format, more)
}

fn scan_for(target: &str, tree: &str, format: &str, more: &[&str]) -> Vec<u8> {
    let mut args = vec![
        "scan",
        "--no-config",
        "--current",
        "16.0",
        "--target",
        target,
    ];
    args.extend(["--format", format, tree]);
    args.extend_from_slice(more);
    ok(uplint(&repo_root(), &args, &[]))
}

fn merge(reports: &[PathBuf], more: &[&str]) -> Output {
    let mut args: Vec<&str> = vec!["merge"];
    args.extend(reports.iter().map(|p| p.to_str().unwrap()));
    args.extend_from_slice(more);
    uplint(&repo_root(), &args, &[])
}

#[test]
fn merging_the_shards_reproduces_the_whole_scan() {
    let dir = tempfile::tempdir().unwrap();
    for tree in ["examples/upgrade-audit", "tests/fixtures"] {
        let whole = scan_to(tree, "json", &[]);
        let whole_cq = scan_to(tree, "codequality", &[]);
        for total in 1..=5 {
            let shards: Vec<PathBuf> = (1..=total)
                .map(|i| {
                    let shard = format!("{i}/{total}");
                    let p = dir.path().join(format!("shard-{i}-{total}.json"));
                    std::fs::write(&p, scan_to(tree, "json", &["--shard", &shard])).unwrap();
                    p
                })
                .collect();
            let merged = ok(merge(&shards, &["--format", "json"]));
            assert_eq!(
                String::from_utf8(merged).unwrap(),
                String::from_utf8(whole.clone()).unwrap(),
                "{tree}: merge of {total} shards"
            );
            // The line-independent fingerprints too, though JSON reports do not carry them.
            let cq = ok(merge(&shards, &["--format", "codequality"]));
            assert_eq!(cq, whole_cq, "{tree}: Code Quality of {total} shards");
        }
    }
}

#[test]
fn merging_several_projects_lists_each_with_its_findings() {
    let dir = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    for (name, tree) in [
        ("group/ci", "tests/fixtures/scan/ci"),
        ("group/helm", "tests/fixtures/scan/helm"),
        ("other/runner", "tests/fixtures/scan/runner"),
    ] {
        let p = dir.path().join(format!("{}.json", name.replace('/', "-")));
        std::fs::write(&p, scan_to(tree, "json", &["--project", name])).unwrap();
        reports.push(p);
    }
    let o = merge(&reports, &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&ok(o)).unwrap();
    assert_eq!(v["project"], serde_json::Value::Null);
    let names: Vec<&str> = v["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["group/ci", "group/helm", "other/runner"]);
    let total: u64 = v["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["findings"].as_u64().unwrap())
        .sum();
    assert_eq!(v["summary"]["findings"].as_u64(), Some(total));
    for f in v["findings"].as_array().unwrap() {
        let path = f["path"].as_str().unwrap();
        assert!(
            names.iter().any(|n| path.starts_with(&format!("{n}/"))),
            "{path}"
        );
    }
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["path"] == "group/ci/.gitlab-ci.yml" && f["id"] == "ci-job-jwt")
    );

    let html = String::from_utf8(ok(merge(&reports, &["--format", "html"]))).unwrap();
    // The table links every project to its findings, most removed first.
    let mut removed = Vec::new();
    for name in ["group/ci", "group/helm", "other/runner"] {
        let link = html
            .find(&format!("\">{name}</a>"))
            .unwrap_or_else(|| panic!("{name} in the table"));
        let anchor = &html[html[..link].rfind('#').unwrap() + 1..link];
        let section = format!("<section class=\"project\" id=\"{anchor}\"><h2>Project {name} ");
        assert!(html.contains(&section), "{section}");
        removed.push((
            link,
            v["projects"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .unwrap()["removed"]
                .as_u64()
                .unwrap(),
        ));
    }
    removed.sort();
    assert!(removed.windows(2).all(|w| w[0].1 >= w[1].1), "{removed:?}");
    assert!(
        html.contains("<code>other/runner/"),
        "runner findings listed"
    );
    let md = String::from_utf8(ok(merge(&reports, &["--format", "markdown"]))).unwrap();
    assert!(md.contains("| [group/ci](#project-groupci) | "), "{md}");
    assert!(md.contains("\n#### project other/runner\n"), "{md}");
    // One project alone has no per-project view.
    let one = String::from_utf8(ok(merge(&reports[..1], &["--format", "markdown"]))).unwrap();
    assert!(!one.contains("#### Projects"));
}

#[test]
fn merging_reports_of_different_upgrades_or_data_fails() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: Vec<u8>| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    let tree = "tests/fixtures/scan/ci";
    let a = write("a.json", scan_to(tree, "json", &["--project", "a"]));
    let b = write(
        "b.json",
        scan_for("17.0", tree, "json", &["--project", "b"]),
    );
    // In-house data: a scan with it judges against other entries.
    let data = write(
        "acme.yml",
        b"schema_version: 1\nentries:\n  - id: acme-old-deploy-var\n    title: ACME_DEPLOY_TOKEN is replaced by ACME_OIDC\n    surface: ci\n    change: removed\n    removed_in: \"17.0\"\n    replacement: ACME_OIDC\n    spec: [\"in-house: deploy tokens\"]\n    patterns:\n      - kind: variable\n        name: ACME_DEPLOY_TOKEN\n".to_vec(),
    );
    let data = data.to_str().unwrap();
    let c = write(
        "c.json",
        scan_to(tree, "json", &["--project", "c", "--data", data]),
    );
    // The same data named by another path (another job's build directory) is the same data.
    let tree_abs = repo_root().join(tree);
    let args = [
        "--data",
        "acme.yml",
        "scan",
        "--no-config",
        "--format",
        "json",
    ];
    let other_path = uplint(
        dir.path(),
        &[&args[..], &[tree_abs.to_str().unwrap()]].concat(),
        &[],
    );
    let data_of =
        |bytes: &[u8]| serde_json::from_slice::<serde_json::Value>(bytes).unwrap()["data"].clone();
    let data_c = data_of(&std::fs::read(&c).unwrap());
    assert_eq!(data_of(&other_path.stdout), data_c);
    assert_ne!(data_of(&std::fs::read(&a).unwrap()), data_c);
    let fail = |o: Output, says: &str| {
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(o.stdout.is_empty());
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    };
    fail(
        merge(&[a.clone(), b.clone()], &[]),
        "b.json with --target 17.0; scan every project with the same --target",
    );
    let s1 = write("s1.json", scan_to(tree, "json", &["--shard", "1/3"]));
    let s3 = write("s3.json", scan_to(tree, "json", &["--shard", "3/3"]));
    fail(
        merge(&[s1.clone(), s3.clone()], &[]),
        "shard 2/3 is missing",
    );
    fail(
        merge(&[s1.clone(), s1.clone()], &[]),
        "shard 1/3 is in both",
    );
    fail(
        merge(&[a.clone(), a.clone()], &[]),
        "project a is in several reports",
    );
    let junk = write("junk.json", b"{\"target\": \"17.0\"}".to_vec());
    fail(merge(&[junk], &[]), "junk.json:1:");
    fail(
        merge(&[a.clone(), c.clone()], &[]),
        "c.json with data fnv1a64:",
    );
    // The merge itself must load the data the scans used.
    fail(
        merge(std::slice::from_ref(&c), &[]),
        "give uplint merge the same --data files",
    );
    let mut with_data = vec![
        "--data",
        data,
        "merge",
        c.to_str().unwrap(),
        "--format",
        "json",
    ];
    assert_eq!(ok(uplint(&repo_root(), &with_data, &[]))[..1], *b"{");
    with_data.truncate(4);
    assert!(matches!(
        uplint(&repo_root(), &with_data, &[]).status.code(),
        Some(0)
    ));
}

/// The findings of a JSON report as `id@line`.
fn ids(v: &serde_json::Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{}@{}", f["id"].as_str().unwrap(), f["line"]))
        .collect()
}

#[test]
fn a_baseline_hides_old_findings_and_reports_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let write = |rel: &str, text: &str| {
        let p = d.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    let ci = "deploy:\n  script:\n    - vault login -method=jwt jwt=$CI_JOB_JWT_V2\n";
    write(".gitlab-ci.yml", ci);
    write(
        "chart/values.yaml",
        "runnerRegistrationToken: \"\"\nconcurrent: 4\n",
    );
    let scan = |more: &[&str]| {
        let mut args = vec![
            "scan",
            "--no-config",
            "--target",
            "18.0",
            "--format",
            "json",
        ];
        args.extend_from_slice(more);
        let o = uplint(d, &args, &[]);
        let v: serde_json::Value =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
        (v, o.status.code())
    };

    let (v, code) = scan(&["--write-baseline", "uplint-baseline.json"]);
    let all = v["summary"]["findings"].as_u64().unwrap();
    assert!(all >= 2, "{v:#}");
    assert_eq!(code, Some(1), "writing a baseline still reports");
    assert!(v.get("baseline").is_none(), "no baseline was applied");
    let file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("uplint-baseline.json")).unwrap()).unwrap();
    assert_eq!(file["uplint_baseline"], 1);
    assert_eq!(file["findings"].as_array().unwrap().len() as u64, all);
    assert!(file["findings"][0]["fingerprint"].as_str().unwrap().len() == 32);

    let (v, code) = scan(&["--baseline", "uplint-baseline.json"]);
    assert_eq!(ids(&v), Vec::<String>::new());
    assert_eq!(code, Some(0));
    assert_eq!(v["baseline"]["hidden"].as_u64(), Some(all));
    assert_eq!(v["baseline"]["gone"], 0);

    // Lines inserted above: still hidden.
    write(
        ".gitlab-ci.yml",
        &format!("stages: [deploy]\n\nvariables:\n  A: b\n\n{ci}"),
    );
    let (v, _) = scan(&["--baseline", "uplint-baseline.json"]);
    assert_eq!(ids(&v), Vec::<String>::new(), "{v:#}");

    // A second use of the same item in the same file is new.
    write(
        ".gitlab-ci.yml",
        &format!(
            "stages: [deploy]\n\nvariables:\n  A: b\n\n{ci}\nrelease:\n  script:\n    - echo $CI_JOB_JWT_V2\n"
        ),
    );
    let (v, code) = scan(&["--baseline", "uplint-baseline.json"]);
    assert_eq!(ids(&v), ["ci-job-jwt@12"]);
    assert_eq!(code, Some(1));
    assert_eq!(v["summary"]["findings"], 1);
    assert_eq!(v["summary"]["removed"], 1);
    assert_eq!(v["baseline"]["hidden"].as_u64(), Some(all));

    // A baselined use removed: counted as gone.
    write("chart/values.yaml", "concurrent: 4\n");
    let (v, _) = scan(&["--baseline", "uplint-baseline.json"]);
    assert_eq!(ids(&v), ["ci-job-jwt@12"]);
    assert_eq!(v["baseline"]["gone"], 1);
    assert_eq!(v["baseline"]["hidden"].as_u64(), Some(all - 1));

    // Shards count only their own files' entries as gone: together, what the whole scan counts.
    let (mut hidden, mut gone) = (0, 0);
    for shard in ["1/2", "2/2"] {
        let (v, _) = scan(&["--baseline", "uplint-baseline.json", "--shard", shard]);
        hidden += v["baseline"]["hidden"].as_u64().unwrap();
        gone += v["baseline"]["gone"].as_u64().unwrap();
    }
    assert_eq!((hidden, gone), (all - 1, 1));

    // The same from .uplint.yml, and in the human summary.
    write(
        ".uplint.yml",
        "target: \"18.0\"\nbaseline: uplint-baseline.json\n",
    );
    let o = uplint(d, &["scan"], &[]);
    let human = String::from_utf8(o.stdout).unwrap();
    assert!(
        human.contains("  1 finding hidden by the baseline; 1 baseline entry no longer found"),
        "{human}"
    );
    assert!(human.contains("1 finding: 1 removed"), "{human}");
}

#[test]
fn a_file_that_is_no_baseline_is_an_error_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join(".gitlab-ci.yml"), "a:\n  script: echo $CI_JOB_JWT\n").unwrap();
    std::fs::write(d.join("bad.json"), "{\"findings\": []}").unwrap();
    let o = uplint(d, &["scan", "--no-config", "--baseline", "bad.json"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("bad.json:1:"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not an uplint baseline"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_repository_inside_an_ignored_directory_is_scanned_whole() {
    // A CI build directory: the runner's state directory ignores everything below it.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".gitignore"), "*\n").unwrap();
    let repo = dir.path().join("builds/app");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::write(repo.join(".gitignore"), "generated/\n").unwrap();
    std::fs::create_dir_all(repo.join("generated")).unwrap();
    let ci = "deploy:\n  script:\n    - echo $CI_JOB_JWT_V2\n";
    std::fs::write(repo.join(".gitlab-ci.yml"), ci).unwrap();
    std::fs::write(repo.join("generated/.gitlab-ci.yml"), ci).unwrap();
    let o = uplint(
        &repo,
        &["scan", "--no-config", "--format", "json", "."],
        &[],
    );
    let paths: Vec<String> = findings_of(&o)
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    // The repository's own ignore file still applies.
    assert_eq!(paths, [".gitlab-ci.yml"]);
    // A directory that is not a repository's root keeps its parents' ignore files.
    let o = uplint(
        dir.path(),
        &["scan", "--no-config", "--format", "json", "builds"],
        &[],
    );
    assert_eq!(findings_of(&o), Vec::<serde_json::Value>::new());
}
