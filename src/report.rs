//! JSON documents for `--format json` (the command-line contract). Pure: builds values, never
//! prints. Field names follow the harness's own camelCase types.

use crate::catalog::{self, CatalogEntry};
use crate::cli::HARNESS_VERSION;
use crate::discover::Candidate;
use crate::discover::ProjectRootReason;
use crate::explain::{Explanation, Verdict};
use crate::human::CatalogStats;
use crate::snapshot::{Catalog, NoCatalog, Snapshot};
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

/// `catalog --format json`: the contract fields, then statistics.
pub fn catalog(s: &Snapshot, c: &Catalog, stats: &CatalogStats) -> Value {
    let mut m = Map::new();
    m.insert("complete".into(), s.complete.into());
    m.insert("text".into(), c.text.clone().into());
    m.insert(
        "entries".into(),
        c.entries.as_ref().map(|es| Value::Array(es.iter().map(entry).collect())).unwrap_or(Value::Null),
    );
    m.insert("digest".into(), c.entries.as_ref().map(|es| catalog::digest(es)).into());
    m.insert(
        "reason".into(),
        match c.why_none {
            None => Value::Null,
            Some(NoCatalog::Incomplete) => "incomplete".into(),
            Some(NoCatalog::NoModelInvocableSkill) => "noModelInvocableSkill".into(),
            Some(NoCatalog::NoSkillTool) => "noSkillTool".into(),
        },
    );
    m.insert(
        "stats".into(),
        json!({
            "entries": stats.entries,
            "utf16Units": stats.utf16_units,
            "chars": stats.chars,
            "bytes": stats.bytes,
            "tokensEstimate": stats.tokens_estimate,
            "tokensMethod": "ceil(bytes / 4)",
            "descriptionMaxLength": s.description_max_length,
            "cut": stats.cut.iter().map(|(name, len, lost)| json!({"name": name, "normalizedLength": len, "lostUnits": lost})).collect::<Vec<_>>(),
            "notModelInvocable": stats.hidden,
        }),
    );
    Value::Object(m)
}

/// `explain --format json` (documented in the README).
pub fn explain(s: &Snapshot, x: &Explanation) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), x.name.clone().into());
    m.insert("found".into(), x.winner.is_some().into());
    m.insert("complete".into(), s.complete.into());
    m.insert("cwd".into(), s.cwd.clone().into());
    m.insert("projectRoot".into(), s.project_root.as_ref().map(|(p, _)| p.clone()).into());
    m.insert(
        "projectRootReason".into(),
        match &s.project_root {
            None => Value::Null,
            Some((_, ProjectRootReason::Git { marker, kind })) => {
                json!({"kind": "git", "marker": marker, "markerType": kind})
            }
            Some((_, ProjectRootReason::NoGitAbove)) => json!({"kind": "noGitAbove"}),
        },
    );
    let stories: Vec<Value> = x
        .stories
        .iter()
        .map(|st| {
            let c = &s.candidates[st.index];
            let mut v = candidate(c);
            if let Value::Object(o) = &mut v {
                o.insert("layer".into(), s.layer_names.get(c.layer).cloned().into());
                o.insert("providerOrder".into(), c.provider_order.into());
                o.insert("localOrder".into(), c.local_order.into());
                match &st.verdict {
                    Verdict::Winner => {
                        o.insert("verdict".into(), "wins".into());
                    }
                    Verdict::Loses { to, reason } => {
                        let w = &s.candidates[*to];
                        o.insert("verdict".into(), "loses".into());
                        o.insert("losesTo".into(), json!({"source": w.source, "path": w.path}));
                        o.insert("reason".into(), reason.clone().into());
                    }
                }
            }
            v
        })
        .collect();
    m.insert("candidates".into(), stories.into());
    m.insert(
        "catalog".into(),
        match x.fate.as_ref().map(|f| &f.catalog) {
            None => Value::Null,
            Some(Ok(line)) => json!({
                "included": true,
                "line": line.line,
                "cut": line.cut.as_ref().map(|(len, lost)| json!({"normalizedLength": len, "lostText": lost})),
            }),
            Some(Err(why)) => json!({"included": false, "reason": why}),
        },
    );
    m.insert("userInvocable".into(), x.fate.as_ref().map(|f| f.user_invocable).into());
    m.insert(
        "nearMisses".into(),
        x.near_misses
            .iter()
            .map(|n| json!({"path": n.path, "why": n.why, "fix": n.fix, "harnessLog": n.log}))
            .collect::<Vec<_>>()
            .into(),
    );
    let roots: Vec<Value> = s
        .scans()
        .flat_map(|(_, scan)| &scan.roots)
        .map(
            |r| json!({"path": r.root.path, "source": r.root.source, "rank": r.root.rank, "type": r.root_type.label()}),
        )
        .collect();
    m.insert("searched".into(), json!({"roots": roots, "unscannedFoldersChecked": x.unscanned_checked}));
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
