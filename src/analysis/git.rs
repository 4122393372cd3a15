//! A state of a git repository's work tree, read straight from git objects (a commit's tree or
//! the index) without a checkout: an [`Overlay`] the engine reads the repository through while
//! every path outside it (homes, configuration, the bundled root) stays on disk.
//!
//! Git is driven through its plumbing, not a library: `git rev-parse` resolves any revision
//! the user can type (`HEAD~3`, `origin/main`, `v1.2^{tree}`, `@{upstream}`), `git merge-base`
//! finds the base, `git ls-tree -r -t` lists a commit's whole tree once (indexed by path, so a
//! lookup never walks it), `git ls-files -s` the index, and one `git cat-file --batch-command`
//! process serves the blobs discovery reads, pipelined.
//! Nothing is written: no checkout, no temporary file, no object (`GIT_OPTIONAL_LOCKS=0` keeps
//! even `git status`-like index refreshes away).

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

impl Repo {
    /// The repository holding `dir`.
    pub fn open(dir: &str) -> Result<Repo, GitError> {
        let top = run(dir, &["rev-parse", "--show-toplevel"]).map_err(|e| {
            GitError(format!("{dir} is not inside a git work tree ({e}); run dsh-skills diff inside a repository"))
        })?;
        let top = std::fs::canonicalize(&top)
            .map(|p| p.to_string_lossy().into_owned())
            .map_err(|e| GitError(format!("cannot resolve the work tree {top}: {e}")))?;
        Ok(Repo { dir: dir.to_string(), top, objects: Arc::default() })
    }

    /// A revision as a commit and its tree.
    pub fn commit(&self, rev: &str) -> Result<State, GitError> {
        Repo::commit_in(&self.dir, rev)
    }

    /// [`Repo::commit`] for the repository holding `dir`, before it is opened (the command
    /// resolves its revisions while it finds the repository).
    pub fn commit_in(dir: &str, rev: &str) -> Result<State, GitError> {
        let resolve = |suffix: &str| {
            run(dir, &["rev-parse", "--verify", "--quiet", "--end-of-options", &format!("{rev}{suffix}")])
        };
        let commit = resolve("^{commit}").map_err(|_| {
            GitError(format!("{rev:?} names no commit in this repository (try a branch, a tag or a commit id)"))
        })?;
        Ok(State::Commit { label: rev.to_string(), commit })
    }

    /// The default branch: `origin/HEAD` when the clone knows it, else `main`, `master`,
    /// `origin/main` or `origin/master`, the first that exists.
    pub fn default_branch(&self) -> Result<String, GitError> {
        if let Ok(head) = run(&self.dir, &["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]) {
            return Ok(head);
        }
        for candidate in ["main", "master", "origin/main", "origin/master"] {
            if run(&self.dir, &["rev-parse", "--verify", "--quiet", &format!("{candidate}^{{commit}}")]).is_ok() {
                return Ok(candidate.to_string());
            }
        }
        Err(GitError(
            "cannot tell the default branch (no origin/HEAD, main or master); name the base: dsh-skills diff BASE"
                .into(),
        ))
    }

    /// The merge base of `HEAD` and `branch`.
    pub fn merge_base(&self, branch: &str) -> Result<State, GitError> {
        let base = run(&self.dir, &["merge-base", "HEAD", branch]).map_err(|e| {
            GitError(format!("no merge base of HEAD and {branch} ({e}); name the base: dsh-skills diff BASE"))
        })?;
        let mut state = self.commit(&base)?;
        if let State::Commit { label, .. } = &mut state {
            *label = format!("merge-base {branch}");
        }
        Ok(state)
    }

    /// The listing of `state`, started now and read by [`Listing::wait`]: git lists the
    /// state on another core while the caller goes on (each side of a diff starts both
    /// listings before its first discovery).
    pub fn list(&self, state: &State) -> Listing {
        let (args, kind): (Vec<String>, ListKind) = match state {
            State::Commit { commit, .. } => (
                ["ls-tree", "-r", "-t", "-z", "--full-tree", commit.as_str()].map(str::to_string).to_vec(),
                ListKind::Tree,
            ),
            State::Index => (["ls-files", "-s", "-z", "--full-name"].map(str::to_string).to_vec(), ListKind::Index),
            State::WorkTree => {
                (["ls-files", "-z", "-c", "-o", "--exclude-standard"].map(str::to_string).to_vec(), ListKind::Names)
            }
        };
        let mut cmd = git(&self.top);
        cmd.args(&args);
        let handle = std::thread::spawn(move || {
            let out = cmd.output().map_err(|e| GitError(format!("cannot run git: {e}")))?;
            if !out.status.success() {
                return Err(GitError(format!(
                    "git {} failed: {}",
                    args[0],
                    String::from_utf8_lossy(&out.stderr).trim()
                )));
            }
            Ok(out.stdout)
        });
        Listing { top: self.top.clone(), kind, handle, objects: self.objects.clone() }
    }
}

/// What a listing's output holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ListKind {
    /// `ls-tree -r -t`: `<mode> <type> <id>\t<path>`, folders included.
    Tree,
    /// `ls-files -s`: `<mode> <id> <stage>\t<path>`, files only.
    Index,
    /// `ls-files`: paths only (the working tree, read from disk).
    Names,
}

/// A state's listing under way ([`Repo::list`]).
pub struct Listing {
    top: String,
    kind: ListKind,
    handle: std::thread::JoinHandle<Result<Vec<u8>, GitError>>,
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
        let out = self.handle.join().map_err(|_| GitError("git's listing failed".into()))??;
        let records = out.split(|b| *b == 0).filter(|r| !r.is_empty());
        if self.kind == ListKind::Names {
            let files = records.map(lossy).collect();
            return Ok(StateFiles { overlay: None, files });
        }
        let records: Vec<&[u8]> = records.collect();
        let mut index = Index {
            nodes: Map::with_capacity_and_hasher(records.len(), Default::default()),
            dirs: Map::with_capacity_and_hasher(records.len() / 2 + 1, Default::default()),
        };
        index.dirs.insert(String::new(), Vec::new());
        for record in records {
            let Some(tab) = record.iter().position(|b| *b == b'\t') else { continue };
            let mut fields = record[..tab].split(|b| *b == b' ');
            let (Some(mode), Some(second), Some(third)) = (fields.next(), fields.next(), fields.next()) else {
                continue;
            };
            let oid = if self.kind == ListKind::Tree { third } else { second };
            let Some(mode) = std::str::from_utf8(mode).ok().and_then(|m| u32::from_str_radix(m, 8).ok()) else {
                continue;
            };
            index.insert(lossy(&record[tab + 1..]), mode, lossy(oid));
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

/// The repository's objects: one `git cat-file --batch-command --buffer`, started on the first
/// read and shared by both sides of a diff, and the blobs it gave, by id: a file that is the
/// same at both states (most are) is read from git once.
#[derive(Default)]
struct Objects {
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
        self.fetch(dir, &[oid])?;
        cached(self).ok_or_else(|| io::Error::other(format!("git object {oid} is missing")))
    }

    /// A blob's size.
    fn size(&self, dir: &str, oid: &str) -> io::Result<u64> {
        if let Some(size) = self.sizes.lock().unwrap_or_else(|e| e.into_inner()).get(oid) {
            return Ok(*size);
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
    /// after a listing, those files are fetched in one pipelined request rather than one
    /// round trip to git each.
    fn prefetch(&self, rel: &str, entries: &[(String, u32)]) -> io::Result<()> {
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
