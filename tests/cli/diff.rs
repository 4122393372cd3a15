//! `dsh-skills diff`: two states of a git repository made in the test (commits, the index, the
//! working tree), compared with `catalog` run at each commit checked out; every kind of change
//! pinned; nothing written.

use crate::support;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(["-c", "init.defaultBranch=main", "-c", "core.symlinks=true"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn skill(name: &str, description: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n{body}\n")
}

fn commit(dir: &Path, message: &str) -> String {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

struct Repo {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    home: PathBuf,
}

fn repo() -> Repo {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    git(&dir, &["init", "-q"]);
    Repo { _tmp: tmp, dir, home }
}

fn diff(r: &Repo, args: &[&str]) -> (Value, i32) {
    let mut all = vec!["diff"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let out = support::run(&r.dir, &r.home, &all);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{all:?}: {}", String::from_utf8_lossy(&out.stderr));
    (support::json(&out), out.status.code().unwrap())
}

/// `catalog --format json` here: the text and its exact token count.
fn catalog(r: &Repo) -> (Option<String>, Value) {
    let out = support::run(&r.dir, &r.home, &["catalog", "--format", "json"]);
    let v = support::json(&out);
    (v["text"].as_str().map(str::to_string), v["stats"]["tokens"].clone())
}

/// Every file under `dir` with its size and modification time (the `.git` folder included).
fn snapshot_of(dir: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        let m = std::fs::symlink_metadata(e.path()).unwrap();
        out.push((e.path().to_path_buf(), m.len(), m.modified().unwrap()));
    }
    out
}

/// A history of five commits that touches what discovery sees in many ways: a bundle, a flat
/// file, links inside the repository (a root entry linking to a folder outside the root, a
/// root that is itself a link), a same-named copy in a higher-ranked root, a file that stops
/// loading, a long description.
fn history(r: &Repo) -> Vec<String> {
    let d = &r.dir;
    let mut commits = Vec::new();
    write(d, ".agents/skills/alpha/SKILL.md", &skill("alpha", "Alpha does things.", "Alpha body."));
    write(d, ".agents/skills/flat.md", &skill("flat", "A flat skill.", "Flat body."));
    write(d, "skills/gamma/SKILL.md", &skill("gamma", "Gamma, linked into the root.", "Gamma body."));
    std::os::unix::fs::symlink("../../skills/gamma", d.join(".agents/skills/gamma")).unwrap();
    write(d, "README.md", "not a skill\n");
    commits.push(commit(d, "one"));
    write(d, ".agents/skills/alpha/SKILL.md", &skill("alpha", &"long words ".repeat(60), "Alpha body, longer."));
    write(d, ".agents/skills/beta/SKILL.md", &skill("beta", "Beta.", "Beta body."));
    commits.push(commit(d, "two"));
    write(d, ".dsh/skills/beta/SKILL.md", &skill("beta", "The project's own beta.", "Shadowing body."));
    write(d, "skills/gamma/SKILL.md", &skill("gamma", "Gamma, changed through the link.", "Gamma body 2."));
    commits.push(commit(d, "three"));
    write(d, ".agents/skills/flat.md", "---\nname: flat\ndescription: [unclosed\n---\n");
    write(
        d,
        ".agents/skills/alpha/SKILL.md",
        "---\nname: alpha\ndescription: Alpha again.\ndisable-model-invocation: true\n---\nAlpha body.\n",
    );
    commits.push(commit(d, "four"));
    // The whole project root becomes a link to a folder of the repository.
    std::fs::rename(d.join(".agents/skills"), d.join("shared-skills")).unwrap();
    std::os::unix::fs::symlink("../shared-skills", d.join(".agents/skills")).unwrap();
    commits.push(commit(d, "five"));
    commits
}

#[test]
fn catalog_sides_match_catalog_at_each_commit_checked_out() {
    let r = repo();
    let commits = history(&r);
    // The working tree differs from every commit while the diffs run.
    write(&r.dir, ".agents/skills/extra/SKILL.md", &skill("extra", "Only in the working tree.", "x"));
    let mut expected = Vec::new();
    let pairs: Vec<(usize, usize)> = (1..commits.len()).map(|i| (i - 1, i)).chain([(0, 4), (4, 0)]).collect();
    let mut answers = Vec::new();
    for &(a, b) in &pairs {
        let (v, code) = diff(&r, &[&commits[a], &commits[b]]);
        assert_eq!(code, 0);
        answers.push(v);
    }
    std::fs::remove_dir_all(r.dir.join(".agents/skills/extra")).unwrap();
    for c in &commits {
        git(&r.dir, &["checkout", "-q", c]);
        expected.push(catalog(&r));
    }
    for (&(a, b), v) in pairs.iter().zip(&answers) {
        let side = |k: &str| v[k].as_str().map(str::to_string);
        assert_eq!(side("baseCatalog"), expected[a].0, "base of {a} → {b}");
        assert_eq!(side("headCatalog"), expected[b].0, "head of {a} → {b}");
        assert!(expected[a].0.is_some() && expected[b].0.is_some());
        // The exact token counts are `catalog`'s at each commit.
        assert_eq!(v["size"]["base"]["tokens"], expected[a].1, "base tokens of {a} → {b}");
        assert_eq!(v["size"]["head"]["tokens"], expected[b].1, "head tokens of {a} → {b}");
        let delta = expected[b].1.as_i64().unwrap() - expected[a].1.as_i64().unwrap();
        assert_eq!(v["size"]["deltaTokens"], delta, "{a} → {b}");
    }
    // The commits do differ, so the comparison above compared something.
    assert_ne!(expected[0], expected[1]);
    assert_ne!(expected[3], expected[4]);
}

#[test]
fn each_kind_of_change_is_reported() {
    let r = repo();
    let c = history(&r);
    // two: alpha's description is cut.
    let (v, _) = diff(&r, &[&c[0], &c[1]]);
    assert_eq!(v["cut"][0]["name"], "alpha", "{v:#}");
    assert!(v["cut"][0]["lost"].as_str().unwrap().ends_with("long words"), "{v:#}");
    assert_eq!(v["added"][0]["name"], "beta");
    assert!(v["catalogDiff"].as_str().unwrap().contains("+- `beta`: Beta."));
    assert!(v["size"]["deltaBytes"].as_i64().unwrap() > 0);
    assert!(v["size"]["deltaTokens"].as_i64().unwrap() > 0, "{v:#}");
    // three: beta shadowed by a higher-ranked copy; gamma's content changes through its link.
    let (v, _) = diff(&r, &[&c[1], &c[2]]);
    assert_eq!(v["shadowed"][0]["name"], "beta", "{v:#}");
    assert!(v["shadowed"][0]["path"].as_str().unwrap().ends_with(".agents/skills/beta/SKILL.md"));
    assert!(v["shadowed"][0]["by"].as_str().unwrap().ends_with(".dsh/skills/beta/SKILL.md"));
    let changed: Vec<&str> = v["content"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(changed, ["beta", "gamma"], "{v:#}");
    // four: alpha hidden, flat fails to load (and lint says so).
    let (v, code) = diff(&r, &[&c[2], &c[3], "--fail-on", "hidden,unloadable"]);
    assert_eq!(code, 1);
    assert_eq!(v["hidden"][0]["name"], "alpha", "{v:#}");
    assert!(v["unloadable"][0]["path"].as_str().unwrap().ends_with(".agents/skills/flat.md"), "{v:#}");
    assert!(v["unloadable"][0]["warning"].as_str().unwrap().contains("invalid YAML frontmatter"));
    assert!(
        v["lint"]["new"].as_array().unwrap().iter().any(|l| l["rule"] == "yaml-syntax" && l["severity"] == "error")
    );
    let (_, code) = diff(&r, &[&c[2], &c[3], "--fail-on", "new-errors"]);
    assert_eq!(code, 1);
    let (_, code) = diff(&r, &[&c[2], &c[3], "--fail-on", "cut,shadowed"]);
    assert_eq!(code, 0);
    // Backwards: the errors are fixed.
    let (v, _) = diff(&r, &[&c[3], &c[2]]);
    assert!(v["lint"]["fixed"].as_array().unwrap().iter().any(|l| l["rule"] == "yaml-syntax"), "{v:#}");
    assert!(!v["lint"]["new"].as_array().unwrap().iter().any(|l| l["severity"] == "error"), "{v:#}");
    // A skill moved out of every root is unscanned.
    write(&r.dir, "elsewhere/delta/SKILL.md", &skill("delta", "Moved.", "d"));
    let (v, code) = diff(&r, &[&c[4], "--fail-on", "unscanned"]);
    assert_eq!(code, 1);
    assert_eq!(v["unscanned"], serde_json::json!(["elsewhere/delta/SKILL.md"]), "{v:#}");
}

#[test]
fn defaults_staged_and_the_working_tree() {
    let r = repo();
    let d = &r.dir;
    write(d, ".agents/skills/a/SKILL.md", &skill("a", "A.", "a"));
    commit(d, "base");
    git(d, &["checkout", "-q", "-b", "feature"]);
    write(d, ".agents/skills/b/SKILL.md", &skill("b", "B.", "b"));
    commit(d, "feature");
    write(d, ".agents/skills/c/SKILL.md", &skill("c", "C, staged.", "c"));
    git(d, &["add", "-A"]);
    write(d, ".agents/skills/c/SKILL.md", &skill("c", "C, in the working tree.", "c"));
    // Default: the merge base with main → the working tree.
    let (v, _) = diff(&r, &[]);
    assert!(v["base"].as_str().unwrap().starts_with("merge-base main"), "{v:#}");
    assert_eq!(v["head"], "working tree");
    let added: Vec<&str> = v["added"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(added, ["b", "c"]);
    assert!(v["headCatalog"].as_str().unwrap().contains("C, in the working tree."));
    // --staged: HEAD → the index.
    let (v, _) = diff(&r, &["--staged"]);
    assert_eq!(v["head"], "index");
    assert!(v["headCatalog"].as_str().unwrap().contains("C, staged."), "{v:#}");
    assert_eq!(v["added"][0]["name"], "c");
    // Nothing changed between a commit and itself.
    let out = support::run(d, &r.home, &["diff", "HEAD", "HEAD"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(support::stdout(&out).contains("nothing the model sees changed"));
    // An unknown revision is a usage error that says what to do.
    let out = support::run(d, &r.home, &["diff", "no-such-branch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("names no commit"));
}

#[test]
fn nothing_is_written_anywhere() {
    let r = repo();
    let c = history(&r);
    write(&r.dir, ".agents/skills/wip/SKILL.md", &skill("wip", "Work in progress.", "w"));
    git(&r.dir, &["add", "-A"]);
    let before = snapshot_of(&r.dir);
    let home_before = snapshot_of(&r.home);
    let tmp = tempfile::tempdir().unwrap();
    for args in [vec![c[0].as_str(), c[4].as_str()], vec![c[1].as_str()], vec!["--staged"]] {
        let mut all = vec!["diff"];
        all.extend(args);
        for format in ["human", "json", "markdown", "github"] {
            let mut a = all.clone();
            a.extend(["--format", format]);
            let out = support::command(&r.dir, &r.home).args(&a).env("TMPDIR", tmp.path()).output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{a:?}: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
    assert_eq!(snapshot_of(&r.dir), before, "the repository (work tree, index, objects) changed");
    assert_eq!(snapshot_of(&r.home), home_before);
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0, "a temporary file was left");
}

#[test]
fn markdown_and_annotations() {
    let r = repo();
    let c = history(&r);
    let out = support::run(&r.dir, &r.home, &["diff", &c[2], &c[3], "--format", "markdown"]);
    let md = support::stdout(&out);
    assert!(md.starts_with("<!-- dsh-skills diff -->\n"), "{md}");
    assert!(md.contains("🙈 **hidden** `alpha`"), "{md}");
    assert!(md.contains("```diff\n--- catalog @ "), "{md}");
    let tokens = md.lines().find(|l| l.starts_with("| tokens (DeepSeek-V4) |")).expect(&md);
    // The same exact counts as the JSON.
    let (json, _) = diff(&r, &[&c[2], &c[3]]);
    let s = &json["size"];
    let delta = s["deltaTokens"].as_i64().unwrap();
    let delta = if delta > 0 { format!("+{delta}") } else { delta.to_string() };
    assert_eq!(
        tokens,
        format!("| tokens (DeepSeek-V4) | {} | {} | {delta} |", s["base"]["tokens"], s["head"]["tokens"])
    );
    let out = support::run(&r.dir, &r.home, &["diff", &c[2], &c[3], "--format", "github"]);
    let gh = support::stdout(&out);
    assert!(gh.contains("::warning file=.agents/skills/alpha/SKILL.md,title=dsh-skills diff%3A hidden::"), "{gh}");
    assert!(gh.contains("::error file=.agents/skills/flat.md,title=dsh-skills diff%3A fails to load::"), "{gh}");
}

/// `(rule, path)` of `lint.new` or `lint.fixed`.
fn lint_items(v: &Value, which: &str) -> Vec<(String, String)> {
    v["lint"][which]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["rule"].as_str().unwrap().to_string(), l["path"].as_str().unwrap().to_string()))
        .collect()
}

#[cfg(unix)]
#[test]
fn entry_level_lint_findings_are_compared_at_each_state() {
    let r = repo();
    let d = &r.dir;
    write(d, ".agents/skills/a/SKILL.md", &skill("a", "A.", "a"));
    let base = commit(d, "base");
    // A higher-ranked copy shadows `a`; `b`'s SKILL.md is a link to nothing.
    write(d, ".dsh/skills/a/SKILL.md", &skill("a", "A, the project's copy.", "a"));
    std::fs::create_dir_all(d.join(".agents/skills/b")).unwrap();
    std::os::unix::fs::symlink("missing.md", d.join(".agents/skills/b/SKILL.md")).unwrap();
    let head = commit(d, "shadow and a dangling link");
    // The working tree has neither any more: the commits' answers must not come from it.
    std::fs::remove_dir_all(d.join(".dsh")).unwrap();
    std::fs::remove_dir_all(d.join(".agents/skills/b")).unwrap();
    let (v, _) = diff(&r, &[&base, &head]);
    let new = lint_items(&v, "new");
    assert!(new.iter().any(|(rule, p)| rule == "shadowed-skill" && p.ends_with(".agents/skills/a/SKILL.md")), "{v:#}");
    assert!(
        new.iter().any(|(rule, p)| rule == "dangling-symlink" && p.ends_with(".agents/skills/b/SKILL.md")),
        "{v:#}"
    );
    // From the head commit to the working tree, both are fixed.
    let (v, _) = diff(&r, &[&head]);
    let fixed = lint_items(&v, "fixed");
    assert!(fixed.iter().any(|(rule, _)| rule == "shadowed-skill"), "{v:#}");
    assert!(fixed.iter().any(|(rule, _)| rule == "dangling-symlink"), "{v:#}");
    assert!(lint_items(&v, "new").is_empty(), "{v:#}");
}

/// A file that is the same at both states is checked by lint once for both (its findings are
/// then on both sides: neither new nor fixed); the same bytes in another place are another file,
/// checked there, and a changed file is checked at each state.
#[test]
fn lint_findings_of_unchanged_moved_and_changed_files() {
    let r = repo();
    let d = &r.dir;
    // `steady`'s name is not its folder's: a finding at every state. It is alone in its root,
    // so a check that took a result by the bytes alone would hand it to the copy below.
    let steady = skill("other-name", "Steady.", "s");
    write(d, ".agents/skills/steady/SKILL.md", &steady);
    write(d, ".dsh/skills/a/SKILL.md", &skill("a", "A.", "a"));
    let base = commit(d, "base");
    // The same bytes in a second folder of the same root, and `a` renamed inside its file.
    write(d, ".agents/skills/steady-copy/SKILL.md", &steady);
    write(d, ".dsh/skills/a/SKILL.md", &skill("b", "A.", "a"));
    let head = commit(d, "copy and rename");
    let mismatch = |items: &[(String, String)], dir: &str| {
        items.iter().any(|(rule, p)| rule == "name-mismatch" && p.ends_with(&format!("/{dir}/SKILL.md")))
    };
    let (v, _) = diff(&r, &[&base, &head]);
    let (new, fixed) = (lint_items(&v, "new"), lint_items(&v, "fixed"));
    assert!(!mismatch(&new, "steady") && !mismatch(&fixed, "steady"), "{v:#}");
    assert!(mismatch(&new, "steady-copy"), "{v:#}");
    assert!(mismatch(&new, "a") && !mismatch(&fixed, "a"), "{v:#}");
    // Backwards, the same findings are fixed.
    let (v, _) = diff(&r, &[&head, &base]);
    let (new, fixed) = (lint_items(&v, "new"), lint_items(&v, "fixed"));
    assert!(!mismatch(&new, "steady") && !mismatch(&fixed, "steady"), "{v:#}");
    assert!(mismatch(&fixed, "steady-copy") && mismatch(&fixed, "a") && !mismatch(&new, "a"), "{v:#}");
    // Against the working tree (read from disk, not from git), the unchanged files again.
    let (v, _) = diff(&r, &[&base]);
    assert!(!mismatch(&lint_items(&v, "new"), "steady") && !mismatch(&lint_items(&v, "fixed"), "steady"), "{v:#}");
    assert!(mismatch(&lint_items(&v, "new"), "steady-copy"), "{v:#}");
}

/// Codex's `agents/openai.yaml` is read beside the skill file on disk, so at a commit lint would
/// see the working tree's: its rules are left out of the comparison, as the references are.
/// (Here the base commit has no `openai.yaml`; read from the working tree, its policy would
/// disagree with the base's frontmatter and a mismatch would be "fixed" at the head.)
#[test]
fn codex_rules_are_left_out_of_the_comparison() {
    let r = repo();
    let d = &r.dir;
    write(d, ".agents/skills/a/SKILL.md", &skill("a", "A.", "a"));
    let base = commit(d, "base");
    write(d, ".agents/skills/a/SKILL.md", "---\nname: a\ndescription: A.\ndisable-model-invocation: true\n---\na\n");
    write(d, ".agents/skills/a/agents/openai.yaml", "policy:\n  allow_implicit_invocation: false\n");
    let head = commit(d, "manual only, for Codex too");
    for args in [vec![base.as_str(), head.as_str()], vec![head.as_str(), base.as_str()], vec![base.as_str()]] {
        let (v, _) = diff(&r, &args);
        for which in ["new", "fixed"] {
            let codex: Vec<_> = lint_items(&v, which)
                .into_iter()
                .filter(|(rule, _)| {
                    ["invocation-policy-mismatch", "openai-yaml-invalid", "openai-yaml-ignored-field"]
                        .contains(&rule.as_str())
                })
                .collect();
            assert!(codex.is_empty(), "{args:?} {which}: {codex:?}\n{v:#}");
        }
    }
}

/// `diff --format json` in `dir`, its folder's path written `<repo>` (to compare copies).
fn diff_text(dir: &Path, home: &Path, args: &[&str]) -> String {
    let mut all = vec!["diff"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let out = support::run(dir, home, &all);
    assert_eq!(out.status.code(), Some(0), "{all:?} in {dir:?}: {}", String::from_utf8_lossy(&out.stderr));
    let real = std::fs::canonicalize(dir).unwrap();
    support::stdout(&out).replace(real.to_str().unwrap(), "<repo>")
}

/// gix reads the repository; git's plumbing answers what gix cannot, with the same result: a
/// reftable repository's references (gix reads the files backend only) and a partial clone's
/// missing blobs (which git fetches from the promisor remote on demand).
#[test]
fn git_answers_where_gix_cannot_with_the_same_result() {
    let r = repo();
    let c = history(&r);
    git(&r.dir, &["config", "uploadpack.allowFilter", "true"]);
    write(&r.dir, ".agents/skills/wip/SKILL.md", &skill("wip", "Work in progress.", "w"));
    git(&r.dir, &["add", "-A"]);
    write(&r.dir, ".agents/skills/new/SKILL.md", &skill("new", "Not staged.", "n"));
    let cases: Vec<Vec<&str>> =
        vec![vec![&c[0], &c[4]], vec![&c[1], "HEAD~1"], vec![&c[2]], vec!["--staged"], vec![], vec!["main~3", "main"]];
    let expected: Vec<String> = cases.iter().map(|a| diff_text(&r.dir, &r.home, a)).collect();
    assert!(expected[0].contains("\"added\""), "{}", expected[0]);

    // The same repository with its references in a reftable (git 2.46 and later).
    let copy = r._tmp.path().join("reftable");
    let cp = Command::new("cp").arg("-a").arg(&r.dir).arg(&copy).status().unwrap();
    assert!(cp.success());
    // (git does not migrate reflogs yet: the copy goes without them.)
    std::fs::remove_dir_all(copy.join(".git/logs")).unwrap();
    let migrate = Command::new("git").args(["refs", "migrate", "--ref-format=reftable"]).current_dir(&copy).output();
    if migrate.is_ok_and(|o| o.status.success()) {
        assert_eq!(git(&copy, &["rev-parse", "--show-ref-format"]), "reftable");
        for (args, want) in cases.iter().zip(&expected) {
            assert_eq!(&diff_text(&copy, &r.home, args), want, "reftable: diff {args:?}");
        }
    } else {
        eprintln!("skipped the reftable case: this git cannot migrate references (git 2.46 or later can)");
    }

    // A partial clone without the blobs of the older commits.
    let partial = r._tmp.path().join("partial");
    let url = format!("file://{}", r.dir.display());
    git(r._tmp.path(), &["clone", "-q", "--filter=blob:none", &url, partial.to_str().unwrap()]);
    let missing = git(&partial, &["rev-list", "--objects", "--missing=print", &c[0]]);
    assert!(missing.lines().any(|l| l.starts_with('?')), "the clone has every blob: {missing}");
    for (args, want) in cases.iter().zip(&expected).take(2) {
        assert_eq!(&diff_text(&partial, &r.home, args), want, "partial clone: diff {args:?}");
    }
}

/// A repository owned by another user is git's to refuse (`safe.directory`), as before gix read
/// repositories: the same refusal, not a diff made with a repository gix trusts less.
#[test]
fn a_repository_of_another_user_is_refused_as_git_refuses_it() {
    let r = repo();
    let c = history(&r);
    let chown = Command::new("chown").args(["-R", "nobody"]).arg(&r.dir).status();
    if !chown.is_ok_and(|s| s.success()) {
        eprintln!("skipped: cannot give the repository to another user (not root)");
        return;
    }
    let out = support::run(&r.dir, &r.home, &["diff", &c[0], &c[4]]);
    assert_eq!(out.status.code(), Some(2), "{}", support::stdout(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("dubious ownership") && err.contains("safe.directory"), "{err}");
}
