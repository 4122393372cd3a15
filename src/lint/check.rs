//! The per-file rules: read a skill file exactly as the harness reads it, split and parse its
//! frontmatter exactly as the harness does, and report every problem with a position in the
//! file and what the harness will do.
//!
//! The harness stops at the first failing step (spec 4.3); lint goes on and reports every
//! problem it can see, so an author fixes them in one pass. Findings that make the harness skip
//! the file are errors; everything on a file the harness loads is a warning or info.

use super::{Compat, Edit, Finding, Fix, Severity, SourceText};
use crate::engine::js;
use crate::engine::skillfile::{self, Frontmatter, NoFrontmatter, Rejection};
use crate::engine::textread::{self, Content, Fatal, Keep, ReadOutcome, Route, SilentReason, Unread};
use crate::engine::yaml::hashing::{FastMap, hash_str, map_with_capacity};
use crate::engine::yaml::{self, Object, Value};
use std::ops::Range;

pub use super::subject::{Subject, SubjectKind};

/// Settings the rules need.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// `catalogDescriptionMaxLength`.
    pub max_description: usize,
    /// The `--compat` targets.
    pub compat: Vec<Compat>,
    /// Frontmatter keys the project allows besides the known ones (`extra-keys`).
    pub extra_keys: Vec<String>,
    /// The neighbouring skill folders' files, indexed once per root for this run's checks.
    pub neighbours: std::sync::Arc<super::bundle::Neighbours>,
    /// The portability rules this run turns off ([`Config::portability_off`](super::config::Config::portability_off)):
    /// their findings are not made (one per key on a file of many keys).
    pub off: Vec<&'static super::rules::Rule>,
}

/// What one file produced.
#[derive(Debug, Default)]
pub struct FileResult {
    pub source: Option<Box<SourceText>>,
    pub findings: Vec<Finding>,
    /// The frontmatter `name`, when it is a string.
    pub name: Option<String>,
    /// `Some(warning)` when the harness skips this file with that warning.
    pub harness_warning: Option<String>,
    /// The byte range of the frontmatter (fences included) in the file, for suppressions.
    pub frontmatter: Option<Range<usize>>,
    /// Where the `name` value is, for findings about the skill as a whole.
    pub name_span: Option<Range<usize>>,
    /// The file was read and checked, but [`InPass`](super::pass::InPass) kept only the part of its text that its
    /// findings point into (none when they are none); a finding made later re-reads it
    /// ([`reread`]).
    pub text_partial: bool,
}

/// The keys the harness reads.
pub const HARNESS_KEYS: [&str; 6] =
    ["name", "description", "whenToUse", "metadata", "disable-model-invocation", "user-invocable"];

/// Keys other agents read; the harness ignores them, and lint does not call them unknown.
pub const FOREIGN_KEYS: &[&str] = &[
    "license",
    "compatibility",
    "allowed-tools",
    "argument-hint",
    "arguments",
    "disallowed-tools",
    "model",
    "effort",
    "context",
    "agent",
    "background",
    "hooks",
    "paths",
    "shell",
    "version",
    "author",
    "tags",
    "when_to_use",
];

/// The keys the Agent Skills specification allows.
pub const AGENTSKILLS_KEYS: [&str; 6] =
    ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

/// The keys Claude Code documents for SKILL.md.
pub const CLAUDE_CODE_KEYS: &[&str] = &[
    "name",
    "description",
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "allowed-tools",
    "disallowed-tools",
    "model",
    "effort",
    "context",
    "agent",
    "background",
    "hooks",
    "paths",
    "shell",
    "metadata",
    "license",
    "compatibility",
];

/// Lines of the body above which `body-too-long` fires.
pub const MAX_BODY_LINES: usize = 500;

/// The text of a file whose check kept only part of it, or none ([`FileResult::text_partial`]),
/// read again for a finding made later that points into it; `None` if it cannot be read now.
pub fn reread(path: &str) -> Option<SourceText> {
    match textread::read_skill_file(path, Route::Node, Keep::Bytes) {
        Ok(ReadOutcome::Bytes(file)) => Some(SourceText::from_vec(file.into_bytes()).0),
        _ => None,
    }
}

/// Lint's check of a skill folder, made on the thread that reads its `SKILL.md` (the tree
/// walk's walker outside the roots, discovery's worker inside them,
/// [`InPassWalked`](super::pass::InPassWalked)): the folder's symbolic links
/// ([`check_symlinks_listed`](super::bundle::check_symlinks_listed)), walked first so that the check of its
/// `SKILL.md` (trimmed as [`InPass`](super::pass::InPass) trims) answers "is it there" from
/// the walk's listings. The subject holds it; [`unwrap_walked`](super::pass::unwrap_walked)
/// takes the links out, and [`check_file`] the file's result.
#[derive(Debug)]
pub struct Walked {
    pub result: FileResult,
    pub links: Vec<super::Finding>,
}

/// The file's result in a check's result: a [`FileResult`], or a [`Walked`]'s.
pub fn file_result(r: &(dyn std::any::Any + Send)) -> Option<&FileResult> {
    r.downcast_ref::<FileResult>().or_else(|| r.downcast_ref::<Walked>().map(|w| &w.result))
}

/// [`file_result`], to change.
pub fn file_result_mut(r: &mut (dyn std::any::Any + Send)) -> Option<&mut FileResult> {
    if r.is::<FileResult>() {
        return r.downcast_mut::<FileResult>();
    }
    r.downcast_mut::<Walked>().map(|w| &mut w.result)
}

/// [`file_result`], taken.
pub fn into_file_result(r: Box<dyn std::any::Any + Send>) -> Option<FileResult> {
    match r.downcast::<FileResult>() {
        Ok(done) => Some(*done),
        Err(r) => r.downcast::<Walked>().ok().map(|w| w.result),
    }
}

/// Lint one skill file: the check discovery already made of it, or read it now (a file named
/// on the command line is read the plain-Node way).
pub fn check_file(subject: &Subject, opts: &CheckOptions) -> FileResult {
    check_file_listed(subject, opts, None)
}

/// [`check_file`], with the skill folder's listings ([`Listed`](super::bundle::Listed)) when
/// its links were just walked: a file they show missing costs no stat.
pub fn check_file_listed(subject: &Subject, opts: &CheckOptions, listed: Option<&super::bundle::Listed>) -> FileResult {
    if let Some(done) = subject.checked.as_ref().and_then(|c| c.take())
        && let Some(done) = into_file_result(done)
    {
        return done;
    }
    let mut result = FileResult::default();
    let path = subject.path.as_str();
    let bytes = match textread::read_skill_file(path, Route::Node, Keep::Bytes) {
        Ok(ReadOutcome::Bytes(file)) => file.into_bytes(),
        Ok(ReadOutcome::Silent(SilentReason::Missing)) => return result,
        Ok(ReadOutcome::Silent(SilentReason::NotAFile(what))) => {
            result.findings.push(not_regular(subject, what, Unread::WouldBlock));
            return result;
        }
        Ok(ReadOutcome::Unreadable { what, why }) => {
            result.findings.push(not_regular(subject, what, why));
            return result;
        }
        Ok(ReadOutcome::Text(_) | ReadOutcome::NotText { .. }) => unreachable!("plain Node keeps the bytes"),
        Err(Fatal::Node(e)) if e.code == "EISDIR" => {
            result.findings.push(not_regular(subject, "a directory", Unread::WouldBlock));
            return result;
        }
        Err(Fatal::Node(e)) => {
            result.findings.push(Finding::new(
                &DISCOVERY_FAILED,
                path,
                format!("the harness cannot read this file: {}", e.message()),
                format!(
                    "the harness's filesystem provider fails as a whole (it logs `skill provider \"filesystem\" \
                     skipped: {e}`): no skill from any root is loaded and the model gets no catalog"
                ),
            ));
            return result;
        }
        Err(Fatal::TooLarge(size)) => {
            result.findings.push(Finding::new(
                &DISCOVERY_FAILED,
                path,
                format!("the file is {size} bytes, over Node's 2 GiB readFile limit"),
                format!(
                    "the harness's filesystem provider fails as a whole (it logs `skill provider \"filesystem\" \
                     skipped: RangeError [ERR_FS_FILE_TOO_LARGE]: File size ({size}) is greater than 2 GiB`): no \
                     skill from any root is loaded and the model gets no catalog"
                ),
            ));
            return result;
        }
        Err(e @ Fatal::Js(_)) => {
            result.findings.push(Finding::new(
                &DISCOVERY_FAILED,
                path,
                format!("the harness cannot read this file: {e}"),
                format!(
                    "the harness's filesystem provider fails as a whole (it logs `skill provider \"filesystem\" \
                     skipped: {e}`): no skill from any root is loaded and the model gets no catalog"
                ),
            ));
            return result;
        }
    };
    check_bytes_listed(subject, bytes.into(), None, opts, listed)
}

/// Lint one skill file's bytes; `yaml` is discovery's parse of its frontmatter, when it made one.
#[allow(clippy::result_large_err)] // yaml::parse's own error type, kept as it returns it
pub fn check_bytes(
    subject: &Subject,
    bytes: Content,
    yaml: Option<&Result<yaml::Parsed, yaml::YamlError>>,
    opts: &CheckOptions,
) -> FileResult {
    check_bytes_listed(subject, bytes, yaml, opts, None)
}

/// [`check_bytes`], with the skill folder's listings ([`check_file_listed`]).
#[allow(clippy::result_large_err)]
pub fn check_bytes_listed(
    subject: &Subject,
    bytes: Content,
    yaml: Option<&Result<yaml::Parsed, yaml::YamlError>>,
    opts: &CheckOptions,
    listed: Option<&super::bundle::Listed>,
) -> FileResult {
    let mut result = FileResult::default();
    let path = subject.path.as_str();
    // Valid UTF-8 becomes the text without a copy; otherwise the bytes are kept beside it.
    let (source, invalid) = SourceText::from_content(bytes);
    let bytes: &[u8] = invalid.as_deref().unwrap_or(source.text.as_bytes());
    let mut findings = Vec::new();

    // Decode as the harness does.
    let (shift, harness_text): (usize, &str) = if subject.node_mode {
        if !source.exact {
            let at = first_invalid_utf8(bytes);
            findings.push(
                Finding::new(
                    &FILE_NOT_UTF8,
                    path,
                    "the file is not valid UTF-8",
                    "the bundled root is read the plain-Node way: the harness loads the skill with U+FFFD in place \
                     of the invalid bytes",
                )
                .severity(Severity::Warning)
                .at(at..at + 3)
                .label("invalid UTF-8 starts here")
                .help("re-save the file as UTF-8"),
            );
        }
        (0, source.text.as_str())
    } else {
        let sample = &bytes[..bytes.len().min(8192)];
        if let Some(nul) = memchr::memchr(0, sample) {
            let warning = format!(
                "skill file {path} ignored: failed to read text file at {path}: FsError: cannot read \"{path}\": binary \
                 file"
            );
            let at = source.text.find('\0').unwrap_or(nul);
            findings.push(
                Finding::new(
                    &FILE_BINARY,
                    path,
                    "the file has a NUL byte in its first 8192 bytes, so the harness treats it as binary",
                    skip_text(&warning),
                )
                .at(at..at + 1)
                .label("NUL byte")
                .help(if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
                    "the file looks like UTF-16; save it as UTF-8"
                } else {
                    "save the file as UTF-8 text"
                }),
            );
            result.harness_warning = Some(warning);
            result.findings = findings;
            result.source = Some(Box::new(source));
            return result;
        }
        let bom = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        if !source.exact {
            let at = first_invalid_utf8(bytes);
            let warning = format!(
                "skill file {path} ignored: failed to read text file at {path}: FsError: cannot read \"{path}\": invalid \
                 UTF-8 text"
            );
            let line = source.position(at).line;
            findings.push(
                Finding::new(
                    &FILE_NOT_UTF8,
                    path,
                    format!("the file is not valid UTF-8 (first invalid byte at offset {at}, line {line})"),
                    skip_text(&warning),
                )
                .at(at..at + 3)
                .label("invalid UTF-8 starts here")
                .help(latin1_hint(bytes, at)),
            );
            result.harness_warning = Some(warning);
            result.findings = findings;
            result.source = Some(Box::new(source));
            return result;
        }
        (bom, &source.text[bom..])
    };

    // Split and parse once; the harness's verdict and every rule read the same result.
    let split = skillfile::split_frontmatter(harness_text);
    // Discovery's parse of the same text when it made one, else our own.
    let own_parse = match yaml {
        Some(_) => None,
        None => split.as_ref().ok().map(|fm| yaml::parse(&harness_text[fm.yaml.clone()])),
    };
    let yaml_result = own_parse.as_ref().or(yaml);
    let mut ctx = Ctx {
        subject,
        path,
        src: &source,
        text: harness_text,
        shift,
        fm: None,
        keys: &[],
        key_index: std::cell::OnceCell::new(),
        key_lines_cache: std::cell::OnceCell::new(),
        opts,
        listed,
    };
    let verdict = match (&split, yaml_result) {
        (Ok(fm), Some(parsed)) => skillfile::validate_parsed(harness_text, fm.clone(), parsed.as_ref(), false),
        (Err(e), _) => Err(Rejection::Missing(skillfile::MissingReason::Fences(*e))),
        (Ok(_), None) => unreachable!("a split frontmatter is always parsed"),
    };
    let warning = verdict.as_ref().err().map(|r| r.warning(path));
    ctx.file_level(&mut findings);
    if let Ok(fm) = &split {
        result.frontmatter = Some(ctx.file(0)..ctx.file(fm.closing.end));
    }
    let skip = warning.as_deref().map(skip_text).unwrap_or_default();
    result.name = ctx.check_frontmatter(&verdict, yaml_result, &skip, &mut findings);
    result.name_span = ctx.fm.as_ref().and_then(|_| ctx.value_span("name"));
    result.harness_warning = warning;
    result.findings = findings;
    result.source = Some(Box::new(source));
    result
}

fn not_regular(subject: &Subject, what: &str, why: Unread) -> Finding {
    let harness = if subject.node_mode && what == "a directory" {
        "in the bundled root the read fails with EISDIR: the harness's filesystem provider fails as a whole (`skill \
         provider \"filesystem\" skipped: Error: EISDIR: illegal operation on a directory, read`), and the model \
         gets no catalog"
            .to_string()
    } else if subject.node_mode {
        format!("the harness {} ({what}); dsh-skills does not read it", why.harness())
    } else {
        "the harness skips this skill without a warning".to_string()
    };
    Finding::new(&SKILL_FILE_NOT_REGULAR, &subject.path, format!("`SKILL.md` is {what}, not a file"), harness)
        .help("make SKILL.md a regular file with the skill's frontmatter and instructions")
}

/// "the harness skips this skill; it logs …" with the first line of the harness's warning.
pub fn skip_text(warning: &str) -> String {
    let first = warning.lines().next().unwrap_or(warning);
    let more = if warning.contains('\n') { " …" } else { "" };
    format!("the harness skips this skill and logs `{first}{more}`")
}

fn first_invalid_utf8(bytes: &[u8]) -> usize {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let bom = bytes.len() - body.len();
    match std::str::from_utf8(body) {
        Ok(_) => bytes.len(),
        Err(e) => bom + e.valid_up_to(),
    }
}

fn latin1_hint(bytes: &[u8], at: usize) -> String {
    let b = bytes.get(at).copied().unwrap_or(0);
    if (0xA0..=0xFF).contains(&b) || matches!(b, 0x80..=0x9F) {
        format!(
            "byte 0x{b:02X} looks like Latin-1 or Windows-1252 text; re-save the file as UTF-8 (for example \
             `iconv -f WINDOWS-1252 -t UTF-8`)"
        )
    } else {
        "re-save the file as UTF-8".to_string()
    }
}

/// A value that YAML parsed, described for messages.
fn shape(v: &Value) -> String {
    match v {
        Value::Null => "empty (null)".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {}", yaml::js_number_to_string(*n)),
        Value::String(_) => "a string".to_string(),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "a mapping".to_string(),
        other => skillfile::shape_of(other).to_string(),
    }
}

/// A top-level `key: value` line of the frontmatter, found by reading lines (used for hints,
/// fixes, and positions when the YAML parser reported none).
#[derive(Clone, Debug)]
struct KeyLine {
    key: String,
    /// Harness-text range of the key token (quotes included).
    key_range: Range<usize>,
    /// Harness-text range of the value on the same line (trailing spaces, `\r` excluded).
    value_range: Range<usize>,
    /// The following lines are indented (a block or a continued plain scalar).
    continued: bool,
    /// Harness-text range of the value including its indented continuation lines.
    block: Range<usize>,
}

/// The YAML traps that break parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trap {
    ColonSpace,
    FlowStart,
    Reserved,
    Indicator,
    TabIndent,
}

struct Ctx<'a> {
    subject: &'a Subject,
    path: &'a str,
    src: &'a SourceText,
    /// The text as the harness parses it (after the production BOM strip).
    text: &'a str,
    /// Bytes between the file start and `text` (a stripped BOM).
    shift: usize,
    fm: Option<Frontmatter>,
    /// The parse's top-level keys (borrowed from it).
    keys: &'a [yaml::KeySpan],
    /// A key's hash → the index of the first entry in `keys` with that hash, built on the first
    /// lookup, so that one lookup per key (one finding per key) stays linear in the number of
    /// keys; the keys are not copied.
    key_index: std::cell::OnceCell<FastMap<u64, u32>>,
    /// The top-level `key: value` lines, when the YAML did not parse (computed once).
    key_lines_cache: std::cell::OnceCell<Vec<KeyLine>>,
    opts: &'a CheckOptions,
    /// The skill folder's listings, when its links were just walked.
    listed: Option<&'a super::bundle::Listed>,
}

impl<'a> Ctx<'a> {
    /// File offset of a harness-text offset.
    fn file(&self, offset: usize) -> usize {
        self.shift + offset
    }

    fn file_range(&self, r: &Range<usize>) -> Range<usize> {
        self.file(r.start)..self.file(r.end)
    }

    /// File offset of a byte offset in the YAML text.
    fn yaml_file(&self, yaml_byte: usize) -> usize {
        self.file(self.fm.as_ref().map_or(0, |f| f.yaml.start) + yaml_byte)
    }

    /// The first line of the file (the opening fence), in the file.
    fn first_line(&self) -> Range<usize> {
        let end = self.text.find('\n').unwrap_or(self.text.len());
        let end = if self.text[..end].ends_with('\r') { end - 1 } else { end };
        self.file(0)..self.file(end)
    }

    /// Lines of the harness text from `start` to `end` (harness offsets), each without `\n`
    /// and one trailing `\r`.
    fn lines(&self, range: Range<usize>) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut start = range.start;
        while start < range.end {
            let nl = self.text[start..range.end].find('\n').map(|i| start + i);
            let end = nl.unwrap_or(range.end);
            let trimmed = if self.text[start..end].ends_with('\r') { end - 1 } else { end };
            out.push(start..trimmed);
            match nl {
                Some(n) => start = n + 1,
                None => break,
            }
        }
        out
    }

    /// Top-level `key: value` entries of the YAML region, from the YAML crate's syntax tree
    /// (there even when the YAML does not parse; the language server reads the same entries).
    fn key_lines(&self) -> Vec<KeyLine> {
        let Some(fm) = &self.fm else { return Vec::new() };
        let at = |r: &Range<usize>| fm.yaml.start + r.start..fm.yaml.start + r.end;
        yaml::top_entries(&self.text[fm.yaml.clone()])
            .into_iter()
            .map(|e| KeyLine {
                continued: e.value_span.end > e.value_line.end,
                key_range: at(&e.key_span),
                value_range: at(&e.value_line),
                block: at(&e.value_span),
                key: e.key,
            })
            .collect()
    }

    /// The first parsed top-level key spelled `key`.
    fn parsed_key(&self, key: &str) -> Option<&'a yaml::KeySpan> {
        let keys = self.keys;
        let index = self.key_index.get_or_init(|| {
            let mut index = map_with_capacity(keys.len());
            for (i, k) in keys.iter().enumerate() {
                index.entry(hash_str(&k.key)).or_insert(i as u32);
            }
            index
        });
        match index.get(&hash_str(key)).map(|&i| &keys[i as usize]) {
            Some(k) if k.key == key => Some(k),
            // Not there, or another key with the same hash came first.
            Some(_) => keys.iter().find(|k| k.key == key),
            None => None,
        }
    }

    /// The first top-level `key: value` line spelled `key` (when the YAML did not parse).
    fn key_line(&self, key: &str) -> Option<&KeyLine> {
        self.key_lines_cache.get_or_init(|| self.key_lines()).iter().find(|k| k.key == key)
    }

    /// The file range of a top-level key token.
    fn key_span(&self, key: &str) -> Option<Range<usize>> {
        if let Some(k) = self.parsed_key(key) {
            let start = self.src.floor_boundary(self.yaml_file(k.key_start.byte));
            // The rest of the key's line (without its `\r`), found without indexing the file.
            let bytes = self.src.text.as_bytes();
            let nl = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
            let line_end = if nl > start && bytes[nl - 1] == b'\r' { nl - 1 } else { nl };
            let rest = &self.src.text[start..line_end];
            let len = find_mapping_colon(rest).map_or(key.len(), |c| rest[..c].trim_end().len());
            return Some(self.src.clamp(&(start..start + len.max(1))));
        }
        self.key_line(key).map(|k| self.file_range(&k.key_range))
    }

    /// The file range of a top-level key's value (the key when the value is empty).
    fn value_span(&self, key: &str) -> Option<Range<usize>> {
        if let Some(k) = self.parsed_key(key) {
            let start = self.src.floor_boundary(self.yaml_file(k.value_start.byte));
            let mut end = self.src.floor_boundary(self.yaml_file(k.value_end.byte)).max(start);
            while end > start && matches!(self.src.text.as_bytes()[end - 1], b'\n' | b'\r' | b' ' | b'\t') {
                end -= 1;
            }
            if end > start {
                return Some(start..end);
            }
            return self.key_span(key);
        }
        let k = self.key_line(key)?;
        if k.continued {
            Some(self.file_range(&k.block))
        } else if k.value_range.is_empty() {
            Some(self.file_range(&k.key_range))
        } else {
            Some(self.file_range(&k.value_range))
        }
    }

    /// Compatibility findings about the file's bytes (BOM, CRLF).
    fn file_level(&self, findings: &mut Vec<Finding>) {
        let text = &self.src.text;
        if text.starts_with('\u{FEFF}') && self.src.exact && !self.subject.node_mode {
            findings.push(
                Finding::new(
                    &UTF8_BOM,
                    self.path,
                    format!(
                        "the file starts with a UTF-8 byte order mark, which {} treat as missing frontmatter",
                        self.targets(&UTF8_BOM)
                    ),
                    "the harness strips it here (project, custom and user roots) and loads the file",
                )
                .at(0..3)
                .label("byte order mark")
                .fix(Some(Fix { description: "strip the byte order mark".into(), edits: vec![edit(0..3, "")] })),
            );
        }
        let crlf: Vec<usize> =
            if text.contains('\r') { text.match_indices("\r\n").map(|(i, _)| i).collect() } else { Vec::new() };
        if !crlf.is_empty() && self.src.exact {
            let edits = crlf.iter().map(|&i| edit(i..i + 1, "")).collect();
            findings.push(
                Finding::new(
                    &CRLF_LINE_ENDINGS,
                    self.path,
                    format!(
                        "the file uses CRLF line endings ({} lines), which fail validation in {}",
                        crlf.len(),
                        self.targets(&CRLF_LINE_ENDINGS)
                    ),
                    "the harness accepts CRLF frontmatter; the body reaches the model with its carriage returns",
                )
                .at(crlf[0]..crlf[0])
                .fix(Some(Fix { description: "convert CRLF line endings to LF".into(), edits })),
            );
        }
    }

    /// "skills-ref, Codex" style list of the agents a portability rule is reported for.
    fn targets(&self, rule: &super::rules::Rule) -> String {
        let all = rule.compat;
        let chosen: Vec<Compat> = all.iter().copied().filter(|c| self.opts.compat.contains(c)).collect();
        let list = if chosen.is_empty() { all.to_vec() } else { chosen };
        let names: Vec<&str> = list
            .iter()
            .map(|c| match c {
                Compat::Agentskills => "the Agent Skills tools (skills-ref, quick_validate.py)",
                Compat::ClaudeCode => "Claude Code",
                Compat::Codex => "Codex",
            })
            .collect();
        names.join(" and ")
    }

    /// Frontmatter, YAML and field rules. Returns the skill name when it is a string.
    fn check_frontmatter(
        &mut self,
        verdict: &Result<skillfile::ParsedSkill, Rejection>,
        yaml_result: Option<&'a Result<yaml::Parsed, yaml::YamlError>>,
        skip: &str,
        findings: &mut Vec<Finding>,
    ) -> Option<String> {
        let fm = match skillfile::split_frontmatter(self.text) {
            Ok(fm) => fm,
            Err(NoFrontmatter::NoOpeningFence) => {
                findings.push(self.no_opening_fence(skip));
                return None;
            }
            Err(NoFrontmatter::NoClosingFence) => {
                findings.push(self.no_closing_fence(skip));
                return None;
            }
        };
        self.fm = Some(fm.clone());
        self.key_lines_cache = std::cell::OnceCell::new();
        let yaml_text = &self.text[fm.yaml.clone()];
        let parsed = match yaml_result {
            Some(Ok(p)) => p,
            Some(Err(e)) => {
                findings.push(self.yaml_error(e, skip));
                return None;
            }
            None => return None,
        };
        self.keys = &parsed.top_keys;
        self.key_index = std::cell::OnceCell::new();
        for w in &parsed.warnings {
            findings.push(self.yaml_warning(w));
        }
        let empty = Object::default();
        let obj = match &parsed.value {
            Value::Object(o) => o,
            Value::Date(_) | Value::Buffer(_) | Value::Map(_) | Value::Set(_) => &empty,
            other => {
                let (msg, span) = if yaml_text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
                    ("the frontmatter is empty".to_string(), self.first_line())
                } else {
                    (
                        format!("the frontmatter YAML is {}, not a mapping of `key: value` pairs", shape(other)),
                        self.file_range(&(fm.yaml.start..fm.yaml.end.saturating_sub(1).max(fm.yaml.start))),
                    )
                };
                findings.push(
                    Finding::new(&FRONTMATTER_NOT_MAPPING, self.path, msg, skip.to_string())
                        .at(span)
                        .help("write `name: ...` and `description: ...` as top-level keys between the `---` lines"),
                );
                return None;
            }
        };
        let loaded = verdict.is_ok();
        let name = self.check_name(obj, skip, findings);
        let description = self.check_description(obj, skip, findings);
        self.check_invocation(obj, skip, findings);
        self.check_optional_fields(obj, findings);
        self.check_keys(obj, findings);
        let invocation = skillfile::invocation_policy(obj).ok();
        if let (Some(inv), true) = (invocation, loaded)
            && !inv.model_invocable
            && !inv.user_invocable
        {
            findings.push(
                Finding::new(
                    &UNREACHABLE_SKILL,
                    self.path,
                    "`disable-model-invocation: true` and `user-invocable: false` together",
                    "the harness loads this skill, but it is not in the model's catalog and `/name` does not work: \
                     nothing can invoke it",
                )
                .at_opt(self.key_span("disable-model-invocation"))
                .help("drop one of the two settings"),
            );
        }
        // Codex's metadata beside a skill folder's `SKILL.md`, compared with this frontmatter.
        if let (SubjectKind::Bundle { dir, .. }, Some(inv)) = (&self.subject.kind, invocation) {
            let manual_only = !inv.model_invocable;
            let skill = super::codex::Frontmatter {
                path: self.path,
                manual_only,
                key_span: if manual_only { self.key_span("disable-model-invocation") } else { None },
            };
            findings.extend(super::codex::check(dir, &skill, self.listed));
        }
        // The catalog's whitespace collapse, computed once for the rules that need it.
        let normalized = description.as_deref().map(js::collapse_whitespace);
        if let Some(n) = &normalized
            && invocation.is_none_or(|i| i.model_invocable)
        {
            self.check_truncation(n, findings);
        }
        if let Some(n) = name.as_deref().filter(|n| js::is_skill_name(n)) {
            self.check_name_matches(n, findings);
        }
        let described = description.as_deref().zip(normalized.as_deref());
        self.check_compat(obj, name.as_deref(), described, findings);
        self.check_body(&fm, findings);
        match &obj.get("name") {
            Some(Value::String(s)) => Some(s.to_string()),
            _ => None,
        }
    }

    fn no_opening_fence(&self, skip: &str) -> Finding {
        let text = self.text;
        let f = |msg: String| Finding::new(&FRONTMATTER_MISSING, self.path, msg, skip.to_string());
        let Some(nl) = text.find('\n') else {
            let (msg, help) = if text.contains('\r') {
                (
                    "the file uses carriage-return-only line endings, so the harness sees a single line and no \
                     frontmatter",
                    "convert the line endings to LF (or CRLF)",
                )
            } else if text.trim().is_empty() {
                (
                    "the file is empty",
                    "add frontmatter: `---`, `name: ...`, `description: ...`, `---`, then the instructions",
                )
            } else {
                ("the file is a single line, so it has no frontmatter", "put `---` on a line of its own")
            };
            return f(msg.to_string()).at(self.first_line()).help(help);
        };
        let first = text[..nl].strip_suffix('\r').unwrap_or(&text[..nl]);
        let line = self.first_line();
        if first.starts_with('\u{FEFF}') {
            return f("the file starts with a UTF-8 byte order mark".into())
                .at(0..3)
                .label("byte order mark")
                .help(
                    "the bundled root is read the plain-Node way, which keeps the BOM, so the first line is not `---`; \
                     save the file without a BOM",
                )
                .fix(
                    self.src
                        .exact
                        .then(|| Fix { description: "strip the byte order mark".into(), edits: vec![edit(0..3, "")] }),
                );
        }
        if first.trim_end() == "---" {
            return f("the opening `---` has trailing whitespace".into())
                .at(self.file(3)..self.file(first.len()))
                .label("trailing whitespace")
                .help("the first line must be exactly `---`");
        }
        if first.starts_with("---") {
            return f(format!("the first line is `{}`, not exactly `---`", first))
                .at(line)
                .help("the first line must be exactly `---` (no language tag, no fourth dash)");
        }
        if first.trim() == "---" {
            return f("the opening `---` is indented".into()).at(line).help("the first line must be exactly `---`");
        }
        let lines = self.lines(0..text.len());
        if let Some((i, l)) = lines.iter().enumerate().take(40).find(|(_, l)| &text[(*l).clone()] == "---") {
            return f(format!(
                "{i} line{} come{} before the opening `---`; frontmatter must start on the first line",
                if i == 1 { "" } else { "s" },
                if i == 1 { "s" } else { "" }
            ))
            .at(self.file(0)..self.file(l.start.saturating_sub(1)))
            .label("nothing may come before `---`")
            .help("delete the lines before `---`");
        }
        if let SubjectKind::Flat { root, entry } = &self.subject.kind {
            return self.flat_without_frontmatter(root, entry, skip).at(line);
        }
        f("the file has no frontmatter".into())
            .at(line)
            .help("start the file with `---`, `name: <slug>`, `description: <text>`, `---`, then the instructions")
    }

    /// A `.md` file in a root with no frontmatter at all. When its name could not be a skill's
    /// (`README.md`, `CHANGELOG.md`, `Notes.md`), it is documentation kept in the root: the
    /// harness logs it as a skipped skill and nothing else happens, so it is `not-a-skill`, a
    /// warning, whose fix moves it out of the root (or the project keeps it, listed under
    /// `not-skills`). Otherwise it is a skill without frontmatter.
    fn flat_without_frontmatter(&self, root: &str, entry: &str, skip: &str) -> Finding {
        use crate::engine::platform;
        let stem = entry.strip_suffix(".md").unwrap_or(entry);
        // The configuration's file name, spelt out: `config` reads `check`'s key lists.
        let keep = "or keep it and accept the harness's log line: list it under `not-skills` in .dsh-skills-lint.yaml";
        if js::is_skill_name(stem) {
            return Finding::new(&FRONTMATTER_MISSING, self.path, "the file has no frontmatter", skip.to_string())
                .help("start the file with `---`, `name: <slug>`, `description: <text>`, `---`, then the instructions")
                .help(format!("if it is not a skill, move it out of the root `{root}`"))
                .help(keep);
        }
        let mut f = Finding::new(
            &NOT_A_SKILL,
            self.path,
            format!(
                "`{entry}` is not a skill, but it is in a skills root: the harness reads every `.md` file here as one"
            ),
            format!("{skip}; nothing else happens (the model never sees the file)"),
        );
        // Out of the root, beside it: `.agents/skills/README.md` → `.agents/README.md`, or
        // `.agents/skills-README.md` when that is taken.
        let parent = platform::dirname(root);
        let base = root.rsplit(platform::SEP).next().unwrap_or("skills");
        let dest = [platform::join(&parent, entry), platform::join(&parent, &format!("{base}-{entry}"))]
            .into_iter()
            .find(|d| std::fs::symlink_metadata(d).is_err());
        match dest.filter(|_| parent != root) {
            Some(dest) => {
                f = f
                    .help(format!(
                        "move it out of the root: `mv {} {}`",
                        crate::analysis::unscanned::sh(self.path),
                        crate::analysis::unscanned::sh(&dest)
                    ))
                    .action(super::Action::Move { moves: vec![[self.path.to_string(), dest]] });
            }
            None => f = f.help(format!("move it out of the root `{root}`")),
        }
        f.help(keep)
    }

    fn no_closing_fence(&self, skip: &str) -> Finding {
        let text = self.text;
        let start = text.find('\n').map_or(text.len(), |i| i + 1);
        let mut finding = Finding::new(
            &FRONTMATTER_UNCLOSED,
            self.path,
            "the opening `---` has no closing `---` line",
            skip.to_string(),
        )
        .at(self.first_line())
        .label("opened here");
        for l in self.lines(start..text.len()) {
            let s = &text[l.clone()];
            let why = if s.trim_end() == "---" {
                "has trailing whitespace after `---`"
            } else if s.trim() == "---" {
                "is indented"
            } else if s == "..." {
                "is `...`, which does not close frontmatter"
            } else if s.len() > 3 && s.bytes().all(|b| b == b'-') {
                "has more than three dashes"
            } else {
                continue;
            };
            let line_no = self.src.line_of(self.file(l.start));
            finding = finding
                .related(self.path, Some(self.file_range(&l)), format!("line {line_no} {why}"))
                .help(format!("line {line_no} looks like the closing fence but {why}; make it exactly `---`"));
            return finding;
        }
        finding.help("add a line with exactly `---` after the last frontmatter key")
    }

    fn yaml_warning(&self, w: &str) -> Finding {
        let first = w.lines().next().unwrap_or(w);
        let span = parse_at_line_col(first).and_then(|(l, c)| self.yaml_line_col(l, c)).map(|o| o..o + 1);
        let msg = first.split(" at line ").next().unwrap_or(first);
        Finding::new(
            &YAML_WARNING,
            self.path,
            format!("the YAML parser warns: {msg}"),
            "the harness loads the value as a plain string and prints this warning on its stderr",
        )
        .at_opt(span)
    }

    /// File offset of a 1-based line and column of the YAML text.
    fn yaml_line_col(&self, line: usize, col: usize) -> Option<usize> {
        let fm = self.fm.as_ref()?;
        let lines = self.lines(fm.yaml.clone());
        let l = lines.get(line.checked_sub(1)?)?;
        let s = &self.text[l.clone()];
        let off = s.char_indices().nth(col.saturating_sub(1)).map_or(s.len(), |(i, _)| i);
        Some(self.file(l.start + off))
    }

    fn yaml_error(&self, e: &yaml::YamlError, skip: &str) -> Finding {
        let duplicate = e.message.starts_with("Map keys must be unique");
        let rule = if duplicate { &YAML_DUPLICATE_KEY } else { &YAML_SYNTAX };
        let message = e.message.split(" at line ").next().unwrap_or(&e.message).trim_end_matches(':');
        let pos = e.pos.as_ref().map(|p| self.yaml_file(p.byte)).or_else(|| {
            parse_at_line_col(&e.message)
                .or_else(|| parse_at_line_col(&e.pretty))
                .and_then(|(l, c)| self.yaml_line_col(l, c))
        });
        let fm = self.fm.as_ref().expect("frontmatter split");
        let key_lines = self.key_lines();
        let error_line = pos.map(|p| self.src.line_of(p));
        let mut finding =
            Finding::new(rule, self.path, format!("invalid YAML in the frontmatter: {message}"), skip.to_string());
        let pos = pos.map(|p| self.src.floor_boundary(p));
        let span = pos.map(|p| {
            let end = self.src.text[p..].chars().next().map_or(p, |c| p + c.len_utf8());
            p..end.max(p)
        });
        finding = finding.at(span.clone().unwrap_or_else(|| self.file(fm.yaml.start)..self.file(fm.yaml.start)));
        if duplicate {
            let mut seen: Vec<&KeyLine> = Vec::new();
            for k in &key_lines {
                if let Some(first) = seen.iter().find(|s| s.key == k.key) {
                    let first_line = self.src.line_of(self.file(first.key_range.start));
                    let line = self.src.line_of(self.file(k.key_range.start));
                    finding = finding
                        .at(self.file_range(&k.key_range))
                        .label(format!("`{}` again", k.key))
                        .related(self.path, Some(self.file_range(&first.key_range)), "first defined here")
                        .help(format!(
                            "`{}` is defined on line {first_line} and again on line {line}; the harness's YAML parser \
                             rejects duplicate keys instead of keeping the last one; delete one",
                            k.key
                        ));
                    return finding;
                }
                seen.push(k);
            }
            return finding.help("delete one of the duplicated keys");
        }
        // Resource limits, not a typo: no quoting helps.
        if message == crate::engine::yaml::aliases::EXCESSIVE_ALIAS_COUNT {
            return finding.label("one alias too many").help(
                "the harness's YAML parser refuses a frontmatter whose aliases (`*name`) would expand it more than \
                 100-fold; write the values out, or use fewer aliases",
            );
        }
        if message == "Maximum call stack size exceeded" {
            return finding.label("nested too deep").help(
                "the harness's YAML parser runs out of stack on collections nested this deep; flatten the frontmatter",
            );
        }
        // A comment at the start of a line inside a `{ }` or `[ ]` value, right after an entry:
        // the parser counts the line break as the entry's, so nothing separates the `#` from it.
        if message == "Comments must be separated from other tokens by white space characters"
            && let Some(p) = pos
            && self.text.as_bytes().get(p) == Some(&b'#')
            && (p == 0 || self.text.as_bytes()[p - 1] == b'\n')
        {
            return finding.label("a comment at the start of a line inside `{ }` or `[ ]`").help(
                "inside a `{ }` or `[ ]` value, a comment line right after an entry must not start at column 0: \
                 indent it (`  # ...`), or put a blank line before it",
            );
        }
        // Look for the classic traps, nearest the error first.
        let mut traps: Vec<(Trap, Range<usize>, Option<&KeyLine>)> = Vec::new();
        for l in self.lines(fm.yaml.clone()) {
            let s = &self.text[l.clone()];
            let indent: &str = &s[..s.len() - s.trim_start().len()];
            if indent.contains('\t') && !s.trim().is_empty() {
                traps.push((Trap::TabIndent, l.start..l.start + indent.len(), None));
            }
        }
        for k in &key_lines {
            let v = &self.text[k.value_range.clone()];
            if let Some(t) = value_trap(v) {
                traps.push((t, k.value_range.clone(), Some(k)));
            }
        }
        traps.sort_by_key(|(_, r, _)| {
            let line = self.src.line_of(self.file(r.start));
            let d = error_line.map_or(0, |e| if line <= e { (e - line) * 2 } else { (line - e) * 2 + 1 });
            (d, r.start)
        });
        if let Some((trap, range, key)) = traps.first() {
            let key_name = key.map(|k| k.key.as_str()).unwrap_or("");
            let (label, help) = match trap {
                Trap::ColonSpace => (
                    "a plain value cannot contain `: `".to_string(),
                    format!(
                        "YAML reads `: ` inside an unquoted value as the start of a nested mapping; quote the value \
                         (`{key_name}: \"...\"`) or use a folded block (`{key_name}: >-` with the text on the next \
                         lines, indented)"
                    ),
                ),
                Trap::FlowStart => (
                    "a value starting with `[` or `{` is a list or mapping".to_string(),
                    format!("quote the value if it is text: `{key_name}: \"...\"`"),
                ),
                Trap::Reserved => (
                    "`@` and `` ` `` cannot start a plain value".to_string(),
                    format!("quote the value: `{key_name}: \"...\"`"),
                ),
                Trap::Indicator => (
                    "`*`, `&`, `!` and `%` at the start of a value are YAML syntax".to_string(),
                    format!("quote the value: `{key_name}: \"...\"`"),
                ),
                Trap::TabIndent => (
                    "tab used for indentation".to_string(),
                    "YAML does not allow tabs as indentation; indent with spaces".to_string(),
                ),
            };
            let trap_span = self.file_range(range);
            if span.as_ref().is_some_and(|s| self.src.line_of(s.start) == self.src.line_of(trap_span.start))
                || span.is_none()
            {
                finding = finding.at(trap_span).label(label);
            } else {
                finding = finding.label("the YAML parser stops here").related(self.path, Some(trap_span), label);
            }
            finding = finding.help(help);
        }
        finding.fix(self.quote_fix(&key_lines))
    }

    /// Quote every single-line plain value that falls into a trap, if that makes the YAML valid
    /// and keeps each value's text exactly.
    fn quote_fix(&self, key_lines: &[KeyLine]) -> Option<Fix> {
        if !self.src.exact {
            return None;
        }
        let fm = self.fm.as_ref()?;
        let mut edits = Vec::new();
        let mut expect = Vec::new();
        for k in key_lines {
            let v = &self.text[k.value_range.clone()];
            let Some(trap) = value_trap(v) else { continue };
            if trap == Trap::TabIndent || k.continued || v.contains(" #") || v.contains('\t') {
                continue;
            }
            let quoted = format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\""));
            edits.push((k.value_range.clone(), quoted));
            expect.push((k.key.clone(), v.to_string()));
        }
        if edits.is_empty() {
            return None;
        }
        let mut yaml_text = self.text[fm.yaml.clone()].to_string();
        for (r, q) in edits.iter().rev() {
            yaml_text.replace_range(r.start - fm.yaml.start..r.end - fm.yaml.start, q);
        }
        let parsed = yaml::parse(&yaml_text).ok()?;
        let Value::Object(obj) = &parsed.value else { return None };
        if !expect.iter().all(|(k, v)| matches!(obj.get(k), Some(Value::String(s)) if s == v)) {
            return None;
        }
        let keys: Vec<String> = expect.iter().map(|(k, _)| format!("`{k}`")).collect();
        Some(Fix {
            description: format!("quote the value of {}", keys.join(", ")),
            edits: edits.into_iter().map(|(r, q)| edit(self.file_range(&r), &q)).collect(),
        })
    }

    fn check_name(&self, obj: &Object, skip: &str, findings: &mut Vec<Finding>) -> Option<String> {
        match obj.get("name") {
            None => {
                let mut f = Finding::new(&NAME_REQUIRED, self.path, "the frontmatter has no `name`", skip.to_string())
                    .at(self.first_line())
                    .help(format!(
                        "add `name: {}`; the harness takes the name only from the frontmatter, never from the \
                         folder or file name",
                        suggest_slug(self.subject.stem()).unwrap_or_else(|| "<slug>".into())
                    ));
                if let Some(k) = obj.iter().map(|(k, _)| k).find(|k| k.eq_ignore_ascii_case("name") || *k == "title") {
                    f = f
                        .at_opt(self.key_span(k))
                        .label(format!("`{k}` is not `name`"))
                        .help("the key must be spelled `name`");
                }
                findings.push(f);
                None
            }
            Some(Value::String(s)) if s.is_empty() => {
                findings.push(
                    Finding::new(&NAME_REQUIRED, self.path, "`name` is an empty string", skip.to_string())
                        .at_opt(self.value_span("name"))
                        .help("give the skill a lowercase slug name"),
                );
                None
            }
            Some(Value::String(s)) => {
                if !js::is_skill_name(s) {
                    let mut f = Finding::new(
                        &NAME_INVALID,
                        self.path,
                        format!("`{}` is not a valid skill name: {}", s, name_problem(s)),
                        skip.to_string(),
                    )
                    .at_opt(self.value_span("name"));
                    f = match suggest_slug(s) {
                        Some(slug) => f
                            .label(format!("use `{slug}`"))
                            .help(format!(
                                "names are lowercase ASCII letters and digits in hyphen-separated groups: `name: {slug}`"
                            ))
                            .action(super::Action::SetName { name: slug }),
                        None => f.help("names are lowercase ASCII letters and digits in hyphen-separated groups"),
                    };
                    findings.push(f);
                }
                Some(s.to_string())
            }
            Some(other) => {
                let src =
                    self.value_span("name").map(|r| self.src.text[self.src.clamp(&r)].to_string()).unwrap_or_default();
                findings.push(
                    Finding::new(
                        &NAME_REQUIRED,
                        self.path,
                        format!("`name` is {}, not a string", shape(other)),
                        skip.to_string(),
                    )
                    .at_opt(self.value_span("name"))
                    .help(type_hint("name", other, &src)),
                );
                None
            }
        }
    }

    fn check_description(&self, obj: &Object, skip: &str, findings: &mut Vec<Finding>) -> Option<String> {
        match obj.get("description") {
            None => {
                let mut f = Finding::new(
                    &DESCRIPTION_REQUIRED,
                    self.path,
                    "the frontmatter has no `description`",
                    skip.to_string(),
                )
                .at(self.first_line())
                .help("add `description: <what the skill does and when to use it>`; the model sees it in the catalog");
                if let Some(k) = obj.iter().map(|(k, _)| k).find(|k| {
                    let n = normalize_key(k);
                    crate::analysis::suggest::edit_distance(&n, "description") <= 2
                }) {
                    f = f.at_opt(self.key_span(k)).label(format!("`{k}` is not `description`"));
                }
                findings.push(f);
                None
            }
            Some(Value::String(s)) if s.is_empty() => {
                findings.push(
                    Finding::new(
                        &DESCRIPTION_REQUIRED,
                        self.path,
                        "`description` is an empty string",
                        skip.to_string(),
                    )
                    .at_opt(self.value_span("description"))
                    .help("describe what the skill does and when to use it"),
                );
                None
            }
            Some(Value::String(s)) => {
                if s.chars().all(js::is_js_whitespace) {
                    findings.push(
                        Finding::new(
                            &DESCRIPTION_BLANK,
                            self.path,
                            "`description` is only whitespace",
                            "the harness loads the skill, but the catalog shows it with an empty description",
                        )
                        .at_opt(self.value_span("description"))
                        .help("describe what the skill does and when to use it"),
                    );
                }
                Some(s.to_string())
            }
            Some(other) => {
                let src = self
                    .value_span("description")
                    .map(|r| self.src.text[self.src.clamp(&r)].to_string())
                    .unwrap_or_default();
                findings.push(
                    Finding::new(
                        &DESCRIPTION_REQUIRED,
                        self.path,
                        format!("`description` is {}, not a string", shape(other)),
                        skip.to_string(),
                    )
                    .at_opt(self.value_span("description"))
                    .help(type_hint("description", other, &src)),
                );
                None
            }
        }
    }

    fn check_invocation(&self, obj: &Object, skip: &str, findings: &mut Vec<Finding>) {
        for (legacy, canonical) in skillfile::LEGACY_KEYS {
            let Some(value) = obj.get(legacy) else { continue };
            let spelled = skillfile::boolean_spelling(value);
            let (help, fix) = if legacy == "modelInvocable" {
                let help = match spelled {
                    Some(true) => "`modelInvocable: true` is the default: delete the line (or write \
                                   `disable-model-invocation: false`); the meaning is inverted"
                        .to_string(),
                    Some(false) => {
                        "write `disable-model-invocation: true` instead; the meaning is inverted".to_string()
                    }
                    None => "use `disable-model-invocation`, which has the inverted meaning: `modelInvocable: false` \
                             becomes `disable-model-invocation: true`"
                        .to_string(),
                };
                let fix = spelled.filter(|_| !obj.contains_key(canonical)).and_then(|b| {
                    let key = self.key_span(legacy)?;
                    let val = self.value_span(legacy).filter(|v| v.start > key.end)?;
                    Some(Fix {
                        description: format!("replace `modelInvocable: ...` with `{canonical}: {}`", !b),
                        edits: vec![edit(key, canonical), edit(val, if b { "false" } else { "true" })],
                    })
                });
                (help, fix)
            } else {
                let help = format!("rename it to `{canonical}` (same meaning)");
                let fix = spelled.filter(|_| !obj.contains_key(canonical)).and_then(|_| {
                    let key = self.key_span(legacy)?;
                    Some(Fix {
                        description: format!("rename `{legacy}` to `{canonical}`"),
                        edits: vec![edit(key, canonical)],
                    })
                });
                (help, fix)
            };
            findings.push(
                Finding::new(
                    &LEGACY_INVOCATION_KEY,
                    self.path,
                    format!("`{legacy}` is no longer supported; use `{canonical}`"),
                    skip.to_string(),
                )
                .at_opt(self.key_span(legacy))
                .label("legacy key")
                .help(help)
                .fix(if self.src.exact { fix } else { None }),
            );
        }
        for key in ["disable-model-invocation", "user-invocable"] {
            let Some(value) = obj.get(key) else { continue };
            if skillfile::boolean_spelling(value).is_some() {
                continue;
            }
            let shown = match value {
                Value::String(s) => format!("the string \"{}\"", s),
                other => shape(other),
            };
            findings.push(
                Finding::new(
                    &INVOCATION_NOT_BOOLEAN,
                    self.path,
                    format!("`{key}` is {shown}, which the harness does not accept as a boolean"),
                    skip.to_string(),
                )
                .at_opt(self.value_span(key))
                .help(format!("write `{key}: true` or `{key}: false` (the harness also accepts yes/no, on/off, 1/0)")),
            );
        }
    }

    fn check_optional_fields(&self, obj: &Object, findings: &mut Vec<Finding>) {
        if let Some(v) = obj.get("whenToUse")
            && !matches!(v, Value::String(s) if !s.is_empty())
        {
            findings.push(
                Finding::new(
                    &IGNORED_FIELD,
                    self.path,
                    format!(
                        "`whenToUse` is {}, not a non-empty string",
                        if matches!(v, Value::String(_)) { "an empty string".to_string() } else { shape(v) }
                    ),
                    "the harness drops `whenToUse` silently and loads the skill without it",
                )
                .at_opt(self.value_span("whenToUse"))
                .help("write `whenToUse` as text (quote it, or use `>-` for several lines)"),
            );
        }
        if let Some(v) = obj.get("metadata")
            && !matches!(v, Value::Object(_) | Value::Date(_) | Value::Buffer(_) | Value::Map(_) | Value::Set(_))
        {
            findings.push(
                Finding::new(
                    &IGNORED_FIELD,
                    self.path,
                    format!("`metadata` is {}, not a mapping", shape(v)),
                    "the harness drops `metadata` silently and loads the skill without it",
                )
                .at_opt(self.value_span("metadata"))
                .help("write `metadata:` followed by indented `key: value` lines"),
            );
        }
    }

    fn check_keys(&self, obj: &Object, findings: &mut Vec<Finding>) {
        for (key, value) in obj.iter() {
            if HARNESS_KEYS.contains(&key) || skillfile::LEGACY_KEYS.iter().any(|(l, _)| *l == key) {
                continue;
            }
            if normalize_key(key) == "whentouse" {
                // Claude Code reads `when_to_use`: renaming it would break the file there.
                let claude = key == "when_to_use" && self.opts.compat.contains(&Compat::ClaudeCode);
                let fix =
                    (!claude && !obj.contains_key("whenToUse") && matches!(value, Value::String(_)) && self.src.exact)
                        .then(|| self.key_span(key))
                        .flatten()
                        .map(|r| Fix {
                            description: format!("rename `{key}` to `whenToUse`"),
                            edits: vec![edit(r, "whenToUse")],
                        });
                let extra = if key == "when_to_use" {
                    " (Claude Code's spelling: keep both if Claude Code reads this file too)"
                } else {
                    ""
                };
                findings.push(
                    Finding::new(
                        &WHEN_TO_USE_KEY,
                        self.path,
                        format!("`{}` is not `whenToUse`", key),
                        "the harness reads only `whenToUse` and ignores this key silently",
                    )
                    .at_opt(self.key_span(key))
                    .label("use `whenToUse`")
                    .help(if claude {
                        "add `whenToUse` with the same text and keep `when_to_use`: this file is also read by Claude \
                         Code (`--compat claude-code`), which reads only `when_to_use`"
                            .to_string()
                    } else {
                        format!("rename it to `whenToUse`{extra}")
                    })
                    .fix(fix),
                );
                continue;
            }
            if FOREIGN_KEYS.contains(&key) || self.opts.extra_keys.iter().any(|k| k == key) {
                continue;
            }
            let mut f = Finding::new(
                &UNKNOWN_KEY,
                self.path,
                format!("unknown frontmatter key `{}`", key),
                "the harness ignores this key silently",
            )
            .at_opt(self.key_span(key));
            if let Some(s) = suggest_key(key) {
                f = f.label(format!("did you mean `{s}`?")).help(format!(
                    "did you mean `{s}`? The harness only reads that exact spelling, so this setting has no effect"
                ));
            } else {
                // Not a typo of a key the harness reads: custom data the harness ignores.
                f = f.severity(Severity::Info).help(
                    "move custom data under `metadata:`, or allow the key in `.dsh-skills-lint.yaml` \
                     (`extra-keys: [<key>]`)",
                );
            }
            findings.push(f);
        }
    }

    /// `normalized`: the description as the catalog collapses it.
    fn check_truncation(&self, normalized: &str, findings: &mut Vec<Finding>) {
        let max = self.opts.max_description;
        let normalized_len = normalized.encode_utf16().count();
        if js::truncated_utf16_len(normalized_len, max) == normalized_len {
            return;
        }
        let keep = max.saturating_sub(3);
        // The byte index in `normalized` of the first character (partly) lost.
        let mut units = 0;
        let mut cut = normalized.len();
        for (i, c) in normalized.char_indices() {
            if units + c.len_utf16() > keep {
                cut = i;
                break;
            }
            units += c.len_utf16();
        }
        let kept = &normalized[..cut];
        let lost = &normalized[cut..];
        let tail: String = kept.chars().rev().take(30).collect::<Vec<_>>().into_iter().rev().collect();
        let head: String = lost.chars().take(30).collect();
        let lost_preview: String = lost.chars().take(120).collect();
        let ellipsis = if lost.chars().count() > 120 { "…" } else { "" };
        let value = self.value_span("description");
        let span = value.as_ref().and_then(|v| self.cut_in_source(v, normalized, cut)).or(value);
        findings.push(
            Finding::new(
                &DESCRIPTION_TRUNCATED,
                self.path,
                format!(
                    "the description is {} UTF-16 units after whitespace is collapsed; the catalog keeps {keep} and adds \
                     `...`",
                    normalized_len
                ),
                format!(
                    "the model's catalog shows only the first {keep} units; it never sees: \"{}{ellipsis}\"",
                    &lost_preview
                ),
            )
            .at_opt(span)
            .label(format!("cut here: …{}|HERE|{}…", &tail, &head))
            .help(format!(
                "shorten the description by {} units, or move detail into the body; put the trigger phrases first",
                normalized_len - keep
            )),
        );
    }

    /// The file range from the cut point to the end of the value, when the value's source text
    /// decodes and collapses to the same normalized description: plain and block scalars,
    /// single-quoted (`''`) and double-quoted values with escapes (`\"`, `\n`, `\u00e9`, an
    /// escaped line break).
    fn cut_in_source(&self, value: &Range<usize>, normalized: &str, cut_normalized: usize) -> Option<Range<usize>> {
        let value = self.src.clamp(value);
        let src = &self.src.text[value.clone()];
        let cut = cut_in_scalar(src, normalized, cut_normalized)?;
        Some(value.start + cut..value.end)
    }

    fn check_name_matches(&self, name: &str, findings: &mut Vec<Finding>) {
        if let SubjectKind::Flat { entry, root } = &self.subject.kind
            && entry == "SKILL.md"
        {
            findings.push(
                Finding::new(
                    &ROOT_LEVEL_SKILL_MD,
                    self.path,
                    "`SKILL.md` sits directly in the root, so it is a flat skill",
                    format!("the harness loads it, with the whole root `{}` as the skill's base directory", root),
                )
                .help(format!(
                    "move it into a folder: `{}/SKILL.md`",
                    if js::is_skill_name(name) { name } else { "<name>" }
                )),
            );
            return;
        }
        let stem = self.subject.stem();
        if stem == name {
            return;
        }
        // The entry as it is and as it would be renamed: folder `name`, or file `name.md`.
        let (what, entry, renamed, parent) = match &self.subject.kind {
            SubjectKind::Bundle { dir, entry } => {
                ("folder", entry.clone(), name.to_string(), crate::engine::platform::dirname(dir))
            }
            SubjectKind::Flat { root, entry } => ("file", entry.clone(), format!("{name}.md"), root.clone()),
        };
        let from = crate::engine::platform::join(&parent, &entry);
        let to = crate::engine::platform::join(&parent, &renamed);
        // A case-only rename is the same entry on case-insensitive filesystems; otherwise the
        // new name must be free.
        let taken = !entry.eq_ignore_ascii_case(&renamed) && std::fs::symlink_metadata(&to).is_ok();
        let mut f = Finding::new(
            &NAME_MISMATCH,
            self.path,
            format!("the skill is named `{}` but its {what} is `{}`", name, entry),
            format!(
                "the harness knows this skill only as `{}` (`/{}` and the catalog); Claude Code and the Agent \
                 Skills spec use the {what} name",
                name, name
            ),
        )
        .at_opt(self.value_span("name"));
        let stem_ok = js::is_skill_name(stem);
        f = match (taken, stem_ok) {
            (false, true) => f
                .help(format!("rename the {what} to `{renamed}`, or set `name: {stem}`"))
                .action(super::Action::Move { moves: vec![[from, to]] }),
            (false, false) => f
                .help(format!(
                    "rename the {what} to `{renamed}` (`{stem}` is not a valid skill name, so the name must stay)"
                ))
                .action(super::Action::Move { moves: vec![[from, to]] }),
            (true, true) => f
                .help(format!("set `name: {stem}` (`{renamed}` is already taken in the same folder)"))
                .action(super::Action::SetName { name: stem.to_string() }),
            (true, false) => f.help(format!(
                "`{renamed}` is already taken in the same folder and `{stem}` is not a valid skill name: choose a new \
                 name and rename both"
            )),
        };
        findings.push(f);
    }

    /// `description` is the value as written and as the catalog collapses it.
    fn check_compat(
        &self,
        obj: &Object,
        name: Option<&str>,
        description: Option<(&str, &str)>,
        findings: &mut Vec<Finding>,
    ) {
        if let Some(n) = name {
            let chars = n.chars().count();
            if chars > 64 {
                findings.push(
                    Finding::new(
                        &NAME_TOO_LONG,
                        self.path,
                        format!(
                            "`name` is {chars} characters, over the 64-character limit of {}",
                            self.targets(&NAME_TOO_LONG)
                        ),
                        "the harness has no limit and loads it",
                    )
                    .at_opt(self.value_span("name")),
                );
            }
        }
        if let Some((d, normalized)) = description {
            let raw = d.chars().count();
            let collapsed = normalized.chars().count();
            if raw > 1024 || collapsed > 1024 {
                findings.push(
                    Finding::new(
                        &DESCRIPTION_TOO_LONG,
                        self.path,
                        format!(
                            "the description is {raw} characters ({collapsed} with whitespace collapsed, as Codex counts), over \
                             the 1024-character limit of the Agent Skills specification, claude.ai and Codex"
                        ),
                        "the harness loads it (only the catalog cut applies); Codex skips the whole skill",
                    )
                    .at_opt(self.value_span("description"))
                    .help(format!("shorten it by at least {} characters", raw.max(collapsed) - 1024)),
                );
            }
            findings.extend(super::content::description_brackets(self.path, &self.src.text, d, || {
                self.value_span("description")
            }));
        }
        if let Some(Value::Object(m)) = obj.get("metadata") {
            findings.extend(super::content::metadata_values(self.path, &self.src.text, m, self.value_span("metadata")));
        }
        let mut chosen: Vec<Compat> = self.opts.compat.clone();
        if chosen.is_empty() {
            chosen = vec![Compat::Agentskills];
        }
        if self.opts.off.contains(&&NON_PORTABLE_KEY) {
            return;
        }
        for (key, _) in obj.iter() {
            let rejecting: Vec<&str> = chosen
                .iter()
                .filter_map(|c| match c {
                    Compat::Agentskills if !AGENTSKILLS_KEYS.contains(&key) => Some("the Agent Skills specification"),
                    Compat::ClaudeCode if !CLAUDE_CODE_KEYS.contains(&key) => Some("Claude Code"),
                    _ => None,
                })
                .collect();
            if rejecting.is_empty() {
                continue;
            }
            let hint = match key {
                "whenToUse" => "Claude Code reads `when_to_use`; the spec has no such key",
                "disable-model-invocation" | "user-invocable" => {
                    "Claude Code reads this key too; the spec does not allow it"
                }
                _ => "packaging and upload validators reject keys outside the allowed set",
            };
            findings.push(
                Finding::new(
                    &NON_PORTABLE_KEY,
                    self.path,
                    format!("`{}` is not a key of {}", key, rejecting.join(" or ")),
                    if HARNESS_KEYS.contains(&key) {
                        "the harness reads this key"
                    } else {
                        "the harness ignores this key"
                    },
                )
                .at_opt(self.key_span(key))
                .help(hint),
            );
        }
    }

    fn check_body(&self, fm: &Frontmatter, findings: &mut Vec<Finding>) {
        let body = &self.text[fm.body.clone()];
        // As many lines as `split_inclusive('\n')` yields: the newlines, plus an unterminated last line.
        let lines = memchr::memchr_iter(b'\n', body.as_bytes()).count()
            + usize::from(!body.is_empty() && !body.ends_with('\n'));
        if lines > MAX_BODY_LINES {
            let first_body_line = self.src.line_of(self.file(fm.body.start));
            let over = self.src.line_range(first_body_line + MAX_BODY_LINES);
            findings.push(
                Finding::new(
                    &BODY_TOO_LONG,
                    self.path,
                    format!("the body is {lines} lines, over the recommended {MAX_BODY_LINES}"),
                    "the harness sends the whole body to the model every time the skill is loaded",
                )
                .at(over)
                .label(format!("line {} of the body", MAX_BODY_LINES + 1))
                .help("move detail into files under `references/` and link them from the body"),
            );
        }
        findings.extend(super::bundle::check_references(
            self.subject,
            self.path,
            body,
            self.file(fm.body.start),
            &self.opts.neighbours,
            self.listed,
        ));
        findings.extend(super::content::check(self.path, &self.src.text, self.file_range(&fm.body)));
    }
}

/// Where, in a scalar's source text `src`, the description is cut: the offset of the first
/// character the catalog loses, when `src` decodes and collapses to `normalized` (whose byte
/// `cut` is that character).
fn cut_in_scalar(src: &str, normalized: &str, cut: usize) -> Option<usize> {
    // Most values are written as the normalized text itself: plain, or quoted without an
    // escape or a doubled quote. Then the offsets are the same, past the opening quote; a cut
    // at a space falls on the character after it, as the walk below finds it.
    let b = src.as_bytes();
    let quoted = |q: u8, special: u8| b.len() >= 2 && b[b.len() - 1] == q && !b[1..b.len() - 1].contains(&special);
    let start = match b.first() {
        Some(b'"') if quoted(b'"', b'\\') => Some(1),
        Some(b'\'') if quoted(b'\'', b'\'') => Some(1),
        Some(b'"' | b'\'' | b'|' | b'>' | b'[' | b'{' | b'*' | b'&' | b'!') => None,
        _ => Some(0),
    };
    if let Some(start) = start
        && src.get(start..src.len() - start) == Some(normalized)
    {
        let at = if normalized.as_bytes().get(cut) == Some(&b' ') { cut + 1 } else { cut };
        return (at < normalized.len()).then_some(start + at);
    }
    cut_in_scalar_decoded(src, normalized, cut)
}

/// [`cut_in_scalar`] by decoding `src` character by character.
fn cut_in_scalar_decoded(src: &str, normalized: &str, cut_normalized: usize) -> Option<usize> {
    // Walk the decoded characters with the collapse algorithm, checking each against
    // `normalized` as it goes, to find where the cut falls.
    let norm = normalized.as_bytes();
    let mut out = 0;
    let mut in_run = false;
    let mut same = true;
    let mut hit = None;
    let mut buf = [0u8; 4];
    decode_scalar(src, |at, c| {
        if js::is_js_whitespace(c) {
            in_run = true;
            return true;
        }
        if in_run && out > 0 {
            same &= norm.get(out) == Some(&b' ');
            out += 1;
        }
        in_run = false;
        if hit.is_none() && out >= cut_normalized {
            hit = Some(at);
        }
        if c.is_ascii() {
            same &= norm.get(out) == Some(&(c as u8));
            out += 1;
        } else {
            let enc = c.encode_utf8(&mut buf).as_bytes();
            same &= norm.get(out..out + enc.len()) == Some(enc);
            out += enc.len();
        }
        same
    })?;
    (same && out == norm.len()).then_some(hit?)
}

/// A scalar's characters, each with the byte offset in `src` where it is written, given to `f`
/// until it returns `false`; whitespace that YAML folds stays whitespace (only non-whitespace
/// matters to the catalog's collapse). `None` for a value this does not decode (an alias, a
/// tag, a flow collection, an unknown escape).
fn decode_scalar(src: &str, mut f: impl FnMut(usize, char) -> bool) -> Option<()> {
    if src.starts_with('|') || src.starts_with('>') {
        let nl = src.find('\n')?;
        for (i, c) in src[nl + 1..].char_indices() {
            if !f(nl + 1 + i, c) {
                break;
            }
        }
    } else if let Some(inner) = src.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
        let mut it = inner.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            if c == '\'' {
                it.next_if(|&(_, n)| n == '\'')?;
            }
            if !f(1 + i, c) {
                break;
            }
        }
    } else if let Some(inner) = src.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        let b = inner.as_bytes();
        let mut i = 0;
        while i < inner.len() {
            let c = inner[i..].chars().next()?;
            if c != '\\' {
                if !f(1 + i, c) {
                    break;
                }
                i += c.len_utf8();
                continue;
            }
            let e = *b.get(i + 1)? as char;
            let (decoded, len) = match e {
                '\n' | '\r' => {
                    // An escaped line break: the break and the next line's indentation vanish.
                    let mut j = i + 1;
                    while j < b.len() && matches!(b[j], b'\n' | b'\r' | b' ' | b'\t') {
                        j += 1;
                    }
                    i = j;
                    continue;
                }
                'x' | 'u' | 'U' => {
                    let n = match e {
                        'x' => 2,
                        'u' => 4,
                        _ => 8,
                    };
                    let hex = inner.get(i + 2..i + 2 + n)?;
                    (char::from_u32(u32::from_str_radix(hex, 16).ok()?)?, 2 + n)
                }
                '0' => ('\0', 2),
                'a' => ('\u{7}', 2),
                'b' => ('\u{8}', 2),
                't' | '\t' => ('\t', 2),
                'n' => ('\n', 2),
                'v' => ('\u{B}', 2),
                'f' => ('\u{C}', 2),
                'r' => ('\r', 2),
                'e' => ('\u{1B}', 2),
                ' ' => (' ', 2),
                '"' => ('"', 2),
                '/' => ('/', 2),
                '\\' => ('\\', 2),
                'N' => ('\u{85}', 2),
                '_' => ('\u{A0}', 2),
                'L' => ('\u{2028}', 2),
                'P' => ('\u{2029}', 2),
                _ => return None,
            };
            if !f(1 + i, decoded) {
                break;
            }
            i += len;
        }
    } else if src.starts_with(['[', '{', '*', '&', '!']) {
        return None;
    } else {
        for (i, c) in src.char_indices() {
            if !f(i, c) {
                break;
            }
        }
    }
    Some(())
}

fn edit(range: Range<usize>, replacement: &str) -> Edit {
    Edit { range, replacement: replacement.to_string() }
}

/// The index of the `:` that ends a plain mapping key on this line (`: ` or `:` at the end).
fn find_mapping_colon(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    (0..b.len()).find(|&i| b[i] == b':' && (i + 1 == b.len() || matches!(b[i + 1], b' ' | b'\t' | b'\r')))
}

/// The trap an unquoted single-line value falls into, if any.
fn value_trap(v: &str) -> Option<Trap> {
    let first = v.chars().next()?;
    match first {
        '"' | '\'' | '|' | '>' | '#' => None,
        '[' | '{' => {
            let close = if first == '[' { ']' } else { '}' };
            // A complete flow collection alone on the line parses; anything else is a trap.
            let balanced = v.ends_with(close) && v.matches(first).count() == v.matches(close).count();
            (!balanced).then_some(Trap::FlowStart)
        }
        '@' | '`' => Some(Trap::Reserved),
        '*' | '&' | '!' | '%' => Some(Trap::Indicator),
        _ if v.contains(": ") || v.ends_with(':') => Some(Trap::ColonSpace),
        _ => None,
    }
}

/// `(line, column)` from a YAML message's ` at line L, column C`.
fn parse_at_line_col(msg: &str) -> Option<(usize, usize)> {
    let rest = &msg[msg.find("at line ")? + 8..];
    let line: usize = rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()?;
    let rest = &rest[rest.find("column ")? + 7..];
    let col: usize = rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()?;
    Some((line, col))
}

/// Lowercase with `-` and `_` removed, for comparing key spellings.
pub fn normalize_key(k: &str) -> String {
    k.chars().filter(|c| *c != '-' && *c != '_' && !c.is_whitespace()).flat_map(char::to_lowercase).collect()
}

/// The known key an unknown key probably means.
fn suggest_key(key: &str) -> Option<&'static str> {
    // The known keys normalized once per process, not once per unknown key.
    static KNOWN: std::sync::LazyLock<Vec<(&'static str, String, usize)>> = std::sync::LazyLock::new(|| {
        // Only keys the harness reads: suggesting another agent's key would not make it work here.
        HARNESS_KEYS
            .iter()
            .map(|&k| {
                let n = normalize_key(k);
                let chars = n.chars().count();
                (k, n, chars)
            })
            .collect()
    });
    let n = normalize_key(key);
    let n_chars = n.chars().count();
    let limit = if n.len() <= 4 { 1 } else { 2 };
    let mut best: Option<(usize, &'static str)> = None;
    for (k, known, known_chars) in KNOWN.iter() {
        // The edit distance is at least the difference in length, and at least the number of
        // characters one spelling has that the other lacks: most unknown keys are far from every
        // known key, and are dismissed without the quadratic comparison.
        if n_chars.abs_diff(*known_chars) > limit || bag_distance(known, &n) > limit {
            continue;
        }
        let d = if *known == n { 0 } else { crate::analysis::suggest::edit_distance(known, &n) };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k)
}

/// A lower bound of the edit distance between two strings: how many more characters of some
/// kind one has than the other, summed over the kinds, whichever side is larger (ASCII letters
/// and digits counted by kind, every other character as one kind).
fn bag_distance(a: &str, b: &str) -> usize {
    let mut counts = [0i32; 128];
    for c in a.chars() {
        counts[if c.is_ascii() { c as usize } else { 0 }] += 1;
    }
    for c in b.chars() {
        counts[if c.is_ascii() { c as usize } else { 0 }] -= 1;
    }
    let more_a: i32 = counts.iter().filter(|&&n| n > 0).sum();
    let more_b: i32 = -counts.iter().filter(|&&n| n < 0).sum::<i32>();
    more_a.max(more_b) as usize
}

/// Why a string is not a valid skill name.
fn name_problem(s: &str) -> &'static str {
    if s.ends_with('\n') {
        "it ends with a line break (a `|` or `>` block keeps one)"
    } else if s.chars().any(|c| c.is_ascii_uppercase()) {
        "it has capital letters"
    } else if s.contains('_') {
        "it has underscores"
    } else if s.chars().any(char::is_whitespace) {
        "it has spaces"
    } else if !s.is_ascii() {
        "it has non-ASCII characters"
    } else if s.starts_with('-') || s.ends_with('-') {
        "it starts or ends with a hyphen"
    } else if s.contains("--") {
        "it has a double hyphen"
    } else {
        "only lowercase letters, digits and single hyphens are allowed"
    }
}

/// The nearest valid slug: lowercase, runs of other characters become one hyphen.
pub fn suggest_slug(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut dash = false;
    for c in s.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c);
        } else {
            dash = true;
        }
    }
    js::is_skill_name(&out).then_some(out)
}

fn type_hint(key: &str, v: &Value, src: &str) -> String {
    match v {
        Value::Number(_) | Value::Bool(_) => {
            format!("YAML reads `{}` as {}; quote it: `{key}: \"{}\"`", src, shape(v), src)
        }
        Value::Null => format!("`{key}:` has no value; write the text after the colon"),
        Value::Array(_) if src.starts_with('[') => {
            format!("a value starting with `[` is a YAML list; quote it: `{key}: \"...\"`")
        }
        Value::Array(_) => format!("`{key}` is a list; write it as one string"),
        Value::Object(_) => format!("`{key}` is a mapping; write it as one string (quote it if it contains `: `)"),
        _ => format!("write `{key}` as a string"),
    }
}

crate::lint::rules::declare_rules! {
    FRONTMATTER_MISSING = fixable(rule(
        "frontmatter-missing",
        Error,
        Skipped,
        "The file does not start with a `---` line.",
        "The harness reads frontmatter only when the very first line of the file is exactly `---` \
         (one trailing carriage return allowed) and the file contains a line break. A blank line or \
         any text before it, trailing spaces (`--- `), four dashes, `---yaml`, a file with \
         carriage-return-only line endings or a single-line file all count as \"missing YAML \
         frontmatter\", and the harness skips the skill with that warning. In the bundled root the \
         file is read the plain-Node way, which keeps a UTF-8 byte order mark, so a BOM there has \
         the same effect.",
        "Make the first line exactly `---`, followed by the YAML and a closing `---` line. \
         `--fix` strips a byte order mark.",
    ));
    NOT_A_SKILL = rule(
        "not-a-skill",
        Warning,
        Skipped,
        "A Markdown file that is not a skill (`README.md`) sits in a skills root.",
        "The harness reads every `.md` file directly in a root as a flat skill. A file with no \
         frontmatter whose name could not be a skill's (capitals, underscores: `README.md`, \
         `CHANGELOG.md`) is documentation kept there: the harness skips it and logs `ignored: \
         missing YAML frontmatter` at every scan, and nothing else happens. (A file with a skill's \
         name and no frontmatter is `frontmatter-missing`, an error: it looks like a skill that \
         does not load.)",
        "Move it out of the root (beside it: `.agents/skills/README.md` to `.agents/README.md`). \
         Or keep it and accept the log line: list it under `not-skills` in `.dsh-skills-lint.yaml` \
         (paths relative to that file); an entry that matches no file is reported \
         (`config-unmatched`).",
    );
    FRONTMATTER_UNCLOSED = rule(
        "frontmatter-unclosed",
        Error,
        Skipped,
        "The opening `---` has no closing `---` line.",
        "After the opening fence the harness looks for the first line that is exactly `---` \
         (`...`, `--- ` with a trailing space, `----` and indented dashes do not count). Without \
         one, the file has \"missing YAML frontmatter\" and the harness skips the skill.",
        "Add a line with exactly `---` after the last frontmatter key.",
    );
    FRONTMATTER_NOT_MAPPING = rule(
        "frontmatter-not-mapping",
        Error,
        Skipped,
        "The frontmatter is empty, or its YAML is a scalar or a list rather than `key: value` pairs.",
        "The harness needs the YAML between the fences to be a mapping. Empty frontmatter, \
         comments only, a bare string or a list are all treated as \"missing YAML frontmatter\" \
         and the skill is skipped.",
        "Write `name: ...` and `description: ...` as top-level keys between the fences.",
    );
    YAML_SYNTAX = fixable(rule(
        "yaml-syntax",
        Error,
        Skipped,
        "The frontmatter is not valid YAML.",
        "The harness parses the frontmatter with the npm `yaml` package (YAML 1.2, core schema) \
         and skips the whole skill when it throws, logging \"invalid YAML frontmatter\". The \
         classic traps: an unquoted `: ` inside a plain value (`description: Triage bugs: use \
         when ...` is read as a nested mapping), a value that starts with `[` or `{` (read as a \
         list or mapping), `@` or a backtick at the start of a value, `*`, `&` or `!` at the start \
         of a value (alias, anchor, tag), and tabs used for indentation.",
        "Quote the value (`description: \"Triage bugs: use when ...\"`) or use a folded block \
         (`description: >-` and the text indented on the next lines); indent with spaces. `--fix` \
         quotes a single-line value when that makes the YAML valid and keeps its text.",
    ));
    YAML_DUPLICATE_KEY = rule(
        "yaml-duplicate-key",
        Error,
        Skipped,
        "A frontmatter key appears twice.",
        "The harness's YAML parser rejects duplicate keys (`Map keys must be unique`), even when \
         one spelling is quoted (`name:` and `\"name\":`), and skips the skill. Other tools keep the \
         last value silently, so the duplicate often goes unnoticed.",
        "Delete one of the two keys.",
    );
    NAME_REQUIRED = rule(
        "name-required",
        Error,
        Skipped,
        "`name` is missing, empty, or not a string.",
        "The harness takes a skill's name only from the frontmatter `name`, never from the folder \
         or file name, and requires a non-empty string. A number (`name: 2024`), a boolean \
         (`name: true`), null (`name:`), a list or a mapping does not count, and the harness skips \
         the skill with \"frontmatter requires name and description\".",
        "Add `name: <lowercase-slug>`; quote values YAML would read as numbers or booleans.",
    );
    NAME_INVALID = rule(
        "name-invalid",
        Error,
        Skipped,
        "`name` is not a lowercase slug (`^[a-z0-9]+(-[a-z0-9]+)*$`).",
        "Skill names must be lowercase ASCII letters and digits in hyphen-separated groups: no \
         capitals, underscores, spaces, dots, non-ASCII letters, leading, trailing or doubled \
         hyphens, and no trailing newline (a `|` block scalar keeps one). The harness skips any \
         other name with \"invalid skill name\".",
        "Use the suggested slug.",
    );
    DESCRIPTION_REQUIRED = rule(
        "description-required",
        Error,
        Skipped,
        "`description` is missing, empty, or not a string.",
        "The harness requires `description` to be a non-empty string: it is the text the model \
         sees in the catalog to decide when to load the skill. Without it the harness skips the \
         skill with \"frontmatter requires name and description\". A value that starts with `[` \
         becomes a list, and `true`, `null` or a number are not strings either.",
        "Add `description: <what the skill does and when to use it>`; quote it if needed.",
    );
    LEGACY_INVOCATION_KEY = fixable(rule(
        "legacy-invocation-key",
        Error,
        Skipped,
        "`disableModelInvocation`, `modelInvocable` or `userInvocable` is present.",
        "Earlier harness versions used camelCase invocation keys. Since 0.1.0-rc (commit \
         5923a17910) the mere presence of any of them, whatever its value, makes the harness skip \
         the skill with \"invalid invocation frontmatter\". The replacements: \
         `disableModelInvocation: X` becomes `disable-model-invocation: X`; `userInvocable: X` \
         becomes `user-invocable: X`; `modelInvocable` has the inverted meaning: \
         `modelInvocable: false` becomes `disable-model-invocation: true`, and \
         `modelInvocable: true` is the default (delete it).",
        "Rename the key as the finding says. `--fix` does it when the value is a boolean, inverting \
         `modelInvocable`.",
    ));
    INVOCATION_NOT_BOOLEAN = rule(
        "invocation-not-boolean",
        Error,
        Skipped,
        "`disable-model-invocation` or `user-invocable` has a value the harness does not accept.",
        "The harness accepts `true`/`false`, the numbers 1 and 0, and the strings `yes`/`no`, \
         `on`/`off`, `true`/`false` (any letter case) and `\"1\"`/`\"0\"`. Anything else, including \
         an empty value, `y`, `2`, `enabled` or a list, makes it skip the skill with \"must be a \
         boolean\".",
        "Write `true` or `false`.",
    );
    FILE_NOT_UTF8 = noted(
        rule(
            "file-not-utf8",
            Error,
            Skipped,
            "The skill file is not valid UTF-8.",
            "Project, custom and user roots are read through the harness's filesystem service, \
             which decodes strictly: one invalid byte anywhere (Latin-1 or Windows-1252 text, a \
             file cut in the middle of a character) makes it skip the skill with \"invalid UTF-8 \
             text\". The bundled root is read the plain-Node way, which silently replaces invalid \
             bytes with U+FFFD.",
            "Re-save the file as UTF-8.",
        ),
        "a warning in the bundled root, where the harness loads the file with U+FFFD in place of \
         the invalid bytes",
    );
    FILE_BINARY = rule(
        "file-binary",
        Error,
        Skipped,
        "The skill file has a NUL byte in its first 8192 bytes.",
        "The harness's filesystem service treats a file with a NUL byte in its first 8192 bytes \
         as binary and skips the skill with \"binary file\" (UTF-16 text has NUL bytes too).",
        "Save the file as UTF-8 text.",
    );
    SKILL_FILE_NOT_REGULAR = rule(
        "skill-file-not-regular",
        Error,
        Skipped,
        "`SKILL.md` is a directory, a FIFO or a device.",
        "The harness opens `<folder>/SKILL.md` directly. When it is a directory it skips the skill \
         without a word (and in the bundled root, read the plain-Node way, the read fails with \
         EISDIR and the whole provider fails). A FIFO or device is never a skill file.",
        "Make `SKILL.md` a regular file.",
    );
    DISCOVERY_FAILED = rule(
        "discovery-failed",
        Error,
        Skipped,
        "An I/O error other than \"not found\" makes the whole discovery fail.",
        "The harness treats only ENOENT and ENOTDIR as absence. Any other error while listing a \
         root or opening a skill file, such as permission denied, makes the filesystem provider's \
         `list()` throw: the harness logs `skill provider \"filesystem\" skipped`, loses every skill \
         of every root, and publishes no catalog.",
        "Fix the permissions (or remove the entry) so the harness can read it.",
    );
    NAME_MISMATCH = rule(
        "name-mismatch",
        Warning,
        Suspicious,
        "`name` differs from the folder name (or the file name of a flat skill).",
        "The harness identifies a skill only by its frontmatter `name`: `/name`, the catalog and \
         the `skill` tool use it, and the folder name plays no part. Claude Code invokes skills by \
         folder name and the Agent Skills specification requires the two to match, so a mismatch \
         gives the same skill two identities.",
        "Rename the folder (or file) or the `name` so they match.",
    );
    DESCRIPTION_TRUNCATED = rule(
        "description-truncated",
        Warning,
        Suspicious,
        "The description is longer than the catalog limit, so the model sees it cut.",
        "The catalog shows each model-invocable skill's description with whitespace runs \
         collapsed, cut to `catalogDescriptionMaxLength` (500 by default) UTF-16 code units: the \
         first limit-3 units followed by `...`. Whatever comes after the cut, often the \"use \
         when\" clause that tells the model when to load the skill, never reaches the model.",
        "Shorten the description, or move detail into the body; put trigger phrases first.",
    );
    DESCRIPTION_BLANK = rule(
        "description-blank",
        Warning,
        Suspicious,
        "The description is only whitespace.",
        "A whitespace-only string passes the harness's \"non-empty string\" check, so the skill \
         loads, but the catalog collapses it to nothing: the model sees the name and an empty \
         description.",
        "Write a description.",
    );
    WHEN_TO_USE_KEY = fixable(rule(
        "when-to-use-key",
        Warning,
        Suspicious,
        "`when_to_use`, `when-to-use` or another spelling is used instead of `whenToUse`.",
        "The harness reads only the exact camelCase key `whenToUse`; `when_to_use` (Claude Code's \
         spelling), `when-to-use`, `WhenToUse` and the like are ignored silently, so the text \
         never reaches the skill's summary.",
        "Rename the key to `whenToUse` (keep `when_to_use` as well if Claude Code reads the same \
         file). `--fix` renames it when no `whenToUse` exists.",
    ));
    IGNORED_FIELD = rule(
        "ignored-field",
        Warning,
        Suspicious,
        "`whenToUse` is not a non-empty string, or `metadata` is not a mapping.",
        "The harness keeps `whenToUse` only when it is a non-empty string and `metadata` only when \
         it is a mapping; otherwise it drops them silently and the skill loads without them.",
        "Make `whenToUse` a string and `metadata` a mapping of keys to values.",
    );
    UNKNOWN_KEY = noted(
        rule(
            "unknown-key",
            Warning,
            Suspicious,
            "A frontmatter key that neither the harness nor any other known agent reads.",
            "The harness reads `name`, `description`, `whenToUse`, `metadata`, \
         `disable-model-invocation` and `user-invocable`, and ignores every other key silently. \
         Keys of other agents (`license`, `allowed-tools`, `argument-hint`, `model`, ...) are \
         expected and not reported; anything else is usually a misspelling, and a misspelled \
         `user_invocable` or `Disable-Model-Invocation` means the setting never takes effect.",
            "Use the suggested spelling, move custom data under `metadata`, or list the team's own keys \
         under `extra-keys` in `.dsh-skills-lint.yaml`.",
        ),
        "info for a key that is not close to a key the harness reads (custom data, not a typo)",
    );
    BODY_TOO_LONG = rule(
        "body-too-long",
        Warning,
        Suspicious,
        "The body is over 500 lines.",
        "The harness sends the whole body to the model every time the skill is loaded. The Agent \
         Skills specification and Claude Code's guidance keep SKILL.md under 500 lines and move \
         detail into referenced files that are read only when needed.",
        "Move detail into `references/` files and link them.",
    );
    UNREACHABLE_SKILL = rule(
        "unreachable-skill",
        Warning,
        Suspicious,
        "`disable-model-invocation: true` together with `user-invocable: false`.",
        "The harness loads the skill, but the model cannot call it (it is not in the catalog) and \
         the user cannot invoke it with `/name`: nothing can ever use it.",
        "Drop one of the two settings.",
    );
    ROOT_LEVEL_SKILL_MD = rule(
        "root-level-skill-md",
        Warning,
        Suspicious,
        "A file named `SKILL.md` directly in a root.",
        "The harness reads `<root>/SKILL.md` as a flat skill, so its base directory is the whole \
         root, not a skill folder: the model is told that every file in the root belongs to this \
         skill.",
        "Move it into a folder named after the skill.",
    );
    YAML_WARNING = rule(
        "yaml-warning",
        Warning,
        Suspicious,
        "The YAML parser warns about the frontmatter (for example an unknown tag).",
        "The harness's YAML parser resolves an unknown tag such as `!foo` to a plain string and \
         prints a warning on the process's stderr, where nobody reads it.",
        "Remove the tag or quote the value.",
    );
    NAME_TOO_LONG = compat(
        rule(
            "name-too-long",
            Warning,
            Portability,
            "`name` is longer than 64 characters.",
            "The harness has no length limit, but the Agent Skills specification caps names at 64 \
             characters, Claude Code documents the same limit, and Codex skips such a skill.",
            "Shorten the name.",
        ),
        &[Compat::Agentskills, Compat::ClaudeCode, Compat::Codex],
    );
    DESCRIPTION_TOO_LONG = rule(
        "description-too-long",
        Warning,
        Suspicious,
        "The description is longer than 1024 characters.",
        "The harness only cuts a long description in the catalog, but the Agent Skills specification \
         forbids descriptions over 1024 characters, claude.ai uploads reject them, and Codex skips \
         the whole skill (it counts characters after collapsing whitespace), so the same folder \
         silently disappears there.",
        "Shorten the description; move detail into the body.",
    );
    NON_PORTABLE_KEY = compat(
        rule(
            "non-portable-key",
            Warning,
            Portability,
            "A frontmatter key the target agent's validator rejects.",
            "The Agent Skills specification allows only `name`, `description`, `license`, \
             `compatibility`, `metadata` and `allowed-tools`; `skills-ref validate`, Anthropic's \
             `quick_validate.py` and claude.ai uploads reject anything else, including the \
             harness's own `whenToUse`, `disable-model-invocation` and `user-invocable`. Claude \
             Code reads its own set of keys (`when_to_use`, not `whenToUse`).",
            "Move harness-only settings under `metadata` where possible, or lint without that \
             `--compat` target for harness-only skills.",
        ),
        &[Compat::Agentskills, Compat::ClaudeCode],
    );
    UTF8_BOM = fixable(compat(
        rule(
            "utf8-bom",
            Warning,
            Portability,
            "The file starts with a UTF-8 byte order mark.",
            "The harness strips one BOM in project, custom and user roots, but `skills-ref`, \
             Anthropic's validator and Codex require the file to start with `---` and treat a \
             BOM as missing frontmatter.",
            "Save without a BOM; `--fix` strips it.",
        ),
        &[Compat::Agentskills, Compat::Codex],
    ));
    CRLF_LINE_ENDINGS = fixable(compat(
        rule(
            "crlf-line-endings",
            Warning,
            Portability,
            "The file uses CRLF line endings.",
            "The harness accepts CRLF, but Anthropic's `quick_validate.py` (used to package skills \
             for upload) matches the frontmatter with LF-only patterns and rejects the file, and \
             the body reaches the model with its carriage returns.",
            "Convert to LF (`git config core.autocrlf input`); `--fix` does it.",
        ),
        &[Compat::Agentskills],
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the cut falls in a value written as the normalized text itself is where the
    /// character-by-character walk finds it, at every cut, for every way of writing a scalar.
    #[test]
    fn cut_in_scalar_shortcut_agrees_with_the_walk() {
        let texts = ["a", "ab cd", "café — “x” 東京 z", "x'y", "p\\q", "it's  two", "a\tb"];
        for text in texts {
            let normalized = js::collapse_whitespace(text);
            let written = [
                text.to_string(),
                format!("\"{text}\""),
                format!("'{text}'"),
                format!("'{}'", text.replace('\'', "''")),
                format!("\"{}\"", text.replace('\\', "\\\\")),
                format!(">-\n  {text}"),
            ];
            for src in &written {
                for (cut, _) in normalized.char_indices() {
                    assert_eq!(
                        cut_in_scalar(src, &normalized, cut),
                        cut_in_scalar_decoded(src, &normalized, cut),
                        "{src:?} cut at {cut}"
                    );
                }
            }
        }
    }

    /// Mutations of a skill file (every truncation, inserted bytes and characters) never panic.
    #[test]
    fn never_panics() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("SKILL.md");
        let base = "\u{feff}---\nname: a-b\ndescription: >-\n  Does \"x\": y [z] é😀\n  more\nwhenToUse: |\n  w\nmetadata: {k: [1, 2]}\n\
                    user_invocable: yes\nmodelInvocable: false\n---\n\nSee [a](references/x.md) and `scripts/y.py`.\n";
        let inserts: [&[u8]; 10] = [
            b"\xff",
            b"\x00",
            b"\t",
            b"\r",
            b":",
            b"\"",
            b"'",
            b"---\n",
            "\u{202e}".as_bytes(),
            "\u{1b}[2J".as_bytes(),
        ];
        let subject = |p: &std::path::Path| Subject {
            path: p.to_string_lossy().into_owned(),
            kind: SubjectKind::Bundle { dir: dir.path().to_string_lossy().into_owned(), entry: "a-b".into() },
            node_mode: false,
            checked: None,
        };
        let opts = CheckOptions {
            max_description: 10,
            compat: Compat::ALL.to_vec(),
            extra_keys: Vec::new(),
            neighbours: Default::default(),
            off: Vec::new(),
        };
        let bytes = base.as_bytes();
        let mut seed: u64 = 0x9e3779b97f4a7c15;
        for i in 0..=bytes.len() {
            std::fs::write(&path, &bytes[..i]).unwrap();
            check_file(&subject(&path), &opts);
            for node_mode in [false, true] {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let ins = inserts[(seed >> 33) as usize % inserts.len()];
                let mut v = bytes[..i].to_vec();
                v.extend_from_slice(ins);
                v.extend_from_slice(&bytes[i..]);
                std::fs::write(&path, &v).unwrap();
                let s = Subject { node_mode, ..subject(&path) };
                let r = check_file(&s, &opts);
                if let Some(src) = &r.source {
                    for f in &r.findings {
                        if let Some(span) = &f.span {
                            let c = src.clamp(span);
                            let _ = src.span_positions(&c);
                        }
                    }
                }
            }
        }
    }

    /// `description-truncated` points at the first lost character in every scalar style.
    #[test]
    fn truncation_points_at_the_cut_in_every_style() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("SKILL.md");
        let subject = Subject {
            path: path.to_string_lossy().into_owned(),
            kind: SubjectKind::Bundle { dir: dir.path().to_string_lossy().into_owned(), entry: "a".into() },
            node_mode: false,
            checked: None,
        };
        // The catalog keeps 16 units of a 19-unit limit: "Say \"hi\" to the " | "world".
        let opts = CheckOptions {
            max_description: 19,
            compat: Vec::new(),
            extra_keys: Vec::new(),
            neighbours: Default::default(),
            off: Vec::new(),
        };
        for value in [
            "Say \"hi\" to the world, often.",
            "\"Say \\\"hi\\\" to the world, often.\"",
            "\"Say \\u0022hi\\x22 to\\tthe world, often.\"",
            "\"Say \\\"hi\\\" to \\\n    the world, often.\"",
            "\"Say \\\"hi\\\"\n  to the world, often.\"",
            "'Say \"hi\" to the world, often.'",
            "'Say \"hi\"  to the ''world'', often.'",
            ">-\n  Say \"hi\" to\n  the world, often.",
            "|\n  Say \"hi\"\n  to the world, often.",
            "Say \"hi\" to\n  the world, often.",
        ] {
            let text = format!("---\nname: a\ndescription: {value}\n---\nBody.\n");
            std::fs::write(&path, &text).unwrap();
            let r = check_file(&subject, &opts);
            let f = r.findings.iter().find(|f| f.rule == &DESCRIPTION_TRUNCATED).expect(value);
            let span = f.span.clone().unwrap();
            let lost = &text[span.start..];
            assert!(lost.starts_with("world") || lost.starts_with("''world"), "{value:?}: the span starts at {lost:?}");
        }
    }

    #[test]
    fn slugs_and_keys() {
        assert_eq!(suggest_slug("My_Skill Name").as_deref(), Some("my-skill-name"));
        assert_eq!(suggest_slug("foo\n").as_deref(), Some("foo"));
        assert_eq!(suggest_slug("日本"), None);
        assert_eq!(suggest_key("user_invocable"), Some("user-invocable"));
        assert_eq!(suggest_key("Disable-Model-Invocation"), Some("disable-model-invocation"));
        assert_eq!(suggest_key("descripton"), Some("description"));
        assert_eq!(suggest_key("frobnicate"), None);
        assert_eq!(bag_distance("description", "descripton"), 1);
        assert_eq!(bag_distance("abc", "cab"), 0);
        assert_eq!(bag_distance("name", "xkey0000001"), 10);
        assert_eq!(value_trap("Triage bugs: use when"), Some(Trap::ColonSpace));
        assert_eq!(value_trap("[a, b]"), None);
        assert_eq!(value_trap("[draft] notes"), Some(Trap::FlowStart));
        assert_eq!(value_trap("\"quoted: ok\""), None);
        assert_eq!(parse_at_line_col("Map keys must be unique at line 3, column 1:\n"), Some((3, 1)));
    }
}
