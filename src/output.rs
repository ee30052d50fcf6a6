//! Writing what uplint produces (`--output`, `--report`, and files it rewrites) without
//! damaging what is already there.
//!
//! - `-` is standard output.
//! - A symbolic link is written through: its final target gets the content, the link stays a
//!   link. (The CLI first refuses, with [`check_confined`], an output that a link inside a
//!   scanned tree would redirect.)
//! - A regular file (or a path that does not exist yet) is replaced atomically: the content goes
//!   to a temporary file beside it, which is renamed over it only once complete. The file keeps
//!   its permissions (and, where allowed, its owner). A failure leaves the old content and no
//!   temporary file, and so does SIGINT, SIGTERM or SIGHUP during the write.
//! - A character or block device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is opened
//!   and written in place, and a Unix socket is connected to: never renamed over.
//!
//! [`replace_file`] is the atomic part alone, for rewriting source files.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Refuse an output that a scanned tree could redirect: one whose path, resolved the way the
/// kernel resolves it, meets a symbolic link in a directory inside one of `roots` (canonical
/// directories), or ends at a named pipe or socket inside one. Outputs outside every root (and
/// `-`) are not checked: they keep the behaviour of [`write_output`]. Nothing is written.
pub fn check_confined(path: &Path, roots: &[PathBuf]) -> Result<(), WriteError> {
    if path == Path::new("-") || roots.is_empty() {
        return Ok(());
    }
    let inside = |dir: &Path| roots.iter().any(|r| dir.starts_with(r));
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| io_error(path, e))?
            .join(path)
    };
    let mut todo: std::collections::VecDeque<std::ffi::OsString> = absolute
        .components()
        .map(|c| c.as_os_str().to_os_string())
        .collect();
    // `dir` is canonical: every link met so far was resolved.
    let mut dir = PathBuf::from("/");
    let mut links = 0;
    while let Some(part) = todo.pop_front() {
        match Path::new(&part).components().next() {
            Some(std::path::Component::RootDir) => dir = PathBuf::from("/"),
            Some(std::path::Component::ParentDir) => {
                dir.pop();
            }
            Some(std::path::Component::Normal(name)) => {
                let next = dir.join(name);
                let Ok(meta) = fs::symlink_metadata(&next) else {
                    // Nothing there: a new file, or a missing directory that the write reports.
                    return Ok(());
                };
                let last = todo.is_empty();
                if meta.file_type().is_symlink() {
                    if inside(&dir) {
                        return Err(WriteError::LinkInScannedTree {
                            path: path.to_path_buf(),
                            link: next,
                        });
                    }
                    links += 1;
                    if links > 40 {
                        return Err(WriteError::SymlinkLoop {
                            path: path.to_path_buf(),
                        });
                    }
                    let target = fs::read_link(&next).map_err(|e| io_error(path, e))?;
                    for c in target.components().rev() {
                        todo.push_front(c.as_os_str().to_os_string());
                    }
                } else if meta.is_dir() {
                    dir = next;
                } else {
                    use std::os::unix::fs::FileTypeExt;
                    let t = meta.file_type();
                    if last && inside(&dir) && (t.is_fifo() || t.is_socket()) {
                        return Err(WriteError::SpecialInScannedTree {
                            path: path.to_path_buf(),
                        });
                    }
                    // The end, or a file in the middle of the path that the write reports.
                    return Ok(());
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A writer callback: writes the whole content to the stream it is given.
type WriteFn<'a> = &'a mut dyn FnMut(&mut dyn Write) -> io::Result<()>;

/// Why an output could not be written. Each message starts with `cannot write PATH`.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("cannot write {}: directory {} does not exist", path.display(), dir.display())]
    MissingDirectory { path: PathBuf, dir: PathBuf },
    #[error("cannot write {}: it is a directory", path.display())]
    IsDirectory { path: PathBuf },
    #[error("cannot write {}: too many levels of symbolic links", path.display())]
    SymlinkLoop { path: PathBuf },
    #[error(
        "cannot write {}: cannot create a temporary file in {}: {source}",
        path.display(),
        dir.display()
    )]
    TempFile {
        path: PathBuf,
        dir: PathBuf,
        source: io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    /// An output inside a scanned tree goes through a symbolic link (the path or one of its
    /// directories): the tree, not the user, would choose where it is written.
    #[error(
        "cannot write {}: {} is a symbolic link inside the scanned tree; an output there must be a regular file or a new one (remove the link, or write the output outside the scanned paths)",
        path.display(),
        link.display()
    )]
    LinkInScannedTree { path: PathBuf, link: PathBuf },
    /// An output inside a scanned tree is a named pipe or a socket: writing it could stall.
    #[error(
        "cannot write {}: it is a named pipe or a socket inside the scanned tree; an output there must be a regular file or a new one",
        path.display()
    )]
    SpecialInScannedTree { path: PathBuf },
}

/// Write an output to `path` (see the module documentation for what each kind of path gets).
pub fn write_output(
    path: &Path,
    mut write: impl FnMut(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    if path == Path::new("-") {
        return write_stdout(&mut write).map_err(|source| io_error(path, source));
    }
    let target = resolve_links(path)?;
    let meta = match fs::symlink_metadata(&target) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(source) => return Err(io_error(path, source)),
    };
    match meta {
        None => replace(path, &target, None, &mut write),
        Some(m) if m.is_file() => replace(path, &target, Some(&m), &mut write),
        Some(m) if m.is_dir() => Err(WriteError::IsDirectory {
            path: path.to_path_buf(),
        }),
        Some(m) => write_in_place(&target, &m, &mut write).map_err(|source| io_error(path, source)),
    }
}

/// Replace the regular file at `path` (or create it) atomically, keeping its permissions.
/// A symbolic link at `path` is replaced, not followed: use [`write_output`] to write through.
pub fn replace_file(
    path: &Path,
    mut write: impl FnMut(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(WriteError::IsDirectory {
                path: path.to_path_buf(),
            });
        }
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(source) => return Err(io_error(path, source)),
    };
    replace(
        path,
        path,
        meta.as_ref().filter(|m| m.is_file()),
        &mut write,
    )
}

fn io_error(path: &Path, source: io::Error) -> WriteError {
    WriteError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Standard output; a closed pipe (`| head`) is not an error.
fn write_stdout(write: WriteFn<'_>) -> io::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

/// The path a chain of symbolic links ends at (the path itself when it is no link). The end
/// need not exist: a dangling link names the file to create.
fn resolve_links(path: &Path) -> Result<PathBuf, WriteError> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&current).map_err(|e| io_error(path, e))?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(WriteError::SymlinkLoop {
        path: path.to_path_buf(),
    })
}

/// A device, FIFO or socket: written where it is.
fn write_in_place(target: &Path, meta: &Metadata, write: WriteFn<'_>) -> io::Result<()> {
    use std::os::unix::fs::FileTypeExt;
    if meta.file_type().is_socket() {
        let mut stream = BufWriter::new(std::os::unix::net::UnixStream::connect(target)?);
        write(&mut stream)?;
        return stream.flush();
    }
    let mut file = BufWriter::new(OpenOptions::new().write(true).open(target)?);
    write(&mut file)?;
    file.flush()
}

/// The atomic replacement of `target` (shown as `shown` in errors); `existing` is the
/// metadata of the regular file there, if any.
fn replace(
    shown: &Path,
    target: &Path,
    existing: Option<&Metadata>,
    write: WriteFn<'_>,
) -> Result<(), WriteError> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(WriteError::MissingDirectory {
            path: shown.to_path_buf(),
            dir: dir.to_path_buf(),
        });
    }
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (file, tmp) =
        create_temp(dir, &name, existing.is_some()).map_err(|source| WriteError::TempFile {
            path: shown.to_path_buf(),
            dir: dir.to_path_buf(),
            source,
        })?;
    fill(file, existing, write)
        .and_then(|()| fs::rename(tmp.path(), target))
        .map_err(|source| io_error(shown, source))?;
    tmp.persisted();
    Ok(())
}

/// Write the content, give the file the permissions (and owner) of the one it replaces, and
/// make it durable.
fn fill(file: File, existing: Option<&Metadata>, write: WriteFn<'_>) -> io::Result<()> {
    let mut out = BufWriter::new(file);
    write(&mut out)?;
    let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    if let Some(m) = existing {
        use std::os::unix::fs::MetadataExt;
        let own = file.metadata()?;
        if own.uid() != m.uid() || own.gid() != m.gid() {
            // Only possible with the privilege to do so; otherwise the file stays ours, as
            // any file we create would be.
            let _ = std::os::unix::fs::fchown(&file, Some(m.uid()), Some(m.gid()));
        }
        file.set_permissions(m.permissions())?;
    }
    file.sync_all()
}

/// A new file beside the target, readable by us alone until it gets the target's permissions
/// (a new output gets the default ones, as any created file).
fn create_temp(dir: &Path, name: &str, private: bool) -> io::Result<(File, TempGuard)> {
    use std::os::unix::fs::OpenOptionsExt;
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let mut last = None;
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.uplint-tmp-{}-{n}", std::process::id()));
        // Registered before it exists: a signal between the creation and the registration
        // would leave it.
        let slot = on_signal::register(&tmp);
        let opened = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if private { 0o600 } else { 0o666 })
            .open(&tmp);
        match opened {
            Ok(f) => return Ok((f, TempGuard(Some(tmp), slot))),
            Err(e) => {
                if let Some(slot) = slot {
                    slot.release();
                }
                if e.kind() != io::ErrorKind::AlreadyExists {
                    return Err(e);
                }
                last = Some(e);
            }
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Removes the temporary file unless it was renamed into place (or, through [`on_signal`], when
/// SIGINT, SIGTERM or SIGHUP ends the process while it exists).
struct TempGuard(Option<PathBuf>, Option<on_signal::Slot>);

impl TempGuard {
    fn path(&self) -> &Path {
        self.0.as_deref().unwrap_or(Path::new(""))
    }

    fn persisted(mut self) {
        self.0 = None;
        if let Some(slot) = self.1.take() {
            slot.release();
        }
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        if let Some(p) = &self.0 {
            let _ = fs::remove_file(p);
        }
        if let Some(slot) = self.1.take() {
            slot.release();
        }
    }
}

/// Temporary files removed when a signal ends the process: a fixed table of paths that an
/// async-signal-safe handler reads (a sequence lock per slot, atomics only) and unlinks with
/// `unlink(2)`, before the signal is raised again with its default action. A path too long for
/// a slot, or a write while every slot is taken, goes without (the guard still removes it on
/// every other exit).
mod on_signal {
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering, fence};

    const SLOTS: usize = 8;
    const MAX: usize = 4096;
    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    struct Entry {
        /// Taken by a writer.
        owned: AtomicBool,
        /// Odd while the path or `armed` change.
        seq: AtomicUsize,
        armed: AtomicBool,
        /// The path, NUL-terminated.
        path: [AtomicU8; MAX],
    }

    static TABLE: [Entry; SLOTS] = [const {
        Entry {
            owned: AtomicBool::new(false),
            seq: AtomicUsize::new(0),
            armed: AtomicBool::new(false),
            path: [const { AtomicU8::new(0) }; MAX],
        }
    }; SLOTS];

    /// A registered path; [`Slot::release`] unregisters it.
    #[derive(Debug)]
    pub struct Slot(usize);

    /// Register `path` for removal on a signal (installing the handler the first time).
    pub fn register(path: &Path) -> Option<Slot> {
        let bytes = path.as_os_str().as_bytes();
        if bytes.len() >= MAX || bytes.contains(&0) {
            return None;
        }
        install();
        let i = TABLE.iter().position(|e| {
            e.owned
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
        })?;
        write(&TABLE[i], || {
            for (cell, &b) in TABLE[i].path.iter().zip(bytes.iter().chain([&0u8])) {
                cell.store(b, Ordering::Relaxed);
            }
            TABLE[i].armed.store(true, Ordering::Relaxed);
        });
        Some(Slot(i))
    }

    impl Slot {
        pub fn release(self) {
            let e = &TABLE[self.0];
            write(e, || e.armed.store(false, Ordering::Relaxed));
            e.owned.store(false, Ordering::Release);
        }
    }

    /// A change of an entry, inside its sequence lock.
    fn write(e: &Entry, change: impl FnOnce()) {
        e.seq.fetch_add(1, Ordering::Relaxed);
        fence(Ordering::Release);
        change();
        e.seq.fetch_add(1, Ordering::Release);
    }

    /// Unlink every registered path (async-signal-safe: atomics, a stack buffer, `unlink`).
    fn remove_all() {
        for e in &TABLE {
            remove(e);
        }
    }

    /// Unlink the path of an entry if it holds one (a consistent snapshot of it).
    fn remove(e: &Entry) {
        let mut buf = [0u8; MAX];
        let before = e.seq.load(Ordering::Acquire);
        if before % 2 == 1 {
            return;
        }
        let armed = e.armed.load(Ordering::Relaxed);
        for (b, cell) in buf.iter_mut().zip(&e.path) {
            *b = cell.load(Ordering::Relaxed);
            if *b == 0 {
                break;
            }
        }
        fence(Ordering::Acquire);
        if armed && e.seq.load(Ordering::Relaxed) == before {
            buf[MAX - 1] = 0;
            // SAFETY: `buf` is a NUL-terminated path on our stack.
            unsafe { libc::unlink(buf.as_ptr().cast()) };
        }
    }

    extern "C" fn handler(signal: libc::c_int) {
        remove_all();
        // SAFETY: sigaction and raise are async-signal-safe; the default action ends the
        // process once the handler returns and the signal is unblocked.
        unsafe {
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(signal, &dfl, std::ptr::null_mut());
            libc::raise(signal);
        }
    }

    /// The handler for each signal whose action is the default one (an ignored signal, as
    /// under `nohup`, stays ignored).
    fn install() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            for signal in SIGNALS {
                // SAFETY: plain sigaction calls with zeroed, then filled, structures.
                unsafe {
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                        || old.sa_sigaction != libc::SIG_DFL
                    {
                        continue;
                    }
                    let mut new: libc::sigaction = std::mem::zeroed();
                    new.sa_sigaction = handler as extern "C" fn(libc::c_int) as usize;
                    libc::sigemptyset(&mut new.sa_mask);
                    for s in SIGNALS {
                        libc::sigaddset(&mut new.sa_mask, s);
                    }
                    new.sa_flags = libc::SA_RESTART;
                    libc::sigaction(signal, &new, std::ptr::null_mut());
                }
            }
        });
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn a_registered_path_is_removed_a_released_one_is_not() {
            let dir = tempfile::tempdir().unwrap();
            let (a, b) = (dir.path().join("a.tmp"), dir.path().join("b.tmp"));
            std::fs::write(&a, "a").unwrap();
            std::fs::write(&b, "b").unwrap();
            let slot_a = super::register(&a).unwrap();
            let slot_b = super::register(&b).unwrap();
            let (ia, ib) = (slot_a.0, slot_b.0);
            slot_b.release();
            // Only this test's entries: other tests' temporary files are in the table too.
            super::remove(&super::TABLE[ia]);
            super::remove(&super::TABLE[ib]);
            assert!(!a.exists(), "the registered path is removed");
            assert!(b.exists(), "a released path is left alone");
            slot_a.release();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("uplint-tmp"))
            .collect()
    }

    #[test]
    fn a_failed_write_keeps_the_old_content_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("report.txt");
        fs::write(&p, "old").unwrap();
        let r = write_output(&p, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("renderer failed"))
        });
        assert!(matches!(r, Err(WriteError::Io { .. })), "{r:?}");
        assert_eq!(fs::read_to_string(&p).unwrap(), "old");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn replace_file_keeps_the_mode_and_replaces_a_link_itself() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("src.rb");
        fs::write(&p, "old").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o751)).unwrap();
        replace_file(&p, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "new");
        let mode = fs::metadata(&p).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o751);
        let link = dir.path().join("link.rb");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        replace_file(&link, |w| w.write_all(b"own")).unwrap();
        assert!(!fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&p).unwrap(), "new");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn a_chain_of_links_is_followed_to_a_new_file() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("sub/../c", dir.path().join("b")).unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        write_output(&a, |w| w.write_all(b"x")).unwrap();
        assert_eq!(fs::read_to_string(dir.path().join("c")).unwrap(), "x");
        assert!(fs::symlink_metadata(&a).unwrap().is_symlink());
        let loop_ = dir.path().join("loop");
        std::os::unix::fs::symlink("loop", &loop_).unwrap();
        let r = write_output(&loop_, |w| w.write_all(b"x"));
        assert!(matches!(r, Err(WriteError::SymlinkLoop { .. })), "{r:?}");
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let r = write_output(dir.path(), |w| w.write_all(b"x"));
        assert!(matches!(r, Err(WriteError::IsDirectory { .. })), "{r:?}");
    }

    #[test]
    fn a_socket_is_connected_to() {
        let dir = tempfile::tempdir().unwrap();
        let sock = dir.path().join("report.sock");
        let listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let reader = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut got = String::new();
            io::Read::read_to_string(&mut s, &mut got).unwrap();
            got
        });
        write_output(&sock, |w| w.write_all(b"through the socket")).unwrap();
        assert_eq!(reader.join().unwrap(), "through the socket");
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::symlink_metadata(&sock).unwrap().file_type().is_socket());
    }
}
