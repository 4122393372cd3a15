//! A state of a git repository's work tree, read straight from git objects (a commit's tree or
//! the index) without a checkout: an [`Overlay`] the engine reads the repository through while
//! every path outside it (homes, configuration, the bundled root) stays on disk.
//!
//! Git is driven through its plumbing, not a library: `git rev-parse` resolves any revision
//! the user can type (`HEAD~3`, `origin/main`, `v1.2^{tree}`, `@{upstream}`), `git merge-base`
//! finds the base, `git ls-files -s` reads the index, and one `git cat-file --batch-command`
//! process serves every tree and blob on demand, so only the folders discovery visits are read.
//! Nothing is written: no checkout, no temporary file, no object (`GIT_OPTIONAL_LOCKS=0` keeps
//! even `git status`-like index refreshes away).

use crate::engine::nodefs::{EntryType, Overlay, OverlayNode};
use std::collections::HashMap;
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
}

/// One side of a diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// A commit's tree (`label` as typed, `commit` resolved).
    Commit { label: String, commit: String, tree: String },
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
        Ok(Repo { dir: dir.to_string(), top })
    }

    /// A revision as a commit and its tree.
    pub fn commit(&self, rev: &str) -> Result<State, GitError> {
        let resolve = |suffix: &str| {
            run(&self.dir, &["rev-parse", "--verify", "--quiet", "--end-of-options", &format!("{rev}{suffix}")])
        };
        let commit = resolve("^{commit}").map_err(|_| {
            GitError(format!("{rev:?} names no commit in this repository (try a branch, a tag or a commit id)"))
        })?;
        let tree = resolve("^{tree}")?;
        Ok(State::Commit { label: rev.to_string(), commit, tree })
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

    /// An overlay reading `state` (`None` for the working tree, which is the disk itself).
    pub fn overlay(&self, state: &State) -> Result<Option<Arc<dyn Overlay>>, GitError> {
        let source = match state {
            State::WorkTree => return Ok(None),
            State::Commit { tree, .. } => Source::Tree(tree.clone()),
            State::Index => Source::Index(self.index()?),
        };
        let format = run(&self.dir, &["rev-parse", "--show-object-format"]).unwrap_or_else(|_| "sha1".into());
        let oid_len = if format == "sha256" { 32 } else { 20 };
        let reader = CatFile::spawn(&self.dir)?;
        Ok(Some(Arc::new(GitTree {
            top: self.top.clone(),
            source,
            oid_len,
            reader: Mutex::new(reader),
            trees: Mutex::new(HashMap::new()),
            blobs: Mutex::new(HashMap::new()),
            sizes: Mutex::new(HashMap::new()),
        })))
    }

    /// Every file of `state`, relative to the top (`/`-separated): a commit's tree, the index,
    /// or the working tree's tracked and untracked files that are not ignored.
    pub fn files(&self, state: &State) -> Result<Vec<String>, GitError> {
        let args: Vec<&str> = match state {
            State::Commit { tree, .. } => vec!["ls-tree", "-r", "-z", "--name-only", "--full-tree", tree],
            State::Index => vec!["ls-files", "-z"],
            State::WorkTree => vec!["ls-files", "-z", "-c", "-o", "--exclude-standard"],
        };
        let out = git(&self.top).args(&args).output().map_err(|e| GitError(format!("cannot run git: {e}")))?;
        if !out.status.success() {
            return Err(GitError(format!("git {} failed: {}", args[0], String::from_utf8_lossy(&out.stderr).trim())));
        }
        Ok(out
            .stdout
            .split(|b| *b == 0)
            .filter(|r| !r.is_empty())
            .map(|r| String::from_utf8_lossy(r).into_owned())
            .collect())
    }

    /// The index's entries, folder by folder.
    fn index(&self) -> Result<HashMap<String, Vec<Item>>, GitError> {
        let out = git(&self.top)
            .args(["ls-files", "-s", "-z", "--full-name"])
            .output()
            .map_err(|e| GitError(format!("cannot run git: {e}")))?;
        if !out.status.success() {
            return Err(GitError(format!("git ls-files failed: {}", String::from_utf8_lossy(&out.stderr).trim())));
        }
        let mut dirs: HashMap<String, Vec<Item>> = HashMap::new();
        dirs.entry(String::new()).or_default();
        for record in out.stdout.split(|b| *b == 0).filter(|r| !r.is_empty()) {
            let Some(tab) = record.iter().position(|b| *b == b'\t') else { continue };
            let head = String::from_utf8_lossy(&record[..tab]);
            let mut fields = head.split(' ');
            let (Some(mode), Some(oid)) = (fields.next(), fields.next()) else { continue };
            let path = String::from_utf8_lossy(&record[tab + 1..]).into_owned();
            let Ok(mode) = u32::from_str_radix(mode, 8) else { continue };
            // Every folder on the way exists.
            let mut parent = String::new();
            let parts: Vec<&str> = path.split('/').collect();
            for (i, part) in parts.iter().enumerate() {
                let here = if parent.is_empty() { part.to_string() } else { format!("{parent}/{part}") };
                let last = i + 1 == parts.len();
                let list = dirs.entry(parent.clone()).or_default();
                if !list.iter().any(|it| it.name == *part) {
                    let (mode, oid) = if last { (mode, oid.to_string()) } else { (0o040000, String::new()) };
                    list.push(Item { name: part.to_string(), mode, oid });
                }
                if !last {
                    dirs.entry(here.clone()).or_default();
                }
                parent = here;
            }
        }
        Ok(dirs)
    }
}

/// One entry of a tree.
#[derive(Clone, Debug)]
struct Item {
    name: String,
    mode: u32,
    oid: String,
}

impl Item {
    fn node(&self) -> OverlayNode {
        match self.mode & 0o170000 {
            0o040000 | 0o160000 => OverlayNode::Directory,
            0o120000 => OverlayNode::Symlink,
            _ => OverlayNode::File { len: 0 },
        }
    }
}

enum Source {
    Tree(String),
    Index(HashMap<String, Vec<Item>>),
}

/// An object as `cat-file` gives it: its type, its size and (for `contents`) its bytes.
type Object = (String, u64, Vec<u8>);

/// A long-running `git cat-file --batch-command`.
struct CatFile {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl CatFile {
    fn spawn(dir: &str) -> Result<CatFile, GitError> {
        let mut child = git(dir)
            .args(["cat-file", "--batch-command"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| GitError(format!("cannot run git cat-file: {e}")))?;
        let input = child.stdin.take().ok_or_else(|| GitError("git cat-file has no input".into()))?;
        let output = BufReader::new(child.stdout.take().ok_or_else(|| GitError("git cat-file has no output".into()))?);
        Ok(CatFile { child, input, output })
    }

    /// `(type, size)` and, with `contents`, the object's bytes.
    fn ask(&mut self, command: &str, oid: &str) -> io::Result<Option<Object>> {
        self.input.write_all(format!("{command} {oid}\n").as_bytes())?;
        self.answer(command)
    }

    /// [`CatFile::ask`] for many objects, pipelined: a batch of requests is written, then its
    /// answers read (a batch's requests fit in the pipe, so the write never waits on git).
    fn ask_many(&mut self, command: &str, oids: &[String]) -> io::Result<Vec<Option<Object>>> {
        let mut out = Vec::with_capacity(oids.len());
        for batch in oids.chunks(64) {
            let requests: String = batch.iter().map(|oid| format!("{command} {oid}\n")).collect();
            // One write per batch (the pipe is not buffered on this side).
            self.input.write_all(requests.as_bytes())?;
            for _ in batch {
                out.push(self.answer(command)?);
            }
        }
        Ok(out)
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
    source: Source,
    oid_len: usize,
    reader: Mutex<CatFile>,
    /// Folders read so far, by path relative to the top.
    trees: Mutex<HashMap<String, Arc<Vec<Item>>>>,
    /// Skill files fetched ahead of their read ([`GitTree::prefetch`]), by object id; a read
    /// takes its bytes out.
    blobs: Mutex<HashMap<String, Vec<u8>>>,
    /// Blob sizes known so far, by object id.
    sizes: Mutex<HashMap<String, u64>>,
}

impl GitTree {
    fn ask(&self, command: &str, oid: &str) -> io::Result<Option<Object>> {
        self.reader.lock().unwrap_or_else(|e| e.into_inner()).ask(command, oid)
    }

    /// The entries of the folder at `rel`, `None` when there is no such folder.
    fn folder(&self, rel: &str) -> io::Result<Option<Arc<Vec<Item>>>> {
        if let Some(items) = self.trees.lock().unwrap_or_else(|e| e.into_inner()).get(rel) {
            return Ok(Some(items.clone()));
        }
        let items = match &self.source {
            Source::Index(dirs) => match dirs.get(rel) {
                Some(items) => items.clone(),
                None => return Ok(None),
            },
            Source::Tree(root) => {
                let oid = if rel.is_empty() {
                    root.clone()
                } else {
                    let (parent, name) = rel.rsplit_once('/').unwrap_or(("", rel));
                    let Some(parent) = self.folder(parent)? else { return Ok(None) };
                    match parent.iter().find(|it| it.name == name) {
                        Some(it) if it.mode & 0o170000 == 0o040000 => it.oid.clone(),
                        // A submodule: an empty folder in a checkout that did not initialise it.
                        Some(it) if it.mode & 0o170000 == 0o160000 => String::new(),
                        _ => return Ok(None),
                    }
                };
                if oid.is_empty() {
                    Vec::new()
                } else {
                    match self.ask("contents", &oid)? {
                        Some((kind, _, bytes)) if kind == "tree" => parse_tree(&bytes, self.oid_len),
                        _ => return Err(io::Error::other(format!("git tree {oid} cannot be read"))),
                    }
                }
            }
        };
        let items = Arc::new(items);
        self.trees.lock().unwrap_or_else(|e| e.into_inner()).insert(rel.to_string(), items.clone());
        Ok(Some(items))
    }

    /// Discovery lists a root, then reads each entry's `SKILL.md` (or the flat `.md` file):
    /// after a listing, its subfolders and those files are fetched in pipelined batches rather
    /// than one round trip to git each.
    fn prefetch(&self, rel: &str, items: &[Item]) -> io::Result<()> {
        let join = |name: &str| if rel.is_empty() { name.to_string() } else { format!("{rel}/{name}") };
        let known = self
            .trees
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .cloned()
            .collect::<std::collections::HashSet<_>>();
        let dirs: Vec<&Item> =
            items.iter().filter(|it| it.mode & 0o170000 == 0o040000 && !known.contains(&join(&it.name))).collect();
        let mut files: Vec<String> = items
            .iter()
            .filter(|it| it.mode & 0o170000 == 0o100000 && it.name.ends_with(".md"))
            .map(|it| it.oid.clone())
            .collect();
        if !dirs.is_empty() {
            let oids: Vec<String> = dirs.iter().map(|it| it.oid.clone()).collect();
            let answers = self.reader.lock().unwrap_or_else(|e| e.into_inner()).ask_many("contents", &oids)?;
            let mut trees = self.trees.lock().unwrap_or_else(|e| e.into_inner());
            for (it, answer) in dirs.iter().zip(answers) {
                if let Some((kind, _, bytes)) = answer
                    && kind == "tree"
                {
                    let children = parse_tree(&bytes, self.oid_len);
                    files.extend(
                        children
                            .iter()
                            .filter(|c| c.name == "SKILL.md" && c.mode & 0o170000 == 0o100000)
                            .map(|c| c.oid.clone()),
                    );
                    trees.insert(join(&it.name), Arc::new(children));
                }
            }
        }
        if !files.is_empty() {
            let answers = self.reader.lock().unwrap_or_else(|e| e.into_inner()).ask_many("contents", &files)?;
            let mut blobs = self.blobs.lock().unwrap_or_else(|e| e.into_inner());
            let mut sizes = self.sizes.lock().unwrap_or_else(|e| e.into_inner());
            for (oid, answer) in files.into_iter().zip(answers) {
                if let Some((_, size, bytes)) = answer {
                    sizes.insert(oid.clone(), size);
                    blobs.insert(oid, bytes);
                }
            }
        }
        Ok(())
    }

    fn item(&self, rel: &str) -> io::Result<Option<Item>> {
        let (parent, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        Ok(self.folder(parent)?.and_then(|items| items.iter().find(|it| it.name == name).cloned()))
    }

    fn blob(&self, rel: &str) -> io::Result<Vec<u8>> {
        let item = self.item(rel)?.ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
        if let Some(bytes) = self.blobs.lock().unwrap_or_else(|e| e.into_inner()).remove(&item.oid) {
            return Ok(bytes);
        }
        match self.ask("contents", &item.oid)? {
            Some((_, _, bytes)) => Ok(bytes),
            None => Err(io::Error::other(format!("git object {} is missing", item.oid))),
        }
    }
}

/// A tree object's entries: `<mode> <name>\0<binary id>`, repeated.
fn parse_tree(bytes: &[u8], oid_len: usize) -> Vec<Item> {
    let mut items = Vec::new();
    let mut rest = bytes;
    while let Some(space) = rest.iter().position(|b| *b == b' ') {
        let Some(nul) = rest.iter().position(|b| *b == 0) else { break };
        if nul + 1 + oid_len > rest.len() || space > nul {
            break;
        }
        let mode = u32::from_str_radix(&String::from_utf8_lossy(&rest[..space]), 8).unwrap_or(0);
        let name = String::from_utf8_lossy(&rest[space + 1..nul]).into_owned();
        let oid: String = rest[nul + 1..nul + 1 + oid_len].iter().map(|b| format!("{b:02x}")).collect();
        items.push(Item { name, mode, oid });
        rest = &rest[nul + 1 + oid_len..];
    }
    items
}

impl Overlay for GitTree {
    fn top(&self) -> &str {
        &self.top
    }

    fn lstat(&self, rel: &str) -> io::Result<Option<OverlayNode>> {
        if rel.is_empty() {
            return Ok(Some(OverlayNode::Directory));
        }
        let Some(item) = self.item(rel)? else { return Ok(None) };
        Ok(Some(match item.node() {
            OverlayNode::File { .. } => {
                if let Some(size) = self.sizes.lock().unwrap_or_else(|e| e.into_inner()).get(&item.oid) {
                    return Ok(Some(OverlayNode::File { len: *size }));
                }
                match self.ask("info", &item.oid)? {
                    Some((_, size, _)) => {
                        self.sizes.lock().unwrap_or_else(|e| e.into_inner()).insert(item.oid.clone(), size);
                        OverlayNode::File { len: size }
                    }
                    None => return Err(io::Error::other(format!("git object {} is missing", item.oid))),
                }
            }
            other => other,
        }))
    }

    fn readdir(&self, rel: &str) -> io::Result<Vec<(OsString, EntryType)>> {
        match self.folder(rel)? {
            Some(items) => {
                self.prefetch(rel, &items)?;
                Ok(items
                    .iter()
                    .map(|it| {
                        let t = match it.node() {
                            OverlayNode::Directory => EntryType::Directory,
                            OverlayNode::Symlink => EntryType::Symlink,
                            OverlayNode::File { .. } => EntryType::File,
                        };
                        (OsString::from(&it.name), t)
                    })
                    .collect())
            }
            None if self.item(rel)?.is_some() => Err(io::Error::from(io::ErrorKind::NotADirectory)),
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
