//! `dsh-skills explain <NAME>`: why this copy wins, what it shadows, where it ends up, and the
//! near misses when nothing does.

use super::io::{EXIT_INCOMPLETE, EXIT_OK, Io, human_or_json, write_json};
use crate::cli::ExplainArgs;
use crate::cli::GlobalArgs;
use crate::engine::discover::Environment;
use crate::engine::snapshot::{Settings, discover_kept as discover};
use crate::render::{human, report};

pub fn run(
    g: &GlobalArgs,
    args: &ExplainArgs,
    settings: &Settings,
    env: &Environment,
    io: &mut Io,
) -> anyhow::Result<u8> {
    let json = human_or_json(g, "explain")?;
    let snap = discover(settings, env);
    let x = crate::analysis::explain::explain(&snap, &args.name, &env.home);
    if json {
        write_json(io, &report::explain(&snap, &x))?;
    } else {
        io.out.write_all(human::explain(&snap, &x, &io.term).as_bytes())?;
    }
    Ok(if x.winner.is_some() { EXIT_OK } else { EXIT_INCOMPLETE })
}
