//! The oracle data's reader and the canonical dumps of the lexer and the CST, shared by
//! `tests/stages.rs` and `examples/stage_diff.rs`.
#![allow(dead_code)]

use npm_yaml::compose::ResolvedScalar;
use npm_yaml::compose::resolve_block_scalar::resolve_block_scalar;
use npm_yaml::compose::resolve_flow_scalar::resolve_flow_scalar;
use npm_yaml::cst::{ErrorMessage, Item, Node, SourceToken, Top};
use npm_yaml::errors::{ErrorAt, Errors};
use npm_yaml::jsstr::json_string as js_json;
use npm_yaml::{Cst, Kind, Token};
use std::fmt::Write as _;

pub struct Record<'a> {
    pub input: &'a str,
    pub lex_hash: u32,
    pub cst_hash: u32,
    pub scalars_hash: u32,
    pub outcome: &'a str,
}

pub fn read_u32(b: &[u8], at: &mut usize) -> u32 {
    let v = u32::from_le_bytes(b[*at..*at + 4].try_into().unwrap());
    *at += 4;
    v
}

pub fn sections(file: &[u8]) -> Vec<Vec<u8>> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < file.len() {
        let len = read_u32(file, &mut at) as usize;
        out.push(miniz_oxide::inflate::decompress_to_vec_zlib(&file[at..at + len]).expect("zlib data"));
        at += len;
    }
    out
}

pub fn records<'a>(secs: &'a [Vec<u8>]) -> Vec<Record<'a>> {
    let (mut a, mut b, mut c) = (0, 0, 0);
    let mut out = Vec::new();
    while a < secs[0].len() {
        let n = read_u32(&secs[0], &mut a) as usize;
        let input = std::str::from_utf8(&secs[0][a..a + n]).expect("UTF-8 input");
        a += n;
        let lex_hash = read_u32(&secs[1], &mut b);
        let cst_hash = read_u32(&secs[1], &mut b);
        let scalars_hash = read_u32(&secs[1], &mut b);
        let n = read_u32(&secs[2], &mut c) as usize;
        let outcome = std::str::from_utf8(&secs[2][c..c + n]).expect("UTF-8 outcome");
        c += n;
        out.push(Record { input, lex_hash, cst_hash, scalars_hash, outcome });
    }
    out
}

pub fn fnv1a32(s: &str) -> u32 {
    s.bytes().fold(0x811C_9DC5, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// Byte offset -> UTF-16 offset (npm yaml counts in UTF-16 code units).
pub struct Utf16(Vec<u32>);

impl Utf16 {
    pub fn new(src: &str) -> Self {
        let mut map = vec![0; src.len() + 1];
        let mut u = 0;
        for (i, ch) in src.char_indices() {
            for (k, slot) in map[i..i + ch.len_utf8()].iter_mut().enumerate() {
                *slot = u + if k == 0 { 0 } else { 1 };
            }
            u += ch.len_utf16() as u32;
        }
        map[src.len()] = u;
        Utf16(map)
    }

    pub fn at(&self, byte: u32) -> u32 {
        self.0[byte as usize]
    }

    pub fn len(&self, start: u32, end: u32) -> u32 {
        self.at(end) - self.at(start)
    }
}

pub fn code(kind: Kind) -> &'static str {
    match kind {
        Kind::ByteOrderMark => "bom",
        Kind::DocMode => "D",
        Kind::DocStart => "ds",
        Kind::DocEnd => "de",
        Kind::Space => "_",
        Kind::Comment => "#",
        Kind::Newline => "n",
        Kind::DirectiveLine => "%",
        Kind::Anchor => "&",
        Kind::Tag => "!",
        Kind::SeqItemInd => "-",
        Kind::ExplicitKeyInd => "?",
        Kind::MapValueInd => ":",
        Kind::FlowMapStart => "{",
        Kind::FlowMapEnd => "}",
        Kind::FlowSeqStart => "[",
        Kind::FlowSeqEnd => "]",
        Kind::FlowErrorEnd => "F",
        Kind::Comma => ",",
        Kind::BlockScalarHeader => "|",
        Kind::Alias => "*",
        Kind::Scalar => "S",
        Kind::SingleQuotedScalar => "sq",
        Kind::DoubleQuotedScalar => "dq",
        Kind::Unknown => "X",
    }
}

pub fn lex_dump(u: &Utf16, tokens: &[Token]) -> String {
    let mut out = String::new();
    for t in tokens {
        if !out.is_empty() {
            out.push(' ');
        }
        match t.kind {
            Kind::DocMode | Kind::FlowErrorEnd => out.push_str(code(t.kind)),
            Kind::Scalar => write!(out, "S v{}", u.len(t.start, t.end)).unwrap(),
            k => write!(out, "{}{}", code(k), u.len(t.start, t.end)).unwrap(),
        }
    }
    out
}

pub struct Dump<'a> {
    src: &'a str,
    cst: &'a Cst,
    u: &'a Utf16,
    out: String,
}

impl Dump<'_> {
    fn token(&mut self, t: &SourceToken) {
        let (off, mut len) = (self.u.at(t.start), self.u.len(t.start, t.end));
        if matches!(t.kind, Kind::DocMode | Kind::FlowErrorEnd) {
            len = 1; // npm yaml's marker character
        }
        if t.kind == Kind::Unknown {
            write!(self.out, "{{err {off} {len} E1}}").unwrap();
        } else if matches!(t.kind, Kind::Scalar | Kind::Alias | Kind::SingleQuotedScalar | Kind::DoubleQuotedScalar) {
            // npm yaml's source token of these types has a flow scalar's shape
            write!(self.out, "{{{} {off} {len} {} -}}", code(t.kind), t.indent).unwrap();
        } else if t.kind == Kind::DocEnd {
            write!(self.out, "{{de {off} {len} -}}").unwrap();
        } else {
            write!(self.out, "{}.{off}.{len}.{}", code(t.kind), t.indent).unwrap();
        }
    }

    fn list(&mut self, l: Option<&Vec<SourceToken>>) {
        let Some(l) = l else {
            self.out.push('-');
            return;
        };
        self.out.push('[');
        for (i, t) in l.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            self.token(t);
        }
        self.out.push(']');
    }

    fn opt_node(&mut self, id: Option<u32>) {
        match id {
            Some(id) => self.node(id),
            None => self.out.push('-'),
        }
    }

    fn item(&mut self, it: &Item) {
        self.out.push('(');
        self.list(Some(&it.start));
        self.out.push_str(if it.explicit_key { " k " } else { " " });
        match (&it.sep, it.key) {
            (None, None) => self.out.push('-'),
            (None, Some(k)) => {
                self.out.push('!');
                self.node(k);
            }
            (Some(_), None) => self.out.push('~'),
            (Some(_), Some(k)) => self.node(k),
        }
        self.out.push(' ');
        self.list(it.sep.as_ref());
        self.out.push(' ');
        self.opt_node(it.value);
        self.out.push(')');
    }

    fn items(&mut self, items: &[Item]) {
        for it in items {
            self.item(it);
        }
    }

    fn node(&mut self, id: u32) {
        let cst = self.cst;
        let u = self.u;
        match cst.node(id) {
            Node::Document { offset, start, value, end } => {
                write!(self.out, "{{doc {} ", u.at(*offset)).unwrap();
                self.list(Some(start));
                self.out.push(' ');
                self.opt_node(*value);
                self.out.push(' ');
                self.list(end.as_ref());
                self.out.push('}');
            }
            Node::DocEnd { source, end } => {
                write!(self.out, "{{de {} {} ", u.at(source.0), u.len(source.0, source.1)).unwrap();
                self.list(end.as_ref());
                self.out.push('}');
            }
            Node::Directive { source } => {
                write!(self.out, "{{% {} {}}}", u.at(source.0), u.len(source.0, source.1)).unwrap();
            }
            Node::Error { source, message } => {
                let code = match message {
                    ErrorMessage::NotAToken => "E1".to_owned(),
                    ErrorMessage::SeqIndOnKeyLine => "E2".to_owned(),
                    ErrorMessage::UnexpectedInStream(k) => format!("E3:{}", k.name()),
                    ErrorMessage::UnexpectedInDocument(k) => format!("E4:{}", k.name()),
                };
                let len = match message.source(*source, self.src) {
                    "\u{2}" | "\u{18}" => 1,
                    _ => u.len(source.0, source.1),
                };
                write!(self.out, "{{err {} {len} {code}}}", u.at(source.0)).unwrap();
            }
            Node::FlowScalar { kind, indent, source, end } => {
                let (off, len) = (u.at(source.0), u.len(source.0, source.1));
                write!(self.out, "{{{} {off} {len} {indent} ", code(*kind)).unwrap();
                self.list(end.as_ref());
                self.out.push('}');
            }
            Node::BlockScalar { offset, indent, props, source } => {
                write!(self.out, "{{| {} {indent} ", u.at(*offset)).unwrap();
                self.list(Some(props));
                write!(self.out, " {}}}", u.len(source.0, source.1)).unwrap();
            }
            Node::BlockMap { offset, indent, items } => {
                write!(self.out, "{{map {} {indent} ", u.at(*offset)).unwrap();
                self.items(items);
                self.out.push('}');
            }
            Node::BlockSeq { offset, indent, items } => {
                write!(self.out, "{{seq {} {indent} ", u.at(*offset)).unwrap();
                self.items(items);
                self.out.push('}');
            }
            Node::FlowCollection { offset, indent, start, items, end } => {
                write!(self.out, "{{fc {} {indent} ", u.at(*offset)).unwrap();
                self.token(start);
                self.out.push(' ');
                self.items(items);
                self.out.push(' ');
                self.list(Some(end));
                self.out.push('}');
            }
        }
    }
}

pub fn cst_dump(src: &str, u: &Utf16, cst: &Cst) -> String {
    let mut d = Dump { src, cst, u, out: String::new() };
    for (i, t) in cst.top.iter().enumerate() {
        if i > 0 {
            d.out.push('\n');
        }
        match t {
            Top::Node(id) => d.node(*id),
            Top::Token(t) => d.token(t),
        }
    }
    d.out
}

/// `JSON.stringify` of a string (for handing inputs to stages.js).
pub fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The records of one corpus file.
pub fn load(name: &str) -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let file = std::fs::read(dir.join(format!("{name}.bin"))).expect("oracle data");
    sections(&file)
}

/// Every flow and block scalar of the tree, resolved (as `stages.js`'s `scalarsDump`).
pub fn scalars_dump(src: &str, u: &Utf16, cst: &Cst) -> String {
    let mut out = Vec::new();
    let mut stack: Vec<(u32, bool)> = Vec::new();
    for t in cst.top.iter().rev() {
        if let Top::Node(id) = t {
            stack.push((*id, false));
        }
    }
    while let Some((id, at_root)) = stack.pop() {
        let mut errors = Errors::new();
        let resolved = match cst.node(id) {
            Node::Document { value, .. } => {
                stack.extend(value.map(|v| (v, true)));
                continue;
            }
            Node::FlowScalar { kind, source, end, .. } if *kind != npm_yaml::Kind::Alias => {
                resolve_flow_scalar(src, *kind, *source, end.as_deref(), true, &mut errors)
            }
            node @ Node::BlockScalar { .. } => resolve_block_scalar(src, node, at_root, true, &mut errors),
            Node::BlockMap { items, .. } | Node::BlockSeq { items, .. } | Node::FlowCollection { items, .. } => {
                for it in items.iter().rev() {
                    stack.extend(it.value.map(|v| (v, false)));
                    stack.extend(it.key.map(|k| (k, false)));
                }
                continue;
            }
            _ => continue,
        };
        out.push(scalar_line(src, u, &resolved, &errors));
    }
    out.join("\n")
}

fn scalar_line(src: &str, u: &Utf16, r: &ResolvedScalar, errors: &Errors) -> String {
    let ty = r.ty.map_or("null", |t| t.name());
    let [a, b, c] = r.range.map(|x| u.at(x));
    let mut line = format!("{} {ty} {} {a},{b},{c}", r.value.to_json(), js_json(&r.comment));
    for (i, e) in errors.iter().enumerate() {
        line.push_str(if i == 0 { " ! " } else { " ; " });
        match e.at {
            ErrorAt::Offset(o) => write!(line, "{}", u.at(o)).unwrap(),
            ErrorAt::Token(t) => {
                let len = match t.kind {
                    Kind::DocMode | Kind::FlowErrorEnd => 1,
                    _ => u.len(t.start, t.end),
                };
                write!(line, "{}:{len}", u.at(t.start)).unwrap()
            }
        }
        write!(line, " {} {}", e.code.name(), js_json(&e.message)).unwrap();
    }
    let _ = src;
    line
}

/// A fixed-seed xorshift generator, for mutations that are the same on every run.
pub struct Rng(u64);

impl Rng {
    pub fn new() -> Self {
        Rng(0x9E37_79B9_7F4A_7C15)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// `input` with one to four YAML-significant pieces inserted or put in place of a few bytes.
pub fn mutate(input: &str, rng: &mut Rng) -> String {
    const PIECES: &[&str] = &[
        " ",
        "\t",
        "\n",
        "\r",
        "\r\n",
        "-",
        "?",
        ":",
        ",",
        "[",
        "]",
        "{",
        "}",
        "#",
        "&a",
        "*a",
        "!",
        "!!str",
        "|",
        ">",
        "'",
        "\"",
        "%YAML 1.1\n",
        "---",
        "...",
        "\\",
        "\u{FEFF}",
        "\u{1F600}",
        "\u{E9}",
        "\\u",
        "- ",
        ": ",
        "? ",
        "  ",
    ];
    let mut s = input.to_owned();
    for _ in 0..(1 + rng.next() % 4) {
        let mut at = (rng.next() as usize) % (s.len() + 1);
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        let p = PIECES[(rng.next() as usize) % PIECES.len()];
        if rng.next().is_multiple_of(3) {
            let mut end = (at + 1 + (rng.next() as usize) % 3).min(s.len());
            while !s.is_char_boundary(end) {
                end += 1;
            }
            s.replace_range(at..end, p);
        } else {
            s.insert_str(at, p);
        }
    }
    s
}

/// Python's `json.dumps` (ensure_ascii) of a JavaScript string given as UTF-16 units: how
/// `stages_pack.py` stores npm yaml's strings.
pub fn py_json(units: &[u16]) -> String {
    let mut out = String::from("\"");
    for &u in units {
        match u {
            0x22 => out.push_str("\\\""),
            0x5C => out.push_str("\\\\"),
            0x0A => out.push_str("\\n"),
            0x0D => out.push_str("\\r"),
            0x09 => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0C => out.push_str("\\f"),
            u if !(0x20..0x7F).contains(&u) => write!(out, "\\u{u:04x}").unwrap(),
            u => out.push(u as u8 as char),
        }
    }
    out.push('"');
    out
}

pub fn py_json_str(s: &npm_yaml::js::JsStr) -> String {
    py_json(&s.to_utf16().0)
}

/// `enc(value)` of the oracle scripts, as `json.dumps` writes it.
pub fn enc(v: &npm_yaml::js::Value) -> String {
    use npm_yaml::js::Value as V;
    use npm_yaml::js::number::js_number_to_string as num;
    let s = |x: &str| py_json(&x.encode_utf16().collect::<Vec<_>>());
    match v {
        V::Null => "null".into(),
        V::Undefined => "{\"undef\":true}".into(),
        V::Bool(b) => b.to_string(),
        V::Number(x) => {
            let t = if *x == 0.0 && x.is_sign_negative() { "-0".to_string() } else { num(*x) };
            format!("{{\"num\":{}}}", s(&t))
        }
        V::String(x) => py_json_str(x),
        V::Symbol(d) => format!("{{\"symbol\":{}}}", s(&format!("Symbol({d})"))),
        V::Circular => "{\"circular\":true}".into(),
        V::Array(a) => format!("[{}]", a.iter().map(enc).collect::<Vec<_>>().join(",")),
        V::Date(t) => format!("{{\"date\":{}}}", s(&num(*t))),
        V::Buffer(b) => format!("{{\"buf\":[{}]}}", b.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")),
        V::Map(m) => format!(
            "{{\"map\":[{}]}}",
            m.iter().map(|(k, x)| format!("[{},{}]", enc(k), enc(x))).collect::<Vec<_>>().join(",")
        ),
        V::Set(m) => format!("{{\"set\":[{}]}}", m.iter().map(enc).collect::<Vec<_>>().join(",")),
        V::Object(o) => {
            format!(
                "{{\"obj\":[{}]}}",
                o.iter_js().map(|(k, x)| format!("[{},{}]", py_json_str(k), enc(x))).collect::<Vec<_>>().join(",")
            )
        }
    }
}

/// Which columns of the recorded `YAML.parse` outcome `npm_yaml::api::parse` agrees with:
/// (value or error code, accept/reject, `String(e)` (errors only; `true` for values),
/// warnings), and this crate's outcome as the oracle writes it.
pub fn outcome_agreement(input: &str, recorded: &str) -> ([bool; 4], String) {
    let r = npm_yaml::api::parse(input);
    let (ok, head, pretty, warnings) = match &r {
        Ok(p) => (true, format!("{{\"ok\":{}", enc(&p.value)), None, &p.warnings),
        Err(e) => {
            let code = e.code.map(|c| format!("\"code\":\"{}\",", c.name())).unwrap_or_default();
            let p = py_json_str(&e.pretty);
            (false, format!("{{\"err\":{{{code}\"pretty\":{p}}}"), Some(p), &e.warnings)
        }
    };
    let w = format!(
        "\"warnings\":[{}]}}",
        warnings.iter().map(|w| py_json(&w.encode_utf16().collect::<Vec<_>>())).collect::<Vec<_>>().join(",")
    );
    let ours = format!("{head},{w}");
    let rec_ok = recorded.starts_with("{\"ok\"");
    let accept = rec_ok == ok;
    let value = recorded.starts_with(&format!("{head},\"warnings\":["));
    let pretty_ok = match &pretty {
        None => accept,
        Some(p) => recorded.contains(&format!("\"pretty\":{p}}},\"warnings\":[")),
    };
    let warn_ok = recorded.ends_with(&w);
    ([value, accept, pretty_ok, warn_ok], ours)
}
