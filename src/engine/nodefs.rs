//! The file-system calls the harness makes, with Node's error texts.
//!
//! The harness reads skills through Node (`fs.promises`), and several of its log lines embed
//! `String(error)` of a Node error: `Error: ELOOP: too many symbolic links encountered, realpath
//! '/x'`. This module performs the same system calls (`realpath`, `stat`, `readdir`, `open`) and
//! renders failures the way Node and libuv do, so those lines come out byte for byte.
//!
//! It also keeps the tool safe where Node would block: files are opened non-blocking and checked
//! to be regular before anything is read.

use std::fmt;
use std::fs::{File, Metadata};
use std::io;
use std::path::Path;

/// A failed system call as Node reports it: `Error: <CODE>: <description>, <syscall> '<path>'`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeError {
    /// libuv's error name, e.g. `ENOENT`.
    pub code: &'static str,
    pub syscall: &'static str,
    /// `None` for errors Node reports without a path (`EISDIR` on `read`).
    pub path: Option<String>,
}

impl NodeError {
    pub fn from_io(err: &io::Error, syscall: &'static str, path: &str) -> Self {
        NodeError { code: errno_name(err), syscall, path: Some(path.to_string()) }
    }

    pub fn is_absent(&self) -> bool {
        matches!(self.code, "ENOENT" | "ENOTDIR")
    }

    /// `error.message` (without the `Error: ` prefix that `String(error)` adds).
    pub fn message(&self) -> String {
        let desc = describe(self.code);
        match &self.path {
            Some(p) => format!("{}: {desc}, {} '{p}'", self.code, self.syscall),
            None => format!("{}: {desc}, {}", self.code, self.syscall),
        }
    }
}

impl fmt::Display for NodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error: {}", self.message())
    }
}

/// libuv's name for an OS error (`UNKNOWN` when it has none).
pub fn errno_name(err: &io::Error) -> &'static str {
    match err.raw_os_error() {
        Some(code) => errno_name_of(code),
        None => match err.kind() {
            io::ErrorKind::NotFound => "ENOENT",
            io::ErrorKind::PermissionDenied => "EACCES",
            io::ErrorKind::NotADirectory => "ENOTDIR",
            io::ErrorKind::IsADirectory => "EISDIR",
            _ => "UNKNOWN",
        },
    }
}

#[cfg(unix)]
fn errno_name_of(code: i32) -> &'static str {
    const TABLE: &[(i32, &str)] = &[
        (libc::ENOENT, "ENOENT"),
        (libc::ENOTDIR, "ENOTDIR"),
        (libc::ELOOP, "ELOOP"),
        (libc::EACCES, "EACCES"),
        (libc::EPERM, "EPERM"),
        (libc::EISDIR, "EISDIR"),
        (libc::ENAMETOOLONG, "ENAMETOOLONG"),
        (libc::EIO, "EIO"),
        (libc::EMFILE, "EMFILE"),
        (libc::ENFILE, "ENFILE"),
        (libc::ENOMEM, "ENOMEM"),
        (libc::EBUSY, "EBUSY"),
        (libc::EINVAL, "EINVAL"),
        (libc::EAGAIN, "EAGAIN"),
        (libc::EOVERFLOW, "EOVERFLOW"),
        (libc::ENXIO, "ENXIO"),
        (libc::ENODEV, "ENODEV"),
        (libc::EBADF, "EBADF"),
        (libc::EINTR, "EINTR"),
        (libc::EFBIG, "EFBIG"),
        (libc::ETXTBSY, "ETXTBSY"),
        (libc::EROFS, "EROFS"),
        (libc::ENOSPC, "ENOSPC"),
        (libc::ETIMEDOUT, "ETIMEDOUT"),
        (libc::EEXIST, "EEXIST"),
    ];
    TABLE.iter().find(|(c, _)| *c == code).map(|(_, n)| *n).unwrap_or("UNKNOWN")
}

#[cfg(not(unix))]
fn errno_name_of(code: i32) -> &'static str {
    // Windows system error codes that Node maps onto POSIX names.
    match code {
        2 | 3 => "ENOENT",
        5 => "EPERM",
        267 => "ENOTDIR",
        1921 => "ELOOP",
        _ => "UNKNOWN",
    }
}

/// libuv's `uv_strerror` text for a code name.
fn describe(code: &str) -> &'static str {
    match code {
        "ENOENT" => "no such file or directory",
        "ENOTDIR" => "not a directory",
        "ELOOP" => "too many symbolic links encountered",
        "EACCES" => "permission denied",
        "EPERM" => "operation not permitted",
        "EISDIR" => "illegal operation on a directory",
        "ENAMETOOLONG" => "name too long",
        "EIO" => "i/o error",
        "EMFILE" => "too many open files",
        "ENFILE" => "file table overflow",
        "ENOMEM" => "not enough memory",
        "EBUSY" => "resource busy or locked",
        "EINVAL" => "invalid argument",
        "EAGAIN" => "resource temporarily unavailable",
        "EOVERFLOW" => "value too large for defined data type",
        "ENXIO" => "no such device or address",
        "ENODEV" => "no such device",
        "EBADF" => "bad file descriptor",
        "EINTR" => "interrupted system call",
        "EFBIG" => "file too large",
        "ETXTBSY" => "text file is busy",
        "EROFS" => "read-only file system",
        "ENOSPC" => "no space left on device",
        "ETIMEDOUT" => "connection timed out",
        "EEXIST" => "file already exists",
        _ => "unknown error",
    }
}

/// The kind of node a followed `stat` found: the harness's `'file' | 'directory' | 'other'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Directory,
    /// FIFOs, sockets, devices.
    Other,
}

impl Kind {
    pub fn of(meta: &Metadata) -> Kind {
        Kind::of_type(&meta.file_type())
    }

    /// The kind of a `readdir` entry type that is not a symlink.
    pub fn of_type(ft: &std::fs::FileType) -> Kind {
        if ft.is_file() {
            Kind::File
        } else if ft.is_dir() {
            Kind::Directory
        } else {
            Kind::Other
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Directory => "directory",
            Kind::Other => "other",
        }
    }
}

/// `fs.promises.realpath`.
pub fn realpath(path: &str) -> Result<String, NodeError> {
    std::fs::canonicalize(path)
        .map(|p| p.to_string_lossy().into_owned())
        .map_err(|e| NodeError::from_io(&e, "realpath", path))
}

/// `fs.promises.stat` (follows symlinks).
pub fn stat(path: &str) -> Result<Metadata, NodeError> {
    std::fs::metadata(path).map_err(|e| NodeError::from_io(&e, "stat", path))
}

/// `stat` reduced to the harness's probe: `Ok(None)` when absent (ENOENT/ENOTDIR).
pub fn probe(path: &str) -> Result<Option<Kind>, NodeError> {
    match stat(path) {
        Ok(meta) => Ok(Some(Kind::of(&meta))),
        Err(e) if e.is_absent() => Ok(None),
        Err(e) => Err(e),
    }
}

/// One directory entry from `readdir`, in the order the OS returned it.
#[derive(Clone, Debug)]
pub struct DirEntry {
    /// `None` when the OS name is not valid UTF-8 (Node would mangle it; the harness then
    /// cannot find the entry again and skips it silently).
    pub name: Option<String>,
    pub raw_name: std::ffi::OsString,
    /// The entry's own type (`d_type`, not following symlinks).
    pub file_type: Option<std::fs::FileType>,
}

/// `fs.promises.readdir(path, {withFileTypes: true})`, in OS order.
pub fn readdir(path: &str) -> Result<Vec<DirEntry>, NodeError> {
    let rd = std::fs::read_dir(path).map_err(|e| NodeError::from_io(&e, "scandir", path))?;
    let mut out = Vec::new();
    for entry in rd {
        let entry = entry.map_err(|e| NodeError::from_io(&e, "scandir", path))?;
        let raw_name = entry.file_name();
        out.push(DirEntry { name: raw_name.to_str().map(str::to_string), file_type: entry.file_type().ok(), raw_name });
    }
    sort_like_scandir(&mut out);
    Ok(out)
}

/// libuv's `uv_fs_scandir` (Node's `readdir`) on Unix calls `scandir(3)` with a `strcmp`
/// comparator, so names come back in byte order, not in the filesystem's order; later sorts
/// are stable, so names that collate equal keep this order. On Windows libuv returns the
/// order `NtQueryDirectoryFile` gives, unsorted.
fn sort_like_scandir(entries: &mut [DirEntry]) {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        entries.sort_by(|a, b| a.raw_name.as_bytes().cmp(b.raw_name.as_bytes()));
    }
    #[cfg(not(unix))]
    let _ = entries;
}

/// A short name for a non-regular, non-directory node.
pub fn special_kind(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "FIFO";
        }
        if ft.is_socket() {
            return "socket";
        }
        if ft.is_char_device() {
            return "character device";
        }
        if ft.is_block_device() {
            return "block device";
        }
    }
    let _ = ft;
    "special file"
}

/// A character or block device: what Node's `readFile` reads to its end, like a file of
/// unknown size.
pub fn is_device(ft: &std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        ft.is_char_device() || ft.is_block_device()
    }
    #[cfg(not(unix))]
    {
        let _ = ft;
        false
    }
}

/// Open for reading without ever blocking on a FIFO or device.
pub fn open_nonblocking(path: &str) -> io::Result<File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    opts.open(Path::new(path))
}

/// Open `path` itself, not following a final symlink (`ELOOP` if it is one), without blocking.
/// One system call where `lstat` + `open` would be two: the caller learns the type from the
/// open file.
pub fn open_no_follow(path: &str) -> io::Result<(File, Metadata)> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let file = opts.open(path)?;
    let meta = file.metadata()?;
    Ok((file, meta))
}

/// Why the filesystem service's `resolve` failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// A failed `realpath`, as Node reports it.
    Node(NodeError),
    /// `realpath` of the path itself said ENOTDIR: the service throws `FS_NOT_FOUND` ("a parent
    /// path segment is not a directory").
    ParentNotDirectory,
}

/// The harness's filesystem service's `resolve` (`resolveLocalTarget`): the real path used for
/// I/O, or the real path of the nearest existing ancestor with the missing suffix re-appended.
/// Listing and reading both go through it.
pub fn resolve_target(display: &str) -> Result<String, ResolveError> {
    match realpath(display) {
        Ok(real) => return Ok(real),
        Err(e) if e.code == "ENOTDIR" => return Err(ResolveError::ParentNotDirectory),
        Err(e) if e.code != "ENOENT" => return Err(ResolveError::Node(e)),
        Err(_) => {}
    }
    let mut missing = vec![basename(display)];
    let mut ancestor = crate::engine::platform::dirname(display);
    loop {
        match realpath(&ancestor) {
            Ok(real) => {
                let mut key = real;
                for seg in missing.iter().rev() {
                    key = crate::engine::platform::join(&key, seg);
                }
                return Ok(key);
            }
            Err(e) if e.code != "ENOENT" => return Err(ResolveError::Node(e)),
            Err(_) => {
                let parent = crate::engine::platform::dirname(&ancestor);
                if parent == ancestor {
                    return Ok(display.to_string());
                }
                missing.push(basename(&ancestor));
                ancestor = parent;
            }
        }
    }
}

fn basename(p: &str) -> String {
    let trimmed = p.trim_end_matches(crate::engine::platform::SEP);
    trimmed.rsplit(crate::engine::platform::SEP).next().unwrap_or("").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_error_texts() {
        let e = NodeError { code: "ELOOP", syscall: "realpath", path: Some("/r/loop".into()) };
        assert_eq!(e.to_string(), "Error: ELOOP: too many symbolic links encountered, realpath '/r/loop'");
        let e = NodeError { code: "EISDIR", syscall: "read", path: None };
        assert_eq!(e.to_string(), "Error: EISDIR: illegal operation on a directory, read");
    }

    #[test]
    fn missing_paths_are_absent() {
        let e = realpath("/definitely/not/here").unwrap_err();
        assert_eq!(e.code, "ENOENT");
        assert!(e.is_absent());
        assert_eq!(probe("/definitely/not/here").unwrap(), None);
    }
}
