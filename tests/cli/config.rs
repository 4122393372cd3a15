//! Reading the harness's configuration (issue 5), black-box: each fixture under
//! `fixtures/config/<case>/` holds a `$DSH_HOME` tree (`dsh/`), the directory dsh is launched
//! from (`launch/`, also the session cwd) and, for some, a fake installed package
//! (`install/`). The tree is copied to a fresh temporary directory with an empty `$HOME`, the
//! binary runs with only `DSH_HOME` pointing at it, and each test checks the roots, the catalog
//! and the reported origin of every setting.

use crate::support;

use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Fixture {
    _dir: tempfile::TempDir,
    base: PathBuf,
}

impl Fixture {
    fn new(case: &str) -> Fixture {
        let dir = tempfile::Builder::new().prefix("dsh-config-").tempdir().unwrap();
        let base = fs::canonicalize(dir.path()).unwrap();
        let mut up = Some(base.as_path());
        while let Some(p) = up {
            assert!(!p.join(".git").exists(), "{} has a .git ancestor; set TMPDIR elsewhere", base.display());
            up = p.parent();
        }
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/config").join(case);
        support::copy_tree(&src, &base);
        for d in ["home", "launch", "dsh"] {
            fs::create_dir_all(base.join(d)).unwrap();
        }
        Fixture { _dir: dir, base }
    }

    fn path(&self, rel: &str) -> String {
        self.base.join(rel).to_string_lossy().into_owned()
    }

    fn dsh_home(&self) -> String {
        self.path("dsh")
    }

    fn launch(&self) -> String {
        self.path("launch")
    }

    /// `$DSH_HOME/profiles/node_modules/<package>` → `install/<dir>`, as the launcher links it.
    #[cfg(unix)]
    fn link_package(&self, package: &str, install_dir: &str) {
        let link = self.base.join("dsh/profiles/node_modules").join(package);
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(self.base.join("install").join(install_dir), link).unwrap();
    }

    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_dsh-skills"));
        cmd.args(args)
            .current_dir(self.launch())
            .env_clear()
            .env("HOME", self.path("home"))
            .env("DSH_HOME", self.dsh_home())
            .env("LC_ALL", "C");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        support::check_json(args, &out);
        out
    }

    fn json(&self, args: &[&str], env: &[(&str, &str)]) -> Value {
        let mut all = args.to_vec();
        all.extend(["--format", "json"]);
        let out = self.run(&all, env);
        assert!(
            out.status.code() == Some(0),
            "{args:?}: exit {:?}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

fn roots(list: &Value) -> Vec<(String, String)> {
    list["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["source"].as_str().unwrap().to_string(), r["path"].as_str().unwrap().to_string()))
        .collect()
}

fn skills(list: &Value) -> Vec<String> {
    list["skills"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()
}

fn entries(catalog: &Value) -> Vec<String> {
    catalog["entries"]
        .as_array()
        .map_or(Vec::new(), |e| e.iter().map(|x| x["name"].as_str().unwrap().to_string()).collect())
}

fn file_origin(path: &str, line: u64) -> Value {
    json!({"kind": "file", "file": path, "line": line})
}

fn provider<'a>(list: &'a Value, layer: &str, index: usize) -> &'a Value {
    let layer = list["config"]["layers"].as_array().unwrap().iter().find(|l| l["name"] == layer).unwrap();
    &layer["providers"][index]
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn no_config_files_is_web_standard_and_matches_no_config() {
    let fx = Fixture::new("no-config-files");
    let list = fx.json(&["list"], &[]);
    let cfg = &list["config"];
    assert_eq!(cfg["profile"], json!({"value": "web", "origin": {"kind": "default"}}));
    assert_eq!(cfg["dshHome"]["origin"], json!({"kind": "env", "name": "DSH_HOME"}));
    assert_eq!(cfg["preset"]["value"], "standard");
    assert_eq!(
        cfg["preset"]["origin"],
        json!({"kind": "shipped", "file": "packages/bundle/web-app/cordis.patch.yml", "line": 452})
    );
    let statuses: Vec<&str> = cfg["read"].as_array().unwrap().iter().map(|f| f["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["absent", "absent", "absent"]);
    assert_eq!(cfg["layers"][0], json!({"name": "global", "providers": []}));
    let p = provider(&list, "preset:standard", 0);
    assert_eq!(p["row"]["origin"]["file"], "apps/cli/config/agent-presets/standard/agent.cordis.yml");
    assert_eq!(p["settings"]["dshHome"]["value"], fx.dsh_home());
    assert_eq!(p["settings"]["dshHome"]["origin"], json!({"kind": "env", "name": "DSH_HOME"}));
    assert_eq!(p["settings"]["agentsHome"]["origin"], json!({"kind": "default"}));
    assert_eq!(p["settings"]["customSkillDirs"]["value"], json!([]));
    assert_eq!(cfg["catalogDescriptionMaxLength"], json!({"value": 500, "origin": {"kind": "default"}}));
    assert_eq!(cfg["badge"]["value"], "disabled");
    assert_eq!(
        cfg["badge"]["origin"],
        json!({"kind": "shipped", "file": "packages/bundle/base/cordis.patch.yml", "line": 245})
    );
    assert_eq!(skills(&list), ["alpha"]);

    // Everything but the configuration report equals the flags-only run.
    let mut bare = list.clone();
    let mut flags_only = fx.json(&["list", "--no-config"], &[]);
    bare.as_object_mut().unwrap().remove("config");
    assert_eq!(flags_only["config"]["files"], false);
    flags_only.as_object_mut().unwrap().remove("config");
    assert_eq!(bare, flags_only);
    assert_eq!(fx.json(&["catalog"], &[]), fx.json(&["catalog", "--no-config"], &[]));
    assert_eq!(entries(&fx.json(&["catalog"], &[])), ["alpha"]);

    // Same with --profile headless: the base rows, one global provider.
    let headless = fx.json(&["list", "--profile", "headless"], &[]);
    assert_eq!(headless["config"]["preset"], Value::Null);
    assert_eq!(provider(&headless, "global", 0)["row"]["origin"]["file"], "packages/bundle/base/cordis.patch.yml");
    assert_eq!(roots(&headless), roots(&list));
}

#[test]
fn a_home_patch_adds_custom_dirs_to_the_headless_host_row() {
    let fx = Fixture::new("headless-home-patch");
    let patch = fx.path("dsh/cordis.patch.yml");
    let list = fx.json(&["list", "--profile", "headless"], &[]);
    let launch = fx.launch();
    assert_eq!(
        roots(&list),
        [
            ("project-dsh".to_string(), format!("{launch}/.dsh/skills")),
            ("project-agents".into(), format!("{launch}/.agents/skills")),
            ("custom".into(), format!("{launch}/team-skills")),
            // No tilde expansion for customSkillDirs: `~/skills` is relative to the launch dir.
            ("custom".into(), format!("{launch}/~/skills")),
            ("user-dsh".into(), format!("{}/skills", fx.dsh_home())),
            ("user-agents".into(), format!("{}/.agents/skills", fx.path("home"))),
        ]
    );
    let dirs = &provider(&list, "global", 0)["settings"]["customSkillDirs"];
    assert_eq!(dirs["origin"], file_origin(&patch, 5));
    assert_eq!(dirs["entries"][0]["origin"], file_origin(&patch, 6));
    assert_eq!(dirs["entries"][1]["origin"], file_origin(&patch, 7));
    assert_eq!(provider(&list, "global", 0)["row"]["origin"]["line"], 240);
    assert_eq!(list["config"]["read"][1], json!({"role": "home patch layer", "path": patch, "status": "read"}));
    assert_eq!(entries(&fx.json(&["catalog", "--profile", "headless"], &[])), ["alpha", "beta"]);

    // --launch-dir moves where the file's relative paths land; flags still resolve from here.
    let elsewhere = fx.json(&["list", "--profile", "headless", "--launch-dir", ".."], &[]);
    assert_eq!(roots(&elsewhere)[2].1, format!("{}/team-skills", fx.base.display()));
    assert_eq!(elsewhere["config"]["launchDir"]["origin"], json!({"kind": "flag", "name": "--launch-dir"}));

    // A flag replaces the configured list rather than adding to it.
    let flagged = fx.json(&["list", "--profile", "headless", "--custom-dir", "team-skills"], &[]);
    let custom: Vec<_> = roots(&flagged).into_iter().filter(|(s, _)| s == "custom").collect();
    assert_eq!(custom, [("custom".to_string(), format!("{launch}/team-skills"))]);
    let dirs = &provider(&flagged, "global", 0)["settings"]["customSkillDirs"];
    assert_eq!(dirs["origin"], json!({"kind": "flag", "name": "--custom-dir"}));
    assert_eq!(dirs["note"], "replaces the configured list");

    // Under web the patch edits the disabled host row; the preset's rows are what count.
    let web = fx.json(&["list"], &[]);
    assert!(roots(&web).iter().all(|(s, _)| s != "custom"));
    assert_eq!(web["config"]["layers"][0]["providers"], json!([]));
    assert_eq!(web["config"]["loaderWarnings"], json!([]));
    let note = web["config"]["notes"][0].as_str().unwrap();
    assert!(note.starts_with(&format!("{patch}:4: this configures the host `skill-filesystem` row")), "{note}");
}

#[test]
fn the_home_patch_outranks_the_profile_patch() {
    let fx = Fixture::new("profile-patch-overridden");
    let home_patch = fx.path("dsh/cordis.patch.yml");
    let profile_patch = fx.path("dsh/profiles/headless/cordis.patch.yml");
    let list = fx.json(&["list", "--profile", "headless"], &[]);
    // The home layer's config replaced the profile layer's whole: from-profile is gone, and
    // includeDefaultRoots: false drops the project and user roots.
    assert_eq!(roots(&list), [("custom".to_string(), format!("{}/from-home", fx.launch()))]);
    let s = &provider(&list, "global", 0)["settings"];
    assert_eq!(s["customSkillDirs"]["origin"], file_origin(&home_patch, 4));
    assert_eq!(s["includeDefaultRoots"], json!({"value": false, "origin": file_origin(&home_patch, 5)}));
    assert_eq!(
        list["config"]["catalogDescriptionMaxLength"],
        json!({"value": 20, "origin": file_origin(&profile_patch, 6)})
    );
    assert_eq!(
        list["config"]["loaderWarnings"],
        json!([format!("{home_patch}:6: patch: entry \"no-such-row\" not found")])
    );
    let files: Vec<&str> =
        list["config"]["read"].as_array().unwrap().iter().map(|f| f["status"].as_str().unwrap()).collect();
    assert_eq!(files, ["read", "read"]);
    let catalog = fx.json(&["catalog", "--profile", "headless"], &[]);
    assert_eq!(catalog["entries"], json!([{"name": "home-skill", "description": "From the home lay..."}]));
    // The flag wins over both files.
    let flagged = fx.json(&["list", "--profile", "headless", "--description-max-length", "30"], &[]);
    assert_eq!(
        flagged["config"]["catalogDescriptionMaxLength"],
        json!({"value": 30, "origin": {"kind": "flag", "name": "--description-max-length"}})
    );
    // --patch overlays come last.
    let overlay = fx.base.join("overlay.yml");
    fs::write(&overlay, "- id: skill-filesystem\n  config: {customSkillDirs: [from-profile]}\n").unwrap();
    let overlaid = fx.json(&["list", "--profile", "headless", "--patch", overlay.to_str().unwrap()], &[]);
    assert!(roots(&overlaid).contains(&("custom".to_string(), format!("{}/from-profile", fx.launch()))));
    assert_eq!(overlaid["config"]["read"][2]["role"], "--patch overlay");
}

#[test]
fn a_user_preset_chosen_through_settings_yaml() {
    let fx = Fixture::new("user-preset-settings");
    let settings = fx.path("dsh/settings.yaml");
    let preset_file = fx.path("dsh/.agent-presets/team/agent.cordis.yml");
    let list = fx.json(&["list"], &[]);
    let cfg = &list["config"];
    assert_eq!(cfg["preset"]["value"], "team");
    assert_eq!(cfg["preset"]["origin"], file_origin(&settings, 3));
    // Two filesystem providers, in row order (the second inside a group).
    let first = provider(&list, "preset:team", 0);
    let second = provider(&list, "preset:team", 1);
    assert_eq!(first["row"], json!({"id": "skill-filesystem", "origin": file_origin(&preset_file, 5)}));
    assert_eq!(second["row"], json!({"id": "second-fs", "origin": file_origin(&preset_file, 14)}));
    assert_eq!(
        second["settings"]["providerName"],
        json!({"value": "team-extra", "origin": file_origin(&preset_file, 17)})
    );
    assert_eq!(first["settings"]["customSkillDirs"]["entries"][0]["origin"], file_origin(&preset_file, 8));
    assert_eq!(cfg["catalogDescriptionMaxLength"], json!({"value": 40, "origin": file_origin(&preset_file, 24)}));
    let launch = fx.launch();
    assert_eq!(
        roots(&list),
        [
            ("project-dsh".to_string(), format!("{launch}/.dsh/skills")),
            ("project-agents".into(), format!("{launch}/.agents/skills")),
            ("custom".into(), format!("{launch}/shared")),
            ("user-dsh".into(), format!("{}/skills", fx.dsh_home())),
            ("user-agents".into(), format!("{}/.agents/skills", fx.path("home"))),
            ("custom".into(), format!("{launch}/extra")),
        ]
    );
    // Same rank (300) in two providers: provider order decides.
    let dup = list["skills"].as_array().unwrap().iter().find(|s| s["name"] == "dup").unwrap();
    assert_eq!(dup["description"], "Dup from the shared folder.");
    assert_eq!(list["shadowed"][0]["path"], format!("{launch}/extra/dup/SKILL.md"));
    assert_eq!(skills(&list), ["alpha", "dup", "only-extra"]);

    // --preset wins; a user directory named like a shipped preset is shadowed by it.
    let standard = fx.json(&["list", "--preset", "standard"], &[]);
    assert_eq!(standard["config"]["preset"]["origin"], json!({"kind": "flag", "name": "--preset"}));
    assert_eq!(provider(&standard, "preset:standard", 0)["row"]["origin"]["kind"], "shipped");
    assert!(roots(&standard).iter().all(|(s, _)| s != "custom"));

    let out = fx.run(&["list", "--preset", "nope"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("agent-presets: preset \"nope\" not found (available: standard, code, minimal, cordis, team)"),
        "{}",
        stderr(&out)
    );
}

#[cfg(unix)]
#[test]
fn the_badge_enabled_in_a_profile_patch() {
    let fx = Fixture::new("badge-enabled");
    let patch = fx.path("dsh/profiles/web/cordis.patch.yml");
    fx.link_package("@deepseek-ai/dsh-skill-badge", "skill-badge");
    let list = fx.json(&["list"], &[]);
    let cfg = &list["config"];
    assert_eq!(cfg["badge"]["value"], "enabled");
    assert_eq!(cfg["badge"]["origin"], file_origin(&patch, 3));
    let badge = provider(&list, "global", 0);
    assert_eq!(badge["kind"], "badge");
    let assets = format!("{}/assets/", fx.path("install/skill-badge"));
    assert_eq!(badge["settings"]["assets"]["value"], assets);
    let skill = list["skills"].as_array().unwrap().iter().find(|s| s["name"] == "dsh-badge").unwrap();
    assert_eq!(skill["source"], "bundled");
    assert_eq!(skill["resourceBase"]["path"], assets);
    let catalog = fx.json(&["catalog"], &[]);
    assert_eq!(entries(&catalog), ["dsh-badge"]);
    assert!(
        catalog["entries"][0]["description"]
            .as_str()
            .unwrap()
            .starts_with("Add the official \u{201C}powered by dsh\u{201D} badge")
    );
    let shown = fx.run(&["show", "dsh-badge", "--rendered"], &[]);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    let text = String::from_utf8(shown.stdout).unwrap();
    assert!(text.contains("# dsh Badge\n\nAdd the badge. (fixture copy)"), "{text}");
    assert!(text.contains(&assets), "{text}");

    // Enabled but the installed package cannot be found: said so, the entry stays exact.
    fs::remove_file(fx.base.join("dsh/profiles/node_modules/@deepseek-ai/dsh-skill-badge")).unwrap();
    let out = fx.run(&["catalog", "--format", "json"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("its installed package was not found"), "{}", stderr(&out));
    let catalog: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(entries(&catalog), ["dsh-badge"]);
    let list = fx.json(&["list"], &[]);
    assert_eq!(list["config"]["problems"].as_array().unwrap().len(), 1);
    assert_eq!(fx.run(&["show", "dsh-badge", "--rendered"], &[]).status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn js_values_recognised_unresolvable_and_the_cordis_idiom() {
    let fx = Fixture::new("js-value");
    let patch = fx.path("dsh/cordis.patch.yml");
    let team = fx.path("launch/team");
    // bundledSkillDir is an expression dsh-skills cannot evaluate: an error naming the line.
    let out = fx.run(&["list", "--profile", "headless"], &[("TEAM_SKILLS", &team)]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains(&format!("{patch}:5: cannot resolve bundledSkillDir")), "{err}");
    assert!(err.contains("pass --bundled-dir"), "{err}");
    // With the flag the rest resolves: process.env.TEAM_SKILLS is an idiom dsh-skills knows.
    let list = fx.json(&["list", "--profile", "headless", "--bundled-dir", "bundled"], &[("TEAM_SKILLS", &team)]);
    let s = &provider(&list, "global", 0)["settings"];
    assert_eq!(s["customSkillDirs"]["entries"][0], json!({"value": team, "origin": file_origin(&patch, 4)}));
    assert_eq!(s["bundledSkillDir"]["origin"], json!({"kind": "flag", "name": "--bundled-dir"}));
    assert_eq!(skills(&list), ["team-skill"]);

    // The shipped cordis preset: its skills folder in the installed dsh package.
    let out = fx.run(&["catalog", "--preset", "cordis", "--format", "json"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("the installed dsh package was not found"), "{}", stderr(&out));
    fx.link_package("@deepseek-ai/dsh", "dsh");
    let list = fx.json(&["list", "--preset", "cordis"], &[]);
    let dirs = &provider(&list, "preset:cordis", 0)["settings"]["customSkillDirs"];
    let folder = fx.path("install/dsh/config/agent-presets/cordis/skills");
    assert_eq!(
        dirs["entries"][0],
        json!({"value": folder, "origin": {"kind": "shipped", "file": "apps/cli/config/agent-presets/cordis/agent.cordis.yml", "line": 260}})
    );
    assert!(roots(&list).contains(&("custom".to_string(), folder)));
    assert_eq!(entries(&fx.json(&["catalog", "--preset", "cordis"], &[])), ["editing-cordis-compositions"]);
}

#[test]
fn a_malformed_patch_file_is_an_error_with_file_and_line() {
    let fx = Fixture::new("malformed-patch");
    let patch = fx.path("dsh/cordis.patch.yml");
    for cmd in [&["list"][..], &["catalog"], &["show", "x"]] {
        let out = fx.run(cmd, &[]);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}");
        let err = stderr(&out);
        assert!(err.contains(&format!("{patch}:3")), "{err}");
        assert!(err.contains("duplicated mapping key \"disabled\""), "{err}");
        assert!(out.stdout.is_empty());
    }
    // --no-config ignores it.
    assert_eq!(fx.run(&["list", "--no-config"], &[]).status.code(), Some(0));
    fs::write(&patch, "# nothing yet\n").unwrap();
    let err = stderr(&fx.run(&["list"], &[]));
    assert!(err.contains("empty or holds only comments"), "{err}");
    fs::write(&patch, "- id: skill-badge\n  config: [unclosed\n").unwrap();
    let err = stderr(&fx.run(&["list"], &[]));
    assert!(err.contains(&format!("{patch}:")), "{err}");
    assert!(err.contains("cannot parse the home patch layer"), "{err}");
}

#[test]
fn the_minimal_preset_mounts_no_catalog() {
    let fx = Fixture::new("minimal-preset");
    let settings = fx.path("dsh/settings.yaml");
    let list = fx.json(&["list"], &[]);
    assert_eq!(list["config"]["preset"]["value"], "minimal");
    assert_eq!(list["config"]["preset"]["origin"], file_origin(&settings, 1));
    assert_eq!(list["config"]["layers"][1], json!({"name": "preset:minimal", "providers": []}));
    assert_eq!(list["config"]["skillTool"]["value"], false);
    assert_eq!(
        list["config"]["skillTool"]["origin"],
        json!({"kind": "shipped", "file": "apps/cli/config/agent-presets/minimal/agent.cordis.yml", "line": null})
    );
    assert_eq!(list["roots"], json!([]));
    let out = fx.run(&["catalog"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains("preset `minimal` mounts no tool-skill row"), "{}", stderr(&out));
    let catalog = fx.json(&["catalog"], &[]);
    assert_eq!(catalog["text"], Value::Null);
    // The flags still describe a provider, but there is none to apply them to.
    let flagged = fx.json(&["list", "--custom-dir", "x"], &[]);
    assert!(
        flagged["config"]["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().starts_with("--custom-dir has no effect"))
    );
    let human = String::from_utf8(fx.run(&["list"], &[]).stdout).unwrap();
    assert!(human.contains("\nConfiguration\n  configuration (web profile, preset minimal):\n"), "{human}");
    assert!(human.contains(&format!("({settings}:1;")), "{human}");
}
