//! Every lint rule, once: id, default severity, what it checks, why, and how to fix it.
//!
//! Ids are stable kebab-case strings; the same string appears in human output
//! (`error[yaml-syntax]`), JSON (`"rule"`), SARIF (`ruleId`), the configuration file, the
//! frontmatter suppressions and `dsh-skills lint --explain <rule>`.
//!
//! Each rule is declared next to its check, in the family file that raises it, with
//! [`declare_rules!`]: a `static` named after the id (`check::NAME_REQUIRED` is
//! `name-required`), which a finding holds ([`super::Finding::rule`]), so a misspelt rule does
//! not compile. The families, by what they read: [`super::check`] (the file and its
//! frontmatter), [`super::content`] (the body and values), [`super::bundle`] (the skill's
//! folder on disk), [`super::targets`] (root entries and repository folders),
//! [`super::manifest`] and [`super::codex`] (other agents' packaging), [`super::config`]
//! (the configuration file and suppressions) and [`super::run`] (the whole run). [`all`] lists
//! them together; adding a rule touches its family file and its fixture.

use super::{Compat, Severity};

/// Which group a rule belongs to (for the README table and `--explain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// The harness skips the file, or discovery fails.
    Skipped,
    /// The skill loads but is probably not what the author meant.
    Suspicious,
    /// Portability with other agents; off unless `--compat` (or the configuration) enables it.
    Portability,
}

/// A lint rule: a `static` in its family file (see the module docs), compared by id.
#[derive(Clone, Copy)]
pub struct Rule {
    pub id: &'static str,
    /// The default severity. A few rules use another one for some findings; `note` says when.
    pub severity: Severity,
    pub group: Group,
    /// One line: what the rule checks.
    pub summary: &'static str,
    /// One paragraph: why it matters and what the harness does.
    pub explanation: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    /// When the severity differs from the default.
    pub note: Option<&'static str>,
    /// The agents this portability rule applies to (empty for harness rules).
    pub compat: &'static [Compat],
    /// `--fix` can fix some findings of this rule.
    pub fixable: bool,
}

pub const fn rule(
    id: &'static str,
    severity: Severity,
    group: Group,
    summary: &'static str,
    explanation: &'static str,
    fix: &'static str,
) -> Rule {
    Rule { id, severity, group, summary, explanation, fix, note: None, compat: &[], fixable: false }
}

pub const fn fixable(mut r: Rule) -> Rule {
    r.fixable = true;
    r
}

pub const fn noted(mut r: Rule, note: &'static str) -> Rule {
    r.note = Some(note);
    r
}

pub const fn compat(mut r: Rule, targets: &'static [Compat]) -> Rule {
    r.compat = targets;
    r
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        self.id == other.id
    }
}

impl Eq for Rule {}

impl std::hash::Hash for Rule {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.id.hash(h);
    }
}

impl PartialOrd for Rule {
    fn partial_cmp(&self, other: &Rule) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// By id, as the findings of a run are sorted.
impl Ord for Rule {
    fn cmp(&self, other: &Rule) -> std::cmp::Ordering {
        self.id.cmp(other.id)
    }
}

/// The id (padded as a `str` is, for tables).
impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.id)
    }
}

/// The id only: a finding's debug output stays short.
impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rule({})", self.id)
    }
}

/// What a rule's declaration is written with: the builders, the groups, the levels.
pub mod prelude {
    pub use super::Group::{Portability, Skipped, Suspicious};
    pub use super::{Rule, compat, fixable, noted, rule};
    pub use crate::lint::Compat;
    pub use crate::lint::Severity::{Error, Info, Warning};
}

/// Declares a family's rules, each `NAME = <builder expression>;`: a `pub static NAME: Rule`
/// per rule, and the family's `RULES` in the order declared, which [`all`] gathers.
macro_rules! declare_rules {
    ($($(#[$attr:meta])* $name:ident = $def:expr;)*) => {
        $(
            $(#[$attr])*
            pub static $name: $crate::lint::rules::Rule = {
                #[allow(unused_imports)]
                use $crate::lint::rules::prelude::*;
                $def
            };
        )*
        /// This family's rules, in the order declared.
        pub static RULES: &[&$crate::lint::rules::Rule] = &[$(&$name),*];
    };
}
pub(crate) use declare_rules;

/// Every rule: grouped (the harness skips the file, then suspicious, then portability), and in
/// each group by family and then in the order each family declares them. The README table,
/// `--explain all`, SARIF's rule list and completions use this order.
pub fn all() -> &'static [&'static Rule] {
    static ALL: std::sync::LazyLock<Vec<&'static Rule>> = std::sync::LazyLock::new(|| {
        let mut all: Vec<&'static Rule> = super::RULE_FAMILIES.iter().copied().flatten().copied().collect();
        all.sort_by_key(|r| r.group as u8);
        all
    });
    &ALL
}

/// The rule with this id.
pub fn find(id: &str) -> Option<&'static Rule> {
    all().iter().find(|r| r.id == id).copied()
}

/// Rule ids close to `id`, for "did you mean".
pub fn similar(id: &str) -> Vec<&'static str> {
    let mut scored: Vec<(usize, &'static str)> = all()
        .iter()
        .map(|r| (crate::analysis::suggest::edit_distance(r.id, id), r.id))
        .filter(|(d, rid)| *d <= 3 || rid.contains(id) || (!id.is_empty() && id.contains(rid)))
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, r)| r).collect()
}

/// The explanation of a rule as plain text, for `--explain`.
pub fn explain_text(r: &Rule) -> String {
    let mut s = format!("{} ({})\n\n{}\n\n", r.id, level_text(r), r.summary);
    s.push_str(&wrap(r.explanation, 90));
    s.push_str("\n\nFix: ");
    s.push_str(r.fix);
    s.push('\n');
    s
}

/// `error`, `warning (error in ...)`, `off; warning with --compat agentskills, codex`.
pub fn level_text(r: &Rule) -> String {
    let mut s = if r.compat.is_empty() {
        r.severity.as_str().to_string()
    } else {
        let targets: Vec<&str> = r.compat.iter().map(|c| c.as_str()).collect();
        format!("off; {} with --compat {}", r.severity.as_str(), targets.join("|"))
    };
    if let Some(note) = r.note {
        s.push_str("; ");
        s.push_str(note);
    }
    if r.fixable {
        s.push_str("; fixable");
    }
    s
}

/// Greedy word wrap (explanations are plain ASCII-ish prose).
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        let w = word.chars().count();
        if line > 0 && line + 1 + w > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += w;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for r in all() {
            assert!(seen.insert(r.id), "duplicate rule id {}", r.id);
            assert!(
                r.id.split('-')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
                "{} is not kebab-case",
                r.id
            );
            assert!(r.summary.ends_with('.') && r.explanation.len() > 80, "{} needs a real explanation", r.id);
            assert_eq!(r.group == Group::Portability, !r.compat.is_empty(), "{}", r.id);
        }
    }

    #[test]
    fn suggestions() {
        assert_eq!(similar("yaml-sintax"), ["yaml-syntax"]);
        assert!(similar("zzzzzzzzzzzzzz").is_empty());
    }
}
