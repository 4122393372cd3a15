//! The `dsh-skills` binary: parse arguments, run the command, map the outcome to an exit status.
//! The only place that touches the process's streams.

use clap::FromArgMatches;
use dsh_skills::cli::{self, Cli, ColorChoice};
use dsh_skills::commands::{self, EXIT_USAGE, Io, UsageError};
use dsh_skills::engine::discover::Environment;
use dsh_skills::render::term::{self, ColorMode, Term};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    // A bug must still end with the contract's status 2 and a message, never 101 or an abort.
    std::panic::set_hook(Box::new(|info| {
        let _ = writeln!(
            io::stderr(),
            "error: internal failure in dsh-skills {}: {info}\nPlease report it with the command that caused it.",
            env!("CARGO_PKG_VERSION")
        );
        std::process::exit(i32::from(EXIT_USAGE));
    }));
    // A completion script calling back (`DSH_SKILLS_COMPLETE=<shell>`): answer and stop.
    if let Some(answered) =
        dsh_skills::commands::completions::respond(std::env::args_os().collect(), &mut io::stdout().lock())
    {
        return match answered {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                let _ = writeln!(io::stderr(), "error: {e}");
                ExitCode::from(EXIT_USAGE)
            }
        };
    }
    let parsed = cli::command().try_get_matches().and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print to stdout and exit 0; usage errors exit 2. Help that
            // cannot be written (a full disk) is an error too; a closed pipe is not.
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            // clap quotes the offending argument as given: when an argument carries control
            // characters or escape sequences, the error is made again from the arguments with
            // those shown escaped (`\x1b]0;…`), so nothing raw reaches a terminal.
            let has_unsafe = |a: &std::ffi::OsString| a.to_string_lossy().chars().any(term::is_unsafe);
            let printed = if e.use_stderr() && std::env::args_os().any(|a| has_unsafe(&a)) {
                let escaped = std::env::args_os()
                    .map(|a| if has_unsafe(&a) { term::safe(&a.to_string_lossy()).into_owned().into() } else { a });
                match cli::command().try_get_matches_from(escaped).and_then(|m| Cli::from_arg_matches(&m)) {
                    Err(again) if again.use_stderr() => again.print(),
                    // Escaped, the arguments parse (or ask for help): clap's text without its
                    // styling, which drops every escape sequence, and controls escaped.
                    _ => {
                        let text = e.render().to_string();
                        let lines: Vec<String> =
                            text.trim_end_matches('\n').split('\n').map(|l| term::safe(l).into_owned()).collect();
                        writeln!(io::stderr(), "{}", lines.join("\n"))
                    }
                }
            } else {
                e.print()
            };
            return match printed {
                Err(w) if w.kind() != io::ErrorKind::BrokenPipe => {
                    let _ = writeln!(io::stderr(), "error: cannot write the help text: {w}");
                    ExitCode::from(EXIT_USAGE)
                }
                _ => ExitCode::from(code),
            };
        }
    };
    let env = Environment::from_process();
    // The language server owns stdin and stdout (LSP messages); nothing else may write there.
    if let cli::Command::Lsp(args) = &cli.command {
        return match dsh_skills::lsp::context::run(&cli.global, args, &env) {
            Ok(code) => ExitCode::from(code),
            Err(e) => {
                let _ = writeln!(io::stderr(), "error: {}", term::safe_multiline(&format!("{e:#}")));
                ExitCode::from(EXIT_USAGE)
            }
        };
    }
    let var = |k: &str| std::env::var(k).ok();
    let mode = match cli.global.color {
        ColorChoice::Auto => ColorMode::Auto,
        ColorChoice::Always => ColorMode::Always,
        ColorChoice::Never => ColorMode::Never,
    };
    let out_is_terminal = io::stdout().is_terminal();
    let term = Term::detect(mode, &var, out_is_terminal, term::tty_columns());
    let err_term = Term { width: None, ..Term::detect(mode, &var, io::stderr().is_terminal(), None) };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    // Not locked for the whole run: worker threads and the panic hook may need stderr too.
    let mut err = io::stderr();
    let result = {
        let mut io = Io { out: &mut out, err: &mut err, term, err_term, out_is_terminal };
        commands::run(&cli, &env, &mut io)
    };
    let flushed = out.flush();
    match result.and_then(|code| flushed.map(|_| code).map_err(Into::into)) {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Messages may quote names and paths from skill trees: shown escaped, lines kept.
            let text = if e.downcast_ref::<UsageError>().is_some() { format!("{e}") } else { format!("{e:#}") };
            let _ = writeln!(err, "error: {}", term::safe_multiline(&text));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe))
}
