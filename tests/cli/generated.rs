//! Files generated from the command definition and committed: completion scripts
//! (`completions/`), man pages (`man/`), JSON Schemas (`schemas/`) and snapshots of every
//! `-h` and `--help` (`tests/snapshots/help/`). Each test fails when its files drift;
//! `UPDATE_GENERATED=1 cargo test --test cli generated::` rewrites them all.

use crate::support;

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
        "{}: {stale:?} differ from what the command definition generates; run `UPDATE_GENERATED=1 cargo test --test cli generated::` and review the diff",
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

/// The man pages: clap_mangen's sections, with two changes. Every option's description is
/// there (clap_mangen leaves out the help of an option hidden from `-h`, which a man page is
/// not), and the text after the options (examples, exit status) keeps its layout: example
/// lines are set without filling, under EXAMPLES and EXIT STATUS headings.
fn man_pages_generated() -> BTreeMap<String, Vec<u8>> {
    fn generate(cmd: clap::Command, files: &mut BTreeMap<String, Vec<u8>>) {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
            generate(sub, files);
        }
        let after = cmd.get_after_long_help().or_else(|| cmd.get_after_help()).map(|s| s.to_string());
        let cmd = cmd
            .mut_args(|a| a.hide_short_help(false))
            .after_help(None::<&'static str>)
            .after_long_help(None::<&'static str>);
        let has_args = cmd.get_arguments().any(|a| !a.is_hide_set());
        let has_subcommands = cmd.get_subcommands().any(|s| !s.is_hide_set());
        let has_version = cmd.get_version().is_some();
        let man = clap_mangen::Man::new(cmd);
        let mut sections: Vec<Vec<u8>> = Vec::new();
        let mut section = |f: &dyn Fn(&mut Vec<u8>) -> std::io::Result<()>| {
            let mut buf = Vec::new();
            f(&mut buf).unwrap();
            sections.push(buf);
        };
        section(&|w| man.render_title(w));
        section(&|w| man.render_name_section(w));
        section(&|w| man.render_synopsis_section(w));
        section(&|w| man.render_description_section(w));
        if has_args {
            section(&|w| man.render_options_section(w));
        }
        if has_subcommands {
            section(&|w| man.render_subcommands_section(w));
        }
        if let Some(after) = &after {
            section(&|w| after_help(after).to_writer(w));
        }
        if has_version {
            section(&|w| man.render_version_section(w));
        }
        // Each rendering starts with roff's apostrophe preamble; the page needs it once.
        let preamble = {
            let mut p = Vec::new();
            roff::Roff::new().to_writer(&mut p).unwrap();
            p
        };
        let mut page = Vec::new();
        for (i, s) in sections.iter().enumerate() {
            page.extend_from_slice(if i > 0 && s.starts_with(&preamble) { &s[preamble.len()..] } else { s });
        }
        files.insert(man.get_filename(), page);
    }
    let mut cmd = dsh_skills::cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut files = BTreeMap::new();
    generate(cmd, &mut files);
    files
}

/// The text after the options as roff: `Examples:` and `Exit status:` start sections, lines
/// indented by two spaces are examples set as they are (no filling), prose is filled.
fn after_help(text: &str) -> roff::Roff {
    use roff::{Roff, roman};
    let mut r = Roff::new();
    let mut in_section = false;
    let mut in_example = false;
    for line in text.lines() {
        let example = line.starts_with("  ");
        if in_example && !example {
            r.control("fi", []).control("RE", []);
            in_example = false;
        }
        if line == "Examples:" {
            r.control("SH", ["EXAMPLES"]);
            in_section = true;
            continue;
        }
        if let Some(rest) = line.strip_prefix("Exit status:") {
            r.control("SH", ["EXIT STATUS"]);
            in_section = true;
            r.text([roman(rest.trim_start())]);
            continue;
        }
        if !in_section {
            r.control("SH", ["NOTES"]);
            in_section = true;
        }
        if line.trim().is_empty() {
            r.control("PP", []);
        } else if example {
            if !in_example {
                r.control("RS", ["2"]).control("nf", []);
                in_example = true;
            }
            r.text([roman(&line[2..])]);
        } else {
            r.text([roman(line)]);
        }
    }
    if in_example {
        r.control("fi", []).control("RE", []);
    }
    r
}

#[test]
fn man_pages() {
    let files = man_pages_generated();
    assert!(files.contains_key("dsh-skills.1") && files.contains_key("dsh-skills-lint.1"), "{:?}", files.keys());
    check_dir("man", files);
}

/// roff source as text: escapes undone, fonts dropped, whitespace collapsed.
fn roff_words(page: &str) -> String {
    let text = page
        .replace("\\-", "-")
        .replace("\\(aq", "'")
        .replace("\\*(Aq", "'")
        .replace("\\&", "")
        .replace("\\fB", "")
        .replace("\\fI", "")
        .replace("\\fR", "")
        .replace("\\\\", "\\");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Each option's description (the long help where there is one) is in its command's man page,
/// global options in every page that lists them; each example line is in the page as written.
#[test]
fn man_pages_describe_every_option_and_keep_the_examples() {
    let files = man_pages_generated();
    let mut cmd = dsh_skills::cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut missing = Vec::new();
    let mut commands = vec![cmd.clone()];
    commands.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    let mut globals_seen = 0;
    for c in &commands {
        let file = if c.get_name() == "dsh-skills" {
            "dsh-skills.1".to_string()
        } else {
            format!("dsh-skills-{}.1", c.get_name())
        };
        let page = String::from_utf8(files[&file].clone()).unwrap();
        let words = roff_words(&page);
        for a in c.get_arguments().filter(|a| !a.is_hide_set()) {
            let Some(help) = a.get_long_help().or_else(|| a.get_help()) else {
                missing.push(format!("{file}: {} has no help at all", a.get_id()));
                continue;
            };
            let help = help.to_string().split_whitespace().collect::<Vec<_>>().join(" ");
            if !words.contains(&help) {
                missing.push(format!("{file}: --{}: {help}", a.get_long().unwrap_or(a.get_id().as_str())));
            }
            globals_seen += usize::from(a.is_global_set());
        }
        if let Some(after) = c.get_after_long_help().or_else(|| c.get_after_help()) {
            let lines: Vec<String> = page.lines().map(roff_words).collect();
            for example in after.to_string().lines().filter(|l| l.starts_with("  ")) {
                let want = example.split_whitespace().collect::<Vec<_>>().join(" ");
                if !lines.contains(&want) {
                    missing.push(format!("{file}: the example line `{example}` is not one line of the page"));
                }
            }
        }
    }
    assert!(globals_seen >= 16, "{globals_seen} global options checked");
    assert!(missing.is_empty(), "{}", missing.join("\n"));
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
