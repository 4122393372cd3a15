//! `dsh-skills diff [BASE] [HEAD]`: discovery at two states of a git repository, compared.
//!
//! Each side is one discovery with the same settings, homes, configuration and working
//! directory; a commit's tree or the index is read through a git overlay
//! ([`crate::analysis::git`]) for the repository's paths, everything else from disk. Lint's
//! per-file rules run inside each discovery on the exact bytes of that side; its entry-level
//! findings are made from each side's discovery, reading that side's files.

use super::io::{EXIT_OK, Io, write_json};
use crate::analysis::diff::{Diff, LintItem, Side};
use crate::analysis::git::{Repo, State};
use crate::cli::{DiffArgs, Format, GlobalArgs};
use crate::engine::discover::Environment;
use crate::engine::nodefs;
use crate::engine::snapshot::{ProviderRun, Settings, Snapshot};
use crate::error::UsageError;
use crate::lint::check::FileResult;
use std::collections::BTreeSet;

/// Exit status when a `--fail-on` kind of change is found.
pub const EXIT_FAIL_ON: u8 = 1;

/// Rules that look beside the skill file on disk (references, links): at a commit they would
/// see the working tree, so the diff leaves them out of its lint comparison.
const BESIDE_THE_FILE: &[&str] = &["broken-reference", "reference-escapes-bundle", "symlink-escapes-bundle"];

/// Entry-level rules whose search walks the disk beside discovery (folders nested in a root):
/// left out for the same reason. The other entry-level findings (shadowing, same names, links,
/// letter case, blank names) read the state through the overlay, as discovery does.
const WALKS_THE_DISK: &[&str] = &["nested-too-deep", "ignored-entry"];

pub fn run(g: &GlobalArgs, args: &DiffArgs, settings: &Settings, env: &Environment, io: &mut Io) -> anyhow::Result<u8> {
    if matches!(g.format, Format::Sarif) {
        return Err(UsageError("`diff` prints human, json, markdown or github output".into()).into());
    }
    let start = settings
        .cwd
        .as_deref()
        .map_or_else(|| env.process_cwd.clone(), |c| crate::engine::platform::resolve(&env.process_cwd, c));
    let repo = Repo::open(&start).map_err(|e| UsageError(e.0))?;
    let (base, head) = states(&repo, args).map_err(|e| UsageError(e.0))?;
    let config = crate::lint::config::Config::find(&start, None, &env.process_cwd)?;
    let opts = super::lint::Options { config, compat: Vec::new() };
    let mut settings = settings.clone();
    settings.scan.keep_content = true;
    settings.scan.check = Some(std::sync::Arc::new(crate::lint::pass::InPass {
        opts: opts.check_options(&settings),
        config: opts.config.clone(),
    }));
    let base_side = side(&repo, &base, &settings, env, &opts).map_err(|e| UsageError(e.0))?;
    let head_side = side(&repo, &head, &settings, env, &opts).map_err(|e| UsageError(e.0))?;
    let diff = Diff::between(&base_side, &head_side, settings.description_max_length);
    let base_dir = env.process_cwd.as_str();
    match g.format {
        Format::Json => write_json(io, &crate::render::diff::document(&diff))?,
        Format::Markdown => {
            // Skill text sits raw in code spans and fences: escaped on a terminal, exact when piped.
            let text = crate::render::diff::markdown(&diff, base_dir);
            let text = if io.out_is_terminal { crate::textsafe::safe_text(&text) } else { text.as_str().into() };
            io.out.write_all(text.as_bytes())?
        }
        Format::Github => io.out.write_all(crate::render::diff::github(&diff, base_dir).as_bytes())?,
        _ => io.out.write_all(crate::render::diff::human(&diff, base_dir, &io.term).as_bytes())?,
    }
    let failing = diff.failing(&args.fail_on);
    if !failing.is_empty() {
        writeln!(io.err, "dsh-skills diff: failing on {}", failing.join(", "))?;
        return Ok(EXIT_FAIL_ON);
    }
    Ok(EXIT_OK)
}

/// The two states the arguments name.
fn states(repo: &Repo, args: &DiffArgs) -> Result<(State, State), crate::analysis::git::GitError> {
    let base = match (&args.base, args.staged) {
        (Some(rev), _) => repo.commit(rev)?,
        (None, true) => repo.commit("HEAD")?,
        (None, false) => repo.merge_base(&repo.default_branch()?)?,
    };
    let head = match (&args.head, args.staged) {
        (Some(rev), _) => repo.commit(rev)?,
        (None, true) => State::Index,
        (None, false) => State::WorkTree,
    };
    Ok((base, head))
}

/// One side: discovery, the files it reaches and lint's findings, with the state's files in
/// force.
fn side(
    repo: &Repo,
    state: &State,
    settings: &Settings,
    env: &Environment,
    opts: &super::lint::Options,
) -> Result<Side, crate::analysis::git::GitError> {
    let overlay = repo.overlay(state)?;
    let skill_files: Vec<(String, String)> = repo
        .files(state)?
        .into_iter()
        .filter(|rel| rel == "SKILL.md" || rel.ends_with("/SKILL.md"))
        .map(|rel| {
            let abs = crate::engine::platform::join(&repo.top, &rel);
            (rel, abs)
        })
        .collect();
    Ok(nodefs::with_overlay(overlay, || {
        let snap = Snapshot::discover(settings, env);
        let reached = crate::analysis::diff::reached_files(&snap);
        // A skill file reached through a link inside the repository counts at its real place.
        let skill_files: Vec<(String, String)> = skill_files
            .into_iter()
            .map(|(rel, abs)| {
                let real = nodefs::realpath(&abs).unwrap_or(abs);
                (rel, real)
            })
            .collect();
        let entry_level = crate::lint::targets::from_snapshot(&snap).findings;
        let lint = lint_items(&snap, entry_level, opts);
        Side::of(state.label(), &snap, &reached, &skill_files, lint)
    }))
}

/// Lint's findings at one state, at their configured levels: the entry-level ones (which copy
/// wins, same names, links, letter case) and the per-file ones of every file discovery read.
fn lint_items(snap: &Snapshot, entry_level: Vec<crate::lint::Finding>, opts: &super::lint::Options) -> Vec<LintItem> {
    let mut out = BTreeSet::new();
    for f in entry_level {
        if BESIDE_THE_FILE.contains(&f.rule) || WALKS_THE_DISK.contains(&f.rule) {
            continue;
        }
        let Some(level) = opts.config.level(&f, &opts.compat) else { continue };
        out.insert(LintItem {
            path: f.path.clone(),
            rule: f.rule.to_string(),
            severity: level.as_str().to_string(),
            message: f.message.clone(),
            line: None,
        });
    }
    for p in &snap.providers {
        let ProviderRun::Filesystem { scan, .. } = &p.run else { continue };
        for root in &scan.roots {
            for e in &root.entries {
                let Some(checked) = &e.checked else { continue };
                let Some(result) = checked.take() else { continue };
                let Ok(result) = result.downcast::<FileResult>() else { continue };
                let line_of = |span: &Option<std::ops::Range<usize>>| {
                    let src = result.source.as_ref()?;
                    let at = span.as_ref()?.start;
                    Some(src.text.as_bytes()[..at.min(src.text.len())].iter().filter(|b| **b == b'\n').count() + 1)
                };
                for f in &result.findings {
                    if BESIDE_THE_FILE.contains(&f.rule) {
                        continue;
                    }
                    let Some(level) = opts.config.level(f, &opts.compat) else { continue };
                    out.insert(LintItem {
                        path: f.path.clone(),
                        rule: f.rule.to_string(),
                        severity: level.as_str().to_string(),
                        message: f.message.clone(),
                        line: line_of(&f.span),
                    });
                }
                if let Some(w) = &result.harness_warning
                    && !result.findings.iter().any(|f| f.severity == crate::lint::Severity::Error)
                {
                    out.insert(LintItem {
                        path: e.locator.clone().unwrap_or_else(|| e.path.clone()),
                        rule: "harness-rejected".into(),
                        severity: "error".into(),
                        message: format!("the harness rejects this file: {}", w.lines().next().unwrap_or(w)),
                        line: None,
                    });
                }
            }
        }
    }
    out.into_iter().collect()
}
