//! What the server answers about a document: its diagnostics, the code actions at a range
//! (each fix, "suppress this finding", every safe fix at once) and the hover on a finding.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, Diagnostic, DiagnosticSeverity, DiagnosticTag, Hover,
    HoverContents, MarkupContent, MarkupKind, NumberOrString, Position, Range, TextEdit, Uri,
    WorkspaceEdit,
};

use super::document::{self, Document};
use super::engine::Engine;
use super::text::Text;
use crate::fix::{Applicability, Fix};
use crate::scan::{Finding, Severity, Status};
use crate::syntax::classify::CommentStyle;

/// The kind of the action that applies every safe fix.
pub const FIX_ALL: &str = "source.fixAll.uplint";

/// A finding as an LSP diagnostic.
pub fn diagnostic(text: &Text, f: &Finding) -> Diagnostic {
    let tags = match f.status {
        Status::Removed | Status::Deprecated | Status::BehaviourChange => {
            Some(vec![DiagnosticTag::DEPRECATED])
        }
        Status::UnusedSuppression => Some(vec![DiagnosticTag::UNNECESSARY]),
        Status::Unavailable | Status::InvalidCall => None,
    };
    Diagnostic {
        range: document::range(text, f),
        severity: Some(match f.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(f.id.clone())),
        source: Some("uplint".to_string()),
        message: f.message.clone(),
        tags,
        ..Diagnostic::default()
    }
}

/// What the client asked for: the kinds of action (`only`; none: all), and the diagnostics it
/// sent (a finding among them has its actions even when the range does not touch it, as when
/// the cursor is elsewhere on its line).
pub struct Wanted(pub Option<Vec<CodeActionKind>>, pub Vec<Diagnostic>);

impl Wanted {
    /// Is an action of `kind` wanted? A kind asked for covers the kinds under it
    /// (`source.fixAll` covers `source.fixAll.uplint`).
    fn wants(&self, kind: &str) -> bool {
        self.0.as_ref().is_none_or(|only| {
            only.iter().any(|k| {
                let k = k.as_str();
                kind == k || kind.strip_prefix(k).is_some_and(|r| r.starts_with('.'))
            })
        })
    }
}

/// The code actions of `range` in the document at `uri`.
pub fn code_actions(
    engine: &Engine,
    uri: &Uri,
    doc: &mut Document,
    range: Range,
    wanted: &Wanted,
) -> Vec<CodeAction> {
    let comments = doc.kind.as_ref().map(|k| k.class.comments);
    let findings = doc.findings(engine).to_vec();
    let file = file_text(doc);
    let text = &doc.text;
    let mut out = Vec::new();
    if wanted.wants(CodeActionKind::QUICKFIX.as_str()) {
        for f in &findings {
            let diag = diagnostic(text, f);
            let sent = wanted
                .1
                .iter()
                .any(|d| d.range == diag.range && d.code == diag.code);
            if !sent && !document::meets(&diag.range, &range) {
                continue;
            }
            // A fix that would make the file read worse is not offered (as `--fix` leaves it out).
            if let Some(fix) = &f.fix
                && file
                    .as_ref()
                    .is_none_or(|file| crate::fix::apply::worsens(file, fix).is_none())
            {
                out.push(fix_action(uri, text, f, fix, &diag));
            }
            if let Some(style) = comments
                && f.status != Status::UnusedSuppression
                && let Some(edit) = suppression(text, f, style)
            {
                out.push(CodeAction {
                    title: format!("Suppress {} on this line (uplint: ignore[{}])", f.id, f.id),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diag]),
                    edit: Some(workspace_edit(uri, vec![edit])),
                    ..CodeAction::default()
                });
            }
        }
    }
    if wanted.wants(FIX_ALL)
        && let Some(edit) = fix_all(engine, doc)
    {
        out.push(CodeAction {
            title: "uplint: apply every safe fix".to_string(),
            kind: Some(CodeActionKind::from(FIX_ALL)),
            edit: Some(workspace_edit(uri, vec![edit])),
            ..CodeAction::default()
        });
    }
    out
}

/// A fix as a quick fix: preferred when safe, else titled with why it is unsafe.
fn fix_action(uri: &Uri, text: &Text, f: &Finding, fix: &Fix, diag: &Diagnostic) -> CodeAction {
    let edits = fix
        .edits
        .iter()
        .map(|e| TextEdit {
            range: Range::new(
                text.position(e.line, e.byte_column),
                text.position(e.end_line, e.end_byte_column),
            ),
            new_text: e.replacement.clone(),
        })
        .collect();
    let safe = fix.applicability == Applicability::Safe;
    let title = match (&fix.reason, safe) {
        (_, true) => format!("{} ({})", capitalized(&fix.description), f.id),
        (Some(why), false) => format!("{} (unsafe: {why})", capitalized(&fix.description)),
        (None, false) => format!("{} (unsafe)", capitalized(&fix.description)),
    };
    CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diag.clone()]),
        edit: Some(workspace_edit(uri, edits)),
        is_preferred: Some(safe),
        ..CodeAction::default()
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|first| first.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn workspace_edit(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

/// The comment that starts a line comment in a file of this style.
fn comment_start(style: CommentStyle) -> Option<&'static str> {
    match style {
        CommentStyle::Hash | CommentStyle::Semicolon => Some("#"),
        CommentStyle::Slash | CommentStyle::HashAndSlash => Some("//"),
        CommentStyle::None => None,
    }
}

/// The edit that suppresses a finding: its id added to a suppression comment on the line
/// before, else a comment line of its own before the finding's line, indented as it is.
fn suppression(text: &Text, f: &Finding, style: CommentStyle) -> Option<TextEdit> {
    let start = comment_start(style)?;
    let line = f.line.checked_sub(1)?;
    if let Some(before) = line.checked_sub(1) {
        let prev = text.line(before);
        let marker = "uplint: ignore[";
        if prev.trim_start().starts_with(start)
            && let Some(at) = prev.find(marker)
            && let Some(close) = prev[at..].find(']')
        {
            let close = at + close;
            let ids = &prev[at + marker.len()..close];
            if ids.split(',').any(|i| i.trim() == f.id) {
                return None;
            }
            let sep = if ids.trim().is_empty() { "" } else { ", " };
            let p = text.position_of_offset(text.line_start(before) + close);
            return Some(TextEdit {
                range: Range::new(p, p),
                new_text: format!("{sep}{}", f.id),
            });
        }
    }
    let own = text.line(line);
    let indent = &own[..own.len() - own.trim_start().len()];
    let p = Position::new(u32::try_from(line).ok()?, 0);
    Some(TextEdit {
        range: Range::new(p, p),
        new_text: format!("{indent}{start} uplint: ignore[{}]\n", f.id),
    })
}

/// The document as a file to fix (its text without a byte order mark).
fn file_text(doc: &Document) -> Option<crate::fix::apply::FileText> {
    let kind = doc.kind.as_ref()?;
    Some(crate::fix::apply::FileText {
        shown: kind.shown.clone(),
        path: kind.file.clone().unwrap_or_default(),
        class: kind.class,
        bytes: Vec::new(),
        bom: doc.text.body_start > 0,
        text: doc.text.body().to_string(),
    })
}

/// Every safe fix of the document at once, as `uplint scan --fix` applies them (round after
/// round, non-overlapping): one edit of the part of the text that changes.
fn fix_all(engine: &Engine, doc: &mut Document) -> Option<TextEdit> {
    if !doc.findings(engine).iter().any(|f| {
        f.fix
            .as_ref()
            .is_some_and(|x| x.applicability == Applicability::Safe)
    }) {
        return None;
    }
    let file = file_text(doc)?;
    let text = &doc.text;
    let settings = crate::fix::apply::FixSettings {
        unsafe_fixes: false,
        range_start: engine.range_start,
    };
    let fixed = crate::fix::apply::fix_text(&engine.scanner, &engine.catalog, &file, settings);
    if fixed.applied == 0 {
        return None;
    }
    let (old, new) = (text.body(), fixed.text.as_str());
    let prefix = common_prefix(old, new);
    let suffix = common_suffix(&old[prefix..], &new[prefix..]);
    let base = text.body_start;
    Some(TextEdit {
        range: Range::new(
            text.position_of_offset(base + prefix),
            text.position_of_offset(base + old.len() - suffix),
        ),
        new_text: new[prefix..new.len() - suffix].to_string(),
    })
}

/// The length of the longest common prefix, at a character boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    let mut n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !a.is_char_boundary(n) || !b.is_char_boundary(n) {
        n -= 1;
    }
    n
}

/// The length of the longest common suffix, at a character boundary.
fn common_suffix(a: &str, b: &str) -> usize {
    let mut n = a
        .bytes()
        .rev()
        .zip(b.bytes().rev())
        .take_while(|(x, y)| x == y)
        .count();
    while !a.is_char_boundary(a.len() - n) || !b.is_char_boundary(b.len() - n) {
        n -= 1;
    }
    n
}

/// What `uplint explain` says of each finding at `p`.
pub fn hover(engine: &Engine, doc: &mut Document, p: Position) -> Option<Hover> {
    let findings = doc.findings(engine).to_vec();
    let text = &doc.text;
    let mut parts = Vec::new();
    let mut range: Option<Range> = None;
    for f in &findings {
        let r = document::range(text, f);
        if !document::contains(&r, p) {
            continue;
        }
        let body = match engine.catalog.get(&f.id) {
            Some(entry) => crate::render::catalog::explain(entry),
            None => format!("{}: {}\n", f.id, f.message),
        };
        parts.push(format!("```text\n{}```", body));
        range = Some(range.map_or(r, |old| {
            Range::new(old.start.min(r.start), old.end.max(r.end))
        }));
    }
    if parts.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: parts.join("\n\n---\n\n"),
        }),
        range,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_ends_stop_at_character_boundaries() {
        assert_eq!(common_prefix("aé", "aè"), 1);
        assert_eq!(common_suffix("éa", "èa"), 1);
        assert_eq!(common_prefix("abc", "abc"), 3);
        assert_eq!(common_suffix("", "x"), 0);
    }

    /// A quick fix that would break the document is not offered; the others are.
    #[test]
    fn a_fix_that_would_break_the_document_is_not_offered() {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/reparse/breaking/entries.yml");
        let (engine, _) = Engine::load(&[data], None).unwrap();
        let path = "tests/fixtures/reparse/breaking/before/issues.py";
        let text =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
                .unwrap();
        let uri: Uri = "file:///w/issues.py".parse().unwrap();
        let ci = crate::server::ci::CiContext::default();
        let mut doc = Document::new(uri.as_str(), "python".into(), text, None, &ci);
        let all = Range::new(Position::new(0, 0), Position::new(99, 0));
        let titles: Vec<String> = code_actions(&engine, &uri, &mut doc, all, &Wanted(None, vec![]))
            .into_iter()
            .map(|a| a.title)
            .collect();
        assert!(
            titles
                .iter()
                .any(|t| t.starts_with("Rename `due` to `due_date`")),
            "{titles:?}"
        );
        assert!(!titles.iter().any(|t| t.contains("weight'")), "{titles:?}");
        assert!(
            titles
                .iter()
                .any(|t| t.contains("ignore[inhouse-issue-weight-total]")),
            "the finding is still there: {titles:?}"
        );
    }

    #[test]
    fn only_covers_the_kinds_under_it() {
        let w = Wanted(Some(vec![CodeActionKind::SOURCE_FIX_ALL]), Vec::new());
        assert!(w.wants(FIX_ALL));
        assert!(!w.wants("quickfix"));
        assert!(!Wanted(Some(vec![CodeActionKind::from("source.fix")]), Vec::new()).wants(FIX_ALL));
        assert!(Wanted(None, Vec::new()).wants("quickfix"));
    }
}
