//! `dsh-skills lsp` at the protocol level: the binary driven over stdio by a small client
//! (Content-Length framing, JSON-RPC), on skill trees in temporary directories.
//!
//! Waits are bounded (a hang fails the test naming what it waited for); nothing is timed.

use crate::support;

mod client;

mod protocol;

mod hostile;

mod e2e;
