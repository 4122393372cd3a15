//! Relative references in a skill body (`references/…`, `scripts/…`, `assets/…`, Markdown
//! links) and whether each exists inside the bundle. The harness tells the model to resolve
//! them against the resource base; a reference that is missing or leaves the bundle is a bug
//! the author cannot see otherwise. Nothing here opens a file: existence is a `stat`, and a
//! reference that leaves the bundle is never touched at all.

use crate::engine::platform;

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
    /// The target as a file name (`#fragment` and `?query` removed, `%xx` decoded).
    pub target: String,
    /// 1-based line: within the skill file for [`find_in_file`], within the body for [`find`].
    pub line: usize,
    /// How strongly the body points at it (a link, an instruction, a mention).
    pub evidence: crate::analysis::refscan::Evidence,
}

/// Every relative reference in `body`, in order of appearance, each target once at its
/// strongest evidence; found by the same scanner `lint` uses.
pub fn find(body: &str) -> Vec<Reference> {
    find_from(body, 1)
}

/// A candidate's references, each with where it lands: with the file's own line numbers (as
/// `lint` reports them) when the file reads, else those of the trimmed body it loaded with.
pub fn of_candidate(c: &crate::engine::discover::Candidate) -> Vec<(Reference, RefStatus)> {
    let found = c
        .path
        .as_deref()
        .and_then(|p| crate::engine::textread::read_text_beside(p, crate::engine::textread::NODE_MAX_FILE))
        .and_then(|t| find_in_file(&t))
        .unwrap_or_else(|| find(&c.skill.content));
    found
        .into_iter()
        .map(|r| {
            let status = check(&c.resource_base, &r.target);
            (r, status)
        })
        .collect()
}

/// The references of a skill file's body with the file's own line numbers (as `lint` reports
/// them), or `None` when the file has no frontmatter.
pub fn find_in_file(text: &str) -> Option<Vec<Reference>> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let fm = crate::engine::skillfile::split_frontmatter(text).ok()?;
    let first = text[..fm.body.start].matches('\n').count() + 1;
    Some(find_from(&text[fm.body.clone()], first))
}

fn find_from(body: &str, first_line: usize) -> Vec<Reference> {
    let found = crate::analysis::refscan::strongest(crate::analysis::refscan::scan(body).refs);
    if found.is_empty() {
        return Vec::new();
    }
    // Where each line starts, once, so that a reference's line is a binary search.
    let line_starts: Vec<usize> = memchr::memchr_iter(b'\n', body.as_bytes()).map(|i| i + 1).collect();
    let mut refs: Vec<(usize, Reference)> = found
        .into_iter()
        .map(|(target, r)| {
            let line = line_starts.partition_point(|&s| s <= r.start.min(body.len())) + first_line;
            (r.start, Reference { target, line, evidence: r.evidence })
        })
        .collect();
    refs.sort_by_key(|(start, _)| *start);
    refs.into_iter().map(|(_, r)| r).collect()
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
        // A relative path out of the bundle is looked up (a `stat`, as lint does), never opened.
        return if std::fs::symlink_metadata(&joined).is_ok() { RefStatus::Outside } else { RefStatus::Missing };
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
        assert!(targets.contains(&"scripts/run.sh") && targets.contains(&"references/guide.md"), "{targets:?}");
        assert!(targets.contains(&"assets/logo.png"), "{targets:?}");
        assert!(!targets.iter().any(|t| t.contains("://") || t.starts_with('#')), "{targets:?}");
        let guide = refs.iter().find(|r| r.target == "references/guide.md").unwrap();
        assert_eq!(guide.line, 2);
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
        assert_eq!(check(&base, "../secret"), RefStatus::Missing);
        std::fs::write(dir.path().join("outside.md"), "x").unwrap();
        assert_eq!(check(&base, "../outside.md"), RefStatus::Outside);
        assert_eq!(check(&base, "/etc/passwd"), RefStatus::Outside);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", format!("{base}/etc-link")).unwrap();
            assert!(matches!(check(&base, "etc-link/passwd"), RefStatus::EscapesViaSymlink(_)));
        }
    }
}
