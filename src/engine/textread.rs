//! Reading a skill file's text the way the harness does, in bounded memory.
//!
//! The harness reads the whole file and decodes it (strictly through its filesystem service,
//! lossily in the bundled root), so validation must cover every byte. But only the frontmatter
//! is needed by commands that never print a body: this reader streams the file in chunks,
//! validates and measures all of it, and keeps only what the caller needs — everything, or the
//! text up to the end of the closing fence line. A 200 MB body then costs a 64 KiB buffer.
//!
//! Node's own limits are reproduced: `readFile` refuses files over 2 GiB
//! (`ERR_FS_FILE_TOO_LARGE`), and V8 cannot hold a string of more than 0x1fffffe8 UTF-16 units.

pub use crate::engine::nodefs::{NODE_MAX_FILE, open_no_follow, read_all_open};
use crate::engine::nodefs::{NodeError, ReadError, open_nonblocking, special_kind};
use std::io::Read;

/// V8's maximum string length in UTF-16 units.
pub const V8_MAX_STRING: u64 = 0x1fff_ffe8;
/// NUL in this many leading bytes makes the filesystem service call a file binary.
pub const BINARY_SAMPLE_BYTES: usize = 8192;
const CHUNK: usize = 64 * 1024;

/// How the bytes become text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoding {
    /// The filesystem service: one BOM stripped, NUL in the first 8 KiB or invalid UTF-8 refused.
    Strict,
    /// Plain Node `readFile(path, 'utf8')`: BOM kept, invalid bytes become U+FFFD.
    Lossy,
}

/// The decoded text, or why the strict decoder refused it.
#[derive(Debug)]
pub enum Decoded {
    /// The text: the whole file, or (when only the frontmatter was asked for) a prefix that
    /// ends after the closing fence line, so every frontmatter decision comes out the same.
    Text(String),
    Binary,
    InvalidUtf8,
}

/// A failure Node reports with its own error class (`String(error)` text).
#[derive(Debug)]
pub enum TextError {
    Read(ReadError),
    /// E.g. `Error: Cannot create a string longer than 0x1fffffe8 characters`.
    Js(String),
}

/// Read and decode `io_path` (errors name `err_path`). With `whole` false, only the
/// frontmatter part of the text is kept; the rest is still read, validated and measured.
pub fn read_text(io_path: &str, err_path: &str, decoding: Decoding, whole: bool) -> Result<Decoded, TextError> {
    let node = |e: &std::io::Error, syscall| TextError::Read(ReadError::Node(NodeError::from_io(e, syscall, err_path)));
    let file = open_nonblocking(io_path).map_err(|e| node(&e, "open"))?;
    let meta = file.metadata().map_err(|e| node(&e, "fstat"))?;
    read_open(file, &meta, err_path, decoding, whole)
}

/// Open `path` itself, not following a final symlink (`ELOOP` if it is one), without blocking.
/// [`read_text`] on a file already open (`meta` is its `fstat`).
pub fn read_open(
    mut file: std::fs::File,
    meta: &std::fs::Metadata,
    err_path: &str,
    decoding: Decoding,
    whole: bool,
) -> Result<Decoded, TextError> {
    let node = |e: &std::io::Error, syscall| TextError::Read(ReadError::Node(NodeError::from_io(e, syscall, err_path)));
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(TextError::Read(ReadError::Node(NodeError { code: "EISDIR", syscall: "read", path: None })));
    }
    if !ft.is_file() {
        return Err(TextError::Read(ReadError::WouldBlock(special_kind(&ft))));
    }
    if meta.len() > NODE_MAX_FILE {
        return Err(TextError::Read(ReadError::TooLarge(meta.len())));
    }
    let mut kept: Vec<u8> = Vec::with_capacity(if whole { meta.len() as usize + 1 } else { 4096 });
    let mut fence = FenceTracker::default();
    let mut validator = Utf8Stream::default();
    // One byte more than the file: a regular file that fills less than the buffer has ended,
    // so small files take a single read.
    let mut buf = vec![0u8; (meta.len() as usize + 1).clamp(1, CHUNK)];
    let mut total: u64 = 0;
    let mut utf16_units: u64 = 0;
    let mut first = true;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(node(&e, "read")),
        };
        let mut chunk = &buf[..n];
        if first {
            first = false;
            if decoding == Decoding::Strict {
                if chunk[..chunk.len().min(BINARY_SAMPLE_BYTES)].contains(&0) {
                    return Ok(Decoded::Binary);
                }
                // TextDecoder's default ignoreBOM: false removes one leading BOM.
                chunk = chunk.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(chunk);
            }
        } else if decoding == Decoding::Strict && total < BINARY_SAMPLE_BYTES as u64 {
            let head = (BINARY_SAMPLE_BYTES as u64 - total) as usize;
            if chunk[..chunk.len().min(head)].contains(&0) {
                return Ok(Decoded::Binary);
            }
        }
        total += n as u64;
        if decoding == Decoding::Strict && !validator.push(chunk) {
            return Ok(Decoded::InvalidUtf8);
        }
        utf16_units += utf16_len_of_utf8(chunk);
        if whole {
            kept.extend_from_slice(chunk);
        } else {
            let keep = fence.feed(chunk);
            kept.extend_from_slice(&chunk[..keep]);
        }
        if n < buf.len() && total >= meta.len() {
            break; // a short read at the size fstat reported: end of file
        }
    }
    if decoding == Decoding::Strict && !validator.finish() {
        return Ok(Decoded::InvalidUtf8);
    }
    if utf16_units > V8_MAX_STRING {
        return Err(TextError::Js("Error: Cannot create a string longer than 0x1fffffe8 characters".into()));
    }
    let text = match decoding {
        // Validated above, chunk by chunk.
        Decoding::Strict => {
            String::from_utf8(kept).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        }
        Decoding::Lossy => String::from_utf8_lossy(&kept).into_owned(),
    };
    Ok(Decoded::Text(text))
}

/// [`decode_strict`]'s verdict: the text borrowed from the bytes, or why there is none.
#[derive(Debug, PartialEq, Eq)]
pub enum Strict<'a> {
    /// The text after one leading BOM.
    Text(&'a str),
    Binary,
    InvalidUtf8,
}

/// The strict decoding of bytes already in memory, with the same verdicts as [`read_text`]
/// (NUL in the first 8 KiB, one BOM stripped, strict UTF-8, V8's string limit).
pub fn decode_strict(bytes: &[u8]) -> Result<Strict<'_>, TextError> {
    if bytes[..bytes.len().min(BINARY_SAMPLE_BYTES)].contains(&0) {
        return Ok(Strict::Binary);
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(body) {
        Ok(_) if utf16_len_of_utf8(body) > V8_MAX_STRING => {
            Err(TextError::Js("Error: Cannot create a string longer than 0x1fffffe8 characters".into()))
        }
        Ok(text) => Ok(Strict::Text(text)),
        Err(_) => Ok(Strict::InvalidUtf8),
    }
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
        std::fs::write(&path, b"").unwrap();
        let mut f = std::fs::File::open(&path).unwrap();
        let meta = f.metadata().unwrap();
        assert_eq!(read_all_open(&mut f, &meta).unwrap(), b"");
        std::fs::write(&path, b"---\nname: a\n").unwrap();
        let mut f = std::fs::File::open(&path).unwrap();
        let meta = f.metadata().unwrap();
        assert_eq!(read_all_open(&mut f, &meta).unwrap(), b"---\nname: a\n");
        // Appended between fstat and read: the stale size must not cut the file short.
        let mut f = std::fs::File::open(&path).unwrap();
        let stale = f.metadata().unwrap();
        let big = "x".repeat(100_000);
        std::fs::write(&path, format!("---\nname: a\n{big}")).unwrap();
        assert_eq!(read_all_open(&mut f, &stale).unwrap().len(), 12 + big.len());
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
