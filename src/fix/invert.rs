//! A value inversion: a REST field replaced by one holding the negated boolean (`active` →
//! `paused`). Fixed only where the field is followed by a boolean literal: `active=false`,
//! `"active": true`, `'active' => false`, `.active == false` (any case: `True`, `FALSE`).

use super::Edit;
use crate::syntax::is_ident_byte;
use crate::syntax::source::Source;

/// The edits renaming the field at `start..end` to `new` and negating the boolean after it.
pub fn invert(src: &Source, start: usize, end: usize, new: &str) -> Option<Vec<Edit>> {
    let text = src.text;
    let b = text.as_bytes();
    let mut i = end;
    // A closing quote of the key, spaces, the operator, spaces, an opening quote.
    if matches!(b.get(i), Some(b'"' | b'\'')) {
        i += 1;
    }
    let skip_spaces = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    i = skip_spaces(i);
    let op = ["==", "!=", "=>", "=", ":"]
        .into_iter()
        .find(|op| text[i..].starts_with(op))?;
    i = skip_spaces(i + op.len());
    if matches!(b.get(i), Some(b'"' | b'\'')) {
        i += 1;
    }
    let word_end = (i..b.len())
        .find(|&j| !is_ident_byte(b[j]))
        .unwrap_or(b.len());
    let value = &text[i..word_end];
    let negated = match value {
        "true" => "false",
        "false" => "true",
        "True" => "False",
        "False" => "True",
        "TRUE" => "FALSE",
        "FALSE" => "TRUE",
        _ => return None,
    };
    Some(vec![
        Edit::new(src, start, end, new),
        Edit::new(src, i, word_end, negated),
    ])
}

#[cfg(test)]
mod tests {
    use crate::syntax::classify::classify;
    use crate::syntax::source::Source;

    fn inverted(text: &str) -> Option<String> {
        let src = Source::new("a.py", text, classify("a.py").unwrap());
        let at = text.find("active").unwrap();
        let edits = super::invert(&src, at, at + 6, "paused")?;
        Some(crate::fix::apply::apply_edits(text, &edits))
    }

    #[test]
    fn the_boolean_after_the_field_is_negated() {
        assert_eq!(inverted("q = 'active=false'").unwrap(), "q = 'paused=true'");
        assert_eq!(
            inverted("{\"active\": True}").unwrap(),
            "{\"paused\": False}"
        );
        assert_eq!(
            inverted("{'active' => false}").unwrap(),
            "{'paused' => true}"
        );
        assert_eq!(
            inverted("select(.active == \"true\")").unwrap(),
            "select(.paused == \"false\")"
        );
        assert_eq!(inverted("select(.active)"), None);
        assert_eq!(inverted("{\"active\": flag}"), None);
    }
}
