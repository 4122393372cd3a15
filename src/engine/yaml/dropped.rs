//! Where npm yaml's parser ends a block sequence that its composer drops unchecked (item 2(a)
//! of `tools/yaml-oracle/NOTES.md`): `? x` (or `? x: v`) followed by `- ...` at the mapping's
//! indentation, with no `:` between them, is the explicit key's value in npm yaml's CST
//! (`Parser.blockMap`, `startBlockValue` -> `block-seq`), and `resolveBlockMap` drops a value
//! without a `:` indicator. Nothing in that sequence is composed, so an error that saphyr's
//! scanner or parser raises inside it (`- *`, `- !e!x y`, `- [a, {b: - c}]`, an unclosed
//! quote) is no error for npm yaml. When saphyr fails inside such a sequence, `mod.rs` blanks
//! the region this module finds (keeping the `-`) and runs saphyr again.
//!
//! The region is found the way npm yaml finds it: its lexer (`dist/parse/lexer.js`, ported
//! here state for state: quoted scalars that run to a later quote or swallow the rest of the
//! input, block scalars, multi-line plain scalars, flow collections and `flow-error-end`)
//! tokenizes the text from the sequence's line on, and the sequence ends at the first token its
//! parser (`Parser.blockSequence`) does not take: one at the start of a line (after spaces and
//! `-`/`?`/`:` indicators, `Parser.next`'s `indent`) indented no more than the sequence, other
//! than another `-` at its column, outside a flow collection. Layouts where a token could leave
//! the sequence in the middle of a line (a `]` or `}` outside any flow collection), or where the
//! ending token does not start its line, are not handled (`None`: saphyr's error stands).

use super::indent::is_empty;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tok {
    Newline,
    Space,
    Comment,
    /// `-`, `?` or `:` (seq-item-ind, explicit-key-ind, map-value-ind)
    Ind(u8),
    /// `---` or `...` at the start of a line
    DocMarker,
    FlowStart,
    /// `]` or `}`; `true` when lexed inside a flow collection
    FlowEnd(bool),
    FlowErrorEnd,
    /// a block scalar's content (taken by the scalar's node, which then leaves the parser at
    /// a new line)
    BlockContent,
    /// an anchor or a tag
    Prop,
    Other,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    LineStart,
    BlockStart,
    Doc,
    Flow,
    Stream,
}

fn is_flow_ind(c: Option<u8>) -> bool {
    matches!(c, Some(b',' | b'[' | b']' | b'{' | b'}'))
}

fn is_not_anchor_char(c: Option<u8>) -> bool {
    matches!(c, None | Some(b' ' | b',' | b'[' | b']' | b'{' | b'}' | b'\n' | b'\r' | b'\t'))
}

fn is_tag_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-#;/?:@&=+$_.!~*'()".contains(&c)
}

/// npm yaml's `Lexer` over the whole input (`atEnd` is always true here).
struct Lexer<'t> {
    b: &'t [u8],
    pos: usize,
    flow_level: usize,
    flow_key: bool,
    indent_next: i64,
    indent_value: i64,
    block_scalar_indent: i64,
    block_scalar_keep: bool,
    /// (token, start byte, end byte) in lexing order
    out: Vec<(Tok, usize, usize)>,
}

impl<'t> Lexer<'t> {
    fn at(&self, i: i64) -> Option<u8> {
        if i < 0 { None } else { self.b.get(i as usize).copied() }
    }

    fn char_at(&self, n: usize) -> Option<u8> {
        self.b.get(self.pos + n).copied()
    }

    fn index_of(&self, c: u8, from: usize, to: usize) -> Option<usize> {
        let to = to.min(self.b.len());
        if from >= to {
            return None;
        }
        self.b[from..to].iter().position(|&x| x == c).map(|k| from + k)
    }

    /// `getLine`: the end of the current line (before a `\r\n`'s `\r`)
    fn line_end(&self) -> usize {
        match self.index_of(b'\n', self.pos, self.b.len()) {
            None => self.b.len(),
            Some(e) if e > 0 && self.b[e - 1] == b'\r' && e > self.pos => e - 1,
            Some(e) => e,
        }
    }

    fn push(&mut self, t: Tok, n: usize) -> usize {
        let n = n.min(self.b.len() - self.pos);
        if n > 0 {
            self.out.push((t, self.pos, self.pos + n));
            self.pos += n;
        }
        n
    }

    fn push_to_index(&mut self, t: Tok, i: usize, allow_empty: bool) -> usize {
        let i = i.min(self.b.len());
        if i > self.pos {
            let n = i - self.pos;
            self.push(t, n)
        } else {
            if allow_empty {
                self.out.push((t, self.pos, self.pos));
            }
            0
        }
    }

    fn push_spaces(&mut self, allow_tabs: bool) -> usize {
        let mut i = self.pos;
        while i < self.b.len() && (self.b[i] == b' ' || (allow_tabs && self.b[i] == b'\t')) {
            i += 1;
        }
        self.push(Tok::Space, i - self.pos)
    }

    fn push_newline(&mut self) -> usize {
        match (self.char_at(0), self.char_at(1)) {
            (Some(b'\n'), _) => self.push(Tok::Newline, 1),
            (Some(b'\r'), Some(b'\n')) => self.push(Tok::Newline, 2),
            _ => 0,
        }
    }

    fn push_until(&mut self, t: Tok, test: fn(Option<u8>) -> bool) -> usize {
        let mut i = self.pos;
        while !test(self.b.get(i).copied()) {
            i += 1;
        }
        self.push_to_index(t, i, false)
    }

    fn push_tag(&mut self) -> usize {
        if self.char_at(1) == Some(b'<') {
            let mut i = self.pos + 2;
            while !is_empty(self.b.get(i).copied()) && self.b[i] != b'>' {
                i += 1;
            }
            let end = if self.b.get(i) == Some(&b'>') { i + 1 } else { i };
            self.push_to_index(Tok::Prop, end, false)
        } else {
            let mut i = self.pos + 1;
            while let Some(&c) = self.b.get(i) {
                if is_tag_char(c) {
                    i += 1;
                } else if c == b'%'
                    && self.b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                    && self.b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
                {
                    i += 3;
                } else {
                    break;
                }
            }
            self.push_to_index(Tok::Prop, i, false)
        }
    }

    fn push_indicators(&mut self) -> usize {
        let mut n = 0;
        loop {
            match self.char_at(0) {
                Some(b'!') => {
                    n += self.push_tag();
                    n += self.push_spaces(true);
                }
                Some(b'&') => {
                    n += self.push_until(Tok::Prop, is_not_anchor_char);
                    n += self.push_spaces(true);
                }
                Some(c @ (b'-' | b'?' | b':')) => {
                    let in_flow = self.flow_level > 0;
                    let ch1 = self.char_at(1);
                    if is_empty(ch1) || (in_flow && is_flow_ind(ch1)) {
                        if !in_flow {
                            self.indent_next = self.indent_value + 1;
                        } else if self.flow_key {
                            self.flow_key = false;
                        }
                        n += self.push(Tok::Ind(c), 1);
                        n += self.push_spaces(true);
                    } else {
                        return n;
                    }
                }
                _ => return n,
            }
        }
    }

    fn continue_scalar(&self, offset: usize) -> Option<usize> {
        let mut ch = self.b.get(offset).copied();
        if self.indent_next > 0 {
            let mut indent = 0usize;
            while ch == Some(b' ') {
                indent += 1;
                ch = self.b.get(offset + indent).copied();
            }
            if ch == Some(b'\r') && self.b.get(offset + indent + 1) == Some(&b'\n') {
                return Some(offset + indent + 1);
            }
            return if ch == Some(b'\n') || indent as i64 >= self.indent_next { Some(offset + indent) } else { None };
        }
        if matches!(ch, Some(b'-' | b'.')) {
            let dt = &self.b[offset..(offset + 3).min(self.b.len())];
            if (dt == b"---" || dt == b"...") && is_empty(self.b.get(offset + 3).copied()) {
                return None;
            }
        }
        Some(offset)
    }

    fn parse_line_start(&mut self) -> State {
        let ch = self.char_at(0);
        if matches!(ch, Some(b'-' | b'.')) {
            let s = &self.b[self.pos..(self.pos + 3).min(self.b.len())];
            if (s == b"---" || s == b"...") && is_empty(self.char_at(3)) {
                let doc = s == b"---";
                self.push(Tok::DocMarker, 3);
                self.indent_value = 0;
                self.indent_next = 0;
                return if doc { State::Doc } else { State::Stream };
            }
        }
        self.indent_value = self.push_spaces(false) as i64;
        if self.indent_next > self.indent_value && !is_empty(self.char_at(1)) {
            self.indent_next = self.indent_value;
        }
        self.parse_block_start()
    }

    fn parse_block_start(&mut self) -> State {
        let (ch0, ch1) = (self.char_at(0), self.char_at(1));
        if let Some(c @ (b'-' | b'?' | b':')) = ch0
            && is_empty(ch1)
        {
            let n = self.push(Tok::Ind(c), 1) + self.push_spaces(true);
            self.indent_next = self.indent_value + 1;
            self.indent_value += n as i64;
            return State::BlockStart;
        }
        State::Doc
    }

    fn parse_document(&mut self) -> State {
        self.push_spaces(true);
        let (ls, le) = (self.pos, self.line_end());
        let n = self.push_indicators();
        let c = if ls + n < le { Some(self.b[ls + n]) } else { None };
        match c {
            Some(b'#') | None => {
                if c.is_some() {
                    self.push(Tok::Comment, le - ls - n);
                }
                self.push_newline();
                self.parse_line_start()
            }
            Some(b'{' | b'[') => {
                self.push(Tok::FlowStart, 1);
                self.flow_key = false;
                self.flow_level = 1;
                State::Flow
            }
            Some(b'}' | b']') => {
                self.push(Tok::FlowEnd(false), 1);
                State::Doc
            }
            Some(b'*') => {
                self.push_until(Tok::Other, is_not_anchor_char);
                State::Doc
            }
            Some(b'"' | b'\'') => self.parse_quoted_scalar(),
            Some(b'|' | b'>') => {
                let mut n = n + self.parse_block_scalar_header();
                n += self.push_spaces(true);
                let rest = (le - ls).saturating_sub(n);
                self.push(Tok::Comment, rest);
                self.push_newline();
                self.parse_block_scalar()
            }
            _ => self.parse_plain_scalar(),
        }
    }

    fn parse_flow_collection(&mut self) -> State {
        let mut indent: i64 = -1;
        loop {
            let nl = self.push_newline();
            let mut sp = 0;
            if nl > 0 {
                sp = self.push_spaces(false);
                indent = sp as i64;
                self.indent_value = indent;
            }
            sp += self.push_spaces(true);
            if nl + sp == 0 {
                break;
            }
        }
        let (ls, le) = (self.pos, self.line_end());
        let line = &self.b[ls..le];
        let first = line.first().copied();
        let doc_marker =
            indent == 0 && (line.starts_with(b"---") || line.starts_with(b"...")) && is_empty(line.get(3).copied());
        if (indent != -1 && indent < self.indent_next && first != Some(b'#')) || doc_marker {
            let at_flow_end_marker =
                indent == self.indent_next - 1 && self.flow_level == 1 && matches!(first, Some(b']' | b'}'));
            if !at_flow_end_marker {
                self.flow_level = 0;
                self.out.push((Tok::FlowErrorEnd, self.pos, self.pos));
                return self.parse_line_start();
            }
        }
        let mut n = 0;
        while ls + n < le && self.b[ls + n] == b',' {
            n += self.push(Tok::Other, 1);
            n += self.push_spaces(true);
            self.flow_key = false;
        }
        n += self.push_indicators();
        let c = if ls + n < le { Some(self.b[ls + n]) } else { None };
        match c {
            None => State::Flow,
            Some(b'#') => {
                self.push(Tok::Comment, le - ls - n);
                State::Flow
            }
            Some(b'{' | b'[') => {
                self.push(Tok::FlowStart, 1);
                self.flow_key = false;
                self.flow_level += 1;
                State::Flow
            }
            Some(b'}' | b']') => {
                self.push(Tok::FlowEnd(true), 1);
                self.flow_key = true;
                self.flow_level -= 1;
                if self.flow_level > 0 { State::Flow } else { State::Doc }
            }
            Some(b'*') => {
                self.push_until(Tok::Other, is_not_anchor_char);
                State::Flow
            }
            Some(b'"' | b'\'') => {
                self.flow_key = true;
                self.parse_quoted_scalar()
            }
            Some(b':') if self.flow_key || is_empty(self.char_at(1)) || self.char_at(1) == Some(b',') => {
                self.flow_key = false;
                self.push(Tok::Ind(b':'), 1);
                self.push_spaces(true);
                State::Flow
            }
            _ => {
                self.flow_key = false;
                self.parse_plain_scalar()
            }
        }
    }

    fn parse_quoted_scalar(&mut self) -> State {
        let quote = self.b[self.pos];
        let len = self.b.len();
        let mut end = self.index_of(quote, self.pos + 1, len);
        if quote == b'\'' {
            while let Some(e) = end
                && self.b.get(e + 1) == Some(&b'\'')
            {
                end = self.index_of(b'\'', e + 2, len);
            }
        } else {
            while let Some(e) = end {
                let mut n = 0;
                while e > n && self.b[e - 1 - n] == b'\\' {
                    n += 1;
                }
                if n % 2 == 0 {
                    break;
                }
                end = self.index_of(b'"', e + 1, len);
            }
        }
        // only newlines inside the quotes are looked at (none when there is no closing quote)
        let qb = end.unwrap_or(0);
        let mut end = end.map_or(len as i64 - 1, |e| e as i64);
        let mut nl = self.index_of(b'\n', self.pos, qb);
        if nl.is_some() {
            while let Some(n) = nl {
                match self.continue_scalar(n + 1) {
                    None => break,
                    Some(cs) => nl = self.index_of(b'\n', cs, qb),
                }
            }
            if let Some(n) = nl {
                // an unexpected unindent ends the scalar on the line before
                end = n as i64 - if n >= 1 && self.b[n - 1] == b'\r' { 2 } else { 1 };
            }
        }
        self.push_to_index(Tok::Other, (end + 1).max(0) as usize, false);
        if self.flow_level > 0 { State::Flow } else { State::Doc }
    }

    fn parse_block_scalar_header(&mut self) -> usize {
        self.block_scalar_indent = -1;
        self.block_scalar_keep = false;
        let mut i = self.pos;
        loop {
            i += 1;
            match self.b.get(i) {
                Some(b'+') => self.block_scalar_keep = true,
                Some(&c @ b'1'..=b'9') => self.block_scalar_indent = (c - b'0') as i64 - 1,
                Some(b'-') => {}
                _ => break,
            }
        }
        self.push_until(Tok::Other, |c| is_empty(c) || c == Some(b'#'))
    }

    fn parse_block_scalar(&mut self) -> State {
        let start = self.pos as i64;
        let mut nl: i64 = start - 1;
        let mut indent: i64 = 0;
        let mut i = self.pos;
        while let Some(&c) = self.b.get(i) {
            match c {
                b' ' => indent += 1,
                b'\n' => {
                    nl = i as i64;
                    indent = 0;
                }
                b'\r' if self.b.get(i + 1) == Some(&b'\n') => {}
                _ => break,
            }
            i += 1;
        }
        if indent >= self.indent_next {
            if self.block_scalar_indent == -1 {
                self.indent_next = indent;
            } else {
                self.indent_next = self.block_scalar_indent + if self.indent_next == 0 { 1 } else { self.indent_next };
            }
            loop {
                match self.continue_scalar((nl + 1) as usize) {
                    None => break,
                    Some(cs) => match self.index_of(b'\n', cs, self.b.len()) {
                        Some(n) => nl = n as i64,
                        None => {
                            nl = self.b.len() as i64;
                            break;
                        }
                    },
                }
            }
        }
        // trailing insufficiently indented tabs belong to the scalar
        let mut i = nl + 1;
        let mut ch = self.at(i);
        while ch == Some(b' ') {
            i += 1;
            ch = self.at(i);
        }
        if ch == Some(b'\t') {
            while matches!(ch, Some(b'\t' | b' ' | b'\r' | b'\n')) {
                i += 1;
                ch = self.at(i);
            }
            nl = i - 1;
        } else if !self.block_scalar_keep {
            loop {
                let mut i = nl - 1;
                let mut ch = self.at(i);
                if ch == Some(b'\r') {
                    i -= 1;
                    ch = self.at(i);
                }
                let last_char = i;
                while ch == Some(b' ') {
                    i -= 1;
                    ch = self.at(i);
                }
                if ch == Some(b'\n') && i >= start && i + 1 + indent > last_char {
                    nl = i;
                } else {
                    break;
                }
            }
        }
        self.push_to_index(Tok::BlockContent, (nl + 1).max(0) as usize, true);
        self.parse_line_start()
    }

    fn parse_plain_scalar(&mut self) -> State {
        let in_flow = self.flow_level > 0;
        let mut end: i64 = self.pos as i64 - 1;
        let mut i: i64 = self.pos as i64 - 1;
        loop {
            i += 1;
            let Some(mut ch) = self.at(i) else { break };
            if ch == b':' {
                let next = self.at(i + 1);
                if is_empty(next) || (in_flow && is_flow_ind(next)) {
                    break;
                }
                end = i;
            } else if is_empty(Some(ch)) {
                let mut next = self.at(i + 1);
                if ch == b'\r' {
                    if next == Some(b'\n') {
                        i += 1;
                        ch = b'\n';
                        next = self.at(i + 1);
                    } else {
                        end = i;
                    }
                }
                if next == Some(b'#') || (in_flow && is_flow_ind(next)) {
                    break;
                }
                if ch == b'\n' {
                    match self.continue_scalar((i + 1) as usize) {
                        None => break,
                        Some(cs) => i = i.max(cs as i64 - 2),
                    }
                }
            } else {
                if in_flow && is_flow_ind(Some(ch)) {
                    break;
                }
                end = i;
            }
        }
        self.push_to_index(Tok::Other, (end + 1) as usize, true);
        if in_flow { State::Flow } else { State::Doc }
    }

    fn step(&mut self, s: State) -> Option<State> {
        Some(match s {
            State::LineStart => self.parse_line_start(),
            State::BlockStart => self.parse_document(),
            State::Doc => self.parse_document(),
            State::Flow => self.parse_flow_collection(),
            // only after `...`, which ends the sequence before the lexer gets here
            State::Stream => return None,
        })
    }
}

/// The end (a line start, or `limit`) of the block sequence whose `-` is at byte `dash`, at
/// parser indentation `indent`, as npm yaml's lexer and parser see it; `None` for a layout this
/// does not model.
pub(crate) fn seq_end(text: &str, dash: usize, indent: usize, limit: usize) -> Option<usize> {
    node_end(text, dash, indent, true, limit)
}

/// The end of the dropped block node (a sequence when `seq`, else a mapping) whose first token
/// starts its line at byte `first`, at parser indentation `indent`: a mapping ends at the first
/// token that starts a line indented less than it.
pub(crate) fn node_end(text: &str, first: usize, indent: usize, seq: bool, limit: usize) -> Option<usize> {
    let b = text.as_bytes();
    let dash = first;
    let ls = text[..dash].rfind('\n').map_or(0, |k| k + 1);
    if dash - ls != indent || !b[ls..dash].iter().all(|&c| c == b' ') || (seq && b.get(dash) != Some(&b'-')) {
        return None;
    }
    let mut lx = Lexer {
        b,
        pos: ls,
        flow_level: 0,
        flow_key: false,
        indent_next: 0,
        indent_value: 0,
        block_scalar_indent: -1,
        block_scalar_keep: false,
        out: Vec::new(),
    };
    let mut state = State::LineStart;
    let (mut at_new_line, mut p_indent) = (true, 0usize);
    // an indicator came before the current token on its line
    let mut after_ind = false;
    // a `flow-error-end` came on the current line
    let mut fee_line = false;
    let mut seen = 0;
    let mut stuck = 0;
    let mut depth = 0usize;
    while lx.pos < b.len() {
        let before = lx.pos;
        state = lx.step(state)?;
        if lx.pos == before && lx.out.is_empty() {
            stuck += 1;
            if stuck > 4 {
                return None;
            }
        } else {
            stuck = 0;
        }
        // `Parser.next` / `Parser.blockSequence` over the new tokens
        while seen < lx.out.len() {
            let (t, at, end) = lx.out[seen];
            seen += 1;
            let in_flow = depth > 0 || t == Tok::FlowEnd(true);
            match t {
                Tok::FlowStart => depth += 1,
                Tok::FlowEnd(true) => depth = depth.saturating_sub(1),
                Tok::FlowErrorEnd => depth = 0,
                _ => {}
            }
            match t {
                Tok::Newline => {
                    at_new_line = true;
                    p_indent = 0;
                    after_ind = false;
                    fee_line = false;
                }
                Tok::Space => {
                    if at_new_line && b[at] == b' ' {
                        p_indent += end - at;
                    }
                }
                Tok::Comment => {}
                Tok::FlowErrorEnd => fee_line = true,
                Tok::BlockContent => {
                    at_new_line = true;
                    p_indent = 0;
                    after_ind = false;
                }
                _ => {
                    if at_new_line && p_indent <= indent && !in_flow {
                        if p_indent == indent && (!seq || t == Tok::Ind(b'-')) {
                            // the sequence's next item
                        } else {
                            let tls = text[..at].rfind('\n').map_or(0, |k| k + 1);
                            // (after a `flow-error-end` the lexer counts the line's spaces as no
                            // indentation, which changes how what follows is lexed)
                            if !b[tls..at].iter().all(|&c| c == b' ') || (fee_line && tls < at) {
                                return None;
                            }
                            return Some(tls.min(limit));
                        }
                    }
                    // a `]`/`}` outside flow collections, and an anchor or tag that starts a line
                    // (`Parser.blockSequence` leaves the sequence on one when the item has a
                    // value, e.g. a nested map that this token ends), can end the sequence in
                    // the middle of its line or at a deeper indentation: not modelled
                    if t == Tok::FlowEnd(false) || (t == Tok::Prop && at_new_line && !after_ind && !in_flow) {
                        return None;
                    }
                    if let Tok::Ind(_) = t {
                        if at_new_line {
                            p_indent += 1;
                        }
                        after_ind = true;
                    } else {
                        at_new_line = false;
                    }
                }
            }
        }
        lx.out.clear();
        seen = 0;
    }
    Some(limit.min(b.len()))
}
