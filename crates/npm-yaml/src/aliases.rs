//! npm `yaml`'s alias-count rule (`maxAliasCount: 100`, `Alias.resolve` and `getAliasCount` in
//! `yaml/dist/nodes/Alias.js`), the one rule every YAML loader of the crate applies: the skill
//! files' loader (npm `yaml`, where the harness applies it too) and the configuration dialect
//! (js-yaml, which has no such rule but shares what an alias points to, where the dialect copies
//! it: the rule keeps that copy within a constant factor of the file).
//!
//! Each anchor keeps a tally: how often it was used (`count`, 1 for the definition) and the
//! largest leaf weight under it (`alias_count`: a scalar weighs 1, an alias its anchor's
//! `count * alias_count`), computed at the anchor's first alias. An alias whose anchor's
//! `count * alias_count` exceeds 100 is refused.

/// `maxAliasCount`.
pub const MAX_ALIAS_COUNT: f64 = 100.0;

/// npm `yaml`'s message (a `ReferenceError`) when the rule refuses an alias.
pub const EXCESSIVE_ALIAS_COUNT: &str = "Excessive alias count indicates a resource exhaustion attack";

/// One anchor's tally under the rule.
#[derive(Clone, Copy, Debug)]
pub struct AliasTally {
    count: f64,
    alias_count: f64,
}

impl Default for AliasTally {
    fn default() -> Self {
        AliasTally { count: 1.0, alias_count: 0.0 }
    }
}

impl AliasTally {
    /// What an alias of this anchor weighs as a leaf of another anchor's node.
    pub fn weight(&self) -> f64 {
        self.count * self.alias_count
    }

    /// Whether the next [`AliasTally::alias`] needs the anchored node's leaf weight (it is
    /// computed at the first alias, and again while it is 0).
    pub fn needs_leaves(&self) -> bool {
        self.alias_count == 0.0
    }

    /// One more alias of this anchor. `leaves`: the anchored node's largest leaf weight, when
    /// [`AliasTally::needs_leaves`]. `false` when the rule refuses the alias.
    pub fn alias(&mut self, leaves: Option<f64>) -> bool {
        self.count += 1.0;
        if let Some(leaves) = leaves {
            self.alias_count = leaves;
        }
        self.weight() <= MAX_ALIAS_COUNT
    }
}
