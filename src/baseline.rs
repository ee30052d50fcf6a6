//! Baselines: adopt uplint in a large codebase and fail only on *new* uses while the old ones are
//! worked off. `--write-baseline FILE` records every finding of a scan by the line-independent
//! fingerprint of the Code Quality report (rule, path, matched text, occurrence in the file),
//! with the rule and path for people reading the file; `--baseline FILE` hides the findings it
//! records. Moving code up or down keeps a finding hidden; a second use of the same item in the
//! same file has another occurrence, so it is new.
//!
//! ```json
//! {
//!   "uplint_baseline": 1,
//!   "findings": [
//!     { "fingerprint": "…", "id": "ci-job-jwt", "path": ".gitlab-ci.yml" }
//!   ]
//! }
//! ```

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::render::scan::fingerprint;
use crate::scan::Report;
use crate::scan::shard::{Shard, keeps};

/// The version of the file format.
const FORMAT: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    uplint_baseline: u32,
    findings: Vec<Recorded>,
}

/// One finding of the baseline.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Recorded {
    fingerprint: String,
    id: String,
    path: String,
}

/// What a baseline did to a scan, for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineCounts {
    /// Findings the baseline hid.
    pub hidden: usize,
    /// Baseline entries (of the files this scan covers) that match no finding any more: fixed
    /// uses; rewrite the baseline to drop them.
    pub gone: usize,
}

/// The baseline file for the findings of `report`, sorted by path, rule and fingerprint.
pub fn render(report: &Report) -> String {
    let mut findings: Vec<Recorded> = report
        .findings
        .iter()
        .map(|f| Recorded {
            fingerprint: fingerprint(f),
            id: f.id.clone(),
            path: f.path.clone(),
        })
        .collect();
    findings
        .sort_by(|a, b| (&a.path, &a.id, &a.fingerprint).cmp(&(&b.path, &b.id, &b.fingerprint)));
    let file = File {
        uplint_baseline: FORMAT,
        findings,
    };
    let mut s = serde_json::to_string_pretty(&file).expect("a baseline serializes");
    s.push('\n');
    s
}

/// A loaded baseline.
pub struct Baseline {
    findings: Vec<Recorded>,
}

/// A baseline file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    #[error("cannot read the baseline {path}: {source}")]
    Unreadable {
        path: String,
        source: std::io::Error,
    },
    #[error(
        "{path}:{line}:{column}: not an uplint baseline: {source}; write one with `uplint scan --write-baseline {path}`"
    )]
    Malformed {
        path: String,
        line: usize,
        column: usize,
        source: serde_json::Error,
    },
    #[error(
        "{path}: baseline format {found} is not supported (expected {FORMAT}); rewrite it with `uplint scan --write-baseline {path}`"
    )]
    Format { path: String, found: u32 },
}

impl Baseline {
    pub fn load(path: &Path) -> Result<Baseline, BaselineError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| BaselineError::Unreadable {
            path: name.clone(),
            source,
        })?;
        let file: File =
            serde_json::from_str(&text).map_err(|source| BaselineError::Malformed {
                path: name.clone(),
                line: source.line(),
                column: source.column(),
                source,
            })?;
        if file.uplint_baseline != FORMAT {
            return Err(BaselineError::Format {
                path: name,
                found: file.uplint_baseline,
            });
        }
        Ok(Baseline {
            findings: file.findings,
        })
    }

    /// Hide the findings of `report` that the baseline records and recount its summary. Entries
    /// that match nothing count as gone when their file is in this scan's shard.
    pub fn apply(&self, report: &mut Report, shard: Option<&Shard>) -> BaselineCounts {
        let mut used: HashMap<&str, bool> = self
            .findings
            .iter()
            .map(|r| (r.fingerprint.as_str(), false))
            .collect();
        let before = report.findings.len();
        report
            .findings
            .retain(|f| match used.get_mut(fingerprint(f).as_str()) {
                Some(u) => {
                    *u = true;
                    false
                }
                None => true,
            });
        let hidden = before - report.findings.len();
        report
            .summary
            .count(&report.findings, report.summary.errors);
        let gone = self
            .findings
            .iter()
            .filter(|r| !used[r.fingerprint.as_str()] && keeps(shard, &r.path))
            .count();
        BaselineCounts { hidden, gone }
    }
}
