//! JSON documents for `--format json` (the command-line contract). Pure: builds values, never
//! prints. Field names follow the harness's own camelCase types. Each document is a type whose
//! JSON Schema is generated from it ([`crate::render::schema`]); doc comments become its descriptions.

use crate::analysis::explain::{Explanation, Verdict};
use crate::engine::HARNESS_VERSION;
use crate::engine::catalog::{self, CatalogEntry};
use crate::engine::discover::Candidate;
use crate::engine::discover::ProjectRootReason;
use crate::engine::snapshot::{Catalog, NoCatalog, Snapshot};
use crate::render::envelope::{SCHEMA_VERSION, Tool};
use crate::render::human::CatalogStats;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// A candidate or winner as the contract shows it.
#[derive(Serialize, JsonSchema)]
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
    invocation: crate::engine::skillfile::Invocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<Value>,
}

#[derive(Serialize, JsonSchema)]
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
            metadata: c.skill.metadata.as_deref().map(crate::engine::yaml::ToJson::to_json),
        }
    }
}

/// `list --format json`, serialized from borrowed fields (10,000 skills make 20,000 candidate
/// objects; no string is copied into a tree of values for them).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListDoc<'a> {
    schema_version: u32,
    tool: Tool,
    /// The harness release whose behaviour is reproduced (also in `tool`).
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
    /// Every problem the human view lists, including the files the harness ignores without a
    /// log line (`skill.md`, a skill nested too deep), each with what happens and the fix.
    problems: Vec<crate::render::human::Problem>,
    notes: Vec<&'a String>,
    locale: &'a str,
    config: Value,
    /// Skill folders the harness does not scan for this cwd, each with why and how to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unscanned: Option<crate::analysis::unscanned::Search>,
    /// Winners whose catalog description is cut: name, normalized length, units lost.
    pub catalog_cut: Vec<ListCutOut>,
    /// The size of each model-invocable winner's catalog line (`` - `name`: description ``,
    /// as the catalog holds it), in catalog order.
    pub catalog_sizes: Vec<EntrySize>,
    /// The tokenizer of `catalogSizes[].tokens`.
    pub tokenizer: &'static str,
}

/// The size of one catalog line.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntrySize {
    name: String,
    utf16_units: usize,
    bytes: usize,
    /// The exact token count of the line alone (no line feed), with no special tokens added.
    tokens: usize,
}

impl EntrySize {
    /// The catalog line of each of `winners` (the tokenizer is built here; the lines are
    /// counted in one pass).
    fn of_each<'c>(winners: impl Iterator<Item = &'c Candidate>, max: usize) -> Vec<EntrySize> {
        let lines: Vec<(&Candidate, String)> =
            winners.map(|c| (c, catalog::CatalogEntry::new(&c.skill.name, &c.skill.description, max).line())).collect();
        let tokens = crate::analysis::tokens::count_each(lines.iter().map(|(_, l)| l.as_str()));
        lines
            .iter()
            .zip(tokens)
            .map(|((c, line), tokens)| EntrySize {
                name: c.skill.name.clone(),
                utf16_units: line.encode_utf16().count(),
                bytes: line.len(),
                tokens,
            })
            .collect()
    }
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListCutOut {
    name: String,
    length: usize,
    units_lost: usize,
}

#[derive(Serialize, JsonSchema)]
struct RootOut<'a> {
    path: &'a str,
    source: &'a str,
    rank: u32,
    exists: bool,
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Serialize, JsonSchema)]
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
        schema_version: SCHEMA_VERSION,
        tool: Tool::THIS,
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
        problems: crate::render::human::problems(s),
        notes: s.scans().flat_map(|(_, scan)| &scan.notes).collect(),
        locale: &s.locale,
        config,
        unscanned: None,
        catalog_cut: crate::render::human::catalog_cuts(s)
            .into_iter()
            .map(|(name, length, units_lost)| ListCutOut { name, length, units_lost })
            .collect(),
        catalog_sizes: EntrySize::of_each(
            s.winners().filter(|c| c.skill.invocation.model_invocable),
            s.description_max_length,
        ),
        tokenizer: TOKENIZER_NAME,
    }
}

/// `catalog --format json`: the contract fields, then statistics.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CatalogDoc<'a> {
    schema_version: u32,
    tool: Tool,
    /// `false` when a provider failed (the harness then publishes no catalog).
    complete: bool,
    /// The exact catalog message; null when the harness would publish none.
    text: Option<&'a str>,
    /// The catalog entries (descriptions normalized, cut and unescaped); null with `text`.
    entries: Option<Vec<EntryOut<'a>>>,
    /// SHA-256 hex of the entries, as the harness computes it; null with `text`.
    digest: Option<String>,
    /// Why there is no catalog; null when there is one.
    reason: Option<NoCatalogReason>,
    stats: StatsOut<'a>,
}

#[derive(Serialize, JsonSchema)]
struct EntryOut<'a> {
    name: &'a str,
    description: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
enum NoCatalogReason {
    Incomplete,
    NoModelInvocableSkill,
    NoSkillTool,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct StatsOut<'a> {
    entries: usize,
    utf16_units: usize,
    chars: usize,
    bytes: usize,
    tokens_estimate: usize,
    /// How `tokensEstimate` is computed.
    tokens_method: &'static str,
    /// The exact token count of `text` with `tokenizer` (no special tokens added).
    tokens: Option<usize>,
    /// The tokenizer of `tokens`: that of the model the harness's shipped configuration selects.
    tokenizer: &'static str,
    description_max_length: usize,
    /// Descriptions the catalog cuts.
    cut: Vec<CutOut<'a>>,
    /// Winners left out by `disable-model-invocation`.
    not_model_invocable: &'a [String],
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct CutOut<'a> {
    name: &'a str,
    normalized_length: usize,
    lost_units: usize,
}

/// `tokenizer` in JSON: the tokenizer and the model it belongs to.
pub const TOKENIZER_NAME: &str = crate::analysis::tokens::TOKENIZER_NAME;

/// `catalog --format json`.
pub fn catalog<'a>(s: &'a Snapshot, c: &'a Catalog, stats: &'a CatalogStats) -> CatalogDoc<'a> {
    CatalogDoc {
        schema_version: SCHEMA_VERSION,
        tool: Tool::THIS,
        complete: s.complete,
        text: c.text.as_deref(),
        entries: c.entries.as_ref().map(|es| es.iter().map(entry).collect()),
        digest: c.entries.as_ref().map(|es| catalog::digest(es)),
        reason: c.why_none.map(|w| match w {
            NoCatalog::Incomplete => NoCatalogReason::Incomplete,
            NoCatalog::NoModelInvocableSkill => NoCatalogReason::NoModelInvocableSkill,
            NoCatalog::NoSkillTool => NoCatalogReason::NoSkillTool,
        }),
        stats: StatsOut {
            entries: stats.entries,
            utf16_units: stats.utf16_units,
            chars: stats.chars,
            bytes: stats.bytes,
            tokens_estimate: stats.tokens_estimate,
            tokens_method: "ceil(bytes / 4)",
            tokens: stats.tokens,
            tokenizer: TOKENIZER_NAME,
            description_max_length: s.description_max_length,
            cut: stats
                .cut
                .iter()
                .map(|(name, len, lost)| CutOut { name, normalized_length: *len, lost_units: *lost })
                .collect(),
            not_model_invocable: &stats.hidden,
        },
    }
}

fn entry(e: &CatalogEntry) -> EntryOut<'_> {
    EntryOut { name: &e.name, description: e.description.to_string_lossy() }
}

/// `explain --format json` (documented in the README).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExplainDoc<'a> {
    schema_version: u32,
    tool: Tool,
    /// The name asked about.
    name: &'a str,
    /// Whether a skill of that name is available.
    found: bool,
    complete: bool,
    cwd: Option<&'a str>,
    project_root: Option<&'a str>,
    /// Why the project root is where it is; null without a cwd.
    project_root_reason: Option<ProjectRootOut<'a>>,
    /// Every candidate with that name, in resolution order.
    candidates: Vec<StoryOut<'a>>,
    /// Where the winner ends up in the catalog; null when nothing wins.
    catalog: Option<CatalogFateOut<'a>>,
    /// Whether a user can invoke the winner; null when nothing wins.
    user_invocable: Option<bool>,
    /// When discovery is incomplete: the providers that failed and why (the model then gets
    /// no catalog at all).
    #[serde(skip_serializing_if = "Option::is_none")]
    provider_errors: Option<Vec<ProviderErrorOut<'a>>>,
    /// When discovery is incomplete: where the name would come from, read past the failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    would_come_from: Option<Vec<WouldComeFromOut<'a>>>,
    /// Files the author probably meant as this skill, and why they are not candidates.
    near_misses: Vec<NearMissOut<'a>>,
    /// When no skill has the name: the names close to it, closest first (a misspelling).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    close_names: &'a [String],
    searched: SearchedOut<'a>,
}

#[derive(Serialize, JsonSchema)]
struct ProviderErrorOut<'a> {
    provider: &'a str,
    error: &'a str,
}

#[derive(Serialize, JsonSchema)]
struct WouldComeFromOut<'a> {
    rank: u32,
    source: &'a str,
    path: &'a str,
}

#[derive(Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum ProjectRootOut<'a> {
    /// `<root>/.git` exists.
    #[serde(rename_all = "camelCase")]
    Git { marker: &'a str, marker_type: &'static str },
    /// No `.git` up to the filesystem root: the cwd itself.
    NoGitAbove,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct StoryOut<'a> {
    #[serde(flatten)]
    candidate: CandidateOut<'a>,
    layer: Option<&'a str>,
    provider_order: usize,
    local_order: usize,
    verdict: VerdictOut,
    #[serde(skip_serializing_if = "Option::is_none")]
    loses_to: Option<LosesToOut<'a>>,
    /// Why it loses.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
enum VerdictOut {
    Wins,
    Loses,
}

#[derive(Serialize, JsonSchema)]
struct LosesToOut<'a> {
    source: &'a str,
    path: Option<&'a str>,
}

#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
enum CatalogFateOut<'a> {
    Included {
        /// Always true here.
        included: bool,
        /// The exact catalog line.
        line: &'a str,
        /// When the description is cut: its normalized length and the text the model never sees.
        cut: Option<CatalogCutOut<'a>>,
    },
    Excluded {
        /// Always false here.
        included: bool,
        reason: &'a str,
    },
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct CatalogCutOut<'a> {
    normalized_length: usize,
    lost_text: &'a str,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct NearMissOut<'a> {
    path: &'a str,
    why: &'a str,
    fix: Option<&'a str>,
    /// The harness's exact log line, when it logs one.
    harness_log: Option<&'a str>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SearchedOut<'a> {
    roots: Vec<SearchedRootOut<'a>>,
    /// Folders looked in that the harness does not scan for this cwd.
    unscanned_folders_checked: &'a [String],
}

#[derive(Serialize, JsonSchema)]
struct SearchedRootOut<'a> {
    path: &'a str,
    source: &'a str,
    rank: u32,
    #[serde(rename = "type")]
    kind: String,
}

/// `explain --format json`.
pub fn explain<'a>(s: &'a Snapshot, x: &'a Explanation) -> ExplainDoc<'a> {
    ExplainDoc {
        schema_version: SCHEMA_VERSION,
        tool: Tool::THIS,
        name: &x.name,
        found: x.winner.is_some(),
        complete: s.complete,
        cwd: s.cwd.as_deref(),
        project_root: s.project_root.as_ref().map(|(p, _)| p.as_str()),
        project_root_reason: s.project_root.as_ref().map(|(_, reason)| match reason {
            ProjectRootReason::Git { marker, kind } => ProjectRootOut::Git { marker, marker_type: kind },
            ProjectRootReason::NoGitAbove => ProjectRootOut::NoGitAbove,
        }),
        candidates: x
            .stories
            .iter()
            .map(|st| {
                let c = &s.candidates[st.index];
                let (verdict, loses_to, reason) = match &st.verdict {
                    Verdict::Winner => (VerdictOut::Wins, None, None),
                    Verdict::Loses { to, reason } => {
                        let w = &s.candidates[*to];
                        (
                            VerdictOut::Loses,
                            Some(LosesToOut { source: w.source, path: w.path.as_deref() }),
                            Some(reason.as_str()),
                        )
                    }
                };
                StoryOut {
                    candidate: CandidateOut::new(c),
                    layer: s.layer_names.get(c.layer).map(String::as_str),
                    provider_order: c.provider_order,
                    local_order: c.local_order,
                    verdict,
                    loses_to,
                    reason,
                }
            })
            .collect(),
        catalog: x.fate.as_ref().map(|f| match &f.catalog {
            Ok(line) => CatalogFateOut::Included {
                included: true,
                line: &line.line,
                cut: line.cut.as_ref().map(|(len, lost)| CatalogCutOut { normalized_length: *len, lost_text: lost }),
            },
            Err(why) => CatalogFateOut::Excluded { included: false, reason: why },
        }),
        user_invocable: x.fate.as_ref().map(|f| f.user_invocable),
        provider_errors: (!s.complete)
            .then(|| x.failures.iter().map(|(p, e)| ProviderErrorOut { provider: p, error: e }).collect()),
        would_come_from: (!s.complete).then(|| {
            x.would_come_from
                .iter()
                .map(|(rank, source, path)| WouldComeFromOut { rank: *rank, source, path })
                .collect()
        }),
        close_names: &x.close_names,
        near_misses: x
            .near_misses
            .iter()
            .map(|n| NearMissOut { path: &n.path, why: &n.why, fix: n.fix.as_deref(), harness_log: n.log.as_deref() })
            .collect(),
        searched: SearchedOut {
            roots: s
                .scans()
                .flat_map(|(_, scan)| &scan.roots)
                .map(|r| SearchedRootOut {
                    path: &r.root.path,
                    source: r.root.source,
                    rank: r.root.rank,
                    kind: r.root_type.label(),
                })
                .collect(),
            unscanned_folders_checked: &x.unscanned_checked,
        },
    }
}

/// `show --format json`: the skill definition the provider's `get()` returns, plus where it
/// ranks.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShowDoc<'a> {
    schema_version: u32,
    tool: Tool,
    #[serde(flatten)]
    candidate: CandidateOut<'a>,
    /// The skill body as the harness holds it.
    content: &'a str,
    /// The size of the `<skill_content>` block the `skill` tool returns (`show --rendered`).
    skill_content: ContentSize,
}

pub use crate::analysis::tokens::ContentSize;

/// `show --format json`.
pub fn skill(c: &Candidate) -> ShowDoc<'_> {
    ShowDoc {
        schema_version: SCHEMA_VERSION,
        tool: Tool::THIS,
        candidate: CandidateOut::new(c),
        content: &c.skill.content,
        skill_content: ContentSize::of(c),
    }
}
