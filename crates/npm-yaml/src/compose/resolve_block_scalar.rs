//! `resolveBlockScalar`: the value of a literal or folded block scalar, with its errors.

use super::resolve_end::type_name;
use super::{ResolvedScalar, ScalarType};
use crate::cst::{ErrorMessage, Node, SourceToken};
use crate::errors::{ErrorAt, ErrorCode, Errors, report};
use crate::jsstr::JsString;
use crate::token::Kind;

struct Header {
    folded: bool,
    indent: usize,
    chomp: u8,
    comment: String,
    /// Bytes of the header and the tokens after it on its line.
    length: u32,
}

/// Resolves a `Node::BlockScalar`; `at_root` is compose-node's `ctx.atRoot`.
pub fn resolve_block_scalar(
    src: &str,
    scalar: &Node,
    at_root: bool,
    strict: bool,
    errors: &mut Errors,
) -> ResolvedScalar {
    let Node::BlockScalar { offset, indent, ref props, source } = *scalar else {
        let at = scalar.offset();
        report(errors, ErrorAt::Offset(at), ErrorCode::Impossible, "Block scalar header not found");
        return ResolvedScalar { value: JsString::default(), ty: None, comment: String::new(), range: [at; 3] };
    };
    let start = offset;
    let Some(header) = parse_header(src, offset, props, strict, errors) else {
        return ResolvedScalar { value: JsString::default(), ty: None, comment: String::new(), range: [start; 3] };
    };
    let ty = if header.folded { ScalarType::BlockFolded } else { ScalarType::BlockLiteral };
    let body = &src[source.0 as usize..source.1 as usize];
    let lines: Vec<(&str, &str)> = if body.is_empty() { Vec::new() } else { split_lines(body) };
    let end = start + header.length + body.len() as u32;
    let empty = |content: &str| content.is_empty() || content == "\r";

    // determine the end of content & start of chomping
    let mut chomp_start = lines.len();
    for i in (0..lines.len()).rev() {
        if empty(lines[i].1) {
            chomp_start = i;
        } else {
            break;
        }
    }
    // shortcut for empty contents
    if chomp_start == 0 {
        let value =
            if header.chomp == b'+' && !lines.is_empty() { "\n".repeat(1.max(lines.len() - 1)) } else { String::new() };
        let value = JsString { text: value, lone: Vec::new() };
        return ResolvedScalar { value, ty: Some(ty), comment: header.comment, range: [start, end, end] };
    }

    // find the indentation level to trim from start
    let mut trim_indent = indent as usize + header.indent;
    let mut offset = (offset + header.length) as usize;
    let mut content_start = 0;
    for (i, &(ind, content)) in lines.iter().enumerate().take(chomp_start) {
        if empty(content) {
            if header.indent == 0 && ind.len() > trim_indent {
                trim_indent = ind.len();
            }
        } else {
            if ind.len() < trim_indent {
                let message =
                    "Block scalars with more-indented leading empty lines must use an explicit indentation indicator";
                report(errors, ErrorAt::Offset((offset + ind.len()) as u32), ErrorCode::MissingChar, message);
            }
            if header.indent == 0 {
                trim_indent = ind.len();
            }
            content_start = i;
            if trim_indent == 0 && !at_root {
                let message = "Block scalar values in collections must be indented";
                report(errors, ErrorAt::Offset(offset as u32), ErrorCode::BadIndent, message);
            }
            break;
        }
        offset += ind.len() + content.len() + 1;
    }
    // include trailing more-indented empty lines in content
    let mut i = lines.len();
    while i > chomp_start {
        i -= 1;
        if lines[i].0.len() > trim_indent {
            chomp_start = i + 1;
        }
    }

    let slice = |ind: &'_ str| -> String { ind.get(trim_indent..).unwrap_or("").to_owned() };
    let mut value = String::new();
    let mut sep = "";
    let mut prev_more_indented = false;
    // leading whitespace is kept intact
    for &(ind, _) in &lines[..content_start] {
        value.push_str(&slice(ind));
        value.push('\n');
    }
    for &(ind, content) in &lines[content_start..chomp_start] {
        let mut ind = ind;
        offset += ind.len() + content.len() + 1;
        let crlf = content.ends_with('\r');
        let content = if crlf { &content[..content.len() - 1] } else { content };
        if !content.is_empty() && ind.len() < trim_indent {
            let what = if header.indent > 0 { "explicit indentation indicator" } else { "first line" };
            let message = format!("Block scalar lines must not be less indented than their {what}");
            let at = offset - content.len() - if crlf { 2 } else { 1 };
            report(errors, ErrorAt::Offset(at as u32), ErrorCode::BadIndent, message);
            ind = "";
        }
        if ty == ScalarType::BlockLiteral {
            value.push_str(sep);
            value.push_str(&slice(ind));
            value.push_str(content);
            sep = "\n";
        } else if ind.len() > trim_indent || content.starts_with('\t') {
            // more-indented content within a folded block
            if sep == " " {
                sep = "\n";
            } else if !prev_more_indented && sep == "\n" {
                sep = "\n\n";
            }
            value.push_str(sep);
            value.push_str(&slice(ind));
            value.push_str(content);
            sep = "\n";
            prev_more_indented = true;
        } else if content.is_empty() {
            // empty line
            if sep == "\n" {
                value.push('\n');
            } else {
                sep = "\n";
            }
        } else {
            value.push_str(sep);
            value.push_str(content);
            sep = " ";
            prev_more_indented = false;
        }
    }
    match header.chomp {
        b'-' => {}
        b'+' => {
            for &(ind, _) in &lines[chomp_start..] {
                value.push('\n');
                value.push_str(&slice(ind));
            }
            if !value.ends_with('\n') {
                value.push('\n');
            }
        }
        _ => value.push('\n'),
    }
    let value = JsString { text: value, lone: Vec::new() };
    ResolvedScalar { value, ty: Some(ty), comment: header.comment, range: [start, end, end] }
}

fn parse_header(src: &str, offset: u32, props: &[SourceToken], strict: bool, errors: &mut Errors) -> Option<Header> {
    let first = props.first()?;
    if first.kind != Kind::BlockScalarHeader {
        report(errors, ErrorAt::Token(*first), ErrorCode::Impossible, "Block scalar header not found");
        return None;
    }
    let source = first.source(src);
    let mut indent = 0;
    let mut chomp = 0u8;
    let mut error = None;
    for (i, ch) in source.char_indices().skip(1) {
        if chomp == 0 && (ch == '-' || ch == '+') {
            chomp = ch as u8;
        } else {
            match ch.to_digit(10).filter(|&n| n > 0 && ch.is_ascii_digit()) {
                Some(n) if indent == 0 => indent = n as usize,
                _ => {
                    if error.is_none() {
                        error = Some(offset + i as u32);
                    }
                }
            }
        }
    }
    if let Some(at) = error {
        let message = format!("Block scalar header includes extra characters: {source}");
        report(errors, ErrorAt::Offset(at), ErrorCode::UnexpectedToken, message);
    }
    let mut has_space = false;
    let mut comment = String::new();
    let mut length = first.end - first.start;
    for token in &props[1..] {
        let len = token.end - token.start;
        match token.kind {
            Kind::Space => {
                has_space = true;
                length += len;
            }
            Kind::Newline => length += len,
            Kind::Comment => {
                if strict && !has_space {
                    let message = "Comments must be separated from other tokens by white space characters";
                    report(errors, ErrorAt::Token(*token), ErrorCode::MissingChar, message);
                }
                length += len;
                comment = token.source(src)[1..].to_owned();
            }
            Kind::Unknown => {
                let message = ErrorMessage::NotAToken.text(token.source(src));
                report(errors, ErrorAt::Token(*token), ErrorCode::UnexpectedToken, message);
                length += len;
            }
            kind => {
                let message = format!("Unexpected token in block scalar header: {}", type_name(kind));
                report(errors, ErrorAt::Token(*token), ErrorCode::UnexpectedToken, message);
                length += len;
            }
        }
    }
    Some(Header { folded: source.starts_with('>'), indent, chomp, comment, length })
}

/// `splitLines`: `[indent, content]` per line, the indentation being the leading spaces.
fn split_lines(source: &str) -> Vec<(&str, &str)> {
    source
        .split('\n')
        .map(|line| {
            let n = line.len() - line.trim_start_matches(' ').len();
            (&line[..n], &line[n..])
        })
        .collect()
}
