//! What to lint: the skill files the harness opens for the cwd (every root), or the paths
//! given on the command line, plus findings about entries the harness passes over.

use super::check::{Subject, SubjectKind};
use super::{Finding, Severity};
use crate::engine::discover::{Environment, Outcome, ProviderConfig, RootReport, RootStatus, SilentReason};
use crate::engine::nodefs::Kind;
use crate::engine::platform::{self, inside};
use crate::engine::snapshot::{ProviderRun, Settings, Snapshot};
use crate::error::UsageError;
use std::collections::HashMap;

/// What a path on the command line was taken as.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Input {
    pub path: String,
    /// `project`, `skills-root`, `skill-folder` or `skill-file`.
    pub kind: &'static str,
    /// In words, for human output: `a project directory: its roots … and …`.
    pub taken_as: String,
}

/// The subjects and entry-level findings of one run.
#[derive(Debug, Default)]
pub struct Targets {
    pub subjects: Vec<Subject>,
    pub findings: Vec<Finding>,
    pub inputs: Vec<Input>,
    /// `false` when the harness's discovery fails as a whole.
    pub complete: bool,
    /// The skills read outside the roots the harness scans (every skill of a collection).
    pub outside: Option<Outside>,
    /// Paths already in `subjects` (a root scanned twice yields each file twice).
    seen: crate::engine::Set<String>,
}

/// What a run read outside the roots the harness scans, and what its walk left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Outside {
    /// Skill folders read outside the roots the harness scans, each once.
    pub skills: usize,
    /// Skills that other folders reach through symbolic links (mirrors for other agents): the
    /// skill's folder and those other paths. Each is linted once, at its folder.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mirrored: Vec<crate::analysis::tree::TreeSkill>,
    /// Folders the walk did not enter (version control, dependencies, build output), by name.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub skipped: std::collections::BTreeMap<String, usize>,
    /// Set when the walk stopped at its entry budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// The skill files read outside the roots (for the repository-wide name check).
    #[serde(skip)]
    pub paths: std::collections::HashSet<String>,
}

impl Targets {
    fn add(&mut self, s: Subject) {
        if self.seen.insert(s.path.clone()) {
            self.subjects.push(s);
        }
    }
}

/// Everything the harness scans for the snapshot's cwd.
pub fn from_snapshot(snap: &Snapshot) -> Targets {
    let mut t = Targets { complete: snap.complete, ..Targets::default() };
    // At most one subject per entry: room for them all at once, not grown by doubling.
    let entries = snap.providers.iter().filter_map(|p| match &p.run {
        ProviderRun::Filesystem { scan, .. } => Some(scan.roots.iter().map(|r| r.entries.len()).sum::<usize>()),
        _ => None,
    });
    t.subjects.reserve_exact(entries.sum());
    for p in &snap.providers {
        let ProviderRun::Filesystem { scan, .. } = &p.run else { continue };
        let mut reported = false;
        for root in &scan.roots {
            match root.status {
                RootStatus::Failed => {
                    if let Some(e) = &scan.error {
                        let text = e.to_string();
                        // `FsError: cannot list "<path>": …` names the entry that failed.
                        let at = text
                            .split_once("cannot list \"")
                            .and_then(|(_, rest)| rest.split_once("\": "))
                            .map(|(p, _)| p.to_string())
                            .filter(|p| p.starts_with(&root.root.path))
                            .unwrap_or_else(|| root.root.path.clone());
                        t.findings.push(provider_failure(&at, &p.name, &text, true));
                        reported = true;
                    }
                }
                RootStatus::Scanned => {
                    reported |= scan_root(root, &p.name, scan.error.as_ref().map(|e| e.to_string()), &mut t)
                }
                RootStatus::Absent => {
                    t.findings.extend(root.blank_entries.iter().map(|e| blank_entry(&root.root.path, e)))
                }
                RootStatus::NotReached => {}
            }
        }
        if let (Some(e), false) = (&scan.error, reported) {
            let at = scan.roots.first().map_or(String::new(), |r| r.root.path.clone());
            t.findings.push(provider_failure(&at, &p.name, &e.to_string(), true));
        }
    }
    shadow_findings(snap, &mut t);
    t
}

/// A provider failure: every skill is lost and there is no catalog.
fn provider_failure(path: &str, provider: &str, error: &str, is_root: bool) -> Finding {
    let rule = if error.contains("ELOOP") { &SYMLINK_LOOP } else { &crate::lint::check::DISCOVERY_FAILED };
    let what = if error.contains("ELOOP") {
        "a symbolic link here loops"
    } else if error.contains("EACCES") || error.contains("permission denied") {
        "the harness is not allowed to read this"
    } else if is_root {
        "listing this root fails"
    } else {
        "reading this fails"
    };
    Finding::new(
        rule,
        path,
        format!("{what}: {}", error),
        format!(
            "the harness's \"{provider}\" provider fails as a whole and logs `skill provider \"{provider}\" skipped: {}`: \
             no skill from any root is loaded and the model gets no catalog",
            error
        ),
    )
    .help(if rule == &SYMLINK_LOOP {
        "remove the looping link or point it at a real directory"
    } else {
        "fix the permissions or remove the entry"
    })
}

/// An entry whose name is only white space (JS `trim()` empties it): the harness's filesystem
/// service refuses the name while listing the root, and the provider reads that as "root
/// absent", so every skill of the root is lost without a warning.
fn blank_entry(root: &str, path: &str) -> Finding {
    let name = path.rsplit(platform::SEP).next().unwrap_or(path);
    let points: Vec<String> = name.chars().map(|c| format!("U+{:04X}", c as u32)).collect();
    let others = match crate::engine::nodefs::readdir(root).map_or(0, |d| d.len()).saturating_sub(1) {
        1 => "its one other entry is not loaded".to_string(),
        n => format!("none of its {n} other entries is loaded"),
    };
    Finding::new(
        &BLANK_ENTRY_NAME,
        path,
        format!(
            "this entry's name is only white space ({}): the harness ignores every skill in `{root}`",
            points.join(" ")
        ),
        format!(
            "while listing `{root}` the harness's filesystem service refuses a name that is empty once trimmed \
             (`FS_NOT_FOUND`), and the provider takes that to mean the root does not exist: {others}, and \
             nothing is logged"
        ),
    )
    .help("rename the entry to a name with a visible character, or remove it (`ls -b` shows the name)")
}

/// One scanned root's entries. Returns whether a provider failure was reported.
fn scan_root(root: &RootReport, provider: &str, error: Option<String>, t: &mut Targets) -> bool {
    let node_mode = root.root.trusted_host;
    let mut reported = false;
    for raw in &root.non_utf8 {
        let shown = platform::join(&root.root.path, &raw.raw_name.to_string_lossy());
        t.findings.push(
            Finding::new(
                &IGNORED_ENTRY,
                &shown,
                "this entry's name is not valid UTF-8",
                "the harness cannot open it again by name and skips it without a warning",
            )
            .help("rename it with a UTF-8 name"),
        );
    }
    // What the entries that are not skills say, read from the disk on every core (a root of
    // copied folders holds thousands of dangling `SKILL.md` links); taken below in entry order.
    let on_disk: Vec<&crate::engine::discover::EntryReport> = root.entries.iter().filter(|e| reads_disk(e)).collect();
    let mut read = crate::engine::discover::par_map(&on_disk, |e| {
        let mut out = Vec::new();
        match &e.outcome {
            Outcome::Silent(SilentReason::Missing) => bundle_without_skill_md(&e.path, &root.root.path, &mut out),
            Outcome::Ignored => ignored(&e.path, &e.name, e.kind, node_mode, &mut out),
            _ => system_skipped(&e.path, &mut out),
        }
        out
    })
    .into_iter();
    for e in &root.entries {
        let locator = e.locator.clone().unwrap_or_else(|| e.path.clone());
        match &e.outcome {
            Outcome::Candidate(_) | Outcome::Warned { .. } => {
                t.add(super::subject::entry_subject_of(
                    &root.root,
                    e.kind,
                    &e.name,
                    &e.path,
                    locator,
                    e.checked.clone(),
                ));
            }
            Outcome::FailedProvider => {
                let err = error.clone().unwrap_or_default();
                t.findings.push(provider_failure(&locator, provider, &err, false));
                reported = true;
            }
            Outcome::Silent(SilentReason::NotAFile(what)) => {
                t.findings.push(
                    Finding::new(
                        &crate::lint::check::SKILL_FILE_NOT_REGULAR,
                        &locator,
                        format!("`SKILL.md` is {what}, not a file"),
                        "the harness skips this skill without a warning",
                    )
                    .help("make SKILL.md a regular file with the skill's frontmatter and instructions"),
                );
            }
            Outcome::Unreadable(what, why) => {
                t.findings.push(Finding::new(
                    &crate::lint::check::SKILL_FILE_NOT_REGULAR,
                    &locator,
                    format!("`SKILL.md` is a {what}, not a file"),
                    format!("the harness {}, in the bundled root; dsh-skills does not read it", why.harness()),
                ));
            }
            Outcome::Silent(SilentReason::Missing) | Outcome::Ignored | Outcome::SystemSkipped => {
                if reads_disk(e) {
                    t.findings.extend(read.next().unwrap_or_default());
                }
            }
        }
    }
    reported
}

/// Whether what the entry `e` says is read from the disk ([`scan_root`]'s parallel pass): a
/// folder without a `SKILL.md`, an ignored entry, `.system`.
fn reads_disk(e: &crate::engine::discover::EntryReport) -> bool {
    match &e.outcome {
        Outcome::Silent(SilentReason::Missing) => e.kind == Kind::Directory,
        Outcome::Ignored | Outcome::SystemSkipped => true,
        _ => false,
    }
}

/// `.system` in a root the harness skips it in, when it holds skills.
fn system_skipped(path: &str, out: &mut Vec<Finding>) {
    let has_skill = crate::engine::nodefs::stat(&platform::join(path, "SKILL.md")).is_ok()
        || !nested_skill_files(path).0.is_empty();
    if has_skill {
        out.push(
            Finding::new(
                &IGNORED_ENTRY,
                path,
                "`.system` holds skills, but the harness skips `.system` in this root",
                "the harness skips the entry `.system` of ~/.dsh/skills (a relic of its first design) without a \
                 warning",
            )
            .help("move the skills directly under the root"),
        );
    }
}

pub use super::subject::{entry_subject as subject, folder_subject as tree_subject};

/// A root entry the harness classified as neither a folder nor a `.md` file.
fn ignored(path: &str, name: &str, kind: Kind, node_mode: bool, out: &mut Vec<Finding>) {
    // Through the file system the discovery read (a git overlay for `diff`), not the disk.
    let is_link = crate::engine::nodefs::is_symlink(path);
    if is_link && let Err(node_err) = crate::engine::nodefs::stat(path) {
        let target = crate::engine::nodefs::readlink(path).unwrap_or_default();
        let (harness, severity) = if node_mode {
            (
                format!(
                    "the harness skips this entry and logs `skill entry {path} ignored: failed to follow symbolic link: \
                     {node_err}`"
                ),
                Severity::Error,
            )
        } else {
            ("the harness skips this entry without a warning".to_string(), Severity::Warning)
        };
        out.push(
            Finding::new(
                &DANGLING_SYMLINK,
                path,
                format!(
                    "this symbolic link points at `{}`, which {}",
                    &target,
                    if node_err.code == "ELOOP" { "loops" } else { "does not exist" }
                ),
                harness,
            )
            .severity(severity)
            .help("fix or remove the link"),
        );
        return;
    }
    if kind != Kind::File {
        return;
    }
    let lower = name.to_ascii_lowercase();
    let markdown_like = [".md", ".markdown", ".mdown", ".mkd", ".mdx"].iter().any(|ext| lower.ends_with(ext));
    if markdown_like {
        let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
        out.push(
            Finding::new(
                &IGNORED_ENTRY,
                path,
                format!("`{}` does not end in exactly `.md`", name),
                "the harness reads flat skills only from files ending in `.md` (case-sensitive) and ignores this one \
                 without a warning",
            )
            .help(format!("rename it to `{}.md`", stem)),
        );
    }
}

/// A folder in a root with no `SKILL.md`: a differently cased file, a dangling link, or
/// skills nested one level too deep. A well-formed skill the harness never loads is an error:
/// its author evidently meant it to load.
fn bundle_without_skill_md(dir: &str, root: &str, out: &mut Vec<Finding>) {
    let locator = platform::join(dir, "SKILL.md");
    if crate::engine::nodefs::is_symlink(&locator) {
        let target = crate::engine::nodefs::readlink(&locator).unwrap_or_default();
        out.push(
            Finding::new(
                &DANGLING_SYMLINK,
                &locator,
                format!("`SKILL.md` is a symbolic link to `{}`, which does not exist", &target),
                "the harness skips this skill without a warning",
            )
            .help("fix or remove the link"),
        );
        return;
    }
    if let Some(v) = case_variant(dir) {
        out.push(case_finding(dir, &v));
        return;
    }
    let (nested, stopped) = nested_skill_files(dir);
    let group = entry_name(root, dir);
    for file in nested {
        // `group/x/SKILL.md` moves as the folder `group/x`; `group/x.md` as the file.
        let moved =
            if file.ends_with(&format!("{}SKILL.md", platform::SEP)) { platform::dirname(&file) } else { file.clone() };
        let to = platform::join(root, &basename(&moved));
        let well_formed = well_formed_name(&file).is_some();
        let mut f = Finding::new(
            &NESTED_TOO_DEEP,
            &file,
            format!("this skill is nested inside `{}/` of the root `{}`", &group, root),
            "the harness looks only one level deep (`<root>/<folder>/SKILL.md`) and never discovers this skill",
        )
        .severity(if well_formed { Severity::Error } else { Severity::Warning });
        if crate::engine::nodefs::lexists(&to) {
            f = f.help(format!(
                "move `{}` directly under the root; `{}` already exists there, so give it another name",
                moved, to
            ));
        } else {
            f = f
                .help(format!(
                    "move it directly under the root: `mv {} {}`",
                    crate::analysis::unscanned::sh(&moved),
                    crate::analysis::unscanned::sh(&to)
                ))
                .action(super::Action::Move { moves: vec![[moved.clone(), to]] });
        }
        out.push(f);
    }
    if let Some(note) = stopped {
        out.push(
            Finding::new(&NESTED_TOO_DEEP, dir, note, "entries past the budget were not checked")
                .severity(Severity::Info),
        );
    }
}

/// The frontmatter `name` of a skill file the harness would load if it found it.
pub fn well_formed_name(path: &str) -> Option<String> {
    let text = crate::engine::textread::read_text_beside(path, 4 << 20)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    crate::engine::skillfile::parse_skill_text(text).ok().map(|p| p.name)
}

/// A file in `dir` named like `SKILL.md` in another letter case.
fn case_variant(dir: &str) -> Option<String> {
    let mut variants: Vec<String> = crate::engine::nodefs::readdir(dir)
        .ok()?
        .into_iter()
        .filter_map(|e| e.name)
        .filter(|n| n != "SKILL.md" && n.eq_ignore_ascii_case("SKILL.md"))
        .collect();
    variants.sort();
    variants.into_iter().next()
}

fn case_finding(dir: &str, variant: &str) -> Finding {
    let path = platform::join(dir, variant);
    let severity = if well_formed_name(&path).is_some() { Severity::Error } else { Severity::Warning };
    Finding::new(
        &SKILL_MD_CASE,
        &path,
        format!("the skill file is named `{}`, not `SKILL.md`", variant),
        "the harness opens `SKILL.md` by exact name: this skill is found on case-insensitive filesystems (macOS, \
         Windows) and silently missing on Linux",
    )
    .severity(severity)
    .help(format!(
        "rename the file to `SKILL.md`: `mv {} {}`",
        crate::analysis::unscanned::sh(&path),
        crate::analysis::unscanned::sh(&platform::join(dir, "SKILL.md"))
    ))
    .action(super::Action::Move { moves: vec![[path.clone(), platform::join(dir, "SKILL.md")]] })
}

/// Entries [`nested_skill_files`] reads at most.
const NESTED_BUDGET: usize = 2000;

/// Skill files below `dir` that the harness never reaches: `SKILL.md` two or three levels
/// down, and `.md` files with frontmatter directly inside it. A `SKILL.md` inside a folder that
/// has its own `SKILL.md` is that skill's content (a template, an example), not a mistake.
/// Returns a note when the budget ran out.
fn nested_skill_files(dir: &str) -> (Vec<String>, Option<String>) {
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .min_depth(1)
        .max_depth(3)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !matches!(e.file_name().to_str(), Some(".git" | "node_modules")));
    let mut seen = 0;
    let mut stopped = None;
    let mut found: Vec<String> = Vec::new();
    for e in walker.flatten() {
        seen += 1;
        if seen > NESTED_BUDGET {
            stopped = Some(format!(
                "the search for nested skills in `{dir}` stopped after {NESTED_BUDGET} entries; some were not checked"
            ));
            break;
        }
        let name = e.file_name().to_str().unwrap_or("");
        let hit = if e.depth() >= 2 {
            name == "SKILL.md"
        } else {
            name.ends_with(".md")
                && e.file_type().is_file()
                && e.path().to_str().is_some_and(crate::engine::textread::starts_with_fence)
        };
        if hit {
            found.push(e.path().to_string_lossy().into_owned());
        }
    }
    // Drop the SKILL.md files inside a folder that is itself a nested skill.
    let bundles: Vec<String> = found
        .iter()
        .filter(|p| p.ends_with(&format!("{}SKILL.md", platform::SEP)))
        .map(|p| format!("{}{}", platform::dirname(p), platform::SEP))
        .collect();
    found.retain(|p| !bundles.iter().any(|b| p.starts_with(b.as_str()) && platform::dirname(p).len() + 1 > b.len()));
    (found, stopped)
}

/// The root directory a candidate came from.
fn entry_name(root: &str, path: &str) -> String {
    let prefix = format!("{root}{}", platform::SEP);
    path.strip_prefix(&prefix).and_then(|r| r.split(platform::SEP).next()).unwrap_or(path).to_string()
}

/// Whether two paths reach the same file (through symlinked or repeated roots).
fn same_file(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    // Under a git overlay (`diff`) the files are the overlay's: compare their real paths there.
    if crate::engine::nodefs::current_overlay().is_some() {
        use crate::engine::nodefs::realpath;
        return matches!((realpath(a), realpath(b)), (Ok(x), Ok(y)) if x == y);
    }
    // Two stats rule out most pairs cheaply (resolving a path costs a syscall per component);
    // equal identities are confirmed by resolving, so hard links stay two files.
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let same_inode = matches!((std::fs::metadata(a), std::fs::metadata(b)),
            (Ok(x), Ok(y)) if (x.dev(), x.ino()) == (y.dev(), y.ino()));
        if !same_inode {
            return false;
        }
    }
    matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

/// The scope of a root: project, custom, personal or bundled.
fn scope(source: &str) -> &'static str {
    match source {
        "project-dsh" | "project-agents" => "project",
        "custom" => "custom",
        "user-dsh" | "user-agents" => "personal",
        "bundled" => "bundled",
        _ => "runtime",
    }
}

/// Shadowed copies and same-root duplicates.
fn shadow_findings(snap: &Snapshot, t: &mut Targets) {
    for sh in &snap.shadowed {
        let (l, w) = (&snap.candidates[sh.loser], &snap.candidates[sh.winner]);
        let Some(lpath) = &l.path else { continue };
        let name = l.skill.name.clone();
        let logged =
            format!("skill \"{name}\" from {} ignored because a higher-priority skill already exists", l.source);
        let finding = match &w.path {
            Some(wpath) if same_file(wpath, lpath) => Finding::new(
                &SHADOWED_SKILL,
                lpath,
                format!(
                    "this file is reached twice: through the {} root and through the {} root, which are the same \
                     directory",
                    w.source, l.source
                ),
                format!("the harness loads it once, as {}, and logs `{logged}` for the second copy", w.source),
            )
            .severity(Severity::Info)
            .help("nothing to fix in the skill; this happens when the cwd is the home directory or a root is listed twice"),
            Some(wpath) => {
                let same_root = l.layer == w.layer && l.provider_order == w.provider_order && l.root_index == w.root_index;
                if same_root {
                    let root = snap.root_path(l).unwrap_or_default().to_string();
                    let (le, we) = (entry_name(&root, lpath), entry_name(&root, wpath));
                    let prefix = format!("{root}{}", platform::SEP);
                    let wrel = wpath.strip_prefix(&prefix).unwrap_or(wpath);
                    Finding::new(
                        &DUPLICATE_NAME,
                        lpath,
                        format!(
                            "another skill in the same root is also named `{name}`: `{}`",
                            wrel
                        ),
                        format!(
                            "the harness loads the other copy and ignores this one (it logs `{logged}`): within a root, \
                             entries are taken in ICU collation order for {}, and `{}` sorts before `{}`",
                            match snap.locale.as_str() {
                                "und" => "the root locale (und)".to_string(),
                                l => format!("locale {l}"),
                            },
                            &we,
                            &le
                        ),
                    )
                    .related(wpath, None, "the copy that wins")
                    .help("give each skill its own name, or delete one copy")
                } else {
                    let how = if l.layer != w.layer {
                        "a nearer registry layer replaces it".to_string()
                    } else if l.rank == w.rank {
                        format!("both roots rank {}, and the {} root is listed first", l.rank, w.source)
                    } else {
                        format!("{} (rank {}) outranks {} (rank {})", w.source, w.rank, l.source, l.rank)
                    };
                    // A project skill over a personal one is the harness working as designed;
                    // two copies in one scope (project .dsh vs .agents, two custom dirs) are not.
                    let by_design = l.layer == w.layer && scope(w.source) != scope(l.source);
                    let f = Finding::new(
                        &SHADOWED_SKILL,
                        lpath,
                        format!("`{name}` is shadowed by `{}` from the {} root", wpath, w.source),
                        format!("the harness loads the other copy and ignores this one ({how}); it logs `{logged}`"),
                    )
                    .related(wpath, None, "the copy that wins");
                    if by_design {
                        f.severity(Severity::Info).help(format!(
                            "nothing to fix if the {} copy is meant to override the {} one; otherwise rename one of them",
                            scope(w.source),
                            scope(l.source)
                        ))
                    } else {
                        f.help("rename one of the skills, or delete the stale copy")
                    }
                }
            }
            None => Finding::new(
                &SHADOWED_SKILL,
                lpath,
                format!("`{name}` is also the name of the packaged {} skill, which wins", w.provider),
                format!("the harness loads the packaged skill and ignores this file; it logs `{logged}`"),
            )
            .help("rename the skill"),
        };
        let mut finding = finding;
        finding.skill = Some(l.skill.name.clone());
        t.findings.push(finding);
    }
}

/// The skills of a walk (`tree`, the roots the harness scans left out) that lie in `within`,
/// each as the unit it will be installed as: a skill folder's `SKILL.md`, with no placement
/// rule (nothing about where it sits applies outside a root); and the flat `.md` skills of
/// folders named `.agents/skills` or `.dsh/skills` (a root for a session elsewhere). Returns
/// how many skill folders were added.
pub fn tree_targets(tree: &crate::analysis::tree::Tree, within: &str, t: &mut Targets) -> usize {
    let before = t.subjects.len();
    let mut mirrored = Vec::new();
    for s in tree.skills.iter().filter(|s| inside(&s.dir, within)) {
        if !s.mirrors.is_empty() {
            mirrored.push(s.clone());
        }
        let mut subject = tree_subject(&s.dir);
        // Checked by the walk that found it ([`super::pass::tree_check`]), once.
        if !t.seen.contains(&subject.path) {
            subject.checked = tree.checked.get(&s.dir).cloned();
        }
        t.add(subject);
    }
    let added = t.subjects.len() - before;
    let new_paths: Vec<String> = t.subjects[before..].iter().map(|s| s.path.clone()).collect();
    t.findings.extend(super::manifest::check(tree, within));
    let dangling: Vec<&String> = tree.dangling.iter().filter(|l| inside(l, within)).collect();
    if !dangling.is_empty() {
        // The skill folders by folder name, once for every dangling link.
        let mut by_name: HashMap<&str, Vec<&crate::analysis::tree::TreeSkill>> = HashMap::new();
        for s in tree.skills.iter().filter(|s| !s.linked) {
            by_name.entry(folder_name(&s.dir)).or_default().push(s);
        }
        for link in dangling {
            t.findings.push(dangling_skill_md(&by_name, link));
        }
    }
    let outside = t.outside.get_or_insert_with(Outside::default);
    outside.paths.extend(new_paths);
    outside.mirrored.extend(mirrored);
    for (name, n) in &tree.skipped {
        *outside.skipped.entry(name.clone()).or_default() += n;
    }
    if outside.stopped.is_none() {
        outside.stopped = tree.stopped.clone();
    }
    for dir in tree.root_shaped.iter().filter(|d| inside(d, within)) {
        for e in crate::analysis::unscanned::skill_entries(dir).into_iter().filter(|e| !e.ends_with('/')) {
            let kind = SubjectKind::Flat { root: dir.clone(), entry: e.clone() };
            t.add(Subject { path: platform::join(dir, &e), kind, node_mode: false, checked: None });
        }
    }
    if let Some(o) = &mut t.outside {
        o.skills += added;
    }
    added
}

/// The last part of a folder's path.
fn folder_name(dir: &str) -> &str {
    dir.rsplit_once(platform::SEP).map_or(dir, |(_, n)| n)
}

/// A `SKILL.md` outside the roots that is a symbolic link to nothing: no agent loads the
/// folder. A mirror for another agent (`.gemini/skills/x/SKILL.md`) is often left behind when
/// the skills move; when the tree holds exactly one skill folder of the link's folder name, the
/// help relinks to it.
fn dangling_skill_md(by_name: &HashMap<&str, Vec<&crate::analysis::tree::TreeSkill>>, link: &str) -> Finding {
    use crate::analysis::unscanned::{relative, sh};
    let target = std::fs::read_link(link).map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    let dir = platform::dirname(link);
    let same = by_name.get(folder_name(&dir)).map_or(&[][..], Vec::as_slice);
    let finding = Finding::new(
        &DANGLING_SYMLINK,
        link,
        format!("`SKILL.md` is a symbolic link to `{target}`, which does not exist"),
        "this folder has no `SKILL.md` for any agent to load (a mirror left behind when the skill moved?): read in \
         place or installed, the skill is missing",
    );
    match same {
        [skill] => {
            let to = relative(&dir, &skill.file());
            finding.related(&skill.dir, None, "the skill folder of the same name").help(format!(
                "point the link at it: `ln -sf {} {}`",
                sh(&to),
                sh(link)
            ))
        }
        _ => finding.help("fix or remove the link"),
    }
}

/// `unscanned-skill-folder` findings, one per folder (intentional ones left out), and one note
/// that adds them all when there are several: a warning in a project that uses the harness, a
/// note in a collection or marketplace.
pub fn unscanned_findings(search: &crate::analysis::unscanned::Search, within: Option<&str>) -> Vec<Finding> {
    use crate::analysis::unscanned::Place;
    let mut out = Vec::new();
    let level = if search.uses_harness { Severity::Warning } else { Severity::Info };
    let open: Vec<&crate::analysis::unscanned::Folder> =
        search.folders.iter().filter(|f| !f.intentional && within.is_none_or(|w| inside(&f.path, w))).collect();
    for f in &open {
        let r = &f.remedy;
        let moves: Vec<[String; 2]> = f
            .skills
            .iter()
            .map(|e| {
                let e = e.trim_end_matches('/');
                [platform::join(&f.path, e), platform::join(&r.target_root, e)]
            })
            .collect();
        let mut finding = Finding::new(
            &UNSCANNED_SKILL_FOLDER,
            &f.path,
            format!("this folder holds {}, but the harness does not scan it for this working directory", f.holds()),
            format!("the harness never loads these skills, without a warning: {}", f.why),
        )
        .severity(level);
        for (label, text, command) in f.fixes() {
            finding = finding.help(if command { format!("{label}: `{text}`") } else { format!("{label}: {text}") });
        }
        finding = finding.help(format!(
            "or, if the folder is kept for another agent or for distribution on purpose, list it under `unscanned-ok` \
             in {}",
            super::config::FILE_NAME
        ));
        // A collection stays where it is, added as a custom dir; a folder another agent reads
        // (or another repository's) stays where it is, linked; a misplaced folder of this
        // project moves.
        let keep = f.agent.is_some() || f.place == Place::AboveProject;
        let linked = f.place == Place::Collection && !f.other_markdown.is_empty() && !r.links.is_empty();
        finding = finding.action(if linked {
            super::Action::Link { links: r.links.clone() }
        } else if !r.clashes.is_empty() || f.place == Place::Collection {
            super::Action::CustomDir { path: f.path.clone() }
        } else if keep || r.relative_links {
            super::Action::Link { links: r.links.clone() }
        } else {
            super::Action::Move { moves }
        });
        out.push(finding);
    }
    let at = search.project_root.clone().unwrap_or_default();
    if open.len() > 1 {
        let skills: usize = open.iter().map(|f| f.skills.len()).sum();
        // Folders with other Markdown are linked, not made roots (their README would be a
        // broken skill): the note adds the others.
        let as_dirs: Vec<&&crate::analysis::unscanned::Folder> =
            open.iter().filter(|f| f.other_markdown.is_empty()).collect();
        let flags: Vec<String> =
            as_dirs.iter().map(|f| format!("--root {}", crate::analysis::unscanned::sh(&f.path))).collect();
        let dirs: Vec<String> = as_dirs.iter().map(|f| serde_json::to_string(&f.path).unwrap_or_default()).collect();
        let linked = open.len() - as_dirs.len();
        let mut note = Finding::new(
            &UNSCANNED_SKILL_FOLDER,
            &at,
            format!(
                "{} folders of this project hold {skills} skills the harness does not scan for this working directory",
                open.len()
            ),
            "the harness never loads them, without a warning (each folder is reported on its own)",
        )
        .severity(level);
        if linked > 0 {
            note = note.help(format!(
                "{linked} of them {} other Markdown files as well: link their skills as each finding says{}",
                if linked == 1 { "holds" } else { "hold" },
                if as_dirs.is_empty() { "" } else { "; for the rest:" }
            ));
        }
        if !as_dirs.is_empty() {
            note = note.help(format!("preview them as installed: `dsh-skills {} catalog`", flags.join(" "))).help(
                format!(
                    "add them as custom dirs, in the skill-filesystem row of the harness configuration: \
                     `customSkillDirs: [{}]`",
                    dirs.join(", ")
                ),
            );
        }
        out.push(note);
    }
    if let Some(note) = search.stopped.as_ref().filter(|_| within.is_none_or(|w| inside(&at, w))) {
        out.push(
            Finding::new(&UNSCANNED_SKILL_FOLDER, &at, note.clone(), "folders past the budget were not checked")
                .severity(Severity::Info),
        );
    }
    out
}

/// The paths given on the command line. Each is first classified (and the report says as
/// what): a file is one skill file; a folder with `SKILL.md` one skill; a root the harness
/// scans for the cwd (or one given with `--root`) is read as that root (flat files, nesting,
/// in-root order, shadowing); a project directory (it holds `.git`, `.agents` or `.dsh`) as the
/// roots the harness scans for it plus every skill it holds outside them; any other folder as a
/// folder of skills: every skill folder in it at any depth, each as the unit it installs as.
pub fn from_paths(
    paths: &[String],
    settings: &Settings,
    env: &Environment,
    intentional: &[String],
    check: &super::pass::TreeCheck,
) -> Result<Targets, UsageError> {
    let mut t = Targets { complete: true, ..Targets::default() };
    // The walks check the skills they find inside the paths given, as they find them.
    let given: Vec<String> = paths.iter().map(|p| platform::resolve(&env.process_cwd, p)).collect();
    let roots = crate::engine::snapshot::root_paths(settings, env);
    // The cwd's search for unscanned folders, made once when a folder of skills needs it.
    let mut cwd_search: Option<crate::analysis::unscanned::Search> = None;
    for p in paths {
        let abs = platform::resolve(&env.process_cwd, p);
        let meta = std::fs::metadata(&abs).map_err(|e| {
            UsageError(format!(
                "cannot lint `{p}`: {}",
                crate::engine::nodefs::NodeError::from_io(&e, "stat", &abs).message()
            ))
        })?;
        let before = (t.subjects.len(), t.findings.len());
        let input = |kind: &'static str, taken_as: String| Input { path: abs.clone(), kind, taken_as };
        if meta.is_dir() {
            let locator = platform::join(&abs, "SKILL.md");
            let dot_root = platform::join(&abs, "skills");
            if std::fs::symlink_metadata(&locator).is_ok() {
                let entry = basename(&abs);
                let kind = SubjectKind::Bundle { dir: abs.clone(), entry };
                t.add(Subject { path: locator, kind, node_mode: false, checked: None });
                t.inputs.push(input("skill-folder", "a skill folder (its SKILL.md)".into()));
            } else if let Some(v) = case_variant(&abs) {
                t.findings.push(case_finding(&abs, &v));
                let kind = SubjectKind::Bundle { dir: abs.clone(), entry: basename(&abs) };
                t.add(Subject { path: platform::join(&abs, &v), kind, node_mode: false, checked: None });
                t.inputs.push(input("skill-folder", format!("a skill folder (its {v})")));
            } else if let Some(root) = [&abs, &dot_root].into_iter().find(|r| roots.contains(r)) {
                let sub = root_targets(root, settings, env);
                t.complete &= sub.complete;
                for s in sub.subjects {
                    t.add(s);
                }
                t.findings.extend(sub.findings);
                if (t.subjects.len(), t.findings.len()) == before && root == &abs {
                    bundle_without_skill_md(&abs, &platform::dirname(&abs), &mut t.findings);
                }
                t.inputs.push(input(
                    "skills-root",
                    if root == &abs {
                        "a skills root (each folder or .md file in it is a skill)".to_string()
                    } else {
                        format!("the skills root {root}")
                    },
                ));
                if (t.subjects.len(), t.findings.len()) == before {
                    continue;
                }
            } else if is_project_dir(&abs) {
                let taken = project_targets(&abs, settings, env, intentional, check, &mut t);
                t.inputs.push(input("project", taken));
                if (t.subjects.len(), t.findings.len()) == before {
                    // A project without skills is linted clean, not an error.
                    continue;
                }
            } else {
                let search = cwd_search.get_or_insert_with(|| {
                    let mut quiet = settings.clone();
                    quiet.scan.check = None;
                    crate::analysis::unscanned::search_checked(
                        &crate::engine::snapshot::discover_kept(&quiet, env),
                        &env.home,
                        intentional,
                        Some(check.within(given.clone())),
                    )
                });
                let in_project = search.project_root.as_deref().is_some_and(|r| inside(&abs, r));
                let own;
                let tree = if in_project {
                    &search.tree
                } else {
                    let prune: Vec<String> = roots.iter().filter(|r| inside(r, &abs)).cloned().collect();
                    own = crate::analysis::tree::scan_checked(&abs, &prune, Some(check.within(Vec::new())));
                    &own
                };
                let n = tree_targets(tree, &abs, &mut t);
                // Roots the harness scans inside the folder are read as roots.
                let mut inner = Vec::new();
                for root in roots.iter().filter(|r| inside(r, &abs) && *r != &abs) {
                    let sub = root_targets(root, settings, env);
                    t.complete &= sub.complete;
                    for s in sub.subjects {
                        t.add(s);
                    }
                    t.findings.extend(sub.findings);
                    if std::fs::metadata(root).is_ok() {
                        inner.push(root.clone());
                    }
                }
                if in_project {
                    t.findings.extend(unscanned_findings(search, Some(&abs)));
                }
                if (t.subjects.len(), t.findings.len()) == before {
                    let flat = crate::analysis::unscanned::skill_entries(&abs);
                    if !flat.is_empty() {
                        return Err(UsageError(format!(
                            "`{p}` holds no skill folder, and is not a root the harness scans for this working \
                             directory: its {} with frontmatter ({}) would be skills only in a root; lint it as one \
                             with `dsh-skills lint --root {} {}`",
                            if flat.len() == 1 { ".md file" } else { ".md files" },
                            flat.iter().take(3).cloned().collect::<Vec<_>>().join(", "),
                            crate::analysis::unscanned::sh(p),
                            crate::analysis::unscanned::sh(p)
                        )));
                    }
                }
                let mut taken = format!(
                    "a folder of skills: {} found at any depth, each read as the skill it installs as",
                    if n == 1 { "1 skill folder".to_string() } else { format!("{n} skill folders") }
                );
                if !inner.is_empty() {
                    taken.push_str(&format!(", and the roots the harness scans in it ({})", inner.join(", ")));
                }
                t.inputs.push(input("skill-folders", taken));
            }
        } else if meta.is_file() {
            let name = basename(&abs);
            let parent = platform::dirname(&abs);
            if name == "SKILL.md" {
                let kind = SubjectKind::Bundle { dir: parent.clone(), entry: basename(&parent) };
                t.add(Subject { path: abs.clone(), kind, node_mode: false, checked: None });
            } else if name.ends_with(".md") {
                t.add(Subject {
                    path: abs.clone(),
                    kind: SubjectKind::Flat { root: parent, entry: name },
                    node_mode: false,
                    checked: None,
                });
            } else {
                ignored(&abs, &name, Kind::File, false, &mut t.findings);
            }
            t.inputs.push(input("skill-file", "a skill file".into()));
        } else {
            return Err(UsageError(format!("cannot lint `{p}`: it is neither a file nor a directory")));
        }
        if (t.subjects.len(), t.findings.len()) == before {
            return Err(UsageError(format!(
                "nothing to lint in `{p}`: give a project directory, a skill folder (with SKILL.md), a SKILL.md or .md \
                 file, a folder holding skill folders, or a skills root (`--root DIR`)"
            )));
        }
    }
    Ok(t)
}

/// A directory that holds `.git`, `.agents` or `.dsh`.
fn is_project_dir(dir: &str) -> bool {
    std::fs::symlink_metadata(platform::join(dir, ".git")).is_ok()
        || [".agents", ".dsh"].iter().any(|d| std::fs::metadata(platform::join(dir, d)).is_ok_and(|m| m.is_dir()))
}

/// `dir` as the harness sees it from a session there: the project roots it scans (their files
/// and entries), shadowing among them, and every skill below `dir` outside those roots, with
/// a note per folder that holds them. Personal and bundled roots are discovered (they decide
/// shadowing) but not reported. Returns the words for "taken as".
fn project_targets(
    dir: &str,
    settings: &Settings,
    env: &Environment,
    intentional: &[String],
    check: &super::pass::TreeCheck,
    t: &mut Targets,
) -> String {
    let mut scoped = settings.clone();
    scoped.cwd = Some(dir.to_string());
    let snap = crate::engine::snapshot::discover_kept(&scoped, env);
    let project = snap.project_root.as_ref().map_or_else(|| dir.to_string(), |(p, _)| p.clone());
    let project_roots: Vec<String> = snap
        .scans()
        .flat_map(|(_, s)| &s.roots)
        .filter(|r| matches!(r.root.source, "project-dsh" | "project-agents" | "custom"))
        .filter(|r| r.root.source != "custom" || inside(&r.root.path, dir))
        .map(|r| r.root.path.clone())
        .collect();
    let keep = |path: &str| inside(path, dir) && project_roots.iter().any(|r| inside(path, r));
    let sub = from_snapshot(&snap);
    t.complete &= sub.complete;
    for s in sub.subjects.into_iter().filter(|s| keep(&s.path)) {
        t.add(s);
    }
    t.findings.extend(sub.findings.into_iter().filter(|f| keep(&f.path)));
    let search =
        crate::analysis::unscanned::search_checked(&snap, "", intentional, Some(check.within(vec![dir.to_string()])));
    let n = tree_targets(&search.tree, dir, t);
    t.findings.extend(unscanned_findings(&search, Some(dir)));
    let rel = |r: &str| r.strip_prefix(&format!("{project}{}", platform::SEP)).unwrap_or(r).to_string();
    let roots: Vec<String> = project_roots.iter().map(|r| rel(r)).collect();
    let outside = match n {
        0 => "the skill folders it does not scan".to_string(),
        1 => "the 1 skill folder it holds outside them".to_string(),
        n => format!("the {n} skill folders it holds outside them"),
    };
    if project == dir {
        format!("a project directory: the roots the harness scans for it ({}), and {outside}", roots.join(", "))
    } else {
        format!(
            "a directory inside the project {project}: the harness scans {} there, and not {outside} below this \
             directory",
            roots.join(" and ")
        )
    }
}

/// A directory treated as a skill root: scanned exactly as the harness scans a custom root.
fn root_targets(dir: &str, settings: &Settings, env: &Environment) -> Targets {
    let provider = ProviderConfig {
        custom_skill_dirs: vec![dir.to_string()],
        include_default_roots: false,
        ..ProviderConfig::default()
    };
    let mut scoped = Settings::single(None, provider, settings.description_max_length, settings.locale.clone());
    scoped.scan.check = settings.scan.check.clone();
    from_snapshot(&Snapshot::discover(&scoped, env))
}

fn basename(p: &str) -> String {
    p.trim_end_matches(platform::SEP).rsplit(platform::SEP).next().unwrap_or("").to_string()
}

crate::lint::rules::declare_rules! {
    SYMLINK_LOOP = rule(
        "symlink-loop",
        Error,
        Skipped,
        "A symbolic link loops (ELOOP), which makes the whole discovery fail.",
        "The harness resolves every entry of a root with `realpath`. A link that loops is not an \
         absence but a failure: the filesystem provider's `list()` throws, the harness logs `skill \
         provider \"filesystem\" skipped`, every skill from every root is lost, and the model gets \
         no catalog at all.",
        "Remove the link or point it at a real directory.",
    );
    BLANK_ENTRY_NAME = rule(
        "blank-entry-name",
        Error,
        Skipped,
        "An entry of a root whose name is only white space hides every skill of that root.",
        "While listing a root, the harness's filesystem service resolves each entry by name and \
         refuses a name that JavaScript's `trim()` empties (a space, a tab, U+3000, ...) with \
         `FS_NOT_FOUND`. The provider reads that code as \"the root does not exist\": every skill \
         of the root is lost, without a warning, while the other roots load as usual.",
        "Rename the entry to a name with a visible character, or remove it.",
    );
    DANGLING_SYMLINK = noted(
        rule(
            "dangling-symlink",
            Warning,
            Skipped,
            "A symbolic link in a root, or a `SKILL.md` link, points at nothing.",
            "In project, custom and user roots the harness drops an entry whose link dangles \
             without a word, so the skill silently disappears. In the bundled root it logs \"failed \
             to follow symbolic link\" and skips the entry. Outside the roots, a skill folder \
             whose `SKILL.md` link dangles (a mirror for another agent, such as \
             `.gemini/skills/<name>/SKILL.md`, left behind when the skills moved) is loaded by no \
             agent; when the repository holds one skill folder of the same name, the help \
             relinks to it.",
            "Fix or remove the link.",
        ),
        "an error in the bundled root, where the harness warns and skips the entry",
    );
    SHADOWED_SKILL = noted(
        rule(
            "shadowed-skill",
            Warning,
            Suspicious,
            "A skill with the same name in a higher-ranked root wins, so this copy is ignored.",
            "Roots rank project `.dsh/skills` (100) over project `.agents/skills` (200), custom \
             dirs (300, in configured order), `~/.dsh/skills` (400), `~/.agents/skills` (500) and \
             the bundled dir (600). For each name the highest-ranked copy wins; the harness logs \
             \"skill \\\"x\\\" from <source> ignored because a higher-priority skill already exists\" \
             for every other copy, and edits to the losing copy have no effect.",
            "Rename one of the skills, or delete the stale copy.",
        ),
        "info when the winning copy is in another scope (a project skill over a personal one: the \
         harness working as designed) or both copies are the same file reached through two roots; a \
         warning within one scope (project `.dsh` vs project `.agents`, two custom dirs, `~/.dsh` vs \
         `~/.agents`)",
    );
    DUPLICATE_NAME = rule(
        "duplicate-name",
        Warning,
        Suspicious,
        "Two skills in the same root declare the same `name`.",
        "Within one root the harness takes entries in ICU collation order for the process locale \
         (as JavaScript's `localeCompare`, not byte order): the entry that sorts first wins and \
         the other is ignored with the shadow warning. `foo_bar/` sorts before `foo-bar.md`, and \
         `a.md` before `B.md`. Which copy wins is easy to get wrong.",
        "Give each skill its own name, or delete one copy.",
    );
    SKILL_MD_CASE = noted(
        rule(
            "skill-md-case",
            Error,
            Suspicious,
            "A skill folder has `skill.md` (or another spelling) instead of `SKILL.md`.",
            "The harness opens `<folder>/SKILL.md` by that exact name. On case-insensitive filesystems \
         (macOS, Windows) `skill.md` is found too, so the skill works there and silently \
         disappears on Linux, including CI and servers.",
            "Rename the file to `SKILL.md`.",
        ),
        "a warning when the file would not load anyway (its frontmatter is not a valid skill)",
    );
    IGNORED_ENTRY = rule(
        "ignored-entry",
        Warning,
        Suspicious,
        "A file in a root that the harness passes over silently (`.markdown`, `.MD`, `.system`).",
        "Flat skills must end in exactly `.md` (case-sensitive): `.markdown`, `.MD` or `.mdx` files \
         are ignored. In `~/.dsh/skills` an entry named `.system` is skipped. Entries whose names \
         are not valid UTF-8 cannot be opened. None of these produce a warning in the harness.",
        "Rename the file to end in `.md`, or move the skill to its own folder.",
    );
    NESTED_TOO_DEEP = noted(
        rule(
            "nested-too-deep",
            Error,
            Suspicious,
            "A `SKILL.md` more than one level below a root.",
            "The harness looks exactly one level deep: `<root>/<folder>/SKILL.md` and \
             `<root>/<file>.md`. A skill in `<root>/<group>/<folder>/SKILL.md` is never discovered, \
             without a warning. A well-formed skill there was evidently meant to load, so this is an \
             error. A `SKILL.md` inside a skill folder that has its own `SKILL.md` is that skill's \
             content (a template or an example) and is not reported; neither is a skill directly in \
             a root.",
            "Move the skill folder directly under the root (the finding gives the command).",
        ),
        "a warning when the nested file would not load anyway (its frontmatter is not a valid skill)",
    );
    UNSCANNED_SKILL_FOLDER = noted(
        rule(
            "unscanned-skill-folder",
            Warning,
            Suspicious,
            "Skills in a folder the harness does not scan for this working directory.",
            "The harness scans `.dsh/skills` and `.agents/skills` of the project root (the nearest \
             ancestor of the cwd with `.git`), custom dirs, `~/.dsh/skills`, `~/.agents/skills` and \
             the bundled dir, nothing else. Skills in another agent's folder (`.claude/skills`, \
             `.codex/skills`, `.github/skills`, ...), in a top-level `skills/`, in a monorepo \
             package's own `.agents/skills`, in an ancestor above the project root or in a parent \
             of the cwd that is not the project root are never loaded, without a warning. A \
             repository may keep such a folder for another agent on purpose: list it under \
             `unscanned-ok` in `.dsh-skills-lint.yaml` and lint stops reporting it. Any other folder \
             of the project that holds skill folders (a collection's `skills/`, a marketplace's \
             `plugins/<plugin>/skills/`, a category folder) is reported too, once per folder, with \
             one more note adding them all when there are several; its skills are linted as the \
             units they install as, without placement rules.",
            "Move the skills into the project's `.agents/skills` (or `~/.agents/skills` for a \
             personal folder), link them there, or add the folder to `customSkillDirs` (preview \
             with `--root` or `--custom-dir`); a collection's folder is added as a custom dir or its \
             skills linked. The finding gives the exact commands.",
        ),
        "a warning in a project that uses the harness (its root holds `.dsh/` or `.agents/skills/`); \
         a note (info) otherwise, in a collection or marketplace, where skills outside the roots \
         are the point",
    );
}
