//! Publishing a results folder in one step, and the checks and locks around it.
//!
//! A report is written into a staging folder beside the results folder
//! (`<root>/.<name>.staging-<pid>-<nanos>/`; a long name is shortened, see [`stem`]), then switched in whole: under the results folder's
//! lock (`<root>/.<name>.lock`), the folders a run keeps (the cache `predictions/`, `shards/`,
//! `slurm/`) are moved into the staging folder, and the staging folder and the results folder
//! are exchanged by one `renameat2(RENAME_EXCHANGE)` (where the file system cannot exchange, by
//! two renames). The results folder therefore always shows one run's complete report: a
//! process killed at any moment leaves the previous report or the new one, never a mix or half
//! of one. A kill between the move of the kept folders and the exchange leaves them in the
//! staging folder; the next run (or shard, or merge) moves them back before anything else.
//!
//! Every staging folder holds `.owner`, locked by the process writing it while it lives (the
//! operating system drops the lock when the process ends, however it ends). A run removes only
//! staging folders whose `.owner` it can lock, or which have none (their owner died while
//! publishing), so two runs on one results folder never remove each other's work; their
//! publications take turns on the lock, and both finish with intact reports (the later one's
//! shown). Cache reads and writes hold the lock shared, so a publication never moves the cache
//! under a unit being written.
//!
//! Before the first fit (and by `--check`), [`check_writable`] creates what a run will create
//! (the results folder, a staging folder beside it, each dataset and learner's cache folder)
//! and writes a file in each, so that a results folder that cannot be written (under a regular
//! file, under /proc, on a read-only mount, a name too long for the file system) is refused
//! with its path before any work.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::plan::units::Plan;
use crate::run::lock::{parent, stem, FolderLock};
use crate::run::shard::SHARDS_FOLDER;

/// The folder of a results folder holding a cluster's job scripts and logs; runs and merges
/// keep it.
pub const SLURM_FOLDER: &str = "slurm";

/// The folders of a results folder that a finished run leaves in place: the cache, the shard
/// records and the cluster's scripts and logs.
pub(crate) const KEPT_FOLDERS: [&str; 3] = ["predictions", SHARDS_FOLDER, SLURM_FOLDER];

/// The file in a staging folder that its living owner holds locked.
const OWNER: &str = ".owner";

/// The prefix of the staging folders of `target`.
fn staging_prefix(target: &Path) -> String {
    format!(".{}.staging-", stem(target))
}

/// A staging folder being written by this process (its `.owner` held locked).
pub struct Staging {
    /// The results folder it will replace.
    target: PathBuf,
    /// The staging folder.
    pub path: PathBuf,
    /// The locked `.owner` file.
    owner: File,
}

impl Staging {
    /// Creates a new staging folder beside `target` (creating the folder holding it).
    pub fn start(target: &Path) -> Result<Staging> {
        let root = parent(target);
        std::fs::create_dir_all(root)
            .map_err(|error| Error::io("create the folder of the results folder", root, error))?;
        // Under the exclusive lock until `.owner` is locked, so that another run's `recover`
        // never takes a folder being created for one without an owner.
        let _lock = FolderLock::exclusive(target)?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.subsec_nanos());
        let path = root.join(format!(
            "{}{:010}-{nanos:09}",
            staging_prefix(target),
            std::process::id()
        ));
        std::fs::create_dir(&path)
            .map_err(|error| Error::io("create the staging folder", &path, error))?;
        let owner_path = path.join(OWNER);
        let owner =
            File::create(&owner_path).map_err(|error| Error::io("create", &owner_path, error))?;
        owner
            .lock()
            .map_err(|error| Error::io("lock", &owner_path, error))?;
        Ok(Staging {
            target: target.to_path_buf(),
            path,
            owner,
        })
    }

    /// Switches the staging folder in as the results folder, keeping the previous one's cache,
    /// shard records and cluster files; returns the results folder.
    pub fn publish(self) -> Result<PathBuf> {
        let _lock = FolderLock::exclusive(&self.target)?;
        recover(&self.target)?;
        let owner_path = self.path.join(OWNER);
        std::fs::remove_file(&owner_path)
            .map_err(|error| Error::io("remove", &owner_path, error))?;
        drop(self.owner);
        if !self.target.exists() {
            return rename(&self.path, &self.target).map(|()| self.target);
        }
        for kept in KEPT_FOLDERS {
            let from = self.target.join(kept);
            if from.exists() {
                rename(&from, &self.path.join(kept))?;
            }
        }
        exchange(&self.path, &self.target)?;
        // The staging path now holds the previous report (without the kept folders).
        std::fs::remove_dir_all(&self.path)
            .map_err(|error| Error::io("remove the previous report", &self.path, error))?;
        Ok(self.target)
    }

    /// Removes the staging folder (a run that stops before publishing).
    pub fn abandon(self) {
        // Under the exclusive lock, so that another run's `recover` does not remove it too.
        let _lock = FolderLock::exclusive(&self.target);
        drop(self.owner);
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Renames `from` to `to`.
fn rename(from: &Path, to: &Path) -> Result<()> {
    std::fs::rename(from, to).map_err(|error| Error::io("move a folder to", to, error))
}

/// Exchanges two folders in one step (`renameat2` with `RENAME_EXCHANGE`); where the file
/// system cannot, moves `target` aside and `staging` in (two renames), leaving `target`'s
/// previous content at `staging`.
fn exchange(staging: &Path, target: &Path) -> Result<()> {
    if exchange_atomically(staging, target) {
        return Ok(());
    }
    let aside = PathBuf::from(format!("{}-previous", staging.to_string_lossy()));
    rename(target, &aside)?;
    rename(staging, target)?;
    rename(&aside, staging)
}

/// Exchanges two paths with `renameat2(RENAME_EXCHANGE)`; false where that is not supported.
#[cfg(target_os = "linux")]
fn exchange_atomically(first: &Path, second: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let (Ok(first), Ok(second)) = (
        std::ffi::CString::new(first.as_os_str().as_bytes()),
        std::ffi::CString::new(second.as_os_str().as_bytes()),
    ) else {
        return false;
    };
    // SAFETY: both paths are valid NUL-terminated strings that outlive the call, and
    // renameat2 only reads them.
    let status = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            first.as_ptr(),
            libc::AT_FDCWD,
            second.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    status == 0
}

/// Without `renameat2`, never atomically (see [`exchange`]).
#[cfg(not(target_os = "linux"))]
fn exchange_atomically(_first: &Path, _second: &Path) -> bool {
    false
}

/// True if the staging folder `path` has no living owner: its `.owner` can be locked, or it
/// has none (its owner died while publishing).
fn owner_is_gone(path: &Path) -> bool {
    match File::open(path.join(OWNER)) {
        Ok(owner) => owner.try_lock().is_ok(),
        Err(error) => error.kind() == std::io::ErrorKind::NotFound,
    }
}

/// Under the exclusive lock: removes the staging folders of `target` whose owner is gone,
/// first moving back any kept folder (the cache) a killed publication left in one, and puts
/// back the results folder a killed two-rename exchange left aside.
fn recover(target: &Path) -> Result<()> {
    let root = parent(target);
    let prefix = staging_prefix(target);
    let Ok(entries) = std::fs::read_dir(root) else {
        return Ok(());
    };
    let mut leftovers: Vec<PathBuf> = entries
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with(&prefix))
        .map(|entry| entry.path())
        .filter(|path| path.is_dir() && owner_is_gone(path))
        .collect();
    leftovers.sort();
    for path in leftovers {
        // Its owner removed `.owner` just before switching it in: a complete report.
        let complete = !path.join(OWNER).exists();
        if complete && !target.exists() {
            rename(&path, target)?;
            continue;
        }
        for kept in KEPT_FOLDERS {
            let (from, to) = (path.join(kept), target.join(kept));
            if from.exists() && !to.exists() {
                std::fs::create_dir_all(target)
                    .map_err(|error| Error::io("create the results folder", target, error))?;
                rename(&from, &to)?;
            }
        }
        match std::fs::remove_dir_all(&path) {
            // Its owner removed it meanwhile (abandon holds the lock; this is belt and braces).
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            outcome => outcome
                .map_err(|error| Error::io("remove the leftover staging folder", &path, error))?,
        }
    }
    Ok(())
}

/// Before any work: recovers what a killed publication left (see [`recover`]) and checks
/// that every output location of the plan can be written (see the module's documentation).
/// With `keep` false (`--check`), what was created is removed again.
pub fn check_writable(target: &Path, plan: &Plan, keep: bool) -> Result<()> {
    let mut created = Vec::new();
    let outcome = probe(target, plan, keep, &mut created);
    if !keep || outcome.is_err() {
        for folder in created.iter().rev() {
            let _ = std::fs::remove_dir(folder);
        }
    }
    outcome
}

/// Creates the results folder, a staging folder and each cache folder, writing a file in
/// each cache folder (and, for a run, recovers what a killed publication left); adds every folder it
/// created to `created` (outermost first).
fn probe(target: &Path, plan: &Plan, run: bool, created: &mut Vec<PathBuf>) -> Result<()> {
    create_folder(target, created)?;
    if run {
        let _lock = FolderLock::exclusive(target)?;
        recover(target)?;
    }
    let staging = Staging::start(target)?;
    staging.abandon();
    let mut folders: Vec<PathBuf> = plan
        .units
        .iter()
        .map(|unit| {
            target
                .join("predictions")
                .join(crate::plan::dataset_names::file_safe(
                    &plan.datasets[unit.dataset].name,
                ))
                .join(crate::plan::dataset_names::file_safe(
                    &plan.learners[unit.learner].name,
                ))
        })
        .collect();
    folders.dedup();
    if std::fs::metadata(target).is_ok_and(|metadata| metadata.permissions().readonly()) {
        return Err(Error::io(
            "write in the results folder",
            target,
            std::io::Error::other("it is read-only"),
        ));
    }
    // The probe files go in the cache folders, never in the report's own (a run killed here
    // leaves the report as it was); under the shared lock, as any cache write, so that another
    // run's publication does not move the cache meanwhile.
    let _lock = FolderLock::shared(target);
    for folder in folders {
        create_folder(&folder, created)?;
        let probe = folder.join(format!(".probe-{}", std::process::id()));
        std::fs::write(&probe, b"")
            .map_err(|error| Error::io("write a file in", &folder, error))?;
        let _ = std::fs::remove_file(&probe);
    }
    Ok(())
}

/// Creates `folder` and its missing parents, adding each one created to `created`.
fn create_folder(folder: &Path, created: &mut Vec<PathBuf>) -> Result<()> {
    let mut missing = Vec::new();
    let mut current = Some(folder);
    while let Some(path) = current {
        if path.as_os_str().is_empty() || path.is_dir() {
            break;
        }
        missing.push(path.to_path_buf());
        current = path.parent();
    }
    for path in missing.into_iter().rev() {
        match std::fs::create_dir(&path) {
            Ok(()) => created.push(path),
            // Another process (a shard) made it meanwhile.
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && path.is_dir() => {}
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(Error::io(
                    "create the results folder",
                    &path,
                    std::io::Error::other("a file of that name is in the way (not a folder)"),
                ))
            }
            Err(error) => return Err(Error::io("create the results folder", &path, error)),
        }
    }
    Ok(())
}
