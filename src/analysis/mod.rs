//! Facts derived from a discovery, shared by the commands, lint and the renderers: why a copy
//! wins ([`explain`]), skill folders the harness does not scan ([`unscanned`]), references in a
//! skill body ([`refscan`], [`refs`], read as CommonMark by [`markdown`]) and close-name suggestions ([`suggest`]). Depends on the
//! engine only.

pub mod diff;
pub mod explain;
pub mod git;
pub mod markdown;
pub mod refs;
pub mod refscan;
pub mod suggest;
pub mod tokens;
pub mod tree;
pub mod unscanned;
