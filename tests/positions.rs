//! Property: text inserted around a detected item never moves where it is reported. Lines
//! above shift it by exactly their number; text after it changes nothing.

use proptest::prelude::*;
use uplint::catalog::Catalog;
use uplint::scan::{Options, Scanner};

/// Lines of "arbitrary" code: no quotes, comment or continuation characters, which would change
/// the meaning of the line that follows (an open string or comment is not insertion around).
fn filler() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec("[a-zA-Z0-9 _=.,;:()\\[\\]+-]{0,40}", 0..12)
}

const CASES: &[(&str, &str)] = &[
    (
        "client.py",
        "r = requests.post(BASE + \"/projects/\" + str(pid) + \"/runners/reset_registration_token\")",
    ),
    (
        "deploy.sh",
        "curl -X POST \"$CI_API_V4_URL/runners/reset_registration_token\"",
    ),
    (
        "register.sh",
        "gitlab-runner register --non-interactive --registration-token \"$T\"",
    ),
    (
        "client.go",
        "req, _ := http.NewRequest(http.MethodDelete, fmt.Sprintf(\"%s/api/v4/projects/%d/error_tracking/client_keys/x\", b, id), nil)",
    ),
    (
        "runner.js",
        "const Q = gql`query { runner(id: \"1\") { ipAddress } }`;",
    ),
    ("job.sh", "echo ${CI_JOB_JWT_V2}"),
];

fn positions(scanner: &Scanner, name: &str, text: &str) -> Vec<(String, usize, usize)> {
    let mut v: Vec<_> = scanner
        .scan_text(name, name, text)
        .findings
        .into_iter()
        .map(|f| (f.id, f.line, f.column))
        .collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn inserted_text_never_moves_a_finding(before in filler(), after in filler(), case in 0..CASES.len()) {
        let cat = Catalog::embedded().unwrap();
        let scanner = Scanner::new(&cat, Options::new("18.0".parse().unwrap())).unwrap();
        let (name, line) = CASES[case];
        let alone = positions(&scanner, name, &format!("{line}\n"));
        prop_assert!(!alone.is_empty(), "{name}: {line} finds nothing");
        let mut text = String::new();
        for l in &before {
            text.push_str(l);
            text.push('\n');
        }
        text.push_str(line);
        text.push('\n');
        for l in &after {
            text.push_str(l);
            text.push('\n');
        }
        let moved: Vec<_> = alone.iter().map(|(id, l, c)| (id.clone(), l + before.len(), *c)).collect();
        let got = positions(&scanner, name, &text);
        // The filler may hold findings of its own only if it spells an item; it cannot.
        prop_assert_eq!(got, moved);
    }
}
