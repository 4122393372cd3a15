//! Human output for `list`, `show`, `catalog` (its statistics) and `explain`. Every string from
//! a skill file, a path or a YAML message passes through [`term::safe`] before it is shown.

use crate::analysis::explain::{self, Explanation, Verdict};
use crate::analysis::refs::{self, RefStatus};
use crate::engine::catalog::CatalogEntry;
use crate::engine::discover::{Candidate, Outcome, RootStatus, RootType, SilentReason};
use crate::engine::snapshot::{NoCatalog, Snapshot};
use crate::render::term::{Term, fit, safe};
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

/// `s` cut in the middle to at most `max` chars (`/home/me/…/skills/foo`), so both ends of a
/// path stay visible.
pub fn elide_middle(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max || max < 5 {
        return s.to_string();
    }
    let keep = max - 1;
    let head = keep / 2;
    let tail = keep - head;
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(n - tail).collect();
    format!("{start}…{end}")
}

/// `text` as lines of at most `width` columns (when there is a width), each starting with
/// `indent`, continuation lines with two more spaces; words longer than a line are elided in
/// the middle.
fn para(o: &mut String, indent: &str, text: &str, term: &Term) {
    let Some(width) = term.width else {
        let _ = writeln!(o, "{indent}{text}");
        return;
    };
    let first = width.saturating_sub(indent.chars().count()).max(20);
    let rest = first.saturating_sub(2).max(20);
    let mut line = String::new();
    let mut limit = first;
    let mut lines = Vec::new();
    for word in text.split(' ') {
        let word = elide_middle(word, limit);
        let (lw, ww) = (line.chars().count(), word.chars().count());
        if lw > 0 && lw + 1 + ww > limit {
            lines.push(std::mem::take(&mut line));
            limit = rest;
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    lines.push(line);
    for (i, l) in lines.iter().enumerate() {
        let _ = writeln!(o, "{indent}{}{l}", if i == 0 { "" } else { "  " });
    }
}

/// A shell command fitted to the width: long lines continue with ` \` so that a copied
/// command still runs as one; words are never cut.
fn shell_lines(o: &mut String, indent: &str, text: &str, term: &Term) {
    let Some(width) = term.width else {
        let _ = writeln!(o, "{indent}{text}");
        return;
    };
    let limit = width.saturating_sub(indent.chars().count() + 2).max(20);
    let mut line = String::new();
    let mut lines = Vec::new();
    for word in text.split(' ') {
        let (lw, ww) = (line.chars().count(), word.chars().count());
        if lw > 0 && lw + 1 + ww > limit {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    let last = lines.len() - 1;
    for (i, l) in lines.iter().enumerate() {
        let cont = if i < last { " \\" } else { "" };
        let _ = writeln!(o, "{indent}{}{l}{cont}", if i == 0 { "" } else { "  " });
    }
}

/// The UTF-16 length of `s` after the catalog's whitespace collapse and trim, counted without
/// building the collapsed string.
fn collapsed_utf16_len(s: &str) -> usize {
    let (mut n, mut pending_space, mut started) = (0, false, false);
    for c in s.chars() {
        if crate::engine::js::is_js_whitespace(c) {
            pending_space = started;
        } else {
            if pending_space {
                n += 1;
                pending_space = false;
            }
            n += c.len_utf16();
            started = true;
        }
    }
    n
}

/// Model-invocable winners whose description the catalog cuts: (name, normalized length in
/// UTF-16 units, units lost).
pub fn catalog_cuts(snap: &Snapshot) -> Vec<(String, usize, usize)> {
    let max = snap.description_max_length;
    snap.winners()
        .filter(|c| c.skill.invocation.model_invocable)
        // Collapsing whitespace only shrinks a description: one within the limit as written is
        // never cut (bytes bound UTF-16 units from above).
        .filter(|c| c.skill.description.len() > max)
        .filter_map(|c| {
            let len = collapsed_utf16_len(&c.skill.description);
            (len > max).then(|| (c.skill.name.clone(), len, len - (max - 3)))
        })
        .collect()
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

/// One problem `list` shows: a file the harness skips (with or without a word), a file it
/// ignores silently (`skill.md`, a skill nested too deep, a wrong suffix) or a failure.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Problem {
    /// The file or folder, as the harness spells it.
    pub path: String,
    /// What happens to it (`skipped: …`, `ignored silently: …`, `not read: …`).
    #[serde(rename = "what")]
    pub words: String,
    /// The harness's log line, when it writes one (null: it says nothing).
    #[serde(rename = "harnessLog")]
    pub log: Option<String>,
    /// How to fix it, when there is a fix.
    pub fix: Option<String>,
}

/// Every problem of the snapshot, in root order: the human view's `Problems` and
/// `list --format json`'s `problems`.
pub fn problems(snap: &Snapshot) -> Vec<Problem> {
    let mut out = Vec::new();
    for (_, scan) in snap.scans() {
        for r in &scan.roots {
            for e in &r.entries {
                let path = e.locator.clone().unwrap_or_else(|| e.path.clone());
                match &e.outcome {
                    Outcome::Warned { warning, rejection } => {
                        let (words, fix) = match rejection.as_deref() {
                            Some(rej) => {
                                let (why, fix) = crate::analysis::explain::rejection_summary(rej);
                                (format!("skipped: {why}"), fix)
                            }
                            None => (
                                "skipped: not UTF-8 text (or a NUL byte in its first 8 KiB)".to_string(),
                                Some("save it as UTF-8".to_string()),
                            ),
                        };
                        out.push(Problem { path, words, log: snap.warnings.get(*warning).cloned(), fix });
                    }
                    Outcome::Silent(SilentReason::Missing) if e.kind == crate::engine::nodefs::Kind::Directory => {
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
                    Outcome::Unreadable(what, why) => out.push(Problem {
                        path,
                        words: format!("not read: it is a {what} (the harness {})", why.harness()),
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
pub fn list(
    snap: &Snapshot,
    term: &Term,
    verbose: bool,
    config: &[String],
    unscanned: &crate::analysis::unscanned::Search,
) -> String {
    // Paths in tables get what the other columns leave (their widest cells plus padding).
    let path_room = |other: usize| term.width.map(|w| w.saturating_sub(other + 2));
    let mut o = String::new();
    if !snap.complete {
        let _ = writeln!(o, "{}", term.red("DISCOVERY IS INCOMPLETE: the model sees no skill catalog at all."));
        for (name, e) in snap.provider_errors() {
            let _ = writeln!(o, "  skill provider \"{}\" failed: {}", safe(name), safe(e));
        }
        let _ = writeln!(o, "  The harness keeps no catalog for a fresh session until this is fixed.\n");
    }
    let cwd = snap.cwd.as_deref().map(safe).unwrap_or_else(|| "(none)".into());
    para(&mut o, "", &format!("{} {}", term.bold("Working directory"), cwd), term);
    para(&mut o, "", &format!("{}      {}", term.bold("Project root"), safe(&explain::project_root_words(snap))), term);
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
    // RANK, SOURCE, STATUS and SKILLS at their widest, each with two spaces of padding.
    let other: usize = (0..4)
        .map(|i| {
            rows.iter().map(|r| crate::render::term::visible_width(&r[i])).chain([[4, 6, 6, 6][i]]).max().unwrap_or(0)
                + 2
        })
        .sum();
    if let Some(room) = path_room(other) {
        for r in &mut rows {
            r[4] = elide_middle(&r[4], room);
        }
    }
    let _ = writeln!(o, "\n{}", term.bold("Roots, in scan order"));
    o.push_str(&table(&["RANK", "SOURCE", "STATUS", "SKILLS", "PATH"], rows, term));

    let winners: Vec<&Candidate> = snap.winners().collect();
    let cuts: std::collections::HashMap<String, usize> =
        catalog_cuts(snap).into_iter().map(|(n, _, lost)| (n, lost)).collect();
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
                    match cuts.get(&c.skill.name) {
                        Some(lost) => format!(
                            "{} {}",
                            term.yellow(&format!("[catalog cuts {lost}]")),
                            safe(&crate::engine::js::collapse_whitespace(&c.skill.description))
                        ),
                        None => safe(&crate::engine::js::collapse_whitespace(&c.skill.description)).into_owned(),
                    },
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
        let mut by_name: std::collections::HashMap<&str, Vec<&crate::engine::registry::Shadow>> = Default::default();
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
            let winner = winners.get(name).copied();
            // "    wins  100 project-dsh  " before the path.
            let room = |c: &Candidate| {
                term.width.map_or(usize::MAX, |w| w.saturating_sub(13 + c.rank.to_string().len() + c.source.len()))
            };
            if let Some(w) = winner {
                let path = elide_middle(&safe(&location(w)), room(w));
                let _ = writeln!(o, "    {} {} {}  {}", term.green("wins "), w.rank, w.source, path);
            }
            for s in &by_name[name] {
                let (l, w) = (&snap.candidates[s.loser], &snap.candidates[s.winner]);
                let path = elide_middle(&safe(&location(l)), room(l));
                let _ = writeln!(o, "    {} {} {}  {}", term.yellow("loses"), l.rank, l.source, path);
                para(&mut o, "          ", &term.dim(&safe(&explain::loss_reason(snap, l, w))), term);
            }
        }
    }

    let probs = problems(snap);
    if !probs.is_empty() {
        let _ = writeln!(o, "\n{}", term.bold(&format!("Problems ({})", probs.len())));
        for p in &probs {
            let _ = writeln!(o, "  {}", elide_middle(&safe(&p.path), term.width.map_or(usize::MAX, |w| w - 2)));
            para(&mut o, "    ", &safe(&p.words), term);
            if let Some(fix) = &p.fix {
                para(&mut o, "    ", &format!("{} {}", term.cyan("fix:"), safe(fix)), term);
            }
            if verbose && let Some(log) = &p.log {
                // A YAML error's excerpt and caret keep their lines, under the first.
                let (first, rest) = log.split_once('\n').unwrap_or((log, ""));
                para(&mut o, "    ", &format!("{} {}", term.dim("harness log:"), safe(first)), term);
                if !rest.trim().is_empty() {
                    let _ = writeln!(o, "      {}", crate::render::term::safe_lines(rest.trim_start_matches('\n'), 6));
                }
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

    let shown: Vec<&crate::analysis::unscanned::Folder> = unscanned.folders.iter().collect();
    if !shown.is_empty() || unscanned.stopped.is_some() {
        let total: usize = shown.iter().map(|f| f.skills.len()).sum();
        let _ = writeln!(
            o,
            "\n{}",
            term.bold(&format!(
                "Skill folders the harness does not scan for this directory ({}, {})",
                shown.len(),
                plural(total, "skill", "skills")
            ))
        );
        // Many folders (a collection, a marketplace): each on one line, the first few with
        // their fixes; --verbose shows every fix (JSON always carries everything).
        let brief = !verbose && shown.len() > UNSCANNED_IN_FULL;
        if brief {
            for f in shown.iter().take(UNSCANNED_IN_FULL) {
                let count = plural(f.skills.len(), "skill", "skills");
                let room = term.width.map_or(usize::MAX, |w| w.saturating_sub(4 + count.len()).max(10));
                let _ = writeln!(o, "  {}  {}", elide_middle(&safe(&f.path), room), term.dim(&count));
            }
            if shown.len() > UNSCANNED_IN_FULL {
                let _ = writeln!(
                    o,
                    "  {}",
                    term.dim(&format!(
                        "and {} more folders (--verbose lists them all, --format json too)",
                        shown.len() - UNSCANNED_IN_FULL
                    ))
                );
            }
            let open = shown.iter().filter(|f| !f.intentional).count();
            if open > 0 {
                let _ = writeln!(o, "  {} (any one; --verbose prints each folder's own fixes)", term.cyan("fix:"));
                para(
                    &mut o,
                    "    ",
                    "add the folders to `customSkillDirs` in the skill-filesystem row (`dsh-skills lint` prints the \
                     exact list), or preview them as installed with `dsh-skills --root DIR list`, one --root per folder",
                    term,
                );
            }
        }
        for f in shown.iter().filter(|_| !brief) {
            let _ = writeln!(o, "  {}", elide_middle(&safe(&f.path), term.width.map_or(usize::MAX, |w| w - 2)));
            let mut holds = format!("holds {}", safe(&f.holds()));
            if f.intentional {
                holds.push_str(" (declared intentional in the lint configuration)");
            }
            para(&mut o, "    ", &holds, term);
            para(&mut o, "    ", &format!("ignored: {}", safe(&f.why)), term);
            let _ = writeln!(o, "    {} (any one)", term.cyan("fix:"));
            for (label, text, command) in f.fixes() {
                let line = format!("{label}: {}", safe(&text));
                if command {
                    shell_lines(&mut o, "      ", &line, term);
                } else {
                    para(&mut o, "      ", &line, term);
                }
            }
        }
        if let Some(note) = &unscanned.stopped {
            para(&mut o, "  ", &format!("{} {}", term.dim("note:"), safe(note)), term);
        }
    }

    if !config.is_empty() {
        let _ = writeln!(o, "\n{}", term.bold("Configuration"));
        for line in config {
            let text = safe(line);
            let indent: String = text.chars().take_while(|c| *c == ' ').collect();
            para(&mut o, &format!("  {indent}"), text.trim_start(), term);
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
    if !cuts.is_empty() {
        let _ = write!(summary, "; {} cut by the catalog", plural(cuts.len(), "description", "descriptions"));
    }
    let open: Vec<&&crate::analysis::unscanned::Folder> = shown.iter().filter(|f| !f.intentional).collect();
    if !open.is_empty() {
        let n: usize = open.iter().map(|f| f.skills.len()).sum();
        let _ = write!(
            summary,
            "; {} in {} the harness does not scan",
            plural(n, "skill", "skills"),
            plural(open.len(), "folder", "folders")
        );
    }
    if !snap.complete {
        summary.push_str("; discovery incomplete: no catalog");
    }
    o.push('\n');
    para(&mut o, "", &summary, term);
    o
}

/// Unscanned folders shown with their fixes before `list` switches to one line each.
const UNSCANNED_IN_FULL: usize = 8;

fn location(c: &Candidate) -> String {
    c.path.clone().unwrap_or_else(|| format!("(provider {})", c.provider))
}

/// `show` in human format: the winning copy `c`; `found` are its references and where they land
/// ([`refs::of_candidate`]).
pub fn show(snap: &Snapshot, c: &Candidate, found: &[(refs::Reference, RefStatus)], term: &Term) -> String {
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
    let size = crate::analysis::tokens::ContentSize::of(c);
    let _ = writeln!(
        o,
        "  {}{} UTF-16 units, {} bytes, {} tokens ({}): the <skill_content> block the model receives",
        label(term, "size"),
        size.utf16_units,
        size.bytes,
        size.tokens,
        crate::analysis::tokens::TOKENIZER
    );
    if let Some(m) = c.skill.metadata.as_deref() {
        let json = serde_json::to_string(&crate::engine::yaml::ToJson::to_json(m)).unwrap_or_default();
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
    if !found.is_empty() {
        let _ = writeln!(o, "\n{}", term.bold("References in the body"));
        for (r, status) in found {
            let status = match status {
                RefStatus::Exists(kind) => term.green(&format!("ok ({kind})")),
                RefStatus::Missing => term.red("missing"),
                RefStatus::Outside => term.yellow("outside the bundle (exists; not opened)"),
                RefStatus::EscapesViaSymlink(real) => {
                    term.yellow(&format!("leaves the bundle through a symlink to {}", safe(real)))
                }
            };
            let _ = writeln!(o, "  line {:<4} {}  {} ({})", r.line, safe(&r.target), status, r.evidence.as_str());
        }
    }
    let _ = writeln!(o, "\n{}", term.bold("Body"));
    let body = if c.skill.content.is_empty() {
        "(empty)".to_string()
    } else {
        crate::render::term::safe_multiline(&c.skill.content)
    };
    let _ = writeln!(o, "{body}");
    o
}

/// Statistics about the catalog text, for stderr and JSON.
pub struct CatalogStats {
    pub entries: usize,
    pub utf16_units: usize,
    pub chars: usize,
    pub bytes: usize,
    /// `ceil(bytes / 4)`: a rough, tokenizer-free estimate (kept in JSON for old readers).
    pub tokens_estimate: usize,
    /// The exact count with the DeepSeek-V4 tokenizer ([`crate::analysis::tokens`]), when asked.
    pub tokens: Option<usize>,
    /// (name, normalized length, units lost)
    pub cut: Vec<(String, usize, usize)>,
    /// Winners hidden from the model by `disable-model-invocation`.
    pub hidden: Vec<String>,
}

/// `count_tokens`: load the tokenizer and count (only when the count is shown).
pub fn catalog_stats(
    snap: &Snapshot,
    text: Option<&str>,
    entries: Option<&[CatalogEntry]>,
    count_tokens: bool,
) -> CatalogStats {
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
        tokens: count_tokens.then(|| crate::analysis::tokens::count(text)),
        cut,
        hidden: snap.winners().filter(|c| !c.skill.invocation.model_invocable).map(|c| c.skill.name.clone()).collect(),
    }
}

pub fn catalog_stats_text(stats: &CatalogStats, max: usize, term: &Term) -> String {
    let mut o = String::new();
    let tokens = match stats.tokens {
        Some(n) => format!("{n} tokens ({})", crate::analysis::tokens::TOKENIZER),
        None => format!("about {} tokens (bytes / 4)", stats.tokens_estimate),
    };
    let _ = writeln!(
        o,
        "{} {}, {} UTF-16 units, {} bytes, {tokens}",
        term.dim("catalog:"),
        plural(stats.entries, "entry", "entries"),
        stats.utf16_units,
        stats.bytes,
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
        let _ = writeln!(
            o,
            "  {}",
            term.red("discovery is incomplete: a skill provider failed, so the harness publishes no catalog at all")
        );
        for (p, e) in &x.failures {
            para(&mut o, "    ", &format!("skill provider \"{}\" failed: {}", safe(p), safe(e)), term);
        }
        if !x.would_come_from.is_empty() {
            let _ = writeln!(o, "  once that is fixed, \"{name}\" would come from (highest rank first):");
            for (rank, source, path) in &x.would_come_from {
                let _ = writeln!(o, "    {rank} {source}  {}", safe(path));
            }
        }
    }
    if x.stories.is_empty() {
        let _ = writeln!(o, "\n  No root the harness scans for this directory has a skill named \"{name}\".");
        // A misspelling is the likeliest reason: the close names come first.
        if let Some(first) = x.close_names.first() {
            // A skipped file's name is not a skill name: only a loaded skill is offered to explain.
            let next = if first.contains(" (skipped") {
                String::new()
            } else {
                format!(
                    " ({})",
                    term.cyan(&format!("dsh-skills explain {}", safe(&crate::analysis::unscanned::sh(first))))
                )
            };
            let _ = writeln!(o, "  Did you mean {}?{next}", safe(&x.close_names.join(", ")));
        }
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
                let _ = writeln!(o, "    {} {}", term.dim("harness log:"), crate::render::term::safe_lines(log, 6));
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
            for d in x.unscanned_checked.iter().take(UNSCANNED_IN_FULL) {
                let _ = writeln!(o, "      {}", safe(d));
            }
            if x.unscanned_checked.len() > UNSCANNED_IN_FULL {
                let _ = writeln!(
                    o,
                    "      {}",
                    term.dim(&format!(
                        "and {} more (`--format json` lists them all)",
                        x.unscanned_checked.len() - UNSCANNED_IN_FULL
                    ))
                );
            }
        }
    }
    o
}

/// Why `catalog` printed nothing: one line per reason, for stderr.
pub fn no_catalog(s: &Snapshot, why: Option<NoCatalog>, no_tool_reason: Option<&str>) -> String {
    let mut lines: Vec<String> = Vec::new();
    match why {
        Some(NoCatalog::Incomplete) => {
            for (name, e) in s.provider_errors() {
                lines.push(format!(
                    "no catalog: skill provider \"{name}\" failed, so discovery is incomplete and the harness publishes nothing: {}",
                    crate::textsafe::safe(e)
                ));
            }
        }
        Some(NoCatalog::NoSkillTool) => lines.push(match no_tool_reason {
            Some(reason) => format!(
                "no catalog: the `skill` tool is not mounted ({}), so the model gets no catalog",
                crate::textsafe::safe(reason)
            ),
            None => "no catalog: the `skill` tool is not mounted in this configuration, so the model gets no catalog"
                .to_string(),
        }),
        Some(NoCatalog::NoModelInvocableSkill) => {
            let hidden = s.winners().filter(|c| !c.skill.invocation.model_invocable).count();
            lines.push(if hidden > 0 {
                format!(
                    "no catalog: every skill ({hidden}) sets disable-model-invocation, so the harness publishes no catalog"
                )
            } else {
                "no catalog: no skills were found, so the harness publishes no catalog".to_string()
            });
        }
        None => {}
    }
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapsed_length_matches_the_catalog() {
        for d in ["  a  b\n\tc ", "\u{feff}x\u{3000}y", "😀  😀", "", "   ", "plain"] {
            let want = crate::engine::js::collapse_whitespace(d).encode_utf16().count();
            assert_eq!(collapsed_utf16_len(d), want, "{d:?}");
        }
    }

    #[test]
    fn middle_elision() {
        assert_eq!(elide_middle("/a/b/c/d/e/f", 7), "/a/…e/f");
        assert_eq!(elide_middle("short", 7), "short");
    }

    #[test]
    fn tables_fit_and_trim() {
        let term = Term { color: false, width: Some(30) };
        let t = table(&["A", "B"], vec![vec!["x".into(), "a long description that will not fit".into()]], &term);
        assert!(t.lines().all(|l| l.chars().count() <= 30), "{t}");
        assert!(t.lines().all(|l| !l.ends_with(' ')));
        assert!(t.contains('…'));
    }
}
