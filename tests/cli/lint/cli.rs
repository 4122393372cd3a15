//! Exit statuses, `--explain`, the configuration file, suppressions, `--compat`.

use crate::support::{self, findings, json, materialize};
use serde_json::Value;
use std::fs;
use std::path::Path;

fn fixture(rule: &str, kind: &str) -> support::Fixture {
    let dir = support::manifest().join("fixtures/lint/rules").join(rule).join(kind);
    let case: Value =
        fs::read_to_string(dir.join("case.json")).map(|s| serde_json::from_str(&s).unwrap()).unwrap_or(Value::Null);
    materialize(&dir.join("tree"), &case["setup"])
}

fn code(base: &Path, args: &[&str]) -> Option<i32> {
    support::run(base, &base.join("no-home"), args).status.code()
}

#[test]
fn exit_statuses() {
    let clean = fixture("name-mismatch", "clean");
    assert_eq!(code(&clean.base, &["lint", "--root", "tree", "tree"]), Some(0));
    assert_eq!(code(&clean.base, &["lint", "--deny", "warnings", "--root", "tree", "tree"]), Some(0));

    let warn = fixture("name-mismatch", "fires");
    assert_eq!(code(&warn.base, &["lint", "--root", "tree", "tree"]), Some(0), "warnings do not fail by default");
    assert_eq!(code(&warn.base, &["lint", "--deny", "warnings", "--root", "tree", "tree"]), Some(1));
    assert_eq!(code(&warn.base, &["lint", "--fail-on", "warning", "--root", "tree", "tree"]), Some(1));
    assert_eq!(code(&warn.base, &["lint", "--fail-on", "info", "--root", "tree", "tree"]), Some(1));
    assert_eq!(code(&warn.base, &["lint", "--fail-on", "error", "--root", "tree", "tree"]), Some(0));

    let err = fixture("frontmatter-missing", "fires");
    assert_eq!(code(&err.base, &["lint", "--root", "tree", "tree"]), Some(1));
    assert_eq!(code(&err.base, &["lint", "--format", "sarif", "--root", "tree", "tree"]), Some(1));

    // Usage errors.
    assert_eq!(code(&err.base, &["lint", "does-not-exist"]), Some(2));
    fs::create_dir(err.base.join("empty")).unwrap();
    let out = support::run(&err.base, &err.base.join("no-home"), &["lint", "empty"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to lint in `empty`"));
    fs::write(err.base.join("notes.txt"), "hello").unwrap();
    assert_eq!(code(&err.base, &["lint", "notes.txt"]), Some(2));
    assert_eq!(code(&err.base, &["lint", "--fail-on", "bogus", "--root", "tree", "tree"]), Some(2));
    assert_eq!(code(&err.base, &["lint", "--diff", "--format", "sarif", "--root", "tree", "tree"]), Some(2));
}

#[test]
fn explain() {
    let fx = fixture("name-mismatch", "clean");
    let out = support::run(&fx.base, &fx.base, &["lint", "--explain", "yaml-syntax"]);
    assert_eq!(out.status.code(), Some(0));
    let text = support::stdout(&out);
    assert!(text.starts_with("yaml-syntax (error; fixable)") && text.contains("Fix: "), "{text}");
    let out = support::run(&fx.base, &fx.base, &["lint", "--explain", "yaml-sintax"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `yaml-syntax`"));
    let out = support::run(&fx.base, &fx.base, &["lint", "--explain", "all"]);
    assert_eq!(support::stdout(&out).lines().count(), dsh_skills::lint::rules::all().len());
    let out = support::run(&fx.base, &fx.base, &["lint", "--format", "json", "--explain", "utf8-bom"]);
    let v = json(&out);
    assert_eq!(v["enabledByDefault"], false);
    assert_eq!(v["compat"], serde_json::json!(["agentskills", "codex"]));
}

#[test]
fn configuration_file() {
    let fx = fixture("name-mismatch", "fires");
    let sub = fx.base.join("sub");
    fs::create_dir(&sub).unwrap();
    // Found by walking up from the cwd.
    fs::write(fx.base.join(".dsh-skills-lint.yaml"), "rules:\n  name-mismatch: error\n").unwrap();
    let out = support::run(&sub, &fx.base, &["lint", "--format", "json", "--root", "../tree", "../tree"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(findings(&json(&out)).iter().any(|(r, s, _)| r == "name-mismatch" && s == "error"));
    fs::write(fx.base.join(".dsh-skills-lint.yaml"), "rules:\n  name-mismatch: off\n").unwrap();
    let out = support::run(&sub, &fx.base, &["lint", "--format", "json", "--root", "../tree", "../tree"]);
    assert!(findings(&json(&out)).is_empty());
    // fail-on from the file; the command line wins.
    fs::write(fx.base.join(".dsh-skills-lint.yaml"), "fail-on: warning\n").unwrap();
    assert_eq!(code(&sub, &["lint", "--root", "../tree", "../tree"]), Some(1));
    assert_eq!(code(&sub, &["lint", "--fail-on", "error", "--root", "../tree", "../tree"]), Some(0));
    // An invalid file is a usage error that names the problem.
    fs::write(fx.base.join(".dsh-skills-lint.yaml"), "rules:\n  name-mismatc: off\n").unwrap();
    let out = support::run(&sub, &fx.base, &["lint", "--root", "../tree", "../tree"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `name-mismatch`"));
    // --config names a file explicitly.
    fs::write(fx.base.join("strict.yaml"), "rules:\n  name-mismatch: error\n").unwrap();
    assert_eq!(code(&sub, &["lint", "--config", "../strict.yaml", "--root", "../tree", "../tree"]), Some(1));
}

#[test]
fn suppressions_live_in_the_frontmatter() {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    let skill = fx.tree.join("a");
    fs::create_dir_all(&skill).unwrap();
    fs::write(
        skill.join("SKILL.md"),
        "---\nname: b\n# dsh-skills-lint: disable-next-line unknown-key\nx-custom: 1\ny-custom: 2\ndescription: d\n---\n\n# dsh-skills-lint: disable y-custom\nBody.\n",
    )
    .unwrap();
    let out = support::run(&fx.base, &fx.base, &["lint", "--format", "json", "--root", "tree", "tree"]);
    let got: Vec<String> = findings(&json(&out)).into_iter().map(|(r, ..)| r).collect();
    // x-custom is suppressed, y-custom is not; the comment in the body is not a suppression.
    assert_eq!(got.iter().filter(|r| *r == "unknown-key").count(), 1, "{got:?}");
    assert!(got.contains(&"name-mismatch".to_string()), "{got:?}");
    assert!(!got.contains(&"invalid-suppression".to_string()), "{got:?}");
}

#[test]
fn portability_rules_are_off_without_compat() {
    let fx = fixture("utf8-bom", "fires");
    let out = support::run(&fx.base, &fx.base, &["lint", "--format", "json", "--root", "tree", "tree"]);
    assert!(findings(&json(&out)).is_empty(), "{}", support::stdout(&out));
    let out = support::run(
        &fx.base,
        &fx.base,
        &["lint", "--format", "json", "--compat", "claude-code", "--root", "tree", "tree"],
    );
    assert!(findings(&json(&out)).is_empty(), "claude-code does not care about a BOM");
    let out =
        support::run(&fx.base, &fx.base, &["lint", "--format", "json", "--compat", "codex", "--root", "tree", "tree"]);
    assert_eq!(findings(&json(&out)).len(), 1);
}

#[test]
fn no_arguments_lint_every_root_for_the_cwd() {
    let fx = fixture("shadowed-skill", "fires");
    // The home directory is the fixture's, so the defaults find tree/home/.dsh/skills.
    let out = support::run(&fx.base.join("tree/proj"), &fx.base.join("tree/home"), &["lint", "--format", "json"]);
    let got = findings(&json(&out));
    assert!(got.iter().any(|(r, _, p)| r == "shadowed-skill" && p.ends_with("home/.dsh/skills/a/SKILL.md")), "{got:?}");
    assert_eq!(json(&out)["summary"]["files"], 2);
}

/// A portability rule is off without its `--compat` target, and on with it or when the
/// configuration file sets its level (its findings are then made; without either they are not).
#[test]
fn a_portability_rule_is_on_with_its_target_or_its_configured_level() {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    let skill = fx.tree.join("a");
    fs::create_dir_all(&skill).unwrap();
    fs::write(skill.join("SKILL.md"), "---\nname: a\ndescription: A skill.\nwhenToUse: Always.\n---\n\nBody.\n")
        .unwrap();
    let rules_of = |args: &[&str]| -> Vec<String> {
        let out = support::run(&fx.base, &fx.base, args);
        findings(&json(&out)).into_iter().map(|(r, _, _)| r).collect()
    };
    assert!(
        !rules_of(&["lint", "--format", "json", "--root", "tree", "tree"]).contains(&"non-portable-key".to_string())
    );
    let with_target = rules_of(&["lint", "--format", "json", "--compat", "agentskills", "--root", "tree", "tree"]);
    assert_eq!(with_target.iter().filter(|r| *r == "non-portable-key").count(), 1, "{with_target:?}");
    fs::write(fx.base.join(".dsh-skills-lint.yaml"), "rules:\n  non-portable-key: warning\n").unwrap();
    let configured = rules_of(&["lint", "--format", "json", "--root", "tree", "tree"]);
    assert_eq!(configured.iter().filter(|r| *r == "non-portable-key").count(), 1, "{configured:?}");
}

/// `symlink-escapes-bundle` in a repository: a link into a shared folder of the same
/// repository is fine; one that leaves the repository, or dangles, is reported.
#[cfg(unix)]
#[test]
fn links_within_the_repository_are_fine_and_links_out_of_it_are_not() {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    let repo = fx.tree.join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    fs::create_dir_all(repo.join("commands")).unwrap();
    fs::write(repo.join("commands/review.md"), "Review the change.\n").unwrap();
    fs::write(fx.base.join("outside.md"), "Not in the repository.\n").unwrap();
    let skill = repo.join("skills/review");
    fs::create_dir_all(&skill).unwrap();
    fs::write(skill.join("SKILL.md"), "---\nname: review\ndescription: Reviews changes.\n---\nSee review.md.\n")
        .unwrap();
    std::os::unix::fs::symlink("../../commands/review.md", skill.join("review.md")).unwrap();
    let lint = || {
        let out =
            support::run(&fx.base, &fx.base.join("no-home"), &["lint", "--format", "json", "tree/repo/skills/review"]);
        findings(&json(&out)).into_iter().filter(|(r, ..)| r == "symlink-escapes-bundle").collect::<Vec<_>>()
    };
    assert_eq!(lint(), Vec::new(), "a link into the same repository is fine");
    std::os::unix::fs::symlink(fx.base.join("outside.md"), skill.join("outside.md")).unwrap();
    std::os::unix::fs::symlink("missing.md", skill.join("gone.md")).unwrap();
    let got = lint();
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        got.iter().any(|(_, _, p)| p.ends_with("/outside.md")) && got.iter().any(|(_, _, p)| p.ends_with("/gone.md"))
    );
}
