//! First contact (issue 11): a realistic repository with the mistakes authors make — skills in
//! `.claude/skills`, a monorepo package's `.agents/skills`, a top-level `skills/`, a personal
//! home with a Claude folder, `skill.md`, a skill nested too deep, misnamed files — and what
//! `list`, `lint`, `lint .` and `explain` say about it. Golden files (colour off, 100 columns)
//! pin the human output and the JSON; the advice test applies every concrete suggestion in a
//! copy of the tree and checks that the finding is gone and no error appears.
//! Regenerate the golden files with `UPDATE_GOLDEN=1 cargo test --test cli first_contact::`.

use crate::support;

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

struct Repo {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

fn skill(root: &Path, rel: &str, name: &str, description: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, format!("---\nname: {name}\ndescription: {description}\n---\n\nBody of {name}.\n")).unwrap();
}

/// The realistic tree: `repo/` (a git repository) and `home/`.
fn repo() -> Repo {
    // Under /tmp so that the tree's path has the same length everywhere (the output wraps).
    let dir = tempfile::Builder::new().prefix("dsh-first-").tempdir_in("/tmp").unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    let r = &root;
    fs::create_dir_all(r.join("repo/.git")).unwrap();
    fs::create_dir_all(r.join("home")).unwrap();
    skill(r, "repo/.agents/skills/review/SKILL.md", "review", "Review a pull request.");
    skill(r, "repo/.agents/skills/deploy/skill.md", "deploy", "Deploy the app.");
    skill(r, "repo/.agents/skills/tools/pdf/SKILL.md", "pdf", "Fill PDF forms.");
    skill(r, "repo/.agents/skills/commit_msg.md", "commit-msg", "Write commit messages.");
    skill(r, "repo/.agents/skills/Triage.md", "triage", "Triage new issues.");
    skill(r, "repo/.agents/skills/Bad_Name.md", "Bad_Name", "A name the harness rejects.");
    // A bundle's own template is its content, not a nested skill.
    skill(r, "repo/.agents/skills/review/templates/example/SKILL.md", "example", "A template.");
    skill(r, "repo/.claude/skills/claude-only/SKILL.md", "claude-only", "Written for Claude Code.");
    skill(r, "repo/packages/web/.agents/skills/web-build/SKILL.md", "web-build", "Build the web package.");
    skill(r, "repo/skills/release/SKILL.md", "release", "Cut a release.");
    skill(r, "home/.agents/skills/review/SKILL.md", "review", "My personal review checklist.");
    skill(r, "home/.claude/skills/notes/SKILL.md", "notes", "Take notes.");
    // Above the project root: the repository is nested inside another folder with skills.
    skill(r, ".agents/skills/outer/SKILL.md", "outer", "From the enclosing folder.");
    // Things the search must not enter.
    skill(r, "repo/node_modules/pkg/.agents/skills/dep/SKILL.md", "dep", "From a dependency.");
    Repo { _dir: dir, root }
}

impl Repo {
    fn run(&self, cwd_rel: &str, args: &[&str]) -> (i32, String, String) {
        let t = self.root.to_string_lossy().into_owned();
        let out = support::command(&self.root.join(cwd_rel), &self.root.join("home"))
            .args(args)
            .args(["--no-config", "--color", "never"])
            .env("COLUMNS", "100")
            .output()
            .unwrap();
        let clean = |b: &[u8]| String::from_utf8_lossy(b).replace(&t, "[T]");
        (out.status.code().unwrap_or(-1), clean(&out.stdout), clean(&out.stderr))
    }

    fn json(&self, cwd_rel: &str, args: &[&str]) -> Value {
        let (_, out, err) = self.run(cwd_rel, args);
        serde_json::from_str(&out.replace("[T]", &self.root.to_string_lossy()))
            .unwrap_or_else(|e| panic!("{e}: {out}\n{err}"))
    }
}

fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, actual).unwrap();
        return;
    }
    let expected =
        fs::read_to_string(&path).unwrap_or_else(|_| panic!("missing {}; run UPDATE_GOLDEN=1", path.display()));
    assert!(expected == actual, "{name} differs:\n--- expected\n{expected}\n--- actual\n{actual}");
}

fn transcript(args: &[&str], (code, out, err): (i32, String, String)) -> String {
    let mut s = format!("$ dsh-skills {}\n[exit {code}]\n{out}", args.join(" "));
    if !err.is_empty() {
        s.push_str("--- stderr\n");
        s.push_str(&err);
    }
    s
}

/// (rule, severity, path) of every lint finding, plus the findings themselves.
fn findings(v: &Value) -> Vec<Value> {
    v["findings"].as_array().cloned().unwrap_or_default()
}

fn has(v: &Value, rule: &str, severity: &str, suffix: &str) -> bool {
    findings(v)
        .iter()
        .any(|f| f["rule"] == rule && f["severity"] == severity && f["path"].as_str().unwrap().ends_with(suffix))
}

#[test]
fn golden_outputs() {
    let r = repo();
    for (file, cwd, args) in [
        ("first-contact-list.txt", "repo", vec!["list"]),
        ("first-contact-lint.txt", "repo", vec!["lint"]),
        ("first-contact-lint-dot.txt", "repo", vec!["lint", "."]),
        ("first-contact-explain.txt", "repo", vec!["explain", "web-build"]),
    ] {
        golden(file, &transcript(&args, r.run(cwd, &args)));
    }
    let (_, list_json, _) = r.run("repo", &["list", "--format", "json"]);
    let v: Value = serde_json::from_str(&list_json).unwrap();
    let pinned = serde_json::json!({"unscanned": v["unscanned"], "catalogCut": v["catalogCut"], "problems": v["problems"], "skills": v["skills"].as_array().unwrap().iter().map(|s| &s["name"]).collect::<Vec<_>>()});
    golden("first-contact-list.json", &format!("{}\n", serde_json::to_string_pretty(&pinned).unwrap()));
    let (_, lint_json, _) = r.run("repo", &["lint", "--format", "json", "."]);
    golden("first-contact-lint-dot.json", &lint_json);
}

#[test]
fn every_mistake_is_reported_with_its_severity() {
    let r = repo();
    let v = r.json("repo", &["lint", "--format", "json"]);
    // Item 1: every unscanned folder, with a count; node_modules is not searched.
    let outer = format!("{}/.agents/skills", r.root.display());
    for suffix in
        ["repo/.claude/skills", "repo/packages/web/.agents/skills", "repo/skills", "home/.claude/skills", &outer]
    {
        assert!(has(&v, "unscanned-skill-folder", "warning", suffix), "no unscanned finding for {suffix}: {v:#}");
    }
    assert!(!findings(&v).iter().any(|f| f["path"].as_str().unwrap().contains("node_modules")));
    // Item 3: well-formed skills the harness never loads are errors; cross-scope shadowing is
    // info; same-scope shadowing stays a warning (tested in lint/cli.rs).
    assert!(has(&v, "skill-md-case", "error", "deploy/skill.md"));
    assert!(has(&v, "nested-too-deep", "error", "tools/pdf/SKILL.md"));
    assert!(!findings(&v).iter().any(|f| f["path"].as_str().unwrap().contains("templates")), "a bundle's template");
    assert!(has(&v, "shadowed-skill", "info", "home/.agents/skills/review/SKILL.md"));
    let list = r.json("repo", &["list", "--format", "json"]);
    let folders = list["unscanned"]["folders"].as_array().unwrap();
    assert_eq!(folders.len(), 5, "{folders:#?}");
    assert!(folders.iter().all(|f| f["skills"].as_array().unwrap().len() == 1));
    // The JSON carries every problem the human view shows, the silently ignored files too.
    let (_, human, _) = r.run("repo", &["list"]);
    let problems = list["problems"].as_array().unwrap();
    for suffix in ["deploy/skill.md", "tools/pdf/SKILL.md"] {
        let p = problems.iter().find(|p| p["path"].as_str().unwrap().ends_with(suffix));
        let p = p.unwrap_or_else(|| panic!("no problem for {suffix} in {problems:#?}"));
        assert!(p["what"].as_str().unwrap().contains("silently") && p["fix"].is_string(), "{p}");
    }
    let shown = human.split("\nProblems (").nth(1).and_then(|t| t.split(')').next()).unwrap_or("0");
    assert_eq!(shown, problems.len().to_string(), "{human}");
}

#[test]
fn lint_path_means_what_the_user_means() {
    let r = repo();
    // A project directory: its roots, never "nested too deep" for a skill directly in a root.
    let v = r.json("repo", &["lint", "--format", "json", "."]);
    assert_eq!(v["inputs"][0]["kind"], "project");
    assert!(
        !findings(&v)
            .iter()
            .any(|f| f["rule"] == "nested-too-deep" && f["path"].as_str().unwrap().ends_with("review/SKILL.md"))
    );
    assert!(has(&v, "unscanned-skill-folder", "warning", "repo/.claude/skills"));
    // Not the personal home: `lint .` is about this project.
    assert!(!findings(&v).iter().any(|f| f["path"].as_str().unwrap().contains("/home/")));
    // `.agents` is its skills root.
    let v = r.json("repo", &["lint", "--format", "json", ".agents"]);
    assert_eq!(v["inputs"][0]["kind"], "skills-root");
    assert!(v["inputs"][0]["takenAs"].as_str().unwrap().ends_with(".agents/skills"));
    assert!(
        !findings(&v)
            .iter()
            .any(|f| f["rule"] == "nested-too-deep" && f["path"].as_str().unwrap().ends_with("review/SKILL.md"))
    );
    assert!(has(&v, "nested-too-deep", "error", "tools/pdf/SKILL.md"));
    // A skill folder and a skill file.
    let v = r.json("repo", &["lint", "--format", "json", ".agents/skills/review"]);
    assert_eq!(v["inputs"][0]["kind"], "skill-folder");
    let v = r.json("repo", &["lint", "--format", "json", ".agents/skills/Triage.md"]);
    assert_eq!(v["inputs"][0]["kind"], "skill-file");
}

#[test]
fn unscanned_ok_declares_a_folder_intentional() {
    let r = repo();
    fs::write(r.root.join("repo/.dsh-skills-lint.yaml"), "unscanned-ok: [.claude/skills]\n").unwrap();
    let v = r.json("repo", &["lint", "--format", "json"]);
    assert!(!has(&v, "unscanned-skill-folder", "warning", "repo/.claude/skills"));
    assert!(has(&v, "unscanned-skill-folder", "warning", "repo/skills"));
    let list = r.json("repo", &["list", "--format", "json"]);
    let claude = list["unscanned"]["folders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with("repo/.claude/skills"))
        .cloned()
        .unwrap();
    assert_eq!(claude["intentional"], true);
    assert!(!has(&v, "config-unmatched", "warning", ".dsh-skills-lint.yaml"), "{v:#}");

    // An entry that matches nothing warns; the advice (correct the path), applied, clears it.
    fs::write(r.root.join("repo/.dsh-skills-lint.yaml"), "unscanned-ok: [.claude/skill]\n").unwrap();
    let v = r.json("repo", &["lint", "--format", "json"]);
    assert!(has(&v, "config-unmatched", "warning", "repo/.dsh-skills-lint.yaml"), "{v:#}");
    assert!(has(&v, "unscanned-skill-folder", "warning", "repo/.claude/skills"));
    fs::write(r.root.join("repo/.dsh-skills-lint.yaml"), "unscanned-ok: [.claude/skills]\n").unwrap();
    let v = r.json("repo", &["lint", "--format", "json"]);
    assert!(!has(&v, "config-unmatched", "warning", ""), "{v:#}");
    assert!(!has(&v, "unscanned-skill-folder", "warning", "repo/.claude/skills"));

    // A glob is refused by name (exit 2), not silently matched against nothing.
    fs::write(r.root.join("repo/.dsh-skills-lint.yaml"), "unscanned-ok: [\"*/skills\"]\n").unwrap();
    let (code, _, err) = r.run("repo", &["lint"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`*/skills` is a glob; globs are not supported"), "{err}");
}

/// Apply one action in `tree`; returns the extra command-line arguments it needs and how paths
/// moved.
fn apply(action: &Value, finding: &Value, old: &Path, new: &Path) -> (Vec<String>, Vec<(String, String)>) {
    let map = |p: &str| p.replacen(&old.to_string_lossy().into_owned(), &new.to_string_lossy(), 1);
    match action["kind"].as_str().unwrap() {
        "move" => {
            let mut moved = Vec::new();
            for m in action["moves"].as_array().unwrap() {
                let (from, to) = (map(m[0].as_str().unwrap()), map(m[1].as_str().unwrap()));
                fs::create_dir_all(Path::new(&to).parent().unwrap()).unwrap();
                fs::rename(&from, &to).unwrap();
                moved.push((m[0].as_str().unwrap().to_string(), m[1].as_str().unwrap().to_string()));
            }
            (Vec::new(), moved)
        }
        "link" => {
            for l in action["links"].as_array().unwrap() {
                let link = map(l[0].as_str().unwrap());
                fs::create_dir_all(Path::new(&link).parent().unwrap()).unwrap();
                std::os::unix::fs::symlink(l[1].as_str().unwrap(), &link).unwrap();
            }
            (Vec::new(), Vec::new())
        }
        "setName" => {
            let file = map(finding["path"].as_str().unwrap());
            let text = fs::read_to_string(&file).unwrap();
            let fixed: Vec<String> = text
                .lines()
                .map(|l| {
                    if l.starts_with("name:") {
                        format!("name: {}", action["name"].as_str().unwrap())
                    } else {
                        l.to_string()
                    }
                })
                .collect();
            fs::write(&file, fixed.join("\n") + "\n").unwrap();
            (Vec::new(), Vec::new())
        }
        "customDir" => (vec!["--custom-dir".into(), map(action["path"].as_str().unwrap())], Vec::new()),
        other => panic!("unknown action {other}"),
    }
}

/// Item 4: every finding with a concrete suggestion, applied in a copy of the tree, goes away
/// and brings no new error; moved skills then load.
#[test]
fn every_suggestion_works_when_applied() {
    let r = repo();
    let base_args = ["lint", "--format", "json"];
    let before = r.json("repo", &base_args);
    let with_action: Vec<Value> = findings(&before).into_iter().filter(|f| !f["action"].is_null()).collect();
    let rules: std::collections::BTreeSet<&str> = with_action.iter().map(|f| f["rule"].as_str().unwrap()).collect();
    for rule in ["unscanned-skill-folder", "skill-md-case", "nested-too-deep", "name-mismatch", "name-invalid"] {
        assert!(rules.contains(rule), "no {rule} finding with an action: {before:#}");
    }
    let kinds: std::collections::BTreeSet<&str> =
        with_action.iter().map(|f| f["action"]["kind"].as_str().unwrap()).collect();
    for kind in ["move", "link", "setName"] {
        assert!(kinds.contains(kind), "no {kind} action: {kinds:?}");
    }
    let old = r.root.clone();
    for f in &with_action {
        let copy = tempfile::Builder::new().prefix("dsh-advice-").tempdir_in("/tmp").unwrap();
        let new = fs::canonicalize(copy.path()).unwrap();
        support::copy_tree(&old, &new);
        let (extra, moved) = apply(&f["action"], f, &old, &new);
        let mut args: Vec<String> = base_args.iter().map(|s| s.to_string()).collect();
        args.extend(extra.iter().cloned());
        args.extend(["--no-config".into()]);
        let out = support::command(&new.join("repo"), &new.join("home")).args(&args).output().unwrap();
        let after: Value = serde_json::from_slice(&out.stdout).unwrap();
        let to_new = |p: &str| p.replacen(&old.to_string_lossy().into_owned(), &new.to_string_lossy(), 1);
        let rule = f["rule"].as_str().unwrap();
        let gone_from = std::iter::once(to_new(f["path"].as_str().unwrap()))
            .chain(moved.iter().map(|(_, to)| to_new(to)))
            .collect::<Vec<_>>();
        let still = findings(&after)
            .into_iter()
            .filter(|g| {
                g["rule"] == rule && gone_from.iter().any(|p| g["path"].as_str().unwrap().starts_with(p.as_str()))
            })
            .collect::<Vec<_>>();
        assert!(still.is_empty(), "applying {} for {rule} at {} left {still:#?}", f["action"], f["path"]);
        let errors_before: std::collections::BTreeSet<(String, String)> = findings(&before)
            .iter()
            .filter(|g| g["severity"] == "error")
            .map(|g| (g["rule"].as_str().unwrap().to_string(), to_new(g["path"].as_str().unwrap())))
            .collect();
        for g in findings(&after).iter().filter(|g| g["severity"] == "error") {
            let key = (g["rule"].as_str().unwrap().to_string(), g["path"].as_str().unwrap().to_string());
            assert!(errors_before.contains(&key), "applying {} for {rule} brought a new error: {g:#}", f["action"]);
        }
        if rule == "unscanned-skill-folder" || rule == "nested-too-deep" || rule == "skill-md-case" {
            let mut list_args = vec!["list".to_string(), "--format".into(), "json".into(), "--no-config".into()];
            list_args.extend(extra.iter().cloned());
            let out = support::command(&new.join("repo"), &new.join("home")).args(&list_args).output().unwrap();
            let l: Value = serde_json::from_slice(&out.stdout).unwrap();
            let names: Vec<&str> =
                l["skills"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
            let before_list = r.json("repo", &["list", "--format", "json"]);
            assert!(
                names.len() > before_list["skills"].as_array().unwrap().len(),
                "applying {} for {rule} loaded no new skill: {names:?}",
                f["action"]
            );
        }
    }
}

/// Item 5: after a provider failure, explain names it and still shows where the name comes from.
#[test]
fn explain_after_a_provider_failure() {
    let r = repo();
    std::os::unix::fs::symlink("loop", r.root.join("repo/.agents/skills/loop")).unwrap();
    let v = r.json("repo", &["explain", "review", "--format", "json"]);
    assert_eq!(v["complete"], false);
    assert!(v["providerErrors"][0]["error"].as_str().unwrap().contains("ELOOP"), "{v:#}");
    let from = v["wouldComeFrom"].as_array().unwrap();
    assert!(from[0]["path"].as_str().unwrap().ends_with("repo/.agents/skills/review/SKILL.md"), "{v:#}");
    let (code, out, _) = r.run("repo", &["explain", "review"]);
    assert_eq!(code, 1);
    assert!(out.contains("no catalog at all") && out.contains("ELOOP") && out.contains("would come from"), "{out}");
}

/// Item 6: the catalog cut is marked with the units lost and counted; the configuration block
/// shows only when asked for or not the default; every line fits the width.
#[test]
fn list_marks_the_catalog_cut_and_fits_the_width() {
    let r = repo();
    skill(&r.root, "repo/.agents/skills/long.md", "long", &"word ".repeat(120));
    let (_, out, _) = r.run("repo", &["list", "--description-max-length", "50"]);
    assert!(out.contains("[catalog cuts "), "{out}");
    assert!(out.contains("cut by the catalog"), "{out}");
    let out = support::command(&r.root.join("repo"), &r.root.join("home"))
        .args(["list", "--no-config", "--color", "never"])
        .env("COLUMNS", "80")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    for line in text.lines() {
        // A shell command may keep one long path on a line of its own; nothing else overflows.
        let word_too_long = line.split(' ').any(|w| w.chars().count() > 70);
        assert!(line.chars().count() <= 80 || word_too_long, "wider than 80: {line}");
    }
    assert!(!text.contains("\nConfiguration\n"), "defaults only, yet the configuration block shows:\n{text}");
    let (_, verbose, _) = r.run("repo", &["list", "--verbose"]);
    assert!(verbose.contains("\nConfiguration\n"));
}

/// Item 7: input that looks wrong is said on stderr, and stdout stays as it was.
#[test]
fn warns_about_input_that_looks_wrong() {
    let r = repo();
    let (_, out, err) =
        r.run("repo", &["catalog", "--cwd", "does-not-exist", "--locale", "xx-YY", "--agents-home", "~/agents"]);
    assert!(err.contains("--cwd") && err.contains("does not exist"), "{err}");
    assert!(err.contains("--locale"), "{err}");
    assert!(err.contains("does not expand `~`"), "{err}");
    // stdout is what it would be without the warnings (xx-YY falls back to the root collation).
    let (_, plain, _) = r.run("repo", &["catalog", "--cwd", "does-not-exist", "--agents-home", "~/agents"]);
    assert_eq!(out, plain);
    let (_, _, err) = r.run("repo", &["list", "--cwd", ".agents/skills/Triage.md"]);
    assert!(err.contains("is a file"), "{err}");
    let (_, _, err) = r.run("repo", &["list", "--locale", "sv-SE"]);
    assert!(err.is_empty(), "{err}");
}
