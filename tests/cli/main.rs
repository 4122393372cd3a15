//! The integration tests, in one binary: one module per area, sharing `support`.
//!
//! One binary instead of one per file (the ripgrep and cargo layout): the crate and its
//! dependencies are linked into a test executable once, and the tests of every area share
//! one pool of test threads. Run one area with a filter on its module path, e.g.
//! `cargo test --test cli hostile::` or `cargo test --test cli lint::golden`.

mod support;

mod action;
mod advice;
mod collation_oracle;
mod collections;
mod config;
mod conformance;
mod diff;
mod ecosystem;
mod first_contact;
mod flow_comment;
mod generated;
mod hostile;
mod human;
mod integrations;
mod js_props;
mod lint;
mod lone_surrogates;
mod lsp;
mod new;
mod pty;
mod tokens;
mod watch;
mod watch_storm;
mod yaml11;
