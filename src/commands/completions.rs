//! Shell completion. The scripts that `dsh-skills completions <shell>` prints are small
//! registrations (clap_complete's dynamic engine): on every TAB the shell runs
//! `DSH_SKILLS_COMPLETE=<shell> dsh-skills -- <words>`, and [`respond`] answers from the same
//! command definition the parser uses ([`crate::cli::command`]): subcommands, options, the
//! `--format` values of that subcommand, skill names for `show` and `explain` (discovered for
//! the `--cwd` and other discovery options already on the command line) and rule ids for
//! `lint --explain`.
//!
//! The dynamic engine also sidesteps clap-rs/clap#6421: clap_complete's static bash script for
//! a binary name with a hyphen completes nothing after the subcommand.

use super::io::{EXIT_OK, Io};
use crate::cli::CompletionsArgs;
use crate::cli::GlobalArgs;
use clap::FromArgMatches;
use clap_complete::CompletionCandidate;
use clap_complete::env::EnvCompleter;
use std::ffi::OsString;
use std::io::{self, Write};
use std::sync::OnceLock;

/// The variable the registration scripts set when they call the binary back.
pub const ENV_VAR: &str = "DSH_SKILLS_COMPLETE";
const BIN: &str = "dsh-skills";

/// The command line with the dynamic value candidates attached: skill names for `show` and
/// `explain`, rule ids for `lint --explain`. (The definition in [`crate::cli`] knows nothing
/// of discovery.)
pub fn command() -> clap::Command {
    use clap_complete::ArgValueCandidates;
    crate::cli::command()
        .mut_subcommand("show", |c| c.mut_arg("name", |a| a.add(ArgValueCandidates::new(skill_names))))
        .mut_subcommand("explain", |c| c.mut_arg("name", |a| a.add(ArgValueCandidates::new(skill_names))))
        .mut_subcommand("watch", |c| c.mut_arg("skill", |a| a.add(ArgValueCandidates::new(skill_names))))
        .mut_subcommand("lint", |c| c.mut_arg("explain", |a| a.add(ArgValueCandidates::new(rule_ids))))
}

/// The words on the command line being completed, for the value completers.
static WORDS: OnceLock<Vec<OsString>> = OnceLock::new();

fn completer(shell: &str) -> Option<&'static dyn EnvCompleter> {
    const SHELLS: clap_complete::env::Shells<'static> = clap_complete::env::Shells::builtins();
    SHELLS.0.iter().copied().find(|c| c.is(shell))
}

/// The registration script for `shell`, as `dsh-skills completions <shell>` prints it.
pub fn registration(shell: clap_complete::Shell, out: &mut dyn Write) -> io::Result<()> {
    let name = match shell {
        clap_complete::Shell::Bash => "bash",
        clap_complete::Shell::Elvish => "elvish",
        clap_complete::Shell::Fish => "fish",
        clap_complete::Shell::PowerShell => "powershell",
        clap_complete::Shell::Zsh => "zsh",
        _ => return Err(io::Error::other(format!("no completion support for {shell}"))),
    };
    let c = completer(name).ok_or_else(|| io::Error::other(format!("no completion support for {name}")))?;
    c.write_registration(ENV_VAR, BIN, BIN, BIN, out)
}

/// When the process was started by a completion script (`DSH_SKILLS_COMPLETE` is set), write
/// the candidates for `args` (the process arguments) and return `Some`; otherwise `None`.
pub fn respond(args: Vec<OsString>, out: &mut dyn Write) -> Option<io::Result<()>> {
    let shell = std::env::var(ENV_VAR).ok().filter(|v| !v.is_empty() && v != "0")?;
    Some(answer(&shell, args, out))
}

fn answer(shell: &str, args: Vec<OsString>, out: &mut dyn Write) -> io::Result<()> {
    let c = completer(shell)
        .ok_or_else(|| io::Error::other(format!("{ENV_VAR}={shell}: not a shell dsh-skills completes for")))?;
    let words: Vec<OsString> = match args.iter().position(|a| a == "--") {
        Some(i) => args[i + 1..].to_vec(),
        None => Vec::new(),
    };
    let mut buf = Vec::new();
    if words.is_empty() {
        c.write_registration(ENV_VAR, BIN, BIN, BIN, &mut buf)?;
    } else {
        let _ = WORDS.set(words.clone());
        let cwd = std::env::current_dir().ok();
        c.write_complete(&mut command(), words, cwd.as_deref(), &mut buf)?;
    }
    out.write_all(&buf)
}

/// The global options typed so far (before the word being completed).
fn typed_globals() -> Option<GlobalArgs> {
    let words = WORDS.get()?;
    let index = std::env::var("_CLAP_COMPLETE_INDEX")
        .ok()
        .and_then(|i| i.parse::<usize>().ok())
        .unwrap_or(words.len().saturating_sub(1))
        .min(words.len());
    let matches = command().ignore_errors(true).try_get_matches_from(&words[..index]).ok()?;
    let sub = matches.subcommand().map_or(&matches, |(_, m)| m);
    GlobalArgs::from_arg_matches(sub).ok()
}

/// Names of the skills discovered for the command line typed so far, winners first, each with
/// the first line of its description.
pub fn skill_names() -> Vec<CompletionCandidate> {
    let Some(g) = typed_globals() else { return Vec::new() };
    let env = crate::engine::discover::Environment::from_process();
    let var = |k: &str| std::env::var(k).ok();
    let settings = if g.no_config {
        crate::commands::settings_from_args(&g, &env)
    } else {
        match crate::engine::config::resolve(&g.flags(), &env, &var) {
            Ok(r) => r.settings,
            Err(_) => crate::commands::settings_from_args(&g, &env),
        }
    };
    let snap = crate::commands::discover(&settings, &env);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for c in snap.winners().chain(snap.candidates.iter()) {
        let name = &c.skill.name;
        // A name a shell cannot take as one word is not offered.
        if name.is_empty() || name.chars().any(|ch| ch.is_control() || ch.is_whitespace()) || !seen.insert(name) {
            continue;
        }
        out.push(CompletionCandidate::new(name.as_str()).help(Some(one_line(&c.skill.description).into())));
    }
    out
}

/// Every lint rule id, and `all`.
pub fn rule_ids() -> Vec<CompletionCandidate> {
    let mut out = vec![CompletionCandidate::new("all").help(Some("list every rule".into()))];
    out.extend(crate::lint::rules::all().iter().map(|r| CompletionCandidate::new(r.id).help(Some(r.summary.into()))));
    out
}

/// A description as one short, terminal-safe line.
fn one_line(text: &str) -> String {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let mut s: String = line.chars().take(80).collect();
    if line.chars().count() > 80 {
        s.push('…');
    }
    crate::render::term::safe(&s).into_owned()
}

/// The registration script; its errors (a closed pipe, a full disk) are returned, not panics.
pub fn run(args: &CompletionsArgs, io: &mut Io) -> anyhow::Result<u8> {
    registration(args.shell, &mut *io.out)?;
    Ok(EXIT_OK)
}
