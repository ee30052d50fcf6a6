//! The CI/CD catalog components in templates/: the catalog's layout (`spec: inputs:`, then `---`),
//! typed inputs with descriptions and defaults, each documented in templates/README.md; the install
//! step is scripts/install-uplint.sh verbatim, and that script refuses a release binary whose
//! SHA-256 does not match its checksum file.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const COMPONENTS: [&str; 2] = ["uplint", "fleet-audit"];
const ASSET: &str = "uplint-x86_64-linux";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A component's header (the `spec:` document) and its jobs, as JSON values.
fn component(name: &str) -> (Value, Value, String) {
    let text = read(&root().join(format!("templates/{name}.yml")));
    assert!(
        text.starts_with("spec:\n"),
        "templates/{name}.yml must start with `spec:`"
    );
    let (header, jobs) = text.split_once("\n---\n").expect("a `---` after the spec");
    let header: Value = serde_saphyr::from_str(header).expect("the spec parses");
    let jobs: Value = serde_saphyr::from_str(jobs).expect("the jobs parse");
    (header, jobs, text)
}

fn package_version() -> String {
    let manifest = read(&root().join("Cargo.toml"));
    let line = manifest
        .lines()
        .find(|l| l.starts_with("version = "))
        .expect("version");
    line.trim_start_matches("version = ")
        .trim_matches('"')
        .to_string()
}

#[test]
fn every_input_is_typed_described_defaulted_used_and_documented() {
    let docs = read(&root().join("templates/README.md"));
    for name in COMPONENTS {
        let (header, _, text) = component(name);
        let keys: Vec<&String> = header.as_object().expect("a mapping").keys().collect();
        assert_eq!(keys, ["spec"], "{name}: the header holds only spec");
        let inputs = header["spec"]["inputs"].as_object().expect("spec.inputs");
        let mut declared = BTreeSet::new();
        for (input, def) in inputs {
            declared.insert(input.clone());
            let description = def["description"].as_str().unwrap_or("");
            assert!(
                description.len() > 10,
                "{name}: input {input} has no description"
            );
            let default = def
                .get("default")
                .unwrap_or_else(|| panic!("{name}: {input} has no default"));
            let kind = def.get("type").and_then(Value::as_str).unwrap_or("string");
            let fits = match kind {
                "string" => default.is_string(),
                "number" => default.is_number(),
                "boolean" => default.is_boolean(),
                other => panic!("{name}: {input} has type {other}"),
            };
            assert!(fits, "{name}: the default of {input} is not a {kind}");
            if let Some(options) = def.get("options").and_then(Value::as_array) {
                assert!(
                    options.contains(default),
                    "{name}: {input}'s default is not an option"
                );
            }
            assert!(
                docs.contains(&format!("| `{input}` |")),
                "{name}: input {input} is not in templates/README.md"
            );
        }
        // The inputs whose values form a closed set list them (`options:`).
        assert!(
            inputs.contains_key("binary"),
            "{name}: where the binary comes from"
        );
        for closed in ["api", "fail-on", "binary"]
            .iter()
            .filter(|c| inputs.contains_key(**c))
        {
            let options = inputs[*closed].get("options").and_then(Value::as_array);
            assert!(
                options.is_some_and(|o| o.len() > 1),
                "{name}: {closed} lists its options"
            );
        }
        assert_eq!(
            inputs["version"]["default"],
            Value::String(package_version()),
            "{name}: version"
        );
        let used: BTreeSet<String> = text
            .split("$[[ inputs.")
            .skip(1)
            .map(|rest| rest.split(' ').next().unwrap_or("").to_string())
            .collect();
        assert_eq!(
            used, declared,
            "{name}: the inputs used are the inputs declared"
        );
    }
}

/// The install script embedded in a component's `.uplint-install` job.
fn embedded_install_script(jobs: &Value) -> String {
    let block = jobs[".uplint-install"]["before_script"][0]
        .as_str()
        .expect("a before_script block");
    let start =
        block.find("<<'UPLINT_INSTALL'\n").expect("a heredoc") + "<<'UPLINT_INSTALL'\n".len();
    let end = block.find("\nUPLINT_INSTALL\n").expect("the heredoc's end");
    format!("{}\n", &block[start..end])
}

#[test]
fn the_components_embed_the_install_script_verbatim() {
    let script = read(&root().join("scripts/install-uplint.sh"));
    let mut install_jobs = Vec::new();
    for name in COMPONENTS {
        let (_, jobs, _) = component(name);
        assert_eq!(
            embedded_install_script(&jobs),
            script,
            "{name}: the install step differs from scripts/install-uplint.sh"
        );
        install_jobs.push(jobs[".uplint-install"].clone());
    }
    assert_eq!(
        install_jobs[0], install_jobs[1],
        "both components install uplint the same way"
    );
}

/// A release directory (as the package registry serves it) holding `binary` as the asset and the
/// checksum line `checksum_line`.
fn release_dir(dir: &Path, binary: &[u8], checksum_line: &str) -> PathBuf {
    let release = dir.join("release");
    std::fs::create_dir_all(&release).expect("release dir");
    std::fs::write(release.join(ASSET), binary).expect("asset");
    std::fs::write(release.join(format!("{ASSET}.sha256")), checksum_line).expect("checksum");
    release
}

fn sha256_line(path: &Path) -> String {
    let out = Command::new("sha256sum")
        .arg(path)
        .output()
        .expect("sha256sum runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    format!(
        "{}  {ASSET}\n",
        text.split_whitespace().next().expect("a digest")
    )
}

fn install(dir: &Path, release: &Path) -> Output {
    Command::new("sh")
        .arg(root().join("scripts/install-uplint.sh"))
        .current_dir(dir)
        .env("UPLINT_BINARY", "release")
        .env("UPLINT_VERSION", package_version())
        .env(
            "UPLINT_RELEASE_URL",
            format!("file://{}", release.display()),
        )
        .output()
        .expect("sh runs")
}

#[test]
fn the_install_step_installs_a_matching_binary_and_refuses_a_tampered_one() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let exe = Path::new(env!("CARGO_BIN_EXE_uplint"));
    let binary = std::fs::read(exe).expect("the uplint binary");
    let good = sha256_line(exe);

    let ok_dir = tmp.path().join("ok");
    std::fs::create_dir_all(&ok_dir).expect("dir");
    let out = install(&ok_dir, &release_dir(&ok_dir, &binary, &good));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("uplint {}", package_version())),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read(ok_dir.join(".uplint/bin/uplint")).expect("installed"),
        binary
    );

    let mut tampered = binary.clone();
    tampered.extend_from_slice(b"\nexec /bin/sh\n");
    let bad_dir = tmp.path().join("tampered");
    std::fs::create_dir_all(&bad_dir).expect("dir");
    let out = install(&bad_dir, &release_dir(&bad_dir, &tampered, &good));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("does not match") && stderr.contains("refused"),
        "{stderr}"
    );
    assert!(
        !bad_dir.join(".uplint/bin/uplint").exists(),
        "nothing is installed"
    );

    // A checksum file that names another file would make `sha256sum -c` check that file instead.
    let decoy_dir = tmp.path().join("decoy");
    std::fs::create_dir_all(&decoy_dir).expect("dir");
    let decoy = good.replace(ASSET, "install-uplint.sh");
    let out = install(&decoy_dir, &release_dir(&decoy_dir, &tampered, &decoy));
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !decoy_dir.join(".uplint/bin/uplint").exists(),
        "nothing is installed"
    );
}

/// The install step as a shell runner runs it (the job's `before_script` block under `sh -e`, and
/// under bash, GitLab's default shell): it installs the binary, passes the script's failure on to
/// the job, and writes nothing into the temporary directory that every job on the machine shares.
#[test]
fn the_components_install_step_runs_in_the_job_and_leaves_no_file_in_shared_tmp() {
    let exe = Path::new(env!("CARGO_BIN_EXE_uplint"));
    for name in COMPONENTS {
        let (_, jobs, _) = component(name);
        let block = jobs[".uplint-install"]["before_script"][0]
            .as_str()
            .expect("a before_script block")
            .to_string();
        for shell in ["sh", "bash"] {
            let tmp = tempfile::tempdir().expect("tempdir");
            let (project, shared) = (tmp.path().join("project"), tmp.path().join("tmp"));
            std::fs::create_dir_all(&project).expect("dir");
            std::fs::create_dir_all(&shared).expect("dir");
            let run = |binary: &str, path: &Path| {
                Command::new(shell)
                    .args(["-e", "-c", &block])
                    .current_dir(&project)
                    .env("TMPDIR", &shared)
                    .env("UPLINT_BINARY", binary)
                    .env("UPLINT_PATH", path)
                    .env("UPLINT_VERSION", package_version())
                    .output()
                    .expect("the shell runs")
            };
            let out = run("path", exe);
            assert!(
                out.status.success(),
                "{name} under {shell}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(
                std::fs::read(project.join(".uplint/bin/uplint")).expect("installed"),
                std::fs::read(exe).expect("the uplint binary"),
                "{name} under {shell}"
            );
            let out = run("path", &tmp.path().join("no-such-binary"));
            assert!(
                !out.status.success(),
                "{name} under {shell}: a failed install fails the job"
            );
            let left: Vec<_> = std::fs::read_dir(&shared).expect("read tmp").collect();
            assert!(
                left.is_empty(),
                "{name} under {shell} left {left:?} in TMPDIR"
            );
        }
    }
}
