//! Terminal safety for lint's messages and snippets.
//!
//! Skill names, descriptions, paths and YAML messages come from files anyone can write. In
//! human and GitHub output every control character, ANSI escape, bidirectional override and
//! invisible format character is shown escaped (`\u{1b}`), so a hostile file cannot move the
//! cursor, recolour the terminal, hide text or make a line read backwards. JSON and SARIF carry
//! the exact data (their encoders escape control characters themselves).

use std::borrow::Cow;

/// Characters shown escaped: C0 and C1 controls, DEL, bidirectional controls, zero-width and
/// other invisible format characters, line and paragraph separators.
pub fn is_unsafe(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
    )
}

/// `s` with every unsafe character written as `\n`, `\t`, `\r` or `\u{…}`.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// Like [`escape`], but keeps line breaks (for multi-line help text written by dsh-skills
/// around untrusted parts that were escaped already).
pub fn escape_keep_newlines(s: &str) -> String {
    s.split('\n').map(|l| escape(l).into_owned()).collect::<Vec<_>>().join("\n")
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        c => out.push(c),
    }
}

/// A source excerpt made safe for a terminal, with a map from offsets in the original to
/// offsets in the safe text (so highlighted spans still line up). Tabs are kept: the snippet
/// renderer expands them itself.
pub struct SafeText {
    pub text: String,
    /// `map[i]` is the offset in `text` of original byte `i` (`map.len() == original.len() + 1`).
    map: Vec<usize>,
}

impl SafeText {
    pub fn new(original: &str) -> SafeText {
        let mut text = String::with_capacity(original.len());
        let mut map = Vec::with_capacity(original.len() + 1);
        let mut chars = original.chars().peekable();
        while let Some(c) = chars.next() {
            let at = text.len();
            for _ in 0..c.len_utf8() {
                map.push(at);
            }
            match c {
                '\n' | '\t' => text.push(c),
                // A carriage return before a line feed is not shown at all.
                '\r' if chars.peek() == Some(&'\n') => {}
                c if is_unsafe(c) => push_escaped(&mut text, c),
                c => text.push(c),
            }
        }
        map.push(text.len());
        SafeText { text, map }
    }

    pub fn map(&self, offset: usize) -> usize {
        self.map.get(offset).copied().unwrap_or(self.text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_hostile_text() {
        assert_eq!(escape("plain é 😀"), "plain é 😀");
        assert_eq!(escape("a\u{1b}[31mred\u{202e}x\ny\u{9b}"), "a\\u{1b}[31mred\\u{202e}x\\ny\\u{9b}");
        let safe = SafeText::new("ab\u{1b}c\r\nd");
        assert_eq!(safe.text, "ab\\u{1b}c\nd");
        assert_eq!(safe.map(3), 8);
        assert_eq!(safe.map(6), 10);
    }
}
