//! Helpers shared by the integration tests that read JSON reports.

use serde_json::Value;

/// The report's errors, as `PATH: MESSAGE`.
pub fn errors(v: &Value) -> Vec<String> {
    v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{}: {}",
                e["path"].as_str().unwrap(),
                e["message"].as_str().unwrap()
            )
        })
        .collect()
}
