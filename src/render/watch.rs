//! `dsh-skills watch` output: one JSON object per event (JSON Lines, [`WatchEventDoc`], schema
//! `dsh-skills schema watch`), and the human event lines.

use super::envelope::{SCHEMA_VERSION, Tool};
use crate::engine::watch::fs::Mode;
use crate::engine::watch::{Diff, Emit, Event, Outcome, Quiet, RootWatch, SkillEvent, Trigger};
use crate::render::term::{Term, safe};
use owo_colors::Style;
use schemars::JsonSchema;
use serde::Serialize;

/// One line of `watch --format json`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WatchEventDoc {
    schema_version: u32,
    tool: Tool,
    /// When the event was printed (RFC 3339, UTC).
    time: String,
    #[serde(flatten)]
    body: Body,
}

/// The events, told apart by `event`.
#[derive(Serialize, JsonSchema)]
#[serde(tag = "event", rename_all = "kebab-case")]
enum Body {
    /// The roots and how each is observed: at the start, and whenever that changes (a root
    /// appears or disappears).
    Watching { roots: Vec<RootOut> },
    /// The session's next step: what it would inject, and why.
    Catalog(Box<CatalogOut>),
    /// With `--skill NAME`: the `skill` tool's result for NAME changed (or, at the start, what
    /// it is).
    Skill(SkillOut),
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct RootOut {
    path: String,
    source: &'static str,
    /// `watched`: its canonical folder (`anchor`) is watched; `ancestor`: it does not exist, and
    /// `polled` (the next segment below its nearest existing folder) is polled; `error`: it
    /// cannot be observed (`error` says why).
    mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    anchor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    polled: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
enum OutcomeOut {
    /// The first catalog of the session (`dsh-skills catalog` prints the same text).
    Initial,
    /// A replacement catalog (`dsh-skills catalog --update` prints the same text).
    Replacement,
    /// The empty replacement: no model-invocable skill is left.
    EmptyReplacement,
    /// No message (see `reason`).
    Nothing,
    /// Discovery is incomplete: no message, the model keeps the previous catalog (`failures`).
    Incomplete,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
enum ReasonOut {
    /// The entries' digest is the one the session already shows.
    DigestUnchanged,
    /// No catalog was published yet and there is still no model-invocable skill.
    NoModelInvocableSkill,
    /// The `skill` tool is not mounted: the model gets no catalog.
    NoSkillTool,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct CatalogOut {
    /// `start` for the session's first step, `change` after settled changes.
    trigger: &'static str,
    /// The changed paths, as the watcher reported them.
    changed: Vec<String>,
    outcome: OutcomeOut,
    /// With `outcome` nothing.
    reason: Option<ReasonOut>,
    /// The injected message, byte for byte; null when nothing is injected.
    text: Option<String>,
    /// The entries of the catalog discovery now gives (descriptions normalized, cut and
    /// unescaped); null when discovery is incomplete.
    entries: Option<Vec<EntryOut>>,
    /// SHA-256 of `entries`, as the harness computes it; null when the session gets no catalog
    /// and has none (discovery incomplete, or nothing published yet and nothing to publish), as
    /// `catalog --format json` says null with no text.
    digest: Option<String>,
    /// Entries that differ from the catalog the session shows.
    diff: DiffOut,
    /// With `outcome` incomplete: each failure, as the harness logs it.
    failures: Vec<String>,
    /// What changed that the catalog does not show (a body, `whenToUse`, a shadowed copy).
    notes: Vec<String>,
    /// Harness log lines this evaluation wrote that the previous one did not.
    warnings: Vec<String>,
    /// What this evaluation listed and read again (only what changed).
    reread: RereadOut,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct EntryOut {
    name: String,
    description: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct DiffOut {
    added: Vec<String>,
    removed: Vec<String>,
    description_changed: Vec<String>,
    /// Entries now cut at the maximum length, or no longer cut.
    cut_changed: Vec<String>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct RereadOut {
    /// Roots listed again.
    roots: usize,
    /// Skill files read and parsed again.
    files: usize,
    /// Skill files whose earlier reading was still valid.
    reused: usize,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SkillOut {
    name: String,
    /// `start` for the value at the start, `change` when it changed.
    trigger: &'static str,
    /// Whether the tool succeeds.
    ok: bool,
    /// The tool's text: the `<skill_content>` block (`show NAME --rendered` prints the same),
    /// or the error the model reads.
    text: String,
}

fn diff_out(d: &Diff) -> DiffOut {
    DiffOut {
        added: d.added.clone(),
        removed: d.removed.clone(),
        description_changed: d.description_changed.clone(),
        cut_changed: d.cut_changed.clone(),
    }
}

fn now_rfc3339() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// The JSON document of one event.
pub fn json(emit: &Emit) -> WatchEventDoc {
    let body = match emit {
        Emit::Watching(roots) => Body::Watching { roots: roots.iter().map(root_out).collect() },
        Emit::Catalog(e) => Body::Catalog(Box::new(catalog_out(e))),
        Emit::Skill(s) => Body::Skill(SkillOut {
            name: s.name.clone(),
            trigger: if s.start { "start" } else { "change" },
            ok: s.result.is_ok(),
            text: match &s.result {
                Ok(t) | Err(t) => t.clone(),
            },
        }),
    };
    WatchEventDoc { schema_version: SCHEMA_VERSION, tool: Tool::THIS, time: now_rfc3339(), body }
}

fn root_out(r: &RootWatch) -> RootOut {
    let (mode, anchor, polled, error) = match &r.mode {
        Ok(Mode::Root { anchor }) => ("watched", Some(anchor.clone()), None, None),
        Ok(Mode::Ancestor { anchor, next }) => ("ancestor", Some(anchor.clone()), Some(next.clone()), None),
        Err(e) => ("error", None, None, Some(e.clone())),
    };
    RootOut { path: r.path.clone(), source: r.source, mode, anchor, polled, error }
}

fn catalog_out(e: &Event) -> CatalogOut {
    let (outcome, reason) = match e.outcome {
        Outcome::Initial => (OutcomeOut::Initial, None),
        Outcome::Replacement => (OutcomeOut::Replacement, None),
        Outcome::EmptyReplacement => (OutcomeOut::EmptyReplacement, None),
        Outcome::Incomplete => (OutcomeOut::Incomplete, None),
        Outcome::Nothing(q) => (
            OutcomeOut::Nothing,
            Some(match q {
                Quiet::Unchanged => ReasonOut::DigestUnchanged,
                Quiet::NoModelInvocableSkill => ReasonOut::NoModelInvocableSkill,
                Quiet::NoSkillTool => ReasonOut::NoSkillTool,
            }),
        ),
    };
    let (trigger, changed) = match &e.trigger {
        Trigger::Start => ("start", Vec::new()),
        Trigger::Change(paths) => ("change", paths.clone()),
    };
    CatalogOut {
        trigger,
        changed,
        outcome,
        reason,
        text: e.text.clone(),
        entries: e.entries.as_ref().map(|es| {
            es.iter().map(|x| EntryOut { name: x.name.clone(), description: x.description.to_string_lossy() }).collect()
        }),
        digest: e.digest.clone(),
        diff: diff_out(&e.diff),
        failures: e.failures.clone(),
        notes: e.notes.clone(),
        warnings: e.warnings.clone(),
        reread: RereadOut { roots: e.stats.listed, files: e.stats.read, reused: e.stats.reused },
    }
}

/// The schema of one line.
pub fn schema() -> schemars::Schema {
    super::envelope::generate::<WatchEventDoc>()
}

/// The human line of a root table at the start (stderr).
pub fn human_watching(roots: &[RootWatch], t: &Term) -> String {
    let mut out = String::new();
    let watched = roots.iter().filter(|r| matches!(r.mode, Ok(Mode::Root { .. }))).count();
    let missing =
        if watched < roots.len() { " (a missing root is polled from its nearest existing folder)" } else { "" };
    out.push_str(&format!("{} {watched} of {} roots{missing}; Ctrl-C stops\n", t.bold("watching"), roots.len()));
    for r in roots {
        let how = match &r.mode {
            Ok(Mode::Root { .. }) => "watched".to_string(),
            Ok(Mode::Ancestor { next, .. }) => format!("missing; polling {}", safe(next)),
            Err(e) => format!("cannot be watched: {}", safe(e)),
        };
        out.push_str(&format!("  {:<15} {}  {}\n", r.source, safe(&r.path), t.dim(&how)));
    }
    out
}

fn clock() -> String {
    let tz = jiff::tz::TimeZone::try_system().unwrap_or(jiff::tz::TimeZone::UTC);
    tz.to_datetime(jiff::Timestamp::now()).strftime("%H:%M:%S").to_string()
}

/// The one-line diff: `+added -removed ~changed`.
pub fn diff_line(d: &Diff) -> String {
    let mut parts = Vec::new();
    if !d.added.is_empty() {
        parts.push(format!("added {}", d.added.join(", ")));
    }
    if !d.removed.is_empty() {
        parts.push(format!("removed {}", d.removed.join(", ")));
    }
    let desc: Vec<&String> = d.description_changed.iter().filter(|n| !d.cut_changed.contains(n)).collect();
    if !desc.is_empty() {
        parts.push(format!("description changed: {}", desc.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")));
    }
    if !d.cut_changed.is_empty() {
        parts.push(format!("description changed, cut changed: {}", d.cut_changed.join(", ")));
    }
    parts.join("; ")
}

/// The human lines of a catalog event (stdout); the message text itself is written apart.
pub fn human_event(e: &Event, t: &Term) -> String {
    let count = e.entries.as_ref().map_or(0, Vec::len);
    let n = format!("{count} {}", if count == 1 { "entry" } else { "entries" });
    let digest = e.digest.as_deref().map(|d| &d[..12.min(d.len())]).unwrap_or("");
    let (head, style, rest) = match e.outcome {
        Outcome::Initial => ("initial catalog", Style::new().green().bold(), format!("{n}, digest {digest}")),
        Outcome::Replacement => {
            ("replacement", Style::new().green().bold(), format!("{} ({n}, digest {digest})", diff_line(&e.diff)))
        }
        Outcome::EmptyReplacement => (
            "empty replacement",
            Style::new().yellow().bold(),
            format!("no model-invocable skill is left ({})", diff_line(&e.diff)),
        ),
        Outcome::Nothing(Quiet::Unchanged) => {
            ("nothing", Style::new().dimmed(), "the catalog is unchanged (same digest)".to_string())
        }
        Outcome::Nothing(Quiet::NoModelInvocableSkill) => (
            "nothing",
            Style::new().dimmed(),
            "no catalog yet: no model-invocable skill (the harness publishes none)".to_string(),
        ),
        Outcome::Nothing(Quiet::NoSkillTool) => (
            "nothing",
            Style::new().dimmed(),
            "the `skill` tool is not mounted, so the model gets no catalog".to_string(),
        ),
        Outcome::Incomplete => (
            "incomplete",
            Style::new().red().bold(),
            "discovery failed, so the model keeps the previous catalog".to_string(),
        ),
    };
    let mut out = format!("{} {}: {}\n", t.dim(&clock()), t.paint(head, style), rest);
    if let Trigger::Change(paths) = &e.trigger {
        for p in paths.iter().take(5) {
            out.push_str(&format!("  {} {}\n", t.dim("changed"), safe(p)));
        }
        if paths.len() > 5 {
            out.push_str(&format!("  {} and {} more\n", t.dim("changed"), paths.len() - 5));
        }
    }
    for f in &e.failures {
        out.push_str(&format!("  {} {}\n", t.paint("failure", Style::new().red()), lines(f, 10)));
    }
    for note in &e.notes {
        out.push_str(&format!("  {} {}\n", t.dim("note"), lines(note, 7)));
    }
    for w in &e.warnings {
        out.push_str(&format!("  {} {}\n", t.paint("warning", Style::new().yellow()), lines(w, 10)));
    }
    out
}

/// A harness message as `list` shows it: a YAML error's excerpt and caret keep their lines
/// (each escaped), indented under the message's first line, not written as `\n`.
fn lines(text: &str, indent: usize) -> String {
    crate::render::term::safe_lines(text, indent)
}

pub fn human_skill(s: &SkillEvent, t: &Term) -> String {
    let what = match (&s.result, s.start) {
        (Ok(_), true) => "the `skill` tool returns its content".to_string(),
        (Ok(_), false) => "the `skill` tool's result changed".to_string(),
        (Err(e), _) => format!("the `skill` tool fails: {}", safe(e)),
    };
    format!("{} {} {}: {}\n", t.dim(&clock()), t.bold("skill"), safe(&s.name), what)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::watch::{Diff, Event, Outcome, Trigger};

    /// A YAML error keeps its excerpt's lines, as `list` and `lint` show it; a control
    /// character in it is still escaped.
    #[test]
    fn a_yaml_error_is_shown_on_its_lines() {
        let warning = "skill file /s/a/SKILL.md ignored: failed to parse frontmatter: Nested mappings are not \
                       allowed in compact mappings at line 2, column 7:\n\nname: a: b\u{1b}[2J\n      ^\n";
        let e = Event {
            trigger: Trigger::Start,
            outcome: Outcome::Initial,
            text: None,
            entries: None,
            digest: None,
            diff: Diff::default(),
            failures: Vec::new(),
            notes: Vec::new(),
            warnings: vec![warning.to_string()],
            stats: Default::default(),
        };
        let out = human_event(&e, &Term::default());
        assert!(!out.contains("\\n"), "{out}");
        assert!(out.contains("column 7:\n\n          name: a: b\\x1b[2J\n                ^\n"), "{out}");
    }
}
