//! Real clients: `pytest-lsp` (PyPI, installed into `target/lsp-e2e/venv` on first use) drives
//! the binary with VS Code's and Neovim's capabilities; Neovim headless (Debian's `neovim`,
//! which `.ci/run` installs) attaches the server to a skill file and reads the diagnostics
//! back. Each test says it is skipped, and why, when its tool cannot be had.

use super::protocol::Tree;
use std::path::PathBuf;
use std::process::Command;

const SKILL: &str =
    "---\nname: my-skill\ndescription: Does things.\nuserInvocable: true\n---\nSee [guide](references/guide.md).\n";

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The venv's python with pytest-lsp, or why there is none.
fn pytest_lsp() -> Result<PathBuf, String> {
    let venv = super::support::manifest().join("target/lsp-e2e/venv");
    let python = venv.join(if cfg!(windows) { "Scripts/python.exe" } else { "bin/python" });
    let has =
        |py: &PathBuf| Command::new(py).args(["-c", "import pytest_lsp"]).output().is_ok_and(|o| o.status.success());
    if has(&python) {
        return Ok(python);
    }
    if !python.is_file() {
        let out =
            Command::new("python3").args(["-m", "venv"]).arg(&venv).output().map_err(|e| format!("python3: {e}"))?;
        if !out.status.success() {
            return Err(format!("python3 -m venv failed: {}", text(&out.stderr)));
        }
    }
    let out = Command::new(&python)
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--only-binary=:all:", "pytest-lsp"])
        .output()
        .map_err(|e| format!("pip: {e}"))?;
    if out.status.success() && has(&python) {
        return Ok(python);
    }
    Err(format!("cannot install pytest-lsp from PyPI: {}", text(&out.stderr).lines().last().unwrap_or("")))
}

#[test]
#[ignore = "networked (installs from a package registry or builds a nested package): .ci/run runs it, `cargo test -- --ignored`"]
fn pytest_lsp_drives_the_server() {
    let python = match pytest_lsp() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let t = Tree::new();
    t.write(".dsh/skills/my-skill/SKILL.md", SKILL);
    let dir = super::support::manifest().join("tests/cli/lsp/e2e");
    let out = super::support::command(&t.project, &t.home)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &t.home)
        .env("LC_ALL", "C.UTF-8")
        .env("DSH_SKILLS_BIN", super::support::bin())
        .env("DSH_LSP_ROOT", &t.project)
        .current_dir(&t.project)
        .args(["--version"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = Command::new(python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-c"])
        .arg(dir.join("pytest.ini"))
        .arg(dir.join("test_pytest_lsp.py"))
        .env("HOME", &t.home)
        .env("DSH_SKILLS_BIN", super::support::bin())
        .env("DSH_LSP_ROOT", &t.project)
        .env_remove("DSH_HOME")
        .env_remove("DSH_AGENTS_HOME")
        .env_remove("DSH_BUNDLED_SKILL_DIR")
        .current_dir(&t.project)
        .output()
        .unwrap();
    assert!(out.status.success(), "pytest-lsp:\n{}\n{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stdout).contains("2 passed"), "{}", text(&out.stdout));
}

#[test]
fn neovim_headless_reads_the_diagnostics() {
    let Some(nvim) = super::support::which("nvim") else {
        eprintln!("skipped: Neovim is not installed (`apt-get install neovim`; .ci/run installs it)");
        return;
    };
    let t = Tree::new();
    let file = t.write(".dsh/skills/my-skill/SKILL.md", SKILL);
    let out_file = t.home.join("diagnostics.txt");
    let script = super::support::manifest().join("tests/cli/lsp/e2e/neovim.lua");
    let mut child = Command::new(nvim)
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("HOME", &t.home)
        .env("XDG_CONFIG_HOME", t.home.join(".config"))
        .env("XDG_DATA_HOME", t.home.join(".local/share"))
        .env("XDG_STATE_HOME", t.home.join(".local/state"))
        .env("DSH_SKILLS_BIN", super::support::bin())
        .env("DSH_LSP_ROOT", &t.project)
        .env("DSH_LSP_FILE", &file)
        .env("DSH_LSP_OUT", &out_file)
        .env_remove("DSH_HOME")
        .env_remove("DSH_AGENTS_HOME")
        .env_remove("DSH_BUNDLED_SKILL_DIR")
        .current_dir(&t.project)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = super::support::wait_bounded(&mut child, super::client::HANG, &"nvim --headless");
    let got = std::fs::read_to_string(&out_file).unwrap_or_default();
    assert!(status.success(), "nvim: {status:?}\n{got}");
    let mut lines: Vec<&str> = got.lines().collect();
    lines.sort();
    assert_eq!(lines, ["broken-reference 5", "legacy-invocation-key 3"], "{got}");
}
