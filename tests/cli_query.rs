//! The binary: query, explain, versions and data check, as a user runs them.

use std::process::{Command, Output};

fn uplint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_uplint"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn json(args: &[&str]) -> Vec<serde_json::Value> {
    let o = uplint(args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn query_json_contract() {
    let all = json(&["query", "--format", "json"]);
    assert!(all.len() > 80);
    for e in &all {
        for key in [
            "id",
            "title",
            "surface",
            "change",
            "removed_in",
            "introduced_in",
            "breaking",
            "replacement",
            "patterns",
        ] {
            assert!(e.get(key).is_some(), "{key} missing in {e}");
        }
        assert!(e["removed_in"].is_null() || e["removed_in"].is_string());
        assert!(e["introduced_in"].is_null() || e["introduced_in"].is_string());
        assert!(e["patterns"].is_array());
    }
    let jwt = all.iter().find(|e| e["id"] == "ci-job-jwt").unwrap();
    assert_eq!(jwt["removed_in"], "17.0");
    assert_eq!(jwt["surface"], "ci");
    assert_eq!(jwt["patterns"][2]["kind"], "variable");
    assert_eq!(jwt["patterns"][2]["name"], "CI_JOB_JWT_V2");
    let put = all
        .iter()
        .find(|e| e["id"] == "error-tracking-settings-put")
        .unwrap();
    assert_eq!(put["introduced_in"], "15.10");
    assert!(put["removed_in"].is_null());
    let v5 = all.iter().find(|e| e["id"] == "mr-merged-by").unwrap();
    assert_eq!(v5["removed_in"], "v5");
    assert_eq!(v5["breaking"], true);
}

#[test]
fn query_upgrade_window_returns_16_6_to_17_0() {
    let got = json(&[
        "query", "--from", "16.5", "--to", "17.0", "--format", "json",
    ]);
    let versions: std::collections::BTreeSet<&str> = got
        .iter()
        .map(|e| e["removed_in"].as_str().unwrap())
        .collect();
    assert_eq!(
        versions.into_iter().collect::<Vec<_>>(),
        ["16.6", "16.7", "16.8", "16.9", "17.0"]
    );
    let all = json(&["query", "--format", "json"]);
    let expected = all
        .iter()
        .filter(|e| {
            matches!(
                e["removed_in"].as_str(),
                Some("16.6" | "16.7" | "16.8" | "16.9" | "17.0")
            )
        })
        .count();
    assert_eq!(got.len(), expected);
}

/// The table's layout is snapshot in tests/render_catalog.rs on data of its own; here, the
/// built-in data's rows are those of the JSON answer, whatever the data holds.
#[test]
fn query_table_is_the_default() {
    let o = uplint(&["query", "--removed-in", "18.0"]);
    assert!(o.status.success());
    let table = stdout(&o);
    let all = json(&["query", "--removed-in", "18.0", "--format", "json"]);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("REMOVED  SURFACE"), "{table}");
    for (e, line) in all.iter().zip(&lines[1..]) {
        assert!(line.starts_with("18.0 "), "{line}");
        assert!(line.contains(e["id"].as_str().unwrap()), "{line}");
    }
    let n = all.len();
    let noun = if n == 1 { "entry" } else { "entries" };
    assert!(
        table.ends_with(&format!(
            "\n{n} {noun} (0 labelled breaking by the schedule)\n"
        )),
        "{table}"
    );
}

#[test]
fn query_other_formats() {
    let csv = stdout(&uplint(&[
        "query",
        "--removed-in",
        "18.0",
        "--format",
        "csv",
    ]));
    assert!(csv.starts_with("id,title,surface,change,removed_in,"));
    let removed = json(&["query", "--removed-in", "18.0", "--format", "json"]);
    assert!(!removed.is_empty());
    assert_eq!(csv.lines().count(), 1 + removed.len(), "{csv}");
    let md = stdout(&uplint(&["query", "--api", "v5", "--format", "markdown"]));
    assert!(md.starts_with("| Removed in | Surface | ID |"));
    assert!(md.contains("| v5 | rest | `mr-merged-by` |"));
    let yaml = stdout(&uplint(&[
        "query",
        "--surface",
        "metrics",
        "--format",
        "yaml",
    ]));
    assert!(yaml.contains("id: geo-legacy-repository-metrics"));
    let empty = stdout(&uplint(&[
        "query",
        "--search",
        "zzzz-nothing",
        "--format",
        "json",
    ]));
    assert_eq!(empty.trim(), "[]");
}

#[test]
fn explain_total_weight() {
    let o = uplint(&["explain", "totalWeight"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("totalIssueWeight (since 16.2)"), "{text}");
    assert!(text.contains("2147483647"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn explain_by_literal_and_by_id() {
    let by_literal = stdout(&uplint(&["explain", "CI_JOB_JWT_V2"]));
    let by_id = stdout(&uplint(&["explain", "ci-job-jwt"]));
    assert_eq!(by_literal, by_id);
    assert!(by_id.starts_with("ci-job-jwt: Old job tokens"));
    assert!(by_id.contains("ID tokens via the id_tokens keyword (since 15.7)"));
    let j: Vec<serde_json::Value> = serde_json::from_slice(
        &uplint(&["explain", "--format", "json", "runnerRegistrationToken"]).stdout,
    )
    .unwrap();
    assert_eq!(j[0]["id"], "helm-runner-registration-token");
    assert_eq!(j[0]["removed_in"], "18.0");
}

#[test]
fn explain_unknown_token_is_an_error() {
    let o = uplint(&["explain", "noSuchField"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no entry has the id or detects `noSuchField`"));
}

/// The timeline's layout is snapshot in tests/render_catalog.rs; here, each version of the
/// built-in data has its row, with the counts of the JSON answer.
#[test]
fn versions_timeline() {
    let o = uplint(&["versions"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let rows = json(&["versions", "--format", "json"]);
    assert!(rows.len() > 5);
    for r in &rows {
        let cells = [
            r["version"].as_str().unwrap().to_string(),
            r["introduced"].to_string(),
            r["removed"].to_string(),
            r["breaking"].to_string(),
            r["detectable"].to_string(),
        ];
        let row = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(cells[0].as_str()))
            .unwrap_or_else(|| panic!("no row for {}: {text}", cells[0]));
        assert_eq!(row.split_whitespace().collect::<Vec<_>>(), cells, "{row}");
    }
}

#[test]
fn malformed_version_on_the_command_line() {
    let o = uplint(&["query", "--to", "17.x"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("invalid value `17.x` for --to"), "{err}");
    // The list derives from the data: every version of the timeline, in numeric order (15.10
    // after 15.9), whatever entries the data holds.
    let listed = err
        .split("versions in the data: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no list of versions: {err}"))
        .lines()
        .next()
        .unwrap();
    let listed: Vec<&str> = listed.split(", ").collect();
    let numeric = |v: &str| -> (u32, u32) {
        let (a, b) = v.split_once('.').unwrap_or_else(|| panic!("{v} in {err}"));
        (a.parse().unwrap(), b.parse().unwrap())
    };
    assert!(
        listed.windows(2).all(|w| numeric(w[0]) < numeric(w[1])),
        "not in ascending order: {err}"
    );
    let timeline = json(&["versions", "--format", "json"]);
    let timeline: Vec<&str> = timeline
        .iter()
        .map(|v| v["version"].as_str().unwrap())
        .filter(|v| *v != "v5")
        .collect();
    assert!(timeline.len() > 3, "{timeline:?}");
    for v in &timeline {
        assert!(listed.contains(v), "{v} missing in: {err}");
    }
    let o = uplint(&["query", "--from", "17.0", "--to", "16.0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = uplint(&["query", "--surface", "graphq"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown surface `graphq`; expected one of rest, graphql"));
}

const CUSTOM: &str = "schema_version: 1
entries:
  - id: acme-old-deploy-var
    title: ACME_DEPLOY_TOKEN is replaced by ACME_OIDC
    surface: ci
    change: removed
    removed_in: \"17.0\"
    replacement: ACME_OIDC
    spec: [\"in-house: deploy tokens\"]
    patterns:
      - kind: variable
        name: ACME_DEPLOY_TOKEN
";

#[test]
fn custom_data_is_queried_with_the_embedded_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("acme.yml");
    std::fs::write(&path, CUSTOM).unwrap();
    let p = path.to_str().unwrap();
    let got = json(&["query", "--data", p, "--search", "acme", "--format", "json"]);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["id"], "acme-old-deploy-var");
    let o = uplint(&["data", "check", p]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("ok: 1 entry in 1 path valid"));
}

#[test]
fn custom_data_with_errors_fails_with_position_and_snippet() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, at, what) in [
        (
            "typo.yml",
            CUSTOM.replace("replacement:", "replacment:"),
            ":8:5",
            "unknown field `replacment`",
        ),
        (
            "dup.yml",
            CUSTOM.replace("acme-old-deploy-var", "ci-job-jwt"),
            ":3:9",
            "duplicate id `ci-job-jwt`",
        ),
        (
            "version.yml",
            CUSTOM.replace("\"17.0\"", "17.x"),
            ":7:17",
            "`17.x` is not a valid version",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let p = path.to_str().unwrap();
        for args in [vec!["query", "--data", p], vec!["data", "check", p]] {
            let o = uplint(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert!(o.stdout.is_empty(), "nothing is printed as if loaded");
            let err = stderr(&o);
            assert!(err.contains(&format!("{name}{at}")), "{err}");
            assert!(err.contains(what), "{err}");
            assert!(err.contains(" │ "), "a source snippet is shown: {err}");
            assert!(err.contains("nothing was loaded"), "{err}");
        }
    }
}

#[test]
fn help_is_complete_with_examples() {
    for cmd in [
        &["query", "--help"][..],
        &["explain", "--help"],
        &["versions", "--help"],
        &["data", "check", "--help"],
        &["--help"],
    ] {
        let o = uplint(cmd);
        assert!(o.status.success());
        let out = stdout(&o);
        assert!(out.contains("Example"), "{cmd:?} has no examples:\n{out}");
    }
}

/// The ids `query --search` returns for a written form.
fn search_ids(text: &str) -> Vec<String> {
    json(&["query", "--format", "json", &format!("--search={text}")])
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn search_and_explain_by_the_way_an_item_is_written() {
    // Punctuation and case do not matter: the key with its value, a flag, a variable reference.
    for form in [
        "strategy: depend",
        "STRATEGY:depend",
        "trigger.strategy: depend",
    ] {
        assert_eq!(search_ids(form), ["ci-trigger-strategy-depend"], "{form}");
    }
    let ids = search_ids("--registration-token");
    assert!(
        ids.contains(&"runner-registration-token".to_string()),
        "{ids:?}"
    );
    assert_eq!(search_ids("$CI_JOB_JWT_V2"), ["ci-job-jwt"]);
    assert_eq!(
        search_ids("[runners.kubernetes] terminationGracePeriodSeconds"),
        ["runner-termination-grace-period-seconds"]
    );
    // A client library's spelling, with or without the object it is called on.
    assert_eq!(search_ids("gl.geonodes"), ["geo-nodes-endpoints"]);
    assert_eq!(search_ids("git.GeoNodes"), ["geo-nodes-endpoints"]);
    assert!(
        search_ids("RegisterNewRunner").contains(&"runners-api-registration-token".to_string())
    );
    // Too little to go on is no match, not every entry.
    assert!(search_ids("--").is_empty());
    // explain takes the same written forms.
    let o = uplint(&["explain", "strategy: depend"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("ci-trigger-strategy-depend:"),
        "{}",
        stdout(&o)
    );
    let o = uplint(&["explain", "postgres_exporter[per_table_stats]"]);
    assert!(
        stdout(&o).starts_with("postgres-exporter-per-table-stats:"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn data_check_of_the_repositorys_own_files_checks_them_in_place_of_the_embedded_ones() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let own = format!("{data}/18.0.yml");
    let o = uplint(&["data", "check", &own]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("entries in 1 path valid"),
        "{}",
        stderr(&o)
    );
    let all = format!("{data}/17.0.yml");
    let o = uplint(&["data", "check", &own, &all]);
    assert!(o.status.success(), "{}", stderr(&o));

    // A copy of the data directory with 18.0.yml edited: a clash with another file's id is
    // still found, and the file checked is the edited one.
    let dir = tempfile::tempdir().unwrap();
    for d in std::fs::read_dir(data).unwrap() {
        let d = d.unwrap();
        std::fs::copy(d.path(), dir.path().join(d.file_name())).unwrap();
    }
    let edited = dir.path().join("18.0.yml");
    let text = std::fs::read_to_string(&edited).unwrap();
    let first = text.find("- id: ").unwrap() + "- id: ".len();
    let end = first + text[first..].find('\n').unwrap();
    std::fs::write(
        &edited,
        format!("{}ci-job-jwt{}", &text[..first], &text[end..]),
    )
    .unwrap();
    let o = uplint(&["data", "check", edited.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("duplicate id `ci-job-jwt`"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("first defined in data/17.0.yml"),
        "{}",
        stderr(&o)
    );

    // A file of that name elsewhere (not in a copy of the data directory) is checked against
    // all the embedded data.
    let lone = tempfile::tempdir().unwrap();
    let path = lone.path().join("18.0.yml");
    std::fs::copy(&own, &path).unwrap();
    let o = uplint(&["data", "check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("duplicate id"));
}

#[test]
fn a_version_past_the_data_is_said_once() {
    let o = uplint(&[
        "query", "--from", "16.5", "--to", "19.0", "--format", "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "uplint: warning: --to 19.0 is past the newest version the data covers (18.0): \
         what is removed after 18.0 is not known to this build of uplint\n"
    );
    let o = uplint(&[
        "query", "--from", "16.5", "--to", "18.0", "--format", "json",
    ]);
    assert_eq!(stderr(&o), "");
}

#[test]
fn help_lists_what_each_command_accepts() {
    let top = stdout(&uplint(&["--help"]));
    let examples = top.split("Examples:\n").nth(1).unwrap();
    assert!(examples.trim_start().starts_with("uplint scan "), "{top}");
    let merge = stdout(&uplint(&["merge", "--help"]));
    let values = merge.split("Possible values:").nth(1).unwrap();
    assert!(!values.contains("- rdjsonl"), "{merge}");
    assert!(values.contains("- sarif"), "{merge}");
    let o = uplint(&["merge", "r.json", "--format", "rdjsonl"]);
    assert_eq!(o.status.code(), Some(2));
    // --api takes the same values in query and scan; v4 is query's default.
    let v4 = json(&[
        "query", "--from", "16.5", "--to", "17.0", "--api", "v4", "--format", "json",
    ]);
    let plain = json(&[
        "query", "--from", "16.5", "--to", "17.0", "--format", "json",
    ]);
    assert_eq!(v4, plain);
    let v5 = json(&[
        "query", "--from", "16.5", "--to", "17.0", "--api", "v5", "--format", "json",
    ]);
    assert!(v5.len() > plain.len());
}

#[test]
fn a_search_that_finds_nothing_suggests_the_nearest_entry() {
    let o = uplint(&["query", "--search", "totalWieght", "--format", "json"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "[]");
    assert_eq!(
        stderr(&o),
        "uplint: no entry matches `totalWieght`; did you mean `totalWeight`?\n"
    );
    let o = uplint(&["query", "--search", "ci-job-jwtt"]);
    assert!(
        stderr(&o).contains("did you mean `ci-job-jwt`?"),
        "{}",
        stderr(&o)
    );
    let o = uplint(&["query", "--search", "zzzzqqq"]);
    assert_eq!(stderr(&o), "");
}
