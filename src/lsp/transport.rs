//! The base protocol's framing on a byte stream (`Content-Length: N\r\n\r\n` and N bytes of
//! JSON), read and written here rather than by `lsp-server`'s stdio transport, which allocates
//! whatever length a header declares (`Content-Length: 1000000000000000` aborted the process)
//! and logs a malformed body whole.
//!
//! * A header section is at most [`MAX_HEADER_BYTES`]; a body at most [`MAX_CONTENT_LENGTH`]
//!   (far beyond any buffer an editor sends), read as it arrives, so memory follows the bytes
//!   received, never the length declared. A header that breaks these rules is a framing error:
//!   the stream cannot be resynchronised, so the connection ends (the server exits cleanly, with
//!   status 1 as for a client gone without `shutdown`).
//! * A body that is not a JSON-RPC message, in a well-framed message, is logged (its first
//!   [`LOG_EXCERPT`] bytes, escaped) and skipped: the next frame is read.

use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};

/// The largest body accepted.
pub const MAX_CONTENT_LENGTH: u64 = 64 << 20;
/// The largest header section accepted (all header lines).
pub const MAX_HEADER_BYTES: usize = 8 << 10;
/// How much of a malformed body or header is shown in the log.
pub const LOG_EXCERPT: usize = 160;

/// Why the stream cannot go on.
#[derive(Debug)]
pub enum FramingError {
    /// A header line that is not `Name: value\r\n`, a header section over the limit, a
    /// `Content-Length` that is not a number, or none.
    Header(String),
    /// A `Content-Length` over [`MAX_CONTENT_LENGTH`].
    TooLarge(String),
    /// The input ended inside a message.
    Truncated {
        expected: u64,
        got: u64,
    },
    Io(io::Error),
}

impl std::fmt::Display for FramingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FramingError::Header(why) => write!(f, "malformed header: {why}"),
            FramingError::TooLarge(declared) => {
                write!(f, "Content-Length {declared} is over the limit of {MAX_CONTENT_LENGTH} bytes")
            }
            FramingError::Truncated { expected, got } => {
                write!(f, "the input ended inside a message ({got} of {expected} bytes)")
            }
            FramingError::Io(e) => write!(f, "cannot read the input: {e}"),
        }
    }
}

/// The first [`LOG_EXCERPT`] bytes of `bytes`, escaped for a log line, with how many were left
/// out.
pub fn excerpt(bytes: &[u8]) -> String {
    let cut = bytes.len().min(LOG_EXCERPT);
    let text: String = String::from_utf8_lossy(&bytes[..cut]).escape_debug().collect();
    if cut < bytes.len() { format!("\"{text}\"… ({} more bytes)", bytes.len() - cut) } else { format!("\"{text}\"") }
}

/// Read one frame's body. `Ok(None)`: the input ended between messages.
pub fn read_frame(r: &mut impl BufRead) -> Result<Option<Vec<u8>>, FramingError> {
    let mut length: Option<u64> = None;
    let mut header_bytes = 0usize;
    let mut line = Vec::new();
    loop {
        line.clear();
        let left = MAX_HEADER_BYTES.saturating_sub(header_bytes) as u64 + 1;
        let n = r.by_ref().take(left).read_until(b'\n', &mut line).map_err(FramingError::Io)?;
        if n == 0 {
            if header_bytes == 0 {
                return Ok(None);
            }
            return Err(FramingError::Header("the input ended inside the header".into()));
        }
        header_bytes += n;
        if header_bytes > MAX_HEADER_BYTES {
            return Err(FramingError::Header(format!("the header is longer than {MAX_HEADER_BYTES} bytes")));
        }
        let Some(content) = line.strip_suffix(b"\r\n") else {
            return Err(FramingError::Header(format!("a header line not ended by \\r\\n: {}", excerpt(&line))));
        };
        if content.is_empty() {
            break;
        }
        let Some(colon) = content.iter().position(|&b| b == b':') else {
            return Err(FramingError::Header(format!("not a `Name: value` line: {}", excerpt(content))));
        };
        let name = &content[..colon];
        let value = content[colon + 1..].trim_ascii();
        if name.eq_ignore_ascii_case(b"Content-Length") {
            if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
                return Err(FramingError::Header(format!("Content-Length is not a number: {}", excerpt(value))));
            }
            let digits = std::str::from_utf8(value).unwrap_or_default();
            match digits.parse::<u64>() {
                Ok(n) if n <= MAX_CONTENT_LENGTH => length = Some(n),
                _ => return Err(FramingError::TooLarge(excerpt(value).trim_matches('"').to_string())),
            }
        }
    }
    let Some(expected) = length else { return Err(FramingError::Header("no Content-Length".into())) };
    // Read as the bytes arrive: a lying header costs what was sent, not what it declared.
    let mut body = Vec::with_capacity(expected.min(64 << 10) as usize);
    r.by_ref().take(expected).read_to_end(&mut body).map_err(FramingError::Io)?;
    if (body.len() as u64) < expected {
        return Err(FramingError::Truncated { expected, got: body.len() as u64 });
    }
    Ok(Some(body))
}

/// What one frame held.
pub enum Frame {
    Message(Message),
    /// Not a JSON-RPC message: the log line that says so.
    Malformed(String),
}

/// Read one frame and decode it. `Ok(None)`: the input ended between messages.
pub fn read_message(r: &mut impl BufRead) -> Result<Option<Frame>, FramingError> {
    let Some(body) = read_frame(r)? else { return Ok(None) };
    Ok(Some(match serde_json::from_slice::<Message>(&body) {
        Ok(m) => Frame::Message(m),
        Err(e) => Frame::Malformed(format!(
            "dsh-skills lsp: ignored a malformed message of {} bytes ({e}): {}",
            body.len(),
            excerpt(&body)
        )),
    }))
}

/// The threads that move messages between the streams and a [`Connection`].
pub struct IoThreads {
    writer: std::thread::JoinHandle<()>,
}

impl IoThreads {
    /// Wait until everything sent was written (the connection's sender must be dropped first).
    /// The reader is not waited for: it stops at `exit`, at the end of the input or at a framing
    /// error, and is otherwise blocked reading input nobody will send.
    pub fn join(self) {
        let _ = self.writer.join();
    }
}

/// A connection over `input` and `output`; `log` receives the lines about bad input.
pub fn connect(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    log: impl Fn(&str) + Send + 'static,
) -> (Connection, IoThreads) {
    let (to_server, receiver) = crossbeam_channel::bounded::<Message>(0);
    let (sender, from_server) = crossbeam_channel::bounded::<Message>(0);
    let mut input = input;
    let spawned = std::thread::Builder::new().name("dsh-skills lsp input".into()).spawn(move || {
        loop {
            match read_message(&mut input) {
                Ok(Some(Frame::Message(m))) => {
                    let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                    if to_server.send(m).is_err() || exit {
                        break;
                    }
                }
                Ok(Some(Frame::Malformed(line))) => log(&line),
                Ok(None) => break,
                Err(e) => {
                    log(&format!("dsh-skills lsp: {e}; closing the connection"));
                    break;
                }
            }
        }
    });
    drop(spawned);
    let mut output = output;
    let writer = std::thread::Builder::new()
        .name("dsh-skills lsp output writer".into())
        .spawn(move || {
            for m in from_server {
                if m.write(&mut output).is_err() {
                    break;
                }
            }
        })
        .expect("a thread for the language server's output");
    (Connection { sender, receiver }, IoThreads { writer })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut v = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        v.extend_from_slice(body);
        v
    }

    #[test]
    fn a_huge_declared_length_is_a_framing_error_not_an_allocation() {
        for declared in ["1000000000000000", "2000000000", "99999999999999999999999999", "67108865"] {
            let input = format!("Content-Length: {declared}\r\n\r\n{{}}");
            let e = read_frame(&mut input.as_bytes()).unwrap_err();
            assert!(matches!(e, FramingError::TooLarge(_)), "{declared}: {e}");
        }
        // At the limit, a short input is a truncated message, after reading only what came.
        let input = format!("Content-Length: {MAX_CONTENT_LENGTH}\r\n\r\n{{}}");
        let e = read_frame(&mut input.as_bytes()).unwrap_err();
        assert!(matches!(e, FramingError::Truncated { got: 2, .. }), "{e}");
    }

    #[test]
    fn header_rules() {
        let bad = |s: &str| read_frame(&mut s.as_bytes()).unwrap_err().to_string();
        assert!(bad("Content-Length: 2\n\n{}").contains("not ended by"));
        assert!(bad("Content-Length: -2\r\n\r\n{}").contains("not a number"));
        assert!(bad("Content-Type: x\r\n\r\n{}").contains("no Content-Length"));
        assert!(bad("garbage\r\n\r\n").contains("not a `Name: value` line"));
        assert!(bad(&format!("X: {}\r\n", "a".repeat(MAX_HEADER_BYTES))).contains("longer than"));
        let ok = "content-length:2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}";
        assert_eq!(read_frame(&mut ok.as_bytes()).unwrap().unwrap(), b"{}");
        assert!(read_frame(&mut "".as_bytes()).unwrap().is_none());
    }

    #[test]
    fn a_malformed_body_is_logged_truncated() {
        let body = format!("{{\"jsonrpc\": \"2.0\", \"x\": \"{}\"", "\u{1b}[31m".repeat(10_000));
        let Some(Frame::Malformed(line)) = read_message(&mut frame(body.as_bytes()).as_slice()).unwrap() else {
            panic!()
        };
        assert!(line.len() < 2 * LOG_EXCERPT + 200, "{line}");
        assert!(!line.contains('\u{1b}'), "{line}");
        assert!(line.contains("more bytes"), "{line}");
    }

    fn message() -> impl Strategy<Value = Message> {
        let text = "[\\PC\u{0}-\u{1f}\"\\\\]{0,40}";
        prop_oneof![
            (any::<i32>(), text, text).prop_map(|(id, method, p)| {
                Message::Request(lsp_server::Request::new(id.into(), method, serde_json::json!({ "p": p })))
            }),
            (text, text).prop_map(|(method, p)| {
                Message::Notification(lsp_server::Notification::new(method, serde_json::json!([p])))
            }),
        ]
    }

    proptest! {
        /// Frames written by `lsp-server` read back as the same messages, however the input is
        /// cut into reads.
        #[test]
        fn frames_round_trip(msgs in proptest::collection::vec(message(), 0..8), chunk in 1usize..64) {
            let mut bytes = Vec::new();
            for m in &msgs {
                m.clone().write(&mut bytes).unwrap();
            }
            let mut input = io::BufReader::with_capacity(chunk, bytes.as_slice());
            for m in &msgs {
                let Some(Frame::Message(got)) = read_message(&mut input).unwrap() else { panic!() };
                prop_assert_eq!(serde_json::to_value(&got).unwrap(), serde_json::to_value(m).unwrap());
            }
            prop_assert!(read_message(&mut input).unwrap().is_none());
        }

        /// Any input ends: in messages, malformed bodies, a framing error or the end, never a
        /// panic, and no frame is longer than the input.
        #[test]
        fn any_input_is_framed_or_refused(bytes in proptest::collection::vec(any::<u8>(), 0..512), prefix in "(Content-Length: ?[0-9]{0,22}\r\n)?(\r\n)?") {
            let mut all = prefix.into_bytes();
            all.extend_from_slice(&bytes);
            let total = all.len();
            let mut input = all.as_slice();
            for _ in 0..=total {
                match read_frame(&mut input) {
                    Ok(Some(body)) => prop_assert!(body.len() <= total),
                    Ok(None) | Err(_) => break,
                }
            }
        }

        /// A frame whose declared length is any number is read to exactly that many bytes or
        /// refused; the bytes after it stay for the next frame.
        #[test]
        fn declared_lengths(declared in any::<u64>(), body in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut input = format!("Content-Length: {declared}\r\n\r\n").into_bytes();
            input.extend_from_slice(&body);
            input.extend_from_slice(&frame(b"{}"));
            let mut r = input.as_slice();
            let rest = (body.len() + frame(b"{}").len()) as u64;
            match read_frame(&mut r) {
                Ok(Some(got)) => {
                    prop_assert_eq!(got.len() as u64, declared);
                    prop_assert!(declared <= rest);
                    if declared == body.len() as u64 {
                        prop_assert_eq!(read_frame(&mut r).unwrap().unwrap(), b"{}".to_vec());
                    }
                }
                Ok(None) => prop_assert!(false, "the header was there"),
                Err(FramingError::TooLarge(_)) => prop_assert!(declared > MAX_CONTENT_LENGTH),
                Err(FramingError::Truncated { .. }) => prop_assert!(declared > rest && declared <= MAX_CONTENT_LENGTH),
                Err(e) => prop_assert!(false, "{}", e),
            }
        }
    }
}
