//! Files a command says it writes (`lint --write-baseline`, `new`), written atomically: a
//! temporary file beside the target (`tempfile`, removed if anything fails), flushed to disk,
//! then renamed into place, so a reader sees the old file or the new one, never half of one.

use std::io::Write;
use std::path::Path;

fn temp_in(path: &Path, bytes: &[u8]) -> Result<tempfile::NamedTempFile, String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".dsh-skills-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| format!("cannot create a temporary file in {}: {e}", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(tmp)
}

/// Write `bytes` to `path`, replacing the file there if there is one.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), String> {
    temp_in(path, bytes)?.persist(path).map(drop).map_err(|e| format!("cannot write {}: {}", path.display(), e.error))
}

/// Write `bytes` to a new file at `path`; refused (nothing written) when something is there,
/// even if it appeared after the caller looked.
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<(), String> {
    temp_in(path, bytes)?.persist_noclobber(path).map(drop).map_err(|e| {
        if e.error.kind() == std::io::ErrorKind::AlreadyExists {
            format!("{} already exists; not overwritten", path.display())
        } else {
            format!("cannot write {}: {}", path.display(), e.error)
        }
    })
}
