//! Codex's per-skill metadata, `<skill>/agents/openai.yaml`: what Codex reads of it, and where
//! it disagrees with the skill's own frontmatter.
//!
//! The harness does not read this file. Authors who ship a skill to Codex as well keep it next
//! to `SKILL.md`, and Codex reads it as follows (Codex's skill loader, `codex-rs`
//! `core-skills/src/loader.rs` and its `openai_yaml.md` reference):
//!
//! - the file is optional and read *fail open*: a YAML error, or a value of the wrong type
//!   anywhere in the fields below, makes Codex log `ignoring …: invalid openai.yaml` and ignore
//!   the whole file, so the skill falls back to implicit invocation and shows no UI metadata;
//! - fields: `interface` (`display_name`, `short_description`, `icon_small`, `icon_large`,
//!   `brand_color`, `default_prompt`), `dependencies.tools[]` (`type`, `value`, `description`,
//!   `transport`, `command`, `url`), `policy` (`allow_implicit_invocation`, `products`); other
//!   keys are ignored without a word;
//! - types (serde_yaml 0.9): a string field takes any scalar (`1.0` is the text `1.0`) but not a
//!   list or a mapping; `allow_implicit_invocation` takes only a plain `true`/`false`
//!   (`True`, `TRUE`, …): `"false"`, `no` or `0` are type errors; a section (`interface`,
//!   `policy`, `dependencies`, a tool) must be a mapping or empty;
//! - a field that fails its own check is dropped with a warning and the rest kept: an empty
//!   string (after whitespace is collapsed), `display_name` over 64 characters,
//!   `short_description` or `default_prompt` over 1,024, a `brand_color` that is not `#RRGGBB`,
//!   an icon that is not a relative path under the skill's `assets/` (a `..` path is allowed
//!   only for a plugin's shared `assets/`), a tool without `type` or `value`.
//!
//! `policy.allow_implicit_invocation: false` is Codex's "manual only", the counterpart of the
//! frontmatter's `disable-model-invocation: true` that the harness and Claude Code read; a skill
//! that sets one and not the other is invoked by the model in one agent and not in the other
//! (`invocation-policy-mismatch`).

use super::{Finding, Severity};
use crate::engine::platform;
use crate::engine::yaml::{self, Value};

/// Where Codex looks for the file, relative to the skill folder.
pub const FILE: &str = "agents/openai.yaml";

/// Codex's limits (`MAX_NAME_LEN`, `MAX_DESCRIPTION_LEN`).
const MAX_NAME_LEN: usize = 64;
const MAX_DESCRIPTION_LEN: usize = 1024;

/// Larger files are not read (Codex would read them; nobody writes one).
const MAX_BYTES: u64 = 1 << 20;

const TOP_KEYS: [&str; 3] = ["interface", "dependencies", "policy"];
const INTERFACE_KEYS: [&str; 6] =
    ["display_name", "short_description", "icon_small", "icon_large", "brand_color", "default_prompt"];
const POLICY_KEYS: [&str; 2] = ["allow_implicit_invocation", "products"];
const TOOL_KEYS: [&str; 6] = ["type", "value", "description", "transport", "command", "url"];

/// What the skill's frontmatter says about model invocation, for the comparison.
pub struct Frontmatter<'a> {
    /// The skill file (`SKILL.md`).
    pub path: &'a str,
    /// `disable-model-invocation` makes the skill manual-only for the harness.
    pub manual_only: bool,
    /// Where `disable-model-invocation` is, if it is written.
    pub key_span: Option<std::ops::Range<usize>>,
}

/// Findings for the `agents/openai.yaml` of the skill folder `dir`, if it has one.
pub fn check(dir: &str, skill: &Frontmatter<'_>, listed: Option<&super::bundle::Listed>) -> Vec<Finding> {
    let path = platform::join(&platform::join(dir, "agents"), "openai.yaml");
    if super::bundle::Listed::lacks_path(listed, dir, &path) {
        return Vec::new();
    }
    let Ok(meta) = std::fs::metadata(&path) else { return Vec::new() };
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return Vec::new();
    }
    let Ok(bytes) = std::fs::read(&path) else { return Vec::new() };
    let mut out = Vec::new();
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(_) => {
            out.push(invalid(&path, "the file is not valid UTF-8".into(), skill));
            return out;
        }
    };
    let parsed = match yaml::parse(&text) {
        Ok(p) => p,
        Err(e) => {
            let line = e.pos.map_or(String::new(), |p| format!(" (line {})", p.line));
            out.push(invalid(&path, format!("this is not valid YAML: {}{line}", e.message), skill));
            return out;
        }
    };
    let root = match &parsed.value {
        Value::Object(o) => o,
        // Empty, or comments only: nothing for Codex to read, nothing lost.
        Value::Null => return out,
        other => {
            out.push(invalid(
                &path,
                format!("the file is {}, not a mapping of `interface`, `policy`, …", shape(other)),
                skill,
            ));
            return out;
        }
    };
    let doc = Doc { path: &path, text: &text };
    // The first type error, as serde stops at it: Codex then ignores the whole file.
    if let Some(problem) = type_error(root) {
        out.push(invalid(&path, problem, skill));
        return out;
    }
    doc.near_misses(root, &[], &TOP_KEYS, &mut out);
    if let Some(Value::Object(interface)) = root.get("interface") {
        doc.near_misses(interface, &["interface"], &INTERFACE_KEYS, &mut out);
        for (key, max) in [
            ("display_name", MAX_NAME_LEN),
            ("short_description", MAX_DESCRIPTION_LEN),
            ("default_prompt", MAX_DESCRIPTION_LEN),
        ] {
            if let Some(v) = interface.get(key).and_then(scalar_text) {
                doc.check_str(&["interface", key], &v, max, &mut out);
            }
        }
        if let Some(v) = interface.get("brand_color").and_then(scalar_text) {
            let t = v.trim();
            let hex = t.len() == 7 && t.starts_with('#') && t[1..].bytes().all(|b| b.is_ascii_hexdigit());
            if !hex {
                out.push(doc.dropped(
                    &["interface", "brand_color"],
                    format!("`interface.brand_color` is `{}`, not a `#RRGGBB` colour", clip(t)),
                    "write six hex digits after `#`, e.g. `brand_color: \"#3B82F6\"`".into(),
                ));
            }
        }
        for key in ["icon_small", "icon_large"] {
            if let Some(v) = interface.get(key).and_then(scalar_text) {
                doc.check_icon(dir, key, &v, &mut out);
            }
        }
    }
    if let Some(Value::Object(policy)) = root.get("policy") {
        doc.near_misses(policy, &["policy"], &POLICY_KEYS, &mut out);
    }
    if let Some(Value::Object(deps)) = root.get("dependencies") {
        doc.near_misses(deps, &["dependencies"], &["tools"], &mut out);
        if let Some(Value::Array(tools)) = deps.get("tools") {
            for (i, tool) in tools.iter().enumerate() {
                let Value::Object(tool) = tool else { continue };
                doc.near_misses(tool, &["dependencies", "tools"], &TOOL_KEYS, &mut out);
                for key in ["type", "value"] {
                    if !tool.get(key).is_some_and(|v| !matches!(v, Value::Null)) {
                        out.push(
                            doc.dropped(
                                &["dependencies", "tools"],
                                format!(
                                    "tool {} of `dependencies.tools` has no `{key}`, so Codex drops the tool",
                                    i + 1
                                ),
                                format!("give the tool a `{key}` (`type: \"mcp\"` and the server's name as `value`)")
                                    .into(),
                            ),
                        );
                    }
                }
                for (key, max) in [
                    ("type", MAX_NAME_LEN),
                    ("transport", MAX_NAME_LEN),
                    ("value", MAX_DESCRIPTION_LEN),
                    ("description", MAX_DESCRIPTION_LEN),
                    ("command", MAX_DESCRIPTION_LEN),
                    ("url", MAX_DESCRIPTION_LEN),
                ] {
                    if let Some(v) = tool.get(key).and_then(scalar_text) {
                        doc.check_str(&["dependencies", "tools", key], &v, max, &mut out);
                    }
                }
            }
        }
    }
    // Manual-only in one agent and not in the other.
    let codex_manual_only = matches!(
        root.get("policy"),
        Some(Value::Object(p)) if matches!(p.get("allow_implicit_invocation"), Some(Value::Bool(false)))
    );
    if codex_manual_only != skill.manual_only {
        out.push(mismatch(&doc, root, skill, codex_manual_only));
    }
    out
}

/// The consequence of an invalid file, with what it costs this skill.
fn invalid(path: &str, message: String, skill: &Frontmatter<'_>) -> Finding {
    let fallback = if skill.manual_only {
        "; the skill's `disable-model-invocation: true` has no Codex counterpart then, and Codex invokes it implicitly"
    } else {
        ""
    };
    Finding::new(
        &OPENAI_YAML_INVALID,
        path,
        message,
        format!(
            "the harness does not read this file; Codex logs `ignoring …/{FILE}: invalid openai.yaml` and ignores all of \
             it (display name, icons, default prompt, dependencies and invocation policy){fallback}"
        ),
    )
    .help(
        "fix the file: sections (`interface`, `policy`, `dependencies`) are mappings, text fields are strings, and \
         `allow_implicit_invocation` is a plain `true` or `false`",
    )
}

fn mismatch(doc: &Doc<'_>, root: &yaml::Object, skill: &Frontmatter<'_>, codex_manual_only: bool) -> Finding {
    let has_policy = matches!(root.get("policy"), Some(Value::Object(_)));
    let set_at = doc.line(&["policy", "allow_implicit_invocation"]);
    let (message, consequence, help) = if skill.manual_only {
        (
            "`disable-model-invocation: true` makes this skill manual-only, but `agents/openai.yaml` lets Codex invoke it \
             implicitly"
                .to_string(),
            "the harness (and Claude Code) keep the skill out of the model's catalog; Codex offers it to its model",
            if set_at.is_some() {
                format!(
                    "set `allow_implicit_invocation: false` in `{}` ({}), or drop `disable-model-invocation` here if the \
                     model may invoke it",
                    FILE,
                    at_line(set_at)
                )
            } else if has_policy {
                format!(
                    "add `allow_implicit_invocation: false` under `policy:` in `{FILE}`, or drop `disable-model-invocation` \
                     here if the model may invoke it"
                )
            } else {
                format!(
                    "add the line `policy: {{allow_implicit_invocation: false}}` to `{FILE}`, or drop \
                     `disable-model-invocation` here if the model may invoke it"
                )
            },
        )
    } else {
        (
            format!(
                "`agents/openai.yaml` sets `allow_implicit_invocation: false`{}, but this skill's frontmatter lets the \
                 model invoke it",
                at_line(set_at)
            ),
            "Codex invokes the skill only when asked; the harness (and Claude Code) list it in the model's catalog",
            format!(
                "add `disable-model-invocation: true` to the frontmatter, or drop `allow_implicit_invocation: false` from \
                 `{FILE}` if the model may invoke it"
            ),
        )
    };
    Finding::new(&INVOCATION_POLICY_MISMATCH, skill.path, message, consequence)
        .at_opt(skill.key_span.clone())
        .help(help)
        .related(doc.path, None, if codex_manual_only { "Codex: manual only" } else { "Codex: implicit invocation" })
}

/// The first value Codex's types refuse, in the order serde reads the file.
fn type_error(root: &yaml::Object) -> Option<String> {
    types(root).err()
}

fn types(root: &yaml::Object) -> Result<(), String> {
    for (key, value) in root.iter() {
        match key {
            "interface" => {
                let Some(o) = section(value, "interface")? else { continue };
                for (k, v) in o.iter() {
                    if INTERFACE_KEYS.contains(&k) && !is_text(v) {
                        return Err(format!("`interface.{k}` is {}, not a string", shape(v)));
                    }
                }
            }
            "policy" => {
                let Some(o) = section(value, "policy")? else { continue };
                for (k, v) in o.iter() {
                    match k {
                        "allow_implicit_invocation" if !matches!(v, Value::Bool(_) | Value::Null) => {
                            let hint = match v {
                                Value::String(s) => format!("the string \"{}\"", clip(s)),
                                other => shape(other),
                            };
                            return Err(format!(
                                "`policy.allow_implicit_invocation` is {hint}; Codex takes only a plain `true` or `false`"
                            ));
                        }
                        "products" => match v {
                            Value::Array(items) => {
                                if let Some(item) = items.iter().find(|i| !matches!(i, Value::String(_))) {
                                    return Err(format!(
                                        "`policy.products` holds {}, not a product name (`codex`, `chatgpt`, …)",
                                        shape(item)
                                    ));
                                }
                            }
                            Value::Null => {}
                            other => return Err(format!("`policy.products` is {}, not a list", shape(other))),
                        },
                        _ => {}
                    }
                }
            }
            "dependencies" => {
                let Some(o) = section(value, "dependencies")? else { continue };
                match o.get("tools") {
                    None | Some(Value::Null) => {}
                    Some(Value::Array(tools)) => {
                        for (i, tool) in tools.iter().enumerate() {
                            let t = match tool {
                                Value::Object(t) => t,
                                other => {
                                    return Err(format!(
                                        "tool {} of `dependencies.tools` is {}, not a mapping",
                                        i + 1,
                                        shape(other)
                                    ));
                                }
                            };
                            for (k, v) in t.iter() {
                                if TOOL_KEYS.contains(&k) && !is_text(v) {
                                    return Err(format!(
                                        "`{k}` of tool {} of `dependencies.tools` is {}, not a string",
                                        i + 1,
                                        shape(v)
                                    ));
                                }
                            }
                        }
                    }
                    Some(other) => return Err(format!("`dependencies.tools` is {}, not a list", shape(other))),
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A section's mapping (`Ok(None)` when it is empty), or the type error that makes Codex ignore
/// the file.
fn section<'v>(value: &'v Value, name: &str) -> Result<Option<&'v yaml::Object>, String> {
    match value {
        Value::Object(o) => Ok(Some(o)),
        Value::Null => Ok(None),
        other => Err(format!("`{name}` is {}, not a mapping", shape(other))),
    }
}

/// A scalar Codex's string fields take (any scalar, written as it is); `None` for null.
fn is_text(v: &Value) -> bool {
    matches!(v, Value::Null | Value::String(_) | Value::Number(_) | Value::Bool(_))
}

/// The text of a scalar for the length checks (numbers and booleans as written is close enough
/// for a length: they are short).
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.to_string()),
        Value::Number(n) => Some(yaml::js_number_to_string(*n)),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn shape(v: &Value) -> String {
    match v {
        Value::Null | Value::Undefined => "empty".into(),
        Value::Bool(b) => format!("the boolean `{b}`"),
        Value::Number(n) => format!("the number `{}`", yaml::js_number_to_string(*n)),
        Value::String(_) => "a string".into(),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
        other => crate::engine::skillfile::shape_of(other).into(),
    }
}

/// At most 60 characters of a value, for a message.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

fn at_line(line: Option<usize>) -> String {
    line.map_or(String::new(), |l| format!(" (line {l})"))
}

/// Codex's whitespace collapse (`split_whitespace().join(" ")`).
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How a key is spelt, loosely: case, `-` and `_` ignored (`displayName`, `display-name`).
fn loose(s: &str) -> String {
    s.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

struct Doc<'a> {
    path: &'a str,
    text: &'a str,
}

impl Doc<'_> {
    /// The 1-based line of the key at `keys` (each found after the one before it).
    fn line(&self, keys: &[&str]) -> Option<usize> {
        let mut from = 0;
        let mut found = None;
        for key in keys {
            let mut line_no = self.text[..from].matches('\n').count();
            let mut hit = None;
            for line in self.text[from..].split_inclusive('\n') {
                line_no += 1;
                let t = line.trim_start().trim_start_matches("- ").trim_start();
                let t = t.strip_prefix('"').or_else(|| t.strip_prefix('\'')).unwrap_or(t);
                if let Some(rest) = t.strip_prefix(key) {
                    let rest = rest.trim_start_matches(['"', '\'']).trim_start();
                    if rest.starts_with(':') {
                        hit = Some(line_no);
                        break;
                    }
                }
            }
            let l = hit?;
            found = Some(l);
            from = self.text.split_inclusive('\n').take(l).map(str::len).sum();
        }
        found
    }

    fn dropped(&self, keys: &[&str], message: String, help: std::borrow::Cow<'static, str>) -> Finding {
        let dotted = keys.join(".");
        Finding::new(
            &OPENAI_YAML_IGNORED_FIELD,
            self.path,
            format!("{message}{}", at_line(self.line(keys))),
            format!("the harness does not read this file; Codex logs a warning, drops `{dotted}` and keeps the rest"),
        )
        .help(help)
    }

    fn check_str(&self, keys: &[&str], value: &str, max: usize, out: &mut Vec<Finding>) {
        let dotted = keys.join(".");
        let collapsed = collapse(value);
        if collapsed.is_empty() {
            out.push(self.dropped(keys, format!("`{dotted}` is empty"), "write a value or remove the key".into()));
        } else if collapsed.chars().count() > max {
            out.push(self.dropped(
                keys,
                format!("`{dotted}` has {} characters; Codex's limit is {max}", collapsed.chars().count()),
                format!("shorten it to {max} characters at most").into(),
            ));
        }
    }

    fn check_icon(&self, dir: &str, key: &str, value: &str, out: &mut Vec<Finding>) {
        if value.is_empty() {
            return;
        }
        let keys = ["interface", key];
        let field = format!("`interface.{key}`");
        let p = std::path::Path::new(value);
        if p.is_absolute() {
            out.push(self.dropped(
                &keys,
                format!("{field} is an absolute path"),
                "use a path relative to the skill folder under `assets/`, e.g. `./assets/icon.png`".into(),
            ));
            return;
        }
        let parts: Vec<&str> = value.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
        if parts.contains(&"..") {
            out.push(
                self.dropped(
                    &keys,
                    format!("{field} leaves the skill folder (`{}`)", clip(value)),
                    "put the icon in the skill's own `assets/` folder and point to it (`./assets/…`)".into(),
                )
                .severity(Severity::Info)
                .help("(a skill inside a Codex plugin may use `../` into the plugin's shared `assets/`; then ignore this)"),
            );
            return;
        }
        if parts.first() != Some(&"assets") {
            out.push(
                self.dropped(
                    &keys,
                    format!("{field} (`{}`) is not under `assets/`", clip(value)),
                    format!(
                        "move the icon into the skill's `assets/` folder and write `./assets/{}`",
                        parts.last().unwrap_or(&"icon.png")
                    )
                    .into(),
                ),
            );
            return;
        }
        let file = parts.iter().fold(dir.to_string(), |acc, c| platform::join(&acc, c));
        if std::fs::metadata(&file).is_err() {
            out.push(
                Finding::new(
                    &OPENAI_YAML_IGNORED_FIELD,
                    self.path,
                    format!("{field} names `{}`, which does not exist{}", clip(value), at_line(self.line(&keys))),
                    "the harness does not read this file; Codex keeps the path and shows no icon",
                )
                .help("add the file, or fix the path (relative to the skill folder)"),
            );
        }
    }

    /// Keys Codex does not read that are a slip of one it does (`allow_implicit_invocations`,
    /// `displayName`): silently ignored by Codex, so the setting is lost.
    fn near_misses(&self, obj: &yaml::Object, parent: &[&str], known: &[&str], out: &mut Vec<Finding>) {
        for (key, _) in obj.iter() {
            if known.contains(&key) {
                continue;
            }
            let l = loose(key);
            let close = known.iter().find(|k| {
                loose(k) == l || crate::analysis::suggest::edit_distance(key, k) <= 2.min(k.len() / 3).max(1)
            });
            let Some(want) = close else { continue };
            if obj.get(want).is_some() {
                continue;
            }
            let mut keys: Vec<&str> = parent.to_vec();
            keys.push(key);
            let dotted = if parent.is_empty() { key.to_string() } else { format!("{}.{key}", parent.join(".")) };
            out.push(
                Finding::new(
                    &OPENAI_YAML_IGNORED_FIELD,
                    self.path,
                    format!("Codex does not read `{dotted}`; did you mean `{want}`?{}", at_line(self.line(&keys))),
                    "the harness does not read this file; Codex ignores keys it does not know, without a warning, so the \
                     setting is lost",
                )
                .help(format!("rename `{key}` to `{want}`")),
            );
        }
    }
}

crate::lint::rules::declare_rules! {
    OPENAI_YAML_INVALID = rule(
        "openai-yaml-invalid",
        Warning,
        Suspicious,
        "The skill's `agents/openai.yaml` (Codex's metadata) is not valid YAML or has a value of the wrong type.",
        "The harness does not read `agents/openai.yaml`; Codex does, and reads it fail open: a YAML error or a \
         value of the wrong type anywhere in it (a section that is not a mapping, a list where text belongs, \
         `allow_implicit_invocation: \"false\"`, `no` or `0` instead of a plain `false`) makes Codex log \
         `ignoring …: invalid openai.yaml` and ignore the whole file: no display name, icons, default prompt or \
         dependencies, and the skill is invoked implicitly whatever its policy says.",
        "Fix the value the message names: `interface`, `policy` and `dependencies` are mappings, text fields are \
         strings, `allow_implicit_invocation` is a plain `true` or `false`.",
    );
    OPENAI_YAML_IGNORED_FIELD = rule(
        "openai-yaml-ignored-field",
        Warning,
        Suspicious,
        "Codex drops one field of the skill's `agents/openai.yaml`, or does not know a key that is a slip of one it does.",
        "Codex checks each field of `agents/openai.yaml` on its own and drops one that fails, with a warning in its \
         log: an empty value, a `display_name` over 64 characters, a `short_description` or `default_prompt` over \
         1,024, a `brand_color` that is not `#RRGGBB`, an icon that is not a relative path under the skill's \
         `assets/`, a tool without `type` or `value`. A key it does not know (`displayName`, \
         `allow_implicit_invocations`) is ignored without a word, so that setting is lost. An icon path that names no \
         file is kept, and Codex shows no icon. The harness reads none of this file.",
        "Fix the field as the message says: rename the key, shorten the text, write the colour as `#RRGGBB`, put the \
         icon under `assets/`.",
    );
    INVOCATION_POLICY_MISMATCH = rule(
        "invocation-policy-mismatch",
        Warning,
        Suspicious,
        "`disable-model-invocation` and Codex's `policy.allow_implicit_invocation` disagree.",
        "`disable-model-invocation: true` in the frontmatter keeps a skill out of the model's catalog in the harness \
         (and in Claude Code, which reads the same key); Codex reads its own setting, \
         `policy.allow_implicit_invocation: false` in `agents/openai.yaml`. A skill that has `agents/openai.yaml` and \
         sets only one of them is invoked by the model in one agent and only on request in the other.",
        "Set both or neither: add `policy:` / `allow_implicit_invocation: false` to `agents/openai.yaml`, or \
         `disable-model-invocation: true` to the frontmatter (or drop the one you did not mean).",
    );
}
