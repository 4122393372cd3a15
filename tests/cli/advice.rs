//! Advice verified on the trees where it is given (issue 26): repositories with relative and
//! absolute symbolic links at different depths, mirrors (`.claude/skills -> .agents/skills`),
//! monorepo packages and several unscanned folders at once. Every suggested command — each
//! folder's `move` and `link`, one at a time and all together — is run by a shell in a fresh
//! copy of the tree: afterwards `catalog` exits 0 and lists the skills, no finding is reported
//! twice, and the folder's finding is gone. Also the fixes for Markdown that is not a skill in a
//! root, `explain` of a misspelt name, and `--fix` reaching its fixed point in one run.

use crate::support;
use serde_json::Value;
use std::collections::BTreeSet;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

fn skill(root: &Path, rel: &str, name: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, format!("---\nname: {name}\ndescription: Use when {name} is needed.\n---\n\nBody of {name}.\n"))
        .unwrap();
}

fn link(root: &Path, rel: &str, target: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    symlink(target, p).unwrap();
}

struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Tree {
    /// `repo/` (a git repository that uses the harness) and `home/`, beside `shared/`, a folder
    /// outside the repository that some links point into.
    fn new(build: fn(&Path)) -> Tree {
        let dir = tempfile::Builder::new().prefix("dsh-advice-").tempdir_in("/tmp").unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir_all(root.join("repo/.git")).unwrap();
        fs::create_dir_all(root.join("home")).unwrap();
        build(&root);
        Tree { _dir: dir, root }
    }

    fn run(&self, cwd: &str, args: &[&str]) -> (i32, String) {
        let out = support::command(&self.root.join(cwd), &self.root.join("home"))
            .args(args)
            .args(["--no-config", "--color", "never"])
            .output()
            .unwrap();
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn json(&self, cwd: &str, args: &[&str]) -> Value {
        let (_, out) = self.run(cwd, args);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
    }

    /// Run a suggested shell command written for the tree at `old`.
    fn sh(&self, old: &Path, command: &str) {
        let command = command.replace(&*old.to_string_lossy(), &self.root.to_string_lossy());
        let out = std::process::Command::new("sh").arg("-c").arg(&command).current_dir(&self.root).output().unwrap();
        assert!(out.status.success(), "`{command}` failed: {}", String::from_utf8_lossy(&out.stderr));
    }

    fn catalog_names(&self, cwd: &str) -> BTreeSet<String> {
        let (code, out) = self.run(cwd, &["catalog", "--format", "json"]);
        assert_eq!(code, 0, "catalog failed: {out}");
        let v: Value = serde_json::from_str(&out).unwrap();
        // No skills: no catalog (`entries` is null).
        v["entries"].as_array().into_iter().flatten().map(|e| e["name"].as_str().unwrap().to_string()).collect()
    }
}

fn findings(v: &Value) -> Vec<Value> {
    v["findings"].as_array().cloned().unwrap_or_default()
}

/// No (rule, path, message) twice.
fn assert_no_repeats(v: &Value, what: &str) {
    let mut seen = BTreeSet::new();
    for f in findings(v) {
        let key = format!("{} {} {}", f["rule"], f["path"], f["message"]);
        assert!(seen.insert(key.clone()), "{what}: reported twice: {key}");
    }
}

/// A monorepo that uses the harness, with mirrors and links at different depths:
/// - `.agents/skills/base` (scanned), mirrored whole by `.claude/skills -> ../.agents/skills`;
/// - `packages/web/.agents/skills/web` (a package's root, not scanned), mirrored by the
///   package's `.claude/skills/web -> ../../.agents/skills/web` (a relative link);
/// - `.codex/skills/`: `fmt` (a folder), `lint -> ../../../shared/lint` (a relative link out of
///   the repository), `abs -> <absolute path>/shared/abs`, and `web` (a same-named skill);
/// - `.gemini/skills/gem` (a folder another agent reads).
fn monorepo(root: &Path) {
    skill(root, "repo/.agents/skills/base/SKILL.md", "base");
    link(root, "repo/.claude/skills", "../.agents/skills");
    skill(root, "repo/packages/web/.agents/skills/web/SKILL.md", "web");
    link(root, "repo/packages/web/.claude/skills/web", "../../.agents/skills/web");
    skill(root, "repo/.codex/skills/fmt/SKILL.md", "fmt");
    skill(root, "shared/lint/SKILL.md", "lint");
    link(root, "repo/.codex/skills/lint", "../../../shared/lint");
    skill(root, "shared/abs/SKILL.md", "abs");
    link(root, "repo/.codex/skills/abs", &root.join("shared/abs").to_string_lossy());
    skill(root, "repo/.codex/skills/web/SKILL.md", "web");
    skill(root, "repo/.gemini/skills/gem/SKILL.md", "gem");
}

/// Two folders of other agents and no `.agents/skills` yet: each folder's link would once have
/// made `.agents/skills` itself a link.
fn two_agents(root: &Path) {
    fs::create_dir_all(root.join("repo/.dsh")).unwrap();
    skill(root, "repo/.claude/skills/a/SKILL.md", "a");
    skill(root, "repo/.codex/skills/b/SKILL.md", "b");
    skill(root, "repo/.codex/skills/c/SKILL.md", "c");
}

type Build = fn(&Path);

const TREES: &[(&str, Build)] = &[("monorepo", monorepo), ("two-agents", two_agents)];

/// The shell commands of every unscanned folder: `(folder, label, command)`.
fn commands(listed: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for f in listed["unscanned"]["folders"].as_array().unwrap() {
        let path = f["path"].as_str().unwrap().to_string();
        let r = &f["remedy"];
        // A move with clashes asks for a rename first: it is not a command to paste.
        if r["clashes"].as_array().unwrap().is_empty() {
            out.push((path.clone(), "move".into(), r["moveCommand"].as_str().unwrap().to_string()));
        }
        if let Some(l) = r["linkCommand"].as_str().filter(|l| !l.is_empty()) {
            out.push((path, "link".into(), l.to_string()));
        }
    }
    out
}

/// Every folder's skills, by entry name.
fn entries(listed: &Value, folder: &str) -> Vec<String> {
    listed["unscanned"]["folders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == folder)
        .map(|f| f["skills"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().trim_end_matches('/').to_string()))
        .into_iter()
        .flatten()
        .collect()
}

#[test]
fn a_mirror_is_one_skill_reported_once() {
    let t = Tree::new(monorepo);
    let listed = t.json("repo", &["list", "--format", "json"]);
    let folders: Vec<&str> =
        listed["unscanned"]["folders"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    let root = t.root.to_string_lossy();
    // The whole-root mirror and the package's mirror are not folders of their own.
    assert!(!folders.iter().any(|f| f.ends_with("repo/.claude/skills")), "{folders:?}");
    assert!(!folders.iter().any(|f| f.ends_with("packages/web/.claude/skills")), "{folders:?}");
    assert!(folders.contains(&format!("{root}/repo/packages/web/.agents/skills").as_str()), "{folders:?}");
    let lint = t.json("repo", &["lint", "--format", "json"]);
    assert_no_repeats(&lint, "monorepo");
}

#[test]
fn every_command_works_alone_and_all_together() {
    for (name, build) in TREES {
        let t0 = Tree::new(*build);
        let listed = t0.json("repo", &["list", "--format", "json"]);
        let cmds = commands(&listed);
        assert!(cmds.len() >= 4, "{name}: {cmds:#?}");
        let before = t0.catalog_names("repo");
        // One at a time, each in a fresh tree.
        for (folder, label, cmd) in &cmds {
            let t = Tree::new(*build);
            t.sh(&t0.root, cmd);
            let what = format!("{name}: {label} of {folder}: `{cmd}`");
            let names = t.catalog_names("repo");
            for e in entries(&listed, folder) {
                assert!(names.contains(&e), "{what}: {e} not in {names:?}");
            }
            assert!(names.is_superset(&before), "{what}: lost {before:?} -> {names:?}");
            let lint = t.json("repo", &["lint", "--format", "json"]);
            assert_no_repeats(&lint, &what);
            let folder_now = folder.replace(&*t0.root.to_string_lossy(), &t.root.to_string_lossy());
            assert!(
                !findings(&lint)
                    .iter()
                    .any(|f| f["rule"] == "unscanned-skill-folder" && f["path"] == folder_now.as_str()),
                "{what}: the folder's finding stays: {lint:#}"
            );
            assert_eq!(lint["summary"]["errors"], 0, "{what}: {lint:#}");
        }
        // All together: every folder's link, then (in another tree) every folder's move.
        for label in ["link", "move"] {
            let t = Tree::new(*build);
            let mut all = BTreeSet::new();
            for (folder, l, cmd) in cmds.iter().filter(|(_, l, _)| l == label) {
                t.sh(&t0.root, cmd);
                all.extend(entries(&listed, folder));
                let _ = l;
            }
            let what = format!("{name}: every {label}");
            let names = t.catalog_names("repo");
            for e in &all {
                assert!(names.contains(e), "{what}: {e} not in {names:?}");
            }
            // No stray link inside a linked folder (`skills/skills`).
            let agents = t.root.join("repo/.agents/skills");
            for e in fs::read_dir(&agents).unwrap().flatten() {
                assert!(
                    fs::metadata(e.path().join("SKILL.md")).is_ok(),
                    "{what}: {} in .agents/skills is not a skill",
                    e.path().display()
                );
            }
            let lint = t.json("repo", &["lint", "--format", "json"]);
            assert_no_repeats(&lint, &what);
            assert_eq!(lint["summary"]["errors"], 0, "{what}: {lint:#}");
        }
    }
}

#[test]
fn fixes_for_one_root_are_planned_together_and_clashes_named() {
    let t = Tree::new(monorepo);
    let listed = t.json("repo", &["list", "--format", "json"]);
    let folders = listed["unscanned"]["folders"].as_array().unwrap();
    let going: Vec<&Value> = folders
        .iter()
        .filter(|f| f["remedy"]["targetRoot"].as_str().unwrap().ends_with("repo/.agents/skills"))
        .collect();
    assert!(going.len() >= 3, "{listed:#}");
    for f in &going {
        assert_eq!(f["remedy"]["plannedWith"], going.len() - 1, "{f:#}");
        // No folder's link claims the root itself.
        for l in f["remedy"]["links"].as_array().unwrap() {
            assert!(!l[0].as_str().unwrap().ends_with(".agents/skills"), "{f:#}");
        }
    }
    // `web` is brought by the package's folder and by `.codex/skills`: the second names the
    // first, and its move asks for a rename first.
    let clashing: Vec<&&Value> = going.iter().filter(|f| f["remedy"]["clashesWith"].is_array()).collect();
    assert_eq!(clashing.len(), 1, "{listed:#}");
    let with = &clashing[0]["remedy"]["clashesWith"];
    assert_eq!(with[0][0], "web", "{with:#}");
    let other = with[0][1].as_str().unwrap();
    assert!(other.ends_with("packages/web/.agents/skills") || other.ends_with("repo/.codex/skills"), "{with:#}");
    assert_eq!(clashing[0]["remedy"]["clashes"][0], "web");
    let (_, human) = t.run("repo", &["list"]);
    assert!(human.contains("(the fix of `"), "{human}");
}

#[test]
fn a_relative_link_is_made_again_not_moved() {
    let t = Tree::new(monorepo);
    let listed = t.json("repo", &["list", "--format", "json"]);
    let codex = listed["unscanned"]["folders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with("repo/.codex/skills"))
        .unwrap()
        .clone();
    let mv = codex["remedy"]["moveCommand"].as_str().unwrap();
    assert!(mv.contains("ln -s ../../../shared/lint ") && mv.contains("&& rm "), "{mv}");
    // lint's action for a folder with relative links is to link (a `mv` would break them).
    let lint = t.json("repo", &["lint", "--format", "json"]);
    let f = findings(&lint)
        .into_iter()
        .find(|f| f["rule"] == "unscanned-skill-folder" && f["path"] == codex["path"])
        .unwrap();
    assert_ne!(f["action"]["kind"], "move", "{f:#}");
}

/// Markdown that is not a skill in a root: a warning with the harness's consequence, a move
/// out of the root that works, and an acknowledgement in the configuration that is checked.
#[test]
fn markdown_that_is_not_a_skill() {
    fn tree(root: &Path) {
        skill(root, "repo/.agents/skills/deploy/SKILL.md", "deploy");
        fs::write(root.join("repo/.agents/skills/README.md"), "# Our skills\n\nOne folder per skill.\n").unwrap();
        fs::write(root.join("repo/.agents/skills/notes.md"), "todo: write this skill\n").unwrap();
    }
    let t = Tree::new(tree);
    let lint = t.json("repo", &["lint", "--format", "json"]);
    let readme = findings(&lint).into_iter().find(|f| f["path"].as_str().unwrap().ends_with("README.md")).unwrap();
    assert_eq!(readme["rule"], "not-a-skill", "{lint:#}");
    assert_eq!(readme["severity"], "warning");
    assert!(
        findings(&lint).iter().filter(|f| f["path"].as_str().unwrap().ends_with("README.md")).count() == 1,
        "{lint:#}"
    );
    assert!(!readme["help"].to_string().contains("name:"), "{readme:#}");
    // A file with a skill's name and no frontmatter stays an error, with the way out named too.
    let notes = findings(&lint).into_iter().find(|f| f["path"].as_str().unwrap().ends_with("notes.md")).unwrap();
    assert_eq!(notes["rule"], "frontmatter-missing");
    assert!(notes["help"].to_string().contains("move it out of the root"), "{notes:#}");
    // The move, applied.
    let [from, to] = [&readme["action"]["moves"][0][0], &readme["action"]["moves"][0][1]].map(|v| v.as_str().unwrap());
    assert!(to.ends_with("repo/.agents/README.md"), "{to}");
    fs::rename(from, to).unwrap();
    let after = t.json("repo", &["lint", "--format", "json"]);
    assert!(!findings(&after).iter().any(|f| f["path"].as_str().unwrap().contains("README")), "{after:#}");
    assert_eq!(t.catalog_names("repo"), BTreeSet::from(["deploy".to_string()]));
    fs::rename(to, from).unwrap();
    // Acknowledged in the configuration: nothing about it; a stale entry is reported.
    fs::write(
        t.root.join("repo/.dsh-skills-lint.yaml"),
        "not-skills: [.agents/skills/README.md, .agents/skills/GONE.md]\n",
    )
    .unwrap();
    let out = support::command(&t.root.join("repo"), &t.root.join("home"))
        .args(["lint", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!findings(&v).iter().any(|f| f["path"].as_str().unwrap().ends_with("README.md")), "{v:#}");
    let unused: Vec<Value> = findings(&v).into_iter().filter(|f| f["rule"] == "config-unmatched").collect();
    assert_eq!(unused.len(), 1, "{v:#}");
    assert!(unused[0]["message"].as_str().unwrap().contains("GONE.md"));
    // Globs are refused, with what to write instead.
    fs::write(t.root.join("repo/.dsh-skills-lint.yaml"), "not-skills: ['.agents/skills/*.md']\n").unwrap();
    let out = support::command(&t.root.join("repo"), &t.root.join("home")).args(["lint"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a glob"));
}

/// `explain` of a misspelt name leads with the close names and never suggests renaming the
/// real skill to the typo.
#[test]
fn explain_of_a_misspelt_name() {
    fn tree(root: &Path) {
        skill(root, "repo/.agents/skills/deploy/SKILL.md", "deploy");
    }
    let t = Tree::new(tree);
    let (code, out) = t.run("repo", &["explain", "deplo"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("name: deplo"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let missing = lines.iter().position(|l| l.contains("has a skill named")).unwrap();
    assert!(lines[missing + 1].contains("Did you mean deploy?"), "{out}");
    let v = t.json("repo", &["explain", "deplo", "--format", "json"]);
    assert_eq!(v["closeNames"][0], "deploy", "{v:#}");
    assert!(!v["nearMisses"].to_string().contains("name: deplo"), "{v:#}");
}

/// `--fix` repeats until nothing fixable is left: a YAML fix that lets the key rules read the
/// frontmatter is followed by the key fix in the same run.
#[test]
fn fix_reaches_its_fixed_point_in_one_run() {
    fn tree(root: &Path) {
        let p = root.join("repo/.agents/skills/a/SKILL.md");
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, "---\nname: a\ndescription: Deploy: the app\nwhen_to_use: when deploying\n---\nbody\n").unwrap();
    }
    let t = Tree::new(tree);
    let (code, out) = t.run("repo", &["lint", "--fix"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 file fixed in 2 passes"), "{out}");
    let text = fs::read_to_string(t.root.join("repo/.agents/skills/a/SKILL.md")).unwrap();
    assert_eq!(text, "---\nname: a\ndescription: \"Deploy: the app\"\nwhenToUse: when deploying\n---\nbody\n");
    let v = t.json("repo", &["lint", "--format", "json"]);
    assert_eq!(v["summary"]["fixable"], 0, "{v:#}");
    assert!(findings(&v).is_empty(), "{v:#}");
}
