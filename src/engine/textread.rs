//! The reading stage: a skill file is opened, typed, read and decoded here, by one function
//! ([`read_skill_file`]) called once per file, and every failure comes out as the harness
//! reports it where it happens (Node's `Error: ENOENT: …`, `RangeError
//! [ERR_FS_FILE_TOO_LARGE]`, V8's string limit, the filesystem service's `FsError`).
//!
//! Two routes, as in the harness:
//! * the filesystem service (every root but the bundled one): `resolve` with `realpath`, a
//!   followed `stat`, then `readWholeText`: one BOM stripped, NUL in the first 8192 bytes or
//!   invalid UTF-8 refused (`FS_NOT_TEXT`, a warning);
//! * plain Node `readFile(path, 'utf8')` (the bundled root): BOM kept, invalid bytes replaced.
//!
//! The harness reads the whole file, so validation covers every byte. But only the frontmatter
//! is needed by commands that never print a body: the reader streams the file in chunks,
//! validates and measures all of it, and keeps only what the caller asks for ([`Keep`]) —
//! the frontmatter part of the text, all of it, or the raw bytes (lint). A 200 MB body then
//! costs a 64 KiB buffer.
//!
//! Node's own limits are reproduced: `readFile` refuses files over 2 GiB
//! (`ERR_FS_FILE_TOO_LARGE`), and V8 cannot hold a string of more than 0x1fffffe8 UTF-16 units.
//! Files are opened non-blocking and typed once open. Where Node would block (a FIFO, a device
//! with nothing to read yet) nothing more is read. On the plain-Node route a character or block
//! device is read as `readFile` reads a file of unknown size, until a read returns nothing
//! (`/dev/null` is the empty string) or V8's string limit (`/dev/zero`); at most
//! [`DEVICE_KEEP`] bytes of it are held.

use crate::engine::nodefs::{self, Kind, NodeError, ResolveError};
use std::borrow::Cow;
use std::io::Read;

/// `kIoMaxLength`: `readFile` throws above it.
pub const NODE_MAX_FILE: u64 = (1 << 31) - 1;
/// V8's maximum string length in UTF-16 units.
pub const V8_MAX_STRING: u64 = 0x1fff_ffe8;
/// NUL in this many leading bytes makes the filesystem service call a file binary.
pub const BINARY_SAMPLE_BYTES: usize = 8192;
const CHUNK: usize = 64 * 1024;
/// The most of a device's bytes dsh-skills holds. A device that ends after more than this (and
/// before V8's string limit, where the harness fails) is left unread ([`Unread::TooLong`]).
pub const DEVICE_KEEP: u64 = 16 << 20;

/// How the harness reaches a skill file.
#[derive(Clone, Copy, Debug)]
pub enum Route<'a> {
    /// Through the filesystem service. `key` is the real path the listing already resolved
    /// (its target key), when it did: then the path is not resolved again.
    Service { key: Option<&'a str> },
    /// Plain Node `readFile(path, 'utf8')`, following symlinks.
    Node,
}

/// What the caller keeps of a file that reads as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Only the text up to the end of the closing fence line ([`ReadOutcome::Text`]): every
    /// frontmatter decision comes out as on the whole text.
    Frontmatter,
    /// The whole text ([`ReadOutcome::Text`]).
    Whole,
    /// The file's bytes exactly as on disk, with their decoding ([`ReadOutcome::Bytes`]); a file
    /// refused as not text keeps its bytes too (lint points into them).
    Bytes,
}

/// How the skill file came out of the reading stage.
#[derive(Clone, Debug)]
pub enum ReadOutcome {
    /// The decoded text ([`Keep::Frontmatter`], [`Keep::Whole`]).
    Text(String),
    /// The bytes and their text ([`Keep::Bytes`]).
    Bytes(FileBytes),
    /// Absent or not a regular file: the harness drops it without a word.
    Silent(SilentReason),
    /// `FS_NOT_TEXT`: the harness warns and skips.
    NotText {
        warning: String,
        binary: bool,
        /// With [`Keep::Bytes`]: the file's bytes.
        bytes: Option<Vec<u8>>,
    },
    /// The harness would block here, or read more of a device than dsh-skills holds (plain
    /// Node route); dsh-skills does not read it (further).
    Unreadable { what: &'static str, why: Unread },
}

/// Why dsh-skills leaves a file unread that the harness reads ([`ReadOutcome::Unreadable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unread {
    /// The harness's read would wait: a FIFO, a device with nothing to read yet.
    WouldBlock,
    /// A device that gave more than [`DEVICE_KEEP`] bytes and then ended, short of V8's string
    /// limit: the harness reads all of it.
    TooLong,
}

impl Unread {
    /// What the harness does with the file, for messages: "the harness {…}".
    pub fn harness(self) -> &'static str {
        match self {
            Unread::WouldBlock => "would block reading it",
            Unread::TooLong => "would read all of it, more than dsh-skills holds of a device (16 MiB)",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SilentReason {
    /// ENOENT/ENOTDIR: no such file (a bundle without `SKILL.md`, a dangling link).
    Missing,
    /// It exists but is not a regular file (`SKILL.md` is a directory, a FIFO, a device).
    NotAFile(&'static str),
}

/// A failure that makes the harness's read throw past the provider's per-file handling: the
/// whole provider fails with `String(error)`, which [`Fatal`]'s `Display` renders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fatal {
    /// A failed system call (`Error: EACCES: permission denied, open '…'`).
    Node(NodeError),
    /// Over Node's 2 GiB `readFile` limit. Carries the size.
    TooLarge(u64),
    /// Another JavaScript error, as `String(error)` renders it (V8's string limit).
    Js(String),
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fatal::Node(e) => write!(f, "{e}"),
            Fatal::TooLarge(size) => {
                write!(f, "RangeError [ERR_FS_FILE_TOO_LARGE]: File size ({size}) is greater than 2 GiB")
            }
            Fatal::Js(text) => f.write_str(text),
        }
    }
}

/// A file's bytes, as text when they are UTF-8: validated once, when the file is read, instead
/// of by each reader of the bytes.
#[derive(Clone, Debug)]
pub enum Content {
    Text(String),
    Bytes(Vec<u8>),
}

impl From<Vec<u8>> for Content {
    fn from(bytes: Vec<u8>) -> Content {
        match String::from_utf8(bytes) {
            Ok(text) => Content::Text(text),
            Err(e) => Content::Bytes(e.into_bytes()),
        }
    }
}

impl Content {
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Content::Text(text) => text.as_bytes(),
            Content::Bytes(bytes) => bytes,
        }
    }

    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            Content::Text(text) => text.into_bytes(),
            Content::Bytes(bytes) => bytes,
        }
    }
}

/// A file's bytes as read, and how they decode ([`Keep::Bytes`]).
#[derive(Clone, Debug)]
pub struct FileBytes {
    content: Content,
    /// Decoded strictly (validated, one BOM stripped) rather than lossily.
    strict: bool,
}

impl FileBytes {
    /// The text the harness gets: after one BOM (strict) and borrowed, or with U+FFFD for
    /// invalid bytes and the BOM kept (plain Node).
    pub fn text(&self) -> Cow<'_, str> {
        match &self.content {
            Content::Text(text) if self.strict => Cow::Borrowed(text.strip_prefix('\u{FEFF}').unwrap_or(text)),
            Content::Text(text) => Cow::Borrowed(text),
            Content::Bytes(bytes) => String::from_utf8_lossy(bytes),
        }
    }

    pub fn into_content(self) -> Content {
        self.content
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.content.into_bytes()
    }
}

/// Read a skill file the way the harness reads it on `route` (`path` is the path it shows).
/// Every skill file is read by this function, once.
pub fn read_skill_file(path: &str, route: Route<'_>, keep: Keep) -> Result<ReadOutcome, Fatal> {
    match route {
        Route::Node => read_node(path, keep),
        Route::Service { key: Some(key) } => read_service_at(path, key, keep),
        Route::Service { key: None } => read_service(path, keep),
    }
}

/// A look at a file beside the scan (a near miss's `name`, the line numbers `show` prints): its
/// whole text, when it is a regular file of at most `limit` bytes of UTF-8. Read like every
/// skill file ([`read_skill_file`]): never blocks on a FIFO or a device.
pub fn read_text_beside(path: &str, limit: u64) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > limit {
        return None;
    }
    match read_skill_file(path, Route::Node, Keep::Bytes) {
        Ok(ReadOutcome::Bytes(file)) => String::from_utf8(file.into_bytes()).ok(),
        _ => None,
    }
}

/// Whether the file at `path` opens with a frontmatter fence (`---` and a line break, after a
/// byte order mark): a glance at a file beside the scan that may be a skill. A special file is
/// opened without blocking and never read.
pub fn starts_with_fence(path: &str) -> bool {
    let Ok(mut file) = nodefs::open_nonblocking(path) else { return false };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = [0u8; 8];
    let mut n = 0;
    while n < head.len() {
        match file.read(&mut head[n..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k,
        }
    }
    let head = &head[..n];
    let head = head.strip_prefix(b"\xef\xbb\xbf".as_slice()).unwrap_or(head);
    head.starts_with(b"---\n") || head.starts_with(b"---\r\n")
}

/// Plain Node: `open`, `fstat`, `read` of `path`; a directory fails with EISDIR, as Node does.
fn read_node(path: &str, keep: Keep) -> Result<ReadOutcome, Fatal> {
    let file = match nodefs::open_follow(path).map_err(|e| NodeError::from_io(&e, "open", path)) {
        Ok(file) => file,
        Err(e) if e.is_absent() => return Ok(ReadOutcome::Silent(SilentReason::Missing)),
        Err(e) => return Err(Fatal::Node(e)),
    };
    match read_open(file, path, false, keep) {
        Ok(Decoded::Text(text)) => Ok(ReadOutcome::Text(text)),
        Ok(Decoded::Bytes(bytes)) => Ok(ReadOutcome::Bytes(bytes)),
        Ok(Decoded::Binary(_) | Decoded::InvalidUtf8(_)) => unreachable!("lossy decoding refuses nothing"),
        Err(Failure::Node(e)) if e.is_absent() => Ok(ReadOutcome::Silent(SilentReason::Missing)),
        Err(Failure::Node(e)) => Err(Fatal::Node(e)),
        Err(Failure::Unread(what, why)) => Ok(ReadOutcome::Unreadable { what, why }),
        Err(Failure::Fatal(e)) => Err(e),
    }
}

/// The filesystem service (`readSkillTextFromFileSystem`): resolve, a followed `stat`, then
/// `readWholeText` of the real path.
fn read_service(path: &str, keep: Keep) -> Result<ReadOutcome, Fatal> {
    let target = match nodefs::resolve_target(path) {
        Ok(t) => t,
        Err(ResolveError::Node(e)) if !e.is_absent() => return Err(Fatal::Node(e)),
        Err(_) => return Ok(ReadOutcome::Silent(SilentReason::Missing)),
    };
    let meta = match nodefs::stat(&target) {
        Ok(stat) => stat,
        Err(e) if e.is_absent() => return Ok(ReadOutcome::Silent(SilentReason::Missing)),
        Err(e) => return Err(Fatal::Node(e)),
    };
    if let Some(silent) = not_a_file(&meta) {
        return Ok(silent);
    }
    match nodefs::open_follow(&target).map_err(|e| NodeError::from_io(&e, "open", &target)) {
        Ok(file) => service_text(path, read_open(file, &target, true, keep)),
        Err(e) => service_text(path, Err(Failure::Node(e))),
    }
}

/// [`read_service`] when the file's real path is already known from the listing (`key`). When
/// `key` is not a symlink its real path is itself and the type of the open file is the `stat`
/// the service would make; anything else takes the full route, so every error reads the same.
fn read_service_at(path: &str, key: &str, keep: Keep) -> Result<ReadOutcome, Fatal> {
    match nodefs::open_no_follow(key) {
        Ok(file) => match not_a_file(&file.stat) {
            Some(silent) => Ok(silent),
            None => service_text(path, read_open(file, key, true, keep)),
        },
        Err(e) if matches!(nodefs::errno_name(&e), "ENOENT" | "ENOTDIR") => {
            Ok(ReadOutcome::Silent(SilentReason::Missing))
        }
        // A symlink (ELOOP under O_NOFOLLOW), a permission problem, anything else: the full route.
        _ => read_service(path, keep),
    }
}

/// The service drops a directory or special file silently.
fn not_a_file(stat: &nodefs::Stat) -> Option<ReadOutcome> {
    match stat.kind {
        Kind::File => None,
        Kind::Directory => Some(ReadOutcome::Silent(SilentReason::NotAFile("a directory"))),
        Kind::Other => Some(ReadOutcome::Silent(SilentReason::NotAFile(stat.special))),
    }
}

/// The filesystem service's outcome for a strict read of the file shown as `path`.
fn service_text(path: &str, result: Result<Decoded, Failure>) -> Result<ReadOutcome, Fatal> {
    let not_text = |what: &str, bytes| ReadOutcome::NotText {
        warning: format!(
            "skill file {path} ignored: failed to read text file at {path}: FsError: cannot read \"{path}\": {what}"
        ),
        binary: what == "binary file",
        bytes,
    };
    match result {
        Ok(Decoded::Text(text)) => Ok(ReadOutcome::Text(text)),
        Ok(Decoded::Bytes(bytes)) => Ok(ReadOutcome::Bytes(bytes)),
        Ok(Decoded::Binary(bytes)) => Ok(not_text("binary file", bytes)),
        Ok(Decoded::InvalidUtf8(bytes)) => Ok(not_text("invalid UTF-8 text", bytes)),
        Err(Failure::Node(e)) if e.is_absent() => Ok(ReadOutcome::Silent(SilentReason::Missing)),
        Err(Failure::Node(e)) => Err(Fatal::Node(e)),
        // Swapped for a special file between stat and open: never read it.
        Err(Failure::Unread(what, _)) => Ok(ReadOutcome::Silent(SilentReason::NotAFile(what))),
        Err(Failure::Fatal(e)) => Err(e),
    }
}

/// What reading an open file produced, before the route decides what it means.
enum Decoded {
    Text(String),
    Bytes(FileBytes),
    /// Strict only: NUL in the first 8 KiB (the bytes with [`Keep::Bytes`]).
    Binary(Option<Vec<u8>>),
    /// Strict only: not UTF-8 (the bytes with [`Keep::Bytes`]).
    InvalidUtf8(Option<Vec<u8>>),
}

/// Why an open file gave no text.
enum Failure {
    /// What Node's `readFile` would have thrown (EISDIR on a directory, a failed `read`).
    Node(NodeError),
    /// Left unread: Node's `readFile` would block here (a FIFO, a device with nothing to read),
    /// or a device gave more than dsh-skills holds. Carries the kind.
    Unread(&'static str, Unread),
    /// Node's size limit or V8's string limit.
    Fatal(Fatal),
}

fn too_long() -> Failure {
    Failure::Fatal(Fatal::Js("Error: Cannot create a string longer than 0x1fffffe8 characters".into()))
}

/// Type, read and decode a file already open (its `stat` is its `fstat`; errors name
/// `err_path`): strictly (the service) or lossily (plain Node).
fn read_open(mut file: nodefs::OpenFile, err_path: &str, strict: bool, keep: Keep) -> Result<Decoded, Failure> {
    let meta = file.stat;
    match meta.kind {
        Kind::Directory => return Err(Failure::Node(NodeError { code: "EISDIR", syscall: "read", path: None })),
        Kind::Other if !strict && meta.device => return read_device(file, err_path, meta.special, keep),
        Kind::Other => return Err(Failure::Unread(meta.special, Unread::WouldBlock)),
        Kind::File => {}
    }
    if meta.len > NODE_MAX_FILE {
        return Err(Failure::Fatal(Fatal::TooLarge(meta.len)));
    }
    if keep == Keep::Bytes {
        let bytes =
            read_all_open(&mut file, &meta).map_err(|e| Failure::Node(NodeError::from_io(&e, "read", err_path)))?;
        if !strict {
            if over_v8_string_limit(&bytes) {
                return Err(too_long());
            }
            return Ok(Decoded::Bytes(FileBytes { content: bytes.into(), strict }));
        }
        let content = Content::from(bytes);
        return Ok(match decode_strict(&content) {
            Strict::Text => Decoded::Bytes(FileBytes { content, strict }),
            Strict::Binary => Decoded::Binary(Some(content.into_bytes())),
            Strict::InvalidUtf8 => Decoded::InvalidUtf8(Some(content.into_bytes())),
            Strict::TooLong => return Err(too_long()),
        });
    }
    let whole = keep == Keep::Whole;
    let mut kept: Vec<u8> = Vec::with_capacity(if whole { meta.len as usize + 1 } else { 4096 });
    let mut fence = FenceTracker::default();
    let mut validator = Utf8Stream::default();
    // One byte more than the file: a regular file that fills less than the buffer has ended,
    // so small files take a single read.
    let mut buf = vec![0u8; (meta.len as usize + 1).clamp(1, CHUNK)];
    let mut total: u64 = 0;
    let mut utf16_units: u64 = 0;
    let mut first = true;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Node(NodeError::from_io(&e, "read", err_path))),
        };
        let mut chunk = &buf[..n];
        if first {
            first = false;
            if strict {
                if memchr::memchr(0, &chunk[..chunk.len().min(BINARY_SAMPLE_BYTES)]).is_some() {
                    return Ok(Decoded::Binary(None));
                }
                // TextDecoder's default ignoreBOM: false removes one leading BOM.
                chunk = chunk.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(chunk);
            }
        } else if strict && total < BINARY_SAMPLE_BYTES as u64 {
            let head = (BINARY_SAMPLE_BYTES as u64 - total) as usize;
            if memchr::memchr(0, &chunk[..chunk.len().min(head)]).is_some() {
                return Ok(Decoded::Binary(None));
            }
        }
        total += n as u64;
        if strict && !validator.push(chunk) {
            return Ok(Decoded::InvalidUtf8(None));
        }
        utf16_units += utf16_len_of_utf8(chunk);
        if whole {
            kept.extend_from_slice(chunk);
        } else {
            let keep = fence.feed(chunk);
            kept.extend_from_slice(&chunk[..keep]);
        }
        if n < buf.len() && total >= meta.len {
            break; // a short read at the size fstat reported: end of file
        }
    }
    if strict && !validator.finish() {
        return Ok(Decoded::InvalidUtf8(None));
    }
    if utf16_units > V8_MAX_STRING {
        return Err(too_long());
    }
    let text = if strict {
        // Validated above, chunk by chunk.
        String::from_utf8(kept).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    } else {
        String::from_utf8_lossy(&kept).into_owned()
    };
    Ok(Decoded::Text(text))
}

/// A character or block device on the plain-Node route, read as Node 22's `readFile` reads a
/// file whose `fstat` is not a regular file's: 64 KiB at a time, each chunk appended to the
/// string (`result += decoder.write(buffer)`), until a read returns nothing. So `/dev/null` is
/// the empty string, and a device without end (`/dev/zero`) grows the string until V8 refuses
/// it: `RangeError: Invalid string length`, which fails the provider. dsh-skills reads as far
/// (fast for `/dev/zero`), holding at most [`DEVICE_KEEP`] bytes, whatever `keep` says, so
/// the verdict is the same for every [`Keep`]. The descriptor is non-blocking: a device with
/// nothing to read yet, where Node's read would wait, is left.
fn read_device(mut file: nodefs::OpenFile, err_path: &str, what: &'static str, keep: Keep) -> Result<Decoded, Failure> {
    let mut buf = vec![0u8; CHUNK];
    let mut kept = Vec::new();
    let mut fence = FenceTracker::default();
    let (mut total, mut utf16_units) = (0u64, 0u64);
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                return Err(Failure::Unread(what, Unread::WouldBlock));
            }
            Err(e) => return Err(Failure::Node(NodeError::from_io(&e, "read", err_path))),
        };
        let chunk = &buf[..n];
        total += n as u64;
        utf16_units += utf16_len_of_utf8(chunk);
        if utf16_units > V8_MAX_STRING {
            return Err(Failure::Fatal(Fatal::Js("RangeError: Invalid string length".into())));
        }
        if total <= DEVICE_KEEP {
            let keep = if keep == Keep::Frontmatter { fence.feed(chunk) } else { n };
            kept.extend_from_slice(&chunk[..keep]);
        }
    }
    if total > DEVICE_KEEP {
        return Err(Failure::Unread(what, Unread::TooLong));
    }
    Ok(match keep {
        Keep::Bytes => Decoded::Bytes(FileBytes { content: kept.into(), strict: false }),
        Keep::Frontmatter | Keep::Whole => Decoded::Text(String::from_utf8_lossy(&kept).into_owned()),
    })
}

/// All the bytes of a regular file already open (`meta` is its `fstat`). A read that comes
/// back short once the size `fstat` reported is reached is the end of the file, so a file that
/// does not grow meanwhile takes a single `read`.
fn read_all_open(file: &mut nodefs::OpenFile, meta: &nodefs::Stat) -> std::io::Result<Vec<u8>> {
    let size = meta.len as usize;
    let mut bytes = vec![0u8; size + 1];
    let mut filled = 0;
    loop {
        if filled == bytes.len() {
            bytes.resize(bytes.len() * 2, 0); // the file grew since fstat
        }
        let n = match file.read(&mut bytes[filled..]) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let short = filled + n < bytes.len();
        filled += n;
        if n == 0 || short && filled >= size {
            break;
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

/// [`decode_strict`]'s verdict.
#[derive(Debug, PartialEq, Eq)]
enum Strict {
    /// Valid UTF-8 after one leading BOM.
    Text,
    Binary,
    InvalidUtf8,
    /// Over V8's string limit.
    TooLong,
}

/// The strict decoding of bytes already in memory (and validated: [`Content`]), with the same
/// verdicts as the streaming read (NUL in the first 8 KiB, one BOM stripped, strict UTF-8,
/// V8's string limit).
fn decode_strict(content: &Content) -> Strict {
    let bytes = content.as_bytes();
    if memchr::memchr(0, &bytes[..bytes.len().min(BINARY_SAMPLE_BYTES)]).is_some() {
        return Strict::Binary;
    }
    match content {
        // A BOM is UTF-8 too: the text after it is valid when the whole is.
        Content::Text(text) if over_v8_string_limit(text.strip_prefix('\u{FEFF}').unwrap_or(text).as_bytes()) => {
            Strict::TooLong
        }
        Content::Text(_) => Strict::Text,
        Content::Bytes(_) => Strict::InvalidUtf8,
    }
}

/// Whether the bytes make more UTF-16 units than V8's longest string: counted only when they
/// could (a byte counts at most two units), not for every file.
fn over_v8_string_limit(bytes: &[u8]) -> bool {
    bytes.len() as u64 * 2 > V8_MAX_STRING && utf16_len_of_utf8(bytes) > V8_MAX_STRING
}

/// UTF-16 units of well-formed UTF-8 (an approximation for ill-formed input): one per
/// character, two for four-byte sequences.
fn utf16_len_of_utf8(bytes: &[u8]) -> u64 {
    bytes.iter().map(|&b| u64::from(b & 0xC0 != 0x80) + u64::from(b >= 0xF0)).sum()
}

/// Incremental strict UTF-8 validation across chunk boundaries.
#[derive(Default)]
struct Utf8Stream {
    carry: Vec<u8>,
}

impl Utf8Stream {
    /// `false` as soon as the bytes cannot be UTF-8.
    fn push(&mut self, chunk: &[u8]) -> bool {
        let mut data = std::mem::take(&mut self.carry);
        let bytes: &[u8] = if data.is_empty() {
            chunk
        } else {
            data.extend_from_slice(chunk);
            &data
        };
        match std::str::from_utf8(bytes) {
            Ok(_) => true,
            Err(e) if e.error_len().is_none() => {
                self.carry = bytes[e.valid_up_to()..].to_vec();
                true
            }
            Err(_) => false,
        }
    }

    fn finish(&self) -> bool {
        self.carry.is_empty()
    }
}

/// Tracks the frontmatter fences (spec 4.1) over a byte stream and says how much of each chunk
/// must be kept so that `split_frontmatter` on the kept prefix decides exactly as on the whole
/// text. Lines end at `\n`, which never occurs inside a multi-byte sequence.
#[derive(Default)]
struct FenceTracker {
    state: FenceState,
    /// The current, unfinished line.
    line: Vec<u8>,
}

#[derive(Default, PartialEq, Eq)]
enum FenceState {
    #[default]
    Opening,
    /// Inside the YAML, looking for the closing fence.
    Yaml,
    /// Decided: nothing more is needed.
    Done,
}

impl FenceTracker {
    /// How many bytes of `chunk` to keep.
    fn feed(&mut self, chunk: &[u8]) -> usize {
        let mut i = 0;
        while i < chunk.len() {
            match self.state {
                FenceState::Done => return i,
                FenceState::Opening | FenceState::Yaml => {
                    let nl = chunk[i..].iter().position(|&b| b == b'\n');
                    let end = nl.map_or(chunk.len(), |p| i + p);
                    // Only short lines can be a fence; do not buffer long ones.
                    if self.line.len() <= 4 {
                        self.line.extend_from_slice(&chunk[i..end.min(i + 5)]);
                    }
                    match nl {
                        Some(_) => {
                            let is_fence = matches!(self.line.as_slice(), b"---" | b"---\r");
                            self.line.clear();
                            i = end + 1;
                            self.state = match (&self.state, is_fence) {
                                (FenceState::Opening, true) => FenceState::Yaml,
                                (FenceState::Opening, false) => FenceState::Done,
                                (FenceState::Yaml, true) => FenceState::Done,
                                _ => FenceState::Yaml,
                            };
                        }
                        None => {
                            // A first line already too long to be `---`: no frontmatter.
                            if self.state == FenceState::Opening && self.line.len() > 4 {
                                self.state = FenceState::Done;
                                return chunk.len();
                            }
                            return chunk.len();
                        }
                    }
                }
            }
        }
        i
    }
}

/// The most a configuration file may hold (patch layers, presets, settings, the lint
/// configuration): far beyond any real one, small enough that a runaway file is refused before
/// it costs memory.
pub const CONFIG_MAX_BYTES: u64 = 16 << 20;

/// Why a configuration file was not read ([`read_config_file`]); `Display` names the file and
/// the real cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigReadError {
    /// A failed system call, in Node's words (`Error: EACCES: permission denied, open '…'`).
    Node(NodeError),
    /// A FIFO, socket or device that the user did not name on the command line: reading it
    /// would block, or never end.
    Special { path: String, kind: &'static str },
    /// More than the limit.
    TooLarge { path: String, limit: u64, size: Option<u64> },
}

impl std::fmt::Display for ConfigReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigReadError::Node(e) => write!(f, "{e}"),
            ConfigReadError::Special { path, kind } => write!(
                f,
                "{path} is a {kind}, not a regular file; dsh-skills does not read configuration from it (reading it \
                 could block or never end; name a pipe on the command line to read one)"
            ),
            ConfigReadError::TooLarge { path, limit, size } => {
                let size = size.map(|s| format!(" ({s} bytes)")).unwrap_or_default();
                write!(
                    f,
                    "{path} is larger than {} MiB{size}; dsh-skills does not read a configuration file that large",
                    limit >> 20
                )
            }
        }
    }
}

/// Read a configuration file, hardened: opened without blocking and typed before a byte is read
/// (a FIFO, socket or device is refused unless `explicit`, i.e. the user named this very file on
/// the command line, as `--patch <(cmd)` does: then it is read like `cat` would), and never more
/// than `limit` bytes (a file growing while read, a pipe, `/dev/zero` included). `Ok(None)`:
/// the file does not exist (ENOENT).
pub fn read_config_file(path: &str, explicit: bool, limit: u64) -> Result<Option<Vec<u8>>, ConfigReadError> {
    // A FIFO named on the command line is opened blocking, as `cat` opens it: the open waits for
    // its writer (opened without blocking, it would read as empty until the writer came). A
    // process substitution's pipe (`<(cmd)`) never waits.
    let named_fifo = explicit && {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo())
        }
        #[cfg(not(unix))]
        false
    };
    let open = |path: &str| if named_fifo { std::fs::File::open(path) } else { nodefs::open_nonblocking(path) };
    let opened = open(path)
        .map_err(|e| NodeError::from_io(&e, "open", path))
        .and_then(|file| file.metadata().map(|meta| (file, meta)).map_err(|e| NodeError::from_io(&e, "fstat", path)));
    let (file, meta) = match opened {
        Ok(opened) => opened,
        Err(e) if e.code == "ENOENT" => return Ok(None),
        Err(e) => return Err(ConfigReadError::Node(e)),
    };
    let too_large = |size| ConfigReadError::TooLarge { path: path.to_string(), limit, size };
    match Kind::of(&meta) {
        Kind::Directory => {
            return Err(ConfigReadError::Node(NodeError { code: "EISDIR", syscall: "read", path: None }));
        }
        Kind::File if meta.len() > limit => return Err(too_large(Some(meta.len()))),
        Kind::File => {}
        Kind::Other if explicit && !named_fifo => {
            // Named on the command line: read it as it comes, blocking.
            #[cfg(unix)]
            {
                use std::os::fd::AsRawFd;
                let fd = file.as_raw_fd();
                // SAFETY: fcntl on a descriptor this function owns.
                unsafe {
                    let flags = libc::fcntl(fd, libc::F_GETFL);
                    if flags >= 0 {
                        libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
                    }
                }
            }
        }
        Kind::Other if explicit => {}
        Kind::Other => {
            return Err(ConfigReadError::Special {
                path: path.to_string(),
                kind: nodefs::special_kind(&meta.file_type()),
            });
        }
    }
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ConfigReadError::Node(NodeError::from_io(&e, "read", path)))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(None));
    }
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::skillfile::split_frontmatter;

    fn kept(text: &[u8], chunk: usize) -> Vec<u8> {
        let mut t = FenceTracker::default();
        let mut out = Vec::new();
        for c in text.chunks(chunk) {
            let k = t.feed(c);
            out.extend_from_slice(&c[..k]);
        }
        out
    }

    #[test]
    fn read_all_open_reads_the_whole_file_even_when_it_grew_after_fstat() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.md");
        let p = path.to_str().unwrap();
        std::fs::write(&path, b"").unwrap();
        let mut f = nodefs::open_follow(p).unwrap();
        let meta = f.stat;
        assert_eq!(read_all_open(&mut f, &meta).unwrap(), b"");
        std::fs::write(&path, b"---\nname: a\n").unwrap();
        let mut f = nodefs::open_follow(p).unwrap();
        let meta = f.stat;
        assert_eq!(read_all_open(&mut f, &meta).unwrap(), b"---\nname: a\n");
        // Appended between fstat and read: the stale size must not cut the file short.
        let mut f = nodefs::open_follow(p).unwrap();
        let stale = f.stat;
        let big = "x".repeat(100_000);
        std::fs::write(&path, format!("---\nname: a\n{big}")).unwrap();
        assert_eq!(read_all_open(&mut f, &stale).unwrap().len(), 12 + big.len());
    }

    /// Every way of keeping a file gives the same verdict, on both routes, for every kind of
    /// node the harness can meet; the texts agree with the bytes.
    #[test]
    fn one_verdict_whatever_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
        let files: [(&str, &[u8]); 6] = [
            ("plain.md", b"---\nname: a\n---\nbody\n"),
            ("bom.md", b"\xEF\xBB\xBF---\nname: a\n---\nbody\n"),
            ("nul.md", b"---\nname: a\n---\n\0"),
            ("latin1.md", b"---\nname: caf\xe9\n---\n"),
            ("empty.md", b""),
            ("long.md", &[b'x'; 200_000]),
        ];
        for (name, bytes) in files {
            std::fs::write(at(name), bytes).unwrap();
        }
        std::fs::create_dir(at("dir.md")).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(at("plain.md"), at("link.md")).unwrap();
            std::os::unix::fs::symlink(at("nowhere"), at("dangling.md")).unwrap();
            let fifo = std::ffi::CString::new(at("fifo.md")).unwrap();
            assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
            std::os::unix::fs::symlink("/dev/null", at("null.md")).unwrap();
        }
        let verdict = |r: &Result<ReadOutcome, Fatal>| match r {
            Ok(ReadOutcome::Text(_) | ReadOutcome::Bytes(_)) => "text".to_string(),
            Ok(ReadOutcome::Silent(s)) => format!("{s:?}"),
            Ok(ReadOutcome::NotText { warning, .. }) => warning.clone(),
            Ok(ReadOutcome::Unreadable { what, why }) => format!("unreadable {what} {why:?}"),
            Err(e) => e.to_string(),
        };
        let names = ["plain.md", "bom.md", "nul.md", "latin1.md", "empty.md", "long.md", "dir.md", "link.md"];
        #[cfg(unix)]
        let names = [&names[..], &["dangling.md", "fifo.md", "missing.md", "null.md"]].concat();
        for name in names {
            let path = at(name);
            for route in [Route::Node, Route::Service { key: None }, Route::Service { key: Some(&path) }] {
                let read = |keep| read_skill_file(&path, route, keep);
                let (front, whole, bytes) = (read(Keep::Frontmatter), read(Keep::Whole), read(Keep::Bytes));
                assert_eq!(verdict(&front), verdict(&whole), "{name} {route:?}");
                assert_eq!(verdict(&whole), verdict(&bytes), "{name} {route:?}");
                if let (Ok(ReadOutcome::Text(text)), Ok(ReadOutcome::Bytes(file))) = (&whole, &bytes) {
                    assert_eq!(text, &*file.text(), "{name} {route:?}");
                }
            }
        }
        let service = |name: &str| verdict(&read_skill_file(&at(name), Route::Service { key: None }, Keep::Bytes));
        let node = |name: &str| verdict(&read_skill_file(&at(name), Route::Node, Keep::Bytes));
        assert!(service("nul.md").ends_with(": binary file"));
        assert!(service("latin1.md").ends_with(": invalid UTF-8 text"));
        assert_eq!(node("latin1.md"), "text");
        assert_eq!(service("dir.md"), "NotAFile(\"a directory\")");
        assert_eq!(node("dir.md"), "Error: EISDIR: illegal operation on a directory, read");
        #[cfg(unix)]
        {
            assert_eq!(service("fifo.md"), "NotAFile(\"FIFO\")");
            assert_eq!(node("fifo.md"), "unreadable FIFO WouldBlock");
            assert_eq!(service("dangling.md"), "Missing");
            // A character device: the service skips it; plain Node reads it to its end, and
            // /dev/null ends at once: the empty string.
            assert_eq!(service("null.md"), "NotAFile(\"character device\")");
            for keep in [Keep::Frontmatter, Keep::Whole] {
                let Ok(ReadOutcome::Text(text)) = read_skill_file(&at("null.md"), Route::Node, keep) else { panic!() };
                assert_eq!(text, "");
            }
            assert!(read_text_beside(&at("null.md"), 1 << 20).is_none(), "a glance reads no device");
        }
        let Ok(ReadOutcome::Text(front)) = read_skill_file(&at("bom.md"), Route::Node, Keep::Frontmatter) else {
            panic!()
        };
        assert!(front.starts_with('\u{feff}'), "plain Node keeps the BOM");
        // The glances beside the scan: text only from regular UTF-8 files, never blocking.
        assert!(read_text_beside(&at("plain.md"), 1 << 20).is_some());
        assert!(read_text_beside(&at("plain.md"), 4).is_none(), "over the limit");
        for name in ["latin1.md", "dir.md", "missing.md"] {
            assert!(read_text_beside(&at(name), 1 << 20).is_none(), "{name}");
        }
        assert!(starts_with_fence(&at("plain.md")) && starts_with_fence(&at("bom.md")));
        assert!(!starts_with_fence(&at("long.md")) && !starts_with_fence(&at("dir.md")));
        #[cfg(unix)]
        {
            assert!(read_text_beside(&at("fifo.md"), 1 << 20).is_none());
            assert!(!starts_with_fence(&at("fifo.md")));
        }
    }

    /// `/dev/zero` on the plain-Node route: the harness's `readFile` grows its string until V8
    /// refuses it and the provider fails; dsh-skills reads as far without holding it, and says the
    /// same whatever it keeps. The service skips the device.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_endless_device_fails_like_the_harness_without_being_held() {
        for keep in [Keep::Frontmatter, Keep::Bytes] {
            match read_skill_file("/dev/zero", Route::Node, keep) {
                Err(Fatal::Js(text)) => assert_eq!(text, "RangeError: Invalid string length"),
                other => panic!("{other:?}"),
            }
        }
        assert!(matches!(
            read_skill_file("/dev/zero", Route::Service { key: None }, Keep::Whole),
            Ok(ReadOutcome::Silent(SilentReason::NotAFile("character device")))
        ));
    }

    #[test]
    fn the_kept_prefix_splits_like_the_whole_text() {
        let cases: [&[u8]; 10] = [
            b"---\nname: a\n---\nbody\nmore body\n",
            b"---\r\nname: a\r\n---\r\nbody",
            b"---\nname: a\n---",
            b"---\nname: a\n",
            b"no frontmatter at all\n---\nx\n---\n",
            b"---",
            b"----\nx\n---\n",
            b"---\nd: |\n  ---\n---\nb\n---\nc",
            b"",
            b"--- \na\n---\n",
        ];
        for text in cases {
            for chunk in [1, 2, 3, 5, 64] {
                let k = kept(text, chunk);
                assert!(text.starts_with(&k));
                let whole = std::str::from_utf8(text).unwrap();
                let part = std::str::from_utf8(&k).unwrap();
                let (a, b) = (split_frontmatter(whole), split_frontmatter(part));
                assert_eq!(
                    a.as_ref().map(|f| &whole[f.yaml.clone()]).ok(),
                    b.as_ref().map(|f| &part[f.yaml.clone()]).ok(),
                    "{:?} chunk {chunk}",
                    String::from_utf8_lossy(text)
                );
                assert_eq!(a.is_err(), b.is_err());
            }
        }
        // A body is not kept.
        assert_eq!(kept(b"---\na: 1\n---\nbody body body\n", 4), b"---\na: 1\n---\n");
    }

    #[test]
    fn streaming_validation() {
        let mut v = Utf8Stream::default();
        let s = "é😀x".as_bytes();
        assert!(v.push(&s[..1]) && v.push(&s[1..4]) && v.push(&s[4..]) && v.finish());
        let mut v = Utf8Stream::default();
        assert!(!v.push(b"caf\xe9 au lait"));
        let mut v = Utf8Stream::default();
        assert!(v.push(b"ends in \xf0\x9f") && !v.finish());
        assert_eq!(utf16_len_of_utf8("a😀é".as_bytes()), 4);
    }
}
