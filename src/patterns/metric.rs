//! Prometheus metric names in rules, alerts and dashboards, standing alone outside comments.

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind, word_hits};
use crate::syntax::{FileCtx, FileKind, is_ident_byte, WordBytes};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Metric {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_with: Option<String>,
}

fn is_metric_byte(c: u8) -> bool {
    is_ident_byte(c) || c == b':'
}

impl PatternKind for Metric {
    const NAME: &'static str = "metric";
    const REQUIRED: &'static [&'static str] = &["name"];
    const OPTIONAL: &'static [&'static str] = &["replace_with"];
    const MATCHES: &'static str = "a Prometheus metric name";

    fn parse(f: &mut Fields) -> Option<Self> {
        let name = f.text("name")?;
        let name = f.check.ident(
            &name,
            "metric name",
            &[':'],
            "a metric name is letters, digits, `_` and `:`",
        );
        let replace_with = f.opt_non_empty("replace_with");
        Some(Metric {
            name: name?,
            replace_with: replace_with?,
        })
    }

    fn anchor(&self) -> String {
        self.name.clone()
    }

    fn replace_with(&self) -> Option<&str> {
        self.replace_with.as_deref()
    }

    fn describe(&self) -> String {
        format!("metric {}", self.name)
    }

    fn applies(&self, kind: FileKind) -> bool {
        matches!(kind, FileKind::Monitoring | FileKind::Yaml | FileKind::Helm)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        word_hits(&self.name, ctx, WordBytes::Other(is_metric_byte))
    }
}
