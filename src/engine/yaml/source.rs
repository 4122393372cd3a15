//! Position bookkeeping: saphyr reports char indices; npm yaml reports
//! UTF-16 offsets with lines split on `\n` only.

use super::Pos;

/// Text with position tables.
pub struct Source<'a> {
    pub text: &'a str,
    ascii: bool,
    /// How offsets are found in non-ASCII text.
    table: Table,
    /// Chars in the text.
    chars: usize,
    /// Byte offsets of line starts (lines split on '\n').
    line_starts: std::cell::OnceCell<Vec<usize>>,
}

enum Table {
    /// Every non-ASCII char, in order: an offset is found by adding up the extra bytes and
    /// UTF-16 units of the wide chars before it (a binary search). Used while wide chars are
    /// few, which is the frontmatter case.
    Wide(Vec<Wide>),
    /// Text dense with non-ASCII chars (CJK, say): every `CHECK` chars, (byte offset, UTF-16
    /// offset), plus a sentinel; lookups walk at most `CHECK` chars. Memory stays a fraction of
    /// the text's size however long it is.
    Checkpoints(Vec<(usize, usize)>),
}

/// A non-ASCII char and the running totals through it.
#[derive(Clone, Copy, Debug)]
struct Wide {
    /// Its char index.
    ci: usize,
    /// Its byte offset.
    byte: usize,
    /// Bytes beyond one per char, through this char.
    extra_bytes: usize,
    /// UTF-16 units beyond one per char, through this char.
    extra_units: usize,
}

/// Checkpoint stride of [`Table::Checkpoints`].
const CHECK: usize = 64;

impl<'a> Source<'a> {
    pub fn new(text: &'a str) -> Self {
        Source::with_wide_limit(text, (text.len() / CHECK).max(4096))
    }

    /// `new`, switching to checkpoints past `limit` wide chars.
    fn with_wide_limit(text: &'a str, limit: usize) -> Self {
        let ascii = text.is_ascii();
        let mut wide = Vec::new();
        let (mut extra_bytes, mut extra_units) = (0, 0);
        let mut dense = false;
        if !ascii {
            let b = text.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i] < 0x80 {
                    // Skip ASCII a word at a time.
                    let run = (i + 16).min(b.len());
                    i = if b[i..run].is_ascii() { run } else { i + 1 };
                    continue;
                }
                if wide.len() == limit {
                    dense = true;
                    break;
                }
                let len = match b[i] {
                    0xF0.. => 4,
                    0xE0.. => 3,
                    _ => 2,
                };
                let ci = i - extra_bytes;
                extra_bytes += len - 1;
                extra_units += usize::from(len == 4);
                wide.push(Wide { ci, byte: i, extra_bytes, extra_units });
                i += len;
            }
        }
        let (table, chars) = if dense {
            let mut checkpoints = Vec::with_capacity(text.len() / CHECK + 2);
            let (mut chars, mut units) = (0, 0);
            for (b, c) in text.char_indices() {
                if chars % CHECK == 0 {
                    checkpoints.push((b, units));
                }
                chars += 1;
                units += c.len_utf16();
            }
            checkpoints.push((text.len(), units)); // sentinel (may be out of stride)
            (Table::Checkpoints(checkpoints), chars)
        } else {
            (Table::Wide(wide), text.len() - extra_bytes)
        };
        Source { text, ascii, table, chars, line_starts: std::cell::OnceCell::new() }
    }

    /// Char index -> (byte offset, utf16 offset).
    pub fn char_to_offsets(&self, ci: usize) -> (usize, usize) {
        if self.ascii {
            let b = ci.min(self.text.len());
            return (b, b);
        }
        let ci = ci.min(self.chars);
        match &self.table {
            Table::Wide(wide) => match wide.partition_point(|w| w.ci < ci) {
                0 => (ci, ci),
                k => (ci + wide[k - 1].extra_bytes, ci + wide[k - 1].extra_units),
            },
            Table::Checkpoints(checkpoints) => {
                // the last real checkpoint at or before `ci`
                let k = (ci / CHECK).min(checkpoints.len() - 2);
                let (mut b, mut u) = checkpoints[k];
                for c in self.text[b..].chars().take(ci - k * CHECK) {
                    b += c.len_utf8();
                    u += c.len_utf16();
                }
                (b, u)
            }
        }
    }

    pub fn line_starts(&self) -> &Vec<usize> {
        self.line_starts.get_or_init(|| {
            let mut v = vec![0];
            v.extend(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|i| i + 1));
            v
        })
    }

    /// Chars and UTF-16 units in `text[a..b]` (char boundaries).
    fn counts(&self, a: usize, b: usize) -> (usize, usize) {
        if self.ascii {
            return (b - a, b - a);
        }
        match &self.table {
            Table::Wide(wide) => {
                let extra = |at: usize| match wide.partition_point(|w| w.byte < at) {
                    0 => (0, 0),
                    k => (wide[k - 1].extra_bytes, wide[k - 1].extra_units),
                };
                let ((ba, ua), (bb, ub)) = (extra(a), extra(b));
                let chars = (b - a) - (bb - ba);
                (chars, chars + (ub - ua))
            }
            Table::Checkpoints(checkpoints) => {
                // (char index, UTF-16 offset) of a byte offset: from the last checkpoint at or
                // before it, walk at most `CHECK` chars.
                let real = &checkpoints[..checkpoints.len() - 1]; // without the sentinel
                let at = |x: usize| {
                    let k = real.partition_point(|&(byte, _)| byte <= x).saturating_sub(1);
                    let (byte, units) = checkpoints[k];
                    let seg = &self.text.as_bytes()[byte..x];
                    let chars = seg.iter().filter(|&&c| (c as i8) >= -0x40).count();
                    (k * CHECK + chars, units + chars + seg.iter().filter(|&&c| c >= 0xF0).count())
                };
                let ((ca, ua), (cb, ub)) = (at(a), at(b));
                (cb - ca, ub - ua)
            }
        }
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
        let (col, col16) = self.counts(ls, b);
        Pos { line: line + 1, col: col + 1, col_utf16: col16 + 1, byte: b }
    }

    /// UTF-16 length of `text[a..b]` (byte offsets).
    pub fn utf16_len(&self, a: usize, b: usize) -> usize {
        self.counts(a, b).1
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

#[cfg(test)]
mod position_tests {
    use super::Source;

    /// The tables agree with walking the chars, on mixed ASCII, 2-, 3- and 4-byte text.
    #[test]
    fn offsets_match_a_char_walk() {
        let pieces = ["a", "b\n", " ", "é", "数", "😀", "\r\n", "\u{FEFF}", "xyz", "\n"];
        let mut seed = 7u64;
        for _ in 0..300 {
            let mut text = String::new();
            for _ in 0..(seed % 200) {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            for limit in [usize::MAX, 3] {
                let src = Source::with_wide_limit(&text, limit);
                let chars: Vec<(usize, char)> = text.char_indices().collect();
                let mut units = 0;
                for (ci, &(b, c)) in chars.iter().enumerate() {
                    assert_eq!(src.char_to_offsets(ci), (b, units), "{text:?} char {ci}");
                    assert_eq!(src.utf16_len(0, b), units);
                    let ls = text[..b].rfind('\n').map_or(0, |i| i + 1);
                    let pos = src.pos_of_byte(b);
                    assert_eq!(pos.col, text[ls..b].chars().count() + 1);
                    assert_eq!(pos.col_utf16, text[ls..b].encode_utf16().count() + 1);
                    units += c.len_utf16();
                }
                assert_eq!(src.utf16_len(0, text.len()), units, "{text:?} whole");
                let ls = text.rfind('\n').map_or(0, |i| i + 1);
                let pos = src.pos_of_byte(text.len());
                assert_eq!(pos.col, text[ls..].chars().count() + 1, "{text:?} end");
                assert_eq!(pos.col_utf16, text[ls..].encode_utf16().count() + 1);
                let end = src.char_to_offsets(chars.len());
                assert_eq!(end, (text.len(), units));
                assert_eq!(src.char_to_offsets(chars.len() + 5), end, "clamped past the end");
            }
        }
    }
}
