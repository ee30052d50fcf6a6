//! The names of tests: the string a test function opens with (`it('falls back to CI_JOB_JWT_V2',
//! …)`, `describe 'POST /api/v4/runners' do`, Go's `t.Run("DELETE /geo_nodes/1", …)`). A name
//! written there is prose about the test, no use of the name; the call the test makes, if any,
//! is on a line of its own.

use super::is_ident_byte;

/// The functions of test frameworks (Jest, Mocha, Vitest, Jasmine, RSpec) whose first argument,
/// a string, is the test's name; with a member (`it.only`, `describe.each`) too.
const TEST_FUNCTIONS: [&str; 9] = [
    "it",
    "test",
    "describe",
    "context",
    "specify",
    "xit",
    "fit",
    "xdescribe",
    "fdescribe",
];

/// How far back on its line the test's call is looked for.
const LOOK_BACK: usize = 256;

/// Is `at` in the name of a test: the string that the line's first quote opens (no other quote
/// stands between them), the first argument of a test function called on the line (`it(`,
/// `test.only(`, `t.Run(`), or of RSpec's `it "…" do` that starts its line? Looks back within
/// the line, at most [`LOOK_BACK`] bytes.
pub fn in_test_name(b: &[u8], at: usize) -> bool {
    let floor = at.saturating_sub(LOOK_BACK);
    let start = memchr::memrchr(b'\n', &b[floor..at]).map_or(floor, |i| floor + i + 1);
    let line = &b[start..at];
    let quote = |c: &u8| matches!(c, b'"' | b'\'' | b'`');
    let Some(open) = line.iter().rposition(quote) else {
        return false;
    };
    if line[..open].iter().any(quote) {
        return false;
    }
    let before = line[..open].trim_ascii();
    let (call, paren) = match before.strip_suffix(b"(") {
        Some(c) => (c.trim_ascii_end(), true),
        None => (before, false),
    };
    let n = call
        .iter()
        .rev()
        .take_while(|&&c| is_ident_byte(c) || c == b'.')
        .count();
    let name = &call[call.len() - n..];
    let head = name.split(|&c| c == b'.').next().unwrap_or(name);
    // A call, or RSpec's `it "…"` that starts its line.
    let test_call =
        TEST_FUNCTIONS.iter().any(|f| f.as_bytes() == head) && (paren || n == call.len());
    test_call || (name == b"t.Run" && paren)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: &str, word: &str) -> bool {
        in_test_name(line.as_bytes(), line.find(word).unwrap())
    }

    #[test]
    fn names_of_tests() {
        for (line, word) in [
            (
                "  it('falls back to CI_JOB_JWT_V2', () => {",
                "CI_JOB_JWT_V2",
            ),
            ("describe 'POST /api/v4/runners' do", "/api"),
            (
                "  test(`GET /projects/:id/error_tracking/settings`, () => {",
                "/projects",
            ),
            (
                "\tt.Run(\"DELETE /geo_nodes/1\", func(t *testing.T) {",
                "/geo_nodes",
            ),
            (
                "  it.only(\"reads merge_status\", async () => {",
                "merge_status",
            ),
        ] {
            assert!(at(line, word), "{line}");
        }
    }

    #[test]
    fn strings_that_are_not_names_of_tests() {
        for (line, word) in [
            ("    await api.get('/geo_nodes');", "/geo_nodes"),
            (
                "it('lists', () => request.get('/geo_nodes'));",
                "/geo_nodes",
            ),
            ("const url = `${base}/geo_nodes`;", "/geo_nodes"),
            ("split('/geo_nodes')", "/geo_nodes"),
            ("run(\"GET /geo_nodes\")", "/geo_nodes"),
            ("  submit(\"CI_JOB_JWT_V2\")", "CI_JOB_JWT_V2"),
            ("  x.it('CI_JOB_JWT_V2')", "CI_JOB_JWT_V2"),
        ] {
            assert!(!at(line, word), "{line}");
        }
    }
}
