//! The whole scan of one in-memory file, as each kind of file: findings lie in the file.
#![no_main]
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use uplint::catalog::Catalog;
use uplint::scan::{Options, Scanner};

const NAMES: &[&str] = &[
    ".gitlab-ci.yml", "chart/values.yaml", "chart/templates/d.yaml", "k8s/d.yaml", "run.sh",
    "Dockerfile", "gitlab.rb", "config.toml", "config/database.yml", "q.graphql", "app.py",
    "app.js", "main.go", "rules/geo.rules.yml", "dash.json", "r.tf", "a.service",
];

fn scanner() -> &'static Scanner {
    static S: OnceLock<Scanner> = OnceLock::new();
    S.get_or_init(|| {
        let cat = Catalog::embedded().expect("embedded data loads");
        let mut o = Options::new("18.0".parse().unwrap());
        o.min_version = Some("14.0".parse().unwrap());
        Scanner::new(&cat, o).expect("scanner builds")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let name = NAMES[first as usize % NAMES.len()];
    let text = String::from_utf8_lossy(rest);
    let lines = text.split('\n').count();
    let r = scanner().scan_text(name, name, &text);
    for f in &r.findings {
        assert!(f.line >= 1 && f.line <= lines && f.column >= 1);
        assert!((f.end_line, f.end_column) >= (f.line, f.column));
    }
});
