//! Codex's `agents/openai.yaml` beside a skill: what Codex would ignore, and the invocation
//! policy compared with the frontmatter's. Every fix the help gives is applied here, and the
//! finding goes away with nothing new in its place.

use crate::support::{self, json, materialize};
use serde_json::Value;
use std::fs;
use std::path::Path;

const SKILL: &str =
    "---\nname: alpha\ndescription: Formats release notes. Use when asked for release notes.\n---\n\nBody.\n";
const MANUAL: &str = "---\nname: alpha\ndescription: Formats release notes. Use when asked for release notes.\n\
                      disable-model-invocation: true\n---\n\nBody.\n";

fn write(root: &Path, rel: &str, content: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, content).unwrap();
}

/// A project whose `.agents/skills/alpha` has this `SKILL.md` and `agents/openai.yaml`.
fn project(skill: &str, openai: &str) -> support::Fixture {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    write(&fx.tree, ".agents/skills/alpha/SKILL.md", skill);
    write(&fx.tree, ".agents/skills/alpha/agents/openai.yaml", openai);
    fx
}

/// `(rule, message, help)` of every finding of `lint` run at the project's top.
fn lint(fx: &support::Fixture) -> Vec<(String, String, String)> {
    let out = support::run(&fx.tree, &fx.base.join("no-home"), &["lint", "--format", "json"]);
    let v = json(&out);
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let help = f["help"]
                .as_array()
                .map_or(String::new(), |h| h.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n"));
            (f["rule"].as_str().unwrap().to_string(), f["message"].as_str().unwrap().to_string(), help)
        })
        .collect()
}

fn rules(found: &[(String, String, String)]) -> Vec<&str> {
    found.iter().map(|(r, ..)| r.as_str()).collect()
}

fn openai(fx: &support::Fixture) -> std::path::PathBuf {
    fx.tree.join(".agents/skills/alpha/agents/openai.yaml")
}

#[test]
fn consistent_files_have_nothing_to_say() {
    for (skill, yaml) in [
        (SKILL, "interface:\n  display_name: \"Alpha\"\n"),
        (SKILL, "policy:\n  allow_implicit_invocation: true\n"),
        (MANUAL, "policy:\n  allow_implicit_invocation: false\n"),
        // serde_yaml's booleans; any scalar is text; empty sections; comments only.
        (MANUAL, "policy:\n  allow_implicit_invocation: FALSE\n"),
        (SKILL, "interface:\n  display_name: 1.0\n  short_description: yes\n"),
        (SKILL, "interface:\npolicy:\ndependencies:\n"),
        (SKILL, "# nothing yet\n"),
        (
            SKILL,
            "dependencies:\n  tools:\n    - type: \"mcp\"\n      value: \"github\"\n      url: \"https://example.com/mcp\"\n",
        ),
    ] {
        let fx = project(skill, yaml);
        assert_eq!(lint(&fx), Vec::<(String, String, String)>::new(), "{yaml}");
    }
}

#[test]
fn values_codex_refuses_make_it_ignore_the_file() {
    for (yaml, message) in [
        ("policy:\n  allow_implicit_invocation: \"false\"\n", "the string \"false\""),
        ("policy:\n  allow_implicit_invocation: no\n", "the string \"no\""),
        ("policy:\n  allow_implicit_invocation: 0\n", "the number `0`"),
        ("interface: [a, b]\n", "`interface` is a list, not a mapping"),
        ("interface:\n  display_name: [Alpha]\n", "`interface.display_name` is a list, not a string"),
        ("policy: manual\n", "`policy` is a string, not a mapping"),
        ("dependencies:\n  tools: github\n", "`dependencies.tools` is a string, not a list"),
        ("dependencies:\n  tools:\n    - github\n", "tool 1 of `dependencies.tools` is a string"),
        ("- interface\n", "the file is a list"),
        ("interface:\n  display_name: \"Alpha\n", "not valid YAML"),
        ("policy:\n  allow_implicit_invocation: false\npolicy:\n  products: [codex]\n", "not valid YAML"),
    ] {
        let fx = project(MANUAL, yaml);
        let found = lint(&fx);
        assert_eq!(rules(&found), ["openai-yaml-invalid"], "{yaml}: {found:?}");
        assert!(found[0].1.contains(message), "{yaml}: {found:?}");
    }
}

#[test]
fn fields_codex_drops_are_named() {
    let long = "x".repeat(65);
    for (yaml, message) in [
        ("interface:\n  displayName: \"Alpha\"\n", "did you mean `display_name`"),
        ("policy:\n  allow-implicit-invocation: true\n", "did you mean `allow_implicit_invocation`"),
        ("polcy:\n  allow_implicit_invocation: true\n", "did you mean `policy`"),
        ("interface:\n  display_name: \"  \"\n", "`interface.display_name` is empty"),
        (&*format!("interface:\n  display_name: \"{long}\"\n"), "65 characters; Codex's limit is 64"),
        ("interface:\n  brand_color: \"#12345\"\n", "not a `#RRGGBB` colour"),
        ("interface:\n  icon_small: \"/tmp/icon.png\"\n", "is an absolute path"),
        ("interface:\n  icon_small: \"icon.png\"\n", "is not under `assets/`"),
        ("interface:\n  icon_large: \"./assets/logo.svg\"\n", "which does not exist"),
        ("dependencies:\n  tools:\n    - type: \"mcp\"\n", "has no `value`"),
    ] {
        let fx = project(SKILL, yaml);
        let found = lint(&fx);
        assert_eq!(rules(&found), ["openai-yaml-ignored-field"], "{yaml}: {found:?}");
        assert!(found[0].1.contains(message), "{yaml}: {found:?}");
    }
}

#[test]
fn each_fix_the_help_gives_works() {
    // (SKILL.md, openai.yaml, rule, the fix: new SKILL.md, new openai.yaml)
    let cases: [(&str, &str, &str, &str, &str); 7] = [
        // Manual-only in the frontmatter, no policy: the line the help gives, appended.
        (
            MANUAL,
            "interface:\n  display_name: \"Alpha\"\n",
            "invocation-policy-mismatch",
            MANUAL,
            "interface:\n  display_name: \"Alpha\"\npolicy: {allow_implicit_invocation: false}\n",
        ),
        // ... or the other way: drop `disable-model-invocation`.
        (
            MANUAL,
            "interface:\n  display_name: \"Alpha\"\n",
            "invocation-policy-mismatch",
            SKILL,
            "interface:\n  display_name: \"Alpha\"\n",
        ),
        // A policy that says true: set it to false.
        (
            MANUAL,
            "policy:\n  allow_implicit_invocation: true\n",
            "invocation-policy-mismatch",
            MANUAL,
            "policy:\n  allow_implicit_invocation: false\n",
        ),
        // Manual-only for Codex only: add the frontmatter key.
        (
            SKILL,
            "policy:\n  allow_implicit_invocation: false\n",
            "invocation-policy-mismatch",
            MANUAL,
            "policy:\n  allow_implicit_invocation: false\n",
        ),
        // A near miss, renamed.
        (
            SKILL,
            "interface:\n  displayName: \"Alpha\"\n",
            "openai-yaml-ignored-field",
            SKILL,
            "interface:\n  display_name: \"Alpha\"\n",
        ),
        // An icon outside assets/, moved and pointed at (the file is written below).
        (
            SKILL,
            "interface:\n  icon_small: \"icon.png\"\n",
            "openai-yaml-ignored-field",
            SKILL,
            "interface:\n  icon_small: \"./assets/icon.png\"\n",
        ),
        // A quoted boolean, unquoted.
        (
            MANUAL,
            "policy:\n  allow_implicit_invocation: \"false\"\n",
            "openai-yaml-invalid",
            MANUAL,
            "policy:\n  allow_implicit_invocation: false\n",
        ),
    ];
    for (skill, yaml, rule, fixed_skill, fixed_yaml) in cases {
        let fx = project(skill, yaml);
        let before = lint(&fx);
        assert_eq!(rules(&before), [rule], "{yaml}: {before:?}");
        write(&fx.tree, ".agents/skills/alpha/SKILL.md", fixed_skill);
        fs::write(openai(&fx), fixed_yaml).unwrap();
        if fixed_yaml.contains("assets/icon.png") {
            write(&fx.tree, ".agents/skills/alpha/assets/icon.png", "png");
        }
        let after = lint(&fx);
        assert!(after.is_empty(), "{yaml} fixed: {after:?}");
    }
    // The help names the fix that was applied.
    let fx = project(MANUAL, "interface:\n  display_name: \"Alpha\"\n");
    assert!(lint(&fx)[0].2.contains("`policy: {allow_implicit_invocation: false}`"));
    let fx = project(SKILL, "policy:\n  allow_implicit_invocation: false\n");
    assert!(lint(&fx)[0].2.contains("add `disable-model-invocation: true` to the frontmatter"));
}

#[test]
fn skills_outside_the_roots_are_checked_too() {
    // A collection: `skills/alpha` is no harness root, and lint reads it as the unit it installs as.
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    write(&fx.tree, "skills/alpha/SKILL.md", MANUAL);
    write(&fx.tree, "skills/alpha/agents/openai.yaml", "interface:\n  display_name: \"Alpha\"\n");
    let found = lint(&fx);
    assert!(rules(&found).contains(&"invocation-policy-mismatch"), "{found:?}");
}
