//! Relative references in a skill body (`references/…`, `scripts/…`, `assets/…`, Markdown
//! links) and whether each exists inside the bundle. The harness tells the model to resolve
//! them against the resource base; a reference that is missing or leaves the bundle is a bug
//! the author cannot see otherwise. Nothing here opens a file: existence is a `stat`, and a
//! reference that leaves the bundle is never touched at all.

use crate::platform;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefKind {
    /// `[text](target)` or `![alt](target)`.
    Link,
    /// A bare path such as `scripts/run.sh`.
    Path,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefStatus {
    /// Inside the bundle; the kind found (`file`, `directory`, `other`).
    Exists(&'static str),
    Missing,
    /// Lexically outside the resource base (`..`, an absolute path): not looked at.
    Outside,
    /// Inside by name, but a symlink on the way leads outside the bundle.
    EscapesViaSymlink(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub target: String,
    /// 1-based line within the body.
    pub line: usize,
    pub kind: RefKind,
}

const BARE_PREFIXES: [&str; 5] = ["references/", "scripts/", "assets/", "./", "../"];

/// Every relative reference in `body`, in order of appearance, without duplicates.
pub fn find(body: &str) -> Vec<Reference> {
    let mut out: Vec<Reference> = Vec::new();
    let mut push = |target: String, line: usize, kind: RefKind| {
        if !target.is_empty() && !out.iter().any(|r| r.target == target) {
            out.push(Reference { target, line, kind });
        }
    };
    for (i, line) in body.lines().enumerate() {
        let bytes = line.as_bytes();
        // Markdown links: `](target)`.
        let mut from = 0;
        while let Some(pos) = line[from..].find("](") {
            let start = from + pos + 2;
            let rest = &line[start..];
            let end = rest.find([')', ' ', '\t']).unwrap_or(rest.len());
            let raw = rest[..end].trim_start_matches('<').trim_end_matches('>');
            if let Some(t) = link_target(raw) {
                push(t, i + 1, RefKind::Link);
            }
            from = start;
        }
        // Bare paths at a token boundary.
        let mut j = 0;
        while j < line.len() {
            let boundary = j == 0 || matches!(bytes[j - 1], b' ' | b'\t' | b'`' | b'(' | b'"' | b'\'' | b'[' | b'<');
            if boundary && line.is_char_boundary(j) && BARE_PREFIXES.iter().any(|p| line[j..].starts_with(p)) {
                let len = line[j..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || "._/-".contains(c)))
                    .unwrap_or(line.len() - j);
                let token = line[j..j + len].trim_end_matches(['.', ',', ':', ';']);
                let is_prefix_only = BARE_PREFIXES.contains(&token) || token == "." || token == "..";
                if !is_prefix_only && !(line[..j].ends_with("](")) {
                    push(token.to_string(), i + 1, RefKind::Path);
                }
                j += len.max(1);
            } else {
                j += 1;
            }
        }
    }
    out
}

/// A link target that names a local relative file, without its `#fragment` or `?query`.
fn link_target(raw: &str) -> Option<String> {
    if raw.is_empty() || raw.starts_with('#') || raw.contains("://") || raw.starts_with("mailto:") {
        return None;
    }
    let cut = raw.find(['#', '?']).unwrap_or(raw.len());
    let t = &raw[..cut];
    (!t.is_empty()).then(|| t.to_string())
}

/// Where `target` lands relative to the resource base `base`, and whether it is there.
pub fn check(base: &str, target: &str) -> RefStatus {
    if target.starts_with('/') || target.starts_with('\\') || target.get(1..2) == Some(":") {
        return RefStatus::Outside;
    }
    let joined = platform::join(base, target);
    let normalized_base = platform::join(base, ".");
    let inside = joined == normalized_base
        || joined.starts_with(&format!("{}{}", normalized_base.trim_end_matches(platform::SEP), platform::SEP));
    if !inside {
        return RefStatus::Outside;
    }
    let Ok(meta) = std::fs::metadata(&joined) else { return RefStatus::Missing };
    if let (Ok(real), Ok(real_base)) = (dunce::canonicalize(&joined), dunce::canonicalize(base))
        && !real.starts_with(&real_base)
    {
        return RefStatus::EscapesViaSymlink(real.to_string_lossy().into_owned());
    }
    let kind = if meta.is_file() {
        "file"
    } else if meta.is_dir() {
        "directory"
    } else {
        "other"
    };
    let _ = Path::new(&joined);
    RefStatus::Exists(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_links_and_bare_paths() {
        let body = "Run `scripts/run.sh` first.\nSee [the guide](references/guide.md#top) and ![logo](assets/logo.png).\nIgnore [site](https://x.test/a) and [anchor](#here).\nAlso ../outside.md, and references/ alone.";
        let refs = find(body);
        let targets: Vec<&str> = refs.iter().map(|r| r.target.as_str()).collect();
        assert_eq!(targets, ["scripts/run.sh", "references/guide.md", "assets/logo.png", "../outside.md"]);
        assert_eq!(refs[1].line, 2);
        assert_eq!(refs[1].kind, RefKind::Link);
    }

    #[test]
    fn checks_containment_without_opening() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("bundle");
        std::fs::create_dir_all(base.join("references")).unwrap();
        std::fs::write(base.join("references/a.md"), "x").unwrap();
        let base = base.to_string_lossy().into_owned();
        assert_eq!(check(&base, "references/a.md"), RefStatus::Exists("file"));
        assert_eq!(check(&base, "references/b.md"), RefStatus::Missing);
        assert_eq!(check(&base, "../secret"), RefStatus::Outside);
        assert_eq!(check(&base, "/etc/passwd"), RefStatus::Outside);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", format!("{base}/etc-link")).unwrap();
            assert!(matches!(check(&base, "etc-link/passwd"), RefStatus::EscapesViaSymlink(_)));
        }
    }
}
