//! `dsh-skills lsp` at the protocol level: the binary driven over stdio by a small client
//! (Content-Length framing, JSON-RPC), on skill trees in temporary directories.
//!
//! Waits are bounded (a hang fails the test naming what it waited for); nothing is timed.

#[path = "support.rs"]
mod support;

#[path = "lsp/client.rs"]
mod client;

#[path = "lsp/protocol.rs"]
mod protocol;

#[path = "lsp/hostile.rs"]
mod hostile;

#[path = "lsp/e2e.rs"]
mod e2e;
