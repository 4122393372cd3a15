//! A comment at column 0 right after an entry inside a `{ }` value: npm yaml (and so the
//! harness) rejects the frontmatter with `Comments must be separated from other tokens by white
//! space characters`. `list` shows the skill as skipped, `lint` says what to do, and both fixes
//! its help names (indenting the comment, a blank line before it) make the file load.

use crate::support;

use std::fs;

const BROKEN: &str =
    "---\nname: flowy\ndescription: Formats release notes\nmetadata: {\n  owner: docs\n# team\n}\n---\nBody.\n";

#[test]
fn a_column_0_comment_in_a_flow_mapping_is_rejected_and_the_advice_works() {
    let dir = tempfile::Builder::new().prefix("dsh-flowc-").tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    let (proj, home) = (root.join("proj"), root.join("home"));
    fs::create_dir_all(&home).unwrap();
    let skill = proj.join(".dsh/skills/flowy");
    fs::create_dir_all(&skill).unwrap();
    fs::write(skill.join("SKILL.md"), BROKEN).unwrap();

    let v = support::json(&support::run(&proj, &home, &["list", "--no-config", "--format", "json"]));
    assert_eq!(v["skills"].as_array().unwrap().len(), 0, "{v}");

    // Wide enough that no help line wraps: the words are checked here, the wrapping elsewhere.
    let out = support::command(&proj, &home)
        .args(["lint", "--no-config", "--color", "never"])
        .env("COLUMNS", "1000")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let text = support::stdout(&out);
    assert!(text.contains("Comments must be separated from other tokens by white space characters"), "{text}");
    assert!(text.contains("indent it (`  # ...`), or put a blank line before it"), "{text}");

    for fixed in [BROKEN.replace("\n# team", "\n  # team"), BROKEN.replace("\n# team", "\n\n# team")] {
        fs::write(skill.join("SKILL.md"), &fixed).unwrap();
        let v = support::json(&support::run(&proj, &home, &["list", "--no-config", "--format", "json"]));
        assert_eq!(v["skills"].as_array().unwrap().len(), 1, "{fixed}: {v}");
        let out = support::run(&proj, &home, &["lint", "--no-config"]);
        assert!(out.status.success(), "{fixed}: {}", support::stdout(&out));
    }
}
