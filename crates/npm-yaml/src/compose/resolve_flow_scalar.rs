//! `resolveFlowScalar`: the value of a plain, single-quoted or double-quoted scalar, with its
//! errors. Offsets are bytes; npm yaml's are UTF-16 units, which differ only inside non-ASCII
//! text, where none of these rules looks.

use super::resolve_end::resolve_end;
use super::{ResolvedScalar, ScalarType};
use crate::cst::SourceToken;
use crate::errors::{ErrorAt, ErrorCode, Errors, report};
use crate::jsstr::JsString;
use crate::token::Kind;

/// Resolves the flow scalar `kind` with source `src[start..end_of_source]` and trailing tokens
/// `end` (a `Node::FlowScalar`).
pub fn resolve_flow_scalar(
    src: &str,
    kind: Kind,
    source: (u32, u32),
    end: Option<&[SourceToken]>,
    strict: bool,
    errors: &mut Errors,
) -> ResolvedScalar {
    let offset = source.0;
    let text = &src[source.0 as usize..source.1 as usize];
    let mut on_error = |rel: usize, code, message: &str| {
        report(errors, ErrorAt::Offset(offset + rel as u32), code, message);
    };
    let (ty, value) = match kind {
        Kind::Scalar => (ScalarType::Plain, plain_value(text, &mut on_error)),
        Kind::SingleQuotedScalar => (ScalarType::QuoteSingle, single_quoted_value(text, &mut on_error)),
        Kind::DoubleQuotedScalar => (ScalarType::QuoteDouble, double_quoted_value(text, &mut on_error)),
        _ => {
            let message = format!("Expected a flow scalar value, but found: {}", kind.name());
            report(errors, ErrorAt::Offset(offset), ErrorCode::UnexpectedToken, message);
            let e = source.1;
            return ResolvedScalar {
                value: JsString::default(),
                ty: None,
                comment: String::new(),
                range: [offset, e, e],
            };
        }
    };
    let value_end = source.1;
    let re = resolve_end(src, end, value_end, strict, errors);
    ResolvedScalar { value, ty: Some(ty), comment: re.comment, range: [offset, value_end, re.offset] }
}

fn plain_value(source: &str, on_error: &mut impl FnMut(usize, ErrorCode, &str)) -> JsString {
    let bad = match source.as_bytes().first() {
        Some(b'\t') => "a tab character",
        Some(b',') => "flow indicator character ,",
        Some(b'%') => "directive indicator character %",
        Some(b'|') => "block scalar indicator |",
        Some(b'>') => "block scalar indicator >",
        Some(b'@') => "reserved character @",
        Some(b'`') => "reserved character `",
        _ => "",
    };
    if !bad.is_empty() {
        on_error(0, ErrorCode::BadScalarStart, &format!("Plain value cannot start with {bad}"));
    }
    JsString { text: fold_lines(source), lone: Vec::new() }
}

fn single_quoted_value(source: &str, on_error: &mut impl FnMut(usize, ErrorCode, &str)) -> JsString {
    if !source.ends_with('\'') || source.len() == 1 {
        on_error(source.len(), ErrorCode::MissingChar, "Missing closing 'quote");
    }
    // `source.slice(1, -1)`: the last UTF-16 unit goes, which leaves a lone high surrogate when
    // an unterminated scalar ends in a character outside the BMP
    let last = source.chars().next_back().filter(|_| source.len() > 1);
    let inner = match last {
        Some(ch) => &source[1..source.len() - ch.len_utf8()],
        None => "",
    };
    let mut value = JsString { text: fold_lines(inner).replace("''", "'"), lone: Vec::new() };
    if let Some(ch) = last.filter(|ch| ch.len_utf16() == 2) {
        let mut units = [0; 2];
        ch.encode_utf16(&mut units);
        value.push_code_point(u32::from(units[0]));
    }
    value
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn trim_ws_start(s: &str) -> &str {
    s.trim_start_matches([' ', '\t'])
}

fn trim_ws_end(s: &str) -> &str {
    s.trim_end_matches([' ', '\t'])
}

/// `foldLines`: line breaks between lines fold to a space, empty lines to line breaks; white
/// space around each line break goes.
fn fold_lines(source: &str) -> String {
    let Some(first_nl) = source.find('\n') else { return source.to_owned() };
    let line_text = |s: &str| -> String { trim_ws_end(s.strip_suffix('\r').unwrap_or(s)).to_owned() };
    let mut res = line_text(&source[..first_nl]);
    let mut sep = " ";
    let mut pos = first_nl + 1;
    while let Some(nl) = source[pos..].find('\n') {
        let content = line_text(trim_ws_start(&source[pos..pos + nl]));
        if content.is_empty() {
            if sep == "\n" {
                res.push_str(sep);
            } else {
                sep = "\n";
            }
        } else {
            res.push_str(sep);
            res.push_str(&content);
            sep = " ";
        }
        pos += nl + 1;
    }
    res.push_str(sep);
    res.push_str(trim_ws_start(&source[pos..]));
    res
}

/// `doubleQuotedValue`
fn double_quoted_value(source: &str, on_error: &mut impl FnMut(usize, ErrorCode, &str)) -> JsString {
    let s = source.as_bytes();
    let mut res = JsString::default();
    let at = |i: usize| s.get(i).copied();
    // the loop runs to `source.length - 1`, the last UTF-16 unit: the high surrogate of a last
    // character outside the BMP is still read
    let last = source.chars().next_back();
    let (stop, last_high) = match last {
        Some(ch) if ch.len_utf16() == 2 => (s.len() - 4, true),
        Some(ch) => (s.len() - ch.len_utf8(), false),
        None => (0, false),
    };
    let mut i = 1;
    while i < stop {
        let ch = s[i];
        if ch == b'\r' && at(i + 1) == Some(b'\n') {
            i += 1;
            continue;
        }
        if ch == b'\n' {
            // foldNewline
            let mut fold = String::new();
            let mut offset = i;
            while let Some(c @ (b' ' | b'\t' | b'\n' | b'\r')) = at(offset + 1) {
                if c == b'\r' && at(offset + 2) != Some(b'\n') {
                    break;
                }
                if c == b'\n' {
                    fold.push('\n');
                }
                offset += 1;
            }
            res.push_str(if fold.is_empty() { " " } else { &fold });
            i = offset + 1;
            continue;
        }
        if ch == b'\\' {
            i += 1;
            let next = at(i);
            if let Some(cc) = next.and_then(escape_code) {
                res.push(cc);
            } else if next == Some(b'\n') {
                // skip escaped newlines, but still trim the following line
                while at(i + 1).is_some_and(is_ws) {
                    i += 1;
                }
            } else if next == Some(b'\r') && at(i + 1) == Some(b'\n') {
                i += 1;
                while at(i + 1).is_some_and(is_ws) {
                    i += 1;
                }
            } else if let Some(n @ (b'x' | b'u' | b'U')) = next {
                let length = match n {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                i += parse_char_code(source, i + 1, length, &mut res, on_error);
            } else {
                // `source.substr(i - 1, 2)`
                let next_len = source[i..].chars().next().map_or(0, char::len_utf8);
                let raw = &source[i - 1..i + next_len];
                on_error(i - 1, ErrorCode::BadDqEscape, &format!("Invalid escape sequence {raw}"));
                res.push_str(raw);
                i += next_len.max(1) - 1;
            }
            i += 1;
            continue;
        }
        if is_ws(ch) {
            // trim trailing white space
            let ws_start = i;
            while at(i + 1).is_some_and(is_ws) {
                i += 1;
            }
            let next = at(i + 1);
            if next != Some(b'\n') && !(next == Some(b'\r') && at(i + 2) == Some(b'\n')) {
                res.push_str(&source[ws_start..=i]);
            }
            i += 1;
            continue;
        }
        // A run of characters the loop would copy one by one, in one piece: everything but
        // the bytes handled above, and single spaces or tabs between two such characters.
        let mut j = i + 1;
        while j < stop {
            match s[j] {
                b'\\' | b'\n' | b'\r' => break,
                b' ' | b'\t' if j + 1 >= stop || matches!(s[j + 1], b'\\' | b'\n' | b'\r' | b' ' | b'\t') => break,
                b' ' | b'\t' => j += 2,
                _ => j += 1,
            }
        }
        // `stop` and every byte the run stops at are character boundaries.
        let j = j.min(stop).max(i + source[i..].chars().next().map_or(1, char::len_utf8));
        res.push_str(&source[i..j]);
        i = j;
    }
    if last_high && i == stop {
        let mut units = [0; 2];
        last.expect("a last char").encode_utf16(&mut units);
        res.push_code_point(u32::from(units[0]));
    }
    if !source.ends_with('"') || source.len() == 1 {
        on_error(source.len(), ErrorCode::MissingChar, "Missing closing \"quote");
    }
    res
}

fn escape_code(c: u8) -> Option<char> {
    Some(match c {
        b'0' => '\0',
        b'a' => '\x07',
        b'b' => '\x08',
        b'e' => '\x1b',
        b'f' => '\x0c',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'v' => '\x0b',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'\t' => '\t',
        _ => return None,
    })
}

/// Byte length of the first `units` UTF-16 units of `s` (a character split by the count is
/// taken whole).
fn units_to_bytes(s: &str, units: usize) -> usize {
    let mut n = 0;
    let mut bytes = 0;
    for ch in s.chars() {
        if n >= units {
            break;
        }
        n += ch.len_utf16();
        bytes += ch.len_utf8();
    }
    bytes
}

/// `parseCharCode`: appends the escaped character (or the raw escape on an error) and returns
/// how many bytes `length` UTF-16 units after `offset` take.
fn parse_char_code(
    source: &str,
    offset: usize,
    length: usize,
    res: &mut JsString,
    on_error: &mut impl FnMut(usize, ErrorCode, &str),
) -> usize {
    let rest = &source[offset.min(source.len())..];
    let skip = units_to_bytes(rest, length);
    let cc = &rest[..skip];
    let code = if cc.len() == length && cc.bytes().all(|b| b.is_ascii_hexdigit()) {
        u32::from_str_radix(cc, 16).ok().filter(|&c| c <= 0x10FFFF)
    } else {
        None
    };
    match code {
        Some(c) => res.push_code_point(c),
        None => {
            let raw = &source[offset - 2..offset - 2 + units_to_bytes(&source[offset - 2..], length + 2)];
            on_error(offset - 2, ErrorCode::BadDqEscape, &format!("Invalid escape sequence {raw}"));
            res.push_str(raw);
        }
    }
    skip
}
