//! A skill's resource directory: relative references in the body, and symbolic links inside
//! the skill folder.

use super::subject::{Subject, SubjectKind};
use super::{Finding, Severity};
use crate::engine::platform;
use std::path::Path;

/// At most this many entries are visited in a skill folder.
const MAX_ENTRIES: usize = 5000;

pub use crate::analysis::refscan::{Evidence, Reference};

/// Every reference in a skill body, found by the scanner `show` uses too.
pub fn scan(body: &str) -> Vec<Reference> {
    crate::analysis::refscan::scan(body).refs
}

pub use crate::analysis::refscan::{percent_decode, strongest};

/// The severity of a `broken-reference` with this evidence: a link or an instruction the
/// model will follow is a warning, a mention in passing is info.
fn graded(evidence: Evidence) -> Severity {
    if evidence == Evidence::Mention { Severity::Info } else { Severity::Warning }
}

/// What kind of reference it is, for messages.
fn what(evidence: Evidence) -> &'static str {
    match evidence {
        Evidence::Link => "linked",
        Evidence::Instruction => "the body says to read or run it",
        Evidence::Mention => "mentioned in passing",
    }
}

/// Broken or escaping references in `body` (which starts at file offset `body_offset`), and
/// an unclosed code fence.
pub fn check_references(
    subject: &Subject,
    path: &str,
    body: &str,
    body_offset: usize,
    neighbours: &Neighbours,
    listed: Option<&Listed>,
) -> Vec<Finding> {
    let base = subject.base_dir();
    let mut out = Vec::new();
    let scan = crate::analysis::refscan::scan(body);
    if let Some(open) = &scan.unclosed_fence {
        let marker = open_fence_marker(&body[open.clone()]);
        out.push(
            Finding::new(
                &UNCLOSED_CODE_FENCE,
                path,
                format!("this code fence \"{marker}\" is never closed"),
                "the harness sends the body as it is; everything after this line reads as code to the model and \
                 to every Markdown renderer",
            )
            .at(body_offset + open.start..body_offset + open.end)
            .label("opened here")
            // In quotes, not backticks: a fence of backticks inside a code span reads as a longer
            // fence in plain text (`````), and the indent's spaces stay visible.
            .help(format!("close it with a line of \"{}{marker}\" after the code", scan.fence_indent)),
        );
    }
    let mut listings = Listings::new();
    for (target, r) in strongest(scan.refs) {
        let span = body_offset + r.start..body_offset + r.end;
        let shown = target.clone();
        if target.starts_with('/') || target.starts_with('~') || is_windows_absolute(&target) {
            // `/plugin:skill` names a slash command, not a file.
            if r.evidence == Evidence::Mention || slash_command(&target) {
                continue;
            }
            out.push(
                Finding::new(
                    &REFERENCE_ESCAPES_BUNDLE,
                    path,
                    format!("`{shown}` is an absolute path"),
                    "the model is told to resolve paths against the skill's base directory; an absolute path works only \
                     on this machine",
                )
                .at(span)
                .help("copy the file into the skill folder and reference it relatively"),
            );
            continue;
        }
        let joined = platform::join(base, &target);
        let inside = platform::inside(&joined, base);
        if !inside {
            if std::fs::symlink_metadata(&joined).is_ok() {
                out.push(
                    Finding::new(
                        &REFERENCE_ESCAPES_BUNDLE,
                        path,
                        format!("`{shown}` leaves the skill's base directory (it resolves to `{joined}`, which exists)"),
                        format!(
                            "the model resolves it against `{base}` and finds the file; copying or installing the skill \
                             folder on its own breaks the reference"
                        ),
                    )
                    .severity(Severity::Info)
                    .at(span)
                    .help("fine for a skill that stays in this project; to ship the skill alone, copy the file into it"),
                );
            } else {
                out.push(
                    Finding::new(
                        &BROKEN_REFERENCE,
                        path,
                        format!("`{shown}` does not exist (it resolves to `{joined}`, outside the skill folder)"),
                        format!("the model resolves it against `{base}` and will not find the file"),
                    )
                    .severity(graded(r.evidence))
                    .at(span)
                    .label(what(r.evidence))
                    .help("fix the path, or add the file"),
                );
            }
            continue;
        }
        if !Listed::lacks_path(listed, base, &joined) && std::fs::symlink_metadata(&joined).is_ok() {
            continue;
        }
        // A command that runs `scripts/x` when the skill has no `scripts/` folder at all is
        // usually about the user's project: graded as a mention (info), labelled as what it is,
        // unless a neighbouring skill holds the file ([`advise_siblings`] decides that later).
        let missing_dir = target.split_once('/').map(|(dir, _)| dir).filter(|dir| {
            r.run && {
                let path = platform::join(base, dir);
                Listed::lacks_path(listed, base, &path) || std::fs::metadata(path).is_err()
            }
        });
        let evidence = if missing_dir.is_some() { Evidence::Mention } else { r.evidence };
        let mut f = Finding::new(
            &BROKEN_REFERENCE,
            path,
            format!("`{shown}` does not exist in the skill's base directory"),
            format!("the model is told to resolve relative paths against `{}` and will not find this file", base),
        )
        .severity(graded(evidence))
        .at(span);
        let near = listings.nearest_file(base, &target);
        if let Some(near) = &near {
            f = f.label(format!("did you mean `{}`?", near));
            f = f.help(format!("did you mean `{}`?", near));
        } else if let Some(dir) = missing_dir {
            f = f.label(format!("a command runs it, and the skill has no `{dir}/` folder")).help(format!(
                "if the script belongs to the skill, add it as `{target}`; if the command is for the user's \
                 project, say so (\"in your project, run …\" on its line, or a heading such as `## In your project` above a \
                 code block)"
            ));
        } else {
            f = f.label(what(evidence)).help("fix the path or add the file");
        }
        // A copy in a neighbouring skill folder changes the advice (when no closer name was
        // found) or the grade (of a command whose folder is missing).
        if let SubjectKind::Bundle { dir, entry } = &subject.kind
            && (near.is_none() || missing_dir.is_some())
            && first_name(&target).is_some()
        {
            neighbours.want(&platform::dirname(dir));
            f.sibling = Some(Box::new(SiblingSearch {
                dir: dir.clone(),
                entry: entry.clone(),
                target,
                evidence: r.evidence,
                near: near.is_some(),
            }));
        }
        out.push(f);
    }
    out
}

/// `/name` or `/plugin:name`: a slash command.
fn slash_command(t: &str) -> bool {
    t.strip_prefix('/').is_some_and(|c| {
        !c.is_empty()
            && c.contains(':')
            && c.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':'))
    })
}

/// The backticks or tildes that open a fence line.
fn open_fence_marker(line: &str) -> &str {
    let t = line.trim_start();
    let ch = t.as_bytes().first().copied().unwrap_or(b'`');
    let n = t.bytes().take_while(|&b| b == ch).count();
    &t[..n]
}

fn is_windows_absolute(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/')
}

/// A broken reference's search for the same file in a neighbouring skill folder, made once
/// every folder of the run has been walked ([`advise_siblings`]); until then the finding reads
/// as if no neighbour held the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiblingSearch {
    /// The skill folder, and its name in its parent.
    dir: String,
    entry: String,
    /// The reference, as the finding names it.
    target: String,
    /// The reference's own evidence: the finding's grade when a neighbour holds the file.
    evidence: Evidence,
    /// A close name in the skill's own folder was suggested: that advice stays.
    near: bool,
}

/// Every pending [`SiblingSearch`] of `findings`, made: where a neighbouring skill folder holds
/// the file, the finding takes the reference's own grade and, unless a closer name in the skill's
/// own folder was suggested, the advice to reference or copy that file. Called where a lint run
/// gathers its findings, after every skill folder's walk.
pub fn advise_siblings(findings: &mut [Finding], neighbours: &Neighbours) {
    for f in findings {
        let Some(search) = f.sibling.take() else { continue };
        let Some((sibling, rel)) = in_sibling(&search.dir, &search.entry, &search.target, neighbours) else {
            continue;
        };
        f.severity = graded(search.evidence);
        if !search.near {
            f.label = Some(format!("it is in the skill `{sibling}`").into());
            f.help = vec![
                format!(
                    "the file is in the neighbouring skill `{sibling}`: reference it as `{rel}` (which leaves this \
                     skill's folder), or copy it into this skill"
                )
                .into(),
            ];
        }
    }
}

/// For each folder whose skills have broken references (a root, or a collection's folder),
/// which of its folders hold each name at their top level: built once per folder and lint run,
/// so that each broken reference looks into the folders that have its first component instead
/// of every folder (a stat per folder per reference made large roots quadratic). The skill
/// folders' own walks ([`symlinks_under`]) are kept for it ([`Kept`]): a harness root's from the
/// start, a collection's folder's from the first search in it on, so a folder is listed once
/// per run; a folder walked before that (or not a skill) is listed when the index is made, and
/// the directories below the folders that references point into are listed once per run too.
#[derive(Debug, Default)]
pub struct Neighbours {
    /// Folder → its index, built by the first caller that needs it while the others wait.
    roots: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<std::sync::OnceLock<NameIndex>>>>,
    /// Directory inside a neighbouring skill folder → its names ([`DirNames`]).
    dirs: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<std::sync::OnceLock<Option<DirNames>>>>>,
    /// Folder and a name in its skill folders (`<folder>\0<name>`) → what the directories of that
    /// name hold ([`Below`]).
    below: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<std::sync::OnceLock<Below>>>>,
    /// Folder with a pending search ([`Neighbours::want`]) → its skill folders' walks, until its
    /// index takes them.
    kept: std::sync::Mutex<std::collections::HashMap<String, Kept>>,
}

/// A name as the sibling search keeps it: 16 bits of its [`caseless_hash`]. Two names of one
/// short hash only make a folder a candidate that the listing or the stat then turns down, and
/// 10,000 skill folders' walks fit in half a megabyte.
type Short = u16;

fn short(hash: u64) -> Short {
    (hash >> 48) as Short
}

/// In [`Kept::arena`], the length of a listing that cannot tell.
const CANNOT_TELL: Short = Short::MAX;

/// The walks of one folder's skill folders, as [`symlinks_under`] listed them: for each, the
/// names at its top, then the directories there, each as the short hash of its name and its
/// names (a listing is its length, or [`CANNOT_TELL`], then its names), one after another in
/// `arena`. `at` finds a folder's by the hash of its name.
#[derive(Debug, Default)]
struct Kept {
    arena: Vec<Short>,
    at: std::collections::HashMap<u64, u32>,
}

/// In [`Kept::at`], a name hash that two folders share: neither walk is used.
const COLLIDED: u32 = u32::MAX;

impl Kept {
    /// `listed` (a skill folder's walk), encoded.
    fn encode(listed: Listed) -> Vec<Short> {
        fn names(out: &mut Vec<Short>, names: Option<DirNames>) {
            match names.filter(|n| n.0.len() < CANNOT_TELL as usize) {
                Some(n) => {
                    out.push(n.0.len() as Short);
                    out.extend(n.0.iter().map(|&h| short(h)));
                }
                None => out.push(CANNOT_TELL),
            }
        }
        let mut top = None;
        let mut dirs = Vec::new();
        for (rel, listing) in listed.0 {
            if rel.is_empty() {
                top = listing;
            } else if !rel.contains('/') {
                dirs.push((short(caseless_hash(&rel)), listing));
            }
        }
        let mut out = Vec::new();
        names(&mut out, top);
        out.push(dirs.len().min(CANNOT_TELL as usize - 1) as Short);
        for (hash, listing) in dirs.into_iter().take(CANNOT_TELL as usize - 1) {
            out.push(hash);
            names(&mut out, listing);
        }
        out
    }

    /// The folder `name`'s walk, when one was kept: where it starts in the arena.
    fn find(&self, name: &str) -> Option<u32> {
        self.at.get(&exact_hash(name)).copied().filter(|&at| at != COLLIDED)
    }

    /// The listing at `at`: its names (`None` when it cannot tell) and where the next part starts.
    fn listing(&self, at: usize) -> (Option<&[Short]>, usize) {
        match self.arena[at] {
            CANNOT_TELL => (None, at + 1),
            n => (Some(&self.arena[at + 1..at + 1 + n as usize]), at + 1 + n as usize),
        }
    }

    /// The names at the top of the walk at `at`.
    fn top(&self, at: u32) -> Option<&[Short]> {
        self.listing(at as usize).0
    }

    /// The names in the top-level directories of the walk at `at` whose name has the short hash
    /// `dir` (a case-sensitive file system can hold several): all of them, `None` when there is
    /// none or one cannot tell.
    fn below(&self, at: u32, dir: Short) -> Option<Vec<Short>> {
        let (_, mut next) = self.listing(at as usize);
        let count = self.arena[next];
        next += 1;
        let (mut all, mut tells) = (None::<Vec<Short>>, true);
        for _ in 0..count {
            let hash = self.arena[next];
            let (names, after) = self.listing(next + 1);
            next = after;
            if hash == dir {
                match names {
                    Some(names) => all.get_or_insert_default().extend_from_slice(names),
                    None => tells = false,
                }
            }
        }
        all.filter(|_| tells)
    }
}

/// A hash of a folder's name as it is spelt, to find its walk in [`Kept`].
fn exact_hash(name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    name.hash(&mut h);
    h.finish()
}

/// For one folder and one top-level name (`references`), the names its skill folders hold in
/// that directory: a broken reference `references/x.md` is looked for in the folders whose
/// `references/` may hold `x.md`, without a path built for each of the others. Folders are
/// their places in [`NameIndex::folders`].
#[derive(Debug, Default)]
struct Below {
    /// A name's [`Short`] hash → the folders whose listing may hold it (ascending).
    by_name: std::collections::HashMap<Short, Vec<u32>>,
    /// The folders whose listing cannot tell, ascending.
    undecided: Vec<u32>,
}

/// The places of two ascending lists, merged (ascending).
fn merged<'a>(a: &'a [u32], b: &'a [u32]) -> impl Iterator<Item = u32> + 'a {
    let (mut a, mut b) = (a.iter().peekable(), b.iter().peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(&&x), Some(&&y)) if x < y => a.next().copied(),
        (Some(_), Some(_)) | (None, Some(_)) => b.next().copied(),
        (Some(_), None) => a.next().copied(),
        (None, None) => None,
    })
}

impl Below {
    /// The folders whose directory may hold `name`, ascending.
    fn may_hold(&self, name: &str) -> impl Iterator<Item = u32> + '_ {
        merged(self.by_name.get(&short(caseless_hash(name))).map_or(&[][..], Vec::as_slice), &self.undecided)
    }
}

/// A folder's folders, sorted by name, and each top-level name in them → the folders that may
/// hold it (by the name's [`Short`] hash; each folder named once, in `folders`, and pointed at by
/// its place there: an index of 10,000 folders holds 40,000 such pointers).
#[derive(Debug, Default)]
struct NameIndex {
    folders: Vec<String>,
    /// The walks kept of the folder's skill folders ([`Kept`]), and where each folder's starts.
    kept: Kept,
    walks: Vec<Option<u32>>,
    by_name: std::collections::HashMap<Short, Vec<u32>>,
    /// The folders whose listing cannot tell, ascending.
    undecided: Vec<u32>,
}

impl NameIndex {
    /// The places of the folders that may hold `name` at their top level, ascending (so sorted by
    /// folder name).
    fn holding(&self, name: &str) -> impl Iterator<Item = u32> + '_ {
        merged(self.by_name.get(&short(caseless_hash(name))).map_or(&[][..], Vec::as_slice), &self.undecided)
    }
}

/// A directory's names, each as a hash of its ASCII-lowercased spelling (8 bytes a name, kept
/// for the whole run): enough to tell that a name is *not* there, on a case-sensitive file
/// system and on a case-insensitive one alike (two names of one hash only make the stat
/// decide). Only made when every name is ASCII and the listing is complete.
#[derive(Debug, Default)]
pub struct DirNames(Vec<u64>);

impl DirNames {
    /// The names `names` (ASCII).
    fn new(names: impl Iterator<Item = String>) -> DirNames {
        let mut hashes: Vec<u64> = names.map(|n| caseless_hash(&n)).collect();
        hashes.sort_unstable();
        DirNames(hashes)
    }

    /// The names of `dir`, `None` when they cannot tell: it cannot be listed, it holds a name
    /// that is not ASCII, or more than [`MAX_ENTRIES`] names.
    fn list(dir: &str) -> Option<DirNames> {
        DirNames::read(dir).flatten()
    }

    /// [`DirNames::list`], with `None` when `dir` cannot be listed at all and `Some(None)` when
    /// its listing cannot tell.
    fn read(dir: &str) -> Option<Option<DirNames>> {
        DirNames::read_at_most(dir, MAX_ENTRIES)
    }

    /// [`DirNames::read`], telling at most `cap` names.
    fn read_at_most(dir: &str, cap: usize) -> Option<Option<DirNames>> {
        let mut hashes = Vec::new();
        // A name the listing cannot tell stops it, incomplete.
        let complete = each_entry(Path::new(dir), false, |name, _| {
            let name = name.to_str().filter(|n| n.is_ascii() && hashes.len() < cap);
            name.inspect(|name| hashes.push(caseless_hash(name))).is_some()
        })?;
        if !complete {
            return Some(None);
        }
        hashes.sort_unstable();
        Some(Some(DirNames(hashes)))
    }

    /// Whether a name equal to `name` but for ASCII case may be listed.
    fn holds(&self, name: &str) -> bool {
        self.0.binary_search(&caseless_hash(name)).is_ok()
    }
}

/// A hash of `name` with ASCII letters lowercased, the same in every run.
fn caseless_hash(name: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = std::hash::DefaultHasher::new();
    for chunk in name.as_bytes().chunks(64) {
        let mut low = [0u8; 64];
        low[..chunk.len()].copy_from_slice(chunk);
        low.make_ascii_lowercase();
        h.write(&low[..chunk.len()]);
    }
    h.finish()
}

/// `map[key]`, made by `make` once: the first caller makes it, outside the map's lock, while
/// callers for the same key wait for it.
fn once<T>(
    map: &std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<std::sync::OnceLock<T>>>>,
    key: &str,
    make: impl FnOnce() -> T,
) -> std::sync::Arc<std::sync::OnceLock<T>> {
    let cell = {
        let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
        match map.get(key) {
            Some(cell) => cell.clone(),
            None => map.entry(key.to_string()).or_default().clone(),
        }
    };
    cell.get_or_init(make);
    cell
}

/// Push `place` onto `places` unless it is already the last (a listing can hold two names of one
/// hash).
fn push_place(places: &mut Vec<u32>, place: u32) {
    if places.last() != Some(&place) {
        places.push(place);
    }
}

impl Neighbours {
    /// A broken reference in a skill folder of `parent` will look for a neighbour's copy: from
    /// now on, the walks of `parent`'s skill folders are kept for its index ([`Neighbours::offer`]).
    pub fn want(&self, parent: &str) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if !kept.contains_key(parent) {
            kept.insert(parent.to_string(), Kept::default());
        }
    }

    /// What the walk of `subject`'s folder listed, kept when a search in its parent is pending
    /// and the parent's index is not made yet (dropped otherwise).
    pub fn offer(&self, subject: &Subject, listed: Listed) {
        self.keep(subject, listed, false);
    }

    /// [`Neighbours::offer`] for a skill folder of a harness root, kept whether or not a search
    /// in the root is pending yet: a root is one large folder, where the first broken reference
    /// may come after most of its folders were walked (they would be listed again for its
    /// index). A few dozen bytes a folder, dropped with the indexes; a collection's many small
    /// folders keep [`Neighbours::offer`]'s rule.
    pub fn offer_from_root(&self, subject: &Subject, listed: Listed) {
        self.keep(subject, listed, true);
    }

    fn keep(&self, subject: &Subject, listed: Listed, always: bool) {
        let SubjectKind::Bundle { dir, entry } = &subject.kind else { return };
        let parent = platform::dirname(dir);
        if !always && !self.kept.lock().unwrap_or_else(|e| e.into_inner()).contains_key(&parent) {
            return;
        }
        let walk = Kept::encode(listed);
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let folders = if always {
            kept.entry(parent).or_default()
        } else {
            let Some(folders) = kept.get_mut(&parent) else { return };
            folders
        };
        let at = u32::try_from(folders.arena.len()).unwrap_or(COLLIDED);
        match folders.at.entry(exact_hash(entry)) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(at);
                folders.arena.extend(walk);
            }
            // Two folders of one hash (or one folder offered twice): both are listed again.
            std::collections::hash_map::Entry::Occupied(mut o) => {
                o.insert(COLLIDED);
            }
        }
    }

    /// Everything kept for the searches, dropped: they are made.
    pub fn release(&self) {
        fn clear<K, V>(map: &std::sync::Mutex<std::collections::HashMap<K, V>>) {
            drop(std::mem::take(&mut *map.lock().unwrap_or_else(|e| e.into_inner())));
        }
        clear(&self.roots);
        clear(&self.dirs);
        clear(&self.below);
        clear(&self.kept);
    }

    fn index(&self, parent: &str) -> std::sync::Arc<std::sync::OnceLock<NameIndex>> {
        once(&self.roots, parent, || {
            let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner()).remove(parent).unwrap_or_default();
            let mut folders: Vec<String> = match std::fs::read_dir(parent) {
                Ok(entries) => entries
                    .flatten()
                    .take(MAX_ENTRIES)
                    .filter_map(|e| e.file_name().to_str().map(str::to_string))
                    .filter(|n| !n.starts_with('.'))
                    .collect(),
                Err(_) => Vec::new(),
            };
            folders.sort_unstable();
            let mut index = NameIndex::default();
            for folder in folders {
                let walk = kept.find(&folder);
                let top: Option<Vec<Short>> = match walk {
                    Some(at) => kept.top(at).map(<[Short]>::to_vec),
                    // Not a folder (or not listable): not a neighbour.
                    None => match DirNames::read(&platform::join(parent, &folder)) {
                        Some(top) => top.map(|t| t.0.iter().map(|&h| short(h)).collect()),
                        None => continue,
                    },
                };
                let place = index.folders.len() as u32;
                match top {
                    Some(names) => {
                        names.into_iter().for_each(|h| push_place(index.by_name.entry(h).or_default(), place))
                    }
                    None => index.undecided.push(place),
                }
                index.folders.push(folder);
                index.walks.push(walk);
            }
            index.kept = kept;
            index
        })
    }

    /// The names of `dir`, listed on first use ([`DirNames`]); `None` when they cannot tell.
    fn names(&self, dir: &str) -> std::sync::Arc<std::sync::OnceLock<Option<DirNames>>> {
        once(&self.dirs, dir, || DirNames::list(dir))
    }

    /// What the `first` directories of `parent`'s folders hold ([`Below`]): from their walks
    /// where they were kept, else listed, each once per run (and kept only as the folders each
    /// name is in: [`Neighbours::may_exist`] lists again the few where a reference is looked for).
    fn below(&self, parent: &str, index: &NameIndex, first: &str) -> std::sync::Arc<std::sync::OnceLock<Below>> {
        once(&self.below, &format!("{parent}\0{first}"), || {
            let mut below = Below::default();
            let wanted = short(caseless_hash(first));
            for place in index.holding(first) {
                let listed: Option<Vec<Short>> = match index.walks[place as usize] {
                    Some(at) => index.kept.below(at, wanted),
                    None => {
                        let dir = format!("{}/{first}", platform::join(parent, &index.folders[place as usize]));
                        DirNames::list(&dir).map(|d| d.0.iter().map(|&h| short(h)).collect())
                    }
                };
                match listed {
                    Some(names) => {
                        names.into_iter().for_each(|h| push_place(below.by_name.entry(h).or_default(), place))
                    }
                    None => below.undecided.push(place),
                }
            }
            below
        })
    }

    /// Whether `path`, which lies in the skill folder `folder` whose listing holds `first`, may
    /// exist: `false` only when the listing of a directory on its way lacks the next name.
    fn may_exist(&self, folder: &str, first: &str, path: &str) -> bool {
        if !cfg!(unix) {
            return true;
        }
        let Some(rest) = path.strip_prefix(folder).and_then(|r| r.strip_prefix('/')) else { return true };
        let mut names = rest.trim_end_matches('/').split('/');
        if names.next() != Some(first) {
            return true;
        }
        let mut dir = format!("{folder}/{first}");
        for name in names {
            if !listing_decides(name) {
                return true;
            }
            match self.names(&dir).get() {
                Some(Some(listed)) if !listed.holds(name) => return false,
                Some(Some(_)) => {}
                _ => return true,
            }
            dir.push('/');
            dir.push_str(name);
        }
        true
    }
}

/// Whether a directory's listing can tell that `name` is not in it, on any file system a Unix
/// mounts: an ASCII name that no file system would match to a listed name other than by case
/// (no short-name `~`, no trailing dot or space that FAT and NTFS drop).
fn listing_decides(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name.is_ascii()
        && !name.contains('~')
        && !name.ends_with(['.', ' '])
}

/// The first name of a relative reference (`references` of `./references/x.md`), unless it
/// climbs out (`..`).
fn first_name(target: &str) -> Option<&str> {
    target.split(['/', '\\']).find(|f| !f.is_empty() && *f != ".").filter(|f| *f != "..")
}

/// The same relative path `target` in another folder beside the skill folder `dir` (named
/// `entry` there): `(skill, ../skill/path)`.
fn in_sibling(dir: &str, entry: &str, target: &str, neighbours: &Neighbours) -> Option<(String, String)> {
    let parent = platform::dirname(dir);
    let first = first_name(target)?;
    let index = neighbours.index(&parent);
    let index = index.get()?;
    let found = |n: &&String| {
        let folder = platform::join(&parent, n);
        let path = platform::join(&folder, target);
        neighbours.may_exist(&folder, first, &path) && std::fs::metadata(&path).is_ok()
    };
    let n = match second_name(target, first) {
        // Only the folders whose `first` directory may hold the next name: the others are the
        // ones `may_exist` refuses at that name.
        Some(second) if cfg!(unix) => {
            let below = neighbours.below(&parent, index, first);
            let below = below.get()?;
            below.may_hold(second).map(|place| &index.folders[place as usize]).filter(|n| *n != entry).find(found)
        }
        _ => index.holding(first).map(|place| &index.folders[place as usize]).filter(|n| *n != entry).find(found),
    }?;
    let rel = format!("../{n}/{target}");
    Some((n.clone(), rel))
}

/// The name after `first` in `target`, when `target` is a plain relative path (`first/name…`,
/// no `.` or `..`, no empty name but a trailing `/`, no backslash) and a listing can decide
/// `name` ([`listing_decides`]): then every neighbour's path is its folder, `/` and `target`,
/// and [`Neighbours::may_exist`] first looks for `name` in the folder's `first` directory.
fn second_name<'t>(target: &'t str, first: &str) -> Option<&'t str> {
    if target.contains('\\') || target.starts_with('/') {
        return None;
    }
    let mut names = target.trim_end_matches('/').split('/');
    if names.next() != Some(first) {
        return None;
    }
    let second = names.next()?;
    let plain = |n: &str| !n.is_empty() && n != "." && n != "..";
    (plain(first) && plain(second) && names.all(plain) && listing_decides(second)).then_some(second)
}

/// Name comparisons one file's broken references may spend on suggestions (a few milliseconds).
/// A body with thousands of broken links into a folder of thousands of files would otherwise
/// cost their product; past the budget a broken reference gets the plain advice. A typical
/// skill (a few broken links, a folder of tens of files) never reaches it.
const SUGGESTION_BUDGET: usize = 10_000;

/// A directory entry: its name as listed, lowercased, the lowercased name's length in chars,
/// and whether it is a directory.
struct EntryName {
    name: String,
    lower: String,
    chars: usize,
    is_dir: bool,
}

/// The directories broken references point into, each listed once per skill file.
#[derive(Default)]
struct Listings {
    /// Directory → its entries (`None` when it cannot be listed).
    dirs: std::collections::HashMap<String, Option<Vec<EntryName>>>,
    budget: usize,
}

impl Listings {
    fn new() -> Listings {
        Listings { dirs: Default::default(), budget: SUGGESTION_BUDGET }
    }

    /// The entries of `dir`, listed on first use.
    fn entries(&mut self, dir: &str) -> Option<&[EntryName]> {
        self.dirs
            .entry(dir.to_string())
            .or_insert_with_key(|dir| {
                let entries = std::fs::read_dir(dir).ok()?;
                let names = entries
                    .flatten()
                    .take(MAX_ENTRIES)
                    .filter_map(|e| {
                        let name = e.file_name().to_str()?.to_string();
                        let lower = name.to_lowercase();
                        let chars = lower.chars().count();
                        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                        Some(EntryName { name, lower, chars, is_dir })
                    })
                    .collect();
                Some(names)
            })
            .as_deref()
    }

    /// The existing file nearest to a missing target: the closest name in its directory, else
    /// the same path under a directory of a close name (`reference/x.md` when
    /// `references/x.md` exists).
    fn nearest_file(&mut self, base: &str, target: &str) -> Option<String> {
        let target = target.trim_end_matches('/');
        let (dir, name) = match target.rfind('/') {
            Some(i) => (&target[..i], &target[i + 1..]),
            None => ("", target),
        };
        let full_dir = if dir.is_empty() { base.to_string() } else { platform::join(base, dir) };
        if let Some(n) = self.closest_name(&full_dir, name) {
            return Some(if dir.is_empty() { n } else { format!("{dir}/{n}") });
        }
        if dir.is_empty() || self.entries(&full_dir).is_some() {
            return None;
        }
        // The first directory is misspelled: try directories of a close name.
        let (first, rest) = target.split_once('/')?;
        let wanted = first.to_lowercase();
        let wanted_chars = wanted.chars().count();
        let mut dirs: Vec<(usize, String)> = Vec::new();
        let mut budget = self.budget;
        for e in self.entries(base)? {
            if !e.is_dir || e.name.len() <= 2 || e.chars.abs_diff(wanted_chars) > 2 {
                continue;
            }
            if budget == 0 {
                break;
            }
            budget -= 1;
            let d = crate::analysis::suggest::edit_distance(&e.lower, &wanted);
            if d > 0 && d <= 2 {
                dirs.push((d, e.name.clone()));
            }
        }
        self.budget = budget;
        dirs.sort();
        for (_, d) in dirs {
            let candidate = format!("{d}/{rest}");
            if std::fs::metadata(platform::join(base, &candidate)).is_ok() {
                return Some(candidate);
            }
            if let Some(found) = self.nearest_file(base, &candidate).filter(|f| f.starts_with(&format!("{d}/"))) {
                return Some(found);
            }
        }
        None
    }

    /// The entry of `dir` whose name is closest to `name` (case-insensitive edit distance;
    /// ties go to the smaller name).
    fn closest_name(&mut self, dir: &str, name: &str) -> Option<String> {
        let wanted = name.to_lowercase();
        let wanted_chars = wanted.chars().count();
        let limit = (name.len() / 3).max(2);
        let mut budget = self.budget;
        let mut best: Option<(usize, &String)> = None;
        for e in self.entries(dir)? {
            // The edit distance is at least the difference in length.
            if e.chars.abs_diff(wanted_chars) > limit {
                continue;
            }
            if budget == 0 {
                break;
            }
            budget -= 1;
            let d = crate::analysis::suggest::edit_distance(&e.lower, &wanted);
            if d <= limit && best.is_none_or(|(bd, bn)| (d, &e.name) < (bd, bn)) {
                best = Some((d, &e.name));
            }
        }
        let found = best.map(|(_, n)| n.clone());
        self.budget = budget;
        found
    }
}

/// Symbolic links inside a skill folder that point outside it or dangle, and the folder's
/// directories as its walk listed them ([`Listed`]), for the checks of the same skill that ask
/// whether a file exists in it and for the sibling search ([`Neighbours::offer`]).
pub fn check_symlinks_listed(subject: &Subject) -> (Vec<Finding>, Option<Listed>) {
    let SubjectKind::Bundle { dir, .. } = &subject.kind else { return (Vec::new(), None) };
    let (links, listed) = symlinks_under(Path::new(dir));
    (links_outside(dir, links), Some(listed))
}

/// The findings for the links `links` found in the skill folder `dir`.
fn links_outside(dir: &str, links: Vec<std::path::PathBuf>) -> Vec<Finding> {
    // Resolved only once a link is found: most folders have none.
    let mut real_dir: Option<Option<(std::path::PathBuf, Option<std::path::PathBuf>)>> = None;
    let mut out = Vec::new();
    for link in links {
        let link = link.as_path();
        let shown_link = link.to_string_lossy().into_owned();
        let target = std::fs::read_link(link).map(|t| t.to_string_lossy().into_owned()).unwrap_or_default();
        let Some((real_dir, repository)) = real_dir.get_or_insert_with(|| {
            let real = std::fs::canonicalize(dir).ok()?;
            let repository = repository_of(&real);
            Some((real, repository))
        }) else {
            return Vec::new();
        };
        match std::fs::canonicalize(link) {
            Ok(real) if real.starts_with(&*real_dir) => {}
            // A link into the skill's own repository (a plugin's shared folder, a mirror folder
            // whose SKILL.md links to the canonical copy) is fine: git keeps it, the harness
            // follows it, and Claude Code copies the target when it installs a plugin.
            Ok(real) if repository.as_ref().is_some_and(|r| real.starts_with(r)) => {}
            Ok(real) => out.push(
                Finding::new(
                    &SYMLINK_ESCAPES_BUNDLE,
                    &shown_link,
                    format!(
                        "this symbolic link points outside the skill folder{}, to `{}`",
                        if repository.is_some() { " and its repository" } else { "" },
                        &real.to_string_lossy()
                    ),
                    "the harness follows it, but copying, packaging or installing the skill breaks it",
                )
                .help("replace the link with the file itself"),
            ),
            Err(e) => {
                let why = if e.raw_os_error() == Some(40) { "loops" } else { "dangles" };
                out.push(
                    Finding::new(
                        &SYMLINK_ESCAPES_BUNDLE,
                        &shown_link,
                        format!("this symbolic link {why} (it points at `{}`)", &target),
                        "the model, told that this folder holds the skill's files, will not be able to read it",
                    )
                    .help("fix or remove the link"),
                );
            }
        }
    }
    out
}

/// The repository `dir` (a real path) belongs to: its nearest ancestor, itself included, that
/// holds `.git`.
fn repository_of(dir: &Path) -> Option<std::path::PathBuf> {
    dir.ancestors().find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok()).map(Path::to_path_buf)
}

/// A skill folder's directories as [`symlinks_under`] listed them: each directory's path
/// relative to the folder (`""` for the folder itself) → its names ([`DirNames`]; `None` when
/// they cannot tell). A directory the walk did not list (a link, too deep, past its budget) is
/// not here. Lets the checks of the same skill answer "this file does not exist" without a stat.
#[derive(Debug, Default)]
pub struct Listed(crate::engine::Map<String, Option<DirNames>>);

impl Listed {
    /// Whether `rel` (a path relative to the skill folder, `/`-separated, normalized) certainly
    /// does not exist: the listing of a directory on its way lacks the next name. `false` when
    /// the listings cannot tell (then a stat decides).
    pub fn lacks(&self, rel: &str) -> bool {
        if !cfg!(unix) {
            return false;
        }
        let mut dir = String::new();
        for name in rel.trim_end_matches('/').split('/') {
            if !listing_decides(name) {
                return false;
            }
            match self.0.get(&dir) {
                Some(Some(listed)) if !listed.holds(name) => return true,
                Some(Some(_)) => {}
                _ => return false,
            }
            if !dir.is_empty() {
                dir.push('/');
            }
            dir.push_str(name);
        }
        false
    }

    /// [`lacks`](Self::lacks) for `path`, when it lies inside the skill folder `dir`.
    pub fn lacks_path(listed: Option<&Listed>, dir: &str, path: &str) -> bool {
        listed.is_some_and(|l| {
            path.strip_prefix(dir).and_then(|r| r.strip_prefix('/')).is_some_and(|rel| !rel.is_empty() && l.lacks(rel))
        })
    }
}

/// What a directory listing says an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EntryKind {
    Dir,
    Symlink,
    Other,
}

impl From<std::fs::FileType> for EntryKind {
    fn from(t: std::fs::FileType) -> EntryKind {
        if t.is_symlink() {
            EntryKind::Symlink
        } else if t.is_dir() {
            EntryKind::Dir
        } else {
            EntryKind::Other
        }
    }
}

/// A directory entry: its name and what it is (`None` when that cannot be had).
type Listing = (std::ffi::OsString, Option<EntryKind>);

/// Each entry of `dir` (a link to a folder followed; `.` and `..` left out), its name and, with
/// `kinds`, its type (`None` when it cannot be had), handed to `f` until `f` returns `false`;
/// whether the listing is complete (every entry read, none refused by `f`), `None` when `dir`
/// cannot be opened. On Linux: one `openat` and the `getdents64` calls into a buffer on the
/// stack, no `fstat` and no allocation per entry (the type comes from the listing, as
/// `std::fs::read_dir`'s does; a stat only when the file system does not say).
fn each_entry(dir: &Path, kinds: bool, mut f: impl FnMut(&std::ffi::OsStr, Option<EntryKind>) -> bool) -> Option<bool> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{FileType, Mode, OFlags};
        use std::os::unix::ffi::OsStrExt;
        let fd = rustix::fs::openat(
            rustix::fs::CWD,
            dir,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK,
            Mode::empty(),
        )
        .ok()?;
        // On the stack: a heap buffer this size, taken and given back for each of thousands of
        // folders, made the allocator grow and trim a worker's heap each time.
        let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 16 * 1024];
        let mut listing = rustix::fs::RawDir::new(fd, &mut buf);
        while let Some(entry) = listing.next() {
            let Ok(entry) = entry else { return Some(false) };
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let name = std::ffi::OsStr::from_bytes(name);
            let kind = match entry.file_type() {
                FileType::Directory => Some(EntryKind::Dir),
                FileType::Symlink => Some(EntryKind::Symlink),
                FileType::Unknown if kinds => {
                    std::fs::symlink_metadata(dir.join(name)).ok().map(|m| m.file_type().into())
                }
                FileType::Unknown => None,
                _ => Some(EntryKind::Other),
            };
            if !f(name, kind) {
                return Some(false);
            }
        }
        Some(true)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let mut complete = true;
        for entry in std::fs::read_dir(dir).ok()? {
            let Ok(entry) = entry else {
                complete = false;
                continue;
            };
            let kind = if kinds { entry.file_type().ok().map(EntryKind::from) } else { None };
            if !f(&entry.file_name(), kind) {
                return Some(false);
            }
        }
        Some(complete)
    }
}

/// The entries of `dir` ([`each_entry`]), each with its type, and whether the listing is
/// complete; `None` when it cannot be opened.
fn list_dir(dir: &Path) -> Option<(Vec<Listing>, bool)> {
    let mut entries = Vec::new();
    let complete = each_entry(dir, true, |name, kind| {
        entries.push((name.to_os_string(), kind));
        true
    })?;
    Some((entries, complete))
}

/// Symbolic links (not followed) below `dir`, depth first in file-name order, at most 8 levels
/// down and `MAX_ENTRIES` entries visited, skipping `.git` and `node_modules`. Entry types come
/// from the directory listing itself, so a folder costs one open and one read, no stat per entry.
/// With them, the names of each directory listed ([`Listed`]).
fn symlinks_under(dir: &Path) -> (Vec<std::path::PathBuf>, Listed) {
    fn walk(
        dir: &Path,
        rel: Option<&str>,
        depth: usize,
        budget: &mut usize,
        out: &mut Vec<std::path::PathBuf>,
        listed: &mut Listed,
    ) {
        // Every entry, `.git` and `node_modules` too (its type `None` when it cannot be had):
        // their names make the listing kept for `rel`.
        let Some((mut entries, complete)) = list_dir(dir) else { return };
        if entries.len() > 1 {
            entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        }
        for (name, kind) in &entries {
            let Some(kind) = kind.filter(|_| !matches!(name.to_str(), Some(".git" | "node_modules"))) else { continue };
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            if kind == EntryKind::Symlink {
                out.push(dir.join(name));
            } else if kind == EntryKind::Dir && depth < 8 {
                // Below a name that is not UTF-8 nothing can be asked about: no listing is kept.
                let sub =
                    rel.zip(name.to_str()).map(|(r, n)| if r.is_empty() { n.to_string() } else { format!("{r}/{n}") });
                walk(&dir.join(name), sub.as_deref(), depth + 1, budget, out, listed);
            }
        }
        if let Some(rel) = rel {
            let names = (complete && entries.len() <= MAX_ENTRIES)
                .then(|| {
                    entries
                        .into_iter()
                        .map(|(name, _)| name.into_string().ok().filter(|n| n.is_ascii()))
                        .collect::<Option<Vec<_>>>()
                })
                .flatten()
                .map(|names| DirNames::new(names.into_iter()));
            listed.0.insert(rel.to_string(), names);
        }
    }
    let (mut out, mut budget, mut listed) = (Vec::new(), MAX_ENTRIES, Listed::default());
    walk(dir, Some(""), 1, &mut budget, &mut out, &mut listed);
    (out, listed)
}

crate::lint::rules::declare_rules! {
    BROKEN_REFERENCE = noted(
        rule(
            "broken-reference",
            Warning,
            Suspicious,
            "A relative link or path mentioned in the body points at a file that does not exist.",
            "The `skill` tool tells the model to resolve relative paths against the skill's base \
         directory (the skill folder, or the root for a flat `.md` file). A link or a \
         `scripts/...`, `references/...` or `assets/...` path that does not exist there sends the \
         model looking for a file it cannot find.",
            "Fix the path (the nearest existing file, or the same file in a neighbouring skill, is \
         suggested) or add the file.",
        ),
        "info for a path only mentioned in passing (no link, no instruction to read or run it); \
        illustrative paths (\"for example `scripts/x.py`\"), placeholders, `file:42` positions and \
        paths about the user's project are not references",
    );
    REFERENCE_ESCAPES_BUNDLE = noted(
        rule(
            "reference-escapes-bundle",
            Warning,
            Suspicious,
            "A relative reference leaves the skill's base directory (`..`), or is an absolute path.",
            "A skill is meant to be a self-contained folder that can be copied, packaged or installed \
         elsewhere. A reference through `..` or to an absolute path works only on the author's \
         machine.",
            "Copy the file into the skill folder and reference it relatively.",
        ),
        "info when the target exists (common and deliberate in project skills); a target through `..` \
        that does not exist is a `broken-reference`",
    );
    SYMLINK_ESCAPES_BUNDLE = rule(
        "symlink-escapes-bundle",
        Warning,
        Suspicious,
        "A symbolic link inside the skill folder points outside it and outside its repository, or \
         dangles.",
        "Packaging, copying or installing the skill folder breaks such links, and the model, told \
         to resolve paths against the skill's base directory, reaches a file that is not part of \
         the skill. Links that stay inside the skill's repository (the nearest folder above it \
         holding `.git`) are fine and not reported: a plugin's skills linking into a shared folder \
         of the same repository (`../../commands/x.md`, `../../agents/personas/README.md`), or a \
         mirror folder for another agent whose SKILL.md links to the canonical copy. Git keeps \
         them, the harness follows them, and Claude Code copies a link's target when it installs \
         a plugin. A skill outside any repository is held to its own folder.",
        "Replace the link with the file itself, or keep the target inside the repository.",
    );
    UNCLOSED_CODE_FENCE = rule(
        "unclosed-code-fence",
        Warning,
        Suspicious,
        "A code fence (```` ``` ```` or `~~~`) in the body is never closed.",
        "The body is read as CommonMark: a fence runs to a line of the same character, at least as \
         long, with nothing after it and indented at most three spaces from its container (a fence \
         line indented four spaces inside a block is part of the code). Reported when no such line \
         comes and the block runs to the end of the body: everything after the opening line is code, \
         and headings, links and instructions below it reach the model (and every Markdown renderer) \
         as the contents of a code block.",
        "Close the block with a line of the same fence characters (in a quote or a list item, \
         indented like the opening fence).",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn symlinks_are_found_at_any_depth_in_name_order_outside_git_and_node_modules() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for d in ["b/c/d", ".git", "node_modules", "a"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        std::fs::write(root.join("SKILL.md"), "x").unwrap();
        for link in ["b/c/d/deep", "a/z", "a/y", ".git/hidden", "node_modules/dep", "top"] {
            std::os::unix::fs::symlink("/nowhere", root.join(link)).unwrap();
        }
        // A link to a directory is reported, not followed.
        std::os::unix::fs::symlink(root.join("b"), root.join("b/c/loop")).unwrap();
        let found: Vec<String> = symlinks_under(root)
            .0
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(found, ["a/y", "a/z", "b/c/d/deep", "b/c/loop", "top"]);
    }

    /// `DirNames::read` as it was written with `std::fs::read_dir` (at most `cap` names), which
    /// the raw listing must match.
    fn names_by_std(dir: &str, cap: usize) -> Option<Option<Vec<u64>>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(dir).ok()? {
            if names.len() == cap {
                return Some(None);
            }
            let Some(name) = entry.ok().and_then(|e| e.file_name().into_string().ok()).filter(|n| n.is_ascii()) else {
                return Some(None);
            };
            names.push(name);
        }
        Some(Some(DirNames::new(names.into_iter()).0))
    }

    #[test]
    fn a_folders_names_are_read_as_read_dir_reads_them() {
        let dir = tempfile::tempdir().unwrap();
        let at = |rel: &str| dir.path().join(rel).to_string_lossy().into_owned();
        std::fs::create_dir_all(dir.path().join("plain/sub")).unwrap();
        for f in ["plain/SKILL.md", "plain/README.MD", "plain/.hidden", "odd/café.md", "full/x"] {
            std::fs::create_dir_all(dir.path().join(f).parent().unwrap()).unwrap();
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        std::fs::create_dir(dir.path().join("empty")).unwrap();
        // As many names as a listing tells (the folder `full`), then one more (`over`).
        const CAP: usize = 4;
        for i in 1..CAP {
            std::fs::write(dir.path().join(format!("full/f{i}")), "").unwrap();
        }
        std::fs::create_dir(dir.path().join("over")).unwrap();
        for i in 0..=CAP {
            std::fs::write(dir.path().join(format!("over/f{i}")), "").unwrap();
        }
        for (rel, tells) in [
            ("plain", Some(true)),
            ("empty", Some(true)),
            ("odd", Some(false)),
            ("full", Some(true)),
            ("over", Some(false)),
            ("plain/SKILL.md", None),
            ("missing", None),
        ] {
            let got = DirNames::read_at_most(&at(rel), CAP).map(|n| n.map(|n| n.0));
            assert_eq!(got, names_by_std(&at(rel), CAP), "{rel}");
            let uncapped = DirNames::read(&at(rel)).map(|n| n.map(|n| n.0));
            assert_eq!(uncapped, names_by_std(&at(rel), MAX_ENTRIES), "{rel}");
            assert_eq!(got.map(|n| n.is_some()), tells, "{rel}");
        }
        let plain = DirNames::list(&at("plain")).unwrap();
        assert!(plain.holds("skill.md") && plain.holds("readme.md") && plain.holds(".hidden") && plain.holds("sub"));
        assert!(!plain.holds("missing.md"));
    }

    /// Every path of `paths` (relative to the skill folder `top`): what a stat says, and what
    /// the walk's listings say; they must never call an existing file missing.
    #[cfg(unix)]
    fn listed_never_denies_what_exists(top: &std::path::Path, paths: &[&str]) -> Vec<(String, bool)> {
        let dir = top.to_string_lossy().into_owned();
        let subject = Subject {
            path: format!("{dir}/SKILL.md"),
            kind: SubjectKind::Bundle { dir: dir.clone(), entry: "s".into() },
            node_mode: false,
            checked: None,
        };
        let (_, listed) = check_symlinks_listed(&subject);
        paths
            .iter()
            .map(|p| {
                let path = platform::join(&dir, p);
                let lacks = Listed::lacks_path(listed.as_ref(), &dir, &path);
                let exists = std::fs::symlink_metadata(&path).is_ok();
                assert!(!(lacks && exists), "`{p}` exists, and the listings say it does not");
                (p.to_string(), lacks)
            })
            .collect()
    }

    #[cfg(unix)]
    #[test]
    fn the_walks_listings_tell_only_what_is_certainly_missing() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        for d in ["references/deep", "scripts", "other/caf\u{e9}", "node_modules/x", "real"] {
            std::fs::create_dir_all(top.join(d)).unwrap();
        }
        for f in [
            "SKILL.md",
            "references/guide.md",
            "references/deep/a.md",
            "scripts/run.sh",
            "other/caf\u{e9}/x.md",
            "real/r.md",
        ] {
            std::fs::write(top.join(f), "x").unwrap();
        }
        std::os::unix::fs::symlink(top.join("real"), top.join("linked")).unwrap();
        std::os::unix::fs::symlink("/nowhere", top.join("dangling")).unwrap();
        let said = listed_never_denies_what_exists(
            top,
            &[
                "references/guide.md",
                "references/missing.md",
                "references/deep/a.md",
                "references/deep/b.md",
                "References/guide.md",
                "reference/guide.md",
                "scripts/run.sh",
                "scripts/gone.py",
                "scripts/",
                "other/caf\u{e9}/x.md",
                "other/caf\u{e9}/y.md",
                "other/z.md",
                "linked/r.md",
                "linked/q.md",
                "dangling",
                "node_modules/x",
                "nope~1.md",
                "trailing.",
                "agents/openai.yaml",
            ],
        );
        let lacking: Vec<&str> = said.iter().filter(|(_, l)| *l).map(|(p, _)| p.as_str()).collect();
        // Missing under listed folders: certain. Below a link, under a name that differs only in
        // case, in a folder with a non-ASCII name, a short-name or trailing-dot spelling: the stat
        // decides.
        assert_eq!(
            lacking,
            [
                "references/missing.md",
                "references/deep/b.md",
                "reference/guide.md",
                "scripts/gone.py",
                "agents/openai.yaml"
            ]
        );
    }

    /// `in_sibling` answers as a stat of every candidate folder would.
    #[cfg(unix)]
    #[test]
    fn a_neighbours_copy_is_found_as_a_stat_of_each_folder_finds_it() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let files = [
            "a/SKILL.md",
            "b/references/other.md",
            "c/references/guide.md",
            "d/references/guide.md",
            "e/scripts/x/run.sh",
            "f/Scripts/x/run.sh",
            "g/references/caf\u{e9}.md",
            // A listing that cannot tell (a name that is not ASCII) beside one that can.
            "i/references/caf\u{e9}2.md",
            "i/references/only-here.md",
        ];
        for f in files {
            std::fs::create_dir_all(root.join(f).parent().unwrap()).unwrap();
            std::fs::write(root.join(f), "x").unwrap();
        }
        std::os::unix::fs::symlink("/nowhere", root.join("b/references/guide.md")).unwrap();
        std::os::unix::fs::symlink(root.join("e/scripts"), root.join("h-scripts")).unwrap();
        std::fs::create_dir_all(root.join("h")).unwrap();
        std::os::unix::fs::symlink(root.join("e/scripts"), root.join("h/scripts")).unwrap();
        let parent = root.to_string_lossy().into_owned();
        let subject = Subject {
            path: format!("{parent}/a/SKILL.md"),
            kind: SubjectKind::Bundle { dir: format!("{parent}/a"), entry: "a".into() },
            node_mode: false,
            checked: None,
        };
        // Without the skill folders' walks (each folder listed when the index is made), and
        // with them kept (as lint's walks keep them once a search is pending; `c` offered
        // twice, so its walk is not used).
        let listed = Neighbours::default();
        let kept = Neighbours::default();
        kept.want(&parent);
        let mut names: Vec<String> =
            std::fs::read_dir(root).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        names.push("c".into());
        for name in names {
            let dir = format!("{parent}/{name}");
            let folder = Subject {
                path: format!("{dir}/SKILL.md"),
                kind: SubjectKind::Bundle { dir: dir.clone(), entry: name },
                node_mode: false,
                checked: None,
            };
            if let (_, Some(walk)) = check_symlinks_listed(&folder) {
                kept.offer(&folder, walk);
            }
        }
        for target in [
            "references/guide.md",
            "./references/guide.md",
            "references/other.md",
            "references/none.md",
            "references/caf\u{e9}.md",
            "scripts/x/run.sh",
            "scripts/x/none.sh",
            "Scripts/x/run.sh",
            "references/../scripts/x/run.sh",
            "references/",
            "references//guide.md",
            "references/guide.md/",
            "references/GUIDE.md",
            "references/./guide.md",
            "references/x/../guide.md",
            "scripts/x/",
            "scripts/X/run.sh",
            "scripts/none/run.sh",
            "nothing/here.md",
            "references/guide.md~",
            "references/only-here.md",
        ] {
            let brute = {
                let first = target.split(['/', '\\']).find(|f| !f.is_empty() && *f != ".").unwrap();
                let mut folders: Vec<String> = std::fs::read_dir(root)
                    .unwrap()
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n != "a" && std::fs::symlink_metadata(root.join(n).join(first)).is_ok())
                    .collect();
                folders.sort();
                folders
                    .into_iter()
                    .find(|n| std::fs::metadata(platform::join(&platform::join(&parent, n), target)).is_ok())
                    .map(|n| (n.clone(), format!("../{n}/{target}")))
            };
            let SubjectKind::Bundle { dir, entry } = &subject.kind else { unreachable!() };
            assert_eq!(in_sibling(dir, entry, target, &listed), brute, "{target}");
            assert_eq!(in_sibling(dir, entry, target, &kept), brute, "{target} (walks kept)");
        }
    }

    #[test]
    fn decoding() {
        assert_eq!(percent_decode("a%20b%zz"), "a b%zz");
    }
}
