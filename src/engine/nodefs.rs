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
    pub fn of_entry(t: EntryType) -> Kind {
        match t {
            EntryType::File => Kind::File,
            EntryType::Directory => Kind::Directory,
            EntryType::Symlink | EntryType::Other => Kind::Other,
        }
    }

    /// The kind of a file type that is not a symlink.
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

/// What a followed `stat` (or an open file's `fstat`) says of a node, on disk or in an
/// [`Overlay`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    pub kind: Kind,
    /// The size in bytes (regular files).
    pub len: u64,
    /// For [`Kind::Other`]: what it is ([`special_kind`]).
    pub special: &'static str,
    /// A character or block device ([`is_device`]).
    pub device: bool,
}

impl Stat {
    pub fn of(meta: &Metadata) -> Stat {
        let ft = meta.file_type();
        Stat { kind: Kind::of(meta), len: meta.len(), special: special_kind(&ft), device: is_device(&ft) }
    }

    /// A regular file of `len` bytes (an overlay's blob).
    pub fn file(len: u64) -> Stat {
        Stat { kind: Kind::File, len, special: "special file", device: false }
    }

    pub fn directory() -> Stat {
        Stat { kind: Kind::Directory, len: 0, special: "special file", device: false }
    }
}

/// A `readdir` entry's own type (`d_type`: a symlink is not followed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryType {
    File,
    Directory,
    Symlink,
    /// FIFOs, sockets, devices.
    Other,
}

impl EntryType {
    pub fn of(ft: &std::fs::FileType) -> EntryType {
        if ft.is_symlink() {
            EntryType::Symlink
        } else if ft.is_file() {
            EntryType::File
        } else if ft.is_dir() {
            EntryType::Directory
        } else {
            EntryType::Other
        }
    }

    pub fn is_symlink(self) -> bool {
        self == EntryType::Symlink
    }

    pub fn is_dir(self) -> bool {
        self == EntryType::Directory
    }

    pub fn is_file(self) -> bool {
        self == EntryType::File
    }
}

/// A folder whose contents are read from somewhere other than the disk (`dsh-skills diff` reads
/// a repository's work tree from a git tree or the index): every path under [`Overlay::top`]
/// is looked up here, every other path on disk, and symbolic links are followed across the
/// border in both directions, as the kernel would follow them in a checkout of that state.
/// Paths given to the methods are relative to `top`, `/`-separated, `""` for `top` itself.
pub trait Overlay: Send + Sync {
    /// The real path of the folder the overlay stands for (no trailing separator).
    fn top(&self) -> &str;
    /// `lstat`: the node's own type, `Ok(None)` when there is none.
    fn lstat(&self, rel: &str) -> io::Result<Option<OverlayNode>>;
    /// The entries of a directory, in any order (`readdir` sorts them).
    fn readdir(&self, rel: &str) -> io::Result<Vec<(std::ffi::OsString, EntryType)>>;
    /// A symbolic link's target.
    fn readlink(&self, rel: &str) -> io::Result<std::ffi::OsString>;
    /// A regular file's bytes.
    fn read(&self, rel: &str) -> io::Result<Vec<u8>>;
}

/// A node of an [`Overlay`], unfollowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverlayNode {
    File { len: u64 },
    Directory,
    Symlink,
}

thread_local! {
    static OVERLAY: std::cell::RefCell<Option<std::sync::Arc<dyn Overlay>>> = const { std::cell::RefCell::new(None) };
}

/// The overlay in force on this thread ([`with_overlay`]), for a worker thread to take along.
pub fn current_overlay() -> Option<std::sync::Arc<dyn Overlay>> {
    OVERLAY.with(|o| o.borrow().clone())
}

/// Run `f` with `overlay` in force for every call of this module on this thread (the scan's
/// workers take it along: `discover::par_map`). `None` reads the disk only.
pub fn with_overlay<R>(overlay: Option<std::sync::Arc<dyn Overlay>>, f: impl FnOnce() -> R) -> R {
    let previous = OVERLAY.with(|o| std::mem::replace(&mut *o.borrow_mut(), overlay));
    struct Restore(Option<Option<std::sync::Arc<dyn Overlay>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take().flatten();
            OVERLAY.with(|o| *o.borrow_mut() = previous);
        }
    }
    let _restore = Restore(Some(previous));
    f()
}

/// `path` relative to the overlay's top, when it is the top or inside it (a real path).
fn inside<'a>(overlay: &dyn Overlay, path: &'a str) -> Option<&'a str> {
    let top = overlay.top();
    let rest = path.strip_prefix(top)?;
    if rest.is_empty() {
        return Some("");
    }
    let rest = rest.strip_prefix(crate::engine::platform::SEP)?;
    Some(rest.trim_end_matches(crate::engine::platform::SEP))
}

/// One node's own type (`lstat`), in the overlay or on disk.
enum Own {
    File(Stat),
    Directory,
    Symlink,
}

fn lstat_own(overlay: &dyn Overlay, path: &str) -> io::Result<Own> {
    match inside(overlay, path) {
        Some(rel) => match overlay.lstat(rel)? {
            Some(OverlayNode::File { len }) => Ok(Own::File(Stat::file(len))),
            Some(OverlayNode::Directory) => Ok(Own::Directory),
            Some(OverlayNode::Symlink) => Ok(Own::Symlink),
            None => Err(io::Error::from(io::ErrorKind::NotFound)),
        },
        None => {
            let meta = std::fs::symlink_metadata(path)?;
            let ft = meta.file_type();
            Ok(if ft.is_symlink() {
                Own::Symlink
            } else if ft.is_dir() {
                Own::Directory
            } else {
                Own::File(Stat::of(&meta))
            })
        }
    }
}

fn readlink_any(overlay: &dyn Overlay, path: &str) -> io::Result<String> {
    let target = match inside(overlay, path) {
        Some(rel) => overlay.readlink(rel)?,
        None => std::fs::read_link(path)?.into_os_string(),
    };
    Ok(target.to_string_lossy().into_owned())
}

/// Whether `path` itself is a symbolic link (`lstat`), through the overlay in force.
pub fn is_symlink(path: &str) -> bool {
    match current_overlay() {
        Some(overlay) => matches!(lstat_own(&*overlay, path), Ok(Own::Symlink)),
        None => std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()),
    }
}

/// Whether anything is at `path`, unfollowed (`lstat`), through the overlay in force.
pub fn lexists(path: &str) -> bool {
    match current_overlay() {
        Some(overlay) => lstat_own(&*overlay, path).is_ok(),
        None => std::fs::symlink_metadata(path).is_ok(),
    }
}

/// A symbolic link's target as written, through the overlay in force.
pub fn readlink(path: &str) -> io::Result<String> {
    match current_overlay() {
        Some(overlay) => readlink_any(&*overlay, path),
        None => std::fs::read_link(path).map(|p| p.to_string_lossy().into_owned()),
    }
}

/// `realpath(3)` as glibc walks it, one component at a time, through the overlay and the disk:
/// the real path and the node's own type there.
fn realpath_walk(overlay: &dyn Overlay, path: &str) -> io::Result<(String, Own)> {
    const MAX_LINKS: usize = 40;
    let sep = crate::engine::platform::SEP;
    let absolute = if path.starts_with(sep) {
        path.to_string()
    } else {
        crate::engine::platform::join(&crate::engine::platform::process_cwd(), path)
    };
    // The overlay's top is a real path: a path under it resolves through the top to the top,
    // so the walk starts there rather than asking the disk about every folder above it again.
    let (start, rest) = match inside(overlay, &absolute) {
        Some(rel) => (overlay.top().to_string(), rel),
        None => (String::new(), absolute.as_str()),
    };
    let mut pending: std::collections::VecDeque<String> =
        rest.split(sep).filter(|c| !c.is_empty()).map(str::to_string).collect();
    let mut resolved = start;
    let mut own = Own::Directory;
    let mut links = 0;
    while let Some(component) = pending.pop_front() {
        if !matches!(own, Own::Directory) {
            return Err(io::Error::from(io::ErrorKind::NotADirectory));
        }
        match component.as_str() {
            "." => continue,
            ".." => {
                if let Some(i) = resolved.rfind(sep) {
                    resolved.truncate(i);
                }
                continue;
            }
            _ => {}
        }
        let next = format!("{resolved}{sep}{component}");
        match lstat_own(overlay, &next)? {
            Own::Symlink => {
                links += 1;
                if links > MAX_LINKS {
                    #[cfg(unix)]
                    return Err(io::Error::from_raw_os_error(libc::ELOOP));
                    #[cfg(not(unix))]
                    return Err(io::Error::other("ELOOP"));
                }
                let target = readlink_any(overlay, &next)?;
                if target.starts_with(sep) {
                    resolved.clear();
                }
                for c in target.split(sep).filter(|c| !c.is_empty()).rev() {
                    pending.push_front(c.to_string());
                }
                own = Own::Directory;
            }
            other => {
                resolved = next;
                own = other;
            }
        }
    }
    if resolved.is_empty() {
        resolved.push(sep);
    }
    Ok((resolved, own))
}

/// `fs.promises.realpath`.
pub fn realpath(path: &str) -> Result<String, NodeError> {
    if let Some(overlay) = current_overlay() {
        return realpath_walk(&*overlay, path)
            .map(|(real, _)| real)
            .map_err(|e| NodeError::from_io(&e, "realpath", path));
    }
    #[cfg(unix)]
    if let Some(real) = real_dirs::realpath(path) {
        return real.map_err(|e| NodeError::from_io(&e, "realpath", path));
    }
    std::fs::canonicalize(path)
        .map(|p| p.to_string_lossy().into_owned())
        .map_err(|e| NodeError::from_io(&e, "realpath", path))
}

/// `realpath(3)` with the real paths of the folders above remembered, while a scan's worker
/// runs ([`with_real_dirs`]): glibc asks the disk about every name of a path (`readlink` of
/// each, ten calls for a skill file ten folders deep, and again for the next file of the same
/// folder); here a folder already resolved is not asked about again. Only the plain case is
/// answered: an absolute path of plain names, links whose targets are plain names (a relative
/// one may start with `..`), at most [`real_dirs::MAX_LINKS`] of them; anything else is left to
/// `realpath(3)` itself. In the plain case glibc fails exactly when the `readlink` of a name
/// (its real folder's path, then the name) fails other than with `EINVAL` ("not a link"), with
/// that error (`suffix_requires_dir_check` never holds for plain names): so does this walk.
#[cfg(unix)]
mod real_dirs {
    use std::collections::HashMap;

    /// Links followed before the path is left to `realpath(3)` (which allows 40).
    pub(super) const MAX_LINKS: usize = 8;

    thread_local! {
        /// Written path (a prefix of one asked about) → its real path, while a scan runs here.
        static MEMO: std::cell::RefCell<Option<HashMap<String, String>>> = const { std::cell::RefCell::new(None) };
    }

    /// Run `f` with the memo in force on this thread (a scan's worker), dropped after it.
    pub(super) fn with<R>(f: impl FnOnce() -> R) -> R {
        // A nested call keeps the memo in force and leaves it to the outer one to drop.
        let fresh = MEMO.with(|m| {
            let mut m = m.borrow_mut();
            let fresh = m.is_none();
            if fresh {
                *m = Some(HashMap::new());
            }
            fresh
        });
        struct Clear(bool);
        impl Drop for Clear {
            fn drop(&mut self) {
                if self.0 {
                    MEMO.with(|m| m.borrow_mut().take());
                }
            }
        }
        let _clear = Clear(fresh);
        f()
    }

    /// Whether `name` is a plain name: not empty, `.` or `..`.
    fn plain(name: &str) -> bool {
        !name.is_empty() && name != "." && name != ".."
    }

    /// Whether `path` is `/` followed by plain names joined by `/` (no trailing `/`).
    fn plain_absolute(path: &str) -> bool {
        path.strip_prefix('/').is_some_and(|rest| rest.split('/').all(plain))
    }

    /// The real path of `path` or glibc's error, when the memo is in force and the case is plain.
    pub(super) fn realpath(path: &str) -> Option<std::io::Result<String>> {
        MEMO.with(|m| m.borrow_mut().as_mut().and_then(|memo| resolve_in(memo, path)))
    }

    pub(super) fn resolve_in(memo: &mut HashMap<String, String>, path: &str) -> Option<std::io::Result<String>> {
        if !plain_absolute(path) {
            return None;
        }
        let mut todo = path.to_string();
        let mut links = 0;
        'restart: loop {
            // The longest prefix already resolved (else `/`), and where the rest starts.
            let (mut resolved, mut at) = (String::new(), 0);
            let mut cut = todo.len();
            while let Some(c) = todo[..cut].rfind('/').filter(|&c| c > 0) {
                if let Some(real) = memo.get(&todo[..c]) {
                    resolved.clone_from(real);
                    at = c;
                    break;
                }
                cut = c;
            }
            while at < todo.len() {
                let end = todo[at + 1..].find('/').map_or(todo.len(), |i| at + 1 + i);
                let candidate = format!("{resolved}{}", &todo[at..end]);
                match std::fs::read_link(&candidate) {
                    Err(e) if e.raw_os_error() == Some(libc::EINVAL) => {
                        // Folders only: a file's path is rarely asked about twice.
                        if end < todo.len() {
                            memo.insert(todo[..end].to_string(), candidate.clone());
                        }
                        resolved = candidate;
                        at = end;
                    }
                    Err(e) => return Some(Err(e)),
                    Ok(target) => {
                        links += 1;
                        if links > MAX_LINKS {
                            return None;
                        }
                        let target = target.into_os_string().into_string().ok()?;
                        let mut next = splice(&resolved, &target)?;
                        next.push_str(&todo[end..]);
                        todo = next;
                        continue 'restart;
                    }
                }
            }
            return (!resolved.is_empty()).then_some(Ok(resolved));
        }
    }

    /// Where a link in the real folder `resolved` (`""` for `/`) that reads `target` leads, when
    /// the target is plain: an absolute path of plain names, or plain names after leading `..`.
    fn splice(resolved: &str, target: &str) -> Option<String> {
        if target.starts_with('/') {
            return plain_absolute(target).then(|| target.to_string());
        }
        let mut base = resolved;
        let mut rest = target;
        while let Some(after) = rest.strip_prefix("../") {
            base = &base[..base.rfind('/')?];
            rest = after;
        }
        (rest.split('/').all(plain)).then(|| format!("{base}/{rest}"))
    }
}

/// Run `f` with the real paths of folders remembered for `realpath` on this thread (a scan's
/// worker: the disk is taken not to change under one scan). Elsewhere `realpath(3)` answers.
pub fn with_real_dirs<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(unix)]
    return real_dirs::with(f);
    #[cfg(not(unix))]
    f()
}

/// `fs.promises.stat` (follows symlinks).
pub fn stat(path: &str) -> Result<Stat, NodeError> {
    if let Some(overlay) = current_overlay() {
        return realpath_walk(&*overlay, path)
            .map(|(_, own)| match own {
                Own::File(stat) => stat,
                _ => Stat::directory(),
            })
            .map_err(|e| NodeError::from_io(&e, "stat", path));
    }
    std::fs::metadata(path).map(|m| Stat::of(&m)).map_err(|e| NodeError::from_io(&e, "stat", path))
}

/// `stat` reduced to the harness's probe: `Ok(None)` when absent (ENOENT/ENOTDIR).
pub fn probe(path: &str) -> Result<Option<Kind>, NodeError> {
    match stat(path) {
        Ok(stat) => Ok(Some(stat.kind)),
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
    pub file_type: Option<EntryType>,
}

/// `fs.promises.readdir(path, {withFileTypes: true})`, in OS order. `path` is a real path
/// (the listing resolves it first).
pub fn readdir(path: &str) -> Result<Vec<DirEntry>, NodeError> {
    let mut out = Vec::new();
    if let Some(overlay) = current_overlay()
        && let Some(rel) = inside(&*overlay, path)
    {
        let entries = overlay.readdir(rel).map_err(|e| NodeError::from_io(&e, "scandir", path))?;
        for (raw_name, t) in entries {
            out.push(DirEntry { name: raw_name.to_str().map(str::to_string), file_type: Some(t), raw_name });
        }
        sort_like_scandir(&mut out);
        return Ok(out);
    }
    let rd = std::fs::read_dir(path).map_err(|e| NodeError::from_io(&e, "scandir", path))?;
    for entry in rd {
        let entry = entry.map_err(|e| NodeError::from_io(&e, "scandir", path))?;
        let raw_name = entry.file_name();
        out.push(DirEntry {
            name: raw_name.to_str().map(str::to_string),
            file_type: entry.file_type().ok().map(|t| EntryType::of(&t)),
            raw_name,
        });
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

/// A file open for reading, on disk or in an [`Overlay`], with its `fstat`.
pub struct OpenFile {
    reader: Reader,
    pub stat: Stat,
}

enum Reader {
    Disk(File),
    Memory(io::Cursor<Vec<u8>>),
}

impl io::Read for OpenFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.reader {
            Reader::Disk(file) => file.read(buf),
            Reader::Memory(bytes) => bytes.read(buf),
        }
    }
}

impl OpenFile {
    fn disk(file: File) -> io::Result<OpenFile> {
        let stat = Stat::of(&file.metadata()?);
        Ok(OpenFile { reader: Reader::Disk(file), stat })
    }

    fn memory(bytes: Vec<u8>) -> OpenFile {
        OpenFile { stat: Stat::file(bytes.len() as u64), reader: Reader::Memory(io::Cursor::new(bytes)) }
    }

    fn directory() -> OpenFile {
        OpenFile { stat: Stat::directory(), reader: Reader::Memory(io::Cursor::new(Vec::new())) }
    }
}

fn eloop() -> io::Error {
    #[cfg(unix)]
    return io::Error::from_raw_os_error(libc::ELOOP);
    #[cfg(not(unix))]
    io::Error::other("ELOOP")
}

/// Open `path` for reading, following symlinks, without blocking (Node's `open`), and `fstat`
/// it. Errors are those of the `open` or the `fstat`.
pub fn open_follow(path: &str) -> io::Result<OpenFile> {
    if let Some(overlay) = current_overlay() {
        let (real, own) = realpath_walk(&*overlay, path)?;
        if let Some(rel) = inside(&*overlay, &real) {
            return Ok(match own {
                Own::Directory => OpenFile::directory(),
                _ => OpenFile::memory(overlay.read(rel)?),
            });
        }
        return OpenFile::disk(open_nonblocking(&real)?);
    }
    OpenFile::disk(open_nonblocking(path)?)
}

/// Open `path` itself, not following a final symlink (`ELOOP` if it is one), without blocking.
/// One system call where `lstat` + `open` would be two: the caller learns the type from the
/// open file. `path` is a real path but for its last component.
pub fn open_no_follow(path: &str) -> io::Result<OpenFile> {
    if let Some(overlay) = current_overlay()
        && let Some(rel) = inside(&*overlay, path)
    {
        return match overlay.lstat(rel)? {
            Some(OverlayNode::File { .. }) => Ok(OpenFile::memory(overlay.read(rel)?)),
            Some(OverlayNode::Directory) => Ok(OpenFile::directory()),
            Some(OverlayNode::Symlink) => Err(eloop()),
            None => Err(io::Error::from(io::ErrorKind::NotFound)),
        };
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    OpenFile::disk(opts.open(path)?)
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

    /// The remembered walk answers as `realpath(3)` does, on trees of folders, files and links
    /// of every kind (relative with `..`, absolute, chained, dangling, looping, to a file used as
    /// a folder, to `.` and `..`), for every path of up to four names asked in one memo.
    #[cfg(unix)]
    #[test]
    fn realpath_with_remembered_folders_is_glibcs() {
        let names = ["a", "b", "c", "d"];
        let (mut answered, mut through_links, mut failed) = (0, 0, 0);
        let mut errors = std::collections::BTreeSet::new();
        for seed in 0..24u64 {
            let tmp = tempfile::tempdir().unwrap();
            let top = std::fs::canonicalize(tmp.path()).unwrap().to_string_lossy().into_owned();
            let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mut next = |n: u64| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (state >> 33) % n
            };
            // Two levels of nodes: a folder, a file, or a link to one of these targets.
            let mut dirs = vec![top.clone()];
            for depth in 0..2 {
                let mut below = Vec::new();
                for dir in &dirs {
                    for name in names {
                        let path = format!("{dir}/{name}");
                        match next(6) {
                            0..=2 => {
                                std::fs::create_dir(&path).unwrap();
                                below.push(path);
                            }
                            3 => std::fs::write(&path, "x").unwrap(),
                            _ => {
                                let other = names[next(4) as usize];
                                let target = match next(9) {
                                    0 => format!("../{other}"),
                                    1 => format!("../../{other}/{}", names[next(4) as usize]),
                                    2 => format!("{top}/{other}"),
                                    3 => format!("{other}/x"),
                                    4 => name.to_string(),
                                    5 => "..".to_string(),
                                    6 => ".".to_string(),
                                    7 => format!("./{other}"),
                                    _ => format!("{top}/{other}/../{other}"),
                                };
                                std::os::unix::fs::symlink(target, &path).unwrap();
                            }
                        }
                    }
                }
                if depth == 0 {
                    dirs = below;
                }
            }
            let mut memo = std::collections::HashMap::new();
            let mut paths = vec![top.clone()];
            for _ in 0..4 {
                let longer: Vec<String> =
                    paths.iter().flat_map(|p| names.iter().map(move |n| format!("{p}/{n}"))).collect();
                for path in &longer {
                    let glibc = std::fs::canonicalize(path).map(|p| p.to_string_lossy().into_owned());
                    match real_dirs::resolve_in(&mut memo, path) {
                        Some(Ok(real)) => {
                            assert_eq!(glibc.as_deref().ok(), Some(real.as_str()), "{path} (seed {seed})");
                            answered += 1;
                            through_links += usize::from(&real != path);
                        }
                        Some(Err(e)) => {
                            let glibc = glibc.expect_err(path).raw_os_error();
                            assert_eq!(e.raw_os_error(), glibc, "{path} (seed {seed})");
                            failed += 1;
                            errors.insert(glibc);
                        }
                        None => {}
                    }
                }
                paths = longer;
            }
        }
        // Paths answered, many through links, and errors of every plain kind (a missing name, a
        // file taken for a folder, a dangling link).
        assert!(answered > 200 && through_links > 50 && failed > 2000, "{answered} {through_links} {failed}");
        assert!(errors.contains(&Some(libc::ENOENT)) && errors.contains(&Some(libc::ENOTDIR)), "{errors:?}");
    }

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

    /// An overlay held in memory: `(path, node)` with a link's target or a file's text.
    struct Mem {
        top: String,
        nodes: Vec<(&'static str, &'static str, &'static str)>,
    }

    impl Overlay for Mem {
        fn top(&self) -> &str {
            &self.top
        }
        fn lstat(&self, rel: &str) -> io::Result<Option<OverlayNode>> {
            if rel.is_empty() {
                return Ok(Some(OverlayNode::Directory));
            }
            Ok(self.nodes.iter().find(|(p, _, _)| *p == rel).map(|(_, kind, text)| match *kind {
                "dir" => OverlayNode::Directory,
                "link" => OverlayNode::Symlink,
                _ => OverlayNode::File { len: text.len() as u64 },
            }))
        }
        fn readdir(&self, rel: &str) -> io::Result<Vec<(std::ffi::OsString, EntryType)>> {
            let prefix = if rel.is_empty() { String::new() } else { format!("{rel}/") };
            Ok(self
                .nodes
                .iter()
                .filter_map(|(p, kind, _)| {
                    let name = p.strip_prefix(&prefix)?;
                    (!name.contains('/')).then(|| {
                        let t = match *kind {
                            "dir" => EntryType::Directory,
                            "link" => EntryType::Symlink,
                            _ => EntryType::File,
                        };
                        (name.into(), t)
                    })
                })
                .collect())
        }
        fn readlink(&self, rel: &str) -> io::Result<std::ffi::OsString> {
            Ok(self.nodes.iter().find(|(p, _, _)| *p == rel).map(|(_, _, t)| (*t).into()).unwrap_or_default())
        }
        fn read(&self, rel: &str) -> io::Result<Vec<u8>> {
            Ok(self.nodes.iter().find(|(p, _, _)| *p == rel).map(|(_, _, t)| t.as_bytes().to_vec()).unwrap_or_default())
        }
    }

    /// Links are followed inside the overlay, out of it to the disk and from the disk back in,
    /// with realpath(3)'s errors; reads never touch the disk inside the overlay's top.
    #[cfg(unix)]
    #[test]
    fn an_overlay_replaces_a_folder_and_links_cross_its_border() {
        let disk = tempfile::tempdir().unwrap();
        let disk_path = std::fs::canonicalize(disk.path()).unwrap().to_string_lossy().into_owned();
        let top = format!("{disk_path}/repo");
        // On disk the repository holds something else entirely.
        std::fs::create_dir_all(format!("{top}/skills/a")).unwrap();
        std::fs::write(format!("{top}/skills/a/SKILL.md"), "on disk").unwrap();
        std::fs::create_dir_all(format!("{disk_path}/outside")).unwrap();
        std::fs::write(format!("{disk_path}/outside/x.md"), "outside").unwrap();
        std::os::unix::fs::symlink(format!("{top}/skills"), format!("{disk_path}/home-link")).unwrap();
        let overlay = Mem {
            top: top.clone(),
            nodes: vec![
                ("skills", "dir", ""),
                ("skills/a", "dir", ""),
                ("skills/a/SKILL.md", "file", "in the tree"),
                ("skills/b", "link", "a"),
                ("skills/out", "link", "../../outside"),
                ("skills/loop", "link", "loop"),
                ("skills/file-link", "link", "a/SKILL.md"),
            ],
        };
        with_overlay(Some(std::sync::Arc::new(overlay)), || {
            assert_eq!(realpath(&format!("{top}/skills/b")).unwrap(), format!("{top}/skills/a"));
            assert_eq!(realpath(&format!("{top}/skills/out/x.md")).unwrap(), format!("{disk_path}/outside/x.md"));
            assert_eq!(realpath(&format!("{disk_path}/home-link/b")).unwrap(), format!("{top}/skills/a"));
            assert_eq!(realpath(&format!("{top}/skills/loop")).unwrap_err().code, "ELOOP");
            assert_eq!(realpath(&format!("{top}/skills/a/SKILL.md/x")).unwrap_err().code, "ENOTDIR");
            assert_eq!(realpath(&format!("{top}/nothing")).unwrap_err().code, "ENOENT");
            assert_eq!(stat(&format!("{top}/skills/file-link")).unwrap(), Stat::file(11));
            assert_eq!(probe(&format!("{top}/skills/b")).unwrap(), Some(Kind::Directory));
            let names: Vec<String> =
                readdir(&format!("{top}/skills")).unwrap().into_iter().filter_map(|e| e.name).collect();
            assert_eq!(names, ["a", "b", "file-link", "loop", "out"]);
            let mut text = String::new();
            use std::io::Read;
            open_follow(&format!("{disk_path}/home-link/b/SKILL.md")).unwrap().read_to_string(&mut text).unwrap();
            assert_eq!(text, "in the tree");
            let err = open_no_follow(&format!("{top}/skills/b")).err().unwrap();
            assert_eq!(errno_name(&err), "ELOOP");
            // Workers of the scan take the overlay along.
            let seen = crate::engine::discover::par_map(&[0; 64], |_| realpath(&format!("{top}/skills/b")).unwrap());
            assert!(seen.iter().all(|p| *p == format!("{top}/skills/a")));
        });
        // Outside the closure, the disk again.
        assert_eq!(realpath(&format!("{top}/skills/b")).unwrap_err().code, "ENOENT");
    }
}
