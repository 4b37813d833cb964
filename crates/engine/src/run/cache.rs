//! The on-disk cache of finished units: a second run reuses them, and a run killed half-way
//! recomputes only what was unfinished.
//!
//! A cached unit is one file `predictions/<dataset>/<learner>/r<rep>-f<fold>-<key>.bin` under
//! the results folder, where `<key>` starts the sha256 over everything the predictions depend
//! on ([`unit_key`]): the dataset's content and transforms, the learner's kind, parameters and
//! implementation revision, the split and the seed. Changing any of them, a learner's revision
//! included, gives a new key, so a stale entry is never read. Files are written to a temporary
//! name and renamed, so a file that exists is complete; each ends with a sha256 of its content,
//! checked on read, so a damaged file is recomputed rather than used. The temporary name
//! carries the host, the process and the thread, so any number of processes on any number of
//! machines sharing the results folder (the shards of a Slurm job array) may write at once: each
//! rename replaces the entry whole, and two writers of one entry write the same bytes.
//!
//! Each entry also carries its unit's identity inside the checksummed content: the full cache
//! key (dataset content and transforms, learner, parameters and revision, the split's rows and
//! the seed) and, in words, the dataset, learner, repetition and fold. An entry copied over
//! another unit's entry of the same shape is therefore a damaged entry (it names the unit it
//! belongs to), recomputed and reported as repaired. Entries of the previous format
//! (`CLSPRED2`, without the identity) are read as damaged ("an older cache format") and
//! recomputed once.
//!
//! A unit whose learner failed leaves a failure record beside its entry (`.failed` instead of
//! `.bin`: the timings on the first line, the message after), so that a merge of shards reports
//! the failure as a single run would; a later success removes it.

use std::path::{Path, PathBuf};

use learners::Probabilities;
use sha2::{Digest, Sha256};

use crate::error::Result;
use crate::plan::dataset_names::file_safe;
use crate::plan::units::Training;
use crate::run::lock::FolderLock;
use crate::run::unit::{run_unit, UnitResult, UnitSpec, UnitStatus};
use learners::SharedState;

const MAGIC: &[u8; 8] = b"CLSPRED3";
/// The magic of the previous format, whose entries did not carry their unit's identity.
const OLD_MAGIC: &[u8; 8] = b"CLSPRED2";
const HEADER: usize = 40;
/// The raw sha256 unit key stored in an entry.
const KEY: usize = 32;
const CHECKSUM: usize = 32;

/// The cache key of a unit: a sha256 (hex) over the dataset's content hash (after transforms)
/// and its transforms, the learner's kind, parameters and implementation revision, the split's
/// indices and the unit's seed.
pub fn unit_key(spec: &UnitSpec) -> String {
    data::catalog::to_hex(&unit_digest(spec))
}

/// The raw sha256 behind [`unit_key`], computed once per unit of a plan.
fn unit_digest(spec: &UnitSpec) -> [u8; KEY] {
    spec.keys.get_or(spec.unit, || computed_digest(spec))
}

/// The sha256 of everything a unit depends on.
fn computed_digest(spec: &UnitSpec) -> [u8; KEY] {
    let dataset = spec.dataset;
    let learner = spec.learner;
    let split = spec.split;
    let mut hasher = Sha256::new();
    hasher.update(b"experiments unit v2\n");
    hasher.update(dataset.content_hash.as_bytes());
    hasher.update(b"\n");
    hasher.update(format!("{:?}\n", dataset.transforms).as_bytes());
    hasher.update(learner.learner.describe().as_bytes());
    hasher.update(b"\n");
    hasher.update(learner.learner.revision().as_bytes());
    hasher.update(b"\n");
    hasher.update(learner.table.to_string().as_bytes());
    hasher.update(b"\n");
    hasher.update((split.train_len() as u64).to_le_bytes());
    hash_indices(&mut hasher, split.train_rows());
    for part in [split.validation.as_ref(), Some(&split.test)] {
        match part {
            Some(indices) => {
                hasher.update((indices.len() as u64).to_le_bytes());
                hash_indices(&mut hasher, indices.iter().copied());
            }
            None => hasher.update(u64::MAX.to_le_bytes()),
        }
    }
    hasher.update(spec.seed.to_le_bytes());
    hasher.finalize().into()
}

/// Feeds `indices` to `hasher` as 8-byte little-endian numbers, a block of them at a time (the
/// same bytes as one `update` per index, which at a million rows cost 10 ms a unit and was
/// paid each time a unit's entry was found, written or read).
fn hash_indices(hasher: &mut Sha256, indices: impl Iterator<Item = u32>) {
    const BLOCK: usize = 1024;
    let mut bytes = [0u8; 8 * BLOCK];
    let mut filled = 0;
    for index in indices {
        bytes[filled..filled + 8].copy_from_slice(&u64::from(index).to_le_bytes());
        filled += 8;
        if filled == bytes.len() {
            hasher.update(&bytes[..]);
            filled = 0;
        }
    }
    hasher.update(&bytes[..filled]);
}

/// A unit's identity in words, stored in its entry: the dataset, the learner, and the
/// repetition and fold (or the whole training part).
fn identity(spec: &UnitSpec) -> String {
    let which = match spec.training {
        Training::Whole => "the whole training part".to_string(),
        // A candidate scored on the split's own validation rows is the same model as the
        // split's unit of that candidate: one entry serves both.
        Training::Split(_) | Training::Inner { inner: None, .. } => format!(
            "repetition {} fold {}",
            spec.split.repetition, spec.split.fold
        ),
        Training::Inner {
            inner: Some(inner), ..
        } => format!(
            "repetition {} fold {} inner fold {inner}",
            spec.split.repetition, spec.split.fold
        ),
    };
    format!(
        "dataset '{}', learner '{}', {which}",
        spec.dataset.name, spec.learner.name
    )
}

/// Where a unit's predictions are cached under the results folder.
pub fn unit_path(results: &Path, spec: &UnitSpec) -> PathBuf {
    let key = unit_key(spec);
    results
        .join("predictions")
        .join(file_safe(&spec.dataset.name))
        .join(file_safe(&spec.learner.name))
        .join(match spec.training {
            Training::Whole => format!("whole-training-{}.bin", &key[..16]),
            Training::Split(_) | Training::Inner { inner: None, .. } => format!(
                "r{}-f{}-{}.bin",
                spec.split.repetition,
                spec.split.fold,
                &key[..16]
            ),
            Training::Inner {
                inner: Some(inner), ..
            } => format!(
                "r{}-f{}-i{inner}-{}.bin",
                spec.split.repetition,
                spec.split.fold,
                &key[..16]
            ),
        })
}

/// Writes a successful unit's probabilities and timings atomically (see
/// [`report::write_bytes`]), then its identity (the raw unit key, the length of the identity
/// in words and the words), followed by the sha256 of everything before it.
pub fn write_entry(path: &Path, spec: &UnitSpec, result: &UnitResult) -> Result<()> {
    let Some(predictions) = &result.predictions else {
        return Ok(());
    };
    let probabilities = &predictions.probabilities;
    let words = identity(spec);
    let mut bytes = Vec::with_capacity(
        HEADER + probabilities.as_flat().len() * 8 + KEY + 8 + words.len() + CHECKSUM,
    );
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(probabilities.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&(probabilities.num_classes() as u64).to_le_bytes());
    bytes.extend_from_slice(&result.fit_seconds.to_le_bytes());
    bytes.extend_from_slice(&result.predict_seconds.to_le_bytes());
    for value in probabilities.as_flat() {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes.extend_from_slice(&unit_digest(spec));
    bytes.extend_from_slice(&(words.len() as u64).to_le_bytes());
    bytes.extend_from_slice(words.as_bytes());
    let checksum = Sha256::digest(&bytes);
    bytes.extend_from_slice(&checksum);
    Ok(report::write_bytes(path, &bytes)?)
}

/// Where the failure record of the unit cached at `entry` is kept: beside it, `.failed`.
pub fn failure_path(entry: &Path) -> PathBuf {
    entry.with_extension("failed")
}

/// Records a failed unit beside its entry (see [`failure_path`]): its timings, then its message.
pub fn write_failure(entry: &Path, result: &UnitResult) -> Result<()> {
    let UnitStatus::Failed(message) = &result.status else {
        return Ok(());
    };
    let text = format!(
        "{} {}\n{message}",
        result.fit_seconds, result.predict_seconds
    );
    Ok(report::write_file(&failure_path(entry), &text)?)
}

/// The failed result recorded beside the entry `entry`, if there is a readable record.
pub fn read_failure(entry: &Path) -> Option<UnitResult> {
    let text = std::fs::read_to_string(failure_path(entry)).ok()?;
    let (timings, message) = text.split_once('\n')?;
    let mut seconds = timings.split(' ').map(str::parse::<f64>);
    let fit_seconds = seconds.next()?.ok()?;
    let predict_seconds = seconds.next()?.ok()?;
    Some(UnitResult::failed(message, fit_seconds, predict_seconds))
}

/// What reading a cache entry found.
#[derive(Debug)]
pub enum CacheRead {
    /// A complete, intact entry of the expected shape.
    Found(UnitResult),
    /// No entry yet.
    Missing,
    /// An entry that is damaged or of the wrong shape: why (it is then recomputed).
    Damaged(String),
}

/// Reads a unit's cache entry, checking its format, checksum, identity and shape.
pub fn read_entry(path: &Path, spec: &UnitSpec) -> CacheRead {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return CacheRead::Missing,
        Err(error) => return CacheRead::Damaged(format!("cannot be read: {error}")),
    };
    match decode(&bytes, spec) {
        Ok(result) => CacheRead::Found(result),
        Err(why) => CacheRead::Damaged(why),
    }
}

/// The little-endian word at `offset` of `bytes` (which must hold it).
fn word(bytes: &[u8], offset: usize) -> [u8; 8] {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[offset..offset + 8]);
    word
}

/// The unit's result from an entry's bytes, or why they are not the unit's intact entry.
fn decode(bytes: &[u8], spec: &UnitSpec) -> std::result::Result<UnitResult, String> {
    if bytes.len() >= 8 && &bytes[..8] == OLD_MAGIC {
        return Err("it was written in an older cache format (without its unit's identity)".into());
    }
    if bytes.len() < HEADER + KEY + 8 + CHECKSUM || &bytes[..8] != MAGIC {
        return Err(format!("{} bytes that are not a cache entry", bytes.len()));
    }
    let (content, checksum) = bytes.split_at(bytes.len() - CHECKSUM);
    if Sha256::digest(content).as_slice() != checksum {
        return Err("its checksum does not match its content".into());
    }
    let stored = |offset: usize| u64::from_le_bytes(word(content, offset));
    let values = usize::try_from(stored(8))
        .ok()
        .and_then(|rows| rows.checked_mul(usize::try_from(stored(16)).ok()?))
        .and_then(|count| count.checked_mul(8))
        .filter(|&length| length <= content.len() - HEADER - KEY - 8)
        .ok_or("its header does not match its length")?;
    let key_at = HEADER + values;
    let words_length = usize::try_from(stored(key_at + KEY)).unwrap_or(usize::MAX);
    if content.len() - key_at - KEY - 8 != words_length {
        return Err("its header does not match its length".into());
    }
    if content[key_at..key_at + KEY] != unit_digest(spec) {
        let words = String::from_utf8_lossy(&content[key_at + KEY + 8..]);
        return Err(format!(
            "it holds the predictions of another unit ({words}), not of {}",
            identity(spec)
        ));
    }
    let (rows, classes) = (spec.predicted_len(), spec.dataset.dataset.num_classes());
    if stored(8) != rows as u64 || stored(16) != classes as u64 {
        return Err("its shape differs from the unit's".into());
    }
    let values: Vec<f64> = (0..rows * classes)
        .map(|index| f64::from_le_bytes(word(content, HEADER + index * 8)))
        .collect();
    Ok(UnitResult {
        status: UnitStatus::Ok,
        fit_seconds: f64::from_le_bytes(word(content, 24)),
        predict_seconds: f64::from_le_bytes(word(content, 32)),
        predictions: Some(spec.predictions(Probabilities::from_flat(classes, values))),
    })
}

/// A unit's cached predictions under the results folder `results`; `None` if its entry is
/// missing or damaged.
pub fn cached_predictions(
    results: &Path,
    spec: &UnitSpec,
) -> Option<crate::run::unit::UnitPredictions> {
    let _lock = FolderLock::shared(results);
    match read_entry(&unit_path(results, spec), spec) {
        CacheRead::Found(result) => result.predictions,
        CacheRead::Missing | CacheRead::Damaged(_) => None,
    }
}

/// How a cached run obtained a unit's result.
#[derive(Clone, Debug, PartialEq)]
pub enum Provenance {
    /// Computed in this run (and cached if it succeeded).
    Computed,
    /// Read back from the cache.
    Reused,
    /// A damaged cache entry was found and the unit recomputed: why it was damaged.
    Repaired(String),
}

/// Runs one unit through the cache under `results`: reuse its intact entry, or compute it
/// with [`run_unit`] (handing it `shared`, asked only then) and store it. A failure to write
/// the entry fails the unit.
pub fn run_cached(
    results: &Path,
    spec: &UnitSpec,
    shared: &dyn Fn() -> Option<SharedState>,
) -> (UnitResult, Provenance, PathBuf) {
    let path = unit_path(results, spec);
    let found = {
        let _lock = FolderLock::shared(results);
        read_entry(&path, spec)
    };
    let provenance = match found {
        CacheRead::Found(result) => return (result, Provenance::Reused, path),
        CacheRead::Missing => Provenance::Computed,
        CacheRead::Damaged(why) => Provenance::Repaired(why),
    };
    let mut result = run_unit(spec, shared);
    // A publication does not move the cache while the unit's entry is being written.
    let _lock = FolderLock::shared(results);
    if result.status == UnitStatus::Ok {
        match write_entry(&path, spec, &result) {
            Ok(()) => {
                // A failure recorded by an earlier run no longer holds.
                let _ = std::fs::remove_file(failure_path(&path));
            }
            Err(error) => {
                result = UnitResult::failed(
                    format!("{error}"),
                    result.fit_seconds,
                    result.predict_seconds,
                );
            }
        }
    }
    if let Err(error) = write_failure(&path, &result) {
        // The unit has failed already; the record only lets a merge show why.
        eprintln!(
            "note: cannot record the failure of {}: {error}",
            path.display()
        );
    }
    (result, provenance, path)
}

/// What the cache holds for a unit, without computing anything (a merge of shards).
#[derive(Debug)]
pub enum Cached {
    /// An intact entry: the unit's result.
    Found(UnitResult),
    /// No entry, but a failure record: the failed result as recorded.
    Failed(UnitResult),
    /// Neither an intact entry nor a failure record: why (absent, or damaged and why).
    Missing(String),
}

/// Looks a unit up in the cache under `results` without computing it; also returns its entry's
/// path.
pub fn look_up(results: &Path, spec: &UnitSpec) -> (Cached, PathBuf) {
    let path = unit_path(results, spec);
    let _lock = FolderLock::shared(results);
    let found = match read_entry(&path, spec) {
        CacheRead::Found(result) => Cached::Found(result),
        CacheRead::Missing => match read_failure(&path) {
            Some(failed) => Cached::Failed(failed),
            None => Cached::Missing("not in the cache".into()),
        },
        CacheRead::Damaged(why) => Cached::Missing(format!("its cache entry is damaged ({why})")),
    };
    (found, path)
}
