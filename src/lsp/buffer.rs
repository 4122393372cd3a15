//! Lint one skill file from text that is not (or not yet) on disk: an editor's unsaved buffer.
//!
//! The whole-discovery part of a lint run (the roots, which copy wins, shadowing, duplicate
//! names, folders the harness does not scan) is computed once by [`Discovery::new`] and kept;
//! each buffer is then checked on its own by the same per-file rules, suppressions and
//! configured levels as [`crate::lint::run::lint`] ([`crate::lint::run::lint_targets`]), with the
//! discovery's findings about that file added. Nothing here reads the file being edited.

use crate::engine::discover::Environment;
use crate::engine::platform;
use crate::engine::snapshot::{Settings, Snapshot};
use crate::lint::run::{self as command, Options, Run};
use crate::lint::subject::{Subject, SubjectKind};
use crate::lint::{Finding, targets};
use std::collections::HashMap;

/// One discovery for the session cwd, as `lint` with no paths sees it.
pub struct Discovery {
    pub snapshot: Snapshot,
    /// The skill files the harness opens, by harness path (without their bytes).
    pub subjects: HashMap<String, Subject>,
    /// Entry-level and whole-discovery findings, by the path they are about.
    pub findings: HashMap<String, Vec<Finding>>,
    /// `false` when the harness's discovery fails as a whole.
    pub complete: bool,
}

impl Discovery {
    /// Discover for `settings.cwd` exactly as `dsh-skills lint` (no paths) does.
    pub fn new(settings: &Settings, env: &Environment, opts: &Options) -> Discovery {
        let start =
            settings.cwd.as_deref().map_or_else(|| env.process_cwd.clone(), |c| platform::resolve(&env.process_cwd, c));
        let intentional = opts.config.unscanned_ok_paths(&start);
        let mut settings = settings.clone();
        settings.scan.check = None;
        let snapshot = Snapshot::discover(&settings, env);
        let mut t = targets::from_snapshot(&snapshot);
        t.findings.extend(targets::unscanned_findings(
            &crate::analysis::unscanned::search(&snapshot, &env.home, &intentional),
            None,
        ));
        let mut findings: HashMap<String, Vec<Finding>> = HashMap::new();
        for f in t.findings {
            findings.entry(f.path.clone()).or_default().push(f);
        }
        let subjects = t.subjects.into_iter().map(|s| (s.path.clone(), s)).collect();
        Discovery { snapshot, subjects, findings, complete: t.complete }
    }

    /// The subject for `path`: the harness's own when discovery opens that file, else the file
    /// taken as `dsh-skills lint <path>` takes it (a `SKILL.md` as its folder's skill, another
    /// `.md` file as a flat skill of its folder). `None` for a file no skill can be.
    pub fn subject(&self, path: &str) -> Option<Subject> {
        if let Some(s) = self.subjects.get(path) {
            return Some(Subject { checked: None, ..s.clone() });
        }
        Discovery::subject_for_path(path)
    }

    /// A file taken as `dsh-skills lint <path>` takes it.
    pub fn subject_for_path(path: &str) -> Option<Subject> {
        let name = basename(path);
        let parent = platform::dirname(path);
        let kind = if name == "SKILL.md" {
            SubjectKind::Bundle { dir: parent.clone(), entry: basename(&parent).to_string() }
        } else if name.ends_with(".md") {
            SubjectKind::Flat { root: parent, entry: name.to_string() }
        } else {
            return None;
        };
        Some(Subject { path: path.to_string(), kind, node_mode: false, checked: None })
    }

    /// `true` when the harness opens `path` as a skill file.
    pub fn is_discovered(&self, path: &str) -> bool {
        self.subjects.contains_key(path)
    }
}

/// Lint `bytes` as the file `subject.path`, with the discovery's findings about that file
/// (none before the first discovery is done).
pub fn lint_buffer(
    discovery: Option<&Discovery>,
    mut subject: Subject,
    bytes: Vec<u8>,
    settings: &Settings,
    env: &Environment,
    opts: &Options,
) -> Run {
    // The buffer is checked here, as discovery's pass checks a file it reads; the fold in
    // `lint_targets` takes the result from the subject.
    let result = crate::lint::check::check_bytes(&subject, bytes.into(), None, &opts.check_options(settings));
    subject.checked = Some(std::sync::Arc::new(crate::engine::discover::Checked::new(Box::new(result))));
    let mut t = targets::Targets::default();
    t.complete = discovery.is_none_or(|d| d.complete);
    if let Some(d) = discovery {
        t.findings = d.findings.get(&subject.path).cloned().unwrap_or_default();
        // A folder the harness does not scan is reported on the folder; the files in it are
        // where the author needs to hear it.
        let base = subject.base_dir().to_string();
        for dir in [platform::dirname(&base), base] {
            let about_folder = d.findings.get(&dir).into_iter().flatten();
            t.findings
                .extend(about_folder.filter(|f| f.rule == &crate::lint::targets::UNSCANNED_SKILL_FOLDER).cloned());
        }
    }
    t.subjects.push(subject);
    command::lint_targets(t, settings, env, opts)
}

fn basename(p: &str) -> &str {
    p.trim_end_matches(platform::SEP).rsplit(platform::SEP).next().unwrap_or("")
}
