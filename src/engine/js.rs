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

/// Whether [`collapse_whitespace`] leaves `s` as it is (most descriptions): its white space is
/// single spaces between other characters.
fn is_collapsed(s: &str) -> bool {
    let bytes = s.as_bytes();
    // A space here would be leading (at the start) or the second of a run.
    let mut after_space = true;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b' ' if after_space => return false,
            b' ' => after_space = true,
            b'\t'..=b'\r' => return false,
            b if b < 0x80 => after_space = false,
            // A lead byte: the one character that may be white space outside ASCII.
            b if b >= 0xC0 => {
                if s[i..].chars().next().is_some_and(is_js_whitespace) {
                    return false;
                }
                after_space = false;
            }
            _ => {}
        }
        i += 1;
    }
    !after_space || bytes.is_empty()
}

/// `value.replaceAll(/\s+/g, ' ').trim()`: the catalog's description normalization.
/// Runs of ASCII are copied in one piece; only non-ASCII characters are decoded.
pub fn collapse_whitespace(s: &str) -> String {
    if is_collapsed(s) {
        return s.to_owned();
    }
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

/// JavaScript strings, as the YAML crate hands them out (lone surrogates kept).
pub use npm_yaml::js::{JsStr, JsString, json_stringify_utf16};

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
    // UTF-8 byte order is code point order, which is code-unit order unless the first
    // difference is between two characters past U+007F (a character past U+FFFF is two
    // surrogates, below U+E000). Where the bytes first differ, both strings are at the start of
    // a character (their equal prefix decodes alike), so an ASCII byte on either side decides.
    let (x, y) = (a.as_bytes(), b.as_bytes());
    match x.iter().zip(y).position(|(p, q)| p != q) {
        None => x.len().cmp(&y.len()),
        Some(at) if x[at] < 0x80 || y[at] < 0x80 => x[at].cmp(&y[at]),
        Some(_) => a.encode_utf16().cmp(b.encode_utf16()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-order shortcut agrees with UTF-16 order, on every pair of short strings made of
    /// characters around the places where the orders part.
    #[test]
    fn code_unit_order_is_utf16s() {
        let chars = [
            'a',
            'z',
            '\u{7f}',
            '\u{80}',
            '\u{7ff}',
            '\u{800}',
            '\u{d7ff}',
            '\u{e000}',
            '\u{ffff}',
            '\u{10000}',
            '\u{10ffff}',
        ];
        let mut strings = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> =
                strings.iter().flat_map(|s| chars.iter().map(move |c| format!("{s}{c}"))).collect();
            strings.extend(longer);
            strings.dedup();
        }
        for a in &strings {
            for b in &strings {
                assert_eq!(compare_code_units(a, b), a.encode_utf16().cmp(b.encode_utf16()), "{a:?} {b:?}");
            }
        }
    }

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
        // The texts it leaves as they are, and the ones next to them that it changes.
        for (text, collapsed) in [
            ("", ""),
            ("a", "a"),
            ("a b", "a b"),
            ("café — “x” 東京", "café — “x” 東京"),
            (" a", "a"),
            ("a ", "a"),
            ("a  b", "a b"),
            ("a\tb", "a b"),
            ("a\u{a0}b", "a b"),
            ("a \u{3000}b", "a b"),
            ("a\u{feff}", "a"),
            ("\u{2028}", ""),
        ] {
            assert_eq!(collapse_whitespace(text), collapsed, "{text:?}");
        }
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
