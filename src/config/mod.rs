//! The harness's own configuration, read as `dsh` reads it (spec 2).
//!
//! [`dialect`] loads the configuration YAML dialect (js-yaml `JSON_SCHEMA` plus `!!js`) with
//! the line of every value; [`patch`] composes patch layers with the loader's id-patch
//! semantics. The module never prints.

pub mod dialect;
pub mod patch;
