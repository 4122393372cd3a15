//! The lexer (npm yaml: `parse/lexer.ts`), for a complete input (`lex(source)` with
//! `incomplete = false`, so no state is ever suspended for more input).
//!
//! Its states and their order are npm yaml's:
//!
//! ```text
//! stream       directive -> line-end -> stream | indent + line-end -> stream | else -> line-start
//! line-start   doc-start -> doc | doc-end -> stream | else indent -> block-start
//! block-start  seq-item-start / explicit-key-start / map-value-start -> block-start | else -> doc
//! doc          line-end -> line-start | spaces, props, alias, `:` -> doc | flow-start -> flow
//!              quote -> quoted-scalar | block-scalar-header -> block-scalar | else plain-scalar
//! flow         like doc, with commas; flow-end -> doc at level 0
//! ```
//!
//! The source is read as bytes: every character npm yaml's lexer compares with is ASCII except
//! the byte order mark (one UTF-16 unit there, three bytes here), so every token boundary falls
//! on a character boundary and a token's byte range is the same text as npm yaml's token.
//! Every state function returns the next state; none recurses on input.

use crate::token::{Kind, Token};

/// The states a state function can hand back. npm yaml's `line-start`, `quoted-scalar`,
/// `block-scalar` and `plain-scalar` are only handed back when input is incomplete; here they are
/// reached by calling their functions directly, as npm yaml does otherwise.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Stream,
    BlockStart,
    Doc,
    Flow,
}

/// `isEmpty(ch)`: the end of input, a space, a line break or a tab.
fn is_empty(ch: Option<u8>) -> bool {
    matches!(ch, None | Some(b' ' | b'\n' | b'\r' | b'\t'))
}

fn is_flow_indicator(ch: Option<u8>) -> bool {
    matches!(ch, Some(b',' | b'[' | b']' | b'{' | b'}'))
}

/// `isNotAnchorChar`: what ends an anchor or an alias.
fn is_not_anchor_char(ch: Option<u8>) -> bool {
    matches!(ch, None | Some(b' ' | b',' | b'[' | b']' | b'{' | b'}' | b'\n' | b'\r' | b'\t'))
}

fn is_tag_char(ch: u8) -> bool {
    ch.is_ascii_alphanumeric() || b"-#;/?:@&=+$_.!~*'()".contains(&ch)
}

fn is_hex(ch: Option<u8>) -> bool {
    ch.is_some_and(|c| c.is_ascii_hexdigit())
}

/// A line as `getLine()` returns it: `src[start..end]`, read with `at(k)` as `line[k]`.
#[derive(Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
}

impl Line {
    fn len(self) -> usize {
        self.end - self.start
    }
}

/// Splits `src` into npm yaml's lexical tokens.
pub fn lex(src: &str) -> Vec<Token> {
    let mut lexer = Lexer {
        src: src.as_bytes(),
        tokens: Vec::with_capacity(src.len() / 3 + 4),
        pos: 0,
        line_end_pos: None,
        block_scalar_indent: -1,
        block_scalar_keep: false,
        flow_key: false,
        flow_level: 0,
        indent_next: 0,
        indent_value: 0,
    };
    let mut next = State::Stream;
    while lexer.pos < lexer.src.len() {
        next = lexer.parse_next(next);
    }
    lexer.tokens
}

struct Lexer<'a> {
    src: &'a [u8],
    tokens: Vec<Token>,
    pos: usize,
    /// `lineEndPos`: the cached position of the next `\n` (`Some(None)`: there is none).
    line_end_pos: Option<Option<usize>>,
    /// The explicit indentation of a block scalar header, minus one; -1 when not given.
    block_scalar_indent: i64,
    block_scalar_keep: bool,
    /// Whether `:` may immediately follow the current node in a flow collection.
    flow_key: bool,
    flow_level: u32,
    /// The indentation the next lines need to continue the current scalar.
    indent_next: i64,
    /// The indentation of the current line.
    indent_value: i64,
}

impl Lexer<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.src.get(i).copied()
    }

    /// `buffer[i]` for an index that may be -1.
    fn at_signed(&self, i: isize) -> Option<u8> {
        if i < 0 { None } else { self.at(i as usize) }
    }

    /// `isEmpty(buffer[i + 1])`: whether the UTF-16 unit after the one at `i` is empty. After
    /// a character outside the BMP that unit is its low surrogate.
    fn next_unit_is_empty(&self, i: usize) -> bool {
        let len = match self.at(i) {
            Some(b) if b >= 0xF0 => return false,
            Some(b) if b >= 0xE0 => 3,
            Some(b) if b >= 0xC0 => 2,
            _ => 1,
        };
        is_empty(self.at(i + len))
    }

    fn char_at(&self, n: usize) -> Option<u8> {
        self.at(self.pos + n)
    }

    fn line_at(&self, line: Line, k: usize) -> Option<u8> {
        if line.start + k < line.end { Some(self.src[line.start + k]) } else { None }
    }

    fn index_of(&self, ch: u8, from: usize, limit: usize) -> Option<usize> {
        let limit = limit.min(self.src.len());
        if from >= limit {
            return None;
        }
        self.src[from..limit].iter().position(|&c| c == ch).map(|i| i + from)
    }

    fn push(&mut self, start: usize, end: usize) {
        let kind = Kind::of(&self.src[start..end]);
        self.tokens.push(Token { kind, start: start as u32, end: end as u32 });
    }

    fn push_marker(&mut self, kind: Kind) {
        let at = self.pos as u32;
        self.tokens.push(Token { kind, start: at, end: at });
    }

    fn parse_next(&mut self, next: State) -> State {
        match next {
            State::Stream => self.parse_stream(),
            State::BlockStart => self.parse_block_start(),
            State::Doc => self.parse_document(),
            State::Flow => self.parse_flow_collection(),
        }
    }

    fn at_line_end(&self) -> bool {
        let mut i = self.pos;
        let mut ch = self.at(i);
        while matches!(ch, Some(b' ' | b'\t')) {
            i += 1;
            ch = self.at(i);
        }
        match ch {
            None | Some(b'#' | b'\n') => true,
            Some(b'\r') => self.at(i + 1) == Some(b'\n'),
            _ => false,
        }
    }

    /// `continueScalar(offset)`: where a scalar continues on the line at `offset`, or `None`.
    fn continue_scalar(&self, offset: usize) -> Option<usize> {
        let mut ch = self.at(offset);
        if self.indent_next > 0 {
            let mut indent = 0;
            while ch == Some(b' ') {
                indent += 1;
                ch = self.at(offset + indent);
            }
            if ch == Some(b'\r') && self.at(offset + indent + 1) == Some(b'\n') {
                return Some(offset + indent + 1);
            }
            return if ch == Some(b'\n') || indent as i64 >= self.indent_next { Some(offset + indent) } else { None };
        }
        if matches!(ch, Some(b'-' | b'.')) {
            let dt = &self.src[offset..(offset + 3).min(self.src.len())];
            if (dt == b"---" || dt == b"...") && is_empty(self.at(offset + 3)) {
                return None;
            }
        }
        Some(offset)
    }

    /// `getLine()`: the rest of the current line, without its line break.
    fn get_line(&mut self) -> Line {
        let end = match self.line_end_pos {
            Some(Some(end)) if end >= self.pos => Some(end),
            Some(None) => None,
            _ => {
                let end = self.index_of(b'\n', self.pos, usize::MAX);
                self.line_end_pos = Some(end);
                end
            }
        };
        let Some(mut end) = end else {
            return Line { start: self.pos, end: self.src.len() };
        };
        if end > 0 && self.src[end - 1] == b'\r' {
            end -= 1;
        }
        // `substring` swaps its arguments when the end comes first
        Line { start: self.pos.min(end), end: self.pos.max(end) }
    }

    fn parse_stream(&mut self) -> State {
        let mut line = self.get_line();
        if self.src[line.start..line.end].starts_with("\u{FEFF}".as_bytes()) {
            self.push_count(3);
            line.start += 3;
        }
        if self.line_at(line, 0) == Some(b'%') {
            let mut dir_end = line.len();
            let text = &self.src[line.start..line.end];
            let mut cs = text.iter().position(|&c| c == b'#');
            while let Some(c) = cs {
                if c > 0 && matches!(text[c - 1], b' ' | b'\t') {
                    dir_end = c - 1;
                    break;
                }
                cs = text[c + 1..].iter().position(|&x| x == b'#').map(|i| i + c + 1);
            }
            while dir_end > 0 && matches!(text[dir_end - 1], b' ' | b'\t') {
                dir_end -= 1;
            }
            let n = self.push_count(dir_end) + self.push_spaces(true);
            self.push_count(line.len() - n); // a possible comment
            // npm yaml calls `this.pushNewline()` here without running the generator, so the line
            // break is left for the next `stream` state.
            return State::Stream;
        }
        if self.at_line_end() {
            let sp = self.push_spaces(true);
            self.push_count(line.len().saturating_sub(sp));
            self.push_newline();
            return State::Stream;
        }
        self.push_marker(Kind::DocMode);
        self.parse_line_start()
    }

    fn parse_line_start(&mut self) -> State {
        let ch = self.char_at(0);
        if matches!(ch, Some(b'-' | b'.')) {
            let s = &self.src[self.pos..(self.pos + 3).min(self.src.len())];
            if (s == b"---" || s == b"...") && is_empty(self.char_at(3)) {
                let doc = s == b"---";
                self.push_count(3);
                self.indent_value = 0;
                self.indent_next = 0;
                return if doc { State::Doc } else { State::Stream };
            }
        }
        self.indent_value = self.push_spaces(false) as i64;
        if self.indent_next > self.indent_value && !self.next_unit_is_empty(self.pos) {
            self.indent_next = self.indent_value;
        }
        self.parse_block_start()
    }

    fn parse_block_start(&mut self) -> State {
        let ch0 = self.char_at(0);
        let ch1 = self.char_at(1);
        if matches!(ch0, Some(b'-' | b'?' | b':')) && is_empty(ch1) {
            let n = self.push_count(1) + self.push_spaces(true);
            self.indent_next = self.indent_value + 1;
            self.indent_value += n as i64;
            return State::BlockStart;
        }
        State::Doc
    }

    fn parse_document(&mut self) -> State {
        self.push_spaces(true);
        let line = self.get_line();
        let mut n = self.push_indicators();
        match self.line_at(line, n) {
            Some(b'#') | None => {
                if self.line_at(line, n).is_some() {
                    self.push_count(line.len() - n);
                }
                self.push_newline();
                self.parse_line_start()
            }
            Some(b'{' | b'[') => {
                self.push_count(1);
                self.flow_key = false;
                self.flow_level = 1;
                State::Flow
            }
            Some(b'}' | b']') => {
                // this is an error
                self.push_count(1);
                State::Doc
            }
            Some(b'*') => {
                self.push_until(is_not_anchor_char);
                State::Doc
            }
            Some(b'"' | b'\'') => self.parse_quoted_scalar(),
            Some(b'|' | b'>') => {
                n += self.parse_block_scalar_header();
                n += self.push_spaces(true);
                self.push_count(line.len().saturating_sub(n));
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
        let line = self.get_line();
        let text = &self.src[line.start..line.end];
        let doc_marker = (text.starts_with(b"---") || text.starts_with(b"...")) && is_empty(self.line_at(line, 3));
        if (indent != -1 && indent < self.indent_next && self.line_at(line, 0) != Some(b'#'))
            || (indent == 0 && doc_marker)
        {
            // Allowing for the terminal ] or } at the same (rather than greater) indent level as
            // the initial [ or { is technically invalid, but failing here would be surprising to
            // users. (npm yaml)
            let at_flow_end_marker = indent == self.indent_next - 1
                && self.flow_level == 1
                && matches!(self.line_at(line, 0), Some(b']' | b'}'));
            if !at_flow_end_marker {
                // this is an error
                self.flow_level = 0;
                self.push_marker(Kind::FlowErrorEnd);
                return self.parse_line_start();
            }
        }
        let mut n = 0;
        while self.line_at(line, n) == Some(b',') {
            n += self.push_count(1);
            n += self.push_spaces(true);
            self.flow_key = false;
        }
        n += self.push_indicators();
        match self.line_at(line, n) {
            None => State::Flow,
            Some(b'#') => {
                self.push_count(line.len() - n);
                State::Flow
            }
            Some(b'{' | b'[') => {
                self.push_count(1);
                self.flow_key = false;
                self.flow_level += 1;
                State::Flow
            }
            Some(b'}' | b']') => {
                self.push_count(1);
                self.flow_key = true;
                self.flow_level = self.flow_level.saturating_sub(1);
                if self.flow_level > 0 { State::Flow } else { State::Doc }
            }
            Some(b'*') => {
                self.push_until(is_not_anchor_char);
                State::Flow
            }
            Some(b'"' | b'\'') => {
                self.flow_key = true;
                self.parse_quoted_scalar()
            }
            Some(b':')
                if {
                    let next = self.char_at(1);
                    self.flow_key || is_empty(next) || next == Some(b',')
                } =>
            {
                self.flow_key = false;
                self.push_count(1);
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
        let quote = self.src[self.pos];
        let mut end = self.index_of(quote, self.pos + 1, usize::MAX);
        if quote == b'\'' {
            while let Some(e) = end {
                if self.at(e + 1) != Some(b'\'') {
                    break;
                }
                end = self.index_of(b'\'', e + 2, usize::MAX);
            }
        } else {
            while let Some(e) = end {
                let mut n = 0;
                while e > n && self.src[e - 1 - n] == b'\\' {
                    n += 1;
                }
                if n % 2 == 0 {
                    break;
                }
                end = self.index_of(b'"', e + 1, usize::MAX);
            }
        }
        // Only looking for line breaks within the quotes (`qb` is empty without an end quote)
        if let Some(e) = end {
            let mut nl = self.index_of(b'\n', self.pos, e);
            while let Some(l) = nl {
                match self.continue_scalar(l + 1) {
                    None => break,
                    Some(cs) => nl = self.index_of(b'\n', cs, e),
                }
            }
            if let Some(l) = nl {
                // this is an error caused by an unexpected unindent
                end = Some(l - if self.src[l - 1] == b'\r' { 2 } else { 1 });
            }
        }
        let end = end.map_or(self.src.len(), |e| e + 1);
        self.push_to_index(end);
        if self.flow_level > 0 { State::Flow } else { State::Doc }
    }

    fn parse_block_scalar_header(&mut self) -> usize {
        self.block_scalar_indent = -1;
        self.block_scalar_keep = false;
        let mut i = self.pos;
        loop {
            i += 1;
            match self.at(i) {
                Some(b'+') => self.block_scalar_keep = true,
                Some(c @ b'1'..=b'9') => self.block_scalar_indent = i64::from(c - b'0') - 1,
                Some(b'-') => {}
                _ => break,
            }
        }
        self.push_until(|ch| is_empty(ch) || ch == Some(b'#'))
    }

    fn parse_block_scalar(&mut self) -> State {
        let mut nl: isize = self.pos as isize - 1;
        let mut indent: i64 = 0;
        let mut i = self.pos;
        while let Some(ch) = self.at(i) {
            match ch {
                b' ' => indent += 1,
                b'\n' => {
                    nl = i as isize;
                    indent = 0;
                }
                b'\r' if self.at(i + 1) == Some(b'\n') => {}
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
            while let Some(cs) = self.continue_scalar((nl + 1) as usize) {
                match self.index_of(b'\n', cs, usize::MAX) {
                    Some(n) => nl = n as isize,
                    None => {
                        nl = self.src.len() as isize;
                        break;
                    }
                }
            }
        }
        // Trailing insufficiently indented tabs are invalid. To catch that during parsing, npm
        // yaml includes them in the block scalar value.
        let mut i = nl + 1;
        let mut ch = self.at_signed(i);
        while ch == Some(b' ') {
            i += 1;
            ch = self.at_signed(i);
        }
        if ch == Some(b'\t') {
            while matches!(ch, Some(b'\t' | b' ' | b'\r' | b'\n')) {
                i += 1;
                ch = self.at_signed(i);
            }
            nl = i - 1;
        } else if !self.block_scalar_keep {
            loop {
                let mut i = nl - 1;
                let mut ch = self.at_signed(i);
                if ch == Some(b'\r') {
                    i -= 1;
                    ch = self.at_signed(i);
                }
                let last_char = i; // drop the line if its last char is not more indented
                while ch == Some(b' ') {
                    i -= 1;
                    ch = self.at_signed(i);
                }
                if ch == Some(b'\n') && i >= self.pos as isize && i as i64 + 1 + indent > last_char as i64 {
                    nl = i;
                } else {
                    break;
                }
            }
        }
        let end = ((nl + 1) as usize).clamp(self.pos, self.src.len());
        self.tokens.push(Token { kind: Kind::Scalar, start: self.pos as u32, end: end as u32 });
        self.pos = end;
        self.parse_line_start()
    }

    fn parse_plain_scalar(&mut self) -> State {
        let in_flow = self.flow_level > 0;
        let mut end = self.pos; // one past the last character of the scalar
        let mut i = self.pos;
        while let Some(mut ch) = self.at(i) {
            if ch == b':' {
                let next = self.at(i + 1);
                if is_empty(next) || (in_flow && is_flow_indicator(next)) {
                    break;
                }
                end = i + 1;
            } else if is_empty(Some(ch)) {
                let mut next = self.at(i + 1);
                if ch == b'\r' {
                    if next == Some(b'\n') {
                        i += 1;
                        ch = b'\n';
                        next = self.at(i + 1);
                    } else {
                        end = i + 1;
                    }
                }
                if next == Some(b'#') || (in_flow && is_flow_indicator(next)) {
                    break;
                }
                if ch == b'\n' {
                    let Some(cs) = self.continue_scalar(i + 1) else { break };
                    // to advance, but still account for ' #'
                    i = i.max(cs.saturating_sub(2));
                }
            } else {
                if in_flow && is_flow_indicator(Some(ch)) {
                    break;
                }
                end = i + 1;
            }
            i += 1;
        }
        self.tokens.push(Token { kind: Kind::Scalar, start: self.pos as u32, end: end as u32 });
        self.pos = end;
        if in_flow { State::Flow } else { State::Doc }
    }

    fn push_count(&mut self, n: usize) -> usize {
        if n > 0 {
            let end = (self.pos + n).min(self.src.len());
            self.push(self.pos, end);
            self.pos = end;
        }
        n
    }

    fn push_to_index(&mut self, i: usize) -> usize {
        if i > self.pos {
            let start = self.pos;
            self.push(start, i);
            self.pos = i;
            i - start
        } else {
            0
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
                    n += self.push_until(is_not_anchor_char);
                    n += self.push_spaces(true);
                }
                Some(b'-' | b'?' | b':') => {
                    let in_flow = self.flow_level > 0;
                    let ch1 = self.char_at(1);
                    if is_empty(ch1) || (in_flow && is_flow_indicator(ch1)) {
                        if !in_flow {
                            self.indent_next = self.indent_value + 1;
                        } else if self.flow_key {
                            self.flow_key = false;
                        }
                        n += self.push_count(1);
                        n += self.push_spaces(true);
                    } else {
                        break;
                    }
                }
                _ => break,
            }
        }
        n
    }

    fn push_tag(&mut self) -> usize {
        if self.char_at(1) == Some(b'<') {
            let mut i = self.pos + 2;
            let mut ch = self.at(i);
            while !is_empty(ch) && ch != Some(b'>') {
                i += 1;
                ch = self.at(i);
            }
            self.push_to_index(if ch == Some(b'>') { i + 1 } else { i })
        } else {
            let mut i = self.pos + 1;
            while let Some(ch) = self.at(i) {
                if is_tag_char(ch) {
                    i += 1;
                } else if ch == b'%' && is_hex(self.at(i + 1)) && is_hex(self.at(i + 2)) {
                    i += 3;
                } else {
                    break;
                }
            }
            self.push_to_index(i)
        }
    }

    fn push_newline(&mut self) -> usize {
        match self.char_at(0) {
            Some(b'\n') => self.push_count(1),
            Some(b'\r') if self.char_at(1) == Some(b'\n') => self.push_count(2),
            _ => 0,
        }
    }

    fn push_spaces(&mut self, allow_tabs: bool) -> usize {
        let mut i = self.pos;
        while matches!(self.at(i), Some(b' ')) || (allow_tabs && self.at(i) == Some(b'\t')) {
            i += 1;
        }
        let n = i - self.pos;
        if n > 0 {
            self.push(self.pos, i);
            self.pos = i;
        }
        n
    }

    fn push_until(&mut self, test: impl Fn(Option<u8>) -> bool) -> usize {
        let mut i = self.pos;
        while !test(self.at(i)) {
            i += 1;
        }
        self.push_to_index(i)
    }
}
