//! GitLab Code Quality (`artifacts:reports:codequality`): a JSON array of CodeClimate issues.
//! Every entry carries all the fields GitLab's schema requires, since GitLab stops reading at
//! the first invalid one; fingerprints are line-independent and unique.

use std::io::{self, Write};

use serde::Serialize;

use super::fingerprint;
use crate::scan::{Finding, Report, Severity, Status};

#[derive(Serialize)]
struct Issue<'a> {
    #[serde(rename = "type")]
    ty: &'static str,
    check_name: &'a str,
    description: String,
    categories: [&'static str; 1],
    severity: &'static str,
    fingerprint: String,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

fn severity(status: Status, sev: Severity) -> &'static str {
    match (status, sev) {
        (_, Severity::Info) => "info",
        (Status::Removed | Status::Unavailable | Status::InvalidCall, Severity::Error) => {
            "critical"
        }
        (Status::InvalidCall | Status::Unavailable, _) => "major",
        (Status::Removed, _) => "critical",
        (Status::BehaviourChange, _) => "info",
        (Status::Deprecated | Status::UnusedSuppression, _) => "minor",
    }
}

/// A finding in tests is `info`, whatever its status: it does not ship.
fn issue(f: &Finding) -> Issue<'_> {
    let test = if f.context.is_test() { " [test]" } else { "" };
    Issue {
        ty: "issue",
        check_name: &f.id,
        description: match &f.replacement {
            Some(r) => format!("{} (`{}`). Use: {r}{test}", f.message, f.matched),
            None => format!("{} (`{}`){test}", f.message, f.matched),
        },
        categories: ["Compatibility"],
        severity: if f.context.is_test() {
            "info"
        } else {
            severity(f.status, f.severity)
        },
        fingerprint: fingerprint(f),
        location: Location {
            path: &f.path,
            lines: Lines {
                begin: f.line,
                end: f.end_line,
            },
        },
    }
}

/// The issues, each made and written in turn (memory holds one issue, not the array).
struct Issues<'a>(&'a [Finding]);

impl Serialize for Issues<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(issue))
    }
}

pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &Issues(&report.findings))?;
    out.write_all(b"\n")
}

pub fn render(report: &Report) -> String {
    super::to_string(|out| write(report, out))
}
