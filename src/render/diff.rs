//! `dsh-skills diff`'s views: human (a terminal), Markdown (a pull-request comment) and GitHub
//! workflow annotations. The JSON document is the [`Diff`] itself.
//!
//! Skill-file text reaches these views in names, descriptions, warnings and `<skill_content>`:
//! the human and annotation views escape it ([`term::escape`]); the Markdown view puts it in
//! code spans and fences longer than any backtick run inside.

use crate::analysis::diff::{Diff, LintItem};
use crate::lint::term;
use crate::render::term::Term;
use std::fmt::Write;

/// `diff --format json`: the comparison, after `schemaVersion` and `tool`.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiffDoc<'a> {
    schema_version: u32,
    tool: crate::render::envelope::Tool,
    #[serde(flatten)]
    diff: &'a Diff,
}

pub fn document(diff: &Diff) -> DiffDoc<'_> {
    DiffDoc { schema_version: crate::render::envelope::SCHEMA_VERSION, tool: crate::render::envelope::Tool::THIS, diff }
}

/// The hidden marker a pull-request comment carries, so the action finds it again.
pub const MARKER: &str = "<!-- dsh-skills diff -->";

fn signed(n: i64) -> String {
    if n > 0 { format!("+{n}") } else { n.to_string() }
}

fn esc(s: &str) -> String {
    term::escape(s).into_owned()
}

/// One line per kind of change, for the human view and the Markdown summary.
fn headline(d: &Diff) -> Vec<String> {
    let mut out = Vec::new();
    let count = |n: usize, what: &str| (n > 0).then(|| format!("{n} {what}"));
    out.extend(count(d.added.len(), "added"));
    out.extend(count(d.removed.len(), "removed"));
    out.extend(count(d.changed.len(), "changed"));
    out.extend(count(d.cut.len(), "newly cut"));
    out.extend(count(d.hidden.len(), "newly hidden"));
    out.extend(count(d.shadowed.len(), "newly shadowed"));
    out.extend(count(d.unscanned.len(), "newly unscanned"));
    out.extend(count(d.unloadable.len() + d.provider_errors.len(), "failing to load"));
    out.extend(count(d.content.len(), "with changed content"));
    out
}

fn size_line(d: &Diff) -> String {
    let s = &d.size;
    format!(
        "{} → {} UTF-16 units ({}), {} → {} bytes ({}), {}",
        s.base.utf16_units,
        s.head.utf16_units,
        signed(s.delta_utf16_units),
        s.base.bytes,
        s.head.bytes,
        signed(s.delta_bytes),
        match (s.base.tokens, s.head.tokens, s.delta_tokens) {
            (Some(a), Some(b), Some(delta)) =>
                format!("{a} → {b} tokens ({}; {})", signed(delta), crate::analysis::tokens::TOKENIZER),
            _ => format!(
                "about {} → {} tokens ({}; estimate: bytes / 4)",
                s.base.tokens_estimate,
                s.head.tokens_estimate,
                signed(s.delta_tokens_estimate)
            ),
        }
    )
}

fn lint_line(l: &LintItem, base: &str) -> String {
    let path = crate::lint::display_path(base, &l.path);
    let at = l.line.map(|n| format!(":{n}")).unwrap_or_default();
    format!("{}{at}: {} [{}] {}", esc(&path), l.severity, l.rule, esc(&l.message))
}

/// The human view.
pub fn human(d: &Diff, base_dir: &str, t: &Term) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{} {} → {}", t.bold("dsh-skills diff"), esc(&d.base), esc(&d.head));
    if d.is_empty() {
        let _ = writeln!(o, "nothing the model sees changed; no lint finding changed");
        let _ = writeln!(o, "{} {}", t.dim("catalog:"), size_line(d));
        return o;
    }
    let heads = headline(d);
    if !heads.is_empty() {
        let _ = writeln!(o, "{} {}", t.dim("skills:"), heads.join(", "));
    }
    let _ = writeln!(o, "{} {}", t.dim("catalog:"), size_line(d));
    for (label, why) in [(&d.base, &d.base_no_catalog), (&d.head, &d.head_no_catalog)] {
        if let Some(why) = why {
            let _ = writeln!(o, "{} at {}: {why}", t.yellow("no catalog"), esc(label));
        }
    }
    for e in &d.added {
        let _ = writeln!(o, "{} `{}`", t.green("added:"), esc(&e.name));
    }
    for e in &d.removed {
        let _ = writeln!(o, "{} `{}`", t.red("removed:"), esc(&e.name));
    }
    for c in &d.changed {
        let _ = writeln!(o, "{} `{}`", t.cyan("changed:"), esc(&c.name));
    }
    for c in &d.cut {
        let _ = writeln!(
            o,
            "{} `{}`: description is {} units, cut at {}; the model no longer sees: {}",
            t.yellow("cut:"),
            esc(&c.name),
            c.length,
            c.limit,
            esc(&format!("{:?}", c.lost))
        );
    }
    for h in &d.hidden {
        let _ = writeln!(
            o,
            "{} `{}`: disable-model-invocation hides it from the catalog{}",
            t.yellow("hidden:"),
            esc(&h.name),
            h.path.as_deref().map(|p| format!(" ({})", esc(p))).unwrap_or_default()
        );
    }
    for s in &d.shadowed {
        let _ = writeln!(o, "{} `{}`: {} loses to {}", t.yellow("shadowed:"), esc(&s.name), esc(&s.path), esc(&s.by));
    }
    for u in &d.unscanned {
        let _ = writeln!(o, "{} {}: no root the harness scans reaches it", t.yellow("unscanned:"), esc(u));
    }
    for u in &d.unloadable {
        let _ = writeln!(o, "{} {}", t.red("fails to load:"), esc(&u.warning));
    }
    for e in &d.provider_errors {
        let _ = writeln!(o, "{} {} (no catalog is published)", t.red("provider fails:"), esc(e));
    }
    if !d.catalog_diff.is_empty() {
        let _ = writeln!(o, "\n{}", t.bold("catalog text:"));
        o.push_str(&colour_diff(&d.catalog_diff, t));
    }
    for c in &d.content {
        let _ = writeln!(o, "\n{} `{}`:", t.bold("<skill_content> of"), esc(&c.name));
        o.push_str(&colour_diff(&c.diff, t));
    }
    if !d.lint.new.is_empty() || !d.lint.fixed.is_empty() {
        let _ = writeln!(o, "\n{} {} new, {} fixed", t.bold("lint:"), d.lint.new.len(), d.lint.fixed.len());
        for l in &d.lint.new {
            let _ = writeln!(o, "  {} {}", t.red("new"), lint_line(l, base_dir));
        }
        for l in &d.lint.fixed {
            let _ = writeln!(o, "  {} {}", t.green("fixed"), lint_line(l, base_dir));
        }
    }
    o
}

fn colour_diff(diff: &str, t: &Term) -> String {
    let mut o = String::new();
    for line in diff.split_inclusive('\n') {
        let text = esc(line.trim_end_matches('\n'));
        let painted = if line.starts_with("+++") || line.starts_with("---") {
            t.bold(&text)
        } else if line.starts_with('+') {
            t.green(&text)
        } else if line.starts_with('-') {
            t.red(&text)
        } else if line.starts_with("@@") {
            t.cyan(&text)
        } else {
            text
        };
        let _ = writeln!(o, "{painted}");
    }
    o
}

/// The longest run of backticks in `text`.
fn longest_backticks(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// A fence for `text`: backticks, one more than its longest run (at least three).
fn fence(text: &str) -> String {
    "`".repeat((longest_backticks(text) + 1).max(3))
}

/// A Markdown code span holding `text` exactly (on one line).
fn code(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ");
    let f = "`".repeat(longest_backticks(&text) + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') || text.trim().is_empty() { " " } else { "" };
    format!("{f}{pad}{text}{pad}{f}")
}

fn block(o: &mut String, lang: &str, text: &str) {
    let f = fence(text);
    let _ = writeln!(o, "{f}{lang}");
    o.push_str(text);
    if !text.ends_with('\n') {
        o.push('\n');
    }
    let _ = writeln!(o, "{f}");
}

/// The Markdown view: a pull-request comment, led by [`MARKER`].
pub fn markdown(d: &Diff, base_dir: &str) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{MARKER}");
    let _ = writeln!(o, "### What the model sees: {} → {}\n", code(&d.base), code(&d.head));
    if d.is_empty() {
        let _ = writeln!(o, "Nothing the model sees changed, and no lint finding changed.\n");
    } else {
        let heads = headline(d);
        if !heads.is_empty() {
            let _ = writeln!(o, "**Skills:** {}\n", heads.join(", "));
        }
    }
    let s = &d.size;
    let _ = writeln!(o, "| catalog | base | head | change |\n|---|---:|---:|---:|");
    let _ = writeln!(
        o,
        "| entries | {} | {} | {} |",
        d.base_entries(),
        d.head_entries(),
        signed(d.head_entries() as i64 - d.base_entries() as i64)
    );
    let _ = writeln!(
        o,
        "| UTF-16 units | {} | {} | {} |",
        s.base.utf16_units,
        s.head.utf16_units,
        signed(s.delta_utf16_units)
    );
    let _ = writeln!(o, "| bytes | {} | {} | {} |", s.base.bytes, s.head.bytes, signed(s.delta_bytes));
    let _ = match (s.base.tokens, s.head.tokens, s.delta_tokens) {
        (Some(a), Some(b), Some(delta)) => {
            writeln!(o, "| tokens ({}) | {a} | {b} | {} |\n", crate::analysis::tokens::TOKENIZER, signed(delta))
        }
        _ => writeln!(
            o,
            "| tokens (estimate: bytes / 4) | {} | {} | {} |\n",
            s.base.tokens_estimate,
            s.head.tokens_estimate,
            signed(s.delta_tokens_estimate)
        ),
    };
    for (label, why) in [(&d.base, &d.base_no_catalog), (&d.head, &d.head_no_catalog)] {
        if let Some(why) = why {
            let _ = writeln!(o, "> **No catalog** at {}: {why}\n", code(label));
        }
    }
    let mut attention = Vec::new();
    for c in &d.cut {
        attention.push(format!(
            "✂️ **cut** {}: {} units, over the limit of {}; the model no longer sees {}",
            code(&c.name),
            c.length,
            c.limit,
            code(&c.lost)
        ));
    }
    for h in &d.hidden {
        attention
            .push(format!("🙈 **hidden** {}: `disable-model-invocation` keeps it out of the catalog", code(&h.name)));
    }
    for sh in &d.shadowed {
        attention.push(format!(
            "👥 **shadowed** {}: {} loses to {}",
            code(&sh.name),
            code(&rel(base_dir, &sh.path)),
            code(&rel(base_dir, &sh.by))
        ));
    }
    for u in &d.unscanned {
        attention.push(format!("📂 **unscanned** {}: no root the harness scans reaches it", code(u)));
    }
    for u in &d.unloadable {
        attention.push(format!("⛔ **fails to load** {}: {}", code(&rel(base_dir, &u.path)), code(&u.warning)));
    }
    for e in &d.provider_errors {
        attention.push(format!("⛔ **provider fails** (no catalog is published): {}", code(e)));
    }
    if !attention.is_empty() {
        for a in attention {
            let _ = writeln!(o, "- {a}");
        }
        o.push('\n');
    }
    if !d.added.is_empty() || !d.removed.is_empty() || !d.changed.is_empty() {
        let names = |v: Vec<&String>| v.iter().map(|n| code(n)).collect::<Vec<_>>().join(", ");
        if !d.added.is_empty() {
            let _ = writeln!(o, "- **added:** {}", names(d.added.iter().map(|e| &e.name).collect()));
        }
        if !d.removed.is_empty() {
            let _ = writeln!(o, "- **removed:** {}", names(d.removed.iter().map(|e| &e.name).collect()));
        }
        if !d.changed.is_empty() {
            let _ = writeln!(o, "- **changed:** {}", names(d.changed.iter().map(|e| &e.name).collect()));
        }
        o.push('\n');
    }
    if !d.catalog_diff.is_empty() {
        let _ = writeln!(o, "<details><summary>Catalog text</summary>\n");
        block(&mut o, "diff", &d.catalog_diff);
        let _ = writeln!(o, "\n</details>\n");
    }
    if !d.content.is_empty() {
        let _ = writeln!(
            o,
            "<details><summary><code>&lt;skill_content&gt;</code> of {} skill(s)</summary>\n",
            d.content.len()
        );
        for c in &d.content {
            let _ = writeln!(o, "{}\n", code(&c.name));
            block(&mut o, "diff", &c.diff);
            o.push('\n');
        }
        let _ = writeln!(o, "</details>\n");
    }
    if !d.lint.new.is_empty() || !d.lint.fixed.is_empty() {
        let _ = writeln!(o, "**Lint:** {} new, {} fixed\n", d.lint.new.len(), d.lint.fixed.len());
        for (what, items) in [("new", &d.lint.new), ("fixed", &d.lint.fixed)] {
            for l in items {
                let at = l.line.map(|n| format!(":{n}")).unwrap_or_default();
                let _ = writeln!(
                    o,
                    "- {what} {} {} {}: {}",
                    l.severity,
                    code(&l.rule),
                    code(&format!("{}{at}", rel(base_dir, &l.path))),
                    code(&l.message)
                );
            }
        }
        o.push('\n');
    }
    let _ = writeln!(
        o,
        "<sub>dsh-skills diff: the exact catalog and skill content the DeepSeek Harness shows its model, at both states.</sub>"
    );
    o
}

fn rel(base_dir: &str, path: &str) -> String {
    crate::lint::display_path(base_dir, path)
}

/// Escape workflow-command data.
fn data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub workflow annotations: one per change that needs a reviewer's eye.
pub fn github(d: &Diff, base_dir: &str) -> String {
    let mut o = String::new();
    let mut note = |level: &str, file: Option<&str>, title: &str, message: String| {
        let mut props = Vec::new();
        if let Some(f) = file {
            props.push(format!("file={}", property(&esc(&rel(base_dir, f)))));
        }
        props.push(format!("title={}", property(&format!("dsh-skills diff: {title}"))));
        let _ = writeln!(o, "::{level} {}::{}", props.join(","), data(&esc(&message)));
    };
    let path_of = |name: &str| d.head_path(name);
    for c in &d.cut {
        note(
            "warning",
            path_of(&c.name).as_deref(),
            "cut",
            format!(
                "the catalog cuts the description of `{}` at {} units; the model no longer sees: {}",
                c.name, c.limit, c.lost
            ),
        );
    }
    for h in &d.hidden {
        note(
            "warning",
            h.path.as_deref(),
            "hidden",
            format!("`{}` is no longer in the catalog: disable-model-invocation is set", h.name),
        );
    }
    for s in &d.shadowed {
        note("warning", Some(&s.path), "shadowed", format!("`{}` here is shadowed by {}", s.name, s.by));
    }
    for u in &d.unscanned {
        note("warning", None, "unscanned", format!("{u}: no root the harness scans reaches this skill"));
    }
    for u in &d.unloadable {
        note("error", Some(&u.path), "fails to load", u.warning.clone());
    }
    for e in &d.provider_errors {
        note("error", None, "provider fails", format!("{e} (the harness publishes no catalog)"));
    }
    for l in &d.lint.new {
        let level = match l.severity.as_str() {
            "error" => "error",
            "warning" => "warning",
            _ => "notice",
        };
        note(level, Some(&l.path), &format!("new lint finding {}", l.rule), l.message.clone());
    }
    let _ = writeln!(o, "dsh-skills diff {} → {}: {}", esc(&d.base), esc(&d.head), {
        let h = headline(d);
        if h.is_empty() { "no skill changed".to_string() } else { h.join(", ") }
    });
    let _ = writeln!(o, "catalog: {}", size_line(d));
    o
}
