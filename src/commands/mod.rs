//! The subcommands, one file each: turn parsed arguments into a snapshot, compute the command's
//! answer and hand it to a renderer. Output goes through [`Io`] only; `main` owns the real
//! streams. A command's snapshot is never freed ([`crate::engine::snapshot::discover_kept`]).

use crate::cli::{Cli, Command, GlobalArgs};
use crate::engine::config::{self, Report};
use crate::engine::discover::Environment;
use crate::engine::snapshot::Settings;

pub mod catalog;
pub mod completions;
pub mod diff;
pub mod explain;
pub mod io;
pub mod lint;
pub mod list;
pub mod new;
pub mod show;
pub mod watch;
pub mod write;

pub use crate::engine::snapshot::discover_kept as discover;
pub use crate::error::UsageError;
pub use io::{EXIT_INCOMPLETE, EXIT_OK, EXIT_USAGE, Io, write_exact};
pub use list::unscanned_search;

/// Run a parsed command line. `Err` carries an I/O failure or a usage error (exit 2).
pub fn run(cli: &Cli, env: &Environment, io: &mut Io) -> anyhow::Result<u8> {
    match &cli.command {
        Command::Completions(args) => return completions::run(args, io),
        Command::Schema(args) => {
            io.out.write_all(args.document.text().as_bytes())?;
            return Ok(EXIT_OK);
        }
        _ => {}
    }
    let var = |k: &str| std::env::var(k).ok();
    input_warnings(&cli.global, env, io)?;
    // Flags, environment and (unless --no-config) the harness's configuration files.
    let resolved = config::resolve(&cli.global.flags(), env, &var).map_err(|e| UsageError(e.0))?;
    let mut settings = if cli.global.no_config { settings_from_args(&cli.global, env) } else { resolved.settings };
    // Only `show` prints bodies (lint reads each file again itself); the others drop each body
    // once the file is validated.
    settings.scan.keep_content = matches!(cli.command, Command::Show(_));
    let report = &resolved.report;
    match &cli.command {
        Command::List(args) => list::run(&cli.global, args, &settings, report, env, io),
        Command::Show(args) => {
            warn_config_problems(report, io)?;
            show::run(&cli.global, args, &settings, env, io)
        }
        Command::Catalog(args) => {
            warn_config_problems(report, io)?;
            catalog::run(&cli.global, args, &settings, report, env, io)
        }
        Command::Explain(args) => {
            warn_config_problems(report, io)?;
            explain::run(&cli.global, args, &settings, env, io)
        }
        Command::Lint(args) => lint::run(&cli.global, args, &settings, env, io),
        Command::Diff(args) => {
            warn_config_problems(report, io)?;
            diff::run(&cli.global, args, &settings, env, io)
        }
        Command::New(args) => {
            warn_config_problems(report, io)?;
            new::run(&cli.global, args, &settings, env, io)
        }
        Command::Watch(args) => {
            warn_config_problems(report, io)?;
            watch::run(&cli.global, args, settings, report, env, io)
        }
        // The language server owns stdin and stdout: `main` starts it (`lsp::context::run`)
        // before it takes the streams for `Io`.
        Command::Lsp(_) => {
            Err(UsageError("`dsh-skills lsp` is started by the binary's main, not through Io".into()).into())
        }
        Command::Completions(_) | Command::Schema(_) => unreachable!("handled above"),
    }
}

/// Input that looks wrong, said on stderr; the output stays what the contract says.
fn input_warnings(g: &GlobalArgs, env: &Environment, io: &mut Io) -> std::io::Result<()> {
    use crate::render::term::safe;
    if let Some(cwd) = &g.cwd {
        let abs = crate::engine::platform::resolve(&env.process_cwd, cwd);
        match std::fs::metadata(&abs) {
            Err(_) => writeln!(
                io.err,
                "warning: --cwd {} does not exist; showing what the harness would do for that path anyway",
                safe(&abs)
            )?,
            Ok(m) if !m.is_dir() => writeln!(
                io.err,
                "warning: --cwd {} is a file, not a directory; showing what the harness would do for that path anyway",
                safe(&abs)
            )?,
            Ok(_) => {}
        }
    }
    if let Some(why) = g.locale.as_deref().and_then(crate::engine::collate::unknown_locale) {
        writeln!(io.err, "warning: --locale: {}; entries are ordered by the root collation (as en-US)", safe(&why))?;
    }
    let tilde = |v: &str| v == "~" || v.starts_with("~/") || v.starts_with("~\\");
    let mut literal = Vec::new();
    if let Some(v) = g.agents_home.as_deref().filter(|v| tilde(v)) {
        literal.push(("--agents-home", v.to_string()));
    } else if g.agents_home.is_none()
        && let Some(v) = std::env::var("DSH_AGENTS_HOME").ok().filter(|v| tilde(v))
    {
        literal.push(("$DSH_AGENTS_HOME", v));
    }
    for d in g.custom_dirs.iter().filter(|v| tilde(v)) {
        literal.push(("--custom-dir", d.clone()));
    }
    for d in g.roots.iter().filter(|v| tilde(v)) {
        literal.push(("--root", d.clone()));
    }
    if let Some(v) = g.bundled_dir.as_deref().filter(|v| tilde(v)) {
        literal.push(("--bundled-dir", v.to_string()));
    }
    for (flag, v) in literal {
        let home = if env.home.is_empty() { "$HOME".to_string() } else { env.home.clone() };
        writeln!(
            io.err,
            "warning: {flag} {}: the harness does not expand `~` here, so this is {}; write {} if you mean your home",
            safe(&v),
            safe(&crate::engine::platform::resolve(&env.process_cwd, &v)),
            safe(&crate::engine::platform::join(&home, v.trim_start_matches('~').trim_start_matches(['/', '\\'])))
        )?;
    }
    Ok(())
}

/// Where the preview may differ from dsh (e.g. an installed package that was not found).
fn warn_config_problems(report: &Report, io: &mut Io) -> std::io::Result<()> {
    for p in &report.problems {
        writeln!(io.err, "warning: {}", crate::render::term::safe(p))?;
    }
    Ok(())
}

/// Flags over environment over defaults, with no configuration file read (`--no-config`, or a
/// configuration that failed in the language server).
pub fn settings_from_args(g: &GlobalArgs, env: &Environment) -> Settings {
    crate::engine::config::flags_only(&g.flags(), env, &|k| std::env::var(k).ok())
}
