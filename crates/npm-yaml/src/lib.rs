//! npm `yaml` 2.9.0's parsing pipeline, in Rust, stage for stage (see README.md for the map from
//! npm yaml's files to these modules). Written from npm yaml's source, which is ISC licensed.
//!
//! The stages work on byte offsets into the source; tokens are `(kind, start, end)`, the
//! concrete syntax tree and the composed document live in arenas. [`api::parse`] is
//! `YAML.parse(src)`: the JS value and warnings, or what it throws with `String(e)` exact.
//! The lexer, the parser and `toJS` never recurse on input depth; the composer does, to npm
//! yaml's own depth limit (deep input gets a thread of its own, see `api.rs`).

pub mod aliases;
pub mod api;
pub mod compose;
pub mod cst;
pub mod errors;
pub mod js;
pub mod jsstr;
pub mod keystr;
pub mod lexer;
pub mod parser;
pub mod pretty;
pub mod schema;
pub mod schema11;
pub mod tojs;
pub mod token;

pub use cst::{Cst, Item, Node, NodeId, SourceToken, Top};
pub use lexer::lex;
pub use parser::parse;
pub use token::{Kind, Token};
