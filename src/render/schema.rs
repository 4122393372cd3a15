//! JSON Schemas of every `--format json` document, generated from the Rust types that are
//! serialized ([`schemars`]). `dsh-skills schema <document>` prints one; `schemas/` holds them
//! all, kept in step by a test (`UPDATE_GENERATED=1 cargo test --test cli generated::` rewrites them).
//!
//! Every document starts with `schemaVersion` and `tool`. The version changes only when a field
//! is removed or changes meaning; new fields may appear in any version.

pub use super::envelope::{SCHEMA_VERSION, Tool, generate};

/// A JSON document dsh-skills prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Document {
    /// `list --format json`
    List,
    /// `catalog --format json`
    Catalog,
    /// `show <NAME> --format json`
    Show,
    /// `explain <NAME> --format json`
    Explain,
    /// `lint --format json`
    Lint,
    /// `lint --explain <RULE> --format json`
    Rule,
    /// One line of `watch --format json` (JSON Lines)
    Watch,
    /// `diff [BASE] [HEAD] --format json`
    Diff,
    /// The file `lint --write-baseline` writes and `lint --baseline` reads
    Baseline,
}

impl Document {
    pub const ALL: [Document; 9] = [
        Document::List,
        Document::Catalog,
        Document::Show,
        Document::Explain,
        Document::Lint,
        Document::Rule,
        Document::Watch,
        Document::Diff,
        Document::Baseline,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Document::List => "list",
            Document::Catalog => "catalog",
            Document::Show => "show",
            Document::Explain => "explain",
            Document::Lint => "lint",
            Document::Rule => "rule",
            Document::Watch => "watch",
            Document::Diff => "diff",
            Document::Baseline => "baseline",
        }
    }

    /// The file name under `schemas/`.
    pub fn file_name(self) -> String {
        format!("{}.schema.json", self.name())
    }

    /// The schema (JSON Schema 2020-12), describing the document as it is written.
    pub fn schema(self) -> serde_json::Value {
        use crate::render::report::{CatalogDoc, ExplainDoc, ListDoc, ShowDoc};
        let schema = match self {
            Document::List => generate::<ListDoc<'static>>(),
            Document::Catalog => generate::<CatalogDoc<'static>>(),
            Document::Show => generate::<ShowDoc<'static>>(),
            Document::Explain => generate::<ExplainDoc<'static>>(),
            Document::Lint => crate::render::lint::json::schema(),
            Document::Rule => crate::render::lint::json::rule_schema(),
            Document::Watch => crate::render::watch::schema(),
            Document::Diff => generate::<crate::render::diff::DiffDoc<'static>>(),
            Document::Baseline => generate::<crate::lint::baseline::Baseline>(),
        };
        let mut fields = match schema.to_value() {
            serde_json::Value::Object(m) => m,
            _ => unreachable!("a document's schema is an object"),
        };
        // `$schema` and a title first; `schemaVersion` is a constant of this version.
        let mut out = serde_json::Map::new();
        if let Some(v) = fields.remove("$schema") {
            out.insert("$schema".into(), v);
        }
        out.insert("title".into(), format!("dsh-skills {}", self.to_possible_value_help()).into());
        fields.remove("title");
        if let Some(props) = fields.get_mut("properties").and_then(|p| p.as_object_mut()) {
            props.insert(
                "schemaVersion".into(),
                serde_json::json!({"const": SCHEMA_VERSION, "description": "The version of this document's layout."}),
            );
        }
        out.extend(fields);
        serde_json::Value::Object(out)
    }

    fn to_possible_value_help(self) -> &'static str {
        match self {
            Document::List => "list --format json",
            Document::Catalog => "catalog --format json",
            Document::Show => "show <NAME> --format json",
            Document::Explain => "explain <NAME> --format json",
            Document::Lint => "lint --format json",
            Document::Rule => "lint --explain <RULE> --format json",
            Document::Watch => "watch --format json (one line)",
            Document::Diff => "diff [BASE] [HEAD] --format json",
            Document::Baseline => "lint baseline (lint --write-baseline FILE)",
        }
    }

    /// The schema as the committed file holds it: pretty JSON and a final newline.
    pub fn text(self) -> String {
        let mut s = serde_json::to_string_pretty(&self.schema()).expect("a schema serializes");
        s.push('\n');
        s
    }
}
