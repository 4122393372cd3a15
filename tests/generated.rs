//! Files generated from the command definition and committed: completion scripts
//! (`completions/`), man pages (`man/`), JSON Schemas (`schemas/`) and snapshots of every
//! `-h` and `--help` (`tests/snapshots/help/`). Each test fails when its files drift;
//! `UPDATE_GENERATED=1 cargo test --test generated` rewrites them all.

#[path = "support.rs"]
mod support;

use dsh_skills::render::schema::Document;
use std::collections::BTreeMap;
use std::process::Command;

fn update() -> bool {
    std::env::var_os("UPDATE_GENERATED").is_some()
}

/// Compare (or with UPDATE_GENERATED write) every file of `dir`; files in `dir` that are not
/// generated any more are stale too.
fn check_dir(dir: &str, files: BTreeMap<String, Vec<u8>>) {
    let dir = support::manifest().join(dir);
    let committed: BTreeMap<String, Vec<u8>> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect();
    if update() {
        std::fs::create_dir_all(&dir).unwrap();
        for name in committed.keys().filter(|n| !files.contains_key(*n)) {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
        for (name, data) in &files {
            std::fs::write(dir.join(name), data).unwrap();
        }
        return;
    }
    let mut stale: Vec<&String> = files.iter().filter(|(n, d)| committed.get(*n) != Some(d)).map(|(n, _)| n).collect();
    stale.extend(committed.keys().filter(|n| !files.contains_key(*n)));
    assert!(
        stale.is_empty(),
        "{}: {stale:?} differ from what the command definition generates; run `UPDATE_GENERATED=1 cargo test --test generated` and review the diff",
        dir.display()
    );
}

fn run(args: &[&str]) -> Vec<u8> {
    let out = Command::new(support::bin()).args(args).env("COLUMNS", "100").env("NO_COLOR", "1").output().unwrap();
    assert!(out.status.success(), "dsh-skills {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

#[test]
fn completion_scripts() {
    let files = [
        ("bash", "dsh-skills.bash"),
        ("zsh", "_dsh-skills"),
        ("fish", "dsh-skills.fish"),
        ("powershell", "_dsh-skills.ps1"),
        ("elvish", "dsh-skills.elv"),
    ]
    .into_iter()
    .map(|(shell, file)| (file.to_string(), run(&["completions", shell])))
    .collect();
    check_dir("completions", files);
}

#[test]
fn man_pages() {
    let tmp = tempfile::tempdir().unwrap();
    clap_mangen::generate_to(dsh_skills::cli::command(), tmp.path()).unwrap();
    let files = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        // `help` is clap's own subcommand; `dsh-skills(1)` documents it.
        .filter(|(name, _)| name != "dsh-skills-help.1")
        .collect::<BTreeMap<_, _>>();
    assert!(files.contains_key("dsh-skills.1") && files.contains_key("dsh-skills-lint.1"), "{:?}", files.keys());
    check_dir("man", files);
}

#[test]
fn json_schemas() {
    let mut files = BTreeMap::new();
    for doc in Document::ALL {
        let text = doc.text();
        // Each is a valid JSON Schema, and `dsh-skills schema` prints the same text.
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(jsonschema::meta::is_valid(&value), "{} is not a valid JSON Schema", doc.file_name());
        assert_eq!(run(&["schema", doc.name()]), text.as_bytes(), "dsh-skills schema {}", doc.name());
        files.insert(doc.file_name(), text.into_bytes());
    }
    check_dir("schemas", files);
}

/// Every subcommand's `-h` and `--help`, at 100 columns.
#[test]
fn help_snapshots() {
    let mut files = BTreeMap::new();
    let cmd = dsh_skills::cli::command();
    let mut names: Vec<Option<String>> = vec![None];
    names
        .extend(cmd.get_subcommands().map(|s| Some(s.get_name().to_string())).filter(|n| n.as_deref() != Some("help")));
    for name in names {
        let stem = name.as_deref().map_or("dsh-skills".to_string(), |n| format!("dsh-skills-{n}"));
        for (flag, suffix) in [("-h", "short"), ("--help", "long")] {
            let mut args: Vec<&str> = name.iter().map(String::as_str).collect();
            args.push(flag);
            files.insert(format!("{stem}.{suffix}.txt"), run(&args));
        }
    }
    // The short help of a command that discovers names --cwd and points at --help; the long
    // help lists the discovery options under their own heading, with examples.
    let short = String::from_utf8(files["dsh-skills-show.short.txt"].clone()).unwrap();
    assert!(!short.contains("--dsh-home") && short.contains("--cwd") && short.contains("--help"), "{short}");
    let long = String::from_utf8(files["dsh-skills-show.long.txt"].clone()).unwrap();
    assert!(long.contains("Discovery:\n") && long.contains("Configuration:\n") && long.contains("Examples:"), "{long}");
    let completions = String::from_utf8(files["dsh-skills-completions.long.txt"].clone()).unwrap();
    assert!(!completions.contains("--dsh-home") && !completions.contains("--format"), "{completions}");
    let list = String::from_utf8(files["dsh-skills-list.long.txt"].clone()).unwrap();
    assert!(list.contains("[possible values: human, json]") && !list.contains("sarif"), "{list}");
    check_dir("tests/snapshots/help", files);
}

/// `docs/cli-contract.md` names every global option, every subcommand and every schema.
#[test]
fn the_contract_covers_the_command_line() {
    let contract = std::fs::read_to_string(support::manifest().join("docs/cli-contract.md")).unwrap();
    let cmd = dsh_skills::cli::command();
    let mut missing = Vec::new();
    for arg in cmd.get_arguments().filter(|a| a.is_global_set()) {
        let long = format!("`--{}", arg.get_long().unwrap());
        if !contract.contains(&long) {
            missing.push(long);
        }
    }
    for sub in cmd.get_subcommands().map(|s| s.get_name()).filter(|n| *n != "help") {
        if !contract.contains(&format!("dsh-skills {sub}")) {
            missing.push(format!("dsh-skills {sub}"));
        }
    }
    for doc in Document::ALL {
        if !contract.contains(&format!("schemas/{}", doc.file_name())) {
            missing.push(doc.file_name());
        }
    }
    assert!(missing.is_empty(), "docs/cli-contract.md does not mention {missing:?}");
}
