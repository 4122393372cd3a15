//! Every configuration file dsh-skills reads, on arbitrary bytes: each parser directly, then the
//! whole resolution (`engine::config::resolve`) over a `$DSH_HOME` holding the files, read
//! through the hardened reader (`textread::read_config_file`).
//!
//! Input: a flag byte, then the files' bytes separated by NUL, in this order (a missing part is
//! an absent file, an empty part an empty file):
//! 1. `$DSH_HOME/cordis.patch.yml` (the home patch layer),
//! 2. `$DSH_HOME/profiles/<profile>/cordis.patch.yml` (the profile patch layer),
//! 3. `$DSH_HOME/settings.yaml`,
//! 4. `$DSH_HOME/.agent-presets/mine/agent.cordis.yml` (a user preset),
//! 5. a `--patch` overlay,
//! 6. `$DSH_HOME/profiles/<profile>/package.json` (the profile manifest),
//! 7. `.dsh-skills-lint.yaml`.
//!
//! Flag bits: 1 the headless profile, 2 `--preset mine`, 4 pass the `--patch` overlay.
#![no_main]
use dsh_skills::engine::config::{self, Flags, Profile, dialect, files, patch, shipped};
use dsh_skills::engine::discover::Environment;
use dsh_skills::lint::config::Config;
use dsh_skills::render::config as report;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

const FILES: [&str; 7] = [
    "dsh/cordis.patch.yml",
    "dsh/profiles/{profile}/cordis.patch.yml",
    "dsh/settings.yaml",
    "dsh/.agent-presets/mine/agent.cordis.yml",
    "overlay.yml",
    "dsh/profiles/{profile}/package.json",
    "launch/.dsh-skills-lint.yaml",
];

/// One scratch folder per fuzzing process, removed by nobody (it is reused by every input).
fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let base =
            if std::path::Path::new("/dev/shm").is_dir() { PathBuf::from("/dev/shm") } else { std::env::temp_dir() };
        let dir = base.join(format!("dsh-skills-fuzz-config.{}", std::process::id()));
        for sub in ["dsh/profiles/web", "dsh/profiles/headless", "dsh/.agent-presets/mine", "launch", "home"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        std::fs::canonicalize(&dir).unwrap()
    })
}

fn check(e: &config::ConfigError) {
    assert!(!e.0.is_empty());
}

fn direct(parts: &[&[u8]]) {
    let text = |i: usize| parts.get(i).map(|b| String::from_utf8_lossy(b).into_owned());
    for (i, what) in [(0, "the home patch layer"), (1, "the profile patch layer"), (4, "the --patch overlay")] {
        let Some(t) = text(i) else { continue };
        match files::patch_list("/p/cordis.patch.yml", &t, what) {
            Ok(rows) => {
                // Over the shipped layers, as `resolve` composes them.
                let mut patches = shipped::base_patches();
                patches.extend(shipped::web_app_patches());
                patches.extend(rows);
                if let Ok(c) = patch::Composition::apply(Vec::new(), &patches) {
                    for row in &c.rows {
                        let _ = row.value.to_json();
                    }
                }
            }
            Err(e) => check(&e),
        }
    }
    if let Some(t) = text(2) {
        match files::settings_default("/p/settings.yaml", &t) {
            Ok(_) => {}
            Err(e) => check(&e),
        }
    }
    if let Some(t) = text(3) {
        match files::preset_rows("mine", "/p/agent.cordis.yml", &t) {
            Ok(rows) => assert!(rows.iter().all(|r| matches!(r.value, dialect::Value::Map(_)))),
            Err(e) => check(&e),
        }
    }
    if let Some(t) = text(6) {
        match Config::parse(&t) {
            Ok(c) => {
                let _ = c.not_skills_paths("/p");
                let _ = c.unscanned_ok_paths("/p");
            }
            Err(e) => assert!(!e.is_empty()),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else { return };
    let parts: Vec<&[u8]> =
        if rest.is_empty() { Vec::new() } else { rest.split(|&b| b == 0).take(FILES.len()).collect() };
    direct(&parts);

    let profile = if flags & 1 != 0 { Profile::Headless } else { Profile::Web };
    let root = scratch();
    for (i, rel) in FILES.iter().enumerate() {
        let path = root.join(rel.replace("{profile}", profile.name()));
        match parts.get(i) {
            Some(bytes) => std::fs::write(&path, bytes).unwrap(),
            None => match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => panic!("{e}"),
            },
        }
    }
    let root = root.to_string_lossy();
    let env = Environment {
        process_cwd: format!("{root}/launch"),
        home: format!("{root}/home"),
        dsh_home: Some(format!("{root}/dsh")),
        agents_home: None,
        bundled_skill_dir: None,
    };
    let g = Flags {
        profile: Some(profile),
        preset: (flags & 2 != 0 && profile == Profile::Web).then(|| "mine".to_string()),
        patches: if flags & 4 != 0 { vec![format!("{root}/overlay.yml")] } else { Vec::new() },
        ..Flags::default()
    };
    match config::resolve(&g, &env, &|_| None) {
        Ok(resolved) => {
            let _ = report::json(&resolved.report);
            let _ = report::human(&resolved.report);
        }
        Err(e) => check(&e),
    }
    match Config::find(&env.process_cwd, None, &env.process_cwd) {
        Ok(_) => {}
        Err(e) => assert!(!e.0.is_empty()),
    }
});
