//! One skill file's text → a parsed skill, or the reason the harness drops it
//! (`parseSkillFile`, spec 4).
//!
//! Fence splitting is line-based and ignores YAML context (4.1); the YAML goes to
//! [`crate::engine::yaml`]; fields and the invocation policy follow 4.3 and 4.4 step by step, and the
//! first failing step decides the warning.

use crate::engine::js::{self, JsStr};
use crate::engine::yaml::{self, Object, Value};
use std::ops::Range;

/// Byte ranges of a frontmatter split (spec 4.1). Offsets index the decoded text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frontmatter {
    /// The YAML text: after the opening line's `\n`, up to the closing fence line.
    pub yaml: Range<usize>,
    /// The closing fence line, without its line terminator.
    pub closing: Range<usize>,
    /// Everything after the closing fence line's `\n` (empty at end of input).
    pub body: Range<usize>,
}

/// Why a text has no frontmatter (both are the harness's "missing YAML frontmatter").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoFrontmatter {
    /// No `\n` at all, or a first line other than exactly `---`.
    NoOpeningFence,
    /// An opening fence and no line that is exactly `---` after it.
    NoClosingFence,
}

fn strip_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

/// `parseFrontmatter`'s fence logic: the first line must be exactly `---` (one trailing `\r`
/// allowed); the first later line that is exactly `---` closes it.
pub fn split_frontmatter(raw: &str) -> Result<Frontmatter, NoFrontmatter> {
    let first_end = memchr::memchr(b'\n', raw.as_bytes()).ok_or(NoFrontmatter::NoOpeningFence)?;
    if strip_cr(&raw[..first_end]) != "---" {
        return Err(NoFrontmatter::NoOpeningFence);
    }
    let start = first_end + 1;
    let mut line_start = start;
    loop {
        let next_newline = memchr::memchr(b'\n', &raw.as_bytes()[line_start..]).map(|i| line_start + i);
        let line_end = next_newline.unwrap_or(raw.len());
        if strip_cr(&raw[line_start..line_end]) == "---" {
            let body_start = next_newline.map_or(raw.len(), |n| n + 1);
            return Ok(Frontmatter {
                yaml: start..line_start,
                closing: line_start..line_end,
                body: body_start..raw.len(),
            });
        }
        match next_newline {
            Some(n) => line_start = n + 1,
            None => return Err(NoFrontmatter::NoClosingFence),
        }
    }
}

/// `{modelInvocable, userInvocable}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Invocation {
    pub model_invocable: bool,
    pub user_invocable: bool,
}

impl Default for Invocation {
    fn default() -> Self {
        Invocation { model_invocable: true, user_invocable: true }
    }
}

/// A skill file that passed every check.
#[derive(Clone, Debug)]
pub struct ParsedSkill {
    pub name: String,
    /// As YAML gave it: a JavaScript string, which may hold lone surrogates (the catalog digest
    /// needs them); it reads as text with U+FFFD for them.
    pub description: JsStr,
    pub when_to_use: Option<String>,
    pub invocation: Invocation,
    /// Boxed: most skills have none, and a candidate is kept for each skill of a scan.
    pub metadata: Option<Box<Value>>,
    /// The trimmed body (`body.trim()` with JavaScript whitespace).
    pub content: String,
    /// A hash of the whole file, when the scan was asked for one ([`ScanOptions::digest`]): the
    /// watcher tells a save that changed nothing from one that changed the body.
    ///
    /// [`ScanOptions::digest`]: crate::engine::discover::ScanOptions::digest
    pub digest: Option<u64>,
    /// Where things are in the file, for diagnostics.
    pub frontmatter: Frontmatter,
}

/// The first failing step of spec 4.3, with what the harness logs for it.
#[derive(Clone, Debug)]
pub enum Rejection {
    /// (a) `YAML.parse` threw.
    InvalidYaml { error: Box<yaml::YamlError>, frontmatter: Frontmatter },
    /// (b) no fences, or the YAML value is not a plain object.
    Missing(MissingReason),
    /// (c) `name` or `description` is not a non-empty string.
    RequiresNameAndDescription { parsed: Box<Value>, frontmatter: Frontmatter, top_keys: Vec<yaml::KeySpan> },
    /// (d) `name` fails the skill-name pattern.
    InvalidName { name: String, frontmatter: Frontmatter, top_keys: Vec<yaml::KeySpan> },
    /// (e) a legacy key or a value that is not a boolean spelling.
    InvalidInvocation { error: String, key: String, frontmatter: Frontmatter, top_keys: Vec<yaml::KeySpan> },
}

#[derive(Clone, Debug, PartialEq)]
pub enum MissingReason {
    Fences(NoFrontmatter),
    /// The YAML parsed, but to something other than a mapping (null, a scalar, a list).
    NotAMapping {
        frontmatter: Frontmatter,
        shape: &'static str,
    },
}

impl Rejection {
    /// The exact line the harness logs for this rejection of the file at `path`.
    pub fn warning(&self, path: &str) -> String {
        format!("skill file {path} ignored: {}", self.reason())
    }

    /// What the warning says after `skill file <path> ignored: `.
    pub fn reason(&self) -> String {
        match self {
            Rejection::InvalidYaml { error, .. } => format!("invalid YAML frontmatter: {}", error.pretty),
            Rejection::Missing(_) => "missing YAML frontmatter".to_string(),
            Rejection::RequiresNameAndDescription { .. } => "frontmatter requires name and description".to_string(),
            Rejection::InvalidName { name, .. } => format!("invalid skill name \"{name}\""),
            Rejection::InvalidInvocation { error, .. } => format!("invalid invocation frontmatter: {error}"),
        }
    }
}

/// What JavaScript's `typeof` + `Array.isArray` make of a YAML value, for messages.
pub fn shape_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Undefined => "undefined",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
        Value::Date(_) => "a timestamp",
        Value::Buffer(_) => "binary data",
        Value::Map(_) => "an ordered map",
        Value::Set(_) => "a set",
        Value::Circular => "a self-reference",
        Value::Symbol(_) => "a merge-key symbol",
    }
}

/// `parseSkillFile` after the read: split, parse, validate.
pub fn parse_skill_text(raw: &str) -> Result<ParsedSkill, Rejection> {
    parse_skill_text_with(raw, true)
}

/// [`parse_skill_text`], keeping the trimmed body only when `keep_content` is set.
pub fn parse_skill_text_with(raw: &str, keep_content: bool) -> Result<ParsedSkill, Rejection> {
    parse_skill_text_keeping_yaml(raw, keep_content).0
}

/// [`parse_skill_text_with`], also handing back `yaml::parse` of the frontmatter (when it has
/// fences) for callers that check the file further (lint) and must not parse it twice.
#[allow(clippy::type_complexity)] // the two results, as each step returns them
pub fn parse_skill_text_keeping_yaml(
    raw: &str,
    keep_content: bool,
) -> (Result<ParsedSkill, Rejection>, Option<Result<yaml::Parsed, yaml::YamlError>>) {
    match split_frontmatter(raw) {
        Ok(fm) => {
            let parsed = yaml::parse(&raw[fm.yaml.clone()]);
            (validate_parsed(raw, fm, parsed.as_ref(), keep_content), Some(parsed))
        }
        Err(e) => (Err(Rejection::Missing(MissingReason::Fences(e))), None),
    }
}

/// Steps (a) to (e) of spec 4.3 on a frontmatter already split and parsed, for callers that
/// need the YAML result themselves (lint) and must not parse it twice.
pub fn validate_parsed(
    raw: &str,
    fm: Frontmatter,
    parsed: Result<&yaml::Parsed, &yaml::YamlError>,
    keep_content: bool,
) -> Result<ParsedSkill, Rejection> {
    let parsed =
        parsed.map_err(|error| Rejection::InvalidYaml { error: Box::new(error.clone()), frontmatter: fm.clone() })?;
    // The top-level keys go into a rejection only; a skill that loads does not copy them.
    let top_keys = || parsed.top_keys.clone();
    // `typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)` → missing.
    let empty = Object::default();
    let data: &Object = match &parsed.value {
        Value::Object(o) => o,
        // Dates, Buffers, Maps and Sets are objects without these own properties.
        Value::Date(_) | Value::Buffer(_) | Value::Map(_) | Value::Set(_) => &empty,
        other => {
            return Err(Rejection::Missing(MissingReason::NotAMapping { frontmatter: fm, shape: shape_of(other) }));
        }
    };
    let name = string_field(data, "name");
    let description = string_field(data, "description");
    let (Some(name), Some(description)) = (name, description) else {
        return Err(Rejection::RequiresNameAndDescription {
            parsed: Box::new(parsed.value.clone()),
            frontmatter: fm,
            top_keys: top_keys(),
        });
    };
    if !js::is_skill_name(name) {
        return Err(Rejection::InvalidName { name: name.to_string(), frontmatter: fm, top_keys: top_keys() });
    }
    let invocation = match invocation_policy(data) {
        Ok(inv) => inv,
        Err((error, key)) => {
            return Err(Rejection::InvalidInvocation { error, key, frontmatter: fm, top_keys: top_keys() });
        }
    };
    let metadata = match data.get("metadata") {
        Some(v @ (Value::Object(_) | Value::Date(_) | Value::Buffer(_) | Value::Map(_) | Value::Set(_))) => {
            Some(Box::new(v.clone()))
        }
        _ => None,
    };
    Ok(ParsedSkill {
        name: name.to_string(),
        description: description.clone(),
        when_to_use: string_field(data, "whenToUse").map(JsStr::to_string),
        invocation,
        metadata,
        content: if keep_content { js::trim(&raw[fm.body.clone()]).to_string() } else { String::new() },
        digest: None,
        frontmatter: fm,
    })
}

/// `typeof value === 'string' && value.length > 0`.
fn string_field<'a>(data: &'a Object, key: &str) -> Option<&'a JsStr> {
    match data.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Some(s),
        _ => None,
    }
}

/// The legacy keys in the order the harness checks them, with their replacements.
pub const LEGACY_KEYS: [(&str, &str); 3] = [
    ("disableModelInvocation", "disable-model-invocation"),
    ("modelInvocable", "disable-model-invocation"),
    ("userInvocable", "user-invocable"),
];

/// `parseInvocationPolicy`: the legacy keys first (presence alone rejects), then the two kebab
/// keys. On error, returns `String(error)` and the offending key.
pub fn invocation_policy(data: &Object) -> Result<Invocation, (String, String)> {
    for (legacy, canonical) in LEGACY_KEYS {
        if data.contains_key(legacy) {
            return Err((
                format!("Error: frontmatter field \"{legacy}\" is unsupported; use \"{canonical}\""),
                legacy.to_string(),
            ));
        }
    }
    let disable = frontmatter_boolean(data, "disable-model-invocation")?;
    let user = frontmatter_boolean(data, "user-invocable")?;
    Ok(Invocation { model_invocable: disable != Some(true), user_invocable: user != Some(false) })
}

/// `frontmatterBoolean`: the lenient boolean spellings of spec 4.4.
fn frontmatter_boolean(data: &Object, key: &str) -> Result<Option<bool>, (String, String)> {
    let Some(value) = data.get(key) else { return Ok(None) };
    boolean_spelling(value)
        .map(Some)
        .ok_or_else(|| (format!("TypeError: frontmatter field \"{key}\" must be a boolean"), key.to_string()))
}

/// The value a boolean spelling stands for, or `None` when the harness rejects it.
pub fn boolean_spelling(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) if *n == 1.0 => Some(true),
        Value::Number(n) if *n == 0.0 => Some(false),
        Value::String(s) if s == "1" => Some(true),
        Value::String(s) if s == "0" => Some(false),
        // JavaScript's toLowerCase maps no non-ASCII character onto these ASCII words.
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" => Some(true),
            "false" | "no" | "off" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(raw: &str) -> Option<(String, String)> {
        split_frontmatter(raw).ok().map(|f| (raw[f.yaml].to_string(), raw[f.body].to_string()))
    }

    #[test]
    fn fences() {
        assert_eq!(split("---\na: 1\n---\nbody\n"), Some(("a: 1\n".into(), "body\n".into())));
        assert_eq!(split("---\r\na: 1\r\n---\r\nbody"), Some(("a: 1\r\n".into(), "body".into())));
        assert_eq!(split("---\na: 1\n---"), Some(("a: 1\n".into(), "".into())));
        assert_eq!(split("---\na: 1\n---\r"), Some(("a: 1\n".into(), "".into())));
        assert_eq!(split("---\n---\n"), Some(("".into(), "".into())));
        assert_eq!(split("---"), None);
        assert_eq!(split("---\ra: 1\r---\r"), None);
        assert_eq!(split("--- \na\n---\n"), None);
        assert_eq!(split("----\na\n---\n"), None);
        assert_eq!(split("\n---\na\n---\n"), None);
        assert_eq!(split("---\na: 1\n"), None);
        assert_eq!(split("---\na\n--- \n...\n----\n"), None);
        // `\r\r\n`: only one `\r` is dropped, so the line is `---\r`, not a fence.
        assert_eq!(split("---\na\n---\r\r\nb"), None);
        assert_eq!(split("---\r\r\na\n---\n"), None);
        // The first bare fence wins, even inside a block scalar; indented ones do not count.
        assert_eq!(split("---\nd: |\n  ---\n---\nx\n---\ny"), Some(("d: |\n  ---\n".into(), "x\n---\ny".into())));
    }

    fn obj(pairs: &[(&str, Value)]) -> Object {
        let text: String = pairs
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}: \"{s}\"\n"),
                Value::Number(n) => format!("{k}: {n}\n"),
                Value::Bool(b) => format!("{k}: {b}\n"),
                Value::Null => format!("{k}: null\n"),
                _ => unreachable!(),
            })
            .collect();
        match yaml::parse(&text).unwrap().value {
            Value::Object(o) => o,
            _ => unreachable!(),
        }
    }

    #[test]
    fn invocation_truth_table() {
        let t = |v: Value| boolean_spelling(&v);
        for yes in [Value::Bool(true), Value::Number(1.0), Value::String("1".into())] {
            assert_eq!(t(yes), Some(true));
        }
        for s in ["true", "TRUE", "yes", "On", "tRuE"] {
            assert_eq!(t(Value::String(s.into())), Some(true), "{s}");
        }
        for s in ["false", "No", "OFF"] {
            assert_eq!(t(Value::String(s.into())), Some(false), "{s}");
        }
        assert_eq!(t(Value::Number(-0.0)), Some(false));
        for bad in [
            Value::Null,
            Value::Number(2.0),
            Value::Number(-1.0),
            Value::Number(f64::NAN),
            Value::Number(1e21),
            Value::String("y".into()),
            Value::String(" true".into()),
            Value::String("01".into()),
            Value::Array(vec![]),
        ] {
            assert_eq!(t(bad.clone()), None, "{bad:?}");
        }
        let policy = invocation_policy(&obj(&[("disable-model-invocation", Value::String("yes".into()))])).unwrap();
        assert_eq!(policy, Invocation { model_invocable: false, user_invocable: true });
        let err = invocation_policy(&obj(&[
            ("user-invocable", Value::String("maybe".into())),
            ("modelInvocable", Value::Bool(true)),
        ]))
        .unwrap_err();
        assert_eq!(
            err.0,
            "Error: frontmatter field \"modelInvocable\" is unsupported; use \"disable-model-invocation\""
        );
        let err = invocation_policy(&obj(&[("user-invocable", Value::Null)])).unwrap_err();
        assert_eq!(err.0, "TypeError: frontmatter field \"user-invocable\" must be a boolean");
    }

    #[test]
    fn fields() {
        let ok = parse_skill_text("---\nname: a-b\ndescription: '   '\nwhenToUse: ''\n---\n\u{feff} body \u{3000}\n")
            .unwrap();
        assert_eq!(ok.description, "   ");
        assert_eq!(ok.when_to_use, None);
        assert_eq!(ok.content, "body");
        let w = parse_skill_text("---\nname: Bad_Name\ndescription: d\n---\n").unwrap_err();
        assert_eq!(w.warning("/p"), "skill file /p ignored: invalid skill name \"Bad_Name\"");
        let w = parse_skill_text("---\nname: 12\ndescription: d\n---\n").unwrap_err();
        assert_eq!(w.warning("/p"), "skill file /p ignored: frontmatter requires name and description");
        let w = parse_skill_text("---\n[]\n---\n").unwrap_err();
        assert_eq!(w.warning("/p"), "skill file /p ignored: missing YAML frontmatter");
        let w = parse_skill_text("---\n---\n").unwrap_err();
        assert_eq!(w.warning("/p"), "skill file /p ignored: missing YAML frontmatter");
    }
}
