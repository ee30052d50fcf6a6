//! The first hour as a user (issue 37): help texts that are complete and say each default once,
//! one name for the format people read in every command, `explain` aligned and worded as the
//! fix it describes, and one finding per use in a runner registration block.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use uplint::scan::Status;

fn uplint_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .output()
        .expect("the binary runs")
}

fn uplint(args: &[&str]) -> Output {
    uplint_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

fn stdout(args: &[&str]) -> String {
    let o = uplint(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The subcommands and their long help.
const COMMANDS: [&[&str]; 7] = [
    &["scan"],
    &["merge"],
    &["query"],
    &["explain"],
    &["versions"],
    &["data", "check"],
    &["server"],
];

fn help(cmd: &[&str]) -> String {
    let mut args = cmd.to_vec();
    args.push("--help");
    stdout(&args)
}

/// The options of a long help, each with its text: (`--name`, the lines up to the next option).
fn options(help: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut in_options = false;
    for line in help.lines() {
        if line == "Options:" {
            in_options = true;
            continue;
        }
        if !in_options {
            continue;
        }
        if !line.is_empty() && !line.starts_with(' ') {
            break;
        }
        let t = line.trim_start();
        let indent = line.len() - t.len();
        if t.starts_with('-') && indent <= 6 {
            let name = t
                .split([',', ' '])
                .find(|w| w.starts_with("--"))
                .unwrap_or(t)
                .to_string();
            out.push((name, String::new()));
        } else if let Some((_, text)) = out.last_mut() {
            text.push_str(t);
            text.push('\n');
        }
    }
    out
}

fn option<'a>(opts: &'a [(String, String)], name: &str) -> &'a str {
    &opts
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no {name} in {opts:?}"))
        .1
}

/// Every status of a finding is in `scan --help`'s table, with its severity, in three aligned
/// columns.
#[test]
fn the_status_table_of_scan_help_lists_every_status_aligned() {
    // A new status does not compile here until it is in `Status::ALL` (and so in the table).
    let index = |s: Status| match s {
        Status::Removed => 0,
        Status::Deprecated => 1,
        Status::BehaviourChange => 2,
        Status::Unavailable => 3,
        Status::InvalidCall => 4,
        Status::UnusedSuppression => 5,
    };
    for (i, s) in Status::ALL.iter().enumerate() {
        assert_eq!(index(*s), i, "{s:?}");
    }
    let text = help(&["scan"]);
    let table: Vec<&str> = text
        .split("Status and severity of a finding, for the target version:\n")
        .nth(1)
        .expect("the status table")
        .lines()
        .take_while(|l| l.starts_with("  "))
        .collect();
    let statuses: Vec<&str> = table
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let all: Vec<&str> = Status::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(statuses, all, "{text}");
    // The columns: where each row's description and severity start.
    let columns = |row: &str| {
        let status_end = 2 + row[2..].find(' ').unwrap();
        let rest = &row[status_end..];
        let description = status_end + rest.len() - rest.trim_start().len();
        let severity = row.trim_end().rfind(' ').unwrap() + 1;
        (description, severity)
    };
    let first = columns(table[0]);
    for row in &table {
        assert_eq!(columns(row), first, "misaligned row `{row}` in:\n{text}");
        let severity = &row[first.1..];
        assert!(
            ["error", "warning", "info"].contains(&severity),
            "`{severity}` in `{row}`"
        );
    }
}

/// Each option states its default at most once (clap's `[default: …]` or the text's own), and
/// `--fail-on`, `--threads`, `--tests` and `--api` state theirs.
#[test]
fn every_option_shows_its_default_once() {
    for cmd in COMMANDS {
        let text = help(cmd);
        for (name, body) in options(&text) {
            let n = body.matches("[default").count();
            assert!(n <= 1, "{cmd:?} {name}: {n} defaults:\n{body}");
            assert!(
                !body.contains("(the default)"),
                "{cmd:?} {name}: a second default:\n{body}"
            );
        }
    }
    let scan = options(&help(&["scan"]));
    for (name, default) in [
        ("--fail-on", "[default: error]"),
        ("--threads", "[default: 0]"),
        ("--tests", "[default: exclude]"),
        ("--api", "[default: v4]"),
        ("--format", "[default: human]"),
    ] {
        let body = option(&scan, name);
        assert!(body.contains(default), "{name}: no `{default}` in:\n{body}");
    }
}

/// The format people read is `human` in every command that has `--format`; the former names of
/// `query` (`table`) and `explain`/`versions` (`text`) still work and give the same output.
#[test]
fn the_format_for_people_is_human_in_every_command() {
    let mut with_format = 0;
    for cmd in COMMANDS {
        let opts = options(&help(cmd));
        let Some((_, body)) = opts.iter().find(|(n, _)| n == "--format") else {
            continue;
        };
        with_format += 1;
        assert!(
            body.contains("- human:") && body.contains("[default: human]"),
            "{cmd:?} --format:\n{body}"
        );
        for old in [
            "- table:",
            "- text:",
            "possible values: table",
            "possible values: text",
        ] {
            assert!(
                !body.contains(old),
                "{cmd:?} --format lists `{old}`:\n{body}"
            );
        }
    }
    assert_eq!(with_format, 5, "scan, merge, query, explain, versions");
    for (args, old) in [
        (&["query", "--removed-in", "18.0"][..], "table"),
        (&["explain", "ci-job-jwt"][..], "text"),
        (&["versions"][..], "text"),
    ] {
        let default = stdout(args);
        let mut named = args.to_vec();
        named.extend(["--format", "human"]);
        assert_eq!(stdout(&named), default, "{named:?}");
        let mut former = args.to_vec();
        former.extend(["--format", old]);
        assert_eq!(stdout(&former), default, "{former:?}");
    }
}

/// Every entry of the built-in data.
fn entry_ids() -> Vec<(String, String)> {
    let mut ids = BTreeSet::new();
    for extra in [&[][..], &["--api", "v5"][..]] {
        let mut args = vec!["query", "--format", "json"];
        args.extend(extra);
        let all: Vec<Value> = serde_json::from_str(&stdout(&args)).unwrap();
        for e in all {
            ids.insert((
                e["id"].as_str().unwrap().to_string(),
                e["change"].as_str().unwrap().to_string(),
            ));
        }
    }
    ids.into_iter().collect()
}

/// `explain` of every entry: its labels (`introduced in:`, `deprecated in:` included) end in one
/// column, and the example of its fix is called a rename only where the schedule says renamed
/// (elsewhere the fix is unsafe because the item is "not a rename with the same meaning").
#[test]
fn explain_aligns_its_labels_and_words_the_fix_as_the_schedule_does() {
    let ids = entry_ids();
    assert!(ids.len() > 80, "{}", ids.len());
    let mut columns = BTreeSet::new();
    let (mut renames, mut replacements) = (0, 0);
    for (id, change) in &ids {
        let text = stdout(&["explain", id]);
        // The labelled block: from the first blank line to the next.
        for line in text.split("\n\n").nth(1).unwrap().lines() {
            let Some((label, _)) = line.split_once(": ") else {
                continue;
            };
            if line.starts_with("  ") && !label.trim().contains(':') {
                let value = label.len() + 2 + line[label.len() + 2..].len()
                    - line[label.len() + 2..].trim_start().len();
                columns.insert((value, label.trim().to_string(), id.clone()));
            }
        }
        let rename = text.contains("example (machine-applicable rename)");
        let replacement = text.contains("example (machine-applicable replacement)");
        if change == "renamed" {
            assert!(!replacement, "{id} is renamed:\n{text}");
            renames += usize::from(rename);
        } else {
            assert!(!rename, "{id} is {change}, not renamed:\n{text}");
            replacements += usize::from(replacement);
        }
        if text.contains("not as a rename with the same meaning") {
            assert!(replacement, "{id}:\n{text}");
        }
    }
    let starts: BTreeSet<usize> = columns.iter().map(|c| c.0).collect();
    let first_of = |start: &usize| columns.iter().find(|c| c.0 == *start).unwrap();
    assert_eq!(
        starts.len(),
        1,
        "values start in several columns: {:?}",
        starts.iter().map(first_of).collect::<Vec<_>>()
    );
    assert!(columns.iter().any(|c| c.1 == "introduced in"));
    assert!(
        renames >= 5 && replacements >= 2,
        "{renames} renames, {replacements} replacements"
    );
    // No built-in entry says when it was deprecated: an in-house one does.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "in-house.yml",
        "schema_version: 1\nentries:\n  - id: acme-old-variable\n    title: ACME_OLD\n    \
         surface: ci\n    change: removed\n    removed_in: \"17.0\"\n    deprecated_in: \"16.3\"\n    \
         spec: [in-house]\n    detectable: false\n",
    );
    let data = dir.path().join("in-house.yml");
    let text = stdout(&[
        "--data",
        data.to_str().unwrap(),
        "explain",
        "acme-old-variable",
    ]);
    let value_at = |label: &str| {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("  {label}:")))
            .unwrap_or_else(|| panic!("no {label}: in\n{text}"));
        line.len()
            - line.trim_start_matches(|c: char| c != ':')[1..]
                .trim_start()
                .len()
    };
    assert_eq!(Some(&value_at("deprecated in")), starts.first(), "{text}");
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn scan_json(dir: &Path, target: &str) -> Value {
    let o = uplint_in(
        dir,
        &[
            "scan",
            "--no-config",
            "--target",
            target,
            "--format",
            "json",
            ".",
        ],
    );
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)))
}

/// A scan's fix says rename only for a renamed item: a Helm value the schedule lists as removed
/// (with a replacement) is replaced, the GraphQL field it lists as renamed is renamed.
#[test]
fn a_fix_is_a_rename_only_where_the_schedule_says_renamed() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "chart/values.yaml",
        "runnerRegistrationToken: \"x\"\n",
    );
    write(
        dir.path(),
        "queries/issues.graphql",
        "query { project(fullPath: \"a/b\") { issues { totalWeight } } }\n",
    );
    let v = scan_json(dir.path(), "18.0");
    let description = |id: &str| {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == id)
            .unwrap_or_else(|| panic!("no {id}: {v:#}"))["fix"]["description"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        description("helm-runner-registration-token"),
        "replace `runnerRegistrationToken` by `runnerToken`"
    );
    assert_eq!(
        description("graphql-total-weight"),
        "rename `totalWeight` to `totalIssueWeight`"
    );
}

/// Registration blocks as people write them: the variable's name in an expansion's message is
/// not a use (also after an expansion nested in the message), and a line that defines the
/// variable from itself (`REGISTRATION_TOKEN: ${REGISTRATION_TOKEN:?…}`) is one finding.
#[test]
fn a_registration_block_gives_at_most_one_token_finding_per_line() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "docker-compose.yml",
        "services:\n  register:\n    image: gitlab/gitlab-runner:latest\n    environment:\n      \
         REGISTRATION_TOKEN: ${REGISTRATION_TOKEN:?set REGISTRATION_TOKEN}\n    \
         command: [\"register\", \"--non-interactive\", \"--registration-token\", \"${REGISTRATION_TOKEN}\"]\n",
    );
    write(
        dir.path(),
        "register.sh",
        "#!/bin/sh\n\
         : \"${REGISTRATION_TOKEN:?${RUNNER_NAME} needs REGISTRATION_TOKEN}\"\n\
         gitlab-runner register --non-interactive \\\n  \
         --registration-token \"${REGISTRATION_TOKEN:?set REGISTRATION_TOKEN}\" \\\n  \
         --executor shell\n",
    );
    let v = scan_json(dir.path(), "18.0");
    let token: Vec<(String, u64, u64)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["id"] == "runner-registration-token")
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
            )
        })
        .collect();
    let at = |p: &str, l, c| (p.to_string(), l, c);
    assert_eq!(
        token,
        [
            at("docker-compose.yml", 5, 7),
            at("docker-compose.yml", 6, 49),
            // (Line 2 checks that the variable the flag is handed is set: no use of its own.)
            at("register.sh", 4, 3),
        ],
        "{v:#}"
    );
}

/// `.ci/run` and the scripts it runs install tools into the checkout's `target/tools/`, not the
/// system or the user's home (apt-get only through `apt_install` of scripts/tools.sh, for the
/// Debian packages no folder holds), record each install, and `.ci/run` lists the record.
#[test]
fn ci_run_installs_into_the_checkout_and_says_what() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let mut files = vec![root.join(".ci/run")];
    for e in std::fs::read_dir(root.join("scripts")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "sh") {
            files.push(p);
        }
    }
    let run = read(&root.join(".ci/run"));
    let mut problems = Vec::new();
    let mut installing = 0;
    for path in &files {
        let name = path.strip_prefix(root).unwrap().display().to_string();
        let text = read(path);
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.split(" #").next().unwrap().trim_start();
            if code.starts_with('#') {
                continue;
            }
            let at = format!("{name}:{}: {}", i + 1, line.trim());
            let recorded = lines[i..(i + 4).min(lines.len())]
                .iter()
                .any(|l| l.trim_start().starts_with("installed "));
            if code.contains("apt-get install") && name != "scripts/tools.sh" {
                problems.push(format!("{at}: apt-get outside apt_install"));
            }
            if code.contains("pip install") && (code.contains("--user") || !code.contains("venv")) {
                problems.push(format!("{at}: pip outside a venv of target/tools"));
            }
            if code.contains("npm install") {
                installing += 1;
                if code.contains(" -g") || code.contains("--global") || !recorded {
                    problems.push(format!("{at}: global or unrecorded npm install"));
                }
            }
            if code.contains("cargo install") {
                installing += 1;
                if !code.contains("--root") {
                    problems.push(format!("{at}: cargo install without --root"));
                }
                if name != "scripts/install-uplint.sh" && !recorded {
                    problems.push(format!("{at}: unrecorded cargo install"));
                }
            }
            if (code.contains("apt_install ") || code.contains("tools_venv "))
                && !text.contains("source scripts/tools.sh")
                && name != "scripts/tools.sh"
            {
                problems.push(format!("{at}: scripts/tools.sh not sourced"));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(installing >= 4, "{installing} installs seen");
    let tools = read(&root.join("scripts/tools.sh"));
    assert!(tools.contains("installed.txt") && tools.contains("target/tools"));
    assert!(
        run.contains(": >\"$tools_root/installed.txt\"")
            && run.contains("== installed by this run"),
        ".ci/run neither resets nor lists the record"
    );
}
