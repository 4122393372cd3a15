//! dsh-skills: the DeepSeek Harness skill discovery, reproduced byte for byte, and the tools
//! a skill author needs around it.
//!
//! The folders are the layers, lowest first; each may use the ones before it, never one after
//! it (a test, `architecture`, checks it):
//!
//! 1. [`engine`] — the harness's discovery: roots → Node filesystem semantics → listing →
//!    reading → frontmatter → YAML → candidates → registry → snapshot → catalog and skill
//!    content, with the harness's configuration reader beside it.
//! 2. [`analysis`] — facts derived from a discovery: why a copy wins, unscanned folders,
//!    references in a body, close-name suggestions.
//! 3. [`lint`] — rules, suppressions and fixes over the same pipeline.
//! 4. [`render`] — human views, JSON documents and their schemas, lint's formats, terminal
//!    escaping.
//! 5. [`cli`] — the command line's definition (clap).
//! 6. [`commands`] — one file per command: compute, hand the value to a renderer, write it
//!    through [`commands::Io`], which `main` connects to the real streams.
//! 7. [`lsp`] — `dsh-skills lsp`, the language server: lint's pass on an editor's buffer,
//!    hover, completion, code actions, links and lenses, over stdin/stdout (its own streams).
//!
//! [`error`] holds the one error type every layer may raise, [`textsafe`] the escaping of
//! skill-file text for a terminal that every layer's messages use. The library never prints.
#![warn(clippy::print_stdout, clippy::print_stderr)]

#[cfg(test)]
mod architecture;

pub mod analysis;
pub mod cli;
pub mod commands;
pub mod engine;
pub mod error;
pub mod lint;
pub mod lsp;
pub mod render;
pub mod textsafe;
