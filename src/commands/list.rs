//! `dsh-skills list`: every root, the winning copy of each name, shadowed copies, problems and
//! skill folders the harness does not scan.

use super::io::{EXIT_INCOMPLETE, EXIT_OK, Io, human_or_json, write_json};
use crate::cli::GlobalArgs;
use crate::cli::ListArgs;
use crate::engine::config::Report;
use crate::engine::discover::Environment;
use crate::engine::snapshot::{Settings, Snapshot, discover_kept as discover};
use crate::render::{human, report};

pub fn run(
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
        let mut doc = report::list(&snap, crate::render::config::json(config));
        doc.unscanned = Some(unscanned);
        write_json(io, &doc)?;
    } else {
        // The configuration block when asked for, or when something is not the default.
        let config_lines = if args.verbose || crate::render::config::differs_from_defaults(config) {
            crate::render::config::human(config)
        } else {
            Vec::new()
        };
        io.out.write_all(human::list(&snap, &io.term, args.verbose, &config_lines, &unscanned).as_bytes())?;
    }
    Ok(if snap.complete { EXIT_OK } else { EXIT_INCOMPLETE })
}

/// [`crate::analysis::unscanned::search`] for the snapshot's cwd, with the folders the lint
/// configuration (`unscanned-ok`) declares intentional.
pub fn unscanned_search(snap: &Snapshot, env: &Environment) -> crate::analysis::unscanned::Search {
    let start = snap.cwd.clone().unwrap_or_else(|| env.process_cwd.clone());
    let ok = crate::lint::config::Config::find(&start, None, &env.process_cwd)
        .map(|c| c.unscanned_ok_paths(&start))
        .unwrap_or_default();
    crate::analysis::unscanned::search(snap, &env.home, &ok)
}
