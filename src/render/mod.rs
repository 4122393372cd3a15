//! Rendering: values computed by the commands turned into text. [`human`] draws the human
//! views, [`report`] the JSON documents (described by [`schema`]), [`config`] the settings and
//! where they came from, [`lint`] lint's four formats;
//! [`term`] holds colour, width and the escaping that keeps skill-file bytes from driving a
//! terminal. Renderers return strings; only `main` writes to the process's streams.

pub mod config;
pub mod diff;
pub mod envelope;
pub mod human;
pub mod lint;
pub mod report;
pub mod schema;
pub mod term;
pub mod watch;
