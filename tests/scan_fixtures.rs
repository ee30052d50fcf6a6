//! The scanner on fixture trees, driven through the built binary. Every tree under
//! `tests/fixtures/scan/` (per kind of file, per group of entries) and `tests/fixtures/kinds/`
//! (per pattern kind) marks its expected findings inside its own files (`expect: ID@COL` in a
//! comment; tests/fixtures/README.md has the convention). A finding nobody marked and a marker
//! nothing matched both fail, so the markers prove that every positive is found at its place and
//! that no look-alike is reported. The human report of every tree is a snapshot.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The target of a tree without its own `.uplint.yml`.
const TARGET: &str = "18.0";
/// The roots of the fixture trees: each directory right under them is one tree.
const ROOTS: [&str; 2] = ["tests/fixtures/scan", "tests/fixtures/kinds"];
/// The settings file of a tree that needs its own (a `--min-version`, extra data).
const CONFIG: &str = ".uplint.yml";
/// Sidecar of a file that cannot hold comments (JSON): `FILE.expect`.
const SIDECAR: &str = ".expect";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn trees() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for base in ROOTS {
        let Ok(dir) = std::fs::read_dir(root().join(base)) else {
            continue;
        };
        out.extend(dir.map(|d| d.unwrap().path()).filter(|p| p.is_dir()));
    }
    out.sort();
    out
}

/// `scan/ci`, `kinds/variable`: a tree's name in messages and snapshot names.
fn name(tree: &Path) -> String {
    let parent = tree
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy();
    format!("{parent}/{}", tree.file_name().unwrap().to_string_lossy())
}

fn uplint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// `uplint scan` of a whole tree, from inside it, with the tree's own settings if it has them.
fn scan(tree: &Path, format: &str) -> String {
    let mut args = vec!["scan", "--color", "never", "--format", format];
    if tree.join(CONFIG).is_file() {
        args.extend(["--config", CONFIG]);
    } else {
        args.extend(["--no-config", "--target", TARGET]);
    }
    args.push(".");
    let o = uplint(tree, &args);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}: exit {:?}\n{}",
        tree.display(),
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn scan_json(tree: &Path) -> Value {
    serde_json::from_str(&scan(tree, "json")).unwrap()
}

/// Where a finding is, or where a marker says one is (or is not).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    path: String,
    line: usize,
    column: usize,
    id: String,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{} {}", self.path, self.line, self.column, self.id)
    }
}

fn found(report: &Value) -> Vec<Place> {
    let mut out: Vec<Place> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| Place {
            path: f["path"].as_str().unwrap().to_string(),
            line: f["line"].as_u64().unwrap() as usize,
            column: f["column"].as_u64().unwrap() as usize,
            id: f["id"].as_str().unwrap().to_string(),
        })
        .collect();
    out.sort();
    out
}

/// What the markers of one tree say.
#[derive(Debug, Default)]
struct Marks {
    /// A finding of this entry starts here (a multiset: mark twice for two findings).
    expect: Vec<Place>,
    /// A word that looks like the entry's item but is not: no finding of the entry on this line.
    lookalike: Vec<Place>,
    /// (path, text): the file is listed as a problem whose message contains the text.
    problem: Vec<(String, String)>,
    /// Markers that do not parse.
    malformed: Vec<String>,
}

/// Comment openers after which a marker may start.
const OPENERS: [&str; 4] = ["#", "//", "/*", ";"];

fn is_keyword(rest: &str) -> bool {
    ["expect:", "lookalike:", "problem:"]
        .iter()
        .any(|k| rest.starts_with(k))
        || rest
            .strip_prefix("at ")
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

/// The byte offset of the comment that holds a marker on this line, and the marker's text.
fn marker(line: &str) -> Option<(usize, &str)> {
    line.char_indices().find_map(|(i, _)| {
        let opener = OPENERS.iter().find(|o| line[i..].starts_with(**o))?;
        let rest = line[i + opener.len()..].trim_start();
        is_keyword(rest).then_some((i, rest))
    })
}

/// `12:` or `12-17:` after `at`.
fn line_range(tok: &str) -> Option<(usize, usize)> {
    let tok = tok.strip_suffix(':')?;
    let (a, b) = tok.split_once('-').unwrap_or((tok, tok));
    let (a, b) = (a.parse().ok()?, b.parse().ok()?);
    (a >= 1 && a <= b).then_some((a, b))
}

/// `ci-job-jwt@18`.
fn id_at(tok: &str) -> Option<(String, usize)> {
    let (id, col) = tok.trim_end_matches(',').split_once('@')?;
    let ok = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    let col: usize = col.parse().ok()?;
    (ok && col >= 1).then(|| (id.to_string(), col))
}

/// Read one marker's text. `own`: the line it stands on (none in a sidecar, where every marker
/// starts with `at LINE:`).
fn parse_marker(body: &str, path: &str, own: Option<usize>, marks: &mut Marks) {
    let (body, problem) = match body.split_once("problem:") {
        Some((b, p)) => (b, Some(p.trim().trim_end_matches("*/").trim())),
        None => (body, None),
    };
    let at = |own: Option<usize>| own.map_or(path.to_string(), |l| format!("{path}:{l}"));
    let mut lines = own.map(|l| (l, l));
    let mut mode: Option<&str> = None;
    let mut toks = body.split_whitespace();
    while let Some(tok) = toks.next() {
        match tok {
            "#" | "//" | "/*" | "*/" | ";" => {}
            "at" => match toks.next().and_then(line_range) {
                Some(r) => {
                    lines = Some(r);
                    mode = None;
                }
                None => marks
                    .malformed
                    .push(format!("{}: `at` needs `LINE:` or `FIRST-LAST:`", at(own))),
            },
            "expect:" | "lookalike:" => mode = Some(tok),
            _ => match (id_at(tok), mode, lines) {
                (Some((id, column)), Some(m), Some((first, last))) => {
                    for line in first..=last {
                        let place = Place {
                            path: path.to_string(),
                            line,
                            column,
                            id: id.clone(),
                        };
                        match m {
                            "expect:" => marks.expect.push(place),
                            _ => marks.lookalike.push(place),
                        }
                    }
                }
                _ => marks.malformed.push(format!(
                    "{}: `{tok}` is not `ID@COLUMN` after `expect:` or `lookalike:` \
                     (in a sidecar, after `at LINE:`)",
                    at(own)
                )),
            },
        }
    }
    if let Some(text) = problem {
        if text.is_empty() {
            marks
                .malformed
                .push(format!("{}: `problem:` needs text", at(own)));
        }
        marks.problem.push((path.to_string(), text.to_string()));
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// `/`-separated path of `file` relative to `tree`.
fn rel(tree: &Path, file: &Path) -> String {
    let r = file.strip_prefix(tree).unwrap().to_string_lossy();
    r.replace('\\', "/")
}

/// Every marker of a tree: in the files' comments and in sidecars.
fn read_marks(tree: &Path) -> Marks {
    let mut marks = Marks::default();
    let mut all = Vec::new();
    files(tree, &mut all);
    all.sort();
    for file in all {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let path = rel(tree, &file);
        if let Some(target) = path.strip_suffix(SIDECAR) {
            for l in text.lines().map(str::trim) {
                if !l.is_empty() && !l.starts_with('#') {
                    parse_marker(l, target, None, &mut marks);
                }
            }
        } else {
            for (i, l) in text.lines().enumerate() {
                if let Some((_, body)) = marker(l) {
                    parse_marker(body, &path, Some(i + 1), &mut marks);
                }
            }
        }
    }
    marks.expect.sort();
    marks
}

/// The differences between two sorted multisets of places, one line each.
fn diff(expected: &[Place], got: &[Place]) -> Vec<String> {
    fn count(v: &[Place]) -> BTreeMap<&Place, usize> {
        let mut m = BTreeMap::new();
        for p in v {
            *m.entry(p).or_default() += 1;
        }
        m
    }
    let (e, g) = (count(expected), count(got));
    let keys: BTreeSet<&Place> = e.keys().chain(g.keys()).copied().collect();
    let mut out = Vec::new();
    for p in keys {
        let (ne, ng) = (
            e.get(p).copied().unwrap_or(0),
            g.get(p).copied().unwrap_or(0),
        );
        for _ in ng..ne {
            out.push(format!("  marked, not found: {p}"));
        }
        for _ in ne..ng {
            out.push(format!("  found, not marked: {p}"));
        }
    }
    out
}

/// The identifier that starts at `column` (1-based) of `line`, if one does.
fn word_at(line: &str, column: usize) -> Option<&str> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let start = line.char_indices().nth(column - 1)?.0;
    let before = line[..start].chars().next_back();
    if before.is_some_and(is_word) {
        return None;
    }
    let end = line[start..]
        .find(|c: char| !is_word(c))
        .map_or(line.len(), |e| start + e);
    (end > start).then(|| &line[start..end])
}

fn source_line(tree: &Path, p: &Place) -> Option<String> {
    let text = std::fs::read_to_string(tree.join(&p.path)).ok()?;
    text.lines().nth(p.line - 1).map(str::to_string)
}

/// The code of a marked place's line: the line without its marker comment.
fn code_line(tree: &Path, p: &Place) -> String {
    let line = source_line(tree, p).unwrap_or_default();
    let end = marker(&line).map_or(line.len(), |(i, _)| i);
    line[..end].to_string()
}

/// Look-alikes: on a word, not reported, and of an entry that some fixture does find.
fn check_lookalikes(
    tree: &Path,
    marks: &Marks,
    got: &[Place],
    expected_ids: &BTreeSet<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for p in &marks.lookalike {
        let code = code_line(tree, p);
        match word_at(&code, p.column) {
            None => out.push(format!("  lookalike marker not on a word: {p}")),
            Some(word) => {
                if got
                    .iter()
                    .any(|g| g.id == p.id && g.path == p.path && g.line == p.line)
                {
                    out.push(format!("  look-alike `{word}` reported: {p}"));
                }
            }
        }
        // The entry does find its item somewhere: the look-alike is not silent by accident.
        if !expected_ids.contains(&p.id) {
            out.push(format!("  lookalike of an entry no fixture expects: {p}"));
        }
    }
    out
}

/// The problems the scan lists (files it could not read or parse) against `problem:` markers.
fn check_problems(marks: &Marks, report: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut used = vec![false; marks.problem.len()];
    for e in report["errors"].as_array().unwrap() {
        let (path, message) = (e["path"].as_str().unwrap(), e["message"].as_str().unwrap());
        match marks
            .problem
            .iter()
            .position(|(p, t)| p == path && message.contains(t.as_str()))
        {
            Some(i) => used[i] = true,
            None => out.push(format!("  problem not marked: {path}: {message}")),
        }
    }
    for ((path, text), used) in marks.problem.iter().zip(used) {
        if !used {
            out.push(format!("  problem marked, not listed: {path}: {text}"));
        }
    }
    out
}

/// Every check of one tree against its markers; the failures, one line each.
fn check_tree(tree: &Path, marks: &Marks, expected_ids: &BTreeSet<String>) -> Vec<String> {
    let report = scan_json(tree);
    let got = found(&report);
    let mut out: Vec<String> = marks.malformed.iter().map(|m| format!("  {m}")).collect();
    out.extend(diff(&marks.expect, &got));
    for p in &marks.expect {
        if code_line(tree, p).chars().count() < p.column {
            out.push(format!(
                "  marker past the end of the code on its line: {p}"
            ));
        }
    }
    out.extend(check_lookalikes(tree, marks, &got, expected_ids));
    out.extend(check_problems(marks, &report));
    out
}

fn all_marks() -> Vec<(PathBuf, Marks)> {
    trees()
        .into_iter()
        .map(|t| (t.clone(), read_marks(&t)))
        .collect()
}

fn expected_ids(all: &[(PathBuf, Marks)]) -> BTreeSet<String> {
    all.iter()
        .flat_map(|(_, m)| m.expect.iter().map(|p| p.id.clone()))
        .collect()
}

#[test]
fn every_tree_gives_exactly_its_marked_findings() {
    let all = all_marks();
    assert!(all.len() >= 18, "trees: {}", all.len());
    let ids = expected_ids(&all);
    let mut failures = Vec::new();
    for (tree, marks) in &all {
        assert!(
            !marks.expect.is_empty(),
            "{}: a tree without a single expect marker",
            name(tree)
        );
        let problems = check_tree(tree, marks, &ids);
        if !problems.is_empty() {
            failures.push(format!("{}:\n{}", name(tree), problems.join("\n")));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// The checker itself: a marker nothing matches and a finding nobody marked are both reported.
#[test]
fn the_checker_reports_both_directions() {
    let p = |line, column, id: &str| Place {
        path: "a.sh".into(),
        line,
        column,
        id: id.into(),
    };
    let expected = [p(1, 3, "x"), p(2, 1, "y"), p(2, 1, "y")];
    let got = [p(1, 3, "x"), p(2, 1, "y"), p(4, 2, "z")];
    assert_eq!(
        diff(&expected, &got),
        [
            "  marked, not found: a.sh:2:1 y",
            "  found, not marked: a.sh:4:2 z"
        ]
    );
    assert!(diff(&expected, &expected).is_empty());
}

#[test]
fn markers_in_every_comment_syntax() {
    let mut m = Marks::default();
    for (n, line) in [
        "  - echo $CI_JOB_JWT  # expect: ci-job-jwt@13",
        "x := f() // expect: a-b@3, c@9 lookalike: d@1",
        "query { x } # at 7-8: expect: e@2",
        "; at 2: expect: f@1",
        "foo /* expect: g@1 */",
        "bar # problem: does not parse",
        "# a plain comment: expect nothing, at 3 o'clock",
        "no comment expect: h@1",
    ]
    .iter()
    .enumerate()
    {
        if let Some((_, body)) = marker(line) {
            parse_marker(body, "f", Some(n + 1), &mut m);
        }
    }
    let got: Vec<String> = m.expect.iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        [
            "f:1:13 ci-job-jwt",
            "f:2:3 a-b",
            "f:2:9 c",
            "f:7:2 e",
            "f:8:2 e",
            "f:2:1 f",
            "f:5:1 g"
        ]
    );
    assert_eq!(m.lookalike[0].to_string(), "f:2:1 d");
    assert_eq!(m.problem, [("f".to_string(), "does not parse".to_string())]);
    assert!(m.malformed.is_empty(), "{:?}", m.malformed);
    let mut bad = Marks::default();
    parse_marker("expect: CI_JOB_JWT", "f", Some(1), &mut bad);
    parse_marker("expect: x@0", "f", Some(2), &mut bad);
    parse_marker("at 4: x@1", "f", None, &mut bad);
    parse_marker("expect: x@1", "f", None, &mut bad);
    assert_eq!(bad.malformed.len(), 4, "{:?}", bad.malformed);
}

/// A copy of `tree` without its markers: each marker comment cut from its line (the line stays,
/// so positions stay), sidecars left out.
fn copy_without_markers(tree: &Path, to: &Path) {
    let mut all = Vec::new();
    files(tree, &mut all);
    for file in all {
        let path = rel(tree, &file);
        if path.ends_with(SIDECAR) {
            continue;
        }
        let dest = to.join(&path);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        let bytes = std::fs::read(&file).unwrap();
        let Ok(text) = String::from_utf8(bytes.clone()) else {
            std::fs::write(dest, bytes).unwrap();
            continue;
        };
        let stripped: String = text
            .split_inclusive('\n')
            .map(|l| {
                let (body, nl) = l.strip_suffix('\n').map_or((l, ""), |b| (b, "\n"));
                match marker(body) {
                    Some((i, _)) => format!("{}{nl}", body[..i].trim_end()),
                    None => l.to_string(),
                }
            })
            .collect();
        std::fs::write(dest, stripped).unwrap();
    }
}

/// Markers live in comments, which uplint never reads: with them cut out, every tree gives the
/// same findings and problems.
#[test]
fn markers_do_not_change_findings() {
    for tree in trees() {
        let tmp = tempfile::tempdir().unwrap();
        copy_without_markers(&tree, tmp.path());
        let (mut with, mut without) = (scan_json(&tree), scan_json(tmp.path()));
        // A fix that moves a line carries its comment, a marker included: compare without fixes.
        for report in [&mut with, &mut without] {
            for f in report["findings"].as_array_mut().into_iter().flatten() {
                f.as_object_mut().map(|o| o.remove("fix"));
            }
        }
        assert_eq!(with["findings"], without["findings"], "{}", name(&tree));
        assert_eq!(with["errors"], without["errors"], "{}", name(&tree));
        // The copy really lost its markers.
        assert!(read_marks(tmp.path()).expect.is_empty(), "{}", name(&tree));
    }
}

/// The entries of the catalog, as `uplint query` gives them.
fn catalog(extra: &[&Path]) -> Vec<Value> {
    let mut args: Vec<&str> = Vec::new();
    for d in extra {
        args.extend(["--data", d.to_str().unwrap()]);
    }
    args.extend(["query", "--format", "json"]);
    let o = uplint(&root(), &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice::<Value>(&o.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn pattern_kinds(entry: &Value) -> BTreeSet<String> {
    entry["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_detectable_entry_has_a_marked_fixture() {
    let ids = expected_ids(&all_marks());
    let missing: Vec<String> = catalog(&[])
        .iter()
        .filter(|e| e["detectable"] == true)
        .map(|e| e["id"].as_str().unwrap().to_string())
        .filter(|id| !ids.contains(id))
        .collect();
    assert!(
        missing.is_empty(),
        "entries without an `expect` marker in any fixture: {missing:?}"
    );
}

/// The pattern kinds: those the embedded data uses and those `data/README.md` documents.
fn all_pattern_kinds() -> BTreeSet<String> {
    let mut kinds: BTreeSet<String> = catalog(&[]).iter().flat_map(pattern_kinds).collect();
    let readme = std::fs::read_to_string(root().join("data/README.md")).unwrap();
    let table = readme
        .split("## Patterns")
        .nth(1)
        .expect("data/README.md has a Patterns section");
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let kind = row[3..].split('`').next().unwrap();
        kinds.insert(kind.to_string());
    }
    kinds
}

/// Every pattern kind has its tree `tests/fixtures/kinds/KIND/`, whose own entries (in its data
/// files) use that kind alone, and at least one of them is found.
#[test]
fn every_pattern_kind_has_a_fixture() {
    let kinds = all_pattern_kinds();
    assert!(kinds.len() >= 12, "{kinds:?}");
    let embedded: BTreeSet<String> = catalog(&[])
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    let mut failures = Vec::new();
    for kind in &kinds {
        let tree = root().join("tests/fixtures/kinds").join(kind);
        if !tree.join(CONFIG).is_file() {
            failures.push(format!("{kind}: no tests/fixtures/kinds/{kind}/{CONFIG}"));
            continue;
        }
        let own: Vec<Value> = catalog(&[&tree.join("entries.yml")])
            .into_iter()
            .filter(|e| !embedded.contains(e["id"].as_str().unwrap()))
            .collect();
        for e in &own {
            let k = pattern_kinds(e);
            if k.len() != 1 || !k.contains(kind) {
                failures.push(format!("{kind}: entry {} has patterns {k:?}", e["id"]));
            }
        }
        let marked = expected_ids(&[(tree.clone(), read_marks(&tree))]);
        if !own
            .iter()
            .any(|e| marked.contains(e["id"].as_str().unwrap()))
        {
            failures.push(format!("{kind}: no `expect` marker of its own entries"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A human report without its timing.
fn human(tree: &Path) -> String {
    scan(tree, "human")
        .lines()
        .map(|l| match l.find(" in ") {
            Some(i) if l.starts_with("Summary") => format!("{} in [time]", &l[..i]),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The human report of every tree of `kinds/`: the rendering of each kind of finding. Their
/// entries are their own (`entries.yml`, selected by the tree's settings), so a new entry of the
/// embedded data changes none of these snapshots.
#[test]
fn human_reports() {
    let kinds: Vec<PathBuf> = trees()
        .into_iter()
        .filter(|t| name(t).starts_with("kinds/"))
        .collect();
    assert!(kinds.len() >= 12, "{kinds:?}");
    for tree in kinds {
        let snapshot = format!("human@{}", name(&tree).replace('/', "-"));
        insta::assert_snapshot!(snapshot, human(&tree));
    }
}

/// One finding as the human report shows it: `severity[id] message`, the caret line's label,
/// `= replacement:`, `= fix:` and `= at path:line:col`.
#[derive(Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Shown {
    header: String,
    label: Option<String>,
    replacement: Option<String>,
    fix: Option<String>,
    at: String,
}

/// The findings of a human report, block by block (a block runs from its header to its `= at`).
fn shown(human: &str) -> Vec<Shown> {
    let is_header = |l: &str| {
        let Some((sev, rest)) = l.split_once('[') else {
            return false;
        };
        !sev.is_empty() && sev.chars().all(|c| c.is_ascii_lowercase()) && rest.contains("] ")
    };
    let mut out = Vec::new();
    let mut open: Option<Shown> = None;
    for line in human.lines().map(str::trim) {
        if is_header(line) {
            open = Some(Shown {
                header: line.to_string(),
                ..Shown::default()
            });
            continue;
        }
        let Some(block) = open.as_mut() else {
            continue;
        };
        if let Some(i) = line.strip_prefix("| ").and_then(|r| r.rfind("^ ")) {
            block.label.get_or_insert_with(|| line[i + 4..].to_string());
        } else if let Some(r) = line.strip_prefix("= replacement: ") {
            block.replacement = Some(r.to_string());
        } else if let Some(f) = line.strip_prefix("= fix: ") {
            block.fix = Some(f.to_string());
        } else if let Some(at) = line.strip_prefix("= at ") {
            block.at = at.to_string();
            out.extend(open.take());
        }
    }
    out.sort();
    out
}

/// The human report of every tree of `scan/` says what its JSON report says: each finding's
/// header, its caret's label (the matched text) and its place, each problem, and the total.
/// Derived from the JSON rather than snapshot, so that a new entry's fixture line changes no
/// other file (the markers prove the JSON report right).
#[test]
fn human_reports_match_json() {
    let (mut checked, mut compared, mut fixes) = (0, 0, 0);
    for tree in trees().into_iter().filter(|t| name(t).starts_with("scan/")) {
        let (human, report) = (human(&tree), scan_json(&tree));
        let findings = report["findings"].as_array().unwrap();
        // Findings in tests are counted per file under "Tests", not shown one by one.
        let (in_tests, shown_one_by_one): (Vec<&Value>, Vec<&Value>) =
            findings.iter().partition(|f| f["context"] == "test");
        let mut per_test_file = BTreeMap::<&str, usize>::new();
        for f in in_tests {
            *per_test_file
                .entry(f["path"].as_str().unwrap())
                .or_default() += 1;
        }
        for (path, n) in per_test_file {
            let line = format!("\n  {path}: {n} test finding");
            assert!(
                human.contains(&line),
                "{}: no `{line}` in:\n{human}",
                name(&tree)
            );
        }
        let mut want: Vec<Shown> = shown_one_by_one
            .into_iter()
            .map(|f| {
                let s = |k: &str| f[k].as_str().unwrap().to_string();
                let matched = s("matched");
                Shown {
                    header: format!("{}[{}] {}", s("severity"), s("id"), s("message")),
                    label: (!matched.contains('\n')).then_some(matched),
                    replacement: f["replacement"].as_str().map(str::to_string),
                    fix: f["fix"]["description"].as_str().map(str::to_string),
                    at: format!("{}:{}:{}", s("path"), f["line"], f["column"]),
                }
            })
            .collect();
        want.sort();
        let mut got = shown(&human);
        // A label of a match over several lines is not compared; a fix line goes on with its
        // applicability after the description.
        for (g, w) in got.iter_mut().zip(&want) {
            if w.label.is_none() {
                g.label = None;
            }
            if let (Some(gf), Some(wf)) = (&g.fix, &w.fix)
                && gf.starts_with(wf.as_str())
            {
                g.fix = w.fix.clone();
            }
        }
        assert_eq!(got, want, "{}:\n{human}", name(&tree));
        fixes += want.iter().filter(|w| w.fix.is_some()).count();
        compared += want.len();
        for e in report["errors"].as_array().unwrap() {
            let path = e["path"].as_str().unwrap();
            assert!(
                human.contains(&format!("\n  {path}: ")),
                "{}: problem of {path} not shown:\n{human}",
                name(&tree)
            );
        }
        let total = format!("\n  {} finding", findings.len());
        assert!(
            human.contains(&total),
            "{}: no `{total}` in:\n{human}",
            name(&tree)
        );
        checked += 1;
    }
    assert!(
        checked >= 20 && compared >= 200 && fixes >= 10,
        "{checked} trees, {compared} findings, {fixes} fixes"
    );
}
