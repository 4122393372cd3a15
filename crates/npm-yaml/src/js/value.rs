//! JS values as returned by `YAML.parse`.

use super::JsStr;
use super::hashing::KeyIndex;

/// A JS value as `YAML.parse` returns it.
#[derive(Debug, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// `undefined`: only as a value a merge from a `!!set` gives (npm yaml destructures each set
    /// entry as `[key, value]`, so `"a"` merges as `a: undefined`)
    Undefined,
    /// a boolean
    Bool(bool),
    /// a JS number (double)
    Number(f64),
    /// a string (a JavaScript string: lone surrogates kept, see [`JsStr`])
    String(JsStr),
    /// a JS array
    Array(Vec<Value>),
    /// a plain JS object with JS property order
    Object(Object),
    /// a JS `Date` (ms since epoch, NaN for Invalid Date), from `!!timestamp`
    Date(f64),
    /// a Node `Buffer`, from `!!binary`
    Buffer(Vec<u8>),
    /// a JS `Map`, from `!!omap`
    Map(Vec<(Value, Value)>),
    /// a JS `Set`, from `!!set`
    Set(Vec<Value>),
    /// A JS `Symbol` with this description: the value of a `!!merge`-tagged scalar
    /// (`Symbol(<<)`), e.g. `key: !!merge <<`, or an alias of a merge key.
    Symbol(String),
    /// A reference back to an enclosing anchored collection (`&a [ *a ]`).
    /// In JS this is a cyclic object graph (the very same object);
    /// `JSON.stringify` on it would throw `TypeError: Converting circular structure to JSON`.
    Circular,
}

/// A copy made with a stack of the collections being copied, not recursion (`toJS` copies
/// an alias's value, which can nest as deep as the input).
impl Clone for Value {
    fn clone(&self) -> Self {
        let mut stack: Vec<Copying<'_>> = Vec::new();
        let mut done = match Copying::open(self) {
            Ok(v) => return v,
            Err(c) => {
                stack.push(c);
                None
            }
        };
        while let Some(top) = stack.last_mut() {
            if let Some(v) = done.take() {
                top.add(v);
            }
            match top.next_item().map(Copying::open) {
                Some(Ok(v)) => done = Some(v),
                Some(Err(c)) => stack.push(c),
                None => done = stack.pop().map(Copying::finish),
            }
        }
        done.unwrap_or(Value::Null)
    }
}

/// A collection [`Value::clone`] is copying: the next item's index, and the copies so far.
enum Copying<'v> {
    /// an array or a set
    Items(&'v Value, &'v [Value], usize, Vec<Value>),
    Object(&'v Object, usize, Vec<(JsStr, Value)>),
    /// a map's keys and values, in turn (a copied key waits for its value)
    Map(&'v [(Value, Value)], usize, Option<Value>, Vec<(Value, Value)>),
}

impl<'v> Copying<'v> {
    /// A value's copy, or the collection to copy item by item.
    #[allow(clippy::result_large_err)] // moved onto the stack once per collection
    fn open(v: &'v Value) -> Result<Value, Copying<'v>> {
        Ok(match v {
            Value::Array(a) | Value::Set(a) => return Err(Copying::Items(v, a, 0, Vec::with_capacity(a.len()))),
            Value::Object(o) => return Err(Copying::Object(o, 0, Vec::with_capacity(o.entries.len()))),
            Value::Map(m) => return Err(Copying::Map(m, 0, None, Vec::with_capacity(m.len()))),
            Value::Null => Value::Null,
            Value::Undefined => Value::Undefined,
            Value::Bool(b) => Value::Bool(*b),
            Value::Number(x) => Value::Number(*x),
            Value::String(s) => Value::String(s.clone()),
            Value::Date(t) => Value::Date(*t),
            Value::Buffer(b) => Value::Buffer(b.clone()),
            Value::Symbol(d) => Value::Symbol(d.clone()),
            Value::Circular => Value::Circular,
        })
    }

    fn next_item(&mut self) -> Option<&'v Value> {
        match self {
            Copying::Items(_, items, i, _) => items.get(*i).inspect(|_| *i += 1),
            Copying::Object(o, i, _) => o.entries.get(*i).map(|(_, v)| v).inspect(|_| *i += 1),
            Copying::Map(m, i, _, _) => {
                m.get(*i / 2).map(|(k, v)| if *i % 2 == 0 { k } else { v }).inspect(|_| *i += 1)
            }
        }
    }

    fn add(&mut self, v: Value) {
        match self {
            Copying::Items(.., out) => out.push(v),
            Copying::Object(o, i, out) => out.push((o.entries[*i - 1].0.clone(), v)),
            Copying::Map(_, _, key, out) => match key.take() {
                Some(k) => out.push((k, v)),
                None => *key = Some(v),
            },
        }
    }

    fn finish(self) -> Value {
        match self {
            Copying::Items(Value::Set(_), .., out) => Value::Set(out),
            Copying::Items(.., out) => Value::Array(out),
            Copying::Object(o, _, entries) => {
                Value::Object(Object { entries, n_index: o.n_index, index: o.index.clone() })
            }
            Copying::Map(.., out) => Value::Map(out),
        }
    }
}

/// A plain JS object: string-keyed properties in JS enumeration order
/// (canonical array-index keys ascending first, then the rest in insertion order).
#[derive(Debug, Clone, Default)]
pub struct Object {
    entries: Vec<(JsStr, Value)>,
    /// Number of leading entries whose key is an array index (kept sorted).
    n_index: usize,
    /// key -> position, built only for larger objects.
    index: Option<KeyIndex>,
}

const INDEX_THRESHOLD: usize = 12;

impl PartialEq for Object {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

/// `Some(n)` when `key` is a canonical JS array index ("0".."4294967294").
fn array_index(key: &str) -> Option<u32> {
    let b = key.as_bytes();
    if b.is_empty() || b.len() > 10 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if b.len() > 1 && b[0] == b'0' {
        return None;
    }
    let v: u64 = key.parse().ok()?;
    if v < 4_294_967_295 { Some(v as u32) } else { None }
}

impl Object {
    /// An empty object.
    pub fn new() -> Self {
        Self::default()
    }

    fn position(&self, key: &str) -> Option<usize> {
        if let Some(ix) = &self.index {
            return ix.find_by(key, |i| self.entries[i].0 == key);
        }
        self.entries.iter().position(|(k, _)| k == key)
    }

    fn position_js(&self, key: &JsStr) -> Option<usize> {
        if let Some(ix) = &self.index {
            return ix.find_by(key, |i| self.entries[i].0 == *key);
        }
        self.entries.iter().position(|(k, _)| k == key)
    }

    /// Property lookup.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    /// Own-property test.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Properties in JS enumeration order (`Object.keys` order), names as Node writes them
    /// (lone surrogates as U+FFFD).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// [`Self::iter`] with the exact property names.
    pub fn iter_js(&self) -> impl Iterator<Item = (&JsStr, &Value)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Number of own properties.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no properties.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// JS `obj[key] = value`: an existing property keeps its position.
    pub fn insert(&mut self, key: impl Into<JsStr>, value: Value) {
        let key = key.into();
        if let Some(i) = self.position_js(&key) {
            self.entries[i].1 = value;
            return;
        }
        let pos = match array_index(&key) {
            Some(n) => {
                // binary search among the leading index keys
                let slice = &self.entries[..self.n_index];
                let p = slice.partition_point(|(k, _)| array_index(k).unwrap_or(0) < n);
                self.n_index += 1;
                p
            }
            None => self.entries.len(),
        };
        if pos == self.entries.len() {
            if let Some(ix) = &mut self.index {
                ix.push(&key);
            }
            self.entries.push((key, value));
        } else {
            self.entries.insert(pos, (key, value));
            if self.index.is_some() {
                self.rebuild_index();
            }
        }
        if self.index.is_none() && self.entries.len() > INDEX_THRESHOLD {
            self.rebuild_index();
        }
    }

    fn rebuild_index(&mut self) {
        let mut ix = KeyIndex::with_capacity(self.entries.len());
        for (k, _) in &self.entries {
            ix.push(k);
        }
        self.index = Some(ix);
    }

    /// From unique-key pairs in insertion order plus an optional key index
    /// (reused when no array-index key forces a reorder).
    pub fn from_parts(pairs: Vec<(JsStr, Value)>, index: Option<KeyIndex>) -> Self {
        if !pairs.iter().any(|(k, _)| array_index(k).is_some()) {
            let mut o = Object { entries: pairs, n_index: 0, index };
            if o.index.is_none() && o.entries.len() > INDEX_THRESHOLD {
                o.rebuild_index();
            }
            return o;
        }
        Self::from_unordered(pairs)
    }

    /// Bulk builder from unique-key pairs in insertion order.
    pub fn from_unordered(pairs: Vec<(JsStr, Value)>) -> Self {
        // `pairs` has unique keys in insertion order.
        let mut idx: Vec<(u32, usize)> = Vec::new();
        for (i, (k, _)) in pairs.iter().enumerate() {
            if let Some(n) = array_index(k) {
                idx.push((n, i));
            }
        }
        let entries = if idx.is_empty() {
            pairs
        } else {
            idx.sort_by_key(|&(n, _)| n);
            let n_index = idx.len();
            let mut slots: Vec<Option<(JsStr, Value)>> = pairs.into_iter().map(Some).collect();
            let mut out = Vec::with_capacity(slots.len());
            for &(_, i) in &idx {
                if let Some(e) = slots[i].take() {
                    out.push(e);
                }
            }
            for s in slots.into_iter().flatten() {
                out.push(s);
            }
            let mut o = Object { entries: out, n_index, index: None };
            if o.entries.len() > INDEX_THRESHOLD {
                o.rebuild_index();
            }
            return o;
        };
        let mut o = Object { entries, n_index: 0, index: None };
        if o.entries.len() > INDEX_THRESHOLD {
            o.rebuild_index();
        }
        o
    }
}

impl Value {
    /// Convenience: the string if this is a `String`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// Convenience: the object if this is an `Object`.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Dates (ECMA-262 day/time arithmetic, UTC only)

const MS_PER_DAY: f64 = 86_400_000.0;

/// Days since 1970-01-01 of a proleptic Gregorian (year, month 1–12, day): Howard Hinnant's
/// algorithm, the inverse of [`civil_from_days`].
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn to_integer(x: f64) -> f64 {
    if x.is_nan() { 0.0 } else { x.trunc() }
}

/// JS `Date.UTC(year, month, day, h, min, s, ms)` (month 0-based), incl. TimeClip.
pub fn date_utc(year: f64, month: f64, day: f64, h: f64, min: f64, s: f64, ms: f64) -> f64 {
    let args = [year, month, day, h, min, s, ms];
    if args.iter().any(|v| !v.is_finite()) {
        return f64::NAN;
    }
    let mut y = to_integer(year);
    if (0.0..=99.0).contains(&y) {
        y += 1900.0;
    }
    let m = to_integer(month);
    let dt = to_integer(day);
    // MakeDay
    let ym = y + (m / 12.0).floor();
    let mn = m.rem_euclid(12.0);
    if ym.abs() > 400_000.0 {
        return f64::NAN;
    }
    let days = days_from_civil(ym as i64, mn as i64 + 1, 1) as f64 + dt - 1.0;
    // MakeTime
    let time = to_integer(h) * 3_600_000.0 + to_integer(min) * 60_000.0 + to_integer(s) * 1000.0 + to_integer(ms);
    let t = days * MS_PER_DAY + time;
    if !t.is_finite() || t.abs() > 8.64e15 {
        return f64::NAN;
    }
    to_integer(t) + 0.0
}

/// JS `Date.prototype.toISOString()`; `None` for Invalid Date.
pub fn date_to_iso_string(t: f64) -> Option<String> {
    if !t.is_finite() || t.abs() > 8.64e15 {
        return None;
    }
    let t = t as i64;
    let days = t.div_euclid(86_400_000);
    let ms_in_day = t.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    let hh = ms_in_day / 3_600_000;
    let mi = (ms_in_day / 60_000) % 60;
    let ss = (ms_in_day / 1000) % 60;
    let ms = ms_in_day % 1000;
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else if y < 0 {
        format!("-{:06}", -y)
    } else {
        format!("+{y:06}")
    };
    Some(format!("{year}-{m:02}-{d:02}T{hh:02}:{mi:02}:{ss:02}.{ms:03}Z"))
}

/// The proleptic Gregorian (year, month 1–12, day) of a count of days since 1970-01-01.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}
