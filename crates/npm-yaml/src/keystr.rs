//! Stringification of collection-valued map keys, a port of the parts of
//! npm yaml's `stringify` used by `stringifyKey` (`key.toString(ctx)` with
//! `inFlow: true`): flow collections, pairs, scalars, `foldFlowLines`.
//! Comments inside the key are printed as npm yaml does (the composer keeps them on the nodes).

use std::collections::HashSet;

use crate::compose::doc::{CollKind, Doc, NodeKind, ScalarStyle};
use crate::js::JsStr;
use crate::js::hashing::FastMap;
use crate::js::number::js_number_to_string;
use crate::js::value::date_to_iso_string;
use crate::schema::{self, Scalar, SchemaKind};
use crate::schema11::{self, NumFormat};
use crate::tojs::Diag;

/// The comments npm yaml's composer put on a node.
struct Notes {
    space_before: bool,
    before: String,
    comment: String,
}

/// Lone surrogates of a key's strings stand in the stringifier's Rust strings as the 2,048
/// private-use chars from here (U+10F800..U+10FFFF; a key that uses them itself has its lone
/// surrogates as U+FFFD).
const LONE_BASE: u32 = 0x10F800;

fn with_stand_ins(s: &JsStr) -> String {
    if !s.has_lone_surrogate() || s.chars().any(|c| c as u32 >= LONE_BASE) {
        return s.as_str().to_string();
    }
    char::decode_utf16(s.to_utf16().0.iter().copied())
        .map(|r| match r {
            Ok(c) => c,
            Err(e) => char::from_u32(LONE_BASE + u32::from(e.unpaired_surrogate() - 0xD800)).unwrap_or('\u{FFFD}'),
        })
        .collect()
}

const LINE_WIDTH: usize = 80;
const MIN_CONTENT_WIDTH: usize = 20;
const INDENT_STEP: &str = "  ";

#[derive(Clone, Default)]
struct Ctx {
    indent: String,
    implicit_key: bool,
    indent_at_start: Option<usize>,
    actual_string: bool,
    /// the document's schema (which plain strings need quotes, how numbers and bools print)
    schema: SchemaKind,
    /// the document's stand-ins for lone surrogates (`Doc::lone_base`)
    lone_base: Option<u32>,
}

struct St<'d> {
    doc: &'d Doc,
    /// The anchors converted before this key (the stringify context's `anchors`), by name.
    known: &'d FastMap<String, u32>,
    /// Anchors met while stringifying this key.
    anchors: HashSet<String>,
}

/// `stringifyComment`: `#` before every non-empty line (a line of one space becomes `#`).
fn comment_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if !line.is_empty() {
            out.push('#');
            if line != " " {
                out.push_str(line);
            }
        }
    }
    out
}

/// `indentComment`
fn indent_comment(comment: &str, indent: &str) -> String {
    if !comment.is_empty() && comment.bytes().all(|c| c == b'\n') {
        return comment[1..].to_string();
    }
    if indent.is_empty() {
        return comment.to_string();
    }
    let mut out = String::with_capacity(comment.len() + indent.len());
    for (i, line) in comment.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if !line.bytes().all(|c| c == b' ') {
            out.push_str(indent);
        }
        out.push_str(line);
    }
    out
}

/// `lineComment`
fn line_comment(s: &str, indent: &str, comment: &str) -> String {
    if s.ends_with('\n') {
        indent_comment(comment, indent)
    } else if comment.contains('\n') {
        format!("\n{}", indent_comment(comment, indent))
    } else if s.ends_with(' ') {
        comment.to_string()
    } else {
        format!(" {comment}")
    }
}

/// `key.toString(strCtx)` for a collection or alias key node.
pub fn stringify_key_node(doc: &Doc, id: usize, known: &FastMap<String, u32>) -> Result<String, Diag> {
    let mut st = St { doc, known, anchors: HashSet::new() };
    let mut ctx = Ctx { schema: doc.schema, lone_base: Some(LONE_BASE), ..Ctx::default() };
    match &doc.nodes[id].kind {
        NodeKind::Alias { name, .. } => Ok(format!("*{name}")),
        NodeKind::Seq { .. } | NodeKind::Map { .. } => {
            let task = st.open_collection(id, &ctx, String::new());
            st.run(task)
        }
        NodeKind::Scalar { .. } => match st.stringify(id, &mut ctx)? {
            Str::Done(s) => Ok(s),
            Str::Open(task) => st.run(task),
        },
    }
}

fn len16(s: &str) -> usize {
    s.encode_utf16().count()
}

impl St<'_> {
    fn notes(&self, id: usize) -> Notes {
        let n = &self.doc.nodes[id];
        Notes { space_before: n.space_before, before: n.comment_before.clone(), comment: n.comment.clone() }
    }

    /// Stringifies the collection `first` opens and the collections under it, with an explicit
    /// stack of tasks (npm yaml's `stringify` -> `stringifyFlowCollection` -> `Pair.toString`
    /// -> `stringify` recursion), so the key's nesting never deepens the Rust stack.
    fn run(&mut self, first: Task) -> Result<String, Diag> {
        let mut stack = vec![first];
        let mut done: Option<String> = None;
        while let Some(task) = stack.last_mut() {
            let (req, ctx) = match task {
                Task::Coll(c) => (self.resume_collection(c, done.take()), &mut c.item_ctx),
                Task::Pair(p) => (self.resume_pair(p, done.take()), &mut p.c2),
            };
            match req {
                Req::Node(id) => match self.stringify(id, ctx)? {
                    Str::Done(s) => done = Some(s),
                    Str::Open(t) => stack.push(t),
                },
                Req::Pair(k, v) => {
                    let t = Task::Pair(self.open_pair(k, v, ctx));
                    stack.push(t);
                }
                Req::Done(s) => {
                    stack.pop();
                    done = Some(s);
                }
            }
        }
        Ok(done.unwrap_or_default())
    }

    /// `stringifyFlowCollection` of `id` in `ctx`, its output to follow `props` (the node's
    /// anchor and tag, `stringify`'s part).
    fn open_collection(&self, id: usize, ctx: &Ctx, props: String) -> Task {
        let node = &self.doc.nodes[id];
        let (start, end, item_indent, items): (&'static str, &'static str, String, Vec<Item>) = match &node.kind {
            NodeKind::Seq { items, kind, .. } => (
                "[",
                "]",
                format!("{}{}", ctx.indent, "  "),
                items
                    .iter()
                    .map(|&i| match (kind, &self.doc.nodes[i].kind) {
                        // `!!omap`/`!!pairs` items are pairs
                        (CollKind::Omap | CollKind::Pairs, NodeKind::Map { pairs, .. }) => match pairs.first() {
                            Some(&(k, v)) => Item::Pair(k, v),
                            None => Item::Null,
                        },
                        (CollKind::Omap | CollKind::Pairs, _) => Item::Pair(i, None),
                        _ => Item::Node(i),
                    })
                    .collect(),
            ),
            NodeKind::Map { pairs, kind, .. } => (
                "{",
                "}",
                ctx.indent.clone(),
                pairs
                    .iter()
                    .map(|&(k, v)| if *kind == CollKind::Set { Item::Pair(k, None) } else { Item::Pair(k, v) })
                    .collect(),
            ),
            _ => unreachable!(),
        };
        let item_ctx = Ctx {
            indent: item_indent + INDENT_STEP,
            implicit_key: ctx.implicit_key,
            indent_at_start: ctx.indent_at_start,
            actual_string: false,
            schema: ctx.schema,
            lone_base: ctx.lone_base,
        };
        Task::Coll(Coll {
            start,
            end,
            indent: ctx.indent.clone(),
            props,
            item_ctx,
            items,
            i: 0,
            req_newline: false,
            lines: Vec::new(),
            lines_at_value: 0,
            comment: String::new(),
        })
    }

    /// `stringifyFlowCollection`'s loop, from where `c` stands: `done` is the last item's text.
    fn resume_collection(&mut self, c: &mut Coll, mut done: Option<String>) -> Req {
        loop {
            if let Some(mut s) = done.take() {
                if c.lines.len() > c.lines_at_value || s.contains('\n') {
                    c.req_newline = true;
                }
                if c.i + 1 < c.items.len() {
                    s.push(',');
                }
                if !c.comment.is_empty() {
                    let l = line_comment(&s, &c.item_ctx.indent, &comment_string(&c.comment));
                    s.push_str(&l);
                }
                c.lines.push(s);
                c.lines_at_value = c.lines.len();
                c.i += 1;
            }
            let Some(&it) = c.items.get(c.i) else { break };
            // `stringifyFlowCollection`: blank lines and comments before an item, its comment
            c.comment.clear();
            let first = match it {
                Item::Node(n) => Some(n),
                Item::Pair(k, _) => Some(k),
                Item::Null => None,
            };
            if let Some(f) = first {
                let nt = self.notes(f);
                if nt.space_before {
                    c.lines.push(String::new());
                }
                if !nt.before.is_empty() {
                    c.lines.push(indent_comment(&comment_string(&nt.before), &c.indent).trim_start().to_string());
                }
                match it {
                    Item::Node(_) => c.comment.clone_from(&nt.comment),
                    Item::Pair(_, v) => {
                        let key_comment = !nt.comment.is_empty();
                        c.req_newline |= key_comment;
                        if v.is_none() && key_comment {
                            c.comment.clone_from(&nt.comment);
                        }
                    }
                    Item::Null => {}
                }
            }
            if let Item::Pair(_, Some(v)) = it {
                let vn = self.notes(v);
                if !vn.comment.is_empty() {
                    c.comment.clone_from(&vn.comment);
                }
                c.req_newline |= !vn.before.is_empty();
            }
            c.req_newline |= !c.comment.is_empty();
            match it {
                Item::Node(n) => return Req::Node(n),
                Item::Pair(k, v) => return Req::Pair(k, v),
                Item::Null => done = Some("null".to_string()),
            }
        }
        let (start, end, lines) = (c.start, c.end, &c.lines);
        let s = if lines.is_empty() {
            format!("{start}{end}")
        } else if c.req_newline || lines.iter().map(|l| len16(l) + 2).sum::<usize>() + 2 > LINE_WIDTH {
            let mut s = start.to_string();
            for l in lines {
                if l.is_empty() {
                    s.push('\n');
                } else {
                    s.push('\n');
                    s.push_str(INDENT_STEP);
                    s.push_str(&c.indent);
                    s.push_str(l);
                }
            }
            format!("{s}\n{}{end}", c.indent)
        } else {
            format!("{start} {} {end}", lines.join(" "))
        };
        // `stringify`'s props before the collection
        Req::Done(if c.props.is_empty() {
            s
        } else if s.starts_with('{') || s.starts_with('[') {
            format!("{} {s}", c.props)
        } else {
            format!("{}\n{}{s}", c.props, c.indent)
        })
    }

    /// `Pair.toString` (`stringifyPair`) of `k` and `v` in `ctx`: its key first.
    fn open_pair(&self, k: usize, v: Option<usize>, ctx: &Ctx) -> Pair {
        let explicit_key = match &self.doc.nodes[k].kind {
            NodeKind::Seq { .. } | NodeKind::Map { .. } => true,
            NodeKind::Scalar { style, .. } => {
                matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
            }
            // `typeof key === 'object'`
            NodeKind::Alias { .. } => true,
        };
        let c2 = Ctx {
            indent: format!("{}{INDENT_STEP}", ctx.indent),
            implicit_key: !explicit_key,
            indent_at_start: ctx.indent_at_start,
            actual_string: false,
            schema: ctx.schema,
            lone_base: ctx.lone_base,
        };
        Pair {
            k,
            v,
            indent: ctx.indent.clone(),
            c2,
            explicit_key,
            at_value: false,
            s: String::new(),
            ws: String::new(),
        }
    }

    /// `stringifyPair`, from where `p` stands: `done` is the key's or the value's text.
    fn resume_pair(&mut self, p: &mut Pair, done: Option<String>) -> Req {
        let Some(done) = done else { return Req::Node(p.k) };
        if p.at_value {
            let vs = done;
            let value = &self.doc.nodes[p.v.unwrap_or(p.k)];
            let value_is_coll = matches!(value.kind, NodeKind::Seq { .. } | NodeKind::Map { .. });
            let mut ws = std::mem::take(&mut p.ws);
            if !ws.is_empty() {
                // the key's comment or the value's blank line or comment put it on a line
            } else if !p.explicit_key && value_is_coll {
                ws.push(' ');
                if let Some(nl0) = vs.find('\n') {
                    let vs0 = vs.chars().next();
                    let mut has_props_line = false;
                    if vs0 == Some('&') || vs0 == Some('!') {
                        let mut sp0 = vs.find(' ');
                        if vs0 == Some('&')
                            && let Some(q) = sp0
                            && q < nl0
                            && vs[q + 1..].starts_with('!')
                        {
                            sp0 = vs[q + 1..].find(' ').map(|r| r + q + 1);
                        }
                        if sp0.is_none_or(|q| nl0 < q) {
                            has_props_line = true;
                        }
                    }
                    if !has_props_line {
                        ws = format!("\n{}", p.c2.indent);
                    }
                }
            } else if !(vs.is_empty() || vs.starts_with('\n')) {
                ws.push(' ');
            }
            return Req::Done(format!("{}{ws}{vs}", p.s));
        }
        let mut s = done;
        let k = p.k;
        let key_comment = (!self.doc.nodes[k].comment.is_empty()).then(|| comment_string(&self.notes(k).comment));
        let Some(v) = p.v else {
            return Req::Done(if s.is_empty() {
                "?".to_string()
            } else if p.explicit_key {
                format!("? {s}")
            } else {
                s
            });
        };
        if p.explicit_key {
            if let Some(kc) = &key_comment {
                let c = line_comment(&s, &p.c2.indent, kc);
                s.push_str(&c);
            }
            s = format!("? {s}\n{}:", p.indent);
        } else {
            s.push(':');
            if let Some(kc) = &key_comment {
                let c = line_comment(&s, &p.c2.indent, kc);
                s.push_str(&c);
            }
        }
        p.c2.implicit_key = false;
        let value = &self.doc.nodes[v];
        if !p.explicit_key && key_comment.is_none() && matches!(value.kind, NodeKind::Scalar { .. }) {
            p.c2.indent_at_start = Some(len16(&s) + 1);
        }
        let vn = self.notes(v);
        if key_comment.is_some() || vn.space_before || !vn.before.is_empty() {
            // the value on a line of its own
            let mut ws = if vn.space_before { "\n".to_string() } else { String::new() };
            if !vn.before.is_empty() {
                ws.push('\n');
                ws.push_str(&indent_comment(&comment_string(&vn.before), &p.c2.indent));
            }
            ws.push('\n');
            ws.push_str(&p.c2.indent);
            p.ws = ws;
        }
        p.s = s;
        p.at_value = true;
        Req::Node(v)
    }

    fn props(&mut self, id: usize) -> String {
        let node = &self.doc.nodes[id];
        let mut props = Vec::new();
        if let Some(a) = &node.anchor {
            self.anchors.insert(a.clone());
            props.push(format!("&{a}"));
        }
        if let Some(t) = &node.tag {
            props.push(tag_string(t));
        }
        props.join(" ")
    }

    /// `stringify` of a node: a scalar's or an alias's text, or a collection opened.
    fn stringify(&mut self, id: usize, ctx: &mut Ctx) -> Result<Str, Diag> {
        let node = &self.doc.nodes[id];
        if let NodeKind::Alias { name, .. } = &node.kind {
            if !self.anchors.contains(name) && !self.known.contains_key(name) {
                return Err(Diag::bare(
                    "Error",
                    format!("Unresolved alias (the anchor must be set before the alias): {name}"),
                ));
            }
            return Ok(Str::Done(if ctx.implicit_key { format!("*{name} ") } else { format!("*{name}") }));
        }
        let props = self.props(id);
        if !props.is_empty() {
            ctx.indent_at_start = Some(ctx.indent_at_start.unwrap_or(0) + len16(&props) + 1);
        }
        let node = &self.doc.nodes[id];
        let is_scalar = matches!(node.kind, NodeKind::Scalar { .. });
        let s = match &node.kind {
            NodeKind::Scalar { value, style, source } => {
                self.scalar(value, *style, source, node.tag.as_deref(), ctx)?
            }
            // yaml-1.1: a collection under a scalar tag of the schema is printed by that tag's
            // `stringify`, which finds no scalar value (`binary`, `timestamp`: '', `merge`: '<<')
            _ if ctx.schema == SchemaKind::Yaml11
                && matches!(
                    node.tag.as_deref().and_then(|t| t.strip_prefix(schema::YAML_PREFIX)),
                    Some("binary" | "timestamp" | "merge")
                ) =>
            {
                if node.tag.as_deref().is_some_and(|t| t.ends_with(":merge")) {
                    "<<".into()
                } else {
                    String::new()
                }
            }
            _ => {
                return Ok(Str::Open(Task::Coll(match self.open_collection(id, ctx, props) {
                    Task::Coll(c) => c,
                    Task::Pair(_) => unreachable!(),
                })));
            }
        };
        if props.is_empty() {
            return Ok(Str::Done(s));
        }
        if is_scalar || s.starts_with('{') || s.starts_with('[') {
            Ok(Str::Done(format!("{props} {s}")))
        } else {
            Ok(Str::Done(format!("{props}\n{}{s}", ctx.indent)))
        }
    }

    fn scalar(
        &mut self,
        value: &Scalar,
        style: ScalarStyle,
        source: &str,
        tag: Option<&str>,
        ctx: &mut Ctx,
    ) -> Result<String, Diag> {
        Ok(match value {
            Scalar::Null => {
                if schema::test_null(source) {
                    source.to_string()
                } else {
                    "null".into()
                }
            }
            Scalar::Bool(b) => match ctx.schema.test_bool(source) {
                Some(sv) if sv == *b => source.to_string(),
                _ => b.to_string(),
            },
            Scalar::Number(x) if ctx.schema == SchemaKind::Yaml11 => stringify_number_11(*x, source, tag),
            Scalar::Number(x) => stringify_number(*x, source, tag),
            // yaml-1.1: a string `<<` is identified by the `merge` tag, which prints `<<`
            Scalar::Str(s) if ctx.schema == SchemaKind::Yaml11 && tag.is_none() && s == "<<" => s.to_string(),
            Scalar::Str(s) => {
                let s = &with_stand_ins(s);
                // a string value under a core tag that did not resolve it is
                // stringified by that tag (`getTagObject` matches by tag name)
                match tag.and_then(|t| t.strip_prefix(schema::YAML_PREFIX)) {
                    Some("int" | "float") => {
                        let num = js_number_of_string(s);
                        if num.is_nan() {
                            return Ok(".nan".into());
                        }
                        if num.is_infinite() {
                            return Ok(if num < 0.0 { "-.inf" } else { ".inf" }.into());
                        }
                        // JSON.stringify of the (string) value
                        return Ok(crate::jsstr::json_string(s));
                    }
                    Some("null") => {
                        return Ok(if schema::test_null(s) { s.to_string() } else { "null".into() });
                    }
                    // yaml-1.1 `merge.stringify` / `timestamp.stringify` (`value?.toISOString()`)
                    Some("merge") if ctx.schema == SchemaKind::Yaml11 => return Ok("<<".into()),
                    Some("timestamp") if ctx.schema == SchemaKind::Yaml11 => {
                        return Err(Diag::bare("TypeError", "value?.toISOString is not a function".into()));
                    }
                    Some("bool") => {
                        return Ok(match ctx.schema.test_bool(s) {
                            Some(true) => s.to_string(),
                            _ if s.is_empty() => "false".into(),
                            _ => "true".into(),
                        });
                    }
                    _ => {}
                }
                let actual = !matches!(tag.and_then(|t| t.strip_prefix(schema::YAML_PREFIX)), Some("map" | "seq"));
                let mut c = ctx.clone();
                c.actual_string = actual;
                let r = stringify_string(s, style, &mut c);
                ctx.indent_at_start = c.indent_at_start;
                r
            }
            Scalar::Date(t) => match date_to_iso_string(*t) {
                Some(s) => s
                    .strip_suffix("T00:00:00.000Z")
                    .or_else(|| s.strip_suffix(".000Z"))
                    .map(str::to_string)
                    .unwrap_or(s),
                None => return Err(Diag::bare("RangeError", "Invalid time value".into())),
            },
            Scalar::Buffer(b) => {
                let mut s = base64_encode(b);
                let line_width = (LINE_WIDTH.saturating_sub(ctx.indent.len())).max(MIN_CONTENT_WIDTH);
                if style != ScalarStyle::DoubleQuoted && !s.is_empty() {
                    let chunks: Vec<String> =
                        s.as_bytes().chunks(line_width).map(|c| String::from_utf8_lossy(c).into_owned()).collect();
                    s = chunks.join(if style == ScalarStyle::Literal { "\n" } else { " " });
                }
                let mut c = ctx.clone();
                c.actual_string = false;
                stringify_string(&s, style, &mut c)
            }
            Scalar::Merge => "<<".into(),
        })
    }
}

#[derive(Clone, Copy)]
enum Item {
    Node(usize),
    /// key, value (`None`: a pair without value, JS `null`)
    Pair(usize, Option<usize>),
    /// a pair of an empty `!!omap` item
    Null,
}

/// A collection being stringified: `stringifyFlowCollection`'s locals between items.
struct Coll {
    start: &'static str,
    end: &'static str,
    /// the collection's `ctx.indent`
    indent: String,
    /// the node's props (`stringify` puts them before the collection)
    props: String,
    item_ctx: Ctx,
    items: Vec<Item>,
    i: usize,
    req_newline: bool,
    lines: Vec<String>,
    lines_at_value: usize,
    /// the comment of item `i`
    comment: String,
}

/// A pair being stringified: `stringifyPair`'s locals while its key or value is.
struct Pair {
    k: usize,
    v: Option<usize>,
    indent: String,
    c2: Ctx,
    explicit_key: bool,
    /// the key is done, `s` is the text up to the value, `ws` what goes before the value when
    /// its comments decided it
    at_value: bool,
    s: String,
    ws: String,
}

enum Task {
    Coll(Coll),
    Pair(Pair),
}

/// What a task needs next.
enum Req {
    /// `stringify` of the node, in the task's context
    Node(usize),
    /// `Pair.toString` of a key and value, in the task's context
    Pair(usize, Option<usize>),
    /// the task's text
    Done(String),
}

/// [`St::stringify`]'s outcome.
#[allow(clippy::large_enum_variant)] // made once per node and moved onto the stack
enum Str {
    Done(String),
    Open(Task),
}

/// JS `Number(string)`.
fn js_number_of_string(s: &str) -> f64 {
    let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if t.is_empty() {
        return 0.0;
    }
    let (neg, r) = match t.as_bytes()[0] {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let radix = |p: &str, rad: u32| -> Option<f64> {
        let d = r.strip_prefix(p).or_else(|| r.strip_prefix(&p.to_uppercase()))?;
        if d.is_empty() || !d.chars().all(|c| c.is_digit(rad)) || r.len() != t.len() {
            return Some(f64::NAN);
        }
        Some(match rad {
            16 => crate::js::number::parse_pow2_radix(d, 16),
            8 => crate::js::number::parse_pow2_radix(d, 8),
            _ => d.chars().fold(0.0, |a, c| a * 2.0 + c.to_digit(2).unwrap_or(0) as f64),
        })
    };
    for (p, rad) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(v) = radix(p, rad) {
            return v;
        }
    }
    if r == "Infinity" {
        return if neg { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    let ok = !r.is_empty()
        && r.bytes().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
        && r.bytes().next().is_some_and(|c| c.is_ascii_digit() || c == b'.');
    if !ok {
        return f64::NAN;
    }
    let v = crate::js::number::parse_float_lenient(r);
    if neg { -v } else { v }
}

/// `directives.tagString(tag)` with the default handles.
fn tag_string(tag: &str) -> String {
    let esc = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                '!' => "%21".to_string(),
                ',' => "%2C".to_string(),
                '[' => "%5B".to_string(),
                ']' => "%5D".to_string(),
                '{' => "%7B".to_string(),
                '}' => "%7D".to_string(),
                c => c.to_string(),
            })
            .collect()
    };
    if let Some(rest) = tag.strip_prefix('!') {
        return format!("!{}", esc(rest));
    }
    if let Some(rest) = tag.strip_prefix(schema::YAML_PREFIX) {
        return format!("!!{}", esc(rest));
    }
    format!("!<{tag}>")
}

fn to_radix(x: f64, radix: u32) -> String {
    if x < 1.8446744073709552e19 {
        let mut v = x as u64;
        if v == 0 {
            return "0".into();
        }
        let mut d = Vec::new();
        while v > 0 {
            d.push(std::char::from_digit((v % radix as u64) as u32, radix).unwrap_or('0'));
            v /= radix as u64;
        }
        d.iter().rev().collect()
    } else {
        // exact binary expansion of a large integer double
        let bits = x.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i64 - 1075;
        let mant = (bits & ((1 << 52) - 1)) | (1 << 52);
        let mut bin: Vec<u8> = (0..53).rev().map(|i| ((mant >> i) & 1) as u8).collect();
        bin.extend(std::iter::repeat_n(0, exp.max(0) as usize));
        let per = match radix {
            16 => 4,
            8 => 3,
            _ => 1,
        };
        let pad = (per - bin.len() % per) % per;
        let mut padded = vec![0u8; pad];
        padded.extend(bin);
        padded
            .chunks(per)
            .map(|c| {
                let v = c.iter().fold(0u32, |a, b| a * 2 + *b as u32);
                std::char::from_digit(v, radix).unwrap_or('0')
            })
            .collect()
    }
}

/// yaml-1.1 number stringification: the tag object `getTagObject` picks by the `format` the
/// resolving tag recorded (`intStringify` for BIN/OCT/HEX, `stringifySexagesimal` for TIME,
/// `toExponential` for EXP), else `stringifyNumber` with `minFractionDigits`.
fn stringify_number_11(x: f64, source: &str, tag: Option<&str>) -> String {
    let is_int = x.is_finite() && x == x.trunc();
    let radix = match schema11::number_format(source) {
        NumFormat::Bin => Some((2, "0b")),
        NumFormat::Oct => Some((8, "0")),
        NumFormat::Hex => Some((16, "0x")),
        NumFormat::Time if x.is_finite() => return sexagesimal_string(x),
        NumFormat::Exp if x.is_finite() => return to_exponential(x),
        NumFormat::None => {
            let n = if x == 0.0 && x.is_sign_negative() { "-0".to_string() } else { js_number_to_string(x) };
            if !x.is_finite() {
                return stringify_number(x, "", tag);
            }
            let min_frac = schema11::min_fraction_digits(source);
            return pad_fraction(n, min_frac, tag);
        }
        _ => None,
    };
    match radix {
        Some((r, prefix)) if is_int => {
            let digits = to_radix(x.abs(), r);
            if x < 0.0 { format!("-{prefix}{digits}") } else { format!("{prefix}{digits}") }
        }
        _ => stringify_number(x, "", tag),
    }
}

/// `stringifyNumber`'s `minFractionDigits` padding (a float source ending in `0`).
fn pad_fraction(mut n: String, min_frac: usize, tag: Option<&str>) -> String {
    if min_frac > 0
        && (tag.is_none() || tag == Some("tag:yaml.org,2002:float"))
        && n.starts_with(|c: char| c.is_ascii_digit() || c == '-')
        && !n.contains('e')
    {
        let i = match n.find('.') {
            Some(i) => i,
            None => {
                n.push('.');
                n.len() - 1
            }
        };
        let have = n.len() - i - 1;
        for _ in have..min_frac {
            n.push('0');
        }
    }
    n
}

/// `Number.prototype.toExponential()` (-0 renders as 0e+0)
fn to_exponential(x: f64) -> String {
    let e = format!("{:e}", if x == 0.0 { 0.0 } else { x });
    match e.split_once('e') {
        Some((m, ex)) if !ex.starts_with('-') => format!("{m}e+{ex}"),
        _ => e,
    }
}

/// yaml-1.1 `stringifySexagesimal` for a finite number.
fn sexagesimal_string(x: f64) -> String {
    let (sign, mut v) = if x < 0.0 { ("-", -x) } else { ("", x) };
    let mut parts = vec![v % 60.0];
    if v < 60.0 {
        parts.insert(0, 0.0);
    } else {
        v = (v - parts[0]) / 60.0;
        parts.insert(0, v % 60.0);
        if v >= 60.0 {
            v = (v - parts[0]) / 60.0;
            parts.insert(0, v);
        }
    }
    let mut s = parts
        .iter()
        .map(|p| {
            let t = js_number_to_string(*p);
            if t.len() < 2 { format!("0{t}") } else { t }
        })
        .collect::<Vec<_>>()
        .join(":");
    // `.replace(/000000\d*$/, '')`: the leftmost run of six zeros followed by digits to the end
    if let Some(i) =
        (0..s.len()).find(|&i| s[i..].starts_with("000000") && s[i + 6..].bytes().all(|b| b.is_ascii_digit()))
    {
        s.truncate(i);
    }
    format!("{sign}{s}")
}

/// Number stringification by the tag/format that resolved it.
fn stringify_number(x: f64, source: &str, tag: Option<&str>) -> String {
    let is_int = x.is_finite() && x == x.trunc();
    let s = source;
    let oct = s.starts_with("0o") && s.len() > 2 && s[2..].bytes().all(|b| (b'0'..=b'7').contains(&b));
    let hex = s.starts_with("0x") && s.len() > 2 && s[2..].bytes().all(|b| b.is_ascii_hexdigit());
    if oct && is_int && x >= 0.0 {
        return format!("0o{}", to_radix(x, 8));
    }
    if hex && is_int && x >= 0.0 {
        return format!("0x{}", to_radix(x, 16));
    }
    if !x.is_finite() {
        return if x.is_nan() {
            ".nan".into()
        } else if x < 0.0 {
            "-.inf".into()
        } else {
            ".inf".into()
        };
    }
    let rest = s.strip_prefix(['-', '+']).unwrap_or(s);
    let is_exp = rest.contains(['e', 'E']) && !hex;
    if is_exp {
        // Number.prototype.toExponential() (-0 renders as 0e+0)
        let e = format!("{:e}", if x == 0.0 { 0.0 } else { x });
        return match e.split_once('e') {
            Some((m, ex)) if !ex.starts_with('-') => format!("{m}e+{ex}"),
            _ => e,
        };
    }
    let n = if x == 0.0 && x.is_sign_negative() { "-0".to_string() } else { js_number_to_string(x) };
    // minFractionDigits from float.resolve (trailing 0 after a dot)
    let is_float_src = rest.contains('.') && !oct && !hex;
    if is_float_src && s.ends_with('0') {
        let dot = s.find('.').unwrap_or(0);
        return pad_fraction(n, s.len() - dot - 1, tag);
    }
    n
}

fn base64_encode(b: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in b.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        out.push(T[(n >> 18) as usize & 63] as char);
        out.push(T[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 { T[(n >> 6) as usize & 63] as char } else { '=' });
        out.push(if c.len() > 2 { T[n as usize & 63] as char } else { '=' });
    }
    out
}

fn contains_document_marker(s: &str) -> bool {
    s.split('\n').any(|l| l.starts_with('%') || l.starts_with("---") || l.starts_with("..."))
}

fn has_control(s: &str) -> bool {
    s.chars().any(|c| {
        let u = c as u32;
        u <= 0x08 || (0x0b..=0x1f).contains(&u) || (0x7f..=0x9f).contains(&u)
    })
}

/// The lone surrogate `c` stands for (`Doc::lone_base`).
fn stand_in_unit(c: char, lone_base: Option<u32>) -> Option<u16> {
    lone_base.and_then(|b| (c as u32).checked_sub(b).filter(|&d| d < 0x800).map(|d| 0xD800 + d as u16))
}

fn stringify_string(value: &str, style: ScalarStyle, ctx: &mut Ctx) -> String {
    let mut ty = style;
    // "force double quotes on control characters & unpaired surrogates"
    if ty != ScalarStyle::DoubleQuoted
        && (has_control(value) || value.chars().any(|c| stand_in_unit(c, ctx.lone_base).is_some()))
    {
        ty = ScalarStyle::DoubleQuoted;
    }
    match ty {
        ScalarStyle::Literal | ScalarStyle::Folded => quoted_string(value, ctx),
        ScalarStyle::DoubleQuoted => double_quoted_string(value, ctx),
        ScalarStyle::SingleQuoted => single_quoted_string(value, ctx),
        ScalarStyle::Plain => plain_string(value, ctx),
    }
}

fn quoted_string(value: &str, ctx: &mut Ctx) -> String {
    let has_double = value.contains('"');
    let has_single = value.contains('\'');
    if has_double && !has_single { single_quoted_string(value, ctx) } else { double_quoted_string(value, ctx) }
}

fn bad_plain(v: &str) -> bool {
    // /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/
    let c: Vec<char> = v.chars().collect();
    if let Some(&f) = c.first() {
        if "\n\t ,[]{}#&*!|>'\"%@`".contains(f) {
            return true;
        }
        if (f == '?' || f == '-') && (c.len() == 1 || c[1] == ' ' || c[1] == '\t') {
            return true;
        }
    }
    for w in c.windows(2) {
        if (w[0] == '\n' || w[0] == ':') && (w[1] == ' ' || w[1] == '\t') {
            return true;
        }
        if (w[0] == ' ' || w[0] == '\t') && w[1] == '\n' {
            return true;
        }
        if (w[0] == '\n' || w[0] == '\t' || w[0] == ' ') && w[1] == '#' {
            return true;
        }
    }
    matches!(c.last(), Some('\n' | '\t' | ' ' | ':'))
}

fn replace_newline_runs(v: &str, with_after: &str, extra_nl: bool) -> String {
    // value.replace(/\n+/g, `$&\n${indent}`) (extra_nl) or `$&${indent}`
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '\n' && chars.peek() != Some(&'\n') {
            if extra_nl {
                out.push('\n');
            }
            out.push_str(with_after);
        }
    }
    out
}

fn plain_string(value: &str, ctx: &mut Ctx) -> String {
    if (ctx.implicit_key && value.contains('\n')) || value.contains(['[', ']', '{', '}', ',']) {
        return quoted_string(value, ctx);
    }
    if bad_plain(value) {
        return quoted_string(value, ctx);
    }
    if contains_document_marker(value) && ctx.implicit_key && ctx.indent == INDENT_STEP {
        return quoted_string(value, ctx);
    }
    let s = replace_newline_runs(value, &ctx.indent, true);
    if ctx.actual_string && !matches!(ctx.schema.resolve_plain(&s, true), Scalar::Str(_)) {
        return quoted_string(value, ctx);
    }
    if ctx.implicit_key { s } else { fold_flow_lines(&s, &ctx.indent, Fold::Flow, ctx.indent_at_start) }
}

fn single_quoted_string(value: &str, ctx: &mut Ctx) -> String {
    let ws_nl = value.contains(" \n") || value.contains("\t\n") || value.contains("\n ") || value.contains("\n\t");
    if (ctx.implicit_key && value.contains('\n')) || ws_nl {
        return double_quoted_string(value, ctx);
    }
    let indent =
        if ctx.indent.is_empty() && contains_document_marker(value) { "  ".to_string() } else { ctx.indent.clone() };
    let res = format!("'{}'", replace_newline_runs(&value.replace('\'', "''"), &indent, true));
    if ctx.implicit_key { res } else { fold_flow_lines(&res, &indent, Fold::Flow, ctx.indent_at_start) }
}

fn double_quoted_string(value: &str, ctx: &mut Ctx) -> String {
    let mut json: Vec<char> = crate::jsstr::json_string(value).chars().collect();
    if json.iter().any(|&c| stand_in_unit(c, ctx.lone_base).is_some()) {
        // `JSON.stringify` writes a lone surrogate as a `\udxxx` escape
        json = json
            .into_iter()
            .flat_map(|c| match stand_in_unit(c, ctx.lone_base) {
                Some(unit) => format!("\\u{unit:04x}").chars().collect::<Vec<_>>(),
                None => vec![c],
            })
            .collect();
    }
    let indent =
        if ctx.indent.is_empty() && contains_document_marker(value) { "  ".to_string() } else { ctx.indent.clone() };
    let json_len16 = json.iter().map(|c| c.len_utf16()).sum::<usize>();
    let slice = |a: usize, b: usize| -> String { json[a.min(json.len())..b.min(json.len())].iter().collect() };
    let mut s = String::new();
    let mut start = 0usize;
    let mut i = 0usize;
    while i < json.len() {
        let mut ch = json[i];
        if ch == ' ' && json.get(i + 1) == Some(&'\\') && json.get(i + 2) == Some(&'n') {
            s.push_str(&slice(start, i));
            s.push_str("\\ ");
            i += 1;
            start = i;
            ch = '\\';
        }
        if ch == '\\' {
            match json.get(i + 1) {
                Some('u') => {
                    s.push_str(&slice(start, i));
                    let code: String = slice(i + 2, i + 6);
                    match code.as_str() {
                        "0000" => s.push_str("\\0"),
                        "0007" => s.push_str("\\a"),
                        "000b" => s.push_str("\\v"),
                        "001b" => s.push_str("\\e"),
                        "0085" => s.push_str("\\N"),
                        "00a0" => s.push_str("\\_"),
                        "2028" => s.push_str("\\L"),
                        "2029" => s.push_str("\\P"),
                        _ => {
                            if let Some(rest) = code.strip_prefix("00") {
                                s.push_str("\\x");
                                s.push_str(rest);
                            } else {
                                s.push_str(&slice(i, i + 6));
                            }
                        }
                    }
                    i += 5;
                    start = i + 1;
                }
                Some('n') => {
                    if ctx.implicit_key || json.get(i + 2) == Some(&'"') || json_len16 < 40 {
                        i += 1;
                    } else {
                        s.push_str(&slice(start, i));
                        s.push_str("\n\n");
                        while json.get(i + 2) == Some(&'\\')
                            && json.get(i + 3) == Some(&'n')
                            && json.get(i + 4) != Some(&'"')
                        {
                            s.push('\n');
                            i += 2;
                        }
                        s.push_str(&indent);
                        if json.get(i + 2) == Some(&' ') {
                            s.push('\\');
                        }
                        i += 1;
                        start = i + 1;
                    }
                }
                _ => i += 1,
            }
        }
        i += 1;
    }
    let s = if start > 0 { s + &slice(start, json.len()) } else { json.iter().collect() };
    if ctx.implicit_key { s } else { fold_flow_lines(&s, &indent, Fold::Quoted, ctx.indent_at_start) }
}

#[derive(PartialEq, Clone, Copy)]
enum Fold {
    Flow,
    Quoted,
}

/// Port of `foldFlowLines` (flow and quoted modes), on chars.
fn fold_flow_lines(text: &str, indent: &str, mode: Fold, indent_at_start: Option<usize>) -> String {
    let t: Vec<char> = text.chars().collect();
    let ilen = indent.chars().count();
    let line_width = LINE_WIDTH as isize;
    let min_cw = MIN_CONTENT_WIDTH as isize;
    let end_step = (1 + min_cw).max(1 + line_width - ilen as isize);
    if (t.len() as isize) <= end_step {
        return text.to_string();
    }
    let mut folds: Vec<usize> = Vec::new();
    let mut escaped: HashSet<usize> = HashSet::new();
    let mut end = line_width - ilen as isize;
    if let Some(ias) = indent_at_start {
        if ias as isize > line_width - 2.max(min_cw) {
            folds.push(0);
        } else {
            end = line_width - ias as isize;
        }
    }
    let mut split: Option<usize> = None;
    let mut prev: Option<char> = None;
    let mut i: isize = -1;
    let mut esc_start: isize = -1;
    let mut esc_end: isize = -1;
    loop {
        i += 1;
        let Some(&c0) = t.get(i as usize) else { break };
        let mut ch = c0;
        if mode == Fold::Quoted && ch == '\\' {
            esc_start = i;
            match t.get(i as usize + 1) {
                Some('x') => i += 3,
                Some('u') => i += 5,
                Some('U') => i += 9,
                _ => i += 1,
            }
            esc_end = i;
        }
        if ch == '\n' {
            end = i + ilen as isize + end_step;
            split = None;
        } else {
            if ch == ' '
                && let Some(p) = prev
                && p != ' '
                && p != '\n'
                && p != '\t'
            {
                let next = t.get(i as usize + 1);
                if next.is_some_and(|n| *n != ' ' && *n != '\n' && *n != '\t') {
                    split = Some(i as usize);
                }
            }
            if i >= end {
                if let Some(sp) = split.filter(|s| *s != 0) {
                    folds.push(sp);
                    end = sp as isize + end_step;
                    split = None;
                } else if mode == Fold::Quoted {
                    while prev == Some(' ') || prev == Some('\t') {
                        prev = Some(ch);
                        i += 1;
                        match t.get(i as usize) {
                            Some(&c) => ch = c,
                            None => {
                                ch = '\0';
                                break;
                            }
                        }
                    }
                    let j = if i > esc_end + 1 { i - 2 } else { esc_start - 1 };
                    if j < 0 || escaped.contains(&(j as usize)) {
                        return text.to_string();
                    }
                    folds.push(j as usize);
                    escaped.insert(j as usize);
                    end = j + end_step;
                    split = None;
                }
            }
        }
        prev = Some(ch);
    }
    if folds.is_empty() {
        return text.to_string();
    }
    let sl = |a: usize, b: usize| -> String { t[a.min(t.len())..b.min(t.len())].iter().collect() };
    let mut res = sl(0, folds[0]);
    for (k, &fold) in folds.iter().enumerate() {
        let e = folds.get(k + 1).copied().filter(|x| *x != 0).unwrap_or(t.len());
        if fold == 0 {
            res = format!("\n{indent}{}", sl(0, e));
        } else {
            if mode == Fold::Quoted && escaped.contains(&fold) {
                res.push(t[fold]);
                res.push('\\');
            }
            res.push('\n');
            res.push_str(indent);
            res.push_str(&sl(fold + 1, e));
        }
    }
    res
}
