//! Lint baselines: `lint --write-baseline FILE` records the findings a repository has today;
//! `lint --baseline FILE` leaves those out and reports only new ones.
//!
//! A finding is known when an entry has its rule, its path (relative to the baseline file's
//! folder, `/`-separated) and its fingerprint: a hash of the rule and the offending text (the
//! trimmed lines its span covers, and the span itself), so an entry survives lines moving
//! above or below it and the file being re-indented, and a finding about other text is new.
//! A finding with no span, or whose span is only a position (empty, or `body-too-long`'s and `frontmatter-missing`'s), is
//! fingerprinted by its message, with the baseline folder written as `.` and each run of digits
//! as `#` (`the body is 570 lines` stays known when the body grows). Identical findings in one file are one entry with a `count`.
//!
//! The file is JSON sorted by path, rule and fingerprint, one entry per line group, with no
//! version or date in it, so that writing it again over an unchanged tree changes nothing and a
//! pull request that adds an entry shows one hunk. `schemas/baseline.schema.json` describes it.

use super::{Finding, Report, SourceText};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The only layout version so far.
pub const VERSION: u32 = 1;

/// A baseline file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Baseline {
    /// The version of this file's layout (1).
    pub schema_version: u32,
    /// The known findings, sorted by path, rule and fingerprint.
    pub findings: Vec<Entry>,
}

/// One known finding (or `count` identical ones).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Entry {
    /// The file the finding is about, relative to the baseline file's folder with `/`
    /// separators (absolute when it lies outside that folder).
    pub path: String,
    /// The rule id.
    pub rule: String,
    /// 16 hex digits: SHA-256 of the rule and the offending text. Not a line number: lines
    /// moving do not change it.
    pub fingerprint: String,
    /// How many identical findings this entry stands for (1 when absent).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(range(min = 1))]
    pub count: usize,
    /// The finding's message when it was recorded, for the reviewer (not used for matching).
    pub message: String,
}

fn one() -> usize {
    1
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

/// What applying a baseline did, for the renderers.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// The baseline file, as given on the command line.
    pub file: String,
    /// `true` when this run wrote it (`--write-baseline`).
    pub written: bool,
    /// Findings left out because the baseline knows them.
    pub known: usize,
    /// Entries whose finding is gone from a file that was linted: fixed. `--write-baseline`
    /// drops them.
    pub fixed: Vec<Entry>,
    /// Entries for a file that no longer exists or a rule that no longer exists.
    pub stale: Vec<Entry>,
}

impl Outcome {
    /// `12 known findings not shown (baseline b.json); 1 baseline entry fixed, 1 stale`.
    pub fn summary(&self) -> String {
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut line = if self.written {
            format!(
                "wrote the baseline {} ({}), not shown",
                self.file,
                plural(self.known, "known finding", "known findings")
            )
        } else {
            format!("{} not shown (baseline {})", plural(self.known, "known finding", "known findings"), self.file)
        };
        let fixed: usize = self.fixed.iter().map(|e| e.count).sum();
        let stale: usize = self.stale.iter().map(|e| e.count).sum();
        if fixed + stale > 0 {
            line.push_str(&format!(
                "; {} fixed, {} stale (`--write-baseline {}` drops them)",
                plural(fixed, "baseline entry", "baseline entries"),
                stale,
                self.file
            ));
        }
        line
    }

    /// One line per fixed or stale entry: `fixed: path: rule: message`.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (word, entries) in [("fixed", &self.fixed), ("stale", &self.stale)] {
            for e in entries {
                let times = if e.count > 1 { format!(" (×{})", e.count) } else { String::new() };
                out.push(format!("baseline entry {word}: {}: {}{times}: {}", e.path, e.rule, e.message));
            }
        }
        out
    }
}

/// A finding's key in a baseline whose file lies in `base_dir`.
fn key(f: &Finding, src: Option<&SourceText>, base_dir: &str) -> (String, String) {
    (entry_path(&f.path, base_dir), fingerprint(f, src, base_dir))
}

/// `path` as a baseline in `base_dir` writes it.
pub fn entry_path(path: &str, base_dir: &str) -> String {
    let rel = super::display_path(base_dir, path);
    if cfg!(windows) { rel.replace('\\', "/") } else { rel }
}

/// Rules whose span is a position, not the offending text (`body-too-long` points at the first
/// line past the limit, whatever it holds; `frontmatter-missing` at the file's first character):
/// fingerprinted by their message, as findings with an empty span are.
const POSITIONAL: &[&super::rules::Rule] =
    &[&crate::lint::check::BODY_TOO_LONG, &crate::lint::check::FRONTMATTER_MISSING];

/// The fingerprint of a finding: SHA-256 of the rule and the offending text, 16 hex digits.
pub fn fingerprint(f: &Finding, src: Option<&SourceText>, base_dir: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(f.rule.id.as_bytes());
    h.update([0]);
    match (src, &f.span) {
        (Some(src), Some(span)) if !span.is_empty() && !POSITIONAL.contains(&f.rule) => {
            let span = src.clamp(span);
            let first = src.line_of(span.start);
            let last = src.line_of(span.end.max(span.start + 1).min(src.len().max(1)) - 1).max(first);
            for line in first..=last {
                h.update(src.slice(src.line_range(line)).unwrap_or_default().trim().as_bytes());
                h.update([b'\n']);
            }
            h.update([0]);
            h.update(src.slice(span).unwrap_or_default().as_bytes());
        }
        _ => {
            let message = if base_dir.is_empty() { f.message.clone() } else { f.message.replace(base_dir, ".") };
            // Counts in a message (`the body is 570 lines`) change with edits that are not
            // this finding's business: every run of digits reads as `#`.
            let mut last_digit = false;
            for c in message.chars() {
                let digit = c.is_ascii_digit();
                if !digit {
                    let mut buf = [0; 4];
                    h.update(c.encode_utf8(&mut buf).as_bytes());
                } else if !last_digit {
                    h.update(b"#");
                }
                last_digit = digit;
            }
        }
    }
    let digest = h.finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

impl Baseline {
    /// The baseline of every finding of `report`, for a file in `base_dir`.
    pub fn of(report: &Report, base_dir: &str) -> Baseline {
        let mut entries: BTreeMap<(String, String, String), Entry> = BTreeMap::new();
        for f in &report.findings {
            let (path, fp) = key(f, report.files.get(&f.path), base_dir);
            entries.entry((path.clone(), f.rule.to_string(), fp.clone())).and_modify(|e| e.count += 1).or_insert_with(
                || Entry { path, rule: f.rule.to_string(), fingerprint: fp, count: 1, message: f.message.clone() },
            );
        }
        Baseline { schema_version: VERSION, findings: entries.into_values().collect() }
    }

    /// Read a baseline file's text; the error says what is wrong, for a message naming the file.
    pub fn parse(text: &str) -> Result<Baseline, String> {
        let b: Baseline = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if b.schema_version != VERSION {
            return Err(format!(
                "schemaVersion {} is not one this dsh-skills reads (it reads {VERSION})",
                b.schema_version
            ));
        }
        if let Some(e) = b.findings.iter().find(|e| e.count == 0) {
            return Err(format!("the entry for {} ({}) has count 0", e.path, e.rule));
        }
        Ok(b)
    }

    /// The file's text: pretty JSON, sorted, with a final newline.
    pub fn text(&self) -> String {
        let mut b = self.clone();
        b.findings.sort_by(|a, b| (&a.path, &a.rule, &a.fingerprint).cmp(&(&b.path, &b.rule, &b.fingerprint)));
        let mut s = serde_json::to_string_pretty(&b).expect("a baseline serializes");
        s.push('\n');
        s
    }

    /// Leave out of `report` the findings this baseline knows, and say which entries matched
    /// nothing. `linted(path)` tells whether the run looked at an entry's file (an entry for a
    /// file outside the run is neither fixed nor stale); `exists(path)` whether it is still there.
    pub fn apply(
        &self,
        report: &mut Report,
        base_dir: &str,
        file: &str,
        linted: &dyn Fn(&str) -> bool,
        exists: &dyn Fn(&str) -> bool,
    ) -> Outcome {
        let mut left: HashMap<(String, String, String), usize> = HashMap::new();
        for e in &self.findings {
            *left.entry((e.path.clone(), e.rule.clone(), e.fingerprint.clone())).or_default() += e.count;
        }
        let mut known = 0;
        let mut findings = std::mem::take(&mut report.findings);
        findings.retain(|f| {
            let (path, fp) = key(f, report.files.get(&f.path), base_dir);
            match left.get_mut(&(path, f.rule.to_string(), fp)) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    known += 1;
                    false
                }
                _ => true,
            }
        });
        report.findings = findings;
        report.finish();
        let mut outcome = Outcome { file: file.to_string(), known, ..Outcome::default() };
        for e in &self.findings {
            // Taken once per key (two entries with one key share its count).
            let Some(n) = left.remove(&(e.path.clone(), e.rule.clone(), e.fingerprint.clone())) else { continue };
            if n == 0 {
                continue;
            }
            let abs = if std::path::Path::new(&e.path).is_absolute() {
                e.path.clone()
            } else {
                crate::engine::platform::resolve(base_dir, &e.path)
            };
            let unmatched = Entry { count: n, ..e.clone() };
            if super::rules::find(&e.rule).is_none() || !exists(&abs) {
                outcome.stale.push(unmatched);
            } else if linted(&abs) {
                outcome.fixed.push(unmatched);
            }
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(text: &str, spans: &[(&'static crate::lint::rules::Rule, std::ops::Range<usize>)]) -> Report {
        let mut r = Report::default();
        r.files.insert("/p/a/SKILL.md".into(), SourceText::new(text.into(), true));
        for (rule, span) in spans {
            r.findings.push(Finding::new(rule, "/p/a/SKILL.md", "m", "").at(span.clone()));
        }
        r.finish();
        r
    }

    #[test]
    fn moving_lines_keeps_the_fingerprint_and_other_text_changes_it() {
        let a = report("---\nname: a\nfoo: 1\n---\n", &[(&crate::lint::check::UNKNOWN_KEY, 12..15)]);
        let b = report("---\n\n\nname: a\n  foo: 1\n---\n", &[(&crate::lint::check::UNKNOWN_KEY, 16..19)]);
        let c = report("---\nname: a\nbar: 1\n---\n", &[(&crate::lint::check::UNKNOWN_KEY, 12..15)]);
        let fp = |r: &Report| Baseline::of(r, "/p").findings[0].fingerprint.clone();
        assert_eq!(fp(&a), fp(&b));
        assert_ne!(fp(&a), fp(&c));
        assert_eq!(Baseline::of(&a, "/p").findings[0].path, "a/SKILL.md");
    }

    #[test]
    fn identical_findings_are_counted_and_a_third_is_new() {
        let two =
            report("x\nx\n", &[(&crate::lint::check::UNKNOWN_KEY, 0..1), (&crate::lint::check::UNKNOWN_KEY, 2..3)]);
        let b = Baseline::of(&two, "/p");
        assert_eq!(b.findings.len(), 1);
        assert_eq!(b.findings[0].count, 2);
        let mut three = report(
            "x\nx\nx\n",
            &[
                (&crate::lint::check::UNKNOWN_KEY, 0..1),
                (&crate::lint::check::UNKNOWN_KEY, 2..3),
                (&crate::lint::check::UNKNOWN_KEY, 4..5),
            ],
        );
        let out = b.apply(&mut three, "/p", "b.json", &|_| true, &|_| true);
        assert_eq!((out.known, three.findings.len()), (2, 1));
        let again = Baseline::parse(&b.text()).unwrap();
        assert_eq!(again, b);
    }

    #[test]
    fn unmatched_entries_are_fixed_or_stale() {
        let b = Baseline::of(&report("x\n", &[(&crate::lint::check::UNKNOWN_KEY, 0..1)]), "/p");
        let mut none = report("y\n", &[]);
        let out = b.apply(&mut none, "/p", "b.json", &|_| true, &|_| true);
        assert_eq!((out.fixed.len(), out.stale.len()), (1, 0));
        let out = b.apply(&mut none, "/p", "b.json", &|_| true, &|_| false);
        assert_eq!((out.fixed.len(), out.stale.len()), (0, 1));
        let out = b.apply(&mut none, "/p", "b.json", &|_| false, &|_| true);
        assert_eq!((out.fixed.len(), out.stale.len()), (0, 0));
    }
}
