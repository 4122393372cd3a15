//! JavaScript values as `YAML.parse` returns them: strings ([`JsStr`], lone surrogates kept),
//! numbers ([`number`]), dates, and the [`Value`] tree (the engine's `src/engine/yaml/value.rs`
//! and `src/engine/js.rs`, moved here).

pub mod hashing;
pub mod number;
pub mod value;

pub use value::{Object, Value};

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

static DATE_FORMATTER: std::sync::OnceLock<fn(f64) -> String> = std::sync::OnceLock::new();

/// Have [`date_to_string`] use `f` from now on (the first call wins): a caller that knows the
/// process's time zone (the engine's `jsdate`) formats dates as Node would there.
pub fn set_date_formatter(f: fn(f64) -> String) {
    let _ = DATE_FORMATTER.set(f);
}

/// `Date.prototype.toString()`: by the formatter given to [`set_date_formatter`], else as Node
/// prints it with `TZ=UTC` (the crate knows no time zones).
pub fn date_to_string(t: f64) -> String {
    if let Some(f) = DATE_FORMATTER.get() {
        return f(t);
    }
    if !t.is_finite() || t.abs() > 8.64e15 {
        return "Invalid Date".into();
    }
    let t = t as i64;
    let days = t.div_euclid(86_400_000);
    let ms = t.rem_euclid(86_400_000);
    let (y, m, d) = value::civil_from_days(days);
    let wd = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][days.rem_euclid(7) as usize];
    let mon = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][(m - 1) as usize];
    let year = if y < 0 { format!("-{:06}", -y) } else { format!("{y:04}") };
    format!(
        "{wd} {mon} {d:02} {year} {:02}:{:02}:{:02} GMT+0000 (Coordinated Universal Time)",
        ms / 3_600_000,
        (ms / 60_000) % 60,
        (ms / 1000) % 60
    )
}
