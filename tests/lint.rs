//! `dsh-skills lint`, black-box: the conformance trees, one fixture per rule, golden output of
//! each format, exit statuses, `--fix` and `--diff`.

#[path = "support.rs"]
mod support;

#[path = "lint/conformance.rs"]
mod conformance;

#[path = "lint/rules.rs"]
mod rules;

#[path = "lint/golden.rs"]
mod golden;

#[path = "lint/cli.rs"]
mod cli;

#[path = "lint/fix.rs"]
mod fix;

#[path = "lint/precision.rs"]
mod precision;
