//! A skill's resource directory: relative references in the body, and symbolic links inside
//! the skill folder.

use super::Finding;
use super::check::{Subject, SubjectKind};
use crate::platform;
use std::path::Path;

/// Path prefixes that mark a bare mention of a bundled file (`scripts/run.py`).
const RESOURCE_DIRS: [&str; 5] = ["scripts/", "references/", "assets/", "templates/", "examples/"];

/// At most this many entries are visited in a skill folder.
const MAX_ENTRIES: usize = 5000;

/// One relative reference in the body.
#[derive(Debug, PartialEq, Eq)]
pub struct Reference {
    /// Byte range in the body.
    pub start: usize,
    pub end: usize,
    pub target: String,
}

/// Broken or escaping references in `body` (which starts at file offset `body_offset`).
pub fn check_references(subject: &Subject, path: &str, body: &str, body_offset: usize) -> Vec<Finding> {
    let base = subject.base_dir();
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut listings = Listings::new();
    for r in scan(body) {
        let target = percent_decode(r.target.split(['#', '?']).next().unwrap_or(""));
        if target.is_empty() || !seen.insert(target.clone()) {
            continue;
        }
        let span = body_offset + r.start..body_offset + r.end;
        let shown = target.clone();
        if target.starts_with('/') || target.starts_with('~') || is_windows_absolute(&target) {
            out.push(
                Finding::new(
                    "reference-escapes-bundle",
                    path,
                    format!("`{shown}` is an absolute path"),
                    "the model is told to resolve paths against the skill's base directory; an absolute path works only \
                     on this machine",
                )
                .at(span)
                .help("copy the file into the skill folder and reference it relatively"),
            );
            continue;
        }
        let joined = platform::join(base, &target);
        let inside = joined == base || joined.starts_with(&format!("{base}{}", platform::SEP));
        if !inside {
            out.push(
                Finding::new(
                    "reference-escapes-bundle",
                    path,
                    format!("`{shown}` leaves the skill's base directory"),
                    format!(
                        "the model resolves it against `{}`; the file is not part of the skill, so copying or installing \
                         the skill breaks the reference",
                        base
                    ),
                )
                .at(span)
                .help("copy the file into the skill folder and reference it relatively"),
            );
            continue;
        }
        if std::fs::symlink_metadata(&joined).is_ok() {
            continue;
        }
        let mut f = Finding::new(
            "broken-reference",
            path,
            format!("`{shown}` does not exist in the skill's base directory"),
            format!("the model is told to resolve relative paths against `{}` and will not find this file", base),
        )
        .at(span);
        if let Some(near) = listings.nearest_file(base, &target) {
            f = f.label(format!("did you mean `{}`?", &near));
            f = f.help(format!("did you mean `{}`?", &near));
        } else {
            f = f.help("fix the path or add the file");
        }
        out.push(f);
    }
    out
}

fn is_windows_absolute(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/')
}

/// Markdown link targets, reference definitions, and bare `scripts/...` style mentions.
/// Every reference in a skill body: Markdown links and reference definitions, and bundled
/// paths (`scripts/…`, `references/…`, …) in code spans, code blocks and plain text.
pub fn scan(body: &str) -> Vec<Reference> {
    let mut refs = Vec::new();
    // A body without brackets, backticks or slashes references nothing (one SIMD pass).
    if memchr::memchr3(b'[', b']', b'`', body.as_bytes()).is_none() && memchr::memchr(b'/', body.as_bytes()).is_none() {
        return refs;
    }
    let mut in_fence: Option<&str> = None;
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let fence = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        if let Some(f) = fence {
            match in_fence {
                Some(open) if open == f => in_fence = None,
                None => in_fence = Some(f),
                _ => {}
            }
            continue;
        }
        // Most lines mention nothing: no link, no code span, no resource directory.
        if !might_reference(line) {
            continue;
        }
        if in_fence.is_some() {
            mentions(line, start, &mut refs);
            continue;
        }
        // A reference definition: `[label]: target`.
        if let Some(rest) = trimmed.strip_prefix('[')
            && let Some(close) = rest.find("]:")
        {
            let after = &rest[close + 2..];
            let target = after.trim_start();
            let t_end = target.find(char::is_whitespace).unwrap_or(target.len());
            let t_start = start + (line.len() - target.len());
            push_target(&target[..t_end], t_start, &mut refs);
            continue;
        }
        let mut code = false;
        let bytes = line.as_bytes();
        let mut i = 0;
        let mut code_start = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'`' => {
                    if code {
                        mention_span(&line[code_start..i], start + code_start, &mut refs);
                    }
                    code = !code;
                    code_start = i + 1;
                }
                b']' if !code && bytes.get(i + 1) == Some(&b'(') => {
                    let rest = &line[i + 2..];
                    let (target, len) = if let Some(r) = rest.strip_prefix('<') {
                        match r.find('>') {
                            Some(e) => (&r[..e], e),
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
                    let t_start = start + i + 2 + usize::from(rest.starts_with('<'));
                    push_target(target, t_start, &mut refs);
                    i += 2 + len;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        if !code {
            mentions_outside_code(line, start, &mut refs);
        }
    }
    refs
}

/// Whether `line` can hold a reference at all (a cheap test before the full scan).
fn might_reference(line: &str) -> bool {
    let b = line.as_bytes();
    memchr::memchr3(b'[', b']', b'`', b).is_some()
        || (memchr::memchr(b'/', b).is_some() && RESOURCE_DIRS.iter().any(|d| line.contains(d)))
}

/// A link target, unless it is a URL, an anchor or a template.
fn push_target(target: &str, at: usize, refs: &mut Vec<Reference>) {
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
    refs.push(Reference { start: at, end: at + t.len(), target: t.to_string() });
}

/// A whole inline-code span that is a bundled path (`scripts/run.py`).
fn mention_span(code: &str, at: usize, refs: &mut Vec<Reference>) {
    let c = code.trim();
    if RESOURCE_DIRS.iter().any(|d| c.starts_with(d) && c.len() > d.len()) && !c.contains(char::is_whitespace) {
        push_target(c, at + (code.len() - code.trim_start().len()), refs);
    }
}

/// Bare `scripts/...` words in a code block line.
fn mentions(line: &str, at: usize, refs: &mut Vec<Reference>) {
    let mut pos = 0;
    for word in line.split_inclusive(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '`' | '=')) {
        let w = word.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '`' | '='));
        let w = w.trim_end_matches(['.', ',', ';', ':']);
        if RESOURCE_DIRS.iter().any(|d| w.starts_with(d) && w.len() > d.len()) {
            push_target(w, at + pos, refs);
        }
        pos += word.len();
    }
}

fn mentions_outside_code(line: &str, at: usize, refs: &mut Vec<Reference>) {
    // Only outside links and code: strip `[...](...)` spans by blanking them.
    let mut clean = String::with_capacity(line.len());
    let mut depth_code = false;
    let mut skip_paren = 0usize;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'`' {
            depth_code = !depth_code;
        }
        if !depth_code && c == b']' && bytes.get(i + 1) == Some(&b'(') {
            skip_paren = 1;
            clean.push(' ');
            clean.push(' ');
            i += 2;
            continue;
        }
        if skip_paren > 0 {
            if c == b'(' {
                skip_paren += 1;
            } else if c == b')' {
                skip_paren -= 1;
            }
            clean.push(' ');
        } else if depth_code || c == b'`' {
            clean.push(' ');
        } else {
            clean.push(if c.is_ascii() { c as char } else { '\u{1}' });
        }
        i += 1;
    }
    // `clean` has one char per byte of `line`, so offsets carry over.
    let mut pos = 0;
    for word in clean.split_inclusive(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\'')) {
        let w = word.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\''));
        let w = w.trim_end_matches(['.', ',', ';', ':', '!', '?']);
        if RESOURCE_DIRS.iter().any(|d| w.starts_with(d) && w.len() > d.len()) && !w.contains('\u{1}') {
            push_target(&line[pos..pos + w.len()], at + pos, refs);
        }
        pos += word.len();
    }
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

/// Name comparisons one file's broken references may spend on suggestions (a few milliseconds).
/// A body with thousands of broken links into a folder of thousands of files would otherwise
/// cost their product; past the budget a broken reference gets the plain advice. A typical
/// skill (a few broken links, a folder of tens of files) never reaches it.
const SUGGESTION_BUDGET: usize = 10_000;

/// A directory entry's name: as listed, lowercased, and the lowercased name's length in chars.
type EntryName = (String, String, usize);

/// The directories broken references point into, each listed once per skill file.
#[derive(Default)]
struct Listings {
    /// Directory → its entries' names (`None` when it cannot be listed).
    dirs: std::collections::HashMap<String, Option<Vec<EntryName>>>,
    budget: usize,
}

impl Listings {
    fn new() -> Listings {
        Listings { dirs: Default::default(), budget: SUGGESTION_BUDGET }
    }

    /// The existing file in the target's directory whose name is closest to the target's.
    fn nearest_file(&mut self, base: &str, target: &str) -> Option<String> {
        let (dir, name) = match target.rfind('/') {
            Some(i) => (&target[..i], &target[i + 1..]),
            None => ("", target),
        };
        let full_dir = if dir.is_empty() { base.to_string() } else { platform::join(base, dir) };
        let entries = self
            .dirs
            .entry(full_dir)
            .or_insert_with_key(|full_dir| {
                let entries = std::fs::read_dir(full_dir).ok()?;
                let names = entries
                    .flatten()
                    .take(MAX_ENTRIES)
                    .filter_map(|e| e.file_name().to_str().map(str::to_string))
                    .map(|n| {
                        let lower = n.to_lowercase();
                        let chars = lower.chars().count();
                        (n, lower, chars)
                    })
                    .collect();
                Some(names)
            })
            .as_ref()?;
        let wanted = name.to_lowercase();
        let wanted_chars = wanted.chars().count();
        let limit = (name.len() / 3).max(2);
        let mut best: Option<(usize, &String)> = None;
        for (n, lower, chars) in entries {
            // The edit distance is at least the difference in length.
            if chars.abs_diff(wanted_chars) > limit {
                continue;
            }
            if self.budget == 0 {
                return None;
            }
            self.budget -= 1;
            let d = crate::commands::edit_distance(lower, &wanted);
            if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, n));
            }
        }
        best.map(|(_, n)| if dir.is_empty() { n.clone() } else { format!("{dir}/{n}") })
    }
}

/// Symbolic links inside a skill folder that point outside it or dangle.
pub fn check_symlinks(subject: &Subject) -> Vec<Finding> {
    let SubjectKind::Bundle { dir, .. } = &subject.kind else { return Vec::new() };
    // Resolved only once a link is found: most folders have none.
    let mut real_dir: Option<Option<std::path::PathBuf>> = None;
    let mut out = Vec::new();
    for link in symlinks_under(Path::new(dir)) {
        let link = link.as_path();
        let shown_link = link.to_string_lossy().into_owned();
        let target = std::fs::read_link(link).map(|t| t.to_string_lossy().into_owned()).unwrap_or_default();
        let Some(real_dir) = real_dir.get_or_insert_with(|| std::fs::canonicalize(dir).ok()) else {
            return Vec::new();
        };
        match std::fs::canonicalize(link) {
            Ok(real) if real.starts_with(&*real_dir) => {}
            Ok(real) => out.push(
                Finding::new(
                    "symlink-escapes-bundle",
                    &shown_link,
                    format!("this symbolic link points outside the skill folder, to `{}`", &real.to_string_lossy()),
                    "the harness follows it, but copying, packaging or installing the skill breaks it",
                )
                .help("replace the link with the file itself"),
            ),
            Err(e) => {
                let why = if e.raw_os_error() == Some(40) { "loops" } else { "dangles" };
                out.push(
                    Finding::new(
                        "symlink-escapes-bundle",
                        &shown_link,
                        format!("this symbolic link {why} (it points at `{}`)", &target),
                        "the model, told that this folder holds the skill's files, will not be able to read it",
                    )
                    .help("fix or remove the link"),
                );
            }
        }
    }
    out
}

/// Symbolic links (not followed) below `dir`, depth first in file-name order, at most 8 levels
/// down and `MAX_ENTRIES` entries visited, skipping `.git` and `node_modules`. Entry types come
/// from the directory listing itself, so a folder costs one open and one read, no stat per entry.
fn symlinks_under(dir: &Path) -> Vec<std::path::PathBuf> {
    fn walk(dir: &Path, depth: usize, budget: &mut usize, out: &mut Vec<std::path::PathBuf>) {
        let Ok(listing) = std::fs::read_dir(dir) else { return };
        let mut entries: Vec<(std::ffi::OsString, std::fs::FileType)> = listing
            .flatten()
            .filter(|e| !matches!(e.file_name().to_str(), Some(".git" | "node_modules")))
            .filter_map(|e| Some((e.file_name(), e.file_type().ok()?)))
            .collect();
        if entries.len() > 1 {
            entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        }
        for (name, kind) in entries {
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            if kind.is_symlink() {
                out.push(dir.join(&name));
            } else if kind.is_dir() && depth < 8 {
                walk(&dir.join(&name), depth + 1, budget, out);
            }
        }
    }
    let (mut out, mut budget) = (Vec::new(), MAX_ENTRIES);
    walk(dir, 1, &mut budget, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(body: &str) -> Vec<String> {
        scan(body).into_iter().map(|r| r.target).collect()
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_found_at_any_depth_in_name_order_outside_git_and_node_modules() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for d in ["b/c/d", ".git", "node_modules", "a"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        std::fs::write(root.join("SKILL.md"), "x").unwrap();
        for link in ["b/c/d/deep", "a/z", "a/y", ".git/hidden", "node_modules/dep", "top"] {
            std::os::unix::fs::symlink("/nowhere", root.join(link)).unwrap();
        }
        // A link to a directory is reported, not followed.
        std::os::unix::fs::symlink(root.join("b"), root.join("b/c/loop")).unwrap();
        let found: Vec<String> =
            symlinks_under(root).iter().map(|p| p.strip_prefix(root).unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(found, ["a/y", "a/z", "b/c/d/deep", "b/c/loop", "top"]);
    }

    #[test]
    fn finds_references() {
        let body = "See [the guide](references/guide.md#part) and ![img](<assets/a b.png>).\n\
                    Run `scripts/run.py` or [site](https://x.y) or [top](#top).\n\
                    ```sh\npython scripts/build.py --out assets/\n```\n\
                    [def]: references/def.md \"Title\"\n\
                    Also templates/report.md, and {{placeholder}}.\n";
        assert_eq!(
            targets(body),
            [
                "references/guide.md#part",
                "assets/a b.png",
                "scripts/run.py",
                "scripts/build.py",
                "references/def.md",
                "templates/report.md"
            ]
        );
        let body = "x [a](b.md) y";
        let r = &scan(body)[0];
        assert_eq!(&body[r.start..r.end], "b.md");
    }

    #[test]
    fn decoding() {
        assert_eq!(percent_decode("a%20b%zz"), "a b%zz");
    }
}
