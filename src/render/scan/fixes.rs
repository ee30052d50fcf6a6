//! A finding's fix in the report formats that carry fixes: SARIF `fixes`, reviewdog
//! `suggestions`, and the human report's `fix:` line. Findings without a fix add nothing.

use serde_json::{Value, json};

use super::sarif::uri;
use crate::fix::{Applicability, Fix};
use crate::scan::Finding;

/// What the fix does, with its applicability and, when unsafe, why.
pub fn summary(fix: &Fix) -> String {
    match (&fix.applicability, &fix.reason) {
        (Applicability::Safe, _) => format!("{} (safe: uplint scan --fix)", fix.description),
        (Applicability::Unsafe, Some(why)) => {
            format!(
                "{} (unsafe: {why}; uplint scan --unsafe-fixes)",
                fix.description
            )
        }
        (Applicability::Unsafe, None) => {
            format!("{} (unsafe: uplint scan --unsafe-fixes)", fix.description)
        }
    }
}

/// SARIF `fixes` of a result: one fix, one artifact change, its replacements (columns in
/// Unicode code points, as the run's `columnKind` says).
pub fn sarif(f: &Finding) -> Option<Value> {
    let fix = f.fix.as_ref()?;
    let replacements: Vec<Value> = fix
        .edits
        .iter()
        .map(|e| {
            json!({
                "deletedRegion": {
                    "startLine": e.line,
                    "startColumn": e.column,
                    "endLine": e.end_line,
                    "endColumn": e.end_column,
                },
                "insertedContent": {"text": e.replacement},
            })
        })
        .collect();
    Some(json!([{
        "description": {"text": summary(fix)},
        "artifactChanges": [{
            "artifactLocation": {"uri": uri(&f.path), "uriBaseId": "%SRCROOT%"},
            "replacements": replacements,
        }],
    }]))
}

/// reviewdog `suggestions` of a diagnostic (columns in UTF-8 bytes, end exclusive).
pub fn rdjsonl(f: &Finding) -> Option<Value> {
    let fix = f.fix.as_ref()?;
    let suggestions: Vec<Value> = fix
        .edits
        .iter()
        .map(|e| {
            json!({
                "range": {
                    "start": {"line": e.line, "column": e.byte_column},
                    "end": {"line": e.end_line, "column": e.end_byte_column},
                },
                "text": e.replacement,
            })
        })
        .collect();
    Some(Value::Array(suggestions))
}

/// Add `key: value` to a JSON object when there is a value.
pub fn insert(object: &mut Value, key: &str, value: Option<Value>) {
    if let (Some(v), Some(o)) = (value, object.as_object_mut()) {
        o.insert(key.to_string(), v);
    }
}
