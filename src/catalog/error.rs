//! Diagnostics for data files: every error names the file, line and column, shows the source
//! snippet and says what would be right.
//!
//! A snippet shows the text the error was made from. Only the built-in data, files named on the
//! command line and files a configuration names inside its own tree (see `config`) are ever read,
//! so a snippet never shows a file from outside the project.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode, SourceSpan};
use serde_saphyr::{MessageFormatter, UserMessageFormatter};

/// One problem in one data file.
#[derive(Debug, Clone)]
pub struct DataError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub help: Option<String>,
    /// A problem of a configuration file (`.uplint.yml`), not of a data file.
    pub config: bool,
    label: String,
    span: SourceSpan,
    src: Arc<NamedSource<Arc<str>>>,
}

impl DataError {
    /// An error at a byte range of `text`.
    pub fn at(
        file: &str,
        text: &Arc<str>,
        offset: usize,
        len: usize,
        message: impl Into<String>,
    ) -> Self {
        let offset = offset.min(text.len());
        let len = len.min(text.len() - offset);
        let (line, column) = line_col(text, offset);
        let message = message.into();
        Self {
            file: file.to_string(),
            line,
            column,
            label: message.clone(),
            message,
            help: None,
            config: false,
            span: SourceSpan::new(offset.into(), len),
            src: Arc::new(NamedSource::new(file, text.clone())),
        }
    }

    /// An error about a whole file (unreadable, empty).
    pub fn file(file: &str, message: impl Into<String>) -> Self {
        Self::at(file, &Arc::from(""), 0, 0, message)
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// The same problem, as one of a configuration file.
    pub fn in_config(mut self) -> Self {
        self.config = true;
        self
    }
}

/// The candidate nearest to `word` by edit distance, if it is near enough to be a typo
/// (at most a third of its length, and at least one edit allowed).
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min()
        .map(|(_, c)| c)
}

/// Levenshtein distance over characters, a transposition of two neighbours counting once.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Byte offset of a 1-based line and column (in characters).
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let rest = &text[start..];
    let end = rest.find('\n').unwrap_or(rest.len());
    rest[..end]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(start + end, |(i, _)| start + i)
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for DataError {}

impl Diagnostic for DataError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(if self.config {
            "uplint::config"
        } else {
            "uplint::data"
        }))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        if self.src.inner().is_empty() {
            None
        } else {
            Some(&*self.src)
        }
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.src.inner().is_empty() {
            return None;
        }
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(self.label.clone()),
            self.span,
        ))))
    }
}

/// A version on the command line that is no service version; the message lists the versions
/// the data names.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "invalid value `{value}` for {flag}: expected a service version such as `17.0`\n  versions in the data: {}",
    known.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
)]
pub struct InvalidVersion {
    pub flag: String,
    pub value: String,
    pub known: Vec<crate::version::ServiceVersion>,
}

/// All the problems found while loading data; nothing was loaded.
#[derive(Debug, Clone)]
pub struct DataErrors(pub Vec<DataError>);

impl fmt::Display for DataErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DataErrors {}

/// Render diagnostics the way the CLI prints them (no colour), for tests and non-terminals.
pub fn render_plain(errors: &[DataError]) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(100);
    let mut out = String::new();
    for e in errors {
        // Writing into a String cannot fail.
        let _ = handler.render_report(&mut out, e);
    }
    out
}

/// A YAML or schema error from serde-saphyr, as a diagnostic.
pub fn yaml_error(name: &str, text: &Arc<str>, e: &serde_saphyr::Error) -> DataError {
    let inner = e.without_snippet();
    let message = UserMessageFormatter.format_message(inner).to_string();
    let (offset, len) = match e.location() {
        Some(loc) => {
            let o = loc
                .span()
                .byte_offset()
                .map(|o| o as usize)
                .unwrap_or_else(|| offset_of(text, loc.line() as usize, loc.column() as usize));
            let rest = &text[o.min(text.len())..];
            let len = rest
                .find(|c: char| c == ':' || c.is_whitespace())
                .unwrap_or(rest.len())
                .max(1);
            (o, len)
        }
        None => (0, 0),
    };
    let (offset, len) = if message.starts_with("missing field") {
        enclosing_item(text, offset).unwrap_or((offset, len))
    } else {
        (offset, len)
    };
    let help = if message.contains("unknown field") || message.contains("unknown variant") {
        Some("see data/README.md for the fields of an entry and of each pattern kind")
    } else if message.contains("missing field") {
        Some("add the missing field to this entry")
    } else {
        None
    };
    let label = message
        .split(", expected")
        .next()
        .unwrap_or(&message)
        .to_string();
    let mut err = DataError::at(name, text, offset, len, message.clone()).with_label(label);
    if let Some(h) = help {
        err = err.with_help(h);
    }
    err
}

/// The first key of the sequence item (`- key: ...`) that holds the mapping at `offset`: the
/// place a "missing field" error should point at, rather than where the parser noticed it.
fn enclosing_item(text: &str, offset: usize) -> Option<(usize, usize)> {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let column = offset - line_start;
    if column < 2 {
        return None;
    }
    let mut end = line_start;
    // Walk back line by line until the line whose `- ` opens this mapping.
    loop {
        let start = text[..end.saturating_sub(1)]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let line = &text[start..end.saturating_sub(1).max(start)];
        // Bytes, not a string slice: the column may fall inside a character of another line.
        if line.len() > column && line.as_bytes()[column - 2..column] == *b"- " {
            let key_len = line[column..]
                .find(':')
                .unwrap_or(line.len() - column)
                .max(1);
            return Some((start + column, key_len));
        }
        let indent = line.len() - line.trim_start().len();
        if !line.trim().is_empty() && indent < column.saturating_sub(2) || start == 0 {
            return None;
        }
        end = start;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_and_offset_round_trip() {
        let t = "ab\ncdé\nf";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 7), (2, 4));
        assert_eq!(offset_of(t, 2, 3), 5);
        assert_eq!(offset_of(t, 3, 1), 8);
        assert_eq!(offset_of(t, 9, 1), t.len());
    }
}

#[cfg(test)]
mod nearest_tests {
    use super::nearest;

    #[test]
    fn a_typo_finds_its_word_and_a_stranger_finds_none() {
        let settings = ["target", "current", "min-version", "fail-on"];
        assert_eq!(nearest("currnet", settings), Some("current"));
        assert_eq!(nearest("taget", settings), Some("target"));
        assert_eq!(nearest("failon", settings), Some("fail-on"));
        assert_eq!(nearest("colour", settings), None);
        assert_eq!(nearest("", settings), None);
    }
}
