//! Document structure pre-scan (npm yaml's lexer stream state) and the
//! mapping of saphyr-parser scan errors to npm yaml's errors.

use super::diag::Diag;
use super::schema::SchemaKind;
use super::source::Source;

pub(crate) struct Prescan {
    /// byte offset where the first document's text ends (exclusive)
    pub doc1_end: usize,
    /// byte offset (line start) of a second document, if any
    pub extra_doc: Option<usize>,
    /// `%TAG` handles (handle, prefix), including the defaults
    pub tag_prefixes: Vec<(String, String)>,
    pub warnings: Vec<Diag>,
    /// error reported after the first document's composition errors
    pub late_error: Option<Diag>,
    /// error reported before everything else
    pub error: Option<Diag>,
    /// directive lines (byte ranges) before the first document
    pub directive_lines: Vec<(usize, usize)>,
    /// the directives are not followed by `---` (npm yaml still composes the document)
    pub blank_directives: bool,
    /// the first document's schema (`%YAML 1.1` selects yaml-1.1)
    pub schema: SchemaKind,
    /// `%YAML` directive lines (byte ranges) before the first document
    pub yaml_lines: Vec<(usize, usize)>,
}

fn is_empty_at(b: &[u8], i: usize) -> bool {
    super::indent::is_empty(b.get(i).copied())
}

/// `---`/`...` followed by white space or end of line at the line start.
pub(crate) fn marker_at(b: &[u8], ls: usize) -> Option<u8> {
    if b.len() >= ls + 3 && is_empty_at(b, ls + 3) {
        let m = &b[ls..ls + 3];
        if m == b"---" {
            return Some(b'-');
        }
        if m == b"..." {
            return Some(b'.');
        }
    }
    None
}

/// npm yaml's lexer `atLineEnd()` for a line: only spaces/tabs then EOL or `#`.
fn blank_or_comment(line: &[u8]) -> bool {
    for &c in line {
        match c {
            b' ' | b'\t' => continue,
            b'#' | b'\n' => return true,
            b'\r' => return true,
            _ => return false,
        }
    }
    true
}

pub(crate) fn prescan(src: &Source<'_>) -> Prescan {
    let text = src.text;
    let b = text.as_bytes();
    let mut p = Prescan {
        doc1_end: text.len(),
        extra_doc: None,
        tag_prefixes: vec![("!".into(), "!".into()), ("!!".into(), "tag:yaml.org,2002:".into())],
        warnings: Vec::new(),
        late_error: None,
        error: None,
        directive_lines: Vec::new(),
        blank_directives: false,
        schema: SchemaKind::Core,
        yaml_lines: Vec::new(),
    };
    // iterate lines
    let mut ls = 0usize;
    // state: 0 = stream before doc1, 1 = in doc1, 2 = stream after doc1
    let mut state = 0u8;
    let mut at_directives = false;
    let mut doc1_start_explicit = false;
    while ls < b.len() {
        let le = match memchr_nl(b, ls) {
            Some(i) => i + 1,
            None => b.len(),
        };
        let mut line = &b[ls..le];
        let mut lstart = ls;
        if state != 1 && line.starts_with("\u{feff}".as_bytes()) {
            line = &line[3..];
            lstart += 3;
        }
        match state {
            0 | 2 => {
                if line.first() == Some(&b'%') && state == 0 {
                    at_directives = true;
                    p.directive_lines.push((lstart, le));
                    directive(src, lstart, line, &mut p);
                } else if line.first() == Some(&b'%') {
                    // directive after the first document: belongs to the next one
                } else if blank_or_comment(line) {
                } else if state == 2 {
                    p.extra_doc = Some(ls);
                    break;
                } else {
                    // document starts here
                    match marker_at(b, lstart) {
                        Some(b'.') => {
                            // empty document ended immediately
                            p.doc1_end = lstart;
                            state = 2;
                            doc_end_trailing(src, lstart + 3, &mut p);
                        }
                        Some(_) => {
                            doc1_start_explicit = true;
                            state = 1;
                        }
                        None => {
                            state = 1;
                        }
                    }
                    if state != 0 && at_directives && !doc1_start_explicit {
                        p.blank_directives = true;
                        p.late_error = Some(Diag::new(
                            "YAMLParseError",
                            "Missing directives-end/doc-start indicator line".into(),
                            ls,
                            None,
                        ));
                    }
                }
            }
            _ => match marker_at(b, ls) {
                Some(b'-') => {
                    p.doc1_end = ls;
                    p.extra_doc = Some(ls);
                    break;
                }
                Some(_) => {
                    p.doc1_end = ls;
                    state = 2;
                    doc_end_trailing(src, ls + 3, &mut p);
                }
                None => {}
            },
        }
        ls = le;
    }
    if state == 0 && at_directives {
        p.blank_directives = true;
        // directives but no document
        p.late_error =
            Some(Diag::new("YAMLParseError", "Missing directives-end indicator line".into(), text.len(), None));
    }
    p
}

/// Content after a `...` marker on the same line: `Unexpected <token> at node end`.
fn doc_end_trailing(src: &Source<'_>, from: usize, p: &mut Prescan) {
    let b = src.text.as_bytes();
    let mut i = from;
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    let Some(&c) = b.get(i) else { return };
    if matches!(c, b'\n' | b'#') || (c == b'\r' && matches!(b.get(i + 1), None | Some(b'\n'))) {
        return;
    }
    let (ty, len) = super::scanerr::token_type_at(b, i, false);
    if p.late_error.is_none() {
        p.late_error =
            Some(Diag::new("YAMLParseError", format!("Unexpected {ty} at node end"), i, Some(i + len.max(1))));
    }
}

fn memchr_nl(b: &[u8], from: usize) -> Option<usize> {
    b[from..].iter().position(|&c| c == b'\n').map(|i| i + from)
}

fn directive(src: &Source<'_>, ls: usize, line: &[u8], p: &mut Prescan) {
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end_matches(['\n', '\r']);
    // directive source excludes a ` #comment` and trailing white space
    let mut dir_end = text.len();
    let tb = text.as_bytes();
    let mut search = 0;
    while let Some(i) = text[search..].find('#').map(|i| i + search) {
        if i > 0 && (tb[i - 1] == b' ' || tb[i - 1] == b'\t') {
            dir_end = i - 1;
            break;
        }
        search = i + 1;
    }
    while dir_end > 0 && (tb[dir_end - 1] == b' ' || tb[dir_end - 1] == b'\t') {
        dir_end -= 1;
    }
    let dir = &text[..dir_end];
    let parts: Vec<&str> = dir.trim().split([' ', '\t']).filter(|s| !s.is_empty()).collect();
    let name = parts.first().copied().unwrap_or("");
    let rest = &parts[1.min(parts.len())..];
    let _ = src;
    let range_end = ls + dir.len();
    match name {
        "%TAG" => {
            if rest.len() != 2 {
                p.warnings.push(Diag::new(
                    "YAMLParseError",
                    "%TAG directive should contain exactly two parts".into(),
                    ls,
                    Some(range_end),
                ));
                if rest.len() < 2 {
                    return;
                }
            }
            p.tag_prefixes.push((rest[0].to_string(), rest[1].to_string()));
        }
        "%YAML" => {
            p.yaml_lines.push((ls, ls + line.len()));
            if rest.len() != 1 {
                if p.error.is_none() {
                    p.error = Some(Diag::new(
                        "YAMLParseError",
                        "%YAML directive should contain exactly one part".into(),
                        ls,
                        Some(range_end),
                    ));
                }
                return;
            }
            let v = rest[0];
            // `Directives.add` sets the version only for these two; the document then takes
            // it (`yaml.explicit`), so the last valid `%YAML` line decides.
            match v {
                "1.1" => p.schema = SchemaKind::Yaml11,
                "1.2" => p.schema = SchemaKind::Core,
                _ => {}
            }
            if v != "1.1" && v != "1.2" {
                let valid = {
                    let mut it = v.split('.');
                    let a = it.next().unwrap_or("");
                    let bb = it.next().unwrap_or("");
                    it.next().is_none()
                        && !a.is_empty()
                        && !bb.is_empty()
                        && a.bytes().all(|c| c.is_ascii_digit())
                        && bb.bytes().all(|c| c.is_ascii_digit())
                };
                let d = Diag::new(
                    if valid { "YAMLWarning" } else { "YAMLParseError" },
                    format!("Unsupported YAML version {v}"),
                    ls + 6,
                    Some(range_end),
                );
                if valid {
                    p.warnings.push(d);
                } else if p.error.is_none() {
                    p.error = Some(d);
                }
            }
        }
        _ => p.warnings.push(Diag::new("YAMLWarning", format!("Unknown directive {name}"), ls, Some(range_end))),
    }
}

/// The `MULTIPLE_DOCS` error for a second document starting at byte `start`.
pub(crate) fn multi_doc_error(src: &Source<'_>, start: usize) -> Diag {
    let b = src.text.as_bytes();
    let le = memchr_nl(b, start).unwrap_or(b.len());
    // does anything but blank lines follow on later lines of this document?
    let mut only_first_line = true;
    let mut ls = le + 1;
    while ls < b.len() {
        if marker_at(b, ls).is_some() {
            break;
        }
        let e = memchr_nl(b, ls).unwrap_or(b.len());
        let line = &b[ls..e];
        if !line.iter().all(|c| matches!(c, b' ' | b'\t' | b'\r')) {
            only_first_line = false;
            break;
        }
        ls = e + 1;
    }
    let mut end = le;
    while end > start && b[end - 1] == b'\r' {
        end -= 1;
    }
    // With a line break after the content, the content's range ends on the next
    // line (1 caret) unless the document ends in an empty node.
    let has_newline = le < b.len();
    let line = &src.text[start..end];
    let t = line.trim_end_matches([' ', '\t']);
    let empty_node_end = t.is_empty()
        || t == "---"
        || t == "..."
        || t == "-"
        || t == "?"
        || t == ":"
        || t.ends_with(" -")
        || t.ends_with(':') && !t.contains('#');
    let to_eol = only_first_line && (!has_newline || empty_node_end);
    Diag::new(
        "YAMLParseError",
        "Source contains multiple documents; please use YAML.parseAllDocuments()".into(),
        start,
        if to_eol && end > start + 1 { Some(end) } else { None },
    )
}
