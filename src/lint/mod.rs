//! `dsh-skills lint`: findings about skill files, each stating what the harness will do.
//!
//! The pipeline:
//! * [`targets`] turns the command line into *subjects* (skill files, with the root and read
//!   mode the harness uses for them) and entry-level findings (files the harness passes over,
//!   provider failures), either from a full discovery [`crate::engine::snapshot::Snapshot`] for the cwd
//!   or from explicit paths;
//! * [`check`] reads each skill file exactly as the harness does and runs the per-file rules;
//!   [`bundle`] checks references and symlinks of a skill's resource directory;
//! * [`config`] applies the project configuration file and the per-file suppressions kept in
//!   the frontmatter; [`fix`] applies the safe mechanical fixes;
//! * [`crate::render::lint`] writes human (annotate-snippets), JSON, GitHub annotations or
//!   SARIF 2.1.0;
//! * [`run`] is one lint pass over all of that, as `dsh-skills lint` and the language server
//!   both run it (the command adds fixes, baselines, output and the exit status).
//!
//! Every rule is declared once, next to its check ([`rules`] says how), with its id, default
//! severity and explanation. Nothing here prints or knows the command line: lint depends on the engine and
//! the analysis helpers only.

pub mod baseline;
pub mod bundle;
pub mod check;
pub mod codex;
pub mod config;
pub mod content;
pub mod fix;
pub mod manifest;
pub mod pass;
pub mod rules;
pub mod run;
pub mod source;
pub mod subject;
pub mod targets;
pub mod term;

/// The families of rules, beside their `mod` lines: each declares its rules next to its checks
/// ([`rules::declare_rules!`]); [`rules::all`] gathers them in this order within each group.
const RULE_FAMILIES: [&[&rules::Rule]; 8] = [
    check::RULES,
    content::RULES,
    bundle::RULES,
    targets::RULES,
    manifest::RULES,
    codex::RULES,
    config::RULES,
    run::RULES,
];

use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;

pub use source::SourceText;

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "info" | "note" => Some(Severity::Info),
            "warning" | "warn" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// The agents whose portability rules `--compat` enables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Compat {
    /// The Agent Skills specification (agentskills.io), its `skills-ref` validator and the
    /// packaging scripts built on it.
    Agentskills,
    /// Claude Code and claude.ai uploads.
    ClaudeCode,
    /// OpenAI Codex's skill loader.
    Codex,
}

impl Compat {
    pub fn as_str(self) -> &'static str {
        match self {
            Compat::Agentskills => "agentskills",
            Compat::ClaudeCode => "claude-code",
            Compat::Codex => "codex",
        }
    }

    pub fn parse(s: &str) -> Option<Compat> {
        match s {
            "agentskills" => Some(Compat::Agentskills),
            "claude-code" => Some(Compat::ClaudeCode),
            "codex" => Some(Compat::Codex),
            _ => None,
        }
    }

    pub const ALL: [Compat; 3] = [Compat::Agentskills, Compat::ClaudeCode, Compat::Codex];
}

/// One replacement in a file's bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Edit {
    /// Byte range in the file as it is on disk.
    pub range: Range<usize>,
    pub replacement: String,
}

/// A safe mechanical fix: applying every edit keeps the author's meaning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// What the fix does, e.g. `rename "userInvocable" to "user-invocable"`.
    pub description: String,
    pub edits: Vec<Edit>,
}

/// A concrete change that makes a finding go away, in a form a script (and the advice-applying
/// test) can carry out. Paths are absolute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Action {
    /// Rename or move files or folders: each `[from, to]`.
    Move { moves: Vec<[String; 2]> },
    /// Create symbolic links: each `[link, target]`, the target as written into the link
    /// (relative to the link's folder).
    Link { links: Vec<[String; 2]> },
    /// Set the frontmatter `name` of the finding's file.
    SetName { name: String },
    /// Add a folder to the harness's `customSkillDirs` (`--custom-dir`).
    CustomDir { path: String },
}

/// Another place a finding refers to (the copy that wins, the line a hint points at).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Related {
    pub path: String,
    /// Byte range in that file, when it is a skill file linted in this run.
    #[serde(skip)]
    pub span: Option<Range<usize>>,
    pub message: String,
}

/// One problem, at one place, with what the harness will do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule (its `id` is kebab-case and stable).
    pub rule: &'static rules::Rule,
    pub severity: Severity,
    /// The file (or directory) as the harness spells it: absolute, lexical, symlinks kept.
    pub path: String,
    /// Byte range in the file's text ([`SourceText`]), when the finding is inside a file.
    pub span: Option<Range<usize>>,
    /// What is wrong.
    pub message: String,
    /// What the harness does with this skill because of it, in the harness's terms (most are
    /// fixed texts, not copied into every finding).
    pub harness: Cow<'static, str>,
    /// A short label under the highlighted source.
    pub label: Option<Cow<'static, str>>,
    /// How to fix it (fixed texts are not copied into every finding).
    pub help: Vec<Cow<'static, str>>,
    pub related: Vec<Related>,
    /// Boxed, like [`Finding::action`]: most findings have none, and every finding of a large run
    /// is held until the report is written.
    pub fix: Option<Box<Fix>>,
    /// The skill's frontmatter name, when it has one.
    pub skill: Option<String>,
    /// The concrete change the help suggests first, when there is one.
    pub action: Option<Box<Action>>,
    /// Advice that waits for the whole run: a broken reference's copy in a neighbouring skill
    /// folder, looked for once every folder has been walked
    /// ([`bundle::advise_siblings`]); `None` on every finding a report holds.
    pub sibling: Option<Box<bundle::SiblingSearch>>,
}

impl Finding {
    pub fn new(
        rule: &'static rules::Rule,
        path: &str,
        message: impl Into<String>,
        harness: impl Into<Cow<'static, str>>,
    ) -> Finding {
        Finding {
            rule,
            severity: rule.severity,
            path: path.to_string(),
            span: None,
            message: message.into(),
            harness: harness.into(),
            label: None,
            help: Vec::new(),
            related: Vec::new(),
            fix: None,
            skill: None,
            action: None,
            sibling: None,
        }
    }

    pub fn action(mut self, action: Action) -> Finding {
        self.action = Some(Box::new(action));
        self
    }

    pub fn at(mut self, span: Range<usize>) -> Finding {
        self.span = Some(span);
        self
    }

    pub fn at_opt(mut self, span: Option<Range<usize>>) -> Finding {
        self.span = span;
        self
    }

    pub fn label(mut self, label: impl Into<Cow<'static, str>>) -> Finding {
        self.label = Some(label.into());
        self
    }

    pub fn help(mut self, help: impl Into<Cow<'static, str>>) -> Finding {
        // Most findings have one help line: room for one, not the four a first push makes
        // (every finding of a large run is held until the report is written).
        self.help.reserve_exact(1);
        self.help.push(help.into());
        self
    }

    pub fn severity(mut self, severity: Severity) -> Finding {
        self.severity = severity;
        self
    }

    pub fn fix(mut self, fix: Option<Fix>) -> Finding {
        self.fix = fix.map(Box::new);
        self
    }

    pub fn related(mut self, path: &str, span: Option<Range<usize>>, message: impl Into<String>) -> Finding {
        self.related.push(Related { path: path.to_string(), span, message: message.into() });
        self
    }
}

/// Counts for the summary line and the JSON `summary` object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub info: usize,
    /// Skill files read.
    pub files: usize,
    /// Findings `--fix` would fix.
    pub fixable: usize,
    /// Fixes written by `--fix`.
    pub fixed: usize,
    /// The passes `--fix` made when more than one (a fix can uncover more; absent otherwise).
    #[serde(skip_serializing_if = "one_pass_at_most")]
    pub fix_passes: usize,
    /// Findings below `--min-severity`: not reported (in any format) and not counted above or
    /// for the exit status.
    pub hidden: usize,
}

fn one_pass_at_most(n: &usize) -> bool {
    *n <= 1
}

/// A fix as `--fix`/`--diff` handled it, per file.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileFix {
    pub path: String,
    /// What was (or would be) done, one line per fix.
    pub fixes: Vec<String>,
    /// Unified diff of the change.
    pub diff: String,
    /// `true` when the file was rewritten.
    pub applied: bool,
    /// Why the fixes were not written, when they were not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// Everything a lint run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Sorted by path, position, rule.
    pub findings: Vec<Finding>,
    /// The text of every skill file read, by harness path, for snippets and positions.
    pub files: BTreeMap<String, SourceText>,
    /// `false` when the harness's discovery would fail (a provider failure).
    pub complete: bool,
    pub summary: Summary,
    pub fixes: Vec<FileFix>,
    /// The directory paths are shown relative to (the process working directory).
    pub base_dir: String,
    /// What each path on the command line was taken as (`a project directory`, …).
    pub inputs: Vec<targets::Input>,
    /// The skills read outside the roots the harness scans, when there were any.
    pub outside: Option<targets::Outside>,
    /// What `--baseline` or `--write-baseline` left out, and which entries matched nothing.
    pub baseline: Option<baseline::Outcome>,
}

impl Report {
    /// Sort findings and recount the summary.
    pub fn finish(&mut self) {
        sort_findings(&mut self.findings);
        self.findings.dedup();
        let mut s = Summary {
            files: self.summary.files,
            fixed: self.summary.fixed,
            hidden: self.summary.hidden,
            ..Summary::default()
        };
        for f in &self.findings {
            match f.severity {
                Severity::Error => s.errors += 1,
                Severity::Warning => s.warnings += 1,
                Severity::Info => s.info += 1,
            }
            if f.fix.is_some() {
                s.fixable += 1;
            }
        }
        self.summary = s;
    }

    /// Drop the findings below `min` (counted in `summary.hidden`) and recount the summary.
    pub fn keep_at_least(&mut self, min: Severity) {
        let before = self.findings.len();
        self.findings.retain(|f| f.severity >= min);
        self.summary.hidden += before - self.findings.len();
        self.finish();
    }

    /// The highest severity found.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// A path as the user should see it: relative to the working directory when inside it.
    pub fn display_path(&self, path: &str) -> String {
        display_path(&self.base_dir, path)
    }
}

/// Findings by file, position, rule and message; equal ones keep their order. A stable sort of
/// the findings themselves would take a buffer of half of them (they are a few hundred bytes
/// each): the order is found on their indexes and applied in place. The sort compares a small
/// key per finding (its file's rank among the distinct files, and its position) kept in one
/// array, and reads the findings only to break a tie of file and position: comparing paths and
/// following each finding's pointers made a run of 50,000 findings mostly cache misses.
fn sort_findings(findings: &mut [Finding]) {
    let mut rank_of: crate::engine::Map<&str, u32> = crate::engine::Map::default();
    let mut file: Vec<u32> = Vec::with_capacity(findings.len());
    let mut last: Option<(&str, u32)> = None;
    for f in findings.iter() {
        let id = match last {
            // Findings come grouped by file: most are the previous one's file.
            Some((p, id)) if p == f.path => id,
            _ => {
                let next = rank_of.len() as u32;
                *rank_of.entry(f.path.as_str()).or_insert(next)
            }
        };
        last = Some((f.path.as_str(), id));
        file.push(id);
    }
    // First-seen ids to ranks in path order.
    let mut paths: Vec<(&str, u32)> = rank_of.into_iter().collect();
    paths.sort_unstable();
    let mut rank = vec![0u32; paths.len()];
    for (r, (_, id)) in paths.iter().enumerate() {
        rank[*id as usize] = r as u32;
    }
    let mut keyed: Vec<(u32, usize, usize)> = findings
        .iter()
        .zip(&file)
        .enumerate()
        .map(|(i, (f, &id))| (rank[id as usize], f.span.as_ref().map_or(0, |s| s.start), i))
        .collect();
    drop(file);
    keyed.sort_unstable_by(|a, b| {
        (a.0, a.1).cmp(&(b.0, b.1)).then_with(|| {
            let (x, y) = (&findings[a.2], &findings[b.2]);
            (x.rule, &x.message).cmp(&(y.rule, &y.message)).then(a.2.cmp(&b.2))
        })
    });
    let mut order: Vec<usize> = keyed.into_iter().map(|k| k.2).collect();
    // `findings[i]` becomes the finding at `order[i]`, one cycle of the permutation at a time.
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != start && order[at] != usize::MAX {
            let from = order[at];
            findings.swap(at, from);
            order[at] = usize::MAX;
            at = from;
        }
        order[at] = usize::MAX;
    }
}

/// `path` relative to `base` when it lies inside it (lexically), else unchanged.
pub fn display_path(base: &str, path: &str) -> String {
    if base.is_empty() {
        return path.to_string();
    }
    if path == base {
        return ".".to_string();
    }
    let prefix = if base.ends_with(crate::engine::platform::SEP) {
        base.to_string()
    } else {
        format!("{base}{}", crate::engine::platform::SEP)
    };
    match path.strip_prefix(&prefix) {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The in-place order is the stable sort's, ties included (told apart by `help`).
    #[test]
    fn sort_findings_is_the_stable_sort() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for len in [0, 1, 2, 3, 10, 257] {
            let findings: Vec<Finding> = (0..len)
                .map(|i| {
                    let mut f = Finding::new(
                        [&crate::lint::check::UNKNOWN_KEY, &crate::lint::check::NAME_INVALID][next(2) as usize],
                        ["/a/SKILL.md", "/b/SKILL.md", "/c.md"][next(3) as usize],
                        format!("m{}", next(3)),
                        "",
                    );
                    f.span = (next(3) > 0).then(|| {
                        let at = next(4) as usize;
                        at..at + 1
                    });
                    f.help.push(i.to_string().into());
                    f
                })
                .collect();
            let mut stable = findings.clone();
            stable.sort_by(|a, b| {
                let pa = a.span.as_ref().map_or(0, |s| s.start);
                let pb = b.span.as_ref().map_or(0, |s| s.start);
                (&a.path, pa, a.rule, &a.message).cmp(&(&b.path, pb, b.rule, &b.message))
            });
            let mut ours = findings;
            sort_findings(&mut ours);
            assert_eq!(ours, stable, "{len} findings");
        }
    }
}
