//! The lock of a results folder: a file beside it, `.<name>.lock` (it cannot be inside, since
//! the folder is exchanged whole when a report is published, see [`crate::run::publish`]). Cache
//! reads and writes hold it shared; a publication holds it exclusively.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The lock file of the results folder `target`: beside it, `.<name>.lock` (it cannot be
/// inside, since the folder is exchanged whole).
pub fn lock_path(target: &Path) -> PathBuf {
    sibling(target, "lock")
}

/// `<parent>/.<stem>.<suffix>` for the results folder `target` (see [`stem`]).
pub(crate) fn sibling(target: &Path, suffix: &str) -> PathBuf {
    parent(target).join(format!(".{}.{suffix}", stem(target)))
}

/// The longest name kept whole in the names of a results folder's lock and staging folders.
const STEM_CHARACTERS: usize = 64;

/// The results folder's name as the stem of its lock's and staging folders' names: the name
/// itself when short, else its first characters and a digest of the whole (so that a name
/// as long as the file system allows still has a lock and staging folders).
pub(crate) fn stem(target: &Path) -> String {
    use sha2::Digest;
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    if name.chars().count() <= STEM_CHARACTERS {
        return name.into_owned();
    }
    let digest = sha2::Sha256::digest(name.as_bytes());
    let start: String = name.chars().take(STEM_CHARACTERS).collect();
    format!("{start}-{}", &data::catalog::to_hex(&digest)[..16])
}

/// The folder holding `target` (the current folder for a bare name).
pub(crate) fn parent(target: &Path) -> &Path {
    match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// A held lock on a results folder (shared by cache readers and writers, exclusive while
/// publishing); released when dropped.
pub struct FolderLock {
    _file: File,
}

impl FolderLock {
    /// Holds the lock of `target` shared (cache reads and writes); `None` where the lock file
    /// cannot be opened (the cache works without it, as before).
    pub fn shared(target: &Path) -> Option<FolderLock> {
        let file = open_lock(target).ok()?;
        file.lock_shared().ok()?;
        Some(FolderLock { _file: file })
    }

    /// Holds the lock of `target` exclusively, saying so if another process holds it and this
    /// one waits.
    pub(crate) fn exclusive(target: &Path) -> Result<FolderLock> {
        let path = lock_path(target);
        let file = open_lock(target).map_err(|error| Error::io("open the lock", &path, error))?;
        if file.try_lock().is_err() {
            eprintln!(
                "note: another run is using {} (its lock {} is held); waiting for it",
                target.display(),
                path.display()
            );
            file.lock()
                .map_err(|error| Error::io("lock", &path, error))?;
        }
        Ok(FolderLock { _file: file })
    }
}

/// Opens (creating) the lock file of `target`.
fn open_lock(target: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_path(target))
}
