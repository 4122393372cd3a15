//! JSON documents for `--format json` (the command-line contract). Pure: builds values, never
//! prints. Field names follow the harness's own camelCase types.

use crate::catalog::{self, CatalogEntry};
use crate::cli::HARNESS_VERSION;
use crate::discover::Candidate;
use crate::snapshot::{Catalog, Snapshot};
use serde_json::{Map, Value, json};

/// A candidate or winner as the contract shows it.
pub fn candidate(c: &Candidate) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), c.skill.name.clone().into());
    m.insert("source".into(), c.source.into());
    m.insert("rank".into(), c.rank.into());
    m.insert("provider".into(), c.provider.clone().into());
    if let Some(path) = &c.path {
        m.insert("path".into(), path.clone().into());
    }
    m.insert("resourceBase".into(), json!({"kind": "directory", "path": c.resource_base}));
    m.insert("description".into(), c.skill.description.clone().into());
    if let Some(w) = &c.skill.when_to_use {
        m.insert("whenToUse".into(), w.clone().into());
    }
    m.insert("invocation".into(), serde_json::to_value(c.skill.invocation).unwrap_or(Value::Null));
    if let Some(meta) = &c.skill.metadata {
        m.insert("metadata".into(), meta.to_json());
    }
    Value::Object(m)
}

/// `list --format json`.
pub fn list(s: &Snapshot) -> Value {
    let mut m = Map::new();
    m.insert("harnessVersion".into(), HARNESS_VERSION.into());
    m.insert("cwd".into(), s.cwd.clone().into());
    m.insert("projectRoot".into(), s.project_root.as_ref().map(|(p, _)| p.clone()).into());
    let roots: Vec<Value> = s
        .scans()
        .flat_map(|(_, scan)| &scan.roots)
        .map(|r| {
            json!({
                "path": r.root.path,
                "source": r.root.source,
                "rank": r.root.rank,
                "exists": r.root_type.exists(),
                "type": r.root_type.label(),
            })
        })
        .collect();
    m.insert("roots".into(), roots.into());
    m.insert("complete".into(), s.complete.into());
    if let Some((_, e)) = s.provider_errors().next() {
        m.insert("providerError".into(), e.into());
    }
    m.insert("candidates".into(), s.candidates.iter().map(candidate).collect::<Vec<_>>().into());
    m.insert("skills".into(), s.winners().map(candidate).collect::<Vec<_>>().into());
    let shadowed: Vec<Value> = s
        .shadowed
        .iter()
        .map(|sh| {
            let (l, w) = (&s.candidates[sh.loser], &s.candidates[sh.winner]);
            json!({
                "name": l.skill.name,
                "source": l.source,
                "rank": l.rank,
                "path": l.path,
                "winnerSource": w.source,
                "winnerPath": w.path,
            })
        })
        .collect();
    m.insert("shadowed".into(), shadowed.into());
    m.insert("warnings".into(), s.warnings.clone().into());
    let notes: Vec<&String> = s.scans().flat_map(|(_, scan)| &scan.notes).collect();
    m.insert("notes".into(), json!(notes));
    m.insert("locale".into(), s.locale.clone().into());
    Value::Object(m)
}

fn entry(e: &CatalogEntry) -> Value {
    json!({"name": e.name, "description": e.description.to_string_lossy()})
}

/// `catalog --format json`.
pub fn catalog(s: &Snapshot, c: &Catalog) -> Value {
    let mut m = Map::new();
    m.insert("complete".into(), s.complete.into());
    m.insert("text".into(), c.text.clone().into());
    m.insert(
        "entries".into(),
        c.entries.as_ref().map(|es| Value::Array(es.iter().map(entry).collect())).unwrap_or(Value::Null),
    );
    m.insert("digest".into(), c.entries.as_ref().map(|es| catalog::digest(es)).into());
    Value::Object(m)
}

/// `show --format json`: the skill definition the provider's `get()` returns, plus where it
/// ranks.
pub fn skill(c: &Candidate) -> Value {
    let mut v = candidate(c);
    if let Value::Object(m) = &mut v {
        m.insert("content".into(), c.skill.content.clone().into());
    }
    v
}
