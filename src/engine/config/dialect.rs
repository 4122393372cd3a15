//! The harness's configuration dialect: YAML as js-yaml 4.2 loads it with `JSON_SCHEMA`
//! extended by a `!!js` scalar tag (`vendor/include/src/index.ts:9-23`), used by patch files
//! and agent-preset compositions.
//!
//! This is a resolver over the nodes of the `npm_yaml` crate's composer, not a YAML parser: the
//! crate does the syntax (npm yaml's, which reads what js-yaml reads on files like these), this
//! module builds values (keeping the line of every value and key) and resolves scalars from
//! their source text as js-yaml's `JSON_SCHEMA` does:
//! * only *plain* scalars are resolved implicitly, in the order null, bool, int, float; quoted
//!   and block scalars are strings;
//! * null is `~`, `null`, `Null`, `NULL` or an empty node; booleans are `true`/`True`/`TRUE` and
//!   `false`/`False`/`FALSE` (`yes` is a string);
//! * integers are decimal (`01` is 1), `0x…`, `0o…` or `0b…`, with an optional sign, and no `_`;
//!   floats follow js-yaml's pattern and must be finite unless `.inf`/`.nan`;
//! * explicit tags: `!!str`, `!!null`, `!!bool`, `!!int`, `!!float`, `!!seq`, `!!map`, the
//!   non-specific `!`, and `!!js` (a JavaScript expression, kept as text); any other tag is an
//!   error, as in js-yaml;
//! * a duplicate mapping key (compared as JavaScript's `String(key)`) is an error; `<<` is an
//!   ordinary key (the schema has no merge type); aliases resolve to a copy of their anchor;
//! * one document at most (`yaml.load`): an empty or comments-only file loads as "nothing".

use crate::engine::yaml::aliases::{AliasTally, EXCESSIVE_ALIAS_COUNT};
use npm_yaml::compose::doc::{Doc, NodeKind, ScalarStyle};
use npm_yaml::errors::ErrorCode;
use npm_yaml::schema::Scalar;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Where a configuration value was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file on this machine (its path as dsh-skills opened it).
    File(String),
    /// Knowledge of the shipped harness, with the repository path it comes from.
    Shipped(&'static str),
}

/// A source and a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub source: Rc<Source>,
    pub line: usize,
}

impl Loc {
    pub fn shipped(path: &'static str, line: usize) -> Loc {
        Loc { source: Rc::new(Source::Shipped(path)), line }
    }
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &*self.source {
            Source::File(path) if self.line == 0 => f.write_str(path),
            Source::File(path) => write!(f, "{path}:{}", self.line),
            Source::Shipped(path) if self.line == 0 => write!(f, "shipped {path}"),
            Source::Shipped(path) => write!(f, "shipped {path}:{}", self.line),
        }
    }
}

/// A loaded value with the place it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub at: Loc,
}

/// One mapping entry; the key keeps its own line.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_at: Loc,
    pub value: Node,
}

/// What js-yaml constructs, as far as the harness's configuration can hold it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// Every YAML number is one JavaScript number.
    Number(f64),
    Str(String),
    /// A `!!js` expression (`{__jsExpr: text}`), evaluated by the harness at mount time.
    Js(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

impl Value {
    /// JavaScript truthiness (`Boolean(value)`); a `!!js` node is an object, hence truthy.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(n) => *n != 0.0 && !n.is_nan(),
            Value::Str(s) => !s.is_empty(),
            Value::Js(_) | Value::Seq(_) | Value::Map(_) => true,
        }
    }

    /// How the harness would describe the value's type in an error (`typeof`, with arrays and
    /// null told apart).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::Str(_) => "string",
            Value::Js(_) => "!!js expression",
            Value::Seq(_) => "array",
            Value::Map(_) => "object",
        }
    }

    /// JavaScript's `String(value)`, as js-yaml turns a mapping key into a property name.
    pub fn js_string(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => js_number(*n),
            Value::Str(s) => s.clone(),
            Value::Js(_) | Value::Map(_) => "[object Object]".into(),
            Value::Seq(items) => items
                .iter()
                .map(|n| match &n.value {
                    Value::Null => String::new(),
                    other => other.js_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    /// The JSON rendering used in reports (`!!js` as `{"__jsExpr": …}`).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => (*b).into(),
            Value::Number(n) => serde_json::Number::from_f64(*n).map(serde_json::Value::Number).unwrap_or_default(),
            Value::Str(s) => s.clone().into(),
            Value::Js(e) => serde_json::json!({ "__jsExpr": e }),
            Value::Seq(items) => items.iter().map(|n| n.value.to_json()).collect::<Vec<_>>().into(),
            Value::Map(entries) => {
                serde_json::Value::Object(entries.iter().map(|e| (e.key.clone(), e.value.value.to_json())).collect())
            }
        }
    }
}

impl Node {
    /// The entry under `key` of a mapping node.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        match &self.value {
            Value::Map(entries) => entries.iter().find(|e| e.key == key),
            _ => None,
        }
    }

    pub fn get_value(&self, key: &str) -> Option<&Value> {
        self.get(key).map(|e| &e.value.value)
    }

    /// Set `key` as a JavaScript assignment does: an existing property keeps its place.
    pub fn set(&mut self, entry: Entry) {
        if let Value::Map(entries) = &mut self.value {
            match entries.iter_mut().find(|e| e.key == entry.key) {
                Some(slot) => *slot = entry,
                None => entries.push(entry),
            }
        }
    }
}

/// `Number.prototype.toString()` for the values a configuration file holds.
pub fn js_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity".into() } else { "-Infinity".into() }
    } else if n == n.trunc() && n.abs() < 1e21 {
        format!("{}", n as i128)
    } else {
        format!("{n}")
    }
}

/// A file the harness would refuse to load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DialectError {
    /// 1-based; 0 when unknown.
    pub line: usize,
    /// 1-based; 0 when unknown.
    pub column: usize,
    pub message: String,
    /// A limit of dsh-skills (alias count, depth), not an error js-yaml would raise: the harness
    /// itself would load the file.
    pub ours: bool,
}

impl std::fmt::Display for DialectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

const CORE: &str = "tag:yaml.org,2002:";

/// How deep collections may nest in a configuration file: js-yaml composes recursively and
/// overflows its stack somewhere past this; dsh-skills refuses it by name (and the crate's
/// composer stops earlier, at npm yaml's own limit: some 800 flow or 900 block levels).
pub const MAX_DEPTH: usize = 1000;

/// A composer node as the loader reads it: what the event stream of a streaming parser gives.
enum Event<'d> {
    /// (text, plain, anchor id (0: none), tag)
    Scalar(std::borrow::Cow<'d, str>, bool, usize, Option<&'d str>),
    /// the anchored node's id (0: an alias the composer could not resolve)
    Alias(usize),
    SequenceStart(usize, Option<&'d str>),
    MappingStart(usize, Option<&'d str>),
    SequenceEnd,
    MappingEnd,
}

/// What is left to visit of the document, last first.
enum Visit {
    /// a node, or the empty value of a pair without one (at this byte)
    Node(usize),
    Empty(u32),
    End(bool),
}

/// The composed document as events, in document order, with the byte where each starts; an
/// explicit stack, so input depth is no recursion here.
struct Events<'d> {
    doc: &'d Doc,
    todo: Vec<Visit>,
}

impl<'d> Events<'d> {
    fn new(doc: &'d Doc) -> Self {
        Events { doc, todo: doc.root.map(Visit::Node).into_iter().collect() }
    }

    /// An anchored node's id: its index plus one.
    fn anchor(&self, id: usize) -> usize {
        if self.doc.nodes[id].anchor.is_some() { id + 1 } else { 0 }
    }
}

impl<'d> Iterator for Events<'d> {
    type Item = (Event<'d>, u32);

    fn next(&mut self) -> Option<(Event<'d>, u32)> {
        let (id, node) = match self.todo.pop()? {
            Visit::End(map) => return Some((if map { Event::MappingEnd } else { Event::SequenceEnd }, 0)),
            Visit::Empty(at) => return Some((Event::Scalar("".into(), true, 0, None), at)),
            Visit::Node(id) => (id, &self.doc.nodes[id]),
        };
        let at = node.range[0];
        let tag = node.tag.as_deref();
        Some(match &node.kind {
            NodeKind::Scalar { value, style, source } => {
                let text = match value {
                    Scalar::Str(s) => s.as_str(),
                    _ => source.as_str(),
                };
                (Event::Scalar(text.into(), *style == ScalarStyle::Plain, self.anchor(id), tag), at)
            }
            NodeKind::Alias { target, .. } => (Event::Alias(target.map_or(0, |t| t + 1)), at),
            NodeKind::Seq { items, .. } => {
                self.todo.push(Visit::End(false));
                self.todo.extend(items.iter().rev().map(|&i| Visit::Node(i)));
                (Event::SequenceStart(self.anchor(id), tag), at)
            }
            NodeKind::Map { pairs, .. } => {
                self.todo.push(Visit::End(true));
                for &(k, v) in pairs.iter().rev() {
                    self.todo.push(v.map_or(Visit::Empty(self.doc.nodes[k].range[2]), Visit::Node));
                    self.todo.push(Visit::Node(k));
                }
                (Event::MappingStart(self.anchor(id), tag), at)
            }
        })
    }
}

/// Line starts of a text, for the 1-based line of any byte in `O(log n)`.
struct Lines<'t> {
    text: &'t str,
    starts: Vec<u32>,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i as u32 + 1));
        Lines { text, starts }
    }

    fn line(&self, at: u32) -> usize {
        self.starts.partition_point(|&s| s <= at)
    }

    /// 1-based line and column (in chars).
    fn line_col(&self, at: u32) -> (usize, usize) {
        let line = self.line(at);
        let start = self.starts[line - 1] as usize;
        let end = (at as usize).clamp(start, self.text.len());
        let col = self.text.get(start..end).map_or(0, |s| s.chars().count());
        (line, col + 1)
    }
}

/// The composer's first error, as the loader reports it; `None` when there is none it keeps
/// (duplicate keys and tags are the dialect's own rules, checked as the nodes are read).
fn syntax_error(lines: &Lines<'_>, composed: &npm_yaml::compose::composer::Composed) -> Option<DialectError> {
    composed.errors.iter().find_map(|e| {
        let (line, column) = lines.line_col(e.pos.start);
        let (message, ours) = match e.code {
            ErrorCode::DuplicateKey => return None,
            ErrorCode::TagResolveFailed
                if e.message.starts_with("Unresolved tag") || e.message.starts_with("!!timestamp") =>
            {
                return None;
            }
            ErrorCode::MultipleDocs => ("expected a single document in the stream, but found more".to_string(), false),
            ErrorCode::ResourceExhaustion => (too_deep(), true),
            _ => (e.message.clone(), false),
        };
        Some(DialectError { line, column, message, ours })
    })
}

enum Frame {
    Seq { items: Vec<Node>, at: Loc, anchor: usize, leaves: f64 },
    Map { entries: Vec<Entry>, keys: HashSet<String>, key: Option<(String, Loc)>, at: Loc, anchor: usize, leaves: f64 },
}

impl Frame {
    /// Where the child being built will go (`None` while a mapping key is built: keys are
    /// turned into strings, so an anchor in one is copied).
    fn next_index(&self) -> Option<usize> {
        match self {
            Frame::Seq { items, .. } => Some(items.len()),
            Frame::Map { entries, key: Some(_), .. } => Some(entries.len()),
            Frame::Map { key: None, .. } => None,
        }
    }

    fn leaves(&mut self) -> &mut f64 {
        match self {
            Frame::Seq { leaves, .. } | Frame::Map { leaves, .. } => leaves,
        }
    }
}

/// Where an anchored node is: a copy (a node in a mapping key), or its path through the tree
/// being built, one child index per level from the document's root. A path is followed through
/// the frames still open, then through the finished nodes, so defining an anchor copies nothing.
enum Anchored {
    Copy(Node),
    Path(Vec<usize>),
}

struct Anchor {
    at: Anchored,
    /// The node's largest leaf weight ([`AliasTally`]).
    leaves: f64,
    tally: AliasTally,
}

/// The anchored node at `path` in the tree under construction.
fn follow<'a>(stack: &'a [Frame], path: &[usize]) -> Option<&'a Node> {
    let mut level = 0;
    // Through the frames still open: their child at the path's index is still being built.
    while level + 1 < path.len() && level + 1 < stack.len() && stack[level].next_index() == Some(path[level]) {
        level += 1;
    }
    let child = |children: &'a Value, i: usize| -> Option<&'a Node> {
        match children {
            Value::Seq(items) => items.get(i),
            Value::Map(entries) => entries.get(i).map(|e| &e.value),
            _ => None,
        }
    };
    let mut node = match &stack[level] {
        Frame::Seq { items, .. } => items.get(path[level])?,
        Frame::Map { entries, .. } => &entries.get(path[level])?.value,
    };
    for &i in &path[level + 1..] {
        node = child(&node.value, i)?;
    }
    Some(node)
}

fn too_deep() -> String {
    "collections nested too deep (js-yaml would exhaust its call stack: Maximum call stack size exceeded)".into()
}

/// Load one document (`yaml.load(text, {schema: entryListSchema})`). `Ok(None)` is js-yaml's
/// `undefined`: the file holds no document.
///
/// Aliases are copies of their anchor, bounded by the alias-count rule every YAML loader of the
/// crate applies ([`crate::engine::yaml::aliases`]); nesting is bounded by [`MAX_DEPTH`]. Both
/// limits are dsh-skills' own (js-yaml shares aliased nodes), reported as [`DialectError::ours`].
pub fn load(text: &str, source: Rc<Source>) -> Result<Option<Node>, DialectError> {
    // js-yaml drops one leading byte-order mark.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let composed = npm_yaml::api::compose_document(text);
    let lines = Lines::new(text);
    if let Some(e) = syntax_error(&lines, &composed) {
        return Err(e);
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Anchor> = HashMap::new();
    let mut result: Option<Node> = None;
    let loc = |at: u32| Loc { source: source.clone(), line: lines.line(at) };
    let error_at = |at: u32, message: String| {
        let (line, column) = lines.line_col(at);
        DialectError { line, column, message, ours: false }
    };
    let ours_at = |at: u32, message: String| DialectError { ours: true, ..error_at(at, message) };
    for (event, at) in Events::new(&composed.doc) {
        if matches!(event, Event::SequenceStart(..) | Event::MappingStart(..)) && stack.len() >= MAX_DEPTH {
            return Err(ours_at(at, too_deep()));
        }
        // (node, its anchor, its largest leaf weight)
        let finished: Option<(Node, usize, f64)> = match event {
            Event::Alias(id) => {
                let Some(anchor) = anchors.get_mut(&id) else {
                    return Err(error_at(at, "unidentified alias".into()));
                };
                let leaves = anchor.tally.needs_leaves().then_some(anchor.leaves);
                if !anchor.tally.alias(leaves) {
                    return Err(ours_at(at, EXCESSIVE_ALIAS_COUNT.into()));
                }
                let weight = anchor.tally.weight();
                let node = match &anchor.at {
                    Anchored::Copy(node) => node,
                    Anchored::Path(path) => follow(&stack, path).expect("an anchored node stays where it was put"),
                };
                Some((Node { value: node.value.clone(), at: loc(at) }, 0, weight))
            }
            Event::Scalar(text, plain, anchor, tag) => {
                let value = resolve_scalar(&text, plain, tag).map_err(|m| error_at(at, m))?;
                Some((Node { value, at: loc(at) }, anchor, 1.0))
            }
            Event::SequenceStart(anchor, tag) => {
                check_collection_tag(tag, "sequence").map_err(|m| error_at(at, m))?;
                stack.push(Frame::Seq { items: Vec::new(), at: loc(at), anchor, leaves: 0.0 });
                None
            }
            Event::MappingStart(anchor, tag) => {
                check_collection_tag(tag, "mapping").map_err(|m| error_at(at, m))?;
                stack.push(Frame::Map {
                    entries: Vec::new(),
                    keys: HashSet::new(),
                    key: None,
                    at: loc(at),
                    anchor,
                    leaves: 0.0,
                });
                None
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq { items, at, anchor, leaves }) => {
                    Some((Node { value: Value::Seq(items), at }, anchor, leaves))
                }
                _ => unreachable!("the events of a composed document are balanced"),
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map { entries, at, anchor, leaves, .. }) => {
                    Some((Node { value: Value::Map(entries), at }, anchor, leaves))
                }
                _ => unreachable!("the events of a composed document are balanced"),
            },
        };
        let Some((node, anchor, leaves)) = finished else { continue };
        if let Some(parent) = stack.last_mut() {
            let parent_leaves = parent.leaves();
            *parent_leaves = parent_leaves.max(leaves);
        }
        if anchor != 0 {
            let at = match stack.iter().map(Frame::next_index).collect::<Option<Vec<usize>>>() {
                Some(path) if !path.is_empty() => Anchored::Path(path),
                _ => Anchored::Copy(node.clone()),
            };
            anchors.insert(anchor, Anchor { at, leaves, tally: AliasTally::default() });
        }
        match stack.last_mut() {
            None => result = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, keys, key, .. }) => match key.take() {
                None => {
                    let name = node.value.js_string();
                    if !keys.insert(name.clone()) {
                        return Err(DialectError {
                            line: node.at.line,
                            column: 0,
                            message: format!("duplicated mapping key {}", serde_json::Value::String(name)),
                            ours: false,
                        });
                    }
                    *key = Some((name, node.at));
                }
                Some((name, key_at)) => entries.push(Entry { key: name, key_at, value: node }),
            },
        }
    }
    Ok(result)
}

fn check_collection_tag(tag: Option<&str>, kind: &str) -> Result<(), String> {
    let Some(name) = tag else { return Ok(()) };
    let wanted = if kind == "sequence" { "seq" } else { "map" };
    match name.strip_prefix(CORE) {
        _ if name == "!" => Ok(()),
        Some(s) if s == wanted => Ok(()),
        Some("str" | "null" | "bool" | "int" | "float" | "js") => Err(format!(
            "unacceptable node kind for !<{name}> tag; it should be \"scalar\", not \"{}\"",
            if kind == "sequence" { "sequence" } else { "mapping" }
        )),
        Some("seq" | "map") => Err(format!(
            "unacceptable node kind for !<{name}> tag; it should be \"{}\", not \"{kind}\"",
            if wanted == "seq" { "mapping" } else { "sequence" }
        )),
        _ => Err(format!("unknown tag !<{name}>")),
    }
}

fn resolve_scalar(text: &str, plain: bool, tag: Option<&str>) -> Result<Value, String> {
    // js-yaml's "no content": an empty plain scalar is an empty node (`state.result === null`).
    let empty_node = plain && text.is_empty();
    let Some(name) = tag else {
        return Ok(if plain { implicit(text) } else { Value::Str(text.to_string()) });
    };
    if name == "!" {
        return Ok(if empty_node { Value::Null } else { Value::Str(text.to_string()) });
    }
    let cannot = || format!("cannot resolve a node with !<{name}> explicit tag");
    match name.strip_prefix(CORE) {
        Some("str") => Ok(Value::Str(text.to_string())),
        Some("null") => {
            if empty_node || is_null(text) {
                Ok(Value::Null)
            } else {
                Err(cannot())
            }
        }
        Some("bool") => bool_of(text).map(Value::Bool).ok_or_else(cannot),
        Some("int") => int_of(text).map(Value::Number).ok_or_else(cannot),
        Some("float") => float_of(text).map(Value::Number).ok_or_else(cannot),
        Some("js") => {
            if empty_node {
                Err(cannot())
            } else {
                Ok(Value::Js(text.to_string()))
            }
        }
        Some("seq") if empty_node => Ok(Value::Seq(Vec::new())),
        Some("map") if empty_node => Ok(Value::Map(Vec::new())),
        Some(kind @ ("seq" | "map")) => Err(format!(
            "unacceptable node kind for !<{name}> tag; it should be \"{}\", not \"scalar\"",
            if kind == "seq" { "sequence" } else { "mapping" }
        )),
        _ => Err(format!("unknown tag !<{name}>")),
    }
}

/// Implicit resolution of a plain scalar: null, bool, int, float, else a string.
fn implicit(text: &str) -> Value {
    if text.is_empty() || is_null(text) {
        return Value::Null;
    }
    if let Some(b) = bool_of(text) {
        return Value::Bool(b);
    }
    if let Some(n) = int_of(text) {
        return Value::Number(n);
    }
    if let Some(n) = float_of(text) {
        return Value::Number(n);
    }
    Value::Str(text.to_string())
}

fn is_null(text: &str) -> bool {
    matches!(text, "~" | "null" | "Null" | "NULL")
}

fn bool_of(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// js-yaml 4.2 `int`: optional sign, then `0`, `0b…`, `0x…`, `0o…` or decimal digits; the
/// result must be finite.
fn int_of(text: &str) -> Option<f64> {
    let (sign, body) = match text.as_bytes().first() {
        Some(b'-') => (-1.0, &text[1..]),
        Some(b'+') => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    let radix_digits = |prefix: &str, radix: u32| -> Option<f64> {
        let digits = body.strip_prefix(prefix)?;
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        // parseInt: exact up to 2^53, then the nearest double.
        let mut value = 0f64;
        for c in digits.chars() {
            value = value * f64::from(radix) + f64::from(c.to_digit(radix)?);
        }
        Some(value)
    };
    let value = if body.len() > 1 && body.starts_with('0') && matches!(body.as_bytes()[1], b'b' | b'x' | b'o') {
        match body.as_bytes()[1] {
            b'b' => radix_digits("0b", 2)?,
            b'x' => radix_digits("0x", 16)?,
            _ => radix_digits("0o", 8)?,
        }
    } else {
        if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        body.parse::<f64>().ok()?
    };
    // `parseYamlInteger` returns a bare 0 for `-0`: no negative zero.
    if value == 0.0 {
        return Some(0.0);
    }
    value.is_finite().then_some(sign * value)
}

/// js-yaml 4.2 `float`: `[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?`, `\.[0-9]+([eE][-+]?[0-9]+)?`,
/// `[-+]?\.(inf|Inf|INF)`, `\.(nan|NaN|NAN)`; a finite value, or one of the specials.
fn float_of(text: &str) -> Option<f64> {
    let (sign, body) = match text.as_bytes().first() {
        Some(b'-') => (-1.0, &text[1..]),
        Some(b'+') => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    if matches!(body, ".inf" | ".Inf" | ".INF") {
        return Some(sign * f64::INFINITY);
    }
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(f64::NAN);
    }
    let signed = text.len() != body.len();
    let bytes = body.as_bytes();
    let digits = |from: usize| bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut i = digits(0);
    if i == 0 {
        // `.5` form: no sign allowed, at least one digit after the dot.
        if signed || bytes.first() != Some(&b'.') {
            return None;
        }
        let frac = digits(1);
        if frac == 0 {
            return None;
        }
        i = 1 + frac;
    } else if bytes.get(i) == Some(&b'.') {
        i += 1 + digits(i + 1);
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(bytes.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        let exp = digits(j);
        if exp == 0 {
            return None;
        }
        i = j + exp;
    }
    if i != bytes.len() {
        return None;
    }
    let value: f64 = body.to_ascii_lowercase().parse().ok()?;
    value.is_finite().then_some(sign * value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_str(text: &str) -> Result<Option<Node>, DialectError> {
        load(text, Rc::new(Source::File("t.yml".into())))
    }

    fn value(text: &str) -> Value {
        load_str(text).unwrap().unwrap().value
    }

    fn scalar(text: &str) -> Value {
        match value(&format!("k: {text}\n")) {
            Value::Map(mut e) => e.remove(0).value.value,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn json_schema_scalars() {
        assert_eq!(scalar("~"), Value::Null);
        assert_eq!(scalar("null"), Value::Null);
        assert_eq!(scalar("NULL"), Value::Null);
        assert_eq!(scalar("nULL"), Value::Str("nULL".into()));
        assert_eq!(scalar(""), Value::Null);
        assert_eq!(scalar("True"), Value::Bool(true));
        assert_eq!(scalar("FALSE"), Value::Bool(false));
        assert_eq!(scalar("yes"), Value::Str("yes".into()));
        assert_eq!(scalar("on"), Value::Str("on".into()));
        assert_eq!(scalar("01"), Value::Number(1.0));
        assert_eq!(scalar("0x1F"), Value::Number(31.0));
        assert_eq!(scalar("-0o17"), Value::Number(-15.0));
        assert_eq!(scalar("0b101"), Value::Number(5.0));
        assert_eq!(scalar("1_000"), Value::Str("1_000".into()));
        assert_eq!(scalar("1.5e3"), Value::Number(1500.0));
        assert_eq!(scalar("1."), Value::Number(1.0));
        assert_eq!(scalar(".5"), Value::Number(0.5));
        assert_eq!(scalar("-.5"), Value::Str("-.5".into()));
        assert_eq!(scalar("1e999"), Value::Str("1e999".into()));
        assert_eq!(scalar("-.inf"), Value::Number(f64::NEG_INFINITY));
        assert!(matches!(scalar(".NaN"), Value::Number(n) if n.is_nan()));
        assert_eq!(scalar("~/skills"), Value::Str("~/skills".into()));
        assert_eq!(scalar("2024-01-01"), Value::Str("2024-01-01".into()));
        assert_eq!(scalar("'true'"), Value::Str("true".into()));
        assert_eq!(scalar("\"\""), Value::Str(String::new()));
        assert_eq!(scalar("!!str 12"), Value::Str("12".into()));
        assert_eq!(scalar("!!int '12'"), Value::Number(12.0));
        assert_eq!(scalar("! true"), Value::Str("true".into()));
    }

    #[test]
    fn js_tag_keeps_the_expression() {
        assert_eq!(scalar("!!js process.env.X"), Value::Js("process.env.X".into()));
        assert_eq!(scalar("!!js \"a('b')\""), Value::Js("a('b')".into()));
        let e = load_str("k: !!js\n").unwrap_err();
        assert!(e.message.contains("cannot resolve a node with !<tag:yaml.org,2002:js>"), "{e}");
        let e = load_str("k: !!js [1]\n").unwrap_err();
        assert!(e.message.contains("unacceptable node kind"), "{e}");
    }

    #[test]
    fn unknown_tags_and_bad_explicit_values_are_errors() {
        assert!(load_str("k: !!timestamp 2024-01-01\n").unwrap_err().message.contains("unknown tag"));
        assert!(load_str("k: !foo x\n").unwrap_err().message.contains("unknown tag !<!foo>"));
        assert!(load_str("k: !!int abc\n").unwrap_err().message.contains("cannot resolve"));
        assert!(load_str("k: !!bool yes\n").unwrap_err().message.contains("cannot resolve"));
    }

    #[test]
    fn duplicate_keys_are_errors_even_across_styles() {
        let e = load_str("a: 1\nb: 2\n'a': 3\n").unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (3, "duplicated mapping key \"a\""));
        assert!(load_str("1: a\n'1': b\n").is_err());
        assert!(load_str("null: a\n~: b\n").is_err());
        // `<<` is an ordinary key in this schema; the alias is a copy of its anchor.
        let v = load_str("base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n").unwrap().unwrap();
        let merged = &v.get("m").unwrap().value;
        let inner = &merged.get("<<").unwrap().value;
        assert_eq!(inner.get_value("x"), Some(&Value::Number(1.0)));
        assert_eq!(merged.get_value("y"), Some(&Value::Number(2.0)));
        assert!(merged.get("x").is_none());
    }

    #[test]
    fn lines_are_kept_for_keys_and_values() {
        let v = load_str("# c\n- id: skill-badge\n  disabled: false\n  config:\n    a: [x, y]\n").unwrap().unwrap();
        let Value::Seq(rows) = &v.value else { panic!() };
        let row = &rows[0];
        assert_eq!(row.at.line, 2);
        assert_eq!(row.get("disabled").unwrap().key_at.line, 3);
        let config = row.get("config").unwrap();
        assert_eq!(config.key_at.line, 4);
        assert_eq!(config.value.get("a").unwrap().value.at.line, 5);
        assert_eq!(format!("{}", config.key_at), "t.yml:4");
    }

    #[test]
    fn empty_comment_only_and_multi_document_files() {
        assert_eq!(load_str("").unwrap(), None);
        assert_eq!(load_str("# only a comment\n").unwrap(), None);
        assert_eq!(value("[]"), Value::Seq(vec![]));
        assert_eq!(value("\u{FEFF}[]"), Value::Seq(vec![]));
        assert!(load_str("- a\n---\n- b\n").unwrap_err().message.contains("single document"));
    }

    #[test]
    fn aliases_copy_their_anchor_wherever_it_is() {
        let v = value("a: &a {x: [1, &b {y: 2}, *b]}\nc: *b\nd: *a\n");
        let yb = Value::Map(vec![Entry {
            key: "y".into(),
            key_at: Loc { source: Rc::new(Source::File("t.yml".into())), line: 1 },
            value: Node {
                value: Value::Number(2.0),
                at: Loc { source: Rc::new(Source::File("t.yml".into())), line: 1 },
            },
        }]);
        let Value::Map(entries) = &v else { panic!("{v:?}") };
        assert_eq!(entries[1].value.value.to_json(), yb.to_json());
        assert_eq!(entries[2].value.value.to_json(), serde_json::json!({"x": [1.0, {"y": 2.0}, {"y": 2.0}]}));
        assert_eq!(value("- [&b {k: v}, *b]\n").to_json(), serde_json::json!([[{"k": "v"}, {"k": "v"}]]));
        assert_eq!(value("{&k a: 1, b: *k}\n").to_json(), serde_json::json!({"a": 1.0, "b": "a"}));
        assert_eq!(value("k: {a: &x 1, b: [*x]}\n").to_json(), serde_json::json!({"k": {"a": 1.0, "b": [1.0]}}));
        assert_eq!(value("&r [1]\n").to_json(), serde_json::json!([1.0]));
    }

    #[test]
    fn the_alias_count_rule_of_skill_files_applies() {
        let aliases = |n: usize| format!("- &a x\n{}", "- *a\n".repeat(n));
        assert!(load_str(&aliases(99)).is_ok());
        let e = load_str(&aliases(100)).unwrap_err();
        assert_eq!(e.message, "Excessive alias count indicates a resource exhaustion attack");
        assert!(e.ours && e.line == 101, "{e:?}");
        // The billion laughs: nine levels of ten aliases each.
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            bomb.push_str(&format!("a{i}: &a{i} [{}]\n", vec![format!("*a{p}"); 10].join(", ")));
        }
        let e = load_str(&bomb).unwrap_err();
        assert!(e.ours && e.message.contains("Excessive alias count"), "{e:?}");
        // An anchor and an alias each, 100,000 times: linear (each definition used to copy its
        // node, and each key was compared with every key before it).
        let mut many = String::new();
        for i in 0..100_000 {
            many.push_str(&format!("a{i}: &a{i} [{i}]\nb{i}: *a{i}\n"));
        }
        let Value::Map(entries) = value(&many) else { panic!() };
        assert_eq!(entries.len(), 200_000);
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(load_str(&deep(500)).is_ok());
        // npm yaml's composer stops first for flow collections (about 835 levels)
        let e = load_str(&deep(MAX_DEPTH)).unwrap_err();
        assert!(e.ours && e.message.contains("nested too deep"), "{e:?}");
        let seqs = |n: usize| format!("{}x\n", "- ".repeat(n));
        assert!(load_str(&seqs(MAX_DEPTH - 1)).is_ok());
        let e = load_str(&seqs(MAX_DEPTH + 1)).unwrap_err();
        assert!(e.ours && e.message.contains("nested too deep"), "{e:?}");
        let e = load_str(&deep(200_000)).unwrap_err();
        assert!(e.ours, "{e:?}");
    }

    #[test]
    fn syntax_errors_carry_a_line() {
        let e = load_str("- id: a\n  config: [x\n- id: b\n").unwrap_err();
        assert!(e.line >= 2, "{e}");
    }
}
