//! rustc-style diagnostics (annotate-snippets), then a per-rule table and a summary line.
//!
//! A rule that fires more than [`IN_FULL`] times is shown as one block: its first finding in
//! full, then the other places, one line each (at most [`LISTED`] of them, then a count).
//! `--verbose` shows every finding in full; JSON, GitHub and SARIF always carry every one.

use crate::lint::term::{self, SafeText};
use crate::lint::{Finding, Report, Severity};
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use std::collections::HashMap;
use std::io::{self, Write};

/// Options of the human renderer.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub color: bool,
    /// Terminal width used to cut long source lines.
    pub width: usize,
    /// Show each fix's diff (off when `--diff` writes the patch to stdout on its own).
    pub diffs: bool,
    /// Every finding in full, not one block per repeated rule.
    pub verbose: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { color: false, width: DEFAULT_WIDTH, diffs: true, verbose: false }
    }
}

/// The width when stdout is not a terminal and `COLUMNS` is not set.
pub const DEFAULT_WIDTH: usize = 140;

/// Findings of one rule shown in full before the rest are grouped.
pub const IN_FULL: usize = 8;

/// Places listed under a grouped rule's first finding (the rest are counted).
pub const LISTED: usize = 10;

/// Every finding, each followed by a blank line, then the diffs (if any), then the summary.
pub fn render(report: &Report, opts: Options) -> String {
    let mut out = Vec::new();
    write(report, opts, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the renderer writes UTF-8")
}

/// [`render`], written to `out` finding by finding: the output is never held whole, so memory
/// and cache use stay those of one finding however many there are.
pub fn write(report: &Report, opts: Options, out: &mut dyn Write) -> io::Result<()> {
    let renderer = if opts.color { Renderer::styled() } else { Renderer::plain() }.term_width(opts.width);
    for i in &report.inputs {
        writeln!(out, "linting {} as {}", term::escape(&report.display_path(&i.path)), term::escape(&i.taken_as))?;
    }
    if !report.inputs.is_empty() {
        out.write_all(b"\n")?;
    }
    let counts = rule_counts(report);
    let grouped =
        |f: &Finding| !opts.verbose && counts.get(&(f.rule, f.severity)).is_some_and(|c| c.findings > IN_FULL);
    let mut seen: HashMap<RuleKey, ()> = HashMap::new();
    for (i, f) in report.findings.iter().enumerate() {
        if grouped(f) {
            if seen.insert((f.rule, f.severity), ()).is_some() {
                continue;
            }
            let tail = group_tail(report, i, &counts[&(f.rule, f.severity)], opts);
            out.write_all(finding(report, f, &renderer, opts.width, Some(tail)).as_bytes())?;
        } else {
            out.write_all(finding(report, f, &renderer, opts.width, None).as_bytes())?;
        }
        out.write_all(b"\n\n")?;
    }
    for fix in &report.fixes {
        let status = if fix.applied {
            "fixed"
        } else if let Some(why) = &fix.refused {
            writeln!(out, "not fixed: {}: {}", term::escape(&report.display_path(&fix.path)), term::escape(why))?;
            continue;
        } else {
            "would fix (run with --fix)"
        };
        writeln!(out, "{status}: {}", term::escape(&report.display_path(&fix.path)))?;
        for d in &fix.fixes {
            writeln!(out, "  - {}", term::escape(d))?;
        }
        if opts.diffs && !fix.diff.is_empty() {
            for line in fix.diff.lines() {
                match line.as_bytes().first() {
                    Some(b'+') if opts.color && !line.starts_with("+++") => {
                        writeln!(out, "\x1b[32m{}\x1b[0m", term::escape(line))?
                    }
                    Some(b'-') if opts.color && !line.starts_with("---") => {
                        writeln!(out, "\x1b[31m{}\x1b[0m", term::escape(line))?
                    }
                    _ => writeln!(out, "{}", term::escape(line))?,
                }
            }
        }
        out.write_all(b"\n")?;
    }
    if report.findings.len() > 1 {
        out.write_all(table(&counts, opts).as_bytes())?;
    }
    if let Some(o) = &report.outside {
        writeln!(out, "{}", term::escape(&outside_line(o)))?;
    }
    baseline_lines(report, out)?;
    writeln!(out, "{}", summary(report))
}

/// How often one rule fired at one level.
#[derive(Debug, Default)]
pub struct RuleCount {
    pub findings: usize,
    pub files: usize,
    pub fixable: usize,
}

/// The findings of one rule at one level (a graded rule reports at more than one).
type RuleKey = (&'static crate::lint::rules::Rule, Severity);

/// Per rule and level: findings, distinct files, fixable ones (findings are sorted by file).
fn rule_counts(report: &Report) -> HashMap<RuleKey, RuleCount> {
    let mut counts: HashMap<RuleKey, RuleCount> = HashMap::new();
    let mut last_file: HashMap<RuleKey, &str> = HashMap::new();
    for f in &report.findings {
        let key = (f.rule, f.severity);
        let c = counts.entry(key).or_default();
        c.findings += 1;
        if f.fix.is_some() {
            c.fixable += 1;
        }
        if last_file.insert(key, f.path.as_str()) != Some(f.path.as_str()) {
            c.files += 1;
        }
    }
    counts
}

/// The lines under a grouped rule's first finding (`report.findings[first]`): the other
/// places, one line each, at most [`LISTED`], then how many more.
fn group_tail(report: &Report, first: usize, count: &RuleCount, opts: Options) -> String {
    let (rule, severity) = (report.findings[first].rule, report.findings[first].severity);
    let rest = count.findings - 1;
    // `  = note: ` and the gutter come before each line.
    let width = opts.width.saturating_sub(12).max(40);
    let mut out = wrap(
        &format!(
            "`{rule}` is found {} times in {} {}; the other places (each in full with --verbose, all in --format json):",
            count.findings,
            count.files,
            if count.files == 1 { "file" } else { "files" },
        ),
        width,
    );
    out.push('\n');
    let mut listed = 0;
    for f in report.findings[first + 1..].iter().filter(|f| f.rule == rule && f.severity == severity) {
        if listed == LISTED {
            break;
        }
        listed += 1;
        let mut place = report.display_path(&f.path);
        if let (Some(src), Some(span)) = (report.files.get(&f.path), &f.span) {
            let start = src.clamp(span).start;
            let line = src.line_of(start);
            let column = src.slice(src.line_range(line).start..start).map_or(0, |t| t.chars().count()) + 1;
            place.push_str(&format!(":{line}:{column}"));
        }
        let line = format!("  {}: {}", term::escape(&place), term::escape(&f.message));
        out.push_str(&crate::render::term::fit(&line, width));
        out.push('\n');
    }
    if rest > listed {
        out.push_str(&format!("  ... and {} more\n", rest - listed));
    }
    out.pop();
    out
}

/// The per-rule table: level, findings, files, fixable; errors first, then by count.
fn table(counts: &HashMap<RuleKey, RuleCount>, opts: Options) -> String {
    let mut rows: Vec<(&RuleKey, &RuleCount)> = counts.iter().collect();
    rows.sort_by(|a, b| b.0.1.cmp(&a.0.1).then(b.1.findings.cmp(&a.1.findings)).then(a.0.0.cmp(b.0.0)));
    let id_width = rows.iter().map(|((rule, _), _)| rule.id.len()).max().unwrap_or(4).max(4);
    let mut out =
        format!("{:<id_width$}  {:<7}  {:>8}  {:>5}  {:>7}\n", "rule", "level", "findings", "files", "fixable");
    for ((id, severity), c) in rows {
        let level = if opts.color { paint_level(*severity) } else { format!("{:<7}", severity.as_str()) };
        let fixable = if c.fixable > 0 { c.fixable.to_string() } else { String::new() };
        out.push_str(&format!("{id:<id_width$}  {level}  {:>8}  {:>5}  {fixable:>7}", c.findings, c.files));
        // No trailing spaces when the last column is empty.
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out.push('\n');
    }
    out.push('\n');
    out
}

fn paint_level(s: Severity) -> String {
    let padded = format!("{:<7}", s.as_str());
    match s {
        Severity::Error => format!("\x1b[1;31m{padded}\x1b[0m"),
        Severity::Warning => format!("\x1b[1;33m{padded}\x1b[0m"),
        Severity::Info => format!("\x1b[1;36m{padded}\x1b[0m"),
    }
}

/// With a baseline: each entry that matched nothing (fixed or stale), then the count of the
/// known findings left out. The entries come from the baseline file: escaped like skill text.
pub fn baseline_lines(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    if let Some(b) = &report.baseline {
        for line in b.lines() {
            writeln!(out, "{}", term::escape(&line))?;
        }
        writeln!(out, "{}", term::escape(&b.summary()))?;
    }
    Ok(())
}

/// `read 120 skill folders outside the roots the harness scans (3 also reached through links);
/// not entered: 2 node_modules, 1 .git`.
fn outside_line(o: &crate::lint::targets::Outside) -> String {
    let mut line = format!(
        "read {} outside the roots the harness scans",
        if o.skills == 1 { "1 skill folder".to_string() } else { format!("{} skill folders", o.skills) }
    );
    if !o.mirrored.is_empty() {
        line.push_str(&format!(" ({} also reached through links, linted once)", o.mirrored.len()));
    }
    if !o.skipped.is_empty() {
        line.push_str(&format!("; not entered: {}", crate::analysis::tree::skipped_words(&o.skipped)));
    }
    if let Some(stopped) = &o.stopped {
        line.push_str(&format!("; {stopped}"));
    }
    line
}

/// `2 errors, 1 warning in 3 skill files (1 fixable with --fix)`.
pub fn summary(report: &Report) -> String {
    let s = &report.summary;
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let files = plural(s.files, "skill file", "skill files");
    let mut line = if report.findings.is_empty() {
        format!("no problems found in {files}")
    } else {
        format!(
            "{}, {}, {} in {files}",
            plural(s.errors, "error", "errors"),
            plural(s.warnings, "warning", "warnings"),
            plural(s.info, "info", "info")
        )
    };
    if s.hidden > 0 {
        line.push_str(&format!(" ({} below --min-severity not shown)", s.hidden));
    }
    if s.fixable > 0 {
        line.push_str(&format!("; {} fixable with --fix", s.fixable));
    }
    if s.fixed > 0 {
        line.push_str(&format!("; {} fixed", plural(s.fixed, "file", "files")));
        if s.fix_passes > 1 {
            // Each pass fixed what the one before uncovered.
            line.push_str(&format!(" in {} passes", s.fix_passes));
        }
    }
    if !report.complete {
        line.push_str("; discovery is incomplete: the harness would publish no catalog");
    }
    line
}

fn level(s: Severity) -> Level<'static> {
    match s {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

/// The most of a finding's lines a snippet shows, in bytes.
const MAX_EXCERPT: usize = 16 << 10;

fn finding(report: &Report, f: &Finding, renderer: &Renderer, width: usize, tail: Option<String>) -> String {
    let display = term::escape(&report.display_path(&f.path)).into_owned();
    let title = level(f.severity).primary_title(term::escape(&f.message).into_owned()).id(f.rule.id);
    let src = report.files.get(&f.path);
    let mut group: Group = match (src, &f.span) {
        (Some(src), Some(span)) => {
            let span = src.clamp(span);
            // The lines to show: the finding's, and those of related spans in the same file.
            let mut spans = vec![(span.clone(), true, f.label.clone())];
            for r in &f.related {
                if r.path == f.path
                    && let Some(rs) = &r.span
                {
                    spans.push((src.clamp(rs), false, Some(r.message.clone().into())));
                }
            }
            let first = spans.iter().map(|(s, ..)| src.line_of(s.start)).min().unwrap_or(1);
            let last = spans.iter().map(|(s, ..)| src.line_of(s.end.max(s.start + 1) - 1)).max().unwrap_or(first);
            let mut window = src.line_range(first).start..src.line_range(last).end;
            // A very long line is shown up to a bound (what a terminal shows of it anyway), so
            // the memory the snippet takes is bounded, not a multiple of the line.
            if window.len() > MAX_EXCERPT {
                let mut end = window.start + MAX_EXCERPT;
                while !src.is_char_boundary(end) {
                    end -= 1;
                }
                window.end = end;
            }
            if span.start > window.end {
                let line = src.line_of(span.start);
                let column = src.slice(src.line_range(line).start..span.start).map_or(0, |t| t.chars().count()) + 1;
                let origin = Origin::path(display.clone()).line(line).char_column(column);
                let mut group =
                    title.element(origin).element(Level::NOTE.message(format!("line {line} is too long to show")));
                if let Some(tail) = tail {
                    group = group.element(Level::NOTE.message(tail));
                }
                return renderer.render(&[group]);
            }
            let excerpt = src.slice(window.clone()).unwrap_or_default();
            let safe = SafeText::new(excerpt);
            let mut snippet = Snippet::source(safe.text.clone()).line_start(first).path(display.clone()).fold(true);
            for (s, primary, label) in spans {
                let a = safe.map(s.start.saturating_sub(window.start).min(excerpt.len()));
                let b = safe.map(s.end.saturating_sub(window.start).min(excerpt.len())).max(a);
                let kind = if primary { AnnotationKind::Primary } else { AnnotationKind::Context };
                let mut ann = kind.span(a..b);
                if let Some(l) = label {
                    ann = ann.label(term::escape(&l).into_owned());
                }
                snippet = snippet.annotation(ann);
            }
            title.element(snippet)
        }
        _ => title.element(Origin::path(display.clone())),
    };
    // `= note: ` and the gutter take about 10 columns.
    let room = width.saturating_sub(10).max(30);
    group = group.element(Level::NOTE.message(wrap(&format!("harness: {}", term::escape(&f.harness)), room)));
    for r in &f.related {
        if r.path != f.path || r.span.is_none() {
            let p = term::escape(&report.display_path(&r.path)).into_owned();
            group = group.element(Level::NOTE.message(format!("{}: {p}", term::escape(&r.message))));
        }
    }
    for h in &f.help {
        group = group.element(Level::HELP.message(wrap(&term::escape(h), room)));
    }
    if let Some(fix) = &f.fix {
        group = group.element(
            Level::HELP
                .message(wrap(&format!("fix: {} (dsh-skills lint --fix)", term::escape(&fix.description)), room)),
        );
    }
    if let Some(tail) = tail {
        group = group.element(Level::NOTE.message(tail));
    }
    renderer.render(&[group])
}

/// `text` wrapped at spaces to lines of at most `width` columns (a word longer than that gets a
/// line of its own). A break inside a `code span` that is a shell command (`mv …`, `mkdir …`) ends its line
/// with ` \\`, so the command stays one command when pasted.
pub fn wrap(text: &str, width: usize) -> String {
    const SHELL_WORDS: &[&str] = &["mv", "mkdir", "ln", "cp", "rm", "dsh-skills", "cd", "git"];
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut line = 0;
    let mut in_code = false;
    for (i, word) in text.split(' ').enumerate() {
        let n = word.chars().count();
        if i > 0 {
            // A code span's break needs room for ` \`.
            let reserve = if in_code { 2 } else { 0 };
            if line + 1 + n + reserve > width && line > 0 {
                if in_code {
                    out.push_str(" \\");
                }
                out.push('\n');
                if in_code {
                    out.push_str("  ");
                    line = 2;
                } else {
                    line = 0;
                }
            } else {
                out.push(' ');
                line += 1;
            }
        }
        out.push_str(word);
        line += n;
        if word.matches('`').count() % 2 == 1 {
            // Only a shell command is continued with a backslash (a YAML value is not).
            in_code = !in_code && SHELL_WORDS.contains(&word.trim_start_matches(|c| c != '`').trim_start_matches('`'));
        }
    }
    out
}
