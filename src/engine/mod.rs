//! The harness's skill discovery, reproduced byte for byte. Everything else in the crate
//! (analysis, lint, rendering, commands) is built on this folder; it depends on none of them.
//!
//! The pipeline, in the order a file travels through it:
//!
//! ```text
//!  config ─────────────▶ the harness's own configuration files (profiles, patch layers,
//!     │                  agent presets) → discovery settings
//!     ▼
//!  platform ───────────▶ roots and homes: project `.dsh/skills`, `.agents/skills`, custom
//!     │                  dirs, `~/.dsh/skills`, `~/.agents/skills`, the bundled dir
//!     ▼
//!  nodefs ─────────────▶ Node's filesystem semantics (stat/lstat/realpath, error texts)
//!     ▼
//!  discover (listing) ─▶ each root's entries in Node's `readdir` order, sorted with
//!     │   collate         ICU collation under the process locale
//!     ▼
//!  textread (reading) ─▶ open, type-check, read and decode one file
//!     ▼
//!  skillfile ──────────▶ frontmatter split and validation of `name` / `description` / …
//!     │   yaml, js,       (YAML 1.2 as npm `yaml` reads it; JavaScript string semantics)
//!     │   jsdate
//!     ▼
//!  discover (candidates) → one candidate per accepted file, or a logged rejection
//!     ▼
//!  registry ───────────▶ the highest-ranked candidate of each name wins
//!     ▼
//!  snapshot ───────────▶ one discovery, every provider, as a value
//!     ▼
//!  catalog ────────────▶ the catalog text the model sees, and `<skill_content>`
//! ```
//!
//! Nothing here prints or reads the command line: commands build a
//! [`snapshot::Settings`] and an [`discover::Environment`] and ask for a
//! [`snapshot::Snapshot`].

/// A hash map keyed by paths, names or a file's text: foldhash, seeded at random per process,
/// rather than std's SipHash, which costs several times as much for the thousands of short keys
/// a large tree makes.
pub type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// The set of [`Map`].
pub type Set<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

pub mod catalog;
pub mod collate;
pub mod config;
pub mod discover;
pub mod js;
pub mod jsdate;
pub mod nodefs;
pub mod platform;
pub mod registry;
pub mod skillfile;
pub mod snapshot;
pub mod textread;
pub mod watch;
pub mod yaml;

/// The harness release this crate reproduces.
pub const HARNESS_VERSION: &str = "0.1.0-rc.8";
