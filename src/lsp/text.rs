//! Positions: LSP line/character (in the negotiated encoding) ↔ byte offsets, and applying
//! incremental edits. Every conversion clamps: a position past a line's end is its end, a line
//! past the last is the end of the text, so a confused client never makes the server panic.

use lsp_types::{Position, Range};

/// How `character` counts within a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 code units (bytes), when the client offers `utf-8`.
    Utf8,
    /// UTF-16 code units, the protocol's default.
    Utf16,
}

/// Byte offsets where lines start (after each `\n`), for many conversions on one text.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
    encoding: Encoding,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str, encoding: Encoding) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { text, starts, encoding }
    }

    /// The position of byte `offset` (clamped, moved back to a char boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character = units(&self.text[start..offset], self.encoding);
        Position { line: clamp_u32(line), character: clamp_u32(character) }
    }

    pub fn range(&self, span: &std::ops::Range<usize>) -> Range {
        Range { start: self.position(span.start), end: self.position(span.end.max(span.start)) }
    }

    /// The byte offset of `pos` (clamped to the text and to the line's end).
    pub fn offset(&self, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else { return self.text.len() };
        let end = self.starts.get(pos.line as usize + 1).map_or(self.text.len(), |&e| e - 1);
        start + column_offset(&self.text[start..end], pos.character as usize, self.encoding)
    }
}

/// The byte offset of `pos` in `text`, without building an index (one pass up to the line).
pub fn offset(text: &str, pos: Position, encoding: Encoding) -> usize {
    let bytes = text.as_bytes();
    let mut start = 0;
    if pos.line > 0 {
        match memchr::memchr_iter(b'\n', bytes).nth(pos.line as usize - 1) {
            Some(i) => start = i + 1,
            None => return text.len(),
        }
    }
    let end = memchr::memchr(b'\n', &bytes[start..]).map_or(text.len(), |i| start + i);
    start + column_offset(&text[start..end], pos.character as usize, encoding)
}

/// The byte offset in `line` (without its `\n`) of `character` units; a `\r` before the line
/// feed counts as part of the line, as the protocol says.
fn column_offset(line: &str, character: usize, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Utf8 => {
            let mut at = character.min(line.len());
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            at
        }
        Encoding::Utf16 => {
            let mut units = 0;
            for (i, c) in line.char_indices() {
                if units >= character {
                    return i;
                }
                units += c.len_utf16();
                if units > character {
                    // Inside a surrogate pair: the start of that character.
                    return i;
                }
            }
            line.len()
        }
    }
}

fn units(s: &str, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Utf8 => s.len(),
        Encoding::Utf16 => s.chars().map(char::len_utf16).sum(),
    }
}

fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Apply one `didChange` content change: a range replaced, or (no range) the whole text.
pub fn apply_change(text: &mut String, range: Option<Range>, new_text: &str, encoding: Encoding) {
    match range {
        None => {
            text.clear();
            text.push_str(new_text);
        }
        Some(r) => {
            let start = offset(text, r.start, encoding);
            let end = offset(text, r.end, encoding).max(start);
            text.replace_range(start..end, new_text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn utf16_columns_count_surrogate_pairs_twice() {
        let text = "a😀b\nxy";
        let idx = LineIndex::new(text, Encoding::Utf16);
        assert_eq!(idx.position(5), pos(0, 3)); // after the emoji
        assert_eq!(idx.offset(pos(0, 3)), 5);
        assert_eq!(idx.offset(pos(0, 2)), 1); // inside the pair: its start
        assert_eq!(idx.offset(pos(1, 9)), text.len()); // past the end of the line
        assert_eq!(idx.offset(pos(7, 0)), text.len()); // past the last line
        assert_eq!(offset(text, pos(1, 1), Encoding::Utf16), 8);
        assert_eq!(LineIndex::new(text, Encoding::Utf8).position(5), pos(0, 5));
    }

    #[test]
    fn incremental_edits_apply_in_order() {
        let mut t = "---\nname: x\n---\n".to_string();
        apply_change(&mut t, Some(Range { start: pos(1, 6), end: pos(1, 7) }), "pdf-tools", Encoding::Utf16);
        assert_eq!(t, "---\nname: pdf-tools\n---\n");
        apply_change(&mut t, Some(Range { start: pos(3, 0), end: pos(3, 0) }), "body\n", Encoding::Utf16);
        assert_eq!(t, "---\nname: pdf-tools\n---\nbody\n");
        // A reversed range is taken as empty at its start, never a panic.
        apply_change(&mut t, Some(Range { start: pos(1, 9), end: pos(1, 2) }), "", Encoding::Utf16);
        assert_eq!(t, "---\nname: pdf-tools\n---\nbody\n");
        apply_change(&mut t, None, "new", Encoding::Utf16);
        assert_eq!(t, "new");
    }
}
