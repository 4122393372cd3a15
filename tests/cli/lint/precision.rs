//! Precision on real-world shaped skills: what the reference scanner reports and how
//! strongly, suggestions that work when applied, `extra-keys`, fixes that stay safe, `show`
//! and `lint` agreeing on references, and `--diff` as a patch `git apply` accepts.

use crate::support::{self, json, materialize};
use serde_json::Value;
use std::fs;
use std::path::Path;

fn write(root: &Path, rel: &str, content: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, content).unwrap();
}

fn skill(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: Does one thing. Use when testing the linter.\n---\n\n{body}")
}

/// `(rule, severity, line, message, label)` of every finding for files under `skills/<dir>/`.
fn lint(base: &Path, args: &[&str]) -> Vec<(String, String, u64, String, String)> {
    let mut all = vec!["lint", "--format", "json"];
    all.extend_from_slice(args);
    let out = support::run(base, &base.join("no-home"), &all);
    let v = json(&out);
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap_or(0),
                f["message"].as_str().unwrap().to_string(),
                f["label"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn tree() -> support::Fixture {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    let t = &fx.tree;
    write(
        t,
        "skills/guide/SKILL.md",
        &skill(
            "guide",
            "## Resources\n\n\
             - **Example**: `scripts/rotate_pdf.py` for PDF rotation tasks\n\
             - Page limit: 8 pages main text + unlimited references/appendix\n\
             - `references/missing-list.md` - a list entry, mentioned in passing\n\
             [^1]: GitHub Blog.\n\
             Found at `scripts/check.py:42` in the output.\n\
             Run `${CLAUDE_PLUGIN_ROOT}/scripts/plugin.py`.\n\n\
             **Reference:** See `references/missing-see.md`\n\
             Deploy with `scripts/deploy.sh staging`.\n\
             Read <references/auto.md> and [the table](reference/table.md).\n\
             Shared notes: [notes](../shared/notes.md), and [gone](../shared/gone.md).\n\n\
             ## Your project\n\n```bash\npython scripts/train.py\n```\n",
        ),
    );
    write(t, "skills/guide/references/table.md", "t");
    write(t, "skills/guide/scripts/other.py", "x");
    write(t, "skills/shared/notes.md", "n");
    write(t, "skills/user/SKILL.md", &skill("user", "```bash\npython scripts/tool.py --fast\n```\n"));
    write(t, "skills/tools/SKILL.md", &skill("tools", "Run `python scripts/tool.py`.\n"));
    write(t, "skills/tools/scripts/tool.py", "x");
    fx
}

#[test]
fn references_are_graded_by_evidence() {
    let fx = tree();
    let got = lint(&fx.base, &["tree/skills/guide"]);
    let refs: Vec<_> = got.iter().filter(|f| f.0.contains("reference")).collect();
    let find = |needle: &str| refs.iter().find(|f| f.3.contains(needle)).map(|f| (f.0.as_str(), f.1.as_str()));
    // Quiet: illustrative paths, prose words, footnotes, positions, placeholders, the user's project.
    for quiet in ["rotate_pdf", "appendix", "GitHub", "check.py", "plugin.py", "train.py"] {
        assert_eq!(find(quiet), None, "{quiet}: {refs:?}");
    }
    assert_eq!(find("missing-list.md"), Some(("broken-reference", "info")));
    assert_eq!(find("missing-see.md"), Some(("broken-reference", "warning")));
    assert_eq!(find("deploy.sh"), Some(("broken-reference", "warning")));
    assert_eq!(find("auto.md"), Some(("broken-reference", "warning")));
    assert_eq!(find("../shared/notes.md"), Some(("reference-escapes-bundle", "info")));
    let gone = refs.iter().find(|f| f.3.contains("gone.md")).unwrap();
    assert_eq!((gone.0.as_str(), gone.1.as_str()), ("broken-reference", "warning"));
    assert!(gone.3.contains("does not exist"), "{gone:?}");
    let table = refs.iter().find(|f| f.3.contains("reference/table.md")).unwrap();
    assert_eq!(table.4, "did you mean `references/table.md`?");
}

#[test]
fn suggestions_work_when_applied() {
    let fx = tree();
    let path = fx.tree.join("skills/guide/SKILL.md");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("(reference/table.md)", "(references/table.md)")).unwrap();
    let got = lint(&fx.base, &["tree/skills/guide"]);
    assert!(!got.iter().any(|f| f.3.contains("table.md")), "{got:?}");
    // A command without a `scripts/` folder in the skill is about the user's project (info);
    // the same file in a neighbouring skill is named.
    let got = lint(&fx.base, &["tree/skills/user"]);
    let tool = got.iter().find(|f| f.3.contains("scripts/tool.py")).unwrap();
    assert_eq!(tool.1, "warning", "{tool:?}");
    assert_eq!(tool.4, "it is in the skill `tools`");
    let user = fx.tree.join("skills/user/SKILL.md");
    fs::write(&user, skill("user", "```bash\npython ../tools/scripts/tool.py --fast\n```\n")).unwrap();
    assert!(lint(&fx.base, &["tree/skills/user"]).iter().all(|f| f.1 != "warning"));
    fs::write(&user, skill("user", "```bash\npython scripts/elsewhere.py\n```\n")).unwrap();
    let got = lint(&fx.base, &["tree/skills/user"]);
    assert_eq!(got.iter().filter(|f| f.0 == "broken-reference").map(|f| f.1.as_str()).collect::<Vec<_>>(), ["info"]);
}

#[test]
fn a_command_without_the_folder_is_labelled_as_a_command() {
    // No `scripts/` folder: "Run `scripts/deploy.sh staging`" is graded info (it may be about
    // the user's project), and says what it is: a command, not a mention in passing.
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    let path = fx.tree.join("skills/dep/SKILL.md");
    let body = "Run `scripts/deploy.sh staging` to deploy.\n\n```bash\npython scripts/verify.py --all\n```\n";
    write(&fx.tree, "skills/dep/SKILL.md", &skill("dep", body));
    let got = lint(&fx.base, &["tree/skills/dep"]);
    let refs: Vec<_> = got.iter().filter(|f| f.0 == "broken-reference").collect();
    assert_eq!(refs.len(), 2, "{got:?}");
    for f in &refs {
        assert_eq!(f.1, "info", "{f:?}");
        assert_eq!(f.4, "a command runs it, and the skill has no `scripts/` folder", "{f:?}");
        assert!(!f.4.contains("in passing"), "{f:?}");
    }
    // The help's first way: the script belongs to the skill, so add it.
    write(&fx.tree, "skills/dep/scripts/deploy.sh", "#!/bin/sh\n");
    write(&fx.tree, "skills/dep/scripts/verify.py", "print(1)\n");
    assert!(!lint(&fx.base, &["tree/skills/dep"]).iter().any(|f| f.0.contains("reference")));
    // The second way: say that the commands are for the user's project.
    fs::remove_dir_all(fx.tree.join("skills/dep/scripts")).unwrap();
    let body = "In your project, run `scripts/deploy.sh staging` to deploy.\n\n## In your project\n\n\
                ```bash\npython scripts/verify.py --all\n```\n";
    fs::write(&path, skill("dep", body)).unwrap();
    let got = lint(&fx.base, &["tree/skills/dep"]);
    assert!(!got.iter().any(|f| f.0.contains("reference")), "{got:?}");
}

#[test]
fn show_and_lint_report_the_same_lines() {
    let fx = tree();
    let got = lint(&fx.base, &["tree/skills/guide"]);
    let see = got.iter().find(|f| f.3.contains("missing-see.md")).unwrap();
    let out = support::run(
        &fx.base,
        &fx.base.join("no-home"),
        &["show", "guide", "--cwd", "tree", "--custom-dir", "tree/skills", "--no-config"],
    );
    let text = support::stdout(&out);
    let line = text.lines().find(|l| l.contains("references/missing-see.md")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains(&format!("line {} ", see.2)), "{line} vs lint line {}", see.2);
    let refs = text.split("\nBody\n").next().unwrap();
    assert!(!refs.contains("rotate_pdf.py") && !refs.contains("train.py"), "{refs}");
    assert!(refs.contains("../shared/gone.md  missing"), "{refs}");
}

#[test]
fn extra_keys_keep_typo_detection() {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    write(
        &fx.tree,
        "a/SKILL.md",
        "---\nname: a\ndescription: Does one thing.\nrequires: [git]\nuser_invocable: false\nagents: [x]\n---\nBody.\n",
    );
    let got = lint(&fx.base, &["tree"]);
    let key = |k: &str| got.iter().find(|f| f.0 == "unknown-key" && f.3.contains(&format!("`{k}`"))).cloned();
    // Without configuration: custom keys are info, a typo of a harness key is a warning, and no
    // key the harness does not read is suggested.
    assert_eq!(key("requires").unwrap().1, "info");
    let typo = key("user_invocable").unwrap();
    assert_eq!((typo.1.as_str(), typo.4.as_str()), ("warning", "did you mean `user-invocable`?"));
    assert_eq!(key("agents").unwrap().4, "");
    fs::write(fx.base.join(".dsh-skills-lint.yaml"), "extra-keys: [requires, agents]\n").unwrap();
    let got = lint(&fx.base, &["tree"]);
    let keys: Vec<&str> = got.iter().filter(|f| f.0 == "unknown-key").map(|f| f.3.as_str()).collect();
    assert_eq!(keys, ["unknown frontmatter key `user_invocable`"]);
}

#[test]
fn when_to_use_is_not_renamed_for_claude_code() {
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    write(&fx.tree, "a/SKILL.md", "---\nname: a\ndescription: Does one thing.\nwhen_to_use: When asked.\n---\nBody.\n");
    let run = |args: &[&str]| {
        let mut all = vec!["lint", "--format", "json"];
        all.extend_from_slice(args);
        json(&support::run(&fx.base, &fx.base.join("no-home"), &all))
    };
    assert_eq!(run(&["tree"])["summary"]["fixable"], 1);
    let v = run(&["--compat", "claude-code", "tree"]);
    assert_eq!(v["summary"]["fixable"], 0);
    let f = v["findings"].as_array().unwrap().iter().find(|f| f["rule"] == "when-to-use-key").unwrap();
    assert!(f["fix"].is_null() && f["help"][0].as_str().unwrap().contains("keep `when_to_use`"), "{f}");
    fs::write(fx.base.join(".dsh-skills-lint.yaml"), "compat: [claude-code]\n").unwrap();
    assert_eq!(run(&["tree"])["summary"]["fixable"], 0);
}

#[test]
fn diff_is_a_patch_git_applies() {
    let Some(git) = support::which("git") else { return };
    let fx = materialize(Path::new("/nonexistent"), &Value::Null);
    fs::create_dir_all(fx.tree.join("a")).unwrap();
    fs::write(
        fx.tree.join("a/SKILL.md"),
        "\u{feff}---\r\nname: a\r\ndescription: Old.\r\nuserInvocable: false\r\n---\r\nBody.\r\n",
    )
    .unwrap();
    let out = support::run(
        &fx.base,
        &fx.base.join("no-home"),
        &["lint", "--diff", "--compat", "agentskills", "--root", "tree", "tree"],
    );
    let patch = support::stdout(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(patch.starts_with("diff --git a/tree/a/SKILL.md b/tree/a/SKILL.md\n"), "{patch}");
    assert!(patch.contains("-\u{feff}---\r\n") && patch.contains("+---\n"), "{patch:?}");
    assert!(err.contains("legacy-invocation-key") && err.contains("convert CRLF line endings to LF"), "{err}");
    fs::write(fx.base.join("p.patch"), &patch).unwrap();
    let st = std::process::Command::new(&git)
        .args(["apply", "--unsafe-paths", "p.patch"])
        .current_dir(&fx.base)
        .env("GIT_CEILING_DIRECTORIES", &fx.base)
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(
        fs::read_to_string(fx.tree.join("a/SKILL.md")).unwrap(),
        "---\nname: a\ndescription: Old.\nuser-invocable: false\n---\nBody.\n"
    );
}
