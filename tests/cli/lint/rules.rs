//! One fixture per rule under `fixtures/lint/rules/<rule>/`: `fires/` must produce a finding of
//! that rule, `clean/` must not (and must have no error at all). Each holds a `tree/` and an
//! optional `case.json` with `args` (default: `lint --format json tree`, run from the directory
//! holding `tree`) and `setup` operations (symlinks, bytes git cannot keep).

use crate::support::{self, findings, json, materialize};
use dsh_skills::lint::rules::all;
use serde_json::Value;
use std::fs;

/// Rules without a fixture of their own, and why.
const NO_FIXTURE: &[(&str, &str)] = &[
    ("discovery-failed", "needs an unreadable file; covered by conformance case 100 (run as nobody)"),
    ("harness-rejected", "a safety net that fires only when no specific rule explains a harness warning"),
];

/// Whether the YAML layer reports warnings (the final one does; an interim stand-in may not).
fn yaml_warnings_supported() -> bool {
    dsh_skills::engine::yaml::parse("a: !custom b\n").is_ok_and(|p| !p.warnings.is_empty())
}

/// Whether the YAML layer reports duplicate keys with npm yaml's message.
pub fn yaml_errors_exact() -> bool {
    dsh_skills::engine::yaml::parse("a: 1\na: 2\n").is_err_and(|e| e.message.starts_with("Map keys must be unique"))
}

fn run_fixture(rule: &str, kind: &str) -> Vec<(String, String, String)> {
    let dir = support::manifest().join("fixtures/lint/rules").join(rule).join(kind);
    assert!(dir.is_dir(), "missing fixture {}", dir.display());
    let case: Value =
        fs::read_to_string(dir.join("case.json")).map(|s| serde_json::from_str(&s).unwrap()).unwrap_or(Value::Null);
    let fx = materialize(&dir.join("tree"), &case["setup"]);
    let args: Vec<String> = match case["args"].as_array() {
        Some(a) => a.iter().map(|v| v.as_str().unwrap().to_string()).collect(),
        None => ["lint", "--format", "json", "--root", "tree", "tree"].iter().map(|s| s.to_string()).collect(),
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = support::run(&fx.base, &fx.base.join("no-home"), &args);
    let v = json(&out);
    let got = findings(&v);
    let want_rc = if got.iter().any(|(_, s, _)| s == "error") { 1 } else { 0 };
    assert_eq!(out.status.code(), Some(want_rc), "{rule}/{kind}: exit status; findings {got:?}");
    got
}

#[test]
fn every_rule_has_a_fixture_that_fires_and_one_that_does_not() {
    let mut problems = Vec::new();
    for r in all() {
        if NO_FIXTURE.iter().any(|(id, _)| *id == r.id) {
            continue;
        }
        if r.id == "yaml-warning" && !yaml_warnings_supported() || r.id == "yaml-duplicate-key" && !yaml_errors_exact()
        {
            eprintln!("skipping {}: this YAML layer is an interim stand-in", r.id);
            continue;
        }
        let fires = run_fixture(r.id, "fires");
        if !fires.iter().any(|(rule, ..)| rule == r.id) {
            problems.push(format!("{}: the `fires` fixture produced no {} finding: {fires:?}", r.id, r.id));
        }
        let clean = run_fixture(r.id, "clean");
        if clean.iter().any(|(rule, ..)| rule == r.id) {
            problems.push(format!("{}: the `clean` fixture produced a {} finding: {clean:?}", r.id, r.id));
        }
        if let Some(e) = clean.iter().find(|(_, sev, _)| sev == "error") {
            problems.push(format!("{}: the `clean` fixture has an error: {e:?}", r.id));
        }
    }
    for (id, _) in NO_FIXTURE {
        assert!(dsh_skills::lint::rules::find(id).is_some(), "{id} is not a rule any more");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_readme_lists_every_rule() {
    let readme = fs::read_to_string(support::manifest().join("README.md")).unwrap();
    for r in all() {
        assert!(readme.contains(&format!("| `{}` |", r.id)), "README.md has no row for {}", r.id);
    }
}

#[test]
fn renaming_a_blank_entry_brings_the_root_back() {
    // Conformance case 111's situation: one entry named " " hides every skill of its root.
    let dir = support::manifest().join("fixtures/lint/rules/blank-entry-name/fires");
    let case: Value = serde_json::from_str(&fs::read_to_string(dir.join("case.json")).unwrap()).unwrap();
    let fx = materialize(&dir.join("tree"), &case["setup"]);
    let lint = || {
        let out =
            support::run(&fx.base, &fx.base.join("no-home"), &["lint", "--format", "json", "--root", "tree", "tree"]);
        (out.status.code(), json(&out))
    };
    let (rc, v) = lint();
    assert_eq!(rc, Some(1), "{v}");
    let f = &v["findings"].as_array().unwrap().iter().find(|f| f["rule"] == "blank-entry-name").unwrap().clone();
    assert_eq!(f["severity"], "error");
    assert!(f["path"].as_str().unwrap().ends_with("/tree/ "), "{f}");
    assert!(f["message"].as_str().unwrap().contains("U+0020"), "{f}");
    assert!(f["help"][0].as_str().unwrap().starts_with("rename the entry"), "{f}");
    // Nothing of the root is checked while it is lost: the skill `a` is not a subject.
    assert_eq!(v["summary"]["files"], 0, "{v}");
    // The advice, applied: rename it, and the root loads (its skill is linted, clean).
    fs::rename(fx.tree.join(" "), fx.tree.join("notes.txt")).unwrap();
    let (rc, v) = lint();
    assert!(!findings(&v).iter().any(|(r, s, _)| r == "blank-entry-name" || s == "error"), "{v}");
    assert_eq!(v["summary"]["files"], 1, "{v}");
    assert_eq!(rc, Some(0), "{v}");
    // Or remove it.
    fs::rename(fx.tree.join("notes.txt"), fx.tree.join("\u{3000}")).unwrap();
    assert!(lint().1["findings"].as_array().unwrap().iter().any(|f| f["rule"] == "blank-entry-name"));
    fs::remove_file(fx.tree.join("\u{3000}")).unwrap();
    let (rc, v) = lint();
    assert_eq!((rc, v["summary"]["files"].clone()), (Some(0), serde_json::json!(1)), "{v}");
}

/// `unclosed-code-fence` quotes the fence and the closing line, and the closing line its help
/// gives, appended to the body as written, closes the block: for backtick and tilde fences, at
/// the top, in a list item and in a quote.
#[test]
fn the_unclosed_fence_help_names_the_line_that_closes_it() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/s");
    fs::create_dir_all(&skill).unwrap();
    let file = skill.join("SKILL.md");
    for (body, message, closing) in [
        ("Run:\n\n```sh\necho x\n", "this code fence \"```\" is never closed", "```"),
        ("Steps:\n\n1. Run:\n\n   ~~~~sh\n   echo x\n", "this code fence \"~~~~\" is never closed", "   ~~~~"),
        ("> Quote:\n>\n> ```\n> echo x\n", "this code fence \"```\" is never closed", "> ```"),
    ] {
        let text = format!("---\nname: s\ndescription: Runs x.\n---\n\n{body}");
        fs::write(&file, &text).unwrap();
        let v = support::json(&support::run(
            dir.path(),
            &dir.path().join("no-home"),
            &["lint", "--format", "json", "skills"],
        ));
        let f = v["findings"].as_array().unwrap().iter().find(|f| f["rule"] == "unclosed-code-fence");
        let f = f.unwrap_or_else(|| panic!("{body:?}: no unclosed-code-fence finding in {v}"));
        assert_eq!(f["message"], message, "{body:?}");
        let help = f["help"][0].as_str().unwrap();
        assert_eq!(help, format!("close it with a line of \"{closing}\" after the code"), "{body:?}");
        // Applied: the quoted line after the code, then more text.
        let line = help.split('"').nth(1).unwrap();
        fs::write(&file, format!("{text}{line}\n\nAfter.\n")).unwrap();
        let v = support::json(&support::run(
            dir.path(),
            &dir.path().join("no-home"),
            &["lint", "--format", "json", "skills"],
        ));
        assert!(
            v["findings"].as_array().unwrap().iter().all(|f| f["rule"] != "unclosed-code-fence"),
            "{body:?} with {line:?}: {v}"
        );
    }
}
