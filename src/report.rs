//! JSON documents for `--format json` (the command-line contract). Pure: builds values, never
//! prints. Field names follow the harness's own camelCase types.

use crate::catalog::{self, CatalogEntry};
use crate::cli::HARNESS_VERSION;
use crate::discover::Candidate;
use crate::discover::ProjectRootReason;
use crate::explain::{Explanation, Verdict};
use crate::human::CatalogStats;
use crate::snapshot::{Catalog, NoCatalog, Snapshot};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// A candidate or winner as the contract shows it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateOut<'a> {
    name: &'a str,
    source: &'a str,
    rank: u32,
    provider: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
    resource_base: ResourceBase<'a>,
    description: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    when_to_use: Option<&'a str>,
    invocation: crate::skillfile::Invocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<Value>,
}

#[derive(Serialize)]
struct ResourceBase<'a> {
    kind: &'static str,
    path: &'a str,
}

impl<'a> CandidateOut<'a> {
    pub fn new(c: &'a Candidate) -> Self {
        CandidateOut {
            name: &c.skill.name,
            source: c.source,
            rank: c.rank,
            provider: &c.provider,
            path: c.path.as_deref(),
            resource_base: ResourceBase { kind: "directory", path: &c.resource_base },
            description: &c.skill.description,
            when_to_use: c.skill.when_to_use.as_deref(),
            invocation: c.skill.invocation,
            metadata: c.skill.metadata.as_ref().map(|m| m.to_json()),
        }
    }
}

/// [`CandidateOut`] as a value, for documents that add fields to it.
pub fn candidate(c: &Candidate) -> Value {
    serde_json::to_value(CandidateOut::new(c)).unwrap_or(Value::Null)
}

/// `list --format json`, serialized from borrowed fields (10,000 skills make 20,000 candidate
/// objects; no string is copied into a tree of values for them).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListDoc<'a> {
    harness_version: &'static str,
    cwd: Option<&'a str>,
    project_root: Option<&'a str>,
    roots: Vec<RootOut<'a>>,
    complete: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    provider_error: Option<&'a str>,
    candidates: Vec<CandidateOut<'a>>,
    skills: Vec<CandidateOut<'a>>,
    shadowed: Vec<ShadowedOut<'a>>,
    warnings: &'a [String],
    notes: Vec<&'a String>,
    locale: &'a str,
    config: Value,
    /// Skill folders the harness does not scan for this cwd (see [`crate::unscanned`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unscanned: Option<crate::unscanned::Search>,
    /// Winners whose catalog description is cut: name, normalized length, units lost.
    pub catalog_cut: Vec<CutOut>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CutOut {
    name: String,
    length: usize,
    units_lost: usize,
}

#[derive(Serialize)]
struct RootOut<'a> {
    path: &'a str,
    source: &'a str,
    rank: u32,
    exists: bool,
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ShadowedOut<'a> {
    name: &'a str,
    source: &'a str,
    rank: u32,
    path: Option<&'a str>,
    winner_source: &'a str,
    winner_path: Option<&'a str>,
}

/// `list --format json`, with the configuration report (`config`) last.
pub fn list(s: &Snapshot, config: Value) -> ListDoc<'_> {
    ListDoc {
        harness_version: HARNESS_VERSION,
        cwd: s.cwd.as_deref(),
        project_root: s.project_root.as_ref().map(|(p, _)| p.as_str()),
        roots: s
            .scans()
            .flat_map(|(_, scan)| &scan.roots)
            .map(|r| RootOut {
                path: &r.root.path,
                source: r.root.source,
                rank: r.root.rank,
                exists: r.root_type.exists(),
                kind: r.root_type.label(),
            })
            .collect(),
        complete: s.complete,
        provider_error: s.provider_errors().next().map(|(_, e)| e),
        candidates: s.candidates.iter().map(CandidateOut::new).collect(),
        skills: s.winners().map(CandidateOut::new).collect(),
        shadowed: s
            .shadowed
            .iter()
            .map(|sh| {
                let (l, w) = (&s.candidates[sh.loser], &s.candidates[sh.winner]);
                ShadowedOut {
                    name: &l.skill.name,
                    source: l.source,
                    rank: l.rank,
                    path: l.path.as_deref(),
                    winner_source: w.source,
                    winner_path: w.path.as_deref(),
                }
            })
            .collect(),
        warnings: &s.warnings,
        notes: s.scans().flat_map(|(_, scan)| &scan.notes).collect(),
        locale: &s.locale,
        config,
        unscanned: None,
        catalog_cut: crate::human::catalog_cuts(s)
            .into_iter()
            .map(|(name, length, units_lost)| CutOut { name, length, units_lost })
            .collect(),
    }
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
    if !s.complete {
        m.insert(
            "providerErrors".into(),
            x.failures.iter().map(|(p, e)| json!({"provider": p, "error": e})).collect::<Vec<_>>().into(),
        );
        m.insert(
            "wouldComeFrom".into(),
            x.would_come_from
                .iter()
                .map(|(rank, source, path)| json!({"rank": rank, "source": source, "path": path}))
                .collect::<Vec<_>>()
                .into(),
        );
    }
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
