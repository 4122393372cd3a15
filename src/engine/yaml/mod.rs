//! A YAML layer whose observable results equal `YAML.parse(text)` from the
//! npm package `yaml` 2.9.0 with default options (YAML 1.2 core schema,
//! `uniqueKeys: true`, `merge: false`, `mapAsMap: false`, `prettyErrors: true`,
//! `maxAliasCount: 100`).
//!
//! Syntax comes from `saphyr-parser` events (vendored with a small patch);
//! this module composes them into npm yaml's node semantics, resolves tags
//! and scalars, converts to JS values and reproduces npm yaml's errors.

pub(crate) mod aliases;
mod blockscalar;
mod compose;
mod diag;
mod dropped;
mod errmap;
pub(crate) mod hashing;
mod indent;
mod keycomments;
mod keystr;
mod number;
mod scanerr;
mod schema;
mod schema11;
mod source;
mod tojs;
mod value;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_oracle;

pub use crate::engine::js::JsStr;
pub use number::js_number_to_string;
pub use value::{Object, Value};

use compose::{ComposeOutcome, Composer};
use diag::Diag;
use source::Source;

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

/// Position info for one top-level mapping key (when the document is a map).
#[derive(Debug, Clone, PartialEq)]
pub struct KeySpan {
    /// the JS property name the key became
    pub key: String,
    /// start of the key node (including any anchor/tag properties)
    pub key_start: Pos,
    /// start of the value node (for an empty value: where it would start)
    pub value_start: Pos,
    /// end of the value node
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
    /// the message without the ` at line L, column C:...` suffix
    pub message: String,
    /// where npm yaml reports the error (`col_utf16` is npm yaml's column)
    pub pos: Option<Pos>,
    /// `String(error)` as Node prints it, e.g.
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

fn render(src: &Source<'_>, d: &Diag) -> (String, Option<Pos>) {
    match d.start {
        Some(s) => {
            let (suffix, pos) = source::pretty_suffix(src, s.min(src.text.len()), d.end);
            (format!("{}: {}{}", d.name, d.message, suffix), Some(pos))
        }
        None => (format!("{}: {}", d.name, d.message), None),
    }
}

fn to_error(src: &Source<'_>, d: &Diag, warnings: Vec<String>) -> YamlError {
    let (pretty, pos) = render(src, d);
    YamlError { name: d.name, message: d.message.clone(), pos, pretty, warnings }
}

/// Parse `text` like `YAML.parse(text)` from npm yaml 2.9.0.
///
/// Never panics: an internal bug would be reported as an `Error` named
/// `Error` (a safety net; the differential tests found no such case).
#[allow(clippy::result_large_err)] // the error type is part of the required API
pub fn parse(text: &str) -> Result<Parsed, YamlError> {
    match std::panic::catch_unwind(|| parse_inner(text)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let message = format!("internal error in the YAML layer: {msg}");
            Err(YamlError {
                name: "Error",
                pretty: format!("Error: {message}"),
                message,
                pos: None,
                warnings: Vec::new(),
            })
        }
    }
}

/// Where lone surrogates go while the layer holds them in Rust strings.
///
/// npm yaml's strings are JavaScript strings: a `"\ud800"` escape is a lone surrogate, a code
/// unit a Rust `String` cannot hold. When the text has an escape of a surrogate, saphyr's scanner
/// writes each lone one as the char `base + (unit - 0xD800)` (vendored patch 14), where the 2,048
/// chars from `base` are a block of the supplementary private use planes that the input (with its
/// `\r`/NUL stand-ins already in place) does not use; values
/// and property names turn them back into code units ([`JsStr::from_stand_ins`]). So two keys
/// that differ only in lone surrogates stay two keys, as in npm yaml. `None` when there is no such
/// escape, or (never seen) when the input uses all 64 blocks: lone surrogates are then U+FFFD.
fn lone_surrogate_base(input: &str) -> Option<u32> {
    let b = input.as_bytes();
    let escape = |i: usize, digits: usize| -> bool {
        let Some(hex) = b.get(i + 2..i + 2 + digits) else { return false };
        let Ok(hex) = std::str::from_utf8(hex) else { return false };
        u32::from_str_radix(hex, 16).is_ok_and(|v| (0xD800..0xE000).contains(&v))
    };
    let has_surrogate_escape = memchr::memchr_iter(b'\\', b).any(|i| match b.get(i + 1) {
        Some(b'u') => escape(i, 4),
        Some(b'U') => escape(i, 8),
        _ => false,
    });
    if !has_surrogate_escape {
        return None;
    }
    // blocks of 0x800 chars in U+F0000..U+10FFFF: 0..31 plane 15, 32..63 plane 16
    let mut used = [false; 64];
    for c in input.chars() {
        if let Some(d) = (c as u32).checked_sub(0xF0000) {
            used[(d >> 11) as usize] = true;
        }
    }
    (32..64).chain(0..32).find(|&i| !used[i]).map(|i| 0xF0000 + ((i as u32) << 11))
}

/// `text` with the lines of the region `text[from..to]` (bytes) turned into comment lines (a
/// `#` before each line's first content, tabs as spaces): saphyr then sees nothing there, and
/// byte and char offsets stay those of `text`. `None` when a line starts with a non-ASCII
/// character right at `from` or at its line start (no room for the `#`).
fn comment_out(text: &str, from: usize, to: usize) -> Option<String> {
    let mut b = text.as_bytes().to_vec();
    let to = to.min(b.len());
    let mut ls = from;
    while ls < to {
        let le = b[ls..to].iter().position(|&c| c == b'\n').map_or(to, |k| ls + k);
        let mut p = ls;
        while p < le && matches!(b[p], b' ' | b'\t') {
            b[p] = b' ';
            p += 1;
        }
        if p < le && b[p] != b'\r' {
            // the `#` needs white space or the line start before it (the region's first line
            // follows its `-`, unless the region starts at a line start)
            let after_dash = ls == from && from > 0 && b[from - 1] != b'\n';
            let room = if after_dash { p >= from + 2 } else { p > ls };
            if room {
                b[p - 1] = b'#';
            } else if b[p].is_ascii() && (!after_dash || p > from) {
                b[p] = b'#';
            } else {
                return None;
            }
        }
        ls = le + 1;
    }
    String::from_utf8(b).ok()
}

/// What saphyr parses for `text`: the first document, directive (or `%YAML`) lines hidden, and
/// chars saphyr would misread swapped for placeholders (returned as (placeholder, original)).
fn saphyr_input<'t>(text: &'t str, pre: &errmap::Prescan) -> (std::borrow::Cow<'t, str>, Vec<(char, char)>) {
    // Directives without a `---` line: npm yaml reports that after composing the
    // document, so the directive lines are hidden from saphyr (char count kept).
    // `%YAML` lines are hidden from saphyr too: the prescan has all npm yaml does with them
    // (version, errors, warnings), and saphyr would reject a second one or a malformed one
    // and stop before composing (npm yaml composes the document and emits its warnings).
    let to_blank: &[(usize, usize)] = if pre.blank_directives { &pre.directive_lines } else { &pre.yaml_lines };
    let blanked: Option<String> = if !to_blank.is_empty() {
        let mut t = String::with_capacity(pre.doc1_end);
        let mut last = 0;
        for &(a, e) in to_blank {
            t.push_str(&text[last..a]);
            let line = &text[a..e];
            for c in line.chars() {
                t.push(if c == '\n' { '\n' } else { ' ' });
            }
            last = e;
        }
        t.push_str(&text[last..pre.doc1_end.max(last)]);
        Some(t)
    } else {
        None
    };
    let input: &str = blanked.as_deref().unwrap_or(&text[..pre.doc1_end]);
    // Characters that are ordinary content for npm yaml but special to saphyr are swapped for
    // unused private-use chars (one char for one, so char indices are kept) and restored in
    // scalar values: a `\r` not followed by `\n` (content for npm yaml, a line break for
    // saphyr) and a raw NUL (content for npm yaml, the end of input for saphyr's reader).
    let lone_cr = input.as_bytes().windows(2).any(|w| w[0] == b'\r' && w[1] != b'\n') || input.ends_with('\r');
    let nul = input.as_bytes().contains(&0);
    let mut placeholders: Vec<(char, char)> = Vec::new();
    if lone_cr || nul {
        let mut unused = ('\u{E000}'..='\u{F8FF}').chain('\u{F0000}'..='\u{FFFFD}').filter(|c| !input.contains(*c));
        let mut take = |orig: char| {
            let ph = unused.next().unwrap_or('\u{FFFFD}');
            placeholders.push((ph, orig));
            ph
        };
        let cr_ph = if lone_cr { Some(take('\r')) } else { None };
        let nul_ph = if nul { Some(take('\0')) } else { None };
        let mut t = String::with_capacity(input.len() + 16);
        let mut it = input.chars().peekable();
        while let Some(c) = it.next() {
            match (c, cr_ph, nul_ph) {
                ('\r', Some(ph), _) if it.peek() != Some(&'\n') => t.push(ph),
                ('\0', _, Some(ph)) => t.push(ph),
                _ => t.push(c),
            }
        }
        return (std::borrow::Cow::Owned(t), placeholders);
    }
    match blanked {
        Some(t) => (std::borrow::Cow::Owned(t), placeholders),
        None => (std::borrow::Cow::Borrowed(&text[..pre.doc1_end]), placeholders),
    }
}

#[allow(clippy::result_large_err)]
fn parse_inner(text: &str) -> Result<Parsed, YamlError> {
    let src = Source::new(text);
    let pre = errmap::prescan(&src);
    // A block sequence npm yaml drops unchecked (`? x` then `- ...`, item 2(a)) in which saphyr
    // fails: the lines npm yaml's parser gives that sequence become comment lines (offsets
    // kept) and the document is parsed again (a few rounds at most, only after such errors).
    // Errors are still shown with the original text.
    let mut rerun: Option<String> = None;
    let mut rounds = 0;
    let (outcome, diags, scan_err, second_doc) = loop {
        let cur_text = rerun.as_deref().unwrap_or(text);
        let rerun_src;
        let cur_src = match &rerun {
            None => &src,
            Some(t) => {
                rerun_src = Source::new(t);
                &rerun_src
            }
        };
        let (input, placeholders) = saphyr_input(cur_text, &pre);
        let lone_base = lone_surrogate_base(&input);
        let mut parser = saphyr_parser::Parser::new_from_str(&input);
        parser.set_lone_surrogate_base(lone_base);
        parser.set_cr_stand_in(placeholders.iter().find(|p| p.1 == '\r').map(|p| p.0));
        let mut composer = Composer::new(cur_src, pre.tag_prefixes.clone(), pre.doc1_end);
        composer.placeholders = placeholders;
        composer.schema = pre.schema;
        composer.lone_base = lone_base;
        let (outcome, diags, scan_err, second_doc, retry) = composer.run(&mut parser);
        if let Some((dash, end, marker)) = retry
            && rounds < 8
            && let Some(mut t) = comment_out(cur_text, dash + 1, end)
        {
            if let Some(m) = marker {
                // all ASCII (checked by the composer)
                t.replace_range(m..m + 3, "? #");
            }
            rerun = Some(t);
            rounds += 1;
            continue;
        }
        break (outcome, diags, scan_err, second_doc);
    };
    let mut errors = diags.errors;
    let mut warn_diags = pre.warnings.clone();
    warn_diags.extend(diags.warnings);
    if let Some(e) = pre.error.clone() {
        errors.insert(0, e);
    }
    let _ = scan_err;
    if let Some(e) = pre.late_error.clone() {
        errors.push(e);
    }
    let second = second_doc.map(|(b, _)| b).or(pre.extra_doc);
    if let Some(b) = second {
        errors.push(errmap::multi_doc_error(&src, b));
    }
    let mut warnings: Vec<String> = warn_diags.iter().map(|w| render(&src, w).0).collect();
    if let Some(e) = errors.first() {
        return Err(to_error(&src, e, warnings));
    }
    let ComposeOutcome::Done(doc) = outcome else {
        let d = Diag::bare("YAMLParseError", "Unexpected end of input".into());
        return Err(to_error(&src, &d, warnings));
    };
    let mut tj = tojs::ToJs::new(&doc, text);
    let res = tj.run();
    warnings.extend(tj.warnings.iter().map(|w| render(&src, w).0));
    match res {
        Err(d) => Err(to_error(&src, &d, warnings)),
        Ok(value) => {
            let top_keys = std::mem::take(&mut tj.top_keys)
                .into_iter()
                .map(|tk| {
                    let k = &doc.nodes[tk.key_node];
                    let v = &doc.nodes[tk.value_node];
                    // an empty value is reported right after the `:` indicator
                    let (vs, ve) = if v.start == v.end && text.as_bytes().get(v.start) == Some(&b':') {
                        (v.start + 1, v.start + 1)
                    } else {
                        (v.start, v.end)
                    };
                    KeySpan {
                        key: tk.key,
                        key_start: src.pos_of_byte(k.start),
                        value_start: src.pos_of_byte(vs),
                        value_end: src.pos_of_byte(ve),
                    }
                })
                .collect();
            Ok(Parsed { value, top_keys, warnings })
        }
    }
}
