//! `parse/line-counter.ts` and `errors.ts`'s `prettifyError`: an error's message with ` at line
//! L, column C` and the source line with a caret, exactly as `String(e)` shows it. npm yaml
//! counts in UTF-16 code units; the composer's byte offsets are converted here.

use crate::compose::doc::{Diag, Pos, PosEnd};
use crate::cst::Cst;
use crate::token::{Kind, Token};

/// The source as UTF-16 units, the unit offset of each byte, and npm yaml's line starts.
pub struct LineCounter {
    units: Vec<u16>,
    at: Vec<u32>,
    line_starts: Vec<u32>,
}

impl LineCounter {
    /// Line starts where npm yaml's parser reports them: after each newline token and at
    /// [`Cst::newlines`].
    pub fn new(src: &str, tokens: &[Token], cst: &Cst) -> Self {
        let mut units = Vec::with_capacity(src.len());
        let mut at = vec![0; src.len() + 1];
        for (i, ch) in src.char_indices() {
            let u = units.len() as u32;
            for (k, slot) in at[i..i + ch.len_utf8()].iter_mut().enumerate() {
                *slot = u + u32::from(k > 0);
            }
            let mut buf = [0u16; 2];
            units.extend_from_slice(ch.encode_utf16(&mut buf));
        }
        at[src.len()] = units.len() as u32;
        // 0 (`parse` starts at offset 0), then the newline tokens' ends and the scalars' line
        // starts, merged (both are in source order)
        let mut line_starts = vec![0];
        let mut inner = cst.newlines.iter().copied().peekable();
        for t in tokens.iter().filter(|t| t.kind == Kind::Newline) {
            while let Some(b) = inner.next_if(|&b| b <= t.end) {
                line_starts.push(at[b as usize]);
            }
            line_starts.push(at[t.end as usize]);
        }
        line_starts.extend(inner.map(|b| at[b as usize]));
        LineCounter { units, at, line_starts }
    }

    /// A byte offset as UTF-16 units (offsets past the end count on as units).
    pub fn unit(&self, byte: u32) -> u32 {
        match self.at.get(byte as usize) {
            Some(&u) => u,
            None => self.units.len() as u32 + (byte - (self.at.len() as u32 - 1)),
        }
    }

    /// `linePos(offset)`: 1-based line and column.
    pub fn line_pos(&self, offset: u32) -> (u32, u32) {
        let ls = &self.line_starts;
        let low = ls.partition_point(|&s| s < offset);
        if ls.get(low) == Some(&offset) {
            return (low as u32 + 1, 1);
        }
        if low == 0 {
            return (0, offset);
        }
        (low as u32, offset - ls[low - 1] + 1)
    }

    fn slice(&self, a: u32, b: Option<u32>) -> &[u16] {
        let n = self.units.len();
        let a = (a as usize).min(n);
        let b = b.map_or(n, |b| (b as usize).min(n)).max(a);
        &self.units[a..b]
    }

    /// `String(error)` of an error or warning after `prettifyError`, as UTF-16 units.
    pub fn pretty(&self, name: &str, d: &Diag) -> Vec<u16> {
        let mut msg: Vec<u16> = format!("{name}: {}", d.message).encode_utf16().collect();
        let Pos { start, end } = d.pos;
        let s = self.unit(start);
        let e = match end {
            PosEnd::At(b) => self.unit(b),
            PosEnd::Next => s + 1,
            PosEnd::Len(a, b) => s + self.unit(b) - self.unit(a),
        };
        let (line, col) = self.line_pos(s);
        msg.extend(format!(" at line {line}, column {col}").encode_utf16());
        let mut ci = col as i64 - 1;
        let ls = &self.line_starts;
        let ls_at = |l: i64| -> Option<u32> { if l < 0 { Some(0) } else { ls.get(l as usize).copied() } };
        let mut line_str: Vec<u16> = self.slice(ls_at(line as i64 - 1).unwrap_or(0), ls_at(line as i64)).to_vec();
        while matches!(line_str.last(), Some(&0x0A) | Some(&0x0D)) {
            line_str.pop();
        }
        if ci >= 60 && line_str.len() > 80 {
            let trim_start = (ci - 39).min(line_str.len() as i64 - 79) as usize;
            let mut t = vec![0x2026u16];
            t.extend_from_slice(&line_str[trim_start..]);
            line_str = t;
            ci -= trim_start as i64 - 1;
        }
        if line_str.len() > 80 {
            line_str.truncate(79);
            line_str.push(0x2026);
        }
        let upto = (ci.max(0) as usize).min(line_str.len());
        if line > 1 && line_str[..upto].iter().all(|&c| c == 0x20) {
            let mut prev: Vec<u16> = self.slice(ls[line as usize - 2], ls.get(line as usize - 1).copied()).to_vec();
            if prev.len() > 80 {
                prev.truncate(79);
                prev.extend("…\n".encode_utf16());
            }
            prev.extend_from_slice(&line_str);
            line_str = prev;
        }
        if line_str.iter().any(|&c| c != 0x20) {
            let mut count: i64 = 1;
            let (el, ec) = self.line_pos(e);
            if el == line && ec > col {
                count = ((ec - col) as i64).min(80 - ci).max(1);
            }
            msg.extend(":\n\n".encode_utf16());
            msg.extend_from_slice(&line_str);
            msg.push(0x0A);
            msg.extend(std::iter::repeat_n(0x20u16, ci.max(0) as usize));
            msg.extend(std::iter::repeat_n(u16::from(b'^'), count as usize));
            msg.push(0x0A);
        }
        msg
    }
}
