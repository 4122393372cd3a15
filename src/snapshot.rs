//! One discovery run for a working directory: the whole pipeline from settings to the registry
//! snapshot the catalog and the `skill` tool read (spec 6.7). Pure data; nothing here prints.

use crate::catalog::{self, CatalogEntry, Variant};
use crate::collate::EntryCollator;
use crate::discover::{
    self, Candidate, Environment, ProjectRootReason, ProviderConfig, ProviderScan, ResolvedProvider,
};
use crate::platform;
use crate::registry::{self, Merge};

/// Everything that decides a discovery run, already merged from flags, configuration and the
/// environment.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The lookup cwd as given (`None` = the harness's `cwd === undefined`).
    pub cwd: Option<String>,
    pub provider: ProviderConfig,
    pub description_max_length: usize,
    /// BCP-47 tag or POSIX locale name for the in-root collation.
    pub locale: String,
}

/// The registry's view after `list()`: candidates, winners, warnings, completeness.
pub struct Snapshot {
    pub cwd: Option<String>,
    pub project_root: Option<(String, ProjectRootReason)>,
    pub provider: ResolvedProvider,
    pub locale: String,
    pub description_max_length: usize,
    /// One scan per filesystem provider, in registration order.
    pub scans: Vec<ProviderScan>,
    /// Every candidate the registry received, in collection order.
    pub candidates: Vec<Candidate>,
    pub merge: Merge,
    /// Every line the harness logs with `ctx.logger.warn`, in order.
    pub warnings: Vec<String>,
    /// `false` when a provider's `list()` rejected: the harness then publishes no catalog.
    pub complete: bool,
    /// `String(error)` of each failed provider, with the provider's name.
    pub provider_errors: Vec<(String, String)>,
}

impl Snapshot {
    pub fn discover(settings: &Settings, env: &Environment) -> Snapshot {
        let provider = ResolvedProvider::new(&settings.provider, env);
        let cwd = settings.cwd.as_ref().map(|c| platform::resolve(&env.process_cwd, c));
        let project_root = cwd.as_deref().map(discover::find_project_root);
        let collator = EntryCollator::new(&settings.locale);
        let mut warnings = Vec::new();
        let scan = discover::scan_provider(
            &provider,
            project_root.as_ref().map(|(p, _)| p.as_str()),
            0,
            &collator,
            &mut warnings,
        );
        let mut provider_errors = Vec::new();
        if let Some(e) = &scan.error {
            // `skill provider "<name>" skipped: <String(error)>` (registry, spec 5.1).
            warnings.push(format!("skill provider \"{}\" skipped: {e}", provider.name));
            provider_errors.push((provider.name.clone(), e.to_string()));
        }
        let candidates = scan.candidates.clone();
        let merge = registry::merge(&candidates, &mut warnings);
        Snapshot {
            cwd,
            project_root,
            provider,
            locale: collator.locale.clone(),
            description_max_length: settings.description_max_length,
            complete: provider_errors.is_empty(),
            scans: vec![scan],
            candidates,
            merge,
            warnings,
            provider_errors,
        }
    }

    pub fn winners(&self) -> impl Iterator<Item = &Candidate> {
        self.merge.winners.iter().map(|&i| &self.candidates[i])
    }

    pub fn winner(&self, name: &str) -> Option<&Candidate> {
        self.winners().find(|c| c.skill.name == name)
    }

    /// Catalog entries for every model-invocable winner, in snapshot order.
    pub fn catalog_entries(&self) -> Vec<CatalogEntry> {
        self.winners()
            .filter(|c| c.skill.invocation.model_invocable)
            .map(|c| CatalogEntry::new(&c.skill.name, &c.skill.description, self.description_max_length))
            .collect()
    }

    /// What a fresh session would be shown (`variant` Initial), or what a session that already
    /// published a catalog would get (`Replacement`); `None` when the harness emits nothing.
    pub fn catalog(&self, variant: Variant) -> Catalog {
        if !self.complete {
            return Catalog { entries: None, text: None, why_none: Some(NoCatalog::Incomplete) };
        }
        let entries = self.catalog_entries();
        if entries.is_empty() && variant == Variant::Initial {
            return Catalog { entries: None, text: None, why_none: Some(NoCatalog::NoModelInvocableSkill) };
        }
        let text = catalog::render(&entries, variant);
        Catalog { entries: Some(entries), text: Some(text), why_none: None }
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
}
