//! Applying fixes: per file, in memory, round after round (each round re-scans the text and
//! takes the fixes whose edits do not overlap those taken before it), then one atomic write
//! per file that keeps what the file was (permissions, line endings, byte order mark, final
//! line break) and refuses a file that changed since it was read, cannot be written, is not a
//! regular file, or is a link or reached through one (see [`super::confined`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::os::unix::ffi::OsStrExt;

use super::confined::{Confinement, Unreachable};
use super::{Applicability, Edit, Fix, attach};
use crate::catalog::Catalog;
use crate::scan::{FileError, Finding, Report, Scanner, classify};
use crate::syntax::FileCtx;
use crate::syntax::classify::{Class, FileKind};
use crate::syntax::source::Source;
use crate::syntax::structure::{self, Lang, Structure};
use crate::version::ServiceVersion;

/// How many times a file is re-scanned and fixed at most.
pub const MAX_ROUNDS: usize = 10;

const BOM: &str = "\u{FEFF}";

/// Which fixes to apply, for which range.
#[derive(Clone, Copy, Debug, Default)]
pub struct FixSettings {
    /// Apply unsafe fixes too (`--unsafe-fixes`).
    pub unsafe_fixes: bool,
    /// The lower end of the supported range (`--min-version`, else `--current`).
    pub range_start: Option<ServiceVersion>,
}

impl FixSettings {
    pub fn allows(&self, fix: &Fix) -> bool {
        fix.applicability == Applicability::Safe || self.unsafe_fixes
    }
}

/// A file as read for fixing: its bytes, and its text with the byte order mark set apart.
pub struct FileText {
    /// Path shown in findings (relative to the scanned root).
    pub shown: String,
    /// Where the walk found it (see [`Finding::file`]).
    pub path: PathBuf,
    pub class: Class,
    pub bytes: Vec<u8>,
    pub bom: bool,
    pub text: String,
}

impl FileText {
    /// Read a file the scan reported, the one the walk found at `path` (shown as `shown`),
    /// within `reach` ([`Confinement::read`]). `None`: not a UTF-8 text file uplint
    /// classifies (such a file gets no fix), or not a regular file reached as the walk did.
    pub fn read(path: &Path, shown: &str, reach: &Confinement) -> Option<FileText> {
        let class = classify::classify(&path.to_string_lossy())?;
        let bytes = reach.read(path).ok()?;
        let (bom, body) = match bytes.strip_prefix(BOM.as_bytes()) {
            Some(rest) => (true, rest),
            None => (false, &bytes[..]),
        };
        let text = std::str::from_utf8(body).ok()?.to_string();
        Some(FileText {
            shown: shown.to_string(),
            path: path.to_path_buf(),
            class,
            bom,
            text,
            bytes,
        })
    }

    /// The bytes of the file with `text` as its text.
    pub fn bytes_of(&self, text: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() + 3);
        if self.bom {
            out.extend_from_slice(BOM.as_bytes());
        }
        out.extend_from_slice(text.as_bytes());
        out
    }
}

/// Does the data define a fix for any finding of this entry id?
fn fixable(cat: &Catalog, id: &str) -> bool {
    cat.get(id)
        .is_some_and(|e| !super::replacements(e).is_empty())
}

/// Give the findings of a report their fixes, reading each file that has a fixable finding
/// (the file the walk found, within `reach`).
pub fn attach_report(
    report: &mut Report,
    cat: &Catalog,
    reach: &Confinement,
    range_start: Option<ServiceVersion>,
) {
    let mut by_file: BTreeMap<&Path, Vec<usize>> = BTreeMap::new();
    for (i, f) in report.findings.iter().enumerate() {
        if let Some(file) = &f.file
            && fixable(cat, &f.id)
        {
            by_file.entry(file).or_default().push(i);
        }
    }
    let by_file: Vec<(PathBuf, Vec<usize>)> = by_file
        .into_iter()
        .map(|(p, i)| (p.to_path_buf(), i))
        .collect();
    for (path, idx) in by_file {
        let Some(file) = FileText::read(&path, &report.findings[idx[0]].path, reach) else {
            continue;
        };
        let src = Source::new(&file.shown, &file.text, file.class);
        let mut mine: Vec<Finding> = idx.iter().map(|&i| report.findings[i].clone()).collect();
        attach(cat, &src, &mut mine, range_start);
        for (i, f) in idx.into_iter().zip(mine) {
            report.findings[i] = f;
        }
    }
}

/// The result of fixing one file's text.
pub struct Fixed {
    pub text: String,
    /// How many fixes were applied.
    pub applied: usize,
    /// The fixes left out because the file would parse worse with them.
    pub dropped: Vec<Dropped>,
}

/// A fix left out because the file would parse worse with it: where, what, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    pub line: usize,
    pub column: usize,
    pub description: String,
    pub why: String,
}

impl Dropped {
    fn of(fix: &Fix, why: String) -> Dropped {
        let (line, column) = fix.edits.first().map_or((0, 0), |e| (e.line, e.column));
        Dropped {
            line,
            column,
            description: fix.description.clone(),
            why,
        }
    }

    fn is(&self, fix: &Fix) -> bool {
        let at = fix.edits.first().map(|e| (e.line, e.column));
        at == Some((self.line, self.column)) && fix.description == self.description
    }
}

/// Fix a file's text: re-scan, take the allowed fixes that do not overlap, apply them, until
/// no fix applies or [`MAX_ROUNDS`]. Each time the edited text is parsed again (its GraphQL
/// documents, its YAML, the structure of its code: see [`crate::syntax::structure`]); a batch
/// that parses worse than the text before it is retried one fix at a time, and a fix that makes
/// it worse is left out ([`Fixed::dropped`]).
pub fn fix_text(scanner: &Scanner, cat: &Catalog, file: &FileText, settings: FixSettings) -> Fixed {
    let mut text = file.text.clone();
    let mut applied = 0;
    let mut dropped: Vec<Dropped> = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let (mut fixes, before) = fixes_of(scanner, cat, file, &text, settings);
        fixes.retain(|f| !dropped.iter().any(|d| d.is(f)));
        if fixes.is_empty() {
            break;
        }
        let all = apply_edits(&text, fixes.iter().flat_map(|f| &f.edits));
        let (next, n) = if parse(file, &all).worse_than(&before, &all).is_none() {
            (all, fixes.len())
        } else {
            one_by_one(file, &text, &fixes, &mut dropped)
        };
        if n == 0 {
            break;
        }
        text = next;
        applied += n;
    }
    dropped.sort_by_key(|d| (d.line, d.column));
    Fixed {
        text,
        applied,
        dropped,
    }
}

/// The allowed fixes of a text that do not overlap (first come first), and how it parses.
fn fixes_of(
    scanner: &Scanner,
    cat: &Catalog,
    file: &FileText,
    text: &str,
    settings: FixSettings,
) -> (Vec<Fix>, Parse) {
    let mut result = scanner.scan_class(&file.shown, file.class, text);
    let src = Source::new(&file.shown, text, file.class);
    attach(cat, &src, &mut result.findings, settings.range_start);
    let mut taken: Vec<(usize, usize)> = Vec::new();
    let mut fixes = Vec::new();
    for fix in result.findings.into_iter().filter_map(|f| f.fix) {
        if !settings.allows(&fix) {
            continue;
        }
        let clear = fix
            .edits
            .iter()
            .all(|e| taken.iter().all(|&(s, t)| e.end < s || t < e.start));
        if clear {
            taken.extend(fix.edits.iter().map(|e| (e.start, e.end)));
            fixes.push(fix);
        }
    }
    (fixes, parse(file, text))
}

/// How a text parses: the errors of its GraphQL documents and, for YAML, of the YAML (parsed
/// whether or not the scan would have looked at it); for code, its structure.
struct Parse {
    errors: usize,
    code: Option<Structure>,
}

impl Parse {
    /// Why `self` (of `text`, edited) parses worse than `before`; `None` when it does not.
    fn worse_than(&self, before: &Parse, text: &str) -> Option<String> {
        if self.errors > before.errors {
            return Some("the file would no longer parse".to_string());
        }
        let (Some(after), Some(before)) = (&self.code, &before.code) else {
            return None;
        };
        after
            .worse_than(before, text)
            .map(|why| format!("the code would not hold together: {why}"))
    }
}

fn parse(file: &FileText, text: &str) -> Parse {
    let src = Source::new(&file.shown, text, file.class);
    let ctx = FileCtx::new(&src);
    let mut errors = ctx.all_graphql_errors().len();
    if ctx.is_yaml() {
        ctx.yaml();
        errors += usize::from(ctx.yaml_error().is_some());
    }
    let code = (file.class.kind == FileKind::Code)
        .then(|| Lang::of_path(&file.shown))
        .flatten()
        .map(|lang| structure::read(lang, text));
    Parse { errors, code }
}

/// Why the fix alone would make the file's text read worse (see [`fix_text`]); `None` when
/// it would not: the check of a fix offered on its own (the language server's quick fixes).
pub fn worsens(file: &FileText, fix: &Fix) -> Option<String> {
    let edited = apply_edits(&file.text, &fix.edits);
    parse(file, &edited).worse_than(&parse(file, &file.text), &edited)
}

/// Apply `fixes` to `text` one at a time, leaving out (into `dropped`) each that makes the text
/// parse worse than `text` did.
fn one_by_one(
    file: &FileText,
    text: &str,
    fixes: &[Fix],
    dropped: &mut Vec<Dropped>,
) -> (String, usize) {
    let before = parse(file, text);
    // Later fixes first, so that the offsets of the earlier ones stay valid.
    let mut out = text.to_string();
    let mut n = 0;
    for fix in fixes.iter().rev() {
        let next = apply_edits(&out, &fix.edits);
        match parse(file, &next).worse_than(&before, &next) {
            None => {
                out = next;
                n += 1;
            }
            Some(why) => dropped.push(Dropped::of(fix, why)),
        }
    }
    (out, n)
}

/// Apply edits that do not overlap.
pub fn apply_edits<'e>(text: &str, edits: impl IntoIterator<Item = &'e Edit>) -> String {
    let mut edits: Vec<&Edit> = edits.into_iter().collect();
    edits.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        out.push_str(&text[at..e.start]);
        out.push_str(&e.replacement);
        at = e.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Why a fixed file was not written.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    Changed,
    ReadOnly,
    /// The file is a symbolic link, or below one (below its scanned path).
    Link,
    Io(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Refusal::Changed => f.write_str("changed since it was scanned: not fixed"),
            Refusal::ReadOnly => f.write_str("is read-only: not fixed"),
            Refusal::Link => f.write_str(
                "is a symbolic link, or in a directory reached through one: not fixed (--fix writes through no link, whether it points inside or outside the scanned paths)",
            ),
            Refusal::Io(e) => write!(f, "cannot be written: {e}: not fixed"),
        }
    }
}

impl From<Unreachable> for Refusal {
    fn from(e: Unreachable) -> Refusal {
        match e {
            Unreachable::Link => Refusal::Link,
            other => Refusal::Io(other.to_string()),
        }
    }
}

/// Write `content` to the file the walk found at `path` in one atomic replacement keeping its
/// permissions, unless it no longer holds `expected` (what the fixes were computed from), is
/// read-only, is not a regular file, or is reached through a symbolic link below its scanned
/// path or is one itself (with or without `--follow`): the replacement is made in the
/// directory reached with no link on the way, never elsewhere.
pub fn write_fixed(
    path: &Path,
    expected: &[u8],
    content: &[u8],
    reach: &Confinement,
) -> Result<(), Refusal> {
    let place = reach.place(path)?;
    let mode = place.mode()?;
    match mode & libc::S_IFMT {
        libc::S_IFLNK => return Err(Refusal::Link),
        libc::S_IFREG => {}
        _ => return Err(Unreachable::NotRegular.into()),
    }
    if mode & 0o222 == 0 {
        return Err(Refusal::ReadOnly);
    }
    let now = super::confined::read_regular(place.open(true)?, u64::MAX)?;
    if now != expected {
        return Err(Refusal::Changed);
    }
    // The directory held open, by its name in /proc (Linux): the new file is renamed into that
    // directory, whatever has been put at its path since. Elsewhere, the path.
    let held = PathBuf::from(format!("/proc/self/fd/{}", place.dir()));
    let target = if held.is_dir() {
        held.join(std::ffi::OsStr::from_bytes(place.name.as_bytes()))
    } else {
        path.to_path_buf()
    };
    crate::output::replace_file(&target, |w| w.write_all(content)).map_err(|e| {
        // The error tells the file's own path, not the descriptor's.
        Refusal::Io(std::error::Error::source(&e).map_or_else(|| e.to_string(), |s| s.to_string()))
    })
}

/// A file error for a refused write.
pub fn refused(shown: &str, why: &Refusal) -> FileError {
    FileError {
        path: shown.to_string(),
        message: why.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(root: &Path, follow: bool) -> Confinement {
        Confinement::new(&[root.to_path_buf()], follow, 1 << 20)
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("q.graphql");
        std::fs::write(&p, "{ totalWeight }\n").unwrap();
        let read = std::fs::read(&p).unwrap();
        std::fs::write(&p, "{ totalWeight title }\n").unwrap();
        let r = write_fixed(
            &p,
            &read,
            b"{ totalIssueWeight }\n",
            &reach(dir.path(), false),
        );
        assert_eq!(r, Err(Refusal::Changed));
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "{ totalWeight title }\n"
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }

    /// A link is never written through, whether it points inside or outside the scanned path,
    /// with or without `--follow`, nor is a file in a directory reached through a link; a file
    /// reached without one is written in place.
    #[test]
    fn links_are_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (inside, outside) = (root.join("in"), root.join("out"));
        std::fs::create_dir_all(inside.join("sub")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("t.graphql"), "a\n").unwrap();
        std::fs::write(inside.join("t.graphql"), "a\n").unwrap();
        std::fs::write(inside.join("sub/t.graphql"), "a\n").unwrap();
        std::os::unix::fs::symlink(outside.join("t.graphql"), inside.join("out.graphql")).unwrap();
        std::os::unix::fs::symlink(inside.join("t.graphql"), inside.join("in.graphql")).unwrap();
        std::os::unix::fs::symlink(&outside, inside.join("linked")).unwrap();
        for follow in [false, true] {
            let reach = reach(&inside, follow);
            for link in ["out.graphql", "in.graphql", "linked/t.graphql"] {
                let r = write_fixed(&inside.join(link), b"a\n", b"b\n", &reach);
                assert_eq!(r, Err(Refusal::Link), "{link}");
            }
            assert_eq!(
                write_fixed(&inside.join("../out/t.graphql"), b"a\n", b"b\n", &reach),
                Err(Refusal::Io(Unreachable::NotBelow.to_string()))
            );
        }
        for t in [outside.join("t.graphql"), inside.join("t.graphql")] {
            assert_eq!(std::fs::read_to_string(t).unwrap(), "a\n");
        }
        let reach = reach(&inside, false);
        write_fixed(&inside.join("sub/t.graphql"), b"a\n", b"b\n", &reach).unwrap();
        assert_eq!(
            std::fs::read_to_string(inside.join("sub/t.graphql")).unwrap(),
            "b\n"
        );
        assert_eq!(std::fs::read_dir(inside.join("sub")).unwrap().count(), 1);
    }
}
