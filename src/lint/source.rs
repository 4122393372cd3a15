//! A skill file's text as lint shows it, and byte offset → line/column.

use std::ops::Range;

/// The text of one file: the bytes on disk decoded as UTF-8 (invalid sequences replaced with
/// U+FFFD, a byte order mark kept as U+FEFF), so every finding can point into it.
///
/// Once a file is checked, lint keeps only what its findings show ([`SourceText::keep_lines`]):
/// a *sparse* text stands for the file's first [`len`](SourceText::len) bytes but holds only a
/// head (`text`) and the lines its findings point into. Positions, line ranges and
/// [`slice`](SourceText::slice) answer inside those lines as they would on the whole text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceText {
    /// The text; for a sparse text, its head only (read past it with [`SourceText::slice`]).
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
    /// The lines kept past the head, for a sparse text.
    sparse: Option<Box<Sparse>>,
}

/// What a sparse text keeps past its head.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Sparse {
    /// The length of the text it stands for.
    len: usize,
    /// Whole lines, in order, apart from each other and from the head.
    islands: Vec<Island>,
}

/// Consecutive whole lines of a sparse text (each with its line break, but the text's last).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Island {
    /// Where they start in the text.
    start: usize,
    /// The 1-based line of `start`.
    line: usize,
    text: String,
}

impl Island {
    fn end(&self) -> usize {
        self.start + self.text.len()
    }

    /// The offset where the `n`th line of the island (0-based) starts, if it does.
    fn line_start(&self, n: usize) -> Option<usize> {
        if n == 0 {
            return Some(self.start);
        }
        memchr::memchr_iter(b'\n', self.text.as_bytes()).nth(n - 1).map(|i| self.start + i + 1)
    }
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
        SourceText {
            text,
            exact,
            line_starts: std::sync::OnceLock::new(),
            char_marks: std::sync::OnceLock::new(),
            sparse: None,
        }
    }

    /// The length of the text (for a sparse text, of the text it stands for).
    pub fn len(&self) -> usize {
        self.sparse.as_ref().map_or(self.text.len(), |s| s.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The island of a sparse text that holds `offset` (its end included), if any.
    fn island(&self, offset: usize) -> Option<&Island> {
        let s = self.sparse.as_ref()?;
        let i = s.islands.partition_point(|r| r.start <= offset);
        s.islands[..i].last().filter(|r| offset <= r.end())
    }

    /// `text[range]`: `None` when the range is not on char boundaries or, for a sparse text,
    /// not inside the head or one kept stretch of lines.
    pub fn slice(&self, range: Range<usize>) -> Option<&str> {
        if range.end <= self.text.len() {
            return self.text.get(range);
        }
        let island = self.island(range.start).filter(|r| range.end <= r.end())?;
        island.text.get(range.start - island.start..range.end - island.start)
    }

    /// Whether `offset` is on a char boundary (inside a sparse text's gaps: assumed).
    pub fn is_char_boundary(&self, offset: usize) -> bool {
        if offset <= self.text.len() {
            return self.text.is_char_boundary(offset);
        }
        match self.island(offset) {
            Some(r) => r.text.is_char_boundary(offset - r.start),
            None => offset <= self.len(),
        }
    }

    /// Keep `text[..cut]` as [`SourceText::shorten_to`] does, but of it only `text[..head]`
    /// and the lines that hold a byte of one of `spans` or start at a span's end (clipped to
    /// `cut`): what positions and snippets of findings with those spans read. `true` when
    /// anything was dropped.
    pub fn keep_lines(&mut self, head: usize, cut: usize, spans: &[Range<usize>]) -> bool {
        let cut = cut.min(self.text.len());
        let mut head = match head.min(cut) {
            0 => 0,
            h => self.end_of_line_at(h - 1).min(cut),
        };
        let mut ranges: Vec<Range<usize>> = spans
            .iter()
            .filter(|r| r.start < cut)
            .map(|r| {
                let start = memchr::memrchr(b'\n', &self.text.as_bytes()[..r.start.min(cut)]).map_or(0, |i| i + 1);
                start..self.end_of_line_at(r.end.max(r.start).min(cut)).min(cut)
            })
            .collect();
        ranges.sort_by_key(|r| r.start);
        let mut islands: Vec<Range<usize>> = Vec::new();
        for r in ranges {
            if r.start <= head {
                head = head.max(r.end);
            } else if let Some(last) = islands.last_mut().filter(|l| r.start <= l.end) {
                last.end = last.end.max(r.end);
            } else {
                islands.push(r);
            }
        }
        // What the sparse text takes: each island's lines, its record and its allocation.
        let island_cost = std::mem::size_of::<Island>() + 32;
        let kept = head + islands.iter().map(|r| r.len() + island_cost).sum::<usize>();
        // Not worth it: the prefix it stands for is about as small (many findings on short
        // lines close together).
        if islands.is_empty() || kept + 1024 > cut {
            return self.shorten_to(cut);
        }
        let bytes = self.text.as_bytes();
        let mut line = 1 + memchr::memchr_iter(b'\n', &bytes[..head]).count();
        let mut at = head;
        let islands = islands
            .into_iter()
            .map(|r| {
                line += memchr::memchr_iter(b'\n', &bytes[at..r.start]).count();
                at = r.start;
                Island { start: r.start, line, text: self.text[r].to_string() }
            })
            .collect();
        let mut text = std::mem::take(&mut self.text);
        text.truncate(head);
        text.shrink_to_fit();
        *self = SourceText::new(text, false);
        self.sparse = Some(Box::new(Sparse { len: cut, islands }));
        true
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
        let offset = offset.min(self.len());
        if offset > self.text.len() {
            return match self.island(offset) {
                Some(r) => r.line + memchr::memchr_iter(b'\n', &r.text.as_bytes()[..offset - r.start]).count(),
                // In a gap of a sparse text (nothing a finding points at): the line after the
                // last kept one before it.
                None => self
                    .island_before(offset)
                    .map_or(1, |r| r.line + memchr::memchr_iter(b'\n', r.text.as_bytes()).count()),
            };
        }
        match self.line_starts.get() {
            Some(starts) => starts.partition_point(|&s| s <= offset),
            // Near the top of a file (where most findings are) counting is cheaper than an index;
            // further down, every lookup would walk the file, so the index is built once.
            None if offset <= MARK => 1 + memchr::memchr_iter(b'\n', &self.text.as_bytes()[..offset]).count(),
            None => self.line_starts().partition_point(|&s| s <= offset),
        }
    }

    /// The last island of a sparse text that starts at or before `offset`.
    fn island_before(&self, offset: usize) -> Option<&Island> {
        let s = self.sparse.as_ref()?;
        s.islands[..s.islands.partition_point(|r| r.start <= offset)].last()
    }

    /// The byte offset where 1-based `line` (which holds `offset`) starts.
    fn start_of_line(&self, line: usize, offset: usize) -> usize {
        if offset > self.text.len() {
            return match self.island(offset) {
                Some(r) => {
                    memchr::memrchr(b'\n', &r.text.as_bytes()[..offset - r.start]).map_or(r.start, |i| r.start + i + 1)
                }
                None => offset,
            };
        }
        match self.line_starts.get() {
            Some(starts) => starts[line - 1],
            None => memchr::memrchr(b'\n', &self.text.as_bytes()[..offset]).map_or(0, |i| i + 1),
        }
    }

    /// The byte range of 1-based `line`, without its line terminator.
    pub fn line_range(&self, line: usize) -> Range<usize> {
        let line_starts = self.line_starts();
        // A sparse text: a line past the head is read in the island that holds it.
        if let Some(sparse) = &self.sparse
            && line_starts.get(line.saturating_sub(1)).is_none_or(|&s| s >= self.text.len())
        {
            let i = sparse.islands.partition_point(|r| r.line <= line);
            let Some(r) = sparse.islands[..i].last() else { return sparse.len..sparse.len };
            let Some(start) = r.line_start(line - r.line) else { return sparse.len..sparse.len };
            let bytes = &r.text.as_bytes()[start - r.start..];
            let mut end = memchr::memchr(b'\n', bytes).map_or(r.end(), |n| start + n);
            if end > start && r.text.as_bytes()[end - 1 - r.start] == b'\r' {
                end -= 1;
            }
            return start..end;
        }
        let start = line_starts.get(line.saturating_sub(1)).copied().unwrap_or(self.text.len());
        let mut end = line_starts.get(line).map_or(self.text.len(), |&n| n - 1);
        if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        start..end.max(start)
    }

    /// Line and column of byte `offset` (clamped to a char boundary inside the text).
    pub fn position(&self, offset: usize) -> Position {
        let offset = self.floor_boundary(offset);
        let line = self.line_of(offset);
        let start = self.start_of_line(line, offset);
        let mut chars = if offset > self.text.len() {
            self.slice(start..offset).map_or(offset - start, |t| t.chars().count())
        } else if offset - start <= MARK {
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
        let mut o = offset.min(self.len());
        while !self.is_char_boundary(o) {
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

    /// A text of lines from pieces that matter to positions: multi-byte characters, CR LF,
    /// empty lines, a byte order mark, lines longer than [`MARK`].
    fn text_from(pieces: &[u8], bom: bool) -> String {
        let mut t = if bom { "\u{FEFF}".to_string() } else { String::new() };
        for &p in pieces {
            t.push_str(match p % 8 {
                0 => "a",
                1 => "é",
                2 => "\n",
                3 => "\r\n",
                4 => "—x",
                5 => "\n\n",
                6 => "word ",
                _ => "",
            });
            if p == 255 {
                t.push_str(&"y".repeat(MARK + 300));
            }
        }
        t
    }

    proptest::proptest! {
        /// A sparse text answers every question a finding's rendering asks (positions, lines,
        /// the text of its lines, boundaries) as the prefix of the text it stands for does.
        #[test]
        fn sparse_text_reads_like_the_prefix(
            pieces in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400),
            bom in proptest::prelude::any::<bool>(),
            raw in proptest::collection::vec((0usize..4000, 0usize..300), 0..6),
            head in 0usize..600,
        ) {
            let full = SourceText::new(text_from(&pieces, bom), true);
            let n = full.text.len();
            let spans: Vec<Range<usize>> =
                raw.iter().map(|&(a, l)| full.floor_boundary(a % (n + 1))..full.floor_boundary((a % (n + 1)) + l)).collect();
            let cut = spans.iter().map(|s| s.end.max(s.start + 1) - 1).max().map_or(0, |at| full.end_of_line_at(at));
            let mut prefix = full.clone();
            let mut sparse = full.clone();
            let shortened = prefix.shorten_to(cut);
            let dropped = sparse.keep_lines(head, cut, &spans);
            proptest::prop_assert!(dropped || !shortened);
            proptest::prop_assert_eq!(sparse.len(), prefix.len());
            proptest::prop_assert!(sparse.text.len() <= prefix.text.len());
            let head_end = match head.min(cut) {
                0 => 0,
                h => full.end_of_line_at(h - 1).min(cut),
            };
            let mut offsets: Vec<usize> = (0..=head_end).collect();
            for s in spans.iter().filter(|s| s.start < cut) {
                let from = prefix.text.as_bytes()[..s.start].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                let to = prefix.end_of_line_at(s.end.max(s.start).min(cut)).min(cut);
                offsets.extend(from..=to);
                for line in prefix.line_of(from)..=prefix.line_of(to) {
                    let r = prefix.line_range(line);
                    proptest::prop_assert_eq!(sparse.line_range(line), r.clone(), "line {}", line);
                    proptest::prop_assert_eq!(sparse.slice(r.clone()), prefix.slice(r));
                }
                let c = prefix.clamp(s);
                proptest::prop_assert_eq!(sparse.clamp(s), c.clone());
                proptest::prop_assert_eq!(sparse.slice(c.clone()), prefix.slice(c));
            }
            for o in offsets {
                proptest::prop_assert_eq!(sparse.is_char_boundary(o), prefix.text.is_char_boundary(o), "offset {}", o);
                proptest::prop_assert_eq!(sparse.floor_boundary(o), prefix.floor_boundary(o));
                proptest::prop_assert_eq!(sparse.line_of(o), prefix.line_of(o), "offset {}", o);
                proptest::prop_assert_eq!(sparse.position(o), prefix.position(o), "offset {}", o);
            }
        }
    }

    #[test]
    fn a_sparse_text_keeps_the_head_and_the_lines_findings_point_into() {
        let text: String = (1..=600).map(|i| format!("line {i} é\n")).collect();
        let mut s = SourceText::new(text.clone(), true);
        let at = text.find("line 501 ").unwrap();
        let spans = [at..at + 4, at..at + 1];
        assert!(s.keep_lines(20, text.len(), &spans));
        assert_eq!(s.text, "line 1 é\nline 2 é\n");
        assert_eq!(s.position(at + 9), Position { line: 501, column: 10 });
        assert_eq!(s.slice(s.line_range(501)), Some("line 501 é"));
        assert_eq!(s.slice(s.line_range(502)), Some(""));
        assert_eq!(s.slice(0..5), Some("line "));
        assert_eq!(s.slice(at - 5..at), None);
        assert!(!s.exact);
        // Too little to drop: the prefix, as `shorten_to` keeps it.
        let mut small = SourceText::new(text.clone(), true);
        let spans = [150..151, 150..150];
        assert!(small.keep_lines(20, 200, &spans));
        assert_eq!(small.text, text[..200]);
    }
}
