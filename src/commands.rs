//! The subcommands: turn parsed arguments into a snapshot and a rendered answer. Output goes
//! through [`Io`] only; `main` owns the real streams.

use crate::catalog::{self, ResourceBase, Variant};
use crate::cli::{CatalogArgs, Cli, Command, Format, GlobalArgs, ListArgs, ShowArgs};
use crate::config::{self, Report};
use crate::discover::{Environment, Outcome, ProviderConfig, RootStatus};
use crate::report;
use crate::snapshot::{NoCatalog, Settings, Snapshot};
use std::io::{self, Write};

/// Where a command writes. `main` passes the process's stdout and stderr.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
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
    let var = |k: &str| std::env::var(k).ok();
    // Flags, environment and (unless --no-config) the harness's configuration files.
    let resolved = config::resolve(&cli.global, env, &var).map_err(|e| UsageError(e.0))?;
    let settings = if cli.global.no_config { settings_from_args(&cli.global, env) } else { resolved.settings };
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
    }
}

/// Where the preview may differ from dsh (e.g. an installed package that was not found).
fn warn_config_problems(report: &Report, io: &mut Io) -> io::Result<()> {
    for p in &report.problems {
        writeln!(io.err, "warning: {p}")?;
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
        g.locale.clone().unwrap_or_else(|| crate::collate::locale_from_env(&var)),
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

fn write_json(io: &mut Io, value: &serde_json::Value) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *io.out, value)?;
    writeln!(io.out)
}

fn list(
    g: &GlobalArgs,
    _args: &ListArgs,
    settings: &Settings,
    config: &Report,
    env: &Environment,
    io: &mut Io,
) -> anyhow::Result<u8> {
    let json = human_or_json(g, "list")?;
    let snap = Snapshot::discover(settings, env);
    if json {
        let mut value = report::list(&snap);
        if let serde_json::Value::Object(m) = &mut value {
            m.insert("config".into(), config::report::json(config));
        }
        write_json(io, &value)?;
    } else {
        for line in config::report::human(config) {
            writeln!(io.out, "{line}")?;
        }
        writeln!(io.out)?;
        write_list_plain(&snap, io)?;
    }
    Ok(if snap.complete { EXIT_OK } else { EXIT_INCOMPLETE })
}

fn write_list_plain(s: &Snapshot, io: &mut Io) -> io::Result<()> {
    let out = &mut *io.out;
    if !s.complete {
        for (name, e) in s.provider_errors() {
            writeln!(out, "DISCOVERY INCOMPLETE: provider \"{name}\" failed, so the model sees no catalog: {e}")?;
        }
    }
    match (&s.cwd, &s.project_root) {
        (Some(cwd), Some((root, _))) => writeln!(out, "cwd {cwd}\nproject root {root}")?,
        _ => writeln!(out, "no session cwd: project roots are not scanned")?,
    }
    writeln!(out, "\nroots:")?;
    for r in s.scans().flat_map(|(_, scan)| &scan.roots) {
        let status = match r.status {
            RootStatus::Scanned => format!("scanned, {} entries", r.entries.len()),
            RootStatus::Absent => r.root_type.label(),
            RootStatus::Failed => "FAILED".to_string(),
            RootStatus::NotReached => "not scanned (provider failed)".to_string(),
        };
        writeln!(out, "  {:>3} {:<14} {} ({status})", r.root.rank, r.root.source, r.root.path)?;
    }
    writeln!(out, "\nskills:")?;
    for c in s.winners() {
        writeln!(out, "  {:<24} {:<14} {}", c.skill.name, c.source, c.skill.description)?;
    }
    if !s.shadowed.is_empty() {
        writeln!(out, "\nshadowed:")?;
        for sh in &s.shadowed {
            let (l, w) = (&s.candidates[sh.loser], &s.candidates[sh.winner]);
            let at = |c: &crate::discover::Candidate| c.path.clone().unwrap_or_else(|| c.provider.clone());
            writeln!(out, "  {} at {} ({}) loses to {} ({})", l.skill.name, at(l), l.source, at(w), w.source)?;
        }
    }
    if !s.warnings.is_empty() {
        writeln!(out, "\nwarnings:")?;
        for w in &s.warnings {
            writeln!(out, "  {w}")?;
        }
    }
    Ok(())
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
    let snap = Snapshot::discover(settings, env);
    let variant = if args.update { Variant::Replacement } else { Variant::Initial };
    let cat = snap.catalog(variant);
    if json {
        write_json(io, &report::catalog(&snap, &cat))?;
    } else if args.digest {
        match &cat.entries {
            Some(entries) => writeln!(io.out, "{}", catalog::digest(entries))?,
            None => explain_no_catalog(&snap, cat.why_none, config, io)?,
        }
    } else {
        match &cat.text {
            Some(text) => writeln!(io.out, "{text}")?,
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
                    "no catalog: skill provider \"{name}\" failed, so discovery is incomplete and the harness publishes nothing: {e}"
                )?;
            }
        }
        Some(NoCatalog::NoSkillTool) => match &config.no_tool_reason {
            Some(reason) => writeln!(
                io.err,
                "no catalog: the `skill` tool is not mounted ({reason}), so the model gets no catalog"
            )?,
            None => writeln!(
                io.err,
                "no catalog: the `skill` tool is not mounted for this configuration, so the model gets no catalog"
            )?,
        },
        Some(NoCatalog::NoModelInvocableSkill) => {
            let hidden = s.winners().filter(|c| !c.skill.invocation.model_invocable).count();
            if hidden > 0 {
                writeln!(
                    io.err,
                    "no catalog: all {hidden} skill(s) set disable-model-invocation, so the harness publishes no catalog"
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
    let snap = Snapshot::discover(settings, env);
    let Some(c) = snap.winner(&args.name) else {
        let mut msg = format!("no skill named \"{}\" is available", args.name);
        if !snap.complete {
            msg.push_str(" (discovery is incomplete: a provider failed)");
        }
        let close = suggestions(&snap, &args.name);
        if !close.is_empty() {
            msg.push_str(&format!("\n\nclose names: {}", close.join(", ")));
        }
        msg.push_str("\n\nRun `dsh-skills list` to see every skill and every file that was skipped.");
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
        writeln!(
            io.out,
            "{}",
            catalog::render_skill_content(&c.skill.name, &c.provider, Some(&base), &c.skill.content)
        )?;
    } else if json {
        write_json(io, &report::skill(c))?;
    } else {
        let out = &mut *io.out;
        writeln!(out, "{}", c.skill.name)?;
        writeln!(out, "  source        {} (rank {})", c.source, c.rank)?;
        if let Some(path) = &c.path {
            writeln!(out, "  path          {path}")?;
        }
        writeln!(out, "  provider      {}", c.provider)?;
        writeln!(out, "  resource base {}", c.resource_base)?;
        writeln!(
            out,
            "  invocation    model: {}, user: {}",
            if c.skill.invocation.model_invocable { "in the catalog" } else { "hidden from the catalog" },
            if c.skill.invocation.user_invocable { format!("/{} works", c.skill.name) } else { "no /name".into() }
        )?;
        writeln!(out, "  description   {}", c.skill.description)?;
        if let Some(w) = &c.skill.when_to_use {
            writeln!(out, "  whenToUse     {w}")?;
        }
        writeln!(out, "\n{}", c.skill.content)?;
    }
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
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
