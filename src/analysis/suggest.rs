//! Close-name suggestions: Levenshtein distance, and the names near a wanted one in a snapshot.

use crate::engine::discover::Outcome;
use crate::engine::snapshot::Snapshot;

/// Names close to `wanted`: winners, and names of entries that were skipped.
pub fn suggestions(s: &Snapshot, wanted: &str) -> Vec<String> {
    let mut pool: Vec<String> = s.winners().map(|c| c.skill.name.clone()).collect();
    for (_, scan) in s.scans() {
        for r in &scan.roots {
            for e in &r.entries {
                if matches!(e.outcome, Outcome::Warned { .. }) {
                    pool.push(format!("{} (skipped: {})", e.name.trim_end_matches(".md"), e.path));
                }
            }
        }
    }
    let mut scored: Vec<(usize, String)> = pool
        .into_iter()
        .filter_map(|cand| {
            let key = cand.split(' ').next().unwrap_or("").to_string();
            let d = edit_distance(&key.to_lowercase(), &wanted.to_lowercase());
            let limit = (wanted.chars().count() / 3).max(2);
            (d <= limit || key.contains(wanted) || wanted.contains(&key) && !key.is_empty()).then_some((d, cand))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(5).map(|(_, n)| n).collect()
}

/// Levenshtein distance over chars.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    // Two rows, reused: no allocation per character (lint computes this for every unknown key).
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}
