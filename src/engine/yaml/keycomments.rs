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
use super::hashing::FastMap;

type FastSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;

/// A node's comment fields (npm yaml `Node.spaceBefore`, `commentBefore`, `comment`; an empty
/// string is JS's falsy `''`).
#[derive(Default, Debug, Clone)]
pub(crate) struct Notes {
    pub space_before: bool,
    pub before: String,
    pub comment: String,
    /// for a pair's value: whether the pair has one (a `:`), when the item was resolved here
    pub present: Option<bool>,
}

pub(crate) type NoteMap = FastMap<usize, Notes>;

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
    // a block collection's node ends with its last item, before the comments that follow it
    let b = text.as_bytes();
    // (and so do the indicators of its trailing empty nodes: `? x: # c`)
    let mut end = end.min(b.len());
    while end < b.len() {
        match b[end] {
            b' ' | b'\t' | b'\r' | b'\n' => end += 1,
            b':' | b'?' | b'-' if b.get(end + 1).is_none_or(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n')) => end += 1,
            _ => break,
        }
    }
    if b.get(end) == Some(&b'#') {
        return true;
    }
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
        Collector { doc, text, notes: NoteMap::default(), absent: FastSet::default(), closes: FastMap::default() };
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
        } else {
            c.block(n, n == id);
        }
    }
    c.pairs_transfer(&pair_seqs);
    c.notes
}

fn t_is_comment(t: &Tok) -> bool {
    matches!(t, Tok::Comment(_))
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
    explicit_key: bool,
}

/// A token with the parser's indentation when it arrives (`Parser.indent`: leading spaces and
/// `-`/`?`/`:` indicators of its line).
type ITok<'t> = (Tok<'t>, usize);

struct Collector<'d> {
    doc: &'d Doc,
    text: &'d str,
    notes: NoteMap,
    /// values of pairs without `:` (npm yaml `pair.value === null`)
    absent: FastSet<usize>,
    /// closing bracket positions found so far
    closes: FastMap<usize, usize>,
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
            NodeKind::Scalar { .. } => {
                // a plain scalar ends before ` #` and the white space before it
                let mut e = n.end.min(b.len());
                if let Some(k) =
                    b[n.content_start..e].windows(2).position(|w| matches!(w[0], b' ' | b'\t' | b'\n') && w[1] == b'#')
                {
                    e = n.content_start + k + 1;
                }
                while e > n.content_start && matches!(b[e - 1], b' ' | b'\t' | b'\n' | b'\r') {
                    e -= 1;
                }
                Some(e)
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
        self.doc.nodes[id].has_token()
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
        // `usize::MAX` asks for the closing bracket; a range that merely reaches the end of the
        // text (a key's trailing comment on the document's last line) is lexed like any other
        let close = to == usize::MAX;
        let to = to.min(b.len());
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
                self.note(v).present = Some(has_value);
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

    /// Tokens of `[from, to)` with their parser indentation; `state` is (`Parser.indent`,
    /// `Parser.atNewLine`) at `from`.
    fn lex_indented(&self, from: usize, to: usize, state: &mut (usize, bool)) -> Option<Vec<ITok<'d>>> {
        let mut toks = Vec::new();
        self.lex(from, to, false, &mut toks)?;
        if from == to {
            return Some(Vec::new());
        }
        let mut out = Vec::with_capacity(toks.len());
        let b = self.text.as_bytes();
        let mut i = from;
        for t in toks {
            out.push((t.clone(), state.0));
            // advance `i` past the token to know space lengths
            let len = match &t {
                Tok::Space => b[i..to].iter().take_while(|c| matches!(c, b' ' | b'\t')).count(),
                Tok::Newline(s) | Tok::Comment(s) => s.len(),
                Tok::Anchor | Tok::Tag => {
                    b[i..to].iter().take_while(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r')).count()
                }
                _ => 1,
            };
            match &t {
                Tok::Newline(_) => *state = (0, true),
                Tok::Space => {
                    if state.1 && b[i] == b' ' {
                        state.0 += len;
                    }
                }
                Tok::Explicit | Tok::Value | Tok::SeqItem => {
                    if state.1 {
                        state.0 += 1;
                    }
                }
                _ => state.1 = false,
            }
            i += len;
            // a comment's `\r` before its newline
            while t_is_comment(&t) && i < to && b[i] == b'\r' {
                i += 1;
            }
        }
        Some(out)
    }

    /// A block collection inside a key whose children are scalars, aliases and flow collections
    /// (`? - a # c\n  - b`, `? a: 1 # c\n  b: 2`): `Parser.blockSequence` / `Parser.blockMap`
    /// on its tokens, then `resolveBlockSeq` / `resolveBlockMap`. Other layouts (a block
    /// collection or block scalar inside, flow collection keys) are left without notes.
    fn block(&mut self, id: usize, root: bool) {
        let doc = self.doc;
        let text = self.text;
        let b = text.as_bytes();
        let node = &doc.nodes[id];
        let (is_map, children): (bool, Vec<usize>) = match &node.kind {
            NodeKind::Seq { items, .. } => (false, items.clone()),
            NodeKind::Map { pairs, .. } => (true, pairs.iter().flat_map(|&(k, v)| [k, v]).collect()),
            _ => return,
        };
        for (i, &c) in children.iter().enumerate() {
            let n = &doc.nodes[c];
            match &n.kind {
                NodeKind::Seq { .. } | NodeKind::Map { .. } if !self.is_bracketed(c) => return,
                NodeKind::Seq { .. } | NodeKind::Map { .. } if is_map && i % 2 == 0 => return,
                NodeKind::Scalar { style: ScalarStyle::Literal | ScalarStyle::Folded, .. } => return,
                _ => {}
            }
        }
        let Some(&first) = children.first() else {
            return;
        };
        // where the collection's first token is: its first `-`, or its first key's `?` or props
        let mut begin = doc.nodes[first].start;
        let ls = super::indent::line_start(text, begin);
        let mut p = begin;
        while p > ls && matches!(b[p - 1], b' ' | b'\t') {
            p -= 1;
        }
        if !is_map {
            if p == ls || b[p - 1] != b'-' {
                return;
            }
            begin = p - 1;
        } else if p > ls && b[p - 1] == b'?' {
            // the `?` is this map's unless it is the explicit-key indicator of the key itself
            let mut q = p - 1;
            while q > ls && matches!(b[q - 1], b' ' | b'\t') {
                q -= 1;
            }
            let outer_before = q > ls && b[q - 1] == b'?';
            if !root || outer_before {
                begin = p - 1;
            }
        }
        if !b[ls..begin].iter().all(|c| matches!(c, b' ' | b'\t' | b'-' | b'?' | b':')) {
            return;
        }
        let indent = super::indent::column(text, begin);
        // atoms with their positions
        let atoms: Vec<usize> = children.iter().copied().filter(|&c| self.has_token(c)).collect();
        let mut toks: Vec<ITok> = Vec::new();
        let mut state = (indent, true);
        let mut cur = begin;
        for (ai, &a) in atoms.iter().enumerate() {
            let an = &doc.nodes[a];
            let Some(t) = self.lex_indented(cur, an.content_start, &mut state) else {
                return;
            };
            toks.extend(t);
            toks.push((Tok::Atom(ai), state.0));
            state.1 = false;
            let Some(e) = self.atom_end(a) else {
                return;
            };
            cur = e;
        }
        // trailing separators, comments and the empty nodes after the last atom (their
        // indicators, and their properties, which their nodes span: `? x: !!str # c`), up to the
        // line of the next content; an indicator less indented than the collection is its
        // parent's (`? x: # c\n: 1`)
        let last_atom = atoms.last().and_then(|&a| children.iter().position(|&c| c == a));
        let mut e = children[last_atom.map_or(0, |i| i + 1)..].iter().map(|&c| doc.nodes[c].end).fold(cur, usize::max);
        let mut line_end_ok = cur;
        let mut first_line = true;
        while e < b.len() {
            match b[e] {
                b' ' | b'\t' | b'\r' => e += 1,
                b'\n' => {
                    e += 1;
                    line_end_ok = e;
                    first_line = false;
                }
                b'#' => {
                    while e < b.len() && b[e] != b'\n' {
                        e += 1;
                    }
                }
                b':' | b'?' | b'-'
                    if b.get(e + 1).is_none_or(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
                        && (first_line || super::indent::column(text, e) >= indent) =>
                {
                    e += 1
                }
                _ => break,
            }
        }
        let tail_end = if e >= b.len() { b.len() } else { line_end_ok };
        let Some(t) = self.lex_indented(cur, tail_end, &mut state) else {
            return;
        };
        toks.extend(t);
        let fcs: Vec<bool> = atoms.iter().map(|&a| self.is_bracketed(a)).collect();
        let comment_indent: FastMap<usize, usize> = toks
            .iter()
            .filter_map(|(t, ti)| match t {
                Tok::Comment(c) => Some((c.as_ptr() as usize, *ti)),
                _ => None,
            })
            .collect();
        let mut items: Vec<Item> = Vec::new();
        let mut ends: Vec<Vec<Tok>> = vec![Vec::new(); atoms.len()];
        let mut pending: Option<usize> = None;
        let mut on_key_line = true;
        let has_end = |ends: &Vec<Vec<Tok>>, a: usize| fcs[a] || !ends[a].is_empty();
        for (t, ti) in toks {
            if let Some(a) = pending {
                match t {
                    Tok::Newline(_) => {
                        ends[a].push(t);
                        pending = None;
                        on_key_line = false;
                        self.block_pop(&mut items, a, is_map, &mut on_key_line);
                        continue;
                    }
                    Tok::Space | Tok::Comment(_) => {
                        ends[a].push(t);
                        continue;
                    }
                    _ => return,
                }
            }
            let last_comment = |items: &Vec<Item>, ends: &Vec<Vec<Tok>>| {
                items.last().and_then(|it| it.value).is_some_and(|v| matches!(ends[v].last(), Some(Tok::Comment(_))))
            };
            match t {
                Tok::Newline(_) => {
                    on_key_line = false;
                    if last_comment(&items, &ends) {
                        if let Some(v) = items.last().and_then(|it| it.value) {
                            ends[v].push(t);
                        }
                        continue;
                    }
                    match items.last_mut() {
                        None => items.push(Item { start: vec![t], ..Item::default() }),
                        Some(it) if it.value.is_some() => items.push(Item { start: vec![t], ..Item::default() }),
                        Some(it) => match &mut it.sep {
                            Some(sep) if is_map => sep.push(t),
                            _ => it.start.push(t),
                        },
                    }
                    continue;
                }
                Tok::Space | Tok::Comment(_) => {
                    let n = items.len();
                    match items.last_mut() {
                        None => items.push(Item { start: vec![t], ..Item::default() }),
                        Some(it) if it.value.is_some() => items.push(Item { start: vec![t], ..Item::default() }),
                        Some(it) if is_map && it.sep.is_some() => {
                            if let Some(sep) = &mut it.sep {
                                sep.push(t);
                            }
                        }
                        Some(it) => {
                            let indented = matches!(t, Tok::Comment(_))
                                && ti > indent
                                && it.start.iter().all(|s| matches!(s, Tok::Newline(_) | Tok::Space));
                            let prev_end = if indented && n >= 2 { items[n - 2].value } else { None };
                            match prev_end {
                                Some(pv) if has_end(&ends, pv) => {
                                    let start = items.pop().map(|i| i.start).unwrap_or_default();
                                    ends[pv].extend(start);
                                    ends[pv].push(t);
                                }
                                _ => {
                                    if let Some(it) = items.last_mut() {
                                        it.start.push(t);
                                    }
                                }
                            }
                        }
                    }
                    continue;
                }
                _ => {}
            }
            if !is_map {
                match t {
                    Tok::SeqItem if ti == indent => match items.last_mut() {
                        Some(it) if it.value.is_none() && !it.start.iter().any(|s| matches!(s, Tok::SeqItem)) => {
                            it.start.push(t)
                        }
                        _ => items.push(Item { start: vec![t], ..Item::default() }),
                    },
                    Tok::Anchor | Tok::Tag if ti > indent && items.last().is_some_and(|it| it.value.is_none()) => {
                        if let Some(it) = items.last_mut() {
                            it.start.push(t);
                        }
                    }
                    Tok::Atom(a) if ti > indent => pending = Some(a),
                    _ => return,
                }
                continue;
            }
            // Parser.blockMap
            if ti < indent {
                return;
            }
            let at_map_indent = !on_key_line && ti == indent;
            let at_next_item = at_map_indent
                && items.last().is_some_and(|it| it.sep.is_some() || it.explicit_key)
                && !matches!(t, Tok::SeqItem);
            let mut start = Vec::new();
            if at_next_item
                && let Some(it) = items.last_mut()
                && it.value.is_none()
                && let Some(sep) = &mut it.sep
            {
                let mut nl = Vec::new();
                for (i, st) in sep.iter().enumerate() {
                    match st {
                        Tok::Newline(_) => nl.push(i),
                        Tok::Space => {}
                        Tok::Comment(c) => {
                            if comment_indent.get(&(c.as_ptr() as usize)).is_some_and(|&ci| ci > indent) {
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
            let value_or_none = items.last().is_none_or(|it| it.value.is_some());
            match t {
                Tok::Anchor | Tok::Tag => {
                    if at_next_item || value_or_none {
                        start.push(t);
                        items.push(Item { start, ..Item::default() });
                        on_key_line = true;
                    } else if let Some(it) = items.last_mut() {
                        match &mut it.sep {
                            Some(sep) => sep.push(t),
                            None => it.start.push(t),
                        }
                    }
                }
                Tok::Explicit => {
                    match items.last_mut() {
                        Some(it) if it.sep.is_none() && !it.explicit_key && it.value.is_none() => {
                            it.start.push(t);
                            it.explicit_key = true;
                        }
                        _ if at_next_item || value_or_none => {
                            start.push(t);
                            items.push(Item { start, explicit_key: true, ..Item::default() });
                        }
                        _ => return,
                    }
                    on_key_line = true;
                }
                Tok::Value => {
                    let Some(it) = items.last_mut() else {
                        items.push(Item { sep: Some(vec![t]), ..Item::default() });
                        on_key_line = true;
                        continue;
                    };
                    if it.explicit_key {
                        if it.sep.is_none() {
                            if it.start.iter().any(|s| matches!(s, Tok::Newline(_))) {
                                it.key = None;
                                it.sep = Some(vec![t]);
                            } else {
                                return;
                            }
                        } else if it.value.is_some() {
                            items.push(Item { sep: Some(vec![t]), ..Item::default() });
                        } else {
                            let sep = it.sep.get_or_insert_with(Vec::new);
                            if sep.iter().any(|s| matches!(s, Tok::Value)) {
                                return;
                            }
                            if it.key.is_some() && !sep.iter().any(|s| matches!(s, Tok::Newline(_))) {
                                return;
                            }
                            sep.extend(start);
                            sep.push(t);
                        }
                    } else if it.sep.is_none() {
                        it.key = None;
                        it.sep = Some(vec![t]);
                    } else if it.value.is_some() || at_next_item {
                        items.push(Item { start, sep: Some(vec![t]), ..Item::default() });
                    } else {
                        let sep = it.sep.get_or_insert_with(Vec::new);
                        if sep.iter().any(|s| matches!(s, Tok::Value)) {
                            return;
                        }
                        sep.push(t);
                    }
                    on_key_line = true;
                }
                Tok::Atom(a) => {
                    if at_next_item || value_or_none {
                        if fcs[a] {
                            return;
                        }
                        items.push(Item { start, key: Some(a), sep: Some(Vec::new()), ..Item::default() });
                        on_key_line = true;
                    } else if let Some(it) = items.last_mut() {
                        if it.sep.is_some() {
                            pending = Some(a);
                        } else {
                            if fcs[a] {
                                return;
                            }
                            it.key = Some(a);
                            it.sep = Some(Vec::new());
                            on_key_line = true;
                        }
                    }
                }
                _ => return,
            }
        }
        if let Some(a) = pending {
            self.block_pop(&mut items, a, is_map, &mut on_key_line);
        }
        // resolveBlockSeq / resolveBlockMap
        let mut next = 0;
        for it in &items {
            if !is_map {
                let props = resolve_props(&it.start, Indicator::SeqItem, true);
                if !props.found {
                    if props.props || it.value.is_some() {
                        return;
                    }
                    if !props.comment.is_empty() {
                        self.note(id).comment = props.comment;
                    }
                    continue;
                }
                let Some(&child) = children.get(next) else {
                    return;
                };
                next += 1;
                self.compose_node(child, it.value.map(|a| &ends[a][..]), &props);
            } else {
                let kprops = resolve_props(&it.start, Indicator::Explicit, true);
                if !kprops.found && !kprops.props && it.sep.is_none() {
                    append(&mut self.note(id).comment, &kprops.comment);
                    continue;
                }
                let (Some(&k), Some(&v)) = (children.get(2 * next), children.get(2 * next + 1)) else {
                    return;
                };
                next += 1;
                self.compose_node(k, it.key.map(|a| &ends[a][..]), &kprops);
                let vprops = resolve_props(it.sep.as_deref().unwrap_or(&[]), Indicator::Value, it.key.is_none());
                self.note(v).present = Some(vprops.found);
                if vprops.found {
                    self.compose_node(v, it.value.map(|a| &ends[a][..]), &vprops);
                } else {
                    self.absent.insert(v);
                    if !vprops.comment.is_empty() {
                        append(&mut self.note(k).comment, &vprops.comment);
                    }
                }
            }
        }
    }

    /// `Parser.pop` of a scalar or flow collection into a block collection.
    fn block_pop(&self, items: &mut Vec<Item>, a: usize, is_map: bool, on_key_line: &mut bool) {
        match items.last_mut() {
            Some(it) if !is_map && it.value.is_none() => it.value = Some(a),
            Some(it) if is_map && it.value.is_none() && it.sep.is_some() => it.value = Some(a),
            Some(it) if is_map && it.value.is_none() => {
                it.key = Some(a);
                it.sep = Some(Vec::new());
                *on_key_line = !it.explicit_key;
            }
            _ if is_map => {
                items.push(Item { key: Some(a), sep: Some(Vec::new()), ..Item::default() });
                *on_key_line = true;
            }
            _ => items.push(Item { value: Some(a), ..Item::default() }),
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
