//! A skill file's text as lint shows it, and byte offset → line/column.

use std::ops::Range;

/// The text of one file: the bytes on disk decoded as UTF-8 (invalid sequences replaced with
/// U+FFFD, a byte order mark kept as U+FEFF), so every finding can point into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceText {
    pub text: String,
    /// `true` when `text` is byte for byte the file on disk (valid UTF-8); fixes need this.
    pub exact: bool,
    /// Byte offsets where lines start, built the first time a position is asked for (most
    /// files checked produce no finding and never need it).
    line_starts: std::sync::OnceLock<Vec<usize>>,
    /// `char_marks[i]`: the number of chars in `text[..i * MARK_STEP]`, built the first time a
    /// column is asked for further than `MARK` bytes into its line, so that many findings on one long line
    /// (a minified description, a line of links) cost O(1) each instead of O(line).
    char_marks: std::sync::OnceLock<Vec<usize>>,
}

/// The longest stretch counted directly: a column within the first `MARK` bytes of its line, a
/// line number within the first `MARK` bytes of the file. Beyond it the indexes are built once.
const MARK: usize = 4096;

/// Bytes between two entries of [`SourceText::char_marks`] (the index costs 8 bytes per 256).
const MARK_STEP: usize = 256;

/// The number of chars in `bytes` (a slice of valid UTF-8): bytes that are not continuations.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// A 1-based line and column (columns count Unicode scalar values; a byte order mark at the
/// start of the file is not counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl SourceText {
    /// A file's bytes as text: valid UTF-8 becomes the text without a copy; invalid UTF-8 is
    /// decoded with replacements and the bytes are handed back beside it.
    /// [`SourceText::from_vec`] of bytes already found to be text or not.
    pub fn from_content(content: crate::engine::textread::Content) -> (SourceText, Option<Vec<u8>>) {
        match content {
            crate::engine::textread::Content::Text(text) => (SourceText::new(text, true), None),
            crate::engine::textread::Content::Bytes(bytes) => SourceText::from_vec(bytes),
        }
    }

    pub fn from_vec(bytes: Vec<u8>) -> (SourceText, Option<Vec<u8>>) {
        match String::from_utf8(bytes) {
            Ok(text) => (SourceText::new(text, true), None),
            Err(e) => {
                let bytes = e.into_bytes();
                (SourceText::new(String::from_utf8_lossy(&bytes).into_owned(), false), Some(bytes))
            }
        }
    }

    pub fn new(text: String, exact: bool) -> SourceText {
        SourceText { text, exact, line_starts: std::sync::OnceLock::new(), char_marks: std::sync::OnceLock::new() }
    }

    /// The end of the line holding byte `at`, its line break included (the text's length when
    /// `at` is at or past the end).
    pub fn end_of_line_at(&self, at: usize) -> usize {
        if at >= self.text.len() {
            return self.text.len();
        }
        memchr::memchr(b'\n', &self.text.as_bytes()[at..]).map_or(self.text.len(), |i| at + i + 1)
    }

    /// Keep only `text[..cut]`, for positions and snippets up to there. A shortened text is not
    /// the file any more: `exact` is cleared, so no fix is planned on it. `true` when it was
    /// shortened.
    pub fn shorten_to(&mut self, cut: usize) -> bool {
        if cut >= self.text.len() {
            return false;
        }
        let mut text = std::mem::take(&mut self.text);
        text.truncate(cut);
        text.shrink_to_fit();
        *self = SourceText::new(text, false);
        true
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0];
            starts.extend(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|i| i + 1));
            starts
        })
    }

    /// The 1-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        match self.line_starts.get() {
            Some(starts) => starts.partition_point(|&s| s <= offset),
            // Near the top of a file (where most findings are) counting is cheaper than an index;
            // further down, every lookup would walk the file, so the index is built once.
            None if offset <= MARK => 1 + memchr::memchr_iter(b'\n', &self.text.as_bytes()[..offset]).count(),
            None => self.line_starts().partition_point(|&s| s <= offset),
        }
    }

    /// The byte offset where 1-based `line` (which holds `offset`) starts.
    fn start_of_line(&self, line: usize, offset: usize) -> usize {
        match self.line_starts.get() {
            Some(starts) => starts[line - 1],
            None => memchr::memrchr(b'\n', &self.text.as_bytes()[..offset]).map_or(0, |i| i + 1),
        }
    }

    /// The byte range of 1-based `line`, without its line terminator.
    pub fn line_range(&self, line: usize) -> Range<usize> {
        let line_starts = self.line_starts();
        let start = line_starts.get(line.saturating_sub(1)).copied().unwrap_or(self.text.len());
        let mut end = line_starts.get(line).map_or(self.text.len(), |&n| n - 1);
        if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        start..end.max(start)
    }

    pub fn line_count(&self) -> usize {
        self.line_starts().len()
    }

    /// Line and column of byte `offset` (clamped to a char boundary inside the text).
    pub fn position(&self, offset: usize) -> Position {
        let offset = self.floor_boundary(offset);
        let line = self.line_of(offset);
        let start = self.start_of_line(line, offset);
        let mut chars = if offset - start <= MARK {
            count_chars(&self.text.as_bytes()[start..offset])
        } else {
            self.chars_before(offset) - self.chars_before(start)
        };
        if start == 0 && self.text.starts_with('\u{FEFF}') && offset > 0 {
            chars -= 1;
        }
        Position { line, column: chars + 1 }
    }

    /// The number of chars in `text[..offset]` (`offset` a char boundary).
    fn chars_before(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let marks = self.char_marks.get_or_init(|| {
            let mut marks = Vec::with_capacity(bytes.len() / MARK_STEP + 1);
            let mut total = 0;
            marks.push(0);
            for block in bytes.chunks(MARK_STEP) {
                total += count_chars(block);
                marks.push(total);
            }
            marks
        });
        let block = offset / MARK_STEP;
        marks[block] + count_chars(&bytes[block * MARK_STEP..offset])
    }

    /// Start and end positions of a span (the end is exclusive: the column after the last
    /// character).
    pub fn span_positions(&self, span: &Range<usize>) -> (Position, Position) {
        (self.position(span.start), self.position(span.end.max(span.start)))
    }

    /// The largest char boundary at or below `offset`.
    pub fn floor_boundary(&self, offset: usize) -> usize {
        let mut o = offset.min(self.text.len());
        while !self.text.is_char_boundary(o) {
            o -= 1;
        }
        o
    }

    /// A span clamped to the text and to char boundaries.
    pub fn clamp(&self, span: &Range<usize>) -> Range<usize> {
        let start = self.floor_boundary(span.start);
        let end = self.floor_boundary(span.end.max(start));
        start..end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let s = SourceText::new("\u{FEFF}---\nname: é\r\n---\n".to_string(), true);
        assert_eq!(s.position(3), Position { line: 1, column: 1 });
        assert_eq!(s.position(7), Position { line: 2, column: 1 });
        assert_eq!(s.position(13), Position { line: 2, column: 7 });
        assert_eq!(s.line_range(2), 7..15);
        assert_eq!(s.line_of(1000), 4);
        assert_eq!(s.position(14), Position { line: 2, column: 7 });
    }
}
