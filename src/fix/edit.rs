//! The edits of one finding, from its entry's data: a token rename (`replace_with` of a
//! pattern whose literal is the finding's text), a `gitlab.rb` setting rewrite (the same, in
//! the quoting the file uses), or a YAML key move (a Helm values path written as nested keys).

use super::Edit;
use super::yaml_move;

use crate::catalog::Entry;
use crate::scan::Finding;
use crate::syntax::FileKind;
use crate::syntax::source::Source;

/// The edits that replace the finding's item, what they do, and the replacement's name; `None`
/// when the data defines no mechanical replacement there (or the text is not what the finding
/// says, e.g. the file changed since the scan).
pub fn edits_for(entry: &Entry, f: &Finding, src: &Source) -> Option<(Vec<Edit>, String, String)> {
    let start = src.offset_of(f.line, f.byte_column)?;
    let end = src.offset_of(f.end_line, f.end_byte_column)?;
    let found = src.text.get(start..end)?;
    for p in &entry.patterns {
        if let Some((old, new)) = super::inverted(p) {
            if found == old {
                let edits = super::invert::invert(src, start, end, new)?;
                let what = format!("replace `{old}` by `{new}` with the negated value");
                return Some((edits, what, new.to_string()));
            }
            continue;
        }
        let Some((old, new)) = p.rename() else {
            continue;
        };
        if found == old {
            let what = format!("rename `{old}` to `{new}`");
            return Some((vec![Edit::new(src, start, end, new)], what, new.to_string()));
        }
        if src.class.kind == FileKind::Omnibus && found.replace('"', "'") == old {
            // `name["key"]`: the rewrite keeps the file's quotes.
            let quoted = new.replace('\'', "\"");
            let what = format!("rewrite `{found}` as `{quoted}`");
            return Some((
                vec![Edit::new(src, start, end, quoted)],
                what,
                new.to_string(),
            ));
        }
        let moved_key = old.rsplit('.').next().unwrap_or(&old);
        if f.matched == old
            && found == moved_key
            && old.contains('.')
            && matches!(src.class.kind, FileKind::Helm | FileKind::Yaml)
            && !is_chart_template(src.path)
        {
            let old_path: Vec<&str> = old.split('.').collect();
            let new_path: Vec<&str> = new.split('.').collect();
            let edits = yaml_move::move_key(src, start, &old_path, &new_path)?;
            let what = format!("move `{old}` to `{new}`");
            return Some((edits, what, new.to_string()));
        }
    }
    None
}

/// A Helm chart template (not a values file): its keys are not values paths.
fn is_chart_template(path: &str) -> bool {
    path.starts_with("templates/") || path.contains("/templates/")
}
