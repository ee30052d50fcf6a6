//! Distinctive words (a feature flag name, a task name) standing alone, outside comments, in
//! the given kinds of file; with `context`, only in a file that also holds one of its words (a
//! dict key `"after_script":` in code that names `.gitlab-ci.yml`).

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind, word_hits};
use crate::syntax::{FileCtx, FileKind, WordBytes};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Literal {
    pub text: String,
    pub files: Vec<FileKind>,
    /// Words of which the file must also hold one (empty: none needed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<String>,
}

impl PatternKind for Literal {
    const NAME: &'static str = "literal";
    const REQUIRED: &'static [&'static str] = &["text", "files"];
    const OPTIONAL: &'static [&'static str] = &["context"];
    const MATCHES: &'static str = "a distinctive word (at least 4 characters) in the given file kinds; with `context`, in a file that also holds one of its words";

    fn parse(f: &mut Fields) -> Option<Self> {
        let raw = f.text("text")?;
        let text = f.check.non_empty(&raw, "literal")?;
        if text.len() < 4 {
            f.check.err_at(
                &raw,
                format!("literal `{text}` is too short to be distinctive"),
                Some("a literal needs at least 4 characters".into()),
            );
            return None;
        }
        let files = f.files(&raw)?;
        let context = f.list("context")?;
        let context = f.check.strings(&context, "context")?;
        Some(Literal {
            text,
            files,
            context,
        })
    }

    fn anchor(&self) -> String {
        self.text.clone()
    }

    fn context_anchors(&self) -> Vec<String> {
        self.context.clone()
    }

    fn describe(&self) -> String {
        let kinds: Vec<&str> = self.files.iter().map(|f| f.as_str()).collect();
        let mut d = format!("`{}` in {}", self.text, kinds.join(", "));
        if !self.context.is_empty() {
            d.push_str(&format!(" naming `{}`", self.context.join("` or `")));
        }
        d
    }

    fn applies(&self, kind: FileKind) -> bool {
        self.files.contains(&kind)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        if !self.context.is_empty() && !self.context.iter().any(|c| ctx.contains(c)) {
            return Vec::new();
        }
        word_hits(&self.text, ctx, WordBytes::Ident)
    }
}
