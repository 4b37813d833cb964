//! The cache of the slow dataset transform: the two classes 1-NN confuses most
//! ([`data::transform::reduce_to_most_confused`]), whose leave-one-out 1-NN run every run and
//! every `--check` of a config would otherwise repeat before its first unit.
//!
//! An entry is one JSON file `predictions/.transforms/two_most_confused-<key>.json` under the
//! results folder, kept with the units' cache when a run replaces its report. `<key>` starts the
//! sha256 over everything the choice depends on ([`key`]): the dataset's content hash before
//! the transform (not its name: a dataset under two names shares its entry), the tie rule and
//! [`data::transform::MOST_CONFUSED_REVISION`], so a stale entry is never read. The entry holds
//! the full key and the transform's record (the confusion matrix, the pair and why); an entry
//! that does not parse, names another key or does not fit the dataset's classes is computed
//! again and rewritten. Files are written to a temporary name and renamed
//! ([`report::write_bytes`]), so an entry that exists is complete. The cache is best-effort: an
//! entry that cannot be written is left out, and the transform computed again next time.

use std::path::{Path, PathBuf};

use data::transform::{self, MostConfusedRecord, TieRule, MOST_CONFUSED_REVISION};
use data::{DataError, Dataset};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The folder of the entries under an experiment's results folder.
pub fn folder(results: &Path) -> PathBuf {
    results.join("predictions").join(".transforms")
}

/// One cache entry as written.
#[derive(Serialize, Deserialize)]
struct Entry {
    /// The full key (hex).
    key: String,
    /// What the transform chose.
    record: MostConfusedRecord,
}

/// `dataset` reduced to the two classes 1-NN confuses most, with the transform's record: read
/// from the cache in `folder` when it holds this dataset's entry, else computed (saying so on
/// stderr, as it can take seconds) and written there. Without a folder, computed.
pub fn reduce_to_most_confused(
    dataset: &Dataset,
    folder: Option<&Path>,
) -> Result<(Dataset, MostConfusedRecord), DataError> {
    let rule = TieRule::default();
    let entry = folder.map(|folder| {
        let key = key(dataset, rule);
        (
            folder.join(format!("two_most_confused-{}.json", &key[..16])),
            key,
        )
    });
    let cached = entry
        .as_ref()
        .and_then(|(path, key)| read(path, key, dataset));
    let record = match cached {
        Some(record) => record,
        None => {
            eprintln!(
                "dataset '{}': finding the two classes 1-NN confuses most ({} rows, {} \
                 classes)",
                dataset.name(),
                dataset.len(),
                dataset.num_classes()
            );
            let record = transform::most_confused_record(dataset, rule)?;
            if let Some((path, key)) = entry {
                let entry = Entry {
                    key,
                    record: record.clone(),
                };
                // Best-effort: without the entry, the next run computes the record again.
                if let Ok(bytes) = serde_json::to_vec(&entry) {
                    let _ = report::write_bytes(&path, &bytes);
                }
            }
            record
        }
    };
    let reduced = transform::keep_most_confused(dataset, &record)?;
    let record = MostConfusedRecord {
        dataset: dataset.name().to_string(),
        ..record
    };
    Ok((reduced, record))
}

/// The cache key (hex sha256) of the transform of `dataset` with `rule`.
fn key(dataset: &Dataset, rule: TieRule) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"experiments transform two_most_confused v1\n");
    hasher.update(dataset.content_hash().as_bytes());
    hasher.update(format!("\n{rule:?}\n{MOST_CONFUSED_REVISION}\n").as_bytes());
    data::catalog::to_hex(&hasher.finalize())
}

/// The record of the entry at `path` when it is whole, has the key `key` and fits `dataset`'s
/// classes.
fn read(path: &Path, key: &str, dataset: &Dataset) -> Option<MostConfusedRecord> {
    let entry: Entry = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    let record = entry.record;
    let classes = dataset.num_classes();
    let fits = entry.key == key
        && record.class_values == dataset.schema().class_values
        && record.confusion.len() == classes
        && record.confusion.iter().all(|row| row.len() == classes)
        && record.pair.0 < record.pair.1
        && record.pair.1 < classes;
    fits.then_some(record)
}
