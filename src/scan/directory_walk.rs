//! A parallel walk of directories, each opened relative to its parent's descriptor, whose files
//! are opened by name in the same descriptor: the `ignore` crate's walk opens every directory
//! by its whole path and checks it with `fstat`, and a file could then only be opened through
//! its whole path or a second descriptor of the directory. Linux only.
//!
//! It gives the `ignore` crate's answers for the walk uplint asks of it (hidden files included,
//! `.git` never entered, ignore files read whether or not the tree is a repository, links not
//! followed): `.ignore` and `.gitignore` of each directory, `info/exclude` of each repository
//! (a `.git` directory: a `.git` file naming one elsewhere is not followed), each read confined
//! to the tree ([`super::ignore_files`]), `--exclude` overrides first, with the
//! crate's precedence (`Ignore::matched` in its `dir.rs`), and those of the directories above a
//! root that is not a repository's. Where there is a global excludes file, links to follow or a
//! root that is not a directory, [`Plan::new`] says no and the crate walks. A property test compares the two walks on
//! generated trees.

use std::ffi::{CStr, CString, OsStr};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};

use ignore::Match;
use ignore::gitignore::GitignoreBuilder;
use ignore::overrides::Override;

use super::ignore_files::{Matchers, first_match, present};

/// What a walking thread is told of.
pub(super) trait Visit {
    /// A regular file, not ignored; `dir` is its directory, open.
    fn file(&mut self, path: &Path, dir: &Arc<OwnedFd>);
    /// Something else than a file, a directory or a link (a FIFO, a socket, a device), not
    /// ignored.
    fn special(&mut self, path: &Path);
    /// A directory that cannot be read.
    fn error(&mut self, err: ignore::Error);
}

/// The walk of some directories, when this walker can give the `ignore` crate's answers.
pub(super) struct Plan {
    roots: Vec<Root>,
    overrides: Override,
    threads: usize,
}

/// A directory the walk starts at, and, where the ignore files above it count (`parents`),
/// its absolute path and the matchers of the directories above it, nearest first.
struct Root {
    path: PathBuf,
    absolute: PathBuf,
    above: Vec<Matchers>,
}

impl Plan {
    /// `None` when the `ignore` crate must walk: a root that is not a directory, links to
    /// follow, a global excludes file with rules. `parents`: the ignore files above a root
    /// count (it is not a repository's).
    pub(super) fn new(
        roots: &[PathBuf],
        overrides: Override,
        threads: usize,
        follow_links: bool,
        parents: bool,
    ) -> Option<Plan> {
        if follow_links || roots.is_empty() || !roots.iter().all(|r| r.is_dir()) {
            return None;
        }
        let cwd = std::env::current_dir().ok()?;
        let (global, _) = GitignoreBuilder::new(&cwd).build_global();
        if global.num_ignores() + global.num_whitelists() > 0 {
            return None;
        }
        let mut planned = Vec::new();
        for path in roots {
            let absolute = path.canonicalize().ok()?;
            let mut above = Vec::new();
            if parents {
                // (Outside the tree: an ignore file not read there is not told.)
                for dir in absolute.ancestors().skip(1) {
                    above.push(Matchers::of_path(dir, present(dir), &mut Vec::new()));
                }
                if above.iter().all(Matchers::is_empty) {
                    above.clear();
                }
            }
            planned.push(Root {
                path: path.clone(),
                absolute,
                above,
            });
        }
        let threads = match threads {
            0 => std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(12),
            n => n,
        };
        Some(Plan {
            roots: planned,
            overrides,
            threads,
        })
    }

    /// Walk, with one visitor per thread (`visitor` makes them; each is dropped when its
    /// thread is done).
    pub(super) fn walk<V: Visit>(&self, visitor: impl Fn() -> V + Sync) {
        let queue = Queue {
            state: Mutex::new(QueueState::default()),
            ready: Condvar::new(),
        };
        {
            let mut state = queue.lock();
            for (index, root) in self.roots.iter().enumerate().rev() {
                state.jobs.push(Job {
                    parent: None,
                    root: index,
                    name: CString::new(root.path.as_os_str().as_bytes()).ok(),
                    path: root.path.clone(),
                });
            }
        }
        std::thread::scope(|scope| {
            for _ in 0..self.threads {
                let (queue, visitor) = (&queue, &visitor);
                scope.spawn(move || {
                    let _abort = AbortOnPanic(queue);
                    let mut v = visitor();
                    let mut entries = Entries::default();
                    let mut paths = Paths::default();
                    while let Some(job) = queue.next() {
                        let children = self.read(job, &mut v, &mut entries, &mut paths);
                        queue.done(children);
                    }
                });
            }
        });
    }

    /// Read one directory: its files are visited at once, its directories returned as jobs.
    fn read<V: Visit>(
        &self,
        job: Job,
        v: &mut V,
        entries: &mut Entries,
        paths: &mut Paths,
    ) -> Vec<Job> {
        let at = job
            .parent
            .as_ref()
            .map_or(libc::AT_FDCWD, |p| p.fd.as_raw_fd());
        let Some(name) = &job.name else {
            return Vec::new();
        };
        // SAFETY: `at` is an open descriptor (or AT_FDCWD) and `name` NUL-terminated.
        let fd = unsafe {
            libc::openat(
                at,
                name.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            let err = std::io::Error::last_os_error();
            v.error(with_path(err, &job.path));
            return Vec::new();
        }
        // SAFETY: just opened, owned by nothing else.
        let fd = Arc::new(unsafe { OwnedFd::from_raw_fd(fd) });
        if let Err(err) = entries.read(fd.as_raw_fd()) {
            v.error(with_path(err, &job.path));
            return Vec::new();
        }
        let mut has = [false; 3];
        for (name, _) in entries.iter() {
            match name {
                b".ignore" => has[0] = true,
                b".gitignore" => has[1] = true,
                b".git" => has[2] = true,
                _ => {}
            }
        }
        // Errors in ignore files' lines are not told (the `ignore` crate attaches them to the
        // directory's entry, which uplint's visitor passes over); an ignore file not read is.
        let mut unread = Vec::new();
        let matchers = Matchers::of(&job.path, fd.as_raw_fd(), has, &mut unread);
        for (path, why) in unread {
            v.error(with_path(std::io::Error::other(why), &path));
        }
        let dir = Arc::new(Dir {
            matchers,
            path: job.path,
            fd,
            parent: job.parent,
        });
        let root = &self.roots[job.root];
        let mut children = Vec::new();
        for (name, kind) in entries.iter() {
            if name == b".git" {
                continue;
            }
            let kind = match kind {
                libc::DT_UNKNOWN => file_type_at(dir.fd.as_raw_fd(), name),
                k => k,
            };
            if kind == libc::DT_LNK {
                continue;
            }
            // `dir.path.join(name)`, built in a buffer of the thread's.
            let path = &mut paths.entry;
            path.as_mut_os_string().clear();
            path.push(&dir.path);
            path.push(OsStr::from_bytes(name));
            let is_dir = kind == libc::DT_DIR;
            if self.ignored(root, &dir, path, is_dir, &mut paths.absolute) {
                continue;
            }
            let path = &paths.entry;
            match kind {
                libc::DT_DIR => children.push(Job {
                    parent: Some(dir.clone()),
                    root: job.root,
                    name: CString::new(name).ok(),
                    path: path.clone(),
                }),
                libc::DT_REG => v.file(path, &dir.fd),
                _ => v.special(path),
            }
        }
        // Depth first: the first entries are taken first.
        children.reverse();
        children
    }

    /// `Ignore::matched` of the `ignore` crate, for the options uplint walks with: a leading
    /// `./` dropped; overrides first; then the first `.ignore` that matches from the entry's
    /// directory up (through the directories above the root, if they count, with the path
    /// made absolute, in `absolute`), else the first `.gitignore`, else the first
    /// `info/exclude`.
    fn ignored(
        &self,
        root: &Root,
        dir: &Dir,
        path: &Path,
        is_dir: bool,
        absolute: &mut PathBuf,
    ) -> bool {
        let path = strip_prefix(Path::new("./"), path).unwrap_or(path);
        if !self.overrides.is_empty() {
            match self.overrides.matched(path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        // As the crate joins it: the path below the root, on the root's absolute path.
        let absolute = (!root.above.is_empty()).then(|| {
            let below = if root.path == Path::new(".") {
                path
            } else {
                let base = strip_prefix(Path::new("./"), &root.path).unwrap_or(&root.path);
                let below = strip_prefix(base, path).unwrap_or(path);
                strip_prefix(Path::new("/"), below).unwrap_or(below)
            };
            // `root.absolute.join(below)`, in the thread's buffer.
            absolute.as_mut_os_string().clear();
            absolute.push(&root.absolute);
            absolute.push(below);
            &*absolute
        });
        let chain = std::iter::successors(Some(dir), |d| d.parent.as_deref()).map(|d| &d.matchers);
        first_match(chain, &root.above, path, absolute.map(|a| &**a), is_dir).is_ignore()
    }
}

/// `strip_prefix` of the `ignore` crate's `pathutil`: the rest of `path` after the bytes of
/// `prefix`, if it starts with them.
fn strip_prefix<'a>(prefix: &Path, path: &'a Path) -> Option<&'a Path> {
    path.as_os_str()
        .as_bytes()
        .strip_prefix(prefix.as_os_str().as_bytes())
        .map(|rest| Path::new(OsStr::from_bytes(rest)))
}

/// A directory being walked: its descriptor (while a file or a directory in it is still to be
/// opened), its ignore files, its parent.
struct Dir {
    path: PathBuf,
    fd: Arc<OwnedFd>,
    matchers: Matchers,
    parent: Option<Arc<Dir>>,
}

/// An error of reading the directory `path`, as the `ignore` crate tells it.
fn with_path(err: std::io::Error, path: &Path) -> ignore::Error {
    ignore::Error::WithPath {
        path: path.to_path_buf(),
        err: Box::new(ignore::Error::Io(err)),
    }
}

/// The type of the entry `name` of the directory `dir`, where the listing did not say
/// (`DT_UNKNOWN` on some file systems); `DT_UNKNOWN` if it cannot be read.
fn file_type_at(dir: RawFd, name: &[u8]) -> u8 {
    let Ok(name) = CString::new(name) else {
        return libc::DT_UNKNOWN;
    };
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: `dir` is open, `name` NUL-terminated, `st` large enough for a `stat`.
    let r = unsafe {
        libc::fstatat(
            dir,
            name.as_ptr(),
            st.as_mut_ptr(),
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if r != 0 {
        return libc::DT_UNKNOWN;
    }
    // SAFETY: `fstatat` succeeded and filled `st`.
    let mode = unsafe { st.assume_init() }.st_mode & libc::S_IFMT;
    match mode {
        libc::S_IFDIR => libc::DT_DIR,
        libc::S_IFREG => libc::DT_REG,
        libc::S_IFLNK => libc::DT_LNK,
        _ => libc::DT_FIFO,
    }
}

/// A directory to read: its name in its parent (or its path, for a root).
struct Job {
    parent: Option<Arc<Dir>>,
    /// Which of the plan's roots it is under.
    root: usize,
    name: Option<CString>,
    path: PathBuf,
}

/// The directories still to read, how many threads are reading one and how many wait for one
/// (the walk ends when none is left and none is being read).
struct Queue {
    state: Mutex<QueueState>,
    ready: Condvar,
}

#[derive(Default)]
struct QueueState {
    jobs: Vec<Job>,
    reading: usize,
    waiting: usize,
    /// A thread panicked: the directory it was reading will never be done, so the others stop
    /// instead of waiting for it (the scope then passes the panic on).
    aborted: bool,
}

/// Held by each walking thread: if the thread unwinds, the walk is aborted and every waiting
/// thread woken.
struct AbortOnPanic<'q>(&'q Queue);

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.lock().aborted = true;
            self.0.ready.notify_all();
        }
    }
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The next directory to read; `None` when the walk is done or was aborted.
    fn next(&self) -> Option<Job> {
        let mut state = self.lock();
        loop {
            if state.aborted {
                return None;
            }
            if let Some(job) = state.jobs.pop() {
                state.reading += 1;
                return Some(job);
            }
            if state.reading == 0 {
                // Done: wake the others, which find the same.
                if state.waiting > 0 {
                    self.ready.notify_all();
                }
                return None;
            }
            state.waiting += 1;
            state = self.ready.wait(state).unwrap_or_else(|p| p.into_inner());
            state.waiting -= 1;
        }
    }

    /// A directory was read; `children` are its directories. A waiting thread is woken only
    /// when there is work for it or the walk is done (a wake is a system call).
    fn done(&self, children: Vec<Job>) {
        let mut state = self.lock();
        let more = !children.is_empty();
        state.jobs.extend(children);
        state.reading -= 1;
        if state.waiting > 0 && (more || state.reading == 0) {
            self.ready.notify_all();
        }
    }
}

/// A thread's buffers for the paths of entries: the path itself and, where the ignore files
/// above the root count, its absolute path (made for every entry: allocating them was 3 % of a
/// scan's time on the benchmark corpus).
#[derive(Default)]
struct Paths {
    entry: PathBuf,
    absolute: PathBuf,
}

/// A directory's entries, read with `getdents64` into one buffer (reused).
#[derive(Default)]
struct Entries {
    buffer: Vec<u8>,
    /// (name start, name end, type) in `buffer`.
    at: Vec<(usize, usize, u8)>,
}

impl Entries {
    fn read(&mut self, fd: RawFd) -> std::io::Result<()> {
        const CHUNK: usize = 32 * 1024;
        self.buffer.clear();
        self.at.clear();
        loop {
            let start = self.buffer.len();
            self.buffer.reserve(CHUNK);
            let spare = self.buffer.spare_capacity_mut();
            // SAFETY: `spare` has at least CHUNK writable bytes; the kernel writes at most that
            // many and says how many.
            let n = unsafe { libc::syscall(libc::SYS_getdents64, fd, spare.as_mut_ptr(), CHUNK) };
            let Ok(n) = usize::try_from(n) else {
                let err = std::io::Error::last_os_error();
                if err.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(err);
            };
            // SAFETY: the kernel wrote `n` bytes there.
            unsafe { self.buffer.set_len(start + n.min(CHUNK)) };
            if n == 0 {
                return Ok(());
            }
            // struct linux_dirent64 { u64 d_ino; i64 d_off; u16 d_reclen; u8 d_type; char d_name[]; }
            let mut at = start;
            while at < start + n {
                let reclen = usize::from(u16::from_ne_bytes([
                    self.buffer[at + 16],
                    self.buffer[at + 17],
                ]));
                let kind = self.buffer[at + 18];
                let name = &self.buffer[at + 19..at + reclen];
                let len = CStr::from_bytes_until_nul(name).map_or(0, |c| c.to_bytes().len());
                let name = &name[..len];
                if name != b"." && name != b".." && !name.is_empty() {
                    self.at.push((at + 19, at + 19 + len, kind));
                }
                at += reclen;
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = (&[u8], u8)> {
        self.at
            .iter()
            .map(|&(s, e, kind)| (&self.buffer[s..e], kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// Panics on the file named `boom`: a walking thread that unwinds in the middle of a
    /// directory, while the other waits for the directories it would have found.
    struct Boom;

    impl Visit for Boom {
        fn file(&mut self, path: &Path, _dir: &Arc<OwnedFd>) {
            assert!(path.file_name() != Some(OsStr::new("boom")), "boom");
        }
        fn special(&mut self, _path: &Path) {}
        fn error(&mut self, _err: ignore::Error) {}
    }

    #[test]
    fn a_panicking_thread_ends_the_walk_instead_of_leaving_the_others_waiting() {
        let tree = tempfile::tempdir().expect("tempdir");
        for d in 0..20 {
            let dir = tree.path().join(format!("d{d}/e"));
            std::fs::create_dir_all(&dir).expect("dir");
            std::fs::write(dir.join("f.yml"), "a: 1\n").expect("file");
        }
        std::fs::write(tree.path().join("d7/boom"), "").expect("file");
        let root = tree.path().to_path_buf();
        let overrides = ignore::overrides::OverrideBuilder::new(&root)
            .build()
            .expect("no overrides");
        let plan = Plan::new(&[root], overrides, 2, false, false).expect("uplint's own walk");
        let (sent, got) = mpsc::channel();
        std::thread::spawn(move || {
            let walked = std::panic::catch_unwind(|| plan.walk(|| Boom));
            sent.send(walked.is_err()).expect("the test waits");
        });
        // Not a measure of speed: without the abort the walk never returns.
        let panicked = got
            .recv_timeout(Duration::from_secs(120))
            .expect("the walk ends");
        assert!(panicked, "the thread's panic is passed on");
    }
}
