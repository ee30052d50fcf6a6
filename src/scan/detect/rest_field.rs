//! Fields of REST requests and responses (`merged_by`, a runner's `active`): reported only in a
//! file that calls one of the field's endpoints, and only where the word is used as a field: a
//! key (`"active":`, `active:`, `'active' =>`), an attribute or jq path (`.active`), a query or
//! keyword parameter (`active=`), a subscript (`["active"]`), a symbol (`:active`). A look-alike in
//! a file that never calls those endpoints is not the platform's field.

use super::{FileCtx, Hit, is_ident_byte, rest, word_offsets};
use crate::catalog::model::RestApi;

/// Is the word at `at..end` used as a field?
fn field_position(text: &str, at: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let before = if at > 0 { b[at - 1] } else { b' ' };
    let after = b.get(end).copied().unwrap_or(b' ');
    let quoted = matches!(before, b'"' | b'\'' | b'`') && before == after;
    let attribute = before == b'.' || (before == b':' && at > 1 && b[at - 2] != b':');
    let keyword = after == b'=' && b.get(end + 1) != Some(&b'=');
    let key = after == b':' && b.get(end + 1) != Some(&b':');
    quoted || attribute || keyword || key
}

/// The value written right after the field (`: null`, `=None`, `=> nil`), lowercased.
fn value_after(text: &str, end: usize) -> Option<String> {
    let rest = text[end..]
        .trim_start_matches(['"', '\'', '`', ']'])
        .trim_start();
    let rest = rest
        .strip_prefix("=>")
        .or_else(|| rest.strip_prefix("=="))
        .or_else(|| rest.strip_prefix(':'))
        .or_else(|| rest.strip_prefix('='))?;
    let v: String = rest
        .trim_start()
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!v.is_empty()).then(|| v.to_ascii_lowercase())
}

/// Does `value` (as written in code) mean one of `values`? `null` also matches None and nil.
fn value_matches(written: &str, values: &[String]) -> bool {
    values.iter().any(|v| {
        written == v.to_ascii_lowercase()
            || (v == "null" && matches!(written, "none" | "nil" | "undefined"))
    })
}

pub fn detect(name: &str, endpoints: &[String], values: &[String], ctx: &FileCtx) -> Vec<Hit> {
    let uses_endpoint = endpoints
        .iter()
        .any(|e| !rest::calls(e, RestApi::V4, false, ctx).is_empty());
    if !uses_endpoint {
        return Vec::new();
    }
    let text = ctx.src.text;
    let mut out = Vec::new();
    for at in word_offsets(text, name, is_ident_byte) {
        let end = at + name.len();
        if ctx.src.in_comment(at) || !field_position(text, at, end) {
            continue;
        }
        if !values.is_empty() {
            let hit = value_after(text, end).is_some_and(|v| value_matches(&v, values))
                || (!values.contains(&"null".to_string()) && {
                    // `status == "paused"` on the same line.
                    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
                    let line = &text[end..line_end];
                    values.iter().any(|v| {
                        line.contains(&format!("\"{v}\"")) || line.contains(&format!("'{v}'"))
                    })
                });
            if !hit {
                continue;
            }
        }
        let shown = if values.is_empty() {
            name.to_string()
        } else {
            format!("{name}: {}", values.join(" | "))
        };
        out.push(Hit::new(at, end, shown));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_that_are_fields() {
        for (t, word) in [
            ("x[\"merged_by\"]", "merged_by"),
            ("mr.merged_by", "merged_by"),
            ("{active: true}", "active"),
            ("params = {'active' => false}", "active"),
            ("curl -d active=false", "active"),
            ("jq '.[] | .ip_address'", "ip_address"),
            ("r[:active]", "active"),
        ] {
            let at = t.find(word).unwrap();
            assert!(field_position(t, at, at + word.len()), "{t}");
        }
        for (t, word) in [
            ("active = true", "active"),
            ("if active {", "active"),
            ("Foo::active", "active"),
        ] {
            let at = t.find(word).unwrap();
            assert!(!field_position(t, at, at + word.len()), "{t}");
        }
    }

    #[test]
    fn values() {
        assert_eq!(
            value_after("\"private_profile\": null,", 17).as_deref(),
            Some("null")
        );
        assert_eq!(
            value_after("private_profile=None)", 15).as_deref(),
            Some("none")
        );
        assert!(value_matches("nil", &["null".into()]));
        assert!(!value_matches("true", &["null".into()]));
    }
}
