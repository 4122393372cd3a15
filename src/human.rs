//! Human output for `list`, `show`, `catalog` (its statistics) and `explain`. Every string from
//! a skill file, a path or a YAML message passes through [`term::safe`] before it is shown.

use crate::catalog::CatalogEntry;
use crate::discover::{Candidate, Outcome, RootStatus, RootType, SilentReason};
use crate::explain::{self, Explanation, Verdict};
use crate::refs::{self, RefStatus};
use crate::snapshot::Snapshot;
use crate::term::{Term, fit, safe};
use std::fmt::Write as _;
use tabled::builder::Builder;
use tabled::settings::peaker::Priority;
use tabled::settings::{Margin, Padding, Style, Width};

/// A borderless table indented by two spaces, fitted to the terminal width when there is one.
fn table(header: &[&str], rows: Vec<Vec<String>>, term: &Term) -> String {
    let mut b = Builder::new();
    b.push_record(header.iter().map(|h| term.bold(h)));
    for r in rows {
        b.push_record(r);
    }
    let mut t = b.build();
    t.with(Style::empty()).with(Padding::new(0, 2, 0, 0)).with(Margin::new(2, 0, 0, 0));
    if let Some(w) = term.width {
        t.with(Width::truncate(w).priority(Priority::max(true)).suffix("…"));
    }
    let s = t.to_string();
    let mut out: String = s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    out.push('\n');
    out
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// What happened to a root, in a word or two.
fn root_status(status: &RootStatus, root_type: &RootType) -> String {
    match status {
        RootStatus::Scanned => "scanned".into(),
        RootStatus::Absent => match root_type {
            RootType::Missing => "missing".into(),
            RootType::File => "not a directory".into(),
            RootType::Other => "not a directory".into(),
            RootType::Error(code) => format!("failed ({code})"),
            RootType::Directory => "empty".into(),
        },
        RootStatus::Failed => "FAILED".into(),
        RootStatus::NotReached => "not reached".into(),
    }
}

/// One problem: a file the harness skips (with or without a word) or a failure.
struct Problem {
    path: String,
    words: String,
    log: Option<String>,
    fix: Option<String>,
}

fn problems(snap: &Snapshot) -> Vec<Problem> {
    let mut out = Vec::new();
    for (_, scan) in snap.scans() {
        for r in &scan.roots {
            for e in &r.entries {
                let path = e.locator.clone().unwrap_or_else(|| e.path.clone());
                match &e.outcome {
                    Outcome::Warned { warning, rejection } => {
                        let (words, fix) = match rejection.as_deref() {
                            Some(rej) => {
                                let (why, fix) = crate::explain::rejection_summary(rej);
                                (format!("skipped: {why}"), fix)
                            }
                            None => (
                                "skipped: not UTF-8 text (or a NUL byte in its first 8 KiB)".to_string(),
                                Some("save it as UTF-8".to_string()),
                            ),
                        };
                        out.push(Problem { path, words, log: snap.warnings.get(*warning).cloned(), fix });
                    }
                    Outcome::Silent(SilentReason::Missing) if e.kind == crate::nodefs::Kind::Directory => {
                        for m in explain::bundle_without_skill_md(e, None) {
                            out.push(Problem {
                                path: m.path,
                                words: format!("ignored silently: {}", m.why),
                                log: None,
                                fix: m.fix,
                            });
                        }
                    }
                    Outcome::Ignored => {
                        if let Some(m) = explain::wrong_suffix(e) {
                            out.push(Problem { path: m.path, words: m.why, log: None, fix: m.fix });
                        }
                    }
                    Outcome::Silent(SilentReason::NotAFile(what)) => out.push(Problem {
                        path,
                        words: format!("skipped silently: SKILL.md is {what}, not a regular file"),
                        log: None,
                        fix: None,
                    }),
                    Outcome::Unreadable(what) => out.push(Problem {
                        path,
                        words: format!("not read: it is a {what} (the harness would block on it)"),
                        log: None,
                        fix: None,
                    }),
                    Outcome::FailedProvider => out.push(Problem {
                        path,
                        words: "reading it failed: the whole provider fails, so the model gets no catalog".into(),
                        log: None,
                        fix: None,
                    }),
                    _ => {}
                }
            }
            if r.status == RootStatus::Failed {
                out.push(Problem {
                    path: r.root.path.clone(),
                    words: "listing this root failed: the whole provider fails, so the model gets no catalog".into(),
                    log: None,
                    fix: None,
                });
            }
            for n in &r.non_utf8 {
                out.push(Problem {
                    path: format!("{}/{}", r.root.path, n.raw_name.to_string_lossy()),
                    words: "ignored: the file name is not valid UTF-8, so the harness cannot open it".into(),
                    log: None,
                    fix: None,
                });
            }
        }
    }
    out
}

/// `list` in human format.
/// `config` is the configuration block (settings and where each came from), shown before the
/// summary line.
pub fn list(snap: &Snapshot, term: &Term, verbose: bool, config: &[String]) -> String {
    let mut o = String::new();
    if !snap.complete {
        let _ = writeln!(o, "{}", term.red("DISCOVERY IS INCOMPLETE: the model sees no skill catalog at all."));
        for (name, e) in snap.provider_errors() {
            let _ = writeln!(o, "  skill provider \"{}\" failed: {}", safe(name), safe(e));
        }
        let _ = writeln!(o, "  The harness keeps no catalog for a fresh session until this is fixed.\n");
    }
    let _ = writeln!(
        o,
        "{} {}",
        term.bold("Working directory"),
        snap.cwd.as_deref().map(safe).unwrap_or_else(|| "(none)".into())
    );
    let _ = writeln!(o, "{}      {}", term.bold("Project root"), safe(&explain::project_root_words(snap)));
    if snap.layer_names.len() > 1 {
        let _ = writeln!(o, "{}    {}", term.bold("Registry layers"), snap.layer_names.join(", "));
    }

    let mut rows = Vec::new();
    let mut scanned_roots = 0;
    for (_, scan) in snap.scans() {
        for r in &scan.roots {
            let skills = r.entries.iter().filter(|e| matches!(e.outcome, Outcome::Candidate(_))).count();
            if r.status == RootStatus::Scanned {
                scanned_roots += 1;
            }
            let status = root_status(&r.status, &r.root_type);
            let status = match r.status {
                RootStatus::Scanned => term.green(&status),
                RootStatus::Failed => term.red(&status),
                _ => term.dim(&status),
            };
            rows.push(vec![
                r.root.rank.to_string(),
                r.root.source.to_string(),
                status,
                if r.status == RootStatus::Scanned { skills.to_string() } else { "-".into() },
                safe(&r.root.path).into_owned(),
            ]);
        }
    }
    let _ = writeln!(o, "\n{}", term.bold("Roots, in scan order"));
    o.push_str(&table(&["RANK", "SOURCE", "STATUS", "SKILLS", "PATH"], rows, term));

    let winners: Vec<&Candidate> = snap.winners().collect();
    let _ = writeln!(o, "\n{}", term.bold(&format!("Skills ({}), in catalog order", winners.len())));
    if winners.is_empty() {
        let _ = writeln!(o, "  (none)");
    } else {
        let rows = winners
            .iter()
            .map(|c| {
                vec![
                    safe(&c.skill.name).into_owned(),
                    c.source.to_string(),
                    yes_no(c.skill.invocation.model_invocable).into(),
                    yes_no(c.skill.invocation.user_invocable).into(),
                    safe(&crate::js::collapse_whitespace(&c.skill.description)).into_owned(),
                ]
            })
            .collect();
        o.push_str(&table(&["NAME", "SOURCE", "MODEL", "USER", "DESCRIPTION"], rows, term));
    }

    if !snap.shadowed.is_empty() {
        let _ = writeln!(o, "\n{}", term.bold(&format!("Shadowed ({})", snap.shadowed.len())));
        // Each name once, in order of first appearance, with its shadowed copies: one pass, so
        // a tree of thousands of duplicates stays linear.
        let mut names: Vec<&str> = Vec::new();
        let mut by_name: std::collections::HashMap<&str, Vec<&crate::registry::Shadow>> = Default::default();
        for s in &snap.shadowed {
            let n = snap.candidates[s.loser].skill.name.as_str();
            let copies = by_name.entry(n).or_default();
            if copies.is_empty() {
                names.push(n);
            }
            copies.push(s);
        }
        let mut winners: std::collections::HashMap<&str, &Candidate> = Default::default();
        for c in snap.winners() {
            winners.entry(c.skill.name.as_str()).or_insert(c);
        }
        for name in names {
            let _ = writeln!(o, "  {}", term.bold(&safe(name)));
            let winner = winners.get(name);
            if let Some(w) = winner {
                let _ = writeln!(o, "    {} {} {}  {}", term.green("wins "), w.rank, w.source, safe(&location(w)));
            }
            for s in &by_name[name] {
                let (l, w) = (&snap.candidates[s.loser], &snap.candidates[s.winner]);
                let _ = writeln!(o, "    {} {} {}  {}", term.yellow("loses"), l.rank, l.source, safe(&location(l)));
                let _ = writeln!(o, "          {}", term.dim(&safe(&explain::loss_reason(snap, l, w))));
            }
        }
    }

    let probs = problems(snap);
    if !probs.is_empty() {
        let _ = writeln!(o, "\n{}", term.bold(&format!("Problems ({})", probs.len())));
        for p in &probs {
            let _ = writeln!(o, "  {}", safe(&p.path));
            let _ = writeln!(o, "    {}", safe(&p.words));
            if let Some(fix) = &p.fix {
                let _ = writeln!(o, "    {} {}", term.cyan("fix:"), safe(fix));
            }
            if verbose && let Some(log) = &p.log {
                let _ = writeln!(o, "    {} {}", term.dim("harness log:"), safe(log));
            }
        }
        if !verbose && probs.iter().any(|p| p.log.is_some()) {
            let _ = writeln!(o, "  {}", term.dim("(--verbose shows the harness's exact log line for each)"));
        }
    }
    let notes: Vec<&String> = snap.scans().flat_map(|(_, s)| &s.notes).collect();
    for n in notes {
        let _ = writeln!(o, "  {} {}", term.dim("note:"), safe(n));
    }

    if !config.is_empty() {
        let _ = writeln!(o, "\n{}", term.bold("Configuration"));
        for line in config {
            let _ = writeln!(o, "  {}", safe(line));
        }
    }

    let skipped = probs.len();
    let hidden = winners.iter().filter(|c| !c.skill.invocation.model_invocable).count();
    let mut summary = format!(
        "{} from {}; {} shadowed; {} skipped",
        plural(winners.len(), "skill", "skills"),
        plural(scanned_roots, "root", "roots"),
        snap.shadowed.len(),
        plural(skipped, "file", "files"),
    );
    if hidden > 0 {
        let _ = write!(summary, "; {hidden} hidden from the model");
    }
    if !snap.complete {
        summary.push_str("; discovery incomplete: no catalog");
    }
    let _ = writeln!(o, "\n{summary}");
    o
}

fn location(c: &Candidate) -> String {
    c.path.clone().unwrap_or_else(|| format!("(provider {})", c.provider))
}

/// `show` in human format.
pub fn show(snap: &Snapshot, c: &Candidate, term: &Term) -> String {
    let mut o = String::new();
    let label = |t: &Term, s: &str| t.bold(&format!("{s:<14}"));
    let _ = writeln!(o, "{}", term.bold(&safe(&c.skill.name)));
    let _ = writeln!(o, "  {}{} (rank {})", label(term, "source"), c.source, c.rank);
    if let Some(p) = &c.path {
        let _ = writeln!(o, "  {}{}", label(term, "path"), safe(p));
    }
    let _ = writeln!(o, "  {}{}", label(term, "provider"), safe(&c.provider));
    let _ = writeln!(o, "  {}{}", label(term, "resource base"), safe(&c.resource_base));
    let inv = c.skill.invocation;
    let model = if !inv.model_invocable {
        "no: disable-model-invocation is set, so it is not in the catalog".to_string()
    } else if snap.complete && snap.tool_visible {
        "yes: listed in the catalog; the model loads it with the `skill` tool".to_string()
    } else {
        "yes, but there is no catalog right now (discovery incomplete or no skill tool)".to_string()
    };
    let user = if inv.user_invocable {
        format!("yes: typing /{} injects it", c.skill.name)
    } else {
        format!("no: user-invocable is false, so /{} stays plain text", c.skill.name)
    };
    let _ = writeln!(o, "  {}{}", label(term, "model"), model);
    let _ = writeln!(o, "  {}{}", label(term, "user"), user);
    let _ = writeln!(o, "  {}{}", label(term, "description"), safe(&c.skill.description));
    if inv.model_invocable {
        let entry = CatalogEntry::new(&c.skill.name, &c.skill.description, snap.description_max_length);
        if entry.is_cut() {
            let _ = writeln!(
                o,
                "  {}{}",
                label(term, ""),
                term.yellow(&format!(
                    "the catalog cuts it to {} of {} UTF-16 units",
                    snap.description_max_length, entry.normalized_len
                ))
            );
        }
    }
    if let Some(w) = &c.skill.when_to_use {
        let _ = writeln!(o, "  {}{}", label(term, "whenToUse"), safe(w));
    }
    if let Some(m) = &c.skill.metadata {
        let json = serde_json::to_string(&m.to_json()).unwrap_or_default();
        let _ = writeln!(o, "  {}{}", label(term, "metadata"), safe(&json));
    }
    let shadows: Vec<&Candidate> = snap
        .shadowed
        .iter()
        .filter(|s| snap.candidates[s.winner].skill.name == c.skill.name)
        .map(|s| &snap.candidates[s.loser])
        .collect();
    for l in shadows {
        let _ = writeln!(o, "  {}{} ({}, rank {})", label(term, "shadows"), safe(&location(l)), l.source, l.rank);
    }
    let found = refs::find(&c.skill.content);
    if !found.is_empty() {
        let _ = writeln!(o, "\n{}", term.bold("References in the body"));
        for r in found {
            let status = match refs::check(&c.resource_base, &r.target) {
                RefStatus::Exists(kind) => term.green(&format!("ok ({kind})")),
                RefStatus::Missing => term.red("missing"),
                RefStatus::Outside => term.yellow("outside the bundle (not opened)"),
                RefStatus::EscapesViaSymlink(real) => {
                    term.yellow(&format!("leaves the bundle through a symlink to {}", safe(&real)))
                }
            };
            let _ = writeln!(o, "  line {:<4} {}  {}", r.line, safe(&r.target), status);
        }
    }
    let _ = writeln!(o, "\n{}", term.bold("Body"));
    let body =
        if c.skill.content.is_empty() { "(empty)".to_string() } else { crate::term::safe_multiline(&c.skill.content) };
    let _ = writeln!(o, "{body}");
    o
}

/// Statistics about the catalog text, for stderr and JSON.
pub struct CatalogStats {
    pub entries: usize,
    pub utf16_units: usize,
    pub chars: usize,
    pub bytes: usize,
    /// `ceil(bytes / 4)`: a rough, tokenizer-free estimate.
    pub tokens_estimate: usize,
    /// (name, normalized length, units lost)
    pub cut: Vec<(String, usize, usize)>,
    /// Winners hidden from the model by `disable-model-invocation`.
    pub hidden: Vec<String>,
}

pub fn catalog_stats(snap: &Snapshot, text: Option<&str>, entries: Option<&[CatalogEntry]>) -> CatalogStats {
    let text = text.unwrap_or("");
    let bytes = text.len();
    let cut = entries
        .unwrap_or(&[])
        .iter()
        .filter(|e| e.is_cut())
        .map(|e| (e.name.clone(), e.normalized_len, e.normalized_len - (snap.description_max_length - 3)))
        .collect();
    CatalogStats {
        entries: entries.map_or(0, |e| e.len()),
        utf16_units: text.encode_utf16().count(),
        chars: text.chars().count(),
        bytes,
        tokens_estimate: bytes.div_ceil(4),
        cut,
        hidden: snap.winners().filter(|c| !c.skill.invocation.model_invocable).map(|c| c.skill.name.clone()).collect(),
    }
}

pub fn catalog_stats_text(stats: &CatalogStats, max: usize, term: &Term) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} {}, {} UTF-16 units, {} bytes, about {} tokens (bytes / 4)",
        term.dim("catalog:"),
        plural(stats.entries, "entry", "entries"),
        stats.utf16_units,
        stats.bytes,
        stats.tokens_estimate
    );
    for (name, len, lost) in &stats.cut {
        let _ = writeln!(
            o,
            "{} `{}`: description is {len} units; cut at {max}, {lost} units lost",
            term.yellow("cut:"),
            safe(name)
        );
    }
    for name in &stats.hidden {
        let _ = writeln!(o, "{} `{}`: disable-model-invocation is set", term.dim("not in catalog:"), safe(name));
    }
    o
}

/// `explain` in human format.
pub fn explain(snap: &Snapshot, x: &Explanation, term: &Term) -> String {
    let mut o = String::new();
    let name = safe(&x.name);
    let _ = writeln!(o, "{} {}", term.bold("Skill"), term.bold(&name));
    let _ = writeln!(o, "  {} {}", term.dim("project root"), safe(&explain::project_root_words(snap)));
    if !snap.complete {
        let _ = writeln!(o, "  {}", term.red("discovery is incomplete: the model sees no catalog at all"));
    }
    if x.stories.is_empty() {
        let _ = writeln!(o, "\n  No root the harness scans for this directory has a skill named \"{name}\".");
    } else {
        let _ = writeln!(o, "\n{}", term.bold("Candidates, in resolution order"));
        for (n, s) in x.stories.iter().enumerate() {
            let c = &snap.candidates[s.index];
            let verdict = match &s.verdict {
                Verdict::Winner => term.green("WINS"),
                Verdict::Loses { .. } => term.yellow("loses"),
            };
            let _ = writeln!(o, "  {}. {verdict}  {}", n + 1, safe(&location(c)));
            let _ = writeln!(
                o,
                "     rank {} ({}), provider \"{}\" #{}, entry #{} in its provider",
                c.rank,
                c.source,
                safe(&c.provider),
                c.provider_order,
                c.local_order
            );
            if let Verdict::Loses { reason, .. } = &s.verdict {
                let _ = writeln!(o, "     {}", safe(reason));
            }
        }
    }
    if let (Some(w), Some(f)) = (x.winner, &x.fate) {
        let c = &snap.candidates[w];
        let _ = writeln!(o, "\n{}", term.bold("What the model and the user get"));
        match &f.catalog {
            Ok(line) => {
                let _ = writeln!(o, "  in the catalog as:");
                let _ = writeln!(o, "    {}", safe(&line.line));
                if let Some((len, lost)) = &line.cut {
                    let _ = writeln!(
                        o,
                        "  {} the description is {len} UTF-16 units; the catalog keeps {} and adds \"...\". Never seen by the model:",
                        term.yellow("cut:"),
                        line.max - 3
                    );
                    let _ = writeln!(o, "    {}", safe(&fit(lost, 400)));
                }
            }
            Err(why) => {
                let _ = writeln!(o, "  {}", safe(why));
            }
        }
        let _ = writeln!(
            o,
            "  {}",
            if f.user_invocable {
                format!("/{} works: a user can invoke it directly", c.skill.name)
            } else {
                format!("/{} does nothing: user-invocable is false", c.skill.name)
            }
        );
    }
    if !x.near_misses.is_empty() {
        let _ = writeln!(o, "\n{}", term.bold("Near misses (not candidates)"));
        for m in &x.near_misses {
            let _ = writeln!(o, "  {}", safe(&m.path));
            let _ = writeln!(o, "    {}", safe(&m.why));
            if let Some(fix) = &m.fix {
                let _ = writeln!(o, "    {} {}", term.cyan("fix:"), safe(fix));
            }
            if let Some(log) = &m.log {
                let _ = writeln!(o, "    {} {}", term.dim("harness log:"), safe(log));
            }
        }
    }
    if x.winner.is_none() {
        let _ = writeln!(o, "\n{}", term.bold("Searched"));
        for (_, scan) in snap.scans() {
            for r in &scan.roots {
                let _ = writeln!(
                    o,
                    "  {:>3} {:<15}{}  ({})",
                    r.root.rank,
                    r.root.source,
                    safe(&r.root.path),
                    root_status(&r.status, &r.root_type)
                );
            }
        }
        if !x.unscanned_checked.is_empty() {
            let _ = writeln!(o, "  also looked in folders the harness does not scan here:");
            for d in &x.unscanned_checked {
                let _ = writeln!(o, "      {}", safe(d));
            }
        }
        let close = crate::commands::suggestions(snap, &x.name);
        if !close.is_empty() {
            let _ = writeln!(o, "  close names: {}", safe(&close.join(", ")));
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_fit_and_trim() {
        let term = Term { color: false, width: Some(30) };
        let t = table(&["A", "B"], vec![vec!["x".into(), "a long description that will not fit".into()]], &term);
        assert!(t.lines().all(|l| l.chars().count() <= 30), "{t}");
        assert!(t.lines().all(|l| !l.ends_with(' ')));
        assert!(t.contains('…'));
    }
}
