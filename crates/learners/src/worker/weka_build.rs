//! The Weka worker's classes: `workers/weka/*.java` of this repository, compiled with `javac`
//! against the learner's `weka.jar` on first use into a cache folder named by the sources'
//! sha256 (`weka-worker/<hash>/` beside the running program, e.g. `target/debug/weka-worker/`
//! under `cargo run`, else under the system's temporary folder), so that no manual step is
//! needed and an edited source compiles anew. The sources are read at run time, never built
//! into this crate: they link Weka (GPL), see `workers/weka/README.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

/// The folder of the worker's Java sources in this repository.
pub fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../workers/weka")
}

/// The worker's sources (its `.java` files, by name) and their sha256 in hex, or why not.
pub fn sources(dir: &Path) -> Result<(Vec<PathBuf>, String), String> {
    let listing = std::fs::read_dir(dir).map_err(|error| {
        format!(
            "cannot read the Weka worker's sources in {}: {error}",
            dir.display()
        )
    })?;
    let mut files: Vec<PathBuf> = listing
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "java"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no .java file in {}", dir.display()));
    }
    let mut hasher = Sha256::new();
    for file in &files {
        let text = std::fs::read(file)
            .map_err(|error| format!("cannot read {}: {error}", file.display()))?;
        hasher.update(file.file_name().unwrap_or_default().as_encoded_bytes());
        hasher.update((text.len() as u64).to_le_bytes());
        hasher.update(&text);
    }
    let hex = hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    Ok((files, hex))
}

/// The cache folder of compiled workers: `weka-worker/` beside the running program when it can
/// be written, else under the temporary folder.
fn cache_root() -> PathBuf {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join("weka-worker")));
    match beside {
        Some(dir) if std::fs::create_dir_all(&dir).is_ok() => dir,
        _ => std::env::temp_dir().join("experiments-weka-worker"),
    }
}

/// The `javac` beside `java` when `java` is a path, else `javac` on PATH.
fn javac_for(java: &str) -> PathBuf {
    let path = Path::new(java);
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join("javac"),
        _ => PathBuf::from("javac"),
    }
}

/// The folder of the compiled worker for these sources (compiling them if not yet cached),
/// or why it could not be made: javac missing, or javac's own message.
pub fn compiled(java: &str, jar: &Path, files: &[PathBuf], hash: &str) -> Result<PathBuf, String> {
    let root = cache_root();
    let folder = root.join(&hash[..16]);
    if folder.join("WekaWorker.class").is_file() {
        return Ok(folder);
    }
    std::fs::create_dir_all(&root)
        .map_err(|error| format!("cannot create {}: {error}", root.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".compiling-")
        .tempdir_in(&root)
        .map_err(|error| format!("cannot create a folder in {}: {error}", root.display()))?;
    let javac = javac_for(java);
    let output = Command::new(&javac)
        .arg("-nowarn")
        .arg("-cp")
        .arg(jar)
        .arg("-d")
        .arg(staging.path())
        .args(files)
        .output()
        .map_err(|error| {
            format!(
                "cannot run {} (the JDK's compiler, which compiles the Weka worker; Debian: \
                 apt-get install default-jdk-headless): {error}",
                javac.display()
            )
        })?;
    if !output.status.success() {
        return Err(format!(
            "{} could not compile the Weka worker against {}: {}",
            javac.display(),
            jar.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    // Another process may have published the same classes meanwhile: either copy serves.
    let kept = staging.keep();
    if std::fs::rename(&kept, &folder).is_err() {
        let _ = std::fs::remove_dir_all(&kept);
    }
    if folder.join("WekaWorker.class").is_file() {
        Ok(folder)
    } else {
        Err(format!(
            "cannot publish the compiled worker in {}",
            folder.display()
        ))
    }
}
