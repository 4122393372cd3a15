//! Position bookkeeping: saphyr reports char indices; npm yaml reports
//! UTF-16 offsets with lines split on `\n` only.

use super::Pos;

/// Text with lazily-built position tables.
pub struct Source<'a> {
    pub text: &'a str,
    ascii: bool,
    /// For non-ASCII text: every `CHECK` chars, (byte offset, utf16 offset).
    checkpoints: Vec<(usize, usize)>,
    /// Byte offsets of line starts (lines split on '\n').
    line_starts: std::cell::OnceCell<Vec<usize>>,
}

/// Checkpoint stride: a lookup walks at most this many chars (the composer asks for
/// positions many times per node).
const CHECK: usize = 16;

impl<'a> Source<'a> {
    pub fn new(text: &'a str) -> Self {
        let ascii = text.is_ascii();
        let mut checkpoints = Vec::new();
        if !ascii {
            let mut u16 = 0usize;
            for (i, (b, c)) in text.char_indices().enumerate() {
                if i % CHECK == 0 {
                    checkpoints.push((b, u16));
                }
                u16 += c.len_utf16();
            }
            checkpoints.push((text.len(), u16)); // sentinel (may be out of stride)
        }
        Source { text, ascii, checkpoints, line_starts: std::cell::OnceCell::new() }
    }

    /// Char index -> (byte offset, utf16 offset).
    pub fn char_to_offsets(&self, ci: usize) -> (usize, usize) {
        if self.ascii {
            let b = ci.min(self.text.len());
            return (b, b);
        }
        // the last real checkpoint at or before `ci`
        let k = (ci / CHECK).min(self.checkpoints.len() - 2);
        let (mut b, mut u) = self.checkpoints[k];
        for c in self.text[b..].chars().take(ci - k * CHECK) {
            b += c.len_utf8();
            u += c.len_utf16();
        }
        (b, u)
    }

    pub fn line_starts(&self) -> &Vec<usize> {
        self.line_starts.get_or_init(|| {
            let mut v = vec![0];
            for (i, b) in self.text.bytes().enumerate() {
                if b == b'\n' {
                    v.push(i + 1);
                }
            }
            v
        })
    }

    /// Line index (0-based) containing byte offset `b`.
    pub fn line_of_byte(&self, b: usize) -> usize {
        let ls = self.line_starts();
        ls.partition_point(|&s| s <= b).saturating_sub(1)
    }

    /// Largest char boundary `<= b`.
    pub fn floor(&self, b: usize) -> usize {
        let mut b = b.min(self.text.len());
        while !self.text.is_char_boundary(b) {
            b -= 1;
        }
        b
    }

    pub fn pos_of_byte(&self, b: usize) -> Pos {
        let b = self.floor(b);
        let line = self.line_of_byte(b);
        let ls = self.line_starts()[line];
        let seg = &self.text[ls..b];
        let (col, col16) =
            if self.ascii { (seg.len(), seg.len()) } else { (seg.chars().count(), seg.encode_utf16().count()) };
        Pos { line: line + 1, col: col + 1, col_utf16: col16 + 1, byte: b }
    }

    /// UTF-16 length of `text[a..b]` (byte offsets).
    pub fn utf16_len(&self, a: usize, b: usize) -> usize {
        if self.ascii { b - a } else { self.text[a..b].encode_utf16().count() }
    }
}

/// Replicates npm yaml's `prettifyError`: returns the suffix
/// ` at line L, column C:\n\n<snippet>\n<pointer>\n` (or just ` at line L, column C`).
///
/// `start`/`end` are byte offsets of the error range.
pub fn pretty_suffix(src: &Source<'_>, start: usize, end: Option<usize>) -> (String, Pos) {
    let text = src.text;
    let start = src.floor(start);
    let pos = src.pos_of_byte(start);
    let line = pos.line;
    let col = pos.col_utf16;
    let mut out = format!(" at line {line}, column {col}");
    let ls = src.line_starts();
    let line_start = ls[line - 1];
    let line_end = ls.get(line).copied().unwrap_or(text.len());
    // lineStr = src.substring(lineStarts[line-1], lineStarts[line]).replace(/[\n\r]+$/, '')
    let raw = &text[line_start..line_end];
    let trimmed = raw.trim_end_matches(['\n', '\r']);
    let mut line_str: Vec<u16> = trimmed.encode_utf16().collect();
    let mut ci = col as isize - 1;
    if ci >= 60 && line_str.len() > 80 {
        let trim_start = (ci - 39).min(line_str.len() as isize - 79);
        let mut v: Vec<u16> = "…".encode_utf16().collect();
        v.extend_from_slice(&line_str[trim_start as usize..]);
        line_str = v;
        ci -= trim_start - 1;
    }
    if line_str.len() > 80 {
        line_str.truncate(79);
        line_str.extend("…".encode_utf16());
    }
    // Include previous line in context if pointing at line start
    let before_ci = &line_str[..(ci.max(0) as usize).min(line_str.len())];
    let mut full: Vec<u16> = Vec::new();
    if line > 1 && before_ci.iter().all(|&c| c == b' ' as u16) {
        let prev_start = ls[line - 2];
        let prev = &text[prev_start..line_start];
        let mut pv: Vec<u16> = prev.encode_utf16().collect();
        if pv.len() > 80 {
            pv.truncate(79);
            pv.extend("…\n".encode_utf16());
        }
        full.extend(pv);
    }
    full.extend_from_slice(&line_str);
    if full.iter().any(|&c| c != b' ' as u16) {
        // JS tests /[^ ]/ on the combined lineStr (prev + current)
        let mut count: isize = 1;
        if let Some(e) = end {
            // a range end inside a multi-byte char covers that char
            let mut e = e.min(text.len());
            while !text.is_char_boundary(e) {
                e += 1;
            }
            let epos = src.pos_of_byte(e);
            if epos.line == line && epos.col_utf16 > col {
                count = ((epos.col_utf16 - col) as isize).min(80 - ci).max(1);
            }
        }
        let pointer = format!("{}{}", " ".repeat(ci.max(0) as usize), "^".repeat(count.max(0) as usize));
        out.push_str(":\n\n");
        out.push_str(&String::from_utf16_lossy(&full));
        out.push('\n');
        out.push_str(&pointer);
        out.push('\n');
    }
    (out, pos)
}
