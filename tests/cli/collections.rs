//! Every skill in any repository (issue 25): the layouts skills are kept in outside a harness
//! root — a collection with tiers and a template at the top, a plugin marketplace, category
//! folders, symlink mirrors for other agents, a project that uses the harness and keeps more
//! skills elsewhere — built as trees from the study of public repositories. `lint`, `lint .`
//! and `list` (human and JSON) are pinned by golden files; every skill is read once, no
//! placement rule fires outside a root, no README is taken for a skill, and every remedy works
//! when applied (the finding goes, the skill appears in the catalog, no error appears).
//! Regenerate the golden files with `UPDATE_GOLDEN=1 cargo test --test cli collections::`.

use crate::support;

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

const PLACEMENT: &[&str] = &["nested-too-deep", "root-level-skill-md", "ignored-entry", "skill-md-case"];

struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

fn skill(root: &Path, rel: &str, name: &str) {
    write(
        root,
        &format!("{rel}/SKILL.md"),
        &format!("---\nname: {name}\ndescription: Use when {name} is needed.\n---\n\nBody of {name}.\n"),
    );
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn link(root: &Path, rel: &str, target: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(target, p).unwrap();
}

/// One layout under `<tmp>/repo` (a git repository) with an empty `<tmp>/home`.
fn layout(name: &str) -> Tree {
    let dir = tempfile::Builder::new().prefix("dsh-coll-").tempdir_in("/tmp").unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    let r = &root.join("repo");
    fs::create_dir_all(r.join(".git")).unwrap();
    fs::create_dir_all(root.join("home")).unwrap();
    match name {
        // A collection: skills/ with hidden tiers, one template skill at the top, and the
        // repository's own Markdown beside it.
        "collection" => {
            for f in ["README.md", "AGENTS.md", "CLAUDE.md", "CONTRIBUTING.md"] {
                write(r, f, "# Not a skill\n\nSee skills/.\n");
            }
            skill(r, "template", "template-skill");
            skill(r, "skills/alpha", "alpha");
            skill(r, "skills/beta", "beta");
            write(r, "skills/README.md", "# The skills\n");
            skill(r, "skills/.curated/gamma", "gamma");
            skill(r, "skills/.system/delta", "delta");
            // A skill's own template is its content.
            skill(r, "skills/alpha/templates/example", "example");
        }
        // A Claude Code plugin marketplace: plugins/<plugin>/skills/<name>.
        "marketplace" => {
            write(
                r,
                ".claude-plugin/marketplace.json",
                "{\n  \"name\": \"m\",\n  \"plugins\": [\n    {\"name\": \"docs\", \"source\": \"./plugins/docs\"},\n    \
                 {\"name\": \"tools\", \"source\": \"./plugins/tools\"}\n  ]\n}\n",
            );
            write(r, "plugins/docs/.claude-plugin/plugin.json", "{\"name\": \"docs\"}\n");
            skill(r, "plugins/docs/skills/writer", "writer");
            skill(r, "plugins/tools/skills/linter", "linter");
            skill(r, "plugins/tools/skills/formatter", "formatter");
            write(r, "README.md", "# Marketplace\n");
        }
        // Category folders, a flat category, and what the walk must not enter.
        "categories" => {
            skill(r, "data/skills/csv-tools", "csv-tools");
            skill(r, "web/skills/fetcher", "fetcher");
            skill(r, "scientific-skills/folding", "folding");
            skill(r, "scientific-skills/docking", "docking");
            skill(r, "node_modules/dep/skills/dep", "dep");
            write(r, ".gitignore", "generated/\n");
            skill(r, "generated/skills/tmp", "tmp");
        }
        // Mirrors for other agents: a SKILL.md linked into .gemini, a skill folder linked into
        // .claude, a whole folder linked as .codex/skills.
        "mirrors" => {
            skill(r, "skills/alpha", "alpha");
            skill(r, "skills/beta", "beta");
            fs::create_dir_all(r.join(".gemini/skills/alpha")).unwrap();
            link(r, ".gemini/skills/alpha/SKILL.md", "../../../skills/alpha/SKILL.md");
            link(r, ".claude/skills/beta", "../../skills/beta");
            link(r, ".codex/skills", "../skills");
        }
        // A project that uses the harness and keeps more skills elsewhere.
        "project" => {
            skill(r, ".agents/skills/own", "own");
            skill(r, "tools/skills/extra", "extra");
            skill(r, "tools/skills/more", "more");
        }
        other => panic!("no layout {other}"),
    }
    Tree { _dir: dir, root }
}

const LAYOUTS: &[&str] = &["collection", "marketplace", "categories", "mirrors", "project"];

impl Tree {
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let t = self.root.to_string_lossy().into_owned();
        let out = support::command(&self.root.join("repo"), &self.root.join("home"))
            .args(args)
            .args(["--no-config", "--color", "never"])
            .env("COLUMNS", "100")
            .output()
            .unwrap();
        let clean = |b: &[u8]| String::from_utf8_lossy(b).replace(&t, "[T]");
        (out.status.code().unwrap_or(-1), clean(&out.stdout), clean(&out.stderr))
    }

    fn json(&self, args: &[&str]) -> (i32, Value) {
        let (code, out, err) = self.run(args);
        let v = serde_json::from_str(&out.replace("[T]", &self.root.to_string_lossy()))
            .unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
        (code, v)
    }
}

fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/collections").join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, actual).unwrap();
        return;
    }
    let expected =
        fs::read_to_string(&path).unwrap_or_else(|_| panic!("missing {}; run UPDATE_GOLDEN=1", path.display()));
    assert!(expected == actual, "{name} differs:\n--- expected\n{expected}\n--- actual\n{actual}");
}

fn findings(v: &Value) -> Vec<Value> {
    v["findings"].as_array().cloned().unwrap_or_default()
}

/// The distinct `SKILL.md` files of the repository a reader would count (no `.git`, no
/// `node_modules`, nothing ignored, a skill's own templates not counted, links resolved).
fn expected_skills(layout: &str) -> usize {
    match layout {
        "collection" => 5,
        "marketplace" => 3,
        "categories" => 4,
        "mirrors" => 2,
        "project" => 3,
        _ => unreachable!(),
    }
}

#[test]
fn golden_outputs() {
    for name in LAYOUTS {
        let t = layout(name);
        for (file, args) in [
            ("lint.txt", vec!["lint"]),
            ("lint-dot.txt", vec!["lint", "."]),
            ("list.txt", vec!["list"]),
            ("lint.json", vec!["lint", "--format", "json"]),
        ] {
            let (code, out, err) = t.run(&args);
            let mut s = format!("$ dsh-skills {}\n[exit {code}]\n{out}", args.join(" "));
            if !err.is_empty() {
                s.push_str("--- stderr\n");
                s.push_str(&err);
            }
            golden(&format!("{name}-{file}"), &s);
        }
        let (_, v) = t.json(&["list", "--format", "json"]);
        let pinned = serde_json::json!({"unscanned": v["unscanned"], "skills": v["skills"].as_array().unwrap().iter().map(|s| &s["name"]).collect::<Vec<_>>()});
        let text = serde_json::to_string_pretty(&pinned).unwrap().replace(&*t.root.to_string_lossy(), "[T]");
        golden(&format!("{name}-list.json"), &format!("{text}\n"));
    }
}

#[test]
fn every_skill_is_read_once_and_nothing_is_misplaced() {
    for name in LAYOUTS {
        let t = layout(name);
        for args in [&["lint", "--format", "json"][..], &["lint", "--format", "json", "."]] {
            let (code, v) = t.json(args);
            let what = format!("{name}: {args:?}");
            assert_eq!(v["summary"]["files"], expected_skills(name), "{what}: {v:#}");
            // A valid repository exits 0.
            assert_eq!(code, 0, "{what}: {v:#}");
            for f in findings(&v) {
                let path = f["path"].as_str().unwrap();
                assert!(!PLACEMENT.contains(&f["rule"].as_str().unwrap()), "{what}: placement outside a root: {f:#}");
                let file = path.rsplit('/').next().unwrap();
                assert!(!["README.md", "AGENTS.md", "CLAUDE.md", "CONTRIBUTING.md"].contains(&file), "{what}: {f:#}");
                assert!(!path.contains("node_modules") && !path.contains("generated"), "{what}: {f:#}");
            }
        }
        // `list` names every skill no root scans, once.
        let (_, v) = t.json(&["list", "--format", "json"]);
        let named: usize =
            v["unscanned"]["folders"].as_array().unwrap().iter().map(|f| f["skills"].as_array().unwrap().len()).sum();
        let loaded = v["skills"].as_array().unwrap().len();
        assert_eq!(named + loaded, expected_skills(name), "{name}: {v:#}");
    }
}

#[test]
fn severity_follows_what_the_repository_is() {
    // A collection: skills outside roots are the point, a note.
    let (_, v) = layout("collection").json(&["lint", "--format", "json"]);
    let unscanned: Vec<Value> = findings(&v).into_iter().filter(|f| f["rule"] == "unscanned-skill-folder").collect();
    assert!(!unscanned.is_empty() && unscanned.iter().all(|f| f["severity"] == "info"), "{v:#}");
    // A project that uses the harness: a warning.
    let (_, v) = layout("project").json(&["lint", "--format", "json"]);
    let f = findings(&v).into_iter().find(|f| f["rule"] == "unscanned-skill-folder").unwrap();
    assert_eq!(f["severity"], "warning", "{f:#}");
    assert!(f["path"].as_str().unwrap().ends_with("repo/tools/skills"), "{f:#}");
}

#[test]
fn a_mirror_is_one_skill_with_its_other_paths() {
    let t = layout("mirrors");
    let (_, v) = t.json(&["lint", "--format", "json"]);
    let mirrored = v["outsideRoots"]["mirrored"].as_array().unwrap();
    assert_eq!(mirrored.len(), 2, "{v:#}");
    assert!(mirrored[0]["mirrors"][0].as_str().unwrap().ends_with(".gemini/skills/alpha"), "{v:#}");
    assert!(mirrored[1]["mirrors"][0].as_str().unwrap().ends_with(".claude/skills/beta"), "{v:#}");
    // Reported once, where the skill really is.
    let (_, l) = t.json(&["list", "--format", "json"]);
    let folders: Vec<&str> =
        l["unscanned"]["folders"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(folders.len(), 1, "{l:#}");
    assert!(folders[0].ends_with("repo/skills"), "{folders:?}");
}

#[test]
fn lint_of_a_folder_reads_it_as_a_collection_and_root_keeps_root_rules() {
    let t = layout("categories");
    let (code, v) = t.json(&["lint", "--format", "json", "scientific-skills"]);
    assert_eq!(code, 0);
    assert_eq!(v["inputs"][0]["kind"], "skill-folders", "{v:#}");
    assert_eq!(v["summary"]["files"], 2);
    // The same folder with --root is a root: a skill folder nested in it is too deep.
    skill(&t.root.join("repo"), "scientific-skills/group/inner", "inner");
    let (code, v) = t.json(&["lint", "--format", "json", "--root", "scientific-skills", "scientific-skills"]);
    assert_eq!(v["inputs"][0]["kind"], "skills-root", "{v:#}");
    assert_eq!(code, 1, "{v:#}");
    assert!(findings(&v).iter().any(|f| f["rule"] == "nested-too-deep"), "{v:#}");
    // Without --root, the nested one is just another skill.
    let (code, v) = t.json(&["lint", "--format", "json", "scientific-skills"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["files"], 3);
    // Flat files alone are skills only in a root: the error says how to lint them as one.
    write(&t.root.join("repo"), "flat/one.md", "---\nname: one\ndescription: d\n---\n");
    let (code, _, err) = t.run(&["lint", "flat"]);
    assert_eq!(code, 2);
    assert!(err.contains("--root flat flat"), "{err}");
}

#[test]
fn manifests_and_same_names_are_checked() {
    let t = layout("marketplace");
    let r = t.root.join("repo");
    write(
        &r,
        ".claude-plugin/marketplace.json",
        "{\n  \"plugins\": [\n    {\"name\": \"docs\", \"source\": \"./plugins/docs\", \"skills\": [\"./skills/writer\", \"./skills/gone\"]},\n    \
         {\"name\": \"tools\", \"source\": \"./plugins/tools\", \"skills\": [\"./skills/linter\"]}\n  ]\n}\n",
    );
    skill(&r, "plugins/docs/skills/linter", "linter");
    let (code, v) = t.json(&["lint", "--format", "json"]);
    assert_eq!(code, 1, "{v:#}");
    let all = findings(&v);
    let rules: Vec<(&str, &str)> =
        all.iter().map(|f| (f["rule"].as_str().unwrap(), f["message"].as_str().unwrap())).collect();
    let has = |rule: &str, text: &str| rules.iter().any(|(r, m)| *r == rule && m.contains(text));
    assert!(has("manifest-missing-path", "`./skills/gone` (line 3)"), "{rules:#?}");
    assert!(has("manifest-unlisted-skill", "no plugin"), "{rules:#?}");
    assert!(has("name-collision", "`linter`"), "{rules:#?}");
    write(&r, "plugins/docs/.claude-plugin/plugin.json", "{\"name\": \"docs\",\n \"skills\": 3}\n");
    write(&r, ".claude-plugin/marketplace.json", "{\"plugins\": [\n  {\"name\": \"docs\",}\n]}\n");
    let (_, v) = t.json(&["lint", "--format", "json"]);
    let messages: Vec<String> = findings(&v)
        .iter()
        .filter(|f| f["rule"] == "manifest-invalid")
        .map(|f| format!("{} {}", f["path"], f["message"]))
        .collect();
    assert!(messages.iter().any(|m| m.contains("marketplace.json") && m.contains("line 2, column")), "{messages:#?}");
    assert!(messages.iter().any(|m| m.contains("plugin.json") && m.contains("a number")), "{messages:#?}");
}

/// Claude Code reads a plugin `source` from the marketplace root and does not prepend
/// `metadata.pluginRoot` (though its reference says so), and rejects a source without `./`:
/// a source written as the reference suggests is reported with the path that works, and
/// writing that path (the help's edit, applied) leaves no manifest finding.
#[test]
fn plugin_sources_resolve_from_the_marketplace_root_and_the_fix_works() {
    let t = layout("marketplace");
    let r = t.root.join("repo");
    skill(&r, "plugins/docs/skills/writer", "writer");
    let manifest = |source: &str| {
        format!(
            "{{\n  \"name\": \"m\",\n  \"metadata\": {{\"pluginRoot\": \"./plugins\"}},\n  \"plugins\": [\n    \
             {{\"name\": \"docs\", \"source\": \"{source}\"}}\n  ]\n}}\n"
        )
    };
    let manifest_findings = |v: &Value| -> Vec<Value> {
        findings(v).into_iter().filter(|f| f["rule"].as_str().unwrap().starts_with("manifest-")).collect()
    };
    // As real marketplaces write it (pluginRoot set, the source the full path): nothing to say.
    write(&r, ".claude-plugin/marketplace.json", &manifest("./plugins/docs"));
    let (_, v) = t.json(&["lint", "--format", "json"]);
    assert_eq!(manifest_findings(&v), Vec::<Value>::new(), "{v:#}");
    // As the reference suggests: `./docs` under pluginRoot, and the bare `docs`.
    for (source, rule) in [("./docs", "manifest-missing-path"), ("docs", "manifest-invalid")] {
        write(&r, ".claude-plugin/marketplace.json", &manifest(source));
        let (code, v) = t.json(&["lint", "--format", "json"]);
        assert_eq!(code, 1, "{v:#}");
        let found = manifest_findings(&v);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0]["rule"], rule, "{found:#?}");
        let help = found[0]["help"][0].as_str().unwrap();
        let edit = help.split('`').nth(1).expect("the help quotes the edit");
        assert_eq!(edit, "\"source\": \"./plugins/docs\"", "{help}");
        // Apply the edit.
        let text = manifest(source).replace(&format!("\"source\": \"{source}\""), edit);
        write(&r, ".claude-plugin/marketplace.json", &text);
        let (_, after) = t.json(&["lint", "--format", "json"]);
        assert_eq!(manifest_findings(&after), Vec::<Value>::new(), "{after:#}");
        assert_eq!(after["summary"]["errors"], v["summary"]["errors"].as_u64().unwrap() - 1, "{after:#}");
    }
}

/// A manifest path that differs from a folder beside it only in case and separators
/// (`activecampaign` for `active-campaign`, as in a real marketplace) gets that folder as help;
/// written in, the finding goes. A name one letter from another folder gets no guess.
#[test]
fn a_manifest_path_off_by_separators_gets_the_folder_meant() {
    let t = layout("marketplace");
    let r = t.root.join("repo");
    skill(&r, "plugins/doc-writer/skills/writer-one", "writer-one");
    skill(&r, "plugins/canvas/skills/draw", "draw");
    let manifest = |source: &str, skills: &str, other: &str| {
        format!(
            "{{\n  \"name\": \"m\",\n  \"plugins\": [\n    {{\"name\": \"docs\", \"source\": \"{source}\", \
             \"skills\": [\"{skills}\"]}},\n    {{\"name\": \"canva\", \"source\": \"{other}\"}}\n  ]\n}}\n"
        )
    };
    let missing = |v: &Value| -> Vec<Value> {
        findings(v).into_iter().filter(|f| f["rule"] == "manifest-missing-path").collect()
    };
    let quoted = |f: &Value| f["help"][0].as_str().unwrap().split('`').nth(1).unwrap().to_string();
    write(
        &r,
        ".claude-plugin/marketplace.json",
        &manifest("./plugins/DocWriter", "./skills/writer-one", "./plugins/canva"),
    );
    let (_, v) = t.json(&["lint", "--format", "json"]);
    let found = missing(&v);
    assert_eq!(found.len(), 2, "{found:#?}");
    let source = found.iter().find(|f| f["message"].as_str().unwrap().contains("DocWriter")).unwrap();
    assert_eq!(quoted(source), "\"source\": \"./plugins/doc-writer\"", "{source:#}");
    let canva = found.iter().find(|f| f["message"].as_str().unwrap().contains("canva`")).unwrap();
    assert!(!canva["help"][0].as_str().unwrap().contains("canvas"), "{canva:#}");
    // The source fixed, a skills path off the same way.
    write(
        &r,
        ".claude-plugin/marketplace.json",
        &manifest("./plugins/doc-writer", "./skills/Writer_One", "./plugins/canvas"),
    );
    let (_, v) = t.json(&["lint", "--format", "json"]);
    let found = missing(&v);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(quoted(&found[0]), "\"./skills/writer-one\"", "{:#}", found[0]);
    write(
        &r,
        ".claude-plugin/marketplace.json",
        &manifest("./plugins/doc-writer", "./skills/writer-one", "./plugins/canvas"),
    );
    let (_, v) = t.json(&["lint", "--format", "json"]);
    assert_eq!(missing(&v), Vec::<Value>::new(), "{v:#}");
}

/// A mirror for another agent left behind when the skills moved: its `SKILL.md` links to
/// nothing. The walk reports it (it used to pass over it without a word), and where the
/// repository holds one skill folder of that name, the help's `ln -sf` relinks it: run, the
/// finding goes and the folder becomes a mirror of the skill.
#[test]
fn a_dangling_skill_md_link_is_reported_and_the_relink_works() {
    let t = layout("mirrors");
    let r = t.root.join("repo");
    skill(&r, "team/skills/moved", "moved");
    fs::create_dir_all(r.join(".gemini/skills/moved")).unwrap();
    link(&r, ".gemini/skills/moved/SKILL.md", "../../../moved/SKILL.md");
    fs::create_dir_all(r.join(".gemini/skills/gone")).unwrap();
    link(&r, ".gemini/skills/gone/SKILL.md", "../../../gone/SKILL.md");
    let (_, v) = t.json(&["lint", "--format", "json"]);
    let dangling: Vec<Value> = findings(&v).into_iter().filter(|f| f["rule"] == "dangling-symlink").collect();
    assert_eq!(dangling.len(), 2, "{dangling:#?}");
    let gone = dangling.iter().find(|f| f["path"].as_str().unwrap().contains("/gone/")).unwrap();
    assert_eq!(gone["help"][0], "fix or remove the link", "{gone:#}");
    let moved = dangling.iter().find(|f| f["path"].as_str().unwrap().contains("/moved/")).unwrap();
    let help = moved["help"][0].as_str().unwrap();
    let command = help.split('`').nth(1).unwrap();
    assert!(command.starts_with("ln -sf ../../../team/skills/moved/SKILL.md "), "{help}");
    let ran = std::process::Command::new("sh").arg("-c").arg(command).current_dir(&r).status().unwrap();
    assert!(ran.success());
    let (_, after) = t.json(&["lint", "--format", "json"]);
    let left: Vec<Value> = findings(&after).into_iter().filter(|f| f["rule"] == "dangling-symlink").collect();
    assert_eq!(left.len(), 1, "{left:#?}");
    assert!(left[0]["path"].as_str().unwrap().contains("/gone/"), "{left:#?}");
    assert_eq!(after["summary"]["errors"], v["summary"]["errors"], "{after:#}");
    let mirrored = after["outsideRoots"]["mirrored"].as_array().unwrap();
    assert!(
        mirrored.iter().any(|m| m["dir"].as_str().unwrap().ends_with("team/skills/moved")
            && m["mirrors"][0].as_str().unwrap().ends_with(".gemini/skills/moved")),
        "{after:#}"
    );
}

/// Apply a remedy in `tree`: the extra arguments the harness needs afterwards.
fn apply(action: &Value) -> Vec<String> {
    match action["kind"].as_str().unwrap() {
        "customDir" => vec!["--custom-dir".into(), action["path"].as_str().unwrap().to_string()],
        "link" => {
            for l in action["links"].as_array().unwrap() {
                let p = Path::new(l[0].as_str().unwrap());
                fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::os::unix::fs::symlink(l[1].as_str().unwrap(), p).unwrap();
            }
            Vec::new()
        }
        other => panic!("unexpected action {other}"),
    }
}

/// Every unscanned folder's remedy — its action, and the links `list` offers — applied in a
/// fresh copy of the layout: the folder's finding goes, no error appears, and `catalog` lists
/// the folder's skills.
#[test]
fn every_remedy_works_when_applied() {
    let mut kinds = std::collections::BTreeSet::new();
    for name in LAYOUTS {
        let t0 = layout(name);
        let (_, before) = t0.json(&["lint", "--format", "json"]);
        let (_, listed) = t0.json(&["list", "--format", "json"]);
        let old = t0.root.to_string_lossy().into_owned();
        let folders = listed["unscanned"]["folders"].as_array().unwrap().clone();
        for (i, folder) in folders.iter().enumerate() {
            let finding = findings(&before)
                .into_iter()
                .find(|f| {
                    f["rule"] == "unscanned-skill-folder" && f["path"] == folder["path"] && !f["action"].is_null()
                })
                .unwrap_or_else(|| panic!("{name}: no finding for {folder:#}"));
            let links = serde_json::json!({"kind": "link", "links": folder["remedy"]["links"]});
            for action in [finding["action"].clone(), links] {
                kinds.insert(action["kind"].as_str().unwrap().to_string());
                // A fresh tree at the same path: the paths in the advice are absolute.
                let t = layout(name);
                let action: Value =
                    serde_json::from_str(&action.to_string().replace(&old, &t.root.to_string_lossy())).unwrap();
                let extra = apply(&action);
                let mut args: Vec<&str> = vec!["lint", "--format", "json"];
                args.extend(extra.iter().map(String::as_str));
                let (_, after) = t.json(&args);
                let path = folder["path"].as_str().unwrap().replace(&old, &t.root.to_string_lossy());
                let what = format!("{name} folder {i} {action}");
                assert!(
                    !findings(&after).iter().any(|f| f["rule"] == "unscanned-skill-folder"
                        && f["path"] == path.as_str()
                        && !f["action"].is_null()),
                    "{what}: the finding stays: {after:#}"
                );
                assert_eq!(after["summary"]["errors"], 0, "{what}: {after:#}");
                // A skill linked into a root is read once, there.
                assert_eq!(after["summary"]["files"], expected_skills(name), "{what}: {after:#}");
                let mut cat: Vec<&str> = vec!["catalog", "--format", "json"];
                cat.extend(extra.iter().map(String::as_str));
                let (code, c) = t.json(&cat);
                assert_eq!(code, 0, "{what}: {c:#}");
                let names: Vec<&str> =
                    c["entries"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
                for s in folder["skills"].as_array().unwrap() {
                    let entry = s.as_str().unwrap().trim_end_matches('/');
                    assert!(
                        names.iter().any(|n| entry.contains(n) || n.contains(entry)),
                        "{what}: {entry} not in {names:?}"
                    );
                }
            }
        }
    }
    assert!(kinds.contains("customDir") && kinds.contains("link"), "{kinds:?}");
}
