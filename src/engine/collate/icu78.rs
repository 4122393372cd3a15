//! ICU 78.3's collation data as an ICU4X data provider: the root collation, every tailoring
//! and the canonical decompositions `icu_collator` needs, baked into `data/` by
//! `tools/collation-data/regenerate.sh` (see its README: the ICU 78.3 build it comes from, and
//! how). Generated code; the data is under the Unicode License v3 (`data/LICENSE`).

/// ICU 78.3's collation and decomposition data, for `Collator::try_new_unstable`.
#[derive(Debug, Clone, Copy)]
pub struct Icu78;

include!("data/mod.rs");
impl_data_provider!(Icu78);
