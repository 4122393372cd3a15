//! Rule levels per project (`.dsh-skills-lint.yaml`, found by walking up from the cwd) and
//! per-file suppressions kept in the frontmatter as YAML comments.
//!
//! The configuration file:
//!
//! ```yaml
//! # .dsh-skills-lint.yaml
//! rules:
//!   body-too-long: off          # error | warning | info | off
//!   name-mismatch: error
//!   utf8-bom: warning           # a portability rule, enabled without --compat
//! compat: [agentskills]         # same as --compat (added to the command line's)
//! fail-on: warning              # same as --fail-on (the command line wins)
//! unscanned-ok: [.claude/skills] # skill folders the harness does not scan, kept on purpose
//! not-skills: [.agents/skills/README.md] # Markdown kept in a root on purpose (logged, skipped)
//! extra-keys: [requires, owner] # the team's own frontmatter keys: not `unknown-key`
//! baseline: .dsh-skills-baseline.json # known findings (`lint --write-baseline`), left out by
//!                               # `lint` and the language server; `--baseline FILE` wins
//! ```
//!
//! Suppressions, in the frontmatter only (the body is model-facing text):
//!
//! ```yaml
//! ---
//! # dsh-skills-lint: disable name-mismatch, body-too-long
//! name: pdf
//! # dsh-skills-lint: disable-next-line unknown-key
//! x-internal-id: 42
//! ---
//! ```

use super::{Compat, Finding, Severity, SourceText, rules};
use crate::engine::platform;
use crate::engine::textread::{CONFIG_MAX_BYTES, ConfigReadError, read_config_file};
use crate::engine::yaml::{self, Value};
use crate::error::UsageError;
use std::collections::BTreeMap;
use std::ops::Range;

/// The configuration file's name.
pub const FILE_NAME: &str = ".dsh-skills-lint.yaml";

/// The marker of a suppression comment.
pub const MARKER: &str = "dsh-skills-lint:";

/// A project's lint configuration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// Where it was read from.
    pub path: Option<String>,
    /// Rule id → level (`None` = off).
    pub levels: BTreeMap<String, Option<Severity>>,
    pub compat: Vec<Compat>,
    pub fail_on: Option<Severity>,
    /// `unscanned-ok`: folders the harness does not scan that the project keeps on purpose (for
    /// another agent), as written; relative entries are relative to the file's directory.
    pub unscanned_ok: Vec<String>,
    /// `not-skills`: Markdown files in a root that are not skills, kept there on purpose (the
    /// harness logs each as skipped), as written; relative to the file's directory.
    pub not_skills: Vec<String>,
    /// Frontmatter keys the project uses besides the known ones (`extra-keys`).
    pub extra_keys: Vec<String>,
    /// `baseline`: the baseline file `lint` (without `--baseline`) and the language server
    /// apply, as written; relative to the file's directory.
    pub baseline: Option<String>,
}

impl Config {
    /// The configuration for `start` (walking up to the filesystem root), or `explicit`.
    pub fn find(start: &str, explicit: Option<&str>, process_cwd: &str) -> Result<Config, UsageError> {
        if let Some(p) = explicit {
            let abs = platform::resolve(process_cwd, p);
            return Config::read(&abs, true);
        }
        let mut dir = start.to_string();
        loop {
            let candidate = platform::join(&dir, FILE_NAME);
            // Anything but a directory is read, so that a FIFO or a device is refused by name
            // rather than skipped without a word.
            if std::fs::metadata(&candidate).is_ok_and(|m| !m.is_dir()) {
                return Config::read(&candidate, false);
            }
            let parent = platform::dirname(&dir);
            if parent == dir {
                return Ok(Config::default());
            }
            dir = parent;
        }
    }

    /// Read the file at `path` through the hardened configuration reader; `explicit`: the user
    /// named it (`--config`), so a pipe is read too.
    pub fn read(path: &str, explicit: bool) -> Result<Config, UsageError> {
        let cannot = |e: String| UsageError(format!("cannot read the lint configuration {path}: {e}"));
        let bytes = match read_config_file(path, explicit, CONFIG_MAX_BYTES) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return Err(cannot("no such file".into())),
            Err(ConfigReadError::Node(e)) => return Err(cannot(e.message())),
            Err(e) => return Err(UsageError(format!("cannot read the lint configuration: {e}"))),
        };
        let text = String::from_utf8(bytes)
            .map_err(|_| UsageError(format!("the lint configuration {path} is not valid UTF-8")))?;
        Config::parse(&text)
            .map_err(|e| UsageError(format!("invalid lint configuration {path}: {}", super::term::escape(&e))))
            .map(|mut c| {
                c.path = Some(path.to_string());
                c
            })
    }

    pub fn parse(text: &str) -> Result<Config, String> {
        let parsed = yaml::parse(text).map_err(|e| e.pretty.lines().next().unwrap_or("invalid YAML").to_string())?;
        let mut config = Config::default();
        let obj = match &parsed.value {
            Value::Object(o) => o,
            Value::Null => return Ok(config),
            _ => return Err("the file must be a mapping with `rules`, `compat` and `fail-on`".into()),
        };
        for (key, value) in obj.iter() {
            match key {
                "rules" => {
                    let rules_obj = match value {
                        Value::Object(o) => o,
                        Value::Null => continue,
                        _ => return Err("`rules` must map rule ids to error, warning, info or off".into()),
                    };
                    for (id, level) in rules_obj.iter() {
                        if rules::find(id).is_none() {
                            return Err(unknown_rule(id));
                        }
                        let level = match level {
                            Value::String(s) if s == "off" => None,
                            Value::Bool(false) => None,
                            Value::String(s) => Some(Severity::parse(s).ok_or_else(|| {
                                format!("rule `{id}`: `{s}` is not a level (error, warning, info, off)")
                            })?),
                            _ => return Err(format!("rule `{id}`: the level must be error, warning, info or off")),
                        };
                        config.levels.insert(id.to_string(), level);
                    }
                }
                "compat" => {
                    let items: Vec<&Value> = match value {
                        Value::Array(a) => a.iter().collect(),
                        Value::Null => Vec::new(),
                        v => vec![v],
                    };
                    for item in items {
                        let c = match item {
                            Value::String(s) => Compat::parse(s),
                            _ => None,
                        }
                        .ok_or("`compat` takes agentskills, claude-code and codex")?;
                        if !config.compat.contains(&c) {
                            config.compat.push(c);
                        }
                    }
                }
                "extra-keys" => {
                    for item in list_items(value) {
                        match item {
                            Value::String(k) if !k.is_empty() => {
                                if let Some(h) = crate::lint::check::HARNESS_KEYS
                                    .iter()
                                    .find(|h| {
                                        crate::lint::check::normalize_key(h) == crate::lint::check::normalize_key(k)
                                    })
                                    .filter(|h| **h != k.as_str())
                                {
                                    return Err(format!(
                                        "`extra-keys`: `{k}` is a misspelling of the harness key `{h}`; allowing it \
                                         would hide the typo"
                                    ));
                                }
                                config.extra_keys.push(k.to_string());
                            }
                            _ => return Err("`extra-keys` is a list of frontmatter key names".into()),
                        }
                    }
                }
                "fail-on" => {
                    config.fail_on = match value {
                        Value::String(s) => Some(Severity::parse(s).ok_or("`fail-on` is error, warning or info")?),
                        _ => return Err("`fail-on` is error, warning or info".into()),
                    }
                }
                "unscanned-ok" => config.unscanned_ok = path_list("unscanned-ok", value, "folder")?,
                "not-skills" => config.not_skills = path_list("not-skills", value, "file")?,
                "baseline" => {
                    config.baseline = match value {
                        Value::String(s) if !s.is_empty() => Some(s.to_string()),
                        Value::Null => None,
                        _ => {
                            return Err(
                                "`baseline` is the path of a baseline file (`lint --write-baseline FILE`)".into()
                            );
                        }
                    }
                }
                other => {
                    return Err(format!(
                        "unknown key `{other}` (the file takes `rules`, `compat`, `fail-on`, `unscanned-ok`, \
                         `not-skills`, `extra-keys` and `baseline`)"
                    ));
                }
            }
        }
        Ok(config)
    }

    /// The `not-skills` files as absolute paths (relative ones against the file's folder, else
    /// against `base`).
    pub fn not_skills_paths(&self, base: &str) -> Vec<String> {
        self.resolve_entries(&self.not_skills, base)
    }

    /// The `baseline` file as an absolute path (relative to the file's folder, else to `base`).
    pub fn baseline_path(&self, base: &str) -> Option<String> {
        let b = self.baseline.as_ref()?;
        self.resolve_entries(std::slice::from_ref(b), base).pop()
    }

    /// The `unscanned-ok` folders as absolute paths (relative ones against the file's folder,
    /// else against `base`).
    pub fn unscanned_ok_paths(&self, base: &str) -> Vec<String> {
        self.resolve_entries(&self.unscanned_ok, base)
    }

    /// Entries of a path list as absolute paths: relative ones against the file's folder, else
    /// against `base`.
    fn resolve_entries(&self, entries: &[String], base: &str) -> Vec<String> {
        let dir = self.path.as_deref().map_or_else(|| base.to_string(), platform::dirname);
        entries.iter().map(|p| platform::resolve(&dir, p)).collect()
    }

    /// The level a finding ends up with: the configured level for its rule, else its own; a
    /// portability rule is off unless one of its `--compat` targets is on or it is configured.
    pub fn level(&self, finding: &Finding, compat: &[Compat]) -> Option<Severity> {
        if let Some(level) = self.levels.get(finding.rule.id) {
            return *level;
        }
        (!self.portability_off(finding.rule, compat)).then_some(finding.severity)
    }

    /// Whether `rule` is a portability rule this run turns off: not configured, and none of its
    /// `--compat` targets on. Its findings would all be dropped ([`Config::level`]), so the
    /// checks need not make them.
    pub fn portability_off(&self, rule: &rules::Rule, compat: &[Compat]) -> bool {
        !self.levels.contains_key(rule.id) && !rule.compat.is_empty() && !rule.compat.iter().any(|c| compat.contains(c))
    }
}

fn unknown_rule(id: &str) -> String {
    let close = rules::similar(id);
    if close.is_empty() {
        format!("unknown rule `{id}` (see `dsh-skills lint --explain <rule>`)")
    } else {
        format!(
            "unknown rule `{id}`; did you mean {}?",
            close.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" or ")
        )
    }
}

/// Suppressions found in one file's frontmatter.
#[derive(Clone, Debug, Default)]
pub struct Suppressions {
    /// Rules disabled for the whole file.
    pub file: Vec<String>,
    /// (1-based line, rule) pairs disabled on one line, sorted and without repeats (so that a
    /// finding's lookup is a binary search, not a walk over every suppression).
    pub lines: Vec<(usize, String)>,
}

impl Suppressions {
    /// Scan the frontmatter (`region`, a byte range of `src`) for `# dsh-skills-lint:` comments.
    /// Malformed comments and unknown rule ids become `invalid-suppression` findings.
    pub fn scan(src: &SourceText, region: Range<usize>, path: &str) -> (Suppressions, Vec<Finding>) {
        let mut s = Suppressions::default();
        let mut bad = Vec::new();
        let region = src.clamp(&region);
        if !src.slice(region.clone()).is_some_and(|t| t.contains(MARKER)) {
            return (s, bad);
        }
        let mut unknown: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
        let first = src.line_of(region.start);
        let last = src.line_of(region.end.saturating_sub(1).max(region.start));
        for line in first..=last {
            let range = src.line_range(line);
            let Some(text) = src.slice(range.clone()) else { continue };
            let Some(hash) = text.find('#') else { continue };
            let comment = text[hash + 1..].trim();
            let Some(rest) = comment.strip_prefix(MARKER) else { continue };
            let rest = rest.trim();
            let (directive, ids) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let ids: Vec<&str> = ids.split([',', ' ']).map(str::trim).filter(|i| !i.is_empty()).collect();
            let at = range.start + hash..range.end;
            let target_line = match directive {
                "disable" => None,
                "disable-next-line" => Some(line + 1),
                "disable-line" => Some(line),
                other => {
                    bad.push(
                        Finding::new(
                            &INVALID_SUPPRESSION,
                            path,
                            format!("unknown directive `{other}`"),
                            "lint ignores this comment; the harness ignores YAML comments",
                        )
                        .at(at.clone())
                        .help("use `disable <rule>…`, `disable-next-line <rule>…` or `disable-line <rule>…`"),
                    );
                    continue;
                }
            };
            if ids.is_empty() {
                bad.push(
                    Finding::new(
                        &INVALID_SUPPRESSION,
                        path,
                        "the suppression names no rule",
                        "lint ignores this comment; the harness ignores YAML comments",
                    )
                    .at(at.clone())
                    .help("name the rule ids to suppress, separated by commas"),
                );
                continue;
            }
            for id in ids {
                if rules::find(id).is_none() {
                    // Worded once per distinct id: the wording compares it with every rule id.
                    let message = unknown.entry(id).or_insert_with(|| unknown_rule(id)).clone();
                    bad.push(
                        Finding::new(
                            &INVALID_SUPPRESSION,
                            path,
                            message,
                            "this comment suppresses nothing; the harness ignores YAML comments",
                        )
                        .at(at.clone()),
                    );
                    continue;
                }
                match target_line {
                    None => s.file.push(id.to_string()),
                    Some(l) => s.lines.push((l, id.to_string())),
                }
            }
        }
        s.file.sort_unstable();
        s.file.dedup();
        s.lines.sort_unstable();
        s.lines.dedup();
        (s, bad)
    }

    /// No suppression at all (the usual case).
    pub fn is_empty(&self) -> bool {
        self.file.is_empty() && self.lines.is_empty()
    }

    pub fn suppresses(&self, f: &Finding, src: Option<&SourceText>) -> bool {
        if self.file.iter().any(|r| r == f.rule.id) {
            return true;
        }
        match (&f.span, src) {
            (Some(span), Some(src)) if !self.lines.is_empty() => {
                let line = src.line_of(span.start);
                let from = self.lines.partition_point(|(l, _)| *l < line);
                self.lines[from..].iter().take_while(|(l, _)| *l == line).any(|(_, r)| r == f.rule.id)
            }
            _ => false,
        }
    }
}

/// A list of paths (`unscanned-ok`: folders, `not-skills`: files), relative to the file's
/// folder; a glob is refused by name, as globs are not supported.
fn path_list(key: &str, value: &Value, what: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for item in list_items(value) {
        match item {
            Value::String(s) if s.contains(['*', '?', '[']) => {
                return Err(format!(
                    "`{key}`: `{s}` is a glob; globs are not supported: list each {what} (relative to this file's folder)"
                ));
            }
            Value::String(s) if !s.is_empty() => out.push(s.to_string()),
            _ => return Err(format!("`{key}` takes a list of {what} paths")),
        }
    }
    Ok(out)
}

/// The items of a list setting: a list, one value standing for a list of one, or nothing.
fn list_items(value: &Value) -> Vec<&Value> {
    match value {
        Value::Array(a) => a.iter().collect(),
        Value::Null => Vec::new(),
        v => vec![v],
    }
}

crate::lint::rules::declare_rules! {
    INVALID_SUPPRESSION = rule(
        "invalid-suppression",
        Warning,
        Suspicious,
        "A `# dsh-skills-lint:` comment names an unknown rule or is malformed.",
        "Suppression comments in the frontmatter must name existing rule ids; a misspelled id \
         suppresses nothing.",
        "Use an id from `dsh-skills lint --explain <rule>` or the README table.",
    );
    CONFIG_UNMATCHED = rule(
        "config-unmatched",
        Warning,
        Suspicious,
        "An `unscanned-ok` or `not-skills` entry of `.dsh-skills-lint.yaml` matches nothing.",
        "An entry that matches nothing has no effect: a misspelt or moved folder is still reported \
         (or the entry outlived the folder), and a `not-skills` file added later under that name \
         would be silenced without review. Entries are paths relative to the folder of the \
         configuration file; globs are not supported (the file is refused when an entry has `*`, \
         `?` or `[`). `unscanned-ok` entries are checked when `lint` runs for the project (no \
         paths on the command line), where every unscanned folder is searched; a `not-skills` \
         entry whenever the file it names does not exist.",
        "Correct the path (as `dsh-skills list` prints the folder) or remove the entry.",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_config() {
        let c =
            Config::parse("rules:\n  body-too-long: off\n  name-mismatch: error\ncompat: codex\nfail-on: warning\n")
                .unwrap();
        assert_eq!(c.levels.get("body-too-long"), Some(&None));
        assert_eq!(c.levels.get("name-mismatch"), Some(&Some(Severity::Error)));
        assert_eq!(c.compat, [Compat::Codex]);
        assert_eq!(c.fail_on, Some(Severity::Warning));
        assert!(Config::parse("rules:\n  yaml-sintax: off\n").unwrap_err().contains("did you mean `yaml-syntax`"));
        assert!(Config::parse("level: 3\n").is_err());
        assert_eq!(Config::parse("").unwrap(), Config::default());
        assert_eq!(Config::parse("extra-keys: [requires, owner]\n").unwrap().extra_keys, ["requires", "owner"]);
        assert_eq!(Config::parse("extra-keys: requires\n").unwrap().extra_keys, ["requires"]);
        assert!(Config::parse("extra-keys: [user_invocable]\n").unwrap_err().contains("`user-invocable`"));
        assert!(Config::parse("extra-keys: [1]\n").is_err());
    }

    #[test]
    fn scans_suppressions() {
        let text = "---\n# dsh-skills-lint: disable name-mismatch\nname: x\n# dsh-skills-lint: disable-next-line unknown-key, nope\nfoo: 1\n---\nbody # dsh-skills-lint: disable body-too-long\n";
        let src = SourceText::new(text.to_string(), true);
        let (s, bad) = Suppressions::scan(&src, 0..text.find("body").unwrap(), "/p");
        assert_eq!(s.file, ["name-mismatch"]);
        assert_eq!(s.lines, [(5, "unknown-key".to_string())]);
        assert_eq!(bad.len(), 1);
        assert!(bad[0].message.contains("unknown rule `nope`"));
    }
}
