//! The composed document: npm yaml's `Node` classes (`Scalar`, `YAMLMap`, `YAMLSeq`, `Alias`,
//! `Pair`) as an arena, and the errors and warnings of `onError` with their positions.

use crate::errors::ErrorCode;
use crate::js::JsStr;
use crate::schema::{Scalar, SchemaKind};

/// A scalar's style (npm yaml `Scalar.type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// Which class a collection is: a plain map or seq, or a yaml-1.1 collection tag's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollKind {
    Map,
    Seq,
    /// `!!set` (`YAMLSet`)
    Set,
    /// `!!omap` (`YAMLOMap`: items are pairs)
    Omap,
    /// `!!pairs` (items are pairs)
    Pairs,
}

#[derive(Debug)]
pub enum NodeKind {
    Scalar {
        value: Scalar,
        style: ScalarStyle,
        /// npm yaml `scalar.source`: the resolved string before the tag's `resolve`; empty when
        /// `value` is a string (it is that string)
        source: JsStr,
    },
    /// For `Omap`/`Pairs`, an item is a map (its first pair is the item's pair) or any other
    /// node (a pair with that key and no value), as `resolvePairs` makes them.
    Seq { items: Vec<usize>, kind: CollKind, flow: bool },
    /// `(key, value)`: `None` for a pair without value (`new Pair(key)`).
    Map { pairs: Vec<(usize, Option<usize>)>, kind: CollKind, flow: bool },
    /// `target`: the node `Alias.resolve` finds (the last node before it with that anchor).
    Alias { name: String, target: Option<usize> },
}

#[derive(Debug)]
pub struct DocNode {
    pub kind: NodeKind,
    pub anchor: Option<String>,
    /// the resolved tag name (`node.tag`)
    pub tag: Option<String>,
    /// `[start, valueEnd, nodeEnd]`, bytes
    pub range: [u32; 3],
    pub space_before: bool,
    pub comment_before: String,
    pub comment: String,
}

impl DocNode {
    pub fn is_collection(&self) -> bool {
        matches!(self.kind, NodeKind::Seq { .. } | NodeKind::Map { .. })
    }
}

/// One document of the stream, composed.
#[derive(Debug)]
pub struct Doc {
    pub nodes: Vec<DocNode>,
    /// `doc.contents`: a node, or `None` for a stream without documents
    pub root: Option<usize>,
    pub schema: SchemaKind,
    /// `doc.range`, bytes
    pub range: [u32; 3],
}

/// Where an error is, `getErrorPos` of `onError`'s first argument: `[start, end]`, `start` in
/// bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub start: u32,
    pub end: PosEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PosEnd {
    /// one code unit after `start` (an offset given alone, or a collection token)
    Next,
    /// a byte offset
    At(u32),
    /// `start` plus the UTF-16 length of `src[a..b]` (a block scalar token: its offset is the
    /// header's, its `source` the body)
    Len(u32, u32),
}

/// An error or warning before `prettifyError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub pos: Pos,
    pub code: ErrorCode,
    pub message: String,
    pub warning: bool,
}
