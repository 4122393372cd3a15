//! `dsh-skills catalog`: the exact text the model sees (`--update`: the replacement a running
//! session receives; `--digest`: the harness's digest), or why there is none.

use super::io::{EXIT_INCOMPLETE, EXIT_OK, Io, human_or_json, write_exact, write_json};
use crate::cli::CatalogArgs;
use crate::cli::GlobalArgs;
use crate::engine::catalog::{self, Variant};
use crate::engine::config::Report;
use crate::engine::discover::Environment;
use crate::engine::snapshot::{NoCatalog, Settings, Snapshot, discover_kept as discover};
use crate::render::{human, report};
use std::io;

pub fn run(
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
                    crate::render::term::safe(e)
                )?;
            }
        }
        Some(NoCatalog::NoSkillTool) => match &config.no_tool_reason {
            Some(reason) => writeln!(
                io.err,
                "no catalog: the `skill` tool is not mounted ({}), so the model gets no catalog",
                crate::render::term::safe(reason)
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
