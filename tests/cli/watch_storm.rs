//! `dsh-skills watch` under churn: a storm of random changes to a tree of skills (folder
//! renames and swaps, edits in place and by rename, flat files, links to skill folders
//! elsewhere, dangling links, link loops, broken YAML, `chmod`s), in rounds. After each round
//! the tree is left alone, and the watch must settle on what a fresh `dsh-skills catalog` says
//! for the same tree: the same entries (names and descriptions), or both incomplete. A watch
//! that misses a change, keeps an outdated reading or attributes a change to the wrong skill
//! never gets there, and the round fails (after a generous bound; nothing here measures time).
//!
//! The seeds are fixed, so every run makes the same changes. `DSH_SKILLS_STORM_BIN` runs the
//! storm against another build (e.g. an older one, to see it fail); `DSH_SKILLS_STORM_ROUNDS`
//! changes the number of rounds.

use super::watch::{PATIENCE, Watch, args, tree};
use crate::support;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Instant;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// What the session would show: the catalog entries, or nothing because discovery is
/// incomplete.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    Incomplete,
    Entries(Vec<(String, String)>),
}

fn entries_of(v: &Value) -> Vec<(String, String)> {
    v.as_array()
        .map(|list| {
            list.iter()
                .map(|e| (e["name"].as_str().unwrap().to_string(), e["description"].as_str().unwrap().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

fn bin() -> PathBuf {
    std::env::var_os("DSH_SKILLS_STORM_BIN").map_or_else(support::bin, PathBuf::from)
}

fn command(project: &Path, home: &Path) -> Command {
    let cmd = support::command(project, home);
    let mut own = Command::new(bin());
    own.current_dir(project).env_clear();
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            own.env(k, v);
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        own.env("PATH", path);
    }
    own
}

/// A fresh `dsh-skills catalog` of the tree.
fn fresh(project: &Path, home: &Path) -> State {
    let out = command(project, home)
        .args(["catalog", "--no-config", "--quiet", "--format", "json", "--cwd", project.to_str().unwrap()])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("catalog: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    if v["complete"] == false { State::Incomplete } else { State::Entries(entries_of(&v["entries"])) }
}

/// The state a catalog event of the watch shows.
fn state_of(e: &Value) -> State {
    if e["outcome"] == "incomplete" { State::Incomplete } else { State::Entries(entries_of(&e["entries"])) }
}

/// The tree under churn.
struct Storm {
    rng: Rng,
    roots: [PathBuf; 2],
    /// Skill folders outside the roots, for links to lead to.
    store: PathBuf,
    nowhere: PathBuf,
    written: usize,
    log: Vec<String>,
    /// Whether links (to folders, dangling, loops) are part of the storm.
    links: bool,
}

impl Storm {
    fn text(&mut self, name: &str) -> String {
        self.written += 1;
        format!("---\nname: {name}\ndescription: Version {} of {name}.\n---\nBody {}.\n", self.written, self.written)
    }

    fn root(&mut self) -> PathBuf {
        self.roots[self.rng.below(2)].clone()
    }

    fn skill_name(&mut self) -> String {
        format!("s{:02}", self.rng.below(40))
    }

    /// The entries of a root of one kind: real folders (`dirs`), links, or flat `.md` files.
    fn entries(&self, root: &Path, pick: impl Fn(&std::fs::Metadata, &str) -> bool) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = std::fs::read_dir(root)
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .filter(|e| {
                        let name = e.file_name().to_string_lossy().into_owned();
                        std::fs::symlink_metadata(e.path()).is_ok_and(|m| pick(&m, &name))
                    })
                    .map(|e| e.path())
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out
    }

    fn pick(&mut self, list: &[PathBuf]) -> Option<PathBuf> {
        (!list.is_empty()).then(|| list[self.rng.below(list.len())].clone())
    }

    fn folder(&mut self) -> Option<PathBuf> {
        let root = self.root();
        let list = self.entries(&root, |m, _| m.is_dir());
        self.pick(&list)
    }

    fn link(&mut self) -> Option<PathBuf> {
        let root = self.root();
        let list = self.entries(&root, |m, _| m.file_type().is_symlink());
        self.pick(&list)
    }

    fn free_name(&mut self, root: &Path) -> PathBuf {
        loop {
            let p = root.join(format!("e{:03}", self.rng.below(1000)));
            if std::fs::symlink_metadata(&p).is_err() {
                return p;
            }
        }
    }

    fn write(&mut self, file: &Path, name: &str) {
        let text = self.text(name);
        if self.rng.chance(30) {
            // An editor's save: a new file renamed over the old one.
            let tmp = file.with_extension("tmp~");
            std::fs::write(&tmp, text).unwrap();
            std::fs::rename(&tmp, file).unwrap();
        } else {
            std::fs::write(file, text).unwrap();
        }
    }

    /// One random change; returns what it did.
    fn step(&mut self) -> String {
        let roll = self.rng.below(100);
        if !self.links && (62..=85).contains(&roll) {
            return self.create();
        }
        match roll {
            // Edit a skill folder's file (its name may change too).
            0..=27 => {
                let Some(dir) = self.folder() else { return self.create() };
                let name = self.skill_name();
                self.write(&dir.join("SKILL.md"), &name);
                format!("edit {}", dir.display())
            }
            28..=39 => {
                // Rename a folder, within its root or to the other one.
                let Some(dir) = self.folder() else { return self.create() };
                let root = self.root();
                let to = self.free_name(&root);
                std::fs::rename(&dir, &to).unwrap();
                format!("rename {} -> {}", dir.display(), to.display())
            }
            40..=51 => {
                // Swap two folders of one root (through a third name).
                let root = self.root();
                let list = self.entries(&root, |m, _| m.is_dir());
                if list.len() < 2 {
                    return self.create();
                }
                let a = list[self.rng.below(list.len())].clone();
                let b = list[self.rng.below(list.len())].clone();
                if a == b {
                    return self.create();
                }
                let tmp = root.join("swap-tmp");
                std::fs::rename(&a, &tmp).unwrap();
                std::fs::rename(&b, &a).unwrap();
                std::fs::rename(&tmp, &b).unwrap();
                format!("swap {} <-> {}", a.display(), b.display())
            }
            52..=57 => self.create(),
            58..=61 => {
                let Some(dir) = self.folder() else { return self.create() };
                std::fs::remove_dir_all(&dir).unwrap();
                format!("remove {}", dir.display())
            }
            62..=67 => {
                // A link to a skill folder elsewhere.
                let root = self.root();
                let to = self.free_name(&root);
                let target = self.store.join(format!("t{}", self.rng.below(4)));
                symlink(&target, &to);
                format!("link {} -> {}", to.display(), target.display())
            }
            68..=70 => {
                // A dangling link.
                let root = self.root();
                let to = self.free_name(&root);
                symlink(&self.nowhere, &to);
                format!("dangling link {}", to.display())
            }
            71..=73 => {
                // A link loop: the whole provider fails while it is there.
                let root = self.root();
                let to = self.free_name(&root);
                symlink(&to, &to);
                format!("loop {}", to.display())
            }
            74..=81 => {
                let Some(link) = self.link() else { return self.create() };
                std::fs::remove_file(&link).unwrap();
                format!("unlink {}", link.display())
            }
            82..=85 => {
                // Edit a linked skill where it lives.
                let dir = self.store.join(format!("t{}", self.rng.below(4)));
                let name = self.skill_name();
                self.write(&dir.join("SKILL.md"), &name);
                format!("edit the link target {}", dir.display())
            }
            86..=89 => {
                // A flat skill file in a root, written or removed.
                let root = self.root();
                let file = root.join(format!("f{}.md", self.rng.below(6)));
                if file.exists() && self.rng.chance(50) {
                    std::fs::remove_file(&file).unwrap();
                    format!("remove {}", file.display())
                } else {
                    let name = self.skill_name();
                    self.write(&file, &name);
                    format!("flat {}", file.display())
                }
            }
            90..=93 => {
                // Broken YAML: a warning instead of a skill.
                let Some(dir) = self.folder() else { return self.create() };
                std::fs::write(dir.join("SKILL.md"), "---\nname: [unclosed\n---\n").unwrap();
                format!("break {}", dir.display())
            }
            _ => {
                // A chmod of a skill file or folder (modes that leave the owner every right the
                // storm needs, so that it runs alike as root and as a user).
                let Some(dir) = self.folder() else { return self.create() };
                let modes = [0o644, 0o600, 0o640, 0o664];
                let mode = modes[self.rng.below(modes.len())];
                let target = if self.rng.chance(50) { dir.join("SKILL.md") } else { dir.clone() };
                let mode = if target == dir { mode | 0o100 } else { mode };
                chmod(&target, mode);
                format!("chmod {:o} {}", mode, target.display())
            }
        }
    }

    fn create(&mut self) -> String {
        let root = self.root();
        let dir = self.free_name(&root);
        std::fs::create_dir(&dir).unwrap();
        let name = self.skill_name();
        self.write(&dir.join("SKILL.md"), &name);
        format!("create {}", dir.display())
    }

    /// Remove the link loops (most rounds), so that discovery is not incomplete for good.
    fn clear_loops(&mut self) {
        for root in self.roots.clone() {
            for l in self.entries(&root, |m, _| m.file_type().is_symlink()) {
                if std::fs::metadata(&l).is_err() && std::fs::read_link(&l).is_ok_and(|t| t == l) && self.rng.chance(70)
                {
                    std::fs::remove_file(&l).unwrap();
                    self.log.push(format!("unloop {}", l.display()));
                }
            }
        }
    }
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

#[cfg(unix)]
fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Wait until the watch's latest catalog event shows `want`; the latest state seen otherwise.
/// `trail` keeps a line for each of the last events (for the failure message).
fn settle(w: &mut Watch, latest: &mut State, want: &State, trail: &mut Vec<String>) -> Result<(), State> {
    let deadline = Instant::now() + PATIENCE;
    while latest != want {
        match w.events.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(e) => {
                if e["event"] == "catalog" {
                    *latest = state_of(&e);
                    trail.push(format!(
                        "{} {} reread {} changed {}",
                        e["outcome"], e["digest"], e["reread"], e["changed"]
                    ));
                    if trail.len() > 30 {
                        trail.remove(0);
                    }
                }
            }
            Err(RecvTimeoutError::Timeout) => return Err(latest.clone()),
            Err(RecvTimeoutError::Disconnected) => panic!("the watch ended"),
        }
    }
    Ok(())
}

fn storm(seed: u64, skills: usize, rounds: usize, links: bool, extra: &[&str]) {
    let rounds = std::env::var("DSH_SKILLS_STORM_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(rounds);
    let (tmp, p, home) = tree();
    let roots = [p.join(".dsh/skills"), p.join(".agents/skills")];
    let store = tmp.path().join("store");
    for r in &roots {
        std::fs::create_dir_all(r).unwrap();
    }
    let mut s = Storm {
        rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
        roots,
        store: store.clone(),
        nowhere: tmp.path().join("nowhere"),
        written: 0,
        log: Vec::new(),
        links,
    };
    for i in 0..4 {
        let dir = store.join(format!("t{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let name = s.skill_name();
        s.write(&dir.join("SKILL.md"), &name);
    }
    for _ in 0..skills {
        s.create();
    }
    let mut cmd = command(&p, &home);
    cmd.args(args(&p, extra));
    let mut w = Watch::spawn(cmd);
    let mut latest = w.seen.iter().rev().find(|e| e["event"] == "catalog").map(state_of).unwrap();
    let first = fresh(&p, &home);
    let mut trail = Vec::new();
    assert_eq!(latest, first, "seed {seed}: the watch's start differs from catalog");
    for round in 0..rounds {
        // Mostly a few changes at once, sometimes a burst of hundreds.
        let n = if s.rng.chance(12) { 50 + s.rng.below(250) } else { 1 + s.rng.below(6) };
        for _ in 0..n {
            let what = s.step();
            s.log.push(format!("round {round}: {what}"));
        }
        s.clear_loops();
        let want = fresh(&p, &home);
        if let Err(got) = settle(&mut w, &mut latest, &want, &mut trail) {
            let tail: Vec<&String> = s.log.iter().rev().take(40).collect();
            panic!(
                "seed {seed}, round {round}: the watch ({}) never showed what catalog shows\n\
                 watch:   {got:?}\ncatalog: {want:?}\nlast changes (newest first): {tail:#?}\n\
                 last events: {trail:#?}",
                extra.join(" ")
            );
        }
    }
    // Everything settled: the last event still matches (nothing outdated came after).
    let want = fresh(&p, &home);
    assert!(settle(&mut w, &mut latest, &want, &mut trail).is_ok(), "seed {seed}: after the storm");
    for r in &s.roots {
        for e in s.entries(r, |m, _| m.is_dir()) {
            chmod(&e, 0o755);
        }
    }
}

/// The native back end (inotify on Linux).
#[cfg(unix)]
#[test]
fn a_storm_of_changes_leaves_the_watch_equal_to_a_fresh_catalog() {
    storm(1, 60, 70, true, &[]);
}

/// Renames, swaps, edits and `chmod`s only: what kept an outdated description for good when
/// the memo trusted the watcher's attribution of each change to an entry.
#[cfg(unix)]
#[test]
fn a_storm_of_renames_and_swaps_leaves_no_outdated_entry() {
    storm(3, 60, 70, false, &[]);
}

/// The polling back end, where notify compares whole seconds of mtime and links used to be
/// errors at every poll.
#[cfg(unix)]
#[test]
fn a_storm_of_changes_leaves_the_polling_watch_equal_to_a_fresh_catalog() {
    storm(2, 60, 50, true, &["--poll"]);
}
