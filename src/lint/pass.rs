//! Lint's per-file check inside discovery's pass ([`InPass`]) and inside the tree walk
//! ([`TreeCheck`]).

use super::Severity;
use super::check::CheckOptions;
pub use super::check::Walked;

/// Lint's per-file check as a discovery [`FileCheck`](crate::engine::discover::FileCheck): each file is
/// checked on the worker that read it, with discovery's bytes and YAML parse, which are then
/// dropped. A file with no finding and no suppression comment keeps no text either.
#[derive(Debug)]
pub struct InPass {
    pub opts: CheckOptions,
    /// The configuration's levels: findings it turns off (and that cannot decide whether the
    /// harness's rejection is reported apart) are dropped here, as lint would drop them.
    pub config: super::config::Config,
}

impl crate::engine::discover::FileCheck for InPass {
    fn check(&self, file: crate::engine::discover::FileToCheck<'_>) -> Box<dyn std::any::Any + Send> {
        let subject = super::subject::entry_subject(file.root, file.entry, file.path.to_string(), None);
        let mut result = super::check::check_bytes(&subject, file.bytes, file.yaml, &self.opts);
        keep_what_lint_needs(&mut result, &subject.path, &self.config, &self.opts.compat);
        Box::new(result)
    }
}

/// [`InPass`] for `dsh-skills lint` (and the language server) on the disk: a skill folder's
/// symbolic links are walked on the worker that read its `SKILL.md`, first, so that the check
/// answers "is it there" (Codex's `agents/openai.yaml`, a referenced file) from that walk's
/// listings instead of a stat, and lint's run has no second pass over the folders. The result
/// is a [`Walked`], as the tree walk's; [`unwrap_walked`] takes the links back out. (`diff`
/// reads a commit through an overlay, which the walk does not see: it keeps [`InPass`].)
#[derive(Debug)]
pub struct InPassWalked(pub InPass);

impl crate::engine::discover::FileCheck for InPassWalked {
    fn check(&self, file: crate::engine::discover::FileToCheck<'_>) -> Box<dyn std::any::Any + Send> {
        let InPass { opts, config } = &self.0;
        let subject = super::subject::entry_subject(file.root, file.entry, file.path.to_string(), None);
        let (links, listed) = super::bundle::check_symlinks_listed(&subject);
        let mut result = super::check::check_bytes_listed(&subject, file.bytes, file.yaml, opts, listed.as_ref());
        if let Some(listed) = listed {
            opts.neighbours.offer_from_root(&subject, listed);
        }
        keep_what_lint_needs(&mut result, &subject.path, config, &opts.compat);
        Box::new(Walked { result, links })
    }
}

/// Drop from a file's check what lint will not need once every file is checked: findings the
/// configuration turns off, and the text, or all of it past the last line a finding points
/// into. A file with no finding and no suppression comment keeps no text. Every file's result
/// is held until lint folds it into the report, so this is what keeps memory flat.
pub fn keep_what_lint_needs(
    result: &mut super::check::FileResult,
    path: &str,
    config: &crate::lint::config::Config,
    compat: &[super::Compat],
) {
    result.findings.retain(|f| f.severity == Severity::Error || config.level(f, compat).is_some());
    // Kept until lint folds it into the report, beside every other file's: no spare room.
    result.findings.shrink_to_fit();
    let Some(src) = &mut result.source else { return };
    // Suppression comments are matched against every finding, later: keep such a text.
    if result.frontmatter.as_ref().is_some_and(|fm| {
        let (sup, bad) = super::config::Suppressions::scan(src, fm.clone(), path);
        !sup.is_empty() || !bad.is_empty()
    }) || result.findings.iter().any(|f| f.fix.is_some() || f.path != path)
    {
        return;
    }
    if result.findings.is_empty() && result.harness_warning.is_none() {
        result.source = None;
        result.text_partial = true;
        return;
    }
    // Positions and snippets need the lines the findings point into (from the first line of a
    // finding's spans in this file to the line its last span ends on), and suppressions the
    // frontmatter; the rest goes.
    let spans: Vec<std::ops::Range<usize>> = result
        .findings
        .iter()
        .filter_map(|f| {
            let mut own =
                f.span.iter().chain(f.related.iter().filter(|r| r.path == f.path).filter_map(|r| r.span.as_ref()));
            let first = own.next()?.clone();
            Some(own.fold(first, |a, s| a.start.min(s.start)..a.end.max(s.end)))
        })
        .collect();
    let last = spans.iter().map(|s| s.end.max(s.start + 1) - 1).max();
    let cut = last.map_or(0, |at| src.end_of_line_at(at));
    let head = result.frontmatter.as_ref().map_or(0, |fm| fm.end);
    result.text_partial |= src.keep_lines(head, cut, &spans);
}

/// What [`TreeCheck::within`] checks with.
#[derive(Clone, Debug)]
pub struct TreeCheck {
    pub opts: CheckOptions,
    pub config: super::config::Config,
}

impl TreeCheck {
    /// The [`SkillCheck`](crate::analysis::tree::SkillCheck) that makes a [`Walked`] of each
    /// skill folder inside one of `within` (of every one when it is empty).
    pub fn within(&self, within: Vec<String>) -> crate::analysis::tree::SkillCheck {
        let TreeCheck { opts, config } = self.clone();
        std::sync::Arc::new(move |dir: &str| {
            if !within.is_empty() && !within.iter().any(|w| crate::engine::platform::inside(dir, w)) {
                return None;
            }
            let subject = super::subject::folder_subject(dir);
            let (links, listed) = super::bundle::check_symlinks_listed(&subject);
            let mut result = super::check::check_file_listed(&subject, &opts, listed.as_ref());
            if let Some(listed) = listed {
                opts.neighbours.offer(&subject, listed);
            }
            keep_what_lint_needs(&mut result, &subject.path, &config, &opts.compat);
            Some(Box::new(Walked { result, links }) as Box<dyn std::any::Any + Send>)
        })
    }
}

/// A subject the tree walk (or [`InPassWalked`]) checked holds a [`Walked`]: its folder's
/// symbolic-link findings are taken out of it, in place (the file's result stays where it is,
/// for [`check_file`](super::check::check_file), without a second allocation per file).
pub fn unwrap_walked(subject: &super::check::Subject) -> Option<Vec<super::Finding>> {
    subject.checked.as_ref()?.peek_mut(|r| r.downcast_mut::<Walked>().map(|w| std::mem::take(&mut w.links)))?
}
