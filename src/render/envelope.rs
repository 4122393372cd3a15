//! What every JSON document starts with (`schemaVersion`, `tool`), and the schema generator
//! all of them use.

use schemars::JsonSchema;
use serde::Serialize;

/// The version of every JSON document's layout.
pub const SCHEMA_VERSION: u32 = 1;

/// `tool` in every JSON document: who wrote it, and which harness behaviour it reproduces.
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// Always `dsh-skills`.
    #[schemars(extend("const" = "dsh-skills"))]
    pub name: &'static str,
    /// The dsh-skills version.
    pub version: &'static str,
    /// The DeepSeek Harness release whose behaviour is reproduced.
    pub harness_version: &'static str,
}

/// The schema of `T` as it serializes (an `Option` field is required, and may be null, unless
/// it is skipped when empty).
pub fn generate<T: JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator().into_root_schema_for::<T>()
}

impl Tool {
    pub const THIS: Tool = Tool {
        name: "dsh-skills",
        version: env!("CARGO_PKG_VERSION"),
        harness_version: crate::engine::HARNESS_VERSION,
    };
}
