//! Terminal safety for text from skill files, used by every layer that words a message: control
//! characters, escape sequences and bidirectional controls are shown as visible escapes, never
//! sent raw. (lint's snippets use [`crate::lint::term`], which keeps offsets mapped.)

use std::borrow::Cow;

/// Characters that must never reach a terminal raw: C0 controls (tab and newline included, so
/// one value stays on one line), DEL, C1 controls, and the bidirectional overrides and isolates
/// that can reorder what is shown.
pub fn is_unsafe_char(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}')
}

/// `s` with every unsafe character written as a visible escape (`\n`, `\t`, `\x1b`, `\u{202e}`).
pub fn safe(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe_char) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x100 && is_unsafe_char(c) => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if is_unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
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
    if !s.chars().any(|c| is_unsafe_char(c) && !keep(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut rest = s;
    while let Some(i) = rest.find(|c: char| is_unsafe_char(c) && !keep(c)) {
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
    if !json.chars().any(is_unsafe_char) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_unsafe_char(c) && !matches!(c, '\n' | '\t' | '\r') {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}
