//! `YAML.parse(src)` with default options (`public-api.ts`): the lexer, the CST parser, the
//! composer, `prettifyError` and `toJS`, with what Node shows of the outcome.

use crate::compose::composer::compose;
use crate::cst::Cst;
use crate::errors::ErrorCode;
use crate::js::{JsStr, Value};
use crate::pretty::LineCounter;
use crate::tojs::{ToJs, TopKey};

/// What `YAML.parse` returns.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub value: Value,
    /// `String(w)` of each warning `YAML.parse` emits, in order: the document's
    /// (`YAMLWarning: ... at line L, column C:` and the source line), then `toJS`'s
    /// (`Warning: Keys with collection values will be stringified ...`)
    pub warnings: Vec<String>,
    /// the top-level map's keys, in order (when the document is a map)
    pub top_keys: Vec<TopKey>,
}

/// What `YAML.parse` throws.
#[derive(Debug, Clone)]
pub struct YamlError {
    /// `YAMLParseError`, or `toJS`'s `ReferenceError`, `Error`, `TypeError`, `RangeError`
    pub name: &'static str,
    /// npm yaml's error code (`None` for an error `toJS` throws)
    pub code: Option<ErrorCode>,
    /// the message without the position
    pub message: String,
    /// `[line, col]` (1-based, column in UTF-16 units) of a `YAMLParseError`
    pub line_pos: Option<(u32, u32)>,
    /// `String(e)`, lone surrogates kept (npm yaml cuts long lines by UTF-16 units)
    pub pretty: JsStr,
    /// warnings emitted before the error was thrown
    pub warnings: Vec<String>,
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.pretty.as_str())
    }
}

impl std::error::Error for YamlError {}

/// `YAML.parse(src)`.
#[allow(clippy::result_large_err)]
pub fn parse(src: &str) -> Result<Parsed, YamlError> {
    let tokens = crate::lexer::lex(src);
    let cst = crate::parser::parse(src, &tokens);
    compose_and_convert(src, &tokens, &cst)
}

/// The first document of `src` composed (`parseDocument` up to the second document): its
/// nodes with their ranges, and its errors and warnings (byte positions), for a caller that
/// reads the nodes with semantics of its own (the engine's configuration dialect).
pub fn compose_document(src: &str) -> crate::compose::composer::Composed {
    let tokens = crate::lexer::lex(src);
    let cst = crate::parser::parse(src, &tokens);
    compose(src, &cst)
}

#[allow(clippy::result_large_err)]
fn compose_and_convert(src: &str, tokens: &[crate::token::Token], cst: &Cst) -> Result<Parsed, YamlError> {
    let composed = compose(src, cst);
    let lc = (!composed.errors.is_empty() || !composed.warnings.is_empty()).then(|| LineCounter::new(src, tokens, cst));
    let mut warnings: Vec<String> = Vec::new();
    if let Some(lc) = &lc {
        for w in &composed.warnings {
            warnings.push(String::from_utf16_lossy(&lc.pretty("YAMLWarning", w)));
        }
    }
    if let (Some(e), Some(lc)) = (composed.errors.first(), &lc) {
        let s = lc.unit(e.pos.start);
        let line_pos = lc.line_pos(s);
        return Err(YamlError {
            name: "YAMLParseError",
            code: Some(e.code),
            message: e.message.clone(),
            line_pos: Some(line_pos),
            pretty: JsStr::from_utf16(&lc.pretty("YAMLParseError", e)),
            warnings,
        });
    }
    let mut tj = ToJs::new(&composed.doc);
    let res = tj.run();
    warnings.append(&mut tj.warnings);
    match res {
        Ok(value) => Ok(Parsed { value, warnings, top_keys: std::mem::take(&mut tj.top_keys) }),
        Err(d) => Err(YamlError {
            name: d.name,
            code: None,
            pretty: JsStr::new(format!("{}: {}", d.name, d.message)),
            message: d.message,
            line_pos: None,
            warnings,
        }),
    }
}
