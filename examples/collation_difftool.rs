//! Development tool for tools/collation-oracle/explore.py: reads a JSON object
//! `{"names": [...], "envs": [{"LC_ALL": "..."}, ...]}` on stdin and prints, per environment,
//! one JSON line `{"locale", "order", "equal"}` as tools/collation-oracle/sort.js does.

use dsh_skills::engine::collate::{EntryCollator, locale_from_env};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let doc: Value = serde_json::from_str(&input).expect("JSON input");
    let names: Vec<String> = serde_json::from_value(doc["names"].clone()).expect("names");
    let envs: Vec<BTreeMap<String, String>> = serde_json::from_value(doc["envs"].clone()).expect("envs");
    for env in envs {
        let locale = locale_from_env(&|k: &str| env.get(k).cloned());
        let c = EntryCollator::new(&locale);
        let mut idx: Vec<usize> = (0..names.len()).collect();
        idx.sort_by(|&a, &b| names[a].as_bytes().cmp(names[b].as_bytes()));
        idx.sort_by(|&a, &b| c.compare(&names[a], &names[b]));
        let equal: Vec<bool> = idx.windows(2).map(|w| c.compare(&names[w[0]], &names[w[1]]).is_eq()).collect();
        println!("{}", json!({"locale": locale, "order": idx, "equal": equal}));
    }
}
