//! The README is a user guide that works as pasted: at most 25 KB, its tables render (every row
//! has the header's cell count), every `uplint` command of its console blocks names a subcommand
//! and flags the built binary has, every version string in the docs and templates is the
//! package's version, and every `cargo install` builds the tested dependencies (`--locked`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const README_MAX_BYTES: usize = 25_600;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The Markdown files a user reads: the README, docs/, the templates' README, the hook's.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    for dir in ["docs", "templates", "pre-commit-hook"] {
        files.extend(files_in(&root().join(dir), &["md"]));
    }
    files
}

/// Files directly in `dir` with one of the extensions (all files when `exts` is empty).
fn files_in(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .filter(|p| exts.is_empty() || p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)))
        .collect();
    files.sort();
    files
}

/// Lines outside fenced code blocks, with their line numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut in_fence = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            out.push((i + 1, line));
        }
    }
    out
}

/// The lines of the fenced blocks whose info string is `lang`.
fn fenced_lines<'a>(text: &'a str, lang: &str) -> Vec<(usize, &'a str)> {
    let mut current: Option<bool> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            current = match current {
                None => Some(info.trim() == lang),
                Some(_) => None,
            };
            continue;
        }
        if current == Some(true) {
            out.push((i + 1, trimmed));
        }
    }
    out
}

/// Cells of a GFM table row: split on pipes not escaped by a backslash, outer pipes dropped.
fn table_cells(row: &str) -> usize {
    let row = row.trim();
    let inner = row.strip_prefix('|').unwrap_or(row);
    let inner = inner
        .strip_suffix('|')
        .filter(|s| !s.ends_with('\\'))
        .unwrap_or(inner);
    let bytes = inner.as_bytes();
    let pipes = (0..bytes.len())
        .filter(|&i| bytes[i] == b'|' && (i == 0 || bytes[i - 1] != b'\\'))
        .count();
    pipes + 1
}

fn is_delimiter_row(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.contains("---") && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

/// Every table: (file, line, header cells, a row's cells) for each row that differs.
fn table_mismatches(path: &Path, text: &str) -> Vec<String> {
    let lines = prose_lines(text);
    let mut bad = Vec::new();
    for (k, (_, line)) in lines.iter().enumerate() {
        if !is_delimiter_row(line) || k == 0 {
            continue;
        }
        let header = table_cells(lines[k - 1].1);
        for (n, row) in lines[k..]
            .iter()
            .take_while(|(_, l)| l.trim().starts_with('|'))
        {
            let cells = table_cells(row);
            if cells != header {
                bad.push(format!(
                    "{}:{n}: {cells} cells, the header has {header}",
                    path.display()
                ));
            }
        }
    }
    bad
}

#[test]
fn readme_is_at_most_25_kb() {
    let size = read(&root().join("README.md")).len();
    assert!(
        size <= README_MAX_BYTES,
        "README.md is {size} bytes, more than {README_MAX_BYTES}"
    );
}

#[test]
fn every_table_row_has_the_headers_cell_count() {
    let mut bad = Vec::new();
    let mut tables = 0;
    for path in markdown_files() {
        let text = read(&path);
        tables += prose_lines(&text)
            .iter()
            .filter(|(_, l)| is_delimiter_row(l))
            .count();
        bad.extend(table_mismatches(&path, &text));
    }
    assert!(
        tables >= 4,
        "the README and docs have tables; found {tables}"
    );
    assert!(
        bad.is_empty(),
        "tables that do not render:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_table_check_catches_an_extra_delimiter_cell() {
    let text = "| a | b |\n|---|---|---|\n| 1 | 2 |\n";
    assert_eq!(table_mismatches(Path::new("x.md"), text).len(), 1);
    let text = "| a | b |\n|---|---|\n| `x\\|y` | 2 |\n";
    assert!(table_mismatches(Path::new("x.md"), text).is_empty());
}

/// Words of a shell command line: quotes removed, a trailing `# comment` dropped.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '#') if !in_word => break,
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                }
                in_word = false;
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The uplint arguments of a console line: `$ uplint …` or `$ cargo run --release -- …`.
fn uplint_args(line: &str) -> Option<Vec<String>> {
    let words = shell_words(line.strip_prefix("$ ")?);
    match words.first().map(String::as_str) {
        Some("uplint") => Some(words[1..].to_vec()),
        Some("cargo") if words.get(1).is_some_and(|w| w == "run") => {
            let sep = words.iter().position(|w| w == "--")?;
            Some(words[sep + 1..].to_vec())
        }
        _ => None,
    }
}

/// The flags `uplint ARGS --help` lists, or None when the subcommand does not exist.
fn help_flags(subcommand: &[String]) -> Option<BTreeSet<String>> {
    let out = Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(subcommand)
        .arg("--help")
        .output()
        .expect("run uplint --help");
    if !out.status.success() {
        return None;
    }
    let help = String::from_utf8(out.stdout).expect("help is UTF-8");
    let mut flags = BTreeSet::new();
    for word in help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if word.starts_with("--") && word.len() > 2 || word.len() == 2 && word.starts_with('-') {
            flags.insert(word.to_string());
        }
    }
    Some(flags)
}

/// What is wrong with one console command, if anything.
fn command_problem(args: &[String]) -> Option<String> {
    let mut sub: Vec<String> = args.iter().take(1).cloned().collect();
    if sub.first().is_some_and(|s| s == "data") {
        sub.extend(args.get(1).cloned());
    }
    if sub.is_empty() || sub[0].starts_with('-') {
        return Some("no subcommand".into());
    }
    let Some(flags) = help_flags(&sub) else {
        return Some(format!("`uplint {}` is not a subcommand", sub.join(" ")));
    };
    let unknown: Vec<&str> = args[sub.len()..]
        .iter()
        .filter(|a| a.starts_with('-') && a.len() > 1)
        .map(|a| a.split('=').next().unwrap_or(a))
        .filter(|flag| !flags.contains(*flag))
        .collect();
    (!unknown.is_empty())
        .then(|| format!("unknown flags {unknown:?} for `uplint {}`", sub.join(" ")))
}

#[test]
fn every_console_command_names_a_subcommand_and_flags_that_exist() {
    let mut checked = 0;
    let mut bad = Vec::new();
    for path in markdown_files() {
        let text = read(&path);
        for (n, line) in fenced_lines(&text, "console") {
            let Some(args) = uplint_args(line) else {
                continue;
            };
            checked += 1;
            if let Some(problem) = command_problem(&args) {
                bad.push(format!("{}:{n}: {problem}: {line}", path.display()));
            }
        }
    }
    assert!(
        checked >= 15,
        "the README's console blocks hold uplint commands; found {checked}"
    );
    assert!(
        bad.is_empty(),
        "commands that do not run as shown:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_command_check_catches_a_misspelt_flag_and_subcommand() {
    let args = |s: &str| uplint_args(s).expect("an uplint command");
    assert!(command_problem(&args("$ uplint scan --target 17.0 --curent 16.5")).is_some());
    assert!(command_problem(&args("$ uplint scna .")).is_some());
    assert!(command_problem(&args("$ uplint data check x.yml")).is_none());
    assert!(command_problem(&args("$ uplint query --search=--registration-token # x")).is_none());
}

fn package_version() -> String {
    let manifest = read(&root().join("Cargo.toml"));
    let line = manifest
        .lines()
        .find(|l| l.starts_with("version = "))
        .expect("Cargo.toml has a version");
    line.trim_start_matches("version = ")
        .trim_matches('"')
        .to_string()
}

/// The files that show users a version or a `cargo install`: docs, templates, hooks, CI.
fn user_facing_files() -> Vec<PathBuf> {
    let mut files = markdown_files();
    for dir in [
        "templates",
        "pre-commit-hook",
        "ci",
        "ci/github",
        "scripts",
        ".ci",
    ] {
        files.extend(files_in(&root().join(dir), &[]));
    }
    for name in [".pre-commit-hooks.yaml", ".gitlab-ci.yml", "pyproject.toml"] {
        files.push(root().join(name));
    }
    files.sort();
    files.dedup();
    files.retain(|p| p.is_file());
    files
}

/// Every version a user would paste: `rev:`, a component's `@…`, `UPLINT_VERSION`, the version
/// input's default, `uplint==…`, a package-registry URL's version.
fn pinned_versions(text: &str) -> Vec<(usize, String)> {
    let markers: [(&str, &[char]); 6] = [
        ("rev: ", &[' ', '#']),
        ("UPLINT_VERSION: ", &[' ', '#']),
        ("uplint==", &[' ', '"', '\'', ',', ']', '`']),
        ("packages/generic/uplint/", &['/', '"', ' ']),
        ("/uplint@", &[' ', '"', '`']),
        ("/fleet-audit@", &[' ', '"', '`']),
    ];
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for (marker, ends) in markers {
            for (at, _) in line.match_indices(marker) {
                let rest = &line[at + marker.len()..];
                let end = rest.find(|c| ends.contains(&c)).unwrap_or(rest.len());
                let value = rest[..end].trim_matches('"');
                // Shell and CI variables stand for a version given elsewhere.
                if !value.is_empty() && !value.starts_with('$') && !value.starts_with("<") {
                    found.push((i + 1, value.to_string()));
                }
            }
        }
    }
    found
}

#[test]
fn every_version_in_docs_and_templates_is_the_packages_version() {
    let version = package_version();
    let mut bad = Vec::new();
    let mut seen = 0;
    for path in user_facing_files() {
        for (n, value) in pinned_versions(&read(&path)) {
            seen += 1;
            if value != version {
                bad.push(format!("{}:{n}: {value}, not {version}", path.display()));
            }
        }
    }
    assert!(seen >= 5, "the docs pin versions; found {seen}");
    assert!(
        bad.is_empty(),
        "versions that do not resolve:\n{}",
        bad.join("\n")
    );
    let found =
        pinned_versions("    rev: v0.0.9\n  - component: $CI_SERVER_FQDN/g/uplint/uplint@1.2.3\n");
    assert_eq!(found, [(1, "v0.0.9".to_string()), (2, "1.2.3".to_string())]);
}

#[test]
fn every_cargo_install_in_docs_hooks_and_templates_is_locked() {
    let mut bad = Vec::new();
    let mut seen = 0;
    for path in user_facing_files() {
        for (i, line) in read(&path).lines().enumerate() {
            // A command, not the words in a sentence ("`cargo install` from …").
            if line.contains("cargo install ") {
                seen += 1;
                if !line.contains("--locked") {
                    bad.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        seen >= 2,
        "the README and the templates install with cargo; found {seen}"
    );
    assert!(
        bad.is_empty(),
        "`cargo install` without --locked:\n{}",
        bad.join("\n")
    );
}

/// The section on reading a report explains production and test findings and `--tests`, with
/// every value `uplint scan --help` lists for it (issue 36).
#[test]
fn reading_a_report_explains_test_findings_and_every_tests_mode() {
    let readme = read(&root().join("README.md"));
    let start = readme.find("## Reading a report").expect("the section");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    for needed in [
        "`production`",
        "`test`",
        "`--tests`",
        "`--fail-on`",
        "`related`",
    ] {
        assert!(
            section.contains(needed),
            "the section does not mention {needed}"
        );
    }
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(["scan", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    let tests = &help[help.find("--tests <MODE>").expect("--tests in the help")..];
    let values = &tests[tests.find("Possible values:").expect("its values")..];
    let modes: Vec<&str> = values
        .lines()
        .skip(1)
        .map_while(|l| l.trim().strip_prefix("- "))
        .filter_map(|l| l.split(':').next())
        .collect();
    assert!(modes.len() >= 3, "{modes:?}");
    for mode in modes {
        assert!(
            section.contains(&format!("`{mode}`")),
            "the section does not say what `--tests {mode}` does"
        );
    }
}
