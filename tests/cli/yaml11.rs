//! A `%YAML 1.1` directive in the frontmatter, end to end. The harness's closing fence is a line
//! that is exactly `---`, so `--- ` (trailing space or tab) inside the frontmatter reaches npm
//! yaml, which takes it as the document start after the directive and then resolves the document
//! with its yaml-1.1 schema: `yes`/`on`/`y`/`n` are booleans, `0b101` is 5, `<<` merges.

use crate::support;

use serde_json::{Value, json};
use std::fs;

fn skill(root: &std::path::Path, name: &str, frontmatter: &str) {
    let dir = root.join(".dsh/skills").join(name);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("SKILL.md"), format!("---\n{frontmatter}---\n\nBody of {name}.\n")).unwrap();
}

#[test]
fn yaml_1_1_directive_changes_what_the_harness_loads() {
    let dir = tempfile::Builder::new().prefix("dsh-yaml11-").tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    let (proj, home) = (root.join("proj"), root.join("home"));
    fs::create_dir_all(&home).unwrap();
    // `description: yes` is the boolean true under YAML 1.1: the harness skips the skill.
    skill(&proj, "one-one", "%YAML 1.1\n--- \nname: one-one\ndescription: yes\n");
    // Without the directive, and under `%YAML 1.2` or an unknown version, it is the string.
    skill(&proj, "plain", "name: plain\ndescription: yes\n");
    skill(&proj, "one-two", "%YAML 1.2\n--- \nname: one-two\ndescription: yes\n");
    skill(&proj, "one-three", "%YAML 1.3\n---\t\nname: one-three\ndescription: on\n");
    // `n` is false under 1.1 (a TypeError for the harness under the core schema).
    skill(&proj, "invocable", "%YAML 1.1\n---\t\nname: invocable\ndescription: Uses n.\nuser-invocable: n\n");
    skill(&proj, "core-n", "name: core-n\ndescription: Uses n.\nuser-invocable: n\n");
    // Merge keys and 1.1 integers as metadata keys (`String(5)`, `String(90)`).
    skill(
        &proj,
        "merged",
        "%YAML 1.1\n--- \nname: merged\ndescription: Merge keys.\nbase: &b {owner: team}\nmetadata:\n  <<: *b\n  0b101: five\n  1:30: ninety\n",
    );
    let out = support::run(&proj, &home, &["list", "--no-config", "--format", "json"]);
    let v = support::json(&out);
    let skills: Vec<&str> = v["skills"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(skills, ["invocable", "merged", "one-three", "one-two", "plain"]);
    let by_name = |n: &str| v["skills"].as_array().unwrap().iter().find(|s| s["name"] == n).unwrap().clone();
    assert_eq!(by_name("plain")["description"], "yes");
    assert_eq!(by_name("one-two")["description"], "yes");
    assert_eq!(by_name("one-three")["description"], "on");
    assert_eq!(by_name("invocable")["invocation"], json!({"modelInvocable": true, "userInvocable": false}));
    assert_eq!(by_name("merged")["metadata"], json!({"5": "five", "90": "ninety", "owner": "team"}));
    let skill_file = |n: &str| proj.join(".dsh/skills").join(n).join("SKILL.md").to_string_lossy().into_owned();
    let warnings: Vec<String> =
        v["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect();
    assert_eq!(
        warnings,
        [
            format!(
                "skill file {} ignored: invalid invocation frontmatter: TypeError: frontmatter field \"user-invocable\" must be a boolean",
                skill_file("core-n")
            ),
            format!("skill file {} ignored: frontmatter requires name and description", skill_file("one-one")),
        ]
    );

    // lint explains the boolean and its fix, which works under YAML 1.1 too.
    let out = support::run(&proj, &home, &["lint", "--no-config", "--format", "json"]);
    let v: Value = support::json(&out);
    let findings = support::findings(&v);
    assert!(
        findings.iter().any(|(rule, sev, file)| rule == "description-required"
            && sev == "error"
            && file.ends_with("one-one/SKILL.md")),
        "{findings:?}"
    );
    let fixed = fs::read_to_string(skill_file("one-one")).unwrap().replace("description: yes", "description: \"yes\"");
    fs::write(skill_file("one-one"), fixed).unwrap();
    let out = support::run(&proj, &home, &["list", "--no-config", "--format", "json"]);
    let v = support::json(&out);
    assert!(v["skills"].as_array().unwrap().iter().any(|s| s["name"] == "one-one" && s["description"] == "yes"));
}
