//! The JSON format (schema version 1, documented in the README).

use super::super::{Report, rules};
use serde_json::{Value, json};

pub const SCHEMA_VERSION: u32 = 1;

pub fn render(report: &Report) -> String {
    let findings: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let pos = super::positions(report, f);
            let related: Vec<Value> = f
                .related
                .iter()
                .map(|r| {
                    let line = r.span.as_ref().and_then(|s| report.files.get(&r.path).map(|src| src.position(s.start).line));
                    json!({"path": r.path, "line": line, "message": r.message})
                })
                .collect();
            json!({
                "rule": f.rule,
                "severity": f.severity,
                "path": f.path,
                "displayPath": report.display_path(&f.path),
                "line": pos.map(|p| p.0.line),
                "column": pos.map(|p| p.0.column),
                "endLine": pos.map(|p| p.1.line),
                "endColumn": pos.map(|p| p.1.column),
                "message": f.message,
                "harness": f.harness,
                "label": f.label,
                "help": f.help,
                "related": related,
                "skill": f.skill,
                "fix": f.fix.as_ref().map(|x| json!({
                    "description": x.description,
                    "edits": x.edits.iter().map(|e| json!({"start": e.range.start, "end": e.range.end, "replacement": e.replacement})).collect::<Vec<_>>(),
                })),
            })
        })
        .collect();
    let mut doc = json!({
        "schemaVersion": SCHEMA_VERSION,
        "tool": {"name": "dsh-skills", "version": env!("CARGO_PKG_VERSION"), "harnessVersion": crate::cli::HARNESS_VERSION},
        "complete": report.complete,
        "summary": report.summary,
        "findings": findings,
    });
    if !report.fixes.is_empty() {
        doc["fixes"] = serde_json::to_value(&report.fixes).unwrap_or(Value::Null);
    }
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// One rule as JSON, for `--explain <rule> --format json`.
pub fn rule(r: &rules::Rule) -> String {
    let doc = json!({
        "id": r.id,
        "severity": r.severity,
        "enabledByDefault": r.compat.is_empty(),
        "compat": r.compat,
        "group": match r.group { rules::Group::Skipped => "skipped", rules::Group::Suspicious => "suspicious", rules::Group::Portability => "portability" },
        "summary": r.summary,
        "explanation": r.explanation,
        "fix": r.fix,
        "note": r.note,
        "fixable": r.fixable,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
