//! Exact token counts where commands show them, on the demo tree, pinned against Hugging Face
//! `tokenizers` (Python 0.23.3, the same tokenizer file: `tools/tokens/expected.py` shows how
//! to install it) on the exact texts the commands print.

use crate::support;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn demo() -> PathBuf {
    support::manifest().join("demo")
}

/// The README's demo command line, with `args` first.
fn run(args: &[&str]) -> Value {
    let d = demo();
    let flags = [
        "--no-config".to_string(),
        "--dsh-home".into(),
        d.join("home/.dsh").display().to_string(),
        "--agents-home".into(),
        d.join("home/.agents").display().to_string(),
        "--custom-dir".into(),
        d.join("team-skills").display().to_string(),
        "--bundled-dir".into(),
        d.join("bundled").display().to_string(),
    ];
    let mut all: Vec<&str> = args.to_vec();
    all.extend(flags.iter().map(String::as_str));
    all.extend(["--format", "json"]);
    let home = tempfile::tempdir().unwrap();
    let out = support::run(Path::new(&d), home.path(), &all);
    assert!(out.status.success(), "{all:?}: {}", String::from_utf8_lossy(&out.stderr));
    support::json(&out)
}

const TOKENIZER: &str = "DeepSeek-V4 (deepseek-v4-flash)";

#[test]
fn catalog_counts_its_text() {
    let v = run(&["catalog"]);
    assert_eq!(v["stats"]["tokenizer"], TOKENIZER);
    assert_eq!(v["stats"]["tokens"], PINNED_CATALOG);
}

/// The block `show --rendered` prints. It holds the skill's absolute folder (the checkout's
/// path), so its count is not pinned here (the unit tests pin counts against the reference on
/// 300 real files): this checks that what is counted is exactly that block.
#[test]
fn show_counts_the_skill_content_block() {
    let v = run(&["show", "pdf-tools"]);
    assert_eq!(v["skillContent"]["tokenizer"], TOKENIZER);
    let d = demo();
    let home = tempfile::tempdir().unwrap();
    let rendered = support::run(
        &d,
        home.path(),
        &[
            "show",
            "pdf-tools",
            "--rendered",
            "--no-config",
            "--dsh-home",
            &d.join("home/.dsh").display().to_string(),
            "--agents-home",
            &d.join("home/.agents").display().to_string(),
            "--custom-dir",
            &d.join("team-skills").display().to_string(),
            "--bundled-dir",
            &d.join("bundled").display().to_string(),
        ],
    );
    let block = support::stdout(&rendered);
    let block = block.strip_suffix('\n').unwrap_or(&block);
    assert_eq!(v["skillContent"]["bytes"], block.len());
    assert_eq!(v["skillContent"]["utf16Units"], block.encode_utf16().count());
    let tokens = v["skillContent"]["tokens"].as_u64().unwrap();
    assert!(tokens > 0 && tokens < block.len() as u64, "{tokens}");
}

/// Each model-invocable winner's catalog line, in catalog order; `deploy` (hidden from the
/// model) has none.
#[test]
fn list_counts_each_catalog_line() {
    let v = run(&["list"]);
    assert_eq!(v["tokenizer"], TOKENIZER);
    let catalog = run(&["catalog"]);
    let text = catalog["text"].as_str().unwrap();
    let got: Vec<(String, u64)> = v["catalogSizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap().to_string(), e["tokens"].as_u64().unwrap()))
        .collect();
    let want: Vec<(String, u64)> = PINNED_LINES.iter().map(|(n, t)| (n.to_string(), *t)).collect();
    assert_eq!(got, want);
    // Units and bytes are those of the line as the catalog holds it.
    for e in v["catalogSizes"].as_array().unwrap() {
        let name = e["name"].as_str().unwrap();
        let line = text.lines().find(|l| l.starts_with(&format!("- `{name}`: "))).unwrap();
        assert_eq!(e["bytes"], line.len(), "{name}");
        assert_eq!(e["utf16Units"], line.encode_utf16().count(), "{name}");
    }
}

// Counted by Hugging Face `tokenizers` 0.23.3 (Python) on the texts the commands print: the
// catalog text of `catalog --format json` and each `` - `name`: … `` line of it.
const PINNED_CATALOG: u64 = 333;
const PINNED_LINES: [(&str, u64); 4] =
    [("code-review", 35), ("dsh-guide", 24), ("pdf-tools", 105), ("release-notes", 24)];
