//! The CST parser (npm yaml: `parse/parser.ts`): lexical tokens in, a concrete syntax tree out.
//!
//! npm yaml's parser already keeps its open nodes on an explicit stack; its only recursion is
//! `pop(); step()` (re-dispatching the current token to the new top of the stack) and `pop()`
//! calling itself once. Here both are loops: each handler returns whether the token still needs
//! a step, so a deep dedent costs a loop, not a call stack.

use crate::cst::{Cst, ErrorMessage, Item, Node, NodeId, SourceToken, Top};
use crate::token::{Kind, Token};

/// `includesToken(list, type)`
fn includes(list: &[SourceToken], kind: Kind) -> bool {
    list.iter().any(|t| t.kind == kind)
}

/// `findNonEmptyIndex(list) !== -1`
fn has_non_empty(list: &[SourceToken]) -> bool {
    list.iter().any(|t| !matches!(t.kind, Kind::Space | Kind::Comment | Kind::Newline))
}

/// `getFirstKeyStartProps(prev)`: splits off the props after the last indicator or line break.
fn split_key_start_props(prev: &mut Vec<SourceToken>) -> Vec<SourceToken> {
    if prev.is_empty() {
        return Vec::new();
    }
    let mut i = prev
        .iter()
        .rposition(|t| {
            matches!(
                t.kind,
                Kind::DocStart | Kind::ExplicitKeyInd | Kind::MapValueInd | Kind::SeqItemInd | Kind::Newline
            )
        })
        .map_or(0, |i| i + 1);
    while prev.get(i).is_some_and(|t| t.kind == Kind::Space) {
        i += 1;
    }
    prev.split_off(i.min(prev.len()))
}

fn item_start(start: Vec<SourceToken>) -> Item {
    Item { start, ..Item::default() }
}

fn item_key(start: Vec<SourceToken>, key: Option<NodeId>, sep: Vec<SourceToken>) -> Item {
    Item { start, key, sep: Some(sep), ..Item::default() }
}

/// Parses `src`'s tokens (from [`crate::lex`]) into npm yaml's concrete syntax tree.
pub fn parse(src: &str, tokens: &[Token]) -> Cst {
    let mut p = Parser {
        src: src.as_bytes(),
        cst: Cst { nodes: Vec::with_capacity(tokens.len() / 4 + 4), top: Vec::new(), newlines: Vec::new() },
        stack: Vec::new(),
        at_new_line: true,
        indent: 0,
        on_key_line: false,
        kind: Kind::Newline,
        start: 0,
        end: 0,
    };
    for &t in tokens {
        p.next(t);
    }
    while !p.stack.is_empty() {
        p.pop(None);
    }
    p.cst
}

/// Whether a handler is done with the current token, or popped and wants it stepped again.
#[derive(PartialEq, Eq)]
enum Flow {
    Done,
    Again,
}

struct Parser<'a> {
    src: &'a [u8],
    cst: Cst,
    stack: Vec<NodeId>,
    /// Space and sequence indicators count as indentation.
    at_new_line: bool,
    indent: u32,
    /// On the same line with a block map key.
    on_key_line: bool,
    /// The current token: `this.type` and its source range (`this.offset` is `start`).
    kind: Kind,
    start: u32,
    end: u32,
}

impl Parser<'_> {
    fn node(&mut self, id: NodeId) -> &mut Node {
        &mut self.cst.nodes[id as usize]
    }

    fn alloc(&mut self, node: Node) -> NodeId {
        self.cst.nodes.push(node);
        (self.cst.nodes.len() - 1) as NodeId
    }

    fn source_token(&self) -> SourceToken {
        SourceToken { kind: self.kind, start: self.start, end: self.end, indent: self.indent }
    }

    fn peek(&self, n: usize) -> Option<NodeId> {
        self.stack.len().checked_sub(n).map(|i| self.stack[i])
    }

    fn items(&mut self, id: NodeId) -> &mut Vec<Item> {
        self.node(id).items_mut().expect("a collection")
    }

    /// `next(source)`
    fn next(&mut self, t: Token) {
        self.start = t.start;
        self.end = t.end;
        if t.kind == Kind::Unknown {
            let error = self.alloc(Node::Error { source: (t.start, t.end), message: ErrorMessage::NotAToken });
            self.pop(Some(error));
            return;
        }
        self.kind = t.kind;
        if t.kind == Kind::Scalar {
            // npm yaml's `\x1f` marker, then the scalar's text
            self.at_new_line = false;
            self.step();
            return;
        }
        self.step();
        match t.kind {
            Kind::Newline => {
                self.at_new_line = true;
                self.indent = 0;
            }
            Kind::Space => {
                if self.at_new_line && self.src[t.start as usize] == b' ' {
                    self.indent += t.len();
                }
            }
            Kind::ExplicitKeyInd | Kind::MapValueInd | Kind::SeqItemInd => {
                if self.at_new_line {
                    self.indent += t.len();
                }
            }
            Kind::DocMode | Kind::FlowErrorEnd => {}
            _ => self.at_new_line = false,
        }
    }

    /// `step()`, with `pop(); step()` as a loop.
    fn step(&mut self) {
        while self.step_once() == Flow::Again {}
    }

    fn step_once(&mut self) -> Flow {
        let top = self.peek(1);
        if self.kind == Kind::DocEnd && !top.is_some_and(|t| matches!(self.cst.nodes[t as usize], Node::DocEnd { .. }))
        {
            while !self.stack.is_empty() {
                self.pop(None);
            }
            let node = self.alloc(Node::DocEnd { source: (self.start, self.end), end: None });
            self.stack.push(node);
            return Flow::Done;
        }
        let Some(top) = top else {
            self.stream();
            return Flow::Done;
        };
        match self.cst.nodes[top as usize] {
            Node::Document { .. } => self.document(top),
            Node::FlowScalar { .. } => self.scalar(top),
            Node::BlockScalar { .. } => self.block_scalar(top),
            Node::BlockMap { .. } => self.block_map(top),
            Node::BlockSeq { .. } => self.block_sequence(top),
            Node::FlowCollection { .. } => self.flow_collection(top),
            Node::DocEnd { .. } => {
                self.document_end(top);
                Flow::Done
            }
            Node::Directive { .. } | Node::Error { .. } => {
                self.pop(None);
                Flow::Done
            }
        }
    }

    /// `pop(error)`: closes the top node (or places `error`) into its parent.
    fn pop(&mut self, error: Option<NodeId>) {
        let mut error = error;
        loop {
            let token = match error.take() {
                Some(e) => e,
                None => match self.stack.pop() {
                    Some(t) => t,
                    None => return, // npm yaml: 'Tried to pop an empty stack' (unreachable)
                },
            };
            let Some(top) = self.peek(1) else {
                self.cst.top.push(Top::Node(token));
                return;
            };
            let top_indent = self.cst.nodes[top as usize].indent();
            let top_is_document = matches!(self.cst.nodes[top as usize], Node::Document { .. });
            match self.node(token) {
                // Block scalars use their parent rather than header indent
                Node::BlockScalar { indent, .. } => *indent = top_indent.unwrap_or(0),
                // Ignore all indent for top-level flow collections
                Node::FlowCollection { indent, .. } if top_is_document => *indent = 0,
                _ => {}
            }
            if matches!(self.cst.nodes[token as usize], Node::FlowCollection { .. }) {
                self.fix_flow_seq_items(token);
            }
            let token_source = match self.cst.nodes[token as usize] {
                Node::Error { source, .. } => source,
                ref n => (n.offset(), n.offset()),
            };
            match &mut self.cst.nodes[top as usize] {
                Node::Document { value, .. } => *value = Some(token),
                Node::BlockScalar { props, .. } => {
                    // an error token
                    let (start, end) = token_source;
                    props.push(SourceToken { kind: Kind::Unknown, start, end, indent: 0 });
                }
                Node::BlockMap { items, .. } => {
                    let it = items.last_mut().expect("an item");
                    if it.value.is_some() {
                        items.push(item_key(Vec::new(), Some(token), Vec::new()));
                        self.on_key_line = true;
                        return;
                    } else if it.sep.is_some() {
                        it.value = Some(token);
                    } else {
                        it.key = Some(token);
                        it.sep = Some(Vec::new());
                        self.on_key_line = !it.explicit_key;
                        return;
                    }
                }
                Node::BlockSeq { items, .. } => {
                    let it = items.last_mut().expect("an item");
                    if it.value.is_some() {
                        items.push(Item { value: Some(token), ..Item::default() });
                    } else {
                        it.value = Some(token);
                    }
                }
                Node::FlowCollection { items, .. } => {
                    match items.last_mut() {
                        Some(it) if it.value.is_none() => {
                            if it.sep.is_some() {
                                it.value = Some(token);
                            } else {
                                it.key = Some(token);
                                it.sep = Some(Vec::new());
                            }
                        }
                        _ => items.push(item_key(Vec::new(), Some(token), Vec::new())),
                    }
                    return;
                }
                _ => {
                    // a scalar or a document end: close it first, then place the token
                    self.pop(None);
                    error = Some(token);
                    continue;
                }
            }
            self.move_trailing_empty_item(top, token);
            return;
        }
    }

    /// The end of `pop()`: a closed block collection's last item holding only white space,
    /// comments and line breaks (not more indented comments) moves up to its parent.
    fn move_trailing_empty_item(&mut self, top: NodeId, token: NodeId) {
        let (token_indent, items) = match &mut self.cst.nodes[token as usize] {
            Node::BlockMap { indent, items, .. } | Node::BlockSeq { indent, items, .. } => (*indent, items),
            _ => return,
        };
        let Some(last) = items.last() else { return };
        if last.sep.is_some()
            || last.value.is_some()
            || last.start.is_empty()
            || has_non_empty(&last.start)
            || !(token_indent == 0 || last.start.iter().all(|st| st.kind != Kind::Comment || st.indent < token_indent))
        {
            return;
        }
        let start = items.pop().expect("an item").start;
        match &mut self.cst.nodes[top as usize] {
            Node::Document { end, .. } => *end = Some(start),
            Node::BlockMap { items, .. } | Node::BlockSeq { items, .. } => items.push(item_start(start)),
            _ => unreachable!("a document or block collection"),
        }
    }

    /// `fixFlowSeqItems(fc)`: in a flow sequence, an item with a separator but no `?` or `:` is
    /// a plain value.
    fn fix_flow_seq_items(&mut self, fc: NodeId) {
        let Node::FlowCollection { start, items, .. } = &mut self.cst.nodes[fc as usize] else { return };
        if start.kind != Kind::FlowSeqStart {
            return;
        }
        let mut moves = Vec::new();
        for (i, it) in items.iter_mut().enumerate() {
            let Some(sep) = &it.sep else { continue };
            if it.value.is_some() || includes(&it.start, Kind::ExplicitKeyInd) || includes(sep, Kind::MapValueInd) {
                continue;
            }
            if it.key.is_some() {
                it.value = it.key;
            }
            it.key = None;
            moves.push((i, it.sep.take().expect("a separator")));
        }
        for (i, sep) in moves {
            let value = self.items(fc)[i].value;
            let target = value.filter(|&v| self.cst.nodes[v as usize].is_flow_token());
            match target {
                Some(v) => match &mut self.cst.nodes[v as usize] {
                    Node::FlowScalar { end, .. } => match end {
                        Some(end) => end.extend(sep),
                        None => *end = Some(sep),
                    },
                    Node::FlowCollection { end, .. } => end.extend(sep),
                    _ => unreachable!("a flow token"),
                },
                None => self.items(fc)[i].start.extend(sep),
            }
        }
    }

    fn stream(&mut self) {
        match self.kind {
            Kind::DirectiveLine => {
                let node = self.alloc(Node::Directive { source: (self.start, self.end) });
                self.cst.top.push(Top::Node(node));
            }
            Kind::ByteOrderMark | Kind::Space | Kind::Comment | Kind::Newline => {
                self.cst.top.push(Top::Token(self.source_token()));
            }
            Kind::DocMode | Kind::DocStart => {
                let start = if self.kind == Kind::DocStart { vec![self.source_token()] } else { Vec::new() };
                let doc = self.alloc(Node::Document { offset: self.start, start, value: None, end: None });
                self.stack.push(doc);
            }
            kind => {
                let message = ErrorMessage::UnexpectedInStream(kind);
                let node = self.alloc(Node::Error { source: (self.start, self.end), message });
                self.cst.top.push(Top::Node(node));
            }
        }
    }

    fn document(&mut self, doc: NodeId) -> Flow {
        let st = self.source_token();
        let Node::Document { start, value, .. } = self.node(doc) else { unreachable!() };
        if value.is_some() {
            return self.line_end(doc);
        }
        match st.kind {
            Kind::DocStart => {
                if has_non_empty(start) {
                    self.pop(None);
                    return Flow::Again;
                }
                start.push(st);
                return Flow::Done;
            }
            Kind::Anchor | Kind::Tag | Kind::Space | Kind::Comment | Kind::Newline => {
                start.push(st);
                return Flow::Done;
            }
            _ => {}
        }
        if let Some(bv) = self.start_block_value(doc) {
            self.stack.push(bv);
        } else {
            let message = ErrorMessage::UnexpectedInDocument(self.kind);
            let node = self.alloc(Node::Error { source: (self.start, self.end), message });
            self.cst.top.push(Top::Node(node));
        }
        Flow::Done
    }

    fn scalar(&mut self, scalar: NodeId) -> Flow {
        if self.kind != Kind::MapValueInd {
            return self.line_end(scalar);
        }
        let parent = self.peek(2).expect("a parent");
        let start = self.prev_key_start_props(parent);
        let st = self.source_token();
        let (offset, indent, sep) = match self.node(scalar) {
            Node::FlowScalar { source, indent, end, .. } => {
                let mut sep = end.take().unwrap_or_default();
                sep.push(st);
                (source.0, *indent, sep)
            }
            _ => unreachable!("a flow scalar"),
        };
        let map = self.alloc(Node::BlockMap { offset, indent, items: vec![item_key(start, Some(scalar), sep)] });
        self.on_key_line = true;
        *self.stack.last_mut().expect("a node") = map;
        Flow::Done
    }

    fn block_scalar(&mut self, scalar: NodeId) -> Flow {
        let st = self.source_token();
        match self.kind {
            Kind::Space | Kind::Comment | Kind::Newline => {
                if let Node::BlockScalar { props, .. } = self.node(scalar) {
                    props.push(st);
                }
                Flow::Done
            }
            Kind::Scalar => {
                if let Node::BlockScalar { source, .. } = self.node(scalar) {
                    *source = (st.start, st.end);
                }
                // block-scalar source includes trailing newline
                self.at_new_line = true;
                self.indent = 0;
                self.scalar_newlines(st.start, st.end);
                self.pop(None);
                Flow::Done
            }
            _ => {
                self.pop(None);
                Flow::Again
            }
        }
    }

    /// `getFirstKeyStartProps(getPrevProps(parent))`
    fn prev_key_start_props(&mut self, parent: NodeId) -> Vec<SourceToken> {
        match self.node(parent) {
            Node::Document { start, .. } => split_key_start_props(start),
            Node::BlockMap { items, .. } => {
                let it = items.last_mut().expect("an item");
                match &mut it.sep {
                    Some(sep) => split_key_start_props(sep),
                    None => split_key_start_props(&mut it.start),
                }
            }
            Node::BlockSeq { items, .. } => split_key_start_props(&mut items.last_mut().expect("an item").start),
            _ => Vec::new(),
        }
    }

    /// The `end` list of an item's value, if the value has one (`prev?.value?.end`).
    fn value_end(&mut self, value: Option<NodeId>) -> Option<&mut Vec<SourceToken>> {
        let v = value?;
        self.node(v).end_list_mut()
    }

    /// A line break after an item's value: into the value's `end` after a comment, else a new item.
    fn newline_after_value(&mut self, coll: NodeId, value: NodeId) {
        let st = self.source_token();
        if let Some(end) = self.value_end(Some(value))
            && end.last().is_some_and(|t| t.kind == Kind::Comment)
        {
            end.push(st);
            return;
        }
        self.items(coll).push(item_start(vec![st]));
    }

    /// `atIndentedComment(start, indent)`
    fn at_indented_comment(&self, start: &[SourceToken], indent: u32) -> bool {
        self.kind == Kind::Comment
            && self.indent > indent
            && start.iter().all(|st| matches!(st.kind, Kind::Newline | Kind::Space))
    }

    /// An indented comment after an item with no value yet: the item's start and the comment go
    /// into the previous item's value's `end`, and the item is dropped. Returns whether it did.
    fn indented_comment_to_prev(&mut self, coll: NodeId, indent: u32) -> bool {
        let items = self.cst.nodes[coll as usize].items().expect("a collection");
        let it = items.last().expect("an item");
        if !self.at_indented_comment(&it.start, indent) || items.len() < 2 {
            return false;
        }
        let prev_value = items[items.len() - 2].value;
        if self.value_end(prev_value).is_none() {
            return false;
        }
        let st = self.source_token();
        let it = self.items(coll).pop().expect("an item");
        let end = self.value_end(prev_value).expect("an end list");
        end.extend(it.start);
        end.push(st);
        true
    }

    fn block_map(&mut self, map: NodeId) -> Flow {
        let st = self.source_token();
        let Node::BlockMap { indent: map_indent, ref items, .. } = self.cst.nodes[map as usize] else { unreachable!() };
        let last = items.len() - 1;
        let (it_value, it_has_sep, it_explicit) = {
            let it = &items[last];
            (it.value, it.sep.is_some(), it.explicit_key)
        };
        match self.kind {
            Kind::Newline => {
                self.on_key_line = false;
                if let Some(v) = it_value {
                    self.newline_after_value(map, v);
                } else {
                    let it = &mut self.items(map)[last];
                    match &mut it.sep {
                        Some(sep) => sep.push(st),
                        None => it.start.push(st),
                    }
                }
                return Flow::Done;
            }
            Kind::Space | Kind::Comment => {
                if it_value.is_some() {
                    self.items(map).push(item_start(vec![st]));
                } else if it_has_sep {
                    self.items(map)[last].sep.as_mut().expect("a separator").push(st);
                } else if !self.indented_comment_to_prev(map, map_indent) {
                    self.items(map)[last].start.push(st);
                }
                return Flow::Done;
            }
            _ => {}
        }
        if self.indent >= map_indent {
            let at_map_indent = !self.on_key_line && self.indent == map_indent;
            let at_next_item = at_map_indent && (it_has_sep || it_explicit) && self.kind != Kind::SeqItemInd;
            // For empty nodes, assign newline-separated not indented empty tokens to following node
            let mut start = Vec::new();
            if at_next_item && it_has_sep && it_value.is_none() {
                let sep = self.items(map)[last].sep.as_mut().expect("a separator");
                let mut nl: Vec<usize> = Vec::new();
                for (i, t) in sep.iter().enumerate() {
                    match t.kind {
                        Kind::Newline => nl.push(i),
                        Kind::Space => {}
                        Kind::Comment => {
                            if t.indent > map_indent {
                                nl.clear();
                            }
                        }
                        _ => nl.clear(),
                    }
                }
                if nl.len() >= 2 {
                    start = sep.split_off(nl[1]);
                }
            }
            match self.kind {
                Kind::Anchor | Kind::Tag => {
                    if at_next_item || it_value.is_some() {
                        start.push(st);
                        self.items(map).push(item_start(start));
                        self.on_key_line = true;
                    } else {
                        let it = &mut self.items(map)[last];
                        match &mut it.sep {
                            Some(sep) => sep.push(st),
                            None => it.start.push(st),
                        }
                    }
                    return Flow::Done;
                }
                Kind::ExplicitKeyInd => {
                    if !it_has_sep && !it_explicit {
                        let it = &mut self.items(map)[last];
                        it.start.push(st);
                        it.explicit_key = true;
                    } else if at_next_item || it_value.is_some() {
                        start.push(st);
                        self.items(map).push(Item { start, explicit_key: true, ..Item::default() });
                    } else {
                        let node = Node::BlockMap {
                            offset: self.start,
                            indent: self.indent,
                            items: vec![Item { start: vec![st], explicit_key: true, ..Item::default() }],
                        };
                        let node = self.alloc(node);
                        self.stack.push(node);
                    }
                    self.on_key_line = true;
                    return Flow::Done;
                }
                Kind::MapValueInd => {
                    self.block_map_value_ind(map, last, start);
                    self.on_key_line = true;
                    return Flow::Done;
                }
                Kind::Alias | Kind::Scalar | Kind::SingleQuotedScalar | Kind::DoubleQuotedScalar => {
                    let fs = self.flow_scalar();
                    if at_next_item || it_value.is_some() {
                        self.items(map).push(item_key(start, Some(fs), Vec::new()));
                        self.on_key_line = true;
                    } else if it_has_sep {
                        self.stack.push(fs);
                    } else {
                        let it = &mut self.items(map)[last];
                        it.key = Some(fs);
                        it.sep = Some(Vec::new());
                        self.on_key_line = true;
                    }
                    return Flow::Done;
                }
                _ => {
                    if let Some(bv) = self.start_block_value(map) {
                        if matches!(self.cst.nodes[bv as usize], Node::BlockSeq { .. }) {
                            let it = &self.items(map)[last];
                            if !it.explicit_key && it.sep.as_ref().is_some_and(|sep| !includes(sep, Kind::Newline)) {
                                self.cst.nodes.pop(); // `bv`, never placed
                                let message = ErrorMessage::SeqIndOnKeyLine;
                                let error = self.alloc(Node::Error { source: (self.start, self.end), message });
                                self.pop(Some(error));
                                return Flow::Done;
                            }
                        } else if at_map_indent {
                            self.items(map).push(item_start(start));
                        }
                        self.stack.push(bv);
                        return Flow::Done;
                    }
                }
            }
        }
        self.pop(None);
        Flow::Again
    }

    /// `blockMap`'s `map-value-ind` case; `start` holds what was split off the item's `sep`.
    fn block_map_value_ind(&mut self, map: NodeId, last: usize, start: Vec<SourceToken>) {
        let st = self.source_token();
        let (offset, indent) = (self.start, self.indent);
        let Node::BlockMap { indent: map_indent, ref items, .. } = self.cst.nodes[map as usize] else { unreachable!() };
        let it = &items[last];
        let at_next_item = !self.on_key_line && self.indent == map_indent && (it.sep.is_some() || it.explicit_key);
        let sep_has = |kind| it.sep.as_ref().is_some_and(|sep| includes(sep, kind));
        let (sep_has_value_ind, sep_has_newline) = (sep_has(Kind::MapValueInd), sep_has(Kind::Newline));
        let key_is_flow = it.key.is_some_and(|k| self.cst.nodes[k as usize].is_flow_token());
        let start_has_newline = includes(&it.start, Kind::Newline);
        let (explicit, has_sep, has_value) = (it.explicit_key, it.sep.is_some(), it.value.is_some());
        let new_map = |start: Vec<SourceToken>, key: Option<NodeId>, sep: Vec<SourceToken>| Node::BlockMap {
            offset,
            indent,
            items: vec![item_key(start, key, sep)],
        };
        let it = &mut self.items(map)[last];
        let node = if explicit {
            if !has_sep {
                if start_has_newline {
                    it.key = None;
                    it.sep = Some(vec![st]);
                    return;
                }
                new_map(split_key_start_props(&mut it.start), None, vec![st])
            } else if has_value {
                self.items(map).push(item_key(Vec::new(), None, vec![st]));
                return;
            } else if sep_has_value_ind {
                new_map(start, None, vec![st])
            } else if key_is_flow && !sep_has_newline {
                let key_start = split_key_start_props(&mut it.start);
                let key = it.key.take();
                let mut sep = it.sep.take().expect("a separator");
                sep.push(st);
                new_map(key_start, key, sep)
            } else {
                // not actually at the next item: `it.sep = it.sep.concat(start, this.sourceToken)`
                let sep = it.sep.as_mut().expect("a separator");
                sep.extend(start);
                sep.push(st);
                return;
            }
        } else if !has_sep {
            it.key = None;
            it.sep = Some(vec![st]);
            return;
        } else if has_value || at_next_item {
            self.items(map).push(item_key(start, None, vec![st]));
            return;
        } else if sep_has_value_ind {
            new_map(Vec::new(), None, vec![st])
        } else {
            it.sep.as_mut().expect("a separator").push(st);
            return;
        };
        let node = self.alloc(node);
        self.stack.push(node);
    }

    fn block_sequence(&mut self, seq: NodeId) -> Flow {
        let st = self.source_token();
        let Node::BlockSeq { indent: seq_indent, ref items, .. } = self.cst.nodes[seq as usize] else { unreachable!() };
        let last = items.len() - 1;
        let it_value = items[last].value;
        match self.kind {
            Kind::Newline => {
                match it_value {
                    Some(v) => self.newline_after_value(seq, v),
                    None => self.items(seq)[last].start.push(st),
                }
                return Flow::Done;
            }
            Kind::Space | Kind::Comment => {
                if it_value.is_some() {
                    self.items(seq).push(item_start(vec![st]));
                } else if !self.indented_comment_to_prev(seq, seq_indent) {
                    self.items(seq)[last].start.push(st);
                }
                return Flow::Done;
            }
            Kind::Anchor | Kind::Tag if it_value.is_none() && self.indent > seq_indent => {
                self.items(seq)[last].start.push(st);
                return Flow::Done;
            }
            Kind::SeqItemInd if self.indent == seq_indent => {
                let it = &mut self.items(seq)[last];
                if it_value.is_some() || includes(&it.start, Kind::SeqItemInd) {
                    self.items(seq).push(item_start(vec![st]));
                } else {
                    it.start.push(st);
                }
                return Flow::Done;
            }
            _ => {}
        }
        if self.indent > seq_indent
            && let Some(bv) = self.start_block_value(seq)
        {
            self.stack.push(bv);
            return Flow::Done;
        }
        self.pop(None);
        Flow::Again
    }

    fn flow_collection(&mut self, fc: NodeId) -> Flow {
        let st = self.source_token();
        if self.kind == Kind::FlowErrorEnd {
            loop {
                self.pop(None);
                match self.peek(1) {
                    Some(top) if matches!(self.cst.nodes[top as usize], Node::FlowCollection { .. }) => {}
                    _ => break,
                }
            }
            return Flow::Done;
        }
        let Node::FlowCollection { ref items, ref end, indent: fc_indent, .. } = self.cst.nodes[fc as usize] else {
            unreachable!()
        };
        if end.is_empty() {
            let last = items.len().checked_sub(1);
            let (it_value, it_has_sep) = match last {
                Some(i) => (items[i].value, items[i].sep.is_some()),
                None => (None, false),
            };
            // `!it || it.value`
            let new_item = last.is_none() || it_value.is_some();
            match self.kind {
                Kind::Comma | Kind::ExplicitKeyInd => {
                    match last {
                        Some(i) if !it_has_sep => self.items(fc)[i].start.push(st),
                        _ => self.items(fc).push(item_start(vec![st])),
                    }
                    return Flow::Done;
                }
                Kind::MapValueInd => {
                    if new_item {
                        self.items(fc).push(item_key(Vec::new(), None, vec![st]));
                    } else {
                        let it = &mut self.items(fc)[last.expect("an item")];
                        match &mut it.sep {
                            Some(sep) => sep.push(st),
                            None => {
                                it.key = None;
                                it.sep = Some(vec![st]);
                            }
                        }
                    }
                    return Flow::Done;
                }
                Kind::Space | Kind::Comment | Kind::Newline | Kind::Anchor | Kind::Tag => {
                    if new_item {
                        self.items(fc).push(item_start(vec![st]));
                    } else {
                        let it = &mut self.items(fc)[last.expect("an item")];
                        match &mut it.sep {
                            Some(sep) => sep.push(st),
                            None => it.start.push(st),
                        }
                    }
                    return Flow::Done;
                }
                Kind::Alias | Kind::Scalar | Kind::SingleQuotedScalar | Kind::DoubleQuotedScalar => {
                    let fs = self.flow_scalar();
                    if new_item {
                        self.items(fc).push(item_key(Vec::new(), Some(fs), Vec::new()));
                    } else if it_has_sep {
                        self.stack.push(fs);
                    } else {
                        let it = &mut self.items(fc)[last.expect("an item")];
                        it.key = Some(fs);
                        it.sep = Some(Vec::new());
                    }
                    return Flow::Done;
                }
                Kind::FlowMapEnd | Kind::FlowSeqEnd => {
                    if let Node::FlowCollection { end, .. } = self.node(fc) {
                        end.push(st);
                    }
                    return Flow::Done;
                }
                _ => {}
            }
            return match self.start_block_value(fc) {
                Some(bv) => {
                    self.stack.push(bv);
                    Flow::Done
                }
                None => {
                    self.pop(None);
                    Flow::Again
                }
            };
        }
        let parent = self.peek(2);
        let parent_node = parent.map(|p| &self.cst.nodes[p as usize]);
        if let Some(Node::BlockMap { indent: parent_indent, items: parent_items, .. }) = parent_node
            && ((self.kind == Kind::MapValueInd && *parent_indent == fc_indent)
                || (self.kind == Kind::Newline && parent_items.last().is_some_and(|it| it.sep.is_none())))
        {
            self.pop(None);
            return Flow::Again;
        }
        if self.kind == Kind::MapValueInd
            && let Some(parent) = parent
            && !matches!(self.cst.nodes[parent as usize], Node::FlowCollection { .. })
        {
            let start = self.prev_key_start_props(parent);
            self.fix_flow_seq_items(fc);
            let Node::FlowCollection { offset, indent, end, .. } = self.node(fc) else { unreachable!() };
            let (offset, indent) = (*offset, *indent);
            let mut sep = end.split_off(1.min(end.len()));
            sep.push(st);
            let map = self.alloc(Node::BlockMap { offset, indent, items: vec![item_key(start, Some(fc), sep)] });
            self.on_key_line = true;
            *self.stack.last_mut().expect("a node") = map;
            return Flow::Done;
        }
        self.line_end(fc)
    }

    /// `onNewLine` after each `\n` of `src[start..end]`.
    fn scalar_newlines(&mut self, start: u32, end: u32) {
        let text = &self.src[start as usize..end as usize];
        self.cst
            .newlines
            .extend(text.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| start + i as u32 + 1));
    }

    /// `flowScalar(type)`: a new alias or flow scalar node for the current token.
    fn flow_scalar(&mut self) -> NodeId {
        self.scalar_newlines(self.start, self.end);
        let node = Node::FlowScalar { kind: self.kind, indent: self.indent, source: (self.start, self.end), end: None };
        self.alloc(node)
    }

    /// `startBlockValue(parent)`: the node the current token starts, if it starts one.
    fn start_block_value(&mut self, parent: NodeId) -> Option<NodeId> {
        let st = self.source_token();
        let (offset, indent) = (self.start, self.indent);
        let node = match self.kind {
            Kind::Alias | Kind::Scalar | Kind::SingleQuotedScalar | Kind::DoubleQuotedScalar => {
                return Some(self.flow_scalar());
            }
            Kind::BlockScalarHeader => Node::BlockScalar { offset, indent, props: vec![st], source: (offset, offset) },
            Kind::FlowMapStart | Kind::FlowSeqStart => {
                Node::FlowCollection { offset, indent, start: st, items: Vec::new(), end: Vec::new() }
            }
            Kind::SeqItemInd => Node::BlockSeq { offset, indent, items: vec![item_start(vec![st])] },
            Kind::ExplicitKeyInd => {
                self.on_key_line = true;
                let mut start = self.prev_key_start_props(parent);
                start.push(st);
                Node::BlockMap { offset, indent, items: vec![Item { start, explicit_key: true, ..Item::default() }] }
            }
            Kind::MapValueInd => {
                self.on_key_line = true;
                let start = self.prev_key_start_props(parent);
                Node::BlockMap { offset, indent, items: vec![item_key(start, None, vec![st])] }
            }
            _ => return None,
        };
        Some(self.alloc(node))
    }

    fn document_end(&mut self, doc_end: NodeId) {
        if self.kind == Kind::DocMode {
            return;
        }
        let st = self.source_token();
        if let Node::DocEnd { end, .. } = self.node(doc_end) {
            end.get_or_insert_with(Vec::new).push(st);
        }
        if self.kind == Kind::Newline {
            self.pop(None);
        }
    }

    /// `lineEnd(token)`: what may follow a complete node on its line.
    fn line_end(&mut self, token: NodeId) -> Flow {
        match self.kind {
            Kind::Comma | Kind::DocStart | Kind::DocEnd | Kind::FlowSeqEnd | Kind::FlowMapEnd | Kind::MapValueInd => {
                self.pop(None);
                Flow::Again
            }
            kind => {
                if kind == Kind::Newline {
                    self.on_key_line = false;
                }
                let st = self.source_token();
                match self.node(token) {
                    Node::Document { end, .. } | Node::FlowScalar { end, .. } | Node::DocEnd { end, .. } => {
                        end.get_or_insert_with(Vec::new).push(st)
                    }
                    Node::FlowCollection { end, .. } => end.push(st),
                    _ => {}
                }
                if kind == Kind::Newline {
                    self.pop(None);
                }
                Flow::Done
            }
        }
    }
}
