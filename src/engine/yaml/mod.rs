//! A YAML layer whose observable results equal `YAML.parse(text)` from the
//! npm package `yaml` 2.9.0 with default options (YAML 1.2 core schema,
//! `uniqueKeys: true`, `merge: false`, `mapAsMap: false`, `prettyErrors: true`,
//! `maxAliasCount: 100`).
//!
//! The parsing is the workspace crate `npm_yaml` (`crates/npm-yaml`): npm yaml's own stages
//! (lexer, CST parser, composer, `toJS`) written in Rust. This module is the engine's view of
//! it: positions as lines and columns of the text, `String(e)` as the harness logs it, dates in
//! the process's time zone ([`crate::engine::jsdate`]), and JSON as `JSON.stringify` writes it.

mod keys;

pub use keys::{TopEntry, top_entries};
pub use npm_yaml::aliases;
pub use npm_yaml::js::hashing;
pub use npm_yaml::js::number::js_number_to_string;
pub use npm_yaml::js::{JsStr, Object, Value};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_oracle;

/// A position in the parsed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line (lines are split on `\n` only, as npm yaml does)
    pub line: usize,
    /// 1-based column in chars (Unicode scalar values)
    pub col: usize,
    /// 1-based column in UTF-16 code units (what npm yaml reports)
    pub col_utf16: usize,
    /// byte offset in the text
    pub byte: usize,
}

impl Pos {
    /// The position of byte `byte` of `text` (clamped to the text, floored to a char boundary).
    pub fn of_byte(text: &str, byte: usize) -> Pos {
        let mut byte = byte.min(text.len());
        while !text.is_char_boundary(byte) {
            byte -= 1;
        }
        let line_start = memchr::memrchr(b'\n', &text.as_bytes()[..byte]).map_or(0, |i| i + 1);
        let line = 1 + memchr::memchr_iter(b'\n', &text.as_bytes()[..line_start]).count();
        let before = &text[line_start..byte];
        Pos { line, col: before.chars().count() + 1, col_utf16: before.encode_utf16().count() + 1, byte }
    }

    /// The position of 1-based `line` and UTF-16 column `col16` (npm yaml's `linePos`).
    fn of_line_col16(text: &str, line: usize, col16: usize) -> Pos {
        let line_start = if line <= 1 {
            0
        } else {
            memchr::memchr_iter(b'\n', text.as_bytes()).nth(line - 2).map_or(text.len(), |i| i + 1)
        };
        let mut units = 1;
        let mut byte = line_start;
        for c in text[line_start..].chars() {
            if units >= col16 || c == '\n' {
                break;
            }
            units += c.len_utf16();
            byte += c.len_utf8();
        }
        Pos::of_byte(text, byte)
    }
}

/// Position info for one top-level mapping key (when the document is a map).
#[derive(Debug, Clone, PartialEq)]
pub struct KeySpan {
    /// the JS property name the key became
    pub key: String,
    /// start of the key node (its scalar or collection, after any anchor or tag)
    pub key_start: Pos,
    /// start of the value node (for an empty value: where npm yaml places it, after the `:`)
    pub value_start: Pos,
    /// end of the value node (its `range[1]`, comments after it excluded)
    pub value_end: Pos,
}

/// Successful parse: the JS value plus lint information and warnings.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// what `YAML.parse` returns
    pub value: Value,
    /// top-level keys in document order (duplicates that stringify equally are all listed)
    pub top_keys: Vec<KeySpan>,
    /// process warnings as Node prints them after `(node:PID) `, i.e. `String(warning)`:
    /// `YAMLWarning: Unresolved tag: !foo at line 1, column 1:\n\n!foo bar\n^^^^\n`
    /// or `Warning: Keys with collection values will be stringified ...`
    pub warnings: Vec<String>,
}

/// What `YAML.parse` throws.
#[derive(Debug, Clone)]
pub struct YamlError {
    /// `YAMLParseError`, `ReferenceError`, `Error` or `RangeError`
    pub name: &'static str,
    /// npm yaml's error code (`MISSING_CHAR`, ...; `None` for what `toJS` throws)
    pub code: Option<&'static str>,
    /// the message without the ` at line L, column C:...` suffix
    pub message: String,
    /// where npm yaml reports the error (`col_utf16` is npm yaml's column)
    pub pos: Option<Pos>,
    /// `String(error)` as Node writes it, e.g.
    /// `YAMLParseError: Map keys must be unique at line 2, column 1:\n\nname: a\nname: b\n^\n`
    pub pretty: String,
    /// warnings emitted before the error was thrown (same format as [`Parsed::warnings`])
    pub warnings: Vec<String>,
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.pretty)
    }
}

impl std::error::Error for YamlError {}

/// Parse `text` like `YAML.parse(text)` from npm yaml 2.9.0.
///
/// Never panics: an internal bug would be reported as an `Error` named
/// `Error` (a safety net; the differential tests found no such case).
#[allow(clippy::result_large_err)] // the error type is part of the required API
pub fn parse(text: &str) -> Result<Parsed, YamlError> {
    npm_yaml::js::set_date_formatter(crate::engine::jsdate::date_to_string);
    match std::panic::catch_unwind(|| npm_yaml::api::parse(text)) {
        Ok(Ok(p)) => {
            let mut at = Cursor { text, pos: Pos { line: 1, col: 1, col_utf16: 1, byte: 0 } };
            let top_keys = p.top_keys.into_iter().map(|k| key_span(&mut at, k)).collect();
            Ok(Parsed { value: p.value, top_keys, warnings: p.warnings })
        }
        Ok(Err(e)) => Err(YamlError {
            name: e.name,
            code: e.code.map(|c| c.name()),
            pos: e.line_pos.map(|(l, c)| Pos::of_line_col16(text, l as usize, c as usize)),
            pretty: e.pretty.as_str().to_owned(),
            message: e.message,
            warnings: e.warnings,
        }),
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let message = format!("internal error in the YAML layer: {msg}");
            Err(YamlError {
                name: "Error",
                code: None,
                pretty: format!("Error: {message}"),
                message,
                pos: None,
                warnings: Vec::new(),
            })
        }
    }
}

/// Positions of offsets that mostly come in increasing order (the keys of a map): each is found
/// from the one before, so a document's keys cost one pass over it, however many they are.
struct Cursor<'t> {
    text: &'t str,
    pos: Pos,
}

impl Cursor<'_> {
    fn at(&mut self, byte: usize) -> Pos {
        let mut byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        if byte < self.pos.byte {
            self.pos = Pos::of_byte(self.text, byte);
            return self.pos;
        }
        let seg = &self.text.as_bytes()[self.pos.byte..byte];
        let from = match memchr::memrchr(b'\n', seg) {
            Some(nl) => {
                self.pos.line += memchr::memchr_iter(b'\n', seg).count();
                self.pos.col = 1;
                self.pos.col_utf16 = 1;
                self.pos.byte + nl + 1
            }
            None => self.pos.byte,
        };
        // A character is one column and one or two UTF-16 units (two from a four-byte one).
        let chars = self.text[from..byte].chars().count();
        let astral = self.text.as_bytes()[from..byte].iter().filter(|&&b| b >= 0xF0).count();
        self.pos.col += chars;
        self.pos.col_utf16 += chars + astral;
        self.pos.byte = byte;
        self.pos
    }
}

fn key_span(at: &mut Cursor<'_>, k: npm_yaml::tojs::TopKey) -> KeySpan {
    let key_start = at.at(k.key_range[0] as usize);
    let (vs, ve) = match k.value_range {
        Some(r) => (r[0] as usize, (r[1] as usize).max(r[0] as usize)),
        None => (k.key_range[2] as usize, k.key_range[2] as usize),
    };
    let value_start = at.at(vs);
    let value_end = at.at(ve);
    KeySpan { key: k.key, key_start, value_start, value_end }
}

/// `JSON.stringify` of a value, as a `serde_json` value.
pub trait ToJson {
    /// Numbers: integral values with |x| < 2^53 as integers, other finite values as f64,
    /// NaN/Infinity -> null, -0 -> 0. Date -> ISO string (Invalid Date -> null).
    /// Buffer -> `{"type":"Buffer","data":[..]}`. Map/Set -> `{}`.
    /// `Circular` -> null (JSON.stringify would throw on the cycle). A `Symbol` property is
    /// left out, a `Symbol` array item is null.
    fn to_json(&self) -> serde_json::Value;
}

impl ToJson for Value {
    fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        // the arrays and objects being converted, innermost last: a stack, not recursion
        let mut stack: Vec<Open<'_>> = Vec::new();
        let mut done = match open(self) {
            Ok(j) => return j,
            Err(o) => {
                stack.push(o);
                None
            }
        };
        while let Some(top) = stack.last_mut() {
            let next = match top {
                Open::Array(items, out) => {
                    out.extend(done.take());
                    items.next()
                }
                Open::Object(entries, m, key) => {
                    if let Some(j) = done.take() {
                        m.insert(std::mem::take(key), j);
                    }
                    // `JSON.stringify` leaves out symbol-valued properties
                    entries.find(|(_, v)| !matches!(v, Value::Symbol(_) | Value::Undefined)).map(|(k, v)| {
                        *key = k.to_string();
                        v
                    })
                }
            };
            match next.map(open) {
                Some(Ok(j)) => done = Some(j),
                Some(Err(o)) => stack.push(o),
                None => {
                    done = Some(match stack.pop() {
                        Some(Open::Array(_, out)) => J::Array(out),
                        Some(Open::Object(_, m, _)) => J::Object(m),
                        None => J::Null,
                    });
                }
            }
        }
        done.unwrap_or_default()
    }
}

/// An array or object [`ToJson::to_json`] is converting: its items left, what is done.
enum Open<'v> {
    Array(std::slice::Iter<'v, Value>, Vec<serde_json::Value>),
    Object(
        Box<dyn Iterator<Item = (&'v str, &'v Value)> + 'v>,
        serde_json::Map<String, serde_json::Value>,
        /// the key of the entry being converted
        String,
    ),
}

/// A value's JSON, or the array or object to convert item by item.
fn open(v: &Value) -> Result<serde_json::Value, Open<'_>> {
    use serde_json::Value as J;
    Ok(match v {
        Value::Array(a) => return Err(Open::Array(a.iter(), Vec::with_capacity(a.len()))),
        Value::Object(o) => {
            return Err(Open::Object(Box::new(o.iter()), serde_json::Map::with_capacity(o.len()), String::new()));
        }
        Value::Null | Value::Undefined | Value::Circular | Value::Symbol(_) => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Number(x) => number_to_json(*x),
        Value::String(s) => J::String(s.to_string()),
        Value::Date(t) => match npm_yaml::js::value::date_to_iso_string(*t) {
            Some(s) => J::String(s),
            None => J::Null,
        },
        Value::Buffer(b) => {
            let mut m = serde_json::Map::new();
            m.insert("type".into(), J::String("Buffer".into()));
            m.insert("data".into(), J::Array(b.iter().map(|x| J::from(*x)).collect()));
            J::Object(m)
        }
        Value::Map(_) | Value::Set(_) => J::Object(serde_json::Map::new()),
    })
}

fn number_to_json(x: f64) -> serde_json::Value {
    if !x.is_finite() {
        return serde_json::Value::Null;
    }
    if x == x.trunc() && x.abs() < 9_007_199_254_740_992.0 {
        return serde_json::Value::from(x as i64);
    }
    serde_json::Number::from_f64(x).map(serde_json::Value::Number).unwrap_or(serde_json::Value::Null)
}
