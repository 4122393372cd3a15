//! `dsh-skills show <NAME>`: the winning copy of a skill, and (`--rendered`) the exact
//! `<skill_content>` the `skill` tool returns.

use super::io::{EXIT_OK, Io, human_or_json, write_exact, write_json};
use crate::cli::GlobalArgs;
use crate::cli::ShowArgs;
use crate::engine::catalog::{self, ResourceBase};
use crate::engine::discover::Environment;
use crate::engine::snapshot::{Settings, discover_kept as discover};
use crate::error::UsageError;
use crate::render::{human, report};

pub fn run(g: &GlobalArgs, args: &ShowArgs, settings: &Settings, env: &Environment, io: &mut Io) -> anyhow::Result<u8> {
    let json = human_or_json(g, "show")?;
    let snap = discover(settings, env);
    let Some(c) = snap.winner(&args.name) else {
        let mut msg = format!("no skill named \"{}\" is available", crate::render::term::safe(&args.name));
        if !snap.complete {
            msg.push_str(" (discovery is incomplete: a provider failed)");
        }
        let close = crate::analysis::suggest::suggestions(&snap, &args.name);
        if !close.is_empty() {
            msg.push_str(&format!("\n\nclose names: {}", crate::render::term::safe(&close.join(", "))));
        }
        msg.push_str(&format!(
            "\n\nRun `dsh-skills explain {}` to see what was searched, or `dsh-skills list` for every skill.",
            crate::render::term::safe(&args.name)
        ));
        return Err(UsageError(msg).into());
    };
    if &*c.provider == "dsh-badge" && c.resource_base.is_empty() && (args.rendered || json) {
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
        let found = crate::analysis::refs::of_candidate(c);
        io.out.write_all(human::show(&snap, c, &found, &io.term).as_bytes())?;
    }
    Ok(EXIT_OK)
}
