//! Property tests: the JavaScript-compatible string functions against their definitions.

use dsh_skills::engine::catalog::CatalogEntry;
use dsh_skills::engine::js::{self, JsStr, JsString};
use proptest::prelude::*;

/// The ECMAScript WhiteSpace + LineTerminator code points, written out from the spec.
const JS_WS: [u32; 25] = [
    0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
    0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF,
];

fn ws(c: char) -> bool {
    JS_WS.contains(&(c as u32))
}

/// Strings rich in whitespace lookalikes, surrogate-pair characters and markup.
fn tricky() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        " ", "\t", "\n", "\r\n", "\u{a0}", "\u{85}", "\u{180e}", "\u{200b}", "\u{2028}", "\u{3000}", "\u{feff}", "a",
        "Z", "é", "e\u{301}", "😀", "𝒳", "&", "<", ">", "\"", "'", "...", "ab cd", "\u{1f}",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn whitespace_predicate_is_the_spec_list(c in any::<char>()) {
        prop_assert_eq!(js::is_js_whitespace(c), ws(c));
    }

    #[test]
    fn trim_matches_definition(s in tricky()) {
        let t = js::trim(&s);
        prop_assert!(!t.starts_with(ws) && !t.ends_with(ws));
        prop_assert!(s.contains(t));
        let start = s.find(|c: char| !ws(c)).unwrap_or(s.len());
        prop_assert_eq!(&s[start..start + t.len()], t);
    }

    #[test]
    fn collapse_matches_replace_all_then_trim(s in tricky()) {
        // `replaceAll(/\s+/g, ' ')` then `trim()`, written the obvious way.
        let mut replaced = String::new();
        let mut in_ws = false;
        for c in s.chars() {
            if ws(c) {
                if !in_ws { replaced.push(' '); }
                in_ws = true;
            } else {
                replaced.push(c);
                in_ws = false;
            }
        }
        prop_assert_eq!(js::collapse_whitespace(&s), replaced.trim_matches(' '));
    }

    #[test]
    fn truncation_counts_utf16_units(s in tricky(), max in 3usize..60) {
        let units: Vec<u16> = s.encode_utf16().collect();
        let cut = js::truncate_utf16(&s, max);
        if units.len() <= max {
            prop_assert_eq!(&cut.0, &units);
        } else {
            prop_assert_eq!(cut.len(), max);
            prop_assert_eq!(&cut.0[..max - 3], &units[..max - 3]);
            prop_assert_eq!(&cut.0[max - 3..], &[b'.' as u16; 3]);
        }
        // Lossy output replaces only a split surrogate.
        let lossy = cut.to_string_lossy();
        prop_assert_eq!(lossy.contains('\u{fffd}'), cut.has_lone_surrogate() || s.contains('\u{fffd}'));
    }

    #[test]
    fn escape_text_round_trips(s in tricky()) {
        let e = js::escape_text(&s);
        prop_assert!(!e.contains('<') && !e.contains('>'));
        let back = e.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        prop_assert_eq!(back, s);
    }

    #[test]
    fn json_stringify_is_valid_json_for_well_formed_strings(s in tricky()) {
        let mut out = String::new();
        js::json_stringify_utf16(&JsString::encode(&s), &mut out);
        let parsed: String = serde_json::from_str(&out).unwrap();
        prop_assert_eq!(parsed, s);
    }

    #[test]
    fn catalog_entries_never_exceed_the_limit(s in tricky(), max in 3usize..80) {
        let e = CatalogEntry::new("x", &s, max);
        prop_assert!(e.description.len() <= max);
        prop_assert_eq!(e.is_cut(), e.normalized_len > max);
    }

    #[test]
    fn js_strings_keep_their_code_units(a in units(), b in units()) {
        let (x, y) = (JsStr::from_utf16(&a), JsStr::from_utf16(&b));
        prop_assert_eq!(&x.to_utf16().0, &a);
        prop_assert_eq!(x == y, a == b);
        prop_assert_eq!(x.as_str(), String::from_utf16_lossy(&a));
        let mut joined = x.clone();
        joined.push_js(&y);
        prop_assert_eq!(joined.to_utf16().0, [a.clone(), b.clone()].concat());
    }

    /// `catalogDescription` on code units, lone surrogates included: the reference collapses
    /// whitespace units (all of JavaScript's whitespace is in the BMP) and cuts the units.
    #[test]
    fn catalog_entries_keep_lone_surrogates(u in units(), max in 3usize..40) {
        let is_ws = |c: u16| JS_WS.contains(&u32::from(c));
        let mut collapsed: Vec<u16> = Vec::new();
        let mut pending = false;
        for &c in &u {
            if is_ws(c) {
                pending = true;
                continue;
            }
            if pending && !collapsed.is_empty() {
                collapsed.push(b' ' as u16);
            }
            pending = false;
            collapsed.push(c);
        }
        let want = if collapsed.len() <= max {
            collapsed.clone()
        } else {
            [&collapsed[..max - 3], &[b'.' as u16; 3][..]].concat()
        };
        let e = CatalogEntry::from_js("x", &JsStr::from_utf16(&u), max);
        prop_assert_eq!(e.description.0, want);
        prop_assert_eq!(e.normalized_len, collapsed.len());
    }
}

/// UTF-16 code units rich in lone surrogates, U+FFFD, pairs and whitespace.
fn units() -> impl Strategy<Value = Vec<u16>> {
    let unit = prop::sample::select(vec![
        0xD800u16, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00, 0xFFFD, 0x20, 0x09, 0x0A, 0xA0, 0x3000, 0xFEFF, 0x61, 0x2E,
    ]);
    prop::collection::vec(unit, 0..30)
}
