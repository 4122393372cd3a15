//! Lone surrogates from `"\ud800"`-style escapes, end to end. npm yaml's strings are JavaScript
//! strings, so such an escape is a lone UTF-16 code unit: two metadata keys that differ only in
//! one are two keys (the skill loads), and the catalog digest is computed over the code unit
//! (`JSON.stringify` writes `\ud800`), while text output has U+FFFD, what Node writes for it as
//! UTF-8. The expected digest was computed with npm yaml 2.9.0 and Node's `crypto`
//! (`sha256(JSON.stringify(["lone-skill", description.replaceAll(/\s+/g, " ").trim()]))`).

use crate::support;

use std::fs;

#[test]
fn lone_surrogates_keep_the_skill_and_the_harness_digest() {
    let dir = tempfile::Builder::new().prefix("dsh-lone-").tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    let (proj, home) = (root.join("proj"), root.join("home"));
    fs::create_dir_all(&home).unwrap();
    let skill = proj.join(".dsh/skills/lone-skill");
    fs::create_dir_all(&skill).unwrap();
    fs::write(
        skill.join("SKILL.md"),
        "---\nname: lone-skill\ndescription: \"Uses \\ud800   odd\\ud83d\\\n  \\ude00 text \\udc00\"\nmetadata:\n  \"\\ud800\": 1\n  \"\\ud801\": 2\n---\nBody.\n",
    )
    .unwrap();

    let out = support::run(&proj, &home, &["catalog", "--no-config", "--format", "json"]);
    let v = support::json(&out);
    assert_eq!(v["digest"], "83914dee42f601033aac292acc115040417094ee45d260727db31e044926972b");
    // the pair split by an escaped line break is one character; lone ones are U+FFFD as text
    assert_eq!(v["entries"][0]["description"], "Uses \u{FFFD} odd\u{1F600} text \u{FFFD}");
    let text = support::stdout(&support::run(&proj, &home, &["catalog", "--no-config"]));
    assert!(text.contains("- `lone-skill`: Uses \u{FFFD} odd\u{1F600} text \u{FFFD}\n"), "{text}");

    let out = support::run(&proj, &home, &["list", "--no-config", "--format", "json"]);
    let v = support::json(&out);
    assert_eq!(v["skills"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["warnings"], serde_json::json!([]));

    let out = support::run(&proj, &home, &["lint", "--no-config"]);
    assert!(out.status.success(), "{}", support::stdout(&out));
}
