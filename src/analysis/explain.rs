//! `explain <name>`: the whole resolution story of one skill name, as data.
//!
//! Every candidate with that frontmatter name in resolution order with the reason each loser
//! loses; near misses the author probably meant as this skill (files that failed to parse,
//! declare another name, `skill.md` instead of `SKILL.md`, nested one level too deep, a `.system`
//! entry, folders the harness does not scan for this cwd); where the winner ends up.

use crate::analysis::suggest::edit_distance;
use crate::engine::catalog::CatalogEntry;
use crate::engine::discover::{Candidate, EntryReport, Outcome, ProjectRootReason, ProviderScan, SilentReason};
use crate::engine::platform;
use crate::engine::skillfile::{self, MissingReason, NoFrontmatter, Rejection};
use crate::engine::snapshot::Snapshot;

/// Why one candidate wins or loses.
#[derive(Clone, Debug)]
pub enum Verdict {
    Winner,
    Loses { to: usize, reason: String },
}

#[derive(Clone, Debug)]
pub struct CandidateStory {
    /// Index into [`Snapshot::candidates`].
    pub index: usize,
    pub verdict: Verdict,
}

/// Something an author probably meant as this skill, and why it is not a candidate.
#[derive(Clone, Debug)]
pub struct NearMiss {
    pub path: String,
    /// Plain words: what is wrong and what the harness does.
    pub why: String,
    /// The harness's exact log line, when it logs one.
    pub log: Option<String>,
    /// How to fix it, when there is a mechanical answer.
    pub fix: Option<String>,
}

/// Where the winner ends up.
#[derive(Clone, Debug)]
pub struct Fate {
    /// The exact catalog line, or why the skill is not in the catalog.
    pub catalog: Result<CatalogLine, String>,
    pub user_invocable: bool,
}

#[derive(Clone, Debug)]
pub struct CatalogLine {
    pub line: String,
    /// When the description is cut: its normalized length and the text the model never sees.
    pub cut: Option<(usize, String)>,
    pub max: usize,
}

pub struct Explanation {
    pub name: String,
    pub stories: Vec<CandidateStory>,
    pub winner: Option<usize>,
    pub near_misses: Vec<NearMiss>,
    pub fate: Option<Fate>,
    /// Folders looked in that the harness does not scan, for the "what was searched" part.
    pub unscanned_checked: Vec<String>,
    /// When discovery is incomplete: the failures, by provider.
    pub failures: Vec<(String, String)>,
    /// When discovery is incomplete: the copies of this name found by a best-effort listing of
    /// the roots the failed provider could not finish, highest rank first (rank, source, path):
    /// where the name would come from once the failure is fixed.
    pub would_come_from: Vec<(u32, &'static str, String)>,
    /// When nothing has the name: the skill names close to it (a misspelling), closest first.
    pub close_names: Vec<String>,
}

pub fn explain(snap: &Snapshot, name: &str, env_home: &str) -> Explanation {
    let winner = snap.winners.iter().copied().find(|&i| snap.candidates[i].skill.name == name);
    let mut stories = Vec::new();
    // Which shadow entry each loser has (the first), looked up once per copy of the name.
    let mut shadow_of: std::collections::HashMap<usize, &crate::engine::registry::Shadow> = Default::default();
    for s in &snap.shadowed {
        shadow_of.entry(s.loser).or_insert(s);
    }
    for &i in &snap.resolution_order {
        let c = &snap.candidates[i];
        if c.skill.name != name {
            continue;
        }
        let verdict = match shadow_of.get(&i) {
            Some(s) => Verdict::Loses { to: s.winner, reason: loss_reason(snap, c, &snap.candidates[s.winner]) },
            None if Some(i) == winner => Verdict::Winner,
            // Won its layer but was replaced by a nearer layer.
            None => Verdict::Loses { to: winner.unwrap_or(i), reason: "a nearer registry layer replaced it".into() },
        };
        stories.push(CandidateStory { index: i, verdict });
    }
    // Cross-layer replacements come after the layer's own order; keep them with their name.
    let fate = winner.map(|w| fate(snap, &snap.candidates[w]));
    let mut near = Vec::new();
    // Candidates by (provider, output index), for entries that look like the name.
    let by_output: std::collections::HashMap<(usize, usize), &Candidate> =
        snap.candidates.iter().rev().map(|c| ((c.provider_order, c.local_order), c)).collect();
    for p in &snap.providers {
        if let crate::engine::snapshot::ProviderRun::Filesystem { scan, .. } = &p.run {
            near_misses_in_scan(&by_output, snap, p.order, scan, name, &mut near);
        }
    }
    let search = crate::analysis::unscanned::search(snap, env_home, &[]);
    for folder in &search.folders {
        near_misses_in_unscanned(folder, name, &mut near);
    }
    let failures: Vec<(String, String)> = snap.provider_errors().map(|(p, e)| (p.to_string(), e.to_string())).collect();
    let would_come_from = if failures.is_empty() { Vec::new() } else { best_effort_copies(snap, name) };
    Explanation {
        name: name.to_string(),
        stories,
        winner,
        near_misses: near,
        fate,
        unscanned_checked: search.checked,
        failures,
        would_come_from,
        // A skipped file of the very name is a near miss, not a misspelling.
        close_names: if winner.is_none() {
            let mut close = crate::analysis::suggest::suggestions(snap, name);
            close.retain(|c| c.split(' ').next() != Some(name));
            close
        } else {
            Vec::new()
        },
    }
}

/// Copies of `wanted` in the roots of failed providers, found by listing each root and
/// skipping whatever fails (the harness gives up on the first failure instead). Rank order.
fn best_effort_copies(snap: &Snapshot, wanted: &str) -> Vec<(u32, &'static str, String)> {
    let mut out = Vec::new();
    for p in &snap.providers {
        let crate::engine::snapshot::ProviderRun::Filesystem { scan, .. } = &p.run else { continue };
        if scan.error.is_none() {
            continue;
        }
        for c in scan.discarded.iter().filter(|c| c.skill.name == wanted) {
            if let Some(path) = &c.path {
                out.push((c.rank, c.source, path.clone()));
            }
        }
        for r in &scan.roots {
            if matches!(r.status, crate::engine::discover::RootStatus::Scanned) {
                continue;
            }
            let Ok(rd) = std::fs::read_dir(&r.root.path) else { continue };
            let mut names: Vec<String> =
                rd.flatten().filter_map(|d| d.file_name().to_str().map(str::to_string)).collect();
            names.sort();
            for n in names.into_iter().take(20_000) {
                let entry = platform::join(&r.root.path, &n);
                let file = match std::fs::metadata(&entry) {
                    Ok(m) if m.is_dir() => platform::join(&entry, "SKILL.md"),
                    Ok(m) if m.is_file() && n.ends_with(".md") => entry,
                    _ => continue,
                };
                if declared_name(&file).as_deref() == Some(wanted) && !out.iter().any(|(_, _, p)| p == &file) {
                    out.push((r.root.rank, r.root.source, file));
                }
            }
        }
    }
    out.sort_by_key(|(rank, _, _)| *rank);
    out
}

/// The label of an entry as it appears in its root: `foo/` for a bundle, `foo.md` for a file.
pub fn entry_label(snap: &Snapshot, c: &Candidate) -> String {
    let root = snap.root_path(c);
    match &c.path {
        Some(p) if Some(c.resource_base.as_str()) == root => basename(p),
        Some(_) => format!("{}/", basename(&c.resource_base)),
        None => c.provider.to_string(),
    }
}

fn basename(p: &str) -> String {
    p.trim_end_matches(platform::SEP).rsplit(platform::SEP).next().unwrap_or(p).to_string()
}

/// Why `l` loses to `w`, in words.
pub fn loss_reason(snap: &Snapshot, l: &Candidate, w: &Candidate) -> String {
    if l.layer != w.layer {
        let layer = |i: usize| snap.layer_names.get(i).cloned().unwrap_or_default();
        return format!(
            "the {} layer is nearer than the {} layer, and a nearer layer wins regardless of rank",
            layer(w.layer),
            layer(l.layer)
        );
    }
    let (lr, wr) = (snap.root_path(l), snap.root_path(w));
    if l.rank != w.rank {
        let mut s = format!("rank {} ({}) loses to rank {} ({})", l.rank, l.source, w.rank, w.source);
        if lr.is_some() && lr == wr {
            s.push_str(&format!("; the same directory is scanned twice, as {} and as {}", w.source, l.source));
        }
        return s;
    }
    if l.provider_order != w.provider_order {
        let mut s = format!(
            "same rank {}: provider \"{}\" is registered before provider \"{}\"",
            l.rank, w.provider, l.provider
        );
        if l.provider != w.provider && (&*l.provider == "dsh-badge" || &*w.provider == "dsh-badge") {
            s.push_str(" (registration order between the bundled root and the badge is implementation-defined)");
        }
        return s;
    }
    if l.root_index != w.root_index {
        return format!(
            "same rank {}: custom dir {} is listed before {}",
            l.rank,
            wr.unwrap_or_default(),
            lr.unwrap_or_default()
        );
    }
    format!(
        "same root: `{}` sorts after `{}` under {} collation",
        entry_label(snap, l),
        entry_label(snap, w),
        crate::engine::collate::describe(&snap.locale)
    )
}

fn fate(snap: &Snapshot, w: &Candidate) -> Fate {
    let catalog = if !snap.tool_visible {
        Err("the `skill` tool is not mounted in this configuration, so there is no catalog".to_string())
    } else if !snap.complete {
        Err("discovery is incomplete (a provider failed), so the harness publishes no catalog at all".to_string())
    } else if !w.skill.invocation.model_invocable {
        Err("not in the catalog: `disable-model-invocation` is set, so the model never sees it (a user can still type /name)".to_string())
    } else {
        let entry = CatalogEntry::new(&w.skill.name, &w.skill.description, snap.description_max_length);
        let cut = entry.is_cut().then(|| {
            let normalized = crate::engine::js::collapse_whitespace(&w.skill.description);
            let units: Vec<u16> = normalized.encode_utf16().collect();
            let kept = snap.description_max_length.saturating_sub(3);
            (units.len(), String::from_utf16_lossy(&units[kept.min(units.len())..]))
        });
        Ok(CatalogLine { line: entry.line(), cut, max: snap.description_max_length })
    };
    Fate { catalog, user_invocable: w.skill.invocation.user_invocable }
}

/// Is an entry stem close enough to the wanted name to be a likely typo or variant?
fn close(stem: &str, wanted: &str) -> bool {
    let norm = |s: &str| s.to_lowercase().replace(['_', ' ', '.'], "-");
    let (a, b) = (norm(stem), norm(wanted));
    a == b || edit_distance(&a, &b) <= (b.chars().count() / 4).clamp(1, 2)
}

fn stem(e: &EntryReport) -> &str {
    e.name.strip_suffix(".md").unwrap_or(&e.name)
}

/// A rejection in plain words, with a fix when there is a mechanical one.
pub fn rejection_summary(r: &Rejection) -> (String, Option<String>) {
    match r {
        Rejection::InvalidYaml { error, .. } => (
            match &error.pos {
                // YAML positions count from the line after the opening fence.
                Some(pos) => format!(
                    "its YAML frontmatter does not parse (line {}, column {}: {}), so the harness skips the file",
                    pos.line + 1,
                    pos.col,
                    error.message
                ),
                None => format!("its YAML frontmatter does not parse ({}), so the harness skips the file", error.message),
            },
            Some("quote values that contain `: ` or start with `[`, `{`, `*`, `&`, `!`, `%`, `@` or a backquote; indent with spaces, not tabs".into()),
        ),
        Rejection::Missing(MissingReason::Fences(NoFrontmatter::NoOpeningFence)) => (
            "it has no frontmatter: the first line must be exactly `---` (no BOM in the bundled root, no spaces, LF or CRLF endings)".into(),
            Some("start the file with a `---` line, the YAML, and a closing `---` line".into()),
        ),
        Rejection::Missing(MissingReason::Fences(NoFrontmatter::NoClosingFence)) => (
            "its frontmatter is never closed: no line after the first is exactly `---`".into(),
            Some("add a line `---` after the YAML".into()),
        ),
        Rejection::Missing(MissingReason::NotAMapping { shape, .. }) => {
            (format!("its frontmatter is {shape}, not a mapping of keys"), Some("write `name: …` and `description: …` lines".into()))
        }
        Rejection::RequiresNameAndDescription { .. } => (
            "`name` and `description` must both be non-empty strings".into(),
            Some("quote values YAML reads as numbers, booleans or null (`name: \"123\"`)".into()),
        ),
        Rejection::InvalidName { name, .. } => (
            format!("its name \"{}\" is not lowercase letters, digits and single hyphens", crate::textsafe::safe(name)),
            Some(format!("use `name: {}`", slug(name))),
        ),
        Rejection::InvalidInvocation { error, key, .. } => {
            let fix = skillfile::LEGACY_KEYS.iter().find(|(k, _)| k == key).map(|(k, canonical)| {
                if *k == "modelInvocable" {
                    format!("replace `{k}` with `{canonical}` and invert the value (`modelInvocable: false` is `disable-model-invocation: true`)")
                } else {
                    format!("rename `{k}` to `{canonical}`")
                }
            });
            (
                format!("its invocation frontmatter is rejected ({error})"),
                fix.or_else(|| Some(format!("write `{key}: true` or `{key}: false`"))),
            )
        }
    }
}

/// A valid skill name close to `s`: lowercase, other characters to hyphens, hyphens squeezed.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.trim().chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn near_misses_in_scan(
    by_output: &std::collections::HashMap<(usize, usize), &Candidate>,
    snap: &Snapshot,
    order: usize,
    scan: &ProviderScan,
    wanted: &str,
    out: &mut Vec<NearMiss>,
) {
    for r in &scan.roots {
        for e in &r.entries {
            let is_close = close(stem(e), wanted);
            let path = e.locator.clone().unwrap_or_else(|| e.path.clone());
            match &e.outcome {
                Outcome::Warned { warning, rejection } => {
                    let named = match rejection.as_deref() {
                        Some(Rejection::InvalidName { name, .. }) => close(name, wanted),
                        Some(Rejection::InvalidInvocation { .. }) => is_close,
                        _ => false,
                    };
                    if is_close || named {
                        let (why, fix) = match rejection.as_deref() {
                            Some(r) => rejection_summary(r),
                            None => (
                                "the file is not valid UTF-8 text (or holds a NUL byte), so the harness skips it"
                                    .into(),
                                Some("save it as UTF-8".into()),
                            ),
                        };
                        out.push(NearMiss { path, why, log: snap.warnings.get(*warning).cloned(), fix });
                    }
                }
                Outcome::Candidate(k) if is_close => {
                    let c = by_output.get(&(order, *k)).copied().or_else(|| scan.discarded.get(*k));
                    // A skill whose own name is close to the one asked for is what the user
                    // meant (a misspelling): it leads as a close name, never as a rename.
                    if let Some(c) = c.filter(|c| c.skill.name != wanted && !close(&c.skill.name, wanted)) {
                        out.push(NearMiss {
                            path,
                            why: format!(
                                "it declares `name: {}`, so it is the skill \"{}\" (the folder or file name does not count)",
                                c.skill.name, c.skill.name
                            ),
                            log: None,
                            fix: Some(format!("set `name: {wanted}` if this is meant to be {wanted}")),
                        });
                    }
                }
                Outcome::Silent(SilentReason::Missing) if e.kind == crate::engine::nodefs::Kind::Directory => {
                    out.extend(bundle_without_skill_md(e, Some(wanted)));
                }
                Outcome::Silent(SilentReason::NotAFile(what)) if is_close => out.push(NearMiss {
                    path,
                    why: format!("`SKILL.md` here is {what}, not a regular file; the harness skips it without a word"),
                    log: None,
                    fix: None,
                }),
                Outcome::Ignored if close(e.name.split('.').next().unwrap_or(""), wanted) => {
                    out.extend(wrong_suffix(e));
                }
                Outcome::SystemSkipped => system_entry(e, wanted, out),
                Outcome::Unreadable(what, unread) if is_close => out.push(NearMiss {
                    path,
                    why: format!("it is a {what}: the harness {}", unread.harness()),
                    log: None,
                    fix: None,
                }),
                Outcome::FailedProvider if is_close => out.push(NearMiss {
                    path,
                    why: "reading it failed in a way that makes the whole provider fail (no catalog at all)".into(),
                    log: None,
                    fix: None,
                }),
                _ => {}
            }
        }
    }
}

/// A bundle folder without `SKILL.md`: a wrongly cased file, or skills nested one level deeper.
/// With `wanted`, only what looks meant as that skill; without, everything found.
pub fn bundle_without_skill_md(e: &EntryReport, wanted: Option<&str>) -> Vec<NearMiss> {
    let mut out = Vec::new();
    let is_close = wanted.is_none_or(|w| close(stem(e), w));
    let Ok(rd) = std::fs::read_dir(&e.path) else { return out };
    let mut names: Vec<String> = rd.flatten().filter_map(|d| d.file_name().to_str().map(str::to_string)).collect();
    names.sort();
    for n in &names {
        let child = platform::join(&e.path, n);
        if is_close && n != "SKILL.md" && (n.eq_ignore_ascii_case("skill.md") || n.to_lowercase().starts_with("skill."))
        {
            out.push(NearMiss {
                path: child.clone(),
                why: format!("the harness opens exactly `SKILL.md`; `{n}` is found only on case-insensitive file systems (macOS, Windows), never on Linux"),
                log: None,
                fix: Some(format!("rename `{n}` to `SKILL.md`")),
            });
        }
        let nested = platform::join(&child, "SKILL.md");
        if std::fs::metadata(&nested).is_ok_and(|m| m.is_file()) {
            let meant = match wanted {
                None => true,
                Some(w) => close(n, w) || declared_name(&nested).as_deref() == Some(w),
            };
            if meant {
                out.push(NearMiss {
                    path: nested,
                    why: format!(
                        "nested one level too deep: the harness reads only <root>/<entry>/SKILL.md, so `{}/{n}/SKILL.md` is never found",
                        e.name
                    ),
                    log: None,
                    fix: Some({
                        let root = platform::dirname(&e.path);
                        let to = platform::join(&root, n);
                        if std::fs::symlink_metadata(&to).is_ok() {
                            format!("move `{}/{n}` directly into the root under a new name (`{n}` is taken there)", e.name)
                        } else {
                            format!("move it up into the root: `mv {} {}`", crate::analysis::unscanned::sh(&child), crate::analysis::unscanned::sh(&to))
                        }
                    }),
                });
            }
        }
    }
    out
}

/// A file the harness ignores because of its suffix, though it looks like a skill.
pub fn wrong_suffix(e: &EntryReport) -> Option<NearMiss> {
    let lower = e.name.to_lowercase();
    let looks_like_markdown = [".markdown", ".md", ".mdx", ".mkd"].iter().any(|s| lower.ends_with(s));
    (e.kind == crate::engine::nodefs::Kind::File && looks_like_markdown && !e.name.ends_with(".md")).then(|| NearMiss {
        path: e.path.clone(),
        why: "only files whose names end in `.md` (lowercase) are read; this one is ignored silently".into(),
        log: None,
        fix: Some(format!("rename it to `{}.md`", e.name.split('.').next().unwrap_or("skill"))),
    })
}

fn system_entry(e: &EntryReport, wanted: &str, out: &mut Vec<NearMiss>) {
    let direct = platform::join(&e.path, "SKILL.md");
    let mut found = Vec::new();
    if declared_name(&direct).as_deref() == Some(wanted) {
        found.push(direct);
    }
    if let Ok(rd) = std::fs::read_dir(&e.path) {
        for d in rd.flatten() {
            let p = platform::join(&platform::join(&e.path, &d.file_name().to_string_lossy()), "SKILL.md");
            if close(&d.file_name().to_string_lossy(), wanted) || declared_name(&p).as_deref() == Some(wanted) {
                found.push(p);
            }
        }
    }
    for p in found {
        out.push(NearMiss {
            path: p,
            why: "the harness skips the `.system` entry of ~/.dsh/skills (a relic of its old system-skill layout), and never reads two levels deep".into(),
            log: None,
            fix: Some("move the skill folder directly into ~/.dsh/skills".into()),
        });
    }
}

/// The frontmatter `name` of a file, if it parses that far.
fn declared_name(path: &str) -> Option<String> {
    let text = crate::engine::textread::read_text_beside(path, 1 << 20)?;
    let fm = skillfile::split_frontmatter(text.trim_start_matches('\u{feff}')).ok()?;
    let parsed = crate::engine::yaml::parse(&text.trim_start_matches('\u{feff}')[fm.yaml]).ok()?;
    match parsed.value {
        crate::engine::yaml::Value::Object(o) => match o.get("name") {
            Some(crate::engine::yaml::Value::String(s)) => Some(s.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// Skills of an unscanned folder that look meant as `wanted`.
fn near_misses_in_unscanned(folder: &crate::analysis::unscanned::Folder, wanted: &str, out: &mut Vec<NearMiss>) {
    use crate::analysis::unscanned::sh;
    for entry in &folder.skills {
        let e = entry.trim_end_matches('/');
        let path = platform::join(&folder.path, e);
        let file = if entry.ends_with('/') { platform::join(&path, "SKILL.md") } else { path.clone() };
        let s = e.strip_suffix(".md").unwrap_or(e);
        if !(close(s, wanted) || declared_name(&file).as_deref() == Some(wanted)) {
            continue;
        }
        let target = &folder.remedy.target_root;
        let link = crate::analysis::unscanned::relative(target, &path);
        // A collection's folder stays where it is: previewed or added as a custom dir.
        let fix = if folder.place == crate::analysis::unscanned::Place::Collection {
            format!(
                "add the folder as a custom dir (`customSkillDirs`; preview with `dsh-skills --root {} explain {}`); \
                 or link it: `mkdir -p {t} && ln -s {l} {t}/`",
                sh(&folder.path),
                sh(wanted),
                t = sh(target),
                l = sh(&link),
            )
        } else {
            format!(
                "move it: `mkdir -p {t} && mv {p} {t}/`; or link it: `ln -s {l} {t}/`; or add the folder as a custom \
                 dir (`customSkillDirs`, preview with `{}`)",
                folder.remedy.custom_dir_flag,
                t = sh(target),
                p = sh(&path),
                l = sh(&link),
            )
        };
        out.push(NearMiss {
            path: file,
            why: format!(
                "`{}` is not a root the harness scans for this working directory: {}",
                folder.path, folder.why
            ),
            log: None,
            fix: Some(fix),
        });
    }
}

/// The project root and why, in words.
pub fn project_root_words(snap: &Snapshot) -> String {
    match &snap.project_root {
        None => "no session cwd: project roots are not scanned".into(),
        Some((root, ProjectRootReason::Git { marker, kind })) => {
            format!("{root} (nearest ancestor with .git: {marker} is a {kind})")
        }
        Some((root, ProjectRootReason::NoGitAbove)) => {
            format!("{root} (no .git in any ancestor, so the cwd itself is the project root)")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slug("My_Skill Name"), "my-skill-name");
        assert_eq!(slug("--A--b--"), "a-b");
        assert_eq!(slug("foo\n"), "foo");
    }

    #[test]
    fn closeness() {
        assert!(close("pdf_tools", "pdf-tools"));
        assert!(close("PDF-Tools", "pdf-tools"));
        assert!(close("pdf-tool", "pdf-tools"));
        assert!(!close("deploy", "pdf-tools"));
    }
}
