//! Skill folders the harness does not scan for this working directory: other agents' folders
//! (`.claude/skills`, `.codex/skills`, …) at the project root and in the homes, a top-level
//! `skills/`, `.agents/skills` and `.dsh/skills` of monorepo packages below the project root, of
//! ancestors above it, and of parents of the cwd that are not the project root, and every other
//! folder of the project that holds skill folders (collections, plugin marketplaces, category
//! folders: [`Place::Collection`]).
//!
//! Below the project root the search is [`tree::scan`](super::tree::scan): every skill folder at
//! any depth, `.gitignore` respected, build, dependency and version-control folders and the
//! roots the harness scans not entered, bounded by an entry budget (it says so when it stops). Each folder found says how many skills it holds, why
//! the harness ignores it, and how to fix that (move, link, or add it as a custom dir).
//! Pure observation: nothing here writes.

use crate::engine::platform;
use crate::engine::snapshot::Snapshot;
use serde::Serialize;
use std::collections::BTreeSet;

/// Skill entries named per folder in human output before "and N more".
pub const SHOWN_SKILLS: usize = 5;
/// A collection's folder with at most this many skills is also offered links, one per skill.
pub const LINKED_AT_MOST: usize = 10;

/// Folders other agents read at a project root (and the agent), from
/// `guides/peer-discovery.md`.
pub const PROJECT_FOLDERS: &[(&str, &str)] = &[
    (".claude/skills", "Claude Code"),
    (".codex/skills", "Codex"),
    (".opencode/skills", "OpenCode"),
    (".opencode/skill", "OpenCode"),
    (".cursor/skills", "Cursor"),
    (".github/skills", "GitHub Copilot"),
    (".gemini/skills", "Gemini CLI"),
    (".kimi/skills", "Kimi CLI"),
    (".goose/skills", "Goose"),
    (".agent/skills", "openskills"),
    ("skills", "no agent (a top-level folder)"),
];

/// Folders other agents read in the home directory.
pub const HOME_FOLDERS: &[(&str, &str)] = &[
    (".claude/skills", "Claude Code"),
    (".codex/skills", "Codex"),
    (".config/opencode/skills", "OpenCode"),
    (".config/opencode/skill", "OpenCode"),
    (".cursor/skills", "Cursor"),
    (".copilot/skills", "GitHub Copilot"),
    (".gemini/skills", "Gemini CLI"),
    (".kimi/skills", "Kimi CLI"),
    (".config/agents/skills", "Kimi CLI"),
    (".config/goose/skills", "Goose"),
    (".agent/skills", "openskills"),
];

/// Where an unscanned folder is, relative to what the harness scans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    /// Another agent's folder (or a top-level `skills/`) in the project root or a parent of the
    /// cwd below it.
    OtherAgent,
    /// Another agent's folder in the home directory.
    HomeOtherAgent,
    /// `.agents/skills` or `.dsh/skills` of a directory below the project root.
    BelowProject,
    /// `.agents/skills` or `.dsh/skills` of an ancestor above the project root.
    AboveProject,
    /// `.agents/skills` or `.dsh/skills` of a parent of the cwd that is not the project root.
    ParentOfCwd,
    /// Any other folder of the project that holds skill folders: a collection's `skills/`,
    /// a plugin's `skills/`, a category folder, the project root itself.
    Collection,
}

/// How to make the harness find the skills of an unscanned folder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Remedy {
    /// The root the harness scans that the skills should go to.
    pub target_root: String,
    /// A shell command that moves them there.
    pub move_command: String,
    /// A shell command that links them there instead (the folder stays where it is).
    pub link_command: String,
    /// The dsh-skills flag that previews the folder as a custom dir.
    pub custom_dir_flag: String,
    /// The harness configuration that adds it as a custom dir (`customSkillDirs`).
    pub config_snippet: String,
    /// Entries of the folder that already exist in the target root (a move would clash).
    pub clashes: Vec<String>,
    /// The links `link_command` creates: `[link, target as written]`.
    pub links: Vec<[String; 2]>,
    /// Entries another folder's fix already brings to the same root: `[entry, that folder]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clashes_with: Vec<[String; 2]>,
    /// How many other folders' fixes go to the same root (planned together with this one).
    #[serde(skip_serializing_if = "is_zero")]
    pub planned_with: usize,
    /// Some entries are relative links: `move_command` makes them again in the target instead
    /// of moving them (moved as they are, they would point elsewhere).
    #[serde(skip)]
    pub relative_links: bool,
    /// The links of one folder alone, skill by skill, are still to be made (with the target's
    /// `mkdir -p` first when true): made once the search knows whether the folder's fix is
    /// planned with others' ([`plan_together`]), which would make them again.
    #[serde(skip)]
    per_skill_links: Option<bool>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One folder with skill-like content that the harness does not scan.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Folder {
    pub path: String,
    pub place: Place,
    /// The agent that reads this folder, when it is another agent's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<&'static str>,
    /// Entry names that look like skills (`name/` holding `SKILL.md`, `name.md` with a `---`
    /// first line), sorted.
    pub skills: Vec<String>,
    /// Why the harness ignores the folder for this cwd.
    pub why: String,
    pub remedy: Remedy,
    /// Declared intentional in the lint configuration (`unscanned-ok`).
    pub intentional: bool,
    /// Other `.md` files directly in the folder: the harness would log each as a skipped skill
    /// if the folder were made a root (`customSkillDirs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_markdown: Vec<String>,
}

/// What the search found and how far it went.
#[derive(Clone, Debug, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Search {
    pub folders: Vec<Folder>,
    /// Existing folders looked in (with or without skills), for `explain`.
    #[serde(skip)]
    pub checked: Vec<String>,
    /// Directories read below the project root.
    pub dirs_read: usize,
    /// Entries (files and folders) read below the project root.
    pub entries_read: usize,
    /// Folders below the project root not entered (version control, dependencies, build
    /// output), by name, with how many of each.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub skipped: std::collections::BTreeMap<String, usize>,
    /// Set when the walk below the project root stopped at its budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// The project root the walk started from.
    #[serde(skip)]
    pub project_root: Option<String>,
    /// Whether the project uses the harness (its root holds `.dsh/` or `.agents/skills/`):
    /// skills it does not scan are then a warning, and in a collection or marketplace a note.
    pub uses_harness: bool,
    /// Every skill folder below the project root outside the roots the harness scans (those
    /// of unscanned folders and the project root's own `SKILL.md` included), for lint.
    #[serde(skip)]
    pub tree: super::tree::Tree,
}

/// Search for the snapshot's cwd. `home` is `os.homedir()`; `intentional` holds absolute
/// folder paths declared on purpose.
pub fn search(snap: &Snapshot, home: &str, intentional: &[String]) -> Search {
    search_checked(snap, home, intentional, None)
}

/// [`search`], with `check` run on each skill folder below the project root as the walk finds
/// it ([`tree::scan_checked`](super::tree::scan_checked)).
pub fn search_checked(
    snap: &Snapshot,
    home: &str,
    intentional: &[String],
    check: Option<super::tree::SkillCheck>,
) -> Search {
    let scanned: BTreeSet<String> =
        snap.scans().flat_map(|(_, s)| s.roots.iter().map(|r| r.root.path.clone())).collect();
    let root_of = |source: &str| {
        snap.scans().flat_map(|(_, s)| s.roots.iter()).find(|r| r.root.source == source).map(|r| r.root.path.clone())
    };
    let project_target = root_of("project-agents");
    let user_target = root_of("user-agents");
    let mut s = Search::default();
    // Every skill folder below the project root, the roots the harness scans left out.
    let project = snap.cwd.as_ref().and(snap.project_root.as_ref()).map(|(p, _)| p.clone());
    if let Some(project) = &project {
        let prune: Vec<String> = scanned.iter().cloned().collect();
        s.tree = super::tree::scan_checked(project, &prune, check);
        s.entries_read = s.tree.entries;
        s.dirs_read = s.tree.dirs;
        s.skipped = s.tree.skipped.clone();
        s.stopped = s.tree.stopped.clone();
        s.project_root = Some(project.clone());
        s.uses_harness = std::fs::metadata(platform::join(project, ".dsh")).is_ok_and(|m| m.is_dir())
            || std::fs::metadata(platform::join(project, ".agents/skills")).is_ok_and(|m| m.is_dir());
        // A skill linked into a root the harness scans is loaded from there.
        let roots_real: Vec<String> = scanned
            .iter()
            .filter_map(|r| std::fs::canonicalize(r).ok()?.to_str().map(|r| format!("{r}{}", platform::SEP)))
            .collect();
        // ... and so is one a root's entry links to: only linked entries are resolved.
        let mut linked_in: std::collections::HashSet<String> = std::collections::HashSet::new();
        for root in &scanned {
            let Ok(rd) = std::fs::read_dir(root) else { continue };
            for d in rd.flatten().filter(|d| d.file_type().is_ok_and(|t| t.is_symlink())) {
                let file = d.path().join("SKILL.md");
                if let Some(real) = std::fs::canonicalize(file).ok().and_then(|p| p.to_str().map(str::to_string)) {
                    linked_in.insert(real);
                }
            }
        }
        s.tree
            .skills
            .retain(|t| !roots_real.iter().any(|r| t.real.starts_with(r.as_str())) && !linked_in.contains(&t.real));
    }
    // Folders that reach a skill of the tree through a link (mirrors) are that skill, reported
    // where it really is.
    let primary_of: std::collections::HashMap<String, String> =
        s.tree.skills.iter().map(|t| (t.real.clone(), t.dir.clone())).collect();
    // The roots the harness scans, links resolved, once.
    let scanned_real: Vec<std::path::PathBuf> = scanned.iter().filter_map(|r| std::fs::canonicalize(r).ok()).collect();
    // Those that are folders: only in one can an entry of the same name exist (checked once,
    // not once per skill).
    let scanned_dirs: Vec<&String> =
        scanned.iter().filter(|r| std::fs::metadata(r.as_str()).is_ok_and(|m| m.is_dir())).collect();
    // Skill folders of the tree reached through a link (the folder or its `SKILL.md`): the
    // others are plain folders, never links themselves.
    let linked_dirs: std::collections::HashSet<String> =
        s.tree.skills.iter().filter(|t| t.linked).map(|t| t.dir.clone()).collect();
    let mut seen = BTreeSet::new();
    let mut consider = |s: &mut Search, path: String, place: Place, agent: Option<&'static str>, why: String| {
        if scanned.contains(&path) || !seen.insert(path.clone()) {
            return;
        }
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
            return;
        }
        s.checked.push(path.clone());
        // A folder (or skill) already linked into a scanned root is found there.
        let canon = |p: &str| std::fs::canonicalize(p).ok();
        if canon(&path).is_some_and(|real| scanned_real.contains(&real)) {
            return;
        }
        let mut skills = if place == Place::Collection {
            // Only skill folders: Markdown beside them is never a skill outside a root.
            // The tree's skills are sorted by folder: those below `path` are one run of them.
            let prefix = format!("{path}{}", platform::SEP);
            let from = s.tree.skills.partition_point(|t| t.dir.as_str() < prefix.as_str());
            s.tree.skills[from..]
                .iter()
                .map_while(|t| t.dir.strip_prefix(&prefix))
                .filter(|rest| !rest.contains(platform::SEP))
                .map(|e| format!("{e}/"))
                .collect()
        } else {
            skill_entries(&path)
        };
        skills.retain(|e| {
            let e = e.trim_end_matches('/');
            if place != Place::Collection
                && let here = platform::join(&path, e)
                && let Some(primary) =
                    canon(&platform::join(&here, "SKILL.md")).and_then(|r| r.to_str().and_then(|r| primary_of.get(r)))
                && *primary != here
            {
                return false;
            }
            // Resolved only when a root holds an entry of that name.
            let mut real = None;
            !scanned_dirs.iter().any(|r| {
                let there = platform::join(r, e);
                std::fs::symlink_metadata(&there).is_ok()
                    && canon(&there) == *real.get_or_insert_with(|| canon(&platform::join(&path, e)))
            })
        });
        if skills.is_empty() {
            return;
        }
        let target = match place {
            Place::HomeOtherAgent => user_target.clone().or_else(|| project_target.clone()),
            _ => project_target.clone().or_else(|| user_target.clone()),
        };
        let Some(target) = target else { return };
        // A collection's entries come from the walk, which knows which are links.
        let maybe_link = |e: &str| place != Place::Collection || linked_dirs.contains(&platform::join(&path, e));
        let remedy = remedy(&path, &target, &skills, place, &maybe_link);
        let intentional = intentional.iter().any(|i| i == &path);
        let other_markdown = other_markdown(&path, &skills);
        s.folders.push(Folder { path, place, agent, skills, why, remedy, intentional, other_markdown });
    };
    if let (Some(cwd), Some(project)) = (&snap.cwd, &project) {
        // Other agents' folders from the cwd up to the project root.
        let mut cur = cwd.clone();
        loop {
            for (sub, agent) in PROJECT_FOLDERS {
                let why = if *sub == "skills" {
                    "a top-level `skills/` folder is not a skill root: the harness scans `.dsh/skills` and \
                     `.agents/skills` of the project root"
                        .to_string()
                } else {
                    format!(
                        "`{sub}` is where {agent} looks; the harness scans only `.dsh/skills` and `.agents/skills` of \
                         the project root `{project}`"
                    )
                };
                let agent = (*sub != "skills").then_some(*agent);
                // A top-level `skills/` of a repository that does not use the harness is its
                // collection.
                let place = if agent.is_none() && !s.uses_harness { Place::Collection } else { Place::OtherAgent };
                consider(&mut s, platform::join(&cur, sub), place, agent, why);
            }
            if &cur != project {
                for sub in [".dsh/skills", ".agents/skills"] {
                    let why = format!(
                        "`{cur}` is a parent of the cwd but not the project root `{project}`: the harness scans `{sub}` \
                         only in the project root"
                    );
                    consider(&mut s, platform::join(&cur, sub), Place::ParentOfCwd, None, why);
                }
            }
            let parent = platform::dirname(&cur);
            if &cur == project || parent == cur || !cur.starts_with(project.as_str()) {
                break;
            }
            cur = parent;
        }
        // `.agents/skills` and `.dsh/skills` below the project root (the cwd's parents
        // included), then every other folder below it that holds skill folders.
        let mut root_shaped = s.tree.root_shaped.clone();
        let mut holders: Vec<String> = Vec::new();
        for t in &s.tree.skills {
            let parent = t.parent();
            // The project root as a skill: its folder is outside the project.
            if t.dir == *project || holders.last() == Some(&parent) {
                continue;
            }
            if parent.ends_with(&format!("{}.agents{}skills", platform::SEP, platform::SEP))
                || parent.ends_with(&format!("{}.dsh{}skills", platform::SEP, platform::SEP))
            {
                root_shaped.push(parent);
            } else {
                holders.push(parent);
            }
        }
        root_shaped.sort();
        root_shaped.dedup();
        for dir in root_shaped {
            let why = format!(
                "the harness scans `.dsh/skills` and `.agents/skills` only in the project root `{project}` (the \
                 nearest ancestor of the cwd with `.git`), never in a folder below it"
            );
            consider(&mut s, dir, Place::BelowProject, None, why);
        }
        holders.sort();
        holders.dedup();
        for dir in holders {
            let why = format!(
                "the harness scans only `.dsh/skills` and `.agents/skills` of the project root `{project}`, custom \
                 dirs (`customSkillDirs`), `~/.dsh/skills`, `~/.agents/skills` and the bundled dir; skill folders \
                 anywhere else are never loaded"
            );
            consider(&mut s, dir, Place::Collection, None, why);
        }
        // ... and of ancestors above it.
        let mut cur = platform::dirname(project);
        loop {
            for sub in [".dsh/skills", ".agents/skills"] {
                let why = format!(
                    "the project root for this cwd is `{project}` (it holds `.git`), so the harness does not look \
                     further up"
                );
                consider(&mut s, platform::join(&cur, sub), Place::AboveProject, None, why);
            }
            let parent = platform::dirname(&cur);
            if parent == cur {
                break;
            }
            cur = parent;
        }
    }
    let mut homes = Vec::new();
    if !home.is_empty() {
        homes.push(home.to_string());
    }
    for source in ["user-dsh", "user-agents"] {
        if let Some(r) = root_of(source) {
            let h = platform::dirname(&platform::dirname(&r));
            if !homes.contains(&h) {
                homes.push(h);
            }
        }
    }
    for h in homes {
        for (sub, agent) in HOME_FOLDERS {
            let why = format!(
                "`{}` is where {agent} looks; the harness's personal roots are `~/.dsh/skills` and `~/.agents/skills`",
                platform::join("~", sub)
            );
            consider(&mut s, platform::join(&h, sub), Place::HomeOtherAgent, Some(agent), why);
        }
    }
    plan_together(&mut s.folders);
    // Folders whose fix is planned alone: their links, skill by skill, made once.
    for f in &mut s.folders {
        if let Some(mkdir) = f.remedy.per_skill_links.take() {
            let r = &mut f.remedy;
            let links = skill_links(&f.path, &r.target_root, &f.skills, &r.clashes);
            let cmds: Vec<String> =
                links.iter().map(|[_, rel]| format!("ln -s {} {}/", sh(rel), sh(&r.target_root))).collect();
            let cmds = cmds.join(" && ");
            r.link_command = if mkdir { format!("mkdir -p {} && {cmds}", sh(&r.target_root)) } else { cmds };
            r.links = links;
        }
    }
    s
}

/// Fixes of several folders that go to the same root are planned together, so that applying
/// all of them works: each links its skills one by one (no folder's link may claim the root
/// itself, or the next one's would land inside it), and an entry that an earlier folder already
/// brings is a clash, named with that folder.
fn plan_together(folders: &mut [Folder]) {
    let mut by_target: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    for (i, f) in folders.iter().enumerate().filter(|(_, f)| !f.intentional) {
        by_target.entry(f.remedy.target_root.clone()).or_default().push(i);
    }
    for (target, group) in by_target.into_iter().filter(|(_, g)| g.len() > 1) {
        let mut brought: std::collections::HashMap<String, String> = Default::default();
        for &i in &group {
            let f = &mut folders[i];
            f.remedy.per_skill_links = None;
            f.remedy.planned_with = group.len() - 1;
            let mut clashes_with = Vec::new();
            for e in f.skills.iter().map(|e| e.trim_end_matches('/').to_string()) {
                match brought.get(&e) {
                    Some(other) => clashes_with.push([e.clone(), other.clone()]),
                    None => {
                        brought.insert(e, f.path.clone());
                    }
                }
            }
            for [e, _] in &clashes_with {
                if !f.remedy.clashes.contains(e) {
                    f.remedy.clashes.push(e.clone());
                }
            }
            f.remedy.clashes_with = clashes_with;
            // One link per skill, after the target exists as a folder.
            let links = skill_links(&f.path, &target, &f.skills, &f.remedy.clashes);
            let cmds: Vec<String> = links.iter().map(|[l, rel]| format!("ln -s {} {}", sh(rel), sh(l))).collect();
            f.remedy.link_command = if cmds.is_empty() {
                String::new()
            } else {
                format!("mkdir -p {} && {}", sh(&target), cmds.join(" && "))
            };
            f.remedy.links = links;
        }
    }
}

/// `.md` files directly in `dir` that are not among its `skills` entries.
fn other_markdown(dir: &str, skills: &[String]) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<String> = rd
        .flatten()
        .take(20_000)
        .filter_map(|d| d.file_name().to_str().map(str::to_string))
        .filter(|n| n.ends_with(".md") && !skills.contains(n))
        .filter(|n| std::fs::metadata(platform::join(dir, n)).is_ok_and(|m| m.is_file()))
        .collect();
    out.sort();
    out
}

/// Entries of `dir` the harness would read as skills if `dir` were a root.
pub fn skill_entries(dir: &str) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out = Vec::new();
    for d in rd.flatten().take(20_000) {
        let Some(name) = d.file_name().to_str().map(str::to_string) else { continue };
        let path = platform::join(dir, &name);
        let Ok(meta) = std::fs::metadata(&path) else { continue };
        if meta.is_dir() {
            if std::fs::metadata(platform::join(&path, "SKILL.md")).is_ok_and(|m| m.is_file()) {
                out.push(format!("{name}/"));
            }
        } else if meta.is_file() && name.ends_with(".md") && crate::engine::textread::starts_with_fence(&path) {
            out.push(name);
        }
    }
    out.sort();
    out
}

/// Shell-quote a path when it needs it.
pub fn sh(p: &str) -> String {
    if !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%~".contains(c)) {
        p.to_string()
    } else {
        format!("'{}'", p.replace('\'', "'\\''"))
    }
}

/// `to` relative to the directory `from` (both absolute, lexical), for symlinks that survive
/// moving the tree; `to` itself when they share nothing but the filesystem root.
pub fn relative(from: &str, to: &str) -> String {
    // Segments as byte slices, compared as they come (no list of them): this runs once or
    // twice per skill of a collection.
    let sep = platform::SEP as u8;
    let mut a = from.as_bytes().split(|&c| c == sep).filter(|s| !s.is_empty());
    let mut b = to.as_bytes().split(|&c| c == sep).filter(|s| !s.is_empty()).peekable();
    let mut common = 0;
    let mut a_left = 0;
    loop {
        match (a.next(), b.peek()) {
            (Some(x), Some(y)) if x == *y => {
                common += 1;
                b.next();
            }
            (Some(_), _) => {
                a_left = 1 + a.count();
                break;
            }
            (None, _) => break,
        }
    }
    if common == 0 || cfg!(windows) {
        return to.to_string();
    }
    let mut out = String::with_capacity(a_left * 3 + to.len());
    for _ in 0..a_left {
        out.push_str("../");
    }
    for s in b {
        // Segments of a `&str` split at an ASCII byte are whole characters.
        out.push_str(std::str::from_utf8(s).unwrap_or_default());
        out.push('/');
    }
    if out.is_empty() {
        return ".".to_string();
    }
    out.pop();
    out
}

/// One link per skill entry of `folder` (those not in `clashes`), made in `target`:
/// `[link, target as written]`, relative so that they survive moving the tree.
fn skill_links(folder: &str, target: &str, skills: &[String], clashes: &[String]) -> Vec<[String; 2]> {
    skills
        .iter()
        .map(|e| e.trim_end_matches('/').to_string())
        .filter(|e| !clashes.contains(e))
        .map(|e| [platform::join(target, &e), relative(target, &platform::join(folder, &e))])
        .collect()
}

/// `maybe_link(entry)` is false for an entry known not to be a symbolic link.
fn remedy(folder: &str, target: &str, skills: &[String], place: Place, maybe_link: &dyn Fn(&str) -> bool) -> Remedy {
    let entry = |s: &String| s.trim_end_matches('/').to_string();
    // Nothing clashes in a target that is not a folder (yet): one check, not one per skill.
    let target_is_dir = std::fs::metadata(target).is_ok_and(|m| m.is_dir());
    let clashes: Vec<String> = skills
        .iter()
        .map(entry)
        .filter(|e| target_is_dir && std::fs::symlink_metadata(platform::join(target, e)).is_ok())
        .collect();
    // A relative link moved as it is would point elsewhere (at itself, when the link mirrors a
    // folder of the target): it is made again in the target, pointing where it pointed.
    let mut sources = Vec::new();
    let mut relinked = Vec::new();
    for e in skills.iter().map(entry) {
        let src = platform::join(folder, &e);
        let link = if maybe_link(&e) { std::fs::read_link(&src).ok() } else { None };
        match link.and_then(|t| t.to_str().map(str::to_string)) {
            Some(t) if !std::path::Path::new(&t).is_absolute() => {
                let points_at = platform::resolve(folder, &t);
                relinked.push(format!(
                    "ln -s {} {} && rm {}",
                    sh(&relative(target, &points_at)),
                    sh(&platform::join(target, &e)),
                    sh(&src)
                ));
            }
            _ => sources.push(sh(&src)),
        }
    }
    let mut steps = vec![format!("mkdir -p {}", sh(target))];
    if !sources.is_empty() {
        steps.push(format!("mv {} {}/", sources.join(" "), sh(target)));
    }
    let relative_links = !relinked.is_empty();
    steps.extend(relinked);
    let move_command = steps.join(" && ");
    // One link per skill (those not already in the target), and the commands that make them,
    // are made at the end of the search (`per_skill_links`), unless the folder's fix is planned
    // with others' ([`plan_together`]). A collection's folder is one of several: each skill is
    // linked, so that the links of two folders never both claim the target root itself.
    let (link_command, links, per_skill_links) = if place == Place::Collection {
        (String::new(), Vec::new(), Some(true))
    } else if std::fs::symlink_metadata(target).is_err() {
        let parent = platform::dirname(target);
        let rel = relative(&parent, folder);
        let command = format!("mkdir -p {} && ln -s {} {}", sh(&parent), sh(&rel), sh(target));
        (command, vec![[target.to_string(), rel]], None)
    } else {
        (String::new(), Vec::new(), Some(false))
    };
    Remedy {
        target_root: target.to_string(),
        move_command,
        link_command,
        custom_dir_flag: format!("--custom-dir {}", sh(folder)),
        config_snippet: format!(
            "- id: skill-filesystem\n  config:\n    customSkillDirs:\n      - {}",
            serde_json::to_string(folder).unwrap_or_default()
        ),
        clashes,
        links,
        clashes_with: Vec::new(),
        planned_with: 0,
        relative_links,
        per_skill_links,
    }
}

impl Folder {
    /// "3 skills (a/, b.md, c/)" with at most [`SHOWN_SKILLS`] named.
    pub fn holds(&self) -> String {
        let n = self.skills.len();
        let shown: Vec<&str> = self.skills.iter().take(SHOWN_SKILLS).map(String::as_str).collect();
        let more = if n > SHOWN_SKILLS { format!(" and {} more", n - SHOWN_SKILLS) } else { String::new() };
        format!("{n} skill{} ({}{more})", if n == 1 { "" } else { "s" }, shown.join(", "))
    }

    /// The fixes, any one of which works: (label, text, whether the text is a shell command).
    /// A collection's folder stays where it is: it is added as a custom dir, or, when it holds
    /// few skills, its skills are linked; another folder's skills move (or are linked).
    pub fn fixes(&self) -> Vec<(&'static str, String, bool)> {
        let r = &self.remedy;
        let mut v = Vec::new();
        let mut custom = format!(
            "add {} to `customSkillDirs` in the skill-filesystem row (preview: `dsh-skills {} list`)",
            serde_json::to_string(&self.path).unwrap_or_default(),
            r.custom_dir_flag
        );
        if !self.other_markdown.is_empty() {
            let shown: Vec<&str> = self.other_markdown.iter().take(3).map(String::as_str).collect();
            let more = self.other_markdown.len().saturating_sub(3);
            custom.push_str(&format!(
                "; the harness would then also log its other .md file{} ({}{}) as skipped skills",
                if self.other_markdown.len() == 1 { "" } else { "s" },
                shown.join(", "),
                if more > 0 { format!(" and {more} more") } else { String::new() }
            ));
        }
        if self.place == Place::Collection {
            let link = if r.links.is_empty() {
                None
            } else if r.links.len() <= LINKED_AT_MOST {
                Some(("link", r.link_command.clone(), true))
            } else {
                Some((
                    "link",
                    format!(
                        "link each of its {} skill folders into `{}` (`ln -s`; `--format json` carries every link)",
                        r.links.len(),
                        r.target_root
                    ),
                    false,
                ))
            };
            // A folder with other Markdown is linked skill by skill: as a root, its README
            // would be a broken skill.
            if self.other_markdown.is_empty() {
                v.push(("custom dir", custom, false));
                v.extend(link);
            } else {
                v.extend(link);
                v.push(("custom dir", custom, false));
            }
            return v;
        }
        if r.clashes.is_empty() {
            v.push(("move", r.move_command.clone(), true));
        } else {
            let what: Vec<String> = r
                .clashes
                .iter()
                .map(|e| match r.clashes_with.iter().find(|[c, _]| c == e) {
                    Some([_, other]) => format!("`{e}` (the fix of `{other}` brings one too)"),
                    None => format!("`{e}` (already in the target)"),
                })
                .collect();
            v.push(("move", format!("{} (first rename {})", r.move_command, what.join(", ")), false));
        }
        if !r.link_command.is_empty() {
            v.push(("link", r.link_command.clone(), true));
        }
        v.push(("custom dir", custom, false));
        v
    }
}

#[cfg(test)]
mod tests {
    /// [`super::relative`] as it was first written (segment lists), to compare against.
    fn relative_by_lists(from: &str, to: &str) -> String {
        let a: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
        let b: Vec<&str> = to.split('/').filter(|s| !s.is_empty()).collect();
        let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        if common == 0 {
            return to.to_string();
        }
        let mut parts: Vec<&str> = vec![".."; a.len() - common];
        parts.extend(&b[common..]);
        if parts.is_empty() { ".".to_string() } else { parts.join("/") }
    }

    #[cfg(unix)]
    #[test]
    fn relative_paths() {
        let paths = [
            "/",
            "/a",
            "/a/",
            "/a/b",
            "/a//b/",
            "/a/b/c",
            "/a/bc",
            "/x/y",
            "a",
            "a/b",
            "",
            "/a/b/ü",
            "/a/.agents/skills",
        ];
        for from in paths {
            for to in paths {
                assert_eq!(super::relative(from, to), relative_by_lists(from, to), "relative({from:?}, {to:?})");
            }
        }
        assert_eq!(super::relative("/p/.agents/skills", "/p/plugins/x/skills/s"), "../../plugins/x/skills/s");
    }
}
