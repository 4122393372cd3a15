//! What the model is shown at two states of a repository, compared (`dsh-skills diff`): the
//! catalog text, its entries, cut descriptions, skills hidden, shadowed, unscanned or failing to
//! load, each winner's `<skill_content>`, the catalog's size and lint's findings.
//!
//! A [`Side`] is made from one discovery ([`Side::of`]) while that state's files are in force
//! (the git overlay, or the disk for the working tree); [`Diff::between`] compares two sides.
//! Lint's findings are handed in by the command as plain [`LintItem`]s (lint is a layer above).

use crate::engine::catalog::{self, ResourceBase, Variant};
use crate::engine::discover::Outcome;
use crate::engine::js;
use crate::engine::snapshot::{NoCatalog, ProviderRun, Snapshot};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One catalog entry of one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntrySide {
    pub name: String,
    /// The line the model sees.
    pub line: String,
    /// The description as shown (after the cut, unescaped).
    pub description: String,
    /// The normalized description's length in UTF-16 units, before any cut.
    pub normalized_len: usize,
    /// What the cut leaves out (empty when not cut).
    pub lost: String,
}

/// One catalog entry of one side as compared: its line, and what its reported form
/// ([`EntrySide`], [`Entry::side`]) is made from, made only for the entries a diff reports.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    /// The line the model sees.
    pub line: String,
    /// The normalized description's length in UTF-16 units, before any cut.
    pub normalized_len: usize,
    /// The description as shown (after the cut), in UTF-16 units.
    shown: js::JsString,
    /// For a cut entry: its winner's description as written (`None` when no winner has the
    /// name), which what the cut leaves out is made from.
    cut_from: Option<Option<String>>,
}

impl Entry {
    /// What the cut leaves out (empty when not cut) at the catalog limit `max`.
    pub fn lost(&self, max: usize) -> String {
        let Some(raw) = &self.cut_from else { return String::new() };
        raw.as_deref()
            .map(|d| {
                let units = js::JsString::encode(&js::collapse_whitespace(d)).0;
                String::from_utf16_lossy(&units[max.saturating_sub(3).min(units.len())..])
            })
            .unwrap_or_default()
    }

    /// The entry as a diff reports it.
    pub fn side(&self, max: usize) -> EntrySide {
        EntrySide {
            name: self.name.clone(),
            line: self.line.clone(),
            description: self.shown.to_string_lossy(),
            normalized_len: self.normalized_len,
            lost: self.lost(max),
        }
    }
}

/// A winner of one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillSide {
    pub path: Option<String>,
    pub source: String,
    pub model_invocable: bool,
    /// What its `<skill_content>` is made of ([`SkillSide::content`]): the provider, the
    /// resource base and the body. Two sides are rendered only where these differ.
    pub provider: String,
    pub resource_base: String,
    pub body: String,
}

impl SkillSide {
    /// `<skill_content>` as the `skill` tool returns it for the skill `name`.
    pub fn content(&self, name: &str) -> String {
        let base = ResourceBase::Directory(self.resource_base.clone());
        catalog::render_skill_content(name, &self.provider, Some(&base), &self.body)
    }
}

/// A lint finding, reduced to what is compared across sides (rule, file, message: stable when
/// lines move).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LintItem {
    pub path: String,
    pub rule: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    pub message: String,
    /// 1-based line, when the finding points into the file (not compared).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl LintItem {
    fn key(&self) -> (&str, &str, &str) {
        (&self.path, &self.rule, &self.message)
    }
}

/// The catalog's size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Size {
    pub utf16_units: usize,
    pub bytes: usize,
    /// `ceil(bytes / 4)`: an estimate, not a tokenizer's count.
    pub tokens_estimate: usize,
    /// The exact DeepSeek-V4 count ([`crate::analysis::tokens`]), when the output shows it
    /// (`null` for `--format github`, which prints no size).
    pub tokens: Option<usize>,
}

impl Size {
    pub fn of(text: &str) -> Size {
        Size {
            utf16_units: text.encode_utf16().count(),
            bytes: text.len(),
            tokens_estimate: text.len().div_ceil(4),
            tokens: None,
        }
    }
}

/// Everything compared of one state.
#[derive(Clone, Debug)]
pub struct Side {
    /// How the state is named (`main (1a2b3c4d5e6f)`, `index`, `working tree`).
    pub label: String,
    pub catalog: CatalogSide,
    pub skills: BTreeMap<String, SkillSide>,
    /// `(loser path, winner path, name)` for every same-named copy that lost.
    pub shadowed: BTreeSet<(String, String, String)>,
    /// `(path, harness warning)` for every skill file the harness refused.
    pub unloadable: BTreeMap<String, String>,
    /// `String(error)` of each failed provider.
    pub provider_errors: Vec<String>,
    /// Skill files of the repository (relative to its top) that no scanned root reaches.
    pub unscanned: BTreeSet<String>,
    pub lint: Vec<LintItem>,
}

/// A side's catalog: its text (or why there is none), its entries and its size. It is made
/// before the rest of the side ([`CatalogSide::of`]), so that the head's side can take the
/// base's entries while the base's side is still being made.
#[derive(Clone, Debug, Default)]
pub struct CatalogSide {
    /// The catalog a fresh session is shown, exactly; `None` when there is none.
    pub text: Option<String>,
    /// Why there is no catalog.
    pub why_none: Option<String>,
    pub entries: Vec<Entry>,
    /// The catalog's description limit (`catalogDescriptionMaxLength`).
    pub max: usize,
    pub size: Size,
}

impl CatalogSide {
    /// The catalog of `snap`, taking the entries of `reuse` (another state's snapshot and its
    /// catalog's entries) where they are the same.
    pub fn of(snap: &Snapshot, reuse: Option<(&Snapshot, &[Entry])>) -> CatalogSide {
        // The entries of `reuse`'s catalog, by name, with their winner's description as written:
        // an entry is a function of the name, that description and the limit.
        let mut known: std::collections::HashMap<&str, (&js::JsStr, &Entry), foldhash::fast::RandomState> =
            Default::default();
        if let Some((other, entries)) = reuse
            && other.description_max_length == snap.description_max_length
        {
            let invocable = other.winners().filter(|c| c.skill.invocation.model_invocable);
            for (c, e) in invocable.zip(entries) {
                known.entry(c.skill.name.as_str()).or_insert((&c.skill.description, e));
            }
        }
        let reused = |c: &crate::engine::discover::Candidate| {
            let (raw, e) = known.get(c.skill.name.as_str())?;
            (e.name == c.skill.name && **raw == c.skill.description).then(|| {
                let entry = catalog::CatalogEntry {
                    name: e.name.clone(),
                    description: e.shown.clone(),
                    normalized_len: e.normalized_len,
                };
                (entry, e.line.clone())
            })
        };
        let (cat, lines) = snap.catalog_with_lines_reusing(Variant::Initial, &reused);
        let cat_entries = cat.entries.as_deref().unwrap_or(&[]);
        // The first winner of each name, as `Snapshot::winner` finds it.
        let mut winners: std::collections::HashMap<&str, &crate::engine::discover::Candidate> =
            std::collections::HashMap::new();
        if cat_entries.iter().any(|e| e.is_cut()) {
            for c in snap.winners() {
                winners.entry(c.skill.name.as_str()).or_insert(c);
            }
        }
        let entries: Vec<Entry> = cat_entries
            .iter()
            .zip(lines)
            .map(|(e, line)| Entry {
                name: e.name.clone(),
                line,
                normalized_len: e.normalized_len,
                shown: e.description.clone(),
                cut_from: e
                    .is_cut()
                    .then(|| winners.get(e.name.as_str()).map(|c| c.skill.description.as_ref().to_string())),
            })
            .collect();
        let why_none = cat.why_none.map(|w| {
            match w {
                NoCatalog::Incomplete => "a skill provider failed: the harness publishes no catalog",
                NoCatalog::NoModelInvocableSkill => "no model-invocable skill: the harness publishes no catalog",
                NoCatalog::NoSkillTool => "the skill tool is not mounted: no catalog",
            }
            .to_string()
        });
        let size = Size::of(cat.text.as_deref().unwrap_or(""));
        CatalogSide { text: cat.text, why_none, entries, max: snap.description_max_length, size }
    }
}

impl Side {
    /// The side of `snap` with its catalog. `reached` is every skill file a root entry reaches,
    /// as real paths ([`reached_files`], made while the state's files are in force);
    /// `skill_files` the repository's `SKILL.md` files as real paths.
    pub fn of(
        label: String,
        snap: &Snapshot,
        reached: &BTreeSet<String>,
        skill_files: &[(String, String)],
        lint: Vec<LintItem>,
        catalog: CatalogSide,
    ) -> Side {
        let skills = snap
            .winners()
            .map(|c| {
                let side = SkillSide {
                    path: c.path.clone(),
                    source: c.source.to_string(),
                    model_invocable: c.skill.invocation.model_invocable,
                    provider: c.provider.to_string(),
                    resource_base: c.resource_base.clone(),
                    body: c.skill.content.clone(),
                };
                (c.skill.name.clone(), side)
            })
            .collect();
        let path_of =
            |i: usize| snap.candidates[i].path.clone().unwrap_or_else(|| snap.candidates[i].provider.to_string());
        let shadowed = snap
            .shadowed
            .iter()
            .map(|s| (path_of(s.loser), path_of(s.winner), snap.candidates[s.loser].skill.name.clone()))
            .collect();
        let mut unloadable = BTreeMap::new();
        for p in &snap.providers {
            let ProviderRun::Filesystem { scan, .. } = &p.run else { continue };
            for root in &scan.roots {
                for e in &root.entries {
                    if let (Outcome::Warned { warning, .. }, Some(path)) = (&e.outcome, &e.locator) {
                        unloadable.insert(path.clone(), snap.warnings.get(*warning).cloned().unwrap_or_default());
                    }
                }
            }
        }
        let unscanned =
            skill_files.iter().filter(|(_, real)| !reached.contains(real)).map(|(rel, _)| rel.clone()).collect();
        Side {
            label,
            catalog,
            skills,
            shadowed,
            unloadable,
            provider_errors: snap.provider_errors().map(|(_, e)| e.to_string()).collect(),
            unscanned,
            lint,
        }
    }
}

/// Every skill file a root entry of `snap` leads to, as a real path (through symlinks), so a
/// skill folder linked into a root counts as scanned. Call it while the state's files are in
/// force.
pub fn reached_files(snap: &Snapshot, real: &mut RealPaths) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for p in &snap.providers {
        let ProviderRun::Filesystem { scan, .. } = &p.run else { continue };
        for root in &scan.roots {
            for e in &root.entries {
                if let Some(locator) = &e.locator {
                    if let Some(real) = real.of(locator) {
                        out.insert(real);
                    }
                    out.insert(locator.clone());
                }
            }
        }
    }
    out
}

/// Real paths ([`crate::engine::nodefs::realpath`], through the state in force), each path
/// resolved once: the root entries' files and the repository's skill files are mostly the same
/// files.
#[derive(Debug, Default)]
pub struct RealPaths(std::collections::HashMap<String, Option<String>, foldhash::fast::RandomState>);

impl RealPaths {
    /// The real path of `path`, `None` when it cannot be resolved.
    pub fn of(&mut self, path: &str) -> Option<String> {
        if let Some(known) = self.0.get(path) {
            return known.clone();
        }
        let real = crate::engine::nodefs::realpath(path).ok();
        self.0.insert(path.to_string(), real.clone());
        real
    }
}

/// Counts the tokens of both sides' catalogs ([`crate::analysis::tokens`]), each distinct
/// piece once: a catalog is counted as the sum of its [`token_pieces`], and the pieces the two
/// sides share (every line of an entry that did not change, the fixed text around them) are
/// counted for both at once. Only the pieces that differ are counted for the second side.
/// The pieces are counted on two cores. [`Diff::set_tokens`] takes the two totals.
pub fn count_tokens(base_catalog: Option<&str>, head_catalog: Option<&str>) -> [usize; 2] {
    let texts = [base_catalog.unwrap_or(""), head_catalog.unwrap_or("")];
    let mut index: std::collections::HashMap<&str, usize, foldhash::fast::RandomState> = Default::default();
    let mut distinct: Vec<&str> = Vec::new();
    for piece in texts.iter().flat_map(|t| token_pieces(t)) {
        index.entry(piece).or_insert_with(|| {
            distinct.push(piece);
            distinct.len() - 1
        });
    }
    // Counted in two halves, one on another thread (the same counts: each piece is counted on
    // its own).
    let (first, second) = distinct.split_at(distinct.len() / 2);
    let counts: Vec<usize> = std::thread::scope(|scope| {
        let second = scope.spawn(|| crate::analysis::tokens::count_each(second.iter().copied()));
        let mut counts = crate::analysis::tokens::count_each(first.iter().copied());
        counts.extend(second.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        counts
    });
    let total = |text: &str| token_pieces(text).map(|p| counts[index[p]]).sum::<usize>();
    [total(texts[0]), total(texts[1])]
}

/// `text` cut after each line break that is followed by a character other than white space:
/// the token count of `text` is the sum of its pieces' counts. (No token spans such a place:
/// no added token holds a line break; the pre-tokenizer's digit and ideograph runs hold none;
/// of its third split's matches, the ones that hold a line break end with the run of line
/// breaks and white space they start or follow, `\s*[\r\n]+` and ` ?[\p{P}\p{S}]+[\r\n]*`,
/// so a match never holds the break and the character after it, and every line break starts
/// a match where no match holds it, so none is left between matches. A test checks the sums
/// against whole counts.)
pub fn token_pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let bytes = rest.as_bytes();
        let mut from = 0;
        let end = loop {
            match memchr::memchr(b'\n', &bytes[from..]) {
                None => break rest.len(),
                Some(i) => {
                    let after = from + i + 1;
                    if rest[after..].chars().next().is_some_and(|c| !c.is_whitespace()) {
                        break after;
                    }
                    from = after;
                }
            }
        };
        let (piece, tail) = rest.split_at(end);
        rest = tail;
        Some(piece)
    })
}

/// An entry whose line changed.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    pub name: String,
    pub before: String,
    pub after: String,
}

/// A description the catalog newly cuts (or cuts more).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Cut {
    pub name: String,
    /// The normalized description's length, in UTF-16 units.
    pub length: usize,
    /// The catalog's limit (`catalogDescriptionMaxLength`).
    pub limit: usize,
    /// The text the model no longer sees.
    pub lost: String,
}

/// A skill in the base's catalog that the head's catalog no longer shows, though it still loads.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Hidden {
    pub name: String,
    pub path: Option<String>,
}

/// A copy newly shadowed by a same-named one.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Shadowed {
    pub name: String,
    /// The copy that lost.
    pub path: String,
    /// The copy that wins.
    pub by: String,
}

/// A skill file the harness newly refuses.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Unloadable {
    pub path: String,
    /// The harness's warning.
    pub warning: String,
}

/// A skill whose `<skill_content>` changed.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContentChange {
    pub name: String,
    /// Unified diff of the two `<skill_content>` texts.
    pub diff: String,
}

/// Sizes and their change.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SizeChange {
    pub base: Size,
    pub head: Size,
    pub delta_utf16_units: i64,
    pub delta_bytes: i64,
    pub delta_tokens_estimate: i64,
    /// Exact token change, when both sides are counted (`null` for `--format github`).
    pub delta_tokens: Option<i64>,
}

/// Lint findings that appeared and went away.
#[derive(Clone, Debug, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LintChange {
    pub new: Vec<LintItem>,
    pub fixed: Vec<LintItem>,
}

/// Two sides compared.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Diff {
    pub base: String,
    pub head: String,
    /// The base's catalog text exactly (`null` when it has none).
    pub base_catalog: Option<String>,
    pub head_catalog: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_no_catalog: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_no_catalog: Option<String>,
    /// Unified diff of the two catalog texts (empty when they are equal).
    pub catalog_diff: String,
    pub added: Vec<EntrySide>,
    pub removed: Vec<EntrySide>,
    pub changed: Vec<Changed>,
    pub cut: Vec<Cut>,
    pub hidden: Vec<Hidden>,
    pub shadowed: Vec<Shadowed>,
    /// Skill files of the repository (relative to its top) that no scanned root reaches any
    /// more.
    pub unscanned: Vec<String>,
    pub unloadable: Vec<Unloadable>,
    /// Provider failures of the head that the base did not have (no catalog is published).
    pub provider_errors: Vec<String>,
    pub content: Vec<ContentChange>,
    pub size: SizeChange,
    pub lint: LintChange,
    /// Catalog entries at each side.
    pub base_entries: usize,
    pub head_entries: usize,
    /// The head's winners' skill files, by name.
    #[serde(skip)]
    #[schemars(skip)]
    pub head_paths: BTreeMap<String, String>,
}

/// The kinds of change `--fail-on` can name.
pub const FAIL_KINDS: &[&str] =
    &["catalog", "cut", "hidden", "shadowed", "unscanned", "unloadable", "new-errors", "new-warnings"];

/// A unified diff of two texts, `a` and `b` named in the header (three lines of context).
pub fn unified(a: &str, b: &str, a_name: &str, b_name: &str) -> String {
    if a == b {
        return String::new();
    }
    let (a_lines, b_lines) = (lines(a), lines(b));
    // `TextDiff::from_lines` on the same lines (its splitter walks characters; this one bytes).
    similar::TextDiff::configure()
        .newline_terminated(true)
        .diff_slices(&a_lines, &b_lines)
        .unified_diff()
        .context_radius(3)
        .missing_newline_hint(true)
        .header(a_name, b_name)
        .to_string()
}

/// The lines of `text` as `similar` splits them for a line diff: `\n`, `\r\n` or a lone `\r`
/// ends a line and stays in it; a last line without one is a line too.
fn lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if i < start {
            // The `\n` of a `\r\n` already taken.
            continue;
        }
        let end = if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') { i + 1 } else { i };
        out.push(&text[start..=end]);
        start = end + 1;
    }
    if start < bytes.len() {
        out.push(&text[start..]);
    }
    out
}

impl Diff {
    pub fn between<'a>(base: &'a Side, head: &'a Side, limit: usize) -> Diff {
        let catalog_diff = unified(
            base.catalog.text.as_deref().unwrap_or(""),
            head.catalog.text.as_deref().unwrap_or(""),
            &format!("catalog @ {}", base.label),
            &format!("catalog @ {}", head.label),
        );
        let by_name = |s: &'a Side| s.catalog.entries.iter().map(|e| (e.name.as_str(), e)).collect::<BTreeMap<_, _>>();
        let (b, h) = (by_name(base), by_name(head));
        let added = h.values().filter(|e| !b.contains_key(e.name.as_str())).map(|e| e.side(head.catalog.max)).collect();
        let removed: Vec<EntrySide> =
            b.values().filter(|e| !h.contains_key(e.name.as_str())).map(|e| e.side(base.catalog.max)).collect();
        let changed = h
            .values()
            .filter_map(|e| {
                let before = b.get(e.name.as_str())?;
                (before.line != e.line).then(|| Changed {
                    name: e.name.clone(),
                    before: before.line.clone(),
                    after: e.line.clone(),
                })
            })
            .collect();
        let cut = h
            .values()
            .filter_map(|e| {
                let old = b.get(e.name.as_str());
                // The same description at the same limit loses the same text: not newly cut.
                if e.cut_from.is_none()
                    || old.is_some_and(|o| o.cut_from == e.cut_from && base.catalog.max == head.catalog.max)
                {
                    return None;
                }
                let lost = e.lost(head.catalog.max);
                (!lost.is_empty() && old.is_none_or(|o| o.lost(base.catalog.max) != lost)).then(|| Cut {
                    name: e.name.clone(),
                    length: e.normalized_len,
                    limit,
                    lost,
                })
            })
            .collect();
        let hidden = removed
            .iter()
            .filter_map(|e| {
                let s = head.skills.get(&e.name)?;
                (!s.model_invocable).then(|| Hidden { name: e.name.clone(), path: s.path.clone() })
            })
            .collect();
        let shadowed = head
            .shadowed
            .difference(&base.shadowed)
            .map(|(path, by, name)| Shadowed { name: name.clone(), path: path.clone(), by: by.clone() })
            .collect();
        let unscanned = head.unscanned.difference(&base.unscanned).cloned().collect();
        let unloadable = head
            .unloadable
            .iter()
            .filter(|(path, warning)| base.unloadable.get(*path) != Some(warning))
            .map(|(path, warning)| Unloadable { path: path.clone(), warning: warning.clone() })
            .collect();
        let provider_errors =
            head.provider_errors.iter().filter(|e| !base.provider_errors.contains(e)).cloned().collect();
        let content = head
            .skills
            .iter()
            .filter_map(|(name, s)| {
                let old = base.skills.get(name)?;
                // Equal parts make equal texts: only a skill whose parts differ is rendered.
                if (&old.provider, &old.resource_base, &old.body) == (&s.provider, &s.resource_base, &s.body) {
                    return None;
                }
                let (old, new) = (old.content(name), s.content(name));
                (old != new).then(|| ContentChange {
                    name: name.clone(),
                    diff: unified(&old, &new, &format!("{name} @ {}", base.label), &format!("{name} @ {}", head.label)),
                })
            })
            .collect();
        let delta = |a: usize, b: usize| b as i64 - a as i64;
        let size = SizeChange {
            base: base.catalog.size,
            head: head.catalog.size,
            delta_utf16_units: delta(base.catalog.size.utf16_units, head.catalog.size.utf16_units),
            delta_bytes: delta(base.catalog.size.bytes, head.catalog.size.bytes),
            delta_tokens_estimate: delta(base.catalog.size.tokens_estimate, head.catalog.size.tokens_estimate),
            delta_tokens: match (base.catalog.size.tokens, head.catalog.size.tokens) {
                (Some(a), Some(b)) => Some(delta(a, b)),
                _ => None,
            },
        };
        fn keys(s: &Side) -> BTreeSet<(&str, &str, &str)> {
            s.lint.iter().map(|l| l.key()).collect()
        }
        let (bk, hk) = (keys(base), keys(head));
        let lint = LintChange {
            new: head.lint.iter().filter(|l| !bk.contains(&l.key())).cloned().collect(),
            fixed: base.lint.iter().filter(|l| !hk.contains(&l.key())).cloned().collect(),
        };
        Diff {
            base: base.label.clone(),
            head: head.label.clone(),
            base_catalog: base.catalog.text.clone(),
            head_catalog: head.catalog.text.clone(),
            base_no_catalog: base.catalog.why_none.clone(),
            head_no_catalog: head.catalog.why_none.clone(),
            catalog_diff,
            added,
            removed,
            changed,
            cut,
            hidden,
            shadowed,
            unscanned,
            unloadable,
            provider_errors,
            content,
            size,
            lint,
            base_entries: base.catalog.entries.len(),
            head_entries: head.catalog.entries.len(),
            head_paths: head.skills.iter().filter_map(|(n, s)| Some((n.clone(), s.path.clone()?))).collect(),
        }
    }

    /// The exact token counts of the two catalogs ([`count_tokens`]), counted beside
    /// [`Diff::between`].
    pub fn set_tokens(&mut self, [base, head]: [usize; 2]) {
        self.size.base.tokens = Some(base);
        self.size.head.tokens = Some(head);
        self.size.delta_tokens = Some(head as i64 - base as i64);
    }

    pub fn base_entries(&self) -> usize {
        self.base_entries
    }

    pub fn head_entries(&self) -> usize {
        self.head_entries
    }

    /// The head's skill file of the winner `name`.
    pub fn head_path(&self, name: &str) -> Option<String> {
        self.head_paths.get(name).cloned()
    }

    /// Whether nothing the model sees, and no finding, changed.
    pub fn is_empty(&self) -> bool {
        self.catalog_diff.is_empty()
            && self.content.is_empty()
            && self.shadowed.is_empty()
            && self.unscanned.is_empty()
            && self.unloadable.is_empty()
            && self.provider_errors.is_empty()
            && self.lint.new.is_empty()
            && self.lint.fixed.is_empty()
    }

    /// The `--fail-on` kinds this diff has.
    pub fn failing(&self, kinds: &[String]) -> Vec<String> {
        kinds
            .iter()
            .filter(|k| match k.as_str() {
                "catalog" => !self.catalog_diff.is_empty(),
                "cut" => !self.cut.is_empty(),
                "hidden" => !self.hidden.is_empty(),
                "shadowed" => !self.shadowed.is_empty(),
                "unscanned" => !self.unscanned.is_empty(),
                "unloadable" => !self.unloadable.is_empty() || !self.provider_errors.is_empty(),
                "new-errors" => self.lint.new.iter().any(|l| l.severity == "error"),
                "new-warnings" => self.lint.new.iter().any(|l| l.severity != "info"),
                _ => false,
            })
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use similar::DiffableStr;

    /// [`lines`] splits exactly as `similar`'s own line splitter, which [`unified`] replaces.
    #[test]
    fn lines_split_as_similar_splits_them() {
        let texts = [
            "",
            "a",
            "a\n",
            "a\nb",
            "\n\n",
            "a\r\nb\rc\n\rd",
            "\r",
            "\r\n",
            "x\r",
            "é\r\n☃\n𝄞\rend",
            "trailing\r\r\n\n",
        ];
        for text in texts {
            assert_eq!(lines(text), text.tokenize_lines(), "{text:?}");
        }
    }

    /// A catalog's token count is the sum of its pieces' counts ([`token_pieces`]), on texts
    /// made to put every kind of character after and before a line break.
    #[test]
    fn token_pieces_add_up_to_the_whole_count() {
        use proptest::prelude::*;
        let sum = |text: &str| {
            assert_eq!(token_pieces(text).collect::<String>(), text);
            token_pieces(text).map(crate::analysis::tokens::count).sum::<usize>()
        };
        let fixed = [
            "",
            "\n",
            "a\nb",
            "a.\n- `x`: y\n\n</end>",
            "x \n  \n- y\r\n-z\n\u{a0}w\n\t1\n23\n中文\n。\n<｜end▁of▁sentence｜>\n",
            "trailing \n",
        ];
        for text in fixed {
            assert_eq!(sum(text), crate::analysis::tokens::count(text), "{text:?}");
        }
        let alphabet = prop::sample::select(vec![
            "\n",
            "\n",
            "\r",
            "\r\n",
            " ",
            "  ",
            "\t",
            "\u{a0}",
            "a",
            "Word",
            "é",
            "\u{301}",
            "1",
            "123456",
            ".",
            "- `",
            "`: ",
            "&lt;",
            "<",
            ">",
            "中",
            "か",
            "😀",
            "\u{2028}",
            "<｜begin▁of▁sentence｜>",
            "\u{0}",
        ]);
        let texts = prop::collection::vec(alphabet, 0..60).prop_map(|parts| parts.concat());
        proptest!(ProptestConfig::with_cases(2000), |(text in texts)| {
            prop_assert_eq!(sum(&text), crate::analysis::tokens::count(&text), "{:?}", text);
        });
    }

    #[test]
    fn unified_is_similar_from_lines() {
        let pairs = [("a\nb\nc\n", "a\nB\nc\n"), ("one\r\ntwo\rthree", "one\r\n2\rthree\n"), ("", "x"), ("x\n", "")];
        for (a, b) in pairs {
            let expected = similar::TextDiff::from_lines(a, b)
                .unified_diff()
                .context_radius(3)
                .missing_newline_hint(true)
                .header("a", "b")
                .to_string();
            assert_eq!(unified(a, b, "a", "b"), expected, "{a:?} → {b:?}");
        }
    }
}
