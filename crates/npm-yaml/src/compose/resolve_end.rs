//! `resolveEnd`: the comments and white space after a node, to the end of its line.

use crate::cst::SourceToken;
use crate::errors::{ErrorAt, ErrorCode, Errors, report};
use crate::token::Kind;

pub struct End {
    pub comment: String,
    /// The offset after the last token of `end` (bytes).
    pub offset: u32,
}

pub fn resolve_end(src: &str, end: Option<&[SourceToken]>, offset: u32, req_space: bool, errors: &mut Errors) -> End {
    let mut comment = String::new();
    let mut offset = offset;
    let mut has_space = false;
    let mut sep = String::new();
    for token in end.unwrap_or_default() {
        let source = token.source(src);
        match token.kind {
            Kind::Space => has_space = true,
            Kind::Comment => {
                if req_space && !has_space {
                    let message = "Comments must be separated from other tokens by white space characters";
                    report(errors, ErrorAt::Token(*token), ErrorCode::MissingChar, message);
                }
                let cb = if source.len() > 1 { &source[1..] } else { " " };
                if comment.is_empty() {
                    comment.push_str(cb);
                } else {
                    comment.push_str(&sep);
                    comment.push_str(cb);
                }
                sep.clear();
            }
            Kind::Newline => {
                if !comment.is_empty() {
                    sep.push_str(source);
                }
                has_space = true;
            }
            kind => {
                let message = format!("Unexpected {} at node end", crate::compose::resolve_end::type_name(kind));
                report(errors, ErrorAt::Token(*token), ErrorCode::UnexpectedToken, message);
            }
        }
        offset += token.end - token.start;
    }
    End { comment, offset }
}

/// A source token's `type` as messages write it (an error token among props is `error`).
pub(crate) fn type_name(kind: Kind) -> &'static str {
    if kind == Kind::Unknown { "error" } else { kind.name() }
}
