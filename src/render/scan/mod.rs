//! Output formats for scan reports. One file per format.

mod concise;
mod human;
mod json;

pub use concise::render as concise;
pub use human::render as human;
pub use json::render as json;

use crate::scan::Report;

/// What a report says about the scan itself (the range of versions it judged against).
#[derive(Clone, Debug)]
pub struct Context {
    pub target: String,
    pub current: Option<String>,
    pub api_v5: bool,
    /// Wall time of the scan, for the human summary only (machine formats stay deterministic).
    pub elapsed: Option<std::time::Duration>,
    pub color: bool,
}

/// Findings of a report in render order (the report keeps them sorted).
pub fn findings(report: &Report) -> &[crate::scan::Finding] {
    &report.findings
}
