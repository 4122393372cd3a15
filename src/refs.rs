//! Relative references in a skill body (`references/…`, `scripts/…`, `assets/…`, Markdown
//! links) and whether each exists inside the bundle. The harness tells the model to resolve
//! them against the resource base; a reference that is missing or leaves the bundle is a bug
//! the author cannot see otherwise. Nothing here opens a file: existence is a `stat`, and a
//! reference that leaves the bundle is never touched at all.

use crate::platform;

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
    /// 1-based line within the body.
    pub line: usize,
}

/// Every relative reference in `body`, in order of appearance, without duplicates; found by
/// the same scanner `lint` uses.
pub fn find(body: &str) -> Vec<Reference> {
    let mut out: Vec<Reference> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let refs = crate::lint::bundle::scan(body);
    if refs.is_empty() {
        return out;
    }
    // Where each line starts, once, so that a reference's line is a binary search.
    let line_starts: Vec<usize> = memchr::memchr_iter(b'\n', body.as_bytes()).map(|i| i + 1).collect();
    for r in refs {
        let target = crate::lint::bundle::percent_decode(r.target.split(['#', '?']).next().unwrap_or(""));
        if target.is_empty() || !seen.insert(target.clone()) {
            continue;
        }
        let line = line_starts.partition_point(|&s| s <= r.start.min(body.len())) + 1;
        out.push(Reference { target, line });
    }
    out
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
        assert_eq!(check(&base, "../secret"), RefStatus::Outside);
        assert_eq!(check(&base, "/etc/passwd"), RefStatus::Outside);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", format!("{base}/etc-link")).unwrap();
            assert!(matches!(check(&base, "etc-link/passwd"), RefStatus::EscapesViaSymlink(_)));
        }
    }
}
