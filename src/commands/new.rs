//! `dsh-skills new NAME`: write a skill that loads. The name is checked against the harness's
//! rule first; the destination is a root the harness scans (the project's `.agents/skills` by
//! default); what the new skill would shadow or be shadowed by is said before anything is
//! written; the file is created atomically and never over an existing one. Afterwards a
//! discovery confirms which copy of the name the harness picks.

use super::io::{EXIT_OK, Io, human_or_json};
use crate::cli::{GlobalArgs, NewArgs};
use crate::engine::discover::{Environment, PROJECT_AGENTS_RANK, Root, USER_AGENTS_RANK};
use crate::engine::platform;
use crate::engine::snapshot::{ProviderRun, Settings, Snapshot, discover_kept as discover};
use crate::error::UsageError;
use crate::render::term::safe;

/// The description template: the trigger first (what the catalog shows the model to decide
/// whether to load the skill), then what the skill does. No angle brackets (the Agent Skills
/// portability rule), under every length limit.
pub const DESCRIPTION: &str = "Use when [the request or situation that should load this skill, in the words a user \
                               would say]. [What the skill does, in one sentence.]";

/// The text of a new skill named `name`.
pub fn template(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: {DESCRIPTION}\n---\n\n# {name}\n\n\
         Replace this with the instructions the model follows once it loads the skill: the steps,\n\
         the commands to run, what to check before answering. Keep it short; put long reference\n\
         material in files beside this one and link them.\n"
    )
}

/// A slug the harness accepts, made from `name` (lowercase, other characters as `-`).
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// Every root the snapshot's providers scanned, with the layer of its provider.
fn scanned_roots(snap: &Snapshot) -> Vec<(usize, &Root)> {
    let mut out = Vec::new();
    for p in &snap.providers {
        if let ProviderRun::Filesystem { scan, .. } = &p.run {
            out.extend(scan.roots.iter().map(|r| (p.layer, &r.root)));
        }
    }
    out
}

pub fn run(g: &GlobalArgs, args: &NewArgs, settings: &Settings, env: &Environment, io: &mut Io) -> anyhow::Result<u8> {
    if human_or_json(g, "new")? {
        return Err(UsageError("`new` prints human output only".into()).into());
    }
    let name = &args.name;
    if !crate::engine::js::is_skill_name(name) {
        let s = slug(name);
        let hint =
            if crate::engine::js::is_skill_name(&s) { format!("; try `dsh-skills new {s}`") } else { String::new() };
        return Err(UsageError(format!(
            "\"{}\" is not a skill name the harness accepts (lowercase letters and digits in words joined by \
             single hyphens: `^[a-z0-9]+(-[a-z0-9]+)*$`); it would skip the file with `invalid skill name`{hint}",
            safe(name)
        ))
        .into());
    }
    let snap = discover(settings, env);
    let roots = scanned_roots(&snap);
    // The destination root, and the scanned root it is (its layer and rank), if any.
    let (dest, which) = if let Some(dir) = &args.dir {
        (platform::resolve(&env.process_cwd, dir), "the folder given")
    } else if args.user {
        let Some((_, r)) = roots.iter().find(|(_, r)| r.rank == USER_AGENTS_RANK) else {
            return Err(UsageError(
                "no user-agents root is scanned with these options (--no-default-roots?); use --dir DIR".into(),
            )
            .into());
        };
        (r.path.clone(), "the user-agents root")
    } else {
        let Some((_, r)) = roots.iter().find(|(_, r)| r.rank == PROJECT_AGENTS_RANK) else {
            return Err(UsageError(
                "no project .agents/skills root is scanned for this working directory (--no-cwd or \
                 --no-default-roots?); use --user or --dir DIR"
                    .into(),
            )
            .into());
        };
        (r.path.clone(), "the project's .agents/skills")
    };
    let Some(&(layer, root)) = roots.iter().find(|(_, r)| r.path == dest) else {
        return Err(UsageError(format!(
            "the harness does not scan {} for this working directory, so a skill there would not load; pass \
             `--root {}` to treat it as a skills root, or choose a scanned root (`dsh-skills list` shows them)",
            safe(&dest),
            safe(args.dir.as_deref().unwrap_or(&dest))
        ))
        .into());
    };
    let file = if args.flat {
        platform::join(&dest, &format!("{name}.md"))
    } else {
        platform::join(&platform::join(&dest, name), "SKILL.md")
    };
    let entry = if args.flat { file.clone() } else { platform::join(&dest, name) };
    if std::fs::symlink_metadata(&entry).is_ok() {
        return Err(UsageError(format!("{} already exists; not overwritten", safe(&entry))).into());
    }
    // What the new copy would shadow, or be shadowed by: the same name elsewhere. A later layer
    // (an agent preset's) wins over an earlier one; within a layer, the lower rank wins.
    let mut notes = Vec::new();
    for c in snap.candidates.iter().filter(|c| c.skill.name == *name) {
        let c_layer = snap.providers.iter().find(|p| p.order == c.provider_order).map_or(layer, |p| p.layer);
        let where_ = format!("{} ({} root)", safe(c.path.as_deref().unwrap_or("?")), c.source);
        let line = if c_layer > layer || (c_layer == layer && c.rank < root.rank) {
            format!("would be shadowed by {where_}: the harness keeps that copy and ignores the new one")
        } else if c_layer == layer && c.rank == root.rank {
            format!(
                "shares its name with {where_} in the same root: the harness keeps the one whose entry sorts first \
                 and warns about the other"
            )
        } else {
            format!("would shadow {where_}: the harness would load the new one instead")
        };
        notes.push(line);
    }
    writeln!(io.err, "new skill `{name}` in {which}, {} ({} root, rank {})", safe(&dest), root.source, root.rank)?;
    for n in &notes {
        writeln!(io.err, "note: the new skill {n}")?;
    }
    // Only the folders the file needs, then the file (atomically, never over another).
    let parent = platform::dirname(&file);
    let missing: Vec<String> = {
        let mut m = Vec::new();
        let mut p = parent.clone();
        while std::fs::symlink_metadata(&p).is_err() {
            m.push(p.clone());
            let up = platform::dirname(&p);
            if up == p {
                break;
            }
            p = up;
        }
        m
    };
    std::fs::create_dir_all(&parent).map_err(|e| UsageError(format!("cannot create {}: {e}", safe(&parent))))?;
    if let Err(e) = super::write::create_new(std::path::Path::new(&file), template(name).as_bytes()) {
        for d in &missing {
            let _ = std::fs::remove_dir(d);
        }
        return Err(UsageError(safe(&e).into_owned()).into());
    }
    writeln!(io.out, "created {}", safe(&crate::lint::display_path(&env.process_cwd, &file)))?;
    // What the harness does with it now.
    let after = discover(settings, env);
    match after.winner(name) {
        Some(c) if c.path.as_deref() == Some(file.as_str()) => {
            writeln!(io.out, "the harness loads it: `dsh-skills show {name}` shows it, `dsh-skills list` lists it")?
        }
        Some(c) => writeln!(
            io.out,
            "the harness loads another copy of `{name}`: {} (`dsh-skills explain {name}` says why)",
            safe(c.path.as_deref().unwrap_or("?"))
        )?,
        None => writeln!(io.out, "the harness does not load it yet: `dsh-skills explain {name}` says why")?,
    }
    writeln!(
        io.out,
        "next: write the description, trigger first (what the model reads to decide to load it), then the body"
    )?;
    Ok(EXIT_OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_names_the_harness_accepts() {
        assert_eq!(slug("My Skill_2"), "my-skill-2");
        assert_eq!(slug("--PDF--tools!"), "pdf-tools");
        assert!(crate::engine::js::is_skill_name(&slug("My Skill_2")));
        assert!(crate::engine::skillfile::parse_skill_text(&template("a-b")).is_ok());
    }
}
