//! Block scalars (`|`, `>`) exactly as npm yaml computes them: the lexer's
//! extent (`parseBlockScalar`) and `resolveBlockScalar`, on the source text.

use super::diag::Diag;
use super::indent::is_empty;

pub(crate) struct BlockScalar {
    pub value: String,
    /// byte offset just past the scalar's source (npm yaml's range end)
    pub end: usize,
    pub errors: Vec<Diag>,
}

/// `header` is the byte offset of `|`/`>`; `indent_next` the lexer's indentNext
/// before the scalar; `parent_indent` npm yaml's `scalar.indent`.
pub(crate) fn resolve(
    text: &str,
    limit: usize,
    header: usize,
    indent_next: usize,
    parent_indent: usize,
    at_root: bool,
) -> BlockScalar {
    let buf = &text.as_bytes()[..limit.min(text.len())];
    let at = |i: usize| -> Option<u8> { buf.get(i).copied() };
    let mut errors = Vec::new();
    // --- lexer: parseBlockScalarHeader
    let mut block_indent: isize = -1;
    let mut keep = false;
    {
        let mut i = header;
        loop {
            i += 1;
            match at(i) {
                Some(b'+') => keep = true,
                Some(c @ b'1'..=b'9') => block_indent = (c - b'0') as isize - 1,
                Some(b'-') => {}
                _ => break,
            }
        }
    }
    let mut hend = header;
    while !(is_empty(at(hend)) || at(hend) == Some(b'#')) {
        hend += 1;
    }
    let header_src = &text[header..hend];
    // rest of the header line: spaces, comment
    let mut p = hend;
    while matches!(at(p), Some(b' ' | b'\t')) {
        p += 1;
    }
    let rest_start = p;
    let mut line_end = p;
    while line_end < buf.len() && buf[line_end] != b'\n' {
        line_end += 1;
    }
    let mut rest_end = line_end;
    if rest_end > rest_start && buf[rest_end - 1] == b'\r' {
        rest_end -= 1;
    }
    let pos = if line_end < buf.len() { line_end + 1 } else { buf.len() };
    let header_len = pos - header;
    // --- lexer: parseBlockScalar
    let mut indent_next = indent_next;
    let mut nl: isize = pos as isize - 1;
    let mut indent = 0usize;
    let mut i = pos;
    loop {
        match at(i) {
            Some(b' ') => indent += 1,
            Some(b'\n') => {
                nl = i as isize;
                indent = 0;
            }
            Some(b'\r') if at(i + 1) == Some(b'\n') => {}
            _ => break,
        }
        i += 1;
    }
    let continue_scalar = |offset: usize, indent_next: usize| -> Option<usize> {
        let mut ch = at(offset);
        if indent_next > 0 {
            let mut ind = 0;
            while ch == Some(b' ') {
                ind += 1;
                ch = at(offset + ind);
            }
            if ch == Some(b'\r') {
                let next = at(offset + ind + 1);
                if next == Some(b'\n') {
                    return Some(offset + ind + 1);
                }
            }
            return if ch == Some(b'\n') || ind >= indent_next { Some(offset + ind) } else { None };
        }
        if ch == Some(b'-') || ch == Some(b'.') {
            let dt = buf.get(offset..offset + 3);
            if (dt == Some(b"---") || dt == Some(b"...")) && is_empty(at(offset + 3)) {
                return None;
            }
        }
        Some(offset)
    };
    if indent >= indent_next {
        if block_indent == -1 {
            indent_next = indent;
        } else {
            indent_next = block_indent as usize + if indent_next == 0 { 1 } else { indent_next };
        }
        while let Some(cs) = continue_scalar((nl + 1) as usize, indent_next) {
            match buf[cs.min(buf.len())..].iter().position(|&c| c == b'\n') {
                Some(k) => nl = (cs + k) as isize,
                None => {
                    nl = buf.len() as isize;
                    break;
                }
            }
        }
    }
    // Trailing insufficiently indented tabs are invalid.
    let mut i = (nl + 1) as usize;
    let mut ch = at(i);
    while ch == Some(b' ') {
        i += 1;
        ch = at(i);
    }
    if ch == Some(b'\t') {
        while matches!(ch, Some(b'\t' | b' ' | b'\r' | b'\n')) {
            i += 1;
            ch = at(i);
        }
        nl = i as isize - 1;
    } else if !keep {
        loop {
            let mut i = nl - 1;
            let mut ch = if i >= 0 { at(i as usize) } else { None };
            if ch == Some(b'\r') {
                i -= 1;
                ch = if i >= 0 { at(i as usize) } else { None };
            }
            let last_char = i;
            while ch == Some(b' ') {
                i -= 1;
                ch = if i >= 0 { at(i as usize) } else { None };
            }
            if ch == Some(b'\n') && i >= pos as isize && i + 1 + indent as isize > last_char {
                nl = i;
            } else {
                break;
            }
        }
    }
    let src_end = ((nl + 1).max(pos as isize) as usize).min(buf.len());
    let source = &text[pos..src_end];
    // --- composer: resolveBlockScalar
    let mode = buf[header];
    // header
    let mut h_indent = 0usize;
    let mut chomp = 0u8;
    let mut herr: Option<usize> = None;
    for (k, c) in header_src.bytes().enumerate().skip(1) {
        if chomp == 0 && (c == b'-' || c == b'+') {
            chomp = c;
        } else {
            let n = if c.is_ascii_digit() { (c - b'0') as usize } else { 0 };
            if h_indent == 0 && n != 0 {
                h_indent = n;
            } else if herr.is_none() {
                herr = Some(header + k);
            }
        }
    }
    if let Some(e) = herr {
        errors.push(Diag::new(
            "YAMLParseError",
            format!("Block scalar header includes extra characters: {header_src}"),
            e,
            Some(e + 1),
        ));
    }
    if rest_end > rest_start && buf[rest_start] != b'#' {
        let s = &text[rest_start..rest_end];
        let ty = if s.starts_with(['"']) {
            "double-quoted-scalar"
        } else if s.starts_with('\'') {
            "single-quoted-scalar"
        } else {
            "scalar"
        };
        errors.push(Diag::new(
            "YAMLParseError",
            format!("Unexpected token in block scalar header: {ty}"),
            rest_start,
            Some(rest_end),
        ));
    }
    let start = header;
    let literal = mode == b'|';
    // lines: [indent, content]
    let lines: Vec<(&str, &str)> = if source.is_empty() { Vec::new() } else { split_lines(source) };
    let mut chomp_start = lines.len();
    for k in (0..lines.len()).rev() {
        let content = lines[k].1;
        if content.is_empty() || content == "\r" {
            chomp_start = k;
        } else {
            break;
        }
    }
    let end = start + header_len + source.len();
    if chomp_start == 0 {
        let value =
            if chomp == b'+' && !lines.is_empty() { "\n".repeat((lines.len() - 1).max(1)) } else { String::new() };
        return BlockScalar { value, end, errors };
    }
    let mut trim_indent = parent_indent + h_indent;
    let mut offset = header + header_len;
    let mut content_start = 0;
    for (k, &(ind, content)) in lines.iter().enumerate().take(chomp_start) {
        if content.is_empty() || content == "\r" {
            if h_indent == 0 && ind.len() > trim_indent {
                trim_indent = ind.len();
            }
        } else {
            if ind.len() < trim_indent {
                errors.push(Diag::new(
                    "YAMLParseError",
                    "Block scalars with more-indented leading empty lines must use an explicit indentation indicator"
                        .into(),
                    offset + ind.len(),
                    None,
                ));
            }
            if h_indent == 0 {
                trim_indent = ind.len();
            }
            content_start = k;
            if trim_indent == 0 && !at_root {
                errors.push(Diag::new(
                    "YAMLParseError",
                    "Block scalar values in collections must be indented".into(),
                    offset,
                    None,
                ));
            }
            break;
        }
        offset += ind.len() + content.len() + 1;
    }
    // (the JS loop re-checks `i >= chompStart` after each update)
    let mut k = lines.len();
    while k > chomp_start {
        k -= 1;
        if lines[k].0.len() > trim_indent {
            chomp_start = k + 1;
        }
    }
    let mut value = String::new();
    let mut sep = "";
    let mut prev_more = false;
    for &(ind, _) in lines.iter().take(content_start) {
        value.push_str(ind.get(trim_indent..).unwrap_or(""));
        value.push('\n');
    }
    for &(ind0, content0) in lines.iter().take(chomp_start).skip(content_start) {
        let mut ind = ind0;
        let mut content = content0;
        offset += ind.len() + content.len() + 1;
        let crlf = content.ends_with('\r');
        if crlf {
            content = &content[..content.len() - 1];
        }
        if !content.is_empty() && ind.len() < trim_indent {
            let src = if h_indent != 0 { "explicit indentation indicator" } else { "first line" };
            errors.push(Diag::new(
                "YAMLParseError",
                format!("Block scalar lines must not be less indented than their {src}"),
                offset - content.len() - if crlf { 2 } else { 1 },
                None,
            ));
            ind = "";
        }
        let ind_rest = ind.get(trim_indent..).unwrap_or("");
        if literal {
            value.push_str(sep);
            value.push_str(ind_rest);
            value.push_str(content);
            sep = "\n";
        } else if ind.len() > trim_indent || content.starts_with('\t') {
            if sep == " " {
                sep = "\n";
            } else if !prev_more && sep == "\n" {
                sep = "\n\n";
            }
            value.push_str(sep);
            value.push_str(ind_rest);
            value.push_str(content);
            sep = "\n";
            prev_more = true;
        } else if content.is_empty() {
            if sep == "\n" {
                value.push('\n');
            } else {
                sep = "\n";
            }
        } else {
            value.push_str(sep);
            value.push_str(content);
            sep = " ";
            prev_more = false;
        }
    }
    match chomp {
        b'-' => {}
        b'+' => {
            for &(ind, _) in lines.iter().skip(chomp_start) {
                value.push('\n');
                value.push_str(ind.get(trim_indent..).unwrap_or(""));
            }
            if !value.ends_with('\n') {
                value.push('\n');
            }
        }
        _ => value.push('\n'),
    }
    BlockScalar { value, end, errors }
}

/// `source.split(/\n( *)/)` into `[indent, content]` pairs.
fn split_lines(source: &str) -> Vec<(&str, &str)> {
    let b = source.as_bytes();
    let mut out = Vec::new();
    // first line: leading spaces
    let first_end = b.iter().position(|&c| c == b'\n').unwrap_or(b.len());
    let first = &source[..first_end];
    let sp = first.bytes().take_while(|&c| c == b' ').count();
    out.push((&first[..sp], &first[sp..]));
    let mut i = first_end;
    while i < b.len() {
        // b[i] == '\n'
        let st = i + 1;
        let mut j = st;
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        let e = b[j..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| j + k);
        out.push((&source[st..j], &source[j..e]));
        i = e;
    }
    out
}
