//! The layout of `query`'s table and `versions`' timeline, on a small catalog of their own, so
//! that a new entry of the built-in data changes no snapshot: the CLI tests check the built-in
//! data's rows against its JSON instead.

use uplint::catalog::Catalog;
use uplint::render::catalog as render;

const DATA: &str = "schema_version: 1
entries:
  - id: acme-settings
    title: ACME settings API v1
    surface: rest
    change: introduced
    introduced_in: \"15.10\"
    spec: [\"in-house: settings\"]
    detectable: false
  - id: acme-old-deploy-var
    title: ACME_DEPLOY_TOKEN is replaced by ACME_OIDC
    surface: ci
    change: removed
    removed_in: \"17.0\"
    deprecated_in: \"16.5\"
    replacement: ACME_OIDC
    spec: [\"in-house: deploy tokens\"]
    patterns:
      - kind: variable
        name: ACME_DEPLOY_TOKEN
  - id: acme-v5-field
    title: The field acme_id of the v5 API
    surface: rest
    change: renamed
    removed_in: v5
    breaking: true
    replacement: the field id, whose replacement text is long enough to be cut in the table's last column
    spec: [\"in-house: v5\"]
    patterns:
      - kind: rest_field
        name: acme_id
        endpoints: [/projects/:id/acme]
";

fn catalog() -> Catalog {
    Catalog::from_texts(&[("acme.yml", DATA)])
        .unwrap_or_else(|e| panic!("{}", uplint::catalog::error::render_plain(&e.0)))
}

#[test]
fn the_query_table() {
    let cat = catalog();
    let entries: Vec<_> = cat.entries().iter().collect();
    insta::assert_snapshot!(render::table(&entries));
}

#[test]
fn the_versions_timeline() {
    let cat = catalog();
    insta::assert_snapshot!(render::versions_table(&render::version_rows(cat.entries())));
}
