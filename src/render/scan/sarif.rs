//! SARIF 2.1.0 for GitHub code scanning: one run, one rule per entry used, results with a
//! relative, percent-encoded URI and a 1-based region, partial fingerprints, no
//! security-severity (these are compatibility findings, not vulnerabilities).

use std::collections::HashMap;
use std::io::{self, Write};

use serde::Serialize;
use serde_json::{Value, json};

use super::{Context, INFORMATION_URI, Rule, TOOL_VERSION, fingerprint};
use crate::scan::{Finding, Report, Severity};
use crate::version::Milestone;

/// Percent-encode a relative path as a relative URI reference: every byte but RFC 3986's
/// unreserved characters and `/` is encoded, so no name reads as a scheme (`javascript:x.yml`
/// gives `javascript%3Ax.yml`), a query or a fragment.
pub fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn level(sev: Severity) -> &'static str {
    match sev {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn rule_json(r: &Rule) -> Value {
    let removal = match r.removed_in {
        Some(Milestone::Api(v)) => format!("Removed in REST API {v}."),
        Some(v) => format!("Removed in {v}."),
        None => String::new(),
    };
    let replacement = r
        .replacement
        .as_ref()
        .map(|x| format!(" Replacement: {x}."))
        .unwrap_or_default();
    let notes = r
        .notes
        .as_ref()
        .map(|n| format!(" {n}"))
        .unwrap_or_default();
    let help = format!("{removal}{replacement}{notes}").trim().to_string();
    let help = if help.is_empty() {
        r.title.clone()
    } else {
        help
    };
    let mut tags = vec![r.surface.clone(), r.change.clone()];
    if r.breaking {
        tags.push("breaking".into());
    }
    json!({
        "id": r.id,
        "name": r.id.split('-').map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
        }).collect::<String>(),
        "shortDescription": {"text": r.title},
        "fullDescription": {"text": format!("{} {}", r.title, removal).trim()},
        "help": {"text": help, "markdown": format!("**{}**\n\n{}", r.title, help)},
        "helpUri": INFORMATION_URI,
        "properties": {"tags": tags},
    })
}

/// One result of the run.
fn result_json(f: &Finding, rule_index: &HashMap<&str, usize>) -> Value {
    let mut message = format!("{} (`{}`)", f.message, f.matched);
    if let Some(r) = &f.replacement {
        message.push_str(&format!(". Replacement: {r}"));
    }
    let mut result = json!({
        "ruleId": f.id,
        "ruleIndex": rule_index.get(f.id.as_str()).copied().unwrap_or(0),
        "level": if f.context.is_test() { "note" } else { level(f.severity) },
        "message": {"text": message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": uri(&f.path), "uriBaseId": "%SRCROOT%"},
                "region": {
                    "startLine": f.line,
                    "startColumn": f.column,
                    "endLine": f.end_line,
                    "endColumn": f.end_column.max(f.column.saturating_add(usize::from(f.end_line == f.line))),
                }
            }
        }],
        "partialFingerprints": {"primaryLocationLineHash": fingerprint(f)},
        "properties": {"status": f.status.as_str(), "removedIn": f.removed_in, "context": f.context.as_str()},
    });
    super::fixes::insert(&mut result, "fixes", super::fixes::sarif(f));
    result
}

/// The results, each made and written in turn: memory holds one result, not the run's.
struct Results<'a> {
    findings: &'a [Finding],
    rule_index: HashMap<&'a str, usize>,
}

impl Serialize for Results<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.findings
                .iter()
                .map(|f| result_json(f, &self.rule_index)),
        )
    }
}

/// The document; the fields in the order of their names, as `json!` objects write theirs.
#[derive(Serialize)]
struct Doc<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    runs: [Run<'a>; 1],
    version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    column_kind: &'static str,
    properties: Value,
    results: Results<'a>,
    tool: Value,
}

pub fn write(report: &Report, ctx: &Context, out: &mut dyn Write) -> io::Result<()> {
    let rule_index: HashMap<&str, usize> = ctx
        .rules
        .keys()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let rules: Vec<Value> = ctx.rules.values().map(rule_json).collect();
    let doc = Doc {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        runs: [Run {
            column_kind: "unicodeCodePoints",
            properties: json!({"target": ctx.target, "current": ctx.current, "api": if ctx.api_v5 { "v5" } else { "v4" }}),
            results: Results {
                findings: &report.findings,
                rule_index,
            },
            tool: json!({"driver": {
                "name": "uplint",
                "version": TOOL_VERSION,
                "semanticVersion": TOOL_VERSION,
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }}),
        }],
        version: "2.1.0",
    };
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    out.write_all(b"\n")
}

pub fn render(report: &Report, ctx: &Context) -> String {
    super::to_string(|out| write(report, ctx, out))
}

#[cfg(test)]
mod tests {
    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(super::uri("a b/ü#?.yml"), "a%20b/%C3%BC%23%3F.yml");
        assert_eq!(super::uri(".gitlab-ci.yml"), ".gitlab-ci.yml");
        assert_eq!(super::uri("javascript:x.yml"), "javascript%3Ax.yml");
        assert_eq!(super::uri("a;b=c@d!e"), "a%3Bb%3Dc%40d%21e");
    }
}
