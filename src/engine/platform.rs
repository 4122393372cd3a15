//! Everything that differs by platform, in one place: Node's lexical `path` functions, the home
//! directory as `os.homedir()` finds it, and the harness's `~` expansion for `dshHome`.
//!
//! The harness never canonicalizes a path it shows: `path.resolve`, `path.join` and
//! `path.dirname` fold `.` and `..` and collapse separators without touching the disk. So do
//! these functions. On POSIX they are exact ports of Node's `path.posix`; on Windows they follow
//! `path.win32` for the common shapes (drive-absolute and UNC paths).

use std::ffi::OsString;

/// Hand the allocator's free pages back to the system. glibc keeps what a thread frees in that
/// thread's arena, between blocks still in use; after a parallel scan that is the read buffers
/// and YAML trees of every file, which would otherwise stay resident beside what is built next.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only returns free memory to the system; it is thread-safe.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Let each allocator arena grow in steps of 16 MiB of address space instead of a few pages at
/// a time. glibc makes every step of a thread's arena a `mprotect` call that holds the
/// process's memory map locked, so threads that allocate at once (the two sides of a diff, each
/// with its discovery workers) wait on each other in the kernel and on the arena's lock: about
/// 5,000 such calls and 2,700 futex waits on a 1,000-skill diff, 29 and 94 after. Only address
/// space is reserved: a page is resident once written, as before.
pub fn grow_heaps_in_large_steps() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` sets a tunable of the allocator; glibc takes the lock it needs.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 16 << 20);
    }
}

/// The process working directory, as `process.cwd()` reports it.
pub fn process_cwd() -> String {
    std::env::current_dir().map(|p| p.to_string_lossy().into_owned()).unwrap_or_else(|_| "/".to_string())
}

/// `os.homedir()`: `$HOME` when set (even to the empty string), else the account's home.
/// On Windows, `USERPROFILE` first.
pub fn home_dir_from(env: &dyn Fn(&str) -> Option<OsString>) -> String {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    if let Some(home) = env(var) {
        return home.to_string_lossy().into_owned();
    }
    #[allow(deprecated)] // only consulted when the variable is unset, where it is correct
    std::env::home_dir().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default()
}

/// `expandHomePath` from `@deepseek-ai/dsh-home-paths`: exactly `~`, or a `~/` or `~\` prefix on
/// every platform. `~user` and `" ~"` stay as they are.
pub fn expand_home(value: &str, home: &str) -> String {
    if value == "~" {
        return home.to_string();
    }
    if let Some(rest) = value.strip_prefix("~/").or_else(|| value.strip_prefix("~\\")) {
        return join(home, rest);
    }
    value.to_string()
}

/// `path.resolve(base, p)` where `base` is already absolute (the process cwd).
pub fn resolve(base: &str, p: &str) -> String {
    if cfg!(windows) { win32::resolve(base, p) } else { posix::resolve(base, p) }
}

/// `path.join(a, b)`.
pub fn join(a: &str, b: &str) -> String {
    if cfg!(windows) { win32::join(a, b) } else { posix::join(a, b) }
}

/// `path.dirname(p)`.
/// Whether `path` is `base` or lies inside it (lexically).
pub fn inside(path: &str, base: &str) -> bool {
    path == base || path.strip_prefix(base).is_some_and(|rest| rest.starts_with(SEP))
}

pub fn dirname(p: &str) -> String {
    if cfg!(windows) { win32::dirname(p) } else { posix::dirname(p) }
}

/// The separator Node puts between path segments.
pub const SEP: char = if cfg!(windows) { '\\' } else { '/' };

/// Node's `path.posix`, ported function by function.
pub mod posix {
    /// `normalizeString` from Node's `lib/path.js`.
    fn normalize_string(path: &str, allow_above_root: bool) -> String {
        let mut segments: Vec<&str> = Vec::new();
        for seg in path.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    if matches!(segments.last(), Some(&last) if last != "..") {
                        segments.pop();
                    } else if allow_above_root {
                        segments.push("..");
                    }
                }
                s => segments.push(s),
            }
        }
        segments.join("/")
    }

    pub fn resolve(base: &str, p: &str) -> String {
        let (joined, absolute) = if p.starts_with('/') {
            (p.to_string(), true)
        } else if p.is_empty() {
            (base.to_string(), base.starts_with('/'))
        } else {
            (format!("{base}/{p}"), base.starts_with('/'))
        };
        let normalized = normalize_string(&joined, !absolute);
        if absolute {
            format!("/{normalized}")
        } else if normalized.is_empty() {
            ".".to_string()
        } else {
            normalized
        }
    }

    pub fn normalize(path: &str) -> String {
        if path.is_empty() {
            return ".".to_string();
        }
        let absolute = path.starts_with('/');
        let trailing = path.ends_with('/');
        let mut out = normalize_string(path, !absolute);
        if out.is_empty() {
            if absolute {
                return "/".to_string();
            }
            return if trailing { "./" } else { "." }.to_string();
        }
        if trailing {
            out.push('/');
        }
        if absolute { format!("/{out}") } else { out }
    }

    pub fn join(a: &str, b: &str) -> String {
        let joined = match (a.is_empty(), b.is_empty()) {
            (true, true) => return ".".to_string(),
            (true, false) => b.to_string(),
            (false, true) => a.to_string(),
            (false, false) => {
                let mut joined = String::with_capacity(a.len() + 1 + b.len());
                joined.push_str(a);
                joined.push('/');
                joined.push_str(b);
                joined
            }
        };
        // Most joins put a plain name under a normal path: nothing to normalize.
        if is_normal(&joined) {
            return joined;
        }
        normalize(&joined)
    }

    /// `//`, searched for with a finder built once (not once per join).
    static DOUBLE_SLASH: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"//"));

    /// Whether [`normalize`] leaves `path` as it is: no empty, `.` or `..` segment, apart from
    /// the empty ones a leading or a trailing `/` makes.
    fn is_normal(path: &str) -> bool {
        let inner = path.strip_prefix('/').unwrap_or(path);
        let b = inner.strip_suffix('/').unwrap_or(inner).as_bytes();
        // No empty segment (`//`, or a slash left at either end), and no `.` or `..` segment: a
        // dot that starts a segment and ends it, alone or with a second dot.
        let segment_end = |i: usize| i == b.len() || b[i] == b'/';
        !b.is_empty()
            && b[0] != b'/'
            && b[b.len() - 1] != b'/'
            && DOUBLE_SLASH.find(b).is_none()
            && memchr::memchr_iter(b'.', b).all(|i| {
                let starts = i == 0 || b[i - 1] == b'/';
                !(starts && (segment_end(i + 1) || b.get(i + 1) == Some(&b'.') && segment_end(i + 2)))
            })
    }

    pub fn dirname(path: &str) -> String {
        if path.is_empty() {
            return ".".to_string();
        }
        let bytes = path.as_bytes();
        let has_root = bytes[0] == b'/';
        let mut end = None;
        let mut matched_slash = true;
        for i in (1..bytes.len()).rev() {
            if bytes[i] == b'/' {
                if !matched_slash {
                    end = Some(i);
                    break;
                }
            } else {
                matched_slash = false;
            }
        }
        match end {
            None => if has_root { "/" } else { "." }.to_string(),
            Some(1) if has_root => "//".to_string(),
            Some(end) => path[..end].to_string(),
        }
    }
}

/// A reduced `path.win32`: drive-absolute (`C:\x`) and UNC (`\\server\share\x`) paths, both
/// separators accepted, output with backslashes.
pub mod win32 {
    fn split_root(p: &str) -> (String, &str) {
        let b = p.as_bytes();
        let is_sep = |c: u8| c == b'/' || c == b'\\';
        if b.len() >= 2 && is_sep(b[0]) && is_sep(b[1]) {
            // UNC: \\server\share
            let rest = &p[2..];
            let mut parts = rest.splitn(3, ['/', '\\']);
            let server = parts.next().unwrap_or("");
            let share = parts.next().unwrap_or("");
            let tail = parts.next().unwrap_or("");
            return (format!("\\\\{server}\\{share}\\"), tail);
        }
        if b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic() {
            let drive = p[..2].to_ascii_uppercase();
            let rest = &p[2..];
            if rest.starts_with(['/', '\\']) {
                return (format!("{drive}\\"), &rest[1..]);
            }
            return (drive, rest);
        }
        if p.starts_with(['/', '\\']) {
            return ("\\".to_string(), &p[1..]);
        }
        (String::new(), p)
    }

    fn normalize_tail(tail: &str) -> String {
        let mut segs: Vec<&str> = Vec::new();
        for s in tail.split(['/', '\\']) {
            match s {
                "" | "." => {}
                ".." => {
                    segs.pop();
                }
                s => segs.push(s),
            }
        }
        segs.join("\\")
    }

    /// Absolute with a drive or UNC root (a bare `\\x` still needs the base's drive).
    fn is_absolute(p: &str) -> bool {
        let (root, _) = split_root(p);
        root.len() > 1 && root.ends_with('\\')
    }

    pub fn resolve(base: &str, p: &str) -> String {
        let full = if is_absolute(p) {
            p.to_string()
        } else if p.is_empty() {
            base.to_string()
        } else {
            let (root, tail) = split_root(p);
            if root == "\\" {
                // rooted without a drive: take the base's drive
                let (base_root, _) = split_root(base);
                format!("{}{}", base_root.trim_end_matches('\\'), format_args!("\\{tail}"))
            } else {
                format!("{base}\\{p}")
            }
        };
        let (root, tail) = split_root(&full);
        let tail = normalize_tail(tail);
        let out = format!("{root}{tail}");
        if out.len() > root.len() || root.is_empty() { out } else { root }
    }

    pub fn join(a: &str, b: &str) -> String {
        let joined = match (a.is_empty(), b.is_empty()) {
            (true, true) => return ".".to_string(),
            (true, false) => b.to_string(),
            (false, true) => a.to_string(),
            (false, false) => format!("{a}\\{b}"),
        };
        let (root, tail) = split_root(&joined);
        let trailing = joined.ends_with(['/', '\\']);
        let mut out = format!("{root}{}", normalize_tail(tail));
        if trailing && !out.ends_with('\\') {
            out.push('\\');
        }
        if out.is_empty() { ".".to_string() } else { out }
    }

    pub fn dirname(p: &str) -> String {
        let (root, tail) = split_root(p);
        let tail = tail.trim_end_matches(['/', '\\']);
        match tail.rfind(['/', '\\']) {
            Some(i) => format!("{root}{}", &tail[..i]),
            None if !root.is_empty() => root,
            None => ".".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::posix;

    #[test]
    fn posix_resolve_is_lexical() {
        assert_eq!(posix::resolve("/p", ""), "/p");
        assert_eq!(posix::resolve("/p", "."), "/p");
        assert_eq!(posix::resolve("/p/q", "../x//y/"), "/p/x/y");
        assert_eq!(posix::resolve("/p", "/a/./b/../c"), "/a/c");
        assert_eq!(posix::resolve("/", "../../.."), "/");
        assert_eq!(posix::resolve("/p", "~/x"), "/p/~/x");
        assert_eq!(posix::resolve("/p", "//a//b//"), "/a/b");
    }

    #[test]
    fn posix_join_and_dirname() {
        assert_eq!(posix::join("/a", ".dsh/skills"), "/a/.dsh/skills");
        assert_eq!(posix::join("/", ".git"), "/.git");
        assert_eq!(posix::join("", ".dsh"), ".dsh");
        assert_eq!(posix::join("/a/b", "../c"), "/a/c");
        assert_eq!(posix::join("/a", "b/"), "/a/b/");
        assert_eq!(posix::dirname("/a/b"), "/a");
        assert_eq!(posix::dirname("/a"), "/");
        assert_eq!(posix::dirname("/"), "/");
        assert_eq!(posix::dirname("a"), ".");
        assert_eq!(posix::dirname("/a/b/"), "/a");
    }

    #[test]
    fn posix_join_fast_path_is_normalize() {
        // Every join of these pieces is what `normalize` makes of the joined text, whether or
        // not it takes the shortcut for paths that are already normal.
        let parts = [
            "", "/", "//", ".", "..", "a", "/a", "a/", "/a/", "a//b", "a/./b", "a/../b", "./a", "../a", ".a", "a.",
            "..a", "/a/b/.", "/a/b/..", "~", "...", "a/...", "a/.b", "a/..b", "a./b", "a../b", ".../a", "/.", "/..",
        ];
        for a in parts {
            for b in parts {
                let joined = match (a.is_empty(), b.is_empty()) {
                    (true, true) => ".".to_string(),
                    (true, false) => posix::normalize(b),
                    (false, true) => posix::normalize(a),
                    (false, false) => posix::normalize(&format!("{a}/{b}")),
                };
                assert_eq!(posix::join(a, b), joined, "join({a:?}, {b:?})");
            }
        }
    }

    #[test]
    fn home_expansion() {
        use super::expand_home;
        let home = "/h";
        assert_eq!(expand_home("~", home), "/h");
        assert_eq!(expand_home("~/x", home), if cfg!(windows) { "\\h\\x" } else { "/h/x" });
        assert_eq!(expand_home("~\\x", home), if cfg!(windows) { "\\h\\x" } else { "/h/x" });
        assert_eq!(expand_home("~user/x", home), "~user/x");
        assert_eq!(expand_home(" ~", home), " ~");
        // An empty home makes the expansion relative, as in Node.
        assert_eq!(expand_home("~/.dsh", ""), ".dsh");
    }

    #[test]
    fn win32_shapes() {
        use super::win32;
        assert_eq!(win32::resolve("C:\\work", "skills"), "C:\\work\\skills");
        assert_eq!(win32::resolve("C:\\work", "d:/x/../y"), "D:\\y");
        assert_eq!(win32::resolve("C:\\work", "\\top"), "C:\\top");
        assert_eq!(win32::join("C:\\a", ".dsh/skills"), "C:\\a\\.dsh\\skills");
        assert_eq!(win32::dirname("C:\\a\\b"), "C:\\a");
        assert_eq!(win32::dirname("C:\\a"), "C:\\");
        assert_eq!(win32::resolve("C:\\w", "\\\\srv\\share\\x\\..\\y"), "\\\\srv\\share\\y");
    }
}
