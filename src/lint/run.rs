//! One lint pass: targets → per-file checks → suppressions and configured levels → fix
//! screening → a [`Report`]. `dsh-skills lint` and the language server run it; the command
//! adds fixes, baselines, output and the exit status.

use crate::engine::Map;
use crate::engine::discover::Environment;
use crate::engine::snapshot::Settings;
use crate::error::UsageError;
use crate::lint::check::{self, CheckOptions, Subject};
use crate::lint::config::{Config, Suppressions};
use crate::lint::{Compat, Finding, Report, Severity, bundle, fix, targets};
use std::ops::Range;
/// What a lint run needs besides the discovery settings.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub config: Config,
    pub compat: Vec<Compat>,
}

impl Options {
    /// What the per-file rules need, for discovery's settings.
    pub fn check_options(&self, settings: &Settings) -> CheckOptions {
        CheckOptions {
            max_description: settings.description_max_length,
            compat: self.compat.clone(),
            extra_keys: self.config.extra_keys.clone(),
            neighbours: Default::default(),
            off: crate::lint::rules::all()
                .iter()
                .copied()
                .filter(|r| self.config.portability_off(r, &self.compat))
                .collect(),
        }
    }
}

/// A finished lint pass: the report and the files it read.
pub struct Run {
    pub report: Report,
    pub subjects: Vec<Subject>,
}
/// One lint pass over `paths` (or every root for the cwd when empty).
pub fn lint(paths: &[String], settings: &Settings, env: &Environment, opts: &Options) -> Result<Run, UsageError> {
    let start = settings
        .cwd
        .as_deref()
        .map_or_else(|| env.process_cwd.clone(), |c| crate::engine::platform::resolve(&env.process_cwd, c));
    let intentional = opts.config.unscanned_ok_paths(&start);
    let check_opts = opts.check_options(settings);
    // Discovery checks each file as it reads it, so no file is read or parsed twice and no
    // file's bytes or YAML outlive its check.
    let mut settings = settings.clone();
    settings.scan.check = Some(std::sync::Arc::new(crate::lint::pass::InPassWalked(crate::lint::pass::InPass {
        opts: check_opts.clone(),
        config: opts.config.clone(),
    })));
    let settings = &settings;
    // One index of neighbouring skill folders for the whole run: the walks of discovery, of the
    // tree walk and of `lint_targets_with` feed it, and the searches made after them read it.
    let neighbours = check_opts.neighbours.clone();
    let tree_check = crate::lint::pass::TreeCheck { opts: check_opts, config: opts.config.clone() };
    let mut freeing = None;
    let t = if paths.is_empty() {
        let snap = crate::engine::snapshot::Snapshot::discover(settings, env);
        // Discovery's workers freed every file's bytes and YAML tree in their own arenas.
        crate::engine::platform::release_free_memory();
        // The roots' subjects are gathered while the repository outside them is walked: both
        // only read the snapshot, and neither alone keeps both cores busy (the gathering is
        // mostly one thread's work, the walk's threads start, wait on the disk and end).
        let (mut t, search) = std::thread::scope(|scope| {
            let overlay = crate::engine::nodefs::current_overlay();
            let walk = scope.spawn(|| {
                crate::engine::nodefs::with_overlay(overlay, || {
                    // Each skill outside the roots is checked on the walker thread that finds it.
                    crate::analysis::unscanned::search_checked(
                        &snap,
                        &env.home,
                        &intentional,
                        Some(tree_check.within(Vec::new())),
                    )
                })
            });
            let t = targets::from_snapshot(&snap);
            (t, walk.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        });
        t.findings.extend(targets::unscanned_findings(&search, None));
        // Every unscanned folder was searched: an `unscanned-ok` entry that matches none is
        // stale or misspelt.
        if let Some(config) = &opts.config.path {
            for (written, path) in opts.config.unscanned_ok.iter().zip(&intentional) {
                if !search.folders.iter().any(|f| &f.path == path) {
                    t.findings.push(
                        Finding::new(
                            &crate::lint::config::CONFIG_UNMATCHED,
                            config,
                            format!(
                                "`unscanned-ok` entry `{written}` matches no skill folder the harness does not scan \
                                 (it names `{path}`)"
                            ),
                            "nothing: the entry has no effect",
                        )
                        .help("correct the path (relative to this file's folder, as `dsh-skills list` shows the folder) or remove the entry"),
                    );
                }
            }
        }
        // The snapshot is done with: it is freed on a thread of its own while the checks'
        // results are folded, so the report's findings reuse its memory instead of adding to
        // it (a tenth of the peak at 10,000 skills), without the 15 ms of freeing its small
        // allocations one by one on this thread.
        freeing = Some(std::thread::spawn(move || {
            drop(snap);
            crate::engine::platform::release_free_memory();
        }));
        // Every skill of the repository outside the roots, each as the unit it installs as.
        if let Some(project) = &search.project_root {
            let n = targets::tree_targets(&search.tree, project, &mut t);
            if n > 0 {
                t.inputs.push(targets::Input {
                    path: project.clone(),
                    kind: "project",
                    taken_as: format!(
                        "a project: the roots the harness scans for this working directory, and the {} it holds \
                         outside them",
                        if n == 1 { "1 skill folder".to_string() } else { format!("{n} skill folders") }
                    ),
                });
            }
        }
        t
    } else {
        targets::from_paths(paths, settings, env, &intentional, &tree_check)?
    };
    let run = lint_targets_with(t, settings, env, opts, neighbours);
    if let Some(freeing) = freeing {
        freeing.join().ok();
    }
    Ok(run)
}

/// Every pending sibling search of the checks' results made ([`bundle::advise_siblings`]), now
/// that every skill folder of the run has been walked: grouped by the folder the skills are in,
/// one group at a time on each core (the group's index is made once, by the core that takes
/// it), then the index is dropped, before the findings are gathered.
fn advise_siblings(
    work: &[(&Subject, bool)],
    results: &mut [(Option<Box<check::FileResult>>, Vec<Finding>)],
    neighbours: &bundle::Neighbours,
) {
    let pending = |r: &check::FileResult| r.findings.iter().any(|f| f.sibling.is_some());
    // Files checked in this pass (named on the command line): few.
    for r in results.iter_mut().filter_map(|(own, _)| own.as_mut()) {
        bundle::advise_siblings(&mut r.findings, neighbours);
    }
    let mut by_folder: std::collections::BTreeMap<String, Vec<&Subject>> = Default::default();
    for (s, _) in work {
        let Some(checked) = &s.checked else { continue };
        if checked.peek(|r| check::file_result(r).is_some_and(pending)) == Some(true) {
            by_folder.entry(crate::engine::platform::dirname(s.base_dir())).or_default().push(s);
        }
    }
    let groups: Vec<Vec<&Subject>> = by_folder.into_values().collect();
    crate::engine::discover::par_map_each(&groups, |subjects| {
        for s in subjects {
            s.checked.as_ref().and_then(|c| {
                c.peek_mut(|r| check::file_result_mut(r).map(|r| bundle::advise_siblings(&mut r.findings, neighbours)))
            });
        }
    });
    neighbours.release();
    // Whether or not a search was made: what the discovery workers freed is handed back before
    // the fold allocates the report (without it the peak is a megabyte higher on 10,000
    // generated skills without a broken reference).
    crate::engine::platform::release_free_memory();
}

/// The per-file checks, suppressions, configured levels and fix screening of [`lint`], over
/// subjects and entry-level findings already gathered (the language server passes one
/// subject whose source is the editor's buffer).
pub fn lint_targets(t: targets::Targets, settings: &Settings, env: &Environment, opts: &Options) -> Run {
    lint_targets_with(t, settings, env, opts, Default::default())
}

/// [`lint_targets`], with the index of neighbouring skill folders the checks that made `t`
/// fed ([`bundle::Neighbours`]).
fn lint_targets_with(
    t: targets::Targets,
    settings: &Settings,
    env: &Environment,
    opts: &Options,
    neighbours: std::sync::Arc<bundle::Neighbours>,
) -> Run {
    let check_opts = CheckOptions { neighbours, ..opts.check_options(settings) };
    // Skills the tree walk checked as it found them bring their folder's links too.
    let walked: Vec<Option<Vec<Finding>>> = t.subjects.iter().map(crate::lint::pass::unwrap_walked).collect();
    let mut report = Report {
        complete: t.complete,
        base_dir: env.process_cwd.clone(),
        inputs: t.inputs,
        outside: t.outside.filter(|o| o.skills > 0 || o.stopped.is_some()),
        ..Report::default()
    };
    let mut findings: Vec<Finding> = t.findings;
    let mut suppressions: Map<String, Suppressions> = Map::default();
    let mut name_spans: Map<String, Range<usize>> = Map::default();
    // Names of the skills read outside the roots: (name, skill file), for same-name copies.
    let mut outside_names: Vec<(String, String)> = Vec::new();
    // Discovery checked each file it read; files it did not read (named on the command line)
    // are checked here, and each bundle's links, on every core. Results are folded in subject
    // order, each file's taken from its entry as it comes (never all at once).
    let mut bundles_seen = crate::engine::Set::default();
    let first_in_bundle: Vec<bool> = t.subjects.iter().map(|s| bundles_seen.insert(s.base_dir())).collect();
    drop(bundles_seen);
    // (subject, whether its folder's links are checked here: the first of its bundle, unless
    // the walk did it)
    let work: Vec<(&Subject, bool)> = t
        .subjects
        .iter()
        .zip(&first_in_bundle)
        .zip(&walked)
        .map(|((s, &first), w)| (s, first && w.is_none()))
        .collect();
    let mut results = crate::engine::discover::par_map(&work, |(s, links_here)| {
        let (links, listed) = if *links_here { bundle::check_symlinks_listed(s) } else { (Vec::new(), None) };
        let own = s.checked.is_none().then(|| {
            // Checked here (named on the command line, or outside the roots): trimmed as
            // discovery's pass trims, since every result is held until the fold.
            let mut r = check::check_file(s, &check_opts);
            crate::lint::pass::keep_what_lint_needs(&mut r, &s.path, &opts.config, &opts.compat);
            Box::new(r)
        });
        if let Some(listed) = listed {
            check_opts.neighbours.offer(s, listed);
        }
        (own, links)
    });
    advise_siblings(&work, &mut results, &check_opts.neighbours);
    for (((_, links), walked), first) in results.iter_mut().zip(walked).zip(first_in_bundle) {
        if let (true, Some(walked)) = (first, walked) {
            *links = walked;
        }
    }
    // Paths that discovery-level findings point at keep their text for snippets, as far as
    // those findings reach into it (all of it for one with a fix).
    let mut mentioned: Map<String, Reach> = Map::default();
    for f in &findings {
        mentioned.entry(f.path.clone()).or_default().add(f);
    }
    // Every finding gathered below, counted first: the list is made once at its size instead of
    // growing by doubling, the largest allocation of a large run.
    fn gathered(r: &check::FileResult) -> usize {
        let rejected = r.harness_warning.is_some() && !r.findings.iter().any(|f| f.severity == Severity::Error);
        r.findings.len() + usize::from(rejected)
    }
    let checked_count = |s: &Subject| {
        let count = |r: &(dyn std::any::Any + Send)| crate::lint::check::file_result(r).map_or(0, gathered);
        s.checked.as_ref().and_then(|c| c.peek(|r| count(r))).unwrap_or(0)
    };
    let counts: Vec<usize> = work
        .iter()
        .zip(&results)
        .map(|((s, _), (own, links))| links.len() + own.as_ref().map_or_else(|| checked_count(s), |r| gathered(r)))
        .collect();
    let mut left: usize = counts.iter().sum();
    if !findings.is_empty() {
        findings.reserve_exact(left);
    }
    for (((s, _), (own, links)), count) in work.into_iter().zip(results).zip(counts) {
        left -= count;
        let r = own.map_or_else(|| check::check_file(s, &check_opts), |r| *r);
        let needs_text = !links.is_empty() || mentioned.contains_key(&s.path);
        let mut reach = mentioned.get(&s.path).cloned().unwrap_or_default();
        links.iter().for_each(|f| reach.add(f));
        reach.add_end(r.frontmatter.as_ref().map(|f| f.end));
        reach.add_end(r.name_span.as_ref().map(|n| n.end));
        if findings.is_empty() && !links.is_empty() {
            findings.reserve_exact(count + left);
        }
        findings.extend(links);
        let mut file_findings = r.findings;
        if let Some(w) = &r.harness_warning
            && !file_findings
                .iter()
                .any(|f| f.severity == Severity::Error || f.rule == &crate::lint::check::NOT_A_SKILL)
        {
            file_findings.push(Finding::new(
                &HARNESS_REJECTED,
                &s.path,
                format!("the harness rejects this file: {}", w.lines().next().unwrap_or(w)),
                check::skip_text(w),
            ));
        }
        for f in &mut file_findings {
            f.skill = f.skill.take().or_else(|| r.name.clone());
        }
        if let (Some(name), Some(o)) = (&r.name, &report.outside)
            && o.paths.contains(&s.path)
        {
            outside_names.push((name.clone(), s.path.clone()));
        }
        // Only findings about the skill as a whole (discovery's) take the name's span.
        if let Some(span) = r.name_span
            && mentioned.contains_key(&s.path)
        {
            name_spans.insert(s.path.clone(), span);
        }
        // A text the check kept only part of is read again when another finding points into it.
        let src = match r.source {
            src if r.text_partial && needs_text => {
                // As far as the findings pointing into it, this file's own findings, its name
                // and its frontmatter (suppressions) reach.
                reach.add_end(src.as_ref().map(|t| t.len()));
                check::reread(&s.path)
                    .map(|mut full| {
                        if let Reach::Upto(end) = reach {
                            full.shorten_to(full.end_of_line_at(end.saturating_sub(1)));
                        }
                        full
                    })
                    .or(src.map(|b| *b))
            }
            src => src.map(|b| *b),
        };
        if r.text_partial && src.is_none() {
            report.summary.files += 1;
        }
        if let Some(src) = src {
            report.summary.files += 1;
            let mut keep = needs_text || !file_findings.is_empty();
            if let Some(fm) = &r.frontmatter {
                let (sup, bad) = Suppressions::scan(&src, fm.clone(), &s.path);
                keep |= !bad.is_empty();
                findings.extend(bad);
                if !sup.is_empty() {
                    suppressions.insert(s.path.clone(), sup);
                }
            }
            // Only files with something to show keep their text (memory stays flat).
            if keep {
                report.files.insert(s.path.clone(), src);
            }
        }
        // Moved, not copied, when it is the first: one file's findings can be the whole run.
        if findings.is_empty() {
            findings = file_findings;
            findings.reserve_exact(left);
        } else {
            findings.append(&mut file_findings);
        }
    }
    findings.extend(name_collisions(outside_names, &settings.locale));
    for f in &mut findings {
        if f.span.is_none()
            && [&crate::lint::targets::SHADOWED_SKILL, &crate::lint::targets::DUPLICATE_NAME, &NAME_COLLISION]
                .contains(&f.rule)
        {
            f.span = name_spans.get(&f.path).cloned();
        }
    }
    // Markdown the project keeps in a root on purpose (`not-skills`): the harness's log line
    // is accepted. An entry that names no file is reported (a stale one would silence a file
    // added later under that name).
    if !opts.config.not_skills.is_empty() {
        let listed = opts.config.not_skills_paths(&env.process_cwd);
        findings.retain(|f| {
            !([&crate::lint::check::NOT_A_SKILL, &crate::lint::check::FRONTMATTER_MISSING, &HARNESS_REJECTED]
                .contains(&f.rule)
                && listed.contains(&f.path))
        });
        let at = opts.config.path.clone().unwrap_or_default();
        for (entry, path) in opts.config.not_skills.iter().zip(&listed) {
            if std::fs::symlink_metadata(path).is_err() {
                findings.push(
                    Finding::new(
                        &crate::lint::config::CONFIG_UNMATCHED,
                        &at,
                        format!("`not-skills` lists `{entry}`, but there is no such file"),
                        "the entry silences nothing",
                    )
                    .help("fix the path (relative to the configuration file) or remove the entry"),
                );
            }
        }
    }
    findings.retain_mut(|f| {
        if suppressions.get(&f.path).is_some_and(|s| s.suppresses(f, report.files.get(&f.path))) {
            return false;
        }
        match opts.config.level(f, &opts.compat) {
            Some(level) => {
                f.severity = level;
                true
            }
            None => false,
        }
    });
    findings.shrink_to_fit();
    withdraw_refused_fixes(&mut findings, &report, &t.subjects);
    report.findings = findings;
    report.finish();
    Run { report, subjects: t.subjects }
}

/// Skills of a repository, outside the roots, that share a `name`: installed into one root (or
/// into several), only one of them loads. Each copy after the first (by folder name in the
/// root's ICU order, the copy that wins in one root) is reported, pointing at the first.
fn name_collisions(mut names: Vec<(String, String)>, locale: &str) -> Vec<Finding> {
    if names.len() < 2 {
        return Vec::new();
    }
    let collator = crate::engine::collate::EntryCollator::new(locale);
    let folder = |path: &str| {
        let dir = crate::engine::platform::dirname(path);
        dir.rsplit(crate::engine::platform::SEP).next().unwrap_or("").to_string()
    };
    names
        .sort_by(|a, b| a.0.cmp(&b.0).then_with(|| collator.compare(&folder(&a.1), &folder(&b.1))).then(a.1.cmp(&b.1)));
    let mut out = Vec::new();
    for group in names.chunk_by(|a, b| a.0 == b.0).filter(|g| g.len() > 1) {
        let (name, first) = &group[0];
        for (_, path) in &group[1..] {
            let (fa, fb) = (folder(first), folder(path));
            let in_one_root = if fa == fb {
                format!("both folders are named `{fa}`, so they cannot be installed into one root side by side")
            } else {
                format!(
                    "installed into one root, the harness loads the other copy (its folder `{fa}` sorts before `{fb}`) \
                     and ignores this one"
                )
            };
            out.push(
                Finding::new(
                    &NAME_COLLISION,
                    path,
                    format!("another skill of this repository is also named `{name}`"),
                    format!(
                        "{in_one_root}; in two roots, the copy in the higher-ranked root wins; the loser is logged as \
                         `skill \"{name}\" from <source> ignored because a higher-priority skill already exists`"
                    ),
                )
                .related(first, None, "the other copy")
                .help("give each skill its own name (and folder), or remove the stale copy"),
            );
        }
    }
    out
}

/// How much of a file's text the findings pointing into it need.
#[derive(Clone, Copy, Debug)]
enum Reach {
    /// Through the line holding byte `end - 1` (0: none of it).
    Upto(usize),
    /// All of it, exactly (a finding with a fix edits it).
    Whole,
}

impl Default for Reach {
    fn default() -> Self {
        Reach::Upto(0)
    }
}

impl Reach {
    fn add(&mut self, f: &Finding) {
        if f.fix.is_some() {
            *self = Reach::Whole;
        }
        self.add_end(f.span.as_ref().map(|s| s.end.max(s.start + 1)));
        for r in f.related.iter().filter(|r| r.path == f.path) {
            self.add_end(r.span.as_ref().map(|s| s.end.max(s.start + 1)));
        }
    }

    fn add_end(&mut self, end: Option<usize>) {
        if let (Reach::Upto(at), Some(end)) = (&mut *self, end) {
            *at = (*at).max(end);
        }
    }
}

/// How many of one file's fixes are checked one by one (one parse of the fixed text each) when
/// the file's fixes applied together are refused; the rest are withdrawn with that refusal, so
/// that a file with thousands of fixable findings costs a few parses, not one per fix. Fixes that
/// conflict are rare (two misspellings of one key); each check is a parse of the whole file.
const FIXES_CHECKED_ONE_BY_ONE: usize = 4;

/// A fix that `--fix` would refuse is not offered: the finding keeps its advice and says why,
/// and is not counted as fixable. What is left is a set `--fix` applies as it is.
///
/// Each file's fixes are checked applied together first, as `--fix` applies them (the common
/// case, and one parse of the fixed text). When that is refused, they are taken in report
/// order, the order `--fix` takes them, and one is kept when the fixes kept so far plus it still
/// load the same skill (a fix that only works alone, say two misspellings both renamed to
/// `whenToUse`, is kept once); beyond [`FIXES_CHECKED_ONE_BY_ONE`] the rest are withdrawn.
fn withdraw_refused_fixes(findings: &mut [Finding], report: &Report, subjects: &[Subject]) {
    // Each subject by path, once: one lookup per finding with a fix, not a scan per file.
    let by_path: Map<&str, &Subject> = subjects.iter().map(|s| (s.path.as_str(), s)).collect();
    let mut per_file: Map<&str, Vec<usize>> = Map::default();
    for (i, f) in findings.iter().enumerate().filter(|(_, f)| f.fix.is_some()) {
        per_file.entry(f.path.as_str()).or_default().push(i);
    }
    let does_not_apply = || "the edit does not apply to the file's text".to_string();
    let mut withdraw: Vec<(usize, String)> = Vec::new();
    for (path, idx) in per_file {
        let Some(s) = by_path.get(path) else { continue };
        let Some(src) = report.files.get(&s.path) else { continue };
        // A file `--fix` will not write (a link out of the skill's folder): nothing is offered.
        if let Err(why) = fix::write_target(&s.path, s.base_dir()) {
            withdraw.extend(idx.iter().map(|&i| (i, why.clone())));
            continue;
        }
        let planner = fix::Planner::new(&s.path, src, s.node_mode);
        let all: Vec<&Finding> = idx.iter().map(|&i| &findings[i]).collect();
        let Some(why) = planner.refusal(&all).unwrap_or_else(|| Some(does_not_apply())) else { continue };
        if let [only] = idx[..] {
            withdraw.push((only, why));
            continue;
        }
        let mut kept: Vec<&Finding> = Vec::new();
        for (n, &i) in idx.iter().enumerate() {
            if n >= FIXES_CHECKED_ONE_BY_ONE {
                withdraw.push((i, format!("applied with the file's other fixes, as `--fix` does, {why}")));
                continue;
            }
            kept.push(&findings[i]);
            let Some(refused) = planner.refusal(&kept).unwrap_or_else(|| Some(does_not_apply())) else { continue };
            kept.pop();
            let refused = if kept.is_empty() {
                refused
            } else {
                format!("applied with the fixes `--fix` makes before it in this file, {refused}")
            };
            withdraw.push((i, refused));
        }
    }
    for (i, why) in withdraw {
        let f = &mut findings[i];
        f.fix = None;
        f.help.push(format!("no automatic fix: {}", why.trim_end_matches("; not applied")).into());
    }
}

crate::lint::rules::declare_rules! {
    HARNESS_REJECTED = rule(
        "harness-rejected",
        Error,
        Skipped,
        "The harness skips this file with a warning that no more specific rule explains.",
        "A safety net: dsh-skills reproduces the harness's checks, and whenever the harness would \
         skip a file with a warning, lint reports an error even if none of its specific rules \
         matched. The message is the harness's own log line.",
        "Read the harness's message; please report the case so a specific rule can cover it.",
    );
    NAME_COLLISION = rule(
        "name-collision",
        Warning,
        Suspicious,
        "Two skills of one repository, outside the roots, declare the same `name`.",
        "A collection or marketplace is installed into skill roots. Two skills with one `name` \
         shadow each other there: in one root the entry that sorts first (ICU collation for the \
         process locale) wins, in two roots the higher-ranked root's copy, and the other is \
         ignored with the shadow warning. Two folders with one name cannot be installed into one \
         root at all.",
        "Give each skill its own name (and folder), or remove the stale copy.",
    );
}
