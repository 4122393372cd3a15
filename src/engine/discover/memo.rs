//! What a long-running caller keeps between scans (`dsh-skills watch`): each root's listing and
//! each entry's read-and-parse result. A scan with a memo lists and reads only what is missing
//! from it or no longer valid, and applies every result in the harness's order exactly as a
//! scan without one does, so warnings, candidates and failures are the same.
//!
//! # Identity: what makes a kept result valid
//!
//! A kept result is reused only while what it was made from is still the same object on disk,
//! checked at every scan that would reuse it (and by [`ScanMemo::audit`]):
//! * a root's listing: the root's real path, and the `(dev, inode, mode, size, mtime_ns,
//!   ctime_ns)` of the directory listed (adding, removing or renaming an entry changes its
//!   mtime; a `chmod` its ctime); and each entry that is a symbolic link (its real path is not
//!   its own) or of kind "other" (a dangling link) resolved again to the same real path and kind.
//!   A root that is missing is kept as missing while its real path and `stat` error stay the
//!   same. A listing that failed (the provider failed) is not kept, nor the bundled root's
//!   (read the plain-Node way, its links cannot be told apart without an `lstat` each): those
//!   are listed again at every scan.
//! * an entry's reading: the root (path and listing mode), the entry's name, kind and real path
//!   as the listing gives them now, and the `(dev, inode, mode, size, mtime_ns, ctime_ns)` of the
//!   file read (followed through symbolic links: a link's target), or the error its `stat`
//!   gave. The identity is taken *before* the file is read, so a write during the read leaves a
//!   newer identity on disk than the one kept.
//!
//! A rename or a swap of entries changes the listing (names, inodes, the root's mtime) and the
//! identity of every file involved, so no result of the old name survives it; an edit changes
//! the file's size, mtime or inode (an editor that saves by rename). The one thing identity
//! cannot see is a rewrite to the same size within one timestamp tick of the stat that kept the
//! result, on a file system whose timestamps are coarse (Linux before 6.13 stamps at the clock
//! tick, a few milliseconds); the watcher's event for that write invalidates the result anyway.
//!
//! The caller can also drop results it knows are stale ([`ScanMemo::invalidate_root`],
//! [`ScanMemo::invalidate_listing`], [`ScanMemo::invalidate_entry`]): that spares the identity
//! check nothing, but a change reported there is read again even when identity could not see it.

use super::{Entry, EntryWork, Listing, Root, RootListing, ScanOptions, par_map, par_map_each};
use crate::engine::nodefs::{self, Kind};
use crate::engine::platform;
use std::collections::HashMap;

/// A root as far as its listing and entries are concerned.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct RootKey {
    path: String,
    trusted_host: bool,
    skip_system: bool,
}

impl RootKey {
    fn of(root: &Root) -> RootKey {
        RootKey { path: root.path.clone(), trusted_host: root.trusted_host, skip_system: root.skip_system }
    }

    fn root(&self) -> Root {
        Root {
            path: self.path.clone(),
            source: "",
            rank: 0,
            skip_system: self.skip_system,
            trusted_host: self.trusted_host,
        }
    }
}

/// What a path is on disk, as `stat` (following links) sees it without reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ident {
    /// Nothing is read for this entry (ignored, `.system`).
    Nothing,
    /// `stat` failed with this OS error code.
    Error(i32),
    Found {
        dev: u64,
        ino: u64,
        mode: u32,
        size: u64,
        mtime_ns: i128,
        ctime_ns: i128,
    },
}

impl Ident {
    pub(super) fn of(path: &str) -> Ident {
        match std::fs::metadata(path) {
            Ok(meta) => Ident::found(&meta),
            Err(e) => Ident::Error(e.raw_os_error().unwrap_or(-1)),
        }
    }

    #[cfg(unix)]
    fn found(meta: &std::fs::Metadata) -> Ident {
        use std::os::unix::fs::MetadataExt;
        Ident::Found {
            dev: meta.dev(),
            ino: meta.ino(),
            mode: meta.mode(),
            size: meta.size(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
            ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
        }
    }

    #[cfg(not(unix))]
    fn found(meta: &std::fs::Metadata) -> Ident {
        let ns = |t: std::io::Result<std::time::SystemTime>| {
            t.ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as i128)
        };
        Ident::Found {
            dev: 0,
            ino: 0,
            mode: u32::from(meta.is_dir()) | (u32::from(meta.permissions().readonly()) << 1),
            size: meta.len(),
            mtime_ns: ns(meta.modified()),
            ctime_ns: ns(meta.created()),
        }
    }
}

/// The file a scan reads for `entry` (what [`super::process_entry`] opens), if any.
fn file_of(root: &Root, entry: &Entry) -> Option<String> {
    if root.skip_system && entry.name == ".system" {
        return None;
    }
    match entry.kind {
        Kind::Directory => Some(platform::join(entry.key.as_deref().unwrap_or(&entry.path), "SKILL.md")),
        Kind::File if entry.name.ends_with(".md") => Some(entry.key.clone().unwrap_or_else(|| entry.path.clone())),
        _ => None,
    }
}

/// The identity of what a scan reads for `entry`.
fn entry_ident(root: &Root, entry: &Entry) -> (Option<String>, Ident) {
    match file_of(root, entry) {
        Some(f) => {
            let ident = Ident::of(&f);
            (Some(f), ident)
        }
        None => (None, Ident::Nothing),
    }
}

/// A root listing's identity: the root's real path (production listing) and its directory's
/// identity.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ListingIdent {
    real: Option<String>,
    dir: Ident,
}

impl ListingIdent {
    fn of(root: &Root) -> ListingIdent {
        let real = nodefs::resolve_target(&root.path).ok();
        let dir = Ident::of(real.as_deref().unwrap_or(&root.path));
        ListingIdent { real, dir }
    }
}

/// Whether the entries of a production listing that were resolved by name still resolve as
/// they did: every entry whose real path is not its own path in the real root (a symbolic
/// link), and every entry of kind "other" (a dangling link resolves to its own path).
fn links_unchanged(ident: &ListingIdent, listing: &RootListing) -> bool {
    let entries = match &listing.0 {
        Ok(Listing::Entries { entries, .. }) => entries,
        Ok(_) => return true,
        Err(_) => return false,
    };
    let Some(real) = &ident.real else { return false };
    entries.iter().all(|e| {
        let child = platform::join(real, &e.name);
        if e.kind != Kind::Other && e.key.as_deref() == Some(child.as_str()) {
            return true;
        }
        match nodefs::resolve_target(&child) {
            Ok(key) => {
                let kind = nodefs::probe(&key).ok().map(|k| k.unwrap_or(Kind::Other));
                e.key.as_deref() == Some(key.as_str()) && kind == Some(e.kind)
            }
            Err(_) => false,
        }
    })
}

struct ListingMemo {
    listing: RootListing,
    ident: ListingIdent,
    used: u64,
}

struct EntryMemo {
    /// What the entry was when it was read: a different kind or real path is a different entry.
    kind: Kind,
    key: Option<String>,
    path: String,
    /// The file read, and its identity just before it was read.
    file: Option<String>,
    ident: Ident,
    used: u64,
    work: EntryWork,
}

#[derive(Default)]
struct RootMemo {
    listing: Option<ListingMemo>,
    entries: HashMap<String, EntryMemo>,
}

/// How much the scans since the last [`ScanMemo::take_stats`] listed and read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    /// Roots listed again.
    pub listed: usize,
    /// Entries read and parsed again.
    pub read: usize,
    /// Entries taken from the memo.
    pub reused: usize,
}

/// What [`ScanMemo::audit`] found no longer valid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stale {
    /// Roots whose listing changed.
    pub roots: Vec<String>,
    /// `(root, entry name, file)` of each entry whose file changed.
    pub entries: Vec<(String, String, String)>,
}

impl Stale {
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty() && self.entries.is_empty()
    }
}

/// The memo itself; see the module notes.
#[derive(Default)]
pub struct ScanMemo {
    roots: HashMap<RootKey, RootMemo>,
    /// The scan options the memo's results were made with.
    made_with: Option<(bool, bool, bool)>,
    scan: u64,
    stats: MemoStats,
}

impl ScanMemo {
    pub fn new() -> ScanMemo {
        ScanMemo::default()
    }

    /// Forget everything (a configuration change, a watcher that lost events).
    pub fn clear(&mut self) {
        self.roots.clear();
    }

    /// Forget the root's listing and every entry read under it (the root appeared, vanished or
    /// was replaced).
    pub fn invalidate_root(&mut self, root_path: &str) {
        self.roots.retain(|k, _| k.path != root_path);
    }

    /// Forget the root's listing (an entry was added, removed, renamed or changed kind); the
    /// entries read under it stay, each valid while its identity is.
    pub fn invalidate_listing(&mut self, root_path: &str) {
        for (_, memo) in self.roots.iter_mut().filter(|(k, _)| k.path == root_path) {
            memo.listing = None;
        }
    }

    /// Forget what was read for the entry `name` of the root (its skill file changed).
    pub fn invalidate_entry(&mut self, root_path: &str, name: &str) {
        for (_, memo) in self.roots.iter_mut().filter(|(k, _)| k.path == root_path) {
            memo.entries.remove(name);
        }
    }

    /// Start a scan: results that the previous scan did not use are dropped when it ends
    /// ([`ScanMemo::sweep`]), so the memo holds one tree's worth, however long it runs.
    pub fn begin(&mut self, options: &ScanOptions) {
        let made_with = (options.keep_content, options.check.is_some(), options.digest);
        if self.made_with != Some(made_with) {
            self.clear();
            self.made_with = Some(made_with);
        }
        self.scan += 1;
    }

    /// Drop what the scan that just ended did not use (removed entries, roots no longer scanned).
    pub fn sweep(&mut self) {
        let scan = self.scan;
        self.roots.retain(|_, memo| {
            memo.entries.retain(|_, e| e.used == scan);
            if memo.listing.as_ref().is_some_and(|l| l.used != scan) {
                memo.listing = None;
            }
            memo.listing.is_some() || !memo.entries.is_empty()
        });
    }

    /// What was listed and read since the last call.
    pub fn take_stats(&mut self) -> MemoStats {
        std::mem::take(&mut self.stats)
    }

    /// Every root's listing: the memo's while its identity holds, or `list`'s.
    pub(super) fn listings(&mut self, roots: &[Root], list: impl Fn(&Root) -> RootListing + Sync) -> Vec<RootListing> {
        let scan = self.scan;
        // Each root's identity now, and whether the memo's listing still has it (on all cores:
        // the links of a root are resolved again).
        let held: Vec<Option<&ListingMemo>> =
            roots.iter().map(|r| self.roots.get(&RootKey::of(r)).and_then(|m| m.listing.as_ref())).collect();
        let valid: Vec<bool> = par_map_each(&(0..roots.len()).collect::<Vec<_>>(), |&i| {
            held[i].is_some_and(|l| {
                let now = ListingIdent::of(&roots[i]);
                now == l.ident && links_unchanged(&l.ident, &l.listing)
            })
        });
        let mut out: Vec<Option<RootListing>> = Vec::with_capacity(roots.len());
        let mut missing = Vec::new();
        for (i, root) in roots.iter().enumerate() {
            match self.roots.get_mut(&RootKey::of(root)).and_then(|m| m.listing.as_mut()).filter(|_| valid[i]) {
                Some(l) => {
                    l.used = scan;
                    out.push(Some(l.listing.clone()));
                }
                None => {
                    out.push(None);
                    missing.push(i);
                }
            }
        }
        // The identity is taken before the listing: a change during it leaves a newer one.
        let fresh = par_map_each(&missing.iter().map(|&i| &roots[i]).collect::<Vec<_>>(), |r| {
            let ident = ListingIdent::of(r);
            (list(r), ident)
        });
        self.stats.listed += fresh.len();
        for (i, (listing, ident)) in missing.into_iter().zip(fresh) {
            let memo = self.roots.entry(RootKey::of(&roots[i])).or_default();
            // The bundled root's listing (plain Node) is not kept: its symbolic links cannot be
            // told from what they lead to without another `lstat` each.
            memo.listing = (listing.0.is_ok() && !roots[i].trusted_host).then(|| ListingMemo {
                listing: listing.clone(),
                ident,
                used: scan,
            });
            out[i] = Some(listing);
        }
        out.into_iter().map(|l| l.expect("every root listed")).collect()
    }

    /// Every entry's work: the memo's while its identity holds, or `compute`'s (on all cores)
    /// for the others.
    pub(super) fn entries<'e>(
        &mut self,
        roots: &[Root],
        work: &[(usize, &'e Entry)],
        compute: impl Fn(&(usize, &'e Entry)) -> EntryWork + Sync,
    ) -> Vec<EntryWork> {
        let scan = self.scan;
        // Identities first (on all cores), then the readings of what changed.
        let idents: Vec<(Option<String>, Ident)> = par_map(work, |(i, entry)| entry_ident(&roots[*i], entry));
        let mut out: Vec<Option<EntryWork>> = Vec::with_capacity(work.len());
        let mut missing = Vec::new();
        for (j, (i, entry)) in work.iter().enumerate() {
            let found = self.roots.get_mut(&RootKey::of(&roots[*i])).and_then(|m| m.entries.get_mut(&entry.name));
            match found {
                Some(e)
                    if e.kind == entry.kind
                        && e.key == entry.key
                        && e.path == entry.path
                        && (e.file.as_ref(), e.ident) == (idents[j].0.as_ref(), idents[j].1) =>
                {
                    e.used = scan;
                    out.push(Some(e.work.clone()));
                }
                _ => {
                    out.push(None);
                    missing.push(j);
                }
            }
        }
        self.stats.reused += work.len() - missing.len();
        self.stats.read += missing.len();
        let items: Vec<(usize, &Entry)> = missing.iter().map(|&j| work[j]).collect();
        let fresh = par_map(&items, &compute);
        for (j, w) in missing.into_iter().zip(fresh) {
            let (i, entry) = work[j];
            let (file, ident) = idents[j].clone();
            self.remember(&roots[i], entry, file, ident, w.clone());
            out[j] = Some(w);
        }
        out.into_iter().map(|w| w.expect("every entry computed")).collect()
    }

    fn remember(&mut self, root: &Root, entry: &Entry, file: Option<String>, ident: Ident, work: EntryWork) {
        let scan = self.scan;
        let memo = self.roots.entry(RootKey::of(root)).or_default();
        memo.entries.insert(
            entry.name.clone(),
            EntryMemo {
                kind: entry.kind,
                key: entry.key.clone(),
                path: entry.path.clone(),
                file,
                ident,
                used: scan,
                work,
            },
        );
    }

    /// Read the entry `name` of `root` again, as the kept listing of the root has it, and keep
    /// the result: `None` when the memo holds no listing of the root with that entry (the caller
    /// then scans).
    pub(super) fn reread(
        &mut self,
        root: &Root,
        name: &str,
        compute: impl Fn(&Entry) -> EntryWork,
    ) -> Option<EntryWork> {
        let listing = self.roots.get(&RootKey::of(root))?.listing.as_ref()?;
        let Ok(Listing::Entries { entries, .. }) = &listing.listing.0 else { return None };
        let entry = entries.iter().find(|e| e.name == name)?.clone();
        let (file, ident) = entry_ident(root, &entry);
        let work = compute(&entry);
        self.stats.read += 1;
        self.remember(root, &entry, file, ident, work.clone());
        Some(work)
    }

    /// Check every kept listing and reading against the disk, without reading anything: what
    /// no longer has its identity (and is then dropped). The cost is a `stat` per kept entry,
    /// on all cores.
    pub fn audit(&mut self) -> Stale {
        let keys: Vec<RootKey> = self.roots.keys().cloned().collect();
        let mut stale = Stale::default();
        for key in keys {
            let root = key.root();
            let memo = self.roots.get_mut(&key).expect("listed above");
            if let Some(l) = &memo.listing
                && (ListingIdent::of(&root) != l.ident || !links_unchanged(&l.ident, &l.listing))
            {
                memo.listing = None;
                stale.roots.push(key.path.clone());
            }
            let held: Vec<(&String, &EntryMemo)> = memo.entries.iter().collect();
            let changed: Vec<bool> = par_map(&held, |(_, e)| match &e.file {
                Some(f) => Ident::of(f) != e.ident,
                None => false,
            });
            let gone: Vec<String> =
                held.iter().zip(changed).filter(|(_, c)| *c).map(|((name, _), _)| (*name).clone()).collect();
            for name in gone {
                if let Some(e) = memo.entries.remove(&name) {
                    stale.entries.push((key.path.clone(), name, e.file.unwrap_or(e.path)));
                }
            }
        }
        stale.roots.sort();
        stale.roots.dedup();
        stale.entries.sort();
        stale
    }
}
