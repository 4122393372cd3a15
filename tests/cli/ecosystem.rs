//! The binary in the user's setup: every JSON document on the demo tree follows its schema;
//! a closed pipe or a full disk never panics; the completion scripts work in real shells
//! (bash always; zsh and fish when installed — `.ci/run` installs them).

use crate::support;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Discovery flags for the shipped demo tree (no project roots, no real home).
fn demo() -> Vec<String> {
    let d = support::manifest().join("demo");
    let at = |p: &str| d.join(p).to_string_lossy().into_owned();
    vec![
        "--no-config".into(),
        "--no-cwd".into(),
        "--dsh-home".into(),
        at("home/.dsh"),
        "--agents-home".into(),
        at("home/.agents"),
        "--custom-dir".into(),
        at("team-skills"),
        "--bundled-dir".into(),
        at("bundled"),
    ]
}

fn with_demo(args: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    v.extend(demo());
    v
}

fn dsh(args: &[String]) -> Command {
    let home = std::env::temp_dir().join("dsh-skills-test-no-home");
    let mut cmd = Command::new(support::bin());
    cmd.args(args).env("HOME", home).env("NO_COLOR", "1").env_remove("DSH_SKILLS_COMPLETE");
    for k in ["DSH_HOME", "DSH_AGENTS_HOME", "DSH_BUNDLED_SKILL_DIR"] {
        cmd.env_remove(k);
    }
    cmd
}

/// One invocation of every subcommand (and of the help), as users type them.
fn every_subcommand() -> Vec<Vec<String>> {
    vec![
        with_demo(&["list"]),
        with_demo(&["list", "--format", "json"]),
        with_demo(&["show", "pdf-tools"]),
        with_demo(&["show", "pdf-tools", "--rendered"]),
        with_demo(&["show", "pdf-tools", "--format", "json"]),
        with_demo(&["catalog"]),
        with_demo(&["catalog", "--format", "json"]),
        with_demo(&["explain", "pdf-tools"]),
        with_demo(&["explain", "pdf-tools", "--format", "json"]),
        with_demo(&["lint"]),
        with_demo(&["lint", "--format", "json"]),
        with_demo(&["lint", "--format", "sarif"]),
        with_demo(&["lint", "--format", "github"]),
        vec!["lint".into(), "--explain".into(), "all".into()],
        vec!["lint".into(), "--explain".into(), "yaml-syntax".into(), "--format".into(), "json".into()],
        vec!["completions".into(), "bash".into()],
        vec!["completions".into(), "zsh".into()],
        vec!["schema".into(), "lint".into()],
        vec!["--help".into()],
        vec!["lint".into(), "-h".into()],
        vec!["--version".into()],
    ]
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn every_json_document_follows_its_schema() {
    let mut checked = std::collections::BTreeSet::new();
    for args in every_subcommand() {
        let out = dsh(&args).output().unwrap();
        assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {}", text(&out.stderr));
        if let Some(doc) = support::json_document(&args) {
            support::check_json(&args, &out);
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(v["schemaVersion"], 1, "{args:?}");
            assert_eq!(v["tool"]["name"], "dsh-skills", "{args:?}");
            checked.insert(doc);
        }
    }
    assert_eq!(checked.len(), 6, "{checked:?}");
}

fn assert_no_panic(args: &[String], out: &Output) {
    let err = text(&out.stderr);
    assert!(!err.contains("panicked") && !err.contains("internal failure"), "{args:?}: {err}");
}

/// `dsh-skills … | head -0`: the reader is gone before anything is written. The contract: the
/// program ends quietly with status 0.
#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    for args in every_subcommand() {
        // The read end is closed before the command starts: every write meets a closed pipe,
        // however fast the command is.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = dsh(&args).stdout(writer).stderr(Stdio::piped()).output().unwrap();
        assert_no_panic(&args, &out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        assert!(out.stderr.is_empty() || args.contains(&"catalog".to_string()), "{args:?}: {}", text(&out.stderr));
    }
}

/// `dsh-skills … > /dev/full`: a clear error and status 2, never a panic.
#[test]
fn a_full_disk_is_an_error_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full on this system");
        return;
    };
    for args in every_subcommand() {
        let out = dsh(&args).stdout(full.try_clone().unwrap()).stderr(Stdio::piped()).output().unwrap();
        assert_no_panic(&args, &out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("No space left on device"), "{args:?}: {}", text(&out.stderr));
    }
}

/// The issue's check, in a real shell: 100 runs of `completions bash | head -1` never exit 2.
#[test]
fn completions_into_head_never_fail() {
    let script = format!(
        "for i in $(seq 100); do '{}' completions bash | head -1 > /dev/null; s=${{PIPESTATUS[0]}}; [ \"$s\" = 0 ] || echo \"run $i: $s\"; done",
        support::bin().display()
    );
    let out = Command::new("bash").arg("-c").arg(script).output().unwrap();
    assert!(out.status.success() && out.stdout.is_empty(), "{}{}", text(&out.stdout), text(&out.stderr));
}

/// Run `program` in `shell` (started with `no_config`, e.g. `--norc`), with the binary on PATH
/// and a home that holds no skills.
fn run_shell(shell: &str, no_config: &str, program: &str) -> std::process::Output {
    Command::new(shell)
        .arg(no_config)
        .arg("-c")
        .arg(program)
        .env("PATH", path_with_binary())
        .env("HOME", std::env::temp_dir().join("dsh-skills-test-no-home"))
        .output()
        .unwrap()
}

/// A directory holding `dsh-skills` for the completion scripts to call back.
fn path_with_binary() -> String {
    let dir: PathBuf = support::bin().parent().unwrap().to_path_buf();
    format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default())
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Source the bash script and complete `words` (the last one is the word under the cursor).
fn bash_complete(words: &[String]) -> Vec<String> {
    let script = support::manifest().join("completions/dsh-skills.bash");
    let quoted: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
    let program = format!(
        r#"source {script}
COMP_WORDS=({words}); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )); COMP_TYPE=9
COMP_LINE="${{COMP_WORDS[*]}}"; COMP_POINT=${{#COMP_LINE}}
_clap_complete_dsh_skills dsh-skills "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}""#,
        script = shell_quote(&script.to_string_lossy()),
        words = quoted.join(" ")
    );
    let out = run_shell("bash", "--norc", &program);
    assert!(out.status.success(), "bash: {}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).filter(|l| !l.is_empty()).collect()
}

fn words(prefix: &[&str]) -> Vec<String> {
    let mut v = vec!["dsh-skills".to_string()];
    v.extend(demo());
    v.extend(prefix.iter().map(|s| s.to_string()));
    v
}

#[test]
fn bash_completes_options_skill_names_and_rule_ids() {
    let got = bash_complete(&words(&["lint", "--"]));
    for want in ["--explain", "--fail-on", "--fix", "--format", "--cwd", "--dsh-home"] {
        assert!(got.iter().any(|g| g == want), "lint --<TAB> lacks {want}: {got:?}");
    }
    // Skill names of the demo tree, for the discovery options typed before them.
    let got = bash_complete(&words(&["show", ""]));
    for want in ["pdf-tools", "code-review", "deploy", "release-notes"] {
        assert!(got.iter().any(|g| g == want), "show <TAB> lacks {want}: {got:?}");
    }
    let got = bash_complete(&words(&["explain", "pd"]));
    assert_eq!(got, ["pdf-tools"], "explain pd<TAB>");
    let got = bash_complete(&["dsh-skills".into(), "lint".into(), "--explain".into(), "yaml-s".into()]);
    assert_eq!(got, ["yaml-syntax"], "lint --explain yaml-s<TAB>");
    // Only the values this subcommand accepts.
    let got = bash_complete(&["dsh-skills".into(), "list".into(), "--format".into(), "".into()]);
    assert_eq!(got, ["human", "json"]);
    let got = bash_complete(&["dsh-skills".into(), "sch".into()]);
    assert_eq!(got, ["schema"]);
}

fn installed(shell: &str) -> bool {
    let found = support::which(shell).is_some();
    if !found {
        eprintln!("skipped: {shell} is not installed (`apt-get install {shell}`; .ci/run installs it)");
    }
    found
}

#[test]
fn fish_completes_options_skill_names_and_rule_ids() {
    if !installed("fish") {
        return;
    }
    let script = support::manifest().join("completions/dsh-skills.fish");
    let complete = |line: &str| -> Vec<String> {
        let program = format!("source {}; complete -C {}", shell_quote(&script.to_string_lossy()), shell_quote(line));
        let out = run_shell("fish", "--no-config", &program);
        assert!(out.status.success(), "fish: {}", text(&out.stderr));
        text(&out.stdout).lines().map(|l| l.split('\t').next().unwrap_or("").to_string()).collect()
    };
    let demo = demo().iter().map(|a| shell_quote(a)).collect::<Vec<_>>().join(" ");
    let got = complete(&format!("dsh-skills {demo} show "));
    assert!(got.iter().any(|g| g == "pdf-tools") && got.iter().any(|g| g == "deploy"), "{got:?}");
    let got = complete("dsh-skills lint --fa");
    assert_eq!(got, ["--fail-on"]);
    let got = complete("dsh-skills lint --explain yaml-s");
    assert_eq!(got, ["yaml-syntax"]);
}

#[test]
fn zsh_completes_options_skill_names_and_rule_ids() {
    if !installed("zsh") {
        return;
    }
    // zsh runs completion functions only inside its line editor; stub `_describe` (and
    // `compdef`) to print what the script offers, then call its function as zle would.
    let script = support::manifest().join("completions/_dsh-skills");
    let complete = |words: &[String]| -> Vec<String> {
        let quoted: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
        let program = format!(
            r#"_describe() {{ local -a arr; arr=("${{(@P)3}}"); print -l -- "${{arr[@]%%:*}}"; }}
compdef() {{ :; }}
source {script}
words=({words}); CURRENT=${{#words}}
_clap_dynamic_completer_dsh_skills"#,
            script = shell_quote(&script.to_string_lossy()),
            words = quoted.join(" ")
        );
        let out = run_shell("zsh", "-f", &program);
        text(&out.stdout)
            .lines()
            .map(|l| l.split(':').next().unwrap_or("").to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let got = complete(&words(&["show", ""]));
    assert!(got.iter().any(|g| g == "pdf-tools") && got.iter().any(|g| g == "deploy"), "{got:?}");
    let got = complete(&["dsh-skills".into(), "lint".into(), "--explain".into(), "yaml-s".into()]);
    assert_eq!(got, ["yaml-syntax"]);
}
