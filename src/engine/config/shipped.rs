//! What the shipped `dsh` 0.1.0-rc.8 brings before any user file: the bundle layers of the
//! `web` and `headless` profiles and the shipped agent presets' skill rows (spec 2.1-2.2).
//!
//! The bundle layers are restated as patch lists so that user layers compose over them with
//! the same algorithm. Every row keeps its id and plugin name (a user patch may target any of
//! them, and a patch on an id no layer inserted is warned about); only the rows and keys that
//! bear on skills keep their configuration.

use super::dialect::{Entry, Loc, Node, Value};

pub const BASE_FILE: &str = "packages/bundle/base/cordis.patch.yml";
pub const WEB_APP_FILE: &str = "packages/bundle/web-app/cordis.patch.yml";
pub const HEADLESS_FILE: &str = "packages/bundle/headless/cordis.patch.yml";

pub const SKILL_REGISTRY: &str = "@deepseek-ai/dsh-skill";
pub const SKILL_FILESYSTEM: &str = "@deepseek-ai/dsh-skill-filesystem";
pub const SKILL_BADGE: &str = "@deepseek-ai/dsh-skill-badge";
pub const TOOL_SKILL: &str = "@deepseek-ai/dsh-tool-skill";
pub const AGENT_PRESETS: &str = "@deepseek-ai/dsh-agent-presets";
pub const SETTINGS_FILE_PLUGIN: &str = "@deepseek-ai/dsh-settings-file";

/// `packages/bundle/base/cordis.patch.yml`: one insert (line 15) of these rows, in order.
const BASE_ROWS: &[(&str, &str)] = &[
    ("timer", "@deepseek-ai/cordis-plugin-timer"),
    ("hmr", "@deepseek-ai/cordis-plugin-hmr"),
    ("llm", "@deepseek-ai/dsh-llm"),
    ("session", "@deepseek-ai/dsh-session"),
    ("typert", "@deepseek-ai/dsh-typert-registry"),
    ("typert-loader", "@deepseek-ai/dsh-typert-loader"),
    ("typert-gateway", "@deepseek-ai/dsh-api-gateway"),
    ("session-title", "@deepseek-ai/dsh-session-title"),
    ("session-title-llm", "@deepseek-ai/dsh-session-title-first-prompt-llm"),
    ("user-questions", "@deepseek-ai/dsh-user-questions"),
    ("agent", "@deepseek-ai/dsh-agent"),
    ("agent-default-model", "@deepseek-ai/dsh-agent-default-model"),
    ("jobs", "@deepseek-ai/dsh-jobs-local"),
    ("llm-retry", "@deepseek-ai/dsh-llm-retry"),
    ("settings", SETTINGS_FILE_PLUGIN),
    ("credentials", "@deepseek-ai/dsh-credentials-local"),
    ("llm-pi-ai", "@deepseek-ai/dsh-llm-pi-ai"),
    ("session-persistence-jsonl", "@deepseek-ai/dsh-session-persistence-jsonl"),
    ("attachment-local", "@deepseek-ai/dsh-attachment-local"),
    ("session-query-sqlite", "@deepseek-ai/dsh-session-query-sqlite"),
    ("session-projection", "@deepseek-ai/dsh-session-projection"),
    ("session-telemetry-otel", "@deepseek-ai/dsh-session-telemetry-otel"),
    ("subprocess", "@deepseek-ai/dsh-subprocess-local"),
    ("sandbox", "@deepseek-ai/dsh-sandbox-local"),
    ("sandbox-policy", "@deepseek-ai/dsh-sandbox-policy"),
    ("bash-sandbox", "@deepseek-ai/dsh-bash-sandbox"),
    ("pwsh-sandbox", "@deepseek-ai/dsh-pwsh-sandbox"),
    ("approval", "@deepseek-ai/dsh-user-approval"),
    ("permission", "@deepseek-ai/dsh-permission-presets"),
    ("shell-env", "@deepseek-ai/dsh-shell-env"),
    ("tool-bash", "@deepseek-ai/dsh-tool-bash"),
    ("tool-pwsh", "@deepseek-ai/dsh-tool-pwsh"),
    ("tool-jobs", "@deepseek-ai/dsh-tool-jobs"),
    ("fs-observation-policy", "@deepseek-ai/dsh-fs-observation-policy"),
    ("tool-fs", "@deepseek-ai/dsh-tool-fs"),
    ("tool-fs-search", "@deepseek-ai/dsh-tool-fs-search"),
    ("agent-instructions", "@deepseek-ai/dsh-agent-instructions"),
    ("skill", SKILL_REGISTRY),
    ("skill-filesystem", SKILL_FILESYSTEM),
    ("skill-badge", SKILL_BADGE),
    ("tool-skill", TOOL_SKILL),
    ("commands", "@deepseek-ai/dsh-commands"),
    ("command-feedback", "@deepseek-ai/dsh-command-feedback"),
    ("goal", "@deepseek-ai/dsh-goal"),
    ("goal-round-driver", "@deepseek-ai/dsh-goal-round-driver"),
    ("command-goal", "@deepseek-ai/dsh-command-goal"),
    ("plan-mode", "@deepseek-ai/dsh-plan-mode"),
    ("token-meter", "@deepseek-ai/dsh-token-meter"),
    ("compaction-basic", "@deepseek-ai/dsh-compaction-basic"),
    ("command-compact", "@deepseek-ai/dsh-command-compact"),
    ("subagent", "@deepseek-ai/dsh-subagent"),
    ("subagent-spawn-in-process", "@deepseek-ai/dsh-subagent-spawn-in-process"),
    ("subagent-fork-in-process", "@deepseek-ai/dsh-subagent-fork-in-process"),
    ("tool-subagent-control", "@deepseek-ai/dsh-tool-subagent-control"),
    ("tool-subagent-list-agents", "@deepseek-ai/dsh-tool-subagent-control/list-agents"),
    ("tool-subagent", "@deepseek-ai/dsh-tool-subagent"),
    ("tool-subagent-fork", "@deepseek-ai/dsh-tool-subagent"),
    ("tool-subagent-report", "@deepseek-ai/dsh-tool-subagent-report"),
    ("workflow-worker-thread", "@deepseek-ai/dsh-workflow-worker-thread"),
    ("tool-workflow", "@deepseek-ai/dsh-tool-workflow"),
    ("timeout-policy", "@deepseek-ai/dsh-tool-call-timeout-policy"),
    ("spill-local", "@deepseek-ai/dsh-spill-local"),
    ("spill-policy", "@deepseek-ai/dsh-spill-policy"),
    ("session-checkpoint-policy", "@deepseek-ai/dsh-session-checkpoint-policy"),
    ("tool-result-pruner", "@deepseek-ai/dsh-compaction-tool-result-pruner"),
    ("tool-todo", "@deepseek-ai/dsh-tool-todo"),
    ("tool-goal", "@deepseek-ai/dsh-tool-goal"),
    ("tool-ralph", "@deepseek-ai/dsh-tool-ralph"),
    ("tool-str-replace-editor", "@deepseek-ai/dsh-tool-str-replace-editor"),
    ("repeat-tool-reminder", "@deepseek-ai/dsh-repeat-tool-reminder"),
    ("web", "@deepseek-ai/dsh-web"),
    ("web-search-deepseek", "@deepseek-ai/dsh-web-search-deepseek"),
    ("tool-web", "@deepseek-ai/dsh-tool-web"),
    ("tools", "@deepseek-ai/dsh-tools"),
    ("system-prompt", "@deepseek-ai/dsh-system-prompt"),
    ("agent-loop", "@deepseek-ai/dsh-agent-loop"),
    ("fs-sandbox", "@deepseek-ai/dsh-fs-sandbox"),
    ("llm-deepseek", "@deepseek-ai/dsh-llm-deepseek"),
];

/// Lines of the base rows that matter for skills.
const BASE_LINES: &[(&str, usize)] =
    &[("settings", 78), ("skill", 237), ("skill-filesystem", 240), ("skill-badge", 243), ("tool-skill", 247)];

/// `packages/bundle/web-app/cordis.patch.yml:47`: the web surface's host rows.
const WEB_APP_ROWS: &[(&str, &str)] = &[
    ("code-runtime", "@deepseek-ai/dsh-code-runtime-worker-thread"),
    ("storage", "@deepseek-ai/dsh-storage"),
    ("storage-json", "@deepseek-ai/dsh-storage-json"),
    ("storage-domain", "@deepseek-ai/dsh-storage-domain"),
    ("message-feedback", "@deepseek-ai/dsh-message-feedback"),
    ("session-log-download", "@deepseek-ai/dsh-session-log-export"),
    ("workspace", "@deepseek-ai/dsh-workspace"),
    ("session-projection-cache", "@deepseek-ai/dsh-session-projection-cache"),
    ("session-reference", "@deepseek-ai/dsh-session-reference"),
    ("file-reference-local", "@deepseek-ai/dsh-file-reference-local"),
    ("session-stats", "@deepseek-ai/dsh-session-stats"),
    ("directory-picker", "@deepseek-ai/dsh-host-directory-picker-auto"),
    ("plugin-inventory", "@deepseek-ai/dsh-host-plugin-inventory"),
    ("api-gateway", "@deepseek-ai/dsh-host-apiproxy"),
    ("cordis-host-runner", "@deepseek-ai/dsh-cordis-host-runner"),
    ("web-startup", "@deepseek-ai/dsh-web-app/startup"),
    ("webserver", "@deepseek-ai/dsh-host-webserver"),
    ("access-gate", "@deepseek-ai/dsh-host-access-gate"),
    ("web-runtime", "@deepseek-ai/dsh-web-app"),
    ("client-hmr", "@deepseek-ai/dsh-client-hmr"),
    ("modules", "@deepseek-ai/dsh-client-modules"),
    ("connection", "@deepseek-ai/dsh-client-connection"),
    ("api-remotes", "@deepseek-ai/dsh-api-remotes"),
    ("client-runtime", "@deepseek-ai/dsh-client-runtime"),
    ("cordis-client-runner", "@deepseek-ai/dsh-cordis-client-runner"),
    ("ui-theme", "@deepseek-ai/dsh-client-ui-theme"),
    ("locale", "@deepseek-ai/dsh-client-locale"),
    ("ui-layout", "@deepseek-ai/dsh-client-ui-layout"),
    ("ui-renderer", "@deepseek-ai/dsh-client-ui-renderer"),
    ("ui-sidebar", "@deepseek-ai/dsh-client-ui-sidebar"),
    ("ui-settings", "@deepseek-ai/dsh-client-ui-settings"),
    ("ui-settings-general", "@deepseek-ai/dsh-client-ui-settings-general"),
    ("ui-settings-models", "@deepseek-ai/dsh-client-ui-settings-models"),
    ("ui-settings-plugin-inventory", "@deepseek-ai/dsh-client-ui-settings-plugin-inventory"),
    ("ui-conversation", "@deepseek-ai/dsh-client-ui-conversation"),
    ("ui-brand-official", "@deepseek-ai/dsh-client-ui-brand-official"),
    ("ui-attachment", "@deepseek-ai/dsh-client-ui-attachment"),
    ("ui-tool", "@deepseek-ai/dsh-client-ui-tool"),
    ("ui-cordis", "@deepseek-ai/dsh-client-ui-cordis"),
    ("ui-workflow-run", "@deepseek-ai/dsh-client-ui-workflow-run"),
    ("ui-deliverables", "@deepseek-ai/dsh-client-ui-deliverables"),
    ("ui-workspace", "@deepseek-ai/dsh-client-ui-workspace"),
    ("ui-input-trigger", "@deepseek-ai/dsh-client-ui-input-trigger"),
    ("ui-commands", "@deepseek-ai/dsh-client-ui-commands"),
    ("ui-skill", "@deepseek-ai/dsh-client-ui-skill"),
    ("ui-subagent", "@deepseek-ai/dsh-client-ui-subagent"),
    ("ui-reference", "@deepseek-ai/dsh-client-ui-reference"),
    ("ui-jobs", "@deepseek-ai/dsh-client-ui-jobs"),
    ("ui-goal", "@deepseek-ai/dsh-client-ui-goal"),
    ("ui-message-feedback", "@deepseek-ai/dsh-client-ui-message-feedback"),
    ("ui-model-selection", "@deepseek-ai/dsh-client-ui-model-selection"),
    ("ui-permission", "@deepseek-ai/dsh-client-ui-permission-presets"),
    ("ui-agent-preset", "@deepseek-ai/dsh-client-ui-agent-preset"),
    ("ui-settings-plugins", "@deepseek-ai/dsh-client-ui-settings-plugins"),
    ("ui-plan", "@deepseek-ai/dsh-client-ui-plan"),
    ("ui-user-questions", "@deepseek-ai/dsh-client-ui-user-questions"),
    ("ui-trajectory", "@deepseek-ai/dsh-client-ui-trajectory"),
];

/// `packages/bundle/headless/cordis.patch.yml:22`.
const HEADLESS_ROWS: &[(&str, &str)] = &[
    ("code-runtime", "@deepseek-ai/dsh-code-runtime-worker-thread"),
    ("headless-startup", "@deepseek-ai/dsh-headless/startup"),
    ("headless-runner", "@deepseek-ai/dsh-headless"),
];

fn entry(key: &str, value: Value, at: &Loc) -> Entry {
    Entry { key: key.into(), key_at: at.clone(), value: Node { value, at: at.clone() } }
}

fn map(entries: Vec<Entry>, at: &Loc) -> Node {
    Node { value: Value::Map(entries), at: at.clone() }
}

fn row(id: &str, name: &str, at: &Loc) -> Node {
    map(vec![entry("id", Value::Str(id.into()), at), entry("name", Value::Str(name.into()), at)], at)
}

fn insert(rows: Vec<Node>, at: &Loc) -> Node {
    map(vec![entry("insert", Value::Seq(rows), at)], at)
}

fn disable(id: &str, at: &Loc) -> Node {
    map(vec![entry("id", Value::Str(id.into()), at), entry("disabled", Value::Bool(true), at)], at)
}

/// The base bundle's patch list.
pub fn base_patches() -> Vec<Node> {
    let rows = BASE_ROWS
        .iter()
        .map(|(id, name)| {
            let line = BASE_LINES.iter().find(|(i, _)| i == id).map_or(15, |(_, l)| *l);
            let at = Loc::shipped(BASE_FILE, line);
            let mut r = row(id, name, &at);
            if *id == "skill-badge" {
                // `disabled: true` (line 245): the badge skill is off by default.
                r.set(entry("disabled", Value::Bool(true), &Loc::shipped(BASE_FILE, 245)));
            }
            r
        })
        .collect();
    vec![insert(rows, &Loc::shipped(BASE_FILE, 15))]
}

/// The web-app bundle's patch list, restricted to what bears on skills: its inserted rows
/// (ids only), the disabling of the host `skill-filesystem` and `tool-skill` rows (presets own
/// local discovery and the catalog tool), and the preset roster row with `default: standard`.
pub fn web_app_patches() -> Vec<Node> {
    let at = Loc::shipped(WEB_APP_FILE, 47);
    let rows = WEB_APP_ROWS.iter().map(|(id, name)| row(id, name, &at)).collect();
    let roster_at = Loc::shipped(WEB_APP_FILE, 449);
    let mut roster = row("agent-presets", AGENT_PRESETS, &roster_at);
    let default_at = Loc::shipped(WEB_APP_FILE, 452);
    roster.set(Entry {
        key: "config".into(),
        key_at: Loc::shipped(WEB_APP_FILE, 451),
        value: map(vec![entry("default", Value::Str("standard".into()), &default_at)], &default_at),
    });
    vec![
        insert(rows, &at),
        disable("skill-filesystem", &Loc::shipped(WEB_APP_FILE, 358)),
        disable("tool-skill", &Loc::shipped(WEB_APP_FILE, 361)),
        insert(vec![roster], &Loc::shipped(WEB_APP_FILE, 448)),
    ]
}

/// The headless bundle's patch list (it leaves the skill rows alone).
pub fn headless_patches() -> Vec<Node> {
    let at = Loc::shipped(HEADLESS_FILE, 22);
    vec![insert(HEADLESS_ROWS.iter().map(|(id, name)| row(id, name, &at)).collect(), &at)]
}

/// A shipped agent preset (`apps/cli/config/agent-presets/<id>/agent.cordis.yml`).
pub struct ShippedPreset {
    pub id: &'static str,
    pub file: &'static str,
    /// `preset.yml` `order`, which sorts the roster.
    pub order: u32,
    /// (skill-filesystem line, tool-skill line); `None` for a preset that mounts neither.
    pub skill_rows: Option<(usize, usize)>,
    /// The `cordis` preset's custom root: (line of the `!!js` entry, expression).
    pub custom_dir_js: Option<(usize, &'static str)>,
}

pub const CORDIS_SKILLS_JS: &str = "process.getBuiltinModule('node:url').fileURLToPath(new URL('skills/', baseUrl))";

/// The shipped roster in roster order (`preset.yml` `order`).
pub const SHIPPED_PRESETS: &[ShippedPreset] = &[
    ShippedPreset {
        id: "standard",
        file: "apps/cli/config/agent-presets/standard/agent.cordis.yml",
        order: 1,
        skill_rows: Some((83, 86)),
        custom_dir_js: None,
    },
    ShippedPreset {
        id: "code",
        file: "apps/cli/config/agent-presets/code/agent.cordis.yml",
        order: 2,
        skill_rows: Some((90, 93)),
        custom_dir_js: None,
    },
    ShippedPreset {
        id: "minimal",
        file: "apps/cli/config/agent-presets/minimal/agent.cordis.yml",
        order: 3,
        skill_rows: None,
        custom_dir_js: None,
    },
    ShippedPreset {
        id: "cordis",
        file: "apps/cli/config/agent-presets/cordis/agent.cordis.yml",
        order: 4,
        skill_rows: Some((256, 262)),
        custom_dir_js: Some((260, CORDIS_SKILLS_JS)),
    },
];

impl ShippedPreset {
    /// The preset's skill-bearing rows, as its composition file holds them.
    pub fn rows(&self) -> Vec<Node> {
        let Some((fs_line, tool_line)) = self.skill_rows else { return Vec::new() };
        let fs_at = Loc::shipped(self.file, fs_line);
        let mut fs = row("skill-filesystem", SKILL_FILESYSTEM, &fs_at);
        if let Some((line, expr)) = self.custom_dir_js {
            let at = Loc::shipped(self.file, line);
            let dirs = Node { value: Value::Seq(vec![Node { value: Value::Js(expr.into()), at: at.clone() }]), at };
            let config = map(
                vec![Entry { key: "customSkillDirs".into(), key_at: Loc::shipped(self.file, line - 1), value: dirs }],
                &Loc::shipped(self.file, line - 2),
            );
            fs.set(Entry { key: "config".into(), key_at: Loc::shipped(self.file, line - 2), value: config });
        }
        vec![fs, row("tool-skill", TOOL_SKILL, &Loc::shipped(self.file, tool_line))]
    }
}

pub fn shipped_preset(id: &str) -> Option<&'static ShippedPreset> {
    SHIPPED_PRESETS.iter().find(|p| p.id == id)
}
