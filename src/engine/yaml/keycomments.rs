//! The comments npm yaml's composer attaches to the nodes inside a collection-valued key
//! (`spaceBefore`, `commentBefore`, `comment`), which its flow stringifier prints
//! (`stringifyFlowCollection`: `? [a, # c\n b]` is the key `"[\n  a, # c\n  b\n]"`).
//!
//! Computed only when a collection key is stringified (the common path never comes here), from
//! the source text between the key subtree's nodes: the gaps are lexed into npm yaml's tokens,
//! grouped into items as its CST parser does (`Parser.flowCollection`, `lineEnd`,
//! `fixFlowSeqItems`, `Parser.blockSequence`, `Parser.blockMap`), and the items resolved as its
//! composer does (`resolveFlowCollection`, `resolveBlockSeq`, `resolveBlockMap`,
//! `resolveProps`, `resolveEnd`, `composeNode`, `composeEmptyNode`).

use saphyr_parser::ScalarStyle;

use super::compose::{CollKind, Doc, NodeKind, tag_shorthand_end};
use super::fxhash::{FxBuild, FxHashMap};
use super::schema::Scalar;

type FxHashSet<T> = std::collections::HashSet<T, FxBuild>;

/// A node's comment fields (npm yaml `Node.spaceBefore`, `commentBefore`, `comment`; an empty
/// string is JS's falsy `''`).
#[derive(Default, Debug, Clone)]
pub(crate) struct Notes {
    pub space_before: bool,
    pub before: String,
    pub comment: String,
}

pub(crate) type NoteMap = FxHashMap<usize, Notes>;

#[derive(Debug, Clone)]
enum Tok<'t> {
    Space,
    Newline(&'t str),
    Comment(&'t str),
    Comma,
    /// `?`
    Explicit,
    /// `:`
    Value,
    /// `-`
    SeqItem,
    Anchor,
    Tag,
    /// a node: index into the atoms of the collection being simulated
    Atom(usize),
}

/// Whether a key's source text can carry anything the notes record (a comment or a blank line).
pub(crate) fn worth_collecting(text: &str, start: usize, end: usize) -> bool {
    let Some(s) = text.get(start..end) else {
        return false;
    };
    if s.contains('#') {
        return true;
    }
    let b = s.as_bytes();
    let mut nl = false;
    for &c in b {
        match c {
            b'\n' if nl => return true,
            b'\n' => nl = true,
            b' ' | b'\t' | b'\r' => {}
            _ => nl = false,
        }
    }
    false
}

/// The notes of the nodes inside the key `id`; nodes without any are left out.
pub(crate) fn collect(doc: &Doc, text: &str, id: usize) -> NoteMap {
    let mut c =
        Collector { doc, text, notes: NoteMap::default(), absent: FxHashSet::default(), closes: FxHashMap::default() };
    let mut todo = vec![id];
    let mut pair_seqs = Vec::new();
    // collections in preorder, resolved children first (a collection's own comments come
    // before the end comment its parent's item adds)
    let mut order = Vec::new();
    while let Some(n) = todo.pop() {
        match &doc.nodes[n].kind {
            NodeKind::Seq { items, kind, .. } => {
                if matches!(kind, CollKind::Omap | CollKind::Pairs) {
                    pair_seqs.push(n);
                }
                order.push(n);
                for &it in items {
                    if c.is_implicit_pair(n, it)
                        && let NodeKind::Map { pairs, .. } = &doc.nodes[it].kind
                    {
                        todo.extend(pairs.iter().flat_map(|&(k, v)| [k, v]));
                    } else {
                        todo.push(it);
                    }
                }
            }
            NodeKind::Map { pairs, .. } => {
                order.push(n);
                todo.extend(pairs.iter().flat_map(|&(k, v)| [k, v]));
            }
            _ => {}
        }
    }
    for &n in order.iter().rev() {
        if c.is_bracketed(n) {
            c.flow(n);
        }
    }
    c.pairs_transfer(&pair_seqs);
    c.notes
}

/// `comment ? a + '\n' + b : b` for comment fields.
fn append(field: &mut String, add: &str) {
    if add.is_empty() {
        return;
    }
    if !field.is_empty() {
        field.push('\n');
    }
    field.push_str(add);
}

/// What `resolveProps` returns that the notes need.
#[derive(Default)]
struct Props {
    space_before: bool,
    comment: String,
    found: bool,
    props: bool,
}

#[derive(PartialEq, Clone, Copy)]
enum Indicator {
    Explicit,
    Value,
    SeqItem,
}

fn resolve_props(toks: &[Tok], indicator: Indicator, start_on_newline: bool) -> Props {
    let mut p = Props::default();
    let mut at_newline = start_on_newline;
    let mut comment_sep = String::new();
    for t in toks {
        match t {
            Tok::Space => {}
            Tok::Comment(src) => {
                let cb = if src.len() > 1 { &src[1..] } else { " " };
                if p.comment.is_empty() {
                    p.comment.push_str(cb);
                } else {
                    p.comment.push_str(&comment_sep);
                    p.comment.push_str(cb);
                }
                comment_sep.clear();
                at_newline = false;
            }
            Tok::Newline(src) => {
                if at_newline {
                    if !p.comment.is_empty() {
                        p.comment.push_str(src);
                    } else if !p.found || indicator != Indicator::SeqItem {
                        p.space_before = true;
                    }
                } else {
                    comment_sep.push_str(src);
                }
                at_newline = true;
            }
            Tok::Anchor | Tok::Tag => {
                p.props = true;
                at_newline = false;
            }
            Tok::Explicit if indicator == Indicator::Explicit => {
                p.found = true;
                at_newline = true;
            }
            Tok::Value if indicator == Indicator::Value => {
                p.found = true;
                at_newline = false;
            }
            Tok::SeqItem if indicator == Indicator::SeqItem => {
                p.found = true;
                at_newline = true;
            }
            _ => at_newline = false,
        }
    }
    p
}

/// `resolveEnd`'s comment.
fn resolve_end(toks: &[Tok]) -> String {
    let mut comment = String::new();
    let mut sep = String::new();
    for t in toks {
        match t {
            Tok::Comment(src) => {
                let cb = if src.len() > 1 { &src[1..] } else { " " };
                if !comment.is_empty() {
                    comment.push_str(&sep);
                }
                comment.push_str(cb);
                sep.clear();
            }
            Tok::Newline(src) if !comment.is_empty() => sep.push_str(src),
            _ => {}
        }
    }
    comment
}

/// A CST collection item (`{ start, key, sep, value }`); atoms by index.
#[derive(Default, Debug)]
struct Item<'t> {
    start: Vec<Tok<'t>>,
    key: Option<usize>,
    sep: Option<Vec<Tok<'t>>>,
    value: Option<usize>,
}

struct Collector<'d> {
    doc: &'d Doc,
    text: &'d str,
    notes: NoteMap,
    /// values of pairs without `:` (npm yaml `pair.value === null`)
    absent: FxHashSet<usize>,
    /// closing bracket positions found so far
    closes: FxHashMap<usize, usize>,
}

impl<'d> Collector<'d> {
    fn note(&mut self, id: usize) -> &mut Notes {
        self.notes.entry(id).or_default()
    }

    /// A single-pair map item of a flow sequence written without braces (`[a: 1]`).
    fn is_implicit_pair(&self, seq: usize, it: usize) -> bool {
        self.is_bracketed(seq)
            && matches!(self.doc.nodes[seq].kind, NodeKind::Seq { .. })
            && matches!(self.doc.nodes[it].kind, NodeKind::Map { .. })
            && !self.is_bracketed(it)
    }

    /// A flow collection written with brackets (the composer's `flow` flag misses one whose
    /// bracket a comment follows).
    fn is_bracketed(&self, id: usize) -> bool {
        self.open_of(id).is_some()
    }

    /// The position of a flow collection's opening bracket. The composer's node may start at
    /// the `?`/`-` before it (it takes a collection whose bracket a comment follows for a block
    /// one); a block collection's first child starts at or before a `[`/`{` there.
    fn open_of(&self, id: usize) -> Option<usize> {
        let n = &self.doc.nodes[id];
        let b = self.text.as_bytes();
        let (open, first) = match &n.kind {
            NodeKind::Seq { items, .. } => (b'[', items.first().copied()),
            NodeKind::Map { pairs, .. } => (b'{', pairs.first().map(|p| p.0)),
            _ => return None,
        };
        let mut p = n.content_start;
        if matches!(b.get(p), Some(b'?' | b'-')) {
            p += 1;
            while matches!(b.get(p), Some(b' ' | b'\t')) {
                p += 1;
            }
        }
        (b.get(p) == Some(&open) && first.is_none_or(|f| self.doc.nodes[f].start > p)).then_some(p)
    }

    /// The token-bearing nodes directly inside a flow collection, in source order (an
    /// implicit pair's key and value).
    fn atoms(&self, id: usize) -> Vec<usize> {
        let doc = self.doc;
        let mut atoms = Vec::new();
        let mut push = |n: usize| {
            if self.has_token(n) {
                atoms.push(n);
            }
        };
        match &doc.nodes[id].kind {
            NodeKind::Seq { items, .. } => {
                for &it in items {
                    match &doc.nodes[it].kind {
                        NodeKind::Map { pairs, .. } if self.is_implicit_pair(id, it) => {
                            for &(k, v) in pairs {
                                push(k);
                                push(v);
                            }
                        }
                        _ => push(it),
                    }
                }
            }
            NodeKind::Map { pairs, .. } => {
                for &(k, v) in pairs {
                    push(k);
                    push(v);
                }
            }
            _ => {}
        }
        atoms
    }

    /// Where a token-bearing node's source ends (after a flow collection's closing bracket).
    fn atom_end(&mut self, id: usize) -> Option<usize> {
        if self.is_bracketed(id) {
            return self.close_of(id).map(|c| c + 1);
        }
        let n = &self.doc.nodes[id];
        let b = self.text.as_bytes();
        let mut i = n.content_start + 1;
        // a quoted scalar's or an alias's node may end after the comment that follows it
        match &n.kind {
            NodeKind::Scalar { style: ScalarStyle::SingleQuoted, .. } => loop {
                match b.get(i)? {
                    b'\'' if b.get(i + 1) == Some(&b'\'') => i += 2,
                    b'\'' => return Some(i + 1),
                    _ => i += 1,
                }
            },
            NodeKind::Scalar { style: ScalarStyle::DoubleQuoted, .. } => loop {
                match b.get(i)? {
                    b'\\' => i += 2,
                    b'"' => return Some(i + 1),
                    _ => i += 1,
                }
            },
            NodeKind::Alias { .. } => {
                while i < b.len() && !matches!(b[i], b' ' | b',' | b'[' | b']' | b'{' | b'}' | b'\n' | b'\r' | b'\t') {
                    i += 1;
                }
                Some(i)
            }
            _ => Some(n.end),
        }
    }

    /// The position of a bracketed flow collection's closing bracket.
    fn close_of(&mut self, id: usize) -> Option<usize> {
        if let Some(&c) = self.closes.get(&id) {
            return Some(c);
        }
        let mut cur = self.open_of(id)? + 1;
        if let Some(&last) = self.atoms(id).last() {
            cur = self.atom_end(last)?;
        }
        let c = self.lex(cur, usize::MAX, true, &mut Vec::new())?;
        self.closes.insert(id, c);
        Some(c)
    }

    /// A node with source text (not npm yaml's empty scalar, which has no token).
    fn has_token(&self, id: usize) -> bool {
        let n = &self.doc.nodes[id];
        match &n.kind {
            NodeKind::Scalar { style: ScalarStyle::Plain, value, source } => match value {
                Scalar::Str(s) => !s.is_empty(),
                _ => !source.is_empty(),
            },
            _ => true,
        }
    }

    /// Lex `[from, to)`, which holds only separators, indicators, comments and properties;
    /// `None` on anything else. With `to == usize::MAX`, lex up to a flow collection's closing
    /// bracket and return its position.
    fn lex(&self, from: usize, to: usize, flow: bool, out: &mut Vec<Tok<'d>>) -> Option<usize> {
        let text = self.text;
        let b = text.as_bytes();
        let mut i = from;
        if from > to {
            return None;
        }
        let to = to.min(b.len());
        let close = to == b.len();
        while i < to {
            match b[i] {
                b']' | b'}' if close && flow => return Some(i),
                b' ' | b'\t' => {
                    while i < to && matches!(b[i], b' ' | b'\t') {
                        i += 1;
                    }
                    out.push(Tok::Space);
                }
                b'\n' => {
                    out.push(Tok::Newline(&text[i..i + 1]));
                    i += 1;
                }
                b'\r' if b.get(i + 1) == Some(&b'\n') => {
                    out.push(Tok::Newline(&text[i..i + 2]));
                    i += 2;
                }
                b'#' => {
                    let st = i;
                    while i < to && b[i] != b'\n' {
                        i += 1;
                    }
                    let mut e = i;
                    if e > st && b[e - 1] == b'\r' {
                        e -= 1;
                    }
                    out.push(Tok::Comment(&text[st..e]));
                }
                b',' if flow => {
                    out.push(Tok::Comma);
                    i += 1;
                }
                b'?' => {
                    out.push(Tok::Explicit);
                    i += 1;
                }
                b':' => {
                    out.push(Tok::Value);
                    i += 1;
                }
                b'-' if !flow => {
                    out.push(Tok::SeqItem);
                    i += 1;
                }
                b'&' => {
                    while i < to && !matches!(b[i], b' ' | b',' | b'[' | b']' | b'{' | b'}' | b'\n' | b'\r' | b'\t') {
                        i += 1;
                    }
                    out.push(Tok::Anchor);
                }
                b'!' => {
                    let mut e = i + 1;
                    if b.get(e) == Some(&b'<') {
                        while e < to && b[e] != b'>' && !matches!(b[e], b' ' | b'\n' | b'\r' | b'\t') {
                            e += 1;
                        }
                        if b.get(e) == Some(&b'>') {
                            e += 1;
                        }
                    } else {
                        e = tag_shorthand_end(text, e, to);
                    }
                    i = e;
                    out.push(Tok::Tag);
                }
                _ => {
                    return None;
                }
            }
        }
        if close { None } else { Some(i) }
    }

    /// The atoms (token-bearing nodes) of a flow collection in source order, as `(node, is
    /// flow collection)`, and its children: seq items or map pairs (with the implicit pairs of
    /// a sequence as `(key, value)` too).
    fn flow(&mut self, id: usize) {
        let doc = self.doc;
        let node = &doc.nodes[id];
        let is_map = matches!(node.kind, NodeKind::Map { .. });
        let atoms = self.atoms(id);
        let mut toks = Vec::new();
        let Some(open) = self.open_of(id) else {
            return;
        };
        let mut cur = open + 1;
        for (ai, &a) in atoms.iter().enumerate() {
            let an = &doc.nodes[a];
            if self.lex(cur, an.content_start, true, &mut toks).is_none() {
                return;
            }
            toks.push(Tok::Atom(ai));
            let Some(e) = self.atom_end(a) else {
                return;
            };
            cur = e;
        }
        if self.lex(cur, usize::MAX, true, &mut toks).is_none() {
            return;
        }
        let fcs: Vec<bool> = atoms.iter().map(|&a| self.is_bracketed(a)).collect();
        let is_fc = |a: usize| fcs[a];
        // Parser.flowCollection
        let mut items: Vec<Item> = Vec::new();
        let mut ends: Vec<Vec<Tok>> = vec![Vec::new(); atoms.len()];
        // an atom on the parser's stack (a scalar value, or a closed flow collection)
        let mut pending: Option<usize> = None;
        let pop = |items: &mut Vec<Item>, a: usize, is_fc: bool| match items.last_mut() {
            Some(it) if it.value.is_none() && it.sep.is_some() => it.value = Some(a),
            Some(it) if it.value.is_none() && is_fc => {
                it.key = Some(a);
                it.sep = Some(Vec::new());
            }
            _ => items.push(Item { key: Some(a), sep: Some(Vec::new()), ..Item::default() }),
        };
        for t in toks {
            if let Some(a) = pending {
                match t {
                    Tok::Comma | Tok::Value => {
                        pending = None;
                        pop(&mut items, a, is_fc(a));
                    }
                    Tok::Newline(_) => {
                        ends[a].push(t);
                        pending = None;
                        pop(&mut items, a, is_fc(a));
                        continue;
                    }
                    _ => {
                        ends[a].push(t);
                        continue;
                    }
                }
            }
            match t {
                Tok::Comma | Tok::Explicit => match items.last_mut() {
                    Some(it) if it.sep.is_none() => it.start.push(t),
                    _ => items.push(Item { start: vec![t], ..Item::default() }),
                },
                Tok::Value => match items.last_mut() {
                    Some(it) if it.value.is_none() => match &mut it.sep {
                        Some(sep) => sep.push(t),
                        None => {
                            it.key = None;
                            it.sep = Some(vec![t]);
                        }
                    },
                    _ => items.push(Item { sep: Some(vec![t]), ..Item::default() }),
                },
                Tok::Atom(a) if is_fc(a) => pending = Some(a),
                Tok::Atom(a) => match items.last_mut() {
                    Some(it) if it.value.is_none() => {
                        if it.sep.is_some() {
                            pending = Some(a);
                        } else {
                            it.key = Some(a);
                            it.sep = Some(Vec::new());
                        }
                    }
                    _ => items.push(Item { key: Some(a), sep: Some(Vec::new()), ..Item::default() }),
                },
                _ => match items.last_mut() {
                    Some(it) if it.value.is_none() => match &mut it.sep {
                        Some(sep) => sep.push(t),
                        None => it.start.push(t),
                    },
                    _ => items.push(Item { start: vec![t], ..Item::default() }),
                },
            }
        }
        if let Some(a) = pending {
            pop(&mut items, a, is_fc(a));
        }
        // fixFlowSeqItems
        if !is_map {
            for it in &mut items {
                if it.sep.is_some()
                    && it.value.is_none()
                    && !it.start.iter().any(|t| matches!(t, Tok::Explicit))
                    && !it.sep.iter().flatten().any(|t| matches!(t, Tok::Value))
                {
                    let sep = it.sep.take().unwrap_or_default();
                    match it.key.take() {
                        Some(k) => {
                            it.value = Some(k);
                            ends[k].extend(sep);
                        }
                        None => it.start.extend(sep),
                    }
                }
            }
        }
        // resolveFlowCollection
        let children: Vec<(usize, Option<(usize, usize)>)> = match &node.kind {
            NodeKind::Seq { items, .. } => items
                .iter()
                .map(|&it| match &doc.nodes[it].kind {
                    NodeKind::Map { pairs, .. } if pairs.len() == 1 && self.is_implicit_pair(id, it) => {
                        (it, Some(pairs[0]))
                    }
                    _ => (it, None),
                })
                .collect(),
            NodeKind::Map { pairs, .. } => pairs.iter().map(|&p| (usize::MAX, Some(p))).collect(),
            _ => return,
        };
        let mut next = 0;
        // the node a comment after the next `,` belongs to
        let mut prev: Option<usize> = None;
        for (i, it) in items.iter().enumerate() {
            let mut props = resolve_props(&it.start, Indicator::Explicit, false);
            if !props.found && !props.props && it.sep.is_none() && it.value.is_none() {
                append(&mut self.note(id).comment, &props.comment);
                continue;
            }
            if i > 0 && !props.comment.is_empty() {
                let mut prev_comment = "";
                for st in &it.start {
                    match st {
                        Tok::Comma | Tok::Space => {}
                        Tok::Comment(src) => {
                            prev_comment = &src[1..];
                            break;
                        }
                        _ => break,
                    }
                }
                if !prev_comment.is_empty() {
                    if let Some(p) = prev {
                        append(&mut self.note(p).comment, prev_comment);
                    }
                    props.comment = props.comment.get(prev_comment.len() + 1..).unwrap_or("").to_string();
                }
            }
            let Some(&(child, pair)) = children.get(next) else {
                return;
            };
            next += 1;
            if !is_map && it.sep.is_none() && !props.found {
                let value = it.value.map(|a| atoms[a]);
                if value.is_some_and(|v| v != child) {
                    return;
                }
                self.compose_node(child, it.value.map(|a| &ends[a][..]), &props);
                prev = Some(child);
            } else {
                let Some((k, v)) = pair else {
                    return;
                };
                self.compose_node(k, it.key.map(|a| &ends[a][..]), &props);
                let vprops = resolve_props(it.sep.as_deref().unwrap_or(&[]), Indicator::Value, false);
                let has_value = it.value.is_some() || vprops.found;
                if has_value {
                    self.compose_node(v, it.value.map(|a| &ends[a][..]), &vprops);
                } else {
                    self.absent.insert(v);
                    if !vprops.comment.is_empty() {
                        append(&mut self.note(k).comment, &vprops.comment);
                    }
                }
                prev = Some(if is_map { if has_value { v } else { k } } else { child });
            }
        }
    }

    /// `composeNode` / `composeEmptyNode` (`end`: the node's token's end tokens, `None` for an
    /// empty node) with the node's own end comment (`resolveEnd`).
    fn compose_node(&mut self, id: usize, end: Option<&[Tok]>, props: &Props) {
        let own = end.map(resolve_end).unwrap_or_default();
        if own.is_empty() && !props.space_before && props.comment.is_empty() {
            return;
        }
        let n = self.note(id);
        append(&mut n.comment, &own);
        if props.space_before {
            n.space_before = true;
        }
        if !props.comment.is_empty() {
            if end.is_some() {
                n.before = props.comment.clone();
            } else {
                n.comment = props.comment.clone();
            }
        }
    }

    /// `resolvePairs` (`!!omap`, `!!pairs`): a map item's `commentBefore` moves to its key, its
    /// `comment` to its value (or its key when it has none).
    fn pairs_transfer(&mut self, seqs: &[usize]) {
        let doc = self.doc;
        for &id in seqs {
            let NodeKind::Seq { items, .. } = &doc.nodes[id].kind else {
                continue;
            };
            for &it in items {
                let NodeKind::Map { pairs, .. } = &doc.nodes[it].kind else {
                    continue;
                };
                let Some(&(k, v)) = pairs.first() else {
                    continue;
                };
                let Some(mn) = self.notes.get(&it).cloned() else {
                    continue;
                };
                if !mn.before.is_empty() {
                    let kn = self.note(k);
                    kn.before = if kn.before.is_empty() { mn.before } else { format!("{}\n{}", mn.before, kn.before) };
                }
                if !mn.comment.is_empty() {
                    let cn = self.note(if self.absent.contains(&v) { k } else { v });
                    cn.comment =
                        if cn.comment.is_empty() { mn.comment } else { format!("{}\n{}", mn.comment, cn.comment) };
                }
            }
        }
    }
}
