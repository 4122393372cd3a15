//! The subcommands: turn parsed arguments into a snapshot and a rendered answer. Output goes
//! through [`Io`] only; `main` owns the real streams.
//!
//! A command's snapshot is never freed: it lives until the process exits, right after the
//! command ([`discover`]). Freeing 10,000 skills' worth of small allocations one by one took
//! about 30 ms of a 300 ms run; the operating system reclaims the memory at once.

use crate::catalog::{self, ResourceBase, Variant};
use crate::cli::{CatalogArgs, Cli, Command, CompletionsArgs, ExplainArgs, Format, GlobalArgs, ListArgs, ShowArgs};
use crate::config::{self, Report};
use crate::discover::{Environment, Outcome, ProviderConfig};
use crate::snapshot::{NoCatalog, Settings, Snapshot};
use crate::term::Term;
use crate::{human, report};
use std::io::{self, Write};

pub mod lsp;

/// [`Snapshot::discover`], kept until the process exits (see the module notes).
pub fn discover(settings: &Settings, env: &crate::discover::Environment) -> std::mem::ManuallyDrop<Snapshot> {
    std::mem::ManuallyDrop::new(Snapshot::discover(settings, env))
}

/// Where a command writes. `main` passes the process's stdout and stderr.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    /// Colour and width for human output on stdout.
    pub term: Term,
    /// Colour for human output on stderr.
    pub err_term: Term,
    /// stdout is a terminal: exact texts and JSON are written escaped ([`write_exact`],
    /// [`write_json`]), so nothing from a skill file can drive the terminal.
    pub out_is_terminal: bool,
}

/// Write an exact text (the catalog, a `<skill_content>` block) and a line feed. Piped or
/// redirected, the bytes are exact; on a terminal, control characters, escape sequences and
/// bidirectional controls are shown escaped, and stderr says so once.
pub fn write_exact(io: &mut Io, text: &str) -> io::Result<()> {
    if io.out_is_terminal {
        let shown = crate::term::safe_text(text);
        writeln!(io.out, "{shown}")?;
        if matches!(shown, std::borrow::Cow::Owned(_)) {
            io.out.flush()?;
            writeln!(io.err, "{}", crate::term::ESCAPED_NOTE)?;
        }
        Ok(())
    } else {
        writeln!(io.out, "{text}")
    }
}

/// A failure that ends the run with exit status 2 and a message.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Exit statuses of the contract.
pub const EXIT_OK: u8 = 0;
pub const EXIT_INCOMPLETE: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

/// Run a parsed command line. `Err` carries an I/O failure or a usage error (exit 2).
pub fn run(cli: &Cli, env: &Environment, io: &mut Io) -> anyhow::Result<u8> {
    match &cli.command {
        Command::Completions(args) => return completions(args, io),
        Command::Schema(args) => {
            io.out.write_all(args.document.text().as_bytes())?;
            return Ok(EXIT_OK);
        }
        _ => {}
    }
    let var = |k: &str| std::env::var(k).ok();
    input_warnings(&cli.global, env, io)?;
    // Flags, environment and (unless --no-config) the harness's configuration files.
    let resolved = config::resolve(&cli.global, env, &var).map_err(|e| UsageError(e.0))?;
    let mut settings = if cli.global.no_config { settings_from_args(&cli.global, env) } else { resolved.settings };
    // Only `show` prints bodies (lint reads each file again itself); the others drop each body
    // once the file is validated.
    settings.scan.keep_content = matches!(cli.command, Command::Show(_));
    let report = &resolved.report;
    match &cli.command {
        Command::List(args) => list(&cli.global, args, &settings, report, env, io),
        Command::Show(args) => {
            warn_config_problems(report, io)?;
            show(&cli.global, args, &settings, env, io)
        }
        Command::Catalog(args) => {
            warn_config_problems(report, io)?;
            catalog_cmd(&cli.global, args, &settings, report, env, io)
        }
        Command::Explain(args) => {
            warn_config_problems(report, io)?;
            explain_cmd(&cli.global, args, &settings, env, io)
        }
        Command::Lint(args) => crate::lint::command::run(&cli.global, args, &settings, env, io),
        // `main` starts the server before it takes stdout (the server writes it itself).
        Command::Lsp(args) => lsp::run(&cli.global, args, env),
        Command::Completions(_) | Command::Schema(_) => unreachable!("handled above"),
    }
}

/// Input that looks wrong, said on stderr; the output stays what the contract says.
fn input_warnings(g: &GlobalArgs, env: &Environment, io: &mut Io) -> io::Result<()> {
    use crate::term::safe;
    if let Some(cwd) = &g.cwd {
        let abs = crate::platform::resolve(&env.process_cwd, cwd);
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
    if let Some(why) = g.locale.as_deref().and_then(crate::collate::unknown_locale) {
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
    if let Some(v) = g.bundled_dir.as_deref().filter(|v| tilde(v)) {
        literal.push(("--bundled-dir", v.to_string()));
    }
    for (flag, v) in literal {
        let home = if env.home.is_empty() { "$HOME".to_string() } else { env.home.clone() };
        writeln!(
            io.err,
            "warning: {flag} {}: the harness does not expand `~` here, so this is {}; write {} if you mean your home",
            safe(&v),
            safe(&crate::platform::resolve(&env.process_cwd, &v)),
            safe(&crate::platform::join(&home, v.trim_start_matches('~').trim_start_matches(['/', '\\'])))
        )?;
    }
    Ok(())
}

/// Where the preview may differ from dsh (e.g. an installed package that was not found).
fn warn_config_problems(report: &Report, io: &mut Io) -> io::Result<()> {
    for p in &report.problems {
        writeln!(io.err, "warning: {}", crate::term::safe(p))?;
    }
    Ok(())
}

/// Flags over environment over defaults. (Configuration files are read in a later layer.)
pub fn settings_from_args(g: &GlobalArgs, env: &Environment) -> Settings {
    let var = |k: &str| std::env::var(k).ok();
    Settings::single(
        if g.no_cwd { None } else { Some(g.cwd.clone().unwrap_or_else(|| env.process_cwd.clone())) },
        ProviderConfig {
            dsh_home: g.dsh_home.clone(),
            agents_home: g.agents_home.clone(),
            custom_skill_dirs: g.custom_dirs.clone(),
            bundled_skill_dir: g.bundled_dir.clone(),
            include_default_roots: !g.no_default_roots,
            ..ProviderConfig::default()
        },
        g.description_max_length.unwrap_or(catalog::DEFAULT_DESCRIPTION_MAX_LENGTH),
        g.locale.as_deref().map_or_else(|| crate::collate::locale_from_env(&var), crate::collate::locale_from_value),
    )
}

fn human_or_json(g: &GlobalArgs, command: &str) -> anyhow::Result<bool> {
    match g.format {
        Format::Human => Ok(false),
        Format::Json => Ok(true),
        other => Err(UsageError(format!(
            "`{command}` prints human or json output; --format {} is for `lint`",
            format!("{other:?}").to_lowercase()
        ))
        .into()),
    }
}

fn write_json(io: &mut Io, value: &impl serde::Serialize) -> io::Result<()> {
    if io.out_is_terminal {
        // The same JSON, with the characters a terminal would obey written as `\uXXXX`.
        let text = serde_json::to_string_pretty(value)?;
        return writeln!(io.out, "{}", crate::term::json_for_terminal(&text));
    }
    serde_json::to_writer_pretty(&mut *io.out, value)?;
    writeln!(io.out)
}

fn list(
    g: &GlobalArgs,
    args: &ListArgs,
    settings: &Settings,
    config: &Report,
    env: &Environment,
    io: &mut Io,
) -> anyhow::Result<u8> {
    let json = human_or_json(g, "list")?;
    let snap = discover(settings, env);
    let unscanned = unscanned_search(&snap, env);
    if json {
        let mut doc = report::list(&snap, config::report::json(config));
        doc.unscanned = Some(unscanned);
        write_json(io, &doc)?;
    } else {
        // The configuration block when asked for, or when something is not the default.
        let config_lines = if args.verbose || config::report::differs_from_defaults(config) {
            config::report::human(config)
        } else {
            Vec::new()
        };
        io.out.write_all(human::list(&snap, &io.term, args.verbose, &config_lines, &unscanned).as_bytes())?;
    }
    Ok(if snap.complete { EXIT_OK } else { EXIT_INCOMPLETE })
}

/// [`crate::unscanned::search`] for the snapshot's cwd, with the folders the lint
/// configuration (`unscanned-ok`) declares intentional.
pub fn unscanned_search(snap: &Snapshot, env: &Environment) -> crate::unscanned::Search {
    let start = snap.cwd.clone().unwrap_or_else(|| env.process_cwd.clone());
    let ok = crate::lint::config::Config::find(&start, None, &env.process_cwd)
        .map(|c| c.unscanned_ok_paths(&start))
        .unwrap_or_default();
    crate::unscanned::search(snap, &env.home, &ok)
}

fn catalog_cmd(
    g: &GlobalArgs,
    args: &CatalogArgs,
    settings: &Settings,
    config: &Report,
    env: &Environment,
    io: &mut Io,
) -> anyhow::Result<u8> {
    let json = human_or_json(g, "catalog")?;
    let snap = discover(settings, env);
    let variant = if args.update { Variant::Replacement } else { Variant::Initial };
    let cat = snap.catalog(variant);
    let stats = human::catalog_stats(&snap, cat.text.as_deref(), cat.entries.as_deref());
    if json {
        write_json(io, &report::catalog(&snap, &cat, &stats))?;
    } else if args.digest {
        match &cat.entries {
            Some(entries) => writeln!(io.out, "{}", catalog::digest(entries))?,
            None => explain_no_catalog(&snap, cat.why_none, config, io)?,
        }
    } else {
        match &cat.text {
            Some(text) => {
                write_exact(io, text)?;
                if !args.quiet {
                    let text = human::catalog_stats_text(&stats, snap.description_max_length, &io.err_term);
                    io.err.write_all(text.as_bytes())?;
                }
            }
            None => explain_no_catalog(&snap, cat.why_none, config, io)?,
        }
    }
    Ok(if snap.complete { EXIT_OK } else { EXIT_INCOMPLETE })
}

fn explain_no_catalog(s: &Snapshot, why: Option<NoCatalog>, config: &Report, io: &mut Io) -> io::Result<()> {
    match why {
        Some(NoCatalog::Incomplete) => {
            for (name, e) in s.provider_errors() {
                writeln!(
                    io.err,
                    "no catalog: skill provider \"{name}\" failed, so discovery is incomplete and the harness publishes nothing: {}",
                    crate::term::safe(e)
                )?;
            }
        }
        Some(NoCatalog::NoSkillTool) => match &config.no_tool_reason {
            Some(reason) => writeln!(
                io.err,
                "no catalog: the `skill` tool is not mounted ({}), so the model gets no catalog",
                crate::term::safe(reason)
            )?,
            None => writeln!(
                io.err,
                "no catalog: the `skill` tool is not mounted in this configuration, so the model gets no catalog"
            )?,
        },
        Some(NoCatalog::NoModelInvocableSkill) => {
            let hidden = s.winners().filter(|c| !c.skill.invocation.model_invocable).count();
            if hidden > 0 {
                writeln!(
                    io.err,
                    "no catalog: every skill ({hidden}) sets disable-model-invocation, so the harness publishes no catalog"
                )?;
            } else {
                writeln!(io.err, "no catalog: no skills were found, so the harness publishes no catalog")?;
            }
        }
        None => {}
    }
    Ok(())
}

fn show(g: &GlobalArgs, args: &ShowArgs, settings: &Settings, env: &Environment, io: &mut Io) -> anyhow::Result<u8> {
    let json = human_or_json(g, "show")?;
    let snap = discover(settings, env);
    let Some(c) = snap.winner(&args.name) else {
        let mut msg = format!("no skill named \"{}\" is available", crate::term::safe(&args.name));
        if !snap.complete {
            msg.push_str(" (discovery is incomplete: a provider failed)");
        }
        let close = suggestions(&snap, &args.name);
        if !close.is_empty() {
            msg.push_str(&format!("\n\nclose names: {}", crate::term::safe(&close.join(", "))));
        }
        msg.push_str(&format!(
            "\n\nRun `dsh-skills explain {}` to see what was searched, or `dsh-skills list` for every skill.",
            crate::term::safe(&args.name)
        ));
        return Err(UsageError(msg).into());
    };
    if c.provider == "dsh-badge" && c.resource_base.is_empty() && (args.rendered || json) {
        return Err(UsageError(
            "the dsh-badge skill is enabled but its installed package was not found, so its content is unknown here (see `dsh-skills list`)".into(),
        )
        .into());
    }
    if args.rendered {
        let base = ResourceBase::Directory(c.resource_base.clone());
        let text = catalog::render_skill_content(&c.skill.name, &c.provider, Some(&base), &c.skill.content);
        write_exact(io, &text)?;
    } else if json {
        write_json(io, &report::skill(c))?;
    } else {
        io.out.write_all(human::show(&snap, c, &io.term).as_bytes())?;
    }
    Ok(EXIT_OK)
}

fn explain_cmd(
    g: &GlobalArgs,
    args: &ExplainArgs,
    settings: &Settings,
    env: &Environment,
    io: &mut Io,
) -> anyhow::Result<u8> {
    let json = human_or_json(g, "explain")?;
    let snap = discover(settings, env);
    let x = crate::explain::explain(&snap, &args.name, &env.home);
    if json {
        write_json(io, &report::explain(&snap, &x))?;
    } else {
        io.out.write_all(human::explain(&snap, &x, &io.term).as_bytes())?;
    }
    Ok(if x.winner.is_some() { EXIT_OK } else { EXIT_INCOMPLETE })
}

/// The registration script; its errors (a closed pipe, a full disk) are returned, not panics.
fn completions(args: &CompletionsArgs, io: &mut Io) -> anyhow::Result<u8> {
    crate::complete::registration(args.shell, &mut *io.out)?;
    Ok(EXIT_OK)
}

/// Names close to `wanted`: winners, and names of entries that were skipped.
pub fn suggestions(s: &Snapshot, wanted: &str) -> Vec<String> {
    let mut pool: Vec<String> = s.winners().map(|c| c.skill.name.clone()).collect();
    for (_, scan) in s.scans() {
        for r in &scan.roots {
            for e in &r.entries {
                if matches!(e.outcome, Outcome::Warned { .. }) {
                    pool.push(format!("{} (skipped: {})", e.name.trim_end_matches(".md"), e.path));
                }
            }
        }
    }
    let mut scored: Vec<(usize, String)> = pool
        .into_iter()
        .filter_map(|cand| {
            let key = cand.split(' ').next().unwrap_or("").to_string();
            let d = edit_distance(&key.to_lowercase(), &wanted.to_lowercase());
            let limit = (wanted.chars().count() / 3).max(2);
            (d <= limit || key.contains(wanted) || wanted.contains(&key) && !key.is_empty()).then_some((d, cand))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(5).map(|(_, n)| n).collect()
}

/// Levenshtein distance over chars.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    // Two rows, reused: no allocation per character (lint computes this for every unknown key).
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}
