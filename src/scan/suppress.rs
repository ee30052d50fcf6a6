//! Inline suppressions: `uplint: ignore[ID,...]` in a comment on the finding's line or the line
//! before, `uplint: ignore-file[ID,...]` in the first lines of a file. A suppression that
//! suppresses nothing is itself reported.

use crate::syntax::source::Source;

/// How many lines at the top of a file may hold an `ignore-file` suppression.
pub const FILE_LEVEL_LINES: usize = 10;

/// One id named in a suppression.
#[derive(Debug)]
pub struct SuppressedId {
    pub id: String,
    /// Its byte range in the file.
    pub start: usize,
    pub end: usize,
    /// It suppressed something.
    pub used: bool,
}

#[derive(Debug)]
pub struct Suppression {
    pub line: usize,
    pub file_level: bool,
    pub ids: Vec<SuppressedId>,
}

impl Suppression {
    fn covers(&mut self, id: &str, line: usize) -> Option<&mut SuppressedId> {
        if !self.file_level && line != self.line && line != self.line + 1 {
            return None;
        }
        self.ids.iter_mut().find(|i| i.id == id)
    }
}

/// Does a suppression cover a finding of `id` on `line`? Every suppression that does is marked
/// used.
pub fn apply(suppressions: &mut [Suppression], id: &str, line: usize) -> bool {
    let mut suppressed = false;
    for s in suppressions {
        if let Some(i) = s.covers(id, line) {
            i.used = true;
            suppressed = true;
        }
    }
    suppressed
}

/// Every suppression in the file's comments.
pub fn find(src: &Source) -> Vec<Suppression> {
    let mut out = Vec::new();
    for &(start, end) in src.comments() {
        let comment = &src.text[start..end];
        let mut from = 0;
        while let Some(i) = comment[from..].find("uplint:") {
            let at = from + i;
            let rest = comment[at + 7..].trim_start();
            let rest_off = start + at + 7 + (comment[at + 7..].len() - rest.len());
            from = at + 7;
            let (file_level, body_off) = if rest.starts_with("ignore-file[") {
                (true, 12)
            } else if rest.starts_with("ignore[") {
                (false, 7)
            } else {
                continue;
            };
            let Some(close) = rest[body_off..].find(']') else {
                continue;
            };
            let body = &rest[body_off..body_off + close];
            let mut ids = Vec::new();
            let mut pos = rest_off + body_off;
            for part in body.split(',') {
                let lead = part.len() - part.trim_start().len();
                let id = part.trim();
                if !id.is_empty() {
                    ids.push(SuppressedId {
                        id: id.to_string(),
                        start: pos + lead,
                        end: pos + lead + id.len(),
                        used: false,
                    });
                }
                pos += part.len() + 1;
            }
            let (line, _) = src.line_col(start + at);
            if file_level && line > FILE_LEVEL_LINES {
                continue;
            }
            out.push(Suppression {
                line,
                file_level,
                ids,
            });
        }
    }
    out
}
