//! Ignore files read confined to the scanned tree: `.ignore`, `.gitignore` and a repository's
//! `info/exclude` are read only when they are regular files (not links: git follows none in the
//! tree either; not FIFOs, sockets or devices) of at most [`MAX_IGNORE_FILE`] bytes, each opened
//! by its name in its directory's descriptor with `O_NOFOLLOW`. A `.git` that is a file (a
//! worktree's, a submodule's) names a repository elsewhere, whose `info/exclude` is not read:
//! only a `.git` directory's. One that is not read is told, and the scan goes on.
//!
//! The matchers of a directory, and the `ignore` crate's precedence over them
//! (`Ignore::matched` in its `dir.rs`), for both walks: uplint's own, and the crate's, which is
//! told to read no ignore file itself and asks [`Confined`] instead.

use std::collections::HashMap;
use std::ffi::{CStr, CString};
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::finding::FileError;

/// The largest ignore file read (git's own limit for `.gitignore` is 100 MiB; no real one comes
/// near a MiB).
pub(super) const MAX_IGNORE_FILE: u64 = 1024 * 1024;

/// Why an ignore file was not read.
#[derive(Debug, thiserror::Error)]
pub(super) enum NotRead {
    #[error("ignore file not read, as it is a symbolic link (git follows none in a tree either)")]
    Link,
    #[error("ignore file not read, as it is not a regular file (a FIFO, a socket or a device)")]
    NotRegular,
    #[error("ignore file not read, as it is larger than {} MiB", MAX_IGNORE_FILE >> 20)]
    TooLarge,
    #[error("ignore file not read ({0})")]
    Io(std::io::Error),
}

/// An ignore file that was not read: its path, and why.
pub(super) type Unread = (PathBuf, NotRead);

/// Open `name` in the directory `at` with `flags` and `O_NOFOLLOW`; `None`: it does not exist.
fn open_at(at: RawFd, name: &CStr, flags: i32) -> Result<Option<OwnedFd>, NotRead> {
    let flags = flags | libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK;
    // SAFETY: `at` is an open directory and `name` NUL-terminated.
    let fd = unsafe { libc::openat(at, name.as_ptr(), flags) };
    if fd < 0 {
        let err = std::io::Error::last_os_error();
        return match err.raw_os_error() {
            Some(libc::ENOENT) => Ok(None),
            Some(libc::ELOOP) => Err(NotRead::Link),
            Some(libc::ENXIO | libc::EWOULDBLOCK) => Err(NotRead::NotRegular),
            _ => Err(NotRead::Io(err)),
        };
    }
    // SAFETY: just opened, owned by nothing else.
    Ok(Some(unsafe { OwnedFd::from_raw_fd(fd) }))
}

/// The matcher of the ignore file `name` in the open directory `at`, for the directory `root`
/// (`path`: the file's path, for its rules' origin); `None`: there is none.
fn gitignore_at(
    at: RawFd,
    name: &CStr,
    root: &Path,
    path: &Path,
) -> Result<Option<Gitignore>, NotRead> {
    let Some(fd) = open_at(at, name, libc::O_RDONLY)? else {
        return Ok(None);
    };
    let file = std::fs::File::from(fd);
    let meta = file.metadata().map_err(NotRead::Io)?;
    if !meta.is_file() {
        return Err(NotRead::NotRegular);
    }
    if meta.len() > MAX_IGNORE_FILE {
        return Err(NotRead::TooLarge);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_IGNORE_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(NotRead::Io)?;
    if bytes.len() as u64 > MAX_IGNORE_FILE {
        return Err(NotRead::TooLarge);
    }
    // As `GitignoreBuilder::add` reads a file: line by line (a CR before the LF dropped), up to
    // the first line that is not UTF-8, a byte order mark at the start dropped.
    let mut builder = GitignoreBuilder::new(root);
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Ok(line) = std::str::from_utf8(line) else {
            break;
        };
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        let _ = builder.add_line(Some(path.to_path_buf()), line);
    }
    Ok(Some(builder.build().unwrap_or_else(|_| Gitignore::empty())))
}

/// The matchers of one directory's ignore files.
#[derive(Default)]
pub(super) struct Matchers {
    pub(super) ignore: Option<Gitignore>,
    pub(super) gitignore: Option<Gitignore>,
    pub(super) exclude: Option<Gitignore>,
}

impl Matchers {
    /// The matchers of the ignore files of the directory `dir`, open as `at` (`add_child_path`
    /// of the `ignore` crate): `.ignore`, `.gitignore`, and `info/exclude` if `dir` holds a
    /// `.git` directory. `has`: which of `.ignore`, `.gitignore` and `.git` the directory holds
    /// (none is looked for otherwise). The ignore files not read are added to `unread`.
    pub(super) fn of(dir: &Path, at: RawFd, has: [bool; 3], unread: &mut Vec<Unread>) -> Matchers {
        let [ignore, gitignore, git] = has;
        let mut m = Matchers::default();
        let mut read =
            |name: &CStr, at: RawFd, path: PathBuf| match gitignore_at(at, name, dir, &path) {
                Ok(g) => g,
                Err(why) => {
                    unread.push((path, why));
                    None
                }
            };
        if ignore {
            m.ignore = read(c".ignore", at, dir.join(".ignore"));
        }
        if gitignore {
            m.gitignore = read(c".gitignore", at, dir.join(".gitignore"));
        }
        // `.git` as a directory (a file or a link names a repository elsewhere: not read).
        if git
            && let Ok(Some(git_dir)) = open_at(at, c".git", libc::O_RDONLY | libc::O_DIRECTORY)
            && let Ok(Some(info)) = open_at(
                git_dir.as_raw_fd(),
                c"info",
                libc::O_RDONLY | libc::O_DIRECTORY,
            )
        {
            m.exclude = read(c"exclude", info.as_raw_fd(), dir.join(".git/info/exclude"));
        }
        m
    }

    /// [`Matchers::of`] for a directory opened by its path.
    pub(super) fn of_path(dir: &Path, has: [bool; 3], unread: &mut Vec<Unread>) -> Matchers {
        let Ok(c) = CString::new(dir.as_os_str().as_bytes()) else {
            return Matchers::default();
        };
        // SAFETY: `c` is NUL-terminated.
        let fd = unsafe {
            libc::open(
                c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return Matchers::default();
        }
        // SAFETY: just opened, owned by nothing else.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        Matchers::of(dir, fd.as_raw_fd(), has, unread)
    }

    pub(super) fn is_empty(&self) -> bool {
        [&self.ignore, &self.gitignore, &self.exclude]
            .iter()
            .all(|g| g.as_ref().is_none_or(|g| g.is_empty()))
    }
}

/// Which of `.ignore`, `.gitignore` and `.git` the directory `dir` holds (as links too).
pub(super) fn present(dir: &Path) -> [bool; 3] {
    [".ignore", ".gitignore", ".git"].map(|name| std::fs::symlink_metadata(dir.join(name)).is_ok())
}

/// The `ignore` crate's precedence: the first `.ignore` that matches from the entry's directory
/// up (`chain`, nearest first; then `above`, the directories above the root, with the path
/// made absolute, if given), else the first `.gitignore`, else the first `info/exclude`.
pub(super) fn first_match<'m, I>(
    chain: I,
    above: &[Matchers],
    path: &Path,
    absolute: Option<&Path>,
    is_dir: bool,
) -> Match<()>
where
    I: Iterator<Item = &'m Matchers> + Clone,
{
    let first = |matcher: fn(&Matchers) -> &Option<Gitignore>| -> Match<()> {
        let found = |g: &Option<Gitignore>, path: &Path| match g {
            Some(g) => match g.matched(path, is_dir) {
                Match::None => None,
                Match::Ignore(_) => Some(Match::Ignore(())),
                Match::Whitelist(_) => Some(Match::Whitelist(())),
            },
            None => None,
        };
        for m in chain.clone() {
            if let Some(m) = found(matcher(m), path) {
                return m;
            }
        }
        if let Some(absolute) = absolute {
            for m in above {
                if let Some(m) = found(matcher(m), absolute) {
                    return m;
                }
            }
        }
        Match::None
    };
    first(|m| &m.ignore)
        .or(first(|m| &m.gitignore))
        .or(first(|m| &m.exclude))
}

/// The ignore files for the `ignore` crate's walk (which reads none itself): each directory's
/// matchers read once, confined as above, those above the roots (`parents`), the global
/// excludes (the user's own: `core.excludesFile`), and the ignore files not read.
pub(super) struct Confined {
    dirs: Mutex<HashMap<PathBuf, Arc<Matchers>>>,
    /// Each root's absolute path and the matchers above it, nearest first.
    above: Vec<(PathBuf, PathBuf, Vec<Matchers>)>,
    global: Gitignore,
    unread: Mutex<Vec<Unread>>,
}

impl Confined {
    pub(super) fn new(roots: &[PathBuf], parents: bool) -> Confined {
        // (Those above a root are outside the tree: one not read there is not told.)
        let mut unread = Vec::new();
        let above = roots
            .iter()
            .filter(|_| parents)
            .filter_map(|r| {
                let absolute = r.canonicalize().ok()?;
                let above: Vec<Matchers> = absolute
                    .ancestors()
                    .skip(1)
                    .map(|d| Matchers::of_path(d, present(d), &mut unread))
                    .collect();
                Some((r.clone(), absolute, above))
            })
            .collect();
        let cwd = std::env::current_dir().unwrap_or_default();
        Confined {
            dirs: Mutex::default(),
            above,
            global: GitignoreBuilder::new(cwd).build_global().0,
            unread: Mutex::new(Vec::new()),
        }
    }

    /// The matchers of the directory `dir` (read the first time it is asked for).
    fn of(&self, dir: &Path) -> Arc<Matchers> {
        let lock = || self.dirs.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(m) = lock().get(dir) {
            return m.clone();
        }
        let mut unread = Vec::new();
        let m = Arc::new(Matchers::of_path(dir, present(dir), &mut unread));
        if !unread.is_empty() {
            let mut all = self.unread.lock().unwrap_or_else(|p| p.into_inner());
            all.extend(unread);
        }
        lock().entry(dir.to_path_buf()).or_insert(m).clone()
    }

    /// Is the entry `path` (a directory: `is_dir`), `depth` levels below its root, ignored?
    pub(super) fn ignored(&self, path: &Path, depth: usize, is_dir: bool) -> bool {
        if depth == 0 {
            return false;
        }
        let path = path.strip_prefix("./").unwrap_or(path);
        let dirs: Vec<Arc<Matchers>> = path
            .ancestors()
            .skip(1)
            .take(depth)
            .map(|d| {
                self.of(if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                })
            })
            .collect();
        // The root this entry is below, its absolute path and the matchers above it.
        let root = path.ancestors().nth(depth);
        let above = root.and_then(|root| {
            self.above.iter().find(|(r, _, _)| {
                r.strip_prefix("./").unwrap_or(r) == root
                    || (root.as_os_str().is_empty() && r == Path::new("."))
            })
        });
        let absolute = above
            .zip(root)
            .and_then(|((_, abs, _), root)| Some(abs.join(path.strip_prefix(root).ok()?)));
        let above = above.map_or(&[][..], |(_, _, m)| &m[..]);
        match first_match(
            dirs.iter().map(|m| &**m),
            above,
            path,
            absolute.as_deref(),
            is_dir,
        ) {
            Match::Ignore(()) => true,
            Match::Whitelist(()) => false,
            Match::None => self.global.matched(path, is_dir).is_ignore(),
        }
    }

    /// The ignore files not read, as the report's errors (`shown`: a path as shown).
    pub(super) fn errors(&self, shown: impl Fn(&Path) -> String) -> Vec<FileError> {
        let unread = self.unread.lock().unwrap_or_else(|p| p.into_inner());
        unread
            .iter()
            .map(|(path, why)| FileError {
                path: shown(path),
                message: why.to_string(),
            })
            .collect()
    }
}
