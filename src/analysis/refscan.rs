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

use crate::analysis::markdown;
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
    /// What a closing fence for it must start with (`> ` in a quote, spaces in a list item).
    pub fence_indent: String,
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

/// A search for any of `patterns` at once (as `patterns.iter().any(|p| text.contains(p))`).
fn any_of(patterns: &[&str]) -> aho_corasick::AhoCorasick {
    aho_corasick::AhoCorasick::new(patterns).expect("fixed patterns")
}

static ILLUSTRATIVE_SET: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| any_of(&ILLUSTRATIVE));
static ELSEWHERE_SET: std::sync::LazyLock<aho_corasick::AhoCorasick> = std::sync::LazyLock::new(|| any_of(&ELSEWHERE));
static PROJECT_SECTIONS_SET: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| any_of(&PROJECT_SECTIONS));

/// The bundle folders of [`RESOURCE_DIRS`], each searched for with a finder built once.
static RESOURCE_DIR_FINDERS: std::sync::LazyLock<Vec<memchr::memmem::Finder<'static>>> =
    std::sync::LazyLock::new(|| RESOURCE_DIRS.iter().map(|d| memchr::memmem::Finder::new(d.as_bytes())).collect());

/// Where a body names a bundle folder (`scripts/`, …): the byte ranges of every occurrence, in
/// order. Each ends at its own `/` and none holds another `/`, so no two overlap, and a line
/// names one exactly when an occurrence lies inside it.
struct DirNames(Vec<Range<usize>>);

impl DirNames {
    fn of(body: &str) -> DirNames {
        let mut all = Vec::new();
        for (finder, dir) in RESOURCE_DIR_FINDERS.iter().zip(RESOURCE_DIRS) {
            all.extend(finder.find_iter(body.as_bytes()).map(|at| at..at + dir.len()));
        }
        all.sort_unstable_by_key(|r| r.start);
        DirNames(all)
    }

    /// Whether the text at `r` names a bundle folder (`names_resource_dir` of `&body[r]`, which
    /// the tests compare it with).
    fn within(&self, r: Range<usize>) -> bool {
        let i = self.0.partition_point(|o| o.start < r.start);
        self.0.get(i).is_some_and(|o| o.end <= r.end)
    }
}

/// Lines longer than this are not scanned for references.
const MAX_LINE: usize = 64 * 1024;

/// At most this many references per line.
const MAX_PER_LINE: usize = 64;

/// A reference found in one kind of text, before the line around it is read.
struct Found {
    r: Reference,
    /// In a code block.
    code: bool,
    /// On a comment line of a code block (`# …`, `// …`).
    comment: bool,
    /// In a code span opened at this offset.
    span: Option<usize>,
}

/// Every reference in `body`, in order of appearance (duplicates kept: a target can be
/// mentioned in passing and linked later).
///
/// The body is read as CommonMark ([`markdown::parse`]): code blocks, code spans, link and
/// image destinations, reference definitions, HTML and headings are where the parser puts
/// them; the words around a reference (on its line) say how strongly the body points at it.
pub fn scan(body: &str) -> Scan {
    scan_with(body, true)
}

/// Whether `body` can hold a reference at all, read in any way: every reference is a bundled
/// path (it starts with one of [`RESOURCE_DIRS`]), an inline link's or image's destination
/// (after `](`), a reference definition's (after `]:`), or an HTML `href=` or `src=` value
/// (ASCII case ignored, as [`html`] reads them); `dirs` are where it names a bundle folder. A
/// body with none of these needs no Markdown parse for its references.
fn may_reference(body: &str, dirs: &DirNames) -> bool {
    let b = body.as_bytes();
    if !dirs.0.is_empty() {
        return true;
    }
    if memchr::memchr_iter(b']', b).any(|i| matches!(b.get(i + 1), Some(b'(' | b':'))) {
        return true;
    }
    memchr::memchr_iter(b'=', b).any(|i| {
        i >= 4 && b[i - 4..i].eq_ignore_ascii_case(b"href") || i >= 3 && b[i - 3..i].eq_ignore_ascii_case(b"src")
    })
}

/// Whether `body` can hold a fenced code block: a fence is three backticks or tildes in a row.
fn may_fence(body: &str) -> bool {
    let b = body.as_bytes();
    memchr::memmem::find(b, b"```").is_some() || memchr::memmem::find(b, b"~~~").is_some()
}

/// [`scan`], with the exact prefilter ([`may_reference`], [`may_fence`]) that skips the Markdown
/// parse of a body that can hold no reference and no fence, or only the reference scan of a body
/// that can hold no reference, or without it (`prefilter` false: the tests compare the two).
fn scan_with(body: &str, prefilter: bool) -> Scan {
    let mut out = Scan::default();
    let bytes = body.as_bytes();
    let dirs = DirNames::of(body);
    let references = !prefilter || may_reference(body, &dirs);
    if !references && !may_fence(body) {
        return out;
    }
    let md = markdown::parse(body);
    out.unclosed_fence = md.unclosed_fence.as_ref().map(|f| f.line.clone());
    out.fence_indent = md.unclosed_fence.as_ref().map(|f| f.indent.clone()).unwrap_or_default();
    if !references {
        return out;
    }
    let mut found: Vec<Found> = Vec::new();
    let mut refs = Vec::new();
    let mut take = |refs: &mut Vec<Reference>, code: bool, comment: bool, span: Option<usize>| {
        found.extend(refs.drain(..).map(|r| Found { r, code, comment, span }));
    };
    for line in &md.code_lines {
        let text = &body[line.range.clone()];
        // Lines longer than any prose (generated data, minified code) are not read for
        // references: the per-reference look-behind below stays bounded.
        if text.len() > MAX_LINE || !dirs.within(line.range.clone()) {
            continue;
        }
        let shell = SHELL_LANGS.contains(&md.langs[line.lang_index].as_str());
        fenced_line(text, line.range.start, shell, &mut refs);
        let t = text.trim_start();
        take(&mut refs, true, t.starts_with('#') || t.starts_with("//"), None);
    }
    for span in &md.code_spans {
        let raw = &body[span.clone()];
        let ticks = raw.bytes().take_while(|&b| b == b'`').count();
        if raw.len() > MAX_LINE || raw.len() < 2 * ticks {
            continue;
        }
        code_span(&raw[ticks..raw.len() - ticks], span.start + ticks, &mut refs);
        take(&mut refs, false, false, Some(span.start));
    }
    for d in &md.destinations {
        link_target(&d.url, &body[d.range.clone()], d.range.start, &mut refs);
        take(&mut refs, false, false, None);
    }
    for h in &md.html {
        html(&body[h.clone()], h.start, &mut refs);
        take(&mut refs, false, false, None);
    }
    // Prose: each line that names a bundle folder, outside what the parser says is code, a
    // link, HTML or a definition.
    let mut next = 0;
    for o in &dirs.0 {
        if o.start < next {
            continue;
        }
        let start = memchr::memrchr(b'\n', &bytes[..o.start]).map_or(0, |n| n + 1);
        next = memchr::memchr(b'\n', &bytes[o.start..]).map_or(body.len(), |i| o.start + i + 1);
        let text = body[start..next].trim_end_matches(['\n', '\r']);
        if text.len() > MAX_LINE || md.covered(start..start + text.len()) {
            continue;
        }
        prose_line(text, start, &|r: Range<usize>| md.masked(r), &mut refs);
        take(&mut refs, false, false, None);
    }
    found.sort_by_key(|f| f.r.start);
    // Each line with references: what it says around them.
    let mut headings = md.headings.iter().peekable();
    let mut project_section = false;
    let mut i = 0;
    while i < found.len() {
        let pos = found[i].r.start;
        let line_start = memchr::memrchr(b'\n', &bytes[..pos]).map_or(0, |n| n + 1);
        let line_end = memchr::memchr(b'\n', &bytes[pos..]).map_or(body.len(), |n| pos + n);
        let next = i + found[i..].iter().take_while(|f| f.r.start < line_end).count();
        let line = &found[i..next];
        i = next;
        while let Some(h) = headings.next_if(|h| h.start < line_end) {
            project_section = is_project_heading(&body[h.clone()]);
        }
        let text = body[line_start..line_end].trim_end_matches('\r');
        // A line of a template to fill in: even its links are examples.
        if text.len() > MAX_LINE || template_line(text) {
            continue;
        }
        // Only references that are not links ask (a line of links is not lowercased).
        let mut elsewhere = None;
        for f in line.iter().take(MAX_PER_LINE) {
            let mut r = f.r.clone();
            let before = &text[..(r.start - line_start).min(text.len())];
            let after = &text[(r.end - line_start).min(text.len())..];
            if r.evidence != Evidence::Link {
                let elsewhere =
                    *elsewhere.get_or_insert_with(|| project_section || ELSEWHERE_SET.is_match(&text.to_lowercase()));
                if elsewhere || illustrative(before) {
                    continue;
                }
                // Prose tells the model to read it: not a word inside code.
                let prose = match f.span {
                    Some(s) if s >= line_start => &text[..(s - line_start).min(text.len())],
                    Some(_) => "",
                    None => prose_before(before),
                };
                if r.evidence == Evidence::Mention && (!f.code || f.comment) && instructed(prose) {
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
    PROJECT_SECTIONS_SET.is_match(&lower)
}

/// Whether `line` names one of the bundle's folders (`scripts/`, …): every bundled path does
/// ([`bundled_path`]), so a line of code or prose without one holds none of the paths
/// [`command`] and [`prose_line`] find. The scan asks [`DirNames`], made once per body.
#[cfg(test)]
fn names_resource_dir(line: &str) -> bool {
    let b = line.as_bytes();
    memchr::memchr_iter(b'/', b).any(|i| RESOURCE_DIRS.iter().any(|d| b[..=i].ends_with(d.as_bytes())))
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
    ILLUSTRATIVE_SET.is_match(&before.to_lowercase())
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

/// A line of prose (outside code blocks, code spans, links, definitions and HTML, which
/// `masked` says): autolink-shaped paths and bare paths.
fn prose_line(line: &str, at: usize, masked: &dyn Fn(Range<usize>) -> bool, refs: &mut Vec<Reference>) {
    // `<references/x.md>`: an autolink-shaped path (CommonMark reads it as text; HTML tags have
    // no `/` inside a name, or end in `/>`).
    let mut shaped: Vec<Range<usize>> = Vec::new();
    for i in memchr::memchr_iter(b'<', line.as_bytes()) {
        if shaped.last().is_some_and(|r| i < r.end) || masked(at + i..at + i + 1) {
            continue;
        }
        let Some(e) = line[i + 1..].find('>') else { break };
        let inner = &line[i + 1..i + 1 + e];
        if !inner.is_empty()
            && !inner.contains(char::is_whitespace)
            && !inner.ends_with('/')
            && inner.contains('/')
            && let Some(t) = bundled_path(inner).filter(|t| file_like(t))
        {
            push(refs, at + i + 1, inner, t, Evidence::Link);
            shaped.push(i..i + e + 2);
        }
    }
    // Bare paths in the prose that is left: they need an extension ("unlimited
    // references/appendix" is prose).
    let mut pos = 0;
    for piece in line.split_inclusive(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\'' | '*' | '_')) {
        let w = piece.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\'' | '*' | '_'));
        let w = trim_word(w);
        if !w.is_empty()
            && let Some(t) = bundled_path(w)
            && file_like(t)
            && !t.ends_with('/')
            && !shaped.iter().any(|r| r.start < pos + w.len() && pos < r.end)
            && !masked(at + pos..at + pos + w.len())
        {
            push(refs, at + pos, w, t, Evidence::Mention);
        }
        pos += piece.len();
    }
}

/// HTML (a line of an HTML block, an inline tag or comment): `href` and `src` values are
/// links, other bundled paths in it mentions.
fn html(raw: &str, at: usize, refs: &mut Vec<Reference>) {
    let mut offset = 0;
    for line in raw.split_inclusive('\n') {
        let start = at + offset;
        offset += line.len();
        let line = line.trim_end_matches(['\n', '\r']);
        if line.len() > MAX_LINE || !might_reference(line) {
            continue;
        }
        let mut values: Vec<Range<usize>> = Vec::new();
        let lower = line.to_ascii_lowercase();
        for attr in ["href=", "src="] {
            for (i, _) in lower.match_indices(attr) {
                let v = i + attr.len();
                let Some(&q) = line.as_bytes().get(v).filter(|&&q| q == b'"' || q == b'\'') else { continue };
                if i > 0 && !line.as_bytes()[i - 1].is_ascii_whitespace() {
                    continue;
                }
                let Some(len) = line[v + 1..].find(q as char) else { continue };
                let value = &line[v + 1..v + 1 + len];
                link_target(value, value, start + v + 1, refs);
                values.push(v..v + len + 2);
            }
        }
        prose_line(
            line,
            start,
            &|r: Range<usize>| values.iter().any(|v| v.start + start < r.end && r.start < v.end + start),
            refs,
        );
    }
}

/// A code span: a bare path (`scripts/x.py`) or a command (`scripts/deploy.sh staging`,
/// `python scripts/c.py`).
fn code_span(code: &str, at: usize, refs: &mut Vec<Reference>) {
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

/// A link destination (`url` as the parser reads it, `written` at `at` in the body), unless it
/// is a URL, an anchor, a template or a placeholder.
fn link_target(url: &str, written: &str, at: usize, refs: &mut Vec<Reference>) {
    let t = url.trim();
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
    let target = t.strip_prefix("./").filter(|r| !r.is_empty()).unwrap_or(t);
    let lead = if target.len() < t.len() && written.starts_with("./") { 2 } else { 0 };
    refs.push(Reference {
        start: at + lead,
        end: at + written.len().max(lead),
        target: target.to_string(),
        evidence: Evidence::Link,
        run: false,
    });
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
    fn a_range_names_a_bundle_folder_when_its_text_does() {
        // Folder names run together, inside longer words, doubled, cut by a line ending, and
        // at both ends of the body.
        let bodies = [
            "scripts/a.py and references/b.md\nnone here\r\nmyscripts/x examples/scripts/y\n",
            "templates//assets/\nreferences\n/scripts\nexamples/",
            "a/b/c/d/\n\n\nassets/x.png assets/\r\n",
            "no folder at all, only / slashes / and words",
        ];
        for body in bodies {
            let dirs = DirNames::of(body);
            for i in 0..=body.len() {
                for j in i..=body.len() {
                    assert_eq!(dirs.within(i..j), names_resource_dir(&body[i..j]), "{body:?}[{i}..{j}]");
                }
            }
        }
    }

    /// The prefiltered scan finds exactly what the full scan finds.
    fn same_with_prefilter(body: &str, what: &str) {
        let (fast, full) = (scan_with(body, true), scan_with(body, false));
        assert_eq!(fast.refs, full.refs, "{what}");
        assert_eq!(fast.unclosed_fence, full.unclosed_fence, "{what}");
        assert_eq!(fast.fence_indent, full.fence_indent, "{what}");
    }

    /// Every Markdown file under `dir` (`.git` and `node_modules` skipped), as text.
    fn markdown_files(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        let Ok(listing) = std::fs::read_dir(dir) else { return };
        for entry in listing.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() && !matches!(entry.file_name().to_str(), Some(".git" | "node_modules")) {
                markdown_files(&path, out);
            } else if kind.is_file()
                && path.extension().is_some_and(|e| e == "md")
                && let Ok(bytes) = std::fs::read(&path)
            {
                out.push((path.display().to_string(), String::from_utf8_lossy(&bytes).into_owned()));
            }
        }
    }

    #[test]
    fn the_prefilter_is_exact_on_every_fixture_and_corpus_body() {
        // The fixtures, and any trees named in DSH_SKILLS_SCAN_CORPUS (`:`-separated; the
        // public skill repositories were checked this way).
        let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
        if let Ok(extra) = std::env::var("DSH_SKILLS_SCAN_CORPUS") {
            dirs.extend(extra.split(':').filter(|d| !d.is_empty()).map(std::path::PathBuf::from));
        }
        let mut files = Vec::new();
        for d in &dirs {
            markdown_files(d, &mut files);
        }
        assert!(files.len() > 100, "{} Markdown files under {dirs:?}", files.len());
        let mut skipped = 0;
        for (path, text) in &files {
            // The whole file and its body after a frontmatter, as lint scans it.
            let body = text.strip_prefix("---\n").and_then(|t| t.find("\n---").map(|i| &t[i + 4..])).unwrap_or(text);
            for t in [text.as_str(), body] {
                same_with_prefilter(t, path);
                skipped += usize::from(!may_reference(t, &DirNames::of(t)));
            }
        }
        // The prefilter has work to skip (bodies without any reference shape).
        assert!(skipped > 0);
    }

    #[test]
    fn the_prefilter_is_exact_at_the_edges_of_its_shapes() {
        for body in [
            "See [x](references/a.md).\n",
            "See [x] (references/a.md).\n",
            "See [x](a.md) and ![i](b.png).\n",
            "[def]: a.md\n\n[x][def]\n",
            "[def]:\n  a.md\n",
            "> [def]: a.md\n",
            "<a HREF=\"a.md\">x</a>\n",
            "<img SrC='b.png'>\n",
            "<img src = 'b.png'>\n",
            "<details>\nscripts/x.py\n</details>\n",
            "Run scripts/x.py now.\n",
            "Run `./scripts/x.sh`.\n",
            "<references/x.md>\n",
            "```sh\npython scripts/a.py\n",
            "```sh\nrun\n",
            "~~~\nx\n",
            "- a\n\n  ```\n  x\n",
            "``inline``\n",
            "    indented scripts\n",
            "# Your project\n\nreferences/x.md\n",
            "no shape at all: a/b, c]d, e=f\n",
            "",
        ] {
            same_with_prefilter(body, body);
        }
    }

    proptest::proptest! {
        #[test]
        fn the_prefilter_is_exact_on_generated_bodies(parts in proptest::collection::vec(proptest::sample::select(vec![
            "```", "~~~", "``", "`", "[", "]", "(", ")", ":", "!", "<", ">", "/", "=", "href", "SRC", "\"", "'",
            "scripts/", "references/", "assets/", "templates/", "examples/", "./", "a.md", "x.py", "see ", "run ",
            "python ", "# ", "> ", "- ", "1. ", "    ", "\t", "\n", "\n\n", "\r\n", "word ", "e.g. ", "your project",
            "├", "{x}", "#a", "https://x.y", "[^1]: ", "|", "---\n",
        ]), 0..40)) {
            let body: String = parts.concat();
            same_with_prefilter(&body, &body);
        }
    }

    #[test]
    fn links_definitions_and_autolinks() {
        let body = "See [the guide](references/guide.md#part) and ![img](<assets/a b.png>).\n\n\
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
        // A fence indented four spaces inside an outer block is code, not its end (the hand
        // scanner closed the outer block there and took the real end for a new fence).
        let body =
            "```markdown\n## Usage\n\n    ```bash\n    python scripts/run.py\n    ```\n```\n\nSee `scripts/a.py`.\n";
        assert_eq!(scan(body).unclosed_fence, None);
        // The example is Markdown, not a shell: the script in it is a mention.
        assert_eq!(found(body), [("scripts/run.py".into(), Mention), ("scripts/a.py".into(), Instruction)]);
        // In a list item, the closing fence is indented like the opening one.
        let s = scan("1. Step\n\n   ```sh\n   x\n");
        assert_eq!((s.unclosed_fence.is_some(), s.fence_indent.as_str()), (true, "   "));
    }

    #[test]
    fn the_closing_fence_the_help_suggests_closes_the_block() {
        for body in [
            "Intro.\n\n```python\nprint('x')\n",
            "> Quote:\n>\n> ~~~~sh\n> echo x\n",
            "- step\n\n  ```sh\n  echo x\n",
            "1. ```sh\n   echo x\n",
        ] {
            let s = scan(body);
            let open = s.unclosed_fence.clone().unwrap_or_else(|| panic!("{body:?}: no unclosed fence"));
            let line = &body[open];
            let marker: String = line.chars().take_while(|&c| c == line.as_bytes()[0] as char).collect();
            // `lint`'s help: "close it with a line of `{indent}{marker}` after the code".
            let fixed = format!("{body}{}{marker}\n\nAfter.\n", s.fence_indent);
            let after = scan(&fixed);
            assert_eq!(after.unclosed_fence, None, "{fixed:?}");
            assert!(markdown::parse(&fixed).code_blocks.len() == 1, "{fixed:?}: the fix opened another block");
        }
    }

    #[test]
    fn markdown_structure_comes_from_the_parser() {
        // A definition cannot interrupt a paragraph: that line is text (a mention).
        assert_eq!(found("Intro.\n[def]: references/d.md\n"), [("references/d.md".into(), Mention)]);
        assert_eq!(found("Intro.\n\n[def]: references/d.md\n"), [("references/d.md".into(), Link)]);
        // Indented code and code in a quote are code; a command there runs the script.
        assert_eq!(found("Then:\n\n    python scripts/a.py\n"), [("scripts/a.py".into(), Instruction)]);
        assert_eq!(found("> ```bash\n> python scripts/b.py\n> ```\n"), [("scripts/b.py".into(), Instruction)]);
        // HTML: `href` and `src` are links; a Markdown link inside an HTML block is text.
        assert_eq!(
            found("<p>\n<a href=\"references/r.md\">r</a> <img src='assets/i.png'>\n</p>\n"),
            [("references/r.md".into(), Link), ("assets/i.png".into(), Link)]
        );
        // Escapes in a destination: the file name is the unescaped one, the range the written one.
        let body = "See [x](./references/a\\_b.md) and [y](\n  references/c.md).\n";
        let s = scan(body);
        let got: Vec<(&str, &str)> = s.refs.iter().map(|r| (r.target.as_str(), &body[r.start..r.end])).collect();
        assert_eq!(got, [("references/a_b.md", "references/a\\_b.md"), ("references/c.md", "references/c.md")]);
        // A code span across lines, and backticks in a link's text.
        let body = "Run `python\nscripts/c.py` and [`x`](references/x.md).\n";
        assert_eq!(found(body), [("scripts/c.py".into(), Instruction), ("references/x.md".into(), Link)]);
        // Setext headings start a section too.
        assert!(found("Your project\n============\n\nRun `scripts/x.py`.\n").is_empty());
    }
}
