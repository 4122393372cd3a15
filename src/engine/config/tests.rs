//! Unit tests of the resolution: flags-only equivalence, row selection, `disabled`, groups,
//! provider-name rules. The black-box fixtures are in `tests/config.rs`.

use super::*;
use crate::cli::Cli;
use clap::Parser;
use std::fs;

struct Home {
    _dir: tempfile::TempDir,
    root: String,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap().to_string_lossy().into_owned();
        fs::create_dir_all(format!("{root}/dsh")).unwrap();
        fs::create_dir_all(format!("{root}/launch")).unwrap();
        Home { _dir: dir, root }
    }

    fn write(&self, rel: &str, text: &str) {
        let path = format!("{}/{rel}", self.root);
        fs::create_dir_all(platform::dirname(&path)).unwrap();
        fs::write(path, text).unwrap();
    }

    fn env(&self) -> Environment {
        Environment {
            process_cwd: format!("{}/launch", self.root),
            home: format!("{}/home", self.root),
            dsh_home: Some(format!("{}/dsh", self.root)),
            agents_home: None,
            bundled_skill_dir: None,
        }
    }

    fn resolve(&self, args: &[&str]) -> Result<Resolved, ConfigError> {
        let cli = Cli::try_parse_from(["dsh-skills", "list"].iter().chain(args)).unwrap();
        resolve(&cli.global.flags(), &self.env(), &|_| None)
    }
}

fn fs_configs(s: &Settings) -> Vec<(String, ProviderConfig)> {
    s.layers
        .iter()
        .flat_map(|l| {
            l.providers.iter().filter_map(|p| match p {
                ProviderSpec::Filesystem(c) => Some((l.name.clone(), c.clone())),
                ProviderSpec::Badge(_) => None,
            })
        })
        .collect()
}

#[test]
fn no_config_is_exactly_the_flags_only_settings() {
    let home = Home::new();
    // Files that would change everything, were they read.
    home.write("dsh/cordis.patch.yml", "- id: skill-badge\n  disabled: false\n");
    for args in [
        &[][..],
        &["--custom-dir", "a", "--custom-dir", "/b", "--no-default-roots"],
        &["--dsh-home", "~/x", "--agents-home", "", "--bundled-dir", "b", "--description-max-length", "9"],
        &["--no-cwd", "--locale", "sv-SE", "--profile", "headless"],
    ] {
        let mut all = vec!["--no-config"];
        all.extend(args);
        let cli = Cli::try_parse_from(["dsh-skills", "list"].iter().chain(&all)).unwrap();
        let env = home.env();
        let resolved = resolve(&cli.global.flags(), &env, &|_| None).unwrap();
        let flags_only = crate::commands::settings_from_args(&cli.global, &env);
        assert_eq!(format!("{:?}", resolved.settings), format!("{flags_only:?}"), "{args:?}");
    }
}

#[test]
fn no_config_refuses_flags_that_read_configuration() {
    let home = Home::new();
    for args in [&["--no-config", "--preset", "code"][..], &["--no-config", "--patch", "x.yml"]] {
        assert!(home.resolve(args).unwrap_err().0.contains("cannot be combined with --no-config"));
    }
    assert!(home.resolve(&["--profile", "headless", "--preset", "code"]).unwrap_err().0.contains("web profile"));
}

#[test]
fn shipped_compositions_compose_without_warnings() {
    let home = Home::new();
    let web = home.resolve(&[]).unwrap();
    assert!(web.report.warnings.is_empty(), "{:?}", web.report.warnings);
    assert_eq!(web.settings.layers.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), ["global", "preset:standard"]);
    assert!(web.settings.layers[0].providers.is_empty());
    assert!(web.settings.tool_visible);
    let headless = home.resolve(&["--profile", "headless"]).unwrap();
    assert!(headless.report.warnings.is_empty());
    assert_eq!(headless.settings.layers.len(), 1);
    assert_eq!(fs_configs(&headless.settings).len(), 1);
    for id in ["code", "cordis", "minimal"] {
        assert!(home.resolve(&["--preset", id]).is_ok(), "{id}");
    }
}

#[test]
fn a_re_enabled_host_row_is_a_second_provider_in_the_global_layer() {
    let home = Home::new();
    home.write(
        "dsh/cordis.patch.yml",
        "- id: skill-filesystem\n  disabled: false\n  config:\n    providerName: host\n    customSkillDirs: [team]\n",
    );
    let r = home.resolve(&[]).unwrap();
    let fs = fs_configs(&r.settings);
    assert_eq!(fs.len(), 2);
    assert_eq!((fs[0].0.as_str(), fs[0].1.provider_name.as_str()), ("global", "host"));
    assert_eq!(fs[0].1.custom_skill_dirs, [format!("{}/launch/team", home.root)]);
    assert_eq!((fs[1].0.as_str(), fs[1].1.provider_name.as_str()), ("preset:standard", "filesystem"));
}

#[test]
fn inserted_rows_groups_and_disabled_groups() {
    let home = Home::new();
    home.write(
        "dsh/profiles/headless/cordis.patch.yml",
        "- insert:\n    - id: extra\n      name: '@deepseek-ai/dsh-skill-filesystem'\n      config: {providerName: extra}\n    - id: off\n      name: cordis:group\n      group: true\n      disabled: true\n      config:\n        - id: inner\n          name: '@deepseek-ai/dsh-skill-filesystem'\n          config: {providerName: inner}\n    - id: on\n      name: cordis:group\n      group: true\n      config:\n        - id: inner2\n          name: '@deepseek-ai/dsh-skill-filesystem'\n          disabled: !!js process.platform === 'win32'\n          config: {providerName: inner2}\n",
    );
    let r = home.resolve(&["--profile", "headless"]).unwrap();
    let names: Vec<String> = fs_configs(&r.settings).into_iter().map(|(_, c)| c.provider_name).collect();
    let expected: &[&str] = if cfg!(windows) { &["filesystem", "extra"] } else { &["filesystem", "extra", "inner2"] };
    assert_eq!(names, expected);
}

#[test]
fn an_unknown_disabled_expression_on_a_skill_row_is_an_error() {
    let home = Home::new();
    home.write("dsh/cordis.patch.yml", "- id: skill-badge\n  disabled: !!js ctx.something\n");
    let e = home.resolve(&[]).unwrap_err();
    assert!(e.0.contains("cordis.patch.yml:2: cannot tell whether row skill-badge"), "{e}");
    // On a row that does not bear on skills it does not matter.
    home.write("dsh/cordis.patch.yml", "- id: llm\n  disabled: !!js ctx.something\n");
    assert!(home.resolve(&[]).is_ok());
}

#[test]
fn provider_names_are_unique_per_layer() {
    let home = Home::new();
    home.write("dsh/cordis.patch.yml", "- insert:\n    - id: fs2\n      name: '@deepseek-ai/dsh-skill-filesystem'\n");
    let e = home.resolve(&["--profile", "headless"]).unwrap_err();
    assert!(e.0.contains("a skill provider named \"filesystem\" is already registered (by the row at shipped"), "{e}");
    home.write("dsh/cordis.patch.yml", "- id: skill-filesystem\n  config: {providerName: runtime}\n");
    assert!(home.resolve(&["--profile", "headless"]).unwrap_err().0.contains("\"runtime\" is reserved"));
    // The same name in two layers is fine.
    home.write("dsh/cordis.patch.yml", "- id: skill-filesystem\n  disabled: false\n");
    assert_eq!(fs_configs(&home.resolve(&[]).unwrap().settings).len(), 2);
}

#[test]
fn invalid_values_are_refused_with_their_line() {
    let home = Home::new();
    for (patch, wanted) in [
        ("  config: {customSkillDirs: team}\n", "customSkillDirs: expected array but got string"),
        ("  config: {includeDefaultRoots: 'no'}\n", "includeDefaultRoots must be a boolean"),
        ("  config: {providerName: ''}\n", "providerName must be a non-empty string"),
        ("  config: [a]\n", "config must be an object"),
        ("  config: !!js makeConfig()\n", "cannot resolve the config of row skill-filesystem"),
    ] {
        home.write("dsh/cordis.patch.yml", &format!("- id: skill-filesystem\n{patch}"));
        let e = home.resolve(&["--profile", "headless"]).unwrap_err();
        assert!(e.0.contains(wanted), "{patch}: {e}");
        assert!(e.0.contains("cordis.patch.yml:2"), "{patch}: {e}");
    }
    home.write("dsh/cordis.patch.yml", "- id: tool-skill\n  config: {catalogDescriptionMaxLength: 2}\n");
    let e = home.resolve(&["--profile", "headless"]).unwrap_err();
    assert!(e.0.contains("catalogDescriptionMaxLength must be an integer greater than or equal to 3"), "{e}");
    // With the flag, the file's value is not consulted.
    assert!(home.resolve(&["--profile", "headless", "--description-max-length", "9"]).is_ok());
}

#[test]
fn the_roster_default_can_be_patched_and_settings_win_over_it() {
    let home = Home::new();
    home.write("dsh/cordis.patch.yml", "- id: agent-presets\n  config:\n    default: code\n");
    let r = home.resolve(&[]).unwrap();
    let preset = r.report.preset.unwrap();
    assert_eq!(preset.value, "code");
    assert_eq!(
        preset.origin.clone(),
        Origin::At(Loc { source: Rc::new(Source::File(format!("{}/dsh/cordis.patch.yml", home.root))), line: 3 })
    );
    home.write("dsh/settings.yaml", "agent-presets:\n  default: minimal\n");
    assert_eq!(home.resolve(&[]).unwrap().report.preset.unwrap().value, "minimal");
    // A patch that drops `default` leaves the roster row invalid.
    home.write("dsh/cordis.patch.yml", "- id: agent-presets\n  config: {includeUserRoot: false}\n");
    fs::remove_file(format!("{}/dsh/settings.yaml", home.root)).unwrap();
    assert!(home.resolve(&[]).unwrap_err().0.contains("requires `default`"));
    // Disabling the roster: sessions join no preset, and nothing mounts the tool.
    home.write("dsh/cordis.patch.yml", "- id: agent-presets\n  disabled: true\n");
    let r = home.resolve(&[]).unwrap();
    assert!(r.report.preset.is_none());
    assert!(!r.settings.tool_visible);
}

#[test]
fn a_settings_row_path_moves_the_settings_document() {
    let home = Home::new();
    home.write("dsh/cordis.patch.yml", "- id: settings\n  config: {path: conf/s.yaml}\n");
    home.write("launch/conf/s.yaml", "agent-presets: {default: cordis}\n");
    let r = home.resolve(&[]).unwrap();
    assert_eq!(r.report.preset.unwrap().value, "cordis");
    let read: Vec<&str> = r.report.files.iter().map(|f| f.path.as_str()).collect();
    assert!(read.contains(&format!("{}/launch/conf/s.yaml", home.root).as_str()), "{read:?}");
}

#[test]
fn a_broken_or_missing_user_preset_is_refused() {
    let home = Home::new();
    fs::create_dir_all(format!("{}/dsh/.agent-presets/empty", home.root)).unwrap();
    let e = home.resolve(&["--preset", "empty"]).unwrap_err();
    assert!(e.0.contains("the composition file agent.cordis.yml is missing"), "{e}");
    home.write("dsh/.agent-presets/bad/agent.cordis.yml", "- id: x\n  name: a\n  name: b\n");
    let e = home.resolve(&["--preset", "bad"]).unwrap_err();
    assert!(e.0.contains("agent.cordis.yml:3"), "{e}");
    assert!(e.0.contains("failed to mount: the composition is not valid YAML"), "{e}");
    assert!(home.resolve(&["--preset", "Bad_Name"]).unwrap_err().0.contains("not found"));
}

#[test]
fn a_profile_with_other_bundles_is_reported() {
    let home = Home::new();
    let manifest =
        |bundles: &str| format!("{{\"name\": \"p\", \"dsh\": {{\"profile\": {{\"bundles\": {bundles}}}}}}}\n");
    home.write("dsh/profiles/web/package.json", &manifest(r#"["@deepseek-ai/dsh-base", "@deepseek-ai/dsh-web-app"]"#));
    assert!(home.resolve(&[]).unwrap().report.problems.is_empty());
    // The installation-owned headless tuple is normalized to the template by the launcher.
    home.write(
        "dsh/profiles/headless/package.json",
        &manifest(r#"["@deepseek-ai/dsh-base", "@deepseek-ai/dsh-web-app", "@deepseek-ai/dsh-headless"]"#),
    );
    assert!(home.resolve(&["--profile", "headless"]).unwrap().report.problems.is_empty());
    home.write(
        "dsh/profiles/web/package.json",
        &manifest(r#"["@deepseek-ai/dsh-base", "@deepseek-ai/dsh-web-app", "my-bundle"]"#),
    );
    let problems = home.resolve(&[]).unwrap().report.problems;
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("my-bundle"), "{problems:?}");
    home.write("dsh/profiles/web/package.json", "{ not json");
    assert!(home.resolve(&[]).unwrap_err().0.contains("cannot parse the profile manifest"));
}
