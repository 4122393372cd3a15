//! Terminal safety for lint's messages and snippets, by the one policy of [`crate::textsafe`].
//!
//! Skill names, descriptions, paths and YAML messages come from files anyone can write. In
//! human and GitHub output every control character, ANSI escape, bidirectional override and
//! invisible format character is shown escaped (`\x1b`, `\u{202e}`), so a hostile file cannot
//! move the cursor, recolour the terminal, hide text or make a line read backwards. JSON and
//! SARIF carry the exact data (their encoders escape control characters themselves).

use std::borrow::Cow;

pub use crate::textsafe::is_unsafe;
use crate::textsafe::push_escaped;

/// `s` with every unsafe character escaped ([`crate::textsafe::safe`]).
pub fn escape(s: &str) -> Cow<'_, str> {
    crate::textsafe::safe(s)
}

/// Like [`escape`], but keeps line breaks (for multi-line help text written by dsh-skills
/// around untrusted parts that were escaped already).
pub fn escape_keep_newlines(s: &str) -> String {
    crate::textsafe::safe_multiline(s)
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
        assert_eq!(escape("a\u{1b}[31mred\u{202e}x\ny\u{9b}"), "a\\x1b[31mred\\u{202e}x\\ny\\x9b");
        let safe = SafeText::new("ab\u{1b}c\r\nd");
        assert_eq!(safe.text, "ab\\x1bc\nd");
        assert_eq!(safe.map(3), 6);
        assert_eq!(safe.map(6), 8);
        // One policy: line separators and the byte order mark are escaped everywhere; joiners
        // inside emoji are not.
        assert_eq!(escape("a\u{2028}b\u{feff}"), crate::textsafe::safe("a\u{2028}b\u{feff}"));
        assert_eq!(escape("a\u{2028}b\u{feff}"), "a\\u{2028}b\\u{feff}");
        assert_eq!(escape("👩\u{200d}💻"), "👩\u{200d}💻");
    }
}
