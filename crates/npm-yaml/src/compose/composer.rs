//! `composer.ts`, `compose-doc.ts`, `compose-node.ts`, `compose-scalar.ts`,
//! `compose-collection.ts`, `resolve-props.ts`, `resolve-block-map.ts`, `resolve-block-seq.ts`,
//! `resolve-flow-collection.ts`, the `util-*.ts` helpers and `doc/directives.ts`: the CST of one
//! stream to its first document's node tree, with npm yaml's errors and warnings in npm yaml's
//! order.
//!
//! Collections nest as the CST does; where npm yaml recurses on them, the composer keeps a
//! stack of [`Frame`]s, to the depth npm yaml itself reaches (a collection deeper than
//! [`COST_LIMIT`] allows is npm yaml's `RESOURCE_EXHAUSTION` "Maximum call stack size
//! exceeded", caught in `composeNode`).

use std::collections::HashMap;

use super::doc::{CollKind, Diag, Doc, DocNode, NodeKind, Pos, PosEnd, ScalarStyle};
use super::resolve_block_scalar::resolve_block_scalar;
use super::resolve_end::resolve_end;
use super::resolve_flow_scalar::resolve_flow_scalar;
use super::{ResolvedScalar, ScalarType};
use crate::cst::{Cst, Item, Node, NodeId, SourceToken, Top};
use crate::errors::{ErrorAt, ErrorCode, Errors};
use crate::js::JsStr;
use crate::jsstr::JsString;
use crate::schema::{Scalar, SchemaKind, TagResolution, YAML_PREFIX};
use crate::token::Kind;

/// npm yaml's stack depth in `composeNode` -> `composeCollection` -> `resolve*`, measured on
/// Node 22 with its default stack: a flow collection costs 1/936 of it, a block map 1/1499, a
/// block sequence 1/1874 (the engine's `src/engine/yaml/compose.rs` uses the same model).
const COST_FLOW: f64 = 1.0 / 936.0;
const COST_BLOCK_MAP: f64 = 1.0 / 1499.0;
const COST_BLOCK_SEQ: f64 = 1.0 / 1874.0;
pub const COST_LIMIT: f64 = 1.05;

/// What follows a props list (`next` of `resolveProps`): a CST node or a token.
#[derive(Clone, Copy)]
enum Next {
    None,
    Tok(SourceToken),
    Node(NodeId),
}

#[derive(Default)]
struct Props {
    comma: Option<SourceToken>,
    found: Option<SourceToken>,
    space_before: bool,
    comment: String,
    has_newline: bool,
    anchor: Option<SourceToken>,
    tag: Option<SourceToken>,
    newline_after_prop: Option<SourceToken>,
    end: u32,
    start: u32,
}

struct PropsOpts<'a> {
    flow: Option<&'a str>,
    indicator: Kind,
    next: Next,
    offset: u32,
    parent_indent: u32,
    start_on_newline: bool,
}

/// `doc/directives.ts`: the stream's `%YAML` and `%TAG` state.
#[derive(Clone)]
struct Directives {
    version_11: bool,
    explicit: bool,
    /// `%TAG` handles and prefixes (`!!` is `tag:yaml.org,2002:` unless one says otherwise)
    tags: Vec<(String, String)>,
    at_next_document: bool,
}

impl Directives {
    fn new() -> Self {
        Directives { version_11: false, explicit: false, tags: Vec::new(), at_next_document: false }
    }

    /// `atDocument()`: the document's copy, and the stream's state for the next document.
    fn at_document(&mut self) -> Directives {
        let res = Directives { at_next_document: false, ..self.clone() };
        if self.version_11 {
            self.at_next_document = true;
        } else {
            self.at_next_document = false;
            self.explicit = false;
            self.tags.clear();
        }
        res
    }

    /// `add(line, onError)`: `on_error(offset in line, message, warning)`.
    fn add(&mut self, line: &str, on_error: &mut dyn FnMut(u32, String, bool)) {
        if self.at_next_document {
            self.explicit = false;
            self.version_11 = true;
            self.tags.clear();
            self.at_next_document = false;
        }
        let trimmed = js_trim(line);
        let mut parts: Vec<&str> = trimmed.split([' ', '\t']).filter(|p| !p.is_empty()).collect();
        if trimmed.is_empty() {
            parts = vec![""];
        }
        let name = parts.remove(0);
        match name {
            "%TAG" => {
                if parts.len() != 2 {
                    on_error(0, "%TAG directive should contain exactly two parts".into(), false);
                    if parts.len() < 2 {
                        return;
                    }
                }
                let (handle, prefix) = (parts[0].to_string(), parts[1].to_string());
                match self.tags.iter_mut().find(|(h, _)| *h == handle) {
                    Some(t) => t.1 = prefix,
                    None => self.tags.push((handle, prefix)),
                }
            }
            "%YAML" => {
                self.explicit = true;
                if parts.len() != 1 {
                    on_error(0, "%YAML directive should contain exactly one part".into(), false);
                    return;
                }
                match parts[0] {
                    "1.1" => self.version_11 = true,
                    "1.2" => self.version_11 = false,
                    v => {
                        let valid = v.split_once('.').is_some_and(|(a, b)| {
                            !a.is_empty()
                                && !b.is_empty()
                                && a.bytes().all(|c| c.is_ascii_digit())
                                && b.bytes().all(|c| c.is_ascii_digit())
                        });
                        on_error(6, format!("Unsupported YAML version {v}"), valid);
                    }
                }
            }
            _ => on_error(0, format!("Unknown directive {name}"), true),
        }
    }

    /// `tagName(source, onError)`
    fn tag_name(&self, source: &str, on_error: &mut dyn FnMut(String)) -> Option<String> {
        if source == "!" {
            return Some("!".into());
        }
        if !source.starts_with('!') {
            on_error(format!("Not a valid tag: {source}"));
            return None;
        }
        if source.as_bytes().get(1) == Some(&b'<') {
            // `source.slice(2, -1)`, in UTF-16 units: the last unit goes even if it is half a pair
            let units: Vec<u16> = source.encode_utf16().collect();
            let verbatim =
                if units.len() > 3 { String::from_utf16_lossy(&units[2..units.len() - 1]) } else { String::new() };
            if verbatim == "!" || verbatim == "!!" {
                on_error(format!("Verbatim tags aren't resolved, so {source} is invalid."));
                return None;
            }
            if !source.ends_with('>') {
                on_error("Verbatim tags must end with a >".into());
            }
            return Some(verbatim);
        }
        let cut = source.rfind('!').unwrap_or(0) + 1;
        let (handle, suffix) = source.split_at(cut);
        if suffix.is_empty() {
            on_error(format!("The {source} tag has no suffix"));
        }
        let prefix = match self.tags.iter().find(|(h, _)| h == handle) {
            Some((_, p)) => Some(p.as_str()),
            None if handle == "!!" => Some(YAML_PREFIX),
            None => None,
        };
        if let Some(prefix) = prefix
            && !prefix.is_empty()
        {
            return match decode_uri_component(suffix) {
                Some(s) => Some(format!("{prefix}{s}")),
                None => {
                    on_error("URIError: URI malformed".into());
                    None
                }
            };
        }
        if handle == "!" {
            return Some(source.to_string());
        }
        on_error(format!("Could not resolve tag: {source}"));
        None
    }
}

/// JavaScript's `String.prototype.trim` (white space and line terminators).
fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| {
        matches!(
            c,
            '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
                ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
        )
    })
}

/// `decodeURIComponent`; `None` where it throws `URIError: URI malformed`.
fn decode_uri_component(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    while i < b.len() {
        if b[i] != b'%' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let byte = |at: usize| -> Option<u8> {
            if b.get(at) != Some(&b'%') {
                return None;
            }
            Some(hex(*b.get(at + 1)?)? * 16 + hex(*b.get(at + 2)?)?)
        };
        let first = byte(i)?;
        let n = match first {
            0x00..=0x7F => 1,
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return None,
        };
        let mut seq = vec![first];
        for k in 1..n {
            let c = byte(i + 3 * k)?;
            if c & 0xC0 != 0x80 {
                return None;
            }
            seq.push(c);
        }
        let ch = std::str::from_utf8(&seq).ok()?;
        out.extend_from_slice(ch.as_bytes());
        i += 3 * n;
    }
    String::from_utf8(out).ok()
}

/// The key of a scalar for `mapIncludes` (`a.value === b.value`); `None` for values equal to
/// nothing else (NaN, objects, merge symbols).
#[derive(Hash, PartialEq, Eq)]
enum DupKey {
    Null,
    Bool(bool),
    Num(u64),
    Str(JsStr),
}

fn dup_key(v: &Scalar) -> Option<DupKey> {
    Some(match v {
        Scalar::Null => DupKey::Null,
        Scalar::Bool(b) => DupKey::Bool(*b),
        Scalar::Number(x) if x.is_nan() => return None,
        Scalar::Number(x) => DupKey::Num(if *x == 0.0 { 0 } else { x.to_bits() }),
        Scalar::Str(s) => DupKey::Str(s.clone()),
        _ => return None,
    })
}

/// `a.value === b.value` of two scalar keys (`mapIncludes`).
fn same_key(a: &Scalar, b: &Scalar) -> bool {
    match (a, b) {
        (Scalar::Null, Scalar::Null) => true,
        (Scalar::Bool(x), Scalar::Bool(y)) => x == y,
        (Scalar::Number(x), Scalar::Number(y)) => x == y,
        (Scalar::Str(x), Scalar::Str(y)) => x == y,
        _ => false,
    }
}

/// The scalar keys of a map so far, for `mapIncludes`: a scan while the map is small, a hash
/// index from [`KeySet::INDEX_FROM`] keys on (a map of 200,000 keys stays linear).
#[derive(Default)]
struct KeySet {
    keys: Vec<usize>,
    index: Option<HashMap<u64, Vec<u32>>>,
}

impl KeySet {
    const INDEX_FROM: usize = 16;

    fn hash(v: &Scalar) -> Option<u64> {
        use crate::js::hashing::{Svz, svz_hash};
        Some(svz_hash(match v {
            Scalar::Null => Svz::Null,
            Scalar::Bool(b) => Svz::Bool(*b),
            Scalar::Number(x) if x.is_nan() => return None,
            Scalar::Number(x) => Svz::Number(*x),
            Scalar::Str(s) => Svz::Str(s.as_str()),
            _ => return None,
        }))
    }

    fn value(nodes: &[DocNode], id: usize) -> Option<&Scalar> {
        match &nodes[id].kind {
            NodeKind::Scalar { value, .. } => Some(value),
            _ => None,
        }
    }

    fn includes(&self, nodes: &[DocNode], key: usize) -> bool {
        let Some(v) = Self::value(nodes, key) else { return false };
        match &self.index {
            None => self.keys.iter().any(|&k| Self::value(nodes, k).is_some_and(|w| same_key(v, w))),
            Some(ix) => Self::hash(v).and_then(|h| ix.get(&h)).is_some_and(|c| {
                c.iter().any(|&i| Self::value(nodes, self.keys[i as usize]).is_some_and(|w| same_key(v, w)))
            }),
        }
    }

    fn note(&mut self, nodes: &[DocNode], key: usize) {
        let Some(v) = Self::value(nodes, key) else { return };
        let comparable = match v {
            Scalar::Null | Scalar::Bool(_) | Scalar::Str(_) => true,
            Scalar::Number(x) => !x.is_nan(),
            _ => false,
        };
        if !comparable {
            return;
        }
        self.keys.push(key);
        if let Some(ix) = &mut self.index {
            if let Some(h) = Self::hash(v) {
                ix.entry(h).or_default().push(self.keys.len() as u32 - 1);
            }
        } else if self.keys.len() >= Self::INDEX_FROM {
            let mut ix: HashMap<u64, Vec<u32>> = HashMap::with_capacity(self.keys.len() * 2);
            for (i, &k) in self.keys.iter().enumerate() {
                if let Some(h) = Self::value(nodes, k).and_then(Self::hash) {
                    ix.entry(h).or_default().push(i as u32);
                }
            }
            self.index = Some(ix);
        }
    }
}

/// [`js_str_of`], moving the text.
fn js_str_into(v: JsString) -> JsStr {
    if v.lone.is_empty() { JsStr::new(v.text) } else { js_str_of(&v) }
}

/// The UTF-16 units of a resolved scalar's value, as a [`JsStr`].
pub(crate) fn js_str_of(v: &JsString) -> JsStr {
    if v.lone.is_empty() {
        return JsStr::new(v.text.clone());
    }
    let mut units = Vec::with_capacity(v.text.len());
    let mut lone = v.lone.iter().peekable();
    for (i, ch) in v.text.char_indices() {
        if let Some(&&(at, unit)) = lone.peek()
            && at as usize == i
        {
            lone.next();
            units.push(unit);
            continue;
        }
        let mut buf = [0u16; 2];
        units.extend_from_slice(ch.encode_utf16(&mut buf));
    }
    JsStr::from_utf16(&units)
}

struct Ctx {
    at_key: bool,
    at_root: bool,
}

/// Which resolver a [`Frame`] runs.
#[derive(Clone, Copy)]
enum Shape {
    BlockMap,
    BlockSeq,
    Flow,
}

/// What a [`Frame`]'s resolver waits for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// the next item (`Frame::i`)
    Item,
    /// the item's key
    Key,
    /// the item's value (after its key), or a block sequence's item
    Value,
    /// a flow sequence's item without `:`
    SeqItem,
}

/// A collection being composed: what `composeCollection` and its `resolve*` function hold in
/// their locals while `composeNode` composes an item, so that the item can be composed by the
/// loop in [`DocComposer::compose_node`] instead of a recursive call.
struct Frame {
    token: NodeId,
    id: usize,
    shape: Shape,
    // `composeCollection`'s and `composeNode`'s, for after the items
    saved_cost: f64,
    tag_tok: Option<SourceToken>,
    tag_name: Option<String>,
    kind: CollKind,
    special: bool,
    exp_map: bool,
    anchor: Option<SourceToken>,
    space_before: bool,
    comment: String,
    // the resolver's
    i: usize,
    phase: Phase,
    offset: u32,
    comment_end: Option<u32>,
    at_root: bool,
    seen: KeySet,
    /// of the item's props (its key's, or a sequence item's): `start`, and whether `found`
    props_start: u32,
    props_found: bool,
    /// of a flow pair's value props, when it has no value: `end` and `comment`
    value_end: u32,
    value_comment: String,
    implicit_key: bool,
    key_start: u32,
    key_node: usize,
}

thread_local! {
    /// [`DocComposer::compose_node`]'s stack between documents (empty; a small one is kept).
    static STACK: std::cell::Cell<Vec<Frame>> = const { std::cell::Cell::new(Vec::new()) };
}

/// [`DocComposer::begin_node`]'s outcome.
#[allow(clippy::large_enum_variant)] // made once per node and moved onto the stack
enum Begun {
    Done(usize),
    Open(Frame),
}

/// Composes one document (`composeDoc` and what it calls).
struct DocComposer<'a> {
    src: &'a str,
    cst: &'a Cst,
    directives: Directives,
    schema: SchemaKind,
    nodes: Vec<DocNode>,
    anchors: HashMap<String, usize>,
    diags: &'a mut Vec<Diag>,
    cost: f64,
}

fn tok_pos(t: &SourceToken) -> Pos {
    Pos { start: t.start, end: PosEnd::At(t.end) }
}

fn at(o: u32) -> Pos {
    Pos { start: o, end: PosEnd::Next }
}

fn range_pos(r: [u32; 3]) -> Pos {
    Pos { start: r[0], end: PosEnd::At(r[1]) }
}

impl<'a> DocComposer<'a> {
    /// `BLOCK_IN_FLOW` on the composed `node` when its syntax `cst` (an item's key or value in a
    /// flow collection) is a block collection.
    fn block_in_flow(&mut self, cst: Option<NodeId>, node: usize) {
        if cst.is_some_and(|c| matches!(self.node(c), Node::BlockMap { .. } | Node::BlockSeq { .. })) {
            let r = self.nodes[node].range;
            self.err(range_pos(r), ErrorCode::BlockInFlow, "Block collections are not allowed within flow collections");
        }
    }

    fn err(&mut self, pos: Pos, code: ErrorCode, message: impl Into<String>) {
        self.diags.push(Diag { pos, code, message: message.into(), warning: false });
    }

    fn warn(&mut self, pos: Pos, code: ErrorCode, message: impl Into<String>) {
        self.diags.push(Diag { pos, code, message: message.into(), warning: true });
    }

    fn take_errors(&mut self, errors: Errors) {
        for e in errors {
            let pos = match e.at {
                ErrorAt::Offset(o) => at(o),
                ErrorAt::Token(t) => tok_pos(&t),
            };
            self.err(pos, e.code, e.message);
        }
    }

    fn node(&self, id: NodeId) -> &'a Node {
        self.cst.node(id)
    }

    /// The position `getErrorPos` gives a CST node: `[offset, offset + source.length]` for a
    /// token-like node, `[offset, offset + 1]` for a collection.
    fn node_pos(&self, id: NodeId) -> Pos {
        match self.node(id) {
            Node::FlowScalar { source, .. }
            | Node::Error { source, .. }
            | Node::Directive { source }
            | Node::DocEnd { source, .. } => Pos { start: source.0, end: PosEnd::At(source.1) },
            Node::BlockScalar { source, offset, .. } => {
                // a block scalar's `source` is its body; its offset is the header's
                Pos { start: *offset, end: PosEnd::Len(source.0, source.1) }
            }
            n => at(n.offset()),
        }
    }

    fn next_is(&self, next: Next, f: impl Fn(Kind) -> bool) -> bool {
        match next {
            Next::Tok(t) => f(t.kind),
            _ => false,
        }
    }

    fn next_is_node(&self, next: Next, f: impl Fn(&Node) -> bool) -> bool {
        match next {
            Next::Node(id) => f(self.node(id)),
            _ => false,
        }
    }

    fn next_offset(&self, next: Next) -> u32 {
        match next {
            Next::Tok(t) => t.start,
            Next::Node(id) => self.node(id).offset(),
            Next::None => 0,
        }
    }

    fn resolve_props(&mut self, tokens: &[SourceToken], o: PropsOpts<'_>) -> Props {
        let src = self.src;
        let mut p = Props::default();
        let mut at_newline = o.start_on_newline;
        let mut has_space = o.start_on_newline;
        let mut comment_sep = String::new();
        let mut req_space = false;
        let mut tab: Option<SourceToken> = None;
        let mut start: Option<u32> = None;
        for token in tokens {
            let source = token.source(src);
            if req_space {
                if !matches!(token.kind, Kind::Space | Kind::Newline | Kind::Comma) {
                    self.err(
                        at(token.start),
                        ErrorCode::MissingChar,
                        "Tags and anchors must be separated from the next token by white space",
                    );
                }
                req_space = false;
            }
            if let Some(t) = tab.take()
                && at_newline
                && !matches!(token.kind, Kind::Comment | Kind::Newline)
            {
                self.err(tok_pos(&t), ErrorCode::TabAsIndent, "Tabs are not allowed as indentation");
            }
            match token.kind {
                Kind::Space => {
                    if o.flow.is_none()
                        && (o.indicator != Kind::DocStart
                            || !self.next_is_node(o.next, |n| matches!(n, Node::FlowCollection { .. })))
                        && source.contains('\t')
                    {
                        tab = Some(*token);
                    }
                    has_space = true;
                }
                Kind::Comment => {
                    if !has_space {
                        self.err(
                            tok_pos(token),
                            ErrorCode::MissingChar,
                            "Comments must be separated from other tokens by white space characters",
                        );
                    }
                    let cb = if source.len() > 1 { &source[1..] } else { " " };
                    if p.comment.is_empty() {
                        p.comment = cb.to_string();
                    } else {
                        p.comment.push_str(&comment_sep);
                        p.comment.push_str(cb);
                    }
                    comment_sep.clear();
                    at_newline = false;
                }
                Kind::Newline => {
                    if at_newline {
                        if !p.comment.is_empty() {
                            p.comment.push_str(source);
                        } else if p.found.is_none() || o.indicator != Kind::SeqItemInd {
                            p.space_before = true;
                        }
                    } else {
                        comment_sep.push_str(source);
                    }
                    at_newline = true;
                    p.has_newline = true;
                    if p.anchor.is_some() || p.tag.is_some() {
                        p.newline_after_prop = Some(*token);
                    }
                    has_space = true;
                }
                Kind::Anchor => {
                    if p.anchor.is_some() {
                        self.err(tok_pos(token), ErrorCode::MultipleAnchors, "A node can have at most one anchor");
                    }
                    if source.ends_with(':') {
                        self.warn(at(token.end - 1), ErrorCode::BadAlias, "Anchor ending in : is ambiguous");
                    }
                    p.anchor = Some(*token);
                    start.get_or_insert(token.start);
                    at_newline = false;
                    has_space = false;
                    req_space = true;
                }
                Kind::Tag => {
                    if p.tag.is_some() {
                        self.err(tok_pos(token), ErrorCode::MultipleTags, "A node can have at most one tag");
                    }
                    p.tag = Some(*token);
                    start.get_or_insert(token.start);
                    at_newline = false;
                    has_space = false;
                    req_space = true;
                }
                k if k == o.indicator => {
                    if p.anchor.is_some() || p.tag.is_some() {
                        self.err(
                            tok_pos(token),
                            ErrorCode::BadPropOrder,
                            format!("Anchors and tags must be after the {source} indicator"),
                        );
                    }
                    if p.found.is_some() {
                        self.err(
                            tok_pos(token),
                            ErrorCode::UnexpectedToken,
                            format!("Unexpected {source} in {}", o.flow.unwrap_or("collection")),
                        );
                    }
                    p.found = Some(*token);
                    at_newline = matches!(o.indicator, Kind::SeqItemInd | Kind::ExplicitKeyInd);
                    has_space = false;
                }
                Kind::Comma if o.flow.is_some() => {
                    if p.comma.is_some() {
                        self.err(
                            tok_pos(token),
                            ErrorCode::UnexpectedToken,
                            format!("Unexpected , in {}", o.flow.unwrap_or_default()),
                        );
                    }
                    p.comma = Some(*token);
                    at_newline = false;
                    has_space = false;
                }
                k => {
                    let name = if k == Kind::Unknown { "error" } else { k.name() };
                    self.err(tok_pos(token), ErrorCode::UnexpectedToken, format!("Unexpected {name} token"));
                    at_newline = false;
                    has_space = false;
                }
            }
        }
        p.end = tokens.last().map_or(o.offset, |t| t.end);
        if req_space
            && !matches!(o.next, Next::None)
            && !self.next_is(o.next, |k| matches!(k, Kind::Space | Kind::Newline | Kind::Comma))
            && !self.next_is_empty_scalar(o.next)
        {
            let off = self.next_offset(o.next);
            self.err(
                at(off),
                ErrorCode::MissingChar,
                "Tags and anchors must be separated from the next token by white space",
            );
        }
        if let Some(t) = tab
            && ((at_newline && t.indent <= o.parent_indent)
                || self.next_is_node(o.next, |n| matches!(n, Node::BlockMap { .. } | Node::BlockSeq { .. })))
        {
            self.err(tok_pos(&t), ErrorCode::TabAsIndent, "Tabs are not allowed as indentation");
        }
        p.start = start.unwrap_or(p.end);
        p
    }

    fn next_is_empty_scalar(&self, next: Next) -> bool {
        match next {
            Next::Tok(t) => t.kind == Kind::Scalar && t.start == t.end,
            Next::Node(id) => {
                matches!(self.node(id), Node::FlowScalar { kind: Kind::Scalar, source, .. } if source.0 == source.1)
            }
            Next::None => false,
        }
    }

    fn push(&mut self, kind: NodeKind, range: [u32; 3]) -> usize {
        self.nodes.push(DocNode {
            kind,
            anchor: None,
            tag: None,
            range,
            space_before: false,
            comment_before: String::new(),
            comment: String::new(),
        });
        self.nodes.len() - 1
    }

    fn set_anchor(&mut self, id: usize, anchor: &SourceToken) {
        let name = self.src[anchor.start as usize + 1..anchor.end as usize].to_string();
        self.anchors.insert(name.clone(), id);
        self.nodes[id].anchor = Some(name);
    }

    /// `composeNode` on `token` and every collection under it. The recursion of npm yaml
    /// (`composeNode` -> `composeCollection` -> `resolveBlockMap`... -> `composeNode`) is a loop
    /// over a stack of [`Frame`]s, one per open collection, so the input's nesting never
    /// deepens the Rust stack.
    fn compose_node(&mut self, ctx: &mut Ctx, token: NodeId, props: &Props) -> usize {
        let f = match self.begin_node(ctx, token, props) {
            Begun::Done(id) => return id,
            Begun::Open(f) => f,
        };
        // the thread's stack of an earlier document, its allocation reused
        let mut stack = STACK.with(|s| s.take());
        stack.push(f);
        let mut child = None;
        while let Some(f) = stack.last_mut() {
            let opened = match f.shape {
                Shape::BlockMap => self.resume_block_map(ctx, f, child.take()),
                Shape::BlockSeq => self.resume_block_seq(ctx, f, child.take()),
                Shape::Flow => self.resume_flow_collection(ctx, f, child.take()),
            };
            match opened {
                Some(nf) => stack.push(nf),
                None => {
                    let f = stack.pop().expect("an open collection");
                    child = Some(self.close_collection(f));
                }
            }
        }
        if stack.capacity() <= 64 {
            STACK.with(|s| s.set(stack));
        }
        child.expect("the composed node")
    }

    /// `composeNode` up to a collection's items: a scalar, an alias or an error composed
    /// (`Done`), or a collection opened (`Open`: its items are the stack's to compose).
    fn begin_node(&mut self, ctx: &mut Ctx, token: NodeId, props: &Props) -> Begun {
        let node_tok = self.node(token);
        let mut node: Option<usize> = None;
        match node_tok {
            Node::FlowScalar { kind: Kind::Alias, source, end, .. } => {
                node = Some(self.compose_alias(*source, end.as_deref()));
                if props.anchor.is_some() || props.tag.is_some() {
                    self.err(
                        Pos { start: source.0, end: PosEnd::At(source.1) },
                        ErrorCode::AliasProps,
                        "An alias node must not specify any properties",
                    );
                }
            }
            Node::FlowScalar { .. } | Node::BlockScalar { .. } => {
                let id = self.compose_scalar(ctx, token, props.tag);
                if let Some(a) = &props.anchor {
                    self.set_anchor(id, a);
                }
                node = Some(id);
            }
            Node::BlockMap { .. } | Node::BlockSeq { .. } | Node::FlowCollection { .. } => {
                if let Some(f) = self.open_collection(ctx, token, props) {
                    return Begun::Open(f);
                }
            }
            Node::Error { source, message } => {
                let text = message.text(message.source(*source, self.src));
                self.err(Pos { start: source.0, end: PosEnd::At(source.1) }, ErrorCode::UnexpectedToken, text);
            }
            other => {
                let name = match other {
                    Node::Directive { .. } => "directive",
                    Node::Document { .. } => "document",
                    _ => "doc-end",
                };
                self.err(self.node_pos(token), ErrorCode::UnexpectedToken, format!("Unsupported token (type: {name})"));
            }
        }
        let id = match node {
            Some(id) => id,
            None => {
                let off = node_tok.offset();
                self.compose_empty_node(ctx, off, None, props)
            }
        };
        self.end_node(id, token, props.anchor, props.space_before, &props.comment);
        Begun::Done(id)
    }

    /// The end of `composeNode`: the props' empty anchor, blank line and comment.
    fn end_node(&mut self, id: usize, token: NodeId, anchor: Option<SourceToken>, space_before: bool, comment: &str) {
        if let Some(a) = &anchor
            && self.nodes[id].anchor.as_deref() == Some("")
        {
            self.err(tok_pos(a), ErrorCode::BadAlias, "Anchor cannot be an empty string");
        }
        if space_before {
            self.nodes[id].space_before = true;
        }
        if !comment.is_empty() {
            let empty_plain =
                matches!(self.node(token), Node::FlowScalar { kind: Kind::Scalar, source, .. } if source.0 == source.1);
            if empty_plain {
                self.nodes[id].comment = comment.to_string();
            } else {
                self.nodes[id].comment_before = comment.to_string();
            }
        }
    }

    /// `composeEmptyNode`
    fn compose_empty_node(
        &mut self,
        ctx: &mut Ctx,
        offset: u32,
        before: Option<&[SourceToken]>,
        props: &Props,
    ) -> usize {
        // npm yaml's offsets can be a base plus lengths that are not the tokens' own (a flow
        // collection's end after a wrong closing bracket): kept within the text, at a char start
        let mut pos = empty_scalar_position(offset, before).min(self.src.len() as u32);
        while !self.src.is_char_boundary(pos as usize) {
            pos -= 1;
        }
        let id = self.compose_scalar_at(ctx, None, (pos, pos), props.tag);
        if let Some(a) = &props.anchor {
            self.set_anchor(id, a);
            if self.nodes[id].anchor.as_deref() == Some("") {
                self.err(tok_pos(a), ErrorCode::BadAlias, "Anchor cannot be an empty string");
            }
        }
        if props.space_before {
            self.nodes[id].space_before = true;
        }
        if !props.comment.is_empty() {
            self.nodes[id].comment = props.comment.clone();
            self.nodes[id].range[2] = props.end;
        }
        id
    }

    fn compose_alias(&mut self, source: (u32, u32), end: Option<&[SourceToken]>) -> usize {
        let name = &self.src[source.0 as usize + 1..source.1 as usize];
        if name.is_empty() {
            self.err(at(source.0), ErrorCode::BadAlias, "Alias cannot be an empty string");
        }
        if name.ends_with(':') {
            self.warn(at(source.1 - 1), ErrorCode::BadAlias, "Alias ending in : is ambiguous");
        }
        let mut errors = Errors::new();
        let re = resolve_end(self.src, end, source.1, true, &mut errors);
        self.take_errors(errors);
        let target = self.anchors.get(name).copied();
        let id = self.push(NodeKind::Alias { name: name.to_string(), target }, [source.0, source.1, re.offset]);
        self.nodes[id].comment = re.comment;
        id
    }

    fn compose_scalar(&mut self, ctx: &mut Ctx, token: NodeId, tag: Option<SourceToken>) -> usize {
        let source = match self.node(token) {
            Node::FlowScalar { source, .. } => *source,
            _ => (0, 0),
        };
        self.compose_scalar_at(ctx, Some(token), source, tag)
    }

    /// `composeScalar`; `token` `None` for the empty plain scalar of `composeEmptyNode` at `source`.
    fn compose_scalar_at(
        &mut self,
        ctx: &mut Ctx,
        token: Option<NodeId>,
        source: (u32, u32),
        tag_tok: Option<SourceToken>,
    ) -> usize {
        let mut errors = Errors::new();
        let (resolved, plain, tok_pos_) = match token.map(|t| (t, self.node(t))) {
            Some((_, node @ Node::BlockScalar { .. })) => {
                let r = resolve_block_scalar(self.src, node, ctx.at_root, true, &mut errors);
                (r, false, self.node_pos(token.unwrap()))
            }
            Some((_, Node::FlowScalar { kind, source, end, .. })) => {
                let r = resolve_flow_scalar(self.src, *kind, *source, end.as_deref(), true, &mut errors);
                (r, *kind == Kind::Scalar, Pos { start: source.0, end: PosEnd::At(source.1) })
            }
            _ => {
                let r = resolve_flow_scalar(self.src, Kind::Scalar, source, None, true, &mut errors);
                (r, true, Pos { start: source.0, end: PosEnd::At(source.1) })
            }
        };
        self.take_errors(errors);
        let ResolvedScalar { value, ty, comment, range } = resolved;
        let tag_name = tag_tok.and_then(|t| {
            let s = t.source(self.src);
            let mut msgs = Vec::new();
            // an empty name (`!<>`) is no tag (`if (tagName)`)
            let r = self.directives.tag_name(s, &mut |m| msgs.push(m)).filter(|n| !n.is_empty());
            for m in msgs {
                self.err(tok_pos(&t), ErrorCode::TagResolveFailed, m);
            }
            r
        });
        let text = value.text.as_str();
        let scalar = if let Some(name) = &tag_name {
            match self.schema.resolve_tagged_scalar(name, text) {
                TagResolution::Ok(v) => v,
                TagResolution::Unresolved => {
                    let t = tag_tok.unwrap();
                    let msg = format!("Unresolved tag: {name}");
                    if name == "tag:yaml.org,2002:str" {
                        self.err(tok_pos(&t), ErrorCode::TagResolveFailed, msg);
                    } else {
                        self.warn(tok_pos(&t), ErrorCode::TagResolveFailed, msg);
                    }
                    Scalar::Str(JsStr::default())
                }
                TagResolution::Failed(msg) => {
                    let p = tag_tok.map_or(tok_pos_, |t| tok_pos(&t));
                    self.err(p, ErrorCode::TagResolveFailed, msg);
                    Scalar::Str(JsStr::default())
                }
            }
        } else if plain && !(self.schema == SchemaKind::Core && crate::schema::core_plain_is_string(text)) {
            self.schema.resolve_plain(text, ctx.at_key)
        } else {
            Scalar::Str(JsStr::default())
        };
        // a string is the scalar's own (the schema's copy is dropped; lone surrogates kept);
        // `source` is kept for other values (the key stringifier prints numbers from it)
        let (scalar, source) = match scalar {
            Scalar::Str(_) => (Scalar::Str(js_str_into(value)), JsStr::default()),
            other => (other, js_str_of(&value)),
        };
        let style = match ty {
            Some(ScalarType::QuoteSingle) => ScalarStyle::SingleQuoted,
            Some(ScalarType::QuoteDouble) => ScalarStyle::DoubleQuoted,
            Some(ScalarType::BlockLiteral) => ScalarStyle::Literal,
            Some(ScalarType::BlockFolded) => ScalarStyle::Folded,
            _ => ScalarStyle::Plain,
        };
        let id = self.push(NodeKind::Scalar { value: scalar, style, source }, range);
        self.nodes[id].tag = tag_name;
        self.nodes[id].comment = comment;
        id
    }

    /// `composeCollection` (with `composeNode`'s catch of a stack overflow) up to its
    /// resolver's first item: the collection's node, and the frame that resolves its items.
    fn open_collection(&mut self, ctx: &mut Ctx, token: NodeId, props: &Props) -> Option<Frame> {
        let node = self.node(token);
        let saved_cost = self.cost;
        self.cost += match node {
            Node::FlowCollection { .. } => COST_FLOW,
            Node::BlockMap { .. } => COST_BLOCK_MAP,
            _ => COST_BLOCK_SEQ,
        };
        if self.cost > COST_LIMIT {
            self.cost = saved_cost;
            self.err(self.node_pos(token), ErrorCode::ResourceExhaustion, "Maximum call stack size exceeded");
            return None;
        }
        let tag_tok = props.tag;
        let tag_name = tag_tok.and_then(|t| {
            let s = t.source(self.src);
            let mut msgs = Vec::new();
            // an empty name (`!<>`) is no tag (`if (tagName)`)
            let r = self.directives.tag_name(s, &mut |m| msgs.push(m)).filter(|n| !n.is_empty());
            for m in msgs {
                self.err(tok_pos(&t), ErrorCode::TagResolveFailed, m);
            }
            r
        });
        if matches!(node, Node::BlockSeq { .. }) {
            let last_prop = match (props.anchor, tag_tok) {
                (Some(a), Some(t)) => Some(if a.start > t.start { a } else { t }),
                (a, t) => a.or(t),
            };
            if let Some(lp) = last_prop
                && props.newline_after_prop.is_none_or(|nl| nl.start < lp.start)
            {
                self.err(tok_pos(&lp), ErrorCode::MissingChar, "Missing newline after block sequence props");
            }
        }
        let exp_map = match node {
            Node::BlockMap { .. } => true,
            Node::BlockSeq { .. } => false,
            Node::FlowCollection { start, .. } => start.source(self.src) == "{",
            _ => false,
        };
        let exp = if exp_map { "map" } else { "seq" };
        let mut kind = if exp_map { CollKind::Map } else { CollKind::Seq };
        let mut special = false;
        if let (Some(t), Some(name)) = (tag_tok, tag_name.as_deref()) {
            let plain = name == "!"
                || (name == "tag:yaml.org,2002:map" && exp_map)
                || (name == "tag:yaml.org,2002:seq" && !exp_map);
            if !plain {
                let short = name.strip_prefix(YAML_PREFIX);
                let in_schema = self.schema == SchemaKind::Yaml11 || self.schema.resolves_known_tags();
                match (short, exp_map) {
                    (Some("set"), true) if in_schema => {
                        kind = CollKind::Set;
                        special = true;
                    }
                    (Some("omap"), false) if in_schema => {
                        kind = CollKind::Omap;
                        special = true;
                    }
                    (Some("pairs"), false) if in_schema => {
                        kind = CollKind::Pairs;
                        special = true;
                    }
                    (Some(k @ ("set" | "omap" | "pairs" | "binary" | "timestamp" | "merge")), _)
                        if self.schema.resolves_known_tags() =>
                    {
                        let expects = match k {
                            "set" => "map",
                            "omap" | "pairs" => "seq",
                            _ => "scalar",
                        };
                        self.warn(
                            tok_pos(&t),
                            ErrorCode::BadCollectionType,
                            format!("{name} used for {exp} collection, but expects {expects}"),
                        );
                    }
                    _ => self.warn(tok_pos(&t), ErrorCode::TagResolveFailed, format!("Unresolved tag: {name}")),
                }
            }
        }
        // the node exists before its items (`Alias.resolve` visits in pre-order)
        let id = self.push(
            if exp_map {
                NodeKind::Map { pairs: Vec::new(), kind: CollKind::Map, flow: false }
            } else {
                NodeKind::Seq { items: Vec::new(), kind: CollKind::Seq, flow: false }
            },
            [0; 3],
        );
        if let Some(a) = &props.anchor {
            self.set_anchor(id, a);
        }
        // what `resolveBlockMap`, `resolveBlockSeq` and `resolveFlowCollection` do first
        let mut offset = node.offset();
        let at_root = ctx.at_root;
        ctx.at_root = false;
        let shape = match node {
            Node::BlockMap { .. } => Shape::BlockMap,
            Node::BlockSeq { .. } => {
                ctx.at_key = false;
                Shape::BlockSeq
            }
            _ => {
                if let Node::FlowCollection { start, .. } = node {
                    offset = start.end;
                }
                match &mut self.nodes[id].kind {
                    NodeKind::Map { flow, .. } | NodeKind::Seq { flow, .. } => *flow = true,
                    _ => {}
                }
                ctx.at_key = false;
                Shape::Flow
            }
        };
        Some(Frame {
            token,
            id,
            shape,
            saved_cost,
            tag_tok,
            tag_name,
            kind,
            special,
            exp_map,
            anchor: props.anchor,
            space_before: props.space_before,
            comment: props.comment.clone(),
            i: 0,
            phase: Phase::Item,
            offset,
            comment_end: None,
            at_root,
            seen: KeySet::default(),
            props_start: 0,
            props_found: false,
            value_end: 0,
            value_comment: String::new(),
            implicit_key: false,
            key_start: 0,
            key_node: 0,
        })
    }

    /// The rest of `composeCollection` and `composeNode` once the items are composed.
    fn close_collection(&mut self, f: Frame) -> usize {
        let Frame { token, id, saved_cost, tag_tok, tag_name, kind, special, exp_map, .. } = f;
        self.cost = saved_cost;
        self.nodes[id].tag = match tag_name.as_deref() {
            None => None,
            Some("!") => Some(if exp_map { "tag:yaml.org,2002:map" } else { "tag:yaml.org,2002:seq" }.into()),
            Some(n) => Some(n.to_string()),
        };
        if special {
            let t = tag_tok.unwrap();
            match &mut self.nodes[id].kind {
                NodeKind::Map { kind: k, .. } | NodeKind::Seq { kind: k, .. } => *k = kind,
                _ => {}
            }
            self.resolve_special(id, kind, &t);
        }
        self.end_node(id, token, f.anchor, f.space_before, &f.comment);
        id
    }

    /// The `resolve` of `!!set`, `!!omap` and `!!pairs`.
    fn resolve_special(&mut self, id: usize, kind: CollKind, tag: &SourceToken) {
        let mut msgs: Vec<String> = Vec::new();
        match &self.nodes[id].kind {
            NodeKind::Map { pairs, .. } if kind == CollKind::Set => {
                let ok = pairs.iter().all(|&(_, v)| match v {
                    None => true,
                    Some(v) => {
                        let n = &self.nodes[v];
                        matches!(n.kind, NodeKind::Scalar { value: Scalar::Null, .. })
                            && n.comment_before.is_empty()
                            && n.comment.is_empty()
                            && n.tag.is_none()
                    }
                });
                if !ok {
                    msgs.push("Set items must all have null values".into());
                }
            }
            NodeKind::Seq { items, .. } => {
                let mut seen: std::collections::HashSet<DupKey> = std::collections::HashSet::new();
                for &it in items {
                    let key = match &self.nodes[it].kind {
                        NodeKind::Map { pairs, .. } => {
                            if pairs.len() > 1 {
                                msgs.push("Each pair must have its own sequence indicator".into());
                            }
                            pairs.first().map(|p| p.0)
                        }
                        _ => Some(it),
                    };
                    if kind != CollKind::Omap {
                        continue;
                    }
                    // an empty item's pair has a `Scalar(null)` key
                    let value = match key {
                        Some(k) => match &self.nodes[k].kind {
                            NodeKind::Scalar { value, .. } => Some(value),
                            _ => None,
                        },
                        None => Some(&Scalar::Null),
                    };
                    // `seenKeys.includes(key.value)`: SameValueZero, so NaN is found too
                    let dk = value.and_then(|v| match v {
                        Scalar::Number(x) if x.is_nan() => Some(DupKey::Num(u64::MAX)),
                        v => dup_key(v),
                    });
                    if let (Some(v), Some(dk)) = (value, dk) {
                        if seen.contains(&dk) {
                            msgs.push(format!("Ordered maps must not include duplicate keys: {}", scalar_string(v)));
                        } else {
                            seen.insert(dk);
                        }
                    }
                }
            }
            _ => {}
        }
        if matches!(kind, CollKind::Omap | CollKind::Pairs) {
            // `resolvePairs` moves an item map's comments onto its pair's nodes
            let items = match &self.nodes[id].kind {
                NodeKind::Seq { items, .. } => items.clone(),
                _ => Vec::new(),
            };
            for it in items {
                let NodeKind::Map { pairs, .. } = &self.nodes[it].kind else { continue };
                let Some(&(k, v)) = pairs.first() else { continue };
                let cb = std::mem::take(&mut self.nodes[it].comment_before);
                if !cb.is_empty() {
                    let kcb = &mut self.nodes[k].comment_before;
                    *kcb = if kcb.is_empty() { cb } else { format!("{cb}\n{kcb}") };
                }
                let c = std::mem::take(&mut self.nodes[it].comment);
                if !c.is_empty() {
                    let cn = &mut self.nodes[v.unwrap_or(k)].comment;
                    *cn = if cn.is_empty() { c } else { format!("{c}\n{cn}") };
                }
            }
        }
        if kind == CollKind::Set && !msgs.is_empty() {
            // `resolve` returned the map itself
            if let NodeKind::Map { kind: k, .. } = &mut self.nodes[id].kind {
                *k = CollKind::Map;
            }
        }
        for m in msgs {
            self.err(tok_pos(tag), ErrorCode::TagResolveFailed, m);
        }
    }

    fn add_pair(&mut self, coll: usize, k: usize, v: Option<usize>) {
        if let NodeKind::Map { pairs, .. } = &mut self.nodes[coll].kind {
            pairs.push((k, v));
        }
    }

    fn add_item(&mut self, coll: usize, it: usize) {
        if let NodeKind::Seq { items, .. } = &mut self.nodes[coll].kind {
            items.push(it);
        }
    }

    fn append_comment(&mut self, id: usize, c: &str) {
        let n = &mut self.nodes[id];
        if n.comment.is_empty() {
            n.comment = c.to_string();
        } else {
            n.comment.push('\n');
            n.comment.push_str(c);
        }
    }

    /// `resolveBlockMap`, from where `f` stands: `child` is the collection last composed for
    /// it. Returns a key or value collection opened (the stack composes it, then resumes `f`),
    /// or `None` when the map is done.
    fn resume_block_map(&mut self, ctx: &mut Ctx, f: &mut Frame, mut child: Option<usize>) -> Option<Frame> {
        let Node::BlockMap { offset: bm_offset, indent: bm_indent, items } = self.node(f.token) else { return None };
        let (bm_offset, bm_indent) = (*bm_offset, *bm_indent);
        loop {
            match f.phase {
                Phase::Item => {
                    let Some(Item { start, key, sep, .. }) = items.get(f.i) else { break };
                    let next = match (key, sep.as_ref().and_then(|s| s.first())) {
                        (Some(k), _) => Next::Node(*k),
                        (None, Some(t)) => Next::Tok(*t),
                        _ => Next::None,
                    };
                    let key_props = self.resolve_props(
                        start,
                        PropsOpts {
                            flow: None,
                            indicator: Kind::ExplicitKeyInd,
                            next,
                            offset: f.offset,
                            parent_indent: bm_indent,
                            start_on_newline: true,
                        },
                    );
                    let implicit_key = key_props.found.is_none();
                    if implicit_key {
                        if let Some(k) = key {
                            let kn = self.node(*k);
                            if matches!(kn, Node::BlockSeq { .. }) {
                                self.err(
                                    at(f.offset),
                                    ErrorCode::BlockAsImplicitKey,
                                    "A block sequence may not be used as an implicit map key",
                                );
                            } else if kn.indent().is_some_and(|i| i != bm_indent) {
                                self.err(
                                    at(f.offset),
                                    ErrorCode::BadIndent,
                                    "All mapping items must start at the same column",
                                );
                            }
                        }
                        if key_props.anchor.is_none() && key_props.tag.is_none() && sep.is_none() {
                            f.comment_end = Some(key_props.end);
                            if !key_props.comment.is_empty() {
                                self.append_comment(f.id, &key_props.comment);
                            }
                            f.i += 1;
                            continue;
                        }
                        if key_props.newline_after_prop.is_some() || self.contains_newline(*key) {
                            let pos = match key {
                                Some(k) => self.node_pos(*k),
                                None => tok_pos(start.last().unwrap()),
                            };
                            self.err(pos, ErrorCode::MultilineImplicitKey, "Implicit keys need to be on a single line");
                        }
                    } else if key_props.found.is_some_and(|found| found.indent != bm_indent) {
                        self.err(at(f.offset), ErrorCode::BadIndent, "All mapping items must start at the same column");
                    }
                    ctx.at_key = true;
                    f.key_start = key_props.end;
                    f.implicit_key = implicit_key;
                    f.props_start = key_props.start;
                    f.phase = Phase::Key;
                    child = match key {
                        Some(k) => match self.begin_node(ctx, *k, &key_props) {
                            Begun::Done(id) => Some(id),
                            Begun::Open(nf) => return Some(nf),
                        },
                        None => Some(self.compose_empty_node(ctx, f.key_start, Some(start), &key_props)),
                    };
                }
                Phase::Key => {
                    let Item { key, sep, value, .. } = &items[f.i];
                    let key_node = child.take().expect("the key");
                    ctx.at_key = false;
                    if f.seen.includes(&self.nodes, key_node) {
                        self.err(at(f.key_start), ErrorCode::DuplicateKey, "Map keys must be unique");
                    }
                    f.seen.note(&self.nodes, key_node);
                    let key_is_block_scalar = key.is_some_and(|k| matches!(self.node(k), Node::BlockScalar { .. }));
                    let value_props = self.resolve_props(
                        sep.as_deref().unwrap_or_default(),
                        PropsOpts {
                            flow: None,
                            indicator: Kind::MapValueInd,
                            next: value.map_or(Next::None, Next::Node),
                            offset: self.nodes[key_node].range[2],
                            parent_indent: bm_indent,
                            start_on_newline: key.is_none() || key_is_block_scalar,
                        },
                    );
                    f.offset = value_props.end;
                    if let Some(found) = value_props.found {
                        if f.implicit_key {
                            if value.is_some_and(|v| matches!(self.node(v), Node::BlockMap { .. }))
                                && !value_props.has_newline
                            {
                                self.err(
                                    at(f.offset),
                                    ErrorCode::BlockAsImplicitKey,
                                    "Nested mappings are not allowed in compact mappings",
                                );
                            }
                            if f.props_start + 1024 < found.start {
                                let r = self.nodes[key_node].range;
                                self.err(range_pos(r), ErrorCode::KeyOver1024Chars, "The : indicator must be at most 1024 chars after the start of an implicit block mapping key");
                            }
                        }
                        f.key_node = key_node;
                        f.phase = Phase::Value;
                        child = match value {
                            Some(v) => match self.begin_node(ctx, *v, &value_props) {
                                Begun::Done(id) => Some(id),
                                Begun::Open(nf) => return Some(nf),
                            },
                            None => Some(self.compose_empty_node(ctx, f.offset, sep.as_deref(), &value_props)),
                        };
                    } else {
                        if f.implicit_key {
                            let r = self.nodes[key_node].range;
                            self.err(
                                range_pos(r),
                                ErrorCode::MissingChar,
                                "Implicit map keys need to be followed by map values",
                            );
                        }
                        if !value_props.comment.is_empty() {
                            self.append_comment(key_node, &value_props.comment);
                        }
                        self.add_pair(f.id, key_node, None);
                        f.i += 1;
                        f.phase = Phase::Item;
                    }
                }
                Phase::Value | Phase::SeqItem => {
                    let value_node = child.take().expect("the value");
                    f.offset = self.nodes[value_node].range[2];
                    self.add_pair(f.id, f.key_node, Some(value_node));
                    f.i += 1;
                    f.phase = Phase::Item;
                }
            }
        }
        if let Some(ce) = f.comment_end
            && ce < f.offset
        {
            self.err(at(ce), ErrorCode::Impossible, "Map comment with trailing content");
        }
        self.nodes[f.id].range = [bm_offset, f.offset, f.comment_end.unwrap_or(f.offset)];
        None
    }

    /// `resolveBlockSeq`, from where `f` stands (as [`Self::resume_block_map`]).
    fn resume_block_seq(&mut self, ctx: &mut Ctx, f: &mut Frame, mut child: Option<usize>) -> Option<Frame> {
        let Node::BlockSeq { offset: bs_offset, indent: bs_indent, items } = self.node(f.token) else { return None };
        let (bs_offset, bs_indent) = (*bs_offset, *bs_indent);
        loop {
            if let Some(node) = child.take() {
                f.offset = self.nodes[node].range[2];
                self.add_item(f.id, node);
                f.i += 1;
            }
            let Some(Item { start, value, .. }) = items.get(f.i) else { break };
            let props = self.resolve_props(
                start,
                PropsOpts {
                    flow: None,
                    indicator: Kind::SeqItemInd,
                    next: value.map_or(Next::None, Next::Node),
                    offset: f.offset,
                    parent_indent: bs_indent,
                    start_on_newline: true,
                },
            );
            if props.found.is_none() {
                if props.anchor.is_some() || props.tag.is_some() || value.is_some() {
                    if value.is_some_and(|v| matches!(self.node(v), Node::BlockSeq { .. })) {
                        self.err(
                            at(props.end),
                            ErrorCode::BadIndent,
                            "All sequence items must start at the same column",
                        );
                    } else {
                        self.err(at(f.offset), ErrorCode::MissingChar, "Sequence item without - indicator");
                    }
                } else {
                    f.comment_end = Some(props.end);
                    if !props.comment.is_empty() {
                        self.nodes[f.id].comment = props.comment.clone();
                    }
                    f.i += 1;
                    continue;
                }
            }
            child = match value {
                Some(v) => match self.begin_node(ctx, *v, &props) {
                    Begun::Done(id) => Some(id),
                    Begun::Open(nf) => return Some(nf),
                },
                None => Some(self.compose_empty_node(ctx, props.end, Some(start), &props)),
            };
        }
        self.nodes[f.id].range = [bs_offset, f.offset, f.comment_end.unwrap_or(f.offset)];
        None
    }

    /// `resolveFlowCollection`, from where `f` stands (as [`Self::resume_block_map`]).
    fn resume_flow_collection(&mut self, ctx: &mut Ctx, f: &mut Frame, mut child: Option<usize>) -> Option<Frame> {
        let Node::FlowCollection { offset: fc_offset, indent: fc_indent, start: fc_start, items, end: fc_end } =
            self.node(f.token)
        else {
            return None;
        };
        let (fc_offset, fc_indent) = (*fc_offset, *fc_indent);
        let is_map = fc_start.source(self.src) == "{";
        let fc_name = if is_map { "flow map" } else { "flow sequence" };
        let (coll, n_items) = (f.id, items.len());
        loop {
            let i = f.i;
            if f.phase != Phase::Item {
                let value_props = self.flow_item_composed(ctx, f, child.take(), &items[i], is_map, fc_indent, fc_name);
                if let Some(mut vp) = value_props {
                    // the key is composed: its value next
                    child = match (items[i].value, vp.found) {
                        (Some(v), _) => match self.begin_node(ctx, v, &vp) {
                            Begun::Done(id) => Some(id),
                            Begun::Open(nf) => return Some(nf),
                        },
                        (None, Some(_)) => Some(self.compose_empty_node(ctx, vp.end, items[i].sep.as_deref(), &vp)),
                        (None, None) => {
                            f.value_comment = std::mem::take(&mut vp.comment);
                            None
                        }
                    };
                }
                continue;
            }
            let Some(Item { start, key, sep, value, .. }) = items.get(i) else { break };
            let next = match (key, sep.as_ref().and_then(|s| s.first())) {
                (Some(k), _) => Next::Node(*k),
                (None, Some(t)) => Next::Tok(*t),
                _ => Next::None,
            };
            let mut props = self.resolve_props(
                start,
                PropsOpts {
                    flow: Some(fc_name),
                    indicator: Kind::ExplicitKeyInd,
                    next,
                    offset: f.offset,
                    parent_indent: fc_indent,
                    start_on_newline: false,
                },
            );
            if props.found.is_none() {
                if props.anchor.is_none() && props.tag.is_none() && sep.is_none() && value.is_none() {
                    if i == 0
                        && let Some(c) = props.comma
                    {
                        self.err(tok_pos(&c), ErrorCode::UnexpectedToken, format!("Unexpected , in {fc_name}"));
                    } else if i + 1 < n_items {
                        self.err(
                            at(props.start),
                            ErrorCode::UnexpectedToken,
                            format!("Unexpected empty item in {fc_name}"),
                        );
                    }
                    if !props.comment.is_empty() {
                        self.append_comment(coll, &props.comment);
                    }
                    f.offset = props.end;
                    f.i += 1;
                    continue;
                }
                if !is_map && self.contains_newline(*key) {
                    let k = key.unwrap();
                    self.err(
                        self.node_pos(k),
                        ErrorCode::MultilineImplicitKey,
                        "Implicit keys of flow sequence pairs need to be on a single line",
                    );
                }
            }
            if i == 0 {
                if let Some(c) = props.comma {
                    self.err(tok_pos(&c), ErrorCode::UnexpectedToken, format!("Unexpected , in {fc_name}"));
                }
            } else {
                if props.comma.is_none() {
                    self.err(at(props.start), ErrorCode::MissingChar, format!("Missing , between {fc_name} items"));
                }
                if !props.comment.is_empty() {
                    let mut prev_item_comment = "";
                    for st in start.iter() {
                        match st.kind {
                            Kind::Comma | Kind::Space => {}
                            Kind::Comment => {
                                prev_item_comment = &st.source(self.src)[1..];
                                break;
                            }
                            _ => break,
                        }
                    }
                    if !prev_item_comment.is_empty() {
                        let last = match &self.nodes[coll].kind {
                            NodeKind::Seq { items, .. } => items.last().copied(),
                            NodeKind::Map { pairs, .. } => pairs.last().map(|&(k, v)| v.unwrap_or(k)),
                            _ => None,
                        };
                        if let Some(l) = last {
                            self.append_comment(l, prev_item_comment);
                        }
                        let cut = prev_item_comment.len() + 1;
                        props.comment = props.comment.get(cut..).unwrap_or("").to_string();
                    }
                }
            }
            f.phase = if !is_map && sep.is_none() && props.found.is_none() {
                Phase::SeqItem
            } else {
                ctx.at_key = true;
                Phase::Key
            };
            f.key_start = props.end;
            f.props_start = props.start;
            f.props_found = props.found.is_some();
            child = match if f.phase == Phase::SeqItem { value } else { key } {
                Some(n) => match self.begin_node(ctx, *n, &props) {
                    Begun::Done(id) => Some(id),
                    Begun::Open(nf) => return Some(nf),
                },
                None => {
                    let before = if f.phase == Phase::SeqItem { sep.as_deref() } else { Some(&start[..]) };
                    Some(self.compose_empty_node(ctx, f.key_start, before, &props))
                }
            };
        }
        let expected_end = if is_map { "}" } else { "]" };
        let mut ee: Vec<SourceToken> = fc_end.iter().skip(1).copied().collect();
        let ce = fc_end.first();
        let (at_root, offset) = (f.at_root, f.offset);
        let mut ce_pos = offset;
        match ce {
            Some(c) if c.source(self.src) == expected_end => ce_pos = c.end,
            _ => {
                let name = if is_map { "Flow map" } else { "Flow sequence" };
                let msg = if at_root {
                    format!("{name} must end with a {expected_end}")
                } else {
                    format!("{name} in block collection must be sufficiently indented and end with a {expected_end}")
                };
                self.err(at(offset), if at_root { ErrorCode::MissingChar } else { ErrorCode::BadIndent }, msg);
                if let Some(c) = ce
                    && c.source(self.src).encode_utf16().count() != 1
                {
                    ee.insert(0, *c);
                }
            }
        }
        if !ee.is_empty() {
            let mut errors = Errors::new();
            let end = resolve_end(self.src, Some(&ee), ce_pos, true, &mut errors);
            self.take_errors(errors);
            if !end.comment.is_empty() {
                self.append_comment(coll, &end.comment);
            }
            // npm yaml adds the tokens' UTF-16 lengths to `cePos`; after a wrong closing
            // bracket they need not follow it, so the sum is a count of units from there.
            let units = ee.iter().map(|t| t.source(self.src).encode_utf16().count()).sum();
            self.nodes[coll].range = [fc_offset, ce_pos, advance_units(self.src, ce_pos, units)];
        } else {
            self.nodes[coll].range = [fc_offset, ce_pos, ce_pos];
        }
        None
    }

    /// The part of `resolveFlowCollection`'s loop after an item's node (`Phase::SeqItem`: a
    /// sequence item without `:`), key (`Phase::Key`: moves on to `Phase::Value` and returns
    /// the value's props) or pair value (`Phase::Value`) is composed.
    #[allow(clippy::too_many_arguments)]
    fn flow_item_composed(
        &mut self,
        ctx: &mut Ctx,
        f: &mut Frame,
        node: Option<usize>,
        item: &Item,
        is_map: bool,
        fc_indent: u32,
        fc_name: &str,
    ) -> Option<Props> {
        let Item { key, sep, value, .. } = item;
        let coll = f.id;
        if f.phase == Phase::SeqItem {
            let value_node = node.expect("the item");
            self.add_item(coll, value_node);
            f.offset = self.nodes[value_node].range[2];
            self.block_in_flow(*value, value_node);
        } else if f.phase == Phase::Key {
            let key_node = node.expect("the key");
            self.block_in_flow(*key, key_node);
            ctx.at_key = false;
            let value_props = self.resolve_props(
                sep.as_deref().unwrap_or_default(),
                PropsOpts {
                    flow: Some(fc_name),
                    indicator: Kind::MapValueInd,
                    next: value.map_or(Next::None, Next::Node),
                    offset: self.nodes[key_node].range[2],
                    parent_indent: fc_indent,
                    start_on_newline: false,
                },
            );
            f.key_node = key_node;
            f.phase = Phase::Value;
            f.value_end = value_props.end;
            if let Some(found) = value_props.found {
                if !is_map && !f.props_found {
                    if let Some(sep) = sep {
                        for st in sep.iter() {
                            if *st == found {
                                break;
                            }
                            if st.kind == Kind::Newline {
                                self.err(
                                    tok_pos(st),
                                    ErrorCode::MultilineImplicitKey,
                                    "Implicit keys of flow sequence pairs need to be on a single line",
                                );
                                break;
                            }
                        }
                    }
                    if f.props_start + 1024 < found.start {
                        self.err(tok_pos(&found), ErrorCode::KeyOver1024Chars, "The : indicator must be at most 1024 chars after the start of an implicit flow sequence key");
                    }
                }
            } else if let Some(v) = value {
                let starts_colon = match self.node(*v) {
                    Node::FlowScalar { source, .. } => {
                        self.src.as_bytes().get(source.0 as usize) == Some(&b':') && source.1 > source.0
                    }
                    Node::Error { source, message } => message.source(*source, self.src).starts_with(':'),
                    Node::Directive { source } | Node::DocEnd { source, .. } => {
                        self.src[source.0 as usize..source.1 as usize].starts_with(':')
                    }
                    Node::BlockScalar { source, .. } => self.src[source.0 as usize..source.1 as usize].starts_with(':'),
                    _ => false,
                };
                if starts_colon {
                    self.err(self.node_pos(*v), ErrorCode::MissingChar, format!("Missing space after : in {fc_name}"));
                } else {
                    self.err(
                        at(value_props.start),
                        ErrorCode::MissingChar,
                        format!("Missing , or : between {fc_name} items"),
                    );
                }
            }
            return Some(value_props);
        } else {
            let (key_node, value_node, key_start) = (f.key_node, node, f.key_start);
            if let Some(vn) = value_node {
                self.block_in_flow(*value, vn);
            } else if !f.value_comment.is_empty() {
                let c = std::mem::take(&mut f.value_comment);
                self.append_comment(key_node, &c);
            }
            if is_map {
                if f.seen.includes(&self.nodes, key_node) {
                    self.err(at(key_start), ErrorCode::DuplicateKey, "Map keys must be unique");
                }
                f.seen.note(&self.nodes, key_node);
                self.add_pair(coll, key_node, value_node);
            } else {
                let kr = self.nodes[key_node].range;
                let er = self.nodes[value_node.unwrap_or(key_node)].range;
                let m = self.push(
                    NodeKind::Map { pairs: vec![(key_node, value_node)], kind: CollKind::Map, flow: true },
                    [kr[0], er[1], er[2]],
                );
                self.add_item(coll, m);
            }
            f.offset = match value_node {
                Some(vn) => self.nodes[vn].range[2],
                None => f.value_end,
            };
        }
        f.i += 1;
        f.phase = Phase::Item;
        None
    }

    /// `containsNewline`
    fn contains_newline(&self, key: Option<NodeId>) -> bool {
        let Some(key) = key else { return false };
        if let Node::FlowScalar { source, end, .. } = self.node(key) {
            return self.src.as_bytes()[source.0 as usize..source.1 as usize].contains(&b'\n')
                || end.as_ref().is_some_and(|e| e.iter().any(|t| t.kind == Kind::Newline));
        }
        let mut stack = vec![key];
        while let Some(k) = stack.pop() {
            match self.node(k) {
                Node::FlowScalar { source, end, .. } => {
                    if self.src.as_bytes()[source.0 as usize..source.1 as usize].contains(&b'\n') {
                        return true;
                    }
                    if end.as_ref().is_some_and(|e| e.iter().any(|t| t.kind == Kind::Newline)) {
                        return true;
                    }
                }
                Node::FlowCollection { items, .. } => {
                    for it in items {
                        if it.start.iter().any(|t| t.kind == Kind::Newline) {
                            return true;
                        }
                        if it.sep.as_ref().is_some_and(|s| s.iter().any(|t| t.kind == Kind::Newline)) {
                            return true;
                        }
                    }
                    // the items' keys and values, in order
                    for it in items.iter().rev() {
                        stack.extend(it.value);
                        stack.extend(it.key);
                    }
                }
                _ => return true,
            }
        }
        false
    }
}

/// `emptyScalarPosition(offset, before, undefined)`
fn empty_scalar_position(mut offset: u32, before: Option<&[SourceToken]>) -> u32 {
    if let Some(before) = before {
        let mut i = before.len();
        while i > 0 {
            i -= 1;
            let st = &before[i];
            match st.kind {
                Kind::Space | Kind::Comment | Kind::Newline => {
                    offset -= st.end - st.start;
                    continue;
                }
                _ => {}
            }
            i += 1;
            while let Some(st) = before.get(i)
                && st.kind == Kind::Space
            {
                offset += st.end - st.start;
                i += 1;
            }
            break;
        }
    }
    offset
}

/// `String(scalar.value)` for an omap key message.
fn scalar_string(v: &Scalar) -> String {
    match v {
        Scalar::Null => "null".into(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Number(x) => crate::js::number::js_number_to_string(*x),
        Scalar::Str(s) => s.as_str().to_string(),
        Scalar::Date(t) => crate::js::date_to_string(*t),
        Scalar::Buffer(b) => String::from_utf8_lossy(b).into_owned(),
        Scalar::Merge => "Symbol(<<)".into(),
    }
}

/// The first document of a stream, its errors and warnings in npm yaml's order (what
/// `parseDocument` leaves in `doc.errors` and `doc.warnings`).
pub struct Composed {
    pub doc: Doc,
    pub errors: Vec<Diag>,
    pub warnings: Vec<Diag>,
}

/// `Composer` with `compose(tokens, true, src.length)` as `parseDocument` runs it, up to the
/// second document (which only adds `MULTIPLE_DOCS` to the first).
pub fn compose(src: &str, cst: &Cst) -> Composed {
    let mut directives = Directives::new();
    let mut at_directives = false;
    // `this.errors` / `this.warnings` of the composer
    let mut pending: Vec<Diag> = Vec::new();
    let mut first: Option<(Doc, Vec<Diag>)> = None;
    let mut second_range: Option<[u32; 2]> = None;
    for top in &cst.top {
        let Top::Node(id) = top else { continue };
        match cst.node(*id) {
            Node::Directive { source } => {
                let line = &src[source.0 as usize..source.1 as usize];
                let start = source.0;
                let end = source.1;
                directives.add(line, &mut |off, message, warning| {
                    pending.push(Diag {
                        pos: Pos { start: start + off, end: PosEnd::At(end) },
                        code: ErrorCode::BadDirective,
                        message,
                        warning,
                    });
                });
                at_directives = true;
            }
            Node::Document { offset, start, value, end } => {
                let mut diags = std::mem::take(&mut pending);
                let doc_dirs = directives.at_document();
                let doc = compose_doc(src, cst, doc_dirs, *offset, start, *value, end.as_deref(), &mut diags);
                let doc_start = doc.1;
                let doc = doc.0;
                if at_directives && !doc_start {
                    diags.push(Diag {
                        pos: at(*offset),
                        code: ErrorCode::MissingChar,
                        message: "Missing directives-end/doc-start indicator line".into(),
                        warning: false,
                    });
                }
                at_directives = false;
                if first.is_none() {
                    first = Some((doc, diags));
                } else {
                    second_range = Some([doc.range[0], doc.range[1]]);
                    break;
                }
            }
            Node::Error { source, message } => {
                let s = message.source(*source, src);
                let msg =
                    if s.is_empty() { message.text(s) } else { format!("{}: {}", message.text(s), json_stringify(s)) };
                let d = Diag {
                    pos: Pos { start: source.0, end: PosEnd::At(source.1) },
                    code: ErrorCode::UnexpectedToken,
                    message: msg,
                    warning: false,
                };
                match &mut first {
                    Some((_, diags)) if !at_directives => diags.push(d),
                    _ => pending.push(d),
                }
            }
            Node::DocEnd { source, end } => {
                let Some((_, diags)) = &mut first else {
                    pending.push(Diag {
                        pos: Pos { start: source.0, end: PosEnd::At(source.1) },
                        code: ErrorCode::UnexpectedToken,
                        message: "Unexpected doc-end without preceding document".into(),
                        warning: false,
                    });
                    continue;
                };
                let mut errors = Errors::new();
                resolve_end(src, end.as_deref(), source.1, true, &mut errors);
                for e in errors {
                    let pos = match e.at {
                        ErrorAt::Offset(o) => at(o),
                        ErrorAt::Token(t) => tok_pos(&t),
                    };
                    pending.push(Diag { pos, code: e.code, message: e.message, warning: false });
                }
                diags.append(&mut pending);
            }
            _ => {}
        }
    }
    let (doc, mut diags) = match first {
        Some((doc, mut diags)) => {
            if second_range.is_none() {
                diags.append(&mut pending);
            }
            (doc, diags)
        }
        None => {
            // `end(true, src.length)`: an empty document
            let len = src.len() as u32;
            if at_directives {
                pending.push(Diag {
                    pos: at(len),
                    code: ErrorCode::MissingChar,
                    message: "Missing directives-end indicator line".into(),
                    warning: false,
                });
            }
            let schema = if directives.at_document().explicit_11() { SchemaKind::Yaml11 } else { SchemaKind::Core };
            let nodes = vec![DocNode {
                kind: NodeKind::Scalar { value: Scalar::Null, style: ScalarStyle::Plain, source: JsStr::default() },
                anchor: None,
                tag: None,
                range: [len; 3],
                space_before: false,
                comment_before: String::new(),
                comment: String::new(),
            }];
            // `new Document(undefined)`: contents null
            (Doc { nodes, root: None, schema, range: [0, len, len] }, pending)
        }
    };
    if let Some(r) = second_range {
        diags.push(Diag {
            pos: Pos { start: r[0], end: PosEnd::At(r[1]) },
            code: ErrorCode::MultipleDocs,
            message: "Source contains multiple documents; please use YAML.parseAllDocuments()".into(),
            warning: false,
        });
    }
    let (warnings, errors) = diags.into_iter().partition(|d| d.warning);
    Composed { doc, errors, warnings }
}

impl Directives {
    fn explicit_11(&self) -> bool {
        self.explicit && self.version_11
    }
}

/// `JSON.stringify` of a string (an error token's source in a message).
fn json_stringify(s: &str) -> String {
    crate::jsstr::json_string(s)
}

/// `composeDoc`; also whether the document had a `---`.
#[allow(clippy::too_many_arguments)]
fn compose_doc(
    src: &str,
    cst: &Cst,
    directives: Directives,
    offset: u32,
    start: &[SourceToken],
    value: Option<NodeId>,
    end: Option<&[SourceToken]>,
    diags: &mut Vec<Diag>,
) -> (Doc, bool) {
    let schema = if directives.explicit_11() { SchemaKind::Yaml11 } else { SchemaKind::Core };
    let mut c =
        DocComposer { src, cst, directives, schema, nodes: Vec::new(), anchors: HashMap::new(), diags, cost: 0.0 };
    let mut ctx = Ctx { at_key: false, at_root: true };
    let next = match (value, end.and_then(|e| e.first())) {
        (Some(v), _) => Next::Node(v),
        (None, Some(t)) => Next::Tok(*t),
        _ => Next::None,
    };
    let props = c.resolve_props(
        start,
        PropsOpts { flow: None, indicator: Kind::DocStart, next, offset, parent_indent: 0, start_on_newline: true },
    );
    let doc_start = props.found.is_some();
    if doc_start
        && value.is_some_and(|v| matches!(cst.node(v), Node::BlockMap { .. } | Node::BlockSeq { .. }))
        && !props.has_newline
    {
        c.err(
            at(props.end),
            ErrorCode::MissingChar,
            "Block collection cannot start on same line with directives-end marker",
        );
    }
    let root = match value {
        Some(v) => c.compose_node(&mut ctx, v, &props),
        None => c.compose_empty_node(&mut ctx, props.end, Some(start), &props),
    };
    let content_end = c.nodes[root].range[2];
    let mut errors = Errors::new();
    let re = resolve_end(src, end, content_end, false, &mut errors);
    c.take_errors(errors);
    let nodes = std::mem::take(&mut c.nodes);
    (Doc { nodes, root: Some(root), schema, range: [offset, content_end, re.offset] }, doc_start)
}

/// The byte offset `units` UTF-16 code units after byte `from` of `src` (npm yaml's offset
/// arithmetic), clamped to the text; a count that ends inside a surrogate pair stops before it.
pub(crate) fn advance_units(src: &str, from: u32, units: usize) -> u32 {
    let mut at = (from as usize).min(src.len());
    let mut left = units;
    for c in src.get(at..).unwrap_or_default().chars() {
        if left < c.len_utf16() {
            break;
        }
        left -= c.len_utf16();
        at += c.len_utf8();
    }
    at as u32
}
