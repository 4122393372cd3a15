//! One discovery run for a working directory: the whole pipeline from settings to the registry
//! snapshot the catalog and the `skill` tool read (spec 6.7). Pure data; nothing here prints.
//!
//! The registry has layers (global first, then e.g. a web preset's layer); each layer has
//! providers in registration order. Within a layer the merge is by rank, provider order and
//! entry order (spec 5.2); across layers a nearer layer's winner replaces a farther layer's
//! same-named winner regardless of rank, without a warning (spec 5.5).

use crate::engine::catalog::{self, CatalogEntry, Variant};
use crate::engine::collate::EntryCollator;
use crate::engine::discover::{
    self, Candidate, Environment, ProjectRootReason, ProviderConfig, ProviderScan, ResolvedProvider,
};
use crate::engine::platform;
use crate::engine::registry::{self, Shadow};
use crate::engine::skillfile::{Invocation, ParsedSkill};

/// A skill provider as a configuration row registers it.
#[derive(Clone, Debug)]
pub enum ProviderSpec {
    /// `@deepseek-ai/dsh-skill-filesystem`.
    Filesystem(ProviderConfig),
    /// `@deepseek-ai/dsh-skill-badge`: the packaged `dsh-badge` skill.
    Badge(BadgeConfig),
}

/// Where the installed badge package is, when it could be found.
#[derive(Clone, Debug, Default)]
pub struct BadgeConfig {
    /// The package's `assets/` directory (real path, with the trailing separator the harness
    /// keeps); `None` when the package is enabled but could not be located.
    pub assets_dir: Option<String>,
}

/// One registry layer and its providers, in registration order.
#[derive(Clone, Debug)]
pub struct Layer {
    pub name: String,
    pub providers: Vec<ProviderSpec>,
}

/// Everything that decides a discovery run, already merged from flags, configuration and the
/// environment.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The lookup cwd as given (`None` = the harness's `cwd === undefined`).
    pub cwd: Option<String>,
    /// Registry layers, farthest (global) first.
    pub layers: Vec<Layer>,
    pub description_max_length: usize,
    /// BCP-47 tag or POSIX locale name for the in-root collation.
    pub locale: String,
    /// Whether the `skill` tool (tool-skill) is mounted and visible; without it the catalog
    /// listener sees no skills (the `minimal` preset).
    pub tool_visible: bool,
    /// What the scan keeps of each file.
    pub scan: discover::ScanOptions,
}

impl Settings {
    /// One global layer with one filesystem provider: the harness's headless default.
    pub fn single(
        cwd: Option<String>,
        provider: ProviderConfig,
        description_max_length: usize,
        locale: String,
    ) -> Self {
        Settings {
            cwd,
            layers: vec![Layer { name: "global".into(), providers: vec![ProviderSpec::Filesystem(provider)] }],
            description_max_length,
            locale,
            tool_visible: true,
            scan: discover::ScanOptions::default(),
        }
    }
}

/// The badge's fixed description (`skill-badge/src/index.ts:24`), 304 UTF-16 units.
pub const BADGE_DESCRIPTION: &str = "Add the official \u{201C}powered by dsh\u{201D} badge to documents, pull requests, merge requests, and other content produced with DeepSeek Harness. Use whenever creating a pull request or merge request. Also use when the user asks for a dsh badge, powered-by-dsh attribution, or a reusable dsh badge asset or snippet.";

/// A provider as it ran.
pub enum ProviderRun {
    Filesystem { resolved: ResolvedProvider, scan: Box<ProviderScan> },
    Badge { config: BadgeConfig },
}

/// One provider's part of the snapshot.
pub struct ProviderReport {
    pub layer: usize,
    pub order: usize,
    pub name: String,
    pub run: ProviderRun,
    /// `String(error)` when its `list()` rejected.
    pub error: Option<String>,
}

/// The registry's view after `list()`: candidates, winners, warnings, completeness.
pub struct Snapshot {
    pub cwd: Option<String>,
    pub project_root: Option<(String, ProjectRootReason)>,
    pub locale: String,
    pub description_max_length: usize,
    pub tool_visible: bool,
    pub layer_names: Vec<String>,
    pub providers: Vec<ProviderReport>,
    /// Every candidate the registry received, in collection order (layer by layer, provider by
    /// provider).
    pub candidates: Vec<Candidate>,
    /// Indices into `candidates` in resolution order (per layer, sorted by rank, provider,
    /// entry).
    pub resolution_order: Vec<usize>,
    /// Winners, sorted by name in code-unit order.
    pub winners: Vec<usize>,
    /// Losers: same-layer duplicates in resolution order, then cross-layer replacements.
    pub shadowed: Vec<Shadow>,
    /// Every line the harness logs with `ctx.logger.warn`, in order.
    pub warnings: Vec<String>,
    /// `false` when a provider's `list()` rejected: the harness then publishes no catalog.
    pub complete: bool,
}

impl Snapshot {
    pub fn discover(settings: &Settings, env: &Environment) -> Snapshot {
        Snapshot::discover_with(settings, env, None)
    }

    /// [`Snapshot::discover`], listing and reading only what `memo` does not hold
    /// ([`discover::ScanMemo`]): a long-running command's re-evaluation after a change.
    pub fn discover_with(
        settings: &Settings,
        env: &Environment,
        mut memo: Option<&mut discover::ScanMemo>,
    ) -> Snapshot {
        if let Some(m) = memo.as_deref_mut() {
            m.begin(&settings.scan);
        }
        let cwd = settings.cwd.as_ref().map(|c| platform::resolve(&env.process_cwd, c));
        let project_root = cwd.as_deref().map(discover::find_project_root);
        let collator = EntryCollator::new(&settings.locale);
        let mut warnings = Vec::new();
        let mut providers = Vec::new();
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut resolution_order = Vec::new();
        let mut shadowed = Vec::new();
        // Winners, nearer layers replacing farther ones; `slot_of` maps a name to its slot.
        let mut winners: Vec<usize> = Vec::new();
        let mut slot_of: crate::engine::Map<String, usize> = crate::engine::Map::default();
        let mut order = 0;
        for (layer_index, layer) in settings.layers.iter().enumerate() {
            let layer_start = candidates.len();
            for spec in &layer.providers {
                let report = match spec {
                    ProviderSpec::Filesystem(config) => {
                        let resolved = ResolvedProvider::new(config, env);
                        let root = project_root.as_ref().map(|(p, _)| p.as_str());
                        let mut scan = discover::scan_provider_with(
                            &resolved,
                            root,
                            order,
                            &collator,
                            &settings.scan,
                            &mut warnings,
                            memo.as_deref_mut(),
                        );
                        let error = scan.error.as_ref().map(|e| e.to_string());
                        if let Some(e) = &error {
                            // The registry's log line for a rejected list() (spec 5.1).
                            warnings.push(format!("skill provider \"{}\" skipped: {e}", resolved.name));
                        }
                        // Moved, not copied: the snapshot owns every candidate once (the first
                        // provider's list becomes the snapshot's, so the two never coexist).
                        let mut scanned = std::mem::take(&mut scan.candidates);
                        scanned.iter_mut().for_each(|c| c.layer = layer_index);
                        if candidates.is_empty() {
                            candidates = scanned;
                        } else {
                            candidates.append(&mut scanned);
                        }
                        ProviderReport {
                            layer: layer_index,
                            order,
                            name: resolved.name.clone(),
                            run: ProviderRun::Filesystem { resolved, scan: Box::new(scan) },
                            error,
                        }
                    }
                    ProviderSpec::Badge(config) => {
                        candidates.push(badge_candidate(config, order, layer_index));
                        ProviderReport {
                            layer: layer_index,
                            order,
                            name: "dsh-badge".into(),
                            run: ProviderRun::Badge { config: config.clone() },
                            error: None,
                        }
                    }
                };
                providers.push(report);
                order += 1;
            }
            let merge = registry::merge(&candidates[layer_start..], &mut warnings);
            let offset = |i: usize| i + layer_start;
            resolution_order.extend(merge.resolution_order.iter().map(|&i| offset(i)));
            shadowed.extend(merge.shadowed.iter().map(|s| Shadow { loser: offset(s.loser), winner: offset(s.winner) }));
            for w in merge.winners.iter().map(|&i| offset(i)) {
                match slot_of.get(&candidates[w].skill.name) {
                    Some(&slot) => {
                        shadowed.push(Shadow { loser: winners[slot], winner: w });
                        winners[slot] = w;
                    }
                    None => {
                        slot_of.insert(candidates[w].skill.name.clone(), winners.len());
                        winners.push(w);
                    }
                }
            }
        }
        winners.sort_by(|&a, &b| {
            crate::engine::js::compare_code_units(&candidates[a].skill.name, &candidates[b].skill.name)
        });
        if let Some(m) = memo {
            m.sweep();
        }
        let complete = providers.iter().all(|p| p.error.is_none());
        Snapshot {
            cwd,
            project_root,
            locale: collator.locale.clone(),
            description_max_length: settings.description_max_length,
            tool_visible: settings.tool_visible,
            layer_names: settings.layers.iter().map(|l| l.name.clone()).collect(),
            providers,
            candidates,
            resolution_order,
            winners,
            shadowed,
            warnings,
            complete,
        }
    }

    /// Read the entries `changed` (root path, entry name) again and patch their results into
    /// this snapshot in place, when that cannot change anything else: each entry is still in
    /// its root's listing, and gives a candidate of the same name again (the merge, the
    /// winners and the shadow warnings then stay as they are), the same kind of warning at the
    /// same place in the log, or the same quiet outcome. Returns the candidates as they were
    /// before, or `None` (the snapshot untouched) when a scan is needed. What it reads is kept
    /// in `memo`, as a scan would keep it; the result is the snapshot a scan would give.
    pub fn patch(
        &mut self,
        settings: &Settings,
        memo: &mut discover::ScanMemo,
        changed: &[(String, String)],
    ) -> Option<Vec<Candidate>> {
        use crate::engine::discover::{Outcome, Reread, RootStatus};
        if !self.complete || changed.is_empty() {
            return None;
        }
        // (provider, root, entry, new reading)
        let mut plans: Vec<(usize, usize, usize, Reread)> = Vec::new();
        for (root_path, name) in changed {
            let mut found = false;
            for (pi, p) in self.providers.iter().enumerate() {
                let ProviderRun::Filesystem { scan, .. } = &p.run else { continue };
                for (ri, r) in scan.roots.iter().enumerate().filter(|(_, r)| &r.root.path == root_path) {
                    if r.status != RootStatus::Scanned {
                        return None;
                    }
                    let ei = r.entries.iter().position(|e| &e.name == name)?;
                    let reread = discover::reread_entry(memo, &r.root, name, &settings.scan)?;
                    plans.push((pi, ri, ei, reread));
                    found = true;
                }
            }
            if !found {
                return None;
            }
        }
        // Every plan must fit before anything changes.
        let mut swaps: Vec<(usize, ParsedSkill)> = Vec::new();
        // (warning index, line, provider, root, entry, rejection)
        type Line = (usize, String, usize, usize, usize, Option<Box<crate::engine::skillfile::Rejection>>);
        let mut lines: Vec<Line> = Vec::new();
        for (pi, ri, ei, reread) in plans {
            let p = &self.providers[pi];
            let ProviderRun::Filesystem { scan, .. } = &p.run else { return None };
            let entry = &scan.roots[ri].entries[ei];
            match (&entry.outcome, reread) {
                (Outcome::Candidate(local), Reread::Candidate(skill)) => {
                    let i =
                        self.candidates.iter().position(|c| c.provider_order == p.order && c.local_order == *local)?;
                    if self.candidates[i].skill.name != skill.name {
                        return None;
                    }
                    swaps.push((i, *skill));
                }
                (Outcome::Warned { warning, .. }, Reread::Warned(line, rejection)) => {
                    lines.push((*warning, line, pi, ri, ei, rejection));
                }
                (Outcome::SystemSkipped, Reread::Quiet(Outcome::SystemSkipped))
                | (Outcome::Ignored, Reread::Quiet(Outcome::Ignored)) => {}
                (Outcome::Silent(a), Reread::Quiet(Outcome::Silent(b))) if *a == b => {}
                _ => return None,
            }
        }
        let mut before = Vec::with_capacity(swaps.len());
        for (i, skill) in swaps {
            let old = std::mem::replace(&mut self.candidates[i].skill, skill);
            let mut was = self.candidates[i].clone();
            was.skill = old;
            before.push(was);
        }
        for (warning, line, pi, ri, ei, rejection) in lines {
            self.warnings[warning] = line;
            if let ProviderRun::Filesystem { scan, .. } = &mut self.providers[pi].run {
                scan.roots[ri].entries[ei].outcome = Outcome::Warned { warning, rejection };
            }
        }
        Some(before)
    }

    /// The filesystem providers' scans, in registration order.
    pub fn scans(&self) -> impl Iterator<Item = (&ResolvedProvider, &ProviderScan)> {
        self.providers.iter().filter_map(|p| match &p.run {
            ProviderRun::Filesystem { resolved, scan } => Some((resolved, &**scan)),
            ProviderRun::Badge { .. } => None,
        })
    }

    pub fn winners(&self) -> impl Iterator<Item = &Candidate> {
        self.winners.iter().map(|&i| &self.candidates[i])
    }

    /// The root directory a filesystem candidate came from.
    pub fn root_path(&self, c: &Candidate) -> Option<&str> {
        let provider = self.providers.iter().find(|p| p.order == c.provider_order)?;
        let ProviderRun::Filesystem { scan, .. } = &provider.run else { return None };
        Some(scan.roots.get(c.root_index?)?.root.path.as_str())
    }

    /// The candidate a filesystem provider produced as its `local`-th output.
    pub fn provider_candidate(&self, provider_order: usize, local: usize) -> Option<&Candidate> {
        self.candidates.iter().find(|c| c.provider_order == provider_order && c.local_order == local)
    }

    pub fn winner(&self, name: &str) -> Option<&Candidate> {
        self.winners().find(|c| c.skill.name == name)
    }

    /// `String(error)` of each failed provider, with the provider's name.
    pub fn provider_errors(&self) -> impl Iterator<Item = (&str, &str)> {
        self.providers.iter().filter_map(|p| p.error.as_deref().map(|e| (p.name.as_str(), e)))
    }

    /// Catalog entries for every model-invocable winner, in snapshot order.
    pub fn catalog_entries(&self) -> Vec<CatalogEntry> {
        if !self.tool_visible {
            return Vec::new();
        }
        self.winners()
            .filter(|c| c.skill.invocation.model_invocable)
            .map(|c| CatalogEntry::from_js(&c.skill.name, &c.skill.description, self.description_max_length))
            .collect()
    }

    /// What a fresh session would be shown (`variant` Initial), or what a session that already
    /// published a catalog would get (`Replacement`); no text when the harness emits nothing.
    pub fn catalog(&self, variant: Variant) -> Catalog {
        self.catalog_with_lines(variant).0
    }

    /// [`Snapshot::catalog`] and each entry's line ([`CatalogEntry::line`]), made once for both
    /// (none when there is no text).
    pub fn catalog_with_lines(&self, variant: Variant) -> (Catalog, Vec<String>) {
        self.catalog_with_lines_reusing(variant, &|_| None)
    }

    /// [`Snapshot::catalog_with_lines`], taking a winner's entry and line from `known` where it
    /// has them: a caller that made the catalog of another state hands back the entries of the
    /// skills whose name and description are the same there (at the same limit), which equal
    /// the ones this would make.
    pub fn catalog_with_lines_reusing(
        &self,
        variant: Variant,
        known: &dyn Fn(&Candidate) -> Option<(CatalogEntry, String)>,
    ) -> (Catalog, Vec<String>) {
        if self.tool_visible && !self.complete {
            return (Catalog { entries: None, text: None, why_none: Some(NoCatalog::Incomplete) }, Vec::new());
        }
        let (entries, lines): (Vec<CatalogEntry>, Vec<String>) = if self.tool_visible {
            self.winners()
                .filter(|c| c.skill.invocation.model_invocable)
                .map(|c| {
                    known(c).unwrap_or_else(|| {
                        let entry =
                            CatalogEntry::from_js(&c.skill.name, &c.skill.description, self.description_max_length);
                        let line = entry.line();
                        (entry, line)
                    })
                })
                .unzip()
        } else {
            Default::default()
        };
        if entries.is_empty() && variant == Variant::Initial {
            let why = if self.tool_visible { NoCatalog::NoModelInvocableSkill } else { NoCatalog::NoSkillTool };
            return (Catalog { entries: None, text: None, why_none: Some(why) }, Vec::new());
        }
        let text = catalog::render_lines(&lines, variant);
        (Catalog { entries: Some(entries), text: Some(text), why_none: None }, lines)
    }
}

fn badge_candidate(config: &BadgeConfig, order: usize, layer: usize) -> Candidate {
    let content = config
        .assets_dir
        .as_ref()
        // Through the configuration reader: a FIFO or device in its place is never read.
        .and_then(|dir| {
            crate::engine::textread::read_config_file(
                &format!("{dir}dsh-badge.md"),
                false,
                crate::engine::textread::CONFIG_MAX_BYTES,
            )
            .ok()
            .flatten()
        })
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    Candidate {
        skill: ParsedSkill {
            name: "dsh-badge".into(),
            description: BADGE_DESCRIPTION.into(),
            when_to_use: None,
            invocation: Invocation::default(),
            metadata: None,
            // Read raw and not trimmed (spec 7.1).
            content,
            digest: None,
            frontmatter: Default::default(),
        },
        source: "bundled",
        rank: discover::BUNDLED_RANK,
        provider: "dsh-badge".into(),
        provider_order: order,
        local_order: 0,
        path: None,
        resource_base: config.assets_dir.clone().unwrap_or_default(),
        root_index: None,
        layer,
    }
}

/// The catalog message, or why there is none.
pub struct Catalog {
    pub entries: Option<Vec<CatalogEntry>>,
    pub text: Option<String>,
    pub why_none: Option<NoCatalog>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoCatalog {
    /// A provider failed: the harness keeps the last good catalog, and a fresh session has none.
    Incomplete,
    /// No winner is model-invocable (none at all, or all `disable-model-invocation: true`).
    NoModelInvocableSkill,
    /// The `skill` tool is not mounted (e.g. the `minimal` preset): no catalog at all.
    NoSkillTool,
}
/// [`Snapshot::discover`] for a command that ends the process right after: the snapshot is
/// never freed. Freeing 10,000 skills' worth of small allocations one by one took about 30 ms
/// of a 300 ms run; the operating system reclaims the memory at once.
pub fn discover_kept(
    settings: &Settings,
    env: &crate::engine::discover::Environment,
) -> std::mem::ManuallyDrop<Snapshot> {
    std::mem::ManuallyDrop::new(Snapshot::discover(settings, env))
}

/// The roots every filesystem provider of `settings` scans for its cwd, in order, without
/// listing them (`FileSystemSkillProvider.roots(cwd)` of each).
pub fn root_paths(settings: &Settings, env: &crate::engine::discover::Environment) -> Vec<String> {
    let cwd = settings.cwd.as_ref().map(|c| platform::resolve(&env.process_cwd, c));
    let project = cwd.as_deref().map(discover::find_project_root);
    let project = project.as_ref().map(|(p, _)| p.as_str());
    settings
        .layers
        .iter()
        .flat_map(|l| &l.providers)
        .filter_map(|p| match p {
            ProviderSpec::Filesystem(config) => Some(config),
            ProviderSpec::Badge(_) => None,
        })
        .flat_map(|config| discover::roots(&ResolvedProvider::new(config, env), project))
        .map(|r| r.path)
        .collect()
}
