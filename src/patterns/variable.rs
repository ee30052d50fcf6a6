//! Environment and CI/CD variables: `$NAME`, `${NAME}`, `%NAME%`, `$env:NAME`, definitions
//! (`NAME: value`, `NAME=value`, `- name: NAME`) and names in code (`os.getenv("NAME")`).
//! A longer name is another variable: `CI_JOB_JWT` is not found inside `CI_JOB_JWT_V2`.

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind, word_hits};
use crate::syntax::{FileCtx, FileKind, WordBytes};

/// What a variable name may be.
pub const VARIABLE_NAME: &str =
    "a variable name is letters, digits and `_`, not starting with a digit";

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variable {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_with: Option<String>,
}

impl PatternKind for Variable {
    const NAME: &'static str = "variable";
    const REQUIRED: &'static [&'static str] = &["name"];
    const OPTIONAL: &'static [&'static str] = &["replace_with"];
    const MATCHES: &'static str =
        "`$NAME`, `${NAME}`, `%NAME%`, `$env:NAME`, and definitions `NAME:` / `NAME=`";

    fn parse(f: &mut Fields) -> Option<Self> {
        let name = f.text("name")?;
        let name = f.check.ident(&name, "variable name", &[], VARIABLE_NAME);
        let replace_with = f.opt_non_empty("replace_with");
        Some(Variable {
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
        format!("variable ${}", self.name)
    }

    fn applies(&self, kind: FileKind) -> bool {
        use FileKind::*;
        matches!(kind, Ci | Shell | Yaml | Helm | RunnerConfig | Code)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        let text = ctx.src.text.as_bytes();
        let mut hits = word_hits(&self.name, ctx, WordBytes::Ident);
        hits.retain(|h| !declares_an_id_token(text, h.start, h.end));
        hits
    }
}

/// Is the name at `start..end` a key declared under `id_tokens:` (an ID token the job names
/// as it likes, `CI_JOB_JWT:` with `aud:` below it: the replacement, not the variable)?
pub(super) fn declares_an_id_token(text: &[u8], start: usize, end: usize) -> bool {
    if text.get(end) != Some(&b':') {
        return false;
    }
    let line_start = memchr::memrchr(b'\n', &text[..start]).map_or(0, |i| i + 1);
    let indent = start - line_start;
    if text[line_start..start].iter().any(|c| !matches!(c, b' ' | b'\t')) || indent == 0 {
        return false;
    }
    // The nearest line above that is less indented and not blank: its key (a bounded way up:
    // thousands of keys of one indentation are not each walked back over all the others).
    let mut end_of_prev = line_start;
    for _ in 0..64 {
        if end_of_prev == 0 {
            break;
        }
        let s = memchr::memrchr(b'\n', &text[..end_of_prev - 1]).map_or(0, |i| i + 1);
        let line = &text[s..end_of_prev - 1];
        let ind = line.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
        let t = line.trim_ascii();
        if !t.is_empty() && !t.starts_with(b"#") && ind < indent {
            return t == b"id_tokens:";
        }
        end_of_prev = s;
    }
    false
}
