//! JavaScript string semantics the harness relies on.
//!
//! The harness measures and slices strings in UTF-16 code units, trims and collapses with the
//! ECMAScript whitespace set (which is not Rust's), and hashes `JSON.stringify` output. Every
//! function here is a port of one JavaScript built-in, named after it.

/// `true` for the 25 code points of ECMAScript *WhiteSpace* + *LineTerminator*: what `\s`,
/// `String.prototype.trim` and friends use. Unlike [`char::is_whitespace`] it includes U+FEFF
/// and excludes U+0085 (NEL) and U+180E.
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'..='\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

/// `String.prototype.trim`.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// `value.replaceAll(/\s+/g, ' ').trim()`: the catalog's description normalization.
/// Runs of ASCII are copied in one piece; only non-ASCII characters are decoded.
pub fn collapse_whitespace(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut pending = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (is_ws, len) = if b < 0x80 {
            (matches!(b, b'\t'..=b'\r' | b' '), 1)
        } else {
            let c = s[i..].chars().next().unwrap_or(' ');
            (is_js_whitespace(c), c.len_utf8())
        };
        if is_ws {
            pending = true;
            i += len;
            continue;
        }
        if pending && !out.is_empty() {
            out.push(' ');
        }
        pending = false;
        let start = i;
        i += len;
        while i < bytes.len() && bytes[i] < 0x80 && !matches!(bytes[i], b'\t'..=b'\r' | b' ') {
            i += 1;
        }
        out.push_str(&s[start..i]);
    }
    out
}

/// A string as JavaScript holds it: UTF-16 code units, possibly with lone surrogates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsString(pub Vec<u16>);

impl JsString {
    pub fn encode(s: &str) -> Self {
        JsString(s.encode_utf16().collect())
    }

    /// `length`: UTF-16 code units.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What Node writes when it encodes the string as UTF-8: lone surrogates become U+FFFD.
    pub fn to_string_lossy(&self) -> String {
        String::from_utf16_lossy(&self.0)
    }

    /// `true` when the string holds a lone surrogate (so [`Self::to_string_lossy`] loses data).
    pub fn has_lone_surrogate(&self) -> bool {
        char::decode_utf16(self.0.iter().copied()).any(|r| r.is_err())
    }
}

/// The surrogate code unit `c` stands for when the 2,048 chars from `base` stand for
/// U+D800..U+DFFF (how the YAML layer carries lone surrogates in Rust strings, see `yaml::parse`).
pub fn stand_in_unit(c: char, base: u32) -> Option<u16> {
    (c as u32).checked_sub(base).filter(|&d| d < 0x800).map(|d| 0xD800 + d as u16)
}

/// A JavaScript string held as Rust text, for values that come out of YAML.
///
/// `text` is what Node writes when it encodes the string as UTF-8: each lone surrogate is
/// U+FFFD. Only when the string holds a lone surrogate (a `"\ud800"` escape in a double-quoted
/// scalar) is `lone` set: for each U+FFFD of `text`, in order, the code unit it stands for (a lone
/// surrogate, or U+FFFD itself). So equality and hashing are JavaScript's (`"\ud800"` and
/// `"\ud801"` are two keys, `"\ud800"` and `"\ufffd"` too), the exact code units can be
/// recovered ([`Self::to_utf16`], for `JSON.stringify`), and everything that only reads the text
/// sees what the harness writes.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct JsStr {
    text: String,
    lone: Option<Box<[u16]>>,
}

impl JsStr {
    /// A string without lone surrogates.
    pub fn new(text: String) -> Self {
        JsStr { text, lone: None }
    }

    /// From UTF-16 code units, lone surrogates kept.
    pub fn from_utf16(units: &[u16]) -> Self {
        let mut text = String::with_capacity(units.len());
        let mut lone = Vec::new();
        let mut any = false;
        for r in char::decode_utf16(units.iter().copied()) {
            match r {
                Ok(c) => {
                    if c == '\u{FFFD}' {
                        lone.push(0xFFFD);
                    }
                    text.push(c);
                }
                Err(e) => {
                    any = true;
                    lone.push(e.unpaired_surrogate());
                    text.push('\u{FFFD}');
                }
            }
        }
        JsStr { text, lone: any.then(|| lone.into_boxed_slice()) }
    }

    /// The exact code units.
    pub fn to_utf16(&self) -> JsString {
        let Some(lone) = &self.lone else { return JsString::encode(&self.text) };
        let mut out = Vec::with_capacity(self.text.len());
        let mut next = lone.iter();
        for c in self.text.chars() {
            if c == '\u{FFFD}' {
                out.push(next.next().copied().unwrap_or(0xFFFD));
            } else {
                let mut buf = [0u16; 2];
                out.extend_from_slice(c.encode_utf16(&mut buf));
            }
        }
        JsString(out)
    }

    /// The text as Node writes it as UTF-8 (lone surrogates as U+FFFD).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// [`Self::as_str`], owned.
    pub fn into_string(self) -> String {
        self.text
    }

    /// `true` when the string holds a lone surrogate.
    pub fn has_lone_surrogate(&self) -> bool {
        self.lone.is_some()
    }

    /// The string `f` makes of this one's text, where `f` only adds, removes or replaces
    /// whitespace (`replaceAll(/\s+/g, ' ')`, `trim()`): the lone surrogates stay where they were
    /// among the other characters. (If `f` changed the number of U+FFFD, they are U+FFFD.)
    pub fn map_whitespace(&self, f: impl FnOnce(&str) -> String) -> JsStr {
        let text = f(&self.text);
        match &self.lone {
            Some(lone) if text.matches('\u{FFFD}').count() == lone.len() => JsStr { text, lone: Some(lone.clone()) },
            _ => JsStr::new(text),
        }
    }

    /// JavaScript's `this + other`: a lone high surrogate at the end of `self` and a lone low one
    /// at the start of `other` become one character.
    pub fn push_js(&mut self, other: &JsStr) {
        if self.lone.is_none() && other.lone.is_none() {
            self.text.push_str(&other.text);
            return;
        }
        let mut units = self.to_utf16().0;
        units.extend_from_slice(&other.to_utf16().0);
        *self = JsStr::from_utf16(&units);
    }

    /// The string from text in which the 2,048 chars from `base` stand for the surrogate code
    /// units U+D800..U+DFFF (how the YAML layer carries them, see `yaml::parse`).
    pub fn from_stand_ins(s: String, base: u32) -> Self {
        if !s.chars().any(|c| stand_in_unit(c, base).is_some()) {
            return JsStr::new(s);
        }
        let mut text = String::with_capacity(s.len());
        let mut lone = Vec::new();
        for c in s.chars() {
            if let Some(unit) = stand_in_unit(c, base) {
                lone.push(unit);
                text.push('\u{FFFD}');
            } else {
                if c == '\u{FFFD}' {
                    lone.push(0xFFFD);
                }
                text.push(c);
            }
        }
        JsStr { text, lone: Some(lone.into_boxed_slice()) }
    }
}

impl std::ops::Deref for JsStr {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl AsRef<str> for JsStr {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl From<String> for JsStr {
    fn from(text: String) -> Self {
        JsStr::new(text)
    }
}

impl From<&str> for JsStr {
    fn from(text: &str) -> Self {
        JsStr::new(text.to_string())
    }
}

impl From<JsStr> for String {
    fn from(s: JsStr) -> String {
        s.text
    }
}

/// A Rust string holds no lone surrogate, so it equals only a [`JsStr`] without one.
impl PartialEq<str> for JsStr {
    fn eq(&self, other: &str) -> bool {
        self.lone.is_none() && self.text == other
    }
}

impl PartialEq<&str> for JsStr {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for JsStr {
    fn eq(&self, other: &String) -> bool {
        *self == **other
    }
}

impl std::fmt::Display for JsStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::fmt::Debug for JsStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.lone {
            None => std::fmt::Debug::fmt(&self.text, f),
            Some(_) => {
                let mut s = String::new();
                json_stringify_utf16(&self.to_utf16(), &mut s);
                write!(f, "JsStr({s})")
            }
        }
    }
}

/// `normalized.length <= max ? normalized : normalized.slice(0, max - 3) + "..."`, counted in
/// UTF-16 code units. The cut may split a surrogate pair, exactly as in the harness.
/// `max` must be at least 3 (the harness rejects smaller limits).
/// The length [`truncate_utf16`] gives a string of `len` units.
pub fn truncated_utf16_len(len: usize, max: usize) -> usize {
    if len <= max { len } else { max.saturating_sub(3) + 3 }
}

pub fn truncate_utf16(s: &str, max: usize) -> JsString {
    truncate_units(JsString::encode(s), max)
}

/// [`truncate_utf16`] on code units.
pub fn truncate_units(units: JsString, max: usize) -> JsString {
    if units.len() <= max {
        return units;
    }
    let keep = max.saturating_sub(3);
    let mut cut = units.0[..keep].to_vec();
    cut.extend_from_slice(&[b'.' as u16; 3]);
    JsString(cut)
}

/// The harness's `escapeText`: `&`, then `<`, then `>`. Quotes are left alone.
pub fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}

/// The harness's `escapeAttr`: `&`, `"` and `<`; `>` is not escaped.
pub fn escape_attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            _ => out.push(c),
        }
    }
    out
}

/// `JSON.stringify(string)` for a UTF-16 string, including the well-formed-stringify rule that
/// writes lone surrogates as lowercase `\udxxx` escapes.
pub fn json_stringify_utf16(s: &JsString, out: &mut String) {
    out.push('"');
    for unit in char::decode_utf16(s.0.iter().copied()) {
        match unit {
            Ok(c) => push_json_char(c, out),
            Err(lone) => {
                out.push_str(&format!("\\u{:04x}", lone.unpaired_surrogate()));
            }
        }
    }
    out.push('"');
}

fn push_json_char(c: char, out: &mut String) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\u{08}' => out.push_str("\\b"),
        '\u{0C}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
        c => out.push(c),
    }
}

/// The skill-name rule `/^[a-z0-9]+(?:-[a-z0-9]+)*$/` (no flags: `$` is the true end).
pub fn is_skill_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .split('-')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// `a < b` on JavaScript strings: UTF-16 code-unit order (what the harness calls
/// `compareCodePoints`). For the names that reach it (`[a-z0-9-]`) this is byte order.
pub fn compare_code_units(a: &str, b: &str) -> std::cmp::Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_set_is_javascripts() {
        let js: Vec<u32> =
            (0..=0x10FFFFu32).filter_map(char::from_u32).filter(|&c| is_js_whitespace(c)).map(|c| c as u32).collect();
        assert_eq!(js.len(), 25);
        assert!(is_js_whitespace('\u{FEFF}'));
        assert!(!is_js_whitespace('\u{0085}'));
        assert!(!is_js_whitespace('\u{180E}'));
        assert!(!is_js_whitespace('\u{200B}'));
        assert!(!is_js_whitespace('\u{001C}'));
        // Rust disagrees on exactly these two.
        assert!('\u{0085}'.is_whitespace() && !'\u{FEFF}'.is_whitespace());
    }

    #[test]
    fn trim_and_collapse() {
        assert_eq!(trim("\u{FEFF}\u{3000} body \u{2028}"), "body");
        assert_eq!(trim("\u{0085}x\u{0085}"), "\u{0085}x\u{0085}");
        assert_eq!(collapse_whitespace("Line1\n  Line2\t\tEnd \u{a0}\u{feff}"), "Line1 Line2 End");
        assert_eq!(collapse_whitespace("   "), "");
        assert_eq!(collapse_whitespace("a\u{200B}b\u{85}c"), "a\u{200B}b\u{85}c");
        assert_eq!(collapse_whitespace(&"Long   description ".repeat(5)).len(), 84);
    }

    #[test]
    fn utf16_truncation() {
        let long = collapse_whitespace(&"Long   description ".repeat(5));
        assert_eq!(truncate_utf16(&long, 50).to_string_lossy(), "Long description Long description Long descript...");
        assert_eq!(truncate_utf16("😀😀😀abc", 10).to_string_lossy(), "😀😀😀abc");
        let cut = truncate_utf16("😀😀😀😀😀😀", 10);
        assert_eq!(cut.len(), 10);
        assert!(cut.has_lone_surrogate());
        assert_eq!(cut.to_string_lossy(), "😀😀😀\u{FFFD}...");
        let mut json = String::new();
        json_stringify_utf16(&cut, &mut json);
        assert_eq!(json, "\"😀😀😀\\ud83d...\"");
        assert_eq!(truncate_utf16("abcd", 3).to_string_lossy(), "...");
        assert_eq!(truncate_utf16("abc", 3).to_string_lossy(), "abc");
        // BMP characters count one each, combining marks separately.
        assert_eq!(truncate_utf16("e\u{301}e\u{301}e\u{301}", 5).to_string_lossy(), "e\u{301}...");
    }

    #[test]
    fn escaping() {
        assert_eq!(escape_text("a & <b> \"c\" 'd' &amp;"), "a &amp; &lt;b&gt; \"c\" 'd' &amp;amp;");
        assert_eq!(escape_attr("x\"&<y>"), "x&quot;&amp;&lt;y>");
    }

    #[test]
    fn json_stringify_matches_javascript() {
        let mut out = String::new();
        json_stringify_utf16(&JsString::encode("a\"\\\u{8}\u{c}\n\r\t\u{1}\u{1f}\u{7f}é\u{2028}"), &mut out);
        assert_eq!(out, "\"a\\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001f\u{7f}é\u{2028}\"");
    }

    #[test]
    fn skill_names() {
        for ok in ["a", "a-b", "a0", "0", "abc-123-x"] {
            assert!(is_skill_name(ok), "{ok}");
        }
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", "foo\n", "é", "a b"] {
            assert!(!is_skill_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn code_unit_order() {
        let mut names = vec!["ab", "a0", "a-b"];
        names.sort_by(|a, b| compare_code_units(a, b));
        assert_eq!(names, ["a-b", "a0", "ab"]);
        // Astral characters sort by their surrogates, below U+E000..U+FFFF.
        assert_eq!(compare_code_units("\u{1F600}", "\u{FF00}"), std::cmp::Ordering::Less);
    }
}
