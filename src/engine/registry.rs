//! The registry merge (spec 5): sort candidates by rank, provider order and entry order; the
//! first of each name wins; every loser gets the shadow warning; winners are listed by name in
//! UTF-16 code-unit order.

use crate::engine::discover::Candidate;
use crate::engine::js;

/// A candidate that lost to an earlier one with the same name.
#[derive(Clone, Debug)]
pub struct Shadow {
    /// Index into the merged candidate list of the loser.
    pub loser: usize,
    /// Index of the winner it lost to.
    pub winner: usize,
}

/// The outcome of one layer's merge.
#[derive(Clone, Debug, Default)]
pub struct Merge {
    /// Indices into the candidate list, in resolution order (the sorted order).
    pub resolution_order: Vec<usize>,
    /// Winners, sorted by name (code units).
    pub winners: Vec<usize>,
    /// Losers in resolution order.
    pub shadowed: Vec<Shadow>,
}

/// `collectLayer` + `snapshot`: `candidates` must be in collection order (provider by provider,
/// each in its own output order). Shadow warnings are appended to `log`.
pub fn merge(candidates: &[Candidate], log: &mut Vec<String>) -> Merge {
    // A stable sort, as V8's Array.prototype.sort is (each candidate's place breaks ties), on
    // keys read once.
    let mut keyed: Vec<(u32, usize, usize, usize)> =
        candidates.iter().enumerate().map(|(i, c)| (c.rank, c.provider_order, c.local_order, i)).collect();
    keyed.sort_unstable();
    let order: Vec<usize> = keyed.into_iter().map(|k| k.3).collect();
    let mut first: crate::engine::Map<&str, usize> = crate::engine::Map::default();
    let mut merge = Merge::default();
    for &i in &order {
        let c = &candidates[i];
        match first.get(c.skill.name.as_str()) {
            Some(&winner) => {
                log.push(format!(
                    "skill \"{}\" from {} ignored because a higher-priority skill already exists",
                    c.skill.name, c.source
                ));
                merge.shadowed.push(Shadow { loser: i, winner });
            }
            None => {
                first.insert(&c.skill.name, i);
                merge.winners.push(i);
            }
        }
    }
    merge.winners.sort_by(|&a, &b| js::compare_code_units(&candidates[a].skill.name, &candidates[b].skill.name));
    merge.resolution_order = order;
    merge
}
