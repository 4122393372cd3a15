//! `dsh-skills diff [BASE] [HEAD]`: discovery at two states of a git repository, compared.
//!
//! Each side is one discovery with the same settings, homes, configuration and working
//! directory; a commit's tree or the index is read through a git overlay
//! ([`crate::analysis::git`]) for the repository's paths, everything else from disk. Lint's
//! per-file rules run on the exact bytes each discovery read, once both sides are discovered,
//! and only on the files that are not the same at both states (`SameFiles`); its entry-level
//! findings are made from each side's discovery, reading that side's files.

use super::io::{EXIT_OK, Io, write_json};
use crate::analysis::diff::{CatalogSide, Diff, LintItem, RealPaths, Side};
use crate::analysis::git::{Listing, Repo, State, StateFiles};
use crate::cli::{DiffArgs, Format, GlobalArgs};
use crate::engine::discover::Environment;
use crate::engine::nodefs;
use crate::engine::snapshot::{ProviderRun, Settings, Snapshot};
use crate::error::UsageError;
use crate::lint::check::FileResult;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

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
    crate::engine::platform::grow_heaps_in_large_steps();
    let start = settings
        .cwd
        .as_deref()
        .map_or_else(|| env.process_cwd.clone(), |c| crate::engine::platform::resolve(&env.process_cwd, c));
    // Tokens are counted only where the size is shown (GitHub annotations show none); the
    // tokenizer is built meanwhile, on a core git's processes leave free.
    let count_tokens = !matches!(g.format, Format::Github);
    if count_tokens {
        std::thread::spawn(crate::analysis::tokens::load);
    }
    let (repo, base, head) = states(&start, args).map_err(|e| UsageError(e.0))?;
    let config = crate::lint::config::Config::find(&start, None, &env.process_cwd)?;
    let opts = crate::lint::run::Options { config, compat: Vec::new() };
    let mut settings = settings.clone();
    settings.scan.keep_content = true;
    let files = Arc::new(SameFiles {
        pass: crate::lint::pass::InPass { opts: opts.check_options(&settings), config: opts.config.clone() },
        seen: Mutex::default(),
    });
    let with_check = |side: u8| {
        let mut s = settings.clone();
        s.scan.check = Some(Arc::new(SameFileOnce { side, files: files.clone() }));
        s
    };
    let (base_settings, head_settings) = (with_check(BASE), with_check(HEAD));
    // The two sides are discovered at once, each on its own thread (git lists each state on
    // yet another); they share git's object reader. Lint's per-file check waits until both
    // are discovered: a file that is the same at both states is not checked at all.
    let (base_list, head_list) = (repo.list(&base), repo.list(&head));
    let (base_found, head_found) = std::thread::scope(|scope| {
        let head_found = scope.spawn(|| discover(&repo, head_list, &head_settings, env));
        let base_found = discover(&repo, base_list, &base_settings, env);
        (base_found, join(head_found))
    });
    // The base's failure first, as if the sides were made one after the other.
    let base_found = base_found.map_err(|e| UsageError(e.0))?;
    let head_found = head_found.map_err(|e| UsageError(e.0))?;
    let (base_label, head_label) = (base.label(), head.label());
    // Then each side's findings and side, on its own thread: the base makes its catalog first
    // and lends it to the head, which takes the base's entries of the skills that did not change
    // while the base makes the rest of its side.
    let base_catalog: OnceLock<CatalogSide> = OnceLock::new();
    let (catalog_made, wait_for_catalog) = std::sync::mpsc::channel::<()>();
    let ((base_lint, mut base_side), (head_lint, mut head_side)) = std::thread::scope(|scope| {
        let (head_found, base_found, files, opts, base_catalog) =
            (&head_found, &base_found, &files, &opts, &base_catalog);
        let head = scope.spawn(move || {
            head_found.in_force(|| {
                let lint = findings(head_found, files, opts);
                let places = head_found.places();
                // (An error here: the base's thread failed, and the head goes without its entries.)
                let _ = wait_for_catalog.recv();
                let reuse = base_catalog.get().map(|c| (&base_found.snap, c.entries.as_slice()));
                let catalog = CatalogSide::of(&head_found.snap, reuse);
                (lint, head_found.side(head_label, places, catalog))
            })
        });
        let base = base_found.in_force(|| {
            let lint = findings(base_found, files, opts);
            let _ = base_catalog.set(CatalogSide::of(&base_found.snap, None));
            let _ = catalog_made.send(());
            let places = base_found.places();
            (lint, base_found.side(base_label, places, CatalogSide::default()))
        });
        (base, join(head))
    });
    if let Some(catalog) = base_catalog.into_inner() {
        base_side.catalog = catalog;
    }
    // The catalogs' tokens are counted (on two more threads) while the lint findings are
    // compared and the sides diffed.
    let (mut diff, tokens) = std::thread::scope(|scope| {
        let (base_catalog, head_catalog) = (&base_side.catalog.text, &head_side.catalog.text);
        let tokens = count_tokens.then(|| {
            scope.spawn(move || crate::analysis::diff::count_tokens(base_catalog.as_deref(), head_catalog.as_deref()))
        });
        let (base_items, head_items) = base_found.in_force(|| same_files_findings(base_lint, head_lint, &files, &opts));
        base_side.lint = base_items;
        head_side.lint = head_items;
        let diff = Diff::between(&base_side, &head_side, settings.description_max_length);
        (diff, tokens.map(join))
    });
    if let Some(tokens) = tokens {
        diff.set_tokens(tokens);
    }
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
    super::io::leave_to_exit((diff, base_side, head_side, base_found, head_found, files, repo));
    if !failing.is_empty() {
        writeln!(io.err, "dsh-skills diff: failing on {}", failing.join(", "))?;
        return Ok(EXIT_FAIL_ON);
    }
    Ok(EXIT_OK)
}

/// The repository and the two states the arguments name; failures in this order: no
/// repository, then the base, then the head.
fn states(start: &str, args: &DiffArgs) -> Result<(Repo, State, State), crate::analysis::git::GitError> {
    let repo = Repo::open(start)?;
    let base = match args.base.as_deref().or(args.staged.then_some("HEAD")) {
        Some(rev) => repo.commit(rev)?,
        None => repo.merge_base(&repo.default_branch()?)?,
    };
    let head = match (args.head.as_deref(), args.staged) {
        (Some(rev), _) => repo.commit(rev)?,
        (None, true) => State::Index,
        (None, false) => State::WorkTree,
    };
    Ok((repo, base, head))
}

/// The sides' bits in [`Seen::sides`].
const BASE: u8 = 1;
const HEAD: u8 = 2;

fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// [`Found::places`].
struct Places {
    reached: BTreeSet<String>,
    skill_files: Vec<(String, String)>,
}

/// One state as discovered: the overlay its files are read through (`None`: the disk), the
/// discovery, and the repository's skill files (relative to its top, and as paths).
struct Found {
    overlay: Option<Arc<dyn crate::engine::nodefs::Overlay>>,
    snap: Snapshot,
    skill_files: Vec<(String, String)>,
}

/// Discovery at one state, with the state's files in force.
fn discover(
    repo: &Repo,
    listing: Listing,
    settings: &Settings,
    env: &Environment,
) -> Result<Found, crate::analysis::git::GitError> {
    let StateFiles { overlay, files } = listing.wait()?;
    let skill_files: Vec<(String, String)> = files
        .into_iter()
        .filter(|rel| rel == "SKILL.md" || rel.ends_with("/SKILL.md"))
        .map(|rel| {
            let abs = crate::engine::platform::join(&repo.top, &rel);
            (rel, abs)
        })
        .collect();
    let snap = nodefs::with_overlay(overlay.clone(), || Snapshot::discover(settings, env));
    Ok(Found { overlay, snap, skill_files })
}

impl Found {
    /// `f` with this state's files in force.
    fn in_force<R>(&self, f: impl FnOnce() -> R) -> R {
        nodefs::with_overlay(self.overlay.clone(), f)
    }

    /// Where this state's skill files are, for its side: every skill file a root entry reaches
    /// and the repository's skill files, as real paths (a skill file reached through a link
    /// inside the repository counts at its real place). Call it with the state's files in force.
    fn places(&self) -> Places {
        let mut real = RealPaths::default();
        let reached = crate::analysis::diff::reached_files(&self.snap, &mut real);
        let skill_files = self
            .skill_files
            .iter()
            .map(|(rel, abs)| {
                let real = real.of(abs).unwrap_or_else(|| abs.clone());
                (rel.clone(), real)
            })
            .collect();
        Places { reached, skill_files }
    }

    /// The side compared, with its catalog (its lint findings are set afterwards).
    fn side(&self, label: String, places: Places, catalog: CatalogSide) -> Side {
        Side::of(label, &self.snap, &places.reached, &places.skill_files, Vec::new(), catalog)
    }
}

/// Lint's findings at one state before the files the two states share are accounted for: the
/// items of every source but those files, and those files (same place, same bytes at both
/// states), each with the path its harness rejection is reported at.
struct Findings {
    items: BTreeSet<LintItem>,
    same: Vec<(Arc<Seen>, String)>,
}

/// Lint's findings at one state, at their configured levels: the entry-level ones (which copy
/// wins, same names, links, letter case) and the per-file ones of every file discovery read
/// that is not the same at the other state ([`Findings`]). Call it with the state's files in
/// force: a file is checked here, with what it looks up beside it read at this state.
fn findings(found: &Found, files: &SameFiles, opts: &crate::lint::run::Options) -> Findings {
    let snap = &found.snap;
    let entry_level = crate::lint::targets::from_snapshot(snap).findings;
    let mut out = Findings { items: BTreeSet::new(), same: Vec::new() };
    for f in entry_level {
        if BESIDE_THE_FILE.contains(&f.rule) || WALKS_THE_DISK.contains(&f.rule) {
            continue;
        }
        let Some(level) = opts.config.level(&f, &opts.compat) else { continue };
        out.items.insert(LintItem {
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
                let Some(seen) = checked.take() else { continue };
                let Ok(seen) = seen.downcast::<Arc<Seen>>() else { continue };
                let at = e.locator.clone().unwrap_or_else(|| e.path.clone());
                if seen.sides.load(Ordering::Relaxed) == BASE | HEAD {
                    out.same.push((*seen, at));
                    continue;
                }
                file_items(&files.result(&seen), &at, opts, &mut out.items);
            }
        }
    }
    out
}

/// The items of one file's check, reported at `at` when the harness rejects it.
fn file_items(result: &FileResult, at: &str, opts: &crate::lint::run::Options, out: &mut BTreeSet<LintItem>) {
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
            path: at.to_string(),
            rule: crate::lint::run::HARNESS_REJECTED.id.into(),
            severity: "error".into(),
            message: format!("the harness rejects this file: {}", w.lines().next().unwrap_or(w)),
            line: None,
        });
    }
}

/// Both states' findings, the files they share accounted for. A file that is the same at both
/// states has the same findings at both, which the comparison (by path, rule and message)
/// cancels out, so it is left unchecked, unless another finding of either state is about its
/// folder: then the shared file's findings could decide whether that one is new or fixed, and
/// the file is checked (once, for both).
fn same_files_findings(
    base: Findings,
    head: Findings,
    files: &SameFiles,
    opts: &crate::lint::run::Options,
) -> (Vec<LintItem>, Vec<LintItem>) {
    let (mut base_items, mut head_items) = (base.items, head.items);
    let paths: BTreeSet<&str> = base_items.iter().chain(&head_items).map(|i| i.path.as_str()).collect();
    let mut shared = BTreeSet::new();
    let mut done: Vec<*const Seen> = Vec::new();
    for (seen, at) in base.same.iter().chain(&head.same) {
        let near = |p: &str| {
            let folder = seen.file.path.rsplit_once(crate::engine::platform::SEP).map_or("", |(folder, _)| folder);
            let inside = format!("{folder}{}", crate::engine::platform::SEP);
            paths.contains(p) || paths.range(inside.as_str()..).next().is_some_and(|q| q.starts_with(&inside))
        };
        if done.contains(&Arc::as_ptr(seen)) || !(near(&seen.file.path) || near(at)) {
            continue;
        }
        done.push(Arc::as_ptr(seen));
        file_items(&files.result(seen), at, opts, &mut shared);
    }
    base_items.extend(shared.iter().cloned());
    head_items.extend(shared);
    (base_items.into_iter().collect(), head_items.into_iter().collect())
}

/// Lint's per-file check for both sides, each distinct file checked once and only when it is
/// not the same at both states: discovery hands each side's files to its [`SameFileOnce`],
/// which records them; they are checked once both sides are discovered ([`findings`]).
///
/// The check ([`InPass`](crate::lint::pass::InPass)) is a function of the file's bytes, of its
/// subject (its path, its entry's folder or root and name, whether the root is read the
/// plain-Node way) and of the options, which are the same at both sides; what it looks up
/// beside the file (left out of the comparison: [`BESIDE_THE_FILE`]) differs. [`Place`] holds
/// every part of the subject.
#[derive(Debug)]
struct SameFiles {
    pass: crate::lint::pass::InPass,
    /// The first bytes read at each place.
    seen: Mutex<HashMap<Place, Arc<Seen>, foldhash::fast::RandomState>>,
}

impl SameFiles {
    /// Lint's result for a file, checked on the first call.
    fn result(&self, seen: &Seen) -> Arc<FileResult> {
        seen.result
            .get_or_init(|| {
                let file = &seen.file;
                let to_check = crate::engine::discover::FileToCheck {
                    root: &file.root,
                    entry: &file.entry,
                    path: &file.path,
                    bytes: seen.bytes.clone(),
                    yaml: file.yaml.as_ref(),
                };
                match crate::engine::discover::FileCheck::check(&self.pass, to_check).downcast::<FileResult>() {
                    Ok(mut result) => {
                        crate::lint::bundle::advise_siblings(&mut result.findings, &self.pass.opts.neighbours);
                        Arc::new(*result)
                    }
                    // `InPass` makes nothing else; an empty result reports nothing, as before.
                    Err(_) => Arc::new(FileResult::default()),
                }
            })
            .clone()
    }
}

/// One side's [`FileCheck`](crate::engine::discover::FileCheck): records each file in
/// [`SameFiles`], marked as read at this side.
#[derive(Debug)]
struct SameFileOnce {
    side: u8,
    files: Arc<SameFiles>,
}

/// A file's bytes, what its check needs, the sides that read it at one place and, once
/// checked, lint's result.
#[derive(Debug)]
struct Seen {
    bytes: crate::engine::textread::Content,
    file: ToCheck,
    sides: AtomicU8,
    result: std::sync::OnceLock<Arc<FileResult>>,
}

/// What [`FileToCheck`](crate::engine::discover::FileToCheck) borrows, kept until the check.
#[derive(Debug)]
struct ToCheck {
    root: crate::engine::discover::Root,
    entry: crate::engine::discover::Entry,
    path: String,
    yaml: Option<Result<crate::engine::yaml::Parsed, crate::engine::yaml::YamlError>>,
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
        let new = |file: crate::engine::discover::FileToCheck<'_>| {
            Arc::new(Seen {
                file: ToCheck {
                    root: file.root.clone(),
                    entry: file.entry.clone(),
                    path: file.path.to_string(),
                    yaml: file.yaml.cloned(),
                },
                bytes: file.bytes,
                sides: AtomicU8::new(self.side),
                result: std::sync::OnceLock::new(),
            })
        };
        let mut seen = self.files.seen.lock().unwrap_or_else(|e| e.into_inner());
        let seen = match seen.get(&place) {
            Some(s) if s.bytes.as_bytes() == file.bytes.as_bytes() => {
                s.sides.fetch_or(self.side, Ordering::Relaxed);
                s.clone()
            }
            // Other bytes at the same place: checked on their own.
            Some(_) => new(file),
            None => {
                let s = new(file);
                seen.insert(place, s.clone());
                s
            }
        };
        Box::new(seen)
    }
}
