//! `dsh-skills watch`, the engine: what a running harness session would inject at its next step
//! after each change to its skill roots (spec 6.6, `tool-skill/src/index.ts:213-251`).
//!
//! The session is emulated from its start: the first evaluation is the catalog a fresh session
//! gets (or why there is none); after each settled change the engine re-evaluates and compares
//! the digest of the new entries with the last catalog the session published:
//! * incomplete discovery (a provider failed, a root could not be watched): nothing, the model
//!   keeps the previous catalog;
//! * the same digest: nothing (a body edit, a shadowed copy, `whenToUse`, ...);
//! * never published and no entries: nothing (no tombstone for a session that had no catalog);
//! * else the replacement (the empty replacement when no entry is left), or the initial message
//!   when none was published yet.
//!
//! Re-evaluation lists and reads only what changed ([`crate::engine::discover::ScanMemo`], which
//! checks the identity of everything it reuses); when only skill files changed, the last
//! snapshot is patched with their new readings ([`Snapshot::patch`]), and the memo and the
//! watches are audited against the disk once the event is out (a difference is a change of its
//! own). The watcher side lives in [`fs`]. Nothing here prints: events go to the caller's sink.

pub mod fs;
pub mod tool;

use crate::engine::catalog::{self, CatalogEntry, Variant};
use crate::engine::discover::{self, Candidate, Environment, MemoStats, ResolvedProvider, ScanMemo};
use crate::engine::snapshot::{NoCatalog, ProviderSpec, Settings, Snapshot};
use fs::{FsWatcher, Mode, Owner, Signature, Touch, Touched, WatchConfig};
use notify_debouncer_full::DebounceEventResult;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// What the engine is told from outside: settled file-system events, or to stop.
pub enum Msg {
    Fs(DebounceEventResult),
    /// Ctrl-C, a closed stdout, or the caller giving up: end the loop.
    Stop,
}

/// What the session would do at its next step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first catalog of the session (`renderCatalogMessage`).
    Initial,
    /// A replacement catalog (`renderCatalogUpdate`).
    Replacement,
    /// The empty replacement: every skill is gone.
    EmptyReplacement,
    /// No message.
    Nothing(Quiet),
    /// Discovery is incomplete: no message, the model keeps the previous catalog.
    Incomplete,
}

/// Why no message is injected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quiet {
    /// The digest of the entries is the one the session already shows.
    Unchanged,
    /// No catalog was ever published and there is still no model-invocable skill.
    NoModelInvocableSkill,
    /// The `skill` tool is not mounted: the listener sees no skills at all.
    NoSkillTool,
}

/// The entries that differ from the catalog the session shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub description_changed: Vec<String>,
    /// Entries whose description is now cut, or no longer cut, at the maximum length.
    pub cut_changed: Vec<String>,
}

impl Diff {
    pub fn between(old: &[CatalogEntry], new: &[CatalogEntry]) -> Diff {
        let old_by: HashMap<&str, &CatalogEntry> = old.iter().map(|e| (e.name.as_str(), e)).collect();
        let new_names: HashSet<&str> = new.iter().map(|e| e.name.as_str()).collect();
        let mut d = Diff::default();
        for e in new {
            match old_by.get(e.name.as_str()) {
                None => d.added.push(e.name.clone()),
                Some(o) => {
                    if o.description != e.description {
                        d.description_changed.push(e.name.clone());
                    }
                    if o.is_cut() != e.is_cut() {
                        d.cut_changed.push(e.name.clone());
                    }
                }
            }
        }
        d.removed = old.iter().filter(|e| !new_names.contains(e.name.as_str())).map(|e| e.name.clone()).collect();
        d
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.description_changed.is_empty()
            && self.cut_changed.is_empty()
    }
}

/// What started an evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trigger {
    Start,
    /// Settled changes at these paths (as the watcher reported them, sorted).
    Change(Vec<String>),
}

/// One evaluation's answer.
#[derive(Clone, Debug)]
pub struct Event {
    pub trigger: Trigger,
    pub outcome: Outcome,
    /// The injected message, byte for byte (what `catalog` or `catalog --update` prints).
    pub text: Option<String>,
    /// The entries of the new catalog (when discovery was complete).
    pub entries: Option<Vec<CatalogEntry>>,
    pub digest: Option<String>,
    /// Against the catalog the session shows.
    pub diff: Diff,
    /// With [`Outcome::Incomplete`]: each failure, as the harness words it.
    pub failures: Vec<String>,
    /// What changed that the catalog does not show (for a [`Quiet::Unchanged`] outcome).
    pub notes: Vec<String>,
    /// Harness log lines this evaluation wrote that the previous one did not.
    pub warnings: Vec<String>,
    /// How much was listed and read again.
    pub stats: MemoStats,
}

/// With `--skill NAME`: the `skill` tool's result for NAME changed.
#[derive(Clone, Debug)]
pub struct SkillEvent {
    pub name: String,
    pub start: bool,
    pub result: tool::ToolResult,
}

/// What the engine emits.
pub enum Emit<'a> {
    Catalog(&'a Event),
    Skill(&'a SkillEvent),
    /// The roots and how each is observed (once, at the start, and when it changes).
    Watching(&'a [RootWatch]),
}

/// A root as the engine observes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootWatch {
    pub path: String,
    pub source: &'static str,
    pub mode: Result<Mode, String>,
}

/// The options of `dsh-skills watch`.
#[derive(Clone, Debug)]
pub struct Options {
    pub watch: WatchConfig,
    /// `--skill NAME`.
    pub skill: Option<String>,
}

/// The settings again (a configuration file changed): new settings and the configuration
/// files to watch, or why they cannot be read.
pub type Reconfigure = Box<dyn FnMut() -> Result<(Settings, Vec<String>), String>>;

/// The session state the listener keeps: the last published catalog.
#[derive(Default)]
struct Session {
    published: bool,
    visible: Vec<CatalogEntry>,
    visible_digest: Option<String>,
    warnings: HashSet<String>,
    skill: Option<tool::ToolResult>,
}

/// The engine; see the module notes.
pub struct Engine {
    settings: Settings,
    env: Environment,
    options: Options,
    reconfigure: Reconfigure,
    config_files: Vec<(String, Signature)>,
    memo: ScanMemo,
    fs: Option<FsWatcher>,
    fs_error: Option<String>,
    /// Each root's observation mode, by display path.
    modes: HashMap<String, RootWatch>,
    skip_system: HashMap<String, bool>,
    /// Root display paths in scan order (each once).
    root_order: Vec<String>,
    /// Polled paths of roots observed from an ancestor.
    polled: HashMap<String, Signature>,
    /// Roots that cannot be observed, with their last observation, polled for a change.
    polled_modes: HashMap<String, Result<Mode, String>>,
    /// With polling: each skill file's last signature. notify's poller compares whole seconds
    /// of mtime, so a second edit within the same second would go unseen; each skill file is
    /// also stat'ed at every poll, with nanoseconds, size and inode, as `fs.watchFile` does.
    polled_files: HashMap<String, Signature>,
    /// Entry watches: (root, entry) → canonical entry directory and symlinked skill file.
    entry_watch: HashMap<(String, String), (Option<String>, Option<String>)>,
    /// Failures of the last reconcile, by root display path.
    watch_failures: Vec<(String, String)>,
    session: Session,
    /// A configuration file changed since the last evaluation.
    config_changed: bool,
    /// Entries whose skill file changed since the last evaluation (root, entry name).
    pending: BTreeSet<(String, String)>,
    /// Something besides skill files changed since the last evaluation (a listing, a root, the
    /// watcher): the next evaluation scans (else it patches the last snapshot).
    structural: bool,
    /// The last evaluation patched the last snapshot: check the memo against the disk.
    audit_due: bool,
    /// With polling: the watcher errors already reported. The poller reports the same error
    /// at every poll; it is news once.
    reported_errors: HashSet<String>,
    last: Option<Snapshot>,
    rx: Receiver<Msg>,
    tx: Sender<Msg>,
    last_warning_lines: Vec<String>,
}

impl Engine {
    /// Set up the engine (nothing is watched or read yet: see [`Engine::run`]).
    pub fn new(
        settings: Settings,
        env: Environment,
        config_files: Vec<String>,
        reconfigure: Reconfigure,
        options: Options,
    ) -> Engine {
        let (tx, rx) = std::sync::mpsc::channel();
        let handler_tx = tx.clone();
        let (fs, fs_error) = match FsWatcher::new(options.watch, move |r| {
            let _ = handler_tx.send(Msg::Fs(r));
        }) {
            Ok(w) => (Some(w), None),
            Err(e) => (None, Some(fs::error_text(&e, ""))),
        };
        let config_files = config_files.into_iter().map(|p| (p.clone(), fs::signature(&p))).collect();
        let mut settings = settings;
        // Bodies are read only for `--skill`, from the file, as the harness's `get` does; each
        // file's digest tells the notes a save that changed nothing.
        settings.scan.keep_content = false;
        settings.scan.check = None;
        settings.scan.digest = true;
        Engine {
            settings,
            env,
            options,
            reconfigure,
            config_files,
            memo: ScanMemo::new(),
            fs,
            fs_error,
            modes: HashMap::new(),
            skip_system: HashMap::new(),
            root_order: Vec::new(),
            polled: HashMap::new(),
            polled_modes: HashMap::new(),
            polled_files: HashMap::new(),
            entry_watch: HashMap::new(),
            watch_failures: Vec::new(),
            session: Session::default(),
            config_changed: false,
            pending: BTreeSet::new(),
            structural: true,
            reported_errors: HashSet::new(),
            audit_due: false,
            last: None,
            rx,
            tx,
            last_warning_lines: Vec::new(),
        }
    }

    /// A handle that ends [`Engine::run`] (from a signal handler or another thread).
    pub fn stopper(&self) -> Sender<Msg> {
        self.tx.clone()
    }

    /// Evaluate once for the session's start, then after each settled change, until stopped or
    /// the sink fails (a closed stdout): `Err` carries the sink's error.
    pub fn run(&mut self, sink: &mut dyn FnMut(Emit) -> std::io::Result<()>) -> std::io::Result<()> {
        self.evaluate(Trigger::Start, sink)?;
        let tick = self.options.watch.tick();
        let quiet = tick * 2;
        let poll = self.options.watch.poll_interval;
        let stability = self.options.watch.stability;
        let mut next_poll = Instant::now() + poll;
        let mut due: Option<Instant> = None;
        let mut changed: BTreeSet<String> = BTreeSet::new();
        let mut relevant = false;
        loop {
            let now = Instant::now();
            let wake = due.map_or(next_poll, |d| d.min(next_poll));
            match self.rx.recv_timeout(wake.saturating_duration_since(now)) {
                Ok(Msg::Stop) => return Ok(()),
                Ok(Msg::Fs(Ok(events))) => {
                    for e in &events {
                        if is_read_only(&e.event.kind) {
                            // Opening and reading (ours included) changes nothing.
                            continue;
                        }
                        if e.event.need_rescan() {
                            // The system dropped events: nothing the memo holds can be trusted.
                            self.memo.clear();
                            self.entry_watch.clear();
                            self.structural = true;
                            relevant = true;
                            changed.insert("(events were lost: everything is read again)".into());
                        }
                        // The watched node is gone or moved: a watch follows its node (inotify),
                        // not its path, so whatever comes back at the path is watched anew.
                        let moved = matches!(
                            e.event.kind,
                            notify::EventKind::Remove(_)
                                | notify::EventKind::Modify(notify::event::ModifyKind::Name(_))
                        );
                        for p in &e.event.paths {
                            let path = p.to_string_lossy().into_owned();
                            let touches = self.fs.as_ref().map(|f| f.touches(&path)).unwrap_or_default();
                            if moved && let Some(f) = self.fs.as_mut().filter(|f| f.is_watched(&path)) {
                                f.forget(&path);
                            }
                            let matters = touches.iter().any(|t| t.relevant || self.was_relevant(t));
                            for t in &touches {
                                self.apply(t);
                            }
                            if matters {
                                relevant = true;
                                changed.insert(path);
                            }
                        }
                    }
                    if relevant {
                        due = Some(Instant::now() + quiet);
                    }
                }
                Ok(Msg::Fs(Err(errors))) => {
                    // `handleWatcherError`: logged, the watcher is rebuilt, the catalog invalidated.
                    let mut news = false;
                    for e in errors {
                        let path = e.paths.first().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
                        let root = self.modes.keys().find(|r| path.starts_with(r.as_str())).cloned();
                        let line = format!(
                            "skill-filesystem: watcher for {} failed: {}",
                            root.as_deref().unwrap_or(&path),
                            fs::error_text(&e, &path)
                        );
                        // The poller reports an error again at every poll, for as long as its
                        // cause lasts: only the first report is a change.
                        if self.options.watch.polling && !self.reported_errors.insert(line.clone()) {
                            continue;
                        }
                        self.last_warning_lines.push(line);
                        news = true;
                    }
                    if news {
                        self.memo.clear();
                        self.entry_watch.clear();
                        self.structural = true;
                        relevant = true;
                        due = Some(Instant::now() + quiet);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(()),
            }
            let now = Instant::now();
            if now >= next_poll {
                next_poll = now + poll;
                let polled = self.poll();
                if !polled.is_empty() {
                    relevant = true;
                    changed.extend(polled);
                    due = Some(now + stability);
                }
            }
            if let Some(d) = due
                && Instant::now() >= d
            {
                // `awaitWriteFinish`: a skill file written less than the threshold ago is not
                // settled yet.
                if let Some(later) = self.unsettled(&changed, stability) {
                    due = Some(later);
                    continue;
                }
                due = None;
                if relevant {
                    let paths: Vec<String> = std::mem::take(&mut changed).into_iter().collect();
                    relevant = false;
                    self.evaluate(Trigger::Change(paths), sink)?;
                    if std::mem::take(&mut self.audit_due) {
                        let found = self.audit();
                        if !found.is_empty() {
                            // Found by looking, not told: it may be a write in progress, so it
                            // settles as a polled change does.
                            relevant = true;
                            changed.extend(found);
                            due = Some(Instant::now() + stability);
                        }
                    }
                }
            }
        }
    }

    /// The latest time at which a changed skill file will have been quiet for `stability`, when
    /// that is still ahead.
    fn unsettled(&self, changed: &BTreeSet<String>, stability: Duration) -> Option<Instant> {
        let now_wall = std::time::SystemTime::now();
        let mut wait = Duration::ZERO;
        for p in changed.iter().filter(|p| p.ends_with(".md")) {
            let Ok(modified) = std::fs::metadata(p).and_then(|m| m.modified()) else { continue };
            if let Ok(age) = now_wall.duration_since(modified)
                && age < stability
            {
                wait = wait.max(stability - age);
            }
        }
        (!wait.is_zero()).then(|| Instant::now() + wait)
    }

    /// Invalidate what a change touched.
    fn apply(&mut self, t: &Touch) {
        match &t.what {
            Touched::Root => {
                self.structural = true;
                self.memo.invalidate_root(&t.root);
                self.entry_watch.retain(|(r, _), _| r != &t.root);
            }
            Touched::Listing(name) => {
                self.structural = true;
                self.memo.invalidate_listing(&t.root);
                self.memo.invalidate_entry(&t.root, name);
                self.entry_watch.remove(&(t.root.clone(), name.clone()));
                // Whatever has the name now (a rename, a swap) is watched anew: the old watch
                // follows the folder that had it, wherever it went, and would report that
                // folder's changes under this name.
                if let Some(Ok(Mode::Root { anchor })) = self.modes.get(&t.root).map(|w| &w.mode) {
                    let path = crate::engine::platform::join(anchor, name);
                    if let Some(f) = self.fs.as_mut() {
                        f.forget(&path);
                    }
                }
            }
            Touched::Entry(name) => {
                self.memo.invalidate_entry(&t.root, name);
                self.pending.insert((t.root.clone(), name.clone()));
            }
        }
    }

    /// Whether a change to a root's direct entry that looks irrelevant now (it is gone, or a
    /// plain file) mattered to the last discovery: the entry was a skill, a folder, a link or a
    /// special file there, or the root did not scan (a link loop in it made the listing fail).
    fn was_relevant(&self, t: &Touch) -> bool {
        let Touched::Listing(name) = &t.what else { return false };
        if name == ".system" && self.skip_system.get(&t.root) == Some(&true) {
            return false;
        }
        let Some(last) = &self.last else { return true };
        last.scans().flat_map(|(_, scan)| &scan.roots).filter(|r| r.root.path == t.root).any(|r| {
            r.status != discover::RootStatus::Scanned
                || r.entries.iter().any(|e| {
                    &e.name == name
                        && !(matches!(e.outcome, discover::Outcome::Ignored)
                            && e.kind == crate::engine::nodefs::Kind::File)
                })
        })
    }

    /// Check what the memo and the watcher hold against the disk (after an evaluation that
    /// patched the last snapshot, trusting the events): the paths found changed, each marked
    /// for the next evaluation.
    fn audit(&mut self) -> Vec<String> {
        let stale = self.memo.audit();
        let mut paths = Vec::new();
        for root in stale.roots {
            self.structural = true;
            paths.push(root);
        }
        for (root, name, file) in stale.entries {
            self.pending.insert((root, name));
            paths.push(file);
        }
        let moved = self.fs.as_mut().map(|f| f.verify()).unwrap_or_default();
        for (path, owners) in moved {
            self.structural = true;
            for o in owners {
                if let Owner::Entry(root, name) | Owner::File(root, name) = o {
                    self.memo.invalidate_entry(&root, &name);
                    self.entry_watch.remove(&(root, name));
                }
            }
            paths.push(path);
        }
        paths
    }

    /// Poll missing roots' ancestors and the configuration files; returns the paths that
    /// changed (a root appeared, a configuration file was edited).
    fn poll(&mut self) -> Vec<String> {
        let mut changed = self.poll_structure();
        if !changed.is_empty() {
            self.structural = true;
        }
        if self.options.watch.polling {
            changed.extend(self.poll_skill_files());
        }
        let watch_failed = self.watch_failures.iter().any(|(r, _)| self.modes.get(r).is_some_and(|w| w.mode.is_ok()));
        if watch_failed && self.retry_watches() {
            self.structural = true;
            changed.extend(self.watch_failures.drain(..).map(|(root, _)| root));
        }
        changed
    }

    /// Missing roots' ancestors, configuration files, roots that could not be observed.
    fn poll_structure(&mut self) -> Vec<String> {
        let mut changed = Vec::new();
        for (path, sig) in self.polled.iter_mut() {
            let now = fs::signature(path);
            if now != *sig {
                *sig = now;
                changed.push(path.clone());
            }
        }
        for (path, sig) in self.config_files.iter_mut() {
            let now = fs::signature(path);
            if now != *sig {
                *sig = now;
                changed.push(path.clone());
                self.config_changed = true;
            }
        }
        // A root that could not be observed is tried again (`scheduleRewatch`).
        for (path, last) in self.polled_modes.iter_mut() {
            let now = fs::resolve_mode(path);
            if now != *last {
                *last = now;
                changed.push(path.clone());
            }
        }
        changed
    }

    /// The skill file of each noted entry, as the watcher names it.
    fn skill_files(&self) -> Vec<String> {
        let anchor = |root: &str| match self.modes.get(root).map(|w| &w.mode) {
            Some(Ok(Mode::Root { anchor })) => Some(anchor.clone()),
            _ => None,
        };
        self.entry_watch
            .iter()
            .filter_map(|((root, name), (dir, file))| {
                file.clone().or_else(|| dir.as_ref().map(|d| crate::engine::platform::join(d, "SKILL.md"))).or_else(
                    || {
                        name.ends_with(".md")
                            .then(|| anchor(root))
                            .flatten()
                            .map(|a| crate::engine::platform::join(&a, name))
                    },
                )
            })
            .collect()
    }

    /// With polling, the skill files whose signature changed since the last poll (or since the
    /// scan that noted them); what each touched is invalidated as for an event.
    fn poll_skill_files(&mut self) -> Vec<String> {
        let mut changed = Vec::new();
        let mut next = HashMap::new();
        for f in self.skill_files() {
            let now = fs::signature(&f);
            if self.polled_files.get(&f).is_some_and(|before| *before != now) {
                changed.push(f.clone());
            }
            next.insert(f, now);
        }
        self.polled_files = next;
        for f in &changed {
            let touches = self.fs.as_ref().map(|w| w.touches(f)).unwrap_or_default();
            for t in &touches {
                self.apply(t);
            }
        }
        changed
    }

    fn retry_watches(&mut self) -> bool {
        let desired = self.desired_watches();
        match self.fs.as_mut() {
            Some(f) => f.reconcile(desired).1.is_empty(),
            None => false,
        }
    }

    /// The roots of every filesystem provider, in registration order.
    fn roots(&self) -> Vec<discover::Root> {
        let cwd = self.settings.cwd.as_ref().map(|c| crate::engine::platform::resolve(&self.env.process_cwd, c));
        let project_root = cwd.as_deref().map(discover::find_project_root);
        let mut roots = Vec::new();
        for layer in &self.settings.layers {
            for spec in &layer.providers {
                if let ProviderSpec::Filesystem(config) = spec {
                    let resolved = ResolvedProvider::new(config, &self.env);
                    roots.extend(discover::roots(&resolved, project_root.as_ref().map(|(p, _)| p.as_str())));
                }
            }
        }
        roots
    }

    /// Refresh each root's observation mode (`ensureCurrentWatcher`); a root whose mode changed
    /// is read again. Returns whether the set of modes changed.
    fn refresh_modes(&mut self) -> bool {
        let roots = self.roots();
        let mut modes = HashMap::new();
        self.root_order.clear();
        self.skip_system.clear();
        for r in &roots {
            *self.skip_system.entry(r.path.clone()).or_default() |= r.skip_system;
            if modes.contains_key(&r.path) {
                continue;
            }
            let mode = fs::resolve_mode(&r.path);
            if self.modes.get(&r.path).map(|w| &w.mode) != Some(&mode) {
                self.memo.invalidate_root(&r.path);
                self.entry_watch.retain(|(root, _), _| root != &r.path);
            }
            self.root_order.push(r.path.clone());
            modes.insert(r.path.clone(), RootWatch { path: r.path.clone(), source: r.source, mode });
        }
        let changed = modes != self.modes;
        self.modes = modes;
        self.polled_modes =
            self.modes.values().filter(|w| w.mode.is_err()).map(|w| (w.path.clone(), w.mode.clone())).collect();
        self.polled = self
            .modes
            .values()
            .filter_map(|w| match &w.mode {
                Ok(Mode::Ancestor { next, .. }) => Some((next.clone(), fs::signature(next))),
                _ => None,
            })
            .collect();
        changed
    }

    /// Every path to watch: each observed root's canonical directory, its entry directories
    /// and symlinked skill files.
    fn desired_watches(&self) -> HashMap<String, HashSet<Owner>> {
        let mut desired: HashMap<String, HashSet<Owner>> = HashMap::new();
        for w in self.modes.values() {
            if let Ok(Mode::Root { anchor }) = &w.mode {
                let skip = self.skip_system.get(&w.path).copied().unwrap_or(false);
                desired.entry(anchor.clone()).or_default().insert(Owner::Root(w.path.clone(), skip));
            }
        }
        for ((root, name), (dir, file)) in &self.entry_watch {
            if !matches!(self.modes.get(root).map(|w| &w.mode), Some(Ok(Mode::Root { .. }))) {
                continue;
            }
            let recursive = self.fs.as_ref().is_some_and(|f| f.recursive_roots);
            let inside = |p: &str| match self.modes.get(root).map(|w| &w.mode) {
                Some(Ok(Mode::Root { anchor })) => p.starts_with(&format!("{anchor}{}", crate::engine::platform::SEP)),
                _ => false,
            };
            if let Some(dir) = dir.as_ref().filter(|d| !(recursive && inside(d))) {
                desired.entry(dir.clone()).or_default().insert(Owner::Entry(root.clone(), name.clone()));
            }
            if let Some(file) = file {
                desired.entry(file.clone()).or_default().insert(Owner::File(root.clone(), name.clone()));
            }
        }
        desired
    }

    /// Note the entries of the scan that need watching (directories, symlinked skill files).
    /// Entries noted before are taken as they were, but those in `again` (their skill file
    /// changed: it may be a link now).
    fn note_entries(&mut self, snap: &Snapshot, again: &BTreeSet<(String, String)>) {
        let mut seen: HashSet<(String, String)> = HashSet::new();
        for (_, scan) in snap.scans() {
            for r in &scan.roots {
                for e in &r.entries {
                    let key = (r.root.path.clone(), e.name.clone());
                    if !seen.insert(key.clone()) {
                        continue;
                    }
                    if self.entry_watch.contains_key(&key) && !again.contains(&key) {
                        continue;
                    }
                    self.entry_watch.insert(key, entry_watches(e));
                }
            }
        }
        self.entry_watch.retain(|k, _| seen.contains(k));
        if self.options.watch.polling {
            // Signatures as of this scan: an edit before the next poll is still a change.
            for f in self.skill_files() {
                self.polled_files.entry(f.clone()).or_insert_with(|| fs::signature(&f));
            }
        }
    }

    /// [`Engine::note_entries`] for the entries `keys` only (after [`Snapshot::patch`]): whether
    /// what they need watched changed.
    fn renote(&mut self, snap: &Snapshot, keys: &[(String, String)]) -> bool {
        let mut changed = false;
        for key in keys {
            let report = snap
                .scans()
                .flat_map(|(_, scan)| &scan.roots)
                .filter(|r| r.root.path == key.0)
                .find_map(|r| r.entries.iter().find(|e| e.name == key.1));
            let Some(e) = report else { continue };
            let now = entry_watches(e);
            if self.entry_watch.get(key) != Some(&now) {
                self.entry_watch.insert(key.clone(), now.clone());
                changed = true;
            }
            if self.options.watch.polling
                && let Some(f) = now.1.or_else(|| now.0.map(|d| crate::engine::platform::join(&d, "SKILL.md")))
            {
                self.polled_files.entry(f.clone()).or_insert_with(|| fs::signature(&f));
            }
        }
        changed
    }

    /// Watch what should be watched; an entry folder watched only now may have changed between
    /// its reading and its watch, so those entries are read again, now that a change to them
    /// is seen (by patching `snap` when they are few, else by a scan that checks the identity
    /// of everything it reuses).
    fn settle_watches(&mut self, snap: &mut Snapshot) {
        let added = self.reconcile();
        if added.is_empty() {
            return;
        }
        let mut again: BTreeSet<(String, String)> = BTreeSet::new();
        let mut rescan = false;
        for path in added {
            for t in self.fs.as_ref().map(|f| f.touches(&path)).unwrap_or_default() {
                match &t.what {
                    Touched::Listing(name) => {
                        again.insert((t.root.clone(), name.clone()));
                    }
                    Touched::Root => {
                        self.memo.invalidate_listing(&t.root);
                        rescan = true;
                    }
                    Touched::Entry(_) => {}
                }
            }
        }
        let again: Vec<(String, String)> = again.into_iter().collect();
        let few = again.len() <= PATCH_AT_MOST;
        if !rescan && few && snap.patch(&self.settings, &mut self.memo, &again).is_some() {
            return;
        }
        if few {
            for (root, name) in &again {
                self.memo.invalidate_entry(root, name);
            }
        }
        *snap = Snapshot::discover_with(&self.settings, &self.env, Some(&mut self.memo));
        self.note_entries(snap, &BTreeSet::new());
        self.reconcile();
    }

    /// Watch what should be watched; returns the newly watched entry paths.
    fn reconcile(&mut self) -> Vec<String> {
        let desired = self.desired_watches();
        self.watch_failures.clear();
        let Some(fs) = self.fs.as_mut() else {
            let error = self.fs_error.clone().unwrap_or_default();
            self.watch_failures = self
                .modes
                .values()
                .filter(|w| matches!(w.mode, Ok(Mode::Root { .. })))
                .map(|w| (w.path.clone(), error.clone()))
                .collect();
            return Vec::new();
        };
        let (added, failures) = fs.reconcile(desired);
        // A root whose observation cannot even be set up (`stat` of it or an ancestor failed).
        for w in self.modes.values() {
            if let Err(e) = &w.mode {
                self.watch_failures.push((w.path.clone(), e.clone()));
            }
        }
        for (owner, error) in failures {
            let root = match owner {
                Owner::Root(r, _) | Owner::Entry(r, _) | Owner::File(r, _) => r,
            };
            if !self.watch_failures.iter().any(|(r, _)| r == &root) {
                self.watch_failures.push((root, error));
            }
        }
        added
    }

    /// A discovery run, with the watcher's failures folded in (`list()` reports an incomplete
    /// observation when a root could not be watched, `index.ts:184-190`).
    ///
    /// When only skill files changed since the last evaluation, the last snapshot is patched
    /// with their new readings ([`Snapshot::patch`]): the cost is the change's, not the tree's.
    /// The third value is then the candidates the patch replaced (for the notes).
    fn discover(&mut self) -> (Snapshot, Vec<String>, Option<Vec<Candidate>>) {
        let pending: BTreeSet<(String, String)> = std::mem::take(&mut self.pending);
        let structural = std::mem::replace(&mut self.structural, false);
        let modes_changed = self.refresh_modes();
        if modes_changed {
            // New roots are watched before they are read.
            self.reconcile();
        }
        let mut patched = None;
        let mut snap = None;
        if !modes_changed
            && !structural
            && !pending.is_empty()
            && let Some(mut last) = self.last.take()
        {
            let keys: Vec<(String, String)> = pending.iter().cloned().collect();
            match last.patch(&self.settings, &mut self.memo, &keys) {
                Some(before) => {
                    if self.renote(&last, &keys) {
                        self.settle_watches(&mut last);
                    }
                    // Patching trusted the events: the memo and the watches are checked
                    // against the disk once the event is out.
                    self.audit_due = true;
                    patched = Some(before);
                    snap = Some(last);
                }
                None => self.last = Some(last),
            }
        }
        let mut snap = match snap {
            Some(s) => s,
            None => {
                let mut s = Snapshot::discover_with(&self.settings, &self.env, Some(&mut self.memo));
                self.note_entries(&s, &pending);
                self.settle_watches(&mut s);
                s
            }
        };
        let mut failures = Vec::new();
        for (root, error) in &self.watch_failures {
            let line = format!("skill-filesystem: failed to watch {root}: {error}");
            snap.warnings.push(line.clone());
            failures.push(line);
        }
        snap.warnings.append(&mut self.last_warning_lines);
        if !failures.is_empty() {
            snap.complete = false;
        }
        for (name, e) in snap.provider_errors() {
            failures.insert(0, format!("skill provider \"{name}\" skipped: {e}"));
        }
        (snap, failures, patched)
    }

    /// Evaluate and emit.
    fn evaluate(&mut self, trigger: Trigger, sink: &mut dyn FnMut(Emit) -> std::io::Result<()>) -> std::io::Result<()> {
        let start = trigger == Trigger::Start;
        let mut config_warning = None;
        if std::mem::take(&mut self.config_changed) {
            match (self.reconfigure)() {
                Ok((mut settings, files)) => {
                    settings.scan.keep_content = false;
                    settings.scan.check = None;
                    settings.scan.digest = true;
                    self.settings = settings;
                    self.memo.clear();
                    self.entry_watch.clear();
                    self.structural = true;
                    self.config_files = files.into_iter().map(|p| (p.clone(), fs::signature(&p))).collect();
                }
                Err(e) => {
                    config_warning =
                        Some(format!("dsh-skills: the configuration cannot be read, so the previous one stays: {e}"))
                }
            }
        }
        let modes_before = self.sorted_modes();
        let (snap, failures, patched) = self.discover();
        let mut stats = self.memo.take_stats();
        if patched.is_some() {
            // Every other entry's reading was kept, as a scan with the memo would keep it.
            let entries: usize = snap.scans().flat_map(|(_, scan)| &scan.roots).map(|r| r.entries.len()).sum();
            stats.reused = entries.saturating_sub(stats.read);
        }
        let modes_after = self.sorted_modes();
        let mut event = self.decide(&snap, trigger, failures, stats);
        if let Some(w) = config_warning {
            event.warnings.insert(0, w);
        }
        if let (Trigger::Change(paths), Outcome::Nothing(Quiet::Unchanged)) = (&event.trigger, event.outcome) {
            match (&patched, &self.last) {
                (Some(before), _) => event.notes = notes_patched(before, &snap, paths),
                (None, Some(prev)) => event.notes = notes(prev, &snap, paths),
                (None, None) => {}
            }
        }
        let skill = self.options.skill.as_ref().map(|name| tool::skill_tool(&snap, name));
        let skill_changed = skill.is_some() && skill != self.session.skill;
        if start || modes_after != modes_before {
            sink(Emit::Watching(&modes_after))?;
        }
        sink(Emit::Catalog(&event))?;
        if let (true, Some(name), Some(result)) = (skill_changed, &self.options.skill, &skill) {
            sink(Emit::Skill(&SkillEvent { name: name.clone(), start, result: result.clone() }))?;
        }
        self.session.skill = skill;
        self.last = Some(snap);
        Ok(())
    }

    /// Each root's observation, in scan order.
    fn sorted_modes(&self) -> Vec<RootWatch> {
        self.root_order.iter().filter_map(|p| self.modes.get(p)).cloned().collect()
    }

    /// The listener's decision (spec 6.6), and the session state it leaves.
    fn decide(&mut self, snap: &Snapshot, trigger: Trigger, failures: Vec<String>, stats: MemoStats) -> Event {
        let lines: Vec<String> = snap.warnings.clone();
        let warnings: Vec<String> = lines.iter().filter(|w| !self.session.warnings.contains(*w)).cloned().collect();
        self.session.warnings = lines.into_iter().collect();
        let mut event = Event {
            trigger,
            outcome: Outcome::Incomplete,
            text: None,
            entries: None,
            digest: None,
            diff: Diff::default(),
            failures: Vec::new(),
            notes: Vec::new(),
            warnings,
            stats,
        };
        let cat = snap.catalog(Variant::Replacement);
        if cat.why_none == Some(NoCatalog::Incomplete) {
            event.failures = failures;
            return event;
        }
        let entries = cat.entries.unwrap_or_default();
        let digest = catalog::digest(&entries);
        event.digest = Some(digest.clone());
        event.diff = Diff::between(&self.session.visible, &entries);
        event.outcome = if self.session.visible_digest.as_deref() == Some(digest.as_str()) {
            Outcome::Nothing(Quiet::Unchanged)
        } else if !self.session.published && entries.is_empty() {
            // No catalog, so no digest: `catalog --format json` says null here too.
            event.digest = None;
            Outcome::Nothing(if snap.tool_visible { Quiet::NoModelInvocableSkill } else { Quiet::NoSkillTool })
        } else if !self.session.published {
            event.text = Some(catalog::render(&entries, Variant::Initial));
            Outcome::Initial
        } else {
            event.text = cat.text;
            if entries.is_empty() { Outcome::EmptyReplacement } else { Outcome::Replacement }
        };
        if event.text.is_some() {
            self.session.published = true;
            self.session.visible = entries.clone();
            self.session.visible_digest = Some(digest);
        }
        event.entries = Some(entries);
        event
    }
}

/// Up to how many entries watched anew are read again by patching the snapshot, not by a scan.
const PATCH_AT_MOST: usize = 64;

/// What an entry needs watched: its folder's canonical path (a skill bundle), and its skill
/// file's canonical path when that is a symbolic link.
fn entry_watches(e: &discover::EntryReport) -> (Option<String>, Option<String>) {
    let dir = (e.kind == crate::engine::nodefs::Kind::Directory).then(|| fs::canonical(&e.path)).flatten();
    let file = e
        .locator
        .as_ref()
        .filter(|l| std::fs::symlink_metadata(l).is_ok_and(|m| m.file_type().is_symlink()))
        .and_then(|l| fs::canonical(l));
    (dir, file)
}

/// An event for a read (open, access, closing a file opened for reading): no change.
fn is_read_only(kind: &notify::EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode};
    matches!(kind, notify::EventKind::Access(a) if !matches!(a, AccessKind::Close(AccessMode::Write)))
}

/// What changed at `paths` that the catalog does not show: a body, `whenToUse`, a shadowed or
/// hidden copy, a skipped file.
pub fn notes(old: &Snapshot, new: &Snapshot, paths: &[String]) -> Vec<String> {
    notes_from(&old.candidates, |p| old.candidates.iter().find(|o| o.path.as_deref() == Some(p)), new, paths)
}

/// [`notes`] after [`Snapshot::patch`]: `before` holds the candidates it replaced; every other
/// candidate is as it was.
fn notes_patched(before: &[Candidate], new: &Snapshot, paths: &[String]) -> Vec<String> {
    let find = |list: &'_ [Candidate], p: &str| list.iter().position(|c| c.path.as_deref() == Some(p));
    notes_from(
        before,
        |p| match find(before, p) {
            Some(i) => Some(&before[i]),
            None => find(&new.candidates, p).map(|i| &new.candidates[i]),
        },
        new,
        paths,
    )
}

/// The notes, given the old candidates and how to find the old candidate at a path.
fn notes_from<'a>(
    old_candidates: &'a [Candidate],
    old_at: impl Fn(&str) -> Option<&'a Candidate>,
    new: &Snapshot,
    paths: &[String],
) -> Vec<String> {
    let under: Vec<String> = paths.iter().map(|c| format!("{c}{}", crate::engine::platform::SEP)).collect();
    let touched = |p: &str| {
        let dir = crate::engine::platform::dirname(p);
        paths.iter().zip(&under).any(|(c, u)| c == p || *c == dir || p.starts_with(u.as_str()))
    };
    let winner_of = |s: &Snapshot, name: &str| s.winner(name).and_then(|c| c.path.clone());
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for c in &new.candidates {
        let Some(path) = c.path.as_deref() else { continue };
        if !touched(path) || !seen.insert(path.to_string()) {
            continue;
        }
        let name = &c.skill.name;
        let before = old_at(path);
        let wins = winner_of(new, name).as_deref() == Some(path);
        if !wins {
            let winner = new.winner(name).map_or("another", |w| w.source);
            out.push(format!("{name} ({}, {path}) is shadowed: the {winner} copy wins", c.source));
            continue;
        }
        if !c.skill.invocation.model_invocable {
            out.push(format!(
                "{name} ({path}) is not model-invocable (disable-model-invocation), so it is not in the catalog"
            ));
            continue;
        }
        match before {
            Some(b) if b.skill.digest.is_some() && b.skill.digest == c.skill.digest => {
                out.push(format!("{name}: the skill file's content is unchanged"))
            }
            Some(b) if b.skill.when_to_use != c.skill.when_to_use => {
                out.push(format!("{name}: whenToUse changed; the catalog does not show it"))
            }
            Some(b) if b.skill.name == c.skill.name && b.skill.description == c.skill.description => out.push(format!(
                "{name}: the body or a field the catalog does not show changed (the `skill` tool reads the body when it loads the skill)"
            )),
            Some(b) if b.skill.description != c.skill.description => out.push(format!(
                "{name}: the description changed only in white space or past the cut, so the catalog entry is the same"
            )),
            _ => {}
        }
    }
    for o in old_candidates {
        let Some(path) = o.path.as_deref() else { continue };
        if touched(path)
            && !new.candidates.iter().any(|c| c.path.as_deref() == Some(path))
            && seen.insert(path.to_string())
        {
            out.push(format!("{} ({path}) is no longer a skill", o.skill.name));
        }
    }
    out
}
