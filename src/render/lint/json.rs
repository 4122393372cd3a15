//! The JSON format (schema version 1, documented in the README; `schemas/lint.schema.json`).

use crate::lint::{Compat, FileFix, Finding, Report, Severity, Summary, rules};
use crate::render::envelope::Tool;
use schemars::JsonSchema;
use serde::Serialize;

pub use crate::render::envelope::SCHEMA_VERSION;

/// One finding as the schema writes it; borrowed from the report, serialized as it streams.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct FindingOut<'a> {
    rule: &'a str,
    severity: Severity,
    path: &'a str,
    display_path: String,
    line: Option<usize>,
    column: Option<usize>,
    end_line: Option<usize>,
    end_column: Option<usize>,
    message: &'a str,
    harness: &'a str,
    label: Option<&'a str>,
    help: &'a [std::borrow::Cow<'static, str>],
    related: Vec<RelatedOut<'a>>,
    skill: Option<&'a str>,
    fix: Option<FixOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<&'a crate::lint::Action>,
}

#[derive(Serialize, JsonSchema)]
struct RelatedOut<'a> {
    path: &'a str,
    line: Option<usize>,
    message: &'a str,
}

#[derive(Serialize, JsonSchema)]
struct FixOut<'a> {
    description: &'a str,
    edits: Vec<EditOut<'a>>,
}

#[derive(Serialize, JsonSchema)]
struct EditOut<'a> {
    start: usize,
    end: usize,
    replacement: &'a str,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Doc<'a> {
    schema_version: u32,
    tool: Tool,
    complete: bool,
    summary: &'a Summary,
    findings: Findings<'a>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    fixes: &'a [FileFix],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    inputs: &'a [crate::lint::targets::Input],
    /// The skills read outside the roots the harness scans (a collection's, a marketplace's).
    #[serde(skip_serializing_if = "Option::is_none")]
    outside_roots: Option<&'a crate::lint::targets::Outside>,
    /// With `--baseline` or `--write-baseline`: how many findings the baseline knew (they are
    /// not in `findings`, nor counted in `summary`), and its entries that matched nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a crate::lint::baseline::Outcome>,
}

/// The findings, converted one at a time while they are written (no tree of values).
struct Findings<'a>(&'a Report);

impl JsonSchema for Findings<'_> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Findings".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<FindingOut<'static>>>::json_schema(generator)
    }
}

impl Serialize for Findings<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = self.0;
        serializer.collect_seq(report.findings.iter().map(|f| finding(report, f)))
    }
}

fn finding<'a>(report: &'a Report, f: &'a Finding) -> FindingOut<'a> {
    let pos = super::positions(report, f);
    FindingOut {
        rule: f.rule.id,
        severity: f.severity,
        path: &f.path,
        display_path: report.display_path(&f.path),
        line: pos.map(|p| p.0.line),
        column: pos.map(|p| p.0.column),
        end_line: pos.map(|p| p.1.line),
        end_column: pos.map(|p| p.1.column),
        message: &f.message,
        harness: &f.harness,
        label: f.label.as_deref(),
        help: &f.help,
        related: f
            .related
            .iter()
            .map(|r| RelatedOut {
                path: &r.path,
                line: r.span.as_ref().and_then(|s| report.files.get(&r.path).map(|src| src.position(s.start).line)),
                message: &r.message,
            })
            .collect(),
        skill: f.skill.as_deref(),
        action: f.action.as_deref(),
        fix: f.fix.as_ref().map(|x| FixOut {
            description: &x.description,
            edits: x
                .edits
                .iter()
                .map(|e| EditOut { start: e.range.start, end: e.range.end, replacement: &e.replacement })
                .collect(),
        }),
    }
}

pub fn render(report: &Report) -> String {
    // About a kilobyte per finding; one allocation up front instead of repeated doubling.
    let mut out = Vec::with_capacity(1024 + report.findings.len() * 1024);
    write(report, &mut out).expect("writing JSON to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// [`render`], serialized straight to `out` (the document is never held whole).
pub fn write(report: &Report, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let doc = Doc {
        schema_version: SCHEMA_VERSION,
        tool: Tool::THIS,
        complete: report.complete,
        summary: &report.summary,
        findings: Findings(report),
        fixes: &report.fixes,
        inputs: &report.inputs,
        outside_roots: report.outside.as_ref(),
        baseline: report.baseline.as_ref(),
    };
    // The serializer writes a few bytes at a time: into a buffer of a known type (its copies
    // inlined), not through `dyn Write` for each.
    use std::io::Write as _;
    let mut out = std::io::BufWriter::with_capacity(64 << 10, out);
    serde_json::to_writer_pretty(&mut out, &doc)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The schema of [`render`]'s document.
pub fn schema() -> schemars::Schema {
    crate::render::envelope::generate::<Doc<'static>>()
}

/// `lint --explain <RULE> --format json`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct RuleDoc {
    schema_version: u32,
    tool: Tool,
    id: &'static str,
    /// The default severity.
    severity: Severity,
    /// Portability rules are off unless `--compat` or the configuration enables them.
    enabled_by_default: bool,
    /// The `--compat` targets that enable the rule.
    compat: &'static [Compat],
    group: &'static str,
    summary: &'static str,
    explanation: &'static str,
    fix: &'static str,
    note: Option<&'static str>,
    /// Whether `--fix` can fix its findings.
    fixable: bool,
}

/// The schema of [`rule`]'s document.
pub fn rule_schema() -> schemars::Schema {
    crate::render::envelope::generate::<RuleDoc>()
}

/// One rule as JSON, for `--explain <rule> --format json`.
pub fn rule(r: &rules::Rule) -> String {
    let doc = RuleDoc {
        schema_version: SCHEMA_VERSION,
        tool: Tool::THIS,
        id: r.id,
        severity: r.severity,
        enabled_by_default: r.compat.is_empty(),
        compat: r.compat,
        group: match r.group {
            rules::Group::Skipped => "skipped",
            rules::Group::Suspicious => "suspicious",
            rules::Group::Portability => "portability",
        },
        summary: r.summary,
        explanation: r.explanation,
        fix: r.fix,
        note: r.note,
        fixable: r.fixable,
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
