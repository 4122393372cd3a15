//! The unit lint checks: one skill file, with the entry and root the harness reads it under.

/// What kind of entry a skill file belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubjectKind {
    /// `<root>/<entry>/SKILL.md`; the resource base is the folder.
    Bundle { dir: String, entry: String },
    /// `<root>/<entry>` ending in `.md`; the resource base is the root.
    Flat { root: String, entry: String },
}

/// One skill file to lint.
#[derive(Clone, Debug)]
pub struct Subject {
    /// The file, as the harness spells it.
    pub path: String,
    pub kind: SubjectKind,
    /// Read the plain-Node way (the bundled root) instead of through the filesystem service.
    pub node_mode: bool,
    /// The file as discovery already read and parsed it, when it did (production roots).
    pub source: Option<std::sync::Arc<crate::engine::discover::SourceFile>>,
}

impl Subject {
    /// The skill's resource base directory.
    pub fn base_dir(&self) -> &str {
        match &self.kind {
            SubjectKind::Bundle { dir, .. } => dir,
            SubjectKind::Flat { root, .. } => root,
        }
    }

    /// The folder name, or the flat file's name without `.md`.
    pub fn stem(&self) -> &str {
        match &self.kind {
            SubjectKind::Bundle { entry, .. } => entry,
            SubjectKind::Flat { entry, .. } => entry.strip_suffix(".md").unwrap_or(entry),
        }
    }
}
