//! Keys of TOML tables in runner `config.toml`: `[[runners]]` … `shell = "cmd"`,
//! `[runners.kubernetes]` … `terminationGracePeriodSeconds = 30`; and, for a key without a value
//! condition, the struct tag that declares it in Go code (`toml:"terminationGracePeriodSeconds"`).

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind, with_values};
use crate::syntax::{FileCtx, FileKind};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TomlKey {
    pub table: String,
    pub key: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

impl PatternKind for TomlKey {
    const NAME: &'static str = "toml_key";
    const REQUIRED: &'static [&'static str] = &["table", "key"];
    const OPTIONAL: &'static [&'static str] = &["values"];
    const MATCHES: &'static str =
        "a key of a TOML table (runner `config.toml`), and without `values` the Go struct tag `toml:\"key\"`";

    fn parse(f: &mut Fields) -> Option<Self> {
        let values = f.values();
        let table = f.text("table")?;
        let key = f.text("key")?;
        Some(TomlKey {
            table: f.check.non_empty(&table, "table")?,
            key: f.check.ident(
                &key,
                "TOML key",
                &['-'],
                "a bare TOML key: letters, digits, `_` and `-`",
            )?,
            values: values?,
        })
    }

    fn anchor(&self) -> String {
        self.key.clone()
    }

    fn describe(&self) -> String {
        let s = format!("config.toml [{}] {}", self.table, self.key);
        with_values(s, &self.values)
    }

    fn applies(&self, kind: FileKind) -> bool {
        kind == FileKind::RunnerConfig || (kind == FileKind::Code && self.values.is_empty())
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        match ctx.src.class.kind {
            FileKind::Code => struct_tags(&self.table, &self.key, ctx),
            _ => detect(&self.table, &self.key, &self.values, ctx),
        }
    }
}

/// `toml:"key"` and `toml:"key,omitempty"` struct tags of Go code, outside comments.
fn struct_tags(table: &str, key: &str, ctx: &FileCtx) -> Vec<Hit> {
    let needle = format!("toml:\"{key}");
    let b = ctx.src.text.as_bytes();
    memchr::memmem::find_iter(b, needle.as_bytes())
        .filter(|&at| matches!(b.get(at + needle.len()), Some(b'"' | b',')))
        .filter(|&at| !ctx.src.in_comment(at))
        .map(|at| {
            let start = at + "toml:\"".len();
            Hit::new(start, start + key.len(), format!("[{table}] {key}"))
        })
        .collect()
}

fn detect(table: &str, key: &str, values: &[String], ctx: &FileCtx) -> Vec<Hit> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut offset = 0;
    for line in ctx.src.text.split_inclusive('\n') {
        let line_off = offset;
        offset += line.len();
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            let name = trimmed.trim_start_matches('[');
            let name = name.split(']').next().unwrap_or("");
            current = name
                .split('.')
                .map(|p| p.trim().trim_matches('"'))
                .collect::<Vec<_>>()
                .join(".");
            continue;
        }
        if current != table {
            continue;
        }
        let Some((k, v)) = trimmed.split_once('=') else {
            continue;
        };
        if k.trim().trim_matches('"') != key {
            continue;
        }
        let value = v
            .split(" #")
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches(['"', '\'']);
        if !values.is_empty() && !values.iter().any(|w| w.eq_ignore_ascii_case(value)) {
            continue;
        }
        let start = line_off + (line.len() - line.trim_start().len());
        if ctx.src.in_comment(start) {
            continue;
        }
        let shown = if values.is_empty() {
            format!("[{table}] {key}")
        } else {
            format!("[{table}] {key} = {value}")
        };
        out.push(Hit::new(start, start + k.trim_end().len(), shown));
    }
    out
}
