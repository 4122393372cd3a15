//! The `yaml-1.1` schema of npm `yaml` 2.9.0 (`dist/schema/yaml-1.1/*.js`), used for a
//! document with an explicit `%YAML 1.1` directive (`Document.setSchema('1.1')`, which also
//! turns `resolveKnownTags` off).
//!
//! Default tags, tried in this order on a plain scalar: null, true, false, intBin, intOct,
//! int, intHex, floatNaN, floatExp, float, merge (keys only), intTime, floatTime, timestamp.

use crate::js::number::{parse_decimal_int, parse_float, parse_float_lenient, parse_pow2_radix};
use crate::schema::{Scalar, TagResolution, YAML_PREFIX, parse_timestamp, test_null};

/// `trueTag.test` / `falseTag.test`:
/// `/^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/`, `/^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/`
pub fn test_bool(s: &str) -> Option<bool> {
    match s {
        "Y" | "y" | "Yes" | "yes" | "YES" | "True" | "true" | "TRUE" | "On" | "on" | "ON" => Some(true),
        "N" | "n" | "No" | "no" | "NO" | "False" | "false" | "FALSE" | "Off" | "off" | "OFF" => Some(false),
        _ => None,
    }
}

fn split_sign(s: &str) -> (bool, &str) {
    match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    }
}

fn all_of(s: &str, f: impl Fn(u8) -> bool) -> bool {
    !s.is_empty() && s.bytes().all(f)
}

/// `/^[-+]?0b[0-1_]+$/`
fn test_bin(s: &str) -> bool {
    split_sign(s).1.strip_prefix("0b").is_some_and(|r| all_of(r, |b| matches!(b, b'0' | b'1' | b'_')))
}

/// `/^[-+]?0[0-7_]+$/`
fn test_oct(s: &str) -> bool {
    split_sign(s).1.strip_prefix('0').is_some_and(|r| all_of(r, |b| matches!(b, b'0'..=b'7' | b'_')))
}

/// `[0-9][0-9_]*`
fn is_int_part(r: &str) -> bool {
    r.as_bytes().first().is_some_and(u8::is_ascii_digit) && r.bytes().all(|b| b.is_ascii_digit() || b == b'_')
}

/// `/^[-+]?[0-9][0-9_]*$/`
fn test_int(s: &str) -> bool {
    is_int_part(split_sign(s).1)
}

/// `/^[-+]?0x[0-9a-fA-F_]+$/`
fn test_hex(s: &str) -> bool {
    split_sign(s).1.strip_prefix("0x").is_some_and(|r| all_of(r, |b| b.is_ascii_hexdigit() || b == b'_'))
}

/// `intResolve(str, offset, radix)`: sign, prefix skipped, `_` removed, `parseInt`.
fn int_resolve(s: &str, offset: usize, radix: u32) -> f64 {
    let (neg, r) = split_sign(s);
    let digits: String = r[offset..].chars().filter(|&c| c != '_').collect();
    let n = if digits.is_empty() {
        f64::NAN
    } else if radix == 10 {
        parse_decimal_int(&digits)
    } else {
        parse_pow2_radix(&digits, radix)
    };
    if neg { -n } else { n }
}

/// `/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/`
fn float_nan(s: &str) -> Option<f64> {
    match s {
        ".nan" | ".NaN" | ".NAN" => Some(f64::NAN),
        _ => {
            let (neg, r) = split_sign(s);
            matches!(r, ".inf" | ".Inf" | ".INF").then_some(if neg { f64::NEG_INFINITY } else { f64::INFINITY })
        }
    }
}

/// Length of the `(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?` prefix of `b` (`dot`: a `.` was seen).
fn mantissa_len(b: &[u8]) -> (usize, bool) {
    let mut i = 0;
    if b.first().is_some_and(u8::is_ascii_digit) {
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    let dot = b.get(i) == Some(&b'.');
    if dot {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    (i, dot)
}

/// `/^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/`
fn test_float_exp(s: &str) -> bool {
    let b = split_sign(s).1.as_bytes();
    let (i, _) = mantissa_len(b);
    if !matches!(b.get(i), Some(b'e' | b'E')) {
        return false;
    }
    let e = &b[i + 1..];
    let e = e.strip_prefix(b"-").or_else(|| e.strip_prefix(b"+")).unwrap_or(e);
    !e.is_empty() && e.iter().all(u8::is_ascii_digit)
}

/// `/^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/`
fn test_float(s: &str) -> bool {
    let b = split_sign(s).1.as_bytes();
    let (i, dot) = mantissa_len(b);
    dot && i == b.len()
}

/// `parseFloat(str.replace(/_/g, ''))` for a string matching `floatExp` or `float`:
/// NaN when the mantissa has no digit (`.`, `-.`, `e5`, `.e1`).
fn float_resolve(s: &str) -> f64 {
    let t: String = s.chars().filter(|&c| c != '_').collect();
    let m = t.split(['e', 'E']).next().unwrap_or("");
    if !m.bytes().any(|b| b.is_ascii_digit()) {
        return f64::NAN;
    }
    parse_float(&t)
}

/// `intTime.test` (`frac: false`) / `floatTime.test` (`frac: true`):
/// `/^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/`, `/^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/`
fn test_time(s: &str, frac: bool) -> bool {
    let r = split_sign(s).1;
    let r = if frac {
        match r.rsplit_once('.') {
            Some((head, tail)) if tail.bytes().all(|b| b.is_ascii_digit() || b == b'_') => head,
            _ => return false,
        }
    } else {
        r
    };
    let mut parts = r.split(':');
    if !parts.next().is_some_and(is_int_part) {
        return false;
    }
    let mut groups = 0;
    for p in parts {
        let ok = match p.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, d] => (b'0'..=b'5').contains(a) && d.is_ascii_digit(),
            _ => false,
        };
        if !ok {
            return false;
        }
        groups += 1;
    }
    groups > 0
}

/// `parseSexagesimal(str, false)`
fn sexagesimal(s: &str) -> f64 {
    let (neg, r) = split_sign(s);
    let t: String = r.chars().filter(|&c| c != '_').collect();
    let res = t.split(':').fold(0.0, |acc, p| acc * 60.0 + parse_float_lenient(p));
    if neg { -res } else { res }
}

fn number(s: &str) -> Option<f64> {
    if test_bin(s) {
        return Some(int_resolve(s, 2, 2));
    }
    if test_oct(s) {
        return Some(int_resolve(s, 1, 8));
    }
    if test_int(s) {
        return Some(int_resolve(s, 0, 10));
    }
    if test_hex(s) {
        return Some(int_resolve(s, 2, 16));
    }
    if let Some(v) = float_nan(s) {
        return Some(v);
    }
    if test_float_exp(s) || test_float(s) {
        return Some(float_resolve(s));
    }
    None
}

/// The `format` a yaml-1.1 number tag records on the scalar it resolves from `source`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumFormat {
    None,
    Bin,
    Oct,
    Hex,
    Exp,
    Time,
}

/// The format of the first number tag (in schema order) whose test matches `source`.
pub fn number_format(source: &str) -> NumFormat {
    if test_bin(source) {
        NumFormat::Bin
    } else if test_oct(source) {
        NumFormat::Oct
    } else if test_int(source) {
        NumFormat::None
    } else if test_hex(source) {
        NumFormat::Hex
    } else if float_nan(source).is_some() {
        NumFormat::None
    } else if test_float_exp(source) {
        NumFormat::Exp
    } else if test_time(source, false) || test_time(source, true) {
        NumFormat::Time
    } else {
        NumFormat::None
    }
}

/// `float.resolve`'s `minFractionDigits`: the fraction's length (without `_`) when it ends in `0`.
pub fn min_fraction_digits(source: &str) -> usize {
    if !test_float(source) {
        return 0;
    }
    let f: String = source.split_once('.').map_or("", |(_, f)| f).chars().filter(|&c| c != '_').collect();
    if f.ends_with('0') { f.len() } else { 0 }
}

/// Resolve a plain scalar by the yaml-1.1 default tags (`at_key`: the scalar is a mapping
/// key, where the `merge` tag's `default: 'key'` applies).
pub fn resolve_plain(s: &str, at_key: bool) -> Scalar {
    match s.as_bytes().first() {
        None => return Scalar::Null,
        Some(
            b'~'
            | b'n'
            | b'N'
            | b't'
            | b'T'
            | b'f'
            | b'F'
            | b'y'
            | b'Y'
            | b'o'
            | b'O'
            | b'e'
            | b'E'
            | b'.'
            | b'+'
            | b'-'
            | b'<'
            | b'0'..=b'9',
        ) => {}
        Some(_) => return Scalar::Str(s.into()),
    }
    if test_null(s) {
        return Scalar::Null;
    }
    if let Some(b) = test_bool(s) {
        return Scalar::Bool(b);
    }
    if let Some(v) = number(s) {
        return Scalar::Number(v);
    }
    if at_key && s == "<<" {
        return Scalar::Merge;
    }
    if test_time(s, false) || test_time(s, true) {
        return Scalar::Number(sexagesimal(s));
    }
    if let Some(t) = parse_timestamp(s) {
        return Scalar::Date(t);
    }
    Scalar::Str(s.into())
}

/// `findScalarTagByName` under yaml-1.1: the schema's tags of that name (the first whose
/// test matches, for default tags with a test); no known-tags fallback, so a value that no
/// tag of its name accepts is `Unresolved` (also for `!!timestamp` and `!!merge`).
pub fn resolve_tagged_scalar(tag_name: &str, s: &str) -> TagResolution {
    if tag_name == "!" {
        return TagResolution::Ok(Scalar::Str(s.into()));
    }
    let Some(short) = tag_name.strip_prefix(YAML_PREFIX) else {
        return TagResolution::Unresolved;
    };
    let r = match short {
        "str" => Some(Scalar::Str(s.into())),
        "null" => test_null(s).then_some(Scalar::Null),
        "bool" => test_bool(s).map(Scalar::Bool),
        "int" => {
            let v = if test_bin(s) {
                Some(int_resolve(s, 2, 2))
            } else if test_oct(s) {
                Some(int_resolve(s, 1, 8))
            } else if test_int(s) {
                Some(int_resolve(s, 0, 10))
            } else if test_hex(s) {
                Some(int_resolve(s, 2, 16))
            } else if test_time(s, false) {
                Some(sexagesimal(s))
            } else {
                None
            };
            v.map(Scalar::Number)
        }
        "float" => {
            let v = if let Some(v) = float_nan(s) {
                Some(v)
            } else if test_float_exp(s) || test_float(s) {
                Some(float_resolve(s))
            } else if test_time(s, true) {
                Some(sexagesimal(s))
            } else {
                None
            };
            v.map(Scalar::Number)
        }
        "binary" => Some(Scalar::Buffer(crate::schema::node_base64_decode(s))),
        "merge" => (s == "<<").then_some(Scalar::Merge),
        "timestamp" => parse_timestamp(s).map(Scalar::Date),
        _ => None,
    };
    match r {
        Some(v) => TagResolution::Ok(v),
        None => TagResolution::Unresolved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> f64 {
        match resolve_plain(s, false) {
            Scalar::Number(x) => x,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn plain() {
        assert_eq!(resolve_plain("yes", false), Scalar::Bool(true));
        assert_eq!(resolve_plain("Off", false), Scalar::Bool(false));
        assert_eq!(resolve_plain("oN", false), Scalar::Str("oN".into()));
        assert_eq!(num("0b101"), 5.0);
        assert_eq!(num("-0b1_1"), -3.0);
        assert_eq!(num("017"), 15.0);
        assert_eq!(num("+0_17"), 15.0);
        assert_eq!(num("09"), 9.0);
        assert_eq!(num("1_000"), 1000.0);
        assert_eq!(num("-0x1_F"), -31.0);
        assert!(num("0_").is_nan());
        assert!(num("0x_").is_nan());
        assert_eq!(num("1_0.5"), 10.5);
        assert!(num(".").is_nan());
        assert!(num("e5").is_nan());
        assert_eq!(num("1.e2"), 100.0);
        assert_eq!(num("1:30"), 90.0);
        assert_eq!(num("-1:30:00"), -5400.0);
        assert_eq!(num("1:30.5"), 90.5);
        assert_eq!(resolve_plain("1:60", false), Scalar::Str("1:60".into()));
        assert_eq!(resolve_plain("0o17", false), Scalar::Str("0o17".into()));
        assert_eq!(resolve_plain("<<", true), Scalar::Merge);
        assert_eq!(resolve_plain("<<", false), Scalar::Str("<<".into()));
        assert!(matches!(resolve_plain("2001-12-14", false), Scalar::Date(_)));
        assert!(num("-0").is_sign_negative());
    }

    #[test]
    fn tagged() {
        assert!(matches!(resolve_tagged_scalar("tag:yaml.org,2002:timestamp", "x"), TagResolution::Unresolved));
        assert!(matches!(resolve_tagged_scalar("tag:yaml.org,2002:merge", "x"), TagResolution::Unresolved));
        assert!(matches!(
            resolve_tagged_scalar("tag:yaml.org,2002:int", "1:30"),
            TagResolution::Ok(Scalar::Number(90.0))
        ));
        assert!(matches!(resolve_tagged_scalar("tag:yaml.org,2002:int", "0o7"), TagResolution::Unresolved));
    }
}
