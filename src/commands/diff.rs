//! `dsh-skills diff [BASE] [HEAD]`: discovery at two states of a git repository, compared.
//!
//! Each side is one discovery with the same settings, homes, configuration and working
//! directory; a commit's tree or the index is read through a git overlay
//! ([`crate::analysis::git`]) for the repository's paths, everything else from disk. Lint's
//! per-file rules run inside each discovery on the exact bytes of that side; its entry-level
//! findings are made from each side's discovery, reading that side's files.

use super::io::{EXIT_OK, Io, write_json};
use crate::analysis::diff::{Diff, LintItem, RealPaths, Side};
use crate::analysis::git::{Listing, Repo, State, StateFiles};
use crate::cli::{DiffArgs, Format, GlobalArgs};
use crate::engine::discover::Environment;
use crate::engine::nodefs;
use crate::engine::snapshot::{ProviderRun, Settings, Snapshot};
use crate::error::UsageError;
use crate::lint::check::FileResult;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

/// Exit status when a `--fail-on` kind of change is found.
pub const EXIT_FAIL_ON: u8 = 1;

/// Rules that look beside the skill file on disk (references, links, Codex's
/// `agents/openai.yaml`): at a commit they would see the working tree, so the diff leaves them
/// out of its lint comparison. (It is also why one check of a file that is the same at both
/// states serves both: what these rules read is not part of [`Place`] or the bytes.)
const BESIDE_THE_FILE: &[&crate::lint::rules::Rule] = &[
    &crate::lint::bundle::BROKEN_REFERENCE,
    &crate::lint::bundle::REFERENCE_ESCAPES_BUNDLE,
    &crate::lint::bundle::SYMLINK_ESCAPES_BUNDLE,
    &crate::lint::codex::OPENAI_YAML_INVALID,
    &crate::lint::codex::OPENAI_YAML_IGNORED_FIELD,
    &crate::lint::codex::INVOCATION_POLICY_MISMATCH,
];

/// Entry-level rules whose search walks the disk beside discovery (folders nested in a root):
/// left out for the same reason. The other entry-level findings (shadowing, same names, links,
/// letter case, blank names) read the state through the overlay, as discovery does.
const WALKS_THE_DISK: &[&crate::lint::rules::Rule] =
    &[&crate::lint::targets::NESTED_TOO_DEEP, &crate::lint::targets::IGNORED_ENTRY];

pub fn run(g: &GlobalArgs, args: &DiffArgs, settings: &Settings, env: &Environment, io: &mut Io) -> anyhow::Result<u8> {
    if matches!(g.format, Format::Sarif) {
        return Err(UsageError("`diff` prints human, json, markdown or github output".into()).into());
    }
    let start = settings
        .cwd
        .as_deref()
        .map_or_else(|| env.process_cwd.clone(), |c| crate::engine::platform::resolve(&env.process_cwd, c));
    let (repo, base, head) = states(&start, args).map_err(|e| UsageError(e.0))?;
    let config = crate::lint::config::Config::find(&start, None, &env.process_cwd)?;
    let opts = crate::lint::run::Options { config, compat: Vec::new() };
    let mut settings = settings.clone();
    settings.scan.keep_content = true;
    settings.scan.check = Some(Arc::new(SameFileOnce {
        pass: crate::lint::pass::InPass { opts: opts.check_options(&settings), config: opts.config.clone() },
        seen: Mutex::new(HashMap::default()),
    }));
    // The two sides are made at once, each on its own thread (git lists each state on yet
    // another); they share git's object reader and lint's results of the files they share.
    let (base_list, head_list) = (repo.list(&base), repo.list(&head));
    let (base_side, head_side) = std::thread::scope(|scope| {
        let head_side = scope.spawn(|| side(&repo, &head, head_list, &settings, env, &opts));
        let base_side = side(&repo, &base, base_list, &settings, env, &opts);
        let head_side = head_side.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (base_side, head_side)
    });
    // The base's failure first, as if the sides were made one after the other.
    let mut base_side = base_side.map_err(|e| UsageError(e.0))?;
    let mut head_side = head_side.map_err(|e| UsageError(e.0))?;
    // Tokens are counted only where the size is shown (GitHub annotations show none).
    if !matches!(g.format, Format::Github) {
        base_side.count_tokens(None);
        head_side.count_tokens(Some(&base_side));
    }
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

/// The repository and the two states the arguments name. The revisions named are resolved
/// while the repository is found (git processes at once, not one after the other); failures
/// come in the same order: no repository, then the base, then the head.
fn states(start: &str, args: &DiffArgs) -> Result<(Repo, State, State), crate::analysis::git::GitError> {
    let base_rev = args.base.as_deref().or(args.staged.then_some("HEAD"));
    let (repo, base, head) = std::thread::scope(|scope| {
        let base = base_rev.map(|rev| scope.spawn(move || Repo::commit_in(start, rev)));
        let head = args.head.as_deref().map(|rev| scope.spawn(move || Repo::commit_in(start, rev)));
        let repo = Repo::open(start);
        let join = |h: std::thread::ScopedJoinHandle<'_, _>| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (repo, base.map(join), head.map(join))
    });
    let repo = repo?;
    let base = match base {
        Some(state) => state?,
        None => repo.merge_base(&repo.default_branch()?)?,
    };
    let head = match (head, args.staged) {
        (Some(state), _) => state?,
        (None, true) => State::Index,
        (None, false) => State::WorkTree,
    };
    Ok((repo, base, head))
}

/// One side: discovery, the files it reaches and lint's findings, with the state's files in
/// force.
fn side(
    repo: &Repo,
    state: &State,
    listing: Listing,
    settings: &Settings,
    env: &Environment,
    opts: &crate::lint::run::Options,
) -> Result<Side, crate::analysis::git::GitError> {
    let StateFiles { overlay, files } = listing.wait()?;
    let skill_files: Vec<(String, String)> = files
        .into_iter()
        .filter(|rel| rel == "SKILL.md" || rel.ends_with("/SKILL.md"))
        .map(|rel| {
            let abs = crate::engine::platform::join(&repo.top, &rel);
            (rel, abs)
        })
        .collect();
    Ok(nodefs::with_overlay(overlay, || {
        let snap = Snapshot::discover(settings, env);
        let mut real = RealPaths::default();
        let reached = crate::analysis::diff::reached_files(&snap, &mut real);
        // A skill file reached through a link inside the repository counts at its real place.
        let skill_files: Vec<(String, String)> = skill_files
            .into_iter()
            .map(|(rel, abs)| {
                let real = real.of(&abs).unwrap_or(abs);
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
fn lint_items(
    snap: &Snapshot,
    entry_level: Vec<crate::lint::Finding>,
    opts: &crate::lint::run::Options,
) -> Vec<LintItem> {
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
                let Ok(result) = result.downcast::<Arc<FileResult>>() else { continue };
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
                        rule: crate::lint::run::HARNESS_REJECTED.id.into(),
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

/// Lint's per-file check for both sides, each distinct file checked once: a file read at one
/// side takes the result of the same file (same place, same bytes) checked at the other, or
/// waits for that check when it is under way. (Most skills do not change between two states;
/// the comparison of findings then sees the same items on both sides, exactly as if the file
/// had been checked twice.)
///
/// The check ([`InPass`](crate::lint::pass::InPass)) is a function of the file's bytes, of its
/// subject (its path, its entry's folder or root and name, whether the root is read the
/// plain-Node way) and of the options, which are the same at both sides; what it looks up
/// beside the file it reads from disk, which is the same at both sides too. [`Place`] holds
/// every part of the subject.
#[derive(Debug)]
struct SameFileOnce {
    pass: crate::lint::pass::InPass,
    /// The first bytes read at each place, and their result once checked.
    seen: Mutex<HashMap<Place, Arc<Seen>, foldhash::fast::RandomState>>,
}

/// A file's bytes and, once checked, lint's result.
#[derive(Debug)]
struct Seen {
    bytes: Vec<u8>,
    result: std::sync::OnceLock<Arc<FileResult>>,
}

/// Where a checked file sits: its path, its entry (folder or file, path, name), its root and
/// how the root is read.
#[derive(Debug, PartialEq, Eq, Hash)]
struct Place {
    path: String,
    directory: bool,
    entry_path: String,
    entry_name: String,
    root: String,
    trusted_host: bool,
}

impl SameFileOnce {
    fn check_now(&self, file: crate::engine::discover::FileToCheck<'_>) -> Arc<FileResult> {
        match crate::engine::discover::FileCheck::check(&self.pass, file).downcast::<FileResult>() {
            Ok(result) => Arc::new(*result),
            // `InPass` makes nothing else; an empty result reports nothing, as before.
            Err(_) => Arc::new(FileResult::default()),
        }
    }
}

impl crate::engine::discover::FileCheck for SameFileOnce {
    fn check(&self, file: crate::engine::discover::FileToCheck<'_>) -> Box<dyn std::any::Any + Send> {
        let place = Place {
            path: file.path.to_string(),
            directory: matches!(file.entry.kind, nodefs::Kind::Directory),
            entry_path: file.entry.path.clone(),
            entry_name: file.entry.name.clone(),
            root: file.root.path.clone(),
            trusted_host: file.root.trusted_host,
        };
        let seen = {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            match seen.get(&place) {
                Some(s) if s.bytes == file.bytes => Some(s.clone()),
                // Other bytes at the same place: checked on their own.
                Some(_) => None,
                None => {
                    let s = Arc::new(Seen { bytes: file.bytes.clone(), result: std::sync::OnceLock::new() });
                    seen.insert(place, s.clone());
                    Some(s)
                }
            }
        };
        let result = match seen {
            // The first to get here checks; the other side waits for that result.
            Some(s) => s.result.get_or_init(|| self.check_now(file)).clone(),
            None => self.check_now(file),
        };
        Box::new(result)
    }
}
