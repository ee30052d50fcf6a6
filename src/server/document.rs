//! An open document: its text, what kind of file it is (by its path, as a scan classifies it,
//! or by its language for a document that is not a file), and its findings, computed once per
//! version of the text.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

use super::ci::CiContext;
use super::engine::Engine;
use super::text::Text;
use crate::scan::{Finding, classify};
use crate::syntax::ci_jobs::Jobs;
use crate::syntax::classify::Class;

/// What a document is scanned as.
#[derive(Clone, Debug)]
pub struct Kind {
    /// The path shown in findings and matched by per-path settings: relative to the workspace
    /// root with `/`, the absolute path outside it, a made-up name for a document not a file.
    pub shown: String,
    /// The file on disk, for a `file:` document.
    pub file: Option<PathBuf>,
    pub class: Class,
    /// Part of the workspace's CI project (its `.gitlab-ci.yml` or a file it includes): judged
    /// with the project's jobs, as in a scan; the jobs of the files before and after it.
    pub ci_project: Option<Rc<(Jobs, Jobs)>>,
}

pub struct Document {
    pub language: String,
    pub text: Text,
    pub kind: Option<Kind>,
    findings: Option<Vec<Finding>>,
}

impl Document {
    pub fn new(
        uri: &str,
        language: String,
        text: String,
        root: Option<&Path>,
        ci: &CiContext,
    ) -> Document {
        let kind = kind_in(uri, &language, root, ci);
        Document {
            language,
            text: Text::new(text),
            kind,
            findings: None,
        }
    }

    /// Replace the text (a change without a range), or a range of it.
    pub fn change(&mut self, change: TextDocumentContentChangeEvent) {
        self.findings = None;
        match change.range {
            None => self.text = Text::new(change.text),
            Some(Range { start, end }) => {
                let (a, b) = (self.text.offset(start), self.text.offset(end));
                let (a, b) = (a.min(b), a.max(b));
                let mut full = std::mem::take(&mut self.text.full);
                full.replace_range(a..b, &change.text);
                self.text = Text::new(full);
            }
        }
    }

    /// Forget the findings (the settings changed).
    pub fn invalidate(&mut self) {
        self.findings = None;
    }

    /// Classify the document again (the CI project changed); is its kind another?
    pub fn reclassify(&mut self, uri: &str, root: Option<&Path>, ci: &CiContext) -> bool {
        let kind = kind_in(uri, &self.language, root, ci);
        let same = match (&kind, &self.kind) {
            (Some(a), Some(b)) => {
                a.class == b.class && a.ci_project.is_some() == b.ci_project.is_some()
            }
            (None, None) => true,
            _ => false,
        };
        self.kind = kind;
        if !same {
            self.findings = None;
        }
        !same
    }

    /// The findings of the current text (none for a document uplint does not read or that the
    /// configuration excludes).
    pub fn findings(&mut self, engine: &Engine) -> &[Finding] {
        self.analysed(engine).1
    }

    /// The text and its findings.
    pub fn analysed(&mut self, engine: &Engine) -> (&Text, &[Finding]) {
        let text = &self.text;
        let Some(kind) = &self.kind else {
            return (text, &[]);
        };
        let findings = self.findings.get_or_insert_with(|| {
            if kind.file.as_deref().is_some_and(|f| engine.excluded(f)) {
                return Vec::new();
            }
            engine.findings(kind, text.body())
        });
        (text, findings)
    }
}

/// The kind of the document at `uri` in a workspace whose CI project is `ci`: a file the
/// project's `.gitlab-ci.yml` includes is CI configuration whatever its name, as in a scan;
/// any other as [`kind_of`] says.
pub fn kind_in(uri: &str, language: &str, root: Option<&Path>, ci: &CiContext) -> Option<Kind> {
    let file = file_path(uri);
    let member = file.as_deref().and_then(|f| ci.membership(f));
    let mut kind = match (member, file) {
        (Some(true), Some(file)) => Some(Kind {
            shown: shown_path(&file, root),
            file: Some(file),
            class: classify::ci(),
            ci_project: None,
        }),
        _ => kind_of(uri, language, root),
    };
    if let Some(k) = &mut kind
        && member.is_some()
    {
        k.ci_project = k.file.as_deref().and_then(|f| ci.around(f)).map(Rc::new);
    }
    kind
}

/// The path a file is shown as: relative to the workspace root with `/` when inside it, else
/// its absolute path.
fn shown_path(file: &Path, root: Option<&Path>) -> String {
    match root.and_then(|r| file.strip_prefix(r).ok()) {
        Some(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().replace('\\', "/"),
        _ => file.to_string_lossy().into_owned(),
    }
}

/// The kind of the document at `uri`: a `file:` URI by its path (relative to the workspace
/// root when inside it), anything else by its language, else by the last segment of its path.
pub fn kind_of(uri: &str, language: &str, root: Option<&Path>) -> Option<Kind> {
    if let Some(file) = file_path(uri) {
        let shown = shown_path(&file, root);
        let class = classify::classify(&shown)?;
        return Some(Kind {
            shown,
            file: Some(file),
            class,
            ci_project: None,
        });
    }
    let name = name_for_language(language)
        .map(str::to_string)
        .or_else(|| {
            let path = uri.split(['?', '#']).next().unwrap_or("");
            let last = path.rsplit(['/', ':']).next().unwrap_or("");
            (!last.is_empty()).then(|| percent_decode(last))
        })?;
    let class = classify::classify(&name)?;
    Some(Kind {
        shown: name,
        file: None,
        class,
        ci_project: None,
    })
}

/// A file name that classifies as a document of the language (LSP language identifiers, and
/// those editors use for GitLab CI).
fn name_for_language(language: &str) -> Option<&'static str> {
    Some(match language {
        "gitlab-ci" | "gitlab_ci" | "gitlabci" => ".gitlab-ci.yml",
        "yaml" => "untitled.yaml",
        "helm" => "templates/untitled.yaml",
        "shellscript" | "sh" | "bash" | "zsh" => "untitled.sh",
        "graphql" => "untitled.graphql",
        "python" => "untitled.py",
        "ruby" => "untitled.rb",
        "go" => "untitled.go",
        "javascript" | "javascriptreact" => "untitled.js",
        "typescript" | "typescriptreact" => "untitled.ts",
        "java" => "untitled.java",
        "php" => "untitled.php",
        "toml" => "untitled.toml",
        "json" => "untitled.json",
        "terraform" | "hcl" => "untitled.tf",
        "dockerfile" => "Dockerfile",
        "makefile" => "Makefile",
        _ => return None,
    })
}

/// The path of a `file:` URI, percent-decoded (`None` for another scheme or a relative path).
pub fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri
        .strip_prefix("file://")
        .or_else(|| uri.strip_prefix("FILE://"))?;
    // The authority (empty or `localhost`) ends at the path's first `/`.
    let path = &rest[rest.find('/')?..];
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let decoded = percent_decode(path);
    let p = PathBuf::from(decoded);
    p.is_absolute().then_some(p)
}

/// `%XX` sequences decoded; an invalid sequence is kept as it is, invalid UTF-8 replaced.
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (
                b.get(i + 1).copied().and_then(hex),
                b.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A position's range of one finding.
pub fn range(text: &Text, f: &Finding) -> Range {
    Range::new(
        text.position(f.line, f.byte_column),
        text.position(f.end_line, f.end_byte_column),
    )
}

/// Does `r` hold `p` (its end included: a cursor just after a word is on it)?
pub fn contains(r: &Range, p: Position) -> bool {
    r.start <= p && p <= r.end
}

/// Do two ranges meet?
pub fn meets(a: &Range, b: &Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::FileKind;

    #[test]
    fn file_uris_are_decoded_and_made_relative() {
        let root = Path::new("/w/my project");
        let k = kind_of("file:///w/my%20project/.gitlab-ci.yml", "yaml", Some(root)).unwrap();
        assert_eq!(k.shown, ".gitlab-ci.yml");
        assert_eq!(k.class.kind, FileKind::Ci);
        let k = kind_of("file:///elsewhere/q.graphql", "", Some(root)).unwrap();
        assert_eq!(k.shown, "/elsewhere/q.graphql");
        assert!(kind_of("file:///w/README.md", "markdown", Some(root)).is_none());
        assert_eq!(
            file_path("file://localhost/a%2"),
            Some(PathBuf::from("/a%2"))
        );
        assert_eq!(file_path("file:relative"), None);
    }

    #[test]
    fn documents_not_files_are_classified_by_language() {
        let k = kind_of("untitled:Untitled-1", "shellscript", None).unwrap();
        assert_eq!(k.class.kind, FileKind::Shell);
        assert!(k.file.is_none());
        let k = kind_of("untitled:/x/.gitlab-ci.yml", "plaintext", None).unwrap();
        assert_eq!(k.class.kind, FileKind::Ci);
        assert!(kind_of("untitled:", "plaintext", None).is_none());
    }
}
