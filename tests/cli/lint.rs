//! `dsh-skills lint`, black-box: the conformance trees, one fixture per rule, golden output of
//! each format, exit statuses, `--fix` and `--diff`.

mod baseline;
mod cli;
mod codex;
mod conformance;
mod fix;
mod golden;
mod output;
mod precision;
mod rules;
