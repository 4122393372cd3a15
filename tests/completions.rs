//! The shell completion scripts committed in `completions/` must match the command definition.
//! Regenerate them with `UPDATE_COMPLETIONS=1 cargo test --test completions`.

use clap::CommandFactory;
use clap_complete::Shell;
use dsh_skills::cli::Cli;
use std::path::Path;

const FILES: [(Shell, &str); 5] = [
    (Shell::Bash, "dsh-skills.bash"),
    (Shell::Zsh, "_dsh-skills"),
    (Shell::Fish, "dsh-skills.fish"),
    (Shell::PowerShell, "_dsh-skills.ps1"),
    (Shell::Elvish, "dsh-skills.elv"),
];

#[test]
fn committed_completions_match_the_cli() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    let update = std::env::var_os("UPDATE_COMPLETIONS").is_some();
    let mut stale = Vec::new();
    for (shell, file) in FILES {
        let mut generated = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "dsh-skills", &mut generated);
        let path = dir.join(file);
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &generated).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(generated.as_slice()) {
            stale.push(file);
        }
    }
    assert!(
        stale.is_empty(),
        "completions/{stale:?} differ from the command definition; run UPDATE_COMPLETIONS=1 cargo test --test completions"
    );
}

#[test]
fn the_subcommand_prints_the_same_script() {
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_dsh-skills")).args(["completions", "bash"]).output().unwrap();
    assert!(out.status.success());
    let committed = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("completions/dsh-skills.bash")).unwrap();
    assert_eq!(out.stdout, committed);
}
