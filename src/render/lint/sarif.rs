//! SARIF 2.1.0 for GitHub code scanning, built from typed structures.

use crate::lint::{Report, Severity, rules};
use serde::Serialize;
use std::collections::BTreeMap;

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const VERSION: &str = "2.1.0";
const SRCROOT: &str = "%SRCROOT%";

/// Where the tool is documented: the package's homepage or repository (Cargo metadata).
pub fn information_uri() -> Option<&'static str> {
    [env!("CARGO_PKG_HOMEPAGE"), env!("CARGO_PKG_REPOSITORY")].into_iter().find(|u| !u.is_empty())
}

/// A rule's documentation: the README's rule table (GitHub-style anchor) under the package's
/// homepage or repository.
pub fn help_uri(_id: &str) -> Option<String> {
    information_uri().map(|u| format!("{}#rules", u.trim_end_matches('/')))
}

#[derive(Serialize)]
pub struct Log<'a> {
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    pub version: &'static str,
    pub runs: Vec<Run<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run<'a> {
    pub tool: Tool,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub original_uri_base_ids: BTreeMap<String, ArtifactLocation>,
    pub column_kind: &'static str,
    pub results: Results<'a>,
    /// `baseline`: what `lint --baseline` left out (the known findings are not results).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub properties: Option<RunProperties<'a>>,
}

#[derive(Serialize)]
pub struct RunProperties<'a> {
    pub baseline: &'a crate::lint::baseline::Outcome,
}

/// The run's results, each built from its finding as it is serialized (never all at once).
pub struct Results<'a>(pub &'a Report);

impl Serialize for Results<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = self.0;
        serializer.collect_seq(report.findings.iter().map(|f| result(report, f)))
    }
}

#[derive(Serialize)]
pub struct Tool {
    pub driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Driver {
    pub name: &'static str,
    pub version: &'static str,
    pub semantic_version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub information_uri: Option<&'static str>,
    pub rules: Vec<ReportingDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportingDescriptor {
    pub id: &'static str,
    pub name: String,
    pub short_description: Message,
    pub full_description: Message,
    pub help: Message,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help_uri: Option<String>,
    pub default_configuration: ReportingConfiguration,
}

#[derive(Serialize)]
pub struct ReportingConfiguration {
    pub enabled: bool,
    pub level: &'static str,
}

#[derive(Serialize)]
pub struct Message {
    pub text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    pub rule_id: &'static str,
    pub rule_index: usize,
    pub level: &'static str,
    pub message: Message,
    pub locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related_locations: Vec<Location>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    pub physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    pub artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<Region>,
}

#[derive(Serialize, Clone)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactLocation {
    pub uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    pub start_line: usize,
    pub start_column: usize,
    pub end_line: usize,
    pub end_column: usize,
    /// The source lines the region covers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<Message>,
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Percent-encode a path for a URI (RFC 3986 unreserved characters and `/` kept).
fn encode(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn artifact(report: &Report, path: &str) -> ArtifactLocation {
    let shown = report.display_path(path);
    if shown != path || !path.starts_with('/') {
        ArtifactLocation { uri: encode(&shown.replace('\\', "/")), uri_base_id: Some(SRCROOT) }
    } else {
        ArtifactLocation { uri: format!("file://{}", encode(&path.replace('\\', "/"))), uri_base_id: None }
    }
}

/// A rule id as a SARIF rule name: `YamlSyntax`.
fn pascal(id: &str) -> String {
    id.split('-').map(|p| p[..1].to_ascii_uppercase() + &p[1..]).collect()
}

/// The text of lines `first..=last` of the finding's file (at most 20 lines, without the final
/// line break), for `region.snippet`.
fn snippet(report: &Report, f: &crate::lint::Finding, first: usize, last: usize) -> Option<Message> {
    let src = report.files.get(&f.path)?;
    let last = last.min(first + 19);
    let start = src.line_range(first).start;
    let end = src.line_range(last).end;
    let text = src.slice(start..end)?;
    Some(Message { text: text.trim_end_matches(['\n', '\r']).to_string() })
}

pub fn render(report: &Report) -> String {
    let mut out = Vec::new();
    write(report, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// [`render`], serialized straight to `out`; each result is built as it is written.
pub fn write(report: &Report, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let descriptors: Vec<ReportingDescriptor> = rules::all()
        .iter()
        .map(|r| ReportingDescriptor {
            id: r.id,
            name: pascal(r.id),
            short_description: Message { text: r.summary.to_string() },
            full_description: Message { text: r.explanation.to_string() },
            help: Message { text: crate::lint::rules::explain_text(r) },
            help_uri: help_uri(r.id),
            default_configuration: ReportingConfiguration { enabled: r.compat.is_empty(), level: level(r.severity) },
        })
        .collect();
    let mut base_ids = BTreeMap::new();
    if !report.base_dir.is_empty() {
        let mut base = report.base_dir.replace('\\', "/");
        if !base.ends_with('/') {
            base.push('/');
        }
        base_ids.insert(
            SRCROOT.to_string(),
            ArtifactLocation { uri: format!("file://{}", encode(&base)), uri_base_id: None },
        );
    }
    let log = Log {
        schema: SCHEMA,
        version: VERSION,
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "dsh-skills",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: information_uri(),
                    rules: descriptors,
                },
            },
            original_uri_base_ids: base_ids,
            column_kind: "unicodeCodePoints",
            results: Results(report),
            properties: report.baseline.as_ref().map(|baseline| RunProperties { baseline }),
        }],
    };
    serde_json::to_writer_pretty(&mut *out, &log)?;
    out.write_all(b"\n")
}

/// One finding as a SARIF result.
fn result(report: &Report, f: &crate::lint::Finding) -> SarifResult {
    let region = super::positions(report, f).map(|(s, e)| Region {
        start_line: s.line,
        start_column: s.column,
        end_line: e.line,
        end_column: e.column.max(if e.line == s.line { s.column + 1 } else { 1 }),
        snippet: snippet(report, f, s.line, e.line),
    });
    let mut text = format!("{} — {}", f.message, f.harness);
    for h in &f.help {
        text.push_str("\nhelp: ");
        text.push_str(h);
    }
    SarifResult {
        rule_id: f.rule.id,
        rule_index: rules::all().iter().position(|r| *r == f.rule).unwrap_or(0),
        level: level(f.severity),
        message: Message { text },
        locations: vec![Location {
            physical_location: PhysicalLocation { artifact_location: artifact(report, &f.path), region },
            message: None,
        }],
        related_locations: f
            .related
            .iter()
            .map(|r| Location {
                physical_location: PhysicalLocation { artifact_location: artifact(report, &r.path), region: None },
                message: Some(Message { text: r.message.clone() }),
            })
            .collect(),
    }
}
