//! Terminal safety for text from skill files: the one policy every layer that words a message
//! follows (lint's snippets through [`crate::lint::term::SafeText`], which keeps offsets mapped).
//! Control characters, escape sequences, bidirectional controls and invisible format characters
//! are shown as visible escapes (`\x1b`, `\u{202e}`), never sent raw.

use std::borrow::Cow;

/// Characters that must never reach a terminal raw: C0 controls (tab and newline included, so
/// one value stays on one line), DEL, C1 controls; the bidirectional marks, embeddings,
/// overrides and isolates that can reorder what is shown; line and paragraph separators (some
/// terminals break the line); and invisible format characters that can hide text or make two
/// different texts look alike (soft hyphen, zero-width space, word joiner and invisible
/// operators, byte order mark, interlinear annotation marks, Mongolian vowel separator). The
/// zero-width (non-)joiners are shown as they are: they join emoji and letters of many scripts
/// and can neither move, reorder nor hide text.
pub fn is_unsafe(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'
            | '\u{200e}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
    )
}

/// The visible escape of `c` (`\n`, `\r`, `\t`, `\x1b` below U+0100, `\u{202e}` above), or `c`
/// itself when it is safe.
pub fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x100 && is_unsafe(c) => out.push_str(&format!("\\x{:02x}", c as u32)),
        c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        c => out.push(c),
    }
}

/// `s` with every unsafe character written as a visible escape (`\n`, `\t`, `\x1b`, `\u{202e}`).
pub fn safe(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// Like [`safe`] but keeps newlines (for multi-line bodies shown as text).
pub fn safe_multiline(s: &str) -> String {
    s.split('\n').map(|line| safe(line).into_owned()).collect::<Vec<_>>().join("\n")
}

/// An exact text (the catalog, a `<skill_content>` block) as a terminal may show it: every
/// unsafe character escaped as [`safe`] writes it, except the line feeds and tabs that lay the
/// text out. Borrowed when nothing needs escaping.
pub fn safe_text(s: &str) -> Cow<'_, str> {
    let keep = |c: char| c == '\n' || c == '\t';
    if !s.chars().any(|c| is_unsafe(c) && !keep(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut rest = s;
    while let Some(i) = rest.find(|c: char| is_unsafe(c) && !keep(c)) {
        out.push_str(&rest[..i]);
        let c = rest[i..].chars().next().unwrap_or_default();
        out.push_str(&safe(c.encode_utf8(&mut [0; 4])));
        rest = &rest[i + c.len_utf8()..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// What `catalog` and `show --rendered` say on stderr when the text they show on a terminal
/// differs from the exact bytes.
pub const ESCAPED_NOTE: &str = "note: control characters and escape sequences from skill files are shown escaped \
(\\x1b, \\u{202e}) because stdout is a terminal; the exact bytes are written when the output is piped or \
redirected (e.g. `| cat` or `> file`)";

/// Serialized JSON made safe for a terminal without changing what it means: DEL, C1 controls and
/// the bidirectional controls (which JSON encoders pass through raw) written as `\uXXXX`
/// escapes. They can only occur inside strings, where the escape decodes to the same character.
pub fn json_for_terminal(json: &str) -> Cow<'_, str> {
    if !json.chars().any(is_unsafe) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_unsafe(c) && !matches!(c, '\n' | '\t' | '\r') {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}
