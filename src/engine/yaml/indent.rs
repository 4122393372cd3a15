//! npm yaml counts only spaces as indentation; saphyr-parser is more lenient
//! with tabs. These checks reproduce npm yaml's verdicts on tabs and on
//! insufficiently indented continuation lines in block context.

use super::diag::Diag;

/// A whitespace token containing a tab: (byte pos, byte len, parser indent at the token).
type TabTok = (usize, usize, usize);

/// Emulates npm yaml's `resolveProps` tab rules for the tokens on a node's line
/// before the node content. `line_start..content` is lexed; rules only apply
/// from `seg_start` on. Returns the offending whitespace token (pos, len).
pub(crate) fn check_prefix(
    text: &str,
    line_start: usize,
    seg_start: usize,
    content: usize,
    parent_indent: usize,
    x_is_block: bool,
) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let end = content.min(b.len());
    let mut i = line_start;
    let mut indent = 0usize;
    let mut at_nl_parser = true;
    let mut at_newline = seg_start <= line_start;
    let mut tab: Option<TabTok> = None;
    // a `---` document start marker acts like an indicator after which
    // `atNewline` is false
    if b[i..end].starts_with(b"---") && matches!(b.get(i + 3), None | Some(b' ' | b'\t')) {
        i += 3;
        at_newline = false;
        at_nl_parser = false;
    }
    // leading spaces (pushSpaces(false))
    while i < end && b[i] == b' ' {
        i += 1;
    }
    indent += i - line_start;
    while i < end {
        let c = b[i];
        let active = i >= seg_start;
        if c == b' ' || c == b'\t' {
            let st = i;
            while i < end && (b[i] == b' ' || b[i] == b'\t') {
                i += 1;
            }
            let has_tab = b[st..i].contains(&b'\t');
            if active && has_tab {
                tab = Some((st, i - st, indent));
            }
            if at_nl_parser && b[st] == b' ' {
                indent += i - st;
            }
            continue;
        }
        let next_ws = matches!(b.get(i + 1), None | Some(b' ' | b'\t' | b'\n' | b'\r')) || i + 1 >= end;
        if matches!(c, b'-' | b'?' | b':') && next_ws {
            if active {
                if let Some(t) = tab
                    && at_newline
                {
                    return Some((t.0, t.1));
                }
                tab = None;
                at_newline = c != b':';
            }
            if at_nl_parser {
                indent += 1;
            }
            i += 1;
            continue;
        }
        if (c == b'&' || c == b'!') && active {
            if let Some(t) = tab
                && at_newline
            {
                return Some((t.0, t.1));
            }
            tab = None;
            at_newline = false;
            at_nl_parser = false;
            while i < end && !matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
            }
            continue;
        }
        if i < seg_start {
            // text of a previous node on this line (e.g. the key)
            at_nl_parser = false;
            i = seg_start.max(i + 1);
            continue;
        }
        break;
    }
    if let Some(t) = tab
        && ((at_newline && t.2 <= parent_indent) || x_is_block)
    {
        return Some((t.0, t.1));
    }
    None
}

/// The kinds of multi-line nodes whose continuation lines are checked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cont {
    Plain,
    Quoted(u8),
    /// flow collection: is_map
    Flow(bool),
}

fn line_start_of(b: &[u8], pos: usize) -> usize {
    b[..pos.min(b.len())].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1)
}

/// Check the continuation lines of a node spanning `start..end` (bytes) in
/// block context, where npm yaml requires at least `required` spaces.
pub(crate) fn check_continuation(text: &str, start: usize, end: usize, required: usize, kind: Cont) -> Option<Diag> {
    if required == 0 {
        return None;
    }
    let b = text.as_bytes();
    let end = end.min(b.len());
    if start >= end {
        return None;
    }
    let mut ls = match memchr::memchr(b'\n', &b[start..end]) {
        Some(i) => start + i + 1,
        None => return None,
    };
    while ls < end {
        let mut j = ls;
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        let sp = j - ls;
        let ch = b.get(j).copied();
        let blank = match ch {
            None | Some(b'\n') => true,
            Some(b'\r') => matches!(b.get(j + 1), None | Some(b'\n')),
            _ => false,
        };
        if !blank && sp < required {
            // first non-white-space char on the line
            let mut k = j;
            while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
                k += 1;
            }
            let rest = b.get(k).copied();
            match kind {
                Cont::Plain => {
                    if ch == Some(b'\t') {
                        let content = !matches!(rest, None | Some(b'\n' | b'\r' | b'#'));
                        return Some(if content {
                            Diag::new("YAMLParseError", "Tabs are not allowed as indentation".into(), j, Some(k))
                        } else {
                            Diag::new(
                                "YAMLParseError",
                                "All mapping items must start at the same column".into(),
                                ls,
                                None,
                            )
                        });
                    }
                }
                Cont::Quoted(q) => {
                    let mut e = ls - 1;
                    if e > 0 && b[e - 1] == b'\r' {
                        e -= 1;
                    }
                    return Some(Diag::new("YAMLParseError", format!("Missing closing {}quote", q as char), e, None));
                }
                Cont::Flow(is_map) => {
                    let closing = if is_map { b'}' } else { b']' };
                    let ok = rest == Some(b'#') || (sp + 1 == required && rest == Some(closing) && k + 1 == end);
                    if !ok {
                        let (name, ch) = if is_map { ("Flow map", '}') } else { ("Flow sequence", ']') };
                        return Some(Diag::new(
                            "YAMLParseError",
                            format!("{name} in block collection must be sufficiently indented and end with a {ch}"),
                            k,
                            None,
                        ));
                    }
                }
            }
        }
        ls = match b[ls..end].iter().position(|&c| c == b'\n') {
            Some(i) => ls + i + 1,
            None => break,
        };
    }
    let _ = line_start_of;
    None
}

pub(crate) fn line_start(text: &str, pos: usize) -> usize {
    line_start_of(text.as_bytes(), pos)
}

/// Column (in chars) of byte `pos` on its line, 0-based.
pub(crate) fn column(text: &str, pos: usize) -> usize {
    let ls = line_start(text, pos);
    text[ls..pos.min(text.len())].chars().count()
}

/// npm yaml's lexer `isEmpty`: white space, a line break or the end of the text.
pub(crate) fn is_empty(c: Option<u8>) -> bool {
    matches!(c, None | Some(b' ' | b'\n' | b'\r' | b'\t'))
}
