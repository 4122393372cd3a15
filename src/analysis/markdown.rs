//! A skill body read as CommonMark (with GitHub's tables, footnotes, strikethrough and task
//! lists), by `pulldown-cmark`: where its code blocks, code spans, links, reference definitions,
//! HTML and headings are, as byte ranges of the body. The reference scanner reads what the text
//! says around them; this module only says what is what, as a Markdown renderer (and the model
//! reading the rendered structure) sees it.
//!
//! Only what the parser reports is taken: a fence line indented four spaces inside another code
//! block is code, a `[label]: target` line inside a paragraph is text, a closing fence may be
//! indented at most three spaces from its container.

use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// One line of a code block's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeLine {
    /// The line's text in the body, without a container's prefix (`> `, a list item's indent)
    /// or the line ending.
    pub range: Range<usize>,
    /// The block's language: an index into [`Structure::langs`].
    pub lang_index: usize,
}

/// A Markdown link or image written inline (`[text](target)`), or a reference definition
/// (`[label]: target`): where its destination is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Destination {
    /// The destination as written in the body (without `<` `>`).
    pub range: Range<usize>,
    /// The destination as the parser reads it (backslash escapes and entities resolved).
    pub url: String,
}

/// A fenced code block that no closing fence ends and that runs to the end of the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenFence {
    /// From the fence's first character to the end of its line.
    pub line: Range<usize>,
    /// What stands before the fence on its line, as a closing fence must be indented: a quote's
    /// `> ` kept, a list marker turned into spaces.
    pub indent: String,
}

/// What a body is made of, as byte ranges (in order of appearance).
#[derive(Debug, Default)]
pub struct Structure {
    /// Every code block, fenced or indented: from the opening fence (or first line) to the
    /// closing fence (or last line).
    pub code_blocks: Vec<Range<usize>>,
    /// The content lines of the code blocks, in order.
    pub code_lines: Vec<CodeLine>,
    /// The languages of the blocks, lowercased; `CodeLine::lang_index` points here.
    pub langs: Vec<String>,
    /// Code spans, backticks included.
    pub code_spans: Vec<Range<usize>>,
    /// Inline links and images, and reference definitions.
    pub destinations: Vec<Destination>,
    /// HTML: each line of an HTML block, and each inline tag or comment.
    pub html: Vec<Range<usize>>,
    /// Headings (ATX or setext), whole.
    pub headings: Vec<Range<usize>>,
    /// What is not prose, merged and sorted: code blocks, code spans, links, autolinks, HTML,
    /// reference definitions.
    pub not_prose: Vec<Range<usize>>,
    /// The first fenced code block that is never closed and swallows the rest of the body.
    pub unclosed_fence: Option<OpenFence>,
}

impl Structure {
    /// Whether any byte of `r` is outside prose.
    pub fn masked(&self, r: Range<usize>) -> bool {
        let i = self.not_prose.partition_point(|m| m.end <= r.start);
        self.not_prose.get(i).is_some_and(|m| m.start < r.end)
    }

    /// Whether all of `r` is inside one range that is not prose.
    pub fn covered(&self, r: Range<usize>) -> bool {
        let i = self.not_prose.partition_point(|m| m.end <= r.start);
        self.not_prose.get(i).is_some_and(|m| m.start <= r.start && m.end >= r.end)
    }
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// The code blocks of `body` (fenced and indented), whole; an unclosed fence runs to the end
/// of its container.
pub fn code_blocks(body: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(body, options()).into_offset_iter() {
        if let Event::Start(Tag::CodeBlock(_)) = event {
            out.push(range);
        }
    }
    out
}

/// A fenced block being read.
struct Block {
    range: Range<usize>,
    /// The fence character, for a fenced block.
    fence: Option<u8>,
    /// Where the contents read so far end (at first, the end of the opening line).
    content_end: usize,
}

/// A link or image being read.
struct OpenLink {
    start: usize,
    inline: bool,
    url: String,
    /// Where its text read so far ends.
    text_end: usize,
}

/// The structure of `body`.
pub fn parse(body: &str) -> Structure {
    // Room for what a typical skill body holds, so that most bodies never grow these lists.
    let mut s = Structure {
        code_lines: Vec::with_capacity(64),
        code_spans: Vec::with_capacity(32),
        html: Vec::with_capacity(16),
        headings: Vec::with_capacity(16),
        not_prose: Vec::with_capacity(64),
        ..Structure::default()
    };
    let mut block: Option<Block> = None;
    let mut links: Vec<OpenLink> = Vec::new();
    let mut iter = Parser::new_ext(body, options()).into_offset_iter();
    for (event, range) in iter.by_ref() {
        let end = range.end;
        let opens_link = matches!(event, Event::Start(Tag::Link { .. } | Tag::Image { .. }));
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let (lang, fence) = match &kind {
                    CodeBlockKind::Fenced(info) => (
                        info.split_whitespace().next().unwrap_or("").to_ascii_lowercase(),
                        body.as_bytes().get(range.start).copied(),
                    ),
                    CodeBlockKind::Indented => (String::new(), None),
                };
                s.langs.push(lang);
                let content_end = match fence {
                    Some(_) => body[range.clone()].find('\n').map_or(range.end, |n| range.start + n + 1),
                    None => range.start,
                };
                block = Some(Block { range, fence, content_end });
            }
            Event::Text(_) if block.is_some() => {
                let lang_index = s.langs.len() - 1;
                if let Some(b) = block.as_mut() {
                    b.content_end = b.content_end.max(range.end);
                }
                // Each line of the text, without its line ending (a text event holds whole lines
                // but for the last, which may lack one).
                let bytes = &body.as_bytes()[range.clone()];
                let mut at = 0;
                while at < bytes.len() {
                    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
                    let mut text_end = end;
                    while text_end > at && matches!(bytes[text_end - 1], b'\n' | b'\r') {
                        text_end -= 1;
                    }
                    s.code_lines.push(CodeLine { range: range.start + at..range.start + text_end, lang_index });
                    at = end;
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(b) = block.take() {
                    if let Some(ch) = b.fence
                        && s.unclosed_fence.is_none()
                        && body[b.range.end..].trim().is_empty()
                        // Closed: a fence after the contents (only container markers, spaces
                        // and line endings are left otherwise).
                        && !body[b.content_end.min(b.range.end)..b.range.end].bytes().any(|c| c == ch)
                    {
                        let line_start = body[..b.range.start].rfind('\n').map_or(0, |n| n + 1);
                        let line_end = body[b.range.start..].find('\n').map_or(body.len(), |n| b.range.start + n);
                        let line_end = if body[..line_end].ends_with('\r') { line_end - 1 } else { line_end };
                        let indent = body[line_start..b.range.start]
                            .chars()
                            .map(|c| if c == '>' || c == '\t' { c } else { ' ' })
                            .collect();
                        s.unclosed_fence = Some(OpenFence { line: b.range.start..line_end, indent });
                    }
                    s.not_prose.push(b.range.clone());
                    s.code_blocks.push(b.range);
                }
            }
            Event::Code(_) => {
                s.code_spans.push(range.clone());
                s.not_prose.push(range.clone());
            }
            Event::Html(_) | Event::InlineHtml(_) => {
                s.html.push(range.clone());
                s.not_prose.push(range.clone());
            }
            Event::Start(Tag::Heading { .. }) => s.headings.push(range.clone()),
            Event::Start(Tag::Link { link_type, dest_url, .. } | Tag::Image { link_type, dest_url, .. }) => {
                let bang = usize::from(body.as_bytes().get(range.start) == Some(&b'!'));
                links.push(OpenLink {
                    start: range.start,
                    inline: link_type == LinkType::Inline,
                    url: dest_url.to_string(),
                    text_end: range.start + 1 + bang,
                });
                s.not_prose.push(range.clone());
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if let Some(l) = links.pop()
                    && l.inline
                    && let Some(at) = body[l.text_end..range.end].find("](").map(|i| l.text_end + i + 2)
                    && let Some(written) = destination_at(body, at, range.end)
                {
                    debug_assert!(l.start < written.start);
                    s.destinations.push(Destination { range: written, url: l.url });
                }
            }
            _ => {}
        }
        // The text of the link being read ends here (an image inside it included).
        if !opens_link && let Some(l) = links.last_mut() {
            l.text_end = l.text_end.max(end).min(body.len());
        }
    }
    // Links close after their text: the order of appearance is that of their destinations.
    for (_, def) in iter.reference_definitions().iter() {
        let span = def.span.clone();
        s.not_prose.push(span.clone());
        if let Some(close) = label_end(&body[span.clone()])
            && let Some(written) = destination_at(body, span.start + close + 2, span.end)
        {
            s.destinations.push(Destination { range: written, url: def.dest.to_string() });
        }
    }
    s.destinations.sort_by_key(|d| d.range.start);
    s.not_prose.sort_by_key(|r| r.start);
    s.not_prose = merge(std::mem::take(&mut s.not_prose));
    s
}

/// Overlapping or nested ranges (sorted by start) merged into one.
fn merge(ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// Where the `]:` of a reference definition `[label]: target` is.
fn label_end(def: &str) -> Option<usize> {
    let b = def.as_bytes();
    let mut i = 1;
    while i + 1 < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b']' if b[i + 1] == b':' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The destination written at `at` (after `](` or `]:` and any spaces or one line ending), up
/// to `end`: `<…>` without the brackets, or the run up to a space or an unbalanced `)`.
fn destination_at(body: &str, at: usize, end: usize) -> Option<Range<usize>> {
    let b = body.as_bytes();
    let mut i = at;
    while i < end && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    if b.get(i) == Some(&b'<') {
        let mut j = i + 1;
        while j < end && b[j] != b'>' && b[j] != b'\n' {
            j += usize::from(b[j] == b'\\') + 1;
        }
        return (j < end && b[j] == b'>').then_some(i + 1..j);
    }
    let mut j = i;
    let mut depth = 0usize;
    while j < end {
        match b[j] {
            b'\\' => {
                j += 2;
                continue;
            }
            b'(' => depth += 1,
            b')' if depth == 0 => break,
            b')' => depth -= 1,
            c if c.is_ascii_whitespace() || c < 0x20 => break,
            _ => {}
        }
        j += 1;
    }
    let j = j.min(end);
    (j > i).then_some(i..j)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text<'a>(body: &'a str, r: &Range<usize>) -> &'a str {
        &body[r.clone()]
    }

    #[test]
    fn a_fence_indented_four_spaces_inside_a_block_is_code() {
        // The outer block shows a skill whose own blocks are indented: `    ```` is content.
        let body = "```markdown\n# Example\n\n    ```bash\n    run\n    ```\n```\n\nAfter.\n";
        let s = parse(body);
        assert_eq!(s.unclosed_fence, None);
        assert_eq!(s.code_blocks.len(), 1);
        let lines: Vec<&str> = s.code_lines.iter().map(|l| text(body, &l.range)).collect();
        assert_eq!(lines, ["# Example", "", "    ```bash", "    run", "    ```"]);
        assert!(!s.masked(body.find("After").unwrap()..body.len()));
    }

    #[test]
    fn code_lines_are_the_lines_of_the_parsers_code_text() {
        // CRLF, blank lines, stray carriage returns, a last line without an ending, an indented
        // block and one in a quote.
        let bodies = [
            "```sh\r\nrun a\r\n\r\nrun b\r\r\n```\n\n```\nlast",
            "para\n\n    indented\n    two\r\n\n> ```\n> quoted\n> ```\n",
            "~~~\n\n\n~~~\n```\n```\n",
        ];
        for body in bodies {
            // Each text event of a code block, cut after each `\n`, each piece without its
            // trailing line-ending characters.
            let mut expected = Vec::new();
            let mut in_code = false;
            for (event, range) in Parser::new_ext(body, options()).into_offset_iter() {
                match event {
                    Event::Start(Tag::CodeBlock(_)) => in_code = true,
                    Event::End(TagEnd::CodeBlock) => in_code = false,
                    Event::Text(_) if in_code => {
                        let mut at = range.start;
                        for line in body[range].split_inclusive('\n') {
                            let t = line.trim_end_matches(['\n', '\r']);
                            expected.push(at..at + t.len());
                            at += line.len();
                        }
                    }
                    _ => {}
                }
            }
            let got: Vec<Range<usize>> = parse(body).code_lines.into_iter().map(|l| l.range).collect();
            assert_eq!(got, expected, "{body:?}");
            assert!(!got.is_empty(), "{body:?}");
        }
    }

    #[test]
    fn unclosed_fences_are_those_that_run_to_the_end() {
        let body = "a\n```python\nx\n";
        let open = parse(body).unclosed_fence.unwrap();
        assert_eq!(text(body, &open.line), "```python");
        assert_eq!(open.indent, "");
        // In a quote or a list item: the closing fence must be indented the same way.
        let body = "> ```sh\n> x\n";
        assert_eq!(parse(body).unclosed_fence.unwrap().indent, "> ");
        let body = "- step\n\n  ```sh\n  x\n";
        let open = parse(body).unclosed_fence.unwrap();
        assert_eq!((text(body, &open.line), open.indent.as_str()), ("```sh", "  "));
        let body = "1. ```sh\n   x\n";
        assert_eq!(parse(body).unclosed_fence.unwrap().indent, "   ");
        // An empty block at the end, with or without a line ending.
        assert!(parse("```").unclosed_fence.is_some());
        assert!(parse("x\n~~~~\n").unclosed_fence.is_some());
        for closed in [
            "a\n```sh\nx\n```\nb\n",
            "a\n````md\n```\nx\n```\n````\n",
            "a\n~~~\n```\n~~~\n",
            "Use ```inline``` here.\n",
            "```\n```",
            "> ```\n> x\n> ```\n",
            "- a\n  ```\n  x\n  ```\n",
            "```\nx\n   ```\n",
            "```\r\nx\r\n```\r\n",
            // Closed by the end of its list item: the rest is not code.
            "- a\n  ```\n  x\n\nb\n",
        ] {
            assert_eq!(parse(closed).unclosed_fence, None, "{closed:?}");
        }
        // A closing fence has no info string, and is not indented four spaces.
        assert!(parse("```\nx\n```js\n").unclosed_fence.is_some());
        assert!(parse("```\nx\n    ```\n").unclosed_fence.is_some());
    }

    #[test]
    fn destinations_as_written() {
        let body = "See [a](<references/a b.md> \"t\") and [![i](x.png)](b\\_c.md) `scripts/x.py`.\n\n\
                    [def]: references/d.md \"T\"\n[^1]: Blog.\n\n[ref][def] and [x][missing], <https://x.y>.\n";
        let s = parse(body);
        let d: Vec<(&str, &str)> = s.destinations.iter().map(|d| (text(body, &d.range), d.url.as_str())).collect();
        assert_eq!(
            d,
            [
                ("references/a b.md", "references/a b.md"),
                ("x.png", "x.png"),
                ("b\\_c.md", "b_c.md"),
                ("references/d.md", "references/d.md")
            ]
        );
        assert_eq!(s.code_spans.iter().map(|r| text(body, r)).collect::<Vec<_>>(), ["`scripts/x.py`"]);
        assert!(s.masked(body.find("https").unwrap()..body.find("https").unwrap() + 1));
        assert!(!s.masked(body.find("[x]").unwrap()..body.find("[x]").unwrap() + 3));
    }

    #[test]
    fn html_headings_and_indented_code() {
        let body = "# Title\n\nText\n===\n\n<details>\n<a href=\"r.md\">x</a>\n</details>\n\n    python scripts/a.py\n\n\
                    Inline <img src=\"assets/i.png\"> here.\n";
        let s = parse(body);
        assert_eq!(s.headings.iter().map(|r| text(body, r).trim_end()).collect::<Vec<_>>(), ["# Title", "Text\n==="]);
        let html: Vec<&str> = s.html.iter().map(|r| text(body, r).trim_end()).collect();
        assert_eq!(html, ["<details>", "<a href=\"r.md\">x</a>", "</details>", "<img src=\"assets/i.png\">"]);
        let code: Vec<&str> = s.code_lines.iter().map(|l| text(body, &l.range)).collect();
        assert_eq!(code, ["python scripts/a.py"]);
        assert_eq!(s.langs, [""]);
        assert_eq!(code_blocks(body).len(), 1);
    }
}
