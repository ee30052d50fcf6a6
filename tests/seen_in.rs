//! Detection knowledge is looked up, never guessed: every pattern of the embedded data names
//! where its spelling was seen in a public repository, and a malformed source is an error.

use uplint::catalog::Catalog;

#[test]
fn every_embedded_pattern_names_where_its_spelling_was_seen() {
    let catalog = Catalog::embedded().expect("embedded data loads");
    let mut missing = Vec::new();
    let mut patterns = 0;
    for entry in catalog.entries() {
        for (i, p) in entry.patterns.iter().enumerate() {
            patterns += 1;
            if p.seen_in.is_empty() {
                missing.push(format!("{} pattern {i} ({})", entry.id, p.describe()));
            }
        }
    }
    assert!(patterns > 100, "the embedded data has its patterns");
    assert!(
        missing.is_empty(),
        "patterns without `seen_in`:\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_malformed_source_is_refused_with_its_position() {
    let text = "schema_version: 1\nentries:\n  - id: x\n    title: X\n    surface: ci\n    change: removed\n    removed_in: \"17.0\"\n    spec: [\"x\"]\n    patterns:\n      - kind: variable\n        name: OLD_VARIABLE\n        seen_in: \"not a source\"\n";
    let err = match Catalog::from_texts(&[("in-house.yml", text)]) {
        Ok(_) => panic!("a malformed seen_in must be refused"),
        Err(e) => format!("{e:?}"),
    };
    assert!(err.contains("seen_in"), "{err}");
    assert!(
        err.contains("line: 12, column: 18"),
        "the error points at the value: {err}"
    );
    assert!(
        err.contains("OWNER/REPO"),
        "the error says the right form: {err}"
    );
    let ok = text.replace(
        "not a source",
        "gitlab-org/gitlab-runner@v16.11.0:common/config.go:594",
    );
    let cat = Catalog::from_texts(&[("in-house.yml", &ok)]).expect("a well-formed source loads");
    let seen = &cat.get("x").unwrap().patterns[0].seen_in[0];
    assert_eq!(
        seen.to_string(),
        "gitlab-org/gitlab-runner@v16.11.0:common/config.go:594"
    );
}
