//! Distinctive words (a feature flag name, a task name) standing alone, outside comments, in
//! the given kinds of file.

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind, word_hits};
use crate::syntax::{FileCtx, FileKind, WordBytes};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Literal {
    pub text: String,
    pub files: Vec<FileKind>,
}

impl PatternKind for Literal {
    const NAME: &'static str = "literal";
    const REQUIRED: &'static [&'static str] = &["text", "files"];
    const OPTIONAL: &'static [&'static str] = &[];
    const MATCHES: &'static str =
        "a distinctive word (at least 4 characters) in the given file kinds";

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
        Some(Literal {
            text,
            files: f.files(&raw)?,
        })
    }

    fn anchor(&self) -> String {
        self.text.clone()
    }

    fn describe(&self) -> String {
        let kinds: Vec<&str> = self.files.iter().map(|f| f.as_str()).collect();
        format!("`{}` in {}", self.text, kinds.join(", "))
    }

    fn applies(&self, kind: FileKind) -> bool {
        self.files.contains(&kind)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        word_hits(&self.text, ctx, WordBytes::Ident)
    }
}
