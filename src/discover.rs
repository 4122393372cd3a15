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

use crate::collate::EntryCollator;
use crate::nodefs::{self, Kind, NodeError, ReadError};
use crate::platform;
use crate::skillfile::{self, ParsedSkill, Rejection};
use std::ffi::OsString;

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
                Some(v) if !crate::js::trim(v).is_empty() => v.clone(),
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
            Ok(meta) => match Kind::of(&meta) {
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
}

impl std::fmt::Display for ProviderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProviderError::Node(e) => write!(f, "{e}"),
            ProviderError::Fs { message, .. } => write!(f, "FsError: {message}"),
        }
    }
}

impl ProviderError {
    /// `FS_NOT_FOUND`/`FS_NOT_DIRECTORY`/`ENOENT`/`ENOTDIR`: the harness treats these as absent.
    fn is_absent(&self) -> bool {
        match self {
            ProviderError::Node(e) => e.is_absent(),
            ProviderError::Fs { code, .. } => matches!(*code, "FS_NOT_FOUND" | "FS_NOT_DIRECTORY"),
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

/// The filesystem service's `resolve` (`resolveLocalTarget`): the real path used for I/O, or the
/// real path of the nearest existing ancestor with the missing suffix re-appended.
fn resolve_target(display: &str) -> Result<String, Stage> {
    match nodefs::realpath(display) {
        Ok(real) => return Ok(real),
        Err(e) if e.code == "ENOTDIR" => {
            return Err(Stage::Fs(ProviderError::Fs {
                code: "FS_NOT_FOUND",
                message: format!("cannot resolve \"{display}\": a parent path segment is not a directory"),
            }));
        }
        Err(e) if e.code != "ENOENT" => return Err(Stage::Node(e)),
        Err(_) => {}
    }
    let mut missing = vec![basename(display)];
    let mut ancestor = platform::dirname(display);
    loop {
        match nodefs::realpath(&ancestor) {
            Ok(real) => {
                let mut key = real;
                for seg in missing.iter().rev() {
                    key = platform::join(&key, seg);
                }
                return Ok(key);
            }
            Err(e) if e.code != "ENOENT" => return Err(Stage::Node(e)),
            Err(_) => {
                let parent = platform::dirname(&ancestor);
                if parent == ancestor {
                    return Ok(display.to_string());
                }
                missing.push(basename(&ancestor));
                ancestor = parent;
            }
        }
    }
}

fn basename(p: &str) -> String {
    let trimmed = p.trim_end_matches(platform::SEP);
    trimmed.rsplit(platform::SEP).next().unwrap_or("").to_string()
}

/// One root entry as the provider sees it after listing.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub kind: Kind,
    /// `join(root display path, name)`: symlinks in it are never resolved.
    pub path: String,
}

/// Entries the listing saw but the provider cannot use, reported for diagnostics.
#[derive(Clone, Debug)]
pub struct UnnamedEntry {
    pub raw_name: OsString,
}

/// The result of listing a root.
pub enum Listing {
    /// The root contributes nothing (ENOENT, ENOTDIR, a regular file, a dangling link).
    Absent,
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
        let (mut named, non_utf8) = split_names(raw);
        named.sort_by(|a, b| collator.compare(&a.0, &b.0));
        let mut entries = Vec::with_capacity(named.len());
        for (name, _) in named {
            let display = platform::join(root, &name);
            let child = (|| {
                let key = resolve_target(&platform::join(&target, &name))?;
                nodefs::probe(&key).map_err(Stage::Node)
            })();
            match child {
                Ok(kind) => entries.push(Entry { name, kind: kind.unwrap_or(Kind::Other), path: display }),
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

fn split_names(raw: Vec<nodefs::DirEntry>) -> (Vec<(String, Option<std::fs::FileType>)>, Vec<UnnamedEntry>) {
    let mut named = Vec::with_capacity(raw.len());
    let mut non_utf8 = Vec::new();
    for e in raw {
        match e.name {
            Some(n) => named.push((n, e.file_type)),
            None => non_utf8.push(UnnamedEntry { raw_name: e.raw_name }),
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
    let (named, non_utf8) = split_names(raw);
    let mut entries = Vec::with_capacity(named.len());
    for (name, ft) in named {
        let path = platform::join(root, &name);
        let kind = match ft {
            Some(ft) if ft.is_dir() => Kind::Directory,
            Some(ft) if ft.is_file() => Kind::File,
            Some(ft) if ft.is_symlink() => match nodefs::stat(&path) {
                Ok(meta) => Kind::of(&meta),
                Err(e) => {
                    log.push(format!("skill entry {path} ignored: failed to follow symbolic link: {e}"));
                    Kind::Other
                }
            },
            _ => Kind::Other,
        };
        entries.push(Entry { name, kind, path });
    }
    entries.sort_by(|a, b| collator.compare(&a.name, &b.name));
    Ok(Listing::Entries { entries, non_utf8 })
}

/// How the skill file's text came out of the read step.
pub enum ReadOutcome {
    Text(String),
    /// Absent or not a regular file: the harness drops it without a word.
    Silent(SilentReason),
    /// `FS_NOT_TEXT`: the harness warns and skips.
    NotText {
        warning: String,
        binary: bool,
    },
    /// The harness would block or read forever here; dsh-skills does not open it.
    Unreadable {
        what: &'static str,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SilentReason {
    /// ENOENT/ENOTDIR: no such file (a bundle without `SKILL.md`, a dangling link).
    Missing,
    /// It exists but is not a regular file (`SKILL.md` is a directory, a FIFO, a device).
    NotAFile(&'static str),
}

const BINARY_SAMPLE_BYTES: usize = 8192;

/// `readSkillTextFromFileSystem`: resolve, stat, then `readWholeText`.
fn read_production(path: &str) -> Result<ReadOutcome, ProviderError> {
    let target = match resolve_target(path) {
        Ok(t) => t,
        Err(Stage::Node(e)) if e.is_absent() => return Ok(ReadOutcome::Silent(SilentReason::Missing)),
        Err(Stage::Node(e)) => return Err(ProviderError::Node(e)),
        Err(Stage::Fs(e)) if e.is_absent() => return Ok(ReadOutcome::Silent(SilentReason::Missing)),
        Err(Stage::Fs(e)) => return Err(e),
    };
    let meta = match nodefs::stat(&target) {
        Ok(m) => m,
        Err(e) if e.is_absent() => return Ok(ReadOutcome::Silent(SilentReason::Missing)),
        Err(e) => return Err(ProviderError::Node(e)),
    };
    match Kind::of(&meta) {
        Kind::File => {}
        Kind::Directory => return Ok(ReadOutcome::Silent(SilentReason::NotAFile("a directory"))),
        Kind::Other => return Ok(ReadOutcome::Silent(SilentReason::NotAFile(nodefs::special_kind(&meta.file_type())))),
    }
    let bytes = match nodefs::read_file(&target, &target) {
        Ok(b) => b,
        Err(ReadError::Node(e)) if e.is_absent() => return Ok(ReadOutcome::Silent(SilentReason::Missing)),
        Err(ReadError::Node(e)) => return Err(ProviderError::Node(e)),
        // Swapped for a special file between stat and open: never read it.
        Err(ReadError::WouldBlock(what)) => return Ok(ReadOutcome::Silent(SilentReason::NotAFile(what))),
    };
    let not_text = |what: &str| ReadOutcome::NotText {
        warning: format!(
            "skill file {path} ignored: failed to read text file at {path}: FsError: cannot read \"{path}\": {what}"
        ),
        binary: what == "binary file",
    };
    if bytes[..bytes.len().min(BINARY_SAMPLE_BYTES)].contains(&0) {
        return Ok(not_text("binary file"));
    }
    // TextDecoder('utf-8', {fatal: true}) with the default ignoreBOM: false strips one BOM.
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    match std::str::from_utf8(body) {
        Ok(text) => Ok(ReadOutcome::Text(text.to_string())),
        Err(_) => Ok(not_text("invalid UTF-8 text")),
    }
}

/// `readFile(path, 'utf8')` for the bundled root: BOM kept, invalid bytes replaced, NULs kept.
fn read_node(path: &str) -> Result<ReadOutcome, ProviderError> {
    match nodefs::read_file(path, path) {
        Ok(bytes) => Ok(ReadOutcome::Text(String::from_utf8_lossy(&bytes).into_owned())),
        Err(ReadError::Node(e)) if e.is_absent() => Ok(ReadOutcome::Silent(SilentReason::Missing)),
        Err(ReadError::Node(e)) => Err(ProviderError::Node(e)),
        Err(ReadError::WouldBlock(what)) => Ok(ReadOutcome::Unreadable { what }),
    }
}

/// Read a skill file as the harness reads it for a root: the plain-Node way for the bundled
/// root (`node_mode`), through the filesystem service otherwise.
pub fn read_skill_file(path: &str, node_mode: bool) -> Result<ReadOutcome, ProviderError> {
    if node_mode { read_node(path) } else { read_production(path) }
}

/// A parsed skill as the provider hands it to the registry (`SkillCandidate`).
#[derive(Clone, Debug)]
pub struct Candidate {
    pub skill: ParsedSkill,
    pub source: &'static str,
    pub rank: u32,
    pub provider: String,
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
    /// The harness would hang reading it; dsh-skills skipped it (see `notes`).
    Unreadable(&'static str),
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
}

/// One provider's `list()` observation.
pub struct ProviderScan {
    pub roots: Vec<RootReport>,
    /// Candidates in provider output order. Empty when the provider failed (the registry then
    /// receives nothing from it), see [`ProviderScan::discarded`].
    pub candidates: Vec<Candidate>,
    /// Candidates parsed before a provider failure; the harness never sees them.
    pub discarded: Vec<Candidate>,
    pub error: Option<ProviderError>,
    /// dsh-skills' own observations (never harness log lines).
    pub notes: Vec<String>,
}

/// Run the filesystem provider's `list({cwd})`. Harness warnings go to `log` in order.
pub fn scan_provider(
    provider: &ResolvedProvider,
    project_root: Option<&str>,
    provider_order: usize,
    collator: &EntryCollator,
    log: &mut Vec<String>,
) -> ProviderScan {
    let mut scan = ProviderScan {
        roots: Vec::new(),
        candidates: Vec::new(),
        discarded: Vec::new(),
        error: None,
        notes: Vec::new(),
    };
    for (root_index, root) in roots(provider, project_root).into_iter().enumerate() {
        let root_type = RootType::of(&root.path);
        let mut report =
            RootReport { root, root_type, status: RootStatus::Scanned, entries: Vec::new(), non_utf8: Vec::new() };
        if scan.error.is_some() {
            report.status = RootStatus::NotReached;
            scan.roots.push(report);
            continue;
        }
        let listing = if report.root.trusted_host {
            list_node(&report.root.path, collator, log)
        } else {
            list_production(&report.root.path, collator)
        };
        let entries = match listing {
            Ok(Listing::Absent) => {
                report.status = RootStatus::Absent;
                scan.roots.push(report);
                continue;
            }
            Ok(Listing::Entries { entries, non_utf8 }) => {
                report.non_utf8 = non_utf8;
                entries
            }
            Err(e) => {
                report.status = RootStatus::Failed;
                scan.error = Some(e);
                scan.roots.push(report);
                continue;
            }
        };
        for entry in entries {
            let (outcome, locator) = if scan.error.is_some() {
                break;
            } else {
                scan_entry(&report.root, &entry, root_index, provider, provider_order, &mut scan, log)
            };
            report.entries.push(EntryReport { name: entry.name, kind: entry.kind, path: entry.path, locator, outcome });
        }
        scan.roots.push(report);
    }
    if scan.error.is_some() {
        scan.discarded = std::mem::take(&mut scan.candidates);
    }
    scan
}

fn scan_entry(
    root: &Root,
    entry: &Entry,
    root_index: usize,
    provider: &ResolvedProvider,
    provider_order: usize,
    scan: &mut ProviderScan,
    log: &mut Vec<String>,
) -> (Outcome, Option<String>) {
    if root.skip_system && entry.name == ".system" {
        return (Outcome::SystemSkipped, None);
    }
    let (path, directory) = match entry.kind {
        Kind::Directory => (platform::join(&entry.path, "SKILL.md"), entry.path.clone()),
        Kind::File if entry.name.ends_with(".md") => (entry.path.clone(), root.path.clone()),
        _ => return (Outcome::Ignored, None),
    };
    let read = read_skill_file(&path, root.trusted_host);
    let text = match read {
        Ok(ReadOutcome::Text(t)) => t,
        Ok(ReadOutcome::Silent(reason)) => return (Outcome::Silent(reason), Some(path)),
        Ok(ReadOutcome::NotText { warning, .. }) => {
            log.push(warning);
            return (Outcome::Warned { warning: log.len() - 1, rejection: None }, Some(path));
        }
        Ok(ReadOutcome::Unreadable { what }) => {
            scan.notes.push(format!(
                "{path} is a {what}: the harness would block reading it; dsh-skills skipped it without opening it"
            ));
            return (Outcome::Unreadable(what), Some(path));
        }
        Err(e) => {
            scan.error = Some(e);
            return (Outcome::FailedProvider, Some(path));
        }
    };
    match skillfile::parse_skill_text(&text) {
        Ok(skill) => {
            let local_order = scan.candidates.len();
            scan.candidates.push(Candidate {
                skill,
                source: root.source,
                rank: root.rank,
                provider: provider.name.clone(),
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
