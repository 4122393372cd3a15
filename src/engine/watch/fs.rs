//! The file-system side of `dsh-skills watch`: which paths are watched, and what a change under
//! one of them means for discovery.
//!
//! As the harness's `SkillWatchManager` (`skill-filesystem/src/index.ts:284-680`) does with
//! Chokidar at depth 1, each existing root is watched at its canonical path together with each of
//! its entry directories (so a change to `<root>/<entry>/SKILL.md` is seen, and nothing deeper),
//! symbolic links followed; a root that does not exist is observed by polling the next path
//! segment under its nearest existing ancestor (`resolveRootWatchMode`). Events reach the
//! engine through `notify-debouncer-full`, which settles each path for the stability threshold.

use notify::{PollWatcher, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, NoCache, new_debouncer_opt};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Duration;

/// Who a watched path is watched for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// The root (display path) whose canonical directory this is; `true` when it skips `.system`.
    Root(String, bool),
    /// The directory of the root's entry `name`.
    Entry(String, String),
    /// The skill file of the root's entry `name`, when it is a symbolic link (its target).
    File(String, String),
}

/// What a change means for the discovery memo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Touched {
    /// The root itself appeared, vanished or was replaced.
    Root,
    /// The root's entry `name` was added, removed, renamed or changed kind.
    Listing(String),
    /// The skill file of the root's entry `name` changed.
    Entry(String),
}

/// One change, for the root with this display path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Touch {
    pub root: String,
    pub what: Touched,
    /// Whether the harness's watcher would invalidate its catalog for it
    /// (`isRelevantWatchEvent`): every change to a root or an entry directory, a `.md` file in
    /// the root, or a `SKILL.md` in an entry directory; never `.system` in the user-dsh root.
    /// Also a symbolic link directly in the root, whatever it leads to (a loop makes the
    /// listing fail); the engine adds the removal of what the last discovery counted.
    pub relevant: bool,
}

/// How a root is observed (`RootWatchMode`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The root exists: its canonical path is watched.
    Root { anchor: String },
    /// It does not: `next`, the first missing segment below the nearest existing ancestor, is
    /// polled.
    Ancestor { anchor: String, next: String },
}

/// A path's `stat` as Node's `watchFile` compares it: `None` when it does not exist.
pub type Signature = Option<Vec<i128>>;

pub fn signature(path: &str) -> Signature {
    // A link that cannot be followed (dangling, a loop) still differs from nothing at all.
    let meta = std::fs::metadata(path).or_else(|_| std::fs::symlink_metadata(path)).ok()?;
    let time = |t: std::io::Result<std::time::SystemTime>| {
        t.ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as i128)
    };
    let mut sig = vec![i128::from(meta.is_dir()), i128::from(meta.len()), time(meta.modified())];
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        sig.extend([
            i128::from(meta.dev()),
            i128::from(meta.ino()),
            i128::from(meta.ctime_nsec()),
            i128::from(meta.ctime()),
        ]);
    }
    Some(sig)
}

/// The canonical path of an existing path (symbolic links resolved), as a string.
pub fn canonical(path: &str) -> Option<String> {
    dunce::canonicalize(path).ok().map(|p| p.to_string_lossy().into_owned())
}

/// `resolveRootWatchMode(root, followSymlinks = true)`: the root's canonical path when it is a
/// directory; else the nearest existing ancestor directory and the segment below it to poll.
/// A `stat` failure other than absence is the watcher failure the harness logs.
pub fn resolve_mode(root: &str) -> Result<Mode, String> {
    let mut candidate = root.to_string();
    loop {
        match std::fs::metadata(&candidate) {
            Ok(meta) if meta.is_dir() => {
                let anchor = canonical(&candidate).unwrap_or_else(|| candidate.clone());
                if candidate == root {
                    return Ok(Mode::Root { anchor });
                }
                let rest = root[candidate.len()..].trim_start_matches(['/', '\\']);
                let first = rest.split(['/', '\\']).next().unwrap_or("");
                return Ok(Mode::Ancestor { next: crate::engine::platform::join(&anchor, first), anchor });
            }
            Ok(_) => {}
            Err(e) => {
                let code = crate::engine::nodefs::errno_name(&e);
                if !matches!(code, "ENOENT" | "ENOTDIR") {
                    return Err(crate::engine::nodefs::NodeError::from_io(&e, "stat", &candidate).to_string());
                }
            }
        }
        let parent = crate::engine::platform::dirname(&candidate);
        if parent == candidate {
            return Ok(Mode::Ancestor { anchor: candidate, next: root.to_string() });
        }
        candidate = parent;
    }
}

/// The watcher back end: native events (inotify, FSEvents, ReadDirectoryChangesW) or polling
/// (`watchUsePolling`), both behind the debouncer.
enum Backend {
    Native(Debouncer<RecommendedWatcher, NoCache>),
    Poll(Debouncer<PollWatcher, NoCache>),
}

impl Backend {
    fn watch(&mut self, path: &Path, mode: RecursiveMode) -> notify::Result<()> {
        match self {
            Backend::Native(d) => d.watch(path, mode),
            Backend::Poll(d) => d.watch(path, mode),
        }
    }

    fn unwatch(&mut self, path: &Path) {
        let _ = match self {
            Backend::Native(d) => d.unwatch(path),
            Backend::Poll(d) => d.unwatch(path),
        };
    }
}

/// How the watcher is set up.
#[derive(Clone, Copy, Debug)]
pub struct WatchConfig {
    /// `watchUsePolling`.
    pub polling: bool,
    /// `watchStabilityThresholdMs`: a path is reported once it has been quiet this long.
    pub stability: Duration,
    /// `watchPollIntervalMs`: the polling period (polling back end, missing roots, configuration
    /// files).
    pub poll_interval: Duration,
}

impl WatchConfig {
    /// How often the debouncer looks for settled paths: a twentieth of the threshold, between 1
    /// and 10 ms, so that an event follows the threshold closely.
    pub fn tick(&self) -> Duration {
        (self.stability / 20).clamp(Duration::from_millis(1), Duration::from_millis(10))
    }
}

/// The node a path leads to (`stat`, links followed): device and inode.
type NodeId = (u64, u64);

#[cfg(unix)]
fn node_id(path: &str) -> Option<NodeId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn node_id(_path: &str) -> Option<NodeId> {
    None
}

/// The set of watched paths and their owners.
pub struct FsWatcher {
    backend: Backend,
    watched: HashMap<String, HashSet<Owner>>,
    /// The node each watched path led to when its watch was set up, and back: a native watch
    /// follows its node (inotify) and reports its changes under the path it was set up with,
    /// wherever the node has gone since.
    ids: HashMap<String, NodeId>,
    by_id: HashMap<NodeId, String>,
    /// Roots are watched recursively and their entry folders not one by one: where the native
    /// back end watches whole trees anyway (FSEvents, ReadDirectoryChangesW), and one watch per
    /// folder would restart its stream for each of them.
    pub recursive_roots: bool,
}

/// `String(error)` of a watcher failure, as Node would word it.
pub fn error_text(e: &notify::Error, path: &str) -> String {
    match &e.kind {
        notify::ErrorKind::Io(io) => crate::engine::nodefs::NodeError::from_io(io, "watch", path).to_string(),
        notify::ErrorKind::PathNotFound => format!("Error: ENOENT: no such file or directory, watch '{path}'"),
        notify::ErrorKind::MaxFilesWatch => {
            format!("Error: ENOSPC: System limit for number of file watchers reached, watch '{path}'")
        }
        _ => format!("Error: {e}"),
    }
}

impl FsWatcher {
    /// Start the back end; settled events go to `handler`.
    pub fn new(
        config: WatchConfig,
        handler: impl FnMut(DebounceEventResult) + Send + 'static,
    ) -> notify::Result<FsWatcher> {
        let tick = Some(config.tick());
        let backend = if config.polling {
            // Links are not followed by the poller: a link in a root is an entry of its own (so
            // its creation and removal are seen), and a dangling link or a loop is not an error
            // reported again at every poll. What a link leads to is watched at its canonical
            // path as an entry of its own.
            let notify_config =
                notify::Config::default().with_poll_interval(config.poll_interval).with_follow_symlinks(false);
            Backend::Poll(new_debouncer_opt(config.stability, tick, handler, NoCache, notify_config)?)
        } else {
            Backend::Native(new_debouncer_opt(config.stability, tick, handler, NoCache, notify::Config::default())?)
        };
        let recursive_roots = !config.polling && !cfg!(any(target_os = "linux", target_os = "android"));
        Ok(FsWatcher { backend, watched: HashMap::new(), ids: HashMap::new(), by_id: HashMap::new(), recursive_roots })
    }

    pub fn is_watched(&self, path: &str) -> bool {
        self.watched.contains_key(path)
    }

    /// Watch exactly `desired` (canonical path → owners). Returns the paths newly watched and
    /// the failures (owner, `String(error)`); a path that vanished meanwhile is no failure (its
    /// removal is an event of its own).
    pub fn reconcile(&mut self, mut desired: HashMap<String, HashSet<Owner>>) -> (Vec<String>, Vec<(Owner, String)>) {
        let gone: Vec<String> = self.watched.keys().filter(|p| !desired.contains_key(*p)).cloned().collect();
        for path in gone {
            self.forget(&path);
        }
        let mut added = Vec::new();
        let mut failures = Vec::new();
        let wanted: HashSet<String> = desired.keys().cloned().collect();
        let mut queue: Vec<String> = desired.keys().cloned().collect();
        let mut requeued: HashSet<String> = HashSet::new();
        while let Some(path) = queue.pop() {
            let Some(mut owners) = desired.remove(&path) else { continue };
            if let Some(current) = self.watched.get_mut(&path) {
                *current = owners;
                continue;
            }
            let id = node_id(&path);
            if let Some(other) = id.and_then(|id| self.by_id.get(&id)).filter(|o| **o != path).cloned() {
                // The node is watched under the path it had (a rename, a swap): that watch
                // reports under the wrong name. Drop it; the other path, if it is wanted, is
                // watched again for whatever it leads to now (once).
                let owners_there = self.watched.get(&other).cloned().unwrap_or_default();
                self.forget(&other);
                if wanted.contains(&other) {
                    let there = node_id(&other);
                    if there == id {
                        // Two wanted paths for one node: one watch serves both.
                        owners.extend(owners_there);
                    } else if there.is_some() && requeued.insert(other.clone()) {
                        desired.insert(other.clone(), owners_there);
                        queue.push(other);
                    }
                }
            }
            let recursive = self.recursive_roots && owners.iter().any(|o| matches!(o, Owner::Root(..)));
            let mode = if recursive { RecursiveMode::Recursive } else { RecursiveMode::NonRecursive };
            match self.backend.watch(Path::new(&path), mode) {
                Ok(()) => {
                    self.watched.insert(path.clone(), owners);
                    if let Some(id) = id {
                        self.ids.insert(path.clone(), id);
                        self.by_id.insert(id, path.clone());
                    }
                    added.push(path);
                }
                Err(e) if matches!(e.kind, notify::ErrorKind::PathNotFound) => {}
                Err(e) if matches!(&e.kind, notify::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound) => {
                }
                Err(e) => {
                    let text = error_text(&e, &path);
                    failures.extend(owners.into_iter().map(|o| (o, text.clone())));
                }
            }
        }
        (added, failures)
    }

    /// Forget a watched path whose watch the system dropped (its inode was removed or
    /// replaced), so that the next [`FsWatcher::reconcile`] watches it again.
    pub fn forget(&mut self, path: &str) {
        if self.watched.remove(path).is_some() {
            self.backend.unwatch(Path::new(path));
        }
        if let Some(id) = self.ids.remove(path)
            && self.by_id.get(&id).is_some_and(|p| p == path)
        {
            self.by_id.remove(&id);
        }
    }

    /// Each watched path that no longer leads to the node its watch was set up on (a `stat`
    /// per watched path), forgotten, with the owners it had: its changes were reported under
    /// the wrong name, or not at all.
    pub fn verify(&mut self) -> Vec<(String, HashSet<Owner>)> {
        let stale: Vec<String> =
            self.ids.iter().filter(|(path, id)| node_id(path) != Some(**id)).map(|(p, _)| p.clone()).collect();
        let mut out = Vec::new();
        for path in stale {
            let owners = self.watched.get(&path).cloned().unwrap_or_default();
            self.forget(&path);
            out.push((path, owners));
        }
        out
    }

    /// What a change reported at `path` means.
    pub fn touches(&self, path: &str) -> Vec<Touch> {
        let mut out = Vec::new();
        if let Some(owners) = self.watched.get(path) {
            for o in owners {
                out.push(match o {
                    Owner::Root(root, _) => Touch { root: root.clone(), what: Touched::Root, relevant: true },
                    Owner::Entry(root, name) => {
                        Touch { root: root.clone(), what: Touched::Listing(name.clone()), relevant: true }
                    }
                    Owner::File(root, name) => {
                        Touch { root: root.clone(), what: Touched::Entry(name.clone()), relevant: true }
                    }
                });
            }
        }
        let parent = crate::engine::platform::dirname(path);
        if parent == path {
            return out;
        }
        let name = path[parent.len()..].trim_start_matches(['/', '\\']).to_string();
        if let Some(owners) = self.watched.get(&parent) {
            for o in owners {
                match o {
                    Owner::Root(root, skip_system) => {
                        let system = *skip_system && name == ".system";
                        // A link counts whatever it leads to: to a folder, nowhere (the listing
                        // ignores it, until its target appears), or itself (a loop makes the
                        // listing fail).
                        let dir_or_link = std::fs::symlink_metadata(path)
                            .is_ok_and(|m| m.file_type().is_symlink() || m.file_type().is_dir());
                        let relevant =
                            !system && (name.ends_with(".md") || dir_or_link || self.watched.contains_key(path));
                        out.push(Touch { root: root.clone(), what: Touched::Listing(name.clone()), relevant });
                    }
                    Owner::Entry(root, entry) => out.push(Touch {
                        root: root.clone(),
                        what: Touched::Entry(entry.clone()),
                        relevant: name == "SKILL.md",
                    }),
                    Owner::File(..) => {}
                }
            }
        }
        if out.is_empty() && self.recursive_roots {
            // Deeper in a recursively watched root: the first segment names the entry.
            for (anchor, owners) in &self.watched {
                let Some(rest) = path.strip_prefix(anchor.as_str()) else { continue };
                let mut segments = rest.split(['/', '\\']).filter(|s| !s.is_empty());
                let (Some(entry), Some(child)) = (segments.next(), segments.next()) else { continue };
                let deeper = segments.next().is_some();
                for o in owners {
                    if let Owner::Root(root, _) = o {
                        out.push(Touch {
                            root: root.clone(),
                            what: Touched::Entry(entry.to_string()),
                            relevant: !deeper && child == "SKILL.md",
                        });
                    }
                }
            }
        }
        out
    }
}
