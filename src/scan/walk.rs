//! Walking: a parallel walk over all cores that respects `.gitignore`/`.ignore`, includes
//! hidden files (`.gitlab-ci.yml`) but never `.git/`, reads each file once, skips binary files,
//! and lists every file it could not read. The walk is the `ignore` crate's, or on Linux, where
//! it gives the same answers, uplint's own ([`super::directory_walk`]: 5 % less CPU on the
//! benchmark corpus).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::{ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};

use super::finding::FileError;
use super::includes::{CiProject, ci_project};
use super::{FileInput, FileResult, Report, Scanner, Scratch};
use crate::syntax::FileKind;

/// Up to this many files named on the command line are read in the calling thread: starting
/// the walker's threads costs about 2 ms, which a few files do not pay back (measured: 16 files
/// 4.1 ms in one thread, 5.5 ms in two; 64 files break even; 256 files 19.6 ms against 14.3 ms).
const FILES_READ_IN_ONE_THREAD: usize = 48;

/// How many bytes at the start of a file are checked for a NUL (binary files are skipped).
const BINARY_PROBE: usize = 8 * 1024;

/// The text of a file: UTF-8 (a BOM removed; borrowed, not copied), UTF-16 with a BOM
/// decoded, invalid UTF-8 with its bad bytes replaced (and a note). `None`: binary.
pub fn decode(bytes: &[u8]) -> Option<(Cow<'_, str>, Option<String>)> {
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return decode(rest);
    }
    let utf16 = match bytes.get(..2) {
        Some([0xFF, 0xFE]) => Some(true),
        Some([0xFE, 0xFF]) => Some(false),
        _ => None,
    };
    if let Some(le) = utf16 {
        let units = bytes[2..].chunks_exact(2).map(|c| {
            if le {
                u16::from_le_bytes([c[0], c[1]])
            } else {
                u16::from_be_bytes([c[0], c[1]])
            }
        });
        let text: String = char::decode_utf16(units)
            .map(|r| r.unwrap_or('\u{FFFD}'))
            .collect();
        return Some((Cow::Owned(text), None));
    }
    if memchr::memchr(0, &bytes[..bytes.len().min(BINARY_PROBE)]).is_some() {
        return None;
    }
    // A file is valid UTF-8 or not, whichever check says so; the vector one reads plain ASCII
    // (most files) 32 bytes at a time, where the standard library's reads a word.
    match simdutf8::basic::from_utf8(bytes) {
        Ok(s) => Some((Cow::Borrowed(s), None)),
        Err(_) => Some((
            String::from_utf8_lossy(bytes),
            Some("not valid UTF-8: scanned with the invalid bytes replaced".to_string()),
        )),
    }
}

/// `a/b/c`, relative to `root` when below it. A name keeps its bytes (a backslash is a byte of
/// the name, not a separator); bytes that are not UTF-8 are shown escaped (`\xFF`, see
/// [`shown_bytes`]). The shown path is for people and reports: a file is never opened by it.
pub fn display_path<'p>(path: &'p Path, root: &Path) -> std::borrow::Cow<'p, str> {
    // What the walker gives, `root` joined with a plain relative path, is cut as bytes
    // (comparing components took about 2 % of a scan's user time on the benchmark corpus), and
    // borrowed.
    #[cfg(unix)]
    if let Some(rel) = plainly_below(path, root) {
        return std::borrow::Cow::Borrowed(rel);
    }
    std::borrow::Cow::Owned(by_components(path, root))
}

/// The bytes of a name as shown: UTF-8 as it is, each byte that is not part of valid UTF-8 as
/// `\xNN` (upper-case hex). Borrowed when all of it is UTF-8.
pub fn shown_bytes(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            use std::fmt::Write;
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The bytes of a path (the lossy UTF-8 of its name elsewhere than on Unix).
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    match path.to_string_lossy() {
        std::borrow::Cow::Borrowed(s) => std::borrow::Cow::Borrowed(s.as_bytes()),
        std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s.into_bytes()),
    }
}

/// [`display_path`] by comparing the components of `path` and `root`.
fn by_components(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let rel = rel.strip_prefix(".").unwrap_or(rel);
    let s = shown_bytes(&path_bytes(rel)).into_owned();
    if s.is_empty() {
        path.file_name()
            .map(|n| shown_bytes(&path_bytes(Path::new(n))).into_owned())
            .unwrap_or_default()
    } else {
        s
    }
}

/// The part of `path` after `root/`, where cutting its bytes gives what [`display_path`]'s
/// comparison of components would: the rest is UTF-8 and does not start or end with a
/// separator or a `.` component (inside, `Path::strip_prefix` keeps its bytes too). `None`: ask
/// the components.
#[cfg(unix)]
fn plainly_below<'p>(path: &'p Path, root: &Path) -> Option<&'p str> {
    use std::os::unix::ffi::OsStrExt;
    let rest = path
        .as_os_str()
        .as_bytes()
        .strip_prefix(root.as_os_str().as_bytes())?
        .strip_prefix(b"/")?;
    let plain = !rest.is_empty()
        && rest[0] != b'/'
        && rest != b"."
        && !rest.starts_with(b"./")
        && !rest.ends_with(b"/")
        && !rest.ends_with(b"/.");
    plain.then(|| std::str::from_utf8(rest).ok()).flatten()
}

/// Builds one worker per walking thread.
#[derive(Clone, Copy)]
struct Workers<'s> {
    scanner: &'s Scanner,
    root: &'s Path,
    ci: &'s CiProjects,
    acc: &'s Mutex<Report>,
}

/// The CI configurations of the scanned directories: which files they are (an included file is
/// CI configuration whatever its name) and their jobs, by canonical path.
#[derive(Default)]
struct CiProjects {
    projects: Vec<CiProject>,
    /// Canonical path of each file of a project → the project's index, and whether the file is
    /// included (rather than the project's own `.gitlab-ci.yml`).
    files: BTreeMap<PathBuf, (usize, bool)>,
    /// The file names of those canonical paths: a file reached under another name (through a
    /// symbolic link) is canonicalized; any other file only when its name is one of these.
    names: std::collections::BTreeSet<std::ffi::OsString>,
}

impl CiProjects {
    fn read(dirs: impl Iterator<Item = PathBuf>) -> CiProjects {
        let mut all = CiProjects::default();
        for dir in dirs {
            let project = ci_project(&dir);
            let root_file = dir.join(".gitlab-ci.yml");
            let index = all.projects.len();
            let included = project.files.iter().map(|f| (f, true));
            for (f, is_included) in included.chain(std::iter::once((&root_file, false))) {
                if let Ok(c) = f.canonicalize() {
                    all.names.extend(c.file_name().map(|n| n.to_os_string()));
                    all.files.entry(c).or_insert((index, is_included));
                }
            }
            all.projects.push(project);
        }
        all
    }

    /// The project a file belongs to, and whether it is included (not the root file).
    fn of(&self, path: &Path, is_link: bool) -> Option<(&CiProject, bool)> {
        if self.files.is_empty() {
            return None;
        }
        // Canonicalizing costs a system call per path component: only for a possible match.
        if !is_link && !path.file_name().is_some_and(|n| self.names.contains(n)) {
            return None;
        }
        let (index, included) = *self.files.get(&path.canonicalize().ok()?)?;
        Some((&self.projects[index], included))
    }
}

/// One walking thread: its scratch space and its partial report, merged into the whole when
/// the thread is done (one lock per thread, none per file).
struct Worker<'s> {
    shared: Workers<'s>,
    scratch: Scratch,
    /// The bytes of the file being read (reused from file to file).
    buffer: Vec<u8>,
    /// The directory of the last file read, held open for the next file of the same directory.
    dir: Directory,
    /// The findings and per-file counts of every file this worker scanned.
    files: FileResult,
    report: Report,
}

impl<'s> Workers<'s> {
    fn worker(&self) -> Worker<'s> {
        Worker {
            shared: *self,
            scratch: Scratch::default(),
            buffer: Vec::new(),
            dir: Directory::default(),
            files: FileResult::default(),
            report: Report::default(),
        }
    }
}

impl<'s> ParallelVisitorBuilder<'s> for Workers<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(self.worker())
    }
}

#[cfg(target_os = "linux")]
impl super::directory_walk::Visit for Worker<'_> {
    fn file(&mut self, path: &Path, dir: &std::sync::Arc<std::os::fd::OwnedFd>) {
        if let Some(parent) = path.parent() {
            self.dir.hold(parent, dir);
        }
        self.scan_file(path, false);
    }

    fn special(&mut self, path: &Path) {
        self.report.errors.push(FileError {
            path: display_path(path, self.shared.root).into_owned(),
            message: NOT_REGULAR.into(),
        });
    }

    fn error(&mut self, err: ignore::Error) {
        self.report.errors.push(walk_error(&err, self.shared.root));
    }
}

/// Why a FIFO, a socket or a device is not read.
const NOT_REGULAR: &str = "not a regular file (FIFO, socket or device): not read";

impl ParallelVisitor for Worker<'_> {
    fn visit(&mut self, entry: Result<ignore::DirEntry, ignore::Error>) -> WalkState {
        let root = self.shared.root;
        let entry = match entry {
            Err(err) => {
                self.report.errors.push(walk_error(&err, root));
                return WalkState::Continue;
            }
            Ok(entry) => entry,
        };
        let path = entry.path();
        match entry.file_type() {
            // A symlink found in a directory: not followed. One named on the command line is
            // read through (the sequential walk gives it as a link).
            Some(t) if t.is_dir() || t.is_symlink() && entry.depth() > 0 => {}
            Some(t) if !t.is_file() => self.report.errors.push(FileError {
                path: display_path(path, root).into_owned(),
                message: NOT_REGULAR.into(),
            }),
            _ => self.scan_file(path, entry.path_is_symlink()),
        }
        WalkState::Continue
    }
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        let mut report = std::mem::take(&mut self.report);
        let files = std::mem::take(&mut self.files);
        report.findings.extend(files.findings);
        report.errors.extend(files.errors);
        report.summary.suppressed += files.suppressed;
        report.summary.before_current += files.before_current;
        let mut acc = self.shared.acc.lock().unwrap_or_else(|p| p.into_inner());
        acc.absorb(report);
    }
}

/// Open a file for reading. On Unix with `O_NONBLOCK`, so that a FIFO put where a file was
/// does not block the scan (its type is then refused from the open handle), and with `flags`
/// (`O_NOFOLLOW` or none).
fn open_without_blocking(path: &Path, flags: i32) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK | flags);
    #[cfg(not(unix))]
    let _ = flags;
    options.open(path)
}

/// `O_NOFOLLOW`: a file the walk found as a file is not opened through a link put in its
/// place.
#[cfg(unix)]
const NOFOLLOW: i32 = libc::O_NOFOLLOW;
#[cfg(not(unix))]
const NOFOLLOW: i32 = 0;

/// Was an open refused because the name is a symbolic link (`O_NOFOLLOW`)?
fn is_link_refused(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    return e.raw_os_error() == Some(libc::ELOOP);
    #[cfg(not(unix))]
    return false;
}

/// A walking thread's last directory, held open (`O_PATH`), so that the next file of the same
/// directory is opened by its name alone: the walker hands a directory's files to one thread
/// one after another, and the kernel then looks up one name instead of every component of the
/// path (measured on the benchmark corpus, whose files are eight components deep: 1–2 % of a
/// scan's wall time, system time 0.5–10 % less in four runs of A/B alternation). Files are
/// opened with `O_NOATIME` too, which spares the kernel the access-time check of each read,
/// unless the kernel refuses it (a file the user does not own): then, for the rest of the walk,
/// without. Elsewhere than on Linux, files are opened by their
/// paths.
#[derive(Default)]
struct Directory {
    #[cfg(target_os = "linux")]
    open: Option<(PathBuf, std::sync::Arc<std::os::fd::OwnedFd>)>,
    /// The file's name, NUL-terminated (reused from file to file).
    #[cfg(target_os = "linux")]
    name: Vec<u8>,
    /// `O_NOATIME` was refused once.
    #[cfg(target_os = "linux")]
    atime: bool,
}

impl Directory {
    /// Open `path` as [`open_without_blocking`] does, by its name in its directory where the
    /// directory can be opened.
    fn open(&mut self, path: &Path, follow: bool) -> std::io::Result<std::fs::File> {
        let nofollow = if follow { 0 } else { NOFOLLOW };
        #[cfg(target_os = "linux")]
        if let (Some(parent), Some(name)) = (path.parent(), path.file_name())
            && !parent.as_os_str().is_empty()
            && let Some(dir) = self.of(parent)
        {
            use std::os::fd::FromRawFd;
            use std::os::unix::ffi::OsStrExt;
            self.name.clear();
            self.name.extend_from_slice(name.as_bytes());
            self.name.push(0);
            let name = std::ffi::CStr::from_bytes_with_nul(&self.name)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
            let flags = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC | nofollow;
            let mut fd = -1;
            if !self.atime {
                // SAFETY: `dir` is an open descriptor and `name` a NUL-terminated string.
                fd = unsafe { libc::openat(dir, name.as_ptr(), flags | libc::O_NOATIME) };
                if fd < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM) {
                    self.atime = true;
                }
            }
            if fd < 0 && self.atime {
                // SAFETY: as above.
                fd = unsafe { libc::openat(dir, name.as_ptr(), flags) };
            }
            if fd < 0 {
                return Err(std::io::Error::last_os_error());
            }
            // SAFETY: `fd` was just opened, and nothing else owns it.
            return Ok(unsafe { std::fs::File::from_raw_fd(fd) });
        }
        open_without_blocking(path, nofollow)
    }

    /// Hold `fd`, the open directory `dir` (the walker's own), unless it is held already.
    #[cfg(target_os = "linux")]
    fn hold(&mut self, dir: &Path, fd: &std::sync::Arc<std::os::fd::OwnedFd>) {
        if !matches!(&self.open, Some((_, held)) if std::sync::Arc::ptr_eq(held, fd)) {
            self.open = Some((dir.to_path_buf(), fd.clone()));
        }
    }

    /// The descriptor of the directory `dir`: the one held if it is `dir`, else `dir` opened
    /// (`None` if it cannot be: the file is then opened by its path, and fails there if it
    /// must).
    #[cfg(target_os = "linux")]
    fn of(&mut self, dir: &Path) -> Option<std::os::fd::RawFd> {
        use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
        use std::os::unix::ffi::OsStrExt;
        if let Some((held, fd)) = &self.open
            && held == dir
        {
            return Some(fd.as_raw_fd());
        }
        self.open = None;
        let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
        // SAFETY: `c` is a NUL-terminated path.
        let fd = unsafe {
            libc::open(
                c.as_ptr(),
                libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return None;
        }
        // SAFETY: `fd` was just opened, and nothing else owns it.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let raw = fd.as_raw_fd();
        self.open = Some((dir.to_path_buf(), std::sync::Arc::new(fd)));
        Some(raw)
    }
}

/// How much of a file is read before its size is asked for: most files are smaller, and are
/// read without the `fstat` (about a microsecond of system time per file).
const READ_BEFORE_STAT: u64 = 1024 * 1024;

/// Read a regular file of at most `max` bytes into `buffer`: one open and, for a file under
/// [`READ_BEFORE_STAT`] bytes, one read ([`read_up_to`]). A file
/// that holds more than [`READ_BEFORE_STAT`] bytes is then checked (`fstat`) for its type and
/// size before the rest is read, so a huge file is refused after its first MiB, not read. (The
/// walker refused what is not a regular file from its directory entry. Should a FIFO have taken
/// the file's place since, the open does not block, and neither does the read: it gives what
/// the FIFO holds, if anything, or is refused.) `Ok`: where in `buffer` the file's bytes start
/// ([`ALIGNED_READ`]); `Err`: why it was not read.
fn read_file(
    path: &Path,
    max: u64,
    buffer: &mut Vec<u8>,
    dir: &mut Directory,
    follow: bool,
) -> Result<usize, String> {
    let not_regular = || "not a regular file (FIFO, socket or device): not read".to_string();
    let failed = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::WouldBlock {
            not_regular()
        } else if !follow && is_link_refused(&e) {
            "a symbolic link where a file was found: not read".to_string()
        } else {
            format!("cannot read: {e}")
        }
    };
    let file = dir.open(path, follow).map_err(failed)?;
    buffer.clear();
    let first = READ_BEFORE_STAT.min(max + 1);
    // The file's bytes start on a cache line of the buffer: zeros before them.
    buffer.reserve(first as usize + ALIGNED_READ);
    let start = buffer.as_ptr().align_offset(ALIGNED_READ).min(ALIGNED_READ);
    buffer.resize(start, 0);
    let read = |buffer: &Vec<u8>| (buffer.len() - start) as u64;
    read_up_to(&file, buffer, first as usize).map_err(failed)?;
    if read(buffer) < first {
        return Ok(start);
    }
    let m = file.metadata().map_err(failed)?;
    if !m.is_file() {
        return Err(not_regular());
    }
    let too_big = |len: u64| {
        format!(
            "file is {} MiB, over the {} MiB limit: not read",
            len / (1024 * 1024),
            max / (1024 * 1024)
        )
    };
    if m.len() > max {
        return Err(too_big(m.len()));
    }
    // The length is a hint: a file that grows is read to its end, within the limit. (Should
    // the buffer move as it grows, the bytes still start at `start`, if off a cache line.)
    buffer.reserve(
        usize::try_from(m.len())
            .unwrap_or(0)
            .saturating_sub(read(buffer) as usize),
    );
    file.take(max + 1 - read(buffer))
        .read_to_end(buffer)
        .map_err(failed)?;
    match read(buffer) {
        len if len > max => Err(too_big(len)),
        _ => Ok(start),
    }
}

/// The alignment of a file's bytes in the read buffer. The kernel copies a file's pages into
/// the buffer (`rep movsb`), which on the AMD machines measured runs at about half speed when
/// the destination is not on a cache line as the page is. With the buffers glibc gave the two
/// walking threads of a dynamically linked build (16 bytes past a page, 48 past a cache line),
/// that copy took 10.7 % of a scan's samples (`perf`), and 4.7 % with the bytes on a cache
/// line: system time 271 -> 220 ms (medians of 21 alternated scans of the benchmark corpus).
const ALIGNED_READ: usize = 64;

/// Read up to `want` bytes of `file` onto the end of `buffer`: what it holds if that is less.
///
/// On Unix, one `read` of the whole `want`: a regular file's `read` returns fewer bytes than
/// asked for only at the file's end, so a short read ends the file without the read that would
/// return nothing (17,000 of the 34,000 reads a scan of the benchmark corpus made). Elsewhere,
/// the standard library's reads to the end.
fn read_up_to(file: &std::fs::File, buffer: &mut Vec<u8>, want: usize) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        buffer.reserve(want);
        loop {
            let spare = &mut buffer.spare_capacity_mut()[..want];
            // SAFETY: `spare` is `want` writable bytes of the buffer's capacity; the kernel
            // writes at most that many, and says how many it wrote.
            let n = unsafe { libc::read(file.as_raw_fd(), spare.as_mut_ptr().cast(), want) };
            let Ok(n) = usize::try_from(n) else {
                let e = std::io::Error::last_os_error();
                if e.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(e);
            };
            // SAFETY: the first `n` bytes of the spare capacity were just written.
            unsafe { buffer.set_len(buffer.len() + n.min(want)) };
            return Ok(());
        }
    }
    #[cfg(not(unix))]
    {
        file.take(want as u64).read_to_end(buffer).map(|_| ())
    }
}

pub fn scan(scanner: &Scanner, paths: &[PathBuf], root: &Path) -> Report {
    let acc = Mutex::new(Report::default());
    // Files a CI configuration includes are CI configuration, whatever their name.
    let mut dirs: Vec<PathBuf> = paths
        .iter()
        .chain(std::iter::once(&root.to_path_buf()))
        .filter(|p| p.is_dir())
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    dirs.sort();
    dirs.dedup();
    let ci = CiProjects::read(dirs.into_iter());
    let mut workers = Workers {
        scanner,
        root,
        ci: &ci,
        acc: &acc,
    };
    let only_files = paths.iter().all(|p| !p.is_dir());
    if only_files && paths.len() <= FILES_READ_IN_ONE_THREAD {
        // A few files named one by one (a pre-commit hook's): read in this thread, without the
        // cost of starting others, and without building the `ignore` crate's walker, which
        // would give them as they are (no ignore file and no `--exclude` applies to a file
        // named on the command line) but first builds its empty glob sets, whose regex pool
        // reads the process's cgroup files (21 system calls).
        let mut worker = workers.worker();
        for path in paths {
            worker.named_file(path);
        }
    } else {
        walk(&mut workers, paths, root, only_files);
    }
    let mut report = acc.into_inner().unwrap_or_else(|p| p.into_inner());
    report.finish();
    report
}

/// Walk `paths` with a walking thread each (`workers`): uplint's own walk of directories, else
/// the `ignore` crate's.
fn walk(workers: &mut Workers, paths: &[PathBuf], root: &Path, only_files: bool) {
    let opts = workers.scanner.options();
    let (mut builder, overrides, repository_roots) =
        walk_builder(paths, root, &opts.exclude, opts.follow_links, opts.threads);
    if only_files {
        // Files named one by one (a pre-commit hook's): no ignore file applies to a file given
        // by name, so none is read.
        builder.standard_filters(false);
    }
    // Directories only: uplint's own walk, unless only the `ignore` crate can give the answers.
    #[cfg(target_os = "linux")]
    let own = (!only_files)
        .then(|| {
            super::directory_walk::Plan::new(
                paths,
                overrides,
                opts.threads,
                opts.follow_links,
                !repository_roots,
            )
        })
        .flatten();
    #[cfg(not(target_os = "linux"))]
    let own: Option<std::convert::Infallible> = None;
    if let Some(plan) = own {
        #[cfg(target_os = "linux")]
        plan.walk(|| workers.worker());
        return;
    }
    #[cfg(unix)]
    let confined = (!only_files).then(|| confine(&mut builder, paths, repository_roots));
    builder.build_parallel().visit(workers);
    #[cfg(unix)]
    if let Some(confined) = confined {
        let errors = confined.errors(|p| display_path(p, root).into_owned());
        let mut acc = workers.acc.lock().unwrap_or_else(|p| p.into_inner());
        acc.errors.extend(errors);
    }
}

/// The crate reads no ignore file itself: they are read confined to the tree, as uplint's own
/// walk reads them ([`super::ignore_files`]), and the crate asks which entries they ignore.
#[cfg(unix)]
fn confine(
    builder: &mut WalkBuilder,
    paths: &[PathBuf],
    repository_roots: bool,
) -> std::sync::Arc<super::ignore_files::Confined> {
    let confined =
        std::sync::Arc::new(super::ignore_files::Confined::new(paths, !repository_roots));
    let asked = confined.clone();
    builder
        .ignore(false)
        .git_ignore(false)
        .git_exclude(false)
        .git_global(false)
        .parents(false)
        .filter_entry(move |e| {
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            e.file_name() != ".git" && !asked.ignored(e.path(), e.depth(), is_dir)
        });
    confined
}

/// The `ignore` crate's walk of `paths` as uplint asks for it: hidden files, never `.git`, the
/// ignore files (`.gitignore` whether or not in a repository, `.ignore`, `info/exclude`, the
/// global excludes, and those above a root unless every root is a repository's), `--exclude`
/// as overrides. Also the overrides, and whether every root is a repository's.
fn walk_builder(
    paths: &[PathBuf],
    root: &Path,
    exclude: &[String],
    follow_links: bool,
    threads: usize,
) -> (WalkBuilder, ignore::overrides::Override, bool) {
    let mut builder = WalkBuilder::new(&paths[0]);
    for p in &paths[1..] {
        builder.add(p);
    }
    // Ignore files above a repository's root are not the repository's (git reads none there):
    // a clone inside an ignored directory (a CI build directory) is scanned whole.
    let repository_roots = paths.iter().all(|p| p.join(".git").exists());
    builder
        .hidden(false)
        .parents(!repository_roots)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .require_git(false)
        .follow_links(follow_links)
        .threads(threads)
        .filter_entry(|e| e.file_name() != ".git");
    let mut overrides = ignore::overrides::OverrideBuilder::new(root);
    for g in exclude {
        // An override `!glob` excludes what matches.
        let _ = overrides.add(&format!("!{g}"));
    }
    let overrides = overrides
        .build()
        .unwrap_or_else(|_| ignore::overrides::Override::empty());
    builder.overrides(overrides.clone());
    (builder, overrides, repository_roots)
}

fn walk_error(err: &ignore::Error, root: &Path) -> FileError {
    fn path_of(err: &ignore::Error) -> Option<&Path> {
        match err {
            ignore::Error::WithPath { path, .. } => Some(path),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                path_of(err)
            }
            ignore::Error::Loop { child, .. } => Some(child),
            _ => None,
        }
    }
    fn innermost(err: &ignore::Error) -> &ignore::Error {
        match err {
            ignore::Error::WithPath { err, .. }
            | ignore::Error::WithDepth { err, .. }
            | ignore::Error::WithLineNumber { err, .. } => innermost(err),
            other => other,
        }
    }
    let message = match innermost(err) {
        ignore::Error::Loop { ancestor, .. } => {
            format!(
                "symbolic link loop back to {}: not followed",
                display_path(ancestor, root)
            )
        }
        other => {
            let m = other.to_string();
            // The walker prefixes the path; keep only the reason.
            m.rsplit_once(": ")
                .map_or(m.clone(), |(_, r)| r.to_string())
        }
    };
    FileError {
        path: path_of(err)
            .map(|p| display_path(p, root).into_owned())
            .unwrap_or_default(),
        message,
    }
}

impl Worker<'_> {
    /// A file named on the command line, as the `ignore` crate's walk gives it: a link is read
    /// through (and the path counts as a link), anything else that is not a regular file is
    /// refused, and an error reads as the walk's. (A directory put there since the caller
    /// looked is skipped.)
    fn named_file(&mut self, path: &Path) {
        match std::fs::metadata(path) {
            Err(err) => {
                let err = ignore::Error::WithPath {
                    path: path.to_path_buf(),
                    err: Box::new(ignore::Error::Io(err)),
                };
                self.report.errors.push(walk_error(&err, self.shared.root));
            }
            Ok(m) if m.is_dir() => {}
            Ok(m) if !m.is_file() => self.report.errors.push(FileError {
                path: display_path(path, self.shared.root).into_owned(),
                message: NOT_REGULAR.into(),
            }),
            Ok(_) => self.scan_file(path, true),
        }
    }

    fn scan_file(&mut self, path: &Path, is_link: bool) {
        let scanner = self.shared.scanner;
        // Only files uplint knows how to read; an included CI file is read as CI configuration.
        // (A backslash is a byte of a name, not a separator.)
        let class_path = path.to_string_lossy();
        let (project, included) = match self.shared.ci.of(path, is_link) {
            Some((p, included)) => (Some(p), included),
            None => (None, false),
        };
        let class = if included {
            super::classify::ci()
        } else {
            match super::classify::classify(&class_path) {
                Some(c) => c,
                None => return,
            }
        };
        let shown = &display_path(path, self.shared.root);
        if !super::shard::keeps(scanner.options().shard.as_ref(), shown) {
            return;
        }
        let out = &mut self.report;
        let max = scanner.options().max_file_size;
        // A link is opened through only where the walk went through it (a file named on the
        // command line, `--follow`); anything else found a link where the walk saw a file.
        let follow = is_link || scanner.options().follow_links;
        let start = match read_file(path, max, &mut self.buffer, &mut self.dir, follow) {
            Ok(start) => start,
            Err(message) => {
                out.errors.push(FileError {
                    path: shown.to_string(),
                    message,
                });
                return;
            }
        };
        let bytes = &self.buffer[start..];
        let Some((text, note)) = decode(bytes) else {
            {
                out.summary.files_skipped_binary += 1;
                return;
            }
        };
        if let Some(note) = note {
            out.errors.push(FileError {
                path: shown.to_string(),
                message: note,
            });
        }
        out.summary.files_scanned += 1;
        let file = FileInput {
            path: shown,
            class,
            text: &text,
            ci_project: project
                .filter(|_| class.kind == FileKind::Ci)
                .map(|p| crate::syntax::ci_jobs::ProjectJobs::Whole(&p.jobs)),
        };
        let before = self.files.findings.len();
        let scratch = &mut self.scratch;
        let scanned = super::file_guard::scan_guarded(&mut self.files, |files| {
            scanner.scan_into(scratch, &file, files);
        });
        if let Err(message) = scanned {
            self.scratch = Scratch::default();
            out.errors.push(FileError {
                path: shown.to_string(),
                message,
            });
            return;
        }
        // The file the findings are in is the one just read (one allocation per file with
        // findings), whatever its shown path.
        if self.files.findings.len() > before {
            let real: std::sync::Arc<Path> = std::sync::Arc::from(path);
            for f in &mut self.files.findings[before..] {
                f.file = Some(real.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path, max: u64) -> Result<Vec<u8>, String> {
        let mut buffer = b"what the last file held".to_vec();
        read_file(path, max, &mut buffer, &mut Directory::default(), false)
            .map(|start| buffer.split_off(start))
    }

    /// A file's bytes start on a cache line of the buffer, whatever the buffer held before.
    #[test]
    fn a_file_is_read_onto_a_cache_line() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small.sh");
        std::fs::write(&small, "echo $CI_JOB_JWT\n").unwrap();
        for held in [Vec::new(), b"x".to_vec(), vec![7u8; 3 << 20]] {
            let mut buffer = held;
            let start = read_file(
                &small,
                1 << 30,
                &mut buffer,
                &mut Directory::default(),
                false,
            )
            .expect("the file is read");
            assert!(start < ALIGNED_READ);
            assert_eq!(&buffer[start..], b"echo $CI_JOB_JWT\n");
            assert_eq!(buffer[start..].as_ptr() as usize % ALIGNED_READ, 0);
        }
    }

    #[test]
    fn files_are_read_whole_within_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small.sh");
        std::fs::write(&small, "echo $CI_JOB_JWT\n").unwrap();
        assert_eq!(read(&small, 1 << 20).unwrap(), b"echo $CI_JOB_JWT\n");
        // Larger than what is read before the size is asked for: read whole.
        let large = dir.path().join("large.py");
        let text: Vec<u8> = (0..READ_BEFORE_STAT as usize * 3 + 7)
            .map(|i| b'a' + (i % 26) as u8)
            .collect();
        std::fs::write(&large, &text).unwrap();
        assert_eq!(read(&large, 256 << 20).unwrap(), text);
        // Over the limit, whether the limit is under the first read or over it.
        assert_eq!(
            read(&small, 4).unwrap_err(),
            "file is 0 MiB, over the 0 MiB limit: not read"
        );
        assert_eq!(
            read(&large, READ_BEFORE_STAT + 5).unwrap_err(),
            "file is 3 MiB, over the 1 MiB limit: not read"
        );
        assert_eq!(read(&small, 17).unwrap().len(), 17);
        // Around the size of the first read, which ends a file when it returns less: an
        // empty file, and files one byte under, at and over it.
        for len in [
            0,
            READ_BEFORE_STAT as usize - 1,
            READ_BEFORE_STAT as usize,
            READ_BEFORE_STAT as usize + 1,
        ] {
            let path = dir.path().join(format!("edge-{len}.py"));
            std::fs::write(&path, &text[..len]).unwrap();
            assert_eq!(read(&path, 8 << 20).unwrap(), &text[..len], "{len} bytes");
        }
        let missing = dir.path().join("missing.sh");
        assert!(
            read(&missing, 1 << 20)
                .unwrap_err()
                .starts_with("cannot read: ")
        );
    }

    #[test]
    fn a_directory_s_files_are_read_one_after_another_by_name() {
        let tree = tempfile::tempdir().unwrap();
        let (a, b) = (tree.path().join("a"), tree.path().join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        for (dir, name, text) in [
            (&a, "one.sh", "gitlab-runner register\n"),
            (&a, "two.yml", "script: [echo $CI_JOB_JWT]\n"),
            (&b, "three.py", "print('three')\n"),
        ] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        // One held directory for every file, as a walking thread reads them: a file of another
        // directory, a missing one, and back, each gives what its path holds.
        let mut held = Directory::default();
        let mut read = |path: &Path| {
            let mut buffer = Vec::new();
            read_file(path, 1 << 20, &mut buffer, &mut held, false)
                .map(|start| buffer.split_off(start))
        };
        assert_eq!(
            read(&a.join("one.sh")).unwrap(),
            b"gitlab-runner register\n"
        );
        assert_eq!(
            read(&a.join("two.yml")).unwrap(),
            b"script: [echo $CI_JOB_JWT]\n"
        );
        assert_eq!(read(&b.join("three.py")).unwrap(), b"print('three')\n");
        let missing = read(&b.join("gone.py")).unwrap_err();
        assert!(
            missing.starts_with("cannot read: No such file"),
            "{missing}"
        );
        assert_eq!(
            read(&a.join("one.sh")).unwrap(),
            b"gitlab-runner register\n"
        );
        // A missing directory, and a path with no directory (the working directory's file).
        let missing = read(&tree.path().join("c/four.sh")).unwrap_err();
        assert!(
            missing.starts_with("cannot read: No such file"),
            "{missing}"
        );
        let manifest = read(Path::new("Cargo.toml")).unwrap();
        assert!(manifest.starts_with(b"[package]"));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_a_file_s_place_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.sh");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // No writer: nothing to read, at once.
        assert_eq!(read(&fifo, 1 << 20).unwrap(), b"");
    }

    /// Cutting the bytes gives what comparing the components gives, for the paths the walker
    /// makes and for those it does not.
    #[test]
    fn display_paths_as_by_components() {
        let roots = [".", "./", "repo", "repo/", "/abs/repo", "a/./b", "./repo"];
        let rests = [
            "x.yml",
            ".gitlab-ci.yml",
            "a/b/c.py",
            "a//b",
            "./a",
            "a/./b",
            "a/",
            "a/.",
            ".",
            "",
            "/a",
            "a\\b",
            "..",
            "../x",
            "a/../b",
            ".hidden/x",
        ];
        for root in roots {
            for rest in rests {
                for sep in ["/", "//", ""] {
                    let path = format!("{root}{sep}{rest}");
                    let (path, root) = (Path::new(&path), Path::new(root));
                    assert_eq!(
                        display_path(path, root),
                        by_components(path, root),
                        "{path:?} under {root:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn decoding() {
        assert_eq!(decode(b"\xEF\xBB\xBFa: 1").unwrap().0, "a: 1");
        assert_eq!(decode(&[0xFF, 0xFE, b'a', 0, b':', 0]).unwrap().0, "a:");
        assert!(decode(b"ab\0cd").is_none());
        let (t, note) = decode(b"a\xFFb").unwrap();
        assert_eq!(t, "a\u{FFFD}b");
        assert!(note.is_some());
    }

    /// The walker of uplint's own gives the `ignore` crate's walk: the same files, on
    /// generated trees with ignore files in any directory (and above the root), a repository's
    /// `info/exclude`, `--exclude` globs, a FIFO, and roots given absolute, relative or as
    /// `./…`.
    #[cfg(target_os = "linux")]
    mod own_walk {
        use super::super::super::directory_walk::{Plan, Visit};
        use super::*;
        use proptest::prelude::*;
        use std::sync::Arc;

        const DIRS: [&str; 6] = ["", "a", "b", "a/c", ".hidden", "a/c/d"];
        const FILES: [&str; 6] = [
            "x.py",
            "keep.py",
            "y.yml",
            ".gitlab-ci.yml",
            "z.sh",
            "n.txt",
        ];
        const LINES: [&str; 22] = [
            "*.py",
            "!keep.py",
            "a/",
            "/y.yml",
            "c",
            "**/z.sh",
            "*.yml",
            "!a/",
            "b/*.sh",
            ".hidden",
            "# comment",
            "x.py/",
            "[xy].py",
            "a/**/z.sh",
            "/a/c",
            "d/",
            "!*.yml",
            "*.txt",
            "tree/a",
            "/tree",
            "c/",
            "!c",
        ];
        /// Lines of an ignore file above the root: paths through the root's name.
        const ABOVE: [&str; 6] = [
            "tree/a",
            "/tree/b",
            "*.sh",
            "tree/a/c/",
            "!tree/a/c",
            "tree",
        ];
        const EXCLUDES: [&str; 3] = ["*.sh", "a/c/**", "b"];

        #[derive(Clone)]
        struct Record(Arc<Mutex<Vec<String>>>);

        impl Visit for Record {
            fn file(&mut self, path: &Path, _dir: &Arc<std::os::fd::OwnedFd>) {
                self.0.lock().unwrap().push(path.display().to_string());
            }
            fn special(&mut self, path: &Path) {
                self.0
                    .lock()
                    .unwrap()
                    .push(format!("special {}", path.display()));
            }
            fn error(&mut self, err: ignore::Error) {
                self.0.lock().unwrap().push(format!("error {err}"));
            }
        }

        fn lines(picks: &[usize]) -> String {
            picks
                .iter()
                .map(|&i| format!("{}\n", LINES[i % LINES.len()]))
                .collect()
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]
            #[test]
            fn gives_the_ignore_crate_s_walk(
                files in prop::collection::vec(any::<u8>(), DIRS.len()),
                gitignores in prop::collection::vec(prop::option::of(prop::collection::vec(0usize..100, 1..4)), DIRS.len()),
                ignores in prop::collection::vec(prop::option::of(prop::collection::vec(0usize..100, 1..3)), DIRS.len()),
                above in prop::option::of(prop::collection::vec(0usize..100, 1..4)),
                exclude_info in prop::option::of(prop::collection::vec(0usize..100, 1..3)),
                git in any::<bool>(),
                excludes in prop::collection::vec(any::<bool>(), EXCLUDES.len()),
                relative in 0u8..3,
                fifo in any::<bool>(),
                threads in 1usize..3,
            ) {
                // Absolute, relative, or relative with a leading `./`.
                let base = if relative > 0 {
                    std::fs::create_dir_all("target").unwrap();
                    tempfile::Builder::new().tempdir_in("target").unwrap()
                } else {
                    tempfile::tempdir().unwrap()
                };
                if let Some(picks) = &above {
                    let text: String = picks.iter().map(|&i| format!("{}\n", ABOVE[i % ABOVE.len()])).collect();
                    std::fs::write(base.path().join(".gitignore"), text).unwrap();
                }
                let tree = base.path().join("tree");
                for (i, dir) in DIRS.iter().enumerate() {
                    let d = tree.join(dir);
                    std::fs::create_dir_all(&d).unwrap();
                    for (k, f) in FILES.iter().enumerate() {
                        if files[i] & (1 << k) != 0 {
                            std::fs::write(d.join(f), "echo $CI_JOB_JWT\n").unwrap();
                        }
                    }
                    if let Some(picks) = &gitignores[i] {
                        std::fs::write(d.join(".gitignore"), lines(picks)).unwrap();
                    }
                    if let Some(picks) = &ignores[i] {
                        std::fs::write(d.join(".ignore"), lines(picks)).unwrap();
                    }
                }
                if fifo {
                    let c = std::ffi::CString::new(tree.join("b/pipe.sh").as_os_str().as_encoded_bytes()).unwrap();
                    // SAFETY: a NUL-terminated path.
                    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
                }
                if git {
                    std::fs::create_dir_all(tree.join(".git/info")).unwrap();
                    std::fs::write(tree.join(".git/config"), "").unwrap();
                    if let Some(picks) = &exclude_info {
                        std::fs::write(tree.join(".git/info/exclude"), lines(picks)).unwrap();
                    }
                }
                let exclude: Vec<String> = EXCLUDES
                    .iter()
                    .zip(&excludes)
                    .filter(|(_, on)| **on)
                    .map(|(g, _)| g.to_string())
                    .collect();
                // (`tempfile` makes its paths absolute.)
                let cwd = std::env::current_dir().unwrap();
                let tree = match relative {
                    0 => tree,
                    1 => tree.strip_prefix(&cwd).unwrap().to_path_buf(),
                    _ => Path::new("./").join(tree.strip_prefix(&cwd).unwrap()),
                };
                let paths = vec![tree.clone()];
                let (builder, overrides, repository_roots) =
                    walk_builder(&paths, &tree, &exclude, false, threads);
                let listed = |builder: WalkBuilder| -> Vec<String> {
                    let mut all: Vec<String> = builder.build().filter_map(|e| {
                        let e = e.ok()?;
                        let t = e.file_type()?;
                        if t.is_file() {
                            Some(e.path().display().to_string())
                        } else if t.is_dir() || t.is_symlink() {
                            None
                        } else {
                            Some(format!("special {}", e.path().display()))
                        }
                    })
                    .collect();
                    all.sort();
                    all
                };
                let crate_walk = listed(builder);
                // The crate's walk with the ignore files read confined: the same files.
                let (mut confined, _, _) = walk_builder(&paths, &tree, &exclude, false, threads);
                let _ignore_files = confine(&mut confined, &paths, repository_roots);
                prop_assert_eq!(&listed(confined), &crate_walk);
                let Some(plan) = Plan::new(&paths, overrides, threads, false, !repository_roots) else {
                    // A global excludes file on this machine: the crate walks.
                    return Ok(());
                };
                let record = Record(Arc::new(Mutex::new(Vec::new())));
                plan.walk(|| record.clone());
                let mut own = record.0.lock().unwrap().clone();
                own.sort();
                prop_assert_eq!(own, crate_walk);
            }
        }
    }
}
