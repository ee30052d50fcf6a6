//! JUnit XML for GitLab `artifacts:reports:junit`: one test case per finding, unique by
//! (classname, name); errors are failures, other findings pass with their message as output.
//! A finding in tests is never a failure: its case is named `[test]` and passes.

use std::io::{self, Write};

use super::{Context, escape_xml, escape_xml_attr};
use crate::render::text::escape_line as line;
use crate::scan::{Finding, Report, Severity};

/// An error in the program (not in its tests) is a failure.
fn fails(f: &Finding) -> bool {
    f.severity == Severity::Error && !f.context.is_test()
}

pub fn write(report: &Report, ctx: &Context, out: &mut dyn Write) -> io::Result<()> {
    let failures = report.findings.iter().filter(|f| fails(f)).count();
    out.write_all("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".as_bytes())?;
    writeln!(
        out,
        "<testsuites name=\"uplint\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">",
        report.findings.len()
    )?;
    writeln!(
        out,
        "  <testsuite name=\"uplint (target {})\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">",
        escape_xml_attr(&ctx.target.to_string()),
        report.findings.len()
    )?;
    for f in &report.findings {
        // The occurrence number keeps names unique when an item repeats on one line.
        let mut name = format!("{} at {}:{} #{}", f.id, f.line, f.column, f.occurrence);
        if f.context.is_test() {
            name.push_str(" [test]");
        }
        // Names escaped as in every line-based format: one finding never spans lines.
        let path = line(&f.path);
        writeln!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\" line=\"{}\" time=\"0\">",
            escape_xml_attr(&path),
            escape_xml_attr(&name),
            escape_xml_attr(&path),
            f.line
        )?;
        let mut text = format!(
            "{}:{}:{}: {} (`{}`)",
            path,
            f.line,
            f.column,
            line(&f.message),
            line(&f.matched)
        );
        if let Some(r) = &f.replacement {
            text.push_str(&format!("\nReplacement: {}", line(r)));
        }
        if fails(f) {
            writeln!(
                out,
                "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                f.status.as_str(),
                escape_xml_attr(&f.message),
                escape_xml(&text)
            )?;
        } else {
            writeln!(
                out,
                "      <system-out>{}{}: {}</system-out>",
                f.severity.as_str(),
                if f.context.is_test() { " (test)" } else { "" },
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
