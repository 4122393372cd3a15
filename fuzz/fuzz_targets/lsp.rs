//! The language server's input side on arbitrary bytes: the base protocol's framing
//! (`lsp::transport`, headers, `Content-Length` limits) read to the end of the input as stdin
//! would be, in reads of a size the input chooses; then each decoded message handled as the
//! message loop handles it, on one thread (`Shared::detached`): notifications keep the
//! documents (incremental edits at any position), the documents they queue are linted
//! (`features::diagnostics`), requests are answered (`features::request`).
//!
//! Input: a flag byte (bit 0: UTF-8 positions rather than UTF-16; the rest: the read size),
//! then the stream.
#![no_main]
use dsh_skills::engine::catalog::DEFAULT_DESCRIPTION_MAX_LENGTH;
use dsh_skills::engine::discover::{Environment, ProviderConfig};
use dsh_skills::engine::snapshot::Settings;
use dsh_skills::lint::run::Options;
use dsh_skills::lsp::server::{self, Shared};
use dsh_skills::lsp::text::Encoding;
use dsh_skills::lsp::transport::{self, Frame, FramingError, LOG_EXCERPT};
use dsh_skills::lsp::{Context, features};
use libfuzzer_sys::fuzz_target;
use lsp_server::Message;
use std::io::BufReader;
use std::sync::mpsc;

fn context() -> Context {
    let env = Environment {
        process_cwd: "/nonexistent-dsh-skills-fuzz".into(),
        home: "/nonexistent-dsh-skills-fuzz/home".into(),
        dsh_home: None,
        agents_home: None,
        bundled_skill_dir: None,
    };
    let settings = Settings::single(None, ProviderConfig::default(), DEFAULT_DESCRIPTION_MAX_LENGTH, "en-US".into());
    Context { settings, env, opts: Options { config: Default::default(), compat: Vec::new() }, problems: Vec::new() }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, stream)) = data.split_first() else { return };
    let encoding = if flags & 1 != 0 { Encoding::Utf8 } else { Encoding::Utf16 };
    let chunk = 1 + (flags >> 1) as usize;
    let mut input = BufReader::with_capacity(chunk, stream);
    let shared = Shared::detached(context(), encoding);
    let (diag_tx, diag_rx) = mpsc::channel::<String>();
    let (disc_tx, _disc_rx) = mpsc::channel::<()>();
    // Every frame consumes at least its header's `\r\n\r\n`: the loop ends.
    for _ in 0..=stream.len() {
        match transport::read_message(&mut input) {
            Ok(Some(Frame::Message(m))) => match m {
                Message::Notification(n) => {
                    let exit = n.method == "exit";
                    server::notification(&shared, n, &diag_tx, &disc_tx);
                    for key in diag_rx.try_iter() {
                        if let Some(doc) = shared.doc(&key) {
                            let _ = features::diagnostics(&shared, &doc);
                        }
                    }
                    if exit {
                        break;
                    }
                }
                Message::Request(r) => {
                    let uri = r.params.get("textDocument").and_then(|t| t.get("uri")).and_then(|u| u.as_str());
                    let doc = uri.and_then(|u| shared.doc(u));
                    let _ = features::request(&shared, r, doc);
                }
                Message::Response(_) => {}
            },
            Ok(Some(Frame::Malformed(line))) => {
                // Truncated and escaped: no control character of the body reaches the log, and
                // the line is bounded whatever the body's size (an escape is at most 6 bytes a
                // byte of the excerpt, e.g. `\u{1}`).
                assert!(line.len() < 6 * LOG_EXCERPT + 400, "{line}");
                assert!(!line.chars().any(|c| c.is_control()), "{line}");
            }
            Ok(None) => break,
            Err(e) => {
                if let FramingError::Truncated { expected, got } = e {
                    assert!(got < expected && got <= stream.len() as u64);
                }
                let _ = e.to_string();
                break;
            }
        }
    }
});
