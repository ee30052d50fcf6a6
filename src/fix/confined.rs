//! Reaching the files a scan found, to fix them: by the path the walk found each one at (never
//! by the path it is shown as), below the scanned path it was found in, and, to write, with no
//! symbolic link on the way. A scanned path itself is the user's, links and all; below it, a
//! directory is opened by its name in its parent's descriptor with `O_NOFOLLOW`, and the file by
//! its name in its directory's: a link put anywhere below a scanned path (a repository's
//! committed `y -> /outside`) is never gone through to write, nor to read unless the scan
//! followed links (`--follow`).

use std::ffi::{CString, OsStr};
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

/// Why a file could not be reached.
#[derive(Debug, thiserror::Error)]
pub enum Unreachable {
    #[error("is a symbolic link, or in a directory reached through one")]
    Link,
    #[error("is not a regular file (a FIFO, a socket, a device or a directory)")]
    NotRegular,
    #[error("is larger than the {0} MiB limit")]
    TooLarge(u64),
    #[error("is not below a scanned path")]
    NotBelow,
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The scanned paths, whether the scan followed links, and the largest file it read.
#[derive(Clone, Debug)]
pub struct Confinement {
    roots: Vec<PathBuf>,
    follow: bool,
    max: u64,
}

/// A file's directory, open, and the file's name in it; `named`: the file is a scanned path
/// itself (named on the command line), whose last name is the user's too.
pub struct Place {
    dir: OwnedFd,
    pub name: CString,
    named: bool,
}

impl Confinement {
    pub fn new(roots: &[PathBuf], follow: bool, max: u64) -> Confinement {
        Confinement {
            roots: roots.to_vec(),
            follow,
            max,
        }
    }

    /// The bytes of the file the walk found at `file`, a regular file within the size limit:
    /// with `--follow` by its path, as the walk read it; otherwise with no link below its
    /// scanned path.
    pub fn read(&self, file: &Path) -> Result<Vec<u8>, Unreachable> {
        let opened = if self.follow {
            let mut options = std::fs::OpenOptions::new();
            options.read(true);
            std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
            options.open(file)?
        } else {
            let place = self.place(file)?;
            place.open(!place.named)?
        };
        read_regular(opened, self.max)
    }

    /// The directory of the walked `file`, reached below the scanned path it is under with no
    /// link on the way, and its name there.
    pub fn place(&self, file: &Path) -> Result<Place, Unreachable> {
        let bytes = file.as_os_str().as_bytes();
        // The longest scanned path the file is, or is below.
        let root = self
            .roots
            .iter()
            .filter(|r| {
                let r = r.as_os_str().as_bytes();
                bytes.strip_prefix(r).is_some_and(|rest| {
                    rest.is_empty() || rest.starts_with(b"/") || r.ends_with(b"/")
                })
            })
            .max_by_key(|r| r.as_os_str().len())
            .ok_or(Unreachable::NotBelow)?;
        let rest = &bytes[root.as_os_str().len()..];
        if rest.is_empty() {
            // A file named as a scanned path: its directory is the user's.
            let name = file.file_name().ok_or(Unreachable::NotBelow)?;
            let dir = match file.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            return Ok(Place {
                dir: open_dir(libc::AT_FDCWD, &c_string(dir.as_os_str())?, false)?,
                name: c_string(name)?,
                named: true,
            });
        }
        let mut names = Vec::new();
        for c in Path::new(OsStr::from_bytes(rest)).components() {
            match c {
                Component::Normal(n) => names.push(n),
                Component::CurDir | Component::RootDir => {}
                Component::ParentDir | Component::Prefix(_) => return Err(Unreachable::NotBelow),
            }
        }
        let name = names.pop().ok_or(Unreachable::NotBelow)?;
        let mut dir = open_dir(libc::AT_FDCWD, &c_string(root.as_os_str())?, false)?;
        for n in names {
            dir = open_dir(dir.as_raw_fd(), &c_string(n)?, true)?;
        }
        Ok(Place {
            dir,
            name: c_string(name)?,
            named: false,
        })
    }
}

impl Place {
    /// The directory's descriptor.
    pub fn dir(&self) -> RawFd {
        self.dir.as_raw_fd()
    }

    /// Open the file for reading, without blocking on a FIFO; `no_follow`: not through a link.
    pub fn open(&self, no_follow: bool) -> Result<std::fs::File, Unreachable> {
        let mut flags = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC;
        if no_follow {
            flags |= libc::O_NOFOLLOW;
        }
        // SAFETY: `dir` is open and `name` NUL-terminated.
        let fd = unsafe { libc::openat(self.dir(), self.name.as_ptr(), flags) };
        if fd < 0 {
            return Err(refusal(std::io::Error::last_os_error()));
        }
        // SAFETY: just opened, owned by nothing else.
        Ok(unsafe { std::fs::File::from_raw_fd(fd) })
    }

    /// The type and permission bits of the entry itself (a link is not followed).
    pub fn mode(&self) -> Result<libc::mode_t, Unreachable> {
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: `dir` is open, `name` NUL-terminated, `st` large enough for a `stat`.
        let r = unsafe {
            libc::fstatat(
                self.dir(),
                self.name.as_ptr(),
                st.as_mut_ptr(),
                libc::AT_SYMLINK_NOFOLLOW,
            )
        };
        if r != 0 {
            return Err(std::io::Error::last_os_error().into());
        }
        // SAFETY: `fstatat` succeeded and filled `st`.
        Ok(unsafe { st.assume_init() }.st_mode)
    }
}

/// The bytes of an open file, if it is a regular file of at most `max` bytes.
pub fn read_regular(file: std::fs::File, max: u64) -> Result<Vec<u8>, Unreachable> {
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(Unreachable::NotRegular);
    }
    let too_large = || Unreachable::TooLarge(max / (1024 * 1024));
    if meta.len() > max {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Open a directory in `at`; `no_follow`: not through a link.
fn open_dir(at: RawFd, name: &CString, no_follow: bool) -> Result<OwnedFd, Unreachable> {
    let mut flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
    if no_follow {
        flags |= libc::O_NOFOLLOW;
    }
    // SAFETY: `at` is open (or AT_FDCWD) and `name` NUL-terminated.
    let fd = unsafe { libc::openat(at, name.as_ptr(), flags) };
    if fd < 0 {
        let err = std::io::Error::last_os_error();
        // A link to a directory, with O_NOFOLLOW: ELOOP, or ENOTDIR on some systems.
        if no_follow && err.raw_os_error() == Some(libc::ENOTDIR) && is_link_at(at, name) {
            return Err(Unreachable::Link);
        }
        return Err(refusal(err));
    }
    // SAFETY: just opened, owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Is `name` in `at` a symbolic link?
fn is_link_at(at: RawFd, name: &CString) -> bool {
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: as in `Place::mode`.
    let r = unsafe {
        libc::fstatat(
            at,
            name.as_ptr(),
            st.as_mut_ptr(),
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    // SAFETY: `fstatat` succeeded and filled `st`.
    r == 0 && unsafe { st.assume_init() }.st_mode & libc::S_IFMT == libc::S_IFLNK
}

/// An open's error: a link refused by `O_NOFOLLOW` (ELOOP) is [`Unreachable::Link`], a FIFO
/// that would block [`Unreachable::NotRegular`].
fn refusal(err: std::io::Error) -> Unreachable {
    match err.raw_os_error() {
        Some(libc::ELOOP) => Unreachable::Link,
        Some(libc::ENXIO) | Some(libc::EWOULDBLOCK) => Unreachable::NotRegular,
        _ => Unreachable::Io(err),
    }
}

fn c_string(s: &OsStr) -> Result<CString, Unreachable> {
    CString::new(s.as_bytes())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e).into())
}
