//! Composer: saphyr-parser events -> node tree, with npm `yaml`'s
//! composition-time checks (tags, duplicate keys, aliases, depth).

use super::hashing::FastMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span};

use super::blockscalar;
use super::diag::{Diag, Diags};
use super::indent::{self, Cont};
use super::schema::{Scalar, SchemaKind, TagResolution, YAML_PREFIX};
use super::source::Source;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CollKind {
    Map,
    Seq,
    Set,
    Omap,
    Pairs,
}

#[derive(Debug)]
pub(crate) enum NodeKind {
    Scalar {
        value: Scalar,
        style: ScalarStyle,
        /// the scalar's string value (npm yaml `node.source`); empty for
        /// `Scalar::Str` values, whose source is the string itself
        source: String,
    },
    Seq {
        items: Vec<usize>,
        kind: CollKind,
        flow: bool,
    },
    Map {
        pairs: Vec<(usize, usize)>,
        kind: CollKind,
        flow: bool,
    },
    Alias {
        name: String,
        target: Option<usize>,
    },
}

#[derive(Debug)]
pub(crate) struct Node {
    pub kind: NodeKind,
    pub anchor: Option<String>,
    /// npm yaml `node.tag` (the expanded tag name), if explicitly tagged.
    pub tag: Option<String>,
    /// byte offsets
    pub start: usize,
    pub content_start: usize,
    pub end: usize,
}

impl Node {
    /// Whether the node has a token of its own in npm yaml's CST (not an empty plain scalar,
    /// the `composeEmptyNode` of a missing value or key; a plain scalar's `source` is kept for
    /// non-strings only).
    pub(crate) fn has_token(&self) -> bool {
        match &self.kind {
            NodeKind::Scalar { style: ScalarStyle::Plain, value, source } => match value {
                Scalar::Str(s) => !s.is_empty(),
                _ => !source.is_empty(),
            },
            _ => true,
        }
    }
}

pub(crate) struct Doc {
    pub nodes: Vec<Node>,
    pub root: Option<usize>,
    pub schema: SchemaKind,
    /// The first of the 2,048 chars that stand for lone surrogates in string values (see
    /// `yaml::parse`); `None` when the document has no surrogate escape.
    pub lone_base: Option<u32>,
}

/// The first position from `i` (before `end`) that is not white space or part of a comment (a
/// comment runs to its line's end, which may lie past `end`).
pub(super) fn skip_blanks_and_comments(b: &[u8], mut i: usize, end: usize) -> usize {
    while i < end {
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    i
}

/// Props (anchor, tag) lexed from the source at a node's start.
#[derive(Default, Debug)]
struct Props {
    anchor: Option<(String, usize)>,
    tag: Option<(String, usize)>,
    end: usize,
}

/// The `|`/`>` header of a block scalar: on the last non-blank line before
/// the content, the last white-space separated token starting with `|`/`>`
/// before any comment.
fn block_header_backward(text: &str, content: usize, empty: bool) -> Option<usize> {
    let b = text.as_bytes();
    let mut ls = indent::line_start(text, content.min(b.len()));
    // an empty block scalar's event starts at its header
    if empty && matches!(b.get(content), Some(b'|' | b'>')) {
        return Some(content);
    }
    // the content might start on the header line itself (empty scalar at EOF)
    loop {
        if ls == 0 {
            // header on the first line
            break;
        }
        let prev_ls = indent::line_start(text, ls - 1);
        let line = &b[prev_ls..ls - 1];
        ls = prev_ls;
        if !line.iter().all(|c| matches!(c, b' ' | b'\t' | b'\r')) {
            break;
        }
    }
    let le = b[ls..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| ls + k);
    let mut found = None;
    let mut i = ls;
    while i < le {
        while i < le && matches!(b[i], b' ' | b'\t' | b'\r') {
            i += 1;
        }
        if i >= le || b[i] == b'#' {
            break;
        }
        let st = i;
        while i < le && !matches!(b[i], b' ' | b'\t' | b'\r') {
            i += 1;
        }
        if matches!(b[st], b'|' | b'>') {
            found = Some(st);
        }
    }
    found
}

/// Find the `|`/`>` header of a block scalar whose content starts at `content`,
/// scanning forward from the end of the previous event.
fn find_block_header(text: &str, from: usize, content: usize, empty: bool) -> usize {
    let back = block_header_backward(text, content, empty);
    let fwd = find_block_header_fwd(text, from, content);
    match back {
        Some(h) if fwd != h && indent::line_start(text, fwd) != indent::line_start(text, h) => h,
        Some(h) if fwd >= content => h,
        _ => fwd,
    }
}

fn find_block_header_fwd(text: &str, from: usize, content: usize) -> usize {
    let b = text.as_bytes();
    let mut i = from.min(content);
    while i < content {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b':' | b'-' | b'?' | b',' => i += 1,
            b'#' => {
                while i < content && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'|' | b'>' => return i,
            _ => {
                // skip other tokens (props)
                while i < content && !matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
            }
        }
    }
    content
}

fn is_not_anchor_char(c: char) -> bool {
    matches!(c, ' ' | ',' | '[' | ']' | '{' | '}' | '\n' | '\r' | '\t')
}

fn is_tag_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-#;/?:@&=+$_.!~*'()".contains(c)
}

/// Where a tag's shorthand part starting at byte `e` ends (before `limit`): tag characters and
/// `%XX` escapes, as npm yaml's lexer reads them.
pub(crate) fn tag_shorthand_end(text: &str, mut e: usize, limit: usize) -> usize {
    let bytes = &text.as_bytes()[..limit.min(text.len())];
    while let Some(c) = text.get(e..bytes.len()).and_then(|r| r.chars().next()) {
        if is_tag_char(c) {
            e += c.len_utf8();
        } else if c == '%'
            && bytes.get(e + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(e + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            e += 3;
        } else {
            break;
        }
    }
    e
}

/// Lex `&anchor` / `!tag` properties starting at byte `b` (npm yaml lexer rules).
fn lex_props(text: &str, mut b: usize, limit: usize) -> Props {
    let mut p = Props::default();
    let bytes = &text.as_bytes()[..limit.min(text.len())];
    loop {
        // skip whitespace and comments between properties
        b = skip_blanks_and_comments(bytes, b, bytes.len());
        if b >= bytes.len() {
            break;
        }
        match bytes[b] {
            b'&' if p.anchor.is_none() => {
                let st = b;
                let mut e = b + 1;
                for c in text[e..bytes.len()].chars() {
                    if is_not_anchor_char(c) {
                        break;
                    }
                    e += c.len_utf8();
                }
                p.anchor = Some((text[st + 1..e].to_string(), st));
                b = e;
                p.end = e;
            }
            b'!' if p.tag.is_none() => {
                let st = b;
                let mut e = b + 1;
                if bytes.get(e) == Some(&b'<') {
                    e += 1;
                    while e < bytes.len() {
                        let c = bytes[e];
                        if c == b'>' {
                            e += 1;
                            break;
                        }
                        if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                            break;
                        }
                        e += 1;
                    }
                    // include non-ASCII chars properly
                    while e < bytes.len() && !text.is_char_boundary(e) {
                        e += 1;
                    }
                } else {
                    e = tag_shorthand_end(text, e, bytes.len());
                }
                p.tag = Some((text[st..e].to_string(), st));
                b = e;
                p.end = e;
            }
            _ => break,
        }
    }
    if p.end == 0 {
        p.end = b;
    }
    p
}

/// JS `decodeURIComponent`; `None` on URIError.
fn decode_uri_component(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let b = s.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |j: usize| -> Option<u8> {
                let h = std::str::from_utf8(b.get(j..j + 2)?).ok()?;
                u8::from_str_radix(h, 16).ok()
            };
            let v = hex(i + 1)?;
            out.push(v);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Hash of a key's resolved scalar value for duplicate detection
/// (`a.value === b.value`); `None` for values never `===` to another node's.
fn key_hash(s: &Scalar) -> Option<u64> {
    use super::hashing::hash_of;
    Some(match s {
        Scalar::Null => hash_of(&0u8),
        Scalar::Bool(b) => hash_of(&(1u8, *b)),
        Scalar::Number(x) => {
            if x.is_nan() {
                return None;
            }
            hash_of(&(2u8, if *x == 0.0 { 0 } else { x.to_bits() }))
        }
        Scalar::Str(s) => hash_of(&(3u8, s.as_str())),
        _ => return None,
    })
}

fn key_eq(a: &Scalar, b: &Scalar) -> bool {
    match (a, b) {
        (Scalar::Null, Scalar::Null) => true,
        (Scalar::Bool(x), Scalar::Bool(y)) => x == y,
        (Scalar::Number(x), Scalar::Number(y)) => x == y,
        (Scalar::Str(x), Scalar::Str(y)) => x == y,
        _ => false,
    }
}

/// Keys seen in a map: hash -> head of a chain of key node ids.
#[derive(Default)]
struct KeySet {
    first: FastMap<u64, u32>,
    chain: Vec<(usize, u32)>,
}

impl KeySet {
    /// Whether a key `===` to `value` (of hash `h`, `key_hash`) is in the set (`mapIncludes`).
    fn contains(&self, nodes: &[Node], value: &Scalar, h: u64) -> bool {
        let mut i = self.first.get(&h).copied().unwrap_or(u32::MAX);
        while i != u32::MAX {
            let (n, next) = self.chain[i as usize];
            if let NodeKind::Scalar { value: v2, .. } = &nodes[n].kind
                && key_eq(value, v2)
            {
                return true;
            }
            i = next;
        }
        false
    }
}

pub(crate) struct Frame {
    pub node: usize,
    pub is_map: bool,
    /// in flow context: a flow collection, or a single-pair map of a flow sequence (`pair`)
    pub flow: bool,
    /// a single-pair map of a flow sequence written without braces (`[a: 1]`)
    pub pair: bool,
    /// npm yaml's indent of a block collection (column of its keys / `-`)
    pub indent: usize,
    indent_known: bool,
    pub pending_key: Option<usize>,
    keys: KeySet,
    /// accumulated "stack cost" at this level
    cost: f64,
    /// a value npm yaml drops (see `is_dropped_explicit_value`)
    dropped: bool,
}

/// Estimated fraction of node's default stack used per nesting level
/// (measured against node 20 + yaml 2.9.0; see NOTES.md).
const COST_FLOW: f64 = 1.0 / 936.0;
const COST_BLOCK_MAP: f64 = 1.0 / 1499.0;
const COST_BLOCK_SEQ: f64 = 1.0 / 1874.0;
/// We only fail when npm yaml fails with a safety margin.
const COST_LIMIT: f64 = 1.05;

pub(crate) struct Composer<'a, 'b> {
    pub(crate) src: &'b Source<'a>,
    pub diags: Diags,
    pub(crate) nodes: Vec<Node>,
    pub(crate) stack: Vec<Frame>,
    anchors: FastMap<String, usize>,
    pub(crate) root: Option<usize>,
    tag_prefixes: Vec<(String, String)>,
    /// byte length of the first document's text
    pub(crate) limit: usize,
    /// npm yaml's `ctx.atRoot` turns false once any collection is composed
    pub(crate) seen_collection: bool,
    /// byte end of the previous event's span
    pub(crate) last_end: usize,
    /// npm-yaml-style end of the last composed node
    pub(crate) last_node_end: usize,
    /// (stand-in, original) for chars swapped before saphyr: lone `\r`, NUL (see `parse`)
    pub(crate) placeholders: Vec<(char, char)>,
    /// the document's schema (from the `%YAML` directive, see `errmap::prescan`)
    pub(crate) schema: SchemaKind,
    pub(crate) lone_base: Option<u32>,
    /// the next collection frame is a dropped value; how many dropped frames are open
    drop_next_frame: bool,
    dropped_depth: usize,
    /// (errors, warnings) counts when each open dropped value began: npm yaml never composes
    /// that value, so nothing the composer reports inside it stands; with the byte of its `-`
    /// and the mapping's indentation
    drop_marks: Vec<(usize, usize, usize, usize)>,
    /// a dropped sequence (its `-` and the byte where npm yaml's parser ends it) that saphyr
    /// failed inside: `mod.rs` blanks it and runs saphyr again
    pub(crate) retry: Option<Retry>,
    /// start of the first content line when npm yaml's lexer strips a U+FEFF there (saphyr
    /// patch 11): the mark is not a column of that line's indentation
    bom_line_start: Option<usize>,
}

/// The start of the line whose leading U+FEFF npm yaml's lexer strips before the document's
/// first token (`parseStream`: blank, comment and directive lines come before it), if that
/// line has content.
fn stripped_bom_line(text: &str) -> Option<usize> {
    let mut ls = 0;
    while ls < text.len() {
        let line = &text[ls..];
        let le = line.find('\n').map_or(text.len(), |k| ls + k + 1);
        let body = text[ls..le].strip_prefix('\u{FEFF}');
        let rest = body.unwrap_or(&text[ls..le]).trim_start_matches([' ', '\t', '\r', '\n']);
        if !(rest.is_empty() || rest.starts_with('#') || rest.starts_with('%')) {
            return body.map(|_| ls);
        }
        ls = le;
    }
    None
}

/// Whether byte `i` is the indicator `c` (followed by white space or the end: `- a`, not `-1`).
fn indicator_at(b: &[u8], i: usize, c: u8) -> bool {
    b.get(i) == Some(&c) && indent::is_empty(b.get(i + 1).copied())
}

/// The spaces and `-`/`?`/`:` indicators (each with white space after it) that start the line
/// of byte `pos`: their length (npm yaml's lexer `indentValue`), the last indicator with its
/// column, and whether other content follows them before `pos`.
fn line_start_run(text: &str, pos: usize) -> (usize, Option<(u8, usize)>, bool) {
    let ls = indent::line_start(text, pos);
    let pre = &text.as_bytes()[ls..pos];
    let mut i = pre.iter().take_while(|&&c| c == b' ').count();
    let mut last = None;
    while i < pre.len() && matches!(pre[i], b'-' | b'?' | b':') && matches!(pre.get(i + 1), None | Some(b' ' | b'\t')) {
        last = Some((pre[i], i));
        i += 1;
        while i < pre.len() && matches!(pre[i], b' ' | b'\t') {
            i += 1;
        }
    }
    (i, last, i < pre.len())
}

/// (outcome, diagnostics, saphyr error, second document start, dropped region to blank and
/// run again: `Composer::retry`)
pub(crate) type RunResult = (ComposeOutcome, Diags, Option<ScanError>, Option<(usize, bool)>, Option<Retry>);

/// A dropped region to comment out and parse again: (the byte before its first line's content,
/// its end, and where to put a `? ` before the comment so that a `:` after the region starts a
/// new entry with an empty key, as after npm yaml's dropped value).
pub(crate) type Retry = (usize, usize, Option<usize>);

pub(crate) enum ComposeOutcome {
    Done(Doc),
    Failed,
}

impl<'a, 'b> Composer<'a, 'b> {
    pub fn new(src: &'b Source<'a>, tag_prefixes: Vec<(String, String)>, limit: usize) -> Self {
        Composer {
            src,
            diags: Diags::default(),
            // A typical frontmatter has a node per ~40 bytes; the vector grows for denser text.
            nodes: Vec::with_capacity(src.text.len() / 40 + 4),
            stack: Vec::new(),
            anchors: FastMap::default(),
            root: None,
            tag_prefixes,
            limit,
            seen_collection: false,
            last_end: 0,
            last_node_end: 0,
            placeholders: Vec::new(),
            schema: SchemaKind::Core,
            lone_base: None,
            drop_next_frame: false,
            dropped_depth: 0,
            drop_marks: Vec::new(),
            retry: None,
            bom_line_start: stripped_bom_line(src.text),
        }
    }

    /// Whether the plain scalar `text`, as a key of the block map whose keys start at column
    /// `col`, repeats one of its keys (`mapIncludes`, which `resolveBlockMap` checks before it
    /// reports a key without a value).
    pub(crate) fn repeats_block_key(&self, text: &str, col: usize) -> bool {
        let Some(top) = self.stack.iter().rev().find(|f| !f.flow && f.indent <= col) else {
            return false;
        };
        if !top.is_map || top.indent != col || top.pending_key.is_some() {
            return false;
        }
        let value = self.schema.resolve_plain(text, true);
        key_hash(&value).is_some_and(|h| top.keys.contains(&self.nodes, &value, h))
    }

    /// npm yaml's parser indentation of a block collection starting at byte `pos`: its
    /// column, except on the line whose byte order mark the lexer strips, where the parser
    /// counts no indentation at all (saphyr patch 11).
    fn parser_indent(&self, pos: usize) -> usize {
        if self.bom_line_start.is_some_and(|ls| ls == indent::line_start(self.src.text, pos)) {
            0
        } else {
            indent::column(self.src.text, pos)
        }
    }

    /// Where npm yaml's lexer starts `pos`'s line (`parseLineStart`): after the byte order mark
    /// it strips (`\u{FEFF}\tk: v` has a tab as indentation).
    fn lexer_line_start(&self, pos: usize) -> usize {
        let ls = indent::line_start(self.src.text, pos);
        if self.bom_line_start == Some(ls) && pos >= ls + '\u{FEFF}'.len_utf8() {
            ls + '\u{FEFF}'.len_utf8()
        } else {
            ls
        }
    }

    fn byte(&self, m: saphyr_parser::Marker) -> usize {
        self.src.char_to_offsets(m.index()).0
    }

    /// yaml `directives.tagName(source)`; `None` when unresolvable (error reported).
    fn tag_name(&mut self, source: &str, pos: usize) -> Option<String> {
        let len = source.len();
        let err = |me: &mut Self, msg: String| {
            me.diags.error(Diag::new("YAMLParseError", msg, pos, Some(pos + len)));
        };
        if source == "!" {
            return Some("!".into());
        }
        if let Some(rest) = source.strip_prefix("!<") {
            let verbatim = rest.strip_suffix('>').unwrap_or(&source[2..source.len() - 1]);
            let verbatim = if source.len() >= 3 { &source[2..source.len() - 1] } else { verbatim };
            if verbatim == "!" || verbatim == "!!" {
                err(self, format!("Verbatim tags aren't resolved, so {source} is invalid."));
                return None;
            }
            if !source.ends_with('>') {
                err(self, "Verbatim tags must end with a >".into());
            }
            return Some(verbatim.to_string());
        }
        // /^(.*!)([^!]*)$/s
        let split = source.rfind('!').map(|i| i + 1).unwrap_or(0);
        let (handle, suffix) = source.split_at(split);
        if suffix.is_empty() {
            err(self, format!("The {source} tag has no suffix"));
        }
        let prefix = self.tag_prefixes.iter().rev().find(|(h, _)| h == handle).map(|(_, p)| p.clone());
        if let Some(prefix) = prefix {
            return match decode_uri_component(suffix) {
                Some(d) => Some(prefix + &d),
                None => {
                    err(self, "URIError: URI malformed".into());
                    None
                }
            };
        }
        if handle == "!" {
            return Some(source.to_string());
        }
        err(self, format!("Could not resolve tag: {source}"));
        None
    }

    fn warn_unresolved(&mut self, tag_name: &str, pos: usize, len: usize) {
        self.diags.warn(Diag::new("YAMLWarning", format!("Unresolved tag: {tag_name}"), pos, Some(pos + len)));
    }

    fn push_node(&mut self, node: Node) -> usize {
        let id = self.nodes.len();
        // (nothing in a value npm yaml drops is composed, so its anchors are never set)
        if let Some(a) = &node.anchor
            && self.dropped_depth == 0
        {
            self.anchors.insert(a.clone(), id);
        }
        self.nodes.push(node);
        id
    }

    /// npm yaml's tab-as-indentation and continuation-indentation checks for
    /// a node attached in block context.
    fn block_checks(&mut self, id: usize) {
        let text = self.src.text;
        // fix the block collection's indent from its first entry
        if let Some(top) = self.stack.last()
            && !top.flow
            && !top.indent_known
        {
            let first = self.nodes[id].start;
            // the `-` before the first item / `?` before an explicit first key
            let ind = if top.is_map { b'?' } else { b'-' };
            let b = text.as_bytes();
            let mut i = first;
            while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
                i -= 1;
            }
            let col_pos = if i > 0 && b[i - 1] == ind { i - 1 } else { first };
            let col = self.parser_indent(col_pos);
            let top = self.stack.last_mut().unwrap();
            top.indent = col;
            top.indent_known = true;
        }
        let Some(top) = self.stack.last() else {
            // the document's root node
            let node = &self.nodes[id];
            if matches!(node.kind, NodeKind::Map { flow: true, .. } | NodeKind::Seq { flow: true, .. }) {
                return;
            }
            let is_block = matches!(node.kind, NodeKind::Map { .. } | NodeKind::Seq { .. });
            let line_start = self.lexer_line_start(node.start);
            let upto = if node.content_start > node.start {
                lex_props(text, node.start, node.end.max(node.content_start)).end.max(node.start)
            } else {
                node.start
            };
            if let Some((pos, len)) = indent::check_prefix(text, line_start, line_start, upto, 0, is_block) {
                self.diags.error(Diag::new(
                    "YAMLParseError",
                    "Tabs are not allowed as indentation".into(),
                    pos,
                    Some(pos + len),
                ));
            }
            return;
        };
        if top.flow {
            // saphyr leaves a quoted scalar in a flow sequence's single-pair map (`[a: "b`) to
            // us: npm yaml's lexer ends it at a line indented less than the block context needs
            if top.pair {
                let node = &self.nodes[id];
                let q = match &node.kind {
                    NodeKind::Scalar { style: ScalarStyle::SingleQuoted, .. } => b'\'',
                    NodeKind::Scalar { style: ScalarStyle::DoubleQuoted, .. } => b'"',
                    _ => return,
                };
                let required = self.required_indent();
                if let Some(d) =
                    indent::check_continuation(text, node.content_start, node.end, required, Cont::Quoted(q))
                {
                    self.diags.error(d);
                }
            }
            return;
        }
        let node = &self.nodes[id];
        let parent = &self.nodes[top.node];
        let parent_indent = top.indent;
        let (is_key, prev_end) = if top.is_map {
            match top.pending_key {
                None => (true, None),
                Some(k) => (false, Some(self.nodes[k].end)),
            }
        } else {
            (false, None)
        };
        let line_start = self.lexer_line_start(node.start);
        // the first key of a map that starts on the same line is covered by the map's check
        // (not an explicit one: the map starts at its `?`, the white space after it is the key's)
        let first_key_same_line = is_key
            && matches!(&parent.kind, NodeKind::Map { pairs, .. } if pairs.is_empty())
            && indent::line_start(text, parent.start) == line_start
            && parent.start <= node.start
            && !self.is_explicit_key(id);
        let prefix_only_ws =
            text[line_start..node.start].bytes().all(|c| matches!(c, b' ' | b'\t' | b'-' | b'?' | b':'));
        let seg_start = match prev_end {
            Some(e) if e > line_start => e,
            _ => line_start,
        };
        if !first_key_same_line && (prefix_only_ws || seg_start > line_start) {
            let is_block = matches!(node.kind, NodeKind::Map { flow: false, .. } | NodeKind::Seq { flow: false, .. });
            // lex up to the end of the node's own props (same line)
            let upto = if node.anchor.is_some() || node.tag.is_some() || node.content_start > node.start {
                lex_props(text, node.start, node.end.max(node.content_start)).end.max(node.start)
            } else {
                node.start
            };
            if let Some((pos, len)) = indent::check_prefix(text, line_start, seg_start, upto, parent_indent, is_block) {
                self.diags.error(Diag::new(
                    "YAMLParseError",
                    "Tabs are not allowed as indentation".into(),
                    pos,
                    Some(pos + len),
                ));
            }
        }
        // continuation lines of multi-line scalars
        if let NodeKind::Scalar { style, .. } = &node.kind {
            let kind = match style {
                ScalarStyle::Plain => Some(Cont::Plain),
                ScalarStyle::SingleQuoted => Some(Cont::Quoted(b'\'')),
                ScalarStyle::DoubleQuoted => Some(Cont::Quoted(b'"')),
                _ => None,
            };
            if let Some(kind) = kind
                && let Some(d) = indent::check_continuation(text, node.content_start, node.end, parent_indent + 1, kind)
            {
                self.diags.error(d);
            }
        }
    }

    /// npm yaml: implicit keys (not after `?`) must be on a single line.
    fn check_implicit_key(&mut self, id: usize) {
        let text = self.src.text;
        let b = text.as_bytes();
        let n = &self.nodes[id];
        let mut i = n.start;
        while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        if i > 0 && b[i - 1] == b'?' {
            return;
        }
        let multiline = match &n.kind {
            NodeKind::Scalar { style, .. } => {
                !matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
                    && b[n.content_start..n.end.min(b.len())].contains(&b'\n')
            }
            NodeKind::Map { flow: true, .. } | NodeKind::Seq { flow: true, .. } | NodeKind::Alias { .. } => {
                b[n.content_start..n.end.min(b.len())].contains(&b'\n')
            }
            _ => false,
        };
        // props followed by a line break before the key
        let newline_after_prop = n.content_start > n.start && b[n.start..n.content_start].contains(&b'\n');
        if multiline || newline_after_prop {
            let st = n.content_start;
            self.diags.error(Diag::new(
                "YAMLParseError",
                "Implicit keys need to be on a single line".into(),
                st,
                Some(n.end.max(st + 1)),
            ));
        }
    }

    /// npm yaml's parser after a block map's first key that is a flow collection spanning lines
    /// (saphyr patch 16): the map's indentation is the key line's, but a value on the line of
    /// the closing bracket is taken with that line's indentation (`Parser.blockMap`,
    /// `this.indent`); below the map's, the map ends there and the value goes up the stack to
    /// the first collection that takes it (`m:\n  [ [a]\n ]: 1`).
    fn check_multi_line_flow_key_value(&mut self, k: usize, v: usize) {
        let Some(top) = self.stack.last() else { return };
        let NodeKind::Map { pairs, flow: false, .. } = &self.nodes[top.node].kind else { return };
        let key = &self.nodes[k];
        if !pairs.is_empty() || !matches!(key.kind, NodeKind::Map { flow: true, .. } | NodeKind::Seq { flow: true, .. })
        {
            return;
        }
        let text = self.src.text;
        let b = text.as_bytes();
        let close_line = indent::line_start(text, key.end.saturating_sub(1));
        if indent::line_start(text, key.content_start) == close_line || self.is_explicit_key(k) {
            return;
        }
        let value = &self.nodes[v];
        let empty = matches!(&value.kind, NodeKind::Scalar { style: ScalarStyle::Plain, .. })
            && value.end <= value.content_start
            && value.anchor.is_none()
            && value.tag.is_none();
        if empty || indent::line_start(text, value.start) != close_line {
            return;
        }
        let line_indent = b[close_line..].iter().take_while(|&&c| c == b' ').count();
        if line_indent >= top.indent {
            return;
        }
        let depth = self.stack.len();
        let mut msg = "Unexpected scalar at node end";
        for f in self.stack[..depth - 1].iter().rev() {
            if f.is_map && f.indent < line_indent {
                msg = "All mapping items must start at the same column";
            } else if f.is_map && f.indent == line_indent {
                msg = "Implicit map keys need to be followed by map values";
            } else if !f.is_map && f.indent < line_indent {
                msg = "Sequence item without - indicator";
            } else {
                continue;
            }
            break;
        }
        let at = value.start;
        self.diags.error(Diag::new("YAMLParseError", msg.into(), at, None));
    }

    /// npm yaml (`resolveBlockMap`): the value of an implicit key (no `?`; an empty key `: `
    /// included) may not be a block mapping that starts on the line of its `:`. saphyr rejects
    /// most such layouts itself (`a: b: c`), but accepts one after an empty key (`: x: y`).
    fn check_compact_nested_map(&mut self, value_start: usize) {
        let Some(top) = self.stack.last() else { return };
        let (true, false, Some(k)) = (top.is_map, top.flow, top.pending_key) else { return };
        let b = self.src.text.as_bytes();
        let key = &self.nodes[k];
        let mut i = key.start;
        while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        if i > 0 && b[i - 1] == b'?' {
            return;
        }
        let from = key.end.min(value_start);
        if b[from..value_start].contains(&b'\n') {
            return;
        }
        // the value's first token: white space and a comment after its props may end the line
        let mut value_start = value_start;
        while value_start < b.len() {
            match b[value_start] {
                b' ' | b'\t' | b'\r' => value_start += 1,
                b'#' => {
                    while value_start < b.len() && b[value_start] != b'\n' {
                        value_start += 1;
                    }
                }
                b'\n' => return,
                _ => break,
            }
        }
        {
            self.diags.error(Diag::new(
                "YAMLParseError",
                "Nested mappings are not allowed in compact mappings".into(),
                value_start,
                None,
            ));
        }
    }

    /// A block sequence that saphyr (patched) returns as the value of an explicit key although
    /// no `:` indicator precedes it (`? x` then `- a` at the mapping's indentation): npm yaml's
    /// parser makes it the item's value, and its composer drops a value without `:`.
    fn is_dropped_explicit_value(&self, key: usize, value: usize) -> bool {
        matches!(self.nodes[value].kind, NodeKind::Seq { flow: false, .. })
            && self.no_value_indicator(key, self.nodes[value].start)
    }

    /// Where to look for a `:` after the key node `key`: its end, or after the `:` of its own
    /// last entry when that entry's value is empty (`? x:` has its empty value at the `:`).
    fn key_scan_start(&self, key: usize) -> usize {
        let b = self.src.text.as_bytes();
        let from = self.nodes[key].end.min(b.len());
        let mut n = key;
        while let NodeKind::Map { pairs, flow: false, .. } = &self.nodes[n].kind
            && let Some(&(_, v)) = pairs.last()
        {
            if self.nodes[v].start == self.nodes[v].end && self.nodes[v].end == from && b.get(from) == Some(&b':') {
                return from + 1;
            }
            n = v;
        }
        from
    }

    /// No `:` value indicator between the key node `key` and byte `to` (comments skipped).
    fn no_value_indicator(&self, key: usize, to: usize) -> bool {
        let b = self.src.text.as_bytes();
        let (from, to) = (self.key_scan_start(key), to.min(b.len()));
        let mut i = from;
        let mut prev_space = true;
        while i < to {
            match b[i] {
                b'#' if prev_space => {
                    while i < to && b[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b':' if prev_space && matches!(b.get(i + 1), None | Some(b' ' | b'\t' | b'\n' | b'\r')) => {
                    return false;
                }
                c => prev_space = matches!(c, b' ' | b'\t' | b'\n' | b'\r'),
            }
            i += 1;
        }
        true
    }

    /// The dropped sequence (see `is_dropped_explicit_value`) around a saphyr error at byte
    /// `err`: the outermost open one, or one whose `-` saphyr's lookahead had not reached as an
    /// event yet (`? x` pending, then `- ` at the mapping's indentation). (`-` byte, end byte)
    fn dropped_region(&self, err: usize) -> Option<Retry> {
        let (dash, indent) = match self.drop_marks.first() {
            Some(&(_, _, dash, indent)) => (dash, indent),
            None => {
                let top = self.stack.last()?;
                if top.pending_key.is_none() {
                    return self.dropped_value_region(err);
                }
                let k = top.pending_key?;
                if top.flow || !top.is_map || !self.is_explicit_key(k) {
                    return None;
                }
                let b = self.src.text.as_bytes();
                let i = skip_blanks_and_comments(b, self.key_scan_start(k), err.min(b.len()));
                let at_line_start = b[indent::line_start(self.src.text, i)..i].iter().all(|&c| c == b' ');
                if b.get(i) != Some(&b'-')
                    || !matches!(b.get(i + 1), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
                    || !at_line_start
                    || self.parser_indent(i) != top.indent
                    || !self.no_value_indicator(k, i)
                {
                    return None;
                }
                (i, top.indent)
            }
        };
        if err < dash {
            return None;
        }
        let end = super::dropped::seq_end(self.src.text, dash, indent, self.limit)?;
        (end > dash + 1).then_some((dash, end, None))
    }

    /// A block collection as an explicit key, ended by a line indented less than it but more
    /// than the mapping, or a flow collection key followed by a line indented more than the
    /// mapping, before any `:` (`? x: 1\n y: 2`, `? - a\n b: 1`, `? [a]\n  b`): what starts there
    /// is the key's value in npm yaml's CST (`Parser.blockMap`, `startBlockValue`; `pop` sets
    /// `it.value` after the key's `sep: []`), and `resolveBlockMap` drops it unchecked. saphyr
    /// has given the key an empty value and fails at that line: the region (from its line start,
    /// to where npm yaml's parser ends that node) for `Composer::retry`.
    fn dropped_value_region(&self, err: usize) -> Option<Retry> {
        let top = self.stack.last()?;
        let NodeKind::Map { pairs, flow: false, .. } = &self.nodes[top.node].kind else {
            return None;
        };
        let &(k, v) = pairs.last()?;
        let (key, value) = (&self.nodes[k], &self.nodes[v]);
        let empty = value.anchor.is_none()
            && value.tag.is_none()
            && value.start == value.end
            && matches!(&value.kind, NodeKind::Scalar { value: Scalar::Null, source, .. } if source.is_empty());
        let flow_key = matches!(key.kind, NodeKind::Map { flow: true, .. } | NodeKind::Seq { flow: true, .. });
        if !empty
            || !matches!(key.kind, NodeKind::Map { .. } | NodeKind::Seq { .. })
            // (an explicit key's compact map starts at the `?`, see `collection_start`)
            || !(self.is_explicit_key(k) || self.src.text.as_bytes().get(key.start) == Some(&b'?'))
        {
            return None;
        }
        let b = self.src.text.as_bytes();
        let i = skip_blanks_and_comments(b, self.key_scan_start(k), err.min(b.len()));
        let ls = indent::line_start(self.src.text, i);
        let col = self.parser_indent(i);
        if ls == 0
            || err < i
            || !b[ls..i].iter().all(|&c| c == b' ')
            || col <= top.indent
            || (!flow_key && col >= self.block_indent_of(k))
            || !self.no_value_indicator(k, i)
        {
            return None;
        }
        let seq = indicator_at(b, i, b'-');
        let end = super::dropped::node_end(self.src.text, i, col, seq, self.limit)?;
        if end <= i {
            return None;
        }
        // a `:` at the mapping's indentation after the region is a new entry's (the item has
        // its value): `? ` at that column on the region's first line makes it one here
        let next = skip_blanks_and_comments(b, end, b.len());
        let colon = indicator_at(b, next, b':')
            && b[indent::line_start(self.src.text, next)..next].iter().all(|&c| c == b' ')
            && indent::column(self.src.text, next) == top.indent;
        let marker = ls + top.indent;
        if colon
            && !b.get(marker..marker + 3).is_some_and(|w| w.iter().all(|&c| c.is_ascii() && c != b'\n' && c != b'\r'))
        {
            return None;
        }
        Some((ls - 1, end, colon.then_some(marker)))
    }

    /// The column of a block collection's first item (its first key, or its first `-`).
    fn block_indent_of(&self, id: usize) -> usize {
        let n = &self.nodes[id];
        let at = match &n.kind {
            NodeKind::Map { pairs, .. } => pairs.first().map_or(n.content_start, |&(k, _)| self.nodes[k].start),
            _ => n.content_start,
        };
        indent::column(self.src.text, at)
    }

    /// Whether the key node `k` follows a `?` (white space between).
    fn is_explicit_key(&self, k: usize) -> bool {
        let b = self.src.text.as_bytes();
        let mut i = self.nodes[k].start;
        while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        i > 0 && b[i - 1] == b'?'
    }

    /// Attach a node to its parent collection (or make it the root).
    fn attach(&mut self, id: usize) {
        if matches!(self.nodes[id].kind, NodeKind::Scalar { .. } | NodeKind::Alias { .. }) {
            self.last_node_end = self.nodes[id].end;
        }
        let mark = (self.diags.errors.len(), self.diags.warnings.len());
        self.block_checks(id);
        let Some(top) = self.stack.last_mut() else {
            self.root = Some(id);
            return;
        };
        let parent = top.node;
        let parent_flow = top.flow;
        if top.is_map {
            match top.pending_key.take() {
                None => {
                    top.pending_key = Some(id);
                    if !parent_flow {
                        self.check_implicit_key(id);
                    }
                    // duplicate key check (`mapIncludes`)
                    if let NodeKind::Scalar { value, .. } = &self.nodes[id].kind
                        && let Some(h) = key_hash(value)
                    {
                        let top = self.stack.last_mut().unwrap();
                        let dup = top.keys.contains(&self.nodes, value, h);
                        if !dup {
                            let pos = top.keys.chain.len() as u32;
                            let prev = top.keys.first.insert(h, pos).unwrap_or(u32::MAX);
                            top.keys.chain.push((id, prev));
                        }
                        if dup {
                            let pos = self.nodes[id].content_start;
                            self.diags.error(Diag::new("YAMLParseError", "Map keys must be unique".into(), pos, None));
                        }
                    }
                }
                Some(k) => {
                    if !parent_flow {
                        self.check_multi_line_flow_key_value(k, id);
                    }
                    let value = if !parent_flow && self.is_dropped_explicit_value(k, id) {
                        // npm yaml: a block sequence after `? key` with no `:` is dropped
                        self.drop_next_frame = true;
                        let ind = self.stack.last().map_or(0, |f| f.indent);
                        self.drop_marks.push((mark.0, mark.1, self.nodes[id].start, ind));
                        let at = self.nodes[id].start;
                        self.nodes.push(Node {
                            kind: NodeKind::Scalar {
                                value: Scalar::Null,
                                style: ScalarStyle::Plain,
                                source: String::new(),
                            },
                            anchor: None,
                            tag: None,
                            start: at,
                            content_start: at,
                            end: at,
                        });
                        self.nodes.len() - 1
                    } else {
                        id
                    };
                    if let NodeKind::Map { pairs, .. } = &mut self.nodes[parent].kind {
                        pairs.push((k, value));
                    }
                }
            }
        } else if let NodeKind::Seq { items, .. } = &mut self.nodes[parent].kind {
            items.push(id);
        }
    }

    /// Props for a node starting at `start` (byte), only lexed when needed.
    fn props(&mut self, start: usize, end: usize, has_anchor: bool, has_tag: bool) -> Props {
        if !has_anchor && !has_tag {
            return Props { end: start, ..Props::default() };
        }
        lex_props(self.src.text, start, end)
    }

    fn scalar_event(&mut self, value: &str, style: ScalarStyle, anchor_id: usize, has_tag: bool, span: Span) {
        let mut start = self.byte(span.start);
        let end = self.byte(span.end);
        let props = self.props(start, end, anchor_id != 0, has_tag);
        let mut content_start = if has_tag || anchor_id != 0 { props.end } else { start };
        // skip separating whitespace after props
        let tb = self.src.text.as_bytes();
        while content_start < end && matches!(tb.get(content_start), Some(b' ' | b'\t')) {
            content_start += 1;
        }
        // (npm yaml reports anchor problems while resolving props, before the tag)
        let anchor = self.check_anchor(&props);
        let tag_name = match &props.tag {
            Some((src, pos)) => {
                let (src, pos) = (src.clone(), *pos);
                self.tag_name(&src, pos).map(|n| (n, src, pos))
            }
            None => None,
        };
        // block scalars: npm yaml's own extent and folding rules
        let mut value_owned: Option<String> = None;
        for &(ph, orig) in &self.placeholders {
            let cur = value_owned.as_deref().unwrap_or(value);
            if cur.contains(ph) {
                value_owned = Some(cur.replace(ph, orig.encode_utf8(&mut [0; 4])));
            }
        }
        let mut block_end: Option<usize> = None;
        if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) {
            let (mut indent_next, parent_indent) = match self.stack.last() {
                Some(f) if !f.flow => (f.indent + 1, f.indent),
                _ => (0, 0),
            };
            let at_root = self.stack.is_empty() && !self.seen_collection;
            let header = if has_tag || anchor_id != 0 {
                content_start
            } else {
                find_block_header(self.src.text, self.last_end, start, value.bytes().all(|c| c == b'\n'))
            };
            // after a `:` that ends the line-start indicators (`k: 1\n : |`, saphyr patch 13),
            // npm yaml's lexer continues the scalar past that `:`'s column (`parseBlockStart`)
            let mut past_colon = false;
            let (run, last_ind, content_before) = line_start_run(self.src.text, header);
            if let (Some((b':', col)), false) = (last_ind, content_before)
                && col + 1 > indent_next
            {
                indent_next = col + 1;
                past_colon = true;
            } else if content_before && run + 1 > indent_next && self.stack.last().is_some_and(|f| f.is_map && !f.flow)
            {
                // after a `:` inside the line (`? x: |`), the lexer's indentNext is the line's
                // indentValue (its spaces and line-start indicators) plus one
                indent_next = run + 1;
            }
            // on the byte order mark's line the lexer's indentation is the line's spaces
            if let Some(ls) = self.bom_line_start
                && indent::line_start(self.src.text, header) == ls
                && !self.stack.last().is_some_and(|f| f.flow)
                && !self.stack.is_empty()
            {
                let after = ls + '\u{FEFF}'.len_utf8();
                let spaces = self.src.text[after..].bytes().take_while(|&c| c == b' ').count();
                indent_next = spaces + 1;
            }
            content_start = header;
            if !(has_tag || anchor_id != 0) {
                start = header;
            }
            let bs = blockscalar::resolve(self.src.text, self.limit, header, indent_next, parent_indent, at_root);
            for e in bs.errors {
                self.diags.error(e);
            }
            // the first content line after the scalar (npm yaml's extent), indented past the
            // mapping: its first token is an entry of the mapping at another column
            // (`resolveBlockMap`)
            let lim = self.limit.min(self.src.text.len());
            if past_colon
                && self.src.text[bs.end.min(lim)..lim]
                    .lines()
                    .find(|l| !l.trim_start().is_empty() && !l.trim_start().starts_with('#'))
                    .is_some_and(|l| l.bytes().take_while(|&c| c == b' ').count() > parent_indent)
            {
                self.diags.error(Diag::new(
                    "YAMLParseError",
                    "All mapping items must start at the same column".into(),
                    bs.end,
                    None,
                ));
            }
            value_owned = Some(bs.value);
            block_end = Some(bs.end);
        } else if style == ScalarStyle::Plain && !value.is_empty() {
            let first = self.src.text[content_start..].chars().next();
            let bad = match first {
                Some('|') | Some('>') => Some(format!("block scalar indicator {}", first.unwrap_or(' '))),
                Some('%') => Some("directive indicator character %".to_string()),
                Some('@') | Some('`') => Some(format!("reserved character {}", first.unwrap_or(' '))),
                _ => None,
            };
            if let Some(b) = bad {
                self.diags.error(Diag::new(
                    "YAMLParseError",
                    format!("Plain value cannot start with {b}"),
                    content_start,
                    Some(content_start + 1),
                ));
            }
        }
        let value: &str = value_owned.as_deref().unwrap_or(value);
        let resolved = match &tag_name {
            None => {
                if style == ScalarStyle::Plain {
                    let at_key = self.stack.last().is_some_and(|f| f.is_map && f.pending_key.is_none());
                    self.schema.resolve_plain(value, at_key)
                } else {
                    Scalar::Str(value.to_string())
                }
            }
            Some((name, src, pos)) => {
                let known_coll =
                    matches!(name.strip_prefix(YAML_PREFIX), Some("map" | "seq" | "set" | "omap" | "pairs"));
                if known_coll {
                    if name != "tag:yaml.org,2002:str" {
                        self.warn_unresolved(name, *pos, src.len());
                    }
                    Scalar::Str(value.to_string())
                } else {
                    match self.schema.resolve_tagged_scalar(name, value) {
                        TagResolution::Ok(s) => s,
                        TagResolution::Unresolved => {
                            self.warn_unresolved(name, *pos, src.len());
                            Scalar::Str(value.to_string())
                        }
                        TagResolution::Failed(msg) => {
                            self.diags.error(Diag::new("YAMLParseError", msg, *pos, Some(*pos + src.len())));
                            Scalar::Str(value.to_string())
                        }
                    }
                }
            }
        };
        let id = self.push_node(Node {
            kind: NodeKind::Scalar {
                // the source text only matters for non-string values (a string's source is itself)
                source: if matches!(resolved, Scalar::Str(_)) { String::new() } else { value.to_string() },
                value: resolved,
                style,
            },
            anchor,
            tag: tag_name.map(|t| t.0),
            start,
            content_start,
            end: block_end.unwrap_or(end),
        });
        self.attach(id);
    }

    fn check_anchor(&mut self, props: &Props) -> Option<String> {
        let (name, pos) = props.anchor.as_ref()?;
        if name.is_empty() {
            self.diags.error(Diag::new(
                "YAMLParseError",
                "Anchor cannot be an empty string".into(),
                *pos,
                Some(pos + 1),
            ));
            return None;
        }
        if name.ends_with(':') {
            let p = pos + name.len();
            self.diags.warn(Diag::new("YAMLWarning", "Anchor ending in : is ambiguous".into(), p, Some(p + 1)));
        }
        Some(name.clone())
    }

    fn alias_event(&mut self, span: Span) {
        let start = self.byte(span.start);
        let end = self.byte(span.end);
        let text = &self.src.text[start..end];
        let name = text.strip_prefix('*').unwrap_or(text).to_string();
        if name.is_empty() {
            self.diags.error(Diag::new(
                "YAMLParseError",
                "Alias cannot be an empty string".into(),
                start,
                Some(start + 1),
            ));
        }
        if name.ends_with(':') {
            self.diags.warn(Diag::new("YAMLWarning", "Alias ending in : is ambiguous".into(), end - 1, Some(end)));
        }
        let target = self.anchors.get(&name).copied();
        let id = self.push_node(Node {
            kind: NodeKind::Alias { name, target },
            anchor: None,
            tag: None,
            start,
            content_start: start,
            end,
        });
        self.attach(id);
    }

    fn collection_start(&mut self, is_map: bool, anchor_id: usize, has_tag: bool, span: Span) -> Result<(), ()> {
        let mut start = self.byte(span.start);
        let span_start = start;
        let span_end = self.byte(span.end);
        if anchor_id == 0 && !has_tag {
            // an indentless block sequence's event starts at its first item,
            // after the `-` (and an explicit key's map after the `?`)
            let b = self.src.text.as_bytes();
            let ind = if is_map { b'?' } else { b'-' };
            let mut i = start.min(b.len());
            while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
                i -= 1;
            }
            // (an item that starts with `-` itself, `-\t-1`, is not the indicator)
            let at_ind = indicator_at(b, start, ind);
            if i > 0 && b[i - 1] == ind && !at_ind {
                start = i - 1;
            }
        }
        let props = self.props(start, span_end, anchor_id != 0, has_tag);
        // a flow collection's start event covers its props, its bracket and the white space and
        // comment after it on that line (`[ # c`); a block collection's covers its props only
        // (and white space, comments and line breaks after them)
        let after_props = if anchor_id != 0 || has_tag { props.end } else { span_start };
        let bracket = skip_blanks_and_comments(self.src.text.as_bytes(), after_props, span_end);
        let flow = bracket < span_end && matches!(self.src.text.as_bytes()[bracket], b'[' | b'{');
        // depth guard (npm yaml fails with a stack overflow)
        let parent_cost = self.stack.last().map_or(0.0, |f| f.cost);
        let cost = parent_cost
            + if flow {
                COST_FLOW
            } else if is_map {
                COST_BLOCK_MAP
            } else {
                COST_BLOCK_SEQ
            };
        if cost > COST_LIMIT {
            let pos = if flow { bracket } else { props.end.max(start) };
            self.diags.error(Diag::new("YAMLParseError", "Maximum call stack size exceeded".into(), pos, None));
            return Err(());
        }
        self.seen_collection = true;
        let exp_map = is_map;
        let mut kind = if is_map { CollKind::Map } else { CollKind::Seq };
        let anchor = self.check_anchor(&props);
        let mut tag_out = None;
        if let Some((src, pos)) = props.tag.clone()
            && let Some(name) = self.tag_name(&src, pos)
        {
            tag_out = Some(name.clone());
            let plain = name == "!"
                || (exp_map && name == "tag:yaml.org,2002:map")
                || (!exp_map && name == "tag:yaml.org,2002:seq");
            if !plain {
                let short = name.strip_prefix(YAML_PREFIX);
                let exp = if exp_map { "map" } else { "seq" };
                match (short, exp_map) {
                    (Some("set"), true) => kind = CollKind::Set,
                    (Some("omap"), false) => kind = CollKind::Omap,
                    (Some("pairs"), false) => kind = CollKind::Pairs,
                    (Some(k @ ("set" | "omap" | "pairs" | "binary" | "timestamp" | "merge")), _)
                        if self.schema.resolves_known_tags() =>
                    {
                        let expects = match k {
                            "set" => "map",
                            "omap" | "pairs" => "seq",
                            _ => "scalar",
                        };
                        self.diags.warn(Diag::new(
                            "YAMLWarning",
                            format!("{name} used for {exp} collection, but expects {expects}"),
                            pos,
                            Some(pos + src.len()),
                        ));
                    }
                    _ => self.warn_unresolved(&name, pos, src.len()),
                }
            }
        }
        let content_start = if props.tag.is_some() || props.anchor.is_some() {
            let mut c = props.end;
            let tb = self.src.text.as_bytes();
            while c < tb.len() && matches!(tb[c], b' ' | b'\t' | b'\n' | b'\r') {
                c += 1;
            }
            c
        } else {
            start
        };
        let node = Node {
            kind: if is_map {
                NodeKind::Map { pairs: Vec::new(), kind, flow }
            } else {
                NodeKind::Seq { items: Vec::new(), kind, flow }
            },
            anchor,
            tag: tag_out,
            start,
            content_start: if flow { bracket } else { content_start },
            end: span_end,
        };
        if is_map && !flow {
            self.check_compact_nested_map(if props.tag.is_some() || props.anchor.is_some() {
                content_start
            } else {
                start
            });
        }
        let id = self.push_node(node);
        self.attach(id);
        // a single-pair map of a flow sequence (`[a: 1]`) has no brackets but is in flow context
        let pair = !flow && self.stack.last().is_some_and(|f| f.flow);
        let indent = if flow || pair {
            0
        } else {
            // the `-` of an indentless sequence may precede the event's position (a map's
            // event is at its first `?`, and one after a `?` is that explicit key's compact
            // map, whose indent is its own column: `? x: |`)
            let b = self.src.text.as_bytes();
            let ind = b'-';
            let mut i = span_end.min(b.len());
            if !is_map && !indicator_at(b, i, ind) {
                while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
                    i -= 1;
                }
                i = if i > 0 && b[i - 1] == ind { i - 1 } else { span_end };
            }
            self.parser_indent(i)
        };
        self.stack.push(Frame {
            node: id,
            is_map,
            flow: flow || pair,
            pair,
            indent,
            indent_known: true,
            pending_key: None,
            keys: KeySet::default(),
            cost,
            dropped: std::mem::take(&mut self.drop_next_frame),
        });
        if self.stack.last().is_some_and(|f| f.dropped) {
            self.dropped_depth += 1;
        }
        Ok(())
    }

    fn collection_end(&mut self, span: Span) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        if frame.dropped {
            self.dropped_depth -= 1;
            if let Some((e, w, _, _)) = self.drop_marks.pop() {
                self.diags.errors.truncate(e);
                self.diags.warnings.truncate(w);
            }
        }
        let id = frame.node;
        let span_end = self.byte(span.end);
        // end = end of flow terminator, or end of last child for block collections
        let flow = matches!(self.nodes[id].kind, NodeKind::Map { flow: true, .. } | NodeKind::Seq { flow: true, .. });
        let end = if flow {
            span_end
        } else {
            let last_child = match &self.nodes[id].kind {
                NodeKind::Map { pairs, .. } => pairs.last().map(|p| p.1),
                NodeKind::Seq { items, .. } => items.last().copied(),
                _ => None,
            };
            last_child.map_or(self.nodes[id].end, |c| self.nodes[c].end)
        };
        self.nodes[id].end = end.max(self.nodes[id].start);
        self.last_node_end = self.nodes[id].end;
        if flow
            && let Some(top) = self.stack.last()
            && !top.flow
        {
            let is_map = frame.is_map;
            // npm yaml's lexer checks the lines against its indentNext, which an implicit key
            // (`[a,\n b]: 1`) leaves as the line before it had it: the parent collection's
            // indentation + 1 for a map's first key, the map's own for the others
            let required = if top.is_map && top.pending_key == Some(id) && !self.is_explicit_key(id) {
                if matches!(&self.nodes[top.node].kind, NodeKind::Map { pairs, .. } if pairs.is_empty()) {
                    let depth = self.stack.len();
                    if depth >= 2 { self.stack[depth - 2].indent + 1 } else { 0 }
                } else {
                    top.indent
                }
            } else {
                top.indent + 1
            };
            let n = &self.nodes[id];
            if let Some(d) =
                indent::check_continuation(self.src.text, n.content_start, n.end, required, Cont::Flow(is_map))
            {
                self.diags.error(d);
            }
        }
        if !flow && frame.is_map {
            self.map_comment_check(id, frame.indent);
            self.empty_value_tab_check(id, frame.indent);
        }
        if frame.flow && frame.is_map {
            self.flow_value_comment_check(id);
        }
        self.finish_special(id, frame.indent);
    }

    /// In a flow mapping (or a flow sequence's single-pair map), a value node at the end of its
    /// line takes that line break into its `end` (`Parser.lineEnd`), so a comment at column 0
    /// on the next line starts an item of its own with no white space before it:
    /// `Comments must be separated from other tokens by white space characters`
    /// (`resolveProps` in `resolveFlowCollection`; `k: {\n  a: 1\n# c\n}`). Not after a key
    /// without value, after a `,`, or after a blank line.
    fn flow_value_comment_check(&mut self, id: usize) {
        let NodeKind::Map { pairs, .. } = &self.nodes[id].kind else {
            return;
        };
        let b = self.src.text.as_bytes();
        let mut found = Vec::new();
        for &(_, v) in pairs {
            let n = &self.nodes[v];
            if !n.has_token() || n.end <= n.content_start {
                continue;
            }
            let mut i = n.end.min(b.len());
            while i < b.len() && matches!(b[i], b' ' | b'\t') {
                i += 1;
            }
            if b.get(i) == Some(&b'#') && i > n.end {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            if b.get(i) == Some(&b'\r') {
                i += 1;
            }
            if b.get(i) == Some(&b'\n') && b.get(i + 1) == Some(&b'#') {
                let mut e = i + 1;
                while e < b.len() && !matches!(b[e], b'\n' | b'\r') {
                    e += 1;
                }
                found.push((i + 1, e));
            }
        }
        for (pos, end) in found {
            let msg = "Comments must be separated from other tokens by white space characters";
            self.diags.error_before(Diag::new("YAMLParseError", msg.into(), pos, Some(end)), pos);
        }
    }

    /// npm yaml's `Map comment with trailing content` (`resolveBlockMap`): a blank line, or a
    /// comment line not indented past the map, between an entry's value and a flow collection
    /// key at the line start (`a: 1\n\n[x]: 2`) makes the parser leave an item of comments
    /// only (`Parser.blockMap`, `startBlockValue` with `atMapIndent`), which the composer
    /// rejects when entries follow it; reported once, at the last such key.
    fn map_comment_check(&mut self, id: usize, indent: usize) {
        let NodeKind::Map { pairs, .. } = &self.nodes[id].kind else {
            return;
        };
        let text = self.src.text;
        let b = text.as_bytes();
        let mut last = None;
        let mut missing = Vec::new();
        for w in pairs.windows(2) {
            let (pv, (k, _)) = (w[0].1, w[1]);
            let key = &self.nodes[k];
            let flow_key = matches!(key.kind, NodeKind::Map { flow: true, .. } | NodeKind::Seq { flow: true, .. });
            let props = key.anchor.is_some() || key.tag.is_some();
            if !flow_key
                || !matches!(b.get(key.content_start), Some(b'[' | b'{'))
                || (props && b[key.start..key.content_start].contains(&b'\n'))
            {
                continue;
            }
            let ls = indent::line_start(text, key.start);
            if !b[ls..key.start].iter().all(|&c| c == b' ') {
                continue;
            }
            let v = &self.nodes[pv];
            if matches!(v.kind, NodeKind::Scalar { .. })
                && text.get(v.content_start..v.end).is_none_or(|c| c.trim().is_empty())
            {
                continue;
            }
            // An indented key line starts with a space token, which after an entry with a value
            // is an item of its own (`Parser.blockMap`: `space` with `it.value`); the flow
            // collection then opens another item, so the first is left with comments only
            // (`m:\n  k: 1\n  [f]: 1`). A block scalar's value takes the next line's
            // indentation with it.
            let block_scalar = matches!(
                v.kind,
                NodeKind::Scalar {
                    style: saphyr_parser::ScalarStyle::Literal | saphyr_parser::ScalarStyle::Folded,
                    ..
                }
            );
            // With properties before the bracket, they stay in the first item, which is then an
            // empty key with properties and without a value: `Implicit map keys need to be
            // followed by map values` at the bracket, in item order (`resolveBlockMap`).
            let found = |last: &mut Option<usize>, missing: &mut Vec<(usize, usize)>| {
                if props {
                    missing.push((key.start, key.content_start));
                } else {
                    *last = Some(key.start);
                }
            };
            if key.start > ls && !block_scalar {
                found(&mut last, &mut missing);
                continue;
            }
            // lines between the value's last content line and the key's line
            let mut e = v.end.min(ls);
            while e > 0 && matches!(b[e - 1], b' ' | b'\t' | b'\r' | b'\n') {
                e -= 1;
            }
            let mut p = match b[e..ls].iter().position(|&c| c == b'\n') {
                Some(k) => e + k + 1,
                None => continue,
            };
            while p < ls {
                let le = p + b[p..ls].iter().position(|&c| c == b'\n').map_or(ls - p, |k| k + 1);
                let line = &b[p..le];
                let sp = line.iter().take_while(|&&c| c == b' ').count();
                let rest = line[sp..].iter().position(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n'));
                match rest {
                    None => {
                        found(&mut last, &mut missing);
                        break;
                    }
                    Some(r) if line[sp + r] == b'#' && sp + r <= indent => {
                        found(&mut last, &mut missing);
                        break;
                    }
                    _ => {}
                }
                p = le;
            }
        }
        for (start, pos) in missing {
            // before the errors of the key and of what follows it (they are composed later)
            let d =
                Diag::new("YAMLParseError", "Implicit map keys need to be followed by map values".into(), pos, None);
            self.diags.error_before(d, start);
        }
        if let Some(pos) = last {
            self.diags.error(Diag::new("YAMLParseError", "Map comment with trailing content".into(), pos, None));
        }
    }

    /// A line holding only white space with a tab, not indented past the block map, after an
    /// empty value (`license:\n\t\nname: x`): `Parser.blockMap` puts the line breaks, white space
    /// and comments that follow `key:` into the value's `sep`, up to the next entry, which takes
    /// them from the second line break on (after the value's last anchor, tag, indicator or
    /// indented comment) when it is at the map's indentation; a tab token left last in `sep` on
    /// its own line is `Tabs are not allowed as indentation` for `resolveProps` when its
    /// indentation is not past the map's. So `a:\n\t\nb: 1` and `a:\n\t` (at the end) fail, and
    /// `a:\n\n\t\nb: 1`, `a:\n\t\n` (the line break after it is last) and `a:\n  \t\nb: 1` do not.
    fn empty_value_tab_check(&mut self, id: usize, indent: usize) {
        let NodeKind::Map { pairs, .. } = &self.nodes[id].kind else {
            return;
        };
        let text = self.src.text;
        let b = &text.as_bytes()[..self.limit.min(text.len())];
        let ws_after = |j: usize| matches!(b.get(j), None | Some(b' ' | b'\t' | b'\r' | b'\n'));
        let mut found = Vec::new();
        for (n, &(k, v)) in pairs.iter().enumerate() {
            // (an empty scalar's span may be the token after it)
            let empty = matches!(&self.nodes[v].kind, NodeKind::Scalar { style: ScalarStyle::Plain, source, value }
                if source.is_empty() && matches!(value, Scalar::Null) || matches!(value, Scalar::Str(s) if s.is_empty()));
            if !empty {
                continue;
            }
            let explicit = self.is_explicit_key(k);
            let (mut sep, mut colon) = (explicit, false);
            let mut newlines = Vec::new();
            let mut i = self.nodes[k].end;
            while i < b.len() {
                // a token at the map's indentation starting a line is the next entry's (but a
                // `:` after an explicit key without one is that key's)
                if !newlines.is_empty()
                    && matches!(b[i], b':' | b'&' | b'!')
                    && !(b[i] == b':' && explicit && !colon)
                    && {
                        let ls = indent::line_start(text, i);
                        i - ls == indent && b[ls..i].iter().all(|&c| c == b' ')
                    }
                {
                    break;
                }
                match b[i] {
                    b' ' | b'\t' | b'\r' => i += 1,
                    b'\n' => {
                        newlines.push(i);
                        i += 1;
                    }
                    b'#' => {
                        let ls = indent::line_start(text, i);
                        if b[ls..i].iter().all(|&c| c == b' ') && i - ls > indent {
                            newlines.clear();
                        }
                        while i < b.len() && b[i] != b'\n' {
                            i += 1;
                        }
                    }
                    b':' if ws_after(i + 1) => {
                        (sep, colon) = (true, true);
                        newlines.clear();
                        i += 1;
                    }
                    b'&' | b'!' => {
                        newlines.clear();
                        while i < b.len() && !ws_after(i) {
                            i += 1;
                        }
                    }
                    _ => break,
                }
            }
            if !sep {
                continue;
            }
            // the last line left in the value's `sep`, when nothing follows it there
            let line = if i >= b.len() {
                match newlines.last() {
                    Some(&nl) => (nl + 1, b.len()),
                    None => continue,
                }
            } else {
                let next_entry = pairs.get(n + 1).is_some()
                    && indent::column(text, i) == indent
                    && !(b[i] == b'-' && ws_after(i + 1));
                match (next_entry, newlines.get(..2)) {
                    (true, Some(&[a, z])) => (a + 1, z),
                    _ => continue,
                }
            };
            let (ls, mut le) = line;
            if le > ls && b[le - 1] == b'\r' {
                le -= 1;
            }
            let sp = b[ls..le].iter().take_while(|&&c| c == b' ').count();
            let rest = &b[ls + sp..le];
            if sp <= indent && rest.first() == Some(&b'\t') && rest.iter().all(|&c| matches!(c, b' ' | b'\t')) {
                found.push((ls + sp, le));
            }
        }
        for (pos, end) in found {
            let d = Diag::new("YAMLParseError", "Tabs are not allowed as indentation".into(), pos, Some(end));
            self.diags.error_before(d, pos);
        }
    }

    /// npm yaml's `hasAllNullValues(true)` rejects a null value that carries a comment: the
    /// null scalar's own (`a: ~ # c`), or, for an empty value, any comment token the parser
    /// puts between the key and the value (`a: # c`, `? a # c\n:`, comment lines after `a:`
    /// unless a blank line precedes them and the next entry follows, `Parser.blockMap`).
    fn null_value_has_comment(&self, k: usize, v: usize, next: Option<usize>, indent: usize, flow: bool) -> bool {
        let text = self.src.text;
        let b = &text.as_bytes()[..self.limit.min(text.len())];
        let vn = &self.nodes[v];
        let content = text.get(vn.content_start..vn.end).unwrap_or("");
        if !content.trim().is_empty() {
            let mut i = vn.end;
            while matches!(b.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
            if b.get(i) == Some(&b'#') {
                return true;
            }
            // comment lines indented past the map after the value's line (blank lines between
            // allowed) join the value's end (`Parser.blockMap`, `atIndentedComment`)
            if flow {
                return false;
            }
            if b.get(i) == Some(&b'\r') {
                i += 1;
            }
            if b.get(i) != Some(&b'\n') {
                return false;
            }
            i += 1;
            loop {
                let sp = b[i.min(b.len())..].iter().take_while(|&&c| c == b' ').count();
                let mut j = i + sp;
                while matches!(b.get(j), Some(b' ' | b'\t')) {
                    j += 1;
                }
                match (b.get(j), b.get(j + 1)) {
                    (Some(b'\n'), _) => i = j + 1,
                    (Some(b'\r'), Some(b'\n')) => i = j + 2,
                    (Some(b'#'), _) => return sp > indent,
                    _ => return false,
                }
            }
        }
        let mut i = self.nodes[k].end;
        let (mut colon, mut newlines, mut comments) = (false, Vec::new(), Vec::new());
        while i < b.len() {
            let c = b[i];
            let ws_after = |j: usize| matches!(b.get(j), None | Some(b' ' | b'\t' | b'\r' | b'\n'));
            match c {
                b' ' | b'\t' | b'\r' => i += 1,
                b'\n' => {
                    newlines.push(i);
                    i += 1;
                }
                b'#' => {
                    let ls = indent::line_start(text, i);
                    let at_line_start = b[ls..i].iter().all(|&c| c == b' ');
                    if !flow && at_line_start && i - ls > indent {
                        newlines.clear();
                    }
                    comments.push(i);
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b':' | b'?' if ws_after(i + 1) || flow => {
                    colon |= c == b':';
                    newlines.clear();
                    i += 1;
                }
                b'&' | b'!' => {
                    newlines.clear();
                    while i < b.len() && !ws_after(i) {
                        i += 1;
                    }
                }
                _ => break,
            }
        }
        if !colon {
            return false;
        }
        let at_next_item = !flow && next.is_some() && indent::column(text, i) == indent;
        let split = if at_next_item && newlines.len() >= 2 { newlines[1] } else { usize::MAX };
        comments.iter().any(|&c| c < split)
    }

    /// Tag-specific checks done by npm yaml after composing a collection.
    fn finish_special(&mut self, id: usize, indent: usize) {
        let tag_pos = self.nodes[id].start;
        match &self.nodes[id].kind {
            NodeKind::Map { kind: CollKind::Set, pairs, flow } => {
                let ok = pairs.iter().enumerate().all(|(n, &(k, v))| match &self.nodes[v].kind {
                    NodeKind::Scalar { value: Scalar::Null, .. } => {
                        self.nodes[v].tag.is_none()
                            && !self.null_value_has_comment(k, v, pairs.get(n + 1).map(|p| p.0), indent, *flow)
                    }
                    _ => false,
                });
                if !ok {
                    let len = self.tag_len_at(tag_pos);
                    self.diags.error(Diag::new(
                        "YAMLParseError",
                        "Set items must all have null values".into(),
                        tag_pos,
                        Some(tag_pos + len),
                    ));
                    if let NodeKind::Map { kind, .. } = &mut self.nodes[id].kind {
                        *kind = CollKind::Map;
                    }
                }
            }
            NodeKind::Seq { kind: k @ (CollKind::Omap | CollKind::Pairs), items, .. } => {
                let is_omap = *k == CollKind::Omap;
                // Keys seen so far by SameValueZero hash, each a chain of candidates: a lookup per
                // pair, not a scan of the pairs before it.
                let mut seen: FastMap<u64, Vec<&Scalar>> = FastMap::default();
                let mut errs = Vec::new();
                for &it in items {
                    let key = match &self.nodes[it].kind {
                        NodeKind::Map { pairs, .. } => {
                            if pairs.len() > 1 {
                                errs.push("Each pair must have its own sequence indicator".to_string());
                            }
                            pairs.first().map(|p| p.0)
                        }
                        _ => Some(it),
                    };
                    if !is_omap {
                        continue;
                    }
                    if let Some(k) = key
                        && let NodeKind::Scalar { value, .. } = &self.nodes[k].kind
                    {
                        let Some(h) = svz_scalar_hash(value) else { continue };
                        let same = seen.entry(h).or_default();
                        if same.iter().any(|s| same_value_zero_scalar(s, value)) {
                            let key = scalar_js_string(value);
                            // the message goes out as UTF-8: lone surrogates as U+FFFD
                            let key = match self.lone_base {
                                Some(base) => crate::engine::js::JsStr::from_stand_ins(key, base).into_string(),
                                None => key,
                            };
                            errs.push(format!("Ordered maps must not include duplicate keys: {key}"));
                        } else {
                            same.push(value);
                        }
                    }
                }
                if !errs.is_empty() {
                    let len = self.tag_len_at(tag_pos);
                    for e in errs {
                        self.diags.error(Diag::new("YAMLParseError", e, tag_pos, Some(tag_pos + len)));
                    }
                }
            }
            _ => {}
        }
    }

    fn tag_len_at(&self, pos: usize) -> usize {
        let p = lex_props(self.src.text, pos, self.src.text.len());
        match p.tag {
            Some((s, _)) => s.len(),
            None => 1,
        }
    }

    /// Run the event loop for the first document.
    pub fn run(mut self, parser: &mut Parser<'a, saphyr_parser::StrInput<'a>>) -> RunResult {
        let mut docs = 0;
        let mut second_doc: Option<(usize, bool)> = None;
        let mut scan_error = None;
        let mut failed = false;
        while let Some(ev) = parser.next_event() {
            let (ev, span) = match ev {
                Ok(x) => x,
                Err(e) => {
                    let d = self.map_scan_error(&e);
                    self.retry = self.dropped_region(self.byte(*e.marker()));
                    self.diags.error(d);
                    scan_error = Some(e);
                    break;
                }
            };
            let mut span_end = self.byte(span.end);
            if matches!(ev, Event::DocumentStart(false)) {
                // an implicit document start's span covers the first token
                span_end = self.byte(span.start);
            }
            match ev {
                Event::StreamStart | Event::Nothing => {}
                Event::StreamEnd => break,
                Event::DocumentStart(explicit) => {
                    docs += 1;
                    if docs > 1 {
                        second_doc = Some((self.byte(span.start), explicit));
                        break;
                    }
                }
                Event::DocumentEnd => {}
                Event::Scalar(value, style, anchor_id, tag) => {
                    self.scalar_event(&value, style, anchor_id, tag.is_some(), span);
                }
                Event::Alias(_) => self.alias_event(span),
                Event::SequenceStart(anchor_id, tag) => {
                    if self.collection_start(false, anchor_id, tag.is_some(), span).is_err() {
                        failed = true;
                        break;
                    }
                }
                Event::MappingStart(anchor_id, tag) => {
                    if self.collection_start(true, anchor_id, tag.is_some(), span).is_err() {
                        failed = true;
                        break;
                    }
                }
                Event::SequenceEnd | Event::MappingEnd => self.collection_end(span),
            }
            self.last_end = span_end;
        }
        let diags = std::mem::take(&mut self.diags);
        if failed || scan_error.is_some() {
            return (ComposeOutcome::Failed, diags, scan_error, second_doc, self.retry);
        }
        let doc = Doc { nodes: self.nodes, root: self.root, schema: self.schema, lone_base: self.lone_base };
        (ComposeOutcome::Done(doc), diags, None, second_doc, None)
    }
}

/// A hash equal for any two scalars [`same_value_zero_scalar`] calls equal; `None` for one it
/// calls equal to nothing.
fn svz_scalar_hash(s: &Scalar) -> Option<u64> {
    use super::hashing::{Svz, svz_hash};
    Some(svz_hash(match s {
        Scalar::Null => Svz::Null,
        Scalar::Bool(b) => Svz::Bool(*b),
        Scalar::Number(x) => Svz::Number(*x),
        Scalar::Str(s) => Svz::Str(s),
        _ => return None,
    }))
}

fn same_value_zero_scalar(a: &Scalar, b: &Scalar) -> bool {
    match (a, b) {
        (Scalar::Number(x), Scalar::Number(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Scalar::Null, Scalar::Null) => true,
        (Scalar::Bool(x), Scalar::Bool(y)) => x == y,
        (Scalar::Str(x), Scalar::Str(y)) => x == y,
        _ => false,
    }
}

/// `${value}` template-literal rendering of a scalar value.
pub(crate) fn scalar_js_string(s: &Scalar) -> String {
    match s {
        Scalar::Null => "null".into(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Number(x) => super::number::js_number_to_string(*x),
        Scalar::Str(s) => s.clone(),
        Scalar::Date(t) => crate::engine::jsdate::date_to_string(*t),
        Scalar::Buffer(b) => String::from_utf8_lossy(b).into_owned(),
        Scalar::Merge => "Symbol(<<)".into(),
    }
}
