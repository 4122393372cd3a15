//! The concrete syntax tree (npm yaml: `parse/cst.ts`). Nodes live in one arena (`Cst::nodes`)
//! and refer to each other by index; source tokens are `(kind, start, end, indent)`.
//!
//! npm yaml's optional properties map to `Option`s whose presence is what npm yaml tests:
//! `it.sep` is truthy for an empty list too, so `sep: Option<Vec<_>>`; an item's `key` is set
//! exactly when its `sep` is (both are assigned and deleted together), and `None` stands for both
//! npm yaml's `null` key and an absent one (npm yaml only tests its truthiness).

use crate::token::Kind;

pub type NodeId = u32;

/// A token as the parser keeps it (`SourceToken`): its type, byte range and the parser's
/// indentation when it was read. `Kind::Unknown` here is an error token (`Not a YAML token`), the
/// only kind of node npm yaml's parser can put among a block scalar's props.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceToken {
    pub kind: Kind,
    pub start: u32,
    pub end: u32,
    pub indent: u32,
}

impl SourceToken {
    /// npm yaml's `source`: the token's text, or for the lexer's zero-width markers the control
    /// character npm yaml's lexer yields for them (`\x02` doc-mode, `\x18` flow-error-end).
    pub fn source<'a>(&self, src: &'a str) -> &'a str {
        match self.kind {
            Kind::DocMode => "\u{2}",
            Kind::FlowErrorEnd => "\u{18}",
            _ => &src[self.start as usize..self.end as usize],
        }
    }
}

/// An item of a collection (`CollectionItem`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Item {
    pub start: Vec<SourceToken>,
    pub explicit_key: bool,
    pub key: Option<NodeId>,
    pub sep: Option<Vec<SourceToken>>,
    pub value: Option<NodeId>,
}

/// What an error token says (`ErrorToken.message`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorMessage {
    /// `Not a YAML token: ${source}`
    NotAToken,
    /// `Unexpected block-seq-ind on same line with key`
    SeqIndOnKeyLine,
    /// `Unexpected ${type} token in YAML stream`
    UnexpectedInStream(Kind),
    /// `Unexpected ${type} token in YAML document`
    UnexpectedInDocument(Kind),
}

impl ErrorMessage {
    /// The error token's `source`: its token's text, which for npm yaml's zero-width markers is
    /// the control character the lexer yields (`\x02` for doc-mode, `\x18` for flow-error-end).
    pub fn source(self, range: (u32, u32), src: &str) -> &str {
        match self {
            ErrorMessage::UnexpectedInStream(Kind::DocMode) | ErrorMessage::UnexpectedInDocument(Kind::DocMode) => {
                "\u{2}"
            }
            ErrorMessage::UnexpectedInStream(Kind::FlowErrorEnd)
            | ErrorMessage::UnexpectedInDocument(Kind::FlowErrorEnd) => "\u{18}",
            _ => &src[range.0 as usize..range.1 as usize],
        }
    }

    pub fn text(self, source: &str) -> String {
        match self {
            ErrorMessage::NotAToken => format!("Not a YAML token: {source}"),
            ErrorMessage::SeqIndOnKeyLine => "Unexpected block-seq-ind on same line with key".to_owned(),
            ErrorMessage::UnexpectedInStream(k) => format!("Unexpected {} token in YAML stream", k.name()),
            ErrorMessage::UnexpectedInDocument(k) => format!("Unexpected {} token in YAML document", k.name()),
        }
    }
}

/// A node of the tree (`Token` other than `SourceToken`). Offsets are byte offsets; `source` is
/// the byte range of the node's own text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Directive {
        source: (u32, u32),
    },
    Error {
        source: (u32, u32),
        message: ErrorMessage,
    },
    Document {
        offset: u32,
        start: Vec<SourceToken>,
        value: Option<NodeId>,
        end: Option<Vec<SourceToken>>,
    },
    DocEnd {
        source: (u32, u32),
        end: Option<Vec<SourceToken>>,
    },
    /// An alias, a plain scalar, or a single- or double-quoted scalar (`kind` says which).
    FlowScalar {
        kind: Kind,
        indent: u32,
        source: (u32, u32),
        end: Option<Vec<SourceToken>>,
    },
    BlockScalar {
        offset: u32,
        indent: u32,
        props: Vec<SourceToken>,
        source: (u32, u32),
    },
    BlockMap {
        offset: u32,
        indent: u32,
        items: Vec<Item>,
    },
    BlockSeq {
        offset: u32,
        indent: u32,
        items: Vec<Item>,
    },
    FlowCollection {
        offset: u32,
        indent: u32,
        start: SourceToken,
        items: Vec<Item>,
        end: Vec<SourceToken>,
    },
}

impl Node {
    /// `'indent' in token ? token.indent : undefined`
    pub fn indent(&self) -> Option<u32> {
        match *self {
            Node::FlowScalar { indent, .. }
            | Node::BlockScalar { indent, .. }
            | Node::BlockMap { indent, .. }
            | Node::BlockSeq { indent, .. }
            | Node::FlowCollection { indent, .. } => Some(indent),
            _ => None,
        }
    }

    /// `token.offset`
    pub fn offset(&self) -> u32 {
        match *self {
            Node::Directive { source, .. }
            | Node::Error { source, .. }
            | Node::DocEnd { source, .. }
            | Node::FlowScalar { source, .. } => source.0,
            Node::Document { offset, .. }
            | Node::BlockScalar { offset, .. }
            | Node::BlockMap { offset, .. }
            | Node::BlockSeq { offset, .. }
            | Node::FlowCollection { offset, .. } => offset,
        }
    }

    /// The items of a collection.
    pub fn items(&self) -> Option<&Vec<Item>> {
        match self {
            Node::BlockMap { items, .. } | Node::BlockSeq { items, .. } | Node::FlowCollection { items, .. } => {
                Some(items)
            }
            _ => None,
        }
    }

    pub(crate) fn items_mut(&mut self) -> Option<&mut Vec<Item>> {
        match self {
            Node::BlockMap { items, .. } | Node::BlockSeq { items, .. } | Node::FlowCollection { items, .. } => {
                Some(items)
            }
            _ => None,
        }
    }

    /// `Array.isArray(token.end) ? token.end : undefined`: a flow scalar's `end` once set, a
    /// flow collection's always.
    pub(crate) fn end_list_mut(&mut self) -> Option<&mut Vec<SourceToken>> {
        match self {
            Node::FlowScalar { end, .. } => end.as_mut(),
            Node::FlowCollection { end, .. } => Some(end),
            _ => None,
        }
    }

    /// `isFlowToken(token)`
    pub fn is_flow_token(&self) -> bool {
        matches!(self, Node::FlowScalar { .. } | Node::FlowCollection { .. })
    }
}

/// What the parser yields at the top level: a node, or a source token outside any document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Top {
    Node(NodeId),
    Token(SourceToken),
}

/// A parsed stream: the node arena and the top-level sequence (`Parser.parse`'s output).
#[derive(Clone, Debug, Default)]
pub struct Cst {
    pub nodes: Vec<Node>,
    pub top: Vec<Top>,
    /// Where the parser calls `onNewLine` (what npm yaml's `LineCounter` gets) besides after
    /// each newline token: after each `\n` of a scalar it makes a node of (bytes, in order).
    pub newlines: Vec<u32>,
}

impl Cst {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }
}
