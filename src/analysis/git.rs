//! A state of a git repository's work tree, read straight from git objects (a commit's tree or
//! the index) without a checkout: an [`Overlay`] the engine reads the repository through while
//! every path outside it (homes, configuration, the bundled root) stays on disk.
//!
//! The repository is read in this process with `gix` (gitoxide): revisions, the merge base, a
//! commit's whole tree (listed once and indexed by path, so a lookup never walks it), the index
//! and every object, from loose files and packs alike. Git's own plumbing is the fallback for
//! whatever gix does not answer, so that every repository git can read still works: a revision
//! gix cannot resolve goes to `git rev-parse` (and the merge base to `git merge-base`), a
//! repository whose references gix cannot read (reftable) has all its references resolved by
//! git, a tree or index gix cannot read is listed by `git ls-tree -r -t` or `git ls-files -s`,
//! and an object gix does not find (a partial clone's missing blob) is asked of one
//! `git cat-file --batch-command` process. The working tree's files are listed by
//! `git ls-files -c -o --exclude-standard` (git's own ignore rules), on a thread of its own.
//! Nothing is written: no checkout, no temporary file, no object, no lock
//! (`GIT_OPTIONAL_LOCKS=0` keeps even `git status`-like index refreshes away from the fallback).

use crate::engine::nodefs::{EntryType, Overlay, OverlayNode};

/// The maps here are keyed by paths and object ids: foldhash (seeded per process) rather than
/// SipHash, for thousands of lookups.
type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};

/// A failure to reach a repository state, with what to do about it.
#[derive(Debug)]
pub struct GitError(pub String);

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GitError {}

/// A repository, addressed from a folder inside its work tree.
#[derive(Clone, Debug)]
pub struct Repo {
    /// Where git commands run (a folder of the work tree).
    pub dir: String,
    /// The work tree's top folder, as a real path.
    pub top: String,
    /// Its objects, read by every state's overlay through one process.
    objects: Arc<Objects>,
}

/// One side of a diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// A commit's tree (`label` as typed, `commit` resolved).
    Commit { label: String, commit: String },
    /// The index (`--staged`).
    Index,
    /// The files on disk.
    WorkTree,
}

impl State {
    /// How the state is named in reports: the revision as typed and its short commit, `index`
    /// or `working tree`.
    pub fn label(&self) -> String {
        match self {
            State::Commit { label, commit, .. } if label == commit => commit[..commit.len().min(12)].to_string(),
            State::Commit { label, commit, .. } => format!("{label} ({})", &commit[..commit.len().min(12)]),
            State::Index => "index".into(),
            State::WorkTree => "working tree".into(),
        }
    }
}

fn git(dir: &str) -> Command {
    let mut c = Command::new("git");
    c.arg("-C").arg(dir).env("GIT_OPTIONAL_LOCKS", "0").stdin(Stdio::null());
    c
}

/// Run git and return its standard output without the final line break.
fn run(dir: &str, args: &[&str]) -> Result<String, GitError> {
    let out = git(dir)
        .args(args)
        .output()
        .map_err(|e| GitError(format!("cannot run git ({e}); dsh-skills diff reads the repository through git")))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let err = err.trim();
        return Err(GitError(format!("git {} failed: {err}", args.join(" "))));
    }
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    while text.ends_with('\n') {
        text.pop();
    }
    Ok(text)
}

/// The branches taken for the default one when `origin/HEAD` names none, in this order.
const DEFAULT_BRANCHES: [&str; 4] = ["main", "master", "origin/main", "origin/master"];

impl Repo {
    /// The repository holding `dir`: found by gix as git finds it (`GIT_DIR`,
    /// `GIT_CEILING_DIRECTORIES` and the like honoured), else by `git rev-parse`, which also
    /// says why when there is none.
    pub fn open(dir: &str) -> Result<Repo, GitError> {
        let found = gix::ThreadSafeRepository::discover_with_environment_overrides(dir).ok();
        // A repository gix trusts less than fully (owned by another user) is git's to refuse or
        // read, as `safe.directory` says.
        let handle =
            found.as_ref().map(|repo| repo.to_thread_local()).filter(|h| h.git_dir_trust() == gix::sec::Trust::Full);
        let found = found.filter(|_| handle.is_some());
        let top = match handle.as_ref().and_then(|repo| repo.workdir().map(std::path::Path::to_path_buf)) {
            Some(top) => top.to_string_lossy().into_owned(),
            None => run(dir, &["rev-parse", "--show-toplevel"]).map_err(|e| {
                GitError(format!("{dir} is not inside a git work tree ({e}); run dsh-skills diff inside a repository"))
            })?,
        };
        let top = std::fs::canonicalize(&top)
            .map(|p| p.to_string_lossy().into_owned())
            .map_err(|e| GitError(format!("cannot resolve the work tree {top}: {e}")))?;
        // gix reads the files backend's references only: a reftable repository's are git's.
        let refs_by_git = handle.as_ref().is_none_or(|repo| {
            repo.config_snapshot().string("extensions.refStorage").is_some_and(|v| !v.eq_ignore_ascii_case(b"files"))
        });
        let handles = Mutex::new(handle.into_iter().collect());
        let objects = Arc::new(Objects { gix: found, handles, refs_by_git, ..Objects::default() });
        Ok(Repo { dir: dir.to_string(), top, objects })
    }

    /// A revision as a commit: resolved by gix, else by `git rev-parse` (any revision git
    /// takes, and git's answer where gix has none, an ambiguous short id among them).
    pub fn commit(&self, rev: &str) -> Result<State, GitError> {
        let spec = format!("{rev}^{{commit}}");
        let by_gix = self.objects.refs(|repo| repo.rev_parse_single(spec.as_str()).ok().map(|id| id.detach()));
        let commit = match by_gix {
            Some(id) => id.to_hex().to_string(),
            None => run(&self.dir, &["rev-parse", "--verify", "--quiet", "--end-of-options", &spec]).map_err(|_| {
                GitError(format!("{rev:?} names no commit in this repository (try a branch, a tag or a commit id)"))
            })?,
        };
        Ok(State::Commit { label: rev.to_string(), commit })
    }

    /// The default branch: `origin/HEAD` when the clone knows it, else `main`, `master`,
    /// `origin/main` or `origin/master`, the first that exists.
    pub fn default_branch(&self) -> Result<String, GitError> {
        // gix answers unless git resolves the references, or the short name is git's to say.
        let by_gix = self.objects.refs(|repo| {
            // `origin/HEAD` names its branch, shortened as `git symbolic-ref --short` does
            // (the short name must find that branch again, else git says it).
            if let Ok(Some(head)) = repo.try_find_reference("refs/remotes/origin/HEAD")
                && let gix::refs::TargetRef::Symbolic(target) = head.target()
            {
                let short = target.shorten().to_string();
                let again = repo.try_find_reference(short.as_str()).ok().flatten();
                return again.is_some_and(|r| r.name() == target).then_some(Some(short));
            }
            let exists = |name: &str| repo.rev_parse_single(format!("{name}^{{commit}}").as_str()).is_ok();
            Some(DEFAULT_BRANCHES.into_iter().find(|c| exists(c)).map(str::to_string))
        });
        match by_gix {
            Some(Some(branch)) => return Ok(branch),
            Some(None) => {}
            None => {
                if let Ok(head) = run(&self.dir, &["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]) {
                    return Ok(head);
                }
                for candidate in DEFAULT_BRANCHES {
                    if run(&self.dir, &["rev-parse", "--verify", "--quiet", &format!("{candidate}^{{commit}}")]).is_ok()
                    {
                        return Ok(candidate.to_string());
                    }
                }
            }
        }
        Err(GitError(
            "cannot tell the default branch (no origin/HEAD, main or master); name the base: dsh-skills diff BASE"
                .into(),
        ))
    }

    /// The merge base of `HEAD` and `branch`: gix's when there is exactly one, else git's
    /// (which also says why there is none).
    pub fn merge_base(&self, branch: &str) -> Result<State, GitError> {
        let by_gix = self.objects.refs(|repo| {
            let head = repo.head_id().ok()?.detach();
            let other = repo.rev_parse_single(branch).ok()?.object().ok()?.peel_to_commit().ok()?.id;
            let cache = repo.commit_graph_if_enabled().ok()?;
            let mut graph = repo.revision_graph(cache.as_ref());
            match repo.merge_bases_many_with_graph(head, &[other], &mut graph).ok()?.as_slice() {
                [one] => Some(one.detach().to_hex().to_string()),
                _ => None,
            }
        });
        let base = match by_gix {
            Some(base) => base,
            None => run(&self.dir, &["merge-base", "HEAD", branch]).map_err(|e| {
                GitError(format!("no merge base of HEAD and {branch} ({e}); name the base: dsh-skills diff BASE"))
            })?,
        };
        let mut state = self.commit(&base)?;
        if let State::Commit { label, .. } = &mut state {
            *label = format!("merge-base {branch}");
        }
        Ok(state)
    }

    /// The listing of `state`, started now on a thread of its own and read by
    /// [`Listing::wait`] (each side of a diff starts both listings before its first discovery).
    pub fn list(&self, state: &State) -> Listing {
        let (top, objects, state) = (self.top.clone(), self.objects.clone(), state.clone());
        let handle = std::thread::spawn(move || match &state {
            State::Commit { commit, .. } => match objects.with_gix(|repo| tree_records(repo, commit)) {
                Some(records) => Ok(Listed::Records(records)),
                None => git_records(&top, &["ls-tree", "-r", "-t", "-z", "--full-tree", commit], ListKind::Tree),
            },
            State::Index => match objects.with_gix(index_records) {
                Some(records) => Ok(Listed::Records(records)),
                None => git_records(&top, &["ls-files", "-s", "-z", "--full-name"], ListKind::Index),
            },
            State::WorkTree => {
                let out = git_output(&top, &["ls-files", "-z", "-c", "-o", "--exclude-standard"])?;
                Ok(Listed::Names(out.split(|b| *b == 0).filter(|r| !r.is_empty()).map(lossy).collect()))
            }
        });
        Listing { top: self.top.clone(), handle, objects: self.objects.clone() }
    }
}

/// A node of a listing: its path relative to the top, its mode and its object id (hex).
type Record = (String, u32, String);

/// A listing as read: the nodes of a commit's tree or of the index, or the working tree's
/// file names.
enum Listed {
    Records(Vec<Record>),
    Names(Vec<String>),
}

/// Every node of `commit`'s tree, folders included, as `git ls-tree -r -t` lists them (modes
/// as git reads them, without a tree's noncanonical permission bits). `None` where gix cannot
/// read it.
fn tree_records(repo: &gix::Repository, commit: &str) -> Option<Vec<Record>> {
    let id = gix::ObjectId::from_hex(commit.as_bytes()).ok()?;
    let tree = repo.find_commit(id).ok()?.tree().ok()?;
    let mut recorder = gix::traverse::tree::Recorder::default();
    tree.traverse().breadthfirst(&mut recorder).ok()?;
    Some(
        recorder
            .records
            .into_iter()
            .map(|e| (lossy(&e.filepath), u32::from(e.mode.normalized().value()), e.oid.to_hex().to_string()))
            .collect(),
    )
}

/// Every entry of the index, as `git ls-files -s` lists them (a conflict's stages in order).
/// `None` where gix cannot read it, or for a sparse index (whose folder entries git expands).
fn index_records(repo: &gix::Repository) -> Option<Vec<Record>> {
    let index = repo.index_or_empty().ok()?;
    if index.is_sparse() {
        return None;
    }
    Some(index.entries().iter().map(|e| (lossy(e.path(&index)), e.mode.bits(), e.id.to_hex().to_string())).collect())
}

/// git's output of `args`, run at `top`.
fn git_output(top: &str, args: &[&str]) -> Result<Vec<u8>, GitError> {
    let out = git(top).args(args).output().map_err(|e| GitError(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        return Err(GitError(format!("git {} failed: {}", args[0], String::from_utf8_lossy(&out.stderr).trim())));
    }
    Ok(out.stdout)
}

/// A listing by git's plumbing, where gix had none: `ls-tree -r -t` (`<mode> <type>
/// <id>\t<path>`, folders included) or `ls-files -s` (`<mode> <id> <stage>\t<path>`).
fn git_records(top: &str, args: &[&str], kind: ListKind) -> Result<Listed, GitError> {
    let out = git_output(top, args)?;
    let mut records = Vec::new();
    for record in out.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let Some(tab) = record.iter().position(|b| *b == b'\t') else { continue };
        let mut fields = record[..tab].split(|b| *b == b' ');
        let (Some(mode), Some(second), Some(third)) = (fields.next(), fields.next(), fields.next()) else {
            continue;
        };
        let oid = if kind == ListKind::Tree { third } else { second };
        let Some(mode) = std::str::from_utf8(mode).ok().and_then(|m| u32::from_str_radix(m, 8).ok()) else {
            continue;
        };
        records.push((lossy(&record[tab + 1..]), mode, lossy(oid)));
    }
    Ok(Listed::Records(records))
}

/// What git's listing output holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ListKind {
    /// `ls-tree -r -t`.
    Tree,
    /// `ls-files -s`.
    Index,
}

/// A state's listing under way ([`Repo::list`]).
pub struct Listing {
    top: String,
    handle: std::thread::JoinHandle<Result<Listed, GitError>>,
    objects: Arc<Objects>,
}

/// A state as read: the overlay discovery reads it through (`None` for the working tree, which
/// is the disk itself) and every file of it, relative to the top (`/`-separated): a commit's
/// tree, the index, or the working tree's tracked and untracked files that are not ignored.
pub struct StateFiles {
    pub overlay: Option<Arc<dyn Overlay>>,
    pub files: Vec<String>,
}

impl Listing {
    pub fn wait(self) -> Result<StateFiles, GitError> {
        let records = match self.handle.join().map_err(|_| GitError("git's listing failed".into()))?? {
            Listed::Names(files) => return Ok(StateFiles { overlay: None, files }),
            Listed::Records(records) => records,
        };
        let mut index = Index {
            nodes: Map::with_capacity_and_hasher(records.len(), Default::default()),
            dirs: Map::with_capacity_and_hasher(records.len() / 2 + 1, Default::default()),
        };
        index.dirs.insert(String::new(), Vec::new());
        for (path, mode, oid) in records {
            index.insert(path, mode, oid);
        }
        // Every file of the state: what is not a folder (a submodule counts, as git lists it).
        let files =
            index.nodes.iter().filter(|(_, it)| it.mode & 0o170000 != 0o040000).map(|(path, _)| path.clone()).collect();
        let tree = GitTree { top: self.top, index, objects: self.objects };
        Ok(StateFiles { overlay: Some(Arc::new(tree)), files })
    }
}

/// Bytes from git as text (a name that is not UTF-8 gets U+FFFD, as everywhere in the tool).
fn lossy(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// One node of a state: its mode and object id.
#[derive(Clone, Debug)]
struct Item {
    mode: u32,
    oid: String,
}

impl Item {
    fn node(&self) -> OverlayNode {
        node_of(self.mode)
    }
}

fn node_of(mode: u32) -> OverlayNode {
    match mode & 0o170000 {
        0o040000 | 0o160000 => OverlayNode::Directory,
        0o120000 => OverlayNode::Symlink,
        _ => OverlayNode::File { len: 0 },
    }
}

fn is_regular(mode: u32) -> bool {
    mode & 0o170000 == 0o100000
}

/// A state's nodes, read once and indexed: every path's node, every folder's entries.
#[derive(Default)]
struct Index {
    /// Every node by its path relative to the top.
    nodes: Map<String, Item>,
    /// Every folder's entries (name and mode) by its path relative to the top (`""`: the top).
    /// A submodule is an empty folder, as in a checkout that did not initialise it.
    dirs: Map<String, Vec<(String, u32)>>,
}

impl Index {
    /// Record a node, and every folder on its way that is not recorded yet (the index lists
    /// files only). The first record of a path wins (the index lists a conflict's stages).
    fn insert(&mut self, path: String, mode: u32, oid: String) {
        if path.is_empty() || self.nodes.contains_key(&path) {
            return;
        }
        let (parent, name) = path.rsplit_once('/').unwrap_or(("", &path));
        if !parent.is_empty() && !self.nodes.contains_key(parent) {
            self.insert(parent.to_string(), 0o040000, String::new());
        }
        let entry = (name.to_string(), mode);
        match self.dirs.get_mut(parent) {
            Some(entries) => entries.push(entry),
            None => {
                self.dirs.insert(parent.to_string(), vec![entry]);
            }
        }
        if matches!(node_of(mode), OverlayNode::Directory) {
            self.dirs.entry(path.clone()).or_default();
        }
        self.nodes.insert(path, Item { mode, oid });
    }
}

/// An object as `cat-file` gives it: its type, its size and (for `contents`) its bytes.
type Object = (String, u64, Vec<u8>);

/// The repository's objects, read by gix (a handle per thread at a time, each with its own
/// pack cache), and, for what gix does not find, by one `git cat-file --batch-command
/// --buffer` started on the first such read; both shared by the two sides of a diff. The blobs
/// read are kept by id: a file that is the same at both states (most are) is read once.
#[derive(Default)]
struct Objects {
    /// The repository as gix opened it (`None`: gix could not; git answers everything).
    gix: Option<gix::ThreadSafeRepository>,
    /// Handles on it not in use.
    handles: Mutex<Vec<gix::Repository>>,
    /// References are resolved by git (gix cannot read them: a reftable repository).
    refs_by_git: bool,
    reader: Mutex<Option<CatFile>>,
    blobs: Mutex<Map<String, Arc<Vec<u8>>>>,
    /// Blob sizes known so far, by id.
    sizes: Mutex<Map<String, u64>>,
}

impl std::fmt::Debug for Objects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Objects")
    }
}

impl Objects {
    /// `f` on a gix handle of the repository (`None` without one, or where `f` has no answer).
    fn with_gix<R>(&self, f: impl FnOnce(&gix::Repository) -> Option<R>) -> Option<R> {
        let repo = self.gix.as_ref()?;
        let handle = self.handles.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let handle = handle.unwrap_or_else(|| repo.to_thread_local());
        let answer = f(&handle);
        self.handles.lock().unwrap_or_else(|e| e.into_inner()).push(handle);
        answer
    }

    /// [`Objects::with_gix`] for what reads references: `None` where git resolves them.
    fn refs<R>(&self, f: impl FnOnce(&gix::Repository) -> Option<R>) -> Option<R> {
        if self.refs_by_git { None } else { self.with_gix(f) }
    }

    /// A blob's bytes as gix reads them (`None`: not found there, or not a blob).
    fn gix_blob(&self, oid: &str) -> Option<Vec<u8>> {
        let id = gix::ObjectId::from_hex(oid.as_bytes()).ok()?;
        let object = self.with_gix(|repo| repo.try_find_object(id).ok().flatten().map(|o| o.detach()))?;
        (object.kind == gix::object::Kind::Blob).then_some(object.data)
    }

    /// [`CatFile::ask_many`] on the process, started in `dir` if it is not running yet.
    fn ask_many(
        reader: &mut Option<CatFile>,
        dir: &str,
        command: &str,
        oids: &[&str],
    ) -> io::Result<Vec<Option<Object>>> {
        if reader.is_none() {
            *reader = Some(CatFile::spawn(dir).map_err(|e| io::Error::other(e.0))?);
        }
        reader.as_mut().map_or_else(|| Ok(Vec::new()), |r| r.ask_many(command, oids))
    }

    /// Read the blobs `oids` that are not read yet, in one pipelined request.
    fn fetch(&self, dir: &str, oids: &[&str]) -> io::Result<()> {
        let mut reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut missing: Vec<&str> = {
            let blobs = self.blobs.lock().unwrap_or_else(|e| e.into_inner());
            oids.iter().copied().filter(|oid| !blobs.contains_key(*oid)).collect()
        };
        missing.sort_unstable();
        missing.dedup();
        if missing.is_empty() {
            return Ok(());
        }
        let answers = Self::ask_many(&mut reader, dir, "contents", &missing)?;
        let mut blobs = self.blobs.lock().unwrap_or_else(|e| e.into_inner());
        let mut sizes = self.sizes.lock().unwrap_or_else(|e| e.into_inner());
        for (oid, answer) in missing.into_iter().zip(answers) {
            if let Some((kind, size, bytes)) = answer
                && kind == "blob"
            {
                sizes.insert(oid.to_string(), size);
                blobs.insert(oid.to_string(), Arc::new(bytes));
            }
        }
        Ok(())
    }

    /// A blob's bytes.
    fn blob(&self, dir: &str, oid: &str) -> io::Result<Vec<u8>> {
        let cached = |objects: &Objects| {
            objects.blobs.lock().unwrap_or_else(|e| e.into_inner()).get(oid).map(|b| b.as_ref().clone())
        };
        if let Some(bytes) = cached(self) {
            return Ok(bytes);
        }
        if let Some(bytes) = self.gix_blob(oid) {
            let mut blobs = self.blobs.lock().unwrap_or_else(|e| e.into_inner());
            return Ok(blobs.entry(oid.to_string()).or_insert_with(|| Arc::new(bytes)).as_ref().clone());
        }
        self.fetch(dir, &[oid])?;
        cached(self).ok_or_else(|| io::Error::other(format!("git object {oid} is missing")))
    }

    /// A blob's size.
    fn size(&self, dir: &str, oid: &str) -> io::Result<u64> {
        if let Some(size) = self.sizes.lock().unwrap_or_else(|e| e.into_inner()).get(oid) {
            return Ok(*size);
        }
        let id = gix::ObjectId::from_hex(oid.as_bytes()).ok();
        if let Some(header) = id.and_then(|id| self.with_gix(|repo| repo.try_find_header(id).ok().flatten())) {
            let size = header.size();
            self.sizes.lock().unwrap_or_else(|e| e.into_inner()).insert(oid.to_string(), size);
            return Ok(size);
        }
        let mut reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        match Self::ask_many(&mut reader, dir, "info", &[oid])?.into_iter().next().flatten() {
            Some((_, size, _)) => {
                self.sizes.lock().unwrap_or_else(|e| e.into_inner()).insert(oid.to_string(), size);
                Ok(size)
            }
            None => Err(io::Error::other(format!("git object {oid} is missing"))),
        }
    }
}

/// A long-running `git cat-file --batch-command --buffer`.
struct CatFile {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl CatFile {
    fn spawn(dir: &str) -> Result<CatFile, GitError> {
        let mut child = git(dir)
            .args(["cat-file", "--batch-command", "--buffer"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| GitError(format!("cannot run git cat-file: {e}")))?;
        let input = child.stdin.take().ok_or_else(|| GitError("git cat-file has no input".into()))?;
        let output = BufReader::with_capacity(
            64 * 1024,
            child.stdout.take().ok_or_else(|| GitError("git cat-file has no output".into()))?,
        );
        Ok(CatFile { child, input, output })
    }

    /// `(type, size)` and, with `contents`, the bytes of each object, pipelined: every request
    /// and a `flush` are written at once, then the answers read. With `--buffer` git reads
    /// the requests up to the `flush` before it answers any, so the write never waits on the
    /// reading side, and it writes its answers in large blocks.
    fn ask_many(&mut self, command: &str, oids: &[&str]) -> io::Result<Vec<Option<Object>>> {
        if oids.is_empty() {
            return Ok(Vec::new());
        }
        let mut requests = String::with_capacity(oids.len() * (command.len() + 66) + 6);
        for oid in oids {
            requests.push_str(command);
            requests.push(' ');
            requests.push_str(oid);
            requests.push('\n');
        }
        requests.push_str("flush\n");
        self.input.write_all(requests.as_bytes())?;
        oids.iter().map(|_| self.answer(command)).collect()
    }

    fn answer(&mut self, command: &str) -> io::Result<Option<Object>> {
        let mut header = String::new();
        self.output.read_line(&mut header)?;
        let header = header.trim_end();
        let fields: Vec<&str> = header.split(' ').collect();
        match fields.as_slice() {
            [_, "missing"] | [_, "ambiguous"] => Ok(None),
            [_, kind, size] => {
                let size: u64 = size.parse().map_err(|_| io::Error::other(format!("git cat-file said {header:?}")))?;
                let mut bytes = Vec::new();
                if command == "contents" {
                    bytes.resize(size as usize, 0);
                    self.output.read_exact(&mut bytes)?;
                    let mut nl = [0u8; 1];
                    self.output.read_exact(&mut nl)?;
                }
                Ok(Some((kind.to_string(), size, bytes)))
            }
            _ => Err(io::Error::other(format!("git cat-file said {header:?}"))),
        }
    }
}

impl Drop for CatFile {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A commit's tree or the index, as an [`Overlay`].
struct GitTree {
    top: String,
    index: Index,
    objects: Arc<Objects>,
}

impl GitTree {
    /// Discovery lists a root, then reads each entry's `SKILL.md` (or the flat `.md` file):
    /// where git's reader serves the objects, those files are fetched after a listing in one
    /// pipelined request rather than one round trip to git each.
    fn prefetch(&self, rel: &str, entries: &[(String, u32)]) -> io::Result<()> {
        if self.objects.gix.is_some() {
            // Read in this process: no round trip to save.
            return Ok(());
        }
        let join = |name: &str| if rel.is_empty() { name.to_string() } else { format!("{rel}/{name}") };
        let mut files: Vec<&str> = Vec::new();
        for (name, mode) in entries {
            let item = if mode & 0o170000 == 0o040000 {
                self.index.nodes.get(&format!("{}/SKILL.md", join(name)))
            } else if is_regular(*mode) && name.ends_with(".md") {
                self.index.nodes.get(&join(name))
            } else {
                None
            };
            if let Some(item) = item.filter(|it| is_regular(it.mode)) {
                files.push(&item.oid);
            }
        }
        self.objects.fetch(&self.top, &files)
    }

    fn item(&self, rel: &str) -> Option<&Item> {
        self.index.nodes.get(rel)
    }

    fn blob(&self, rel: &str) -> io::Result<Vec<u8>> {
        let item = self.item(rel).ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
        self.objects.blob(&self.top, &item.oid)
    }
}

impl Overlay for GitTree {
    fn top(&self) -> &str {
        &self.top
    }

    fn lstat(&self, rel: &str) -> io::Result<Option<OverlayNode>> {
        if rel.is_empty() {
            return Ok(Some(OverlayNode::Directory));
        }
        let Some(item) = self.item(rel) else { return Ok(None) };
        Ok(Some(match item.node() {
            OverlayNode::File { .. } => OverlayNode::File { len: self.objects.size(&self.top, &item.oid)? },
            other => other,
        }))
    }

    fn readdir(&self, rel: &str) -> io::Result<Vec<(OsString, EntryType)>> {
        match self.index.dirs.get(rel) {
            Some(entries) => {
                self.prefetch(rel, entries)?;
                Ok(entries
                    .iter()
                    .map(|(name, mode)| {
                        let t = match node_of(*mode) {
                            OverlayNode::Directory => EntryType::Directory,
                            OverlayNode::Symlink => EntryType::Symlink,
                            OverlayNode::File { .. } => EntryType::File,
                        };
                        (OsString::from(name), t)
                    })
                    .collect())
            }
            None if self.item(rel).is_some() => Err(io::Error::from(io::ErrorKind::NotADirectory)),
            None => Err(io::Error::from(io::ErrorKind::NotFound)),
        }
    }

    fn readlink(&self, rel: &str) -> io::Result<OsString> {
        let bytes = self.blob(rel)?;
        Ok(OsString::from(String::from_utf8_lossy(&bytes).into_owned()))
    }

    fn read(&self, rel: &str) -> io::Result<Vec<u8>> {
        self.blob(rel)
    }
}
