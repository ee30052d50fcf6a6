//! Generate a benchmark corpus: a monorepo-like tree of services with CI files, Helm charts,
//! Kubernetes manifests, scripts, source code, GraphQL documents, Markdown, binaries and a few
//! very large files. A small share of files hold real findings; many more hold look-alikes.
//! Deterministic for a seed.
//!
//! cargo run --release --example gen_corpus -- OUT [--files N] [--seed S]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// SplitMix64: small, fast, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(1000) < percent * 10
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "order",
    "invoice",
    "customer",
    "payment",
    "status",
    "active",
    "version",
    "message",
    "config",
    "runner",
    "deploy",
    "cache",
    "token",
    "session",
    "metrics",
    "queue",
    "worker",
    "project",
    "filepath",
    "paused",
    "confidence",
    "revision",
    "value",
    "pipeline",
    "merge",
    "strategy",
];

fn ident(r: &mut Rng) -> String {
    format!("{}_{}", r.pick(WORDS), r.pick(WORDS))
}

/// Lines of one kind of file; `plant` adds a real finding.
fn python(r: &mut Rng, lines: usize, plant: bool) -> String {
    let mut s = String::from("import os\nimport requests\n\n");
    for i in 0..lines {
        match r.below(8) {
            0 => writeln!(s, "def {}(self, {}):", ident(r), ident(r)),
            1 => writeln!(s, "    {} = self.{}.get(\"{}\", {})", ident(r), ident(r), r.pick(WORDS), i),
            2 => writeln!(s, "    if {}.active and {}.status == \"paused\":", ident(r), ident(r)),
            3 => writeln!(s, "    # merge_status and version are this app's own fields"),
            4 => writeln!(s, "    return {{\"merge_status\": {}, \"version\": \"{}.{}\"}}", ident(r), r.below(20), r.below(10)),
            5 => writeln!(s, "    url = f\"{{BASE}}/{}/{}\"", r.pick(WORDS), i),
            6 => writeln!(s, "    log.info(\"CI_JOB_JWT_VALIDATOR=%s\", os.environ.get(\"CI_JOB_JWT_VALIDATOR\"))"),
            _ => writeln!(s, "    {} += {}", ident(r), r.below(1000)),
        }
        .unwrap();
    }
    if plant {
        s.push_str("\ndef rotate(pid):\n    return requests.post(f\"{BASE}/api/v4/projects/{pid}/runners/reset_registration_token\", headers=H)\n");
    }
    s
}

fn go(r: &mut Rng, lines: usize, plant: bool) -> String {
    let mut s = String::from("package main\n\nimport \"fmt\"\n\n");
    for i in 0..lines {
        match r.below(6) {
            0 => writeln!(s, "func {}(x int) int {{", ident(r).replace('_', "")),
            1 => writeln!(s, "\tActive bool `json:\"active\"`"),
            2 => writeln!(s, "\treturn x + {i}\n}}"),
            3 => writeln!(
                s,
                "\t// version {} of the {} protocol",
                r.below(9),
                r.pick(WORDS)
            ),
            _ => writeln!(s, "\tfmt.Println(\"{}\", {})", r.pick(WORDS), i),
        }
        .unwrap();
    }
    if plant {
        s.push_str("\nvar jwt = os.Getenv(\"CI_JOB_JWT_V2\")\n");
    }
    s
}

fn javascript(r: &mut Rng, lines: usize, plant: bool) -> String {
    let mut s = String::from("import { gql } from '@apollo/client';\n\n");
    for i in 0..lines {
        match r.below(6) {
            0 => writeln!(
                s,
                "export function {}(a, b) {{ return a.{} + b; }}",
                ident(r),
                r.pick(WORDS)
            ),
            1 => writeln!(
                s,
                "const q{i} = gql`query {{ project(fullPath: \"a/b\") {{ id name }} }}`;"
            ),
            2 => writeln!(
                s,
                "const {} = {{ active: true, version: '{}' }};",
                ident(r),
                r.below(9)
            ),
            3 => writeln!(
                s,
                "// managers {{ nodes {{ ipAddress version }} }} is the new place"
            ),
            _ => writeln!(s, "let {} = {};", ident(r), i),
        }
        .unwrap();
    }
    if plant {
        s.push_str("\nexport const RUNNER = gql`\n  query runner($id: CiRunnerID!) {\n    runner(id: $id) { id ipAddress version }\n  }\n`;\n");
    }
    s
}

fn ci(r: &mut Rng, jobs: usize, plant: bool) -> String {
    let mut s = String::from(
        "stages: [build, test, deploy]\n\nvariables:\n  CI_JOB_JWT_VALIDATOR: \"x\"\n  DEPLOY_STRATEGY: depend\n\n",
    );
    for j in 0..jobs {
        writeln!(
            s,
            "{}-{j}:\n  stage: {}\n  image: alpine:3.{}\n  script:\n    - echo \"building {}\"\n    - make {}\n  id_tokens:\n    VAULT_ID_TOKEN:\n      aud: https://vault.example.com\n",
            r.pick(WORDS),
            r.pick(&["build", "test", "deploy"]),
            r.below(20),
            r.pick(WORDS),
            r.pick(WORDS)
        )
        .unwrap();
    }
    if plant {
        s.push_str("legacy-deploy:\n  script:\n    - vault login -method=jwt jwt=$CI_JOB_JWT_V2\n  trigger:\n    project: a/b\n    strategy: depend\n");
    }
    s
}

fn k8s(r: &mut Rng, plant: bool) -> String {
    let mut s = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {}\nspec:\n  template:\n    spec:\n      terminationGracePeriodSeconds: {}\n      containers:\n        - name: app\n          image: registry.example.com/{}:{}\n          env:\n            - name: FEATURE_ACTIVE\n              value: \"true\"\n",
        ident(r).replace('_', "-"),
        r.below(60),
        r.pick(WORDS),
        r.below(100)
    );
    if plant {
        s.push_str("---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: runner\nstringData:\n  runner-registration-token: \"x\"\n");
    }
    s
}

fn helm_values(r: &mut Rng, plant: bool) -> String {
    let mut s = format!(
        "replicaCount: {}\nimage:\n  repository: {}\n  tag: \"{}\"\nresources: {{}}\n",
        r.below(5),
        r.pick(WORDS),
        r.below(50)
    );
    s.push_str(
        "gitlab:\n  webservice:\n    deployment:\n      terminationGracePeriodSeconds: 30\n",
    );
    if plant {
        s.push_str("runnerRegistrationToken: \"\"\n");
    }
    s
}

fn helm_template(r: &mut Rng) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{{{ include \"app.fullname\" . }}}}\ndata:\n  {}: {{{{ .Values.{} | quote }}}}\n  {{{{- if .Values.enabled }}}}\n  enabled: \"true\"\n  {{{{- end }}}}\n",
        r.pick(WORDS),
        r.pick(WORDS)
    )
}

fn shell(r: &mut Rng, lines: usize, plant: bool) -> String {
    let mut s = String::from("#!/usr/bin/env bash\nset -euo pipefail\n");
    for _ in 0..lines {
        match r.below(5) {
            0 => writeln!(s, "echo \"{} --paused --locked\"", r.pick(WORDS)),
            1 => writeln!(
                s,
                "gitlab-runner register --non-interactive --token \"$RUNNER_TOKEN\" --url \"$URL\""
            ),
            2 => writeln!(
                s,
                "curl -s \"$CI_API_V4_URL/projects/$ID/{}\" | jq '.{}'",
                r.pick(WORDS),
                r.pick(WORDS)
            ),
            _ => writeln!(s, "{}=\"{}\"", ident(r).to_uppercase(), r.below(1000)),
        }
        .unwrap();
    }
    if plant {
        s.push_str(
            "gitlab-runner register --registration-token \"$T\" --tag-list docker --locked=false\n",
        );
    }
    s
}

fn graphql(r: &mut Rng, plant: bool) -> String {
    let mut s = format!(
        "query {} {{\n  project(fullPath: \"a/b\") {{\n    id\n    pipelines {{ nodes {{ status }} }}\n    ciVariables {{ nodes {{ key value }} }}\n  }}\n  runner(id: \"1\") {{ managers {{ nodes {{ version revision ipAddress }} }} }}\n}}\n",
        ident(r).replace('_', "")
    );
    if plant {
        s.push_str("query weights { group(fullPath: \"g\") { issues { totalWeight } } }\n");
    }
    s
}

fn markdown(r: &mut Rng, lines: usize) -> String {
    let mut s = String::from("# Notes\n\n");
    for _ in 0..lines {
        writeln!(
            s,
            "The {} uses CI_JOB_JWT_V2 until the {} moves to id_tokens.",
            r.pick(WORDS),
            r.pick(WORDS)
        )
        .unwrap();
    }
    s
}

fn binary(r: &mut Rng, size: usize) -> Vec<u8> {
    let mut v = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    while v.len() < size {
        v.extend_from_slice(&r.next().to_le_bytes());
    }
    v.extend_from_slice(b"CI_JOB_JWT");
    v
}

fn write(path: &Path, content: &[u8]) {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).expect("create directory");
    }
    std::fs::write(path, content).expect("write file");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut out: Option<PathBuf> = None;
    let mut files = 20_000u64;
    let mut seed = 1u64;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--files" => files = args.next().and_then(|v| v.parse().ok()).expect("--files N"),
            "--seed" => seed = args.next().and_then(|v| v.parse().ok()).expect("--seed S"),
            "-h" | "--help" => {
                println!("usage: gen_corpus OUT [--files N] [--seed S]");
                return;
            }
            _ => out = Some(PathBuf::from(a)),
        }
    }
    let out = out.expect("usage: gen_corpus OUT [--files N] [--seed S]");
    // A few very large files: a generated client, a log-like script, a big dashboard.
    let big = files / 5000 + 1;
    let (bytes, planted) = generate(&out, files, seed, big);
    println!(
        "{} files, {} MB, {} with planted findings, in {}",
        files + 2 * big + 1,
        bytes / 1_000_000,
        planted,
        out.display()
    );
}

/// Write the corpus of `files` files and `big` sets of very large files under `out`; returns its
/// size in bytes and the number of files with planted findings. (`tests/fleet.rs` includes this
/// file to shard a small corpus.)
pub fn generate(out: &Path, files: u64, seed: u64, big: u64) -> (u64, u64) {
    let mut r = Rng(seed);
    let mut planted = 0u64;
    let mut bytes = 0u64;
    for i in 0..files {
        let svc = out.join(format!("services/svc-{:04}", i / 40));
        let plant = r.chance(2);
        let kind = r.below(100);
        let lines = 80 + r.below(200) as usize;
        let (rel, content): (String, Vec<u8>) = match kind {
            0..=24 => (
                format!("src/{}_{i}.py", r.pick(WORDS)),
                python(&mut r, lines, plant).into_bytes(),
            ),
            25..=34 => (
                format!("src/{}_{i}.go", r.pick(WORDS)),
                go(&mut r, lines, plant).into_bytes(),
            ),
            35..=44 => (
                format!("web/{}_{i}.js", r.pick(WORDS)),
                javascript(&mut r, lines, plant).into_bytes(),
            ),
            45..=49 => (
                format!("ci/{}-{i}.gitlab-ci.yml", r.pick(WORDS)),
                ci(&mut r, 5 + lines / 20, plant).into_bytes(),
            ),
            50..=61 => (
                format!("deploy/{}-{i}.yaml", r.pick(WORDS)),
                k8s(&mut r, plant).into_bytes(),
            ),
            62..=65 => (
                format!("chart/values-{i}.yaml"),
                helm_values(&mut r, plant).into_bytes(),
            ),
            66..=69 => (
                format!("chart/templates/cm-{i}.yaml"),
                helm_template(&mut r).into_bytes(),
            ),
            70..=79 => (
                format!("scripts/{}-{i}.sh", r.pick(WORDS)),
                shell(&mut r, lines, plant).into_bytes(),
            ),
            80..=84 => (
                format!("graphql/{}-{i}.graphql", r.pick(WORDS)),
                graphql(&mut r, plant).into_bytes(),
            ),
            85..=94 => (
                format!("docs/{}-{i}.md", r.pick(WORDS)),
                markdown(&mut r, lines).into_bytes(),
            ),
            _ => (
                format!("assets/{}-{i}.png", r.pick(WORDS)),
                binary(&mut r, 4096 + lines * 100),
            ),
        };
        if plant && !matches!(kind, 66..=69 | 85..) {
            planted += 1;
        }
        bytes += content.len() as u64;
        write(&svc.join(rel), &content);
    }
    for i in 0..big {
        let py = python(&mut r, 200_000, true);
        bytes += py.len() as u64;
        write(&out.join(format!("generated/client_{i}.py")), py.as_bytes());
        let sh = shell(&mut r, 80_000, false);
        bytes += sh.len() as u64;
        write(&out.join(format!("generated/replay_{i}.sh")), sh.as_bytes());
    }
    write(&out.join(".gitlab-ci.yml"), ci(&mut r, 30, true).as_bytes());
    (bytes, planted + big + 1)
}
