//! `dsh-skills new NAME`: the skill it writes loads (`list` shows it) and `lint` has nothing to
//! say about it; the name is checked; nothing is overwritten; shadowing is said before writing;
//! nothing but the file is written.

use crate::support;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A project (a `.git` folder) and an empty home.
fn project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let proj = t.path().join("proj");
    let home = t.path().join("home");
    fs::create_dir_all(proj.join(".git")).unwrap();
    fs::create_dir_all(&home).unwrap();
    (t, proj, home)
}

fn run(proj: &Path, home: &Path, args: &[&str]) -> Output {
    support::run(proj, home, args)
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every file below `dir`, relative, sorted (the `.git` marker left out).
fn files(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// `list` shows it as a winner from the expected root; `lint` (no path, default configuration,
/// every portability target too) has no finding at all.
fn loads_and_lints_clean(proj: &Path, home: &Path, name: &str, path: &Path) {
    let list = support::json(&run(proj, home, &["list", "--format", "json"]));
    let skill =
        list["skills"].as_array().unwrap().iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("{list}"));
    assert_eq!(skill["path"].as_str().unwrap(), path.to_str().unwrap());
    for extra in [&[][..], &["--compat", "agentskills", "--compat", "claude-code", "--compat", "codex"][..]] {
        let mut args = vec!["lint", "--format", "json", "--fail-on", "info"];
        args.extend_from_slice(extra);
        let out = run(proj, home, &args);
        let v = support::json(&out);
        assert_eq!(v["findings"], serde_json::json!([]), "{extra:?}: {v}");
        assert_eq!(out.status.code(), Some(0));
    }
}

#[test]
fn the_new_skill_loads_and_lint_has_nothing_to_say() {
    let (_t, proj, home) = project();
    let out = run(&proj, &home, &["new", "pdf-tools"]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    let stdout = support::stdout(&out);
    assert!(stdout.contains("created .agents/skills/pdf-tools/SKILL.md"), "{stdout}");
    assert!(stdout.contains("the harness loads it"), "{stdout}");
    // Only the file was written (and the folders it needs).
    assert_eq!(files(&proj), [".agents/skills/pdf-tools/SKILL.md"]);
    assert!(files(&home).is_empty());
    let file = proj.join(".agents/skills/pdf-tools/SKILL.md");
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("---\nname: pdf-tools\ndescription: Use when "), "{text}");
    loads_and_lints_clean(&proj, &home, "pdf-tools", &file);
    // The description the model sees starts with the trigger.
    let catalog = support::stdout(&run(&proj, &home, &["catalog", "--quiet"]));
    assert!(catalog.contains("`pdf-tools`: Use when "), "{catalog}");
}

#[test]
fn flat_and_user_and_dir_destinations() {
    let (_t, proj, home) = project();
    assert_eq!(run(&proj, &home, &["new", "flat-one", "--flat"]).status.code(), Some(0));
    loads_and_lints_clean(&proj, &home, "flat-one", &proj.join(".agents/skills/flat-one.md"));

    let out = run(&proj, &home, &["new", "mine", "--user"]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    loads_and_lints_clean(&proj, &home, "mine", &home.join(".agents/skills/mine/SKILL.md"));

    // A folder the harness does not scan is refused, with nothing written; the advice (`--root`)
    // works.
    let out = run(&proj, &home, &["new", "coll", "--dir", "skills"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(err(&out).contains("pass `--root skills`"), "{}", err(&out));
    assert!(!proj.join("skills").exists());
    let out = run(&proj, &home, &["--root", "skills", "new", "coll", "--dir", "skills"]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    let lint = run(&proj, &home, &["--root", "skills", "lint", "--format", "json", "--fail-on", "info", "skills"]);
    assert_eq!(support::json(&lint)["findings"], serde_json::json!([]));
    assert_eq!(lint.status.code(), Some(0));
    let list = support::stdout(&run(&proj, &home, &["--root", "skills", "list"]));
    assert!(list.contains("coll"), "{list}");
}

#[test]
fn an_invalid_name_is_refused_and_the_suggested_one_works() {
    let (_t, proj, home) = project();
    let out = run(&proj, &home, &["new", "PDF Tools_2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(err(&out).contains("try `dsh-skills new pdf-tools-2`"), "{}", err(&out));
    assert!(files(&proj).is_empty());
    assert_eq!(run(&proj, &home, &["new", "pdf-tools-2"]).status.code(), Some(0));
    loads_and_lints_clean(&proj, &home, "pdf-tools-2", &proj.join(".agents/skills/pdf-tools-2/SKILL.md"));
}

#[test]
fn nothing_is_overwritten() {
    let (_t, proj, home) = project();
    let dir = proj.join(".agents/skills/taken");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("notes.txt"), "mine").unwrap();
    let out = run(&proj, &home, &["new", "taken"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(err(&out).contains("already exists; not overwritten"), "{}", err(&out));
    assert_eq!(files(&proj), [".agents/skills/taken/notes.txt"]);
    fs::write(proj.join(".agents/skills/flat.md"), "x").unwrap();
    assert_eq!(run(&proj, &home, &["new", "flat", "--flat"]).status.code(), Some(2));
    assert_eq!(fs::read_to_string(proj.join(".agents/skills/flat.md")).unwrap(), "x");
}

#[test]
fn shadowing_is_said_before_writing() {
    let (_t, proj, home) = project();
    assert_eq!(run(&proj, &home, &["new", "dup", "--user"]).status.code(), Some(0));
    // The project copy outranks the user's.
    let out = run(&proj, &home, &["new", "dup"]);
    assert_eq!(out.status.code(), Some(0));
    let e = err(&out);
    let user = home.join(".agents/skills/dup/SKILL.md");
    assert!(e.contains(&format!("note: the new skill would shadow {} (user-agents root)", user.display())), "{e}");
    assert!(support::stdout(&out).contains("the harness loads it"));
    // A user copy of a name the project has is shadowed: said, and `explain` agrees.
    let out = run(&proj, &home, &["new", "proj-only"]);
    assert_eq!(out.status.code(), Some(0));
    let out = run(&proj, &home, &["new", "proj-only", "--user"]);
    let e = err(&out);
    assert!(e.contains("note: the new skill would be shadowed by ") && e.contains("(project-agents root)"), "{e}");
    assert!(support::stdout(&out).contains("the harness loads another copy of `proj-only`"));
}
