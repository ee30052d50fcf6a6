//! `--diff`: the fixes of a file as a unified diff that `git apply` takes (paths `a/PATH` and
//! `b/PATH` relative to the scanned root).

use similar::TextDiff;

/// The unified diff from `before` to `after` of the file shown as `path` (empty when equal).
pub fn unified(path: &str, before: &str, after: &str) -> String {
    if before == after {
        return String::new();
    }
    // The name escaped as in every line-based report: a header is always one line.
    let path = crate::render::text::escape_line(path);
    let diff = TextDiff::from_lines(before, after);
    let mut u = diff.unified_diff();
    u.context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"));
    let mut out = format!("diff --git a/{path} b/{path}\n");
    out.push_str(&u.to_string());
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_diff_has_git_headers_and_marks_a_missing_final_newline() {
        let d = super::unified(
            "q.graphql",
            "{\n  totalWeight\n}",
            "{\n  totalIssueWeight\n}",
        );
        assert_eq!(
            d,
            "diff --git a/q.graphql b/q.graphql\n--- a/q.graphql\n+++ b/q.graphql\n@@ -1,3 +1,3 @@\n {\n-  totalWeight\n+  totalIssueWeight\n }\n\\ No newline at end of file\n"
        );
        assert_eq!(super::unified("q", "a\n", "a\n"), "");
    }
}
