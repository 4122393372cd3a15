//! JavaScript strings where they can differ from Rust's: npm yaml's values are UTF-16, and a
//! double-quoted scalar's `\u` escapes can make a lone surrogate. A [`JsString`] is UTF-8 text
//! with U+FFFD standing for each lone surrogate, and the units they stand for on the side (empty
//! on every common path).

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsString {
    pub text: String,
    /// `(byte offset in text, code unit)` of each lone surrogate, in order.
    pub lone: Vec<(u32, u16)>,
}

impl JsString {
    pub fn push_str(&mut self, s: &str) {
        self.text.push_str(s);
    }

    pub fn push(&mut self, ch: char) {
        self.text.push(ch);
    }

    /// Appends `String.fromCodePoint(cp)` (`cp` is at most 0x10FFFF). A low surrogate right
    /// after a lone high one joins it, as JavaScript's concatenation does.
    pub fn push_code_point(&mut self, cp: u32) {
        if let Some(ch) = char::from_u32(cp) {
            self.text.push(ch);
            return;
        }
        let unit = cp as u16;
        if (0xDC00..0xE000).contains(&unit)
            && let Some(&(at, high)) = self.lone.last()
            && (0xD800..0xDC00).contains(&high)
            && at as usize + 3 == self.text.len()
        {
            let joined = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
            self.lone.pop();
            self.text.truncate(at as usize);
            self.text.push(char::from_u32(joined).expect("a supplementary code point"));
            return;
        }
        self.lone.push((self.text.len() as u32, unit));
        self.text.push('\u{FFFD}');
    }

    /// `JSON.stringify(s)`
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(self.text.len() + 2);
        out.push('"');
        let mut lone = self.lone.iter().peekable();
        for (i, ch) in self.text.char_indices() {
            if let Some(&&(at, unit)) = lone.peek()
                && at as usize == i
            {
                lone.next();
                out.push_str(&format!("\\u{unit:04x}"));
                continue;
            }
            json_char(&mut out, ch);
        }
        out.push('"');
        out
    }
}

/// `JSON.stringify` of a Rust string.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        json_char(&mut out, ch);
    }
    out.push('"');
    out
}

fn json_char(out: &mut String, ch: char) {
    match ch {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
        c => out.push(c),
    }
}
