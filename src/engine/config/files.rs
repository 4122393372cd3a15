//! Reading the harness's configuration files: patch lists, agent-preset compositions, the
//! settings document and a profile's manifest. Every failure the harness would refuse to boot
//! on is a [`ConfigError`] naming the file, the line and the problem.

use super::ConfigError;
use super::dialect::{self, Loc, Node, Source, Value};
use crate::engine::textread::{CONFIG_MAX_BYTES, ConfigReadError, read_config_file};
use std::rc::Rc;

/// What reading an optional file found.
pub enum Read {
    Text(String),
    Absent,
}

/// `readFileSync(path, 'utf8')`: bytes decoded with U+FFFD for invalid sequences. ENOENT is
/// `Absent`; every other failure is an error. Read through the hardened configuration reader:
/// a FIFO, socket or device is refused unless `explicit` (the user named this file on the
/// command line), and a file over [`CONFIG_MAX_BYTES`] is refused.
pub fn read_text(path: &str, what: &str, explicit: bool) -> Result<Read, ConfigError> {
    match read_config_file(path, explicit, CONFIG_MAX_BYTES) {
        Ok(Some(bytes)) => Ok(Read::Text(match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })),
        Ok(None) => Ok(Read::Absent),
        Err(ConfigReadError::Node(err)) => Err(ConfigError::new(format!(
            "cannot read {what} {path}: {err} (dsh refuses to start when it cannot read it)"
        ))),
        Err(e) => Err(ConfigError::new(format!("cannot read {what}: {e}"))),
    }
}

fn parse_error(path: &str, what: &str, e: &dialect::DialectError) -> ConfigError {
    let at = if e.line > 0 {
        if e.column > 0 { format!("{path}:{}:{}", e.line, e.column) } else { format!("{path}:{}", e.line) }
    } else {
        path.to_string()
    };
    if e.ours {
        return ConfigError::new(format!(
            "{at}: dsh-skills refuses to load {what}: {} (a limit of dsh-skills against runaway files; dsh itself may load it)",
            e.message
        ));
    }
    ConfigError::new(format!("{at}: cannot parse {what}: {} (dsh refuses to start with it)", e.message))
}

/// Load a patch list (`parsePatchList`, `packages/boot/app-boot/src/index.ts`): a top-level
/// YAML array of mappings.
pub fn patch_list(path: &str, text: &str, what: &str) -> Result<Vec<Node>, ConfigError> {
    let source = Rc::new(Source::File(path.to_string()));
    let doc = dialect::load(text, source).map_err(|e| parse_error(path, what, &e))?;
    let items = match doc {
        Some(Node { value: Value::Seq(items), .. }) => items,
        Some(other) => {
            return Err(ConfigError::new(format!(
                "{}: {what} must be a top-level YAML array of loader patch entries, not a {} (dsh refuses to start with it)",
                other.at,
                other.value.type_name()
            )));
        }
        None => {
            return Err(ConfigError::new(format!(
                "{path}: {what} must be a top-level YAML array of loader patch entries; the file is empty or holds only comments (write `[]` for no patches; dsh refuses to start with it)"
            )));
        }
    };
    for (i, item) in items.iter().enumerate() {
        if !matches!(item.value, Value::Map(_)) {
            return Err(ConfigError::new(format!(
                "{}: {what} entry {} must be a mapping (a loader patch entry), not a {} (dsh refuses to start with it)",
                item.at,
                i + 1,
                item.value.type_name()
            )));
        }
    }
    Ok(items)
}

/// Why a preset composition cannot mount (`entryListProblem`,
/// `packages/preset/agent-presets/src/discovery.ts`), with where.
fn entry_list_problem(rows: &Node, at: &str) -> Option<(Loc, String)> {
    let Value::Seq(items) = &rows.value else {
        let what = if at.is_empty() {
            "the composition must be a top-level list of plugin rows".to_string()
        } else {
            format!("group {at} must hold a list of plugin rows")
        };
        return Some((rows.at.clone(), what));
    };
    for (i, row) in items.iter().enumerate() {
        let label = if at.is_empty() { format!("row {}", i + 1) } else { format!("{at} row {}", i + 1) };
        if !matches!(row.value, Value::Map(_)) {
            return Some((row.at.clone(), format!("{label} is not a plugin row (expected a map with a \"name\")")));
        }
        match row.get_value("name") {
            Some(Value::Str(s)) if !s.is_empty() => {}
            _ => return Some((row.at.clone(), format!("{label} names no plugin (a \"name\" string is required)"))),
        }
        if row.get_value("group") == Some(&Value::Bool(true)) {
            let config =
                row.get("config").map(|e| e.value.clone()).unwrap_or(Node { value: Value::Null, at: row.at.clone() });
            if let Some(problem) = entry_list_problem(&config, &label) {
                return Some(problem);
            }
        }
    }
    None
}

/// Load a user preset's composition; a broken one is refused as the harness refuses to mount
/// it (`PresetMountError`).
pub fn preset_rows(id: &str, path: &str, text: &str) -> Result<Vec<Node>, ConfigError> {
    let refused = |where_: String, reason: String| {
        ConfigError::new(format!("{where_}: agent-presets: preset \"{id}\" failed to mount: {reason}"))
    };
    let source = Rc::new(Source::File(path.to_string()));
    let doc = dialect::load(text, source.clone()).map_err(|e| {
        let at = if e.line > 0 { format!("{path}:{}:{}", e.line, e.column) } else { path.to_string() };
        if e.ours {
            return ConfigError::new(format!(
                "{at}: dsh-skills refuses to load preset \"{id}\": {} (a limit of dsh-skills against runaway files; dsh itself may mount it)",
                e.message
            ));
        }
        refused(at, format!("the composition is not valid YAML: {}", e.message))
    })?;
    let doc = doc.unwrap_or(Node { value: Value::Null, at: Loc { source, line: 1 } });
    if let Some((at, problem)) = entry_list_problem(&doc, "") {
        return Err(refused(at.to_string(), problem));
    }
    match doc.value {
        Value::Seq(rows) => Ok(rows),
        _ => unreachable!("entry_list_problem accepts only lists"),
    }
}

/// `agent-presets.default` from the settings document (npm `yaml` v2, as the settings-file
/// provider reads it): the value and its line, `Ok(None)` when the document does not set it.
pub fn settings_default(path: &str, text: &str) -> Result<Option<(String, Loc)>, ConfigError> {
    let refuse =
        |m: String| ConfigError::new(format!("{m} (dsh's settings service rejects it; fix the file or pass --preset)"));
    let parsed = crate::engine::yaml::parse(text).map_err(|e| {
        let at = e.pos.as_ref().map(|p| format!(":{}:{}", p.line, p.col)).unwrap_or_default();
        refuse(format!("{path}{at}: settings-file: invalid document: {}", e.message))
    })?;
    let root = match parsed.value {
        crate::engine::yaml::Value::Null => return Ok(None),
        crate::engine::yaml::Value::Object(o) => o,
        _ => return Err(refuse(format!("{path}: settings-file: the document must be a map of namespace sections"))),
    };
    let Some(section) = root.get("agent-presets") else { return Ok(None) };
    let section = match section {
        crate::engine::yaml::Value::Null => return Ok(None),
        crate::engine::yaml::Value::Object(o) => o,
        _ => return Err(refuse(format!("{path}: settings section \"agent-presets\" must be an object of keys"))),
    };
    let line = locate(text, &["agent-presets", "default"])
        .or_else(|| locate(text, &["agent-presets"]))
        .or_else(|| parsed.top_keys.iter().find(|k| k.key == "agent-presets").map(|k| k.key_start.line))
        .unwrap_or(0);
    let at = Loc { source: Rc::new(Source::File(path.to_string())), line };
    match section.get("default") {
        None | Some(crate::engine::yaml::Value::Null) => Ok(None),
        Some(crate::engine::yaml::Value::String(s)) => Ok(Some((s.to_string(), at))),
        Some(_) => Err(refuse(format!("{at}: settings \"agent-presets.default\" must be a string"))),
    }
}

/// The line of a key path, found with the configuration composer (its scalar rules differ
/// from npm `yaml` only in ways that do not move keys); `None` when it cannot tell.
fn locate(text: &str, path: &[&str]) -> Option<usize> {
    let doc = dialect::load(text, Rc::new(Source::File(String::new()))).ok()??;
    let mut node = &doc;
    let mut line = None;
    for key in path {
        let e = node.get(key)?;
        line = Some(e.key_at.line);
        node = &e.value;
    }
    line
}

/// A profile manifest's bundle list (`dsh.profile.bundles`), `None` when the file is absent.
pub fn profile_bundles(path: &str) -> Result<Option<Vec<String>>, ConfigError> {
    let Read::Text(text) = read_text(path, "the profile manifest", false)? else { return Ok(None) };
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        ConfigError::new(format!(
            "{path}:{}:{}: cannot parse the profile manifest: {e} (dsh refuses to start with it)",
            e.line(),
            e.column()
        ))
    })?;
    if !json.is_object() {
        return Err(ConfigError::new(format!("{path}: profile manifest must hold a JSON object")));
    }
    let bundles = json
        .pointer("/dsh/profile/bundles")
        .and_then(|b| b.as_array())
        .map(|list| list.iter().map(|b| b.as_str().map(str::to_string).unwrap_or_else(|| b.to_string())).collect());
    Ok(Some(bundles.unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patch_lists_must_be_arrays_of_mappings() {
        let e = patch_list("/h/p.yml", "# nothing\n", "the home patch layer").unwrap_err();
        assert!(e.0.contains("empty or holds only comments"), "{e}");
        let e = patch_list("/h/p.yml", "id: x\n", "the home patch layer").unwrap_err();
        assert!(e.0.starts_with("/h/p.yml:1: the home patch layer must be a top-level YAML array"), "{e}");
        let e = patch_list("/h/p.yml", "- id: a\n- b\n", "the home patch layer").unwrap_err();
        assert!(e.0.starts_with("/h/p.yml:2: the home patch layer entry 2 must be a mapping"), "{e}");
        let e = patch_list("/h/p.yml", "- id: a\n  id: b\n", "the home patch layer").unwrap_err();
        assert!(e.0.starts_with("/h/p.yml:2"), "{e}");
        assert!(e.0.contains("duplicated mapping key"), "{e}");
        assert_eq!(patch_list("/h/p.yml", "[]\n", "x").unwrap(), vec![]);
    }

    #[test]
    fn broken_presets_are_refused_like_the_harness() {
        let e = preset_rows("mine", "/p/a.yml", "- id: x\n").unwrap_err();
        assert_eq!(
            e.0,
            "/p/a.yml:1: agent-presets: preset \"mine\" failed to mount: row 1 names no plugin (a \"name\" string is required)"
        );
        let e = preset_rows("mine", "/p/a.yml", "").unwrap_err();
        assert!(e.0.contains("the composition must be a top-level list of plugin rows"), "{e}");
        let e = preset_rows("mine", "/p/a.yml", "- name: g\n  group: true\n  config: {}\n").unwrap_err();
        assert!(e.0.contains("group row 1 must hold a list of plugin rows"), "{e}");
        assert_eq!(preset_rows("mine", "/p/a.yml", "- name: x\n").unwrap().len(), 1);
    }

    #[test]
    fn settings_default_and_its_line() {
        let text = "llm-deepseek:\n  model: x\nagent-presets:\n  default: mine\n";
        let (v, at) = settings_default("/h/settings.yaml", text).unwrap().unwrap();
        assert_eq!((v.as_str(), at.line), ("mine", 4));
        assert_eq!(settings_default("/h/settings.yaml", "").unwrap(), None);
        assert_eq!(settings_default("/h/settings.yaml", "agent-presets: {}\n").unwrap(), None);
        assert!(settings_default("/h/settings.yaml", "agent-presets:\n  default: 3\n").is_err());
        assert!(settings_default("/h/settings.yaml", "- a\n").is_err());
    }
}
