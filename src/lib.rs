//! dsh-skills: the DeepSeek Harness skill discovery, reproduced byte for byte.
//!
//! The pipeline, one module per stage:
//! roots and homes ([`discover`], [`platform`]) → listing and reading ([`discover`],
//! [`nodefs`], [`collate`]) → frontmatter and YAML ([`skillfile`], [`yaml`]) → candidates →
//! registry merge ([`registry`]) → catalog and skill content ([`catalog`]) → one snapshot
//! ([`snapshot`]) → commands ([`commands`]) and their JSON ([`report`]); [`lint`] reports
//! problems in skill files against the same pipeline. The harness's own configuration files
//! (profiles, patch layers, agent presets) are read by [`config`].
//! JavaScript string semantics live in [`js`]. The library never prints: commands write
//! through [`commands::Io`], which `main` connects to the real streams.
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod catalog;
pub mod cli;
pub mod collate;
pub mod commands;
pub mod complete;
pub mod config;
pub mod discover;
pub mod explain;
pub mod human;
pub mod js;
pub mod jsdate;
pub mod lint;
pub mod lsp;
pub mod nodefs;
pub mod platform;
pub mod refs;
pub mod registry;
pub mod report;
pub mod schema;
pub mod skillfile;
pub mod snapshot;
pub mod term;
pub mod textread;
pub mod unscanned;
pub mod yaml;
