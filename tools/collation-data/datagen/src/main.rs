//! Bakes the collation data dsh-skills compiles in: ICU4X's data for `icu_collator`, made from
//! an ICU4C export directory (`collation/unihan/*.toml` from `genrb --icu4xMode`,
//! `norm/fast/*.toml` from `icuexportdata -m norm`), with the root's Han in radical-stroke
//! order (ICU4C's own root), every tailoring the export holds.
//!
//! Usage: dsh-collation-datagen <icuexport dir> <output dir>

use icu_collator::provider::*;
use icu_normalizer::provider::{NormalizerNfdDataV1, NormalizerNfdTablesV1};
use icu_provider::prelude::*;
use icu_provider_export::baked_exporter::{BakedExporter, Options};
use icu_provider_export::prelude::*;
use icu_provider_source::{CollationRootHan, SourceDataProvider};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, icuexport, out] = args.as_slice() else {
        panic!("usage: dsh-collation-datagen <icuexport dir> <output dir>");
    };
    let provider = SourceDataProvider::new_custom()
        .with_icuexport(Path::new(icuexport))
        .expect("icuexport directory")
        .with_collation_root_han(CollationRootHan::Unihan);
    let markers = [
        CollationRootV1::INFO,
        CollationTailoringV1::INFO,
        CollationDiacriticsV1::INFO,
        CollationJamoV1::INFO,
        CollationMetadataV1::INFO,
        CollationReorderingV1::INFO,
        CollationSpecialPrimariesV1::INFO,
        NormalizerNfdDataV1::INFO,
        NormalizerNfdTablesV1::INFO,
    ];
    let mut options = Options::default();
    options.pretty = false;
    options.use_internal_fallback = true;
    options.overwrite = true;
    options.use_separate_crates = true;
    let exporter = BakedExporter::new(out.into(), options).expect("output directory");
    ExportDriver::new([DataLocaleFamily::FULL], DeduplicationStrategy::Maximal.into(), LocaleFallbacker::new().static_to_owned())
        .with_markers(markers)
        // Every collation V8 lets `-u-co-` select: all but `standard` (the default, no attribute)
        // and `search` (ECMA-402 excludes both); ICU4X's default would drop `searchjl` too.
        .with_marker_attributes_filter("collator", |attrs| attrs.as_str() != "search")
        .export(&provider, exporter)
        .expect("export");
}
