//! Mapping of saphyr-parser scan errors to the error npm yaml reports for the
//! same input (message and position), using the composer's context.

use saphyr_parser::ScanError;

use super::blockscalar;
use super::compose::{Composer, NodeKind};
use super::diag::Diag;
use super::indent;

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t')
}

/// End of the plain-scalar-like token starting at `i` (up to ` #`, a line
/// break, or a flow indicator when `in_flow`).
fn token_end(b: &[u8], i: usize, in_flow: bool) -> usize {
    let mut k = i;
    while k < b.len() {
        let c = b[k];
        if c == b'\n' || c == b'\r' {
            break;
        }
        if is_ws(c) && b.get(k + 1) == Some(&b'#') {
            break;
        }
        if in_flow && matches!(c, b',' | b'[' | b']' | b'{' | b'}') {
            break;
        }
        if c == b':' && matches!(b.get(k + 1), None | Some(b' ' | b'\t' | b'\n' | b'\r')) {
            break;
        }
        k += 1;
    }
    while k > i && is_ws(b[k - 1]) {
        k -= 1;
    }
    k
}

/// npm yaml lexer token type and length at `i`.
pub(crate) fn token_type_at(b: &[u8], i: usize, in_flow: bool) -> (&'static str, usize) {
    let le = b[i.min(b.len())..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| i + k);
    let next_ws = |k: usize| matches!(b.get(k), None | Some(b' ' | b'\t' | b'\n' | b'\r'));
    let Some(&c) = b.get(i) else {
        return ("scalar", 0);
    };
    match c {
        b'\'' | b'"' => {
            let close = b[(i + 1).min(le)..le].iter().position(|&x| x == c).map_or(le, |k| i + 2 + k);
            (if c == b'"' { "double-quoted-scalar" } else { "single-quoted-scalar" }, close - i)
        }
        b'[' => ("flow-seq-start", 1),
        b'{' => ("flow-map-start", 1),
        b']' => ("flow-seq-end", 1),
        b'}' => ("flow-map-end", 1),
        b',' => ("comma", 1),
        b'-' if next_ws(i + 1) => ("seq-item-ind", 1),
        b'?' if next_ws(i + 1) => ("explicit-key-ind", 1),
        b':' if next_ws(i + 1) => ("map-value-ind", 1),
        b'&' | b'!' | b'*' | b'|' | b'>' => {
            let mut k = i;
            while k < le && !matches!(b[k], b' ' | b'\t' | b'\r') {
                k += 1;
            }
            (
                match c {
                    b'&' => "anchor",
                    b'!' => "tag",
                    b'*' => "alias",
                    _ => "block-scalar-header",
                },
                k - i,
            )
        }
        _ => ("scalar", token_end(b, i, in_flow) - i),
    }
}

/// End of what comes before `p` once white space, line breaks and comments are skipped backwards.
fn prev_significant(b: &[u8], mut p: usize) -> usize {
    loop {
        while p > 0 && matches!(b[p - 1], b' ' | b'\t' | b'\r') {
            p -= 1;
        }
        if p == 0 || b[p - 1] != b'\n' {
            return p;
        }
        p -= 1;
        // the line before, without its comment
        let ls = b[..p].iter().rposition(|&c| c == b'\n').map_or(0, |k| k + 1);
        if let Some(c) = (ls..p).find(|&k| b[k] == b'#' && (k == ls || is_ws(b[k - 1]))) {
            p = c;
        }
    }
}

fn line_end(b: &[u8], i: usize) -> usize {
    let mut e = b[i.min(b.len())..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| i + k);
    if e > i && b[e - 1] == b'\r' {
        e -= 1;
    }
    e
}

impl Composer<'_, '_> {
    fn text_bytes(&self) -> &[u8] {
        self.src.text.as_bytes()
    }

    /// Kind of the most recently completed node (a scalar/alias, or a collection that ended).
    fn last_finished_kind(&self) -> Option<&NodeKind> {
        let end = self.last_node_end;
        self.nodes.iter().rev().find(|n| n.end == end).map(|n| &n.kind)
    }

    fn pending_key_of(&self, node: usize) -> Option<usize> {
        self.stack.iter().find(|f| f.node == node).and_then(|f| f.pending_key)
    }

    /// The current key of the innermost block map: (key end, value starts on the key's line).
    fn pending_block_key(&self) -> Option<(usize, bool)> {
        let f = self.stack.last()?;
        if f.flow || !f.is_map {
            return None;
        }
        let key = match f.pending_key {
            Some(k) => k,
            None => match &self.nodes[f.node].kind {
                NodeKind::Map { pairs, .. } => {
                    let &(k, v) = pairs.last()?;
                    // only when the value is a scalar on the key's line
                    if !matches!(self.nodes[v].kind, NodeKind::Scalar { .. }) {
                        return None;
                    }
                    k
                }
                _ => return None,
            },
        };
        let key_end = self.nodes[key].end;
        let (_, vs) = self.value_after_key(key_end);
        let b = self.text_bytes();
        let same_line = !matches!(b.get(vs), None | Some(b'\n' | b'\r' | b'#'));
        Some((key_end, same_line))
    }

    /// npm yaml's lexer indentNext for scalars in the current context.
    pub(crate) fn required_indent(&self) -> usize {
        self.stack.iter().rev().find(|f| !f.flow).map_or(0, |f| f.indent + 1)
    }

    fn block_scalar_context(&self) -> (usize, usize, bool) {
        match self.stack.last() {
            Some(f) if !f.flow => (f.indent + 1, f.indent, false),
            _ => (0, 0, self.stack.is_empty() && !self.seen_collection),
        }
    }

    /// Skip white space, line breaks, comments and block indicators from `i`.
    fn next_token_start(&self, mut i: usize) -> usize {
        let b = self.text_bytes();
        while i < b.len() {
            match b[i] {
                b' ' | b'\t' | b'\n' | b'\r' => i += 1,
                b'#' => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b'-' | b'?' | b':' if matches!(b.get(i + 1), None | Some(b' ' | b'\t' | b'\n' | b'\r')) => i += 1,
                b'&' | b'!' => {
                    while i < b.len() && !matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                        i += 1;
                    }
                }
                _ => break,
            }
        }
        i
    }

    /// The opening bracket of the outermost flow collection whose closing bracket comes right
    /// before `pos` (white space between), when it is the last node composed.
    fn closed_flow_before(&self, pos: usize) -> Option<usize> {
        let b = self.text_bytes();
        let mut p = pos.min(b.len());
        while p > 0 && is_ws(b[p - 1]) {
            p -= 1;
        }
        if p == 0 || !matches!(b[p - 1], b']' | b'}') {
            return None;
        }
        // its end event may not have come yet: then it is the only open flow collection
        let mut open = self.stack.iter().filter(|f| f.flow && !f.pair);
        if let (Some(f), None) = (open.next(), open.next()) {
            return Some(self.nodes[f.node].content_start);
        }
        if self.innermost_flow().is_some() || self.last_node_end != p {
            return None;
        }
        self.nodes.iter().rev().find_map(|n| {
            (n.end == p && matches!(n.kind, NodeKind::Map { flow: true, .. } | NodeKind::Seq { flow: true, .. }))
                .then_some(n.content_start)
        })
    }

    /// An explicit key indicator `?` at `m` in a flow collection where saphyr wanted a node or a
    /// `,`: npm yaml's parser makes it the start of a new item (`{a: ?}`: the `?` ends the value
    /// of `a`), or adds it to the current item's start (`[&1 ?]`, `[? ?]`), and its
    /// `resolveProps`/`resolveFlowCollection` report that item.
    fn flow_explicit_key_error(&self, m: usize) -> Option<Diag> {
        let b = self.text_bytes();
        let (is_map, _) = self.innermost_flow()?;
        let is_ind = b.get(m) == Some(&b'?')
            && (indent::is_empty(b.get(m + 1).copied())
                || matches!(b.get(m + 1), Some(b',' | b'[' | b']' | b'{' | b'}')));
        if !is_ind {
            return None;
        }
        let name = if is_map { "flow map" } else { "flow sequence" };
        // anchors and tags right before it
        let mut p = prev_significant(b, m);
        let mut props = false;
        loop {
            let mut t = p;
            while t > 0 && !matches!(b[t - 1], b' ' | b'\t' | b'\n' | b'\r' | b',' | b'[' | b']' | b'{' | b'}') {
                t -= 1;
            }
            if t < p && matches!(b[t], b'&' | b'!') {
                props = true;
                p = prev_significant(b, t);
                continue;
            }
            break;
        }
        let before = p.checked_sub(1).map(|k| b[k]);
        let indicator_before =
            p >= 1 && (p == 1 || matches!(b[p - 2], b' ' | b'\t' | b'\n' | b'\r' | b',' | b'[' | b'{'));
        let msg = match before {
            // in the item's start before its `?` (`[&1 ?]`, `[? &x ?]`)
            Some(b'[' | b'{' | b',') if props => "Anchors and tags must be after the ? indicator".to_string(),
            Some(b'?') if props && indicator_before => "Anchors and tags must be after the ? indicator".to_string(),
            // a second `?` in the item's start
            Some(b'?') if indicator_before => format!("Unexpected ? in {name}"),
            // after a value indicator: a new item without a `,` before it, reported where its
            // props end (after the white space, line breaks and comments that follow the `?`)
            Some(b':') => {
                return Some(Diag::new(
                    "YAMLParseError",
                    format!("Missing , between {name} items"),
                    super::compose::skip_blanks_and_comments(b, m + 1, b.len()),
                    None,
                ));
            }
            _ => return None,
        };
        Some(Diag::new("YAMLParseError", msg, m, None))
    }

    /// Start of the line after the last composed node (npm yaml's `offset`
    /// after the previous item, which includes its line break).
    fn line_after_last_node(&self) -> usize {
        let b = self.text_bytes();
        let p = self.last_node_end.min(b.len());
        if p == 0 || b[p - 1] == b'\n' {
            return p;
        }
        b[p..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| p + k + 1)
    }

    fn same_line_as_last_node(&self, m: usize) -> bool {
        let b = self.text_bytes();
        let p = self.last_node_end.min(m).min(b.len());
        p > 0 && b[p - 1] != b'\n' && !b[p..m.min(b.len())].contains(&b'\n')
    }

    /// `Unexpected <token> at node end` for the token at `m`.
    fn unexpected_at_node_end(&self, m: usize) -> Diag {
        let (ty, len) = token_type_at(self.text_bytes(), m, self.innermost_flow().is_some());
        Diag::new("YAMLParseError", format!("Unexpected {ty} at node end"), m, Some(m + len.max(1)))
    }

    fn tab_run_on_line(&self, m: usize) -> Diag {
        let b = self.text_bytes();
        let ls = indent::line_start(self.src.text, m);
        let mut i = ls;
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        let mut k = i;
        while k < b.len() && is_ws(b[k]) {
            k += 1;
        }
        Diag::new("YAMLParseError", "Tabs are not allowed as indentation".into(), i, Some(k.max(i + 1)))
    }

    /// Position of the value after a block key ending at `key_end`:
    /// (whitespace start after `:`, value start).
    fn value_after_key(&self, key_end: usize) -> (usize, usize) {
        let b = self.text_bytes();
        let mut i = key_end;
        while i < b.len() && is_ws(b[i]) {
            i += 1;
        }
        if b.get(i) == Some(&b':') {
            i += 1;
        }
        let ws = i;
        while i < b.len() && is_ws(b[i]) {
            i += 1;
        }
        (ws, i)
    }

    fn innermost_flow(&self) -> Option<(bool, usize)> {
        self.stack.iter().rev().find(|f| f.flow && !f.pair).map(|f| (f.is_map, f.node))
    }

    /// End of the last composed item of the collection `node`, or after its opening bracket.
    fn last_item_end(&self, node: usize) -> usize {
        let n = &self.nodes[node];
        let last = match &n.kind {
            NodeKind::Seq { items, .. } => items.last().map(|&i| self.nodes[i].end),
            NodeKind::Map { pairs, .. } => pairs.last().map(|p| self.nodes[p.1].end),
            _ => None,
        };
        let mut e = last.unwrap_or(n.content_start + 1);
        // a pending key in a flow map
        if let Some(k) = self.pending_key_of(node) {
            e = e.max(self.nodes[k].end);
        }
        // a comma after the last item
        let b = self.text_bytes();
        let mut i = e;
        while i < b.len() && (is_ws(b[i]) || b[i] == b'\n' || b[i] == b'\r') {
            i += 1;
        }
        if b.get(i) == Some(&b',') {
            e = i + 1;
        }
        e
    }

    /// Where npm yaml's lexer ends an unterminated flow collection that
    /// starts at `start` (byte of the bracket): the first insufficiently
    /// indented line's content, or the end of the document.
    fn flow_cut_position(&self, start: usize, at_root: bool) -> usize {
        let b = self.text_bytes();
        let limit = self.limit.min(b.len());
        if at_root {
            return limit;
        }
        let required = self.required_indent();
        let mut ls = match b[start..limit].iter().position(|&c| c == b'\n') {
            Some(k) => start + k + 1,
            None => return limit,
        };
        while ls < limit {
            let mut j = ls;
            while j < limit && b[j] == b' ' {
                j += 1;
            }
            let sp = j - ls;
            let mut k = j;
            while k < limit && is_ws(b[k]) {
                k += 1;
            }
            let blank = k >= limit || b[k] == b'\n' || (b[k] == b'\r' && matches!(b.get(k + 1), None | Some(b'\n')));
            if !blank && b[k] != b'#' && sp < required {
                return k;
            }
            ls = match b[ls..limit].iter().position(|&c| c == b'\n') {
                Some(q) => ls + q + 1,
                None => limit,
            };
        }
        limit
    }

    fn missing_flow_end(&self, node: usize, is_map: bool, at_root: bool) -> Diag {
        let (name, ch) = if is_map { ("Flow map", '}') } else { ("Flow sequence", ']') };
        let open = self.nodes[node].content_start;
        let pos = self.flow_cut_position(open, at_root);
        let _ = self.last_item_end(node);
        if at_root {
            return Diag::new("YAMLParseError", format!("{name} must end with a {ch}"), pos, None);
        }
        Diag::new(
            "YAMLParseError",
            format!("{name} in block collection must be sufficiently indented and end with a {ch}"),
            pos,
            None,
        )
    }

    /// The first invalid escape in a double-quoted scalar starting at `q`.
    fn bad_escape(&self, q: usize) -> Option<Diag> {
        let t = self.src.text;
        let b = t.as_bytes();
        let mut i = q + 1;
        while i < b.len() {
            match b[i] {
                b'"' => return None,
                b'\\' => {
                    let &n = b.get(i + 1)?;
                    let len = match n {
                        b'x' => 2,
                        b'u' => 4,
                        b'U' => 8,
                        b'0' | b'a' | b'b' | b'e' | b'f' | b'n' | b'r' | b't' | b'v' | b'N' | b'_' | b'L' | b'P'
                        | b' ' | b'"' | b'/' | b'\\' | b'\t' | b'\n' | b'\r' => {
                            i += 2;
                            continue;
                        }
                        _ => {
                            let raw: String = t[i..].chars().take(2).collect();
                            return Some(Diag::new(
                                "YAMLParseError",
                                format!("Invalid escape sequence {raw}"),
                                i,
                                None,
                            ));
                        }
                    };
                    let cc = b.get(i + 2..i + 2 + len);
                    let ok = cc.is_some_and(|c| c.iter().all(u8::is_ascii_hexdigit));
                    if !ok {
                        let raw: String = t[i..].chars().take(len + 2).collect();
                        return Some(Diag::new("YAMLParseError", format!("Invalid escape sequence {raw}"), i, None));
                    }
                    i += 2 + len;
                }
                _ => i += 1,
            }
        }
        None
    }

    /// Opening quote of the quoted scalar saphyr was scanning.
    fn open_quote(&self, marker: usize) -> Option<usize> {
        let b = self.text_bytes();
        let mut i = self.last_end;
        while i < b.len() && i <= marker {
            match b[i] {
                b'"' | b'\'' => return Some(i),
                b' ' | b'\t' | b'\n' | b'\r' | b':' | b'-' | b'?' | b',' | b'[' | b'{' => i += 1,
                b'#' => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b'&' | b'!' => {
                    while i < b.len() && !matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                        i += 1;
                    }
                }
                _ => return None,
            }
        }
        None
    }

    /// npm yaml's verdict on an unterminated or badly continued quoted scalar.
    fn quoted_error(&self, q: usize) -> Diag {
        let t = self.src.text;
        let b = t.as_bytes();
        let quote = b[q];
        // closing quote anywhere in the whole text (npm yaml's lexer sees it all)
        let mut end = None;
        let mut i = q + 1;
        while i < b.len() {
            if b[i] == quote {
                if quote == b'\'' {
                    if b.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    end = Some(i);
                    break;
                } else {
                    let mut n = 0;
                    while b[i - 1 - n] == b'\\' {
                        n += 1;
                    }
                    if n % 2 == 0 {
                        end = Some(i);
                        break;
                    }
                }
            }
            i += 1;
        }
        let msg = format!("Missing closing {}quote", quote as char);
        let Some(end) = end else {
            return Diag::new("YAMLParseError", msg, t.len(), None);
        };
        // continuation lines before the closing quote
        let required = self.required_indent();
        let mut ls = match b[q..end].iter().position(|&c| c == b'\n') {
            Some(k) => q + k + 1,
            None => return Diag::new("YAMLParseError", msg, end, None),
        };
        while ls <= end {
            let mut j = ls;
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            let sp = j - ls;
            let ch = b.get(j).copied();
            let blank = ch == Some(b'\n') || (ch == Some(b'\r') && b.get(j + 1) == Some(&b'\n'));
            let bad = if required > 0 {
                !blank && sp < required
            } else {
                let m = &b[ls..];
                (m.starts_with(b"---") || m.starts_with(b"..."))
                    && matches!(m.get(3), None | Some(b' ' | b'\t' | b'\n' | b'\r'))
            };
            if bad {
                let mut e = ls - 1;
                if e > q && b[e - 1] == b'\r' {
                    e -= 1;
                }
                return Diag::new("YAMLParseError", msg, e, None);
            }
            match b[ls..end].iter().position(|&c| c == b'\n') {
                Some(k) => ls = ls + k + 1,
                None => break,
            }
        }
        Diag::new("YAMLParseError", msg, end, None)
    }

    /// Map a saphyr scan error to npm yaml's error.
    pub(crate) fn map_scan_error(&self, e: &ScanError) -> Diag {
        let (m, _) = self.src.char_to_offsets(e.marker().index());
        let b = self.text_bytes();
        let info = e.info();
        let ch = b.get(m).copied();
        let in_flow = self.innermost_flow().is_some();
        let generic = |msg: String| Diag::new("YAMLParseError", msg, m, None);
        match info {
            "comments must be separated from other tokens by whitespace" => Diag::new(
                "YAMLParseError",
                "Comments must be separated from other tokens by white space characters".into(),
                m,
                Some(line_end(b, m)),
            ),
            "mapping values are not allowed in this context"
            | "mapping keys are not allowed in this context"
            | "simple key expect ':'"
            | "invalid trailing content after double-quoted scalar"
                if info != "invalid trailing content after double-quoted scalar" || ch == Some(b':') =>
            {
                if info == "simple key expect ':'" {
                    return self.simple_key_error(m);
                }
                if let Some((key_end, value_same_line)) = self.pending_block_key()
                    && value_same_line
                {
                    let (ws, vs) = self.value_after_key(key_end);
                    if b[ws..vs].contains(&b'\t') {
                        return Diag::new("YAMLParseError", "Tabs are not allowed as indentation".into(), ws, Some(vs));
                    }
                    return Diag::new(
                        "YAMLParseError",
                        "Nested mappings are not allowed in compact mappings".into(),
                        vs,
                        None,
                    );
                }
                let mut st = self.next_token_start(self.last_end);
                // a flow collection key spanning lines: npm yaml reports it at its bracket
                let flow_key = if ch == Some(b':') { self.closed_flow_before(m) } else { None };
                if let Some(open) = flow_key {
                    st = open;
                }
                // the would-be key may already have been emitted as a scalar
                if flow_key.is_none()
                    && let Some(n) = self.nodes.last()
                    && matches!(n.kind, NodeKind::Scalar { .. })
                    && n.end <= m
                    && b[n.end..m].iter().all(|&c| is_ws(c))
                {
                    st = n.content_start;
                }
                let props_start = {
                    let mut p = self.last_end.min(st);
                    while p < st && matches!(b[p], b' ' | b'\t' | b'\n' | b'\r' | b':' | b'-' | b'?') {
                        p += 1;
                    }
                    p
                };
                if st <= m && !b[st..m].contains(&b'\n') && ch == Some(b':') {
                    let props_start = props_start.min(st);
                    let units = self.src.utf16_len(props_start, m);
                    if units > 1024 {
                        let mut ke = m;
                        while ke > st && is_ws(b[ke - 1]) {
                            ke -= 1;
                        }
                        return Diag::new(
                            "YAMLParseError",
                            "The : indicator must be at most 1024 chars after the start of an implicit block mapping key".into(),
                            st,
                            Some(ke),
                        );
                    }
                }
                Diag::new("YAMLParseError", "Implicit keys need to be on a single line".into(), st, None)
            }
            "recursion limit exceeded" => generic("Maximum call stack size exceeded".into()),
            // saphyr patch 11: npm yaml ends the sequence there; a `:` then reaches the stream
            "content after a block sequence entry on the byte order mark's line" => {
                if token_type_at(b, m, false).0 == "map-value-ind" {
                    generic("Unexpected map-value-ind token in YAML stream: \":\"".into())
                } else {
                    self.unexpected_at_node_end(m)
                }
            }
            "invalid trailing content after double-quoted scalar" if in_flow => {
                let is_map = matches!(self.innermost_flow(), Some((true, _)));
                generic(if is_map {
                    "Missing , or : between flow map items".into()
                } else {
                    "Missing , or : between flow sequence items".into()
                })
            }
            "invalid trailing content after double-quoted scalar" => {
                // a quoted scalar starting a line at a wrong indentation
                let ls = indent::line_start(self.src.text, m);
                let mut i = ls;
                while i < m && b[i] == b' ' {
                    i += 1;
                }
                if b.get(i) == Some(&b'"')
                    && let Some(top) = self.stack.iter().rev().find(|f| !f.flow)
                    && top.is_map
                    && i - ls != top.indent
                    && !self.same_line_as_last_node(i)
                {
                    return self.bad_block_line(i);
                }
                let te = token_end(b, m, in_flow);
                Diag::new("YAMLParseError", "Unexpected scalar at node end".into(), m, Some(te.max(m + 1)))
            }
            "block sequence entries are not allowed in this context"
            | "':' must be followed by a valid YAML whitespace" => {
                Diag::new("YAMLParseError", "Unexpected block-seq-ind on same line with key".into(), m, None)
            }
            "while parsing a flow sequence, expected ',' or ']'"
            | "while parsing a flow mapping, did not find expected ',' or '}'"
            | "misplaced bracket"
            | "invalid indentation in flow construct" => {
                let Some((is_map, node)) = self.innermost_flow() else {
                    // a closing bracket outside any flow collection
                    let (ty, c) = if ch == Some(b'}') { ("flow-map-end", "}") } else { ("flow-seq-end", "]") };
                    let where_ =
                        if self.root.is_none() && self.stack.is_empty() { "YAML document" } else { "YAML stream" };
                    return Diag::new("YAMLParseError", format!("Unexpected {ty} token in {where_}: \"{c}\""), m, None);
                };
                let at_root = self.stack.len() == 1;
                let wrong_bracket = info == "misplaced bracket" || matches!(ch, Some(b']' | b'}'));
                if wrong_bracket {
                    let (name, c) = if is_map { ("Flow map", '}') } else { ("Flow sequence", ']') };
                    return generic(if at_root {
                        format!("{name} must end with a {c}")
                    } else {
                        format!("{name} in block collection must be sufficiently indented and end with a {c}")
                    });
                }
                let cut = self.flow_cut_position(self.nodes[node].content_start, at_root);
                if m >= cut || info == "invalid indentation in flow construct" {
                    return self.missing_flow_end(node, is_map, at_root);
                }
                if ch == Some(b'?')
                    && let Some(d) = self.flow_explicit_key_error(m)
                {
                    return d;
                }
                let mut p = m;
                while p > 0 && is_ws(b[p - 1]) {
                    p -= 1;
                }
                if p > 0 && matches!(b[p - 1], b']' | b'}') && p < m {
                    return self.unexpected_at_node_end(m);
                }
                generic(if is_map {
                    "Missing , or : between flow map items".into()
                } else {
                    "Missing , or : between flow sequence items".into()
                })
            }
            "while parsing a node, did not find expected node content" => {
                if ch == Some(b'?')
                    && let Some(d) = self.flow_explicit_key_error(m)
                {
                    return d;
                }
                if ch == Some(b',') {
                    let name = match self.innermost_flow() {
                        Some((true, _)) => "flow map",
                        _ => "flow sequence",
                    };
                    return generic(format!("Unexpected , in {name}"));
                }
                if matches!(ch, Some(b']' | b'}'))
                    && let Some((is_map, _)) = self.innermost_flow()
                {
                    let (name, c) = if is_map { ("Flow map", '}') } else { ("Flow sequence", ']') };
                    let at_root = self.stack.len() == 1;
                    return generic(if at_root {
                        format!("{name} must end with a {c}")
                    } else {
                        format!("{name} in block collection must be sufficiently indented and end with a {c}")
                    });
                }
                generic(info.to_string())
            }
            "while scanning an anchor or alias, did not find expected alphabetic or numeric character" => {
                if ch == Some(b'*') {
                    generic("Alias cannot be an empty string".into())
                } else {
                    generic("Anchor cannot be an empty string".into())
                }
            }
            "the handle wasn't declared" => {
                let mut k = m;
                while k < b.len() && !matches!(b[k], b' ' | b'\t' | b'\n' | b'\r' | b',' | b'[' | b']' | b'{' | b'}') {
                    k += 1;
                }
                Diag::new("YAMLParseError", format!("Could not resolve tag: {}", &self.src.text[m..k]), m, Some(k))
            }
            "while parsing a tag, did not find expected tag URI" => {
                let mut k = m;
                while k < b.len() && !matches!(b[k], b' ' | b'\t' | b'\n' | b'\r') {
                    k += 1;
                }
                let src = &self.src.text[m..k];
                Diag::new("YAMLParseError", format!("The {src} tag has no suffix"), m, Some(k))
            }
            "while parsing a quoted scalar, found unknown escape character"
            | "while parsing a quoted scalar, did not find expected hexadecimal number" => {
                let q = if ch == Some(b'"') { Some(m) } else { self.open_quote(m) };
                q.and_then(|q| self.bad_escape(q)).unwrap_or_else(|| generic(info.to_string()))
            }
            "while scanning a quoted scalar, found unexpected end of stream"
            | "invalid indentation in quoted scalar"
            | "while scanning a quoted scalar, found unexpected document indicator" => {
                let q = if matches!(ch, Some(b'"' | b'\'')) { Some(m) } else { self.open_quote(m) };
                match q {
                    Some(q) => self.quoted_error(q),
                    None => generic(info.to_string()),
                }
            }
            "tabs disallowed within this context (block indentation)"
            | "tabs disallowed in this context"
            | "tab cannot be used as indentation"
            | "'-' must be followed by a valid YAML whitespace" => {
                // the whitespace run with the tab on the marker's line
                let ls = indent::line_start(self.src.text, m);
                let mut i = ls;
                while i < b.len() && b[i] == b' ' {
                    i += 1;
                }
                if info.starts_with('\'') {
                    // `-\t- a`: the white space after the first `-`
                    i = m.saturating_sub(1);
                    while i > ls && b[i - 1] != b'-' {
                        i -= 1;
                    }
                }
                let mut k = i;
                while k < b.len() && is_ws(b[k]) {
                    k += 1;
                }
                Diag::new("YAMLParseError", "Tabs are not allowed as indentation".into(), i, Some(k.max(i + 1)))
            }
            "wrongly indented line in block scalar" => {
                self.block_scalar_error(m).unwrap_or_else(|| self.bad_block_line(m))
            }
            "a block scalar content cannot start with a tab"
            | "while scanning a block scalar, did not find expected comment or line break"
            | "while scanning a block scalar, found an indentation indicator equal to 0" => {
                self.block_scalar_error(m).unwrap_or_else(|| generic(info.to_string()))
            }
            "did not find expected <document start>" => self.unexpected_at_node_end(m),
            "while parsing a block mapping, did not find expected key"
            | "while parsing a block collection, did not find expected '-' indicator" => self.bad_block_line(m),
            "while scanning a plain scalar, found a tab" => self.tab_run_on_line(m),
            "\"-\" is only valid inside a block" => {
                generic("Block collections are not allowed within flow collections".into())
            }
            "invalid indentation" => match self.innermost_flow() {
                Some((is_map, _)) => {
                    let (name, c) = if is_map { ("Flow map", '}') } else { ("Flow sequence", ']') };
                    generic(format!("{name} in block collection must be sufficiently indented and end with a {c}"))
                }
                // a flow collection key (saphyr patch 16) whose events saphyr still holds
                None if matches!(ch, Some(b']' | b'}')) => {
                    let name = if ch == Some(b'}') { "Flow map" } else { "Flow sequence" };
                    let c = ch.map_or(']', char::from);
                    generic(format!("{name} in block collection must be sufficiently indented and end with a {c}"))
                }
                None => generic(info.to_string()),
            },
            "while scanning a tag, did not find expected whitespace or line break" => {
                // npm yaml's tag token ends at the first non tag char
                let mut k = m + 1;
                let t = self.src.text;
                if b.get(k) == Some(&b'<') {
                    while k < b.len() && !matches!(b[k], b' ' | b'\t' | b'\n' | b'\r' | b'>') {
                        k += 1;
                    }
                    if b.get(k) == Some(&b'>') {
                        k += 1;
                    }
                } else {
                    k = super::compose::tag_shorthand_end(t, k, b.len());
                }
                let (_, len) = token_type_at(b, k, in_flow);
                Diag::new(
                    "YAMLParseError",
                    "Tags and anchors must be separated from the next token by white space".into(),
                    k,
                    Some(k + len.max(1)),
                )
            }
            // vendored patch 15: an anchor directly followed by a lone `\r`
            "while scanning an anchor, did not find expected white space" => Diag::new(
                "YAMLParseError",
                "Tags and anchors must be separated from the next token by white space".into(),
                m,
                Some(m + 1),
            ),
            "simple key expected" => self.simple_key_error(m),
            "illegal placement of ':' indicator" => match self.innermost_flow() {
                Some((is_map, node)) => {
                    let at_root = self.stack.len() == 1;
                    if m >= self.flow_cut_position(self.nodes[node].content_start, at_root) {
                        self.missing_flow_end(node, is_map, at_root)
                    } else {
                        generic(info.to_string())
                    }
                }
                None => generic(info.to_string()),
            },
            "comment intercepting the multiline text" => self.bad_block_line(m),
            _ => {
                if info.starts_with("unexpected character: `")
                    && self.same_line_as_last_node(m)
                    && let Some(
                        NodeKind::Alias { .. } | NodeKind::Map { flow: true, .. } | NodeKind::Seq { flow: true, .. },
                    ) = self.last_finished_kind()
                {
                    return self.unexpected_at_node_end(m);
                }
                if let Some(rest) = info.strip_prefix("unexpected character: `") {
                    let c = rest.chars().next().unwrap_or(' ');
                    let what = match c {
                        '@' | '`' => Some(format!("reserved character {c}")),
                        '%' => Some("directive indicator character %".to_string()),
                        _ => None,
                    };
                    if let Some(w) = what {
                        return Diag::new(
                            "YAMLParseError",
                            format!("Plain value cannot start with {w}"),
                            m,
                            Some(m + 1),
                        );
                    }
                }
                generic(info.to_string())
            }
        }
    }

    /// A line that does not fit the current block collection.
    fn bad_block_line(&self, m: usize) -> Diag {
        let b = self.text_bytes();
        if self.same_line_as_last_node(m) {
            return self.unexpected_at_node_end(m);
        }
        let ls = indent::line_start(self.src.text, m);
        let mut i = ls;
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        if b.get(i) == Some(&b'\t') {
            return self.tab_run_on_line(m);
        }
        let li = i - ls;
        let dash = b.get(i) == Some(&b'-') && matches!(b.get(i + 1), None | Some(b' ' | b'\t' | b'\n' | b'\r'));
        let pos = self.line_after_last_node();
        let diag = |msg: &str| Diag::new("YAMLParseError", msg.into(), pos, None);
        let Some(top) = self.stack.iter().rev().find(|f| !f.flow) else {
            return self.unexpected_at_node_end(i);
        };
        if !top.is_map {
            if li > top.indent {
                return diag(if dash {
                    "All sequence items must start at the same column"
                } else {
                    "Sequence item without - indicator"
                });
            }
            if self.stack.len() == 1 {
                return self.unexpected_at_node_end(i);
            }
            return diag("All mapping items must start at the same column");
        }
        if li < top.indent && self.stack.len() == 1 {
            return self.unexpected_at_node_end(i);
        }
        diag(if dash && li >= top.indent {
            "A block sequence may not be used as an implicit map key"
        } else {
            "All mapping items must start at the same column"
        })
    }

    /// "simple key expect ':'": a plain key without value.
    fn simple_key_error(&self, m: usize) -> Diag {
        let st = self.next_token_start(self.last_end);
        let b = self.text_bytes();
        // a multi-line key: without a comment, npm yaml continues the plain
        // scalar on the following more (or equally) indented lines
        let le = line_end(b, st);
        let has_comment = b[st..le].windows(2).any(|w| is_ws(w[0]) && w[1] == b'#');
        let ml_start = indent::line_start(self.src.text, m.min(b.len()));
        let ml_end = line_end(b, ml_start);
        let mut mi = ml_start;
        while mi < ml_end && b[mi] == b' ' {
            mi += 1;
        }
        let key_indent = st - indent::line_start(self.src.text, st);
        let colon_on_marker_line = (ml_start..ml_end)
            .any(|k| b[k] == b':' && matches!(b.get(k + 1), None | Some(b' ' | b'\t' | b'\n' | b'\r')));
        if m > le && !has_comment && mi - ml_start >= key_indent && colon_on_marker_line {
            return Diag::new("YAMLParseError", "Implicit keys need to be on a single line".into(), st, None);
        }
        if m > le && b[le..m.min(b.len())].iter().any(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
            return Diag::new("YAMLParseError", "Implicit keys need to be on a single line".into(), st, None);
        }
        let te = token_end(b, st, false);
        // a plain key that repeats one of the map's keys (`x: 1\nx`)
        if b.get(st).is_some_and(|&c| !matches!(c, b'!' | b'&' | b'*' | b'"' | b'\'' | b'[' | b'{' | b'|' | b'>'))
            && let Some(key) = self.src.text.get(st..te)
            && self.repeats_block_key(key, indent::column(self.src.text, st))
        {
            return Diag::new("YAMLParseError", "Map keys must be unique".into(), st, None);
        }
        Diag::new(
            "YAMLParseError",
            "Implicit map keys need to be followed by map values".into(),
            st,
            Some(te.max(st + 1)),
        )
    }

    /// Run npm yaml's block scalar rules on the block scalar around `m`.
    fn block_scalar_error(&self, m: usize) -> Option<Diag> {
        let b = self.text_bytes();
        // header: the last `|`/`>` token before `m` starting after the previous event
        let mut i = self.last_end;
        let mut header = None;
        let limit = line_end(b, m);
        while i < limit {
            match b[i] {
                b'|' | b'>' => {
                    header = Some(i);
                    break;
                }
                b'#' => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                _ => i += 1,
            }
        }
        let header = header?;
        let (indent_next, parent_indent, at_root) = self.block_scalar_context();
        let bs = blockscalar::resolve(self.src.text, self.limit, header, indent_next, parent_indent, at_root);
        bs.errors.into_iter().next()
    }
}
