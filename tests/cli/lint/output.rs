//! Human output at scale: a generated 1,000-skill collection prints a few hundred lines by
//! default (one block per repeated rule, a per-rule table), every finding with `--verbose`
//! and in JSON; `--min-severity` filters every format the same way; help lines fit the width
//! and a wrapped shell command still runs when pasted.

use crate::support;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

const SKILLS: usize = 1000;

/// `tree/` with 1,000 skills: each has an unknown key (info); every 10th a name that differs
/// from its folder (warning); every 50th an invalid name (error); every 100th a broken
/// reference (warning).
fn collection(base: &Path) {
    for i in 0..SKILLS {
        let folder = format!("skill-{i:04}");
        let name = if i % 50 == 0 {
            format!("Skill_{i:04}")
        } else if i % 10 == 0 {
            format!("other-{i:04}")
        } else {
            folder.clone()
        };
        let body = if i % 100 == 0 { "See [the guide](references/missing.md).\n" } else { "Do the thing.\n" };
        let dir = base.join("tree").join(&folder);
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Skill number {i} for tests.\nowner: team-{i}\n---\n{body}"),
        )
        .unwrap();
    }
    fs::create_dir_all(base.join("no-home")).unwrap();
}

fn lint(base: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["lint", "--root", "tree", "tree"];
    args.extend_from_slice(extra);
    let mut cmd = support::command(base, &base.join("no-home"));
    let out = cmd.args(&args).env("COLUMNS", "100").output().unwrap();
    support::check_json(&args, &out);
    out
}

fn by_rule(v: &Value) -> BTreeMap<(String, String), usize> {
    let mut m = BTreeMap::new();
    for (rule, severity, _) in support::findings(v) {
        *m.entry((rule, severity)).or_default() += 1;
    }
    m
}

#[test]
fn a_thousand_skills_fit_a_few_hundred_lines_and_nothing_is_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path();
    collection(base);

    let json = support::json(&lint(base, &["--format", "json"]));
    let counts = by_rule(&json);
    let total: usize = counts.values().sum();
    assert_eq!(counts.get(&("unknown-key".into(), "info".into())), Some(&SKILLS), "{counts:?}");
    assert!(total > SKILLS + 100, "{counts:?}");

    let human = support::stdout(&lint(base, &[]));
    let lines = human.lines().count();
    assert!(lines <= 300, "{lines} lines by default:\n{human}");
    // Notes, help and the grouped places fit 100 columns (a word wider than that aside).
    for l in human.lines().filter(|l| l.contains(" = ") || l.starts_with("    ")) {
        assert!(l.chars().count() <= 100 || !l.trim().contains(' '), "wider than 100: {l:?}");
    }
    // Each rule and level once in the table, with the JSON's count.
    for ((rule, severity), n) in &counts {
        let row = human
            .lines()
            .find(|l| l.split_whitespace().take(2).eq([rule.as_str(), severity.as_str()]))
            .unwrap_or_else(|| panic!("no table row for {rule} {severity}:\n{human}"));
        assert_eq!(row.split_whitespace().nth(2), Some(n.to_string().as_str()), "{row}");
    }
    // A grouped rule says how many there are and where to see them all.
    assert!(human.contains(&format!("`unknown-key` is found {SKILLS} times in {SKILLS} files")), "{human}");
    let listed = dsh_skills::render::lint::human::LISTED;
    assert!(human.contains(&format!("... and {} more", SKILLS - 1 - listed)), "{human}");

    // --verbose: every finding in full, one header per finding.
    let verbose = support::stdout(&lint(base, &["--verbose"]));
    for ((rule, severity), n) in &counts {
        let header = format!("{severity}[{rule}]:");
        assert_eq!(verbose.matches(&header).count(), *n, "{header}");
    }
    // Every file with an unknown key is named in the verbose output.
    for i in 0..SKILLS {
        assert!(verbose.contains(&format!("tree/skill-{i:04}/SKILL.md:4:1")), "skill-{i:04}");
    }
}

#[test]
fn min_severity_filters_every_format_alike() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path();
    collection(base);
    let all = support::json(&lint(base, &["--format", "json"]));
    let infos = by_rule(&all).iter().filter(|((_, s), _)| s == "info").map(|(_, n)| n).sum::<usize>();

    let out = lint(base, &["--format", "json", "--min-severity", "warning"]);
    let v = support::json(&out);
    assert!(support::findings(&v).iter().all(|(_, s, _)| s != "info"), "{v}");
    assert_eq!(v["summary"]["hidden"], infos);
    assert_eq!(v["summary"]["info"], 0);
    assert_eq!(v["findings"].as_array().unwrap().len() + infos, all["findings"].as_array().unwrap().len());

    let sarif: Value =
        serde_json::from_slice(&lint(base, &["--format", "sarif", "--min-severity", "warning"]).stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), v["findings"].as_array().unwrap().len());
    assert!(results.iter().all(|r| r["level"] != "note"));

    let github = support::stdout(&lint(base, &["--format", "github", "--min-severity", "warning"]));
    assert!(!github.contains("::notice"), "{github}");
    assert_eq!(github.lines().filter(|l| l.starts_with("::")).count(), results.len());

    let human = support::stdout(&lint(base, &["--min-severity", "error"]));
    assert!(!human.contains("warning[") && !human.contains("info["), "{human}");
    assert!(human.trim_end().ends_with("below --min-severity not shown)"), "{human}");

    // Hidden findings cannot fail the run: only info would fail at --fail-on info.
    let only_info = tempfile::tempdir().unwrap();
    let dir = only_info.path().join("tree/a");
    fs::create_dir_all(&dir).unwrap();
    fs::create_dir_all(only_info.path().join("no-home")).unwrap();
    fs::write(dir.join("SKILL.md"), "---\nname: a\ndescription: A skill.\nowner: me\n---\nBody.\n").unwrap();
    assert_eq!(lint(only_info.path(), &["--fail-on", "info"]).status.code(), Some(1));
    assert_eq!(lint(only_info.path(), &["--fail-on", "info", "--min-severity", "warning"]).status.code(), Some(0));
}

/// A shell command in a help line that is wider than the terminal is continued with ` \`: the
/// wrapped text, pasted into a shell, does what the one-line command does.
#[cfg(unix)]
#[test]
fn a_wrapped_move_still_runs_when_pasted() {
    use dsh_skills::render::lint::human::wrap;
    let tmp = tempfile::tempdir().unwrap();
    let from = tmp.path().join("a-rather-long-folder-name/with-a-skill-inside");
    fs::create_dir_all(&from).unwrap();
    let to = tmp.path().join("another-long-folder/.agents/skills");
    let help = format!("move: `mkdir -p {} && mv {} {}/`", to.display(), from.display(), to.display());
    let wrapped = wrap(&help, 40);
    assert!(wrapped.lines().count() > 2, "{wrapped}");
    for line in wrapped.lines().take(wrapped.lines().count() - 1) {
        let words = line.trim().trim_end_matches('\\').trim();
        assert!(line.chars().count() <= 40 || !words.contains(' '), "{line:?} is too wide");
        assert!(line.ends_with(" \\"), "a break inside the command must be continued: {wrapped}");
    }
    // What a user pastes: the text between the backticks, line breaks included.
    let command = &wrapped[wrapped.find('`').unwrap() + 1..wrapped.rfind('`').unwrap()];
    let status = std::process::Command::new("sh").arg("-c").arg(command).status().unwrap();
    assert!(status.success(), "{command}");
    assert!(to.join("with-a-skill-inside").is_dir() && !from.exists(), "{command}");
    // A YAML value is wrapped without a backslash (it would change the value).
    let yaml = wrap("add: `customSkillDirs: [\"/a/very/long/path/one\", \"/a/very/long/path/two\"]`", 40);
    assert!(!yaml.contains('\\'), "{yaml}");
}
