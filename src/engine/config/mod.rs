//! The harness's own configuration, read as `dsh` reads it (spec 2), so that a bare
//! `dsh-skills catalog` previews what `dsh` shows its model.
//!
//! Order of precedence, highest first: flags, configuration files, the process environment
//! (`DSH_HOME`, `DSH_AGENTS_HOME`, `DSH_BUNDLED_SKILL_DIR`; never `.env` files), the harness's
//! defaults. What is read:
//! * the profile (`--profile web|headless`, default `web`): the shipped bundle layers
//!   ([`shipped`]), then `$DSH_HOME/profiles/<profile>/cordis.patch.yml`, then
//!   `$DSH_HOME/cordis.patch.yml`, then every `--patch <file>`, composed with the loader's
//!   id-patch semantics ([`patch`]) into the host rows;
//! * under `web`, the agent preset a session mounts: `--preset`, else `agent-presets.default` in
//!   the settings document (`$DSH_HOME/settings.yaml`), else the roster row's `default`
//!   (`standard`); shipped presets first, then `$DSH_HOME/.agent-presets/<id>/agent.cordis.yml`;
//! * the skill rows of both: every active `skill-filesystem` row is a provider (row order), a
//!   `skill-badge` row contributes `dsh-badge`, a `tool-skill` row mounts the catalog. The
//!   preset's rows form the preset registry layer, which beats the global (host) layer.
//!
//! Every effective setting carries its [`Origin`]. The module never prints.

pub mod dialect;
pub mod files;
pub mod jsexpr;
pub mod patch;
pub mod shipped;

use crate::engine::catalog::DEFAULT_DESCRIPTION_MAX_LENGTH;
use crate::engine::discover::{Environment, ProviderConfig, ResolvedProvider};
use crate::engine::platform;
use crate::engine::snapshot::{BadgeConfig, Layer, ProviderSpec, Settings};
use dialect::{Loc, Node, Source, Value};
use jsexpr::{Evaluation, JsContext, JsValue};
use std::rc::Rc;

/// A configuration dsh would refuse, or one dsh-skills cannot evaluate; the message names the
/// file, the line and the problem. Exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl ConfigError {
    pub fn new(message: impl Into<String>) -> Self {
        ConfigError(message.into())
    }
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

/// Where an effective setting came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The harness's default.
    Default,
    /// A process environment variable.
    Env(&'static str),
    /// A dsh-skills flag.
    Flag(&'static str),
    /// A file on this machine, or the shipped harness, at a line.
    At(Loc),
}

/// `default`, `$DSH_HOME`, `--dsh-home`, `/home/me/.dsh/cordis.patch.yml:4`, `shipped …:240`.
impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Default => f.write_str("default"),
            Origin::Env(name) => write!(f, "${name}"),
            Origin::Flag(name) => f.write_str(name),
            Origin::At(loc) => match &*loc.source {
                dialect::Source::File(_) => write!(f, "{loc}"),
                dialect::Source::Shipped(path) if loc.line == 0 => write!(f, "shipped default, {path}"),
                dialect::Source::Shipped(path) => write!(f, "shipped default, {path}:{}", loc.line),
            },
        }
    }
}

/// One effective setting: its value (as JSON), where it came from, and a remark.
#[derive(Clone, Debug)]
pub struct Setting {
    pub key: String,
    pub value: serde_json::Value,
    pub origin: Origin,
    pub note: Option<String>,
    /// Per-entry origins of a list (`customSkillDirs`).
    pub items: Vec<Setting>,
}

impl Setting {
    fn new(key: &str, value: impl Into<serde_json::Value>, origin: Origin) -> Setting {
        Setting { key: key.into(), value: value.into(), origin, note: None, items: Vec::new() }
    }

    fn note(mut self, note: impl Into<String>) -> Setting {
        self.note = Some(note.into());
        self
    }
}

/// A configuration row, as reports name it.
#[derive(Clone, Debug)]
pub struct RowRef {
    pub id: Option<String>,
    pub at: Loc,
}

/// One provider of one registry layer.
#[derive(Clone, Debug)]
pub struct ProviderInfo {
    /// `filesystem` or `badge`.
    pub kind: &'static str,
    pub name: String,
    /// The configuration row that mounts it (`None` with --no-config: flags only).
    pub row: Option<RowRef>,
    pub settings: Vec<Setting>,
}

#[derive(Clone, Debug)]
pub struct LayerInfo {
    pub name: String,
    pub providers: Vec<ProviderInfo>,
}

/// A file dsh reads, and whether it was there.
#[derive(Clone, Debug)]
pub struct FileInfo {
    pub role: &'static str,
    pub path: String,
    /// `read`, `absent`, or why it was not consulted.
    pub status: String,
}

/// Everything the configuration decided, with origins.
#[derive(Clone, Debug)]
pub struct Report {
    pub no_config: bool,
    pub profile: Setting,
    pub config_home: Setting,
    pub launch_dir: Setting,
    pub cwd: Setting,
    pub locale: Setting,
    pub files: Vec<FileInfo>,
    /// The preset a new web session mounts (`None` under headless, with --no-config, or when
    /// the roster row is disabled).
    pub preset: Option<Setting>,
    pub layers: Vec<LayerInfo>,
    /// Whether the `skill` tool is mounted, and by which row.
    pub tool: Setting,
    pub description_max_length: Setting,
    pub badge: Setting,
    /// Log lines the harness's loader writes while composing (`patch: entry "x" not found`),
    /// each with the patch's location.
    pub warnings: Vec<String>,
    /// Where the preview may differ from what dsh shows, and why.
    pub problems: Vec<String>,
    /// Remarks on the composition (implementation-defined orders, ignored flags).
    pub notes: Vec<String>,
    /// Why the model gets no catalog at all, when the configuration decides it.
    pub no_tool_reason: Option<String>,
}

/// The outcome: the settings discovery runs with, and the report.
#[derive(Debug)]
pub struct Resolved {
    pub settings: Settings,
    pub report: Report,
}

/// The flags that shape discovery and configuration, as the command line gave them.
#[derive(Clone, Debug, Default)]
pub struct Flags {
    pub cwd: Option<String>,
    pub no_cwd: bool,
    pub dsh_home: Option<String>,
    pub agents_home: Option<String>,
    pub custom_dirs: Vec<String>,
    /// `--root`: folders previewed as installed, appended to the custom dirs (configured or
    /// given with `--custom-dir`).
    pub roots: Vec<String>,
    pub bundled_dir: Option<String>,
    pub no_default_roots: bool,
    pub description_max_length: Option<usize>,
    pub no_config: bool,
    pub profile: Option<Profile>,
    pub preset: Option<String>,
    pub patches: Vec<String>,
    pub launch_dir: Option<String>,
    pub locale: Option<String>,
}

/// A shipped `dsh` profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Web,
    Headless,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::Web => "web",
            Profile::Headless => "headless",
        }
    }
}

/// Everything from outside the files: flags, environment, launch directory.
struct Inputs<'a> {
    g: &'a Flags,
    env: &'a Environment,
    var: &'a dyn Fn(&str) -> Option<String>,
    launch_dir: String,
    config_home: String,
}

/// The settings the flags give, over the environment and the defaults, with no configuration
/// file read (`--no-config`; the language server when the configuration fails).
pub fn flags_only(g: &Flags, env: &Environment, var: &dyn Fn(&str) -> Option<String>) -> Settings {
    Settings::single(
        if g.no_cwd { None } else { Some(g.cwd.clone().unwrap_or_else(|| env.process_cwd.clone())) },
        ProviderConfig {
            dsh_home: g.dsh_home.clone(),
            agents_home: g.agents_home.clone(),
            custom_skill_dirs: g.custom_dirs.iter().chain(&g.roots).cloned().collect(),
            bundled_skill_dir: g.bundled_dir.clone(),
            include_default_roots: !g.no_default_roots,
            ..ProviderConfig::default()
        },
        g.description_max_length.unwrap_or(DEFAULT_DESCRIPTION_MAX_LENGTH),
        g.locale
            .as_deref()
            .map_or_else(|| crate::engine::collate::locale_from_env(var), crate::engine::collate::locale_from_value),
    )
}

/// Resolve the effective settings from flags, the environment and (unless `--no-config`) the
/// harness's configuration files.
pub fn resolve(g: &Flags, env: &Environment, var: &dyn Fn(&str) -> Option<String>) -> Result<Resolved, ConfigError> {
    if g.no_config && (g.preset.is_some() || !g.patches.is_empty() || g.launch_dir.is_some()) {
        return Err(ConfigError::new(
            "--preset, --patch and --launch-dir read configuration; they cannot be combined with --no-config",
        ));
    }
    let profile_flag = g.profile;
    let profile = profile_flag.unwrap_or(Profile::Web);
    if g.preset.is_some() && profile == Profile::Headless {
        return Err(ConfigError::new(
            "--preset applies to the web profile; the headless profile mounts no agent presets",
        ));
    }
    let launch_dir = match &g.launch_dir {
        Some(d) => platform::resolve(&env.process_cwd, d),
        None => env.process_cwd.clone(),
    };
    let (config_home, home_origin) = config_home(g, env);
    let inputs = Inputs { g, env, var, launch_dir: launch_dir.clone(), config_home: config_home.clone() };

    let mut report = Report {
        no_config: g.no_config,
        profile: Setting::new(
            "profile",
            profile.name(),
            if profile_flag.is_some() { Origin::Flag("--profile") } else { Origin::Default },
        ),
        config_home: Setting::new("dshHome (configuration)", config_home.clone(), home_origin),
        launch_dir: Setting::new(
            "launch directory",
            launch_dir,
            if g.launch_dir.is_some() { Origin::Flag("--launch-dir") } else { Origin::Default },
        )
        .note("relative paths in configuration files resolve against it"),
        cwd: cwd_setting(g, env),
        locale: locale_setting(g, var),
        files: Vec::new(),
        preset: None,
        layers: Vec::new(),
        tool: Setting::new("skill tool", true, Origin::Default),
        description_max_length: Setting::new(
            "catalogDescriptionMaxLength",
            DEFAULT_DESCRIPTION_MAX_LENGTH,
            Origin::Default,
        ),
        badge: Setting::new("skill-badge", "disabled", Origin::Default),
        warnings: Vec::new(),
        problems: Vec::new(),
        notes: Vec::new(),
        no_tool_reason: None,
    };
    let cwd = if g.no_cwd { None } else { Some(g.cwd.clone().unwrap_or_else(|| env.process_cwd.clone())) };
    let locale = report.locale.value.as_str().unwrap_or("en-US").to_string();

    if g.no_config {
        // Exactly the flags-only settings: one global filesystem provider.
        let raw = FsRow::default();
        let (config, settings) = provider_config(&inputs, &raw, "global")?;
        let max = g.description_max_length.unwrap_or(DEFAULT_DESCRIPTION_MAX_LENGTH);
        if g.description_max_length.is_some() {
            report.description_max_length =
                Setting::new("catalogDescriptionMaxLength", max, Origin::Flag("--description-max-length"));
        }
        report.notes.push("--no-config: the harness's configuration files are ignored; one filesystem provider with flags, environment and defaults".into());
        report.layers.push(LayerInfo {
            name: "global".into(),
            providers: vec![ProviderInfo {
                kind: "filesystem",
                name: config.provider_name.clone(),
                row: None,
                settings,
            }],
        });
        return Ok(Resolved { settings: Settings::single(cwd, config, max, locale), report });
    }

    // ── host composition ────────────────────────────────────────────────────────────────
    let profile_dir = platform::join(&platform::join(&config_home, "profiles"), profile.name());
    check_profile_manifest(&profile_dir, profile, &mut report)?;
    let mut patches = shipped::base_patches();
    patches.extend(match profile {
        Profile::Web => shipped::web_app_patches(),
        Profile::Headless => shipped::headless_patches(),
    });
    let profile_patch = platform::join(&profile_dir, "cordis.patch.yml");
    // loadProfile reads the profile layer only when `existsSync` finds it.
    if std::fs::metadata(&profile_patch).is_ok() {
        let files::Read::Text(text) = files::read_text(&profile_patch, "the profile patch layer", false)? else {
            unreachable!("the file exists")
        };
        patches.extend(files::patch_list(&profile_patch, &text, "the profile patch layer")?);
        report.files.push(FileInfo { role: "profile patch layer", path: profile_patch, status: "read".into() });
    } else {
        report.files.push(FileInfo { role: "profile patch layer", path: profile_patch, status: "absent".into() });
    }
    let home_patch = platform::join(&config_home, "cordis.patch.yml");
    match files::read_text(&home_patch, "the home patch layer", false)? {
        files::Read::Text(text) => {
            patches.extend(files::patch_list(&home_patch, &text, "the home patch layer")?);
            report.files.push(FileInfo { role: "home patch layer", path: home_patch, status: "read".into() });
        }
        files::Read::Absent => {
            report.files.push(FileInfo { role: "home patch layer", path: home_patch, status: "absent".into() })
        }
    }
    for file in &g.patches {
        let path = platform::resolve(&inputs.env.process_cwd, file);
        let files::Read::Text(text) = files::read_text(&path, "the --patch overlay", true)? else {
            return Err(ConfigError::new(format!(
                "cannot read the --patch overlay {path}: Error: ENOENT: no such file or directory, open '{path}'"
            )));
        };
        patches.extend(files::patch_list(&path, &text, "the --patch overlay")?);
        report.files.push(FileInfo { role: "--patch overlay", path, status: "read".into() });
    }
    let composition = patch::Composition::apply(Vec::new(), &patches)
        .map_err(|e| ConfigError::new(format!("{}: {} (dsh refuses to start with it)", e.at, e.message)))?;
    report.warnings.extend(composition.warnings.iter().map(|w| format!("{}: {}", w.at, w.message)));

    let profile_base = format!("{profile_dir}{}", platform::SEP);
    let host_cx = JsContext { base_dir: Ok(&profile_base), launch_dir: &inputs.launch_dir, var };
    let host = SkillRows::collect(&composition.rows, &host_cx)?;
    if let Some(at) = badge_disabled_at(&composition.rows) {
        report.badge = Setting::new("skill-badge", "disabled", Origin::At(at));
    }
    if profile == Profile::Web {
        note_inert_host_config(&composition.rows, &mut report);
    }

    // ── the preset a web session mounts ─────────────────────────────────────────────────
    let mut preset_layer: Option<(String, SkillRows, Result<String, String>, Loc)> = None;
    if profile == Profile::Web {
        match host.roster.first() {
            None => {
                report.notes.push(
                    "the agent-presets row is disabled: web sessions join no preset, so only the host (global) rows count"
                        .into(),
                );
            }
            Some(roster) => {
                let (id, origin) = choose_preset(&inputs, &host, roster, &host_cx, &mut report)?;
                let (rows, cx_dir, where_, file) = load_preset(&inputs, &id, roster, &host_cx, &mut report)?;
                let base = cx_dir.as_ref().map(|d| format!("{d}{}", platform::SEP));
                let cx = JsContext {
                    base_dir: base.as_deref().map_err(|e| e.as_str()),
                    launch_dir: &inputs.launch_dir,
                    var,
                };
                let rows = SkillRows::collect(&rows, &cx)?;
                report.preset = Some(Setting::new("preset", id.clone(), origin).note(where_));
                preset_layer = Some((id, rows, cx_dir, file));
            }
        }
    }

    // ── registry layers ─────────────────────────────────────────────────────────────────
    let mut layers = Vec::new();
    let mut tool: Option<(&SkillRow, String)> = None;
    if host.registry.is_empty() {
        report.notes.push("the `skill` registry row is disabled: the harness has no skills and no catalog".into());
        report.no_tool_reason = Some("the `skill` registry row is disabled".into());
    } else {
        let host_base: Result<String, String> = Ok(profile_dir.clone());
        let mut all = vec![("global".to_string(), &host, &host_base)];
        if let Some((id, rows, base, _)) = &preset_layer {
            all.push((format!("preset:{id}"), rows, base));
        }
        for (name, rows, base) in &all {
            let (layer, info) = build_layer(&inputs, name, rows, base, &mut report)?;
            layers.push(layer);
            report.layers.push(info);
        }
        // The nearest layer's tool publishes the catalog its agent sees.
        for (name, rows, _) in all.iter().rev() {
            if let Some(t) = rows.tool.first() {
                tool = Some((t, name.clone()));
                break;
            }
        }
        for (name, rows, _) in &all {
            if rows.tool.len() > 1 {
                report.problems.push(format!(
                    "layer {name} mounts {} tool-skill rows; each registers a `skill` tool, which the harness refuses as a duplicate registration",
                    rows.tool.len()
                ));
            }
        }
    }
    let description_max_length = match &tool {
        Some((row, layer)) => {
            report.tool = Setting::new("skill tool", true, Origin::At(row.row.at.clone()))
                .note(format!("row {} in layer {layer}", row.row.id.as_deref().unwrap_or("(no id)")));
            description_max_length(&inputs, row, &mut report)?
        }
        None => {
            let reason = report.no_tool_reason.clone().unwrap_or_else(|| match &preset_layer {
                Some((id, _, _, _)) => {
                    format!("preset `{id}` mounts no tool-skill row, and no host tool-skill row is enabled")
                }
                None => "no tool-skill row is enabled".into(),
            });
            let origin = match &preset_layer {
                Some((_, _, _, file)) if report.no_tool_reason.is_none() => Origin::At(file.clone()),
                _ => Origin::Default,
            };
            report.tool = Setting::new("skill tool", false, origin).note(reason.clone());
            report.no_tool_reason = Some(reason);
            let max = g.description_max_length.unwrap_or(DEFAULT_DESCRIPTION_MAX_LENGTH);
            if g.description_max_length.is_some() {
                report.description_max_length =
                    Setting::new("catalogDescriptionMaxLength", max, Origin::Flag("--description-max-length"));
            }
            max
        }
    };
    if !layers.iter().any(|l: &Layer| l.providers.iter().any(|p| matches!(p, ProviderSpec::Filesystem(_)))) {
        for (set, flag) in [
            (g.dsh_home.is_some(), "--dsh-home"),
            (g.agents_home.is_some(), "--agents-home"),
            (!g.custom_dirs.is_empty(), "--custom-dir"),
            (!g.roots.is_empty(), "--root"),
            (g.bundled_dir.is_some(), "--bundled-dir"),
            (g.no_default_roots, "--no-default-roots"),
        ] {
            if set {
                report
                    .notes
                    .push(format!("{flag} has no effect: no skill-filesystem row is enabled in this configuration"));
            }
        }
    }
    let settings = Settings {
        cwd,
        layers,
        description_max_length,
        locale,
        tool_visible: tool.is_some(),
        scan: crate::engine::discover::ScanOptions::default(),
    };
    Ok(Resolved { settings, report })
}

/// `resolveDshHome()` as the launcher sees it, with `--dsh-home` standing in for `DSH_HOME`.
fn config_home(g: &Flags, env: &Environment) -> (String, Origin) {
    let (raw, origin) = match &g.dsh_home {
        Some(v) => (v.clone(), Origin::Flag("--dsh-home")),
        None => match &env.dsh_home {
            Some(v) if !crate::engine::js::trim(v).is_empty() => (v.clone(), Origin::Env("DSH_HOME")),
            _ => (platform::join(&env.home, ".dsh"), Origin::Default),
        },
    };
    (platform::resolve(&env.process_cwd, &platform::expand_home(&raw, &env.home)), origin)
}

fn cwd_setting(g: &Flags, env: &Environment) -> Setting {
    if g.no_cwd {
        return Setting::new("cwd", serde_json::Value::Null, Origin::Flag("--no-cwd"));
    }
    match &g.cwd {
        Some(c) => Setting::new("cwd", platform::resolve(&env.process_cwd, c), Origin::Flag("--cwd")),
        None => Setting::new("cwd", env.process_cwd.clone(), Origin::Default).note("the current directory"),
    }
}

fn locale_setting(g: &Flags, var: &dyn Fn(&str) -> Option<String>) -> Setting {
    if let Some(l) = &g.locale {
        return Setting::new("locale", crate::engine::collate::locale_from_value(l), Origin::Flag("--locale"));
    }
    // ICU takes the first of LC_ALL, LC_MESSAGES, LANG that is set, even to "".
    match crate::engine::collate::locale_source(var) {
        Some(name) => Setting::new("locale", crate::engine::collate::locale_from_env(var), Origin::Env(name)),
        None => Setting::new("locale", crate::engine::collate::locale_from_env(var), Origin::Default),
    }
}

/// A profile whose manifest lists other bundles than the shipped template composes rows
/// dsh-skills does not know.
fn check_profile_manifest(profile_dir: &str, profile: Profile, report: &mut Report) -> Result<(), ConfigError> {
    let path = platform::join(profile_dir, "package.json");
    let Some(bundles) = files::profile_bundles(&path)? else { return Ok(()) };
    let template: &[&str] = match profile {
        Profile::Web => &["@deepseek-ai/dsh-base", "@deepseek-ai/dsh-web-app"],
        Profile::Headless => &["@deepseek-ai/dsh-base", "@deepseek-ai/dsh-headless"],
    };
    // The launcher rewrites this installation-owned tuple to the template.
    let normalized: &[&str] = &["@deepseek-ai/dsh-base", "@deepseek-ai/dsh-web-app", "@deepseek-ai/dsh-headless"];
    let same = |list: &[&str]| bundles.len() == list.len() && bundles.iter().zip(list).all(|(a, b)| a == b);
    if !(same(template) || (profile == Profile::Headless && same(normalized))) {
        report.problems.push(format!(
            "{path}: the profile composes the bundles [{}]; dsh-skills knows the rows of the shipped [{}] only, so rows from other bundles are missing here",
            bundles.join(", "),
            template.join(", ")
        ));
    }
    Ok(())
}

// ── skill rows ──────────────────────────────────────────────────────────────────────────────

/// One enabled row that bears on skills.
#[derive(Clone, Debug)]
struct SkillRow {
    row: RowRef,
    node: Node,
    /// For provider rows: a badge row (else a filesystem row).
    badge: bool,
}

/// The enabled skill-bearing rows of one composition, each list in row order.
#[derive(Default)]
struct SkillRows {
    registry: Vec<SkillRow>,
    /// `skill-filesystem` and `skill-badge` rows, interleaved in row order.
    providers: Vec<SkillRow>,
    tool: Vec<SkillRow>,
    roster: Vec<SkillRow>,
    settings: Vec<SkillRow>,
}

/// Whether a row is disabled: known, or a `!!js` expression dsh-skills cannot evaluate.
enum Disabled {
    Known(bool),
    Unknown { at: Loc, expr: String, why: String },
}

fn disabled_of(row: &Node, cx: &JsContext) -> Disabled {
    let Some(e) = row.get("disabled") else { return Disabled::Known(false) };
    match &e.value.value {
        Value::Js(expr) => match jsexpr::evaluate(expr, cx) {
            Evaluation::Known(v, _) => Disabled::Known(v.truthy()),
            Evaluation::Missing(why) => Disabled::Unknown { at: e.value.at.clone(), expr: expr.clone(), why },
            Evaluation::Unknown => Disabled::Unknown {
                at: e.value.at.clone(),
                expr: expr.clone(),
                why: "dsh-skills cannot evaluate this expression".into(),
            },
        },
        other => Disabled::Known(other.truthy()),
    }
}

impl SkillRows {
    fn collect(rows: &[Node], cx: &JsContext) -> Result<SkillRows, ConfigError> {
        let mut out = SkillRows::default();
        out.walk(rows, None, cx)?;
        Ok(out)
    }

    /// `ancestor`: `Some(Known(true))` when an enclosing group is disabled, `Unknown` when that
    /// cannot be told.
    fn walk(&mut self, rows: &[Node], ancestor: Option<&Disabled>, cx: &JsContext) -> Result<(), ConfigError> {
        for row in rows {
            if !matches!(row.value, Value::Map(_)) {
                continue;
            }
            let group = row.get_value("group").is_some_and(Value::truthy);
            let own = disabled_of(row, cx);
            if group {
                if let Some(Value::Seq(children)) = row.get_value("config") {
                    // Children see every ancestor's `disabled`, group or not.
                    let inherited = match (ancestor, own) {
                        (Some(Disabled::Known(true)), _) | (_, Disabled::Known(true)) => Disabled::Known(true),
                        (Some(Disabled::Unknown { at, expr, why }), _) => {
                            Disabled::Unknown { at: at.clone(), expr: expr.clone(), why: why.clone() }
                        }
                        (_, unknown @ Disabled::Unknown { .. }) => unknown,
                        _ => Disabled::Known(false),
                    };
                    let children = children.clone();
                    self.walk(&children, Some(&inherited), cx)?;
                }
                continue;
            }
            let Some(Value::Str(name)) = row.get_value("name") else { continue };
            let badge = name == shipped::SKILL_BADGE;
            let list = match name.as_str() {
                shipped::SKILL_REGISTRY => &mut self.registry,
                shipped::SKILL_FILESYSTEM | shipped::SKILL_BADGE => &mut self.providers,
                shipped::TOOL_SKILL => &mut self.tool,
                shipped::AGENT_PRESETS => &mut self.roster,
                shipped::SETTINGS_FILE_PLUGIN => &mut self.settings,
                _ => continue,
            };
            let id = match row.get_value("id") {
                Some(Value::Str(s)) => Some(s.clone()),
                Some(Value::Null) | None => None,
                Some(other) => Some(other.js_string()),
            };
            let label = id.clone().unwrap_or_else(|| "(no id)".into());
            let effective = match (ancestor, &own) {
                (_, Disabled::Known(true)) | (Some(Disabled::Known(true)), _) => Disabled::Known(true),
                (_, Disabled::Unknown { .. }) => own,
                (Some(Disabled::Unknown { at, expr, why }), _) => {
                    Disabled::Unknown { at: at.clone(), expr: expr.clone(), why: why.clone() }
                }
                _ => Disabled::Known(false),
            };
            match effective {
                Disabled::Known(true) => continue,
                Disabled::Known(false) => {}
                Disabled::Unknown { at, expr, why } => {
                    return Err(ConfigError::new(format!(
                        "{at}: cannot tell whether row {label} ({name}) is enabled: its `disabled` is `!!js {expr}` ({why}); restate it with a literal `disabled: true` or `false` (for host rows, a --patch file holding `- id: {label}` and `disabled: …` does that)"
                    )));
                }
            }
            list.push(SkillRow { row: RowRef { id, at: row.at.clone() }, node: row.clone(), badge });
        }
        Ok(())
    }
}

// ── values inside a row's config ────────────────────────────────────────────────────────────

/// A config value after `!!js` evaluation.
enum Field<T> {
    Absent,
    Value(T, Loc),
    /// A `!!js` value dsh-skills cannot evaluate (or whose input is missing).
    Unresolvable {
        at: Loc,
        expr: String,
        why: String,
        missing: bool,
    },
}

/// A `!!js` value without a value here.
struct Unres {
    expr: String,
    why: String,
    /// A recognised idiom whose input (e.g. the installed package) is missing.
    missing: bool,
}

/// Evaluate a node that may be `!!js`, to a plain value (`None`: `undefined`).
fn evaluated(node: &Node, cx: &JsContext) -> Result<Option<Value>, Unres> {
    match &node.value {
        Value::Js(expr) => match jsexpr::evaluate(expr, cx) {
            Evaluation::Known(JsValue::Str(s), _) => Ok(Some(Value::Str(s))),
            Evaluation::Known(JsValue::Bool(b), _) => Ok(Some(Value::Bool(b))),
            Evaluation::Known(JsValue::Undefined, _) => Ok(None),
            Evaluation::Missing(why) => Err(Unres { expr: expr.clone(), why, missing: true }),
            Evaluation::Unknown => Err(Unres {
                expr: expr.clone(),
                why: "dsh-skills cannot evaluate this expression".into(),
                missing: false,
            }),
        },
        other => Ok(Some(other.clone())),
    }
}

fn refused(row: &SkillRow, at: &Loc, message: String) -> ConfigError {
    let id = row.row.id.as_deref().unwrap_or("(no id)");
    ConfigError::new(format!("{at}: dsh would refuse row {id}: {message}"))
}

/// A string-valued config key (`null`/`undefined` = not configured).
fn string_field(
    row: &SkillRow,
    config: Option<&Node>,
    key: &str,
    cx: &JsContext,
) -> Result<Field<String>, ConfigError> {
    let Some(e) = config.and_then(|c| c.get(key)) else { return Ok(Field::Absent) };
    match evaluated(&e.value, cx) {
        Err(u) => Ok(Field::Unresolvable { at: e.value.at.clone(), expr: u.expr, why: u.why, missing: u.missing }),
        Ok(None | Some(Value::Null)) => Ok(Field::Absent),
        Ok(Some(Value::Str(s))) => Ok(Field::Value(s, e.value.at.clone())),
        Ok(Some(other)) => {
            Err(refused(row, &e.value.at, format!("{key} must be a string, not a {}", other.type_name())))
        }
    }
}

fn bool_field(row: &SkillRow, config: Option<&Node>, key: &str, cx: &JsContext) -> Result<Field<bool>, ConfigError> {
    let Some(e) = config.and_then(|c| c.get(key)) else { return Ok(Field::Absent) };
    match evaluated(&e.value, cx) {
        Err(u) => Ok(Field::Unresolvable { at: e.value.at.clone(), expr: u.expr, why: u.why, missing: u.missing }),
        Ok(None | Some(Value::Null)) => Ok(Field::Absent),
        Ok(Some(Value::Bool(b))) => Ok(Field::Value(b, e.value.at.clone())),
        Ok(Some(other)) => {
            Err(refused(row, &e.value.at, format!("{key} must be a boolean, not a {}", other.type_name())))
        }
    }
}

/// The raw filesystem-provider config of one row (before flags).
#[derive(Default)]
struct FsRow {
    row: Option<SkillRow>,
    provider_name: Option<Field<String>>,
    include_default_roots: Option<Field<bool>>,
    dsh_home: Option<Field<String>>,
    agents_home: Option<Field<String>>,
    bundled_skill_dir: Option<Field<String>>,
    /// The list's key location and its entries (each evaluated).
    custom_skill_dirs: Option<CustomDirs>,
}

enum CustomDirs {
    List { at: Loc, entries: Vec<Field<String>> },
    Unresolvable { at: Loc, expr: String, why: String },
}

fn read_fs_row(row: &SkillRow, cx: &JsContext) -> Result<FsRow, ConfigError> {
    let config = config_of(row, cx)?;
    let config = config.as_ref();
    let provider_name = string_field(row, config, "providerName", cx)?;
    if let Field::Value(name, at) = &provider_name
        && name.is_empty()
    {
        return Err(refused(row, at, "providerName must be a non-empty string".into()));
    }
    for key in ["watchStabilityThresholdMs", "watchPollIntervalMs", "watchMaxProjects"] {
        if let Some(e) = config.and_then(|c| c.get(key)) {
            match &e.value.value {
                Value::Null | Value::Js(_) => {}
                Value::Number(n) if *n >= 1.0 && n.fract() == 0.0 => {}
                _ => {
                    return Err(refused(
                        row,
                        &e.value.at,
                        format!("skill-filesystem: {key} must be a positive integer"),
                    ));
                }
            }
        }
    }
    let custom_skill_dirs = match config.and_then(|c| c.get("customSkillDirs")) {
        None => None,
        Some(e) => match evaluated(&e.value, cx) {
            Err(u) => Some(CustomDirs::Unresolvable { at: e.value.at.clone(), expr: u.expr, why: u.why }),
            Ok(None | Some(Value::Null)) => None,
            Ok(Some(Value::Seq(items))) => {
                let mut entries = Vec::new();
                for item in &items {
                    entries.push(match evaluated(item, cx) {
                        Err(u) => {
                            Field::Unresolvable { at: item.at.clone(), expr: u.expr, why: u.why, missing: u.missing }
                        }
                        Ok(Some(Value::Str(s))) => Field::Value(s, item.at.clone()),
                        Ok(other) => {
                            let t = other.map_or("undefined", |v| v.type_name());
                            return Err(refused(
                                row,
                                &item.at,
                                format!("customSkillDirs entries must be strings, not a {t}"),
                            ));
                        }
                    });
                }
                Some(CustomDirs::List { at: e.key_at.clone(), entries })
            }
            Ok(Some(other)) => {
                return Err(refused(
                    row,
                    &e.value.at,
                    format!("customSkillDirs: expected array but got {}", other.type_name()),
                ));
            }
        },
    };
    Ok(FsRow {
        row: Some(row.clone()),
        provider_name: Some(provider_name),
        include_default_roots: Some(bool_field(row, config, "includeDefaultRoots", cx)?),
        dsh_home: Some(string_field(row, config, "dshHome", cx)?),
        agents_home: Some(string_field(row, config, "agentsHome", cx)?),
        bundled_skill_dir: Some(string_field(row, config, "bundledSkillDir", cx)?),
        custom_skill_dirs,
    })
}

/// A row's `config` as a mapping (`None`: not configured).
fn config_of(row: &SkillRow, cx: &JsContext) -> Result<Option<Node>, ConfigError> {
    let Some(e) = row.node.get("config") else { return Ok(None) };
    match &e.value.value {
        Value::Null => Ok(None),
        Value::Map(_) => Ok(Some(e.value.clone())),
        Value::Js(expr) => {
            let why = match jsexpr::evaluate(expr, cx) {
                Evaluation::Missing(why) => why,
                _ => "dsh-skills evaluates no whole-config expression".into(),
            };
            Err(ConfigError::new(format!(
                "{}: cannot resolve the config of row {}: it is `!!js {expr}` ({why}); state the settings with flags and --no-config, or write the config as a mapping",
                e.value.at,
                row.row.id.as_deref().unwrap_or("(no id)")
            )))
        }
        other => Err(refused(row, &e.value.at, format!("config must be an object, not a {}", other.type_name()))),
    }
}

fn unresolvable(key: &str, flag: &str, at: &Loc, expr: &str, why: &str) -> ConfigError {
    ConfigError::new(format!("{at}: cannot resolve {key}: it is `!!js {expr}` ({why}); pass {flag} to state its value"))
}

/// Flags over the row's config over environment and defaults: the provider's config, and a
/// setting with an origin for each key.
fn provider_config(inputs: &Inputs, raw: &FsRow, layer: &str) -> Result<(ProviderConfig, Vec<Setting>), ConfigError> {
    let g = inputs.g;
    let env = inputs.env;
    let launch = |p: &str| platform::resolve(&inputs.launch_dir, p);
    let mut config = ProviderConfig::default();
    let mut settings = Vec::new();
    let mut problems: Vec<ConfigError> = Vec::new();

    // providerName
    match &raw.provider_name {
        Some(Field::Value(name, at)) => {
            config.provider_name = name.clone();
            settings.push(Setting::new("providerName", name.clone(), Origin::At(at.clone())));
        }
        Some(Field::Unresolvable { at, expr, why, .. }) => {
            problems.push(ConfigError::new(format!(
                "{at}: cannot resolve providerName: it is `!!js {expr}` ({why}); no flag can state it, write it as a string"
            )));
        }
        _ => settings.push(Setting::new("providerName", "filesystem", Origin::Default)),
    }

    // includeDefaultRoots
    if g.no_default_roots {
        config.include_default_roots = false;
        settings.push(Setting::new("includeDefaultRoots", false, Origin::Flag("--no-default-roots")));
    } else {
        match &raw.include_default_roots {
            Some(Field::Value(b, at)) => {
                config.include_default_roots = *b;
                settings.push(Setting::new("includeDefaultRoots", *b, Origin::At(at.clone())));
            }
            Some(Field::Unresolvable { at, expr, why, .. }) => {
                problems.push(unresolvable("includeDefaultRoots", "--no-default-roots (if it is false)", at, expr, why))
            }
            _ => settings.push(Setting::new("includeDefaultRoots", true, Origin::Default)),
        }
    }

    // dshHome
    let mut dsh_origin = Origin::Default;
    if let Some(v) = &g.dsh_home {
        config.dsh_home = Some(v.clone());
        dsh_origin = Origin::Flag("--dsh-home");
    } else {
        match &raw.dsh_home {
            Some(Field::Value(v, at)) => {
                config.dsh_home = Some(launch(&platform::expand_home(v, &env.home)));
                dsh_origin = Origin::At(at.clone());
            }
            Some(Field::Unresolvable { at, expr, why, .. }) => {
                problems.push(unresolvable("dshHome", "--dsh-home", at, expr, why))
            }
            _ => {
                if env.dsh_home.as_deref().is_some_and(|v| !crate::engine::js::trim(v).is_empty()) {
                    dsh_origin = Origin::Env("DSH_HOME");
                }
            }
        }
    }

    // agentsHome
    let mut agents_origin = Origin::Default;
    if let Some(v) = &g.agents_home {
        config.agents_home = Some(v.clone());
        agents_origin = Origin::Flag("--agents-home");
    } else {
        match &raw.agents_home {
            Some(Field::Value(v, at)) => {
                config.agents_home = Some(launch(v));
                agents_origin = Origin::At(at.clone());
            }
            Some(Field::Unresolvable { at, expr, why, .. }) => {
                problems.push(unresolvable("agentsHome", "--agents-home", at, expr, why))
            }
            _ => {
                if env.agents_home.is_some() {
                    agents_origin = Origin::Env("DSH_AGENTS_HOME");
                }
            }
        }
    }

    // customSkillDirs
    let mut custom_items = Vec::new();
    let mut custom_origin = Origin::Default;
    let mut custom_note = None;
    if !g.custom_dirs.is_empty() {
        config.custom_skill_dirs = g.custom_dirs.clone();
        custom_origin = Origin::Flag("--custom-dir");
        if raw.custom_skill_dirs.is_some() {
            custom_note = Some("replaces the configured list".to_string());
        }
        for d in &g.custom_dirs {
            custom_items.push(Setting::new(
                "customSkillDirs[]",
                platform::resolve(&env.process_cwd, d),
                Origin::Flag("--custom-dir"),
            ));
        }
    } else {
        match &raw.custom_skill_dirs {
            Some(CustomDirs::Unresolvable { at, expr, why }) => {
                problems.push(unresolvable("customSkillDirs", "--custom-dir", at, expr, why))
            }
            Some(CustomDirs::List { at, entries }) => {
                custom_origin = Origin::At(at.clone());
                for entry in entries {
                    match entry {
                        Field::Value(v, at) => {
                            let resolved = launch(v);
                            config.custom_skill_dirs.push(resolved.clone());
                            custom_items.push(Setting::new("customSkillDirs[]", resolved, Origin::At(at.clone())));
                        }
                        Field::Unresolvable { at, why, missing: true, .. } => {
                            custom_items.push(
                                Setting::new("customSkillDirs[]", serde_json::Value::Null, Origin::At(at.clone()))
                                    .note(why.clone()),
                            );
                        }
                        Field::Unresolvable { at, expr, why, .. } => {
                            problems.push(unresolvable("a customSkillDirs entry", "--custom-dir", at, expr, why))
                        }
                        Field::Absent => {}
                    }
                }
            }
            None => {}
        }
    }
    for d in &g.roots {
        let resolved = platform::resolve(&env.process_cwd, d);
        config.custom_skill_dirs.push(resolved.clone());
        custom_items.push(Setting::new("customSkillDirs[]", resolved, Origin::Flag("--root")));
    }

    // bundledSkillDir
    let mut bundled_origin = Origin::Default;
    if let Some(v) = &g.bundled_dir {
        config.bundled_skill_dir = Some(v.clone());
        bundled_origin = Origin::Flag("--bundled-dir");
    } else {
        match &raw.bundled_skill_dir {
            Some(Field::Value(v, at)) => {
                config.bundled_skill_dir = Some(launch(v));
                bundled_origin = Origin::At(at.clone());
            }
            Some(Field::Unresolvable { at, expr, why, .. }) => {
                problems.push(unresolvable("bundledSkillDir", "--bundled-dir", at, expr, why))
            }
            _ => {
                if config.include_default_roots && env.bundled_skill_dir.is_some() {
                    bundled_origin = Origin::Env("DSH_BUNDLED_SKILL_DIR");
                }
            }
        }
    }

    if let Some(first) = problems.into_iter().next() {
        let where_ =
            raw.row.as_ref().map(|r| format!(" (row {} in layer {layer})", r.row.id.as_deref().unwrap_or("(no id)")));
        return Err(ConfigError::new(format!("{first}{}", where_.unwrap_or_default())));
    }

    let resolved = ResolvedProvider::new(&config, env);
    let mut dsh = Setting::new("dshHome", resolved.dsh_home.clone(), dsh_origin.clone());
    if dsh_origin == Origin::Default {
        dsh = dsh.note("~/.dsh");
    }
    let mut agents = Setting::new("agentsHome", resolved.agents_home.clone(), agents_origin.clone());
    if agents_origin == Origin::Default {
        agents = agents.note("~/.agents");
    }
    let mut custom = Setting::new("customSkillDirs", resolved.custom_skill_dirs.clone(), custom_origin);
    custom.items = custom_items;
    custom.note = custom_note;
    let bundled = Setting::new(
        "bundledSkillDir",
        resolved.bundled_skill_dir.clone().map_or(serde_json::Value::Null, Into::into),
        bundled_origin,
    );
    settings.extend([dsh, agents, custom, bundled]);
    Ok((config, settings))
}

fn description_max_length(inputs: &Inputs, tool: &SkillRow, report: &mut Report) -> Result<usize, ConfigError> {
    if let Some(n) = inputs.g.description_max_length {
        report.description_max_length =
            Setting::new("catalogDescriptionMaxLength", n, Origin::Flag("--description-max-length"));
        return Ok(n);
    }
    let cx = JsContext { base_dir: Err("no baseUrl"), launch_dir: &inputs.launch_dir, var: inputs.var };
    let config = config_of(tool, &cx)?;
    let Some(e) = config.as_ref().and_then(|c| c.get("catalogDescriptionMaxLength")) else {
        return Ok(DEFAULT_DESCRIPTION_MAX_LENGTH);
    };
    let n = match &e.value.value {
        Value::Null => return Ok(DEFAULT_DESCRIPTION_MAX_LENGTH),
        Value::Number(n) => *n,
        Value::Js(expr) => {
            return Err(unresolvable(
                "catalogDescriptionMaxLength",
                "--description-max-length",
                &e.value.at,
                expr,
                "dsh-skills cannot evaluate this expression",
            ));
        }
        other => {
            return Err(refused(
                tool,
                &e.value.at,
                format!("catalogDescriptionMaxLength: expected number but got {}", other.type_name()),
            ));
        }
    };
    if n.fract() != 0.0 || n < 3.0 || !n.is_finite() {
        return Err(refused(
            tool,
            &e.value.at,
            "tool-skill: catalogDescriptionMaxLength must be an integer greater than or equal to 3".into(),
        ));
    }
    let n = n.min(usize::MAX as f64) as usize;
    report.description_max_length = Setting::new("catalogDescriptionMaxLength", n, Origin::At(e.value.at.clone()));
    Ok(n)
}

/// The providers of one registry layer, in row order. `base` is the directory `baseUrl` names
/// for the layer's `!!js` values (or why it is unknown).
fn build_layer(
    inputs: &Inputs,
    name: &str,
    rows: &SkillRows,
    base: &Result<String, String>,
    report: &mut Report,
) -> Result<(Layer, LayerInfo), ConfigError> {
    let base = base.as_ref().map(|d| format!("{d}{}", platform::SEP));
    let cx = JsContext {
        base_dir: base.as_deref().map_err(|e| e.as_str()),
        launch_dir: &inputs.launch_dir,
        var: inputs.var,
    };
    let mut layer = Layer { name: name.to_string(), providers: Vec::new() };
    let mut info = LayerInfo { name: name.to_string(), providers: Vec::new() };
    let mut names: Vec<(String, Loc)> = Vec::new();
    for row in &rows.providers {
        let provider_name = if row.badge {
            let (assets, setting) = locate_badge(inputs, row, report);
            layer.providers.push(ProviderSpec::Badge(BadgeConfig { assets_dir: assets }));
            info.providers.push(ProviderInfo {
                kind: "badge",
                name: "dsh-badge".into(),
                row: Some(row.row.clone()),
                settings: vec![setting],
            });
            "dsh-badge".to_string()
        } else {
            let raw = read_fs_row(row, &cx)?;
            let (config, settings) = provider_config(inputs, &raw, name)?;
            for s in &settings {
                for item in s.items.iter().filter(|i| i.value.is_null()) {
                    report.problems.push(format!(
                        "{}: a custom skill dir of row {} is unknown here: {}; the skills in that folder are missing from this preview (pass --custom-dir to name the folders)",
                        item.origin,
                        row.row.id.as_deref().unwrap_or("(no id)"),
                        item.note.as_deref().unwrap_or("not found")
                    ));
                }
            }
            let n = config.provider_name.clone();
            layer.providers.push(ProviderSpec::Filesystem(config));
            info.providers.push(ProviderInfo {
                kind: "filesystem",
                name: n.clone(),
                row: Some(row.row.clone()),
                settings,
            });
            n
        };
        if provider_name == "runtime" {
            return Err(ConfigError::new(format!(
                "{}: \"runtime\" is reserved for runtime skill registrations (dsh refuses this provider name)",
                row.row.at
            )));
        }
        if let Some((_, first)) = names.iter().find(|(n, _)| *n == provider_name) {
            let scoped = if name == "global" { "" } else { " in this scope" };
            return Err(ConfigError::new(format!(
                "{}: a skill provider named \"{provider_name}\" is already registered{scoped} (by the row at {first}); dsh refuses the second one",
                row.row.at
            )));
        }
        names.push((provider_name, row.row.at.clone()));
    }
    let has_bundled_fs = layer.providers.iter().any(|p| match p {
        ProviderSpec::Filesystem(c) => ResolvedProvider::new(c, inputs.env).bundled_skill_dir.is_some(),
        ProviderSpec::Badge(_) => false,
    });
    if has_bundled_fs && rows.providers.iter().any(|r| r.badge) {
        report.notes.push(format!(
            "layer {name}: a bundled root and the dsh-badge skill both rank 600; which registers first is implementation-defined in the harness (row order is used here)"
        ));
    }
    Ok((layer, info))
}

/// The installed badge package's `assets/` (real path, trailing separator), found through the
/// launcher's module fallback `$DSH_HOME/profiles/node_modules` (spec 8).
fn locate_badge(inputs: &Inputs, row: &SkillRow, report: &mut Report) -> (Option<String>, Setting) {
    let link = platform::join(&inputs.config_home, "profiles/node_modules/@deepseek-ai/dsh-skill-badge");
    report.badge = Setting::new("skill-badge", "enabled", Origin::At(enabled_at(row)));
    match crate::engine::nodefs::realpath(&link) {
        Ok(real) if std::fs::metadata(platform::join(&real, "assets/dsh-badge.md")).is_ok_and(|m| m.is_file()) => {
            let assets = format!("{}{}", platform::join(&real, "assets"), platform::SEP);
            report.badge.note = Some(format!("package found at {real}"));
            (Some(assets.clone()), Setting::new("assets", assets, Origin::Default).note(format!("realpath of {link}")))
        }
        _ => {
            report.problems.push(format!(
                "the dsh-badge skill is enabled ({}) but its installed package was not found at {link}; its catalog entry is exact (name and description are fixed), its content and resource folder are unknown",
                report.badge.origin
            ));
            report.badge.note = Some("installed package not found".into());
            (
                None,
                Setting::new("assets", serde_json::Value::Null, Origin::Default).note(format!("not found at {link}")),
            )
        }
    }
}

/// Under web, a user file that configures the disabled host `skill-filesystem` or `tool-skill`
/// row changes nothing (spec 2.2): say so.
fn note_inert_host_config(rows: &[Node], report: &mut Report) {
    for row in rows {
        let Some(Value::Str(name)) = row.get_value("name") else { continue };
        if !matches!(name.as_str(), shipped::SKILL_FILESYSTEM | shipped::TOOL_SKILL) {
            continue;
        }
        let disabled = row.get_value("disabled").is_some_and(Value::truthy);
        let Some(config) = row.get("config") else { continue };
        if disabled && matches!(&*config.key_at.source, Source::File(_)) {
            let id = row.get_value("id").map(Value::js_string).unwrap_or_default();
            report.notes.push(format!(
                "{}: this configures the host `{id}` row, which the web profile disables, so it changes nothing; the preset's rows count (copy the preset to $DSH_HOME/.agent-presets/<id>/ and edit its row, or add `disabled: false` to make the host row a second provider in the global layer)",
                config.key_at
            ));
        }
    }
}

/// Where the (last) host `skill-badge` row was switched off, when one is.
fn badge_disabled_at(rows: &[Node]) -> Option<Loc> {
    let mut found = None;
    for row in rows {
        if row.get_value("name") == Some(&Value::Str(shipped::SKILL_BADGE.into())) {
            if let Some(e) = row.get("disabled").filter(|e| e.value.value.truthy()) {
                found = Some(e.key_at.clone());
            }
        } else if let Some(Value::Seq(children)) = row.get_value("config")
            && row.get_value("group").is_some_and(Value::truthy)
        {
            found = badge_disabled_at(children).or(found);
        }
    }
    found
}

/// Where a row was switched on: its `disabled` key when one is set, else the row.
fn enabled_at(row: &SkillRow) -> Loc {
    row.node.get("disabled").map(|e| e.key_at.clone()).unwrap_or_else(|| row.row.at.clone())
}

// ── presets ─────────────────────────────────────────────────────────────────────────────────

/// `--preset`, else the settings document's `agent-presets.default`, else the roster row's
/// `default`.
fn choose_preset(
    inputs: &Inputs,
    host: &SkillRows,
    roster: &SkillRow,
    host_cx: &JsContext,
    report: &mut Report,
) -> Result<(String, Origin), ConfigError> {
    if let Some(p) = &inputs.g.preset {
        return Ok((p.clone(), Origin::Flag("--preset")));
    }
    // The settings document, when a settings-file row is enabled.
    if let Some(settings_row) = host.settings.first() {
        let config = config_of(settings_row, host_cx)?;
        let config = config.as_ref();
        let path = match string_field(settings_row, config, "path", host_cx)? {
            Field::Value(p, _) => Some(platform::resolve(&inputs.launch_dir, &p)),
            Field::Unresolvable { at, expr, why, .. } => {
                return Err(unresolvable("the settings document path", "--preset", &at, &expr, &why));
            }
            Field::Absent => None,
        };
        let path = match path {
            Some(p) => p,
            None => {
                let home = match string_field(settings_row, config, "dshHome", host_cx)? {
                    Field::Value(h, _) => {
                        platform::resolve(&inputs.launch_dir, &platform::expand_home(&h, &inputs.env.home))
                    }
                    Field::Unresolvable { at, expr, why, .. } => {
                        return Err(unresolvable("the settings document's dshHome", "--preset", &at, &expr, &why));
                    }
                    Field::Absent => inputs.config_home.clone(),
                };
                platform::join(&home, "settings.yaml")
            }
        };
        let ext_ok = [".yaml", ".yml", ".json"].iter().any(|e| path.ends_with(e));
        if !ext_ok {
            return Err(ConfigError::new(format!(
                "settings-file: extension of {path} is not supported (use .yaml, .yml, or .json)"
            )));
        }
        match files::read_text(&path, "the settings document", false)? {
            files::Read::Absent => {
                report.files.push(FileInfo { role: "settings document", path, status: "absent".into() })
            }
            files::Read::Text(text) => {
                let found = if path.ends_with(".json") {
                    json_settings_default(&path, &text)?
                } else {
                    files::settings_default(&path, &text)?
                };
                report.files.push(FileInfo { role: "settings document", path, status: "read".into() });
                if let Some((id, at)) = found {
                    return Ok((id, Origin::At(at)));
                }
            }
        }
    } else {
        report.notes.push("no settings-file row is enabled, so no settings document is read".into());
    }
    // The roster row's config.default.
    let config = config_of(roster, host_cx)?;
    match config.as_ref().and_then(|c| c.get("default")) {
        Some(e) => match evaluated(&e.value, host_cx) {
            Ok(Some(Value::Str(s))) => Ok((s, Origin::At(e.value.at.clone()))),
            Err(u) => Err(unresolvable("the default preset", "--preset", &e.value.at, &u.expr, &u.why)),
            Ok(other) => Err(refused(
                roster,
                &e.value.at,
                format!("default must be a string, not {}", other.map_or("undefined", |v| v.type_name())),
            )),
        },
        None => Err(refused(roster, &roster.row.at, "its config requires `default` (the preset id)".into())),
    }
}

fn json_settings_default(path: &str, text: &str) -> Result<Option<(String, Loc)>, ConfigError> {
    if crate::engine::js::trim(text).is_empty() {
        return Ok(None);
    }
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        ConfigError::new(format!("{path}:{}:{}: settings-file: invalid document: {e}", e.line(), e.column()))
    })?;
    let at = Loc { source: Rc::new(Source::File(path.to_string())), line: 0 };
    match json.pointer("/agent-presets/default") {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) => Ok(Some((s.clone(), at))),
        Some(_) => Err(ConfigError::new(format!("{path}: settings \"agent-presets.default\" must be a string"))),
    }
}

/// A preset id as discovery accepts it (`PRESET_ID`).
fn valid_preset_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A preset's rows, the directory its `baseUrl` names (or why it is unknown), and where it
/// was found.
type LoadedPreset = (Vec<Node>, Result<String, String>, String, Loc);

/// Find a preset as the roster does (shipped root first, then the user root), and load its
/// rows. Returns the rows, the directory its `baseUrl` names (or why it is unknown), and a
/// description of where it was found.
fn load_preset(
    inputs: &Inputs,
    id: &str,
    roster: &SkillRow,
    host_cx: &JsContext,
    report: &mut Report,
) -> Result<LoadedPreset, ConfigError> {
    if let Some(p) = shipped::shipped_preset(id) {
        let installed = installed_dsh(inputs);
        let dir = match &installed {
            Ok(app) => {
                let dir = platform::join(app, &format!("config/agent-presets/{id}"));
                if std::fs::metadata(&dir).is_ok_and(|m| m.is_dir()) {
                    Ok(dir)
                } else {
                    Err(format!("the installed dsh at {app} has no {dir}"))
                }
            }
            Err(why) => Err(why.clone()),
        };
        let where_ = format!("shipped preset ({})", p.file);
        return Ok((p.rows(), dir, where_, Loc::shipped(p.file, 0)));
    }
    let config = config_of(roster, host_cx)?;
    let include_user_root = match config.as_ref().and_then(|c| c.get_value("includeUserRoot")) {
        Some(Value::Bool(b)) => *b,
        _ => true,
    };
    let user_root = platform::join(&inputs.config_home, ".agent-presets");
    let dir = platform::join(&user_root, id);
    let path = platform::join(&dir, "agent.cordis.yml");
    let is_real_dir = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir());
    if include_user_root && valid_preset_id(id) && is_real_dir {
        // Missing when absent or a directory, as the roster's `isFile` check says; a FIFO or a
        // device is refused by name by the configuration reader.
        let is_dir = std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
        let read = if is_dir { files::Read::Absent } else { files::read_text(&path, "the agent preset", false)? };
        let files::Read::Text(text) = read else {
            return Err(ConfigError::new(format!(
                "{path}: agent-presets: preset \"{id}\" failed to mount: the composition file agent.cordis.yml is missing — the directory still occupies the id; delete it or restore the file"
            )));
        };
        let rows = files::preset_rows(id, &path, &text)?;
        report.files.push(FileInfo { role: "agent preset", path: path.clone(), status: "read".into() });
        let at = Loc { source: Rc::new(Source::File(path.clone())), line: 0 };
        return Ok((rows, Ok(dir), format!("user preset {path}"), at));
    }
    let mut available: Vec<String> = shipped::SHIPPED_PRESETS.iter().map(|p| p.id.to_string()).collect();
    if include_user_root && let Ok(entries) = std::fs::read_dir(&user_root) {
        let mut user: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| valid_preset_id(n) && !available.contains(n))
            .collect();
        user.sort();
        available.extend(user);
    }
    Err(ConfigError::new(format!(
        "agent-presets: preset \"{id}\" not found (available: {}); looked in the shipped presets and {user_root}{}",
        available.join(", "),
        if include_user_root { "" } else { " (not consulted: includeUserRoot is false)" }
    )))
}

/// The installed `@deepseek-ai/dsh` app directory, through the launcher's module fallback.
fn installed_dsh(inputs: &Inputs) -> Result<String, String> {
    let link = platform::join(&inputs.config_home, "profiles/node_modules/@deepseek-ai/dsh");
    crate::engine::nodefs::realpath(&link).map_err(|_| format!("the installed dsh package was not found at {link}"))
}

#[cfg(test)]
mod tests;
