//! The packaging formats authors ship skills in, read for what matters to the skills: Claude
//! Code plugin marketplaces (`.claude-plugin/marketplace.json`) and plugins
//! (`.claude-plugin/plugin.json`).
//!
//! Fields, from Claude Code's plugin and marketplace references and real marketplaces:
//! a marketplace's `plugins[]` each have a `name` and a `source`, either a path relative to the
//! marketplace root (the folder holding `.claude-plugin/`), starting with `./`, or an object
//! naming a remote source (not checked here). Claude Code's reference describes
//! `metadata.pluginRoot` as a base prepended to relative sources, but Claude Code itself does
//! not apply it: a `./x` source is read from the marketplace root, and a bare `x` fails its
//! schema (`plugins.N.source: Invalid input`; anthropics/claude-code#68936, reproduced by its
//! maintainers, and marketplaces that dropped `pluginRoot` after installs failed). So a source
//! is resolved from the marketplace root, and `pluginRoot` only helps name the fix. A plugin entry or a
//! plugin's `plugin.json` may declare `skills`, a path or a list of paths relative to the
//! plugin root, each a skill folder or a folder of skill folders, in addition to the plugin's
//! default `skills/` folder.
//!
//! Checked: the file is JSON of that shape (`manifest-invalid`, naming file, line and column);
//! each local plugin source and declared skill path exists and holds a skill
//! (`manifest-missing-path`); and, in a marketplace whose local plugins all list their skills,
//! a skill folder under a plugin's root that no list names (`manifest-unlisted-skill`).

use super::{Finding, Severity};
use crate::analysis::tree::Tree;
use crate::engine::platform;
use serde_json::Value;

/// Findings for every manifest of `tree` inside `within`.
pub fn check(tree: &Tree, within: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    for file in tree.manifests.iter().filter(|m| platform::inside(m, within)) {
        let Some(text) = crate::engine::textread::read_text_beside(file, 16 << 20) else { continue };
        let value: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                out.push(invalid(
                    file,
                    format!("this is not valid JSON: {} (line {}, column {})", strip_at(&e), e.line(), e.column()),
                ));
                continue;
            }
        };
        // `<root>/.claude-plugin/<file>`: paths are relative to `<root>`.
        let root = platform::dirname(&platform::dirname(file));
        if file.ends_with("marketplace.json") {
            marketplace(file, &text, &value, &root, tree, &mut out);
        } else {
            let mut listed = Vec::new();
            plugin_skills(file, &text, value.get("skills"), &root, "`skills`", &mut listed, &mut out);
        }
    }
    out
}

/// serde_json's message without its own ` at line N column M`.
fn strip_at(e: &serde_json::Error) -> String {
    let s = e.to_string();
    s.split(" at line ").next().unwrap_or(&s).to_string()
}

fn invalid(file: &str, message: String) -> Finding {
    invalid_unhelped(file, message)
        .help("fix the JSON (a JSON validator or `python3 -m json.tool FILE` names the first problem)")
}

/// [`invalid`] without its help, for a caller that knows the fix.
fn invalid_unhelped(file: &str, message: String) -> Finding {
    Finding::new(
        &MANIFEST_INVALID,
        file,
        message,
        "the harness does not read plugin manifests, but Claude Code and the skill installers that do fail on this \
         file, and no skill it lists is installed",
    )
}

/// The line of the first occurrence of `needle` (a JSON string as written) in `text`.
fn line_of(text: &str, needle: &str) -> Option<usize> {
    let quoted = serde_json::to_string(needle).ok()?;
    let at = text.find(&quoted)?;
    Some(text[..at].bytes().filter(|&b| b == b'\n').count() + 1)
}

fn at_line(text: &str, needle: &str) -> String {
    line_of(text, needle).map_or(String::new(), |l| format!(" (line {l})"))
}

/// `base` and `path` (manifest paths, `/`-separated) joined as a manifest writes a local source:
/// `./plugins` and `./docs` → `./plugins/docs`.
fn relative_join(base: &str, path: &str) -> String {
    let parts = [base, path].map(|p| p.trim_start_matches("./").trim_matches('/'));
    let joined: Vec<&str> = parts.into_iter().filter(|p| !p.is_empty() && *p != ".").collect();
    format!("./{}", joined.join("/"))
}

/// A relative path of a manifest, resolved against `base`; `None` for an absolute or remote one.
fn local(base: &str, path: &str) -> Option<String> {
    if path.contains("://") || path.starts_with('/') || path.starts_with('$') {
        return None;
    }
    let joined = platform::join(base, path.trim_start_matches("./"));
    Some(joined.trim_end_matches(platform::SEP).to_string())
}

/// `path` (as the manifest writes it, resolved to `dir`, which does not exist) with its last
/// part replaced by the one folder beside it that is evidently meant: the same name but for
/// case and separators (`activecampaign` for `active-campaign`). A name one letter away is
/// often another thing (`canva` is not `canvas`, `brevo` not `brex`): no guess.
fn near(path: &str, dir: &str) -> Option<String> {
    let (prefix, last) = path.trim_end_matches('/').rsplit_once('/')?;
    let bare = |n: &str| n.chars().filter(|c| !matches!(c, '-' | '_' | '.' | ' ')).collect::<String>().to_lowercase();
    let wanted = bare(last);
    let mut meant: Vec<String> = Vec::new();
    for e in std::fs::read_dir(platform::dirname(dir)).ok()?.flatten().take(10_000) {
        // The name first: a stat only for the folder that matches.
        let Ok(name) = e.file_name().into_string() else { continue };
        if bare(&name) == wanted && e.path().is_dir() {
            meant.push(name);
        }
    }
    (meant.len() == 1).then(|| format!("{prefix}/{}", meant[0]))
}

fn holds_skill(dir: &str) -> bool {
    let is_file = |p: String| std::fs::metadata(p).is_ok_and(|m| m.is_file());
    if is_file(platform::join(dir, "SKILL.md")) {
        return true;
    }
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.flatten().take(10_000).any(|e| e.path().to_str().is_some_and(|p| is_file(platform::join(p, "SKILL.md"))))
    })
}

/// A plugin's `skills` (a string or a list of strings), checked; the folders they name are
/// added to `listed`.
fn plugin_skills(
    file: &str,
    text: &str,
    skills: Option<&Value>,
    root: &str,
    what: &str,
    listed: &mut Vec<String>,
    out: &mut Vec<Finding>,
) {
    let paths: Vec<&str> = match skills {
        None | Some(Value::Null) => return,
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(items)) => {
            let mut v = Vec::new();
            for item in items {
                match item {
                    Value::String(s) => v.push(s.as_str()),
                    other => out.push(invalid(
                        file,
                        format!("{what} lists {other}, not a path string{}", at_line(text, &other.to_string())),
                    )),
                }
            }
            v
        }
        Some(other) => {
            out.push(invalid(file, format!("{what} is {}, not a path or a list of paths", kind(other))));
            return;
        }
    };
    for p in paths {
        let Some(dir) = local(root, p) else { continue };
        if !std::fs::metadata(&dir).is_ok_and(|m| m.is_dir()) {
            let message = format!("{what} names `{p}`{}, which does not exist", at_line(text, p));
            out.push(match near(p, &dir) {
                Some(near) => missing_unhelped(file, message, &dir)
                    .help(format!("write `\"{near}\"` instead, the folder of that name there")),
                None => missing(file, message, &dir),
            });
        } else if !holds_skill(&dir) {
            out.push(missing(
                file,
                format!("{what} names `{p}`{}, which holds no SKILL.md (nor folders that do)", at_line(text, p)),
                &dir,
            ));
        } else {
            listed.push(dir);
        }
    }
}

fn missing(file: &str, message: String, dir: &str) -> Finding {
    missing_unhelped(file, message, dir)
        .help("correct the path (relative to the plugin root, starting with `./`), or remove the entry")
}

/// [`missing`] without its help, for a caller that knows the fix.
fn missing_unhelped(file: &str, message: String, dir: &str) -> Finding {
    Finding::new(
        &MANIFEST_MISSING_PATH,
        file,
        message,
        "installing the plugin fails or installs no skill from this path; the skill is missing wherever the plugin is \
         installed",
    )
    .related(dir, None, "the path, resolved")
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn marketplace(file: &str, text: &str, value: &Value, root: &str, tree: &Tree, out: &mut Vec<Finding>) {
    let Some(plugins) = value.get("plugins") else {
        out.push(invalid(file, "a marketplace has no `plugins` list".into()));
        return;
    };
    let Value::Array(plugins) = plugins else {
        out.push(invalid(file, format!("`plugins` is {}, not a list", kind(plugins))));
        return;
    };
    let plugin_root = match value.get("metadata").and_then(|m| m.get("pluginRoot")) {
        Some(Value::String(r)) => Some(r.as_str()),
        _ => None,
    };
    // (plugin root, whether it lists its skills)
    let mut local_plugins: Vec<(String, bool)> = Vec::new();
    let mut listed: Vec<String> = Vec::new();
    for (i, plugin) in plugins.iter().enumerate() {
        let name = plugin.get("name").and_then(Value::as_str).unwrap_or("");
        let label = if name.is_empty() { format!("plugin {}", i + 1) } else { format!("plugin `{name}`") };
        let source = match plugin.get("source") {
            Some(Value::String(s)) => s.as_str(),
            Some(Value::Object(_)) => continue,
            None => {
                out.push(invalid(file, format!("{label} has no `source`{}", at_line(text, name))));
                continue;
            }
            Some(other) => {
                out.push(invalid(
                    file,
                    format!("{label}'s `source` is {}, not a path or a source object", kind(other)),
                ));
                continue;
            }
        };
        let Some(dir) = local(root, source) else { continue };
        let is_dir = |d: &str| std::fs::metadata(d).is_ok_and(|m| m.is_dir());
        // The folder the author may have meant: under `metadata.pluginRoot`, or at the root.
        let meant = || {
            let under = plugin_root.map(|r| relative_join(r, source));
            under.into_iter().chain([relative_join(".", source)]).find(|p| local(root, p).is_some_and(|d| is_dir(&d)))
        };
        if !(source.starts_with("./") || source.starts_with("../")) {
            let finding = invalid_unhelped(
                file,
                format!(
                    "{label}'s `source` `{source}`{} does not start with `./`: Claude Code rejects the marketplace \
                     (`plugins.{i}.source: Invalid input`)",
                    at_line(text, source)
                ),
            );
            out.push(match meant() {
                Some(p) => finding.help(format!(
                    "write `\"source\": \"{p}\"` (a local source is a path from the marketplace root, starting with \
                     `./`; Claude Code does not prepend `metadata.pluginRoot`)"
                )),
                None => {
                    finding.help("write the plugin's folder as a path from the marketplace root, starting with `./`")
                }
            });
            continue;
        }
        if !is_dir(&dir) {
            let message = format!("{label}'s `source` `{source}`{} does not exist", at_line(text, source));
            out.push(match (plugin_root, meant(), near(source, &dir)) {
                (Some(_), Some(p), _) => missing_unhelped(file, message, &dir).help(format!(
                    "write `\"source\": \"{p}\"`: Claude Code reads `source` from the marketplace root and does not \
                     prepend `metadata.pluginRoot`"
                )),
                (_, _, Some(p)) => missing_unhelped(file, message, &dir)
                    .help(format!("write `\"source\": \"{p}\"`, the folder of that name there")),
                _ => missing(file, message, &dir),
            });
            continue;
        }
        let lists = plugin.get("skills").is_some_and(|s| !s.is_null());
        plugin_skills(file, text, plugin.get("skills"), &dir, &format!("{label}'s `skills`"), &mut listed, out);
        local_plugins.push((dir, lists));
    }
    // Every local plugin lists its skills: a skill folder under one of them that no list names
    // is installed by none.
    if local_plugins.is_empty() || !local_plugins.iter().all(|(_, lists)| *lists) {
        return;
    }
    let covered = |dir: &str| listed.iter().any(|l| dir == l || platform::dirname(dir) == *l);
    let under_plugin = |dir: &str| local_plugins.iter().any(|(p, _)| dir != p && platform::inside(dir, p));
    for s in tree.skills.iter().filter(|s| under_plugin(&s.dir) && !covered(&s.dir)) {
        out.push(
            Finding::new(
                &MANIFEST_UNLISTED_SKILL,
                &s.dir,
                "no plugin of the marketplace lists this skill folder",
                "every plugin of the marketplace lists its skills explicitly, and none lists this one: installing the \
                 marketplace's plugins never installs it",
            )
            .severity(Severity::Warning)
            .related(file, None, "the marketplace")
            .help("add its path to the `skills` of the plugin that should ship it, or remove the folder"),
        );
    }
}

crate::lint::rules::declare_rules! {
    MANIFEST_INVALID = rule(
        "manifest-invalid",
        Error,
        Suspicious,
        "A Claude Code plugin manifest (`.claude-plugin/marketplace.json` or `plugin.json`) is not \
         valid JSON of the expected shape.",
        "The harness does not read plugin manifests, but Claude Code and the skill installers \
         that install a repository's skills through them do: a file that is not JSON, a \
         marketplace without a `plugins` list, a plugin `source` that is neither a path nor a \
         source object (or a path that does not start with `./`, which Claude Code's schema \
         rejects), or `skills` that is neither a path nor a list of paths makes them fail, \
         and the skills are not installed. The finding names the line and column.",
        "Fix the JSON at the line the finding names.",
    );
    MANIFEST_MISSING_PATH = rule(
        "manifest-missing-path",
        Error,
        Suspicious,
        "A plugin manifest names a plugin source or a skill path that does not exist or holds no \
         skill.",
        "A marketplace's local plugin `source` (relative to the marketplace root) and a plugin's \
         `skills` paths (relative to the plugin root, each a skill folder or a folder of skill \
         folders) must exist: installing the plugin fails or installs no skill from the path. \
         Claude Code reads a `source` from the marketplace root and does not prepend \
         `metadata.pluginRoot`, though its reference says it does \
         (anthropics/claude-code#68936): the finding names the folder under `pluginRoot` that \
         the source was probably meant to be.",
        "Correct the path (relative, starting with `./`) or remove the entry.",
    );
    MANIFEST_UNLISTED_SKILL = rule(
        "manifest-unlisted-skill",
        Warning,
        Suspicious,
        "A skill folder under a marketplace's plugins that no plugin's `skills` list names.",
        "When every local plugin of a marketplace lists its skills explicitly, a skill folder \
         under a plugin's root that no list names is installed by no plugin: it is in the \
         repository but never reaches a user.",
        "Add its path to the `skills` of the plugin that should ship it, or remove the folder.",
    );
}
