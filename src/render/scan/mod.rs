//! Output formats for scan reports. One file per format; each writes to an `io::Write`
//! (`write_FORMAT`), and renders to a `String` for callers that want the whole text (`FORMAT`).

mod codequality;
mod concise;
mod fixes;
mod github;
mod html;
mod human;
mod json;
mod junit;
mod markdown;
mod projects;
mod rdjsonl;
mod sarif;

pub use codequality::render as codequality;
pub use codequality::write as write_codequality;
pub use concise::render as concise;
pub use concise::write as write_concise;
pub use github::render as github;
pub use github::write as write_github;
pub use html::render as html;
pub use html::write as write_html;
pub use human::render as human;
pub use human::write as write_human;
pub use json::render as json;
pub use json::write as write_json;
pub use json::write_to as json_to;
pub use junit::render as junit;
pub use junit::write as write_junit;
pub use markdown::render as markdown;
pub use markdown::write as write_markdown;
pub use rdjsonl::render as rdjsonl;
pub use rdjsonl::write as write_rdjsonl;
pub use sarif::render as sarif;
pub use sarif::write as write_sarif;

use std::collections::BTreeMap;

use crate::catalog::Catalog;
use crate::scan::{Finding, Report, UnusedSuppression};
use crate::version::{Milestone, ServiceVersion};

/// Render into memory with a writer of a format (for tests and for files written whole).
pub fn to_string(write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> String {
    let mut out = Vec::new();
    write(&mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("reports are UTF-8")
}

/// What a rule (an entry of the schedule) says, for formats that describe their rules.
#[derive(Clone, Debug)]
pub struct Rule {
    pub id: String,
    pub title: String,
    pub surface: String,
    pub change: String,
    pub removed_in: Option<Milestone>,
    pub replacement: Option<String>,
    pub notes: Option<String>,
    pub breaking: bool,
}

/// The rules of the findings of a report, by id (`unused-suppression` included).
pub fn rules_for(report: &Report, catalog: &Catalog) -> BTreeMap<String, Rule> {
    let mut rules = BTreeMap::new();
    for f in &report.findings {
        if rules.contains_key(&f.id) {
            continue;
        }
        let rule = match catalog.get(&f.id) {
            Some(e) => Rule {
                id: e.id.clone(),
                title: e.title.clone(),
                surface: e.surface.as_str().to_string(),
                change: e.change.as_str().to_string(),
                removed_in: e.removed_in,
                replacement: e.replacement_text(),
                notes: e.notes.clone(),
                breaking: e.is_breaking(),
            },
            None => Rule {
                id: f.id.clone(),
                title: UnusedSuppression::TITLE.into(),
                surface: UnusedSuppression::SURFACE.into(),
                change: UnusedSuppression::ID.into(),
                removed_in: None,
                replacement: Some(UnusedSuppression::REPLACEMENT.into()),
                notes: None,
                breaking: false,
            },
        };
        rules.insert(f.id.clone(), rule);
    }
    rules
}

/// What a report says about the scan itself (the range of versions it judged against).
#[derive(Clone, Debug)]
pub struct Context {
    pub target: ServiceVersion,
    pub current: Option<ServiceVersion>,
    /// The oldest supported server version (`--min-version`).
    pub min_version: Option<ServiceVersion>,
    pub api_v5: bool,
    /// Wall time of the scan, for the human summary only (machine formats stay deterministic).
    pub elapsed: Option<std::time::Duration>,
    pub color: bool,
    /// The rules of the findings, for SARIF, HTML and Markdown.
    pub rules: BTreeMap<String, Rule>,
    /// Every version of the data, ascending, for the HTML timeline.
    pub versions: Vec<Milestone>,
    /// What was scanned, with which data and options (recorded in the JSON report).
    pub origin: crate::fleet::Origin,
    /// Each project's counts, for a merge of several projects (the per-project view).
    pub projects: Vec<crate::fleet::ProjectTotals>,
    /// What `--baseline` hid and which of its entries are gone.
    pub baseline: Option<crate::baseline::BaselineCounts>,
    /// Show the findings in tests in full, with the production ones (`--tests include`); else
    /// the human report summarises them per file after the production findings.
    pub tests_in_full: bool,
}

impl Context {
    /// A context for `target` alone: no current version, no rules, no timeline, no colour.
    pub fn new(target: ServiceVersion) -> Self {
        Self {
            target,
            current: None,
            min_version: None,
            api_v5: false,
            elapsed: None,
            color: false,
            rules: BTreeMap::new(),
            versions: Vec::new(),
            origin: crate::fleet::Origin::default(),
            projects: Vec::new(),
            baseline: None,
            tests_in_full: false,
        }
    }
}

/// The version a tool reports itself as.
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where the schedule that uplint checks is published.
pub const INFORMATION_URI: &str = "https://docs.gitlab.com/update/deprecations/";

/// A fingerprint that identifies a finding without its line number: it survives lines moving
/// above it, and differs for every finding of a report (rule, path, matched text, occurrence).
pub fn fingerprint(f: &Finding) -> String {
    fn fnv1a(seed: u64, parts: &[&[u8]]) -> u64 {
        let mut h = seed;
        for p in parts {
            for &b in *p {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
            h ^= 0xff;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    }
    let occurrence = f.occurrence.to_string();
    let parts: [&[u8]; 4] = [
        f.id.as_bytes(),
        f.path.as_bytes(),
        f.matched.as_bytes(),
        occurrence.as_bytes(),
    ];
    format!(
        "{:016x}{:016x}",
        fnv1a(0xcbf2_9ce4_8422_2325, &parts),
        fnv1a(0x6c62_272e_07bb_0142, &parts)
    )
}

/// The findings in tests, per file in report order: (path, count).
pub fn tests_per_file(report: &Report) -> Vec<(&str, usize)> {
    let mut out: Vec<(&str, usize)> = Vec::new();
    for f in report.findings.iter().filter(|f| f.context.is_test()) {
        match out.last_mut() {
            Some((p, n)) if *p == f.path => *n += 1,
            _ => out.push((&f.path, 1)),
        }
    }
    out
}

/// Timeline order of a removal: by milestone (service versions, then `v5`), then none.
fn version_order(v: &Option<Milestone>) -> (bool, Option<Milestone>) {
    (v.is_none(), *v)
}

/// Findings grouped by the version that removes them, in timeline order; each group keeps the
/// report's order.
pub fn by_version(report: &Report) -> Vec<(Option<Milestone>, Vec<&Finding>)> {
    let mut groups: Vec<(Option<Milestone>, Vec<&Finding>)> = Vec::new();
    for f in &report.findings {
        let v = f.removed_in;
        match groups.iter_mut().find(|(g, _)| *g == v) {
            Some((_, list)) => list.push(f),
            None => groups.push((v, vec![f])),
        }
    }
    groups.sort_by_key(|(v, _)| version_order(v));
    groups
}

/// The column of a finding within its displayed source line (an excerpt of a long line), from
/// 1; the end (exclusive) is at most one past the line, so a caret never runs past what is
/// shown, whatever positions a finding read from a report gives.
pub fn display_columns(f: &Finding) -> (usize, usize) {
    let past_end = f.source_line.chars().count() + 1;
    let start = (f.column + 1)
        .saturating_sub(f.excerpt_column)
        .clamp(1, past_end);
    let end = if f.end_line == f.line {
        (f.end_column + 1).saturating_sub(f.excerpt_column)
    } else {
        past_end
    };
    (start, end.clamp(start, past_end))
}

/// Escape text for XML and HTML. Characters XML 1.0 cannot hold (the C0 controls but tab, LF
/// and CR; U+FFFE and U+FFFF) become U+FFFD.
pub fn escape_xml(s: &str) -> String {
    escape_markup(s, false)
}

/// Escape an attribute value for XML and HTML: as [`escape_xml`], and tab, LF and CR as
/// character references (an XML parser would normalize them to spaces).
pub fn escape_xml_attr(s: &str) -> String {
    escape_markup(s, true)
}

fn escape_markup(s: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\r' if attribute => out.push_str("&#13;"),
            // Characters XML 1.0 cannot hold.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}
