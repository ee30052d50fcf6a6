//! Fixes on code never break it (issue 36): every edited file is read again for its structure
//! (strings, comments, brackets; for Go and Python the names used and declared) and a fix that
//! makes it worse is left out and said on standard error. The trees are under
//! `tests/fixtures/reparse/`: `code/` (Go, Python, TypeScript and Ruby clients with fixable
//! findings, next to a parameter, a local variable and another resource's field of the same
//! name) and `breaking/` (in-house entries, one of whose replacements is no name).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use uplint::syntax::structure::{self, Lang};

fn fixtures(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/reparse")
        .join(name)
}

fn uplint(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_uplint"))
        .arg("scan")
        .arg(dir)
        .args(["--current", "16.5", "--unsafe-fixes", "--format", "concise"])
        .args(args)
        .output()
        .unwrap()
}

fn tree(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// A copy of a fixture's `before/` tree.
fn copy(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (file, text) in tree(&fixtures(name).join("before")) {
        std::fs::write(dir.path().join(file), text).unwrap();
    }
    dir
}

fn lang(file: &str) -> Lang {
    Lang::of_path(file).unwrap_or_else(|| panic!("{file}: no language"))
}

/// The fixed tree is the expected one, and each file holds together as well as before.
fn assert_fixed_and_whole(name: &str, dir: &Path) {
    let before = tree(&fixtures(name).join("before"));
    let after = tree(dir);
    assert_eq!(after, tree(&fixtures(name).join("after")), "{name}");
    for (file, text) in &after {
        let (lang, old) = (lang(file), &before[file]);
        assert_ne!(text, old, "{file}: a fix was applied");
        let was = structure::read(lang, old);
        let now = structure::read(lang, text);
        assert_eq!(now.problems, vec![], "{file}");
        assert_eq!(now.worse_than(&was, text), None, "{file}");
        assert_eq!(
            now.undeclared, was.undeclared,
            "{file}: names used and declared"
        );
    }
}

#[test]
fn every_code_fixture_is_fixed_and_reparses() {
    let dir = copy("code");
    let out = uplint(dir.path(), &["--fix"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("uplint: fixed 9 findings in 4 files"),
        "{stderr}"
    );
    assert!(!stderr.contains("not applied"), "{stderr}");
    assert_fixed_and_whole("code", dir.path());
    let after = tree(dir.path());
    // The platform's keys are renamed…
    assert!(after["releases.go"].contains("\"direct_asset_path\": \"/bin/\" + filepath,"));
    // A struct tag of the release link's type is the platform's key; the Go field keeps its name.
    assert!(
        after["releases.go"].contains("\tFilepath string `json:\"direct_asset_path,omitempty\"`")
    );
    assert!(after["merged.py"].contains("mr[\"merge_user\"][\"username\"]"));
    assert!(after["runners.ts"].contains("{ 'paused': true,"));
    assert!(after["runners.ts"].contains("direct_asset_path: `/bin/${filepath}`"));
    assert!(after["settings.rb"].contains("'search_rate_limit' => user_email_lookup_limit * 2"));
    // …and never a parameter, a local variable, or another resource's field of that name.
    assert!(
        after["releases.go"].contains("func LinkAsset(project int, tag, filepath string) error {")
    );
    assert!(after["releases.go"].contains("\tFilepath string `json:\"filepath\"`\n}"));
    assert!(after["merged.py"].contains("    merged_by = {}\n"));
    assert!(after["merged.py"].contains("def link_asset(project_id, tag, filepath):"));
    assert!(after["runners.ts"].contains("pause(runnerId: number, active: boolean)"));
    assert!(after["runners.ts"].contains("tag: string, filepath: string): Promise<Response>"));
    assert!(after["settings.rb"].contains("def raise_search_limit(user_email_lookup_limit)\n"));
}

/// An in-house entry whose replacement holds both quotes: its fix would break every file, so
/// it is left out (said on standard error, with --fix and with --diff), while the other
/// entry's fix in the same files is applied; the finding stays, and fails the run as a finding
/// without a fix does.
#[test]
fn a_fix_that_would_break_the_code_is_dropped_and_said() {
    let data = fixtures("breaking").join("entries.yml");
    let data = ["--data", data.to_str().unwrap()];
    let dir = copy("breaking");
    let diff = uplint(dir.path(), &[&["--diff"][..], &data].concat());
    let patch = String::from_utf8_lossy(&diff.stdout);
    assert!(!patch.contains("weight'"), "{patch}");
    assert_eq!(patch.matches("+++ b/").count(), 4, "{patch}");
    let diff_err = String::from_utf8_lossy(&diff.stderr).to_string();
    let out = uplint(dir.path(), &[&["--fix"][..], &data].concat());
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report = String::from_utf8_lossy(&out.stdout);
    for (file, line, why) in [
        (
            "issues.go:11:50",
            11,
            "a string joined to the name after it",
        ),
        ("issues.py:5:69", 5, "a string that does not end"),
        ("issues.rb:4:65", 4, "a string that does not end"),
        ("issues.ts:2:94", 2, "a string joined to the name after it"),
    ] {
        let said = format!(
            "uplint: {file}: fix not applied (rename `weight_total` to `weight'\"total`): the code would not hold together: {why} at line {line}\n"
        );
        assert!(stderr.contains(&said), "{said}\n{stderr}");
        assert!(diff_err.contains(&said), "--diff: {said}\n{diff_err}");
        assert!(
            report.contains(&format!("{file}: error inhouse-issue-weight-total")),
            "{report}"
        );
    }
    assert!(
        stderr.contains("uplint: fixed 4 findings in 4 files"),
        "{stderr}"
    );
    assert_fixed_and_whole("breaking", dir.path());
}

/// The same fix applied without the check would have broken each file: what the check is
/// for (and what makes the test above able to fail).
#[test]
fn the_dropped_fix_would_have_broken_each_file() {
    for (file, text) in tree(&fixtures("breaking").join("before")) {
        let broken = text
            .replace("weight_total", "weight'\"total")
            .replace("\"due\"", "\"due_date\"")
            .replace("'due'", "'due_date'");
        let lang = lang(&file);
        let why = structure::read(lang, &broken).worse_than(&structure::read(lang, &text), &broken);
        assert!(why.is_some(), "{file}");
    }
}

/// Reading a file's structure stays linear on hostile text (it runs on every file a fix edits,
/// twice a round): forms that a scan back or forward from each token would make quadratic, at
/// a size where that takes minutes and the linear reading well under a second (the ceiling is
/// far above it, so only a regression fails).
#[test]
fn reading_is_linear_on_hostile_text() {
    let forms: &[(Lang, &str)] = &[
        (Lang::Go, "func ("),
        (Lang::Go, "func f() ("),
        (Lang::Go, "var ("),
        (Lang::Go, "(("),
        (Lang::Go, "]]"),
        (Lang::Go, "a, "),
        (Lang::Go, "a := "),
        (Lang::Python, "lambda a "),
        (Lang::Python, "for a "),
        (Lang::Python, "as "),
        (Lang::Python, "from "),
        (Lang::Python, "import a "),
        (Lang::Python, "def f(\n"),
        (Lang::Python, "def f():\n "),
        (Lang::Python, "f'{"),
        (Lang::Python, "x = "),
        (Lang::Python, "a["),
        (Lang::Script, "(a): "),
        (Lang::Script, "(a) => "),
        (Lang::Script, "a => "),
        (Lang::Script, "import "),
        (Lang::Script, "`${"),
        (Lang::Script, "const {"),
        (Lang::Script, "function f() {"),
        (Lang::Ruby, "def a\n"),
        (Lang::Ruby, "def a\n "),
        (Lang::Ruby, "do |"),
        (Lang::Ruby, "rescue "),
        (Lang::Ruby, "for a "),
        (Lang::Ruby, "a[b] = "),
        (Lang::Ruby, "%w["),
        (Lang::Ruby, "\"#{"),
    ];
    for &(lang, form) in forms {
        let text = form.repeat(300_000 / form.len());
        let (done, wait) = std::sync::mpsc::channel();
        let t = text.clone();
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            structure::read(lang, &t);
            let _ = done.send(started.elapsed());
        });
        match wait.recv_timeout(std::time::Duration::from_secs(20)) {
            Ok(took) if std::env::var("SHOW").is_ok() => eprintln!("{lang:?} {form:?}: {took:?}"),
            Ok(took) => assert!(took.as_secs() < 20, "{lang:?} {form:?}: {took:?}"),
            Err(_) => panic!(
                "{lang:?} {form:?} x {}: not read in 20 s",
                text.len() / form.len()
            ),
        }
    }
}
