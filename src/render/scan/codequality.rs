//! GitLab Code Quality (`artifacts:reports:codequality`): a JSON array of CodeClimate issues.
//! Every entry carries all the fields GitLab's schema requires, since GitLab stops reading at
//! the first invalid one; fingerprints are line-independent and unique.

use std::io::{self, Write};

use serde::Serialize;

use super::fingerprint;
use crate::scan::{Report, Severity, Status};

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

pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let issues: Vec<Issue> = report
        .findings
        .iter()
        .map(|f| Issue {
            ty: "issue",
            check_name: &f.id,
            description: match &f.replacement {
                Some(r) => format!("{} (`{}`). Use: {r}", f.message, f.matched),
                None => format!("{} (`{}`)", f.message, f.matched),
            },
            categories: ["Compatibility"],
            severity: severity(f.status, f.severity),
            fingerprint: fingerprint(f),
            location: Location {
                path: &f.path,
                lines: Lines {
                    begin: f.line,
                    end: f.end_line,
                },
            },
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &issues)?;
    out.write_all(b"\n")
}

pub fn render(report: &Report) -> String {
    super::to_string(|out| write(report, out))
}
