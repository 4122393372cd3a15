//! npm `yaml` 2.9.0's parsing pipeline, in Rust, stage for stage (see README.md for the map from
//! npm yaml's files to these modules). Written from npm yaml's source, which is ISC licensed.
//!
//! The stages work on byte offsets into the source; tokens are `(kind, start, end)` and the
//! concrete syntax tree lives in an arena, so no stage copies text or recurses on input depth.

pub mod lexer;
pub mod token;

pub use lexer::lex;
pub use token::{Kind, Token};
