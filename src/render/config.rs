//! The configuration part of `list`: every effective setting and where it came from, as JSON
//! (the `config` field of `list --format json`) and as human lines. Pure; never prints.
//!
//! An origin is one of: `default` (the harness's own default), `env` (a process environment
//! variable), `flag` (a dsh-skills option), `file` (a file on this machine, with its line) or
//! `shipped` (the shipped harness's own configuration, with the repository file and line).

use crate::engine::config::dialect::Source;
use crate::engine::config::{Origin, Report, Setting};
use serde_json::{Map, Value, json};

pub fn origin_json(o: &Origin) -> Value {
    match o {
        Origin::Default => json!({"kind": "default"}),
        Origin::Env(name) => json!({"kind": "env", "name": name}),
        Origin::Flag(name) => json!({"kind": "flag", "name": name}),
        Origin::At(loc) => match &*loc.source {
            Source::File(path) => {
                let line = if loc.line == 0 { Value::Null } else { loc.line.into() };
                json!({"kind": "file", "file": path, "line": line})
            }
            Source::Shipped(path) => {
                let line = if loc.line == 0 { Value::Null } else { loc.line.into() };
                json!({"kind": "shipped", "file": path, "line": line})
            }
        },
    }
}

fn setting_json(s: &Setting) -> Value {
    let mut m = Map::new();
    m.insert("value".into(), s.value.clone());
    m.insert("origin".into(), origin_json(&s.origin));
    if let Some(note) = &s.note {
        m.insert("note".into(), note.clone().into());
    }
    if !s.items.is_empty() {
        m.insert("entries".into(), s.items.iter().map(setting_json).collect::<Vec<_>>().into());
    }
    Value::Object(m)
}

/// The `config` object of `list --format json`.
pub fn json(r: &Report) -> Value {
    let mut m = Map::new();
    m.insert("files".into(), (!r.no_config).into());
    m.insert("profile".into(), setting_json(&r.profile));
    m.insert("dshHome".into(), setting_json(&r.config_home));
    m.insert("launchDir".into(), setting_json(&r.launch_dir));
    m.insert("cwd".into(), setting_json(&r.cwd));
    m.insert("locale".into(), setting_json(&r.locale));
    m.insert(
        "read".into(),
        r.files.iter().map(|f| json!({"role": f.role, "path": f.path, "status": f.status})).collect::<Vec<_>>().into(),
    );
    m.insert("preset".into(), r.preset.as_ref().map_or(Value::Null, setting_json));
    let layers: Vec<Value> = r
        .layers
        .iter()
        .map(|l| {
            let providers: Vec<Value> = l
                .providers
                .iter()
                .map(|p| {
                    let settings: Map<String, Value> =
                        p.settings.iter().map(|s| (s.key.clone(), setting_json(s))).collect();
                    json!({
                        "kind": p.kind,
                        "name": p.name,
                        "row": p.row.as_ref().map_or(Value::Null, |r| json!({"id": r.id, "origin": origin_json(&Origin::At(r.at.clone()))})),
                        "settings": settings,
                    })
                })
                .collect();
            json!({"name": l.name, "providers": providers})
        })
        .collect();
    m.insert("layers".into(), layers.into());
    m.insert("skillTool".into(), setting_json(&r.tool));
    m.insert("catalogDescriptionMaxLength".into(), setting_json(&r.description_max_length));
    m.insert("badge".into(), setting_json(&r.badge));
    m.insert("loaderWarnings".into(), r.warnings.clone().into());
    m.insert("problems".into(), r.problems.clone().into());
    m.insert("notes".into(), r.notes.clone().into());
    Value::Object(m)
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "(none)".into(),
        Value::Array(items) if items.is_empty() => "[]".into(),
        other => other.to_string(),
    }
}

fn line(label: &str, s: &Setting) -> String {
    let mut from = s.origin.to_string();
    if let Some(note) = &s.note {
        from = format!("{from}; {note}");
    }
    format!("  {label:<28} {}  ({from})", value_text(&s.value))
}

/// Whether anything in the configuration is not the harness's default: a value from a flag,
/// the environment or a file, a loader warning or problem, a configuration file read.
pub fn differs_from_defaults(r: &Report) -> bool {
    fn set(s: &Setting) -> bool {
        let default = match &s.origin {
            Origin::Default => true,
            Origin::At(loc) => matches!(&*loc.source, Source::Shipped(_)),
            Origin::Env(_) | Origin::Flag(_) => false,
        };
        !default || s.items.iter().any(set)
    }
    let provider_settings = r.layers.iter().flat_map(|l| &l.providers).flat_map(|p| &p.settings);
    !r.warnings.is_empty()
        || !r.problems.is_empty()
        || r.files.iter().any(|f| f.status == "read")
        || r.preset.as_ref().is_some_and(set)
        || set(&r.profile)
        || set(&r.tool)
        || set(&r.description_max_length)
        || set(&r.badge)
        || r.layers.iter().any(|l| {
            l.providers.iter().any(|p| p.row.as_ref().is_some_and(|row| !matches!(&*row.at.source, Source::Shipped(_))))
        })
        || provider_settings.into_iter().any(set)
}

/// The configuration block at the top of `list`.
pub fn human(r: &Report) -> Vec<String> {
    let mut out = Vec::new();
    if r.no_config {
        out.push("configuration: files ignored (--no-config)".to_string());
    } else {
        let mode = match &r.preset {
            Some(p) => format!("{} profile, preset {}", value_text(&r.profile.value), value_text(&p.value)),
            None => format!("{} profile", value_text(&r.profile.value)),
        };
        out.push(format!("configuration ({mode}):"));
        out.push(line("profile", &r.profile));
        out.push(line("dsh home (config files)", &r.config_home));
        out.push(line("launch dir", &r.launch_dir));
        for f in &r.files {
            out.push(format!("  {:<28} {} ({})", f.role, f.path, f.status));
        }
        if let Some(p) = &r.preset {
            out.push(line("preset", p));
        }
    }
    for l in &r.layers {
        out.push(format!("  layer {}:", l.name));
        if l.providers.is_empty() {
            out.push("    (no skill providers)".into());
        }
        for p in &l.providers {
            match &p.row {
                Some(row) => {
                    let id = row.id.as_deref().unwrap_or("(no id)");
                    out.push(format!("    provider {} (row {id}, {})", p.name, row.at));
                }
                None => out.push(format!("    provider {} (flags, environment and defaults only)", p.name)),
            }
            for s in &p.settings {
                if s.items.is_empty() {
                    out.push(format!("    {}", line(&s.key, s)));
                    continue;
                }
                let mut head = Setting { value: Value::String(String::new()), ..s.clone() };
                let n = s.items.len();
                head.value = format!("{n} {}", if n == 1 { "entry" } else { "entries" }).into();
                out.push(format!("    {}", line(&s.key, &head)));
                for item in &s.items {
                    out.push(format!("        - {}", line("", item).trim_start()));
                }
            }
        }
    }
    let mounted = if r.tool.value == Value::Bool(true) { "mounted" } else { "not mounted: no catalog" };
    out.push(line("skill tool (catalog)", &Setting { value: mounted.into(), ..r.tool.clone() }));
    out.push(line("catalogDescriptionMaxLength", &r.description_max_length));
    if !r.no_config {
        out.push(line("skill-badge", &r.badge));
    }
    for w in &r.warnings {
        out.push(format!("  loader warning: {w}"));
    }
    for p in &r.problems {
        out.push(format!("  PREVIEW MAY DIFFER: {p}"));
    }
    for n in &r.notes {
        out.push(format!("  note: {n}"));
    }
    out
}
