//! `dsh-skills lint`: targets → per-file checks → configuration → fixes → output → exit status.

use super::io::{EXIT_OK, Io};
use crate::cli::{Deny, FailOn, Format, GlobalArgs, LintArgs};
use crate::engine::discover::Environment;
use crate::engine::snapshot::Settings;
use crate::error::UsageError;
use crate::lint::baseline::{Baseline, Outcome};
use crate::lint::config::Config;
use crate::lint::run::{Options, Run, lint};
use crate::lint::term;
use crate::lint::{Compat, FileFix, Finding, Severity, fix, rules};
use crate::render::lint::{self as render, human};
use std::collections::HashMap;

/// Exit status when a finding reaches the failing level.
pub const EXIT_FINDINGS: u8 = 1;

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
        for r in rules::all() {
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
