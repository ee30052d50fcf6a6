//! YAML key paths (`*.trigger.strategy: depend`), on the parsed structure: a key counts only at
//! its path, so `strategy:` elsewhere or in a comment is not a finding.

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind, key_path_anchor, key_path_literals, with_values};
use crate::syntax::yaml::{self, Doc, Key, Value};
use crate::syntax::{FileCtx, FileKind};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct YamlKey {
    pub path: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    pub files: Vec<FileKind>,
    /// The match counts only when the mapping holding the last key lacks this sibling key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unless_sibling: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_with: Option<String>,
}

impl PatternKind for YamlKey {
    const NAME: &'static str = "yaml_key";
    const REQUIRED: &'static [&'static str] = &["path", "files"];
    const OPTIONAL: &'static [&'static str] = &["values", "unless_sibling", "replace_with"];
    const MATCHES: &'static str =
        "a key path (`*` one key, `**` any keys) in YAML of the given file kinds";

    fn parse(f: &mut Fields) -> Option<Self> {
        let values = f.values();
        let replace_with = f.opt_non_empty("replace_with");
        let raw_path = f.text("path")?;
        Some(YamlKey {
            path: f.check.key_path(&raw_path)?,
            values: values?,
            files: f.files(&raw_path)?,
            unless_sibling: f.opt_non_empty("unless_sibling")?,
            replace_with: replace_with?,
        })
    }

    fn anchor(&self) -> String {
        key_path_anchor(&self.path)
    }

    fn literals(&self) -> Vec<String> {
        key_path_literals(&self.path, &self.values)
    }

    fn renamed(&self) -> String {
        self.path.join(".")
    }

    fn replace_with(&self) -> Option<&str> {
        self.replace_with.as_deref()
    }

    fn written_forms(&self) -> Vec<String> {
        super::key_path_written_forms(&self.path, &self.values, self.describe())
    }

    fn describe(&self) -> String {
        let kinds: Vec<&str> = self.files.iter().map(|f| f.as_str()).collect();
        let mut s = with_values(
            format!("YAML key {} in {}", self.path.join("."), kinds.join(", ")),
            &self.values,
        );
        if let Some(sib) = &self.unless_sibling {
            s.push_str(&format!(" (without a sibling `{sib}`)"));
        }
        s
    }

    fn applies(&self, kind: FileKind) -> bool {
        self.files.contains(&kind)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        // No parse of a file where the key is not even written as a key.
        if !ctx.is_yaml() || !yaml::may_have_key(ctx.src.text, &key_path_anchor(&self.path)) {
            return Vec::new();
        }
        let doc = ctx.yaml();
        match (&self.unless_sibling, ctx.src.class.kind) {
            // In CI configuration a job's keyword may come from `extends`, `default:` or an
            // included template: judge the resolved job.
            (Some(sibling), FileKind::Ci) => {
                let jobs = ctx.ci_jobs();
                key_hits(doc, &self.path, &self.values, None)
                    .into_iter()
                    .filter(|hit| match job_of(doc, hit.start) {
                        Some((job, _)) if jobs.contains(job) => jobs.lacks(job, sibling),
                        Some((_, key)) => doc.sibling(key.mapping, sibling).is_none(),
                        None => true,
                    })
                    .collect()
            }
            _ => key_hits(doc, &self.path, &self.values, self.unless_sibling.as_deref()),
        }
    }
}

/// The matched value of a key, if `values` asks for one: its byte range and text.
pub fn value_hit<'d>(key: &'d Key, values: &[String]) -> Option<(usize, usize, &'d str)> {
    match &key.value {
        Value::Scalar(s) if values.contains(&s.text) => Some((key.start, s.end, &s.text)),
        Value::Sequence(items) => items
            .iter()
            .find(|s| values.contains(&s.text))
            .map(|s| (s.start, s.end, s.text.as_str())),
        _ => None,
    }
}

/// The top-level job whose keyword starts at `offset`, with that keyword's key.
fn job_of(doc: &Doc, offset: usize) -> Option<(&str, &yaml::Key)> {
    let key = doc.keys.iter().find(|k| k.start == offset)?;
    match doc.path(key).as_slice() {
        [yaml::Segment::Key(job), yaml::Segment::Key(_)] => Some((job.as_str(), key)),
        _ => None,
    }
}

/// Keys of `doc` at `path` (anchored at the root), with the value and sibling conditions.
pub fn key_hits(
    doc: &Doc,
    path: &[String],
    values: &[String],
    unless_sibling: Option<&str>,
) -> Vec<Hit> {
    let last = path.last().map(String::as_str).unwrap_or("*");
    let shown = super::shown_path(path);
    let mut out = Vec::new();
    for key in &doc.keys {
        if last != "*" && last != "**" && key.name != last {
            continue;
        }
        if !yaml::path_matches(path, &doc.path(key)) {
            continue;
        }
        if let Some(sib) = unless_sibling
            && doc.sibling(key.mapping, sib).is_some()
        {
            continue;
        }
        if values.is_empty() {
            out.push(Hit::new(key.start, key.end, shown.clone()));
        } else if let Some((s, e, v)) = value_hit(key, values) {
            out.push(Hit::new(s, e, format!("{shown}: {v}")));
        }
    }
    out
}
