//! `YAML.parse(src)` with default options (`public-api.ts`): the lexer, the CST parser, the
//! composer, `prettifyError` and `toJS`, with what Node shows of the outcome.

use crate::compose::composer::compose;
use crate::cst::{Cst, Node, NodeId, Top};
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

/// Collections nested deeper than this are composed on a thread of its own with
/// [`DEEP_STACK`] bytes of stack: the composer (and the collection-key stringifier) recurse on
/// collections, to npm yaml's own limit (`compose::composer::COST_LIMIT`: some 1,000 flow or
/// 2,000 block levels, about 1.5 KB of stack each), which a caller's thread need not have room for.
const DEEP: usize = 64;
const DEEP_STACK: usize = 16 << 20;

/// `YAML.parse(src)`.
#[allow(clippy::result_large_err)]
pub fn parse(src: &str) -> Result<Parsed, YamlError> {
    let tokens = crate::lexer::lex(src);
    let cst = crate::parser::parse(src, &tokens);
    deep_safe(&cst, || compose_and_convert(src, &tokens, &cst))
}

/// The first document of `src` composed (`parseDocument` up to the second document): its
/// nodes with their ranges, and its errors and warnings (byte positions), for a caller that
/// reads the nodes with semantics of its own (the engine's configuration dialect).
pub fn compose_document(src: &str) -> crate::compose::composer::Composed {
    let tokens = crate::lexer::lex(src);
    let cst = crate::parser::parse(src, &tokens);
    deep_safe(&cst, || compose(src, &cst))
}

/// `run`, on a thread with [`DEEP_STACK`] bytes of stack when `cst` nests deeper than [`DEEP`].
fn deep_safe<T: Send>(cst: &Cst, run: impl FnOnce() -> T + Send + Copy) -> T {
    if max_depth(cst) > DEEP {
        return std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(DEEP_STACK)
                .spawn_scoped(s, run)
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
        })
        .unwrap_or_else(|_| run());
    }
    run()
}

/// The deepest nesting of collections in the tree.
fn max_depth(cst: &Cst) -> usize {
    let mut max = 0;
    let mut stack: Vec<(NodeId, usize)> = Vec::new();
    for t in &cst.top {
        if let Top::Node(id) = t {
            stack.push((*id, 0));
        }
    }
    while let Some((id, d)) = stack.pop() {
        match cst.node(id) {
            Node::Document { value, .. } => stack.extend(value.map(|v| (v, d))),
            Node::BlockMap { items, .. } | Node::BlockSeq { items, .. } | Node::FlowCollection { items, .. } => {
                max = max.max(d + 1);
                for it in items {
                    stack.extend(it.key.map(|k| (k, d + 1)));
                    stack.extend(it.value.map(|v| (v, d + 1)));
                }
            }
            _ => {}
        }
    }
    max
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
