//! A document's text as the editor holds it, and positions in it: findings count lines from 1
//! and columns in UTF-8 bytes (`byte_column`); LSP counts both from 0 and columns in UTF-16
//! code units. Every position a client sends is clamped into the text.

use lsp_types::Position;

const BOM: &str = "\u{FEFF}";

/// An open document's text with the start of each line.
#[derive(Debug)]
pub struct Text {
    /// The whole text, as the client sent it (a byte order mark included).
    pub full: String,
    /// Where the scanned text starts in `full` (3 after a byte order mark, else 0).
    pub body_start: usize,
    /// The byte offset in `full` where each line starts.
    lines: Vec<usize>,
}

impl Text {
    pub fn new(full: String) -> Text {
        let body_start = if full.starts_with(BOM) { BOM.len() } else { 0 };
        let mut lines = vec![0];
        lines.extend(memchr::memchr_iter(b'\n', full.as_bytes()).map(|i| i + 1));
        Text {
            full,
            body_start,
            lines,
        }
    }

    /// The text uplint scans (without a byte order mark).
    pub fn body(&self) -> &str {
        &self.full[self.body_start..]
    }

    /// The 0-based line's text, without its line break (empty past the end).
    pub fn line(&self, line: usize) -> &str {
        let Some(&start) = self.lines.get(line) else {
            return "";
        };
        let end = self.lines.get(line + 1).map_or(self.full.len(), |&e| e - 1);
        self.full[start..end].trim_end_matches('\r')
    }

    /// The byte offset in `full` where a 0-based line starts (the end of the text past it).
    pub fn line_start(&self, line: usize) -> usize {
        self.lines.get(line).copied().unwrap_or(self.full.len())
    }

    /// The LSP position of a finding's place: 1-based line and 1-based UTF-8 byte column of
    /// the scanned text.
    pub fn position(&self, line: usize, byte_column: usize) -> Position {
        let l = line.saturating_sub(1);
        let start = self.line_start(l) + if l == 0 { self.body_start } else { 0 };
        let text = self.line_with_start(l, start);
        let mut bytes = byte_column.saturating_sub(1).min(text.len());
        while !text.is_char_boundary(bytes) {
            bytes -= 1;
        }
        let units: usize = text[..bytes].chars().map(char::len_utf16).sum();
        let units = units + if l == 0 && self.body_start > 0 { 1 } else { 0 };
        Position::new(to_u32(l), to_u32(units))
    }

    /// The line's text from `start` (inside it) to its end.
    fn line_with_start(&self, line: usize, start: usize) -> &str {
        let end = self.lines.get(line + 1).map_or(self.full.len(), |&e| e - 1);
        let start = start.min(end);
        self.full[start..end].trim_end_matches('\r')
    }

    /// The byte offset in `full` of a position a client sent: a line past the end is the end
    /// of the text, a character past the line's end is the line's end, and a position inside a
    /// surrogate pair is the start of its character.
    pub fn offset(&self, p: Position) -> usize {
        let l = p.line as usize;
        if l >= self.lines.len() {
            return self.full.len();
        }
        let start = self.line_start(l);
        let text = self.line(l);
        let mut units = 0usize;
        for (i, c) in text.char_indices() {
            units += c.len_utf16();
            if units > p.character as usize {
                return start + i;
            }
        }
        start + text.len()
    }

    /// The LSP position of a byte offset in `full`.
    pub fn position_of_offset(&self, offset: usize) -> Position {
        let offset = offset.min(self.full.len());
        let l = self.lines.partition_point(|&s| s <= offset) - 1;
        let start = self.lines[l];
        let mut at = offset;
        while !self.full.is_char_boundary(at) {
            at -= 1;
        }
        let units: usize = self.full[start..at].chars().map(char::len_utf16).sum();
        Position::new(to_u32(l), to_u32(units))
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // `é` is 2 bytes and 1 unit; `😀` is 4 bytes and 2 units.
        let t = Text::new("a: 1\nx: é😀 CI_JOB_JWT_V2\n".to_string());
        let byte_col = "x: é😀 ".len() + 1;
        assert_eq!(t.position(2, byte_col), Position::new(1, 7));
        assert_eq!(
            t.offset(Position::new(1, 7)),
            t.line_start(1) + byte_col - 1
        );
        assert_eq!(
            t.position_of_offset(t.line_start(1) + byte_col - 1),
            Position::new(1, 7)
        );
    }

    #[test]
    fn a_byte_order_mark_is_one_unit_before_the_first_line() {
        let t = Text::new("\u{FEFF}x: 1\n".to_string());
        assert_eq!(t.body(), "x: 1\n");
        assert_eq!(t.position(1, 1), Position::new(0, 1));
        assert_eq!(t.position(2, 1), Position::new(1, 0));
    }

    #[test]
    fn positions_out_of_range_are_clamped() {
        let t = Text::new("ab\r\ncd".to_string());
        assert_eq!(t.offset(Position::new(0, 99)), 2);
        assert_eq!(t.offset(Position::new(99, 0)), 6);
        assert_eq!(t.position(9, 9), Position::new(8, 0));
        assert_eq!(t.position(1, 99), Position::new(0, 2));
        // Inside a surrogate pair: the start of the character.
        let t = Text::new("😀x".to_string());
        assert_eq!(t.offset(Position::new(0, 1)), 0);
        assert_eq!(t.position_of_offset(99), Position::new(0, 3));
    }
}
