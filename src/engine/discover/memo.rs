//! What a long-running caller keeps between scans (`dsh-skills watch`): each root's listing and
//! each entry's read-and-parse result, until a change on disk invalidates them. A scan with a
//! memo lists and reads only what is missing from it, and applies every result in the harness's
//! order exactly as a scan without one does, so warnings, candidates and failures are the same.
//!
//! The memo knows nothing of watching: its caller reports each change with
//! [`ScanMemo::invalidate_root`], [`ScanMemo::invalidate_listing`] or
//! [`ScanMemo::invalidate_entry`]. A change it is not told about stays invisible until then.

use super::{Entry, EntryWork, Root, RootListing, ScanOptions, par_map, par_map_each};
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
}

struct EntryMemo {
    /// What the entry was when it was read: a different kind or real path is a different entry.
    kind: &'static str,
    key: Option<String>,
    path: String,
    used: u64,
    work: EntryWork,
}

#[derive(Default)]
struct RootMemo {
    listing: Option<(RootListing, u64)>,
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

/// The memo itself; see the module notes.
#[derive(Default)]
pub struct ScanMemo {
    roots: HashMap<RootKey, RootMemo>,
    /// The scan options and collation locale the memo's results were made with.
    made_with: Option<(bool, bool)>,
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
    /// entries read under it stay valid.
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
        let made_with = (options.keep_content, options.check.is_some());
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
            if memo.listing.as_ref().is_some_and(|(_, used)| *used != scan) {
                memo.listing = None;
            }
            memo.listing.is_some() || !memo.entries.is_empty()
        });
    }

    /// What was listed and read since the last call.
    pub fn take_stats(&mut self) -> MemoStats {
        std::mem::take(&mut self.stats)
    }

    /// Every root's listing: the memo's, or `list`'s for the roots it does not hold.
    pub(super) fn listings(&mut self, roots: &[Root], list: impl Fn(&Root) -> RootListing + Sync) -> Vec<RootListing> {
        let scan = self.scan;
        let mut out: Vec<Option<RootListing>> = Vec::with_capacity(roots.len());
        let mut missing = Vec::new();
        for (i, root) in roots.iter().enumerate() {
            match self.roots.get_mut(&RootKey::of(root)).and_then(|m| m.listing.as_mut()) {
                Some((listing, used)) => {
                    *used = scan;
                    out.push(Some(listing.clone()));
                }
                None => {
                    out.push(None);
                    missing.push(i);
                }
            }
        }
        let fresh = par_map_each(&missing.iter().map(|&i| &roots[i]).collect::<Vec<_>>(), |r| list(r));
        self.stats.listed += fresh.len();
        for (i, listing) in missing.into_iter().zip(fresh) {
            let memo = self.roots.entry(RootKey::of(&roots[i])).or_default();
            memo.listing = Some((listing.clone(), scan));
            out[i] = Some(listing);
        }
        out.into_iter().map(|l| l.expect("every root listed")).collect()
    }

    /// Every entry's work: the memo's, or `compute`'s (on all cores) for the entries it does not
    /// hold.
    pub(super) fn entries<'e>(
        &mut self,
        roots: &[Root],
        work: &[(usize, &'e Entry)],
        compute: impl Fn(&(usize, &'e Entry)) -> EntryWork + Sync,
    ) -> Vec<EntryWork> {
        let scan = self.scan;
        let mut out: Vec<Option<EntryWork>> = Vec::with_capacity(work.len());
        let mut missing = Vec::new();
        for (j, (i, entry)) in work.iter().enumerate() {
            let found = self.roots.get_mut(&RootKey::of(&roots[*i])).and_then(|m| m.entries.get_mut(&entry.name));
            match found {
                Some(e) if e.kind == entry.kind.label() && e.key == entry.key && e.path == entry.path => {
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
            let memo = self.roots.entry(RootKey::of(&roots[i])).or_default();
            memo.entries.insert(
                entry.name.clone(),
                EntryMemo {
                    kind: entry.kind.label(),
                    key: entry.key.clone(),
                    path: entry.path.clone(),
                    used: scan,
                    work: w.clone(),
                },
            );
            out[j] = Some(w);
        }
        out.into_iter().map(|w| w.expect("every entry computed")).collect()
    }
}
