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
    // The tokenizer is loaded only when the count is shown.
    let count_tokens = json || (!args.digest && !args.quiet);
    let stats = human::catalog_stats(&snap, cat.text.as_deref(), cat.entries.as_deref(), count_tokens);
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

/// Why there is no catalog, on stderr (stdout stays empty, as the harness publishes nothing).
fn explain_no_catalog(s: &Snapshot, why: Option<NoCatalog>, config: &Report, io: &mut Io) -> io::Result<()> {
    io.err.write_all(human::no_catalog(s, why, config.no_tool_reason.as_deref()).as_bytes())
}
