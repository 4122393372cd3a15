//! `--fix` and `--diff` in temporary trees.

use crate::support::{self, findings, json, materialize};
use serde_json::Value;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn write(root: &Path, rel: &str, content: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, content).unwrap();
}

fn tree() -> support::Fixture {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    let t = &fx.tree;
    write(
        t,
        "legacy/SKILL.md",
        "---\nname: legacy\ndescription: Old keys.\nuserInvocable: false\ndisableModelInvocation: no\n---\n\nBody.\n",
    );
    write(t, "inverted/SKILL.md", "---\nname: inverted\ndescription: Old key.\nmodelInvocable: false\n---\n\nBody.\n");
    write(
        t,
        "colon/SKILL.md",
        "---\nname: colon\ndescription: Triage bugs: use when a report arrives.\nargument-hint: [issue] number\n---\n\nBody.\n",
    );
    write(t, "when/SKILL.md", "---\nname: when\ndescription: Has a trigger.\nwhen_to_use: When asked.\n---\n\nBody.\n");
    write(t, "bom/SKILL.md", "\u{feff}---\nname: bom\ndescription: Has a BOM.\n---\n\nBody.\n");
    fs::set_permissions(t.join("legacy/SKILL.md"), fs::Permissions::from_mode(0o640)).unwrap();
    fx
}

#[test]
fn diff_shows_and_writes_nothing() {
    let fx = tree();
    let before: Vec<Vec<u8>> = ["legacy", "inverted", "colon", "when", "bom"]
        .iter()
        .map(|d| fs::read(fx.tree.join(d).join("SKILL.md")).unwrap())
        .collect();
    let out = support::run(&fx.base, &fx.base, &["lint", "--diff", "--compat", "codex", "--root", "tree", "tree"]);
    assert_eq!(out.status.code(), Some(1));
    // The patch alone on stdout; the findings and the list of fixes on stderr.
    let text = support::stdout(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(text.starts_with("diff --git a/tree/"), "{text}");
    assert!(err.contains("would fix (run with --fix): tree/bom/SKILL.md"), "{err}");
    for expected in [
        "-userInvocable: false",
        "+user-invocable: false",
        "+disable-model-invocation: no",
        "+disable-model-invocation: true",
        "+description: \"Triage bugs: use when a report arrives.\"",
        "+argument-hint: \"[issue] number\"",
        "+whenToUse: When asked.",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    let after: Vec<Vec<u8>> = ["legacy", "inverted", "colon", "when", "bom"]
        .iter()
        .map(|d| fs::read(fx.tree.join(d).join("SKILL.md")).unwrap())
        .collect();
    assert_eq!(before, after, "--diff must not write");
}

#[test]
fn fix_rewrites_in_place_and_keeps_permissions() {
    let fx = tree();
    let out = support::run(
        &fx.base,
        &fx.base,
        &["lint", "--fix", "--format", "json", "--compat", "codex", "--root", "tree", "tree"],
    );
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{}", support::stdout(&out));
    assert!(findings(&v).is_empty(), "{:?}", findings(&v));
    assert_eq!(v["summary"]["fixed"], 5);
    assert!(v["fixes"].as_array().unwrap().iter().all(|f| f["applied"] == true));
    let read = |d: &str| fs::read_to_string(fx.tree.join(d).join("SKILL.md")).unwrap();
    assert_eq!(
        read("legacy"),
        "---\nname: legacy\ndescription: Old keys.\nuser-invocable: false\ndisable-model-invocation: no\n---\n\nBody.\n"
    );
    assert_eq!(
        read("inverted"),
        "---\nname: inverted\ndescription: Old key.\ndisable-model-invocation: true\n---\n\nBody.\n"
    );
    assert!(
        read("colon")
            .contains("description: \"Triage bugs: use when a report arrives.\"\nargument-hint: \"[issue] number\"\n")
    );
    assert!(read("when").contains("whenToUse: When asked.\n"));
    assert!(read("bom").starts_with("---\n"));
    let mode = fs::metadata(fx.tree.join("legacy/SKILL.md")).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    // No temporary files are left behind.
    for d in ["legacy", "inverted", "colon", "when", "bom"] {
        assert_eq!(fs::read_dir(fx.tree.join(d)).unwrap().count(), 1, "{d}");
    }
    // The harness now loads every skill.
    let out = support::run(&fx.base, &fx.base, &["lint", "--format", "json", "--root", "tree", "tree"]);
    assert!(findings(&json(&out)).is_empty());
}

#[test]
fn fix_never_follows_a_link_out_of_the_skill_folder() {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    let outside = fx.base.join("outside.md");
    let legacy = "---\nname: ext\ndescription: Linked.\nuserInvocable: false\n---\n\nBody.\n";
    fs::write(&outside, legacy).unwrap();
    fs::create_dir_all(fx.tree.join("ext")).unwrap();
    std::os::unix::fs::symlink(&outside, fx.tree.join("ext/SKILL.md")).unwrap();
    // A link that stays inside the folder is followed, and stays a link.
    fs::create_dir_all(fx.tree.join("inside/impl")).unwrap();
    fs::write(fx.tree.join("inside/impl/skill.md"), legacy.replace("ext", "inside")).unwrap();
    std::os::unix::fs::symlink("impl/skill.md", fx.tree.join("inside/SKILL.md")).unwrap();
    let out = support::run(&fx.base, &fx.base, &["lint", "--fix", "--root", "tree", "tree"]);
    let text = support::stdout(&out);
    // Not offered at all: the finding says why and names the file to edit.
    assert!(text.contains("no automatic fix:") && text.contains("outside the skill folder"), "{text}");
    assert!(text.contains("(edit that file)") && !text.contains("not fixed: tree/ext/SKILL.md"), "{text}");
    assert_eq!(fs::read_to_string(&outside).unwrap(), legacy);
    assert!(fs::symlink_metadata(fx.tree.join("ext/SKILL.md")).unwrap().file_type().is_symlink());
    assert!(fs::read_to_string(fx.tree.join("inside/impl/skill.md")).unwrap().contains("user-invocable: false"));
    assert!(fs::symlink_metadata(fx.tree.join("inside/SKILL.md")).unwrap().file_type().is_symlink());
    assert_eq!(out.status.code(), Some(1), "the link that was not fixed still fails");
}

#[test]
fn a_value_that_cannot_be_quoted_safely_is_left_alone() {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    // A comment after the value: quoting would pull it into the text, so no fix is offered.
    write(&fx.tree, "c/SKILL.md", "---\nname: c\ndescription: Triage bugs: now # note\n---\n\nBody.\n");
    let out = support::run(&fx.base, &fx.base, &["lint", "--format", "json", "--root", "tree", "tree"]);
    let v = json(&out);
    assert!(v["findings"].as_array().unwrap().iter().all(|f| f["fix"].is_null()), "{v}");
}

/// Two misspellings of `whenToUse` each work alone but not together (both renamed, the key is a
/// duplicate): the first stays fixable, the second says why not, and `--fix` then does what
/// lint offered: it writes the first, and the file still loads.
#[test]
fn fixes_that_only_work_alone_are_offered_once() {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    let text =
        "---\nname: twice\ndescription: Two triggers.\nwhen_to_use: When asked.\nwhentouse: When told.\n---\n\nBody.\n";
    write(&fx.tree, "twice/SKILL.md", text);
    let out = support::run(&fx.base, &fx.base, &["lint", "--format", "json", "--root", "tree", "tree"]);
    let v = json(&out);
    let fixable: Vec<&Value> = v["findings"].as_array().unwrap().iter().filter(|f| !f["fix"].is_null()).collect();
    assert_eq!(fixable.len(), 1, "{v}");
    assert_eq!(fixable[0]["line"], 4, "the first in report order is kept: {v}");
    let refused = v["findings"].as_array().unwrap().iter().find(|f| f["line"] == 5).expect("the second finding stays");
    assert!(refused["fix"].is_null());
    let help = refused["help"].to_string();
    assert!(help.contains("no automatic fix: applied with the fixes `--fix` makes before it"), "{help}");
    assert!(help.contains("Map keys must be unique"), "{help}");
    assert_eq!(v["summary"]["fixable"], 1, "{v}");

    let out = support::run(&fx.base, &fx.base, &["lint", "--fix", "--format", "json", "--root", "tree", "tree"]);
    let v = json(&out);
    assert_eq!(v["summary"]["fixed"], 1, "{v}");
    let fixed = fs::read_to_string(fx.tree.join("twice/SKILL.md")).unwrap();
    assert_eq!(fixed, text.replace("when_to_use:", "whenToUse:"));
    // The skill still loads (with the trigger it had), and only the second misspelling is left.
    let out = support::run(&fx.base, &fx.base, &["lint", "--format", "json", "--root", "tree", "tree"]);
    let v = json(&out);
    let left: Vec<&Value> = v["findings"].as_array().unwrap().iter().collect();
    assert_eq!(left.len(), 1, "{v}");
    assert_eq!(left[0]["rule"], "when-to-use-key");
    assert!(left[0]["fix"].is_null(), "renaming it now would make a duplicate key: {v}");
}

/// A file with more fixes than are checked one by one, whose fixes together are refused (ten
/// spellings of `whenToUse`, all renamed to it): the one fix still offered is the one `--fix`
/// writes, and afterwards nothing is offered that would break the file.
#[test]
fn many_fixes_refused_together_leave_a_set_that_applies() {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    let mut text = String::from("---\nname: many\ndescription: Many fixes.\n");
    for (i, k) in [
        "whentouse",
        "Whentouse",
        "WHENTOUSE",
        "whenTouse",
        "WhenToUse",
        "whentoUse",
        "wHENTOUSE",
        "WHENtouse",
        "WhentoUse",
        "whenTOUSE",
    ]
    .iter()
    .enumerate()
    {
        text.push_str(&format!("{k}: When {i}.\n"));
    }
    text.push_str("---\n\nBody.\n");
    write(&fx.tree, "many/SKILL.md", &text);
    let out = support::run(&fx.base, &fx.base, &["lint", "--format", "json", "--root", "tree", "tree"]);
    let v = json(&out);
    assert_eq!(v["findings"].as_array().unwrap().len(), 10, "{v}");
    assert_eq!(v["summary"]["fixable"], 1, "{v}");
    let out = support::run(&fx.base, &fx.base, &["lint", "--fix", "--format", "json", "--root", "tree", "tree"]);
    let v = json(&out);
    assert_eq!(v["summary"]["fixed"], 1, "the offered fix applies: {v}");
    assert!(v["fixes"].as_array().unwrap().iter().all(|f| f["applied"] == true), "{v}");
    assert!(fs::read_to_string(fx.tree.join("many/SKILL.md")).unwrap().contains("\nwhenToUse: When 0.\n"));
    let out = support::run(&fx.base, &fx.base, &["lint", "--format", "json", "--root", "tree", "tree"]);
    let v = json(&out);
    assert_eq!(v["findings"].as_array().unwrap().len(), 9, "{v}");
    assert_eq!(v["summary"]["fixable"], 0, "{v}");
}

const LEGACY: &str = "---\nname: legacy\ndescription: Old keys.\nuserInvocable: false\n---\n\nBody.\n";

/// A tree with one fixable skill, `legacy`.
fn legacy_tree() -> support::Fixture {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    write(&fx.tree, "legacy/SKILL.md", LEGACY);
    fx
}

/// `lint --fix --format json tree` with `env`; the one fix's JSON.
fn fix_with(fx: &support::Fixture, env: &[(&str, &str)]) -> (std::process::Output, Value) {
    let mut cmd = support::command(&fx.base, &fx.base);
    cmd.args(["lint", "--fix", "--format", "json", "tree"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let fix = if out.stdout.is_empty() { Value::Null } else { json(&out)["fixes"][0].clone() };
    (out, fix)
}

fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "SKILL.md")
        .collect()
}

/// An editor saving the file (in place, or by its own rename) between the fix's write and its
/// rename: the edit stays, the fix is refused. Before, the save was replaced by the fix of the
/// old text. The hook runs at that exact point (debug builds only), so this is no race.
#[test]
fn an_edit_while_the_fix_is_written_is_never_lost() {
    if !cfg!(debug_assertions) {
        return;
    }
    let in_place = "printf 'edited\\n' >> \"$1\"";
    let by_rename = "cp \"$1\" \"$1.new\" && mv \"$1.new\" \"$1\"";
    for (how, hook, expected) in
        [("in place", in_place, format!("{LEGACY}edited\n")), ("renamed", by_rename, LEGACY.into())]
    {
        let fx = legacy_tree();
        let (out, fix) = fix_with(&fx, &[("DSH_SKILLS_TEST_FIX_HOOK", hook)]);
        assert_eq!(fix["applied"], false, "{how}: {fix}");
        assert!(fix["refused"].as_str().unwrap().contains("changed while the fix was being written"), "{how}: {fix}");
        assert_eq!(out.status.code(), Some(1), "{how}");
        assert_eq!(fs::read_to_string(fx.tree.join("legacy/SKILL.md")).unwrap(), expected, "{how}");
        assert!(leftovers(&fx.tree.join("legacy")).is_empty(), "{how}");
    }
    // Without an edit the same run applies the fix.
    let fx = legacy_tree();
    let (_, fix) = fix_with(&fx, &[("DSH_SKILLS_TEST_FIX_HOOK", "true")]);
    assert_eq!(fix["applied"], true, "{fix}");
}

/// A read-only file is not replaced, even by root (who may rename over it). Before, it was.
#[test]
fn a_read_only_file_is_refused() {
    let fx = legacy_tree();
    let p = fx.tree.join("legacy/SKILL.md");
    fs::set_permissions(&p, fs::Permissions::from_mode(0o444)).unwrap();
    let (out, fix) = fix_with(&fx, &[]);
    assert_eq!(fix["applied"], false, "{fix}");
    assert!(fix["refused"].as_str().unwrap().contains("is read-only; not written"), "{fix}");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(fs::read_to_string(&p).unwrap(), LEGACY);
    assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o444);
}

/// Ctrl-C (or SIGTERM) while the fix is written: the temporary file is removed and the file is
/// left as it was. The hook interrupts the process and waits until its handler removed the
/// temporary file (the handler then exits before the rename can take its lock).
#[test]
fn an_interrupted_fix_leaves_no_temporary_file() {
    if !cfg!(debug_assertions) {
        return;
    }
    for signal in ["INT", "TERM"] {
        let fx = legacy_tree();
        let hook = format!("kill -{signal} $PPID; while [ -e \"$2\" ]; do sleep 0.01; done");
        let (out, _) = fix_with(&fx, &[("DSH_SKILLS_TEST_FIX_HOOK", &hook)]);
        assert_eq!(out.status.code(), Some(130), "{signal}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(leftovers(&fx.tree.join("legacy")).is_empty(), "{signal}");
        assert_eq!(fs::read_to_string(fx.tree.join("legacy/SKILL.md")).unwrap(), LEGACY);
    }
}

/// A temporary file a killed `--fix` left (its process is gone) is removed by the next one;
/// one of a live process, or of another name, is not.
#[test]
fn stale_temporary_files_are_cleared() {
    let fx = legacy_tree();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let dir = fx.tree.join("legacy");
    let stale = format!(".SKILL.md.dsh-skills-fix.{dead}.0");
    let live = format!(".SKILL.md.dsh-skills-fix.{}.0", std::process::id());
    let other = ".SKILL.md.dsh-skills-fix.x.0".to_string();
    for n in [&stale, &live, &other] {
        fs::write(dir.join(n), "partial").unwrap();
    }
    let (_, fix) = fix_with(&fx, &[]);
    assert_eq!(fix["applied"], true, "{fix}");
    let mut left = leftovers(&dir);
    left.sort();
    assert_eq!(left, vec![live, other]);
}

/// The owner is kept (root may give the new file any owner), or, when this user cannot, the fix
/// is refused. Before, the file silently changed owner.
#[test]
fn the_owner_is_kept_or_the_fix_refused() {
    use std::os::unix::fs::MetadataExt;
    let is_root = std::process::Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    if !is_root || std::process::Command::new("setpriv").arg("--help").output().is_err() {
        eprintln!("skipped: needs root and setpriv");
        return;
    }
    let fx = legacy_tree();
    let p = fx.tree.join("legacy/SKILL.md");
    std::os::unix::fs::chown(&p, Some(65534), Some(65534)).unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
    let (_, fix) = fix_with(&fx, &[]);
    assert_eq!(fix["applied"], true, "{fix}");
    let m = fs::metadata(&p).unwrap();
    assert_eq!((m.uid(), m.gid(), m.mode() & 0o7777), (65534, 65534, 0o640));
    // Another user who may write the file (mode 0666, a writable folder) cannot keep root as its
    // owner.
    let fx = legacy_tree();
    let p = fx.tree.join("legacy/SKILL.md");
    fs::set_permissions(&p, fs::Permissions::from_mode(0o666)).unwrap();
    let mut up = Some(fx.tree.join("legacy"));
    while let Some(d) = up {
        let m = fs::metadata(&d).unwrap().permissions().mode();
        fs::set_permissions(&d, fs::Permissions::from_mode(m | 0o755)).unwrap();
        up = d.parent().filter(|p| p.starts_with(&fx.base)).map(Path::to_path_buf);
    }
    fs::set_permissions(fx.tree.join("legacy"), fs::Permissions::from_mode(0o777)).unwrap();
    let copy = fx.base.join("dsh-skills");
    fs::copy(env!("CARGO_BIN_EXE_dsh-skills"), &copy).unwrap();
    fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).unwrap();
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&copy)
        .args(["lint", "--fix", "--format", "json", "--no-config"])
        .arg(fx.tree.join("legacy"))
        .current_dir(&fx.base)
        .env("HOME", &fx.base)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["fixes"][0]["applied"], false, "{v}");
    assert!(
        v["fixes"][0]["refused"].as_str().unwrap().contains("which a file written by this user cannot keep"),
        "{v}"
    );
    let m = fs::metadata(&p).unwrap();
    assert_eq!((m.uid(), fs::read_to_string(&p).unwrap().as_str()), (0, LEGACY));
    assert!(leftovers(&fx.tree.join("legacy")).is_empty());
}
