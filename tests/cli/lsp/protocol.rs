//! initialize, didOpen, incremental didChange, publishDiagnostics, hover, completion,
//! codeAction, documentLink, codeLens, shutdown and exit.

use super::client::{Client, apply_edits, codes, uri};
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};

/// A project (with `.git`) and an empty home, in a temporary directory.
pub struct Tree {
    _dir: tempfile::TempDir,
    pub project: PathBuf,
    pub home: PathBuf,
}

impl Tree {
    pub fn new() -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let base = dunce::canonicalize(dir.path()).unwrap();
        let project = base.join("p");
        let home = base.join("home");
        fs::create_dir_all(project.join(".git")).unwrap();
        fs::create_dir_all(&home).unwrap();
        Tree { _dir: dir, project, home }
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.project.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, text).unwrap();
        p
    }

    pub fn client(&self, args: &[&str]) -> Client {
        Client::start(&self.project, &self.home, &self.project, args)
    }

    /// `dsh-skills lint --format json <path>` from the project: (rule, message, 0-based line).
    pub fn lint(&self, args: &[&str]) -> Vec<(String, String, u64)> {
        let mut all = vec!["lint", "--format", "json"];
        all.extend_from_slice(args);
        let out = super::support::command(&self.project, &self.home).args(&all).output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut f: Vec<(String, String, u64)> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["rule"].as_str().unwrap().to_string(),
                    f["message"].as_str().unwrap().to_string(),
                    f["line"].as_u64().map_or(0, |l| l - 1),
                )
            })
            .collect();
        f.sort();
        f
    }
}

/// (rule, first message line, start line) of diagnostics, sorted.
fn summary(d: &[Value]) -> Vec<(String, String, u64)> {
    let mut s: Vec<(String, String, u64)> = d
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().lines().next().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    s.sort();
    s
}

fn pos(line: u32, character: u32) -> Value {
    json!({ "line": line, "character": character })
}

fn change(uri: &str, version: i64, start: Value, end: Value, text: &str) -> Value {
    json!({
        "textDocument": { "uri": uri, "version": version },
        "contentChanges": [{ "range": { "start": start, "end": end }, "text": text }],
    })
}

const LEGACY: &str =
    "---\nname: my-skill\ndescription: Does things.\nuserInvocable: true\n---\nSee [guide](references/guide.md).\n";

#[test]
fn diagnostics_are_lints_and_follow_incremental_edits() {
    let t = Tree::new();
    let path = t.write(".dsh/skills/my-skill/SKILL.md", LEGACY);
    let expected = t.lint(&[]);
    assert!(expected.iter().any(|f| f.0 == "legacy-invocation-key"), "{expected:?}");
    assert!(expected.iter().any(|f| f.0 == "broken-reference"), "{expected:?}");

    let mut c = t.client(&[]);
    assert_eq!(c.capabilities["textDocumentSync"]["change"], 2, "incremental sync");
    let u = c.open(&path, LEGACY);
    let d = c.diagnostics(&u, 1);
    assert_eq!(summary(&d), expected, "the same findings as `dsh-skills lint`, at the same lines");
    let legacy = d.iter().find(|d| d["code"] == "legacy-invocation-key").unwrap();
    assert_eq!(legacy["severity"], 1);
    assert_eq!(legacy["source"], "dsh-skills");
    assert_eq!(legacy["range"], json!({ "start": pos(3, 0), "end": pos(3, 13) }));
    assert!(legacy["message"].as_str().unwrap().contains("\nharness: the harness skips this skill"));

    // Rename the key in place (an incremental edit): the finding goes, the other stays.
    c.notify("textDocument/didChange", change(&u, 2, pos(3, 0), pos(3, 13), "user-invocable"));
    let d = c.diagnostics(&u, 2);
    assert_eq!(codes(&d), ["broken-reference"]);

    // A suppression comment typed into the frontmatter is honoured, like lint's.
    c.notify(
        "textDocument/didChange",
        change(&u, 3, pos(1, 0), pos(1, 0), "# dsh-skills-lint: disable broken-reference\n"),
    );
    assert_eq!(c.diagnostics(&u, 3), Vec::<Value>::new());

    // Several edits in one notification apply in order; nothing on disk changed.
    let two = json!({
        "textDocument": { "uri": u, "version": 4 },
        "contentChanges": [
            { "range": { "start": pos(0, 0), "end": pos(1, 0) }, "text": "" },
            { "range": { "start": pos(0, 0), "end": pos(0, 3) }, "text": "--" },
        ],
    });
    c.notify("textDocument/didChange", two);
    assert_eq!(codes(&c.diagnostics(&u, 4)), ["frontmatter-missing"]);
    assert_eq!(fs::read_to_string(&path).unwrap(), LEGACY);

    // Closing clears the document's diagnostics.
    c.notify("textDocument/didClose", json!({ "textDocument": { "uri": u } }));
    let cleared = c.diagnostics_until(&u, "cleared diagnostics", |d| d.is_empty());
    assert!(cleared.is_empty());
    assert!(c.shutdown().success(), "exit status 0 after shutdown and exit");
}

#[test]
fn configuration_file_levels_apply() {
    let t = Tree::new();
    t.write(".dsh-skills-lint.yaml", "rules:\n  broken-reference: error\n");
    let path = t.write(".dsh/skills/my-skill/SKILL.md", "---\nname: my-skill\ndescription: D.\n---\n[x](nope.md)\n");
    let expected = t.lint(&[]);
    let mut c = t.client(&[]);
    let u = c.open(&path, &fs::read_to_string(&path).unwrap());
    let d = c.diagnostics(&u, 1);
    assert_eq!(summary(&d), expected);
    assert_eq!(d[0]["severity"], 1, "the configured level: error");
    assert_eq!(c.exit_without_shutdown().code(), Some(1), "exit without shutdown is status 1");
}

#[test]
fn shadowing_hover_and_lenses() {
    let t = Tree::new();
    let long = "word ".repeat(20);
    let winner =
        t.write(".dsh/skills/my-skill/SKILL.md", &format!("---\nname: my-skill\ndescription: {long}\n---\nBody.\n"));
    let loser =
        t.write(".agents/skills/my-skill/SKILL.md", "---\nname: my-skill\ndescription: Other copy.\n---\nBody.\n");
    let mut c = t.client(&["--description-max-length", "40"]);
    let lu = c.open(&loser, &fs::read_to_string(&loser).unwrap());
    // Whole-discovery findings arrive once the discovery is done.
    let d = c.diagnostics_until(&lu, "shadowed-skill", |d| d.iter().any(|d| d["code"] == "shadowed-skill"));
    let shadow = d.iter().find(|d| d["code"] == "shadowed-skill").unwrap();
    assert_eq!(shadow["range"]["start"]["line"], 1, "at the name");

    let h = c.request("textDocument/hover", json!({ "textDocument": { "uri": lu }, "position": pos(1, 2) }));
    let text = h["result"]["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**Shadowed**"), "{text}");
    assert!(text.contains(winner.to_str().unwrap()), "{text}");

    let wu = c.open(&winner, &fs::read_to_string(&winner).unwrap());
    let h = c.request("textDocument/hover", json!({ "textDocument": { "uri": wu }, "position": pos(2, 3) }));
    let text = h["result"]["contents"]["value"].as_str().unwrap();
    // The exact catalog line (`catalog` prints it), the cut point and the units lost.
    let catalog = super::support::command(&t.project, &t.home)
        .args(["catalog", "--description-max-length", "40"])
        .output()
        .unwrap();
    let catalog = String::from_utf8(catalog.stdout).unwrap();
    let line = catalog.lines().find(|l| l.starts_with("- `my-skill`")).unwrap();
    assert!(text.contains(&format!("```text\n{line}\n```")), "{text}\n--- catalog:\n{catalog}");
    assert!(text.contains("Cut at 37 of 99 UTF-16 units"), "{text}");
    assert!(text.contains("62 units lost"), "{text}");

    let h = c.request("textDocument/hover", json!({ "textDocument": { "uri": wu }, "position": pos(1, 0) }));
    let text = h["result"]["contents"]["value"].as_str().unwrap();
    assert!(text.contains("This copy of `my-skill` wins; it shadows"), "{text}");
    assert!(text.contains(loser.to_str().unwrap()), "{text}");

    let lens = c.request("textDocument/codeLens", json!({ "textDocument": { "uri": wu } }));
    let title = lens["result"][0]["command"]["title"].as_str().unwrap();
    assert!(title.starts_with(&format!("in the catalog as {}", &line[..40])), "{title}");
    assert!(title.ends_with("· shadows 1"), "{title}");
    let lens = c.request("textDocument/codeLens", json!({ "textDocument": { "uri": lu } }));
    let title = lens["result"][0]["command"]["title"].as_str().unwrap();
    assert!(title.starts_with("shadowed by ") && title.contains(winner.to_str().unwrap()), "{title}");
    assert!(c.shutdown().success());
}

#[test]
fn hidden_skill_lens_and_unscanned_file() {
    let t = Tree::new();
    let hidden = t.write(
        ".dsh/skills/quiet/SKILL.md",
        "---\nname: quiet\ndescription: D.\ndisable-model-invocation: true\n---\nB\n",
    );
    let elsewhere = t.write("skills/new-skill/SKILL.md", "---\nname: new-skill\ndescription: D.\n---\nB\n");
    let mut c = t.client(&[]);
    let hu = c.open(&hidden, &fs::read_to_string(&hidden).unwrap());
    let eu = c.open(&elsewhere, &fs::read_to_string(&elsewhere).unwrap());
    c.diagnostics(&hu, 1);
    // The folder the harness does not scan is reported on the file being written.
    let d = c.diagnostics(&eu, 1);
    assert_eq!(codes(&d), ["unscanned-skill-folder"]);
    assert!(d[0]["message"].as_str().unwrap().starts_with("skills: this folder holds 1 skill"), "{}", d[0]);
    let lens = c.request("textDocument/codeLens", json!({ "textDocument": { "uri": hu } }));
    assert_eq!(lens["result"][0]["command"]["title"], "hidden from the model (disable-model-invocation)");
    let lens = c.request("textDocument/codeLens", json!({ "textDocument": { "uri": eu } }));
    assert_eq!(lens["result"][0]["command"]["title"], "not in a root the harness scans here: never loaded");
    assert!(c.shutdown().success());
}

#[test]
fn completion_keys_booleans_rule_ids_and_paths() {
    let t = Tree::new();
    t.write(".dsh/skills/my-skill/references/guide.md", "# Guide\n");
    t.write(".dsh/skills/my-skill/scripts/run.sh", "echo\n");
    let text =
        "---\nname: my-skill\ndescription: D.\n\nuser-invocable: \n# dsh-skills-lint: disable \n---\nSee [g](ref\n";
    let path = t.write(".dsh/skills/my-skill/SKILL.md", text);
    let mut c = t.client(&["--compat", "agentskills"]);
    let u = c.open(&path, text);
    let complete = |c: &mut Client, line: u32, ch: u32| -> Vec<String> {
        let r =
            c.request("textDocument/completion", json!({ "textDocument": { "uri": u }, "position": pos(line, ch) }));
        r["result"].as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_string()).collect()
    };
    let keys = complete(&mut c, 3, 0);
    for k in ["whenToUse", "metadata", "disable-model-invocation", "license", "compatibility", "allowed-tools"] {
        assert!(keys.contains(&k.to_string()), "{k} in {keys:?}");
    }
    assert!(!keys.contains(&"name".to_string()), "present keys are not offered: {keys:?}");
    assert!(!keys.contains(&"model".to_string()), "Claude Code keys only under --compat claude-code: {keys:?}");
    assert_eq!(complete(&mut c, 4, 16), ["true", "false"]);
    let ids = complete(&mut c, 5, 27);
    assert!(ids.contains(&"broken-reference".to_string()) && ids.contains(&"unknown-key".to_string()), "{ids:?}");
    assert_eq!(complete(&mut c, 5, 19), ["disable", "disable-next-line", "disable-line"]);
    assert_eq!(complete(&mut c, 7, 11), ["references/guide.md"]);
    let r = c.request("textDocument/completion", json!({ "textDocument": { "uri": u }, "position": pos(7, 11) }));
    assert_eq!(r["result"][0]["textEdit"]["range"], json!({ "start": pos(7, 8), "end": pos(7, 11) }));
    assert!(c.shutdown().success());
}

/// Every code action's edit, applied, removes its finding and adds none (and agrees with
/// `lint --fix` on disk).
#[test]
fn code_actions_are_lint_fixes_that_work() {
    let t = Tree::new();
    let text = "---\nname: My Skill\ndescription: Does things.\nuserInvocable: true\n---\nBody.\n";
    let path = t.write(".dsh/skills/my-skill/SKILL.md", text);
    let mut c = t.client(&[]);
    let u = c.open(&path, text);
    let d = c.diagnostics(&u, 1);
    let mut current = text.to_string();
    let mut version = 1;
    for rule in ["legacy-invocation-key", "name-invalid"] {
        let diag = d.iter().find(|d| d["code"] == rule).unwrap_or_else(|| panic!("{rule} in {d:?}")).clone();
        let r = c.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": u }, "range": diag["range"], "context": { "diagnostics": [diag] } }),
        );
        let actions = r["result"].as_array().unwrap();
        let action = actions
            .iter()
            .find(|a| a["kind"] == "quickfix" && a["diagnostics"][0]["code"] == rule)
            .unwrap_or_else(|| panic!("a quick fix for {rule}: {actions:?}"));
        let edits = action["edit"]["changes"][&u].as_array().unwrap();
        let fixed = apply_edits(&current, edits);
        version += 1;
        c.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": u, "version": version }, "contentChanges": [{ "text": fixed }] }),
        );
        let after = c.diagnostics(&u, version);
        assert!(!codes(&after).contains(&rule.to_string()), "{rule} fixed: {after:?}");
        let before_rules: Vec<String> = codes(&d);
        for code in codes(&after) {
            assert!(before_rules.contains(&code), "no new finding ({code}) after fixing {rule}");
        }
        current = fixed;
    }
    assert_eq!(current, "---\nname: my-skill\ndescription: Does things.\nuser-invocable: true\n---\nBody.\n");
    // The legacy-key edit is the one `lint --fix` writes.
    let out = super::support::command(&t.project, &t.home).args(["lint", "--fix"]).output().unwrap();
    assert!(out.status.code().is_some());
    assert!(fs::read_to_string(&path).unwrap().contains("user-invocable: true"));
    assert!(c.shutdown().success());
}

#[test]
fn document_links_resolve_inside_the_bundle() {
    let t = Tree::new();
    let guide = t.write(".dsh/skills/my-skill/references/guide.md", "# Guide\n");
    let text = "---\nname: my-skill\ndescription: D.\n---\nRead [the guide](references/guide.md) and [gone](references/gone.md).\n";
    let path = t.write(".dsh/skills/my-skill/SKILL.md", text);
    let mut c = t.client(&[]);
    let u = c.open(&path, text);
    let d = c.diagnostics(&u, 1);
    assert_eq!(codes(&d), ["broken-reference"], "the broken one carries lint's diagnostic");
    let r = c.request("textDocument/documentLink", json!({ "textDocument": { "uri": u } }));
    let links = r["result"].as_array().unwrap();
    assert_eq!(links.len(), 1, "{links:?}");
    assert_eq!(links[0]["target"], uri(&guide));
    assert_eq!(links[0]["range"], json!({ "start": pos(4, 17), "end": pos(4, 36) }));
    assert!(c.shutdown().success());
}

/// Used by the hostile tests: one small skill, open, with its diagnostics in.
pub fn small_skill(t: &Tree, c: &mut Client) -> String {
    let p = t.write(".dsh/skills/small/SKILL.md", "---\nname: small\ndescription: D.\n---\nB\n");
    let u = c.open(&p, &fs::read_to_string(&p).unwrap());
    c.diagnostics(&u, 1);
    u
}

pub fn hover_answers(c: &mut Client, u: &str) {
    let h = c.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": pos(1, 1) }));
    assert!(h["result"]["contents"]["value"].as_str().unwrap().contains("`name`"), "{h}");
}

#[allow(dead_code)]
pub fn path_of(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

/// A broken lint configuration file is shown to the user; the server goes on with defaults.
#[test]
fn a_broken_configuration_file_does_not_end_the_session() {
    let t = Tree::new();
    t.write(".dsh-skills-lint.yaml", "rules: [unclosed\n");
    let path = t.write(".dsh/skills/my-skill/SKILL.md", LEGACY);
    let mut c = t.client(&[]);
    let u = c.open(&path, LEGACY);
    let d = c.diagnostics(&u, 1);
    assert!(codes(&d).contains(&"legacy-invocation-key".to_string()), "{d:?}");
    let shown: Vec<&Value> = c.inbox.iter().filter(|m| m["method"] == "window/showMessage").collect();
    assert_eq!(shown.len(), 1, "{:?}", c.inbox);
    assert!(shown[0]["params"]["message"].as_str().unwrap().contains(".dsh-skills-lint.yaml"), "{}", shown[0]);
    assert!(c.shutdown().success());
}

/// The fix-all action writes what `dsh-skills lint --fix` writes.
#[test]
fn fix_all_is_lint_fix() {
    let t = Tree::new();
    let text = "---\nname: my-skill\ndescription: D.\nuserInvocable: true\ndisableModelInvocation: false\n---\nBody.\n";
    let path = t.write(".dsh/skills/my-skill/SKILL.md", text);
    let mut c = t.client(&[]);
    let u = c.open(&path, text);
    c.diagnostics(&u, 1);
    let r = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": u },
            "range": { "start": pos(0, 0), "end": pos(0, 0) },
            "context": { "diagnostics": [], "only": ["source.fixAll"] },
        }),
    );
    let actions = r["result"].as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    let fixed = apply_edits(text, actions[0]["edit"]["changes"][&u].as_array().unwrap());
    let out = super::support::command(&t.project, &t.home).args(["lint", "--fix"]).output().unwrap();
    assert!(out.status.code().is_some());
    assert_eq!(fixed, fs::read_to_string(&path).unwrap(), "the same text as `lint --fix`");
    assert_ne!(fixed, text);
    assert!(c.shutdown().success());
}

/// A client that registers file watchers dynamically is asked to, once, right after
/// `initialized` (the server once swallowed that notification and never asked).
#[test]
fn file_watchers_are_registered_after_initialized() {
    let t = Tree::new();
    let file = t.write(".agents/skills/a/SKILL.md", "---\nname: a\ndescription: Use when a.\n---\nBody.\n");
    let caps = json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    let mut c = Client::start_with(&t.project, &t.home, &t.project, &[], caps);
    let u = c.open(&file, &fs::read_to_string(&file).unwrap());
    c.diagnostics(&u, 1);
    let asked: Vec<&Value> = c.inbox.iter().filter(|m| m["method"] == "client/registerCapability").collect();
    assert_eq!(asked.len(), 1, "{:#?}", c.inbox);
    let reg = &asked[0]["params"]["registrations"][0];
    assert_eq!(reg["method"], "workspace/didChangeWatchedFiles");
    assert!(reg["registerOptions"]["watchers"].to_string().contains("SKILL.md"), "{reg:#}");
    // A client without dynamic registration is not asked.
    let mut c = t.client(&[]);
    let u = c.open(&file, &fs::read_to_string(&file).unwrap());
    c.diagnostics(&u, 1);
    assert!(!c.inbox.iter().any(|m| m["method"] == "client/registerCapability"), "{:#?}", c.inbox);
}

#[test]
fn the_configured_baseline_hides_known_findings_and_shows_new_ones() {
    let t = Tree::new();
    let path =
        t.write(".dsh/skills/my-skill/SKILL.md", "---\nname: my-skill\ndescription: D.\ncolour: red\n---\nBody.\n");
    let out = super::support::command(&t.project, &t.home)
        .args(["lint", "--write-baseline", ".dsh-skills-baseline.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    t.write(".dsh-skills-lint.yaml", "baseline: .dsh-skills-baseline.json\n");
    let mut c = t.client(&[]);
    let text = fs::read_to_string(&path).unwrap();
    let u = c.open(&path, &text);
    assert_eq!(c.diagnostics(&u, 1), Vec::<Value>::new(), "the known finding is not shown");
    // A new unknown key below it: shown, the known one still not.
    c.notify("textDocument/didChange", change(&u, 2, pos(4, 0), pos(4, 0), "size: 2\n"));
    let d = c.diagnostics(&u, 2);
    assert_eq!(codes(&d), ["unknown-key"]);
    assert!(d[0]["message"].as_str().unwrap().contains("size"), "{d:?}");
    assert!(c.shutdown().success());
}
