//! Every skill in a tree: each folder holding a `SKILL.md`, at any depth, the way collections,
//! plugin marketplaces and category folders keep them (`skills/<name>/`,
//! `plugins/<plugin>/skills/<name>/`, `<category>/skills/<name>/`, `.curated/<name>/`).
//!
//! The walk is ripgrep's (`ignore`): `.gitignore`, `.ignore` and `.git/info/exclude` are
//! respected, hidden folders are walked (skills live in `.agents/`, `.claude/`, `.curated/`),
//! symbolic links are not followed (a linked skill folder is reported, never entered), and
//! build, dependency and version-control folders are skipped by name unless they are themselves
//! a skill. A `SKILL.md` inside a skill folder is that skill's content (a template, an example),
//! so the walk does not enter skill folders. The same `SKILL.md` reached through links (mirrors
//! for other agents: `.gemini/skills/x/SKILL.md -> ../../../skills/x/SKILL.md`) is one skill
//! with its other paths. The walk reads at most [`ENTRY_BUDGET`] entries and says so when it
//! stops. Pure observation: nothing here writes.

use crate::engine::discover::Checked;
use crate::engine::platform;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Entries the walk reads at most (files and folders).
pub const ENTRY_BUDGET: usize = 2_000_000;

/// Folder names the walk never enters (unless the folder is itself a skill): version control,
/// dependencies, build output and caches.
pub const SKIP_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".jj",
    "node_modules",
    "bower_components",
    "target",
    "vendor",
    "dist",
    "build",
    "out",
    "__pycache__",
    "venv",
    ".venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".next",
    "Pods",
    "DerivedData",
];

/// The version-control folders of [`SKIP_DIRS`], skipped without a mention.
const VCS_DIRS: &[&str] = &[".git", ".hg", ".svn", ".jj"];

/// One skill folder found in the tree.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TreeSkill {
    /// The skill folder: where its `SKILL.md` is reached without a symbolic link when it is.
    pub dir: String,
    /// Other folders of the tree that reach the same `SKILL.md` through symbolic links.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mirrors: Vec<String>,
    /// The `SKILL.md` with every link resolved.
    #[serde(skip)]
    pub real: String,
    /// `dir` was reached through a symbolic link (the folder or its `SKILL.md`).
    #[serde(skip)]
    pub linked: bool,
}

impl TreeSkill {
    /// `<dir>/SKILL.md`.
    pub fn file(&self) -> String {
        platform::join(&self.dir, "SKILL.md")
    }

    /// The folder holding the skill folder.
    pub fn parent(&self) -> String {
        platform::dirname(&self.dir)
    }
}

/// What the walk found and how far it went.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// The folder walked, as given.
    pub top: String,
    /// Every skill folder, sorted by path; mirrors folded in.
    pub skills: Vec<TreeSkill>,
    /// What the walk's [`SkillCheck`] made of each skill folder, by folder, until taken.
    pub checked: HashMap<String, Arc<Checked>>,
    /// Folders named `.agents/skills` or `.dsh/skills` (a root for a session elsewhere), which
    /// may hold flat `.md` skills the walk does not count.
    pub root_shaped: Vec<String>,
    /// Claude Code plugin manifests (`.claude-plugin/marketplace.json`, `.claude-plugin/plugin.json`),
    /// sorted.
    pub manifests: Vec<String>,
    /// `SKILL.md` files that are symbolic links pointing at nothing (a mirror for another agent
    /// left behind when the skills moved), sorted: no agent loads these folders.
    pub dangling: Vec<String>,
    /// Folders not entered, by name, with how many of each.
    pub skipped: BTreeMap<String, usize>,
    /// Entries read.
    pub entries: usize,
    /// Folders entered.
    pub dirs: usize,
    /// Set when the walk stopped at its budget.
    pub stopped: Option<String>,
}

/// `3 node_modules, 1 target`: folders not entered, most first.
pub fn skipped_words(skipped: &BTreeMap<String, usize>) -> String {
    let mut v: Vec<(&String, &usize)> = skipped.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    v.iter().map(|(n, c)| format!("{c} {n}")).collect::<Vec<_>>().join(", ")
}

/// A check run on each skill folder the walk finds, on the walker thread that finds it, so that
/// checking overlaps the walk (lint's per-file rules): given the folder, its result, or `None`
/// to leave the folder for later. Each result is kept in [`Tree::checked`].
pub type SkillCheck = std::sync::Arc<dyn Fn(&str) -> Option<Box<dyn std::any::Any + Send>> + Send + Sync>;

/// A skill folder as the walk met it.
struct Found {
    dir: String,
    /// Reached through a symbolic link (the folder or its `SKILL.md`).
    linked: bool,
    /// What the [`SkillCheck`] made of it.
    checked: Option<Box<dyn std::any::Any + Send>>,
}

/// Walk `top` for skill folders, not entering the folders in `prune` (roots the harness scans,
/// whose skills are read as a root's).
pub fn scan(top: &str, prune: &[String]) -> Tree {
    scan_with_budget(top, prune, ENTRY_BUDGET, None)
}

/// [`scan`], with `check` run on each skill folder reached without a link, as it is found.
pub fn scan_checked(top: &str, prune: &[String], check: Option<SkillCheck>) -> Tree {
    scan_with_budget(top, prune, ENTRY_BUDGET, check)
}

/// The walk's state, shared by its threads.
struct Walk {
    found: Mutex<Vec<Found>>,
    root_shaped: Mutex<Vec<String>>,
    manifests: Mutex<Vec<String>>,
    dangling: Mutex<Vec<String>>,
    skipped: Mutex<BTreeMap<String, usize>>,
    entries: AtomicUsize,
    dirs: AtomicUsize,
    stopped: AtomicBool,
    budget: usize,
    prune: std::collections::HashSet<String>,
    check: Option<SkillCheck>,
}

impl Walk {
    /// One entry of the tree: what it is, and whether the walk goes into it. Every entry below
    /// the top comes here from the listing of its folder (types from `readdir`, no stat), before
    /// the walker opens it: a skill folder, a pruned or skipped one is never listed by the walk.
    fn visit(&self, path: Option<&str>, name: Option<&str>, ft: Option<std::fs::FileType>, depth: usize) -> bool {
        if self.entries.fetch_add(1, Ordering::Relaxed) >= self.budget {
            self.stopped.store(true, Ordering::Relaxed);
            return false;
        }
        let (Some(ft), Some(path)) = (ft, path) else { return true };
        if ft.is_dir() {
            if depth > 0 && self.prune.contains(path) {
                return false;
            }
            // One lstat for the common case (no SKILL.md, or a regular one); a link is
            // followed only when there is one.
            let skill = platform::join(path, "SKILL.md");
            let (is_skill, linked) = match std::fs::symlink_metadata(&skill) {
                Ok(m) if m.file_type().is_symlink() => match std::fs::metadata(&skill) {
                    Ok(m) => (m.is_file(), true),
                    Err(_) => {
                        if !self.prune.contains(platform::dirname(path).as_str()) {
                            lock(&self.dangling).push(skill);
                        }
                        (false, true)
                    }
                },
                Ok(m) => (m.is_file(), false),
                Err(_) => (false, false),
            };
            if is_skill {
                // Checked here, on this walker thread, while the others walk on.
                let checked = if linked { None } else { self.check.as_ref().and_then(|c| c(path)) };
                lock(&self.found).push(Found { dir: path.to_string(), linked, checked });
                return false;
            }
            let name = name.unwrap_or("");
            if depth > 0 && SKIP_DIRS.contains(&name) {
                // Version control is never content: not worth a mention.
                if !VCS_DIRS.contains(&name) {
                    *lock(&self.skipped).entry(name.to_string()).or_default() += 1;
                }
                return false;
            }
            if name == "skills" && matches!(parent_name(path), Some(".agents" | ".dsh")) {
                lock(&self.root_shaped).push(path.to_string());
            }
            self.dirs.fetch_add(1, Ordering::Relaxed);
            return true;
        }
        if ft.is_file() {
            if matches!(name, Some("marketplace.json" | "plugin.json")) && parent_name(path) == Some(".claude-plugin") {
                lock(&self.manifests).push(path.to_string());
            }
        } else if ft.is_symlink()
            && std::fs::metadata(path).is_ok_and(|m| m.is_dir())
            && std::fs::metadata(platform::join(path, "SKILL.md")).is_ok_and(|m| m.is_file())
            && !self.prune.contains(platform::dirname(path).as_str())
        {
            lock(&self.found).push(Found { dir: path.to_string(), linked: true, checked: None });
        }
        // Not a folder: nothing to go into.
        false
    }
}

/// [`scan`] with another entry budget (tests) and a [`SkillCheck`].
pub fn scan_with_budget(top: &str, prune: &[String], budget: usize, check: Option<SkillCheck>) -> Tree {
    let walk = std::sync::Arc::new(Walk {
        found: Mutex::new(Vec::new()),
        root_shaped: Mutex::new(Vec::new()),
        manifests: Mutex::new(Vec::new()),
        dangling: Mutex::new(Vec::new()),
        skipped: Mutex::new(BTreeMap::new()),
        entries: AtomicUsize::new(0),
        dirs: AtomicUsize::new(0),
        stopped: AtomicBool::new(false),
        budget,
        prune: prune.iter().cloned().collect(),
        check,
    });
    let in_filter = walk.clone();
    let walker = ignore::WalkBuilder::new(top)
        .hidden(false)
        .git_global(false)
        .follow_links(false)
        .threads(std::thread::available_parallelism().map_or(2, |n| n.get().min(8)))
        // Every entry below the top is decided from its folder's listing, before the walker
        // opens it (only folders to go into are opened).
        .filter_entry(move |entry| {
            in_filter.visit(entry.path().to_str(), entry.file_name().to_str(), entry.file_type(), entry.depth())
        })
        .build_parallel();
    walker.run(|| {
        Box::new(|entry| {
            if walk.stopped.load(Ordering::Relaxed) {
                return ignore::WalkState::Quit;
            }
            let Ok(entry) = entry else { return ignore::WalkState::Continue };
            // Entries below the top were decided by the filter; the top comes here.
            if entry.depth() > 0 {
                return ignore::WalkState::Continue;
            }
            if walk.visit(entry.path().to_str(), entry.file_name().to_str(), entry.file_type(), 0) {
                ignore::WalkState::Continue
            } else if walk.stopped.load(Ordering::Relaxed) {
                ignore::WalkState::Quit
            } else {
                ignore::WalkState::Skip
            }
        })
    });
    let walk = std::sync::Arc::try_unwrap(walk).unwrap_or_else(|_| unreachable!("the walker's threads have ended"));
    let stopped = walk.stopped.load(Ordering::Relaxed);
    let (skills, checked) = fold_mirrors(top, walk.found.into_inner().unwrap_or_else(|e| e.into_inner()));
    let mut tree = Tree {
        top: top.to_string(),
        skills,
        checked,
        root_shaped: walk.root_shaped.into_inner().unwrap_or_else(|e| e.into_inner()),
        manifests: walk.manifests.into_inner().unwrap_or_else(|e| e.into_inner()),
        dangling: walk.dangling.into_inner().unwrap_or_else(|e| e.into_inner()),
        skipped: walk.skipped.into_inner().unwrap_or_else(|e| e.into_inner()),
        entries: walk.entries.load(Ordering::Relaxed).min(budget),
        dirs: walk.dirs.load(Ordering::Relaxed),
        stopped: None,
    };
    tree.root_shaped.sort();
    tree.manifests.sort();
    tree.dangling.sort();
    if stopped {
        tree.stopped = Some(format!(
            "the search for skill folders in {top} stopped after {budget} entries; lint a smaller folder \
             (`dsh-skills lint <dir>`) to read the rest"
        ));
    }
    tree
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn parent_name(path: &str) -> Option<&str> {
    let parent = path.rsplit_once(platform::SEP)?.0;
    Some(parent.rsplit_once(platform::SEP).map_or(parent, |(_, n)| n))
}

/// One [`TreeSkill`] per `SKILL.md`: folders that reach the same file through links are its
/// mirrors; the folder that reaches it without a link (else the first by path) is the skill.
fn fold_mirrors(top: &str, mut found: Vec<Found>) -> (Vec<TreeSkill>, HashMap<String, Arc<Checked>>) {
    found.sort_by(|a, b| a.dir.cmp(&b.dir));
    // Unlinked folders are real below the real top: one canonicalization for all of them.
    let top_real = std::fs::canonicalize(top).ok().and_then(|p| p.to_str().map(str::to_string));
    let real_of = |f: &Found| -> String {
        let file = platform::join(&f.dir, "SKILL.md");
        if !f.linked
            && let Some(real_top) = &top_real
            && let Some(rest) = file.strip_prefix(top)
        {
            return format!("{real_top}{rest}");
        }
        std::fs::canonicalize(&file).ok().and_then(|p| p.to_str().map(str::to_string)).unwrap_or(file)
    };
    let mut skills: Vec<TreeSkill> = Vec::with_capacity(found.len());
    let mut by_real: HashMap<String, usize> = HashMap::with_capacity(found.len());
    // Unlinked folders first, so that each file's skill is where it really is.
    let (plain, linked): (Vec<Found>, Vec<Found>) = found.into_iter().partition(|f| !f.linked);
    let mut checked = HashMap::new();
    for f in plain.into_iter().chain(linked) {
        let real = real_of(&f);
        match by_real.get(&real) {
            Some(&i) => skills[i].mirrors.push(f.dir),
            None => {
                by_real.insert(real.clone(), skills.len());
                if let Some(c) = f.checked {
                    checked.insert(f.dir.clone(), Arc::new(Checked::new(c)));
                }
                skills.push(TreeSkill { dir: f.dir, mirrors: Vec::new(), real, linked: f.linked });
            }
        }
    }
    skills.sort_by(|a, b| a.dir.cmp(&b.dir));
    for s in &mut skills {
        s.mirrors.sort();
    }
    (skills, checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &std::path::Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn rels(t: &Tree) -> Vec<String> {
        t.skills.iter().map(|s| s.dir.strip_prefix(&t.top).unwrap().trim_start_matches('/').to_string()).collect()
    }

    #[test]
    fn every_skill_folder_at_any_depth_and_not_inside_a_skill() {
        let d = tempfile::tempdir().unwrap();
        let top = d.path().to_str().unwrap().to_string();
        for rel in [
            "skills/a/SKILL.md",
            "skills/.curated/b/SKILL.md",
            "plugins/p/skills/c/SKILL.md",
            "cat/skills/deep/er/d/SKILL.md",
            "skills/a/templates/t/SKILL.md",
            "node_modules/x/SKILL.md",
            "build/SKILL.md",
        ] {
            write(d.path(), rel, "---\nname: x\ndescription: y\n---\n");
        }
        write(d.path(), "README.md", "# r\n");
        let t = scan(&top, &[]);
        assert_eq!(rels(&t), ["build", "cat/skills/deep/er/d", "plugins/p/skills/c", "skills/.curated/b", "skills/a"]);
        assert_eq!(t.skipped.get("node_modules"), Some(&1));
        assert_eq!(t.skipped.get(".git"), None);
        assert!(t.stopped.is_none());
    }

    #[test]
    fn gitignored_and_pruned_folders_are_not_read() {
        let d = tempfile::tempdir().unwrap();
        let top = d.path().to_str().unwrap().to_string();
        std::fs::create_dir(d.path().join(".git")).unwrap();
        write(d.path(), ".gitignore", "generated/\n");
        write(d.path(), "generated/g/SKILL.md", "");
        write(d.path(), ".agents/skills/r/SKILL.md", "");
        write(d.path(), "pkg/.agents/skills/s/SKILL.md", "");
        let t = scan(&top, &[platform::join(&top, ".agents/skills")]);
        assert_eq!(rels(&t), ["pkg/.agents/skills/s"]);
        assert_eq!(t.root_shaped, [platform::join(&top, "pkg/.agents/skills")]);
    }

    #[cfg(unix)]
    #[test]
    fn a_mirror_is_one_skill_with_its_other_paths() {
        let d = tempfile::tempdir().unwrap();
        let top = d.path().to_str().unwrap().to_string();
        write(d.path(), "skills/a/SKILL.md", "");
        std::fs::create_dir_all(d.path().join(".gemini/skills/a")).unwrap();
        std::os::unix::fs::symlink("../../../skills/a/SKILL.md", d.path().join(".gemini/skills/a/SKILL.md")).unwrap();
        std::fs::create_dir_all(d.path().join(".claude/skills")).unwrap();
        std::os::unix::fs::symlink("../../skills/a", d.path().join(".claude/skills/a")).unwrap();
        // A whole-folder mirror is not entered.
        std::os::unix::fs::symlink("../skills", d.path().join(".codex")).unwrap();
        let t = scan(&top, &[]);
        assert_eq!(rels(&t), ["skills/a"]);
        assert_eq!(
            t.skills[0].mirrors,
            [platform::join(&top, ".claude/skills/a"), platform::join(&top, ".gemini/skills/a")]
        );
    }

    #[test]
    fn the_budget_stops_the_walk_and_says_so() {
        let d = tempfile::tempdir().unwrap();
        let top = d.path().to_str().unwrap().to_string();
        for i in 0..50 {
            write(d.path(), &format!("f{i}/x.txt"), "");
        }
        let t = scan_with_budget(&top, &[], 20, None);
        assert!(t.stopped.as_deref().unwrap().contains("stopped after 20 entries"));
        assert_eq!(t.entries, 20);
    }
}
