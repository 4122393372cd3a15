//! The filesystem provider: roots → listing → reading → candidates (spec 1 and 3).
//!
//! Production mode is emulated for every root but the bundled one: the harness's filesystem
//! service resolves each path with `realpath`, probes it with a followed `stat`, lists
//! directories sorted by collation, and reads text strictly (one BOM stripped, NUL in the first
//! 8192 bytes or invalid UTF-8 rejected). The bundled root is read the plain-Node way.
//!
//! Failures come in three weights, exactly as in the harness:
//! * *absent* (ENOENT, ENOTDIR): the root or entry contributes nothing, silently;
//! * *skipped with a warning*: a text or frontmatter problem in one file;
//! * *provider failure*: anything else aborts the whole provider's `list()`, so discovery is
//!   incomplete and no catalog is published.

use crate::engine::collate::EntryCollator;
use crate::engine::nodefs::{self, Kind, NodeError, ResolveError};
use crate::engine::platform;
use crate::engine::skillfile::{self, ParsedSkill, Rejection};
use crate::engine::textread::{self, Keep, Route};
pub use crate::engine::textread::{ReadOutcome, SilentReason, Unread};
use std::ffi::OsString;

mod memo;
pub use memo::{MemoStats, ScanMemo, Stale};

/// Rank constants (`skill-filesystem/src/index.ts:36-40`, `skill/src/index.ts:24-27`).
pub const PROJECT_DSH_RANK: u32 = 100;
pub const PROJECT_AGENTS_RANK: u32 = 200;
pub const RUNTIME_RANK: u32 = 250;
pub const CUSTOM_RANK: u32 = 300;
pub const USER_DSH_RANK: u32 = 400;
pub const USER_AGENTS_RANK: u32 = 500;
pub const BUNDLED_RANK: u32 = 600;

/// The filesystem provider's configuration, as the harness's `skill-filesystem` row holds it.
/// `None` means "not configured" (the harness's `undefined`).
#[derive(Clone, Debug)]
pub struct ProviderConfig {
    pub provider_name: String,
    pub dsh_home: Option<String>,
    pub agents_home: Option<String>,
    pub custom_skill_dirs: Vec<String>,
    pub bundled_skill_dir: Option<String>,
    pub include_default_roots: bool,
}

impl Default for ProviderConfig {
    fn default() -> Self {
        ProviderConfig {
            provider_name: "filesystem".to_string(),
            dsh_home: None,
            agents_home: None,
            custom_skill_dirs: Vec::new(),
            bundled_skill_dir: None,
            include_default_roots: true,
        }
    }
}

/// What the harness process sees of its environment.
#[derive(Clone, Debug)]
pub struct Environment {
    pub process_cwd: String,
    /// `os.homedir()`.
    pub home: String,
    pub dsh_home: Option<String>,
    pub agents_home: Option<String>,
    pub bundled_skill_dir: Option<String>,
}

impl Environment {
    /// Read the real process environment (never `.env` files: the harness forbids `DSH_*`
    /// there).
    pub fn from_process() -> Environment {
        let var = |k: &str| std::env::var_os(k);
        let text = |k: &str| var(k).map(|v: OsString| v.to_string_lossy().into_owned());
        Environment {
            process_cwd: platform::process_cwd(),
            home: platform::home_dir_from(&var),
            dsh_home: text("DSH_HOME"),
            agents_home: text("DSH_AGENTS_HOME"),
            bundled_skill_dir: text("DSH_BUNDLED_SKILL_DIR"),
        }
    }
}

/// The provider's resolved homes and directories (its constructor, `index.ts:156-174`).
#[derive(Clone, Debug)]
pub struct ResolvedProvider {
    pub name: String,
    pub include_default_roots: bool,
    pub dsh_home: String,
    pub agents_home: String,
    pub custom_skill_dirs: Vec<String>,
    pub bundled_skill_dir: Option<String>,
}

impl ResolvedProvider {
    pub fn new(config: &ProviderConfig, env: &Environment) -> ResolvedProvider {
        let resolve = |p: &str| platform::resolve(&env.process_cwd, p);
        // resolveDshHome: configured (even ""), else a non-blank $DSH_HOME, else ~/.dsh; then
        // tilde expansion; then path.resolve.
        let dsh_selected = match &config.dsh_home {
            Some(v) => v.clone(),
            None => match &env.dsh_home {
                Some(v) if !crate::engine::js::trim(v).is_empty() => v.clone(),
                _ => platform::join(&env.home, ".dsh"),
            },
        };
        let dsh_home = resolve(&platform::expand_home(&dsh_selected, &env.home));
        // agentsHome: `??` only skips undefined, so an empty $DSH_AGENTS_HOME is the cwd.
        let agents = config
            .agents_home
            .clone()
            .or_else(|| env.agents_home.clone())
            .unwrap_or_else(|| platform::join(&env.home, ".agents"));
        let bundled = config
            .bundled_skill_dir
            .clone()
            .or_else(|| if config.include_default_roots { env.bundled_skill_dir.clone() } else { None });
        ResolvedProvider {
            name: config.provider_name.clone(),
            include_default_roots: config.include_default_roots,
            dsh_home,
            agents_home: resolve(&agents),
            custom_skill_dirs: config.custom_skill_dirs.iter().map(|d| resolve(d)).collect(),
            bundled_skill_dir: bundled.map(|b| resolve(&b)),
        }
    }
}

/// One scanned root (`SkillRoot`).
#[derive(Clone, Debug)]
pub struct Root {
    pub path: String,
    pub source: &'static str,
    pub rank: u32,
    /// Only `user-dsh`: skip an entry named exactly `.system`.
    pub skip_system: bool,
    /// Only `bundled`: listed and read the plain-Node way.
    pub trusted_host: bool,
}

/// `FileSystemSkillProvider.roots(cwd)`.
pub fn roots(provider: &ResolvedProvider, project_root: Option<&str>) -> Vec<Root> {
    let mut roots = Vec::new();
    let root = |path: String, source, rank| Root { path, source, rank, skip_system: false, trusted_host: false };
    if provider.include_default_roots
        && let Some(project) = project_root
    {
        roots.push(root(platform::join(project, ".dsh/skills"), "project-dsh", PROJECT_DSH_RANK));
        roots.push(root(platform::join(project, ".agents/skills"), "project-agents", PROJECT_AGENTS_RANK));
    }
    for dir in &provider.custom_skill_dirs {
        roots.push(root(dir.clone(), "custom", CUSTOM_RANK));
    }
    if provider.include_default_roots {
        roots.push(Root {
            skip_system: true,
            ..root(platform::join(&provider.dsh_home, "skills"), "user-dsh", USER_DSH_RANK)
        });
        roots.push(root(platform::join(&provider.agents_home, "skills"), "user-agents", USER_AGENTS_RANK));
    }
    if let Some(b) = &provider.bundled_skill_dir {
        roots.push(Root { trusted_host: true, ..root(b.clone(), "bundled", BUNDLED_RANK) });
    }
    roots
}

/// Why a directory was chosen as the project root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProjectRootReason {
    /// `<root>/.git` exists (a directory, a file, or anything a followed `stat` finds).
    Git { marker: String, kind: &'static str },
    /// No `.git` up to the filesystem root: the resolved cwd itself.
    NoGitAbove,
}

/// `findProjectRoot` in production mode: walk up lexically from the resolved cwd; the first
/// directory whose `.git` a followed `stat` finds wins, else the cwd itself.
pub fn find_project_root(cwd: &str) -> (String, ProjectRootReason) {
    let mut current = cwd.to_string();
    loop {
        let marker = platform::join(&current, ".git");
        if let Ok(meta) = std::fs::metadata(&marker) {
            let kind = Kind::of(&meta).label();
            return (current, ProjectRootReason::Git { marker, kind });
        }
        let parent = platform::dirname(&current);
        if parent == current {
            return (cwd.to_string(), ProjectRootReason::NoGitAbove);
        }
        current = parent;
    }
}

/// `stat` of a root path, following symlinks, as the contract's root table shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootType {
    Directory,
    File,
    Other,
    Missing,
    Error(&'static str),
}

impl RootType {
    pub fn of(path: &str) -> RootType {
        match nodefs::stat(path) {
            Ok(stat) => match stat.kind {
                Kind::Directory => RootType::Directory,
                Kind::File => RootType::File,
                Kind::Other => RootType::Other,
            },
            Err(e) if e.is_absent() => RootType::Missing,
            Err(e) => RootType::Error(e.code),
        }
    }

    pub fn exists(&self) -> bool {
        matches!(self, RootType::Directory | RootType::File | RootType::Other)
    }

    pub fn label(&self) -> String {
        match self {
            RootType::Directory => "directory".into(),
            RootType::File => "file".into(),
            RootType::Other => "other".into(),
            RootType::Missing => "missing".into(),
            RootType::Error(code) => format!("error:{code}"),
        }
    }
}

/// An error that makes the provider's `list()` reject, rendered as `String(error)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProviderError {
    Node(NodeError),
    /// The filesystem service's `FsError` (`FsError: cannot list "<path>": …`).
    Fs {
        code: &'static str,
        message: String,
    },
    /// Another JavaScript error, already rendered as `String(error)` (e.g. Node's
    /// `RangeError [ERR_FS_FILE_TOO_LARGE]: …`).
    Js(String),
}

impl std::fmt::Display for ProviderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProviderError::Node(e) => write!(f, "{e}"),
            ProviderError::Fs { message, .. } => write!(f, "FsError: {message}"),
            ProviderError::Js(text) => f.write_str(text),
        }
    }
}

impl ProviderError {
    /// `FS_NOT_FOUND`/`FS_NOT_DIRECTORY`/`ENOENT`/`ENOTDIR`: the harness treats these as absent.
    fn is_absent(&self) -> bool {
        match self {
            ProviderError::Node(e) => e.is_absent(),
            ProviderError::Fs { code, .. } => matches!(*code, "FS_NOT_FOUND" | "FS_NOT_DIRECTORY"),
            ProviderError::Js(_) => false,
        }
    }
}

impl From<textread::Fatal> for ProviderError {
    fn from(e: textread::Fatal) -> ProviderError {
        match e {
            textread::Fatal::Node(e) => ProviderError::Node(e),
            other => ProviderError::Js(other.to_string()),
        }
    }
}

/// `listingIoError`: wrap a failure while listing `display` as the filesystem service does.
fn listing_io_error(display: &str, err: Stage) -> ProviderError {
    match err {
        Stage::Fs(e) => e,
        Stage::Node(e) if e.is_absent() => {
            ProviderError::Fs { code: "FS_NOT_FOUND", message: format!("cannot list \"{display}\": not found") }
        }
        Stage::Node(e) if matches!(e.code, "EACCES" | "EPERM") => ProviderError::Fs {
            code: "FS_PERMISSION_DENIED",
            message: format!("cannot list \"{display}\": permission denied"),
        },
        Stage::Node(e) => {
            ProviderError::Fs { code: "FS_IO_ERROR", message: format!("cannot list \"{display}\": {}", e.message()) }
        }
    }
}

/// A failure from one of the service's stages: a raw Node error or an already-typed `FsError`.
enum Stage {
    Node(NodeError),
    Fs(ProviderError),
}

/// The filesystem service's `resolve` ([`nodefs::resolve_target`]) as a listing stage.
fn resolve_target(display: &str) -> Result<String, Stage> {
    nodefs::resolve_target(display).map_err(|e| match e {
        ResolveError::Node(e) => Stage::Node(e),
        ResolveError::ParentNotDirectory => Stage::Fs(ProviderError::Fs {
            code: "FS_NOT_FOUND",
            message: format!("cannot resolve \"{display}\": a parent path segment is not a directory"),
        }),
    })
}

/// One root entry as the provider sees it after listing.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub kind: Kind,
    /// `join(root display path, name)`: symlinks in it are never resolved.
    pub path: String,
    /// The entry's real path (the filesystem service's target key), when listed in production
    /// mode: reads go through it without resolving the display path again.
    pub key: Option<String>,
}

/// Entries the listing saw but the provider cannot use, reported for diagnostics.
#[derive(Clone, Debug)]
pub struct UnnamedEntry {
    pub raw_name: OsString,
}

/// The result of listing a root.
#[derive(Clone)]
pub enum Listing {
    /// The root contributes nothing (ENOENT, ENOTDIR, a regular file, a dangling link).
    Absent,
    /// The root is a directory, but an entry whose name is only white space (JS `trim()`)
    /// made the filesystem service throw `FS_NOT_FOUND` while listing: the provider treats the
    /// whole root as absent. Carries the display paths of every such entry, the one that
    /// threw first.
    BlankEntry {
        paths: Vec<String>,
    },
    Entries {
        entries: Vec<Entry>,
        non_utf8: Vec<UnnamedEntry>,
    },
}

/// Production listing (`listSkillRootEntriesFromFileSystem` → `fs.resolve` + `fs.listDir`).
fn list_production(root: &str, collator: &EntryCollator) -> Result<Listing, ProviderError> {
    let result = (|| -> Result<Listing, Stage> {
        let target = resolve_target(root)?;
        match nodefs::probe(&target) {
            Ok(None) => return Ok(Listing::Absent),
            Ok(Some(Kind::Directory)) => {}
            Ok(Some(_)) => return Ok(Listing::Absent),
            Err(e) => return Err(Stage::Fs(listing_io_error(root, Stage::Node(e)))),
        }
        let raw = nodefs::readdir(&target).map_err(|e| Stage::Fs(listing_io_error(root, Stage::Node(e))))?;
        let (mut named, non_utf8) = split_names(raw, false);
        named.sort_by(|a, b| collator.compare(&a.0, &b.0));
        let blanks: Vec<String> = named
            .iter()
            .filter(|(n, _)| crate::engine::js::trim(n).is_empty())
            .map(|(n, _)| platform::join(root, n))
            .collect();
        let mut entries = Vec::with_capacity(named.len());
        for (name, file_type) in named {
            let display = platform::join(root, &name);
            // `resolveLocalTarget` refuses a name that JS `trim()` empties (`FS_NOT_FOUND`,
            // "file_path must be a non-empty string"), and the provider reads that code as
            // "root absent": one such entry hides every skill of the root.
            if crate::engine::js::trim(&name).is_empty() {
                return Ok(Listing::BlankEntry { paths: blanks });
            }
            let child_path = platform::join(&target, &name);
            // Not a symlink: inside a real directory its real path is its own path, and its
            // type is the one readdir reported, so realpath + stat would tell nothing new.
            if let Some(ft) = file_type.filter(|t| !t.is_symlink()) {
                entries.push(Entry { name, kind: Kind::of_entry(ft), path: display, key: Some(child_path) });
                continue;
            }
            let child = (|| {
                let key = resolve_target(&child_path)?;
                let kind = nodefs::probe(&key).map_err(Stage::Node)?;
                Ok((key, kind))
            })();
            match child {
                Ok((key, kind)) => {
                    entries.push(Entry { name, kind: kind.unwrap_or(Kind::Other), path: display, key: Some(key) })
                }
                Err(e) => return Err(Stage::Fs(listing_io_error(&display, e))),
            }
        }
        Ok(Listing::Entries { entries, non_utf8 })
    })();
    match result {
        Ok(listing) => Ok(listing),
        Err(Stage::Node(e)) if e.is_absent() => Ok(Listing::Absent),
        Err(Stage::Node(e)) => Err(ProviderError::Node(e)),
        Err(Stage::Fs(e)) if e.is_absent() => Ok(Listing::Absent),
        Err(Stage::Fs(e)) => Err(e),
    }
}

/// Names as Node's `readdir(…, {encoding: 'utf8'})` returns them: a name that is not UTF-8 is
/// decoded lossily, and the harness goes on with that mangled name (which normally names
/// nothing, so the entry ends up skipped). Such entries keep the real `readdir` type only when
/// `keep_type_of_mangled` (Node's Dirent); the filesystem service re-resolves them by name.
/// They are also returned apart, for diagnostics.
fn split_names(
    raw: Vec<nodefs::DirEntry>,
    keep_type_of_mangled: bool,
) -> (Vec<(String, Option<nodefs::EntryType>)>, Vec<UnnamedEntry>) {
    let mut named = Vec::with_capacity(raw.len());
    let mut non_utf8 = Vec::new();
    for e in raw {
        match e.name {
            Some(n) => named.push((n, e.file_type)),
            None => {
                let lossy = e.raw_name.to_string_lossy().into_owned();
                named.push((lossy, if keep_type_of_mangled { e.file_type } else { None }));
                non_utf8.push(UnnamedEntry { raw_name: e.raw_name });
            }
        }
    }
    (named, non_utf8)
}

/// Node listing (`listSkillRootEntriesFromNode`), used for the bundled root. Symlink warnings
/// are logged in `readdir` order, before the entries are sorted.
fn list_node(root: &str, collator: &EntryCollator, log: &mut Vec<String>) -> Result<Listing, ProviderError> {
    let raw = match nodefs::readdir(root) {
        Ok(raw) => raw,
        Err(e) if e.is_absent() => return Ok(Listing::Absent),
        Err(e) => return Err(ProviderError::Node(e)),
    };
    let (named, non_utf8) = split_names(raw, true);
    let mut entries = Vec::with_capacity(named.len());
    for (name, ft) in named {
        let path = platform::join(root, &name);
        let kind = match ft {
            Some(ft) if ft.is_dir() => Kind::Directory,
            Some(ft) if ft.is_file() => Kind::File,
            Some(ft) if ft.is_symlink() => match nodefs::stat(&path) {
                Ok(stat) => stat.kind,
                Err(e) => {
                    log.push(format!("skill entry {path} ignored: failed to follow symbolic link: {e}"));
                    Kind::Other
                }
            },
            _ => Kind::Other,
        };
        entries.push(Entry { name, kind, path, key: None });
    }
    entries.sort_by(|a, b| collator.compare(&a.name, &b.name));
    Ok(Listing::Entries { entries, non_utf8 })
}

/// A parsed skill as the provider hands it to the registry (`SkillCandidate`).
#[derive(Clone, Debug)]
pub struct Candidate {
    pub skill: ParsedSkill,
    pub source: &'static str,
    pub rank: u32,
    /// Shared by the provider's candidates (one string, not one per skill).
    pub provider: std::sync::Arc<str>,
    /// Registration order of the provider (monotonic, from 0).
    pub provider_order: usize,
    /// Index in the provider's `list()` output.
    pub local_order: usize,
    /// The locator path: `<root>/<entry>/SKILL.md` or `<root>/<entry>.md` (`None` for
    /// packaged skills such as the badge).
    pub path: Option<String>,
    /// `resourceBase.path`: the bundle directory, or the root for flat files.
    pub resource_base: String,
    /// Index of the root in its provider's root table (`None` for packaged skills).
    pub root_index: Option<usize>,
    /// Index of the registry layer (0 = global).
    pub layer: usize,
}

/// What happened to one root entry, for `explain` and `lint`.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// `.system` in the `user-dsh` root.
    SystemSkipped,
    /// Neither a directory nor a `.md` file (wrong suffix, FIFO, device, dangling link).
    Ignored,
    /// The skill file is absent or not a regular file: dropped silently.
    Silent(SilentReason),
    /// Dropped with the warning at this index of [`Discovery::warnings`].
    Warned { warning: usize, rejection: Option<Box<Rejection>> },
    /// The harness would block reading it, or read more of a device than dsh-skills holds;
    /// dsh-skills skipped it (see `notes`).
    Unreadable(&'static str, Unread),
    /// Became the provider candidate with this `local_order`.
    Candidate(usize),
    /// This entry's failure made the whole provider fail.
    FailedProvider,
}

#[derive(Clone, Debug)]
pub struct EntryReport {
    pub name: String,
    pub kind: Kind,
    pub path: String,
    /// The file the harness opens for this entry, when it is a bundle or a flat `.md` file.
    pub locator: Option<String>,
    pub outcome: Outcome,
    /// With [`ScanOptions::check`]: what the check made of the file, until its consumer takes it.
    pub checked: Option<std::sync::Arc<Checked>>,
}

/// How a root's scan ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootStatus {
    Scanned,
    /// Missing, not a directory, a dangling link: contributes nothing.
    Absent,
    /// Listing this root made the provider fail.
    Failed,
    /// The provider failed on an earlier root, so this one was never scanned.
    NotReached,
}

#[derive(Clone, Debug)]
pub struct RootReport {
    pub root: Root,
    pub root_type: RootType,
    pub status: RootStatus,
    pub entries: Vec<EntryReport>,
    /// Entries whose names are not valid UTF-8 (the harness cannot find them again).
    pub non_utf8: Vec<UnnamedEntry>,
    /// Display paths of entries whose names are only white space, when one of them made the
    /// harness treat this (existing) root as absent ([`Listing::BlankEntry`]).
    pub blank_entries: Vec<String>,
}

/// One provider's `list()` observation.
pub struct ProviderScan {
    pub roots: Vec<RootReport>,
    /// Candidates in provider output order (moved into the snapshot once the registry has
    /// them). Empty when the provider failed (the registry then receives nothing from it), see
    /// [`ProviderScan::discarded`].
    pub candidates: Vec<Candidate>,
    /// Candidates parsed before a provider failure; the harness never sees them.
    pub discarded: Vec<Candidate>,
    pub error: Option<ProviderError>,
    /// dsh-skills' own observations (never harness log lines).
    pub notes: Vec<String>,
}

/// A hash of a skill file's text, for [`ScanOptions::digest`].
fn digest_of(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// How much of each skill file a scan keeps, and what it does with it.
#[derive(Clone, Debug)]
pub struct ScanOptions {
    /// Keep the trimmed body (`show`, `lint`); commands that never print bodies drop it as soon
    /// as the file is validated, which keeps memory flat on large trees.
    pub keep_content: bool,
    /// Run this check on each skill file as it is read (lint's per-file rules), on the worker
    /// that read it, with the file's bytes and YAML parse, which are then dropped: nothing is
    /// read or parsed twice, and no file's bytes outlive its check. The result is kept on its
    /// entry ([`EntryReport::checked`]).
    pub check: Option<std::sync::Arc<dyn FileCheck>>,
    /// Read each skill file whole and keep a hash of it ([`ParsedSkill::digest`]), even where
    /// the body is not kept (the watcher's notes). Not with [`ScanOptions::check`].
    ///
    /// [`ParsedSkill::digest`]: crate::engine::skillfile::ParsedSkill::digest
    pub digest: bool,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions { keep_content: true, check: None, digest: false }
    }
}

/// A check of each skill file during the scan ([`ScanOptions::check`]). The engine knows nothing
/// of what it computes: it keeps the result for the caller.
pub trait FileCheck: Send + Sync + std::fmt::Debug {
    fn check(&self, file: FileToCheck<'_>) -> Box<dyn std::any::Any + Send>;
}

/// A skill file as the reading stage read it, handed to a [`FileCheck`].
pub struct FileToCheck<'a> {
    pub root: &'a Root,
    pub entry: &'a Entry,
    /// The file the harness opens for the entry (its locator).
    pub path: &'a str,
    /// The file's bytes, exactly as on disk (as text when they are UTF-8).
    pub bytes: crate::engine::textread::Content,
    /// `yaml::parse` of its frontmatter text, when it has fences and reads as text.
    pub yaml: Option<&'a Result<crate::engine::yaml::Parsed, crate::engine::yaml::YamlError>>,
}

/// A [`FileCheck`]'s result for one entry, until its consumer takes it (once).
#[derive(Debug)]
pub struct Checked(std::sync::Mutex<Option<Box<dyn std::any::Any + Send>>>);

impl Checked {
    /// A check's result made outside a scan (the language server checks an unsaved buffer).
    pub fn new(result: Box<dyn std::any::Any + Send>) -> Checked {
        Checked(std::sync::Mutex::new(Some(result)))
    }

    /// `f` of the result, unless it was taken.
    pub fn peek<R>(&self, f: impl FnOnce(&(dyn std::any::Any + Send)) -> R) -> Option<R> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).as_deref().map(f)
    }

    /// `f` of the result, which it may change in place, unless it was taken.
    pub fn peek_mut<R>(&self, f: impl FnOnce(&mut (dyn std::any::Any + Send)) -> R) -> Option<R> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).as_deref_mut().map(f)
    }

    pub fn take(&self) -> Option<Box<dyn std::any::Any + Send>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A root's listing and the warnings the listing itself logged.
type RootListing = (Result<Listing, ProviderError>, Vec<String>);

/// Run the filesystem provider's `list({cwd})`. Harness warnings go to `log` in order.
///
/// Roots are listed concurrently; within a root, reading and parsing run on all cores; results
/// are applied in root and entry order, so warnings, candidate order and the point where a
/// provider failure stops the scan are exactly what the harness's sequential loop produces.
pub fn scan_provider(
    provider: &ResolvedProvider,
    project_root: Option<&str>,
    provider_order: usize,
    collator: &EntryCollator,
    options: &ScanOptions,
    log: &mut Vec<String>,
) -> ProviderScan {
    scan_provider_with(provider, project_root, provider_order, collator, options, log, None)
}

/// [`scan_provider`], reusing what `memo` kept of an earlier scan: only the roots and entries
/// invalidated since are listed and read again (`dsh-skills watch`). The result is the one a
/// scan without a memo gives, as long as every change on disk was reported to the memo.
pub fn scan_provider_with(
    provider: &ResolvedProvider,
    project_root: Option<&str>,
    provider_order: usize,
    collator: &EntryCollator,
    options: &ScanOptions,
    log: &mut Vec<String>,
    memo: Option<&mut ScanMemo>,
) -> ProviderScan {
    // A check's results are taken by their consumer (lint): never shared between scans.
    let mut memo = memo.filter(|_| options.check.is_none());
    let mut scan = ProviderScan {
        roots: Vec::new(),
        candidates: Vec::new(),
        discarded: Vec::new(),
        error: None,
        notes: Vec::new(),
    };
    let roots = roots(provider, project_root);
    // Every root is listed up front, several at once. Listing opens no file and has no effect,
    // so a root the harness never reaches (after a provider failure) is listed for nothing.
    let list_root = |root: &Root| {
        let mut root_log = Vec::new();
        let listing = if root.trusted_host {
            list_node(&root.path, collator, &mut root_log)
        } else {
            list_production(&root.path, collator)
        };
        (listing, root_log)
    };
    let mut listings: Vec<RootListing> = match memo.as_deref_mut() {
        Some(memo) => memo.listings(&roots, list_root),
        None => par_map_each(&roots, list_root),
    };
    // Then the entries are read and parsed on all cores, and their results applied root by root
    // in the harness's order as they come: warnings, candidates and the point where a provider
    // failure stops the scan come out as its sequential loop makes them. The cores read ahead of
    // what is applied by at most `WINDOW` entries, so a large tree keeps only that many entries'
    // intermediate results in memory at once, and no core waits for a root to be applied.
    const WINDOW: usize = 1024;
    let counts: Vec<usize> = listings
        .iter()
        .map(|(listing, _)| match listing {
            Ok(Listing::Entries { entries, .. }) => entries.len(),
            _ => 0,
        })
        .collect();
    let total: usize = counts.iter().sum();
    // Room for every entry's candidate at once: a list grown by doubling holds its old and new
    // copies at the same time, the largest allocation of a large scan.
    scan.candidates.reserve_exact(total);
    let provider_name: std::sync::Arc<str> = provider.name.as_str().into();
    // Every root's entries, in order, each with its root's place; the listings keep the rest.
    let mut work: Vec<(usize, Entry)> = Vec::with_capacity(total);
    for (i, (listing, _)) in listings.iter_mut().enumerate() {
        if let Ok(Listing::Entries { entries, .. }) = listing {
            work.extend(std::mem::take(entries).into_iter().map(|e| (i, e)));
        }
    }
    let read = |(i, entry): &(usize, Entry)| process_entry(&roots[*i], entry, options);
    // Each root's listing is applied with its entries and their results, taken from `results`
    // in order; a root never reached takes none.
    let apply = |results: &mut dyn Iterator<Item = ((usize, Entry), EntryWork)>| {
        for (root_index, (listing, root_log)) in listings.into_iter().enumerate() {
            let root = roots[root_index].clone();
            let root_type = RootType::of(&root.path);
            let mut report = RootReport {
                root,
                root_type,
                status: RootStatus::Scanned,
                entries: Vec::new(),
                non_utf8: Vec::new(),
                blank_entries: Vec::new(),
            };
            if scan.error.is_some() {
                report.status = RootStatus::NotReached;
                scan.roots.push(report);
                continue;
            }
            log.extend(root_log);
            match listing {
                Ok(Listing::Absent) => {
                    report.status = RootStatus::Absent;
                    scan.roots.push(report);
                    continue;
                }
                Ok(Listing::BlankEntry { paths }) => {
                    scan.notes.push(format!(
                        "every skill in {} is ignored: the entry {:?} has a name made only of white space, \
                         which the harness's filesystem service refuses, so it treats the whole root as absent; \
                         rename or remove that entry",
                        report.root.path,
                        paths.first().map_or("", String::as_str)
                    ));
                    report.blank_entries = paths;
                    report.status = RootStatus::Absent;
                    scan.roots.push(report);
                    continue;
                }
                Ok(Listing::Entries { non_utf8, .. }) => report.non_utf8 = non_utf8,
                Err(e) => {
                    report.status = RootStatus::Failed;
                    scan.error = Some(e);
                    scan.roots.push(report);
                    continue;
                }
            }
            report.entries.reserve_exact(counts[root_index]);
            for _ in 0..counts[root_index] {
                if scan.error.is_some() {
                    break;
                }
                let Some(((_, entry), mut work)) = results.next() else { break };
                let checked = match &mut work {
                    EntryWork::Read(w) => w.checked.take(),
                    _ => None,
                };
                let (outcome, locator) =
                    apply_entry(&report.root, work, root_index, &provider_name, provider_order, &mut scan, log);
                report.entries.push(EntryReport {
                    name: entry.name,
                    kind: entry.kind,
                    path: entry.path,
                    locator,
                    outcome,
                    checked,
                });
            }
            scan.roots.push(report);
        }
    };
    match memo {
        // The memo reads what changed a batch of roots at a time, when the first of them is
        // reached: up to `WINDOW` entries, the following roots while they fit.
        Some(memo) => {
            let mut next_root = 0;
            let mut pending = work.into_iter();
            let mut batch = Vec::new().into_iter().zip(Vec::new());
            let mut results = std::iter::from_fn(|| {
                loop {
                    if let Some(done) = batch.next() {
                        return Some(done);
                    }
                    let first = (next_root..counts.len()).find(|&i| counts[i] > 0)?;
                    let (mut end, mut size) = (first + 1, counts[first]);
                    while end < counts.len() && size + counts[end] <= WINDOW {
                        size += counts[end];
                        end += 1;
                    }
                    next_root = end;
                    let items: Vec<(usize, Entry)> = pending.by_ref().take(size).collect();
                    let refs: Vec<(usize, &Entry)> = items.iter().map(|(i, e)| (*i, e)).collect();
                    let made = memo.entries(&roots, &refs, |(i, entry)| process_entry(&roots[*i], entry, options));
                    batch = items.into_iter().zip(made);
                }
            });
            apply(&mut results);
        }
        None => par_stream(work, WINDOW, read, apply),
    }
    if scan.error.is_some() {
        scan.discarded = std::mem::take(&mut scan.candidates);
    }
    scan
}

/// What reading an entry of an earlier scan again gave, as far as patching that scan's snapshot
/// in place goes ([`reread_entry`]).
pub enum Reread {
    /// A candidate, with this skill.
    Candidate(Box<ParsedSkill>),
    /// A warning (this log line) and no candidate.
    Warned(String, Option<Box<Rejection>>),
    /// No candidate, no warning, no note (silent, ignored, `.system`).
    Quiet(Outcome),
    /// Anything else (a provider failure, a file dsh-skills leaves unread).
    Other,
}

/// Read the entry `name` of `root` again as the memo's listing of the root has it, keeping the
/// result in the memo; `None` when the memo holds no such listing or entry.
pub fn reread_entry(memo: &mut ScanMemo, root: &Root, name: &str, options: &ScanOptions) -> Option<Reread> {
    if options.check.is_some() {
        return None;
    }
    let work = memo.reread(root, name, |entry| process_entry(root, entry, options))?;
    Some(match work {
        EntryWork::SystemSkipped => Reread::Quiet(Outcome::SystemSkipped),
        EntryWork::Ignored => Reread::Quiet(Outcome::Ignored),
        EntryWork::Read(w) => match w.read {
            Ok(ReadOutcome::Text(_)) => match w.parsed {
                Some(Ok(skill)) => Reread::Candidate(Box::new(skill)),
                Some(Err(rejection)) => Reread::Warned(rejection.warning(&w.path), Some(Box::new(rejection))),
                None => Reread::Other,
            },
            Ok(ReadOutcome::Silent(reason)) => Reread::Quiet(Outcome::Silent(reason)),
            Ok(ReadOutcome::NotText { warning, .. }) => Reread::Warned(warning, None),
            _ => Reread::Other,
        },
    })
}

/// `f` over `items` on every available core, results in input order. Items are handed out
/// sixteen at a time; fewer than 32 items run on the calling thread.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    par_map_chunked(items, 16, 32, f)
}

/// [`par_map`] for a few heavy items (root listings): one at a time, from two items on.
pub fn par_map_each<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    par_map_chunked(items, 1, 2, f)
}

/// The cores this process may use, asked once: on Linux the answer reads cgroup files, which
/// cost more than the work of a small root.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn par_map_chunked<T: Sync, R: Send>(
    items: &[T],
    chunk: usize,
    min_items: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let workers = cores().min(8).min(items.len().div_ceil(chunk));
    if workers < 2 || items.len() < min_items {
        return items.iter().map(&f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    // The workers read through the caller's overlay, if any (`dsh-skills diff`), and remember
    // the real paths of the folders they resolve (`nodefs::with_real_dirs`).
    let overlay = nodefs::current_overlay();
    let mut parts: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    nodefs::with_overlay(overlay.clone(), || {
                        nodefs::with_real_dirs(|| {
                            let mut mine = Vec::new();
                            loop {
                                let start = next.fetch_add(chunk, std::sync::atomic::Ordering::Relaxed);
                                if start >= items.len() {
                                    break mine;
                                }
                                let end = (start + chunk).min(items.len());
                                mine.push((start, items[start..end].iter().map(&f).collect()));
                            }
                        })
                    })
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    parts.sort_by_key(|(start, _)| *start);
    parts.into_iter().flat_map(|(_, v)| v).collect()
}

/// `f` over `items` on every available core, with each item and its result handed to `consume`
/// in input order as they are made: `consume` reads an iterator that waits for the next one, so
/// it works on the first results while the cores make the following ones. The cores make at
/// most `window` results ahead of what `consume` took (memory stays bounded), and none after
/// `consume` returns (what it left is not made). Items are handed out sixteen at a time; fewer
/// than 32 items run on the calling thread, as `consume` takes them.
pub fn par_stream<T: Send, R: Send, O>(
    items: Vec<T>,
    window: usize,
    f: impl Fn(&T) -> R + Sync,
    consume: impl FnOnce(&mut dyn Iterator<Item = (T, R)>) -> O,
) -> O {
    const CHUNK: usize = 16;
    const WAKE_AFTER: usize = 8;
    let len = items.len();
    let workers = cores().min(8).min(len.div_ceil(CHUNK));
    if workers < 2 || len < 32 {
        return consume(&mut items.into_iter().map(|t| {
            let r = f(&t);
            (t, r)
        }));
    }
    let window = window.max(CHUNK);
    // Each chunk's items, taken by the worker that makes its results and handed on with them.
    let mut items = items.into_iter();
    let chunks: Vec<std::sync::Mutex<Vec<T>>> =
        std::iter::from_fn(|| Some(items.by_ref().take(CHUNK).collect::<Vec<T>>()).filter(|c| !c.is_empty()))
            .map(std::sync::Mutex::new)
            .collect();
    let stream = Stream {
        state: std::sync::Mutex::new(StreamState {
            made: Default::default(),
            taken: 0,
            stop: false,
            panic: None,
            wanted: None,
            blocked: 0,
        }),
        made: std::sync::Condvar::new(),
        room: std::sync::Condvar::new(),
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let overlay = nodefs::current_overlay();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                nodefs::with_overlay(overlay.clone(), || {
                    nodefs::with_real_dirs(|| {
                        loop {
                            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(chunk) = chunks.get(k) else { break };
                            {
                                let mut s = stream.lock();
                                while !s.stop && k * CHUNK >= s.taken + window {
                                    s.blocked += 1;
                                    s = stream.room.wait(s).unwrap_or_else(|e| e.into_inner());
                                    s.blocked -= 1;
                                }
                                if s.stop {
                                    break;
                                }
                            }
                            let mine = std::mem::take(&mut *chunk.lock().unwrap_or_else(|e| e.into_inner()));
                            let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                mine.into_iter()
                                    .map(|t| {
                                        let r = f(&t);
                                        (t, r)
                                    })
                                    .collect::<Vec<(T, R)>>()
                            }));
                            let mut s = stream.lock();
                            match made {
                                Ok(made) => {
                                    s.made.insert(k, made);
                                    // The consumer is woken once the chunks it waits for are made.
                                    if s.wanted.as_ref().is_some_and(|w| w.clone().all(|c| s.made.contains_key(&c))) {
                                        stream.made.notify_one();
                                    }
                                }
                                Err(panic) => {
                                    s.panic = Some(panic);
                                    s.stop = true;
                                    stream.room.notify_all();
                                    stream.made.notify_one();
                                }
                            }
                        }
                    })
                })
            });
        }
        // Whatever way `consume` ends (returning, or a panic), the workers stop.
        struct Stop<'s, T, R>(&'s Stream<T, R>);
        impl<T, R> Drop for Stop<'_, T, R> {
            fn drop(&mut self) {
                self.0.lock().stop = true;
                self.0.room.notify_all();
            }
        }
        let _stop = Stop(&stream);
        let mut k = 0;
        let mut current = Vec::new().into_iter();
        let mut taken = std::iter::from_fn(|| {
            loop {
                if let Some(done) = current.next() {
                    return Some(done);
                }
                if k == chunks.len() {
                    return None;
                }
                let mut s = stream.lock();
                loop {
                    if let Some(panic) = s.panic.take() {
                        drop(s);
                        std::panic::resume_unwind(panic);
                    }
                    if let Some(made) = s.made.remove(&k) {
                        k += 1;
                        s.taken = k * CHUNK;
                        if s.blocked > 0 {
                            stream.room.notify_all();
                        }
                        current = made.into_iter();
                        break;
                    }
                    // Woken when the next few chunks are all made (as many as the window lets the
                    // workers start), not for each: the consumer keeps up easily, and each wake
                    // is two switches of a core.
                    s.wanted = Some(k..(k + WAKE_AFTER.min(window.div_ceil(CHUNK))).min(chunks.len()));
                    s = stream.made.wait(s).unwrap_or_else(|e| e.into_inner());
                    s.wanted = None;
                }
            }
        });
        consume(&mut taken)
    })
}

/// What [`par_stream`]'s workers and its consumer share.
struct Stream<T, R> {
    state: std::sync::Mutex<StreamState<T, R>>,
    /// A chunk was made (or a worker panicked).
    made: std::sync::Condvar,
    /// The consumer took a chunk (or the workers are to stop).
    room: std::sync::Condvar,
}

struct StreamState<T, R> {
    /// Chunks made and not taken yet, by their place.
    made: std::collections::HashMap<usize, Vec<(T, R)>>,
    /// How many items the consumer took.
    taken: usize,
    /// The chunks the consumer waits for, all of them.
    wanted: Option<std::ops::Range<usize>>,
    /// Workers waiting for room in the window.
    blocked: usize,
    stop: bool,
    panic: Option<Box<dyn std::any::Any + Send>>,
}

impl<T, R> Stream<T, R> {
    fn lock(&self) -> std::sync::MutexGuard<'_, StreamState<T, R>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What reading and parsing one entry produced, before any of it is logged.
#[derive(Clone)]
enum EntryWork {
    SystemSkipped,
    Ignored,
    Read(Box<ReadWork>),
}

#[derive(Clone)]
struct ReadWork {
    path: String,
    directory: String,
    read: Result<ReadOutcome, ProviderError>,
    parsed: Option<Result<ParsedSkill, Rejection>>,
    checked: Option<std::sync::Arc<Checked>>,
}

/// The side-effect-free part of the provider's loop body: classify, read, parse.
fn process_entry(root: &Root, entry: &Entry, options: &ScanOptions) -> EntryWork {
    // Test hook (debug builds only): prove a bug in a worker ends with status 2, not a hang.
    #[cfg(debug_assertions)]
    if std::env::var_os("DSH_SKILLS_TEST_WORKER_PANIC").is_some() {
        panic!("test panic in a scan worker");
    }
    if root.skip_system && entry.name == ".system" {
        return EntryWork::SystemSkipped;
    }
    let (path, directory, key) = match entry.kind {
        Kind::Directory => (
            platform::join(&entry.path, "SKILL.md"),
            entry.path.clone(),
            entry.key.as_ref().map(|k| platform::join(k, "SKILL.md")),
        ),
        Kind::File if entry.name.ends_with(".md") => (entry.path.clone(), root.path.clone(), entry.key.clone()),
        _ => return EntryWork::Ignored,
    };
    let route = if root.trusted_host { Route::Node } else { Route::Service { key: key.as_deref() } };
    let keep = match (&options.check, options.keep_content) {
        (Some(_), _) => Keep::Bytes,
        (None, true) => Keep::Whole,
        (None, false) if options.digest => Keep::Whole,
        (None, false) => Keep::Frontmatter,
    };
    let check = |bytes, yaml| {
        let check = options.check.as_ref()?;
        let result = check.check(FileToCheck { root, entry, path: &path, bytes, yaml });
        Some(std::sync::Arc::new(Checked(std::sync::Mutex::new(Some(result)))))
    };
    let (read, parsed, checked) = match textread::read_skill_file(&path, route, keep) {
        Ok(ReadOutcome::Text(text)) => {
            let mut parsed = skillfile::parse_skill_text_with(&text, options.keep_content);
            if let (true, Ok(skill)) = (options.digest, parsed.as_mut()) {
                skill.digest = Some(digest_of(&text));
            }
            // The text is parsed; do not keep it.
            (Ok(ReadOutcome::Text(String::new())), Some(parsed), None)
        }
        Ok(ReadOutcome::Bytes(file)) => {
            let (parsed, yaml) = skillfile::parse_skill_text_keeping_yaml(&file.text(), options.keep_content);
            let checked = check(file.into_content(), yaml.as_ref());
            (Ok(ReadOutcome::Text(String::new())), Some(parsed), checked)
        }
        Ok(ReadOutcome::NotText { warning, binary, bytes }) => {
            let checked = bytes.and_then(|bytes| check(bytes.into(), None));
            (Ok(ReadOutcome::NotText { warning, binary, bytes: None }), None, checked)
        }
        other => (other.map_err(ProviderError::from), None, None),
    };
    EntryWork::Read(Box::new(ReadWork { path, directory, read, parsed, checked }))
}

/// The ordered part: log warnings, record candidates, stop at a provider failure.
fn apply_entry(
    root: &Root,
    work: EntryWork,
    root_index: usize,
    provider: &std::sync::Arc<str>,
    provider_order: usize,
    scan: &mut ProviderScan,
    log: &mut Vec<String>,
) -> (Outcome, Option<String>) {
    let (path, directory, read, parsed) = match work {
        EntryWork::SystemSkipped => return (Outcome::SystemSkipped, None),
        EntryWork::Ignored => return (Outcome::Ignored, None),
        EntryWork::Read(w) => {
            let ReadWork { path, directory, read, parsed, .. } = *w;
            (path, directory, read, parsed)
        }
    };
    match read {
        Ok(ReadOutcome::Text(_) | ReadOutcome::Bytes(_)) => {}
        Ok(ReadOutcome::Silent(reason)) => return (Outcome::Silent(reason), Some(path)),
        Ok(ReadOutcome::NotText { warning, .. }) => {
            log.push(warning);
            return (Outcome::Warned { warning: log.len() - 1, rejection: None }, Some(path));
        }
        Ok(ReadOutcome::Unreadable { what, why }) => {
            scan.notes.push(format!("{path} is a {what}: the harness {}; dsh-skills skipped it", why.harness()));
            return (Outcome::Unreadable(what, why), Some(path));
        }
        Err(e) => {
            scan.error = Some(e);
            return (Outcome::FailedProvider, Some(path));
        }
    }
    match parsed.expect("text is always parsed") {
        Ok(skill) => {
            let local_order = scan.candidates.len();
            scan.candidates.push(Candidate {
                skill,
                source: root.source,
                rank: root.rank,
                provider: provider.clone(),
                provider_order,
                local_order,
                path: Some(path.clone()),
                resource_base: directory,
                root_index: Some(root_index),
                layer: 0,
            });
            (Outcome::Candidate(local_order), Some(path))
        }
        Err(rejection) => {
            log.push(rejection.warning(&path));
            (Outcome::Warned { warning: log.len() - 1, rejection: Some(Box::new(rejection)) }, Some(path))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::par_stream;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Every item and its result, in input order, whatever the length and the window.
    #[test]
    fn par_stream_hands_on_every_result_in_order() {
        for len in [0, 1, 31, 32, 33, 100, 1000, 5000] {
            for window in [1, 16, 64, 1024] {
                let items: Vec<usize> = (0..len).collect();
                let got: Vec<(usize, usize)> = par_stream(items, window, |&i| i * 3, |r| r.collect());
                let want: Vec<(usize, usize)> = (0..len).map(|i| (i, i * 3)).collect();
                assert_eq!(got, want, "{len} items, window {window}");
            }
        }
    }

    /// The workers make at most about `window` results ahead of what the consumer took, and stop
    /// when it returns.
    #[test]
    fn par_stream_stays_within_its_window_and_stops_with_its_consumer() {
        let (made, taken, ahead) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0));
        let window = 64;
        let n = 20_000;
        let first: Vec<usize> = par_stream(
            (0..n).collect(),
            window,
            |&i| {
                let m = made.fetch_add(1, Ordering::SeqCst) + 1;
                ahead.fetch_max(m.saturating_sub(taken.load(Ordering::SeqCst)), Ordering::SeqCst);
                std::thread::yield_now();
                i
            },
            |r| {
                r.take(5_000)
                    .map(|(i, _)| {
                        taken.fetch_add(1, Ordering::SeqCst);
                        i
                    })
                    .collect()
            },
        );
        assert_eq!(first, (0..5_000).collect::<Vec<_>>());
        // A chunk is started only below `taken + window`; each of at most 8 workers holds one.
        let bound = window + 16 * 8;
        assert!(ahead.load(Ordering::SeqCst) <= bound, "{} made ahead", ahead.load(Ordering::SeqCst));
        assert!(made.load(Ordering::SeqCst) <= 5_000 + bound, "{} made", made.load(Ordering::SeqCst));
    }

    /// A panic while making a result reaches the caller (and no thread is left waiting).
    #[test]
    fn par_stream_passes_a_panic_on() {
        let caught = std::panic::catch_unwind(|| {
            par_stream(
                (0..1000).collect::<Vec<usize>>(),
                32,
                |&i| {
                    assert!(i != 500, "item 500");
                    i
                },
                |r| r.count(),
            )
        });
        let panic = caught.expect_err("the panic reaches the caller");
        let text = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        assert!(text.contains("item 500"), "{text}");
    }
}
