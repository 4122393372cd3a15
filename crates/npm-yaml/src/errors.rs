//! Errors and warnings as npm yaml's composer reports them (`errors.ts`): a code, a message and
//! where (an offset, or a token whose whole source is meant).

use crate::cst::SourceToken;

/// npm yaml's `ErrorCode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    AliasProps,
    BadAlias,
    BadCollectionType,
    BadDirective,
    BadDqEscape,
    BadIndent,
    BadPropOrder,
    BadScalarStart,
    BlockAsImplicitKey,
    BlockInFlow,
    DuplicateKey,
    Impossible,
    KeyOver1024Chars,
    MissingChar,
    MultilineImplicitKey,
    MultipleAnchors,
    MultipleDocs,
    MultipleTags,
    NonStringKey,
    ResourceExhaustion,
    TabAsIndent,
    TagResolveFailed,
    UnexpectedToken,
}

impl ErrorCode {
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::AliasProps => "ALIAS_PROPS",
            ErrorCode::BadAlias => "BAD_ALIAS",
            ErrorCode::BadCollectionType => "BAD_COLLECTION_TYPE",
            ErrorCode::BadDirective => "BAD_DIRECTIVE",
            ErrorCode::BadDqEscape => "BAD_DQ_ESCAPE",
            ErrorCode::BadIndent => "BAD_INDENT",
            ErrorCode::BadPropOrder => "BAD_PROP_ORDER",
            ErrorCode::BadScalarStart => "BAD_SCALAR_START",
            ErrorCode::BlockAsImplicitKey => "BLOCK_AS_IMPLICIT_KEY",
            ErrorCode::BlockInFlow => "BLOCK_IN_FLOW",
            ErrorCode::DuplicateKey => "DUPLICATE_KEY",
            ErrorCode::Impossible => "IMPOSSIBLE",
            ErrorCode::KeyOver1024Chars => "KEY_OVER_1024_CHARS",
            ErrorCode::MissingChar => "MISSING_CHAR",
            ErrorCode::MultilineImplicitKey => "MULTILINE_IMPLICIT_KEY",
            ErrorCode::MultipleAnchors => "MULTIPLE_ANCHORS",
            ErrorCode::MultipleDocs => "MULTIPLE_DOCS",
            ErrorCode::MultipleTags => "MULTIPLE_TAGS",
            ErrorCode::NonStringKey => "NON_STRING_KEY",
            ErrorCode::ResourceExhaustion => "RESOURCE_EXHAUSTION",
            ErrorCode::TabAsIndent => "TAB_AS_INDENT",
            ErrorCode::TagResolveFailed => "TAG_RESOLVE_FAILED",
            ErrorCode::UnexpectedToken => "UNEXPECTED_TOKEN",
        }
    }
}

/// Where an error is: `onError`'s first argument, a byte offset or a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorAt {
    Offset(u32),
    Token(SourceToken),
}

/// One error (or warning) of the composer, before `prettifyError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComposeError {
    pub at: ErrorAt,
    pub code: ErrorCode,
    pub message: String,
}

/// The composer's error sink (`onError`).
pub type Errors = Vec<ComposeError>;

pub(crate) fn report(errors: &mut Errors, at: ErrorAt, code: ErrorCode, message: impl Into<String>) {
    errors.push(ComposeError { at, code, message: message.into() });
}
