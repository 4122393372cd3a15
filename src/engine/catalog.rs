//! Model-facing text: the skill catalog message (spec 6) and the `<skill_content>` block the
//! `skill` tool returns (spec 7.1).

use crate::engine::js::{self, JsStr, JsString};
use sha2::{Digest, Sha256};

/// The default and minimum of `catalogDescriptionMaxLength`.
pub const DEFAULT_DESCRIPTION_MAX_LENGTH: usize = 500;
pub const MIN_DESCRIPTION_MAX_LENGTH: usize = 3;

/// One catalog entry: the name and the normalized, truncated, *unescaped* description, kept as
/// UTF-16 because a cut may leave a lone surrogate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogEntry {
    pub name: String,
    pub description: JsString,
    /// Length in UTF-16 units of the normalized description before any cut.
    pub normalized_len: usize,
}

impl CatalogEntry {
    /// `catalogDescription(raw, max)`.
    pub fn new(name: &str, raw_description: &str, max: usize) -> CatalogEntry {
        let normalized = js::collapse_whitespace(raw_description);
        let normalized_len = normalized.encode_utf16().count();
        CatalogEntry { name: name.to_string(), description: js::truncate_utf16(&normalized, max), normalized_len }
    }

    /// [`Self::new`] for a description as YAML gave it, which may hold lone surrogates (from
    /// `"\ud800"` escapes): they stay in the entry's code units, so the digest is the harness's.
    pub fn from_js(name: &str, raw_description: &JsStr, max: usize) -> CatalogEntry {
        if !raw_description.has_lone_surrogate() {
            return Self::new(name, raw_description, max);
        }
        let normalized = raw_description.map_whitespace(js::collapse_whitespace).to_utf16();
        let normalized_len = normalized.len();
        CatalogEntry { name: name.to_string(), description: js::truncate_units(normalized, max), normalized_len }
    }

    pub fn is_cut(&self) -> bool {
        self.description.len() != self.normalized_len
    }

    /// The line the model sees: ``- `name`: <escaped description>``.
    pub fn line(&self) -> String {
        format!("- `{}`: {}", self.name, js::escape_text(&self.description.to_string_lossy()))
    }
}

/// Which of the harness's catalog messages to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The first publication in a session (`renderCatalogMessage`).
    Initial,
    /// A later change (`renderCatalogUpdate`); with no entries, the empty tombstone.
    Replacement,
}

const INITIAL_HEAD: &str =
    "A skill is a reusable set of task-specific instructions. The following skills are available in this session:";
const INITIAL_TAIL: [&str; 2] = [
    "If the user names a skill, or the task clearly matches a skill's description, call the `skill` tool with the exact skill name before taking task actions. Load all applicable skills, then follow their full instructions. This catalog contains summaries only; do not infer or follow a skill's instructions until it has been loaded.",
    "A user may also invoke a skill directly; its <skill_content> block then appears in this conversation. Follow it, and do not call the `skill` tool again for that skill.",
];
const UPDATE_HEAD: &str = "The available skill catalog changed. This complete catalog replaces every earlier available-skills list in this session:";
const UPDATE_TAIL: [&str; 2] = [
    "Use only names in this replacement catalog. If the user names a listed skill, or the task clearly matches its description, call the `skill` tool with the exact name before acting.",
    INITIAL_TAIL[1],
];
const EMPTY_TAIL: [&str; 2] = [
    "No skills are currently available through the `skill` tool. Do not use names from earlier skill catalogs.",
    "A user may still invoke a skill directly; its <skill_content> block then appears in this conversation. Follow it, and do not call the `skill` tool for it.",
];

/// The message text, lines joined with `\n`, no trailing newline.
pub fn render(entries: &[CatalogEntry], variant: Variant) -> String {
    render_lines(&entries.iter().map(CatalogEntry::line).collect::<Vec<_>>(), variant)
}

/// [`render`] from the entries' lines ([`CatalogEntry::line`]), for a caller that keeps them.
pub fn render_lines(entry_lines: &[String], variant: Variant) -> String {
    let (head, tail) = match variant {
        Variant::Initial => (INITIAL_HEAD, &INITIAL_TAIL),
        Variant::Replacement if entry_lines.is_empty() => (UPDATE_HEAD, &EMPTY_TAIL),
        Variant::Replacement => (UPDATE_HEAD, &UPDATE_TAIL),
    };
    let mut lines: Vec<&str> = vec!["<system-reminder>", head, "", "<available_skills>"];
    lines.extend(entry_lines.iter().map(String::as_str));
    lines.extend(["</available_skills>", ""]);
    lines.extend(tail.iter().copied());
    lines.push("</system-reminder>");
    lines.join("\n")
}

/// `digestCatalogEntries`: SHA-256 hex over `JSON.stringify([name, description])` per entry,
/// joined by `\n` (lone surrogates written as `\udxxx`, as JavaScript does).
pub fn digest(entries: &[CatalogEntry]) -> String {
    let mut canonical = String::new();
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            canonical.push('\n');
        }
        canonical.push('[');
        js::json_stringify_utf16(&JsString::encode(&e.name), &mut canonical);
        canonical.push(',');
        js::json_stringify_utf16(&e.description, &mut canonical);
        canonical.push(']');
    }
    hex(&Sha256::digest(canonical.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A skill's resource base (`resourceBase`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceBase {
    Directory(String),
    Url(String),
    Opaque(String),
}

/// `renderSkillContent`: what the `skill` tool returns and a `/name` gesture injects.
pub fn render_skill_content(name: &str, provider: &str, base: Option<&ResourceBase>, content: &str) -> String {
    let (hint, how) = match base {
        Some(ResourceBase::Directory(p)) => (
            format!("Base directory for this skill: {}", js::escape_text(p)),
            "Resolve relative paths mentioned by this skill against the base directory before using them. Load referenced resources only as needed.",
        ),
        Some(ResourceBase::Url(u)) => (
            format!("Base URL for this skill: {}", js::escape_text(u)),
            "Resolve relative URLs mentioned by this skill against the base URL before using them. Load referenced resources only as needed.",
        ),
        Some(ResourceBase::Opaque(d)) => {
            (format!("Resources for this skill: {}", js::escape_text(d)), "Load referenced resources only as needed.")
        }
        None => (
            format!("Resources for this skill are managed by provider \"{}\".", js::escape_text(provider)),
            "Load referenced resources only as needed.",
        ),
    };
    [
        format!("<skill_content name=\"{}\">", js::escape_attr(name)),
        "<skill_resources>".into(),
        hint,
        how.into(),
        "</skill_resources>".into(),
        String::new(),
        "<skill_instructions>".into(),
        content.into(),
        "</skill_instructions>".into(),
        "</skill_content>".into(),
    ]
    .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_catalog_from_test_l208() {
        let entries = vec![
            CatalogEntry::new("a-skill", "Use {{placeholder}} <safely> & carefully.", 50),
            CatalogEntry::new("model-only-skill", "Model-only skill.", 50),
            CatalogEntry::new("z-skill", &"Long   description ".repeat(5), 50),
        ];
        let text = render(&entries, Variant::Initial);
        assert!(text.starts_with("<system-reminder>\nA skill is a reusable"));
        assert!(text.contains("\n- `a-skill`: Use {{placeholder}} &lt;safely&gt; &amp; carefully.\n"));
        assert!(
            text.contains("\n- `z-skill`: Long description Long description Long descript...\n</available_skills>\n\n")
        );
        assert!(text.ends_with("again for that skill.\n</system-reminder>"));
        assert!(entries[2].is_cut() && !entries[0].is_cut());
    }

    #[test]
    fn empty_replacement() {
        let text = render(&[], Variant::Replacement);
        assert!(text.contains("<available_skills>\n</available_skills>\n\nNo skills are currently available"));
        assert!(text.contains("A user may still invoke a skill directly"));
        assert!(text.contains("do not call the `skill` tool for it.\n</system-reminder>"));
    }

    #[test]
    fn digest_of_a_description_with_lone_surrogates_is_the_harness_s() {
        // `"a \ud800  b\udc00"` from YAML: the harness hashes `["n","a \ud800 b\udc00"]`
        let mut units: Vec<u16> = "a ".encode_utf16().collect();
        units.push(0xD800);
        units.extend("  b".encode_utf16());
        units.push(0xDC00);
        let e = CatalogEntry::from_js("n", &JsStr::from_utf16(&units), 500);
        assert_eq!(e.line(), "- `n`: a \u{FFFD} b\u{FFFD}");
        let expected = hex(&Sha256::digest(b"[\"n\",\"a \\ud800 b\\udc00\"]"));
        assert_eq!(digest(&[e]), expected);
    }

    #[test]
    fn digest_uses_javascript_json() {
        // sha256 of `["a","b"]`
        let e = vec![CatalogEntry::new("a", "b", 500)];
        let expected = hex(&Sha256::digest(b"[\"a\",\"b\"]"));
        assert_eq!(digest(&e), expected);
        let cut = vec![CatalogEntry::new("x", "😀😀😀😀😀😀", 10)];
        let expected = hex(&Sha256::digest("[\"x\",\"😀😀😀\\ud83d...\"]".as_bytes()));
        assert_eq!(digest(&cut), expected);
    }

    #[test]
    fn skill_content_block() {
        let text = render_skill_content(
            "demo-skill",
            "memory",
            Some(&ResourceBase::Directory("/tmp/demo".into())),
            "Do the thing.",
        );
        assert_eq!(
            text,
            "<skill_content name=\"demo-skill\">\n<skill_resources>\nBase directory for this skill: /tmp/demo\nResolve relative paths mentioned by this skill against the base directory before using them. Load referenced resources only as needed.\n</skill_resources>\n\n<skill_instructions>\nDo the thing.\n</skill_instructions>\n</skill_content>"
        );
        let text = render_skill_content("x\"&<y", "remote <hub>", None, "Keep </skill_content> as-is.");
        assert!(text.starts_with("<skill_content name=\"x&quot;&amp;&lt;y\">"));
        assert!(text.contains("managed by provider \"remote &lt;hub&gt;\"."));
        assert!(text.contains("Keep </skill_content> as-is."));
        let text = render_skill_content("o", "p", Some(&ResourceBase::Opaque("archive <bundle>".into())), "");
        assert!(text.contains("Resources for this skill: archive &lt;bundle&gt;\nLoad referenced"));
        assert!(text.contains("<skill_instructions>\n\n</skill_instructions>"));
    }
}
