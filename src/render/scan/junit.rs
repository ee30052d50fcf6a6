//! JUnit XML for GitLab `artifacts:reports:junit`: one test case per finding, unique by
//! (classname, name); errors are failures, other findings pass with their message as output.

use std::io::{self, Write};

use super::{Context, escape_xml};
use crate::scan::{Report, Severity};

pub fn write(report: &Report, ctx: &Context, out: &mut dyn Write) -> io::Result<()> {
    let failures = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    out.write_all("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".as_bytes())?;
    writeln!(
        out,
        "<testsuites name=\"uplint\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">",
        report.findings.len()
    )?;
    writeln!(
        out,
        "  <testsuite name=\"uplint (target {})\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">",
        escape_xml(&ctx.target.to_string()),
        report.findings.len()
    )?;
    for f in &report.findings {
        // The occurrence number keeps names unique when an item repeats on one line.
        let name = format!("{} at {}:{} #{}", f.id, f.line, f.column, f.occurrence);
        writeln!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\" line=\"{}\" time=\"0\">",
            escape_xml(&f.path),
            escape_xml(&name),
            escape_xml(&f.path),
            f.line
        )?;
        let mut text = format!(
            "{}:{}:{}: {} (`{}`)",
            f.path, f.line, f.column, f.message, f.matched
        );
        if let Some(r) = &f.replacement {
            text.push_str(&format!("\nReplacement: {r}"));
        }
        if f.severity == Severity::Error {
            writeln!(
                out,
                "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                f.status.as_str(),
                escape_xml(&f.message),
                escape_xml(&text)
            )?;
        } else {
            writeln!(
                out,
                "      <system-out>{}: {}</system-out>",
                f.severity.as_str(),
                escape_xml(&text)
            )?;
        }
        out.write_all("    </testcase>\n".as_bytes())?;
    }
    out.write_all("  </testsuite>\n</testsuites>\n".as_bytes())?;
    Ok(())
}

pub fn render(report: &Report, ctx: &Context) -> String {
    super::to_string(|out| write(report, ctx, out))
}
