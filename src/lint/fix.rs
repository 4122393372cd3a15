//! Safe mechanical fixes: plan them per file, check that they keep the skill's meaning, show
//! them as a unified diff (`--diff`) and write them (`--fix`) through a temporary file renamed
//! over the original, keeping its permissions and never following a symbolic link out of the
//! skill's folder.

use super::{Edit, Finding, Fix, SourceText};
use crate::engine::skillfile::{self, ParsedSkill, Rejection};
use std::cell::OnceCell;
use std::collections::{BTreeSet, HashSet};
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The fixes chosen for one file and the text they produce.
#[derive(Clone, Debug)]
pub struct FilePlan {
    pub path: String,
    pub fixes: Vec<Fix>,
    pub old: String,
    pub new: String,
    /// Why the fixes cannot be applied (they would change what the harness loads).
    pub refused: Option<String>,
}

/// Choose non-overlapping fixes for one file, in finding order.
pub fn plan(path: &str, src: &SourceText, findings: &[&Finding], node_mode: bool) -> Option<FilePlan> {
    Planner::new(path, src, node_mode).plan(findings)
}

/// Plans for one file, as many as asked: the file as it is now is parsed once, on the first
/// plan, and every plan's fixed text is compared with that one result (a file with many fixes
/// checked one by one costs one parse per plan, not two).
pub struct Planner<'a> {
    path: &'a str,
    src: &'a SourceText,
    node_mode: bool,
    before: OnceCell<Result<ParsedSkill, Rejection>>,
}

impl<'a> Planner<'a> {
    pub fn new(path: &'a str, src: &'a SourceText, node_mode: bool) -> Self {
        Planner { path, src, node_mode, before: OnceCell::new() }
    }

    /// [`plan`] with this file's parse shared between calls.
    pub fn plan(&self, findings: &[&Finding]) -> Option<FilePlan> {
        let (fixes, new) = self.fixed_text(findings)?;
        let refused = self.check(&new);
        let fixes = fixes.into_iter().cloned().collect();
        Some(FilePlan { path: self.path.to_string(), fixes, old: self.src.text.clone(), new, refused })
    }

    /// What `--fix` would say of these findings' fixes applied together: `None` when there is
    /// no edit to make (no fix, or one that does not fit the text), `Some(None)` when the fixed
    /// file loads the same skill, `Some(Some(why))` when it would be refused. [`plan`] without
    /// the copies of the text a diff needs.
    pub fn refusal(&self, findings: &[&Finding]) -> Option<Option<String>> {
        let (_, new) = self.fixed_text(findings)?;
        Some(self.check(&new))
    }

    fn check(&self, new: &str) -> Option<String> {
        let before = self.before.get_or_init(|| load(&self.src.text, self.node_mode));
        check_meaning(before, new, self.node_mode)
    }

    /// The fixes chosen (non-overlapping, in finding order) and the text they produce.
    fn fixed_text<'f>(&self, findings: &[&'f Finding]) -> Option<(Vec<&'f Fix>, String)> {
        let src = self.src;
        if !src.exact {
            return None;
        }
        let mut fixes: Vec<&Fix> = Vec::new();
        // The edits chosen so far, by (start, end), and every fix's edits seen: each check is a
        // lookup, so a file with thousands of fixable findings stays linear.
        let mut taken: BTreeSet<(usize, usize)> = BTreeSet::new();
        let mut seen: HashSet<&[Edit]> = HashSet::new();
        for f in findings {
            let Some(fix) = &f.fix else { continue };
            if !seen.insert(&fix.edits) {
                continue;
            }
            let overlaps = fix.edits.iter().any(|e| overlaps_taken(&taken, &e.range) || e.range.end > src.text.len());
            if overlaps {
                continue;
            }
            taken.extend(fix.edits.iter().map(|e| (e.range.start, e.range.end)));
            fixes.push(fix);
        }
        if fixes.is_empty() {
            return None;
        }
        let mut edits: Vec<&Edit> = fixes.iter().flat_map(|f| &f.edits).collect();
        edits.sort_by_key(|e| e.range.start);
        let mut new = String::with_capacity(src.text.len());
        let mut at = 0;
        for e in edits {
            if !src.text.is_char_boundary(e.range.start) || !src.text.is_char_boundary(e.range.end) {
                return None;
            }
            new.push_str(&src.text[at..e.range.start]);
            new.push_str(&e.replacement);
            at = e.range.end;
        }
        new.push_str(&src.text[at..]);
        Some((fixes, new))
    }
}

/// Whether `e` overlaps (or equals) an edit range in `taken`. The ranges in `taken` were chosen
/// not to overlap, so walking down from the last range starting before `e.end` can stop at the
/// first one starting before `e.start`.
fn overlaps_taken(taken: &BTreeSet<(usize, usize)>, e: &Range<usize>) -> bool {
    for &(start, end) in taken.range(..(e.end, usize::MAX)).rev() {
        if e.start < end && start < e.end || (start, end) == (e.start, e.end) {
            return true;
        }
        if start < e.start {
            break;
        }
    }
    false
}

/// What the harness loads from `text` (the fields compared; the body is not kept).
fn load(text: &str, node_mode: bool) -> Result<ParsedSkill, Rejection> {
    let text = if node_mode { text } else { text.strip_prefix('\u{FEFF}').unwrap_or(text) };
    skillfile::parse_skill_text_with(text, false)
}

/// `None` when the fixed text loads the same skill (or repairs a skipped one); otherwise why not.
fn check_meaning(before: &Result<ParsedSkill, Rejection>, new: &str, node_mode: bool) -> Option<String> {
    match (before, load(new, node_mode)) {
        (Ok(b), Ok(a)) => {
            let same = a.name == b.name
                && a.description == b.description
                && (a.when_to_use == b.when_to_use || b.when_to_use.is_none())
                && a.invocation == b.invocation
                && a.metadata == b.metadata;
            (!same).then(|| "the fixed file would load with different fields; not applied".to_string())
        }
        (Ok(_), Err(r)) => Some(format!("the fixed file would be skipped ({}); not applied", r.reason())),
        (Err(_), _) => None,
    }
}

/// The temporary files being written, removed by the SIGINT/SIGTERM handler before the
/// process exits; the lock is held from a temporary file's creation to its rename, so the
/// handler either removes it or waits for the rename.
static PENDING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Install the interrupt handler once (`ctrlc`, with SIGTERM): remove the pending temporary
/// files, then exit as a signal would (130).
fn guard_interrupts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            let pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
            for p in pending.iter() {
                let _ = std::fs::remove_file(p);
            }
            std::process::exit(130);
        });
    });
}

/// The name of this tool's temporary files beside `file_name`: `.<name>.dsh-skills-fix.<pid>.<n>`.
fn temp_name(file_name: &str, pid: u32, n: u32) -> String {
    format!(".{file_name}.dsh-skills-fix.{pid}.{n}")
}

/// Remove the temporary files an earlier `--fix` of `file_name` left in `dir` (killed before it
/// could): regular files of exactly this tool's naming whose process is gone.
fn clear_stale(dir: &Path, file_name: &str) {
    let prefix = format!(".{file_name}.dsh-skills-fix.");
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(&prefix)) else { continue };
        let Some((pid, n)) = rest.split_once('.') else { continue };
        let (Ok(pid), Ok(_)) = (pid.parse::<u32>(), n.parse::<u32>()) else { continue };
        if pid == std::process::id() || process_alive(pid) || !e.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let _ = std::fs::remove_file(e.path());
    }
}

#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid, 0) == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH) }
}

#[cfg(not(unix))]
fn process_alive(_pid: u32) -> bool {
    true
}

/// What identifies the file's version on disk: device, inode, size, modification and change
/// times.
#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> impl PartialEq + std::fmt::Debug {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino(), meta.len(), meta.mtime(), meta.mtime_nsec(), meta.ctime(), meta.ctime_nsec())
}

#[cfg(not(unix))]
fn identity(meta: &std::fs::Metadata) -> impl PartialEq + std::fmt::Debug {
    (meta.len(), meta.modified().ok())
}

/// A hook between writing the temporary file and checking the original again before the rename,
/// for tests of that window: `DSH_SKILLS_TEST_FIX_HOOK` is run by `sh -c` with the file's path as
/// `$1` and the temporary file's as `$2`. Read in debug builds only; a release build has no hook.
fn test_hook(target: &Path, tmp: &Path) {
    if !cfg!(debug_assertions) {
        return;
    }
    if let Some(cmd) = std::env::var_os("DSH_SKILLS_TEST_FIX_HOOK") {
        let _ = std::process::Command::new("sh").arg("-c").arg(cmd).arg("sh").arg(target).arg(tmp).status();
    }
}

/// The file `--fix` would write for `path`: itself, or the target of a symbolic link inside
/// `base_dir` (the skill's folder, or the root of a flat skill). A link out of it is refused, and
/// the reason names the file to edit instead; lint withdraws such fixes before offering them.
pub fn write_target(path: &str, base_dir: &str) -> Result<PathBuf, String> {
    let p = Path::new(path);
    let link = std::fs::symlink_metadata(p).map_err(|e| format!("cannot stat {path}: {e}"))?;
    if !link.file_type().is_symlink() {
        return Ok(p.to_path_buf());
    }
    let real = std::fs::canonicalize(p).map_err(|e| format!("cannot resolve the link {path}: {e}"))?;
    let base = std::fs::canonicalize(base_dir).map_err(|e| format!("cannot resolve {base_dir}: {e}"))?;
    if !real.starts_with(&base) {
        return Err(format!(
            "{path} is a symbolic link to {}, outside the skill folder; not following it (edit that file)",
            real.display()
        ));
    }
    Ok(real)
}

/// Write a plan's new text over the file. `base_dir` is the skill's folder (or the root of a
/// flat skill): a symbolic link is followed only to a target inside it.
///
/// The file is replaced by a rename, never edited in place, and only when nothing else wrote it:
/// its content is compared with what was linted before the temporary file is written, and again,
/// with its identity (inode, size, times), right before the rename. A file the user cannot write
/// (no write permission, e.g. mode 0444) is refused, and so is one whose owner and mode the new
/// file cannot keep. Other hard links to the file keep the old text (the rename gives this path
/// a new file).
pub fn write(plan: &FilePlan, base_dir: &str) -> Result<(), String> {
    let target = write_target(&plan.path, base_dir)?;
    let meta = std::fs::metadata(&target).map_err(|e| format!("cannot stat {}: {e}", target.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", target.display()));
    }
    check_writable(&target, &meta)?;
    let current = std::fs::read(&target).map_err(|e| format!("cannot read {}: {e}", target.display()))?;
    if current != plan.old.as_bytes() {
        return Err(format!("{} changed while it was being linted; not written", target.display()));
    }
    drop(current);
    let dir = target.parent().ok_or("no parent directory")?;
    let file_name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    clear_stale(dir, &file_name);
    guard_interrupts();
    let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    let mut tmp = None;
    for n in 0..100 {
        let candidate = dir.join(temp_name(&file_name, std::process::id(), n));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&candidate) {
            Ok(f) => {
                tmp = Some((candidate, f));
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create a temporary file in {}: {e}", dir.display())),
        }
    }
    let (tmp_path, mut file) = tmp.ok_or("cannot create a temporary file")?;
    pending.push(tmp_path.clone());
    // Written with the lock released, so that an interrupt meanwhile removes the file at once.
    drop(pending);
    let result = (|| -> Result<(), String> {
        let io = |e: std::io::Error| format!("cannot write {}: {e}", target.display());
        file.write_all(plan.new.as_bytes()).map_err(io)?;
        keep_owner_and_mode(&file, &target, &meta)?;
        file.sync_all().map_err(io)?;
        drop(file);
        test_hook(&target, &tmp_path);
        let pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        // The last look: nothing wrote the file since it was linted.
        let now = std::fs::metadata(&target).map_err(|e| format!("cannot stat {}: {e}", target.display()))?;
        let again = std::fs::read(&target).map_err(|e| format!("cannot read {}: {e}", target.display()))?;
        let after = std::fs::metadata(&target).map_err(|e| format!("cannot stat {}: {e}", target.display()))?;
        if again != plan.old.as_bytes() || identity(&now) != identity(&meta) || identity(&after) != identity(&meta) {
            return Err(format!(
                "{} changed while the fix was being written; not written (run lint --fix again)",
                target.display()
            ));
        }
        std::fs::rename(&tmp_path, &target).map_err(io)?;
        drop(pending);
        Ok(())
    })();
    let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    pending.retain(|p| p != &tmp_path);
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp_path);
    }
    result
}

/// Refuse a file the user cannot write: no write permission bit at all (mode 0444, which root
/// could override but the user meant), or no write access for this process.
fn check_writable(target: &Path, meta: &std::fs::Metadata) -> Result<(), String> {
    let refuse = || {
        Err(format!(
            "{} is read-only; not written (make it writable, e.g. `chmod u+w`, to let --fix edit it)",
            target.display()
        ))
    };
    if meta.permissions().readonly() {
        return refuse();
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(c) = std::ffi::CString::new(target.as_os_str().as_bytes()) else { return refuse() };
        // SAFETY: a NUL-terminated path.
        if unsafe { libc::access(c.as_ptr(), libc::W_OK) } != 0 {
            return refuse();
        }
    }
    Ok(())
}

/// Give the temporary file the original's owner, group and mode (the mode after the owner: a
/// change of owner clears set-user-ID bits), or refuse.
fn keep_owner_and_mode(file: &std::fs::File, target: &Path, meta: &std::fs::Metadata) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let new = file.metadata().map_err(|e| format!("cannot stat the temporary file: {e}"))?;
        if (new.uid(), new.gid()) != (meta.uid(), meta.gid())
            && std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).is_err()
        {
            return Err(format!(
                "{} belongs to uid {} gid {}, which a file written by this user cannot keep; not written",
                target.display(),
                meta.uid(),
                meta.gid()
            ));
        }
    }
    file.set_permissions(meta.permissions()).map_err(|e| format!("cannot keep the mode of {}: {e}", target.display()))
}

/// A patch `git apply` (and `patch -p1`) accepts: git headers with `a/` and `b/` paths, then
/// the hunks of [`unified_diff`]. Carriage returns and a byte order mark stay in the lines, so
/// the patch changes exactly those bytes.
pub fn patch(old: &str, new: &str, path: &str) -> String {
    let p = path.replace('\\', "/");
    let diff = unified_diff(old, new, "");
    let hunks = diff.splitn(3, '\n').nth(2).unwrap_or("");
    if hunks.is_empty() {
        return String::new();
    }
    format!("diff --git a/{p} b/{p}\n--- a/{p}\n+++ b/{p}\n{hunks}")
}

/// A unified diff of `old` → `new` with three lines of context.
pub fn unified_diff(old: &str, new: &str, label: &str) -> String {
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = diff_ops(&a, &b);
    let mut out = format!("--- {label}\n+++ {label}\n");
    const CONTEXT: usize = 3;
    // Indices of changed ops, grouped into hunks.
    let changed: Vec<usize> =
        ops.iter().enumerate().filter(|(_, o)| !matches!(o, Op::Equal(..))).map(|(i, _)| i).collect();
    let mut i = 0;
    while i < changed.len() {
        let start = changed[i].saturating_sub(CONTEXT);
        let mut end = (changed[i] + CONTEXT + 1).min(ops.len());
        let mut j = i + 1;
        while j < changed.len() && changed[j] <= end + CONTEXT {
            end = (changed[j] + CONTEXT + 1).min(ops.len());
            j += 1;
        }
        let (mut a_start, mut b_start) = (None, None);
        let (mut a_len, mut b_len) = (0, 0);
        let mut body = String::new();
        for op in &ops[start..end] {
            let (prefix, line, ai, bi) = match *op {
                Op::Equal(ai, bi) => (' ', a[ai], Some(ai), Some(bi)),
                Op::Delete(ai) => ('-', a[ai], Some(ai), None),
                Op::Insert(bi) => ('+', b[bi], None, Some(bi)),
            };
            if let Some(ai) = ai {
                a_start.get_or_insert(ai);
                a_len += 1;
            }
            if let Some(bi) = bi {
                b_start.get_or_insert(bi);
                b_len += 1;
            }
            body.push(prefix);
            body.push_str(line);
            if !line.ends_with('\n') {
                body.push_str("\n\\ No newline at end of file\n");
            }
        }
        let a0 = a_start.map_or(0, |x| x + 1);
        let b0 = b_start.map_or(0, |x| x + 1);
        out.push_str(&format!("@@ -{a0},{a_len} +{b0},{b_len} @@\n"));
        out.push_str(&body);
        i = j;
    }
    out
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Equal(usize, usize),
    Delete(usize),
    Insert(usize),
}

/// Line operations: common prefix and suffix, and an LCS of the middle when it is small.
fn diff_ops(a: &[&str], b: &[&str]) -> Vec<Op> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..].iter().rev().zip(b[prefix..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (am, bm) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut ops: Vec<Op> = (0..prefix).map(|i| Op::Equal(i, i)).collect();
    if am.len().saturating_mul(bm.len()) <= 4_000_000 {
        let (n, m) = (am.len(), bm.len());
        let mut lcs = vec![0u32; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i * (m + 1) + j] = if am[i] == bm[j] {
                    lcs[(i + 1) * (m + 1) + j + 1] + 1
                } else {
                    lcs[(i + 1) * (m + 1) + j].max(lcs[i * (m + 1) + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && am[i] == bm[j] {
                ops.push(Op::Equal(prefix + i, prefix + j));
                i += 1;
                j += 1;
            } else if j < m && (i == n || lcs[i * (m + 1) + j + 1] >= lcs[(i + 1) * (m + 1) + j]) {
                ops.push(Op::Insert(prefix + j));
                j += 1;
            } else {
                ops.push(Op::Delete(prefix + i));
                i += 1;
            }
        }
        // Show deletions before insertions within a run of changes.
        normalize_runs(&mut ops);
    } else {
        ops.extend((0..am.len()).map(|i| Op::Delete(prefix + i)));
        ops.extend((0..bm.len()).map(|j| Op::Insert(prefix + j)));
    }
    ops.extend((0..suffix).map(|k| Op::Equal(a.len() - suffix + k, b.len() - suffix + k)));
    ops
}

fn normalize_runs(ops: &mut [Op]) {
    let mut start = 0;
    while start < ops.len() {
        if matches!(ops[start], Op::Equal(..)) {
            start += 1;
            continue;
        }
        let mut end = start;
        while end < ops.len() && !matches!(ops[end], Op::Equal(..)) {
            end += 1;
        }
        ops[start..end].sort_by_key(|o| match o {
            Op::Delete(i) => (0, *i),
            Op::Insert(j) => (1, *j),
            Op::Equal(..) => (2, 0),
        });
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diffs() {
        let d = unified_diff("a\nb\nc\n", "a\nB\nc\n", "f");
        assert_eq!(d, "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
        let d = unified_diff("x", "y", "f");
        assert_eq!(
            d,
            "--- f\n+++ f\n@@ -1,1 +1,1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n"
        );
        let old: String = (0..20).map(|i| format!("{i}\n")).collect();
        let new = old.replace("2\n", "two\n").replace("17\n", "seventeen\n");
        let d = unified_diff(&old, &new, "f");
        assert_eq!(d.matches("@@").count(), 4, "{d}");
        let p = patch("\u{feff}a\r\nb\r\n", "a\nb\n", "s/SKILL.md");
        assert!(p.starts_with(
            "diff --git a/s/SKILL.md b/s/SKILL.md\n--- a/s/SKILL.md\n+++ b/s/SKILL.md\n@@ -1,2 +1,2 @@\n"
        ));
        assert!(p.contains("-\u{feff}a\r\n") && p.contains("+a\n"), "{p:?}");
        assert_eq!(patch("same\n", "same\n", "x"), "");
    }
}
