//! Text from the scanned tree (file names, matched text, project names) made safe for the
//! formats it is written into. One escaping for every line-based format, so that one finding
//! is one line however its file is named:
//!
//! - `\n`, `\r`, `\t` as those two characters;
//! - every other C0 control and DEL as `\xHH` (`\x1b`, `\x7f`);
//! - the C1 controls (U+0080–U+009F), the line and paragraph separators (U+2028, U+2029) and
//!   the bidirectional formatting characters (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069,
//!   which reorder what a reader sees) as `\u{HHHH}` (`\u{85}`, `\u{2028}`).
//!
//! Everything else, a backslash included, stays as it is. JSON formats keep the real text
//! (JSON escapes it itself).

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` is escaped by [`escape_line`].
pub fn escaped(c: char) -> bool {
    matches!(
        c,
        '\0'..='\x1f'
            | '\x7f'..='\u{9f}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// The text with every character that could break or disguise a line escaped (see the module
/// documentation); borrowed when there is none, as for almost every name.
pub fn escape_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(escaped) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c < '\u{80}' && escaped(c) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if escaped(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::escape_line;

    #[test]
    fn controls_and_separators_are_escaped_the_rest_kept() {
        assert_eq!(escape_line("a/b c\\d.yml"), "a/b c\\d.yml");
        assert!(matches!(
            escape_line("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(
            escape_line("a\nb\rc\td\x1be\x7ff\u{85}g\u{2028}h\u{2029}i\u{202e}j\0"),
            "a\\nb\\rc\\td\\x1be\\x7ff\\u{85}g\\u{2028}h\\u{2029}i\\u{202e}j\\x00"
        );
        assert_eq!(escape_line("ü€😀"), "ü€😀");
    }
}
