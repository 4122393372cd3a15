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
    /// This file's check, already made while discovery read it
    /// ([`InPass`](super::pass::InPass)).
    pub checked: Option<std::sync::Arc<crate::engine::discover::Checked>>,
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

/// The subject for a root entry's skill file (`path`, its locator), as discovery read it.
pub fn entry_subject(
    root: &crate::engine::discover::Root,
    entry: &crate::engine::discover::Entry,
    path: String,
    checked: Option<std::sync::Arc<crate::engine::discover::Checked>>,
) -> Subject {
    entry_subject_of(root, entry.kind, &entry.name, &entry.path, path, checked)
}

/// [`entry_subject`], from the entry's kind, name and path.
pub fn entry_subject_of(
    root: &crate::engine::discover::Root,
    kind: crate::engine::nodefs::Kind,
    name: &str,
    entry_path: &str,
    path: String,
    checked: Option<std::sync::Arc<crate::engine::discover::Checked>>,
) -> Subject {
    let kind = match kind {
        crate::engine::nodefs::Kind::Directory => {
            SubjectKind::Bundle { dir: entry_path.to_string(), entry: name.to_string() }
        }
        _ => SubjectKind::Flat { root: root.path.clone(), entry: name.to_string() },
    };
    Subject { path, kind, node_mode: root.trusted_host, checked }
}

/// A skill folder found outside the roots, as the subject it is linted as: its `SKILL.md`, the
/// unit it installs as.
pub fn folder_subject(dir: &str) -> Subject {
    use crate::engine::platform;
    let entry = dir.trim_end_matches(platform::SEP).rsplit(platform::SEP).next().unwrap_or("").to_string();
    let kind = SubjectKind::Bundle { dir: dir.to_string(), entry };
    Subject { path: platform::join(dir, "SKILL.md"), kind, node_mode: false, checked: None }
}
