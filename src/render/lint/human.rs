//! rustc-style diagnostics (annotate-snippets), then a summary line.

use crate::lint::term::{self, SafeText};
use crate::lint::{Finding, Report, Severity};
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use std::io::{self, Write};

/// Options of the human renderer.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub color: bool,
    /// Terminal width used to cut long source lines.
    pub width: usize,
    /// Show each fix's diff (off when `--diff` writes the patch to stdout on its own).
    pub diffs: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { color: false, width: 140, diffs: true }
    }
}

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
    for f in &report.findings {
        out.write_all(finding(report, f, &renderer).as_bytes())?;
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
    if let Some(o) = &report.outside {
        writeln!(out, "{}", term::escape(&outside_line(o)))?;
    }
    baseline_lines(report, out)?;
    writeln!(out, "{}", summary(report))
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
    if s.fixable > 0 {
        line.push_str(&format!("; {} fixable with --fix", s.fixable));
    }
    if s.fixed > 0 {
        line.push_str(&format!("; {} fixed", plural(s.fixed, "file", "files")));
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

fn finding(report: &Report, f: &Finding, renderer: &Renderer) -> String {
    let display = term::escape(&report.display_path(&f.path)).into_owned();
    let title = level(f.severity).primary_title(term::escape(&f.message).into_owned()).id(f.rule);
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
                while !src.text.is_char_boundary(end) {
                    end -= 1;
                }
                window.end = end;
            }
            if span.start > window.end {
                let line = src.line_of(span.start);
                let column = src.text[src.line_range(line).start..span.start].chars().count() + 1;
                let origin = Origin::path(display.clone()).line(line).char_column(column);
                return renderer.render(&[title
                    .element(origin)
                    .element(Level::NOTE.message(format!("line {line} is too long to show")))]);
            }
            let excerpt = &src.text[window.clone()];
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
    group = group.element(Level::NOTE.message(format!("harness: {}", term::escape(&f.harness))));
    for r in &f.related {
        if r.path != f.path || r.span.is_none() {
            let p = term::escape(&report.display_path(&r.path)).into_owned();
            group = group.element(Level::NOTE.message(format!("{}: {p}", term::escape(&r.message))));
        }
    }
    for h in &f.help {
        group = group.element(Level::HELP.message(term::escape(h).into_owned()));
    }
    if let Some(fix) = &f.fix {
        group = group
            .element(Level::HELP.message(format!("fix: {} (dsh-skills lint --fix)", term::escape(&fix.description))));
    }
    renderer.render(&[group])
}
