//! `lint --write-baseline` and `lint --baseline`: adopting lint on a repository that already has
//! findings, failing on new ones only, entries surviving moved lines, fixed and stale entries.

use crate::support::{self, json};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::Output;

/// A repository whose root `skills/` has an info finding (`a`: an unknown key) and an error
/// (`b`: no frontmatter).
fn repo() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let s = t.path().join("skills");
    fs::create_dir_all(s.join("a")).unwrap();
    fs::create_dir_all(s.join("b")).unwrap();
    fs::create_dir_all(t.path().join("home")).unwrap();
    fs::write(
        s.join("a/SKILL.md"),
        "---\nname: a\ndescription: Use when testing baselines. Does a.\ncolour: red\n---\n\nBody.\n",
    )
    .unwrap();
    fs::write(s.join("b/SKILL.md"), "no frontmatter here\n").unwrap();
    t
}

fn lint(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["lint", "--root", "skills", "skills", "--fail-on", "info"];
    args.extend_from_slice(extra);
    support::run(dir, &dir.join("home"), &args)
}

fn rules(v: &Value) -> Vec<String> {
    v["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap().to_string()).collect()
}

#[test]
fn adopting_a_baseline_exits_0_and_the_file_is_stable_and_follows_its_schema() {
    let t = repo();
    let dir = t.path();
    assert_eq!(lint(dir, &[]).status.code(), Some(1), "the repository has findings");
    let out = lint(dir, &["--write-baseline", "lint-baseline.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", support::stdout(&out));
    assert!(support::stdout(&out).contains("wrote the baseline lint-baseline.json (2 known findings), not shown"));
    let text = fs::read_to_string(dir.join("lint-baseline.json")).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    let errors: Vec<String> =
        support::strict_validator("baseline").iter_errors(&value).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{text}");
    // Sorted by path, relative to the file's folder, no line numbers.
    let paths: Vec<&str> = value["findings"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["skills/a/SKILL.md", "skills/b/SKILL.md"]);
    assert!(!text.contains("\"line\""));
    // Nothing but the baseline was written (no temporary file left beside it).
    let names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(names.len(), 3, "{names:?}");

    assert_eq!(lint(dir, &["--baseline", "lint-baseline.json"]).status.code(), Some(0));
    // Written again over the same tree: the same bytes.
    assert_eq!(lint(dir, &["--write-baseline", "lint-baseline.json"]).status.code(), Some(0));
    assert_eq!(fs::read_to_string(dir.join("lint-baseline.json")).unwrap(), text);
    // From another working directory, the file's paths still match (relative to the file).
    let sub = dir.join("skills");
    let out = support::run(
        &sub,
        &dir.join("home"),
        &["lint", "--root", ".", ".", "--fail-on", "info", "--baseline", "../lint-baseline.json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", support::stdout(&out));
}

#[test]
fn a_new_finding_fails_and_only_it_is_shown_in_every_format() {
    let t = repo();
    let dir = t.path();
    assert_eq!(lint(dir, &["--write-baseline", "b.json"]).status.code(), Some(0));
    fs::create_dir_all(dir.join("skills/c")).unwrap();
    fs::write(dir.join("skills/c/SKILL.md"), "---\nname: c\n---\n").unwrap();
    let out = lint(dir, &["--baseline", "b.json", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert!(rules(&v).iter().all(|r| r.starts_with("description")), "{:?}", rules(&v));
    assert!(v["findings"].as_array().unwrap().iter().all(|f| f["displayPath"] == "skills/c/SKILL.md"));
    assert_eq!(v["baseline"]["known"], 2);
    assert_eq!(v["summary"]["errors"].as_u64().unwrap() as usize, rules(&v).len());

    let human = lint(dir, &["--baseline", "b.json"]);
    assert_eq!(human.status.code(), Some(1));
    let text = support::stdout(&human);
    assert!(text.contains("skills/c/SKILL.md") && !text.contains("skills/b/SKILL.md"), "{text}");
    assert!(text.contains("2 known findings not shown (baseline b.json)"), "{text}");

    let gh = lint(dir, &["--baseline", "b.json", "--format", "github"]);
    assert_eq!(gh.status.code(), Some(1));
    let text = support::stdout(&gh);
    assert!(text.contains("file=skills/c/SKILL.md") && !text.contains("file=skills/b/"), "{text}");
    assert!(text.contains("2 known findings not shown"), "{text}");

    let sarif = lint(dir, &["--baseline", "b.json", "--format", "sarif"]);
    assert_eq!(sarif.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let run = &v["runs"][0];
    assert!(run["results"].as_array().unwrap().iter().all(|r| {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap().ends_with("c/SKILL.md")
    }));
    assert_eq!(run["properties"]["baseline"]["known"], 2);
}

#[test]
fn moving_lines_keeps_entries_and_changing_the_offending_text_does_not() {
    let t = repo();
    let dir = t.path();
    assert_eq!(lint(dir, &["--write-baseline", "b.json"]).status.code(), Some(0));
    // The unknown key moves down two lines and is re-indented by nothing; `b` gets lines above.
    fs::write(
        dir.join("skills/a/SKILL.md"),
        "---\n# a comment\nname: a\n\ndescription: Use when testing baselines. Does a.\ncolour: red\n---\n\nBody.\n",
    )
    .unwrap();
    fs::write(dir.join("skills/b/SKILL.md"), "\n\nno frontmatter here\n").unwrap();
    let out = lint(dir, &["--baseline", "b.json", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", support::stdout(&out));
    assert_eq!(json(&out)["baseline"]["known"], 2);
    // Another unknown key is new (and the old entry, its text gone, is fixed).
    let a = fs::read_to_string(dir.join("skills/a/SKILL.md")).unwrap().replace("colour: red", "color: red");
    fs::write(dir.join("skills/a/SKILL.md"), a).unwrap();
    let out = lint(dir, &["--baseline", "b.json", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(rules(&v), ["unknown-key"]);
    assert!(v["baseline"]["fixed"][0]["message"].as_str().unwrap().contains("colour"), "{v}");
}

#[test]
fn fixed_and_stale_entries_are_counted_and_named() {
    let t = repo();
    let dir = t.path();
    assert_eq!(lint(dir, &["--write-baseline", "b.json"]).status.code(), Some(0));
    // `a` is fixed (the key removed); `b` is deleted.
    fs::write(
        dir.join("skills/a/SKILL.md"),
        "---\nname: a\ndescription: Use when testing baselines. Does a.\n---\n\nBody.\n",
    )
    .unwrap();
    fs::remove_dir_all(dir.join("skills/b")).unwrap();
    let out = lint(dir, &["--baseline", "b.json"]);
    assert_eq!(out.status.code(), Some(0));
    let text = support::stdout(&out);
    assert!(text.contains("baseline entry fixed: skills/a/SKILL.md: unknown-key: "), "{text}");
    assert!(text.contains("baseline entry stale: skills/b/SKILL.md: frontmatter-missing: "), "{text}");
    assert!(
        text.contains("0 known findings not shown (baseline b.json); 1 baseline entry fixed, 1 stale (`--write-baseline b.json` drops them)"),
        "{text}"
    );
    let v = json(&lint(dir, &["--baseline", "b.json", "--format", "json"]));
    assert_eq!(
        (v["baseline"]["fixed"].as_array().unwrap().len(), v["baseline"]["stale"].as_array().unwrap().len()),
        (1, 1)
    );
    // Writing the baseline again drops them: an empty baseline, and nothing to report.
    assert_eq!(lint(dir, &["--write-baseline", "b.json"]).status.code(), Some(0));
    let v: Value = serde_json::from_str(&fs::read_to_string(dir.join("b.json")).unwrap()).unwrap();
    assert_eq!(v["findings"], serde_json::json!([]));
    let text = support::stdout(&lint(dir, &["--baseline", "b.json"]));
    assert!(!text.contains("baseline entry"), "{text}");
}

#[test]
fn a_missing_or_broken_baseline_is_a_usage_error_naming_the_file() {
    let t = repo();
    let dir = t.path();
    let out = lint(dir, &["--baseline", "nope.json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nope.json") && err.contains("dsh-skills lint --write-baseline nope.json"), "{err}");
    // The suggested command works: afterwards the same run passes.
    assert_eq!(lint(dir, &["--write-baseline", "nope.json"]).status.code(), Some(0));
    assert_eq!(lint(dir, &["--baseline", "nope.json"]).status.code(), Some(0));
    fs::write(dir.join("bad.json"), "{\"findings\": 3}").unwrap();
    let out = lint(dir, &["--baseline", "bad.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.json is not a dsh-skills lint baseline"));
    // Both flags at once are refused by the command line.
    assert_eq!(lint(dir, &["--baseline", "a.json", "--write-baseline", "b.json"]).status.code(), Some(2));
}

#[test]
fn the_configuration_names_a_baseline_that_lint_applies_and_a_flag_overrides() {
    let t = repo();
    let dir = t.path();
    assert_eq!(lint(dir, &["--write-baseline", "known.json"]).status.code(), Some(0));
    fs::create_dir_all(dir.join("cfg")).unwrap();
    // Relative to the configuration file's folder, like its other paths.
    fs::write(dir.join(".dsh-skills-lint.yaml"), "baseline: known.json\n").unwrap();
    let out = lint(dir, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", support::stdout(&out));
    let v = json(&out);
    assert!(rules(&v).is_empty(), "{v}");
    assert_eq!(v["baseline"]["known"], 2, "{v}");
    // A new finding fails as it does with `--baseline`.
    fs::write(
        dir.join("skills/a/SKILL.md"),
        "---\nname: a\ndescription: Use when testing. Does a.\ncolour: red\nsize: 2\n---\n\nBody.\n",
    )
    .unwrap();
    let v = json(&lint(dir, &["--format", "json"]));
    assert_eq!(rules(&v), ["unknown-key"], "{v}");
    // `--baseline` names another file; a missing configured file is an error that says how to create it.
    fs::write(dir.join(".dsh-skills-lint.yaml"), "baseline: missing.json\n").unwrap();
    let out = lint(dir, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read the baseline") && err.contains("--write-baseline"), "{err}");
    assert_eq!(lint(dir, &["--baseline", "known.json", "--format", "json"]).status.code(), Some(1), "the new finding");
    // Not a path: refused by name.
    fs::write(dir.join(".dsh-skills-lint.yaml"), "baseline: [a, b]\n").unwrap();
    let err = String::from_utf8_lossy(&lint(dir, &[]).stderr).into_owned();
    assert!(err.contains("`baseline` is the path of a baseline file"), "{err}");
}
