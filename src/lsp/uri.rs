//! `file:` URIs ↔ paths as the harness spells them (absolute, lexical).

use lsp_types::Uri;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use std::str::FromStr;

/// What stays unescaped in a path: RFC 3986 unreserved characters and the separators.
const PATH: &AsciiSet = &NON_ALPHANUMERIC.remove(b'/').remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// The path of a `file:` URI; `None` for other schemes, a remote host or a path that is not
/// UTF-8 once decoded.
pub fn to_path(uri: &Uri) -> Option<String> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://").or_else(|| s.strip_prefix("FILE://"))?;
    let (host, path) = rest.split_at(rest.find('/')?);
    if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let decoded = percent_decode_str(path).decode_utf8().ok()?.into_owned();
    if cfg!(windows) {
        // `/c:/dir/x` → `c:\dir\x`
        let p = decoded.strip_prefix('/').unwrap_or(&decoded);
        let p = p.replace('/', "\\");
        let mut chars = p.chars();
        return Some(match (chars.next(), chars.next()) {
            (Some(d), Some(':')) => format!("{}{}", d.to_ascii_uppercase(), &p[1..]),
            _ => p,
        });
    }
    Some(decoded)
}

/// The `file:` URI of an absolute path.
pub fn from_path(path: &str) -> Uri {
    let p = if cfg!(windows) { format!("/{}", path.replace('\\', "/")) } else { path.to_string() };
    let encoded: String =
        p.split('/').map(|seg| utf8_percent_encode(seg, PATH).to_string()).collect::<Vec<_>>().join("/");
    // Keep a Windows drive's colon readable (`/C:/x`), as editors write it.
    let encoded = if cfg!(windows) { encoded.replacen("%3A", ":", 1) } else { encoded };
    Uri::from_str(&format!("file://{encoded}")).unwrap_or_else(|_| Uri::from_str("file:///").expect("a valid URI"))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn round_trips_paths_with_spaces_and_unicode() {
        for p in ["/tmp/a b/SKILL.md", "/home/ü/skills/x%y.md", "/r/#/?.md"] {
            let uri = from_path(p);
            assert_eq!(to_path(&uri).as_deref(), Some(p), "{}", uri.as_str());
        }
        let uri = Uri::from_str("file:///tmp/a%20b/SKILL.md").unwrap();
        assert_eq!(to_path(&uri).as_deref(), Some("/tmp/a b/SKILL.md"));
        assert_eq!(to_path(&Uri::from_str("untitled:Untitled-1").unwrap()), None);
        assert_eq!(to_path(&Uri::from_str("file://server/share/x.md").unwrap()), None);
    }
}
