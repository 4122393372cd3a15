//! The reference scanner: which files a skill body really points at, and how strongly.
//!
//! Skills mention paths in many ways, and only some of them are references to the skill's own
//! files. This scanner reads a body as Markdown (code fences, code spans, links, reference
//! definitions, headings) and keeps a path only when the text points at it:
//!
//! * a Markdown link, image, reference definition or `<references/x.md>` autolink is a
//!   [`Evidence::Link`];
//! * a path the text tells the model to read or run ("see `references/x.md`", "run
//!   `scripts/deploy.sh staging`", `python scripts/c.py` in a shell block, `./scripts/x.sh`) is
//!   an [`Evidence::Instruction`];
//! * any other bundled path (`scripts/…`, `references/…`, `assets/…`, `templates/…`,
//!   `examples/…`) in prose, a list, a table or a code block is a [`Evidence::Mention`].
//!
//! Left out: illustrative paths ("for example `scripts/rotate_pdf.py`", "e.g."), words that
//! only look like paths ("unlimited references/appendix": no extension, no link), footnote
//! definitions (`[^1]: …`), `file:42` positions, placeholders (`${CLAUDE_PLUGIN_ROOT}/…`,
//! `{baseDir}`, `<name>`, `…`), directory trees, and paths in the user's project (a line or
//! section about "your project" or the project structure).
//!
//! `lint` (broken and escaping references) and `show` (the references table) both use it, so
//! they agree on what is a reference and on its line.

use std::ops::Range;

/// Path prefixes that mark a mention of a bundled file (`scripts/run.py`).
pub const RESOURCE_DIRS: [&str; 5] = ["scripts/", "references/", "assets/", "templates/", "examples/"];

/// How strongly the body points at a path. Ordered: `Mention < Instruction < Link`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Evidence {
    /// Named in passing: prose, a list item, a table cell, an argument in a code block.
    Mention,
    /// The body tells the model to read or run it.
    Instruction,
    /// A Markdown link, image, reference definition or autolink.
    Link,
}

impl Evidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Evidence::Mention => "mention",
            Evidence::Instruction => "instruction",
            Evidence::Link => "link",
        }
    }
}

/// One reference in the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Byte range of the target in the body.
    pub start: usize,
    pub end: usize,
    /// The target as written (a leading `./` removed).
    pub target: String,
    pub evidence: Evidence,
    /// A command runs it (`python scripts/x.py`, `./scripts/x.sh`): the instruction may be about
    /// the user's project rather than the skill when the skill has no such folder.
    pub run: bool,
}

/// What a scan of one body found.
#[derive(Debug, Default)]
pub struct Scan {
    pub refs: Vec<Reference>,
    /// The opening line (byte range in the body) of a code fence that is never closed.
    pub unclosed_fence: Option<Range<usize>>,
}

/// An open code fence: its character, length and opening line.
#[derive(Clone, Debug)]
struct OpenFence {
    ch: u8,
    len: usize,
    line: Range<usize>,
    /// Commands in it are run (a shell block, or a block without a language).
    shell: bool,
}

/// Whether `line` opens (or, with `open`, closes) a code fence. Returns the fence character,
/// run length and the info string.
fn fence_of(line: &str) -> Option<(u8, usize, &str)> {
    let t = line.trim_start_matches([' ', '\t']);
    let ch = *t.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = t.bytes().take_while(|&b| b == ch).count();
    if len < 3 {
        return None;
    }
    let info = t[len..].trim();
    // A backtick fence's info string cannot contain a backtick (```` ```code``` ```` is a span).
    if ch == b'`' && info.contains('`') {
        return None;
    }
    Some((ch, len, info))
}

const SHELL_LANGS: [&str; 12] =
    ["", "sh", "bash", "shell", "console", "zsh", "terminal", "powershell", "ps1", "pwsh", "cmd", "fish"];

/// Programs that run the script named after them (`python scripts/x.py`).
const INTERPRETERS: [&str; 24] = [
    "python",
    "python3",
    "py",
    "bash",
    "sh",
    "zsh",
    "node",
    "deno",
    "bun",
    "ruby",
    "perl",
    "pwsh",
    "powershell",
    "rscript",
    "julia",
    "php",
    "source",
    ".",
    "tsx",
    "ts-node",
    "uv",
    "uvx",
    "npx",
    "go",
];

/// Words that tell the model to read or run what follows.
const VERBS: [&str; 30] = [
    "see",
    "read",
    "reads",
    "reading",
    "run",
    "runs",
    "running",
    "load",
    "loads",
    "loading",
    "execute",
    "executes",
    "executing",
    "open",
    "opens",
    "consult",
    "refer",
    "follow",
    "check",
    "use",
    "uses",
    "using",
    "invoke",
    "invokes",
    "call",
    "calls",
    "details",
    "reference",
    "→",
    "->",
];

/// Words before a path that make it an example rather than a reference.
const ILLUSTRATIVE: [&str; 10] = [
    "e.g.",
    "e.g,",
    "eg.",
    "for example",
    "for instance",
    "example:",
    "examples:",
    "example**",
    "examples**",
    "such as",
];

/// Phrases on a line that make it about something hypothetical or the user's own project.
const ELSEWHERE: [&str; 9] = [
    "your project",
    "your repo",
    "your codebase",
    "your app",
    "your own",
    "user's project",
    "would be helpful",
    "would help",
    "hypothetical",
];

/// Heading words that make a section about the user's project rather than the skill.
const PROJECT_SECTIONS: [&str; 8] = [
    "your project",
    "your repo",
    "your codebase",
    "project structure",
    "directory structure",
    "folder structure",
    "file structure",
    "repository structure",
];

/// Lines longer than this are not scanned for references.
const MAX_LINE: usize = 64 * 1024;

/// At most this many references per line.
const MAX_PER_LINE: usize = 64;

/// Every reference in `body`, in order of appearance (duplicates kept: a target can be
/// mentioned in passing and linked later).
pub fn scan(body: &str) -> Scan {
    let mut out = Scan::default();
    let bytes = body.as_bytes();
    // A body without backticks, tildes, brackets, angle brackets or slashes has no fence and
    // references nothing (two SIMD passes).
    if memchr::memchr3(b'`', b'~', b'[', bytes).is_none() && memchr::memchr2(b'/', b'<', bytes).is_none() {
        return out;
    }
    let mut fence: Option<OpenFence> = None;
    let mut project_section = false;
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let text = line.trim_end_matches(['\n', '\r']);
        if let Some((ch, len, info)) = fence_of(text) {
            match &fence {
                Some(open) if open.ch == ch && len >= open.len && info.is_empty() => {
                    fence = None;
                    continue;
                }
                Some(_) => {}
                None => {
                    let lang = info.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
                    fence = Some(OpenFence {
                        ch,
                        len,
                        line: start..start + text.len(),
                        shell: SHELL_LANGS.contains(&lang.as_str()),
                    });
                    continue;
                }
            }
        }
        // Lines longer than any prose (generated data, minified code) are not read for
        // references: the per-reference look-behind below stays bounded.
        if text.len() > MAX_LINE || !might_reference(text) {
            if fence.is_none() && text.starts_with('#') {
                project_section = is_project_heading(text);
            }
            continue;
        }
        let mut line_refs = Vec::new();
        if let Some(open) = &fence {
            fenced_line(text, start, open.shell, &mut line_refs);
        } else if text.starts_with('#') {
            project_section = is_project_heading(text);
            prose_line(text, start, &mut line_refs);
        } else {
            prose_line(text, start, &mut line_refs);
        }
        if line_refs.is_empty() {
            continue;
        }
        let lower = text.to_lowercase();
        let elsewhere = project_section || ELSEWHERE.iter().any(|p| lower.contains(p));
        // A line of a template to fill in: even its links are examples.
        if template_line(text) {
            continue;
        }
        line_refs.truncate(MAX_PER_LINE);
        for mut r in line_refs {
            let before = &text[..(r.start - start).min(text.len())];
            let after = &text[(r.end - start).min(text.len())..];
            if r.evidence != Evidence::Link {
                if elsewhere || illustrative(before) {
                    continue;
                }
                // Prose tells the model to read it: not a word inside code.
                let comment = {
                    let t = text.trim_start();
                    t.starts_with('#') || t.starts_with("//")
                };
                if r.evidence == Evidence::Mention && (fence.is_none() || comment) && instructed(prose_before(before)) {
                    r.evidence = Evidence::Instruction;
                }
            }
            // "`references/x.md` in the llm-wiki skill", "the pdf skill's `scripts/x.py`": a
            // file of another skill, named as such.
            if other_skill(before, after) {
                r.evidence = Evidence::Mention;
            }
            out.refs.push(r);
        }
    }
    if let Some(open) = fence {
        out.unclosed_fence = Some(open.line);
    }
    out
}

/// Byte ranges of the body inside fenced code blocks (fence lines included); an unclosed
/// fence runs to the end.
pub fn fenced_ranges(body: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut open: Option<(u8, usize, usize)> = None;
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let Some((ch, len, info)) = fence_of(line.trim_end_matches(['\n', '\r'])) else { continue };
        match open {
            Some((c, l, s)) if c == ch && len >= l && info.is_empty() => {
                out.push(s..offset);
                open = None;
            }
            Some(_) => {}
            None => open = Some((ch, len, start)),
        }
    }
    if let Some((_, _, s)) = open {
        out.push(s..body.len());
    }
    out
}

/// A line of a document template the skill tells the model to fill in: it has a
/// `[Placeholder]` (bracketed capitalized words that are not a link).
fn template_line(line: &str) -> bool {
    let mut rest = line;
    while let Some(i) = rest.find('[') {
        let after = &rest[i + 1..];
        let Some(close) = after.find(']') else { return false };
        let inner = &after[..close];
        let next = after[close + 1..].chars().next();
        if inner.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && inner.len() <= 40
            && inner.chars().all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
            && !matches!(next, Some('(' | '[' | ':'))
        {
            return true;
        }
        rest = &after[close..];
    }
    false
}

fn is_project_heading(line: &str) -> bool {
    let lower = line.to_lowercase();
    PROJECT_SECTIONS.iter().any(|p| lower.contains(p))
}

/// Whether `line` can hold a reference at all (a cheap test before the full scan).
fn might_reference(line: &str) -> bool {
    let b = line.as_bytes();
    memchr::memchr3(b'[', b'`', b'<', b).is_some()
        || memchr::memchr(b'/', b).is_some() && (RESOURCE_DIRS.iter().any(|d| line.contains(d)) || line.contains("./"))
}

/// The text of the sentence that ends at the end of `before`.
fn sentence(before: &str) -> &str {
    let cut = [". ", "! ", "? ", "; "].iter().filter_map(|p| before.rfind(p).map(|i| i + p.len())).max().unwrap_or(0);
    &before[cut..]
}

/// The prose before a reference: `before` up to the code span the reference sits in, if any.
fn prose_before(before: &str) -> &str {
    // An odd number of backticks: the reference is inside a code span opened at the last one.
    if before.bytes().filter(|&b| b == b'`').count() % 2 == 1 {
        &before[..before.rfind('`').unwrap_or(0)]
    } else {
        before
    }
}

/// The text says the path belongs to another skill.
fn other_skill(before: &str, after: &str) -> bool {
    let b = before.trim_end_matches(['`', ' ']).to_lowercase();
    let a = after.trim_start_matches('`').to_lowercase();
    let mut n = a.len().min(60);
    while !a.is_char_boundary(n) {
        n -= 1;
    }
    let a = &a[..n];
    b.ends_with("skill's")
        || b.ends_with("skill’s")
        || a.starts_with(" in the ") && a.contains(" skill")
        || a.starts_with(" from the ") && a.contains(" skill")
}

fn illustrative(before: &str) -> bool {
    let lower = before.to_lowercase();
    ILLUSTRATIVE.iter().any(|m| lower.contains(m))
}

/// An instruction verb in the same sentence, before the path.
fn instructed(before: &str) -> bool {
    let s = sentence(before).to_lowercase();
    s.split(|c: char| !(c.is_alphanumeric() || c == '→')).any(|w| VERBS.contains(&w))
}

/// A target that names a file by a placeholder, a position or a pattern, not by its name.
fn placeholder(t: &str) -> bool {
    t.contains(['{', '}', '$', '<', '>', '*', '|', '[', ']', '(', ')', '…', '%', '"', '\'', '`', '\\'])
        || t.contains("...")
        || t.contains("//")
        || t.split('/').any(|c| {
            let c = c.to_ascii_lowercase();
            c.starts_with("your") || c.starts_with("my-") || c.starts_with("my_") || c == "xxx" || c.contains("xxxx")
        })
        || position_suffix(t)
}

/// `file.py:42` or `file.py:42:7`: a position in example output.
fn position_suffix(t: &str) -> bool {
    let mut parts = t.rsplit(':');
    let last = parts.next().unwrap_or("");
    t.contains(':') && !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit())
}

/// The last component has an extension (`x.md`), or the path names a directory (`x/`).
fn file_like(t: &str) -> bool {
    if t.ends_with('/') {
        return true;
    }
    let last = t.rsplit('/').next().unwrap_or(t);
    match last.rfind('.') {
        Some(i) => i > 0 && i + 1 < last.len() && last[i + 1..].bytes().all(|b| b.is_ascii_alphanumeric()),
        None => false,
    }
}

/// A bundled path: `scripts/x.py` or `./scripts/x.py`; returns it without `./`. Other `./`
/// paths in commands and code (`./fuzz`, `import "./api"`) are relative to the user's working
/// directory, not the skill.
fn bundled_path(word: &str) -> Option<&str> {
    let w = word.strip_prefix("./").unwrap_or(word);
    let bundled = RESOURCE_DIRS.iter().any(|d| w.starts_with(d) && w.len() > d.len());
    (bundled && !placeholder(w)).then_some(w)
}

/// Trailing punctuation that ends a sentence, not a path.
fn trim_word(w: &str) -> &str {
    w.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '"', '\'', '`'])
}

fn push(refs: &mut Vec<Reference>, at: usize, written: &str, target: &str, evidence: Evidence) {
    // `target` is a suffix of `written` (a leading `./` removed).
    let start = at + (written.len() - target.len());
    refs.push(Reference { start, end: start + target.len(), target: target.to_string(), evidence, run: false });
}

/// A line of a fenced code block.
fn fenced_line(line: &str, at: usize, shell: bool, refs: &mut Vec<Reference>) {
    // Directory trees show a layout, not files to read.
    if line.contains(['├', '└', '│']) {
        return;
    }
    command(line, at, shell, refs);
}

/// Words of a command line (or a code line): the script it runs is an instruction, other
/// bundled paths are mentions.
fn command(line: &str, at: usize, shell: bool, refs: &mut Vec<Reference>) {
    let trimmed = line.trim_start();
    let comment = trimmed.starts_with('#') || trimmed.starts_with("//");
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut pos = 0;
    for piece in line.split_inclusive(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '`' | '=')) {
        let w = piece.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '`' | '='));
        if !w.is_empty() {
            words.push((pos, w));
        }
        pos += piece.len();
    }
    // The program: skip a prompt and environment assignments.
    let mut i = 0;
    while i < words.len() && (matches!(words[i].1, "$" | ">" | "%" | "PS>") || words[i].1.ends_with('=')) {
        i += 1;
    }
    let mut run: Option<usize> = None;
    if shell && !comment && i < words.len() {
        let program = words[i].1.to_ascii_lowercase();
        if bundled_path(words[i].1).is_some() {
            run = Some(i);
        } else if INTERPRETERS.contains(&program.as_str()) {
            // `uv run x.py`, `go run x.go`, `npx tsx x.ts`, `python -u x.py`: the first path.
            run = words[i + 1..].iter().position(|(_, w)| bundled_path(w).is_some()).map(|j| i + 1 + j);
        }
    }
    for (k, (p, w)) in words.iter().enumerate() {
        let w = if Some(k) == run { *w } else { trim_word(w) };
        // `import x from './assets/logo.png'`, `--out ./scripts/`: relative to the code's own
        // file or the working directory, not the skill.
        if Some(k) != run && w.starts_with("./") {
            continue;
        }
        let Some(target) = bundled_path(w) else { continue };
        let evidence = if Some(k) == run { Evidence::Instruction } else { Evidence::Mention };
        if evidence == Evidence::Mention && !file_like(target) {
            continue;
        }
        push(refs, at + p, w, target, evidence);
        if let Some(r) = refs.last_mut() {
            r.run = Some(k) == run;
        }
    }
}

/// A line outside code blocks: links, definitions, autolinks, code spans, bare paths.
fn prose_line(line: &str, at: usize, refs: &mut Vec<Reference>) {
    let trimmed = line.trim_start();
    let indent = line.len() - trimmed.len();
    // A reference definition `[label]: target`; a footnote `[^1]: text` is not one.
    if let Some(rest) = trimmed.strip_prefix('[')
        && !rest.starts_with('^')
        && let Some(close) = rest.find("]:")
        && !rest[..close].contains('[')
    {
        let after = &rest[close + 2..];
        let target = after.trim_start();
        let t_end = target.find(char::is_whitespace).unwrap_or(target.len());
        let t_start = indent + 1 + close + 2 + (after.len() - target.len());
        link_target(&target[..t_end], at + t_start, refs);
        return;
    }
    let bytes = line.as_bytes();
    // Byte ranges of the line that are code spans or links (not read as prose).
    let mut masked = vec![false; bytes.len()];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'`' => {
                let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
                let ticks = &line[i..i + run];
                let body_start = i + run;
                // The closing run of exactly the same length.
                let mut j = body_start;
                let mut close = None;
                while let Some(k) = line[j..].find(ticks) {
                    let s = j + k;
                    let e = s + run;
                    if bytes.get(e) != Some(&b'`') && (s == 0 || bytes[s - 1] != b'`') {
                        close = Some(s);
                        break;
                    }
                    j = e + line[e..].bytes().take_while(|&b| b == b'`').count();
                }
                let Some(s) = close else {
                    i += run;
                    continue;
                };
                code_span(&line[body_start..s], at + body_start, line, i, refs);
                masked[i..s + run].iter_mut().for_each(|m| *m = true);
                i = s + run;
            }
            b']' if bytes.get(i + 1) == Some(&b'(') => {
                let rest = &line[i + 2..];
                let (target, len) = if let Some(r) = rest.strip_prefix('<') {
                    match r.find('>') {
                        Some(e) => (&r[..e], e + 2),
                        None => ("", 0),
                    }
                } else {
                    let mut depth = 0;
                    let end = rest
                        .char_indices()
                        .find(|&(_, c)| match c {
                            '(' => {
                                depth += 1;
                                false
                            }
                            ')' if depth == 0 => true,
                            ')' => {
                                depth -= 1;
                                false
                            }
                            c => c.is_whitespace(),
                        })
                        .map_or(rest.len(), |(j, _)| j);
                    (&rest[..end], end)
                };
                let t_start = i + 2 + usize::from(rest.starts_with('<'));
                link_target(target, at + t_start, refs);
                let close = rest[len.min(rest.len())..].find(')').map_or(rest.len(), |c| len + c + 1);
                let end = (i + 2 + close).min(bytes.len());
                masked[i..end].iter_mut().for_each(|m| *m = true);
                i = end;
            }
            b'<' => {
                // `<references/x.md>`: an autolink-shaped path (HTML tags have no `/` inside
                // a name, or end in `/>`).
                if let Some(e) = line[i + 1..].find('>') {
                    let inner = &line[i + 1..i + 1 + e];
                    if !inner.is_empty()
                        && !inner.contains(char::is_whitespace)
                        && !inner.ends_with('/')
                        && inner.contains('/')
                        && bundled_path(inner).is_some_and(file_like)
                    {
                        let t = bundled_path(inner).unwrap_or(inner);
                        push(refs, at + i + 1, inner, t, Evidence::Link);
                        masked[i..i + e + 2].iter_mut().for_each(|m| *m = true);
                        i += e + 2;
                        continue;
                    }
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    // Bare paths in the prose that is left: they need an extension or a trailing slash
    // ("unlimited references/appendix" is prose).
    let mut pos = 0;
    for piece in line.split_inclusive(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\'' | '*' | '_')) {
        let w = piece.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\'' | '*' | '_'));
        let w = trim_word(w);
        if !w.is_empty()
            && !masked[pos..pos + w.len()].iter().any(|&m| m)
            && let Some(t) = bundled_path(w)
            && file_like(t)
            && !t.ends_with('/')
        {
            push(refs, at + pos, w, t, Evidence::Mention);
        }
        pos += piece.len();
    }
}

/// A code span: a bare path (`scripts/x.py`) or a command (`scripts/deploy.sh staging`,
/// `python scripts/c.py`).
fn code_span(code: &str, at: usize, _line: &str, _tick: usize, refs: &mut Vec<Reference>) {
    let c = code.trim();
    let lead = code.len() - code.trim_start().len();
    if c.is_empty() {
        return;
    }
    if !c.contains(char::is_whitespace) {
        if let Some(t) = bundled_path(c)
            && (file_like(t) || c.starts_with("./"))
        {
            // `./scripts/x.sh` is written to be run.
            let run = c.starts_with("./") && !t.ends_with('/');
            push(refs, at + lead, c, t, if run { Evidence::Instruction } else { Evidence::Mention });
            if let Some(r) = refs.last_mut() {
                r.run = run;
            }
        }
        return;
    }
    command(code, at, true, refs);
}

/// A link target, unless it is a URL, an anchor, a template or a placeholder.
fn link_target(target: &str, at: usize, refs: &mut Vec<Reference>) {
    let t = target.trim();
    if t.is_empty()
        || t.starts_with('#')
        || t.contains("://")
        || t.starts_with("mailto:")
        || t.starts_with("data:")
        || t.contains(['{', '}', '$', '<', '>', '*', '|'])
    {
        return;
    }
    if let Some(i) = t.find(':') {
        let scheme = &t[..i];
        if scheme.len() > 1 && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) {
            return;
        }
    }
    let written = t;
    let t = t.strip_prefix("./").filter(|r| !r.is_empty()).unwrap_or(t);
    push(refs, at, written, t, Evidence::Link);
}

/// Each target once, at its strongest evidence (the first place it has that evidence).
pub fn strongest(refs: Vec<Reference>) -> Vec<(String, Reference)> {
    let mut out: Vec<(String, Reference)> = Vec::new();
    // Where each target already is in `out`: one lookup per reference, not a scan.
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for r in refs {
        let target = percent_decode(r.target.split(['#', '?']).next().unwrap_or(""));
        if target.is_empty() {
            continue;
        }
        match index.get(&target) {
            Some(&i) if r.evidence > out[i].1.evidence => out[i].1 = r,
            Some(_) => {}
            None => {
                index.insert(target.clone(), out.len());
                out.push((target, r));
            }
        }
    }
    out
}

/// `%20` and friends decoded, as a link target names a file.
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = ((b[i + 1] as char).to_digit(16), (b[i + 2] as char).to_digit(16))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(body: &str) -> Vec<(String, Evidence)> {
        scan(body).refs.into_iter().map(|r| (r.target, r.evidence)).collect()
    }

    fn targets(body: &str) -> Vec<String> {
        scan(body).refs.into_iter().map(|r| r.target).collect()
    }

    use Evidence::{Instruction, Link, Mention};

    #[test]
    fn links_definitions_and_autolinks() {
        let body = "See [the guide](references/guide.md#part) and ![img](<assets/a b.png>).\n\
                    [def]: references/def.md \"Title\"\n\
                    [^1]: GitHub Blog.\n\
                    Read <references/l.md> first. Ignore [site](https://x.y), [top](#top), <br/> and <div>.\n\
                    Also [local](./notes.md).\n";
        assert_eq!(
            found(body),
            [
                ("references/guide.md#part".into(), Link),
                ("assets/a b.png".into(), Link),
                ("references/def.md".into(), Link),
                ("references/l.md".into(), Link),
                ("notes.md".into(), Link),
            ]
        );
        let body = "x [a](b.md) y";
        let r = &scan(body).refs[0];
        assert_eq!(&body[r.start..r.end], "b.md");
    }

    #[test]
    fn commands_in_code_spans_and_blocks_are_instructions() {
        let body = "Deploy with `scripts/deploy.sh staging`, or `python scripts/c.py --fast`.\n\
                    Then `./scripts/x.sh`.\n\
                    ```bash\n$ python3 scripts/build.py --input assets/data.json\n./scripts/check\n```\n\
                    ```python\nopen('references/table.md')\n# See references/prep.md\n```\n";
        assert_eq!(
            found(body),
            [
                ("scripts/deploy.sh".into(), Instruction),
                ("scripts/c.py".into(), Instruction),
                ("scripts/x.sh".into(), Instruction),
                ("scripts/build.py".into(), Instruction),
                ("assets/data.json".into(), Mention),
                ("scripts/check".into(), Instruction),
                ("references/table.md".into(), Mention),
                ("references/prep.md".into(), Instruction),
            ]
        );
        let r = &scan(body).refs[2];
        assert_eq!(&body[r.start..r.end], "scripts/x.sh");
    }

    #[test]
    fn verbs_make_mentions_instructions() {
        assert_eq!(found("**Reference:** See `assets/deploy.yml`\n"), [("assets/deploy.yml".into(), Instruction)]);
        assert_eq!(found("Run scripts/go.sh now.\n"), [("scripts/go.sh".into(), Instruction)]);
        assert_eq!(found("- `assets/slo.md` - SLO template\n"), [("assets/slo.md".into(), Mention)]);
        // The verb must be in the same sentence.
        assert_eq!(found("Read on. The file `references/a.md` has it.\n"), [("references/a.md".into(), Mention)]);
        // Another skill's file, named as such, is only a mention.
        assert_eq!(
            found("Follow `references/ingest.md` in the llm-wiki skill.\n"),
            [("references/ingest.md".into(), Mention)]
        );
        assert_eq!(found("See the wiki skill's `references/p.md`.\n"), [("references/p.md".into(), Mention)]);
        // Non-ASCII text around a reference (a cut at 60 bytes inside `→`).
        let body = format!("Read `references/x.md` {}→ then.\n", "a".repeat(57));
        assert_eq!(found(&body), [("references/x.md".into(), Instruction)]);
    }

    #[test]
    fn false_positive_shapes_stay_quiet() {
        for body in [
            "- **Example**: `scripts/rotate_pdf.py` for PDF rotation tasks\n",
            "Bundle helpers, for example `scripts/rotate_pdf.py`.\n",
            "- Page limit: 8 pages main text + unlimited references/appendix\n",
            "Keep commands in `scripts/commands`.\n",
            "Link sources and add a references/citations section.\n",
            "[^1]: GitHub Blog.\n",
            "```\nHIGH [FS-BOUNDARY] scripts/scanner.py:15\n```\n",
            "Found in `scripts/analyzer.py:88`.\n",
            "Run `${CLAUDE_PLUGIN_ROOT}/scripts/run.py` and `{baseDir}/scripts/x.py`.\n",
            "```bash\npython ${SKILL_DIR}/scripts/x.py\n```\n",
            "## Your project\n\n```bash\npython scripts/train.py\n```\nRun `scripts/eval.py`.\n",
            "In your project, run `python scripts/train.py`.\n",
            "2. A `references/schema.md` file documenting the schemas would be helpful to store in the skill\n",
            "```\nskill/\n├── scripts/\n│   └── scripts/run.py\n```\n",
            "asset: \"assets/[name].[hash][ext]\"\n",
            "- [c4-code-file-1.md](./c4-code-file-1.md) - [Description]\n",
            "**Import static assets** (`import logo from './assets/logo.png'`) so Vite fingerprints them.\n",
            "Put files in `scripts/...` or `scripts/<name>.py` or `references/your-topic.md`.\n",
            "```bash\n./fuzz corpus/\nuv add ./local-package\n```\nimport `./api.service` and save to `./report.md`.\n",
            "A `div` and `a b` and ``x`` and an unclosed ` tick.\n",
        ] {
            assert!(targets(body).is_empty(), "{body:?} gave {:?}", targets(body));
        }
        // A link is explicit even in a project section.
        assert_eq!(targets("## Your project\n[guide](references/g.md)\n"), ["references/g.md"]);
    }

    #[test]
    fn fences() {
        assert_eq!(scan("a\n```sh\nx\n```\nb\n").unclosed_fence, None);
        assert_eq!(scan("a\n````md\n```\nx\n```\n````\n").unclosed_fence, None);
        assert_eq!(scan("a\n~~~\n```\n~~~\n").unclosed_fence, None);
        assert_eq!(scan("Use ```inline``` here.\n").unclosed_fence, None);
        let body = "a\n```python\nx\n";
        let open = scan(body).unclosed_fence.unwrap();
        assert_eq!(&body[open], "```python");
        // A closing fence may not have an info string.
        assert!(scan("```\nx\n```js\n").unclosed_fence.is_some());
    }
}
