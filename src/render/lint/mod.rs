//! lint's four output formats. Each returns the whole output as a string.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use crate::lint::source::Position;
use crate::lint::{Finding, Report};

/// Start and end positions of a finding, when it points into a file that was read.
pub fn positions(report: &Report, f: &Finding) -> Option<(Position, Position)> {
    let span = f.span.as_ref()?;
    let src = report.files.get(&f.path)?;
    Some(src.span_positions(&src.clamp(span)))
}
