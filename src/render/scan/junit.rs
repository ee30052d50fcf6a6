//! JUnit XML for GitLab `artifacts:reports:junit`: one test case per finding, unique by
//! (classname, name); errors are failures, other findings pass with their message as output.

use super::{Context, escape_xml};
use crate::scan::{Report, Severity};

pub fn render(report: &Report, ctx: &Context) -> String {
    let failures = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"uplint\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">\n",
        report.findings.len()
    ));
    out.push_str(&format!(
        "  <testsuite name=\"uplint (target {})\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">\n",
        escape_xml(&ctx.target),
        report.findings.len()
    ));
    for f in &report.findings {
        // The occurrence number keeps names unique when an item repeats on one line.
        let name = format!("{} at {}:{} #{}", f.id, f.line, f.column, f.occurrence);
        out.push_str(&format!(
            "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\" line=\"{}\" time=\"0\">\n",
            escape_xml(&f.path),
            escape_xml(&name),
            escape_xml(&f.path),
            f.line
        ));
        let mut text = format!(
            "{}:{}:{}: {} (`{}`)",
            f.path, f.line, f.column, f.message, f.matched
        );
        if let Some(r) = &f.replacement {
            text.push_str(&format!("\nReplacement: {r}"));
        }
        if f.severity == Severity::Error {
            out.push_str(&format!(
                "      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                f.status.as_str(),
                escape_xml(&f.message),
                escape_xml(&text)
            ));
        } else {
            out.push_str(&format!(
                "      <system-out>{}: {}</system-out>\n",
                f.severity.as_str(),
                escape_xml(&text)
            ));
        }
        out.push_str("    </testcase>\n");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}
