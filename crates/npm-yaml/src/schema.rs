//! YAML 1.2 core schema resolution as done by npm `yaml` 2.9.0
//! (`dist/schema/core/*.js`, `dist/schema/common/*.js`) plus the
//! "known tags" it resolves even under core (`binary`, `omap`, `pairs`,
//! `set`, `timestamp`, `merge`).

use crate::js::JsStr;
use crate::js::number::{parse_decimal_int, parse_float, parse_pow2_radix};
use crate::js::value::date_utc;

pub const YAML_PREFIX: &str = "tag:yaml.org,2002:";

/// The schema npm yaml composes a document with. `Document`'s constructor takes the version
/// of an explicit `%YAML` directive (the last `1.1`/`1.2` one; other versions leave the
/// default) and `setSchema` maps `1.1` to the `yaml-1.1` schema with `resolveKnownTags: false`,
/// `1.2` to `core`. Decided once per text, in `errmap::prescan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SchemaKind {
    #[default]
    Core,
    /// `%YAML 1.1` (`schema/yaml-1.1/`, see `schema11.rs`)
    Yaml11,
}

impl SchemaKind {
    /// Resolve a plain scalar (`at_key`: it is a mapping key).
    #[inline]
    pub fn resolve_plain(self, s: &str, at_key: bool) -> Scalar {
        match self {
            SchemaKind::Core => resolve_plain(s),
            SchemaKind::Yaml11 => crate::schema11::resolve_plain(s, at_key),
        }
    }

    /// Resolve an explicitly tagged scalar.
    pub fn resolve_tagged_scalar(self, tag_name: &str, s: &str) -> TagResolution {
        match self {
            SchemaKind::Core => resolve_tagged_scalar(tag_name, s),
            SchemaKind::Yaml11 => crate::schema11::resolve_tagged_scalar(tag_name, s),
        }
    }

    /// The bool tags' `test` (used when stringifying a bool from its source).
    pub fn test_bool(self, s: &str) -> Option<bool> {
        match self {
            SchemaKind::Core => test_bool(s),
            SchemaKind::Yaml11 => crate::schema11::test_bool(s),
        }
    }

    /// Whether a known collection tag that does not fit the collection is reported as
    /// `<tag> used for <type> collection, but expects <type>` (core: the tag comes from
    /// `knownTags`) rather than `Unresolved tag: <tag>` (yaml-1.1 has no known tags).
    pub fn resolves_known_tags(self) -> bool {
        self == SchemaKind::Core
    }

    /// `isMergeKey`'s second case: under a schema with a default `merge` tag, a plain
    /// scalar key whose value is the string `<<` (`!!str <<`, `!foo <<`) also merges.
    pub fn merges_plain_string_key(self) -> bool {
        self == SchemaKind::Yaml11
    }
}

/// A resolved scalar value (before JS conversion).
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    Null,
    Bool(bool),
    Number(f64),
    Str(JsStr),
    Date(f64),
    Buffer(Vec<u8>),
    /// `!!merge` key (a unique JS Symbol in npm yaml).
    Merge,
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn strip_sign(s: &str) -> &str {
    s.strip_prefix(['-', '+']).unwrap_or(s)
}

/// `/^(?:~|[Nn]ull|NULL)?$/`
pub fn test_null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

/// `/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/`
pub fn test_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// `/^0o[0-7]+$/`
fn test_oct(s: &str) -> bool {
    s.strip_prefix("0o").is_some_and(|r| !r.is_empty() && r.bytes().all(|b| (b'0'..=b'7').contains(&b)))
}

/// `/^[-+]?[0-9]+$/`
fn test_int(s: &str) -> bool {
    is_digits(strip_sign(s))
}

/// `/^0x[0-9a-fA-F]+$/`
fn test_hex(s: &str) -> bool {
    s.strip_prefix("0x").is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/`
fn test_float_nan(s: &str) -> Option<f64> {
    match s {
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    let (neg, r) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    match r {
        ".inf" | ".Inf" | ".INF" => Some(if neg { f64::NEG_INFINITY } else { f64::INFINITY }),
        _ => None,
    }
}

/// Mantissa part `(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)`
fn is_mantissa(m: &str) -> bool {
    if let Some(frac) = m.strip_prefix('.') {
        return is_digits(frac);
    }
    match m.split_once('.') {
        Some((a, b)) => is_digits(a) && (b.is_empty() || is_digits(b)),
        None => is_digits(m),
    }
}

/// `/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/`
fn test_float_exp(s: &str) -> bool {
    let r = strip_sign(s);
    match r.find(['e', 'E']) {
        Some(i) => is_mantissa(&r[..i]) && test_int(&r[i + 1..]),
        None => false,
    }
}

/// `/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/`
fn test_float(s: &str) -> bool {
    let r = strip_sign(s);
    if let Some(frac) = r.strip_prefix('.') {
        return is_digits(frac);
    }
    match r.split_once('.') {
        Some((a, b)) => is_digits(a) && (b.is_empty() || is_digits(b)),
        None => false,
    }
}

/// Resolve a plain scalar by the core schema's default tags in order:
/// null, bool, intOct, int, intHex, floatNaN, floatExp, float, else string.
/// Whether a plain scalar is a string under the core schema by its first character alone
/// (every other core-schema match starts with one of `~nNtTfF.+-` or a digit).
pub fn core_plain_is_string(s: &str) -> bool {
    !matches!(
        s.as_bytes().first(),
        None | Some(b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'.' | b'+' | b'-' | b'0'..=b'9')
    )
}

pub fn resolve_plain(s: &str) -> Scalar {
    // fast path
    if s.is_empty() {
        return Scalar::Null;
    }
    if core_plain_is_string(s) {
        return Scalar::Str(s.into());
    }
    if s.len() > 64 {
        // No core regex can match something this long except digit strings.
        let r = strip_sign(s);
        if !r.bytes().all(|b| b.is_ascii_hexdigit() || matches!(b, b'.' | b'e' | b'E' | b'x' | b'o' | b'-' | b'+')) {
            return Scalar::Str(s.into());
        }
    }
    if test_null(s) {
        return Scalar::Null;
    }
    if let Some(b) = test_bool(s) {
        return Scalar::Bool(b);
    }
    if let Some(v) = number_by_test(s) {
        return Scalar::Number(v);
    }
    Scalar::Str(s.into())
}

/// Numeric core tags (int*, float*) by test.
fn number_by_test(s: &str) -> Option<f64> {
    if test_oct(s) {
        return Some(parse_pow2_radix(&s[2..], 8));
    }
    if test_int(s) {
        return Some(parse_decimal_int(s));
    }
    if test_hex(s) {
        return Some(parse_pow2_radix(&s[2..], 16));
    }
    if let Some(v) = test_float_nan(s) {
        return Some(v);
    }
    if test_float_exp(s) || test_float(s) {
        return Some(parse_float(s));
    }
    None
}

/// Outcome of resolving an explicitly tagged scalar.
pub enum TagResolution {
    Ok(Scalar),
    /// Warning `Unresolved tag: <name>`, value falls back to the string.
    Unresolved,
    /// Error from the tag's resolve function (message), value is the string.
    Failed(String),
}

/// `findScalarTagByName` + `tag.resolve` for a scalar with tag `tag_name`
/// (already expanded, e.g. `tag:yaml.org,2002:int` or `!foo`).
pub fn resolve_tagged_scalar(tag_name: &str, s: &str) -> TagResolution {
    if tag_name == "!" {
        return TagResolution::Ok(Scalar::Str(s.into()));
    }
    let Some(short) = tag_name.strip_prefix(YAML_PREFIX) else {
        return TagResolution::Unresolved;
    };
    match short {
        "str" => TagResolution::Ok(Scalar::Str(s.into())),
        "null" => {
            if test_null(s) {
                TagResolution::Ok(Scalar::Null)
            } else {
                TagResolution::Unresolved
            }
        }
        "bool" => match test_bool(s) {
            Some(b) => TagResolution::Ok(Scalar::Bool(b)),
            None => TagResolution::Unresolved,
        },
        "int" => {
            if test_oct(s) {
                TagResolution::Ok(Scalar::Number(parse_pow2_radix(&s[2..], 8)))
            } else if test_int(s) {
                TagResolution::Ok(Scalar::Number(parse_decimal_int(s)))
            } else if test_hex(s) {
                TagResolution::Ok(Scalar::Number(parse_pow2_radix(&s[2..], 16)))
            } else {
                TagResolution::Unresolved
            }
        }
        "float" => {
            if let Some(v) = test_float_nan(s) {
                TagResolution::Ok(Scalar::Number(v))
            } else if test_float_exp(s) || test_float(s) {
                TagResolution::Ok(Scalar::Number(parse_float(s)))
            } else {
                TagResolution::Unresolved
            }
        }
        "binary" => TagResolution::Ok(Scalar::Buffer(node_base64_decode(s))),
        "timestamp" => match parse_timestamp(s) {
            Some(t) => TagResolution::Ok(Scalar::Date(t)),
            None => TagResolution::Failed("!!timestamp expects a date, starting with yyyy-mm-dd".into()),
        },
        "merge" => TagResolution::Ok(Scalar::Merge),
        _ => TagResolution::Unresolved,
    }
}

/// Node's `Buffer.from(str, 'base64')` (lenient legacy decoder).
pub fn node_base64_decode(s: &str) -> Vec<u8> {
    fn val(c: char) -> Option<u32> {
        Some(match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '+' | '-' => 62,
            '/' | '_' => 63,
            _ => return None,
        })
    }
    // size estimate from the raw length (in UTF-16 units, as Node sees the string)
    let units: Vec<u16> = s.encode_utf16().collect();
    let mut size = units.len();
    let estimate = if size < 2 {
        0
    } else {
        if units[size - 1] == b'=' as u16 {
            size -= 1;
            if units[size - 1] == b'=' as u16 {
                size -= 1;
            }
        }
        let rem = size % 4;
        size / 4 * 3 + if rem == 0 { 0 } else { rem.saturating_sub(1) }
    };
    let mut out = Vec::with_capacity(estimate);
    let mut acc: u32 = 0;
    let mut n = 0;
    for c in s.chars() {
        if c == '=' {
            break;
        }
        let Some(v) = val(c) else { continue };
        acc = (acc << 6) | v;
        n += 1;
        if n == 4 {
            out.push((acc >> 16) as u8);
            out.push((acc >> 8) as u8);
            out.push(acc as u8);
            acc = 0;
            n = 0;
        }
    }
    match n {
        2 => out.push((acc >> 4) as u8),
        3 => {
            out.push((acc >> 10) as u8);
            out.push((acc >> 2) as u8);
        }
        _ => {}
    }
    out.truncate(estimate);
    out
}

/// Consume 1..=max ASCII digits.
fn take_digits(b: &[u8], i: &mut usize, min: usize, max: usize) -> Option<(usize, usize)> {
    let st = *i;
    while *i < b.len() && *i - st < max && b[*i].is_ascii_digit() {
        *i += 1;
    }
    if *i - st < min { None } else { Some((st, *i)) }
}

fn num(b: &[u8], r: (usize, usize)) -> f64 {
    std::str::from_utf8(&b[r.0..r.1]).ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(f64::NAN)
}

/// `!!timestamp` resolve: the yaml-1.1 timestamp regex + Date.UTC arithmetic.
pub fn parse_timestamp(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    let year = take_digits(b, &mut i, 4, 4)?;
    if b.get(i) != Some(&b'-') {
        return None;
    }
    i += 1;
    let month = take_digits(b, &mut i, 1, 2)?;
    if b.get(i) != Some(&b'-') {
        return None;
    }
    i += 1;
    let day = take_digits(b, &mut i, 1, 2)?;
    let (mut hour, mut minute, mut second, mut millis) = (0.0, 0.0, 0.0, 0.0);
    let mut tz_minutes: Option<f64> = None;
    if i < b.len() {
        // (?:t|T|[ \t]+)
        match b[i] {
            b't' | b'T' => i += 1,
            b' ' | b'\t' => {
                while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                    i += 1;
                }
            }
            _ => return None,
        }
        let h = take_digits(b, &mut i, 1, 2)?;
        if b.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        let mi = take_digits(b, &mut i, 1, 2)?;
        if b.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        let se = take_digits(b, &mut i, 1, 2)?;
        let mut frac: Option<(usize, usize)> = None;
        if b.get(i) == Some(&b'.') {
            let st = i;
            i += 1;
            let ds = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i == ds {
                return None;
            }
            frac = Some((st, i));
        }
        hour = num(b, h);
        minute = num(b, mi);
        second = num(b, se); // Number("05.123") truncates later in MakeTime
        if let Some((st, en)) = frac {
            // Number((match[7] + '00').substr(1, 3))
            let mut f: String = String::from_utf8_lossy(&b[st..en]).into_owned();
            f.push_str("00");
            let d: String = f.chars().skip(1).take(3).collect();
            millis = d.parse::<f64>().unwrap_or(0.0);
        }
        // (?:[ \t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?
        let mut j = i;
        while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        if j < b.len() {
            if b[j] == b'Z' {
                j += 1;
                i = j;
            } else if b[j] == b'-' || b[j] == b'+' {
                let neg = b[j] == b'-';
                j += 1;
                // [012]?[0-9]
                let st = j;
                if j + 1 < b.len() && matches!(b[j], b'0'..=b'2') && b[j + 1].is_ascii_digit() {
                    j += 2;
                } else if j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                } else {
                    return None;
                }
                let hh = num(b, (st, j));
                let mut total = hh;
                if b.get(j) == Some(&b':') {
                    let mm = take_digits(b, &mut { j + 1 }, 2, 2);
                    if let Some(mm) = mm
                        && mm.1 == j + 3
                    {
                        total = hh * 60.0 + num(b, mm);
                        j += 3;
                    }
                }
                let mut d = if neg { -total } else { total };
                if d.abs() < 30.0 {
                    d *= 60.0;
                }
                tz_minutes = Some(d);
                i = j;
            }
        }
        if i != b.len() {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    let mut date = date_utc(num(b, year), num(b, month) - 1.0, num(b, day), hour, minute, second, millis);
    if let Some(d) = tz_minutes {
        date -= 60000.0 * d;
    }
    // new Date(date) applies TimeClip again
    if !date.is_finite() || date.abs() > 8.64e15 {
        return Some(f64::NAN);
    }
    Some(date.trunc() + 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain() {
        assert_eq!(resolve_plain("017"), Scalar::Number(17.0));
        assert_eq!(resolve_plain("0o17"), Scalar::Number(15.0));
        assert_eq!(resolve_plain("0x1F"), Scalar::Number(31.0));
        assert_eq!(resolve_plain("-0x1F"), Scalar::Str("-0x1F".into()));
        assert_eq!(resolve_plain("1_000"), Scalar::Str("1_000".into()));
        assert_eq!(resolve_plain("0b11"), Scalar::Str("0b11".into()));
        assert_eq!(resolve_plain("1."), Scalar::Number(1.0));
        assert_eq!(resolve_plain(".5"), Scalar::Number(0.5));
        assert_eq!(resolve_plain("+.5e1"), Scalar::Number(5.0));
        assert_eq!(resolve_plain("1.e2"), Scalar::Number(100.0));
        assert_eq!(resolve_plain("."), Scalar::Str(".".into()));
        assert_eq!(resolve_plain("yes"), Scalar::Str("yes".into()));
        assert_eq!(resolve_plain("~"), Scalar::Null);
        assert_eq!(resolve_plain("-.INF"), Scalar::Number(f64::NEG_INFINITY));
    }

    #[test]
    fn base64() {
        assert_eq!(node_base64_decode("aGVsbG8="), b"hello");
        assert_eq!(node_base64_decode("aGV=sbG8"), b"he");
        assert_eq!(node_base64_decode("abc"), vec![105, 183]);
        assert_eq!(node_base64_decode("a"), Vec::<u8>::new());
        assert_eq!(node_base64_decode("a-_b"), vec![107, 239, 219]);
    }
}
