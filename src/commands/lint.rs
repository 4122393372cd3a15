//! `dsh-skills lint`: targets → per-file checks → configuration → fixes → output → exit status.

use super::io::{EXIT_OK, Io};
use crate::cli::{Deny, FailOn, Format, GlobalArgs, LintArgs};
use crate::engine::discover::Environment;
use crate::engine::snapshot::Settings;
use crate::error::UsageError;
use crate::lint::baseline::{Baseline, Outcome};
use crate::lint::check::{self, CheckOptions, Subject};
use crate::lint::config::{Config, Suppressions};
use crate::lint::term;
use crate::lint::{Compat, FileFix, Finding, Report, Severity, bundle, fix, rules, targets};
use crate::render::lint::{self as render, human};
use std::collections::HashMap;
use std::ops::Range;

/// Exit status when a finding reaches the failing level.
pub const EXIT_FINDINGS: u8 = 1;

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
            off: crate::lint::rules::RULES
                .iter()
                .map(|r| r.id)
                .filter(|id| self.config.portability_off(id, &self.compat))
                .collect(),
        }
    }
}

/// A finished lint pass: the report and the files it read.
pub struct Run {
    pub report: Report,
    pub subjects: Vec<Subject>,
}

pub fn run(g: &GlobalArgs, args: &LintArgs, settings: &Settings, env: &Environment, io: &mut Io) -> anyhow::Result<u8> {
    if let Some(id) = &args.explain {
        return explain(g, id, io);
    }
    if args.diff && g.format == Format::Sarif {
        return Err(UsageError("--diff prints a patch; use it with --format human, json or github".into()).into());
    }
    let start = settings
        .cwd
        .as_deref()
        .map_or_else(|| env.process_cwd.clone(), |c| crate::engine::platform::resolve(&env.process_cwd, c));
    let config = Config::find(&start, args.config.as_deref(), &env.process_cwd)?;
    let mut compat: Vec<Compat> = args.compat.iter().map(|&c| Compat::from(c)).collect();
    for c in &config.compat {
        if !compat.contains(c) {
            compat.push(*c);
        }
    }
    let cli_fail = args.fail_on.map(severity);
    let deny = args.deny.contains(&Deny::Warnings).then_some(Severity::Warning);
    let fail_on = match (cli_fail, deny) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).or(config.fail_on).unwrap_or(Severity::Error),
    };
    let min = args.min_severity.map(severity);
    let opts = Options { config, compat };
    let mut result = lint(&args.paths, settings, env, &opts)?;
    if args.fix || args.diff {
        // A fix can uncover more (a YAML fix lets the key rules read the frontmatter): `--fix`
        // repeats to a fixed point, at most [`MAX_FIX_PASSES`] times, so one run is enough.
        let mut done: Vec<Fixed> = Vec::new();
        let mut passes = 0;
        loop {
            let (found, applied) = fixes(&result, args.fix);
            passes += 1;
            merge_fixes(&mut done, found);
            if applied > 0 {
                result = lint(&args.paths, settings, env, &opts)?;
            }
            if applied == 0 || passes == MAX_FIX_PASSES || result.report.summary.fixable == 0 {
                break;
            }
        }
        let fixed: Vec<FileFix> = done
            .into_iter()
            .map(|mut f| {
                if f.passes > 1 {
                    f.fix.diff = fix::patch(&f.old, &f.new, &result.report.display_path(&f.fix.path));
                }
                f.fix
            })
            .collect();
        result.report.summary.fixed = fixed.iter().filter(|f| f.applied).count();
        result.report.summary.fix_passes = if args.fix { passes } else { 0 };
        result.report.fixes = fixed;
    }
    // The level filter: the same findings leave every format (and the exit status).
    if let Some(min) = min {
        result.report.keep_at_least(min);
    }
    // `--write-baseline`, `--baseline`, else the configuration's `baseline`.
    let configured = opts.config.baseline_path(&start);
    if let Some(file) = args.write_baseline.as_deref().or(args.baseline.as_deref()).or(configured.as_deref()) {
        let outcome = baseline(&mut result, file, args.write_baseline.is_some(), &args.paths, env)?;
        result.report.baseline = Some(outcome);
    }
    // Like the snapshot, the run's files and findings stay until the process exits.
    let result = std::mem::ManuallyDrop::new(result);
    let width = io.term.width.unwrap_or(human::DEFAULT_WIDTH);
    let report = &result.report;
    // `--diff` in human format: the patch alone on stdout (for `git apply`), the findings on
    // stderr. On a terminal the patch is escaped, which also shows CR and BOM changes.
    if args.diff && g.format == Format::Human {
        let tty = io.out_is_terminal;
        let color = io.err_term.color;
        let width = io.err_term.width.unwrap_or(human::DEFAULT_WIDTH);
        // Buffered here (stderr is not), streamed: the findings are never held as one text.
        let mut err = std::io::BufWriter::new(&mut *io.err);
        human::write(report, human::Options { color, width, diffs: false, verbose: args.verbose }, &mut err)?;
        std::io::Write::flush(&mut err)?;
        drop(err);
        for fix in report.fixes.iter().filter(|f| f.refused.is_none()) {
            if tty {
                for line in fix.diff.split_inclusive('\n') {
                    io.out.write_all(term::escape(line.strip_suffix('\n').unwrap_or(line)).as_bytes())?;
                    io.out.write_all(b"\n")?;
                }
            } else {
                io.out.write_all(fix.diff.as_bytes())?;
            }
        }
        return Ok(if report.findings.iter().any(|f| f.severity >= fail_on) { EXIT_FINDINGS } else { EXIT_OK });
    }
    match g.format {
        // `lint --format` offers no markdown (cli::command); human if it were ever reached.
        Format::Human | Format::Markdown => {
            human::write(
                report,
                human::Options { color: io.term.color, width, diffs: true, verbose: args.verbose },
                io.out,
            )?;
        }
        Format::Github => render::github::write(report, io.out)?,
        // On a terminal, JSON writes the characters a terminal obeys as `\uXXXX` (same data).
        Format::Json | Format::Sarif if io.out_is_terminal => {
            let text =
                if g.format == Format::Json { render::json::render(report) } else { render::sarif::render(report) };
            io.out.write_all(crate::render::term::json_for_terminal(&text).as_bytes())?;
        }
        // Piped or redirected: streamed, finding by finding, into stdout's buffer.
        Format::Json => render::json::write(report, io.out)?,
        Format::Sarif => render::sarif::write(report, io.out)?,
    }
    Ok(if report.findings.iter().any(|f| f.severity >= fail_on) { EXIT_FINDINGS } else { EXIT_OK })
}

fn severity(f: FailOn) -> Severity {
    match f {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
        FailOn::Info => Severity::Info,
    }
}

/// `--baseline FILE` (read it) or `--write-baseline FILE` (write this run's findings to it
/// first, atomically), then leave the known findings out of the report.
fn baseline(
    run: &mut Run,
    file: &str,
    write: bool,
    paths: &[String],
    env: &Environment,
) -> Result<Outcome, UsageError> {
    let abs = crate::engine::platform::resolve(&env.process_cwd, file);
    let base_dir = crate::engine::platform::dirname(&abs);
    let shown = term::escape(file).into_owned();
    let known = if write {
        let b = Baseline::of(&run.report, &base_dir);
        crate::commands::write::replace(std::path::Path::new(&abs), b.text().as_bytes())
            .map_err(|e| UsageError(format!("cannot write the baseline: {}", term::escape(&e))))?;
        b
    } else {
        let text = std::fs::read_to_string(&abs).map_err(|e| {
            let hint = if e.kind() == std::io::ErrorKind::NotFound {
                format!("; create it with `dsh-skills lint --write-baseline {shown}`")
            } else {
                String::new()
            };
            UsageError(format!("cannot read the baseline {shown}: {e}{hint}"))
        })?;
        Baseline::parse(&text).map_err(|e| {
            UsageError(format!(
                "{shown} is not a dsh-skills lint baseline: {} (`dsh-skills schema baseline` describes one)",
                term::escape(&e)
            ))
        })?
    };
    // The files this run looked at: every one when it linted the whole project, else the
    // subjects and what lies inside the paths it was given.
    let roots: Vec<String> = paths.iter().map(|p| crate::engine::platform::resolve(&env.process_cwd, p)).collect();
    let subjects: std::collections::HashSet<&str> = run.subjects.iter().map(|s| s.path.as_str()).collect();
    let found: std::collections::HashSet<String> = run.report.findings.iter().map(|f| f.path.clone()).collect();
    let linted = |p: &str| {
        paths.is_empty()
            || subjects.contains(p)
            || found.contains(p)
            || roots.iter().any(|r| crate::engine::platform::inside(p, r))
    };
    let exists = |p: &str| std::fs::symlink_metadata(p).is_ok();
    Ok(known.apply(&mut run.report, &base_dir, &shown, &linted, &exists)).map(|mut o| {
        o.written = write;
        o
    })
}

fn explain(g: &GlobalArgs, id: &str, io: &mut Io) -> anyhow::Result<u8> {
    if id == "all" {
        let mut s = String::new();
        for r in rules::RULES {
            s.push_str(&format!(
                "{:<26} {:<8} {}\n",
                r.id,
                if r.compat.is_empty() { r.severity.as_str() } else { "off" },
                r.summary
            ));
        }
        io.out.write_all(s.as_bytes())?;
        return Ok(EXIT_OK);
    }
    let Some(r) = rules::find(id) else {
        let close = rules::similar(id);
        let hint = if close.is_empty() {
            "; `dsh-skills lint --explain all` lists every rule".to_string()
        } else {
            format!("; did you mean {}?", close.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" or "))
        };
        return Err(UsageError(format!("no lint rule named `{}`{hint}", term::escape(id))).into());
    };
    let text = match g.format {
        Format::Json => render::json::rule(r),
        _ => rules::explain_text(r),
    };
    io.out.write_all(text.as_bytes())?;
    Ok(EXIT_OK)
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
    settings.scan.check =
        Some(std::sync::Arc::new(crate::lint::pass::InPass { opts: check_opts.clone(), config: opts.config.clone() }));
    let settings = &settings;
    let tree_check = crate::lint::pass::TreeCheck { opts: check_opts, config: opts.config.clone() };
    let t = if paths.is_empty() {
        let snap = crate::commands::discover(settings, env);
        // Discovery's workers freed every file's bytes and YAML tree in their own arenas.
        crate::engine::platform::release_free_memory();
        let mut t = targets::from_snapshot(&snap);
        // Each skill outside the roots is checked on the walker thread that finds it.
        let search = crate::analysis::unscanned::search_checked(
            &snap,
            &env.home,
            &intentional,
            Some(tree_check.within(Vec::new())),
        );
        t.findings.extend(targets::unscanned_findings(&search, None));
        // Every unscanned folder was searched: an `unscanned-ok` entry that matches none is
        // stale or misspelt.
        if let Some(config) = &opts.config.path {
            for (written, path) in opts.config.unscanned_ok.iter().zip(&intentional) {
                if !search.folders.iter().any(|f| &f.path == path) {
                    t.findings.push(
                        Finding::new(
                            "config-unmatched",
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
    Ok(lint_targets(t, settings, env, opts))
}

/// The per-file checks, suppressions, configured levels and fix screening of [`lint`], over
/// subjects and entry-level findings already gathered (the language server passes one
/// subject whose source is the editor's buffer).
pub fn lint_targets(mut t: targets::Targets, settings: &Settings, env: &Environment, opts: &Options) -> Run {
    let check_opts = opts.check_options(settings);
    // Skills the tree walk checked as it found them bring their folder's links too.
    let walked: Vec<Option<Vec<Finding>>> = t.subjects.iter_mut().map(crate::lint::pass::unwrap_walked).collect();
    let mut report = Report {
        complete: t.complete,
        base_dir: env.process_cwd.clone(),
        inputs: t.inputs,
        outside: t.outside.filter(|o| o.skills > 0 || o.stopped.is_some()),
        ..Report::default()
    };
    let mut findings: Vec<Finding> = t.findings;
    let mut suppressions: HashMap<String, Suppressions> = HashMap::new();
    let mut name_spans: HashMap<String, Range<usize>> = HashMap::new();
    // Names of the skills read outside the roots: (name, skill file), for same-name copies.
    let mut outside_names: Vec<(String, String)> = Vec::new();
    // Discovery checked each file it read; files it did not read (named on the command line)
    // are checked here, and each bundle's links, on every core. Results are folded in subject
    // order, each file's taken from its entry as it comes (never all at once).
    let mut bundles_seen = std::collections::HashSet::new();
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
        let links = if *links_here { bundle::check_symlinks(s) } else { Vec::new() };
        let own = s.checked.is_none().then(|| {
            // Checked here (named on the command line, or outside the roots): trimmed as
            // discovery's pass trims, since every result is held until the fold.
            let mut r = check::check_file(s, &check_opts);
            crate::lint::pass::keep_what_lint_needs(&mut r, &s.path, &opts.config, &opts.compat);
            Box::new(r)
        });
        (own, links)
    });
    for (((_, links), walked), first) in results.iter_mut().zip(walked).zip(first_in_bundle) {
        if let (true, Some(walked)) = (first, walked) {
            *links = walked;
        }
    }
    // Paths that discovery-level findings point at keep their text for snippets, as far as
    // those findings reach into it (all of it for one with a fix).
    let mut mentioned: HashMap<String, Reach> = HashMap::new();
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
        let count = |r: &dyn std::any::Any| r.downcast_ref::<check::FileResult>().map_or(0, gathered);
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
            && !file_findings.iter().any(|f| f.severity == Severity::Error || f.rule == "not-a-skill")
        {
            file_findings.push(Finding::new(
                "harness-rejected",
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
                reach.add_end(src.as_ref().map(|t| t.text.len()));
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
        if f.span.is_none() && matches!(f.rule, "shadowed-skill" | "duplicate-name" | "name-collision") {
            f.span = name_spans.get(&f.path).cloned();
        }
    }
    // Markdown the project keeps in a root on purpose (`not-skills`): the harness's log line
    // is accepted. An entry that names no file is reported (a stale one would silence a file
    // added later under that name).
    if !opts.config.not_skills.is_empty() {
        let listed = opts.config.not_skills_paths(&env.process_cwd);
        findings.retain(|f| {
            !(matches!(f.rule, "not-a-skill" | "frontmatter-missing" | "harness-rejected") && listed.contains(&f.path))
        });
        let at = opts.config.path.clone().unwrap_or_default();
        for (entry, path) in opts.config.not_skills.iter().zip(&listed) {
            if std::fs::symlink_metadata(path).is_err() {
                findings.push(
                    Finding::new(
                        "config-unmatched",
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
                    "name-collision",
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
    let by_path: HashMap<&str, &Subject> = subjects.iter().map(|s| (s.path.as_str(), s)).collect();
    let mut per_file: HashMap<&str, Vec<usize>> = HashMap::new();
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

/// The most passes `--fix` makes: each pass fixes what the one before uncovered.
pub const MAX_FIX_PASSES: usize = 4;

/// One file's fixes over the passes of `--fix`: the text before the first and after the last.
struct Fixed {
    fix: FileFix,
    old: String,
    new: String,
    passes: usize,
}

/// Add a pass's fixes to those of the passes before it (same file: one entry, its fixes in
/// order, its diff from the first text to the last).
fn merge_fixes(done: &mut Vec<Fixed>, found: Vec<Fixed>) {
    for f in found {
        match done.iter_mut().find(|d| d.fix.path == f.fix.path) {
            Some(d) => {
                d.fix.fixes.extend(f.fix.fixes);
                d.fix.applied |= f.fix.applied;
                if f.fix.refused.is_some() {
                    d.fix.refused = f.fix.refused;
                }
                d.new = f.new;
                d.passes += 1;
            }
            None => done.push(f),
        }
    }
}

/// Plan (and with `write`, apply) the fixes of every file. Returns the per-file results and
/// how many files were rewritten.
fn fixes(run: &Run, write: bool) -> (Vec<Fixed>, usize) {
    let mut out = Vec::new();
    let mut applied = 0;
    // Each file's findings, gathered in one pass (in report order).
    let mut by_path: HashMap<&str, Vec<&Finding>> = HashMap::new();
    for f in &run.report.findings {
        by_path.entry(f.path.as_str()).or_default().push(f);
    }
    for s in &run.subjects {
        let Some(src) = run.report.files.get(&s.path) else { continue };
        let Some(findings) = by_path.get(s.path.as_str()) else { continue };
        let Some(plan) = fix::plan(&s.path, src, findings, s.node_mode) else { continue };
        let diff = fix::patch(&plan.old, &plan.new, &run.report.display_path(&s.path));
        let mut ff = FileFix {
            path: s.path.clone(),
            fixes: plan.fixes.iter().map(|f| f.description.clone()).collect(),
            diff,
            applied: false,
            refused: plan.refused.clone(),
        };
        if write && ff.refused.is_none() {
            match fix::write(&plan, s.base_dir()) {
                Ok(()) => {
                    ff.applied = true;
                    applied += 1;
                }
                Err(e) => ff.refused = Some(e),
            }
        }
        out.push(Fixed { fix: ff, old: plan.old.to_string(), new: plan.new.to_string(), passes: 1 });
    }
    (out, applied)
}
