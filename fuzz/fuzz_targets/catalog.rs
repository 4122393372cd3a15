//! The catalog renderer: normalization, UTF-16 truncation, escaping, the digest and the
//! skill_content block, with their invariants.
#![no_main]
use dsh_skills::engine::catalog::{self, CatalogEntry, ResourceBase, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let max = 3 + data[0] as usize;
    let text = String::from_utf8_lossy(&data[1..]);
    let (name, description) = text.split_once('\u{0}').unwrap_or(("x", &text));
    let entry = CatalogEntry::new(name, description, max);
    assert!(entry.description.len() <= max);
    let entries = vec![entry];
    let rendered = catalog::render(&entries, Variant::Initial);
    assert!(rendered.starts_with("<system-reminder>\n") && rendered.ends_with("\n</system-reminder>"));
    let digest = catalog::digest(&entries);
    assert_eq!(digest.len(), 64);
    let _ = catalog::render(&[], Variant::Replacement);
    let block = catalog::render_skill_content(
        name,
        "filesystem",
        Some(&ResourceBase::Directory(description.to_string())),
        description,
    );
    assert!(block.ends_with("</skill_content>"));
});
