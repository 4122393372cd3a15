//! Lint every recorded conformance tree: each file the harness skips with a warning, and each
//! failure that makes discovery incomplete, gets an error; no file the harness loads does;
//! files it passes over silently (`skill.md`, `.markdown`, nested too deep) get warnings.

use crate::support::{self, findings, json, materialize};
use serde_json::{Value, json};
use std::fs;
use std::process::Command;

/// The path a harness warning is about: `skill file <p> ignored: …` or `skill entry <p> ignored: …`.
fn warned_path(w: &str) -> Option<&str> {
    let rest = w.strip_prefix("skill file ").or_else(|| w.strip_prefix("skill entry "))?;
    rest.find(" ignored: ").map(|i| &rest[..i])
}

#[test]
fn conformance_trees() {
    let dir = support::manifest().join("fixtures/conformance/cases");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("case.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 70);
    let mut problems = Vec::new();
    let mut checked = 0;
    for name in &names {
        let case_dir = dir.join(name);
        let case: Value = serde_json::from_str(&fs::read_to_string(case_dir.join("case.json")).unwrap()).unwrap();
        let expected: Value = serde_json::from_str(
            &fs::read_to_string(case_dir.join("expected.json")).unwrap().replace("\\ud83d", "\\ufffd"),
        )
        .unwrap();
        // The interim YAML stand-in gets these two wrong in discovery too (tests/cli/conformance.rs
        // lists them as known failures); the final YAML layer gets them right.
        if !super::rules::yaml_errors_exact() && (name.starts_with("073-") || name.starts_with("082-")) {
            eprintln!("skipping {name}: the YAML layer is an interim stand-in");
            continue;
        }
        if case["runAsUser"].is_string() && !(support::is_root() && support::which("setpriv").is_some()) {
            eprintln!("skipping {name}: it needs root and setpriv");
            continue;
        }
        let fx = materialize(&case_dir.join("tree"), &case["setup"]);
        let tree = fx.tree_str();
        let mut args: Vec<String> = vec!["lint".into(), "--format".into(), "json".into()];
        args.extend(support::root_flags(&case, &tree));
        let out = run_case(&fx, &case, &args);
        support::restore_permissions(&fx.tree);
        let Some(out) = out else { continue };
        checked += 1;
        let v = json(&out);
        let got = findings(&v);
        let errors_at = |p: &str| got.iter().any(|(_, sev, path)| sev == "error" && path == p);
        let mut complain = |msg: String| problems.push(format!("{name}: {msg}"));
        for w in expected["warnings"].as_array().unwrap().iter().filter_map(Value::as_str) {
            if let Some(p) = warned_path(w) {
                let p = p.replace("<tree>", &tree);
                if !errors_at(&p) {
                    complain(format!("no error for a file the harness skips with a warning: {p}\n  got {got:?}"));
                }
            }
        }
        if expected["complete"] == json!(false)
            && !got.iter().any(|(r, s, _)| s == "error" && (r == "symlink-loop" || r == "discovery-failed"))
        {
            complain(format!("discovery is incomplete but no error says so: {got:?}"));
        }
        if expected["complete"] == json!(true) {
            for c in expected["candidates"].as_array().unwrap() {
                let p = format!("{tree}/{}", c["path"].as_str().unwrap());
                if errors_at(&p) {
                    complain(format!("an error on a file the harness loads: {p}\n  got {got:?}"));
                }
            }
        }
        for (rule, sev, path) in &got {
            if rule == "ignored-entry" && sev != "warning" {
                complain(format!("{rule} at {path} is {sev}, not a warning"));
            }
        }
        let rc = out.status.code();
        let want_rc = if got.iter().any(|(_, s, _)| s == "error") { 1 } else { 0 };
        if rc != Some(want_rc) {
            complain(format!("exit status {rc:?}, want {want_rc}"));
        }
        // The silently skipped files of these cases get their findings: a warning for a file
        // that is no skill anyway, an error for a well-formed skill the harness never loads.
        let has = |rule: &str, sev: &str, suffix: &str| {
            got.iter().any(|(r, s, p)| r == rule && s == sev && p.ends_with(suffix))
        };
        let expected: &[(&str, &str, &str)] = match &name[..3] {
            "031" => &[("ignored-entry", "warning", "/upper.MD"), ("ignored-entry", "warning", "/long.markdown")],
            "032" => &[
                ("skill-md-case", "error", "/upper/SKILL.MD"),
                ("skill-md-case", "error", "/lower/skill.md"),
                ("skill-md-case", "error", "/title/Skill.md"),
            ],
            "034" => &[
                ("nested-too-deep", "error", "/group/inner/SKILL.md"),
                ("nested-too-deep", "error", "/group/inner2.md"),
            ],
            // One entry named " " hides the whole root (the harness reports nothing).
            "111" => &[("blank-entry-name", "error", "/home/.dsh/skills/ ")],
            _ => &[],
        };
        for (rule, sev, suffix) in expected {
            if !has(rule, sev, suffix) {
                problems.push(format!("{name}: expected a {rule} {sev} for …{suffix}; got {got:?}"));
            }
        }
    }
    assert!(checked >= 67, "only {checked} cases ran");
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

fn run_case(fx: &support::Fixture, case: &Value, args: &[String]) -> Option<std::process::Output> {
    let tree = fx.tree_str();
    let mut cmd;
    if let Some(user) = case["runAsUser"].as_str() {
        use std::os::unix::fs::PermissionsExt;
        let (uid, gid) = support::user_ids(user)?;
        let bin_dir = fx.base.join("bin");
        fs::create_dir(&bin_dir).unwrap();
        let copy = bin_dir.join("dsh-skills");
        fs::copy(support::bin(), &copy).unwrap();
        for p in [&fx.base, &bin_dir, &copy] {
            fs::set_permissions(p, fs::Permissions::from_mode(0o755)).unwrap();
        }
        support::make_traversable(&fx.tree, case);
        cmd = Command::new("setpriv");
        cmd.args([format!("--reuid={uid}"), format!("--regid={gid}"), "--clear-groups".into()]).arg(copy);
    } else {
        cmd = Command::new(support::bin());
    }
    cmd.args(args);
    for k in ["DSH_HOME", "DSH_AGENTS_HOME", "DSH_BUNDLED_SKILL_DIR", "CLICOLOR_FORCE"] {
        cmd.env_remove(k);
    }
    cmd.env("LC_ALL", "en_US.UTF-8").env("NO_COLOR", "1");
    if let Some(h) = case["home"].as_str() {
        cmd.env("HOME", format!("{tree}/{h}"));
    } else {
        cmd.env("HOME", fx.base.join("no-home"));
    }
    for (k, v) in case["env"].as_object().into_iter().flatten() {
        cmd.env(k, v.as_str().unwrap().replace("{tree}", &tree));
    }
    let pcwd = case["processCwd"].as_str().map(|p| format!("{tree}/{p}")).unwrap_or_else(|| tree.clone());
    cmd.current_dir(pcwd);
    let out = cmd.output().expect("run dsh-skills");
    support::check_json(args, &out);
    Some(out)
}
