//! The scanner on fixture trees, one per kind of file. Each tree holds real-looking positives
//! and look-alikes; `expected.txt` lists every finding as `path:line:col id`. Equality proves
//! both that every positive is found at its place and that no look-alike is reported.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use uplint::catalog::Catalog;
use uplint::scan::{Options, Report, Scanner};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scan")
}

fn scan(dir: &Path, target: &str) -> Report {
    let cat = Catalog::embedded().unwrap();
    let scanner = Scanner::new(&cat, Options::new(target.parse().unwrap())).unwrap();
    scanner.scan_paths(&[dir.to_path_buf()], dir)
}

fn lines(report: &Report) -> Vec<String> {
    report
        .findings
        .iter()
        .map(|f| format!("{}:{}:{} {}", f.path, f.line, f.column, f.id))
        .collect()
}

fn trees() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|d| d.unwrap().path())
        .filter(|p| p.join("expected.txt").is_file())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_tree_gives_exactly_its_expected_findings() {
    let mut failures = Vec::new();
    for dir in trees() {
        let report = scan(&dir, "18.0");
        let got = lines(&report);
        let expected: Vec<String> = std::fs::read_to_string(dir.join("expected.txt"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| l.split(" #").next().unwrap().trim().to_string())
            .collect();
        if got != expected {
            let name = dir.file_name().unwrap().to_string_lossy();
            let g: BTreeSet<_> = got.iter().collect();
            let e: BTreeSet<_> = expected.iter().collect();
            failures.push(format!(
                "{name}:\n  missing: {:?}\n  unexpected: {:?}",
                e.difference(&g).collect::<Vec<_>>(),
                g.difference(&e).collect::<Vec<_>>()
            ));
        }
        // Only the deliberately broken GraphQL document is a problem.
        for e in &report.errors {
            assert!(e.path.ends_with("broken.graphql"), "{e:?}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(trees().len() >= 10);
}

#[test]
fn every_detectable_entry_has_a_positive_fixture() {
    let cat = Catalog::embedded().unwrap();
    let mut found = BTreeSet::new();
    for dir in trees() {
        for f in scan(&dir, "18.0").findings {
            found.insert(f.id);
        }
    }
    let missing: Vec<&str> = cat
        .entries()
        .iter()
        .filter(|e| e.detectable && e.removed_in.is_some())
        .filter(|e| !found.contains(&e.id))
        .map(|e| e.id.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "entries without a positive fixture: {missing:?}"
    );
}

/// Generic words are the platform's item only in their context. Each entry below names a
/// look-alike in the fixtures: the word is there, and no finding of the entry is.
const LOOKALIKES: &[(&str, &str, usize, &str)] = &[
    ("runners-active-property", "code-go/runner.go", 24, "active"),
    (
        "runners-active-property",
        "code-more/RunnerTokens.java",
        14,
        "active",
    ),
    (
        "runners-active-property",
        "code-python/blender_export.py",
        9,
        "active",
    ),
    (
        "runners-active-property",
        "code-shell-api/lookalikes.sh",
        3,
        "active",
    ),
    (
        "runners-active-property",
        "code-shell-api/lookalikes.sh",
        6,
        "active",
    ),
    (
        "runners-status-paused-active",
        "code-shell-api/lookalikes.sh",
        5,
        "paused",
    ),
    (
        "runner-register-server-side-arguments",
        "shell/ansible/register.yml",
        17,
        "paused",
    ),
    (
        "release-links-filepath",
        "code-python/blender_export.py",
        4,
        "filepath",
    ),
    (
        "release-links-filepath",
        "code-python/blender_export.py",
        11,
        "filepath",
    ),
    (
        "mr-merge-status",
        "code-ruby/app/models/merge_request.rb",
        3,
        "merge_status",
    ),
    (
        "mr-merge-status",
        "code-ruby/app/models/merge_request.rb",
        6,
        "merge_status",
    ),
    (
        "mr-merge-status",
        "code-python/blender_export.py",
        8,
        "merge_status",
    ),
    (
        "mr-merge-status",
        "code-shell-api/lookalikes.sh",
        4,
        "merge_status",
    ),
    (
        "packages-pipelines-attribute",
        "code-shell-api/lookalikes.sh",
        6,
        "pipelines",
    ),
    (
        "graphql-ci-runner-manager-fields",
        "code-js/src/runners.js",
        11,
        "ipAddress",
    ),
    (
        "graphql-ci-runner-manager-fields",
        "code-js/src/runners.js",
        12,
        "version",
    ),
    (
        "graphql-ci-runner-manager-fields",
        "graphql/queries/runners.graphql",
        13,
        "ipAddress",
    ),
    (
        "graphql-ci-runner-manager-fields",
        "graphql/queries/lookalikes.graphql",
        6,
        "version",
    ),
    (
        "graphql-vulnerability-finding-confidence",
        "graphql/queries/lookalikes.graphql",
        8,
        "confidence",
    ),
    (
        "graphql-vulnerability-create-message",
        "graphql/queries/lookalikes.graphql",
        10,
        "message",
    ),
    (
        "graphql-vulnerability-create-message",
        "graphql/queries/lookalikes.graphql",
        17,
        "message",
    ),
    (
        "graphql-dora-metric-filter-and-value",
        "graphql/queries/lookalikes.graphql",
        5,
        "value",
    ),
    (
        "graphql-ci-runner-projects-default-sort",
        "graphql/queries/runners.graphql",
        18,
        "projects",
    ),
    (
        "graphql-runner-membership-filter",
        "code-js/src/runners.js",
        24,
        "CiRunnerMembershipFilter",
    ),
    (
        "graphql-dependency-proxy-total-size-in-bytes",
        "code-js/src/storage.ts",
        5,
        "dependencyProxyTotalSizeBytes",
    ),
    (
        "ci-trigger-strategy-depend",
        "ci/.gitlab-ci.yml",
        8,
        "depend",
    ),
    ("ci-job-jwt", "ci/.gitlab-ci.yml", 9, "CI_JOB_JWT"),
    (
        "runner-termination-grace-period-seconds",
        "k8s/web.yaml",
        8,
        "terminationGracePeriodSeconds",
    ),
    (
        "runner-termination-grace-period-seconds",
        "helm/gitlab-values/values-production.yaml",
        19,
        "terminationGracePeriodSeconds",
    ),
    (
        "runner-termination-grace-period-seconds",
        "helm/runner-chart/templates/deployment.yaml",
        8,
        "terminationGracePeriodSeconds",
    ),
];

#[test]
fn generic_words_are_findings_only_in_context() {
    let cat = Catalog::embedded().unwrap();
    let mut reports = std::collections::BTreeMap::new();
    for (id, file, line, word) in LOOKALIKES {
        let tree = file.split('/').next().unwrap();
        let text = std::fs::read_to_string(fixtures().join(file)).unwrap();
        let source_line = text
            .lines()
            .nth(line - 1)
            .unwrap_or_else(|| panic!("{file}:{line}"));
        assert!(
            source_line.contains(word),
            "{file}:{line} does not contain {word}: {source_line}"
        );
        let report = reports
            .entry(tree)
            .or_insert_with(|| scan(&fixtures().join(tree), "18.0"));
        let rel = &file[tree.len() + 1..];
        let reported: Vec<String> = report
            .findings
            .iter()
            .filter(|f| f.id == *id && f.path == rel && f.line == *line)
            .map(|f| format!("{}:{} {}", f.line, f.column, f.matched))
            .collect();
        assert!(
            reported.is_empty(),
            "look-alike reported as {id}: {file}: {reported:?}"
        );
        // The entry is detectable at all: the look-alike is not silent by accident.
        assert!(cat.get(id).unwrap().detectable, "{id}");
    }
}
