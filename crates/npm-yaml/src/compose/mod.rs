//! The composer (npm yaml: `compose/`), stage by stage. So far the scalar resolvers and
//! `resolveEnd`; `composer.ts`, `compose-*.ts` and the collection resolvers are to come.

pub mod composer;
pub mod doc;
pub mod resolve_block_scalar;
pub mod resolve_end;
pub mod resolve_flow_scalar;

use crate::jsstr::JsString;

/// npm yaml's `Scalar.Type`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarType {
    Plain,
    QuoteSingle,
    QuoteDouble,
    BlockFolded,
    BlockLiteral,
}

impl ScalarType {
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Plain => "PLAIN",
            ScalarType::QuoteSingle => "QUOTE_SINGLE",
            ScalarType::QuoteDouble => "QUOTE_DOUBLE",
            ScalarType::BlockFolded => "BLOCK_FOLDED",
            ScalarType::BlockLiteral => "BLOCK_LITERAL",
        }
    }
}

/// A resolved scalar: its string value, style, trailing comment and `[start, valueEnd, nodeEnd]`
/// (byte offsets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedScalar {
    pub value: JsString,
    pub ty: Option<ScalarType>,
    pub comment: String,
    pub range: [u32; 3],
}
