//! The query engine's filters, each on its own and combined.

use uplint::catalog::query::Filter;
use uplint::catalog::{Catalog, Surface};
use uplint::version::{ApiVersion, Milestone};

fn cat() -> Catalog {
    Catalog::embedded().unwrap()
}

fn ids(f: &Filter) -> Vec<String> {
    let c = cat();
    f.apply(c.entries()).iter().map(|e| e.id.clone()).collect()
}

#[test]
fn window_is_exclusive_below_and_inclusive_above() {
    let c = cat();
    let f = Filter {
        from: Some("16.5".parse().unwrap()),
        to: Some("17.0".parse().unwrap()),
        ..Filter::default()
    };
    let got = f.apply(c.entries());
    // The oracle: the entries of the data files for 16.6 to 17.0.
    let files = ["16.6.yml", "16.7.yml", "16.8.yml", "16.9.yml", "17.0.yml"];
    let expected: Vec<&str> = c
        .entries()
        .iter()
        .filter(|e| files.iter().any(|f| e.source.ends_with(f)))
        .map(|e| e.id.as_str())
        .collect();
    let got_ids: Vec<&str> = got.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(got_ids, expected);
    let from_16_6 = Filter {
        from: Some("16.6".parse().unwrap()),
        to: Some("17.0".parse().unwrap()),
        ..Filter::default()
    };
    let n = from_16_6.apply(c.entries()).len();
    assert_eq!(n, got.len() - 1, "16.6 itself is outside (16.6, 17.0]");
}

#[test]
fn removed_in_selects_one_milestone() {
    let f = Filter {
        removed_in: Some("18.0".parse().unwrap()),
        ..Filter::default()
    };
    let got = ids(&f);
    assert!(got.contains(&"helm-runner-registration-token".to_string()));
    assert!(!got.contains(&"ci-job-jwt".to_string()));
    let c = cat();
    for id in &got {
        assert_eq!(c.get(id).unwrap().removed_in.unwrap().to_string(), "18.0");
    }
}

#[test]
fn api_v5_alone_lists_only_v5_and_adds_to_a_window() {
    let c = cat();
    let v5 = Filter {
        api_v5: true,
        ..Filter::default()
    };
    let got = v5.apply(c.entries());
    assert!(!got.is_empty());
    assert!(
        got.iter()
            .all(|e| e.removed_in == Some(Milestone::Api(ApiVersion::V5)))
    );
    let window = Filter {
        from: Some("17.0".parse().unwrap()),
        to: Some("18.0".parse().unwrap()),
        ..Filter::default()
    };
    let both = Filter {
        api_v5: true,
        ..window.clone()
    };
    assert_eq!(
        both.apply(c.entries()).len(),
        window.apply(c.entries()).len() + got.len()
    );
}

#[test]
fn surface_breaking_and_search_narrow() {
    let c = cat();
    let graphql = Filter {
        surfaces: vec![Surface::Graphql],
        ..Filter::default()
    };
    assert!(
        graphql
            .apply(c.entries())
            .iter()
            .all(|e| e.surface == Surface::Graphql)
    );
    let breaking = Filter {
        breaking: true,
        ..Filter::default()
    };
    let b = breaking.apply(c.entries());
    assert!(!b.is_empty() && b.iter().all(|e| e.breaking == Some(true)));

    // Search is case-insensitive and looks into patterns too.
    let search = Filter {
        search: Some("ci_job_jwt_v2".into()),
        ..Filter::default()
    };
    assert_eq!(ids(&search), ["ci-job-jwt"]);
    let by_replacement = Filter {
        search: Some("totalIssueWeight".into()),
        ..Filter::default()
    };
    assert_eq!(ids(&by_replacement), ["graphql-total-weight"]);

    let combined = Filter {
        surfaces: vec![Surface::Graphql],
        search: Some("runner".into()),
        to: Some("17.0".parse().unwrap()),
        ..Filter::default()
    };
    let got = ids(&combined);
    assert!(got.contains(&"graphql-runner-membership-filter".to_string()));
    assert!(
        !got.iter()
            .any(|id| c.get(id).unwrap().surface != Surface::Graphql)
    );
}

#[test]
fn find_by_literal_finds_variables_paths_and_fields() {
    let c = cat();
    let one =
        |t: &str| -> Vec<String> { c.find_by_literal(t).iter().map(|e| e.id.clone()).collect() };
    assert_eq!(one("CI_JOB_JWT_V2"), ["ci-job-jwt"]);
    assert_eq!(one("$CI_JOB_JWT"), ["ci-job-jwt"]);
    assert_eq!(
        one("runnerRegistrationToken"),
        ["helm-runner-registration-token"]
    );
    assert_eq!(
        one("--maintenance-note"),
        ["runner-register-server-side-arguments"]
    );
    assert_eq!(
        one("per_table_stats"),
        ["postgres-exporter-per-table-stats"]
    );
    assert_eq!(one("totalweight"), ["graphql-total-weight"]);
    assert!(one("no-such-thing-anywhere").is_empty());
}
