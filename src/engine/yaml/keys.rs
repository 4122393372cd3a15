//! The top-level `key: value` entries of a YAML text, read from the crate's concrete syntax tree:
//! the one reader of key positions for lint and the language server. The tree exists for any
//! text, so the entries are there even when the YAML does not parse (a broken value still has
//! its key), and a key is what npm yaml's parser makes a key (quotes, escapes and comments as
//! npm yaml reads them), not what a line looks like.

use npm_yaml::cst::{Cst, Item, Node, NodeId, Top};
use npm_yaml::token::Kind;
use std::ops::Range;

/// One entry of the document's top-level block map. Ranges are bytes of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopEntry {
    /// The key as npm yaml reads it (quotes removed, escapes resolved).
    pub key: String,
    /// The key token, quotes included.
    pub key_span: Range<usize>,
    /// From after the `:` and the blanks after it to the end of that line's content (trailing
    /// blanks and `\r` left out); empty when the value starts on a later line.
    pub value_line: Range<usize>,
    /// The value node, from its first character to its last (comments and blank lines after it
    /// left out); `value_line`'s start when the entry has no value.
    pub value_span: Range<usize>,
    /// The entry's first line, without its line break.
    pub line: Range<usize>,
}

/// The entries of the first document's top-level block map (none when it is not one).
pub fn top_entries(text: &str) -> Vec<TopEntry> {
    let tokens = npm_yaml::lex(text);
    let cst = npm_yaml::parse(text, &tokens);
    let Some(map) = cst.top.iter().find_map(|t| match t {
        Top::Node(id) => match cst.node(*id) {
            Node::Document { value, .. } => Some(*value),
            _ => None,
        },
        Top::Token(_) => None,
    }) else {
        return Vec::new();
    };
    let Some(Node::BlockMap { items, .. }) = map.map(|m| cst.node(m)) else { return Vec::new() };
    let Some(col) = items.iter().find_map(|it| it.key).map(|k| column(text, cst.node(k).offset())) else {
        return Vec::new();
    };
    // After a compact nested mapping (`description: Use when: …`, which npm yaml refuses), its
    // parser reads the next lines' keys into the nested map: at the top map's column they are
    // the top-level entries a reader of the file sees, so they are taken out of it here.
    let mut out = Vec::new();
    let mut todo: Vec<(&[Item], usize)> = vec![(items, 0)];
    while let Some((items, i)) = todo.pop() {
        let Some(item) = items.get(i) else { continue };
        todo.push((items, i + 1));
        let hoisted = match item.value.map(|v| cst.node(v)) {
            Some(Node::BlockMap { items: inner, .. }) if item.key.is_some() => {
                let key_line = line_of(text, cst.node(item.key.unwrap()).offset());
                inner.iter().position(|it| {
                    it.key.is_some_and(|k| {
                        let at = cst.node(k).offset();
                        column(text, at) == col && line_of(text, at) > key_line
                    })
                })
            }
            _ => None,
        };
        out.extend(entry(text, &cst, item, hoisted));
        if let (Some(h), Some(Node::BlockMap { items: inner, .. })) = (hoisted, item.value.map(|v| cst.node(v))) {
            todo.push((&inner[h..], 0));
        }
    }
    out
}

fn column(text: &str, at: u32) -> usize {
    let at = at as usize;
    at - memchr::memrchr(b'\n', &text.as_bytes()[..at]).map_or(0, |i| i + 1)
}

fn line_of(text: &str, at: u32) -> usize {
    memchr::memrchr(b'\n', &text.as_bytes()[..at as usize]).map_or(0, |i| i + 1)
}

/// The entry of `item`; when its value is a block map whose items from `hoisted` on are
/// top-level entries, its value ends before them.
fn entry(text: &str, cst: &Cst, item: &Item, hoisted: Option<usize>) -> Option<TopEntry> {
    let key_id = item.key?;
    let Node::FlowScalar { kind, source, .. } = cst.node(key_id) else { return None };
    let key = match kind {
        Kind::Scalar => text[source.0 as usize..source.1 as usize].to_string(),
        Kind::SingleQuotedScalar | Kind::DoubleQuotedScalar => {
            let mut errors = Vec::new();
            let r = npm_yaml::compose::resolve_flow_scalar::resolve_flow_scalar(
                text,
                *kind,
                *source,
                None,
                false,
                &mut errors,
            );
            r.value.text
        }
        _ => return None,
    };
    let key_span = source.0 as usize..source.1 as usize;
    let b = text.as_bytes();
    let line_start = memchr::memrchr(b'\n', &b[..key_span.start]).map_or(0, |i| i + 1);
    let line_end = memchr::memchr(b'\n', &b[key_span.start..]).map_or(text.len(), |i| key_span.start + i);
    let line_end = if b[..line_end].ends_with(b"\r") { line_end - 1 } else { line_end };
    let colon = item.sep.as_ref()?.iter().find(|t| t.kind == Kind::MapValueInd)?;
    let mut vs = colon.end as usize;
    if vs > line_end {
        return None;
    }
    while vs < line_end && matches!(b[vs], b' ' | b'\t') {
        vs += 1;
    }
    let mut ve = line_end;
    while ve > vs && matches!(b[ve - 1], b' ' | b'\t') {
        ve -= 1;
    }
    // a comment on the key's line is not the value
    if b.get(vs) == Some(&b'#') {
        ve = vs;
    }
    let extent = match (hoisted, item.value.map(|v| cst.node(v))) {
        (Some(h), Some(Node::BlockMap { items, .. })) => extent_of_items(cst, text, &items[..h]),
        _ => item.value.and_then(|v| extent(cst, text, v)),
    };
    let value_span = extent.unwrap_or(vs..vs);
    Some(TopEntry { key, key_span, value_line: vs..ve, value_span, line: line_start..line_end })
}

/// The first and last character of a node's content (its tokens and its children's, comments
/// and blanks left out), found with an explicit stack.
fn extent(cst: &Cst, text: &str, id: NodeId) -> Option<Range<usize>> {
    extent_from(cst, text, &[], Some(id))
}

/// [`extent`] of some items of a collection.
fn extent_of_items(cst: &Cst, text: &str, items: &[Item]) -> Option<Range<usize>> {
    extent_from(cst, text, items, None)
}

fn extent_from(cst: &Cst, text: &str, items: &[Item], id: Option<NodeId>) -> Option<Range<usize>> {
    let mut lo = usize::MAX;
    let mut hi = 0;
    let mut add = |a: u32, b: u32| {
        if b > a {
            lo = lo.min(a as usize);
            hi = hi.max(b as usize);
        }
    };
    let mut stack: Vec<NodeId> = id.into_iter().collect();
    push_items(items, &mut add, &mut stack);
    while let Some(id) = stack.pop() {
        match cst.node(id) {
            Node::FlowScalar { source, .. } | Node::Error { source, .. } => add(source.0, source.1),
            Node::BlockScalar { props, source, .. } => {
                for t in props.iter().filter(|t| content(t.kind)) {
                    add(t.start, t.end);
                }
                let body = text[source.0 as usize..source.1 as usize].trim_end();
                add(source.0, source.0 + body.len() as u32);
            }
            Node::BlockMap { items, .. } | Node::BlockSeq { items, .. } => push_items(items, &mut add, &mut stack),
            Node::FlowCollection { start, items, end, .. } => {
                add(start.start, start.end);
                push_items(items, &mut add, &mut stack);
                for t in end.iter().filter(|t| content(t.kind)) {
                    add(t.start, t.end);
                }
            }
            Node::Directive { .. } | Node::Document { .. } | Node::DocEnd { .. } => {}
        }
    }
    (hi > lo).then_some(lo..hi)
}

fn push_items(items: &[Item], add: &mut impl FnMut(u32, u32), stack: &mut Vec<NodeId>) {
    for it in items {
        for t in it.start.iter().chain(it.sep.iter().flatten()).filter(|t| content(t.kind)) {
            add(t.start, t.end);
        }
        stack.extend(it.key);
        stack.extend(it.value);
    }
}

/// A token that is content (not white space, a line break or a comment).
fn content(kind: Kind) -> bool {
    !matches!(kind, Kind::Space | Kind::Newline | Kind::Comment)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_of_valid_and_broken_yaml() {
        let text = "name: pdf\n\"desc\\u0072\": >\n  long\n  text\n# c\ntags:\n- a\n- b  # c\nbad: a: b\nempty:\n";
        let e = top_entries(text);
        let keys: Vec<&str> = e.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["name", "descr", "tags", "bad", "empty"]);
        let at = |r: &Range<usize>| &text[r.clone()];
        assert_eq!((at(&e[0].key_span), at(&e[0].value_line), at(&e[0].value_span)), ("name", "pdf", "pdf"));
        assert_eq!(at(&e[1].key_span), "\"desc\\u0072\"");
        assert_eq!(at(&e[1].value_span), ">\n  long\n  text");
        assert_eq!(at(&e[2].value_line), "");
        assert_eq!(at(&e[2].value_span), "- a\n- b");
        assert_eq!(at(&e[3].value_line), "a: b");
        assert_eq!(at(&e[4].line), "empty:");
        assert!(e[4].value_span.is_empty());
        assert!(top_entries("- a\n- b\n").is_empty());
        assert!(top_entries("").is_empty());
    }
}
