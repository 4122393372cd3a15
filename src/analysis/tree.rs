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

use crate::engine::platform;
use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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
    /// Folders named `.agents/skills` or `.dsh/skills` (a root for a session elsewhere), which
    /// may hold flat `.md` skills the walk does not count.
    pub root_shaped: Vec<String>,
    /// Claude Code plugin manifests (`.claude-plugin/marketplace.json`, `.claude-plugin/plugin.json`),
    /// sorted.
    pub manifests: Vec<String>,
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

/// A skill folder as the walk met it.
struct Found {
    dir: String,
    /// Reached through a symbolic link (the folder or its `SKILL.md`).
    linked: bool,
}

/// Walk `top` for skill folders, not entering the folders in `prune` (roots the harness scans,
/// whose skills are read as a root's).
pub fn scan(top: &str, prune: &[String]) -> Tree {
    scan_with_budget(top, prune, ENTRY_BUDGET)
}

/// [`scan`] with another entry budget (tests).
pub fn scan_with_budget(top: &str, prune: &[String], budget: usize) -> Tree {
    let found: Mutex<Vec<Found>> = Mutex::new(Vec::new());
    let root_shaped: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let manifests: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let skipped: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());
    let entries = AtomicUsize::new(0);
    let dirs = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let prune: std::collections::HashSet<&str> = prune.iter().map(String::as_str).collect();
    let walker = ignore::WalkBuilder::new(top)
        .hidden(false)
        .git_global(false)
        .follow_links(false)
        .threads(std::thread::available_parallelism().map_or(2, |n| n.get().min(8)))
        .build_parallel();
    walker.run(|| {
        Box::new(|entry| {
            let Ok(entry) = entry else { return ignore::WalkState::Continue };
            if entries.fetch_add(1, Ordering::Relaxed) >= budget {
                stopped.store(true, Ordering::Relaxed);
                return ignore::WalkState::Quit;
            }
            let Some(ft) = entry.file_type() else { return ignore::WalkState::Continue };
            let Some(path) = entry.path().to_str() else { return ignore::WalkState::Continue };
            if ft.is_dir() {
                if entry.depth() > 0 && prune.contains(path) {
                    return ignore::WalkState::Skip;
                }
                // One lstat for the common case (no SKILL.md, or a regular one); a link is
                // followed only when there is one.
                let skill = platform::join(path, "SKILL.md");
                let (is_skill, linked) = match std::fs::symlink_metadata(&skill) {
                    Ok(m) if m.file_type().is_symlink() => (std::fs::metadata(&skill).is_ok_and(|m| m.is_file()), true),
                    Ok(m) => (m.is_file(), false),
                    Err(_) => (false, false),
                };
                if is_skill {
                    lock(&found).push(Found { dir: path.to_string(), linked });
                    return ignore::WalkState::Skip;
                }
                let name = entry.file_name().to_str().unwrap_or("");
                if entry.depth() > 0 && SKIP_DIRS.contains(&name) {
                    // Version control is never content: not worth a mention.
                    if !VCS_DIRS.contains(&name) {
                        *lock(&skipped).entry(name.to_string()).or_default() += 1;
                    }
                    return ignore::WalkState::Skip;
                }
                if name == "skills" && matches!(parent_name(path), Some(".agents" | ".dsh")) {
                    lock(&root_shaped).push(path.to_string());
                }
                dirs.fetch_add(1, Ordering::Relaxed);
            } else if ft.is_file() {
                if matches!(entry.file_name().to_str(), Some("marketplace.json" | "plugin.json"))
                    && parent_name(path) == Some(".claude-plugin")
                {
                    lock(&manifests).push(path.to_string());
                }
            } else if ft.is_symlink()
                && std::fs::metadata(path).is_ok_and(|m| m.is_dir())
                && std::fs::metadata(platform::join(path, "SKILL.md")).is_ok_and(|m| m.is_file())
                && !prune.contains(platform::dirname(path).as_str())
            {
                lock(&found).push(Found { dir: path.to_string(), linked: true });
            }
            ignore::WalkState::Continue
        })
    });
    let mut tree = Tree {
        top: top.to_string(),
        skills: fold_mirrors(top, found.into_inner().unwrap_or_else(|e| e.into_inner())),
        root_shaped: root_shaped.into_inner().unwrap_or_else(|e| e.into_inner()),
        manifests: manifests.into_inner().unwrap_or_else(|e| e.into_inner()),
        skipped: skipped.into_inner().unwrap_or_else(|e| e.into_inner()),
        entries: entries.load(Ordering::Relaxed).min(budget),
        dirs: dirs.load(Ordering::Relaxed),
        stopped: None,
    };
    tree.root_shaped.sort();
    tree.manifests.sort();
    if stopped.load(Ordering::Relaxed) {
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
fn fold_mirrors(top: &str, mut found: Vec<Found>) -> Vec<TreeSkill> {
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
    for f in plain.into_iter().chain(linked) {
        let real = real_of(&f);
        match by_real.get(&real) {
            Some(&i) => skills[i].mirrors.push(f.dir),
            None => {
                by_real.insert(real.clone(), skills.len());
                skills.push(TreeSkill { dir: f.dir, mirrors: Vec::new(), real });
            }
        }
    }
    skills.sort_by(|a, b| a.dir.cmp(&b.dir));
    for s in &mut skills {
        s.mirrors.sort();
    }
    skills
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
        let t = scan_with_budget(&top, &[], 20);
        assert!(t.stopped.as_deref().unwrap().contains("stopped after 20 entries"));
        assert_eq!(t.entries, 20);
    }
}
