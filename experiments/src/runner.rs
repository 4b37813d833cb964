//! Runs the units of a plan in parallel, each single-threaded, with an on-disk cache of every
//! finished unit's predictions: a second run reuses them, and a run killed half-way recomputes
//! only what was unfinished.
//!
//! A cached unit is one file `predictions/<dataset>/<learner>/r<rep>-f<fold>-<key>.bin`, where
//! `<key>` is a sha256 over everything the predictions depend on (see [`unit_key`]). Files are
//! written to a temporary name and renamed, so a file that exists is complete.

use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};
use learners::Probabilities;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::plan::{Plan, Unit};

/// The outcome of one unit.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Predictions made now (and cached).
    Computed(UnitPredictions),
    /// Predictions read back from the cache.
    Reused(UnitPredictions),
    /// The learner failed (error or panic) on this unit: the message.
    Failed(String),
}

/// The predictions of one unit and the time its fit and prediction took when computed.
#[derive(Clone, Debug)]
pub struct UnitPredictions {
    /// One row of class probabilities per predicted row ([`predicted_rows`]: test, then
    /// validation).
    pub probabilities: Probabilities,
    /// Seconds to fit and predict, measured when the unit was computed.
    pub seconds: f64,
}

const MAGIC: &[u8; 8] = b"CLSPRED1";

/// The cache key of a unit: sha256 over the program version, the dataset's content hash (after
/// transforms) and its transforms, the learner's kind and parameters, the split's indices and
/// the unit's seed.
pub fn unit_key(plan: &Plan, unit: Unit) -> String {
    let dataset = &plan.datasets[unit.dataset];
    let learner = &plan.learners[unit.learner];
    let split = &dataset.plan.splits[unit.split];
    let mut hasher = Sha256::new();
    hasher.update(b"experiments unit v1\n");
    hasher.update(env!("CARGO_PKG_VERSION").as_bytes());
    hasher.update(b"\n");
    hasher.update(dataset.content_hash.as_bytes());
    hasher.update(b"\n");
    hasher.update(format!("{:?}\n", dataset.transforms).as_bytes());
    hasher.update(learner.learner.describe().as_bytes());
    hasher.update(b"\n");
    hasher.update(learner.table.to_string().as_bytes());
    hasher.update(b"\n");
    for part in [
        Some(&split.train),
        split.validation.as_ref(),
        Some(&split.test),
    ] {
        match part {
            Some(indices) => {
                hasher.update((indices.len() as u64).to_le_bytes());
                for &index in indices {
                    hasher.update((index as u64).to_le_bytes());
                }
            }
            None => hasher.update(u64::MAX.to_le_bytes()),
        }
    }
    hasher.update(plan.unit_seed(unit).to_le_bytes());
    let digest = hasher.finalize();
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Makes a name safe as one path component (letters, digits, `-`, `_`, `.`; others become `_`).
pub fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.starts_with('.') {
        format!("_{safe}")
    } else {
        safe
    }
}

/// Where a unit's predictions are cached under the results folder.
pub fn unit_path(results: &Path, plan: &Plan, unit: Unit) -> PathBuf {
    let dataset = &plan.datasets[unit.dataset];
    let split = &dataset.plan.splits[unit.split];
    let key = unit_key(plan, unit);
    results
        .join("predictions")
        .join(file_safe(&dataset.name))
        .join(file_safe(&plan.learners[unit.learner].name))
        .join(format!(
            "r{}-f{}-{}.bin",
            split.repetition,
            split.fold,
            &key[..16]
        ))
}

/// Writes predictions atomically (see [`report::write_bytes`]).
pub fn write_predictions(path: &Path, predictions: &UnitPredictions) -> Result<()> {
    let probabilities = &predictions.probabilities;
    let mut bytes = Vec::with_capacity(32 + probabilities.as_flat().len() * 8);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(probabilities.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&(probabilities.num_classes() as u64).to_le_bytes());
    bytes.extend_from_slice(&predictions.seconds.to_le_bytes());
    for value in probabilities.as_flat() {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    Ok(report::write_bytes(path, &bytes)?)
}

/// Reads cached predictions; `None` if the file is missing or not a complete, well-formed
/// prediction file of the expected shape (it is then recomputed).
pub fn read_predictions(path: &Path, rows: usize, classes: usize) -> Option<UnitPredictions> {
    let bytes = std::fs::read(path).ok()?;
    let header = 32;
    if bytes.len() != header + rows * classes * 8 || &bytes[..8] != MAGIC {
        return None;
    }
    let word = |offset: usize| -> [u8; 8] { bytes[offset..offset + 8].try_into().unwrap() };
    if u64::from_le_bytes(word(8)) != rows as u64 || u64::from_le_bytes(word(16)) != classes as u64
    {
        return None;
    }
    let seconds = f64::from_le_bytes(word(24));
    let values: Vec<f64> = (0..rows * classes)
        .map(|index| f64::from_le_bytes(word(header + index * 8)))
        .collect();
    Some(UnitPredictions {
        probabilities: Probabilities::from_flat(classes, values),
        seconds,
    })
}

/// The rows a unit predicts: the test rows, then the validation rows if the split has them
/// (model selection on the validation fold, as Wu & Flach do, needs their scores).
pub fn predicted_rows(split: &cv::Split) -> Vec<usize> {
    let mut rows = split.test.clone();
    rows.extend(split.validation.iter().flatten());
    rows
}

/// The first `rows` rows of a probability matrix (the test part of a unit's predictions), or
/// the rows after them (its validation part) when `after` is true.
pub fn part_of(probabilities: &Probabilities, rows: usize, after: bool) -> Probabilities {
    let classes = probabilities.num_classes();
    let flat = probabilities.as_flat();
    let cut = (rows * classes).min(flat.len());
    let values = if after { &flat[cut..] } else { &flat[..cut] };
    Probabilities::from_flat(classes, values.to_vec())
}

/// A binary task's test scores (positive-class probabilities) of a unit, read back from the
/// cache; `None` if the task is not binary or the unit has no complete predictions.
pub fn test_scores(results: &Path, plan: &Plan, unit: Unit) -> Option<evaluate::BinaryScores> {
    let dataset = &plan.datasets[unit.dataset];
    let positive = dataset.positive?;
    let split = &dataset.plan.splits[unit.split];
    let predictions = read_predictions(
        &unit_path(results, plan, unit),
        predicted_rows(split).len(),
        dataset.dataset.num_classes(),
    )?;
    let truth: Vec<usize> = split
        .test
        .iter()
        .map(|&row| dataset.dataset.class(row))
        .collect();
    let test_part = part_of(&predictions.probabilities, truth.len(), false);
    crate::measures::binary_scores(&test_part, &truth, positive)
}

/// Fits and predicts one unit, catching errors and panics.
fn compute_unit(plan: &Plan, unit: Unit) -> std::result::Result<UnitPredictions, String> {
    let dataset = &plan.datasets[unit.dataset];
    let learner = &plan.learners[unit.learner];
    let split = &dataset.plan.splits[unit.split];
    let seed = plan.unit_seed(unit);
    let started = Instant::now();
    let attempt = catch_unwind(AssertUnwindSafe(|| {
        let train = dataset.dataset.subset(split.train.clone());
        let validation = split
            .validation
            .as_ref()
            .map(|rows| dataset.dataset.subset(rows.clone()));
        let model = learner
            .learner
            .fit_with_validation(&train, validation.as_ref(), seed)?;
        let rows = predicted_rows(split);
        model.predict_proba(&data::Features::of(&dataset.dataset, rows))
    }));
    let seconds = started.elapsed().as_secs_f64();
    match attempt {
        Ok(Ok(probabilities)) => {
            let classes = dataset.dataset.num_classes();
            let rows = predicted_rows(split).len();
            if probabilities.len() != rows || probabilities.num_classes() != classes {
                return Err(format!(
                    "the model returned {} rows of {} probabilities for {rows} rows of {classes} \
                     classes",
                    probabilities.len(),
                    probabilities.num_classes(),
                ));
            }
            if let Some(bad) = probabilities.as_flat().iter().position(|p| !p.is_finite()) {
                return Err(format!(
                    "the model returned a non-finite probability (test row {})",
                    bad / classes.max(1)
                ));
            }
            Ok(UnitPredictions {
                probabilities,
                seconds,
            })
        }
        Ok(Err(error)) => Err(error.to_string()),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(format!("panicked: {message}"))
        }
    }
}

/// Runs one unit whose prediction file is `path`: reuse its cached predictions, or compute and
/// cache them.
pub fn run_unit(path: &Path, plan: &Plan, unit: Unit) -> Outcome {
    let dataset = &plan.datasets[unit.dataset];
    let rows = predicted_rows(&dataset.plan.splits[unit.split]).len();
    let classes = dataset.dataset.num_classes();
    if let Some(predictions) = read_predictions(path, rows, classes) {
        return Outcome::Reused(predictions);
    }
    match compute_unit(plan, unit) {
        Ok(predictions) => match write_predictions(path, &predictions) {
            Ok(()) => Outcome::Computed(predictions),
            Err(error) => Outcome::Failed(format!("{error:#}")),
        },
        Err(message) => Outcome::Failed(message),
    }
}

/// What became of one unit, with a summary of its predictions (the predictions themselves stay
/// on disk, so memory does not grow with the number of units).
#[derive(Clone, Debug)]
pub struct UnitRecord<T> {
    /// Computed, reused or failed.
    pub status: Status,
    /// The unit's prediction file (see [`unit_path`]).
    pub path: PathBuf,
    /// Seconds to fit and predict when computed (also for reused units); 0 if failed.
    pub seconds: f64,
    /// The summary of the predictions, unless the unit failed.
    pub summary: Option<T>,
}

/// How a unit's predictions were obtained.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Computed in this run.
    Computed,
    /// Read back from the cache.
    Reused,
    /// The learner failed: the message.
    Failed(String),
}

/// Counts of what a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunCounts {
    /// Units computed now.
    pub computed: usize,
    /// Units read back from the cache.
    pub reused: usize,
    /// Units whose learner failed.
    pub failed: usize,
}

/// Runs every unit of the plan on `threads` worker threads (each unit on one thread), with a
/// progress bar on a terminal and plain log lines otherwise, and summarises each unit's
/// predictions with `summarise`. Records are in unit order, so nothing downstream depends on
/// the number of threads.
pub fn run_all<T, F>(
    results: &Path,
    plan: &Plan,
    threads: usize,
    summarise: F,
) -> Result<(Vec<UnitRecord<T>>, RunCounts)>
where
    T: Send,
    F: Fn(Unit, &Probabilities) -> T + Sync,
{
    let total = plan.units.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .context("cannot start the worker threads")?;
    let terminal = std::io::stderr().is_terminal();
    let bar = if terminal {
        let bar = indicatif::ProgressBar::new(total as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} units, ETA {eta} {msg}",
            )
            .expect("a valid progress template"),
        );
        Some(bar)
    } else {
        None
    };
    let finished = AtomicUsize::new(0);
    let reused = AtomicUsize::new(0);
    let failed = AtomicUsize::new(0);
    let started = Instant::now();
    let step = (total / 20).max(1);
    let records: Vec<UnitRecord<T>> = pool.install(|| {
        plan.units
            .par_iter()
            .map(|&unit| {
                let path = unit_path(results, plan, unit);
                let outcome = run_unit(&path, plan, unit);
                match &outcome {
                    Outcome::Reused(_) => {
                        reused.fetch_add(1, Ordering::Relaxed);
                    }
                    Outcome::Failed(message) => {
                        failed.fetch_add(1, Ordering::Relaxed);
                        let line = format!(
                            "unit failed: {} / {} / split {}: {message}",
                            plan.datasets[unit.dataset].name,
                            plan.learners[unit.learner].name,
                            unit.split
                        );
                        match &bar {
                            Some(bar) => bar.println(line),
                            None => eprintln!("{line}"),
                        }
                    }
                    Outcome::Computed(_) => {}
                }
                let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                match &bar {
                    Some(bar) => {
                        bar.set_message(format!(
                            "({} reused, {} failed)",
                            reused.load(Ordering::Relaxed),
                            failed.load(Ordering::Relaxed)
                        ));
                        bar.inc(1);
                    }
                    None if done.is_multiple_of(step) || done == total => eprintln!(
                        "[{:>6.1}s] {done}/{total} units ({} reused, {} failed)",
                        started.elapsed().as_secs_f64(),
                        reused.load(Ordering::Relaxed),
                        failed.load(Ordering::Relaxed)
                    ),
                    None => {}
                }
                match outcome {
                    Outcome::Computed(predictions) => UnitRecord {
                        status: Status::Computed,
                        path,
                        seconds: predictions.seconds,
                        summary: Some(summarise(unit, &predictions.probabilities)),
                    },
                    Outcome::Reused(predictions) => UnitRecord {
                        status: Status::Reused,
                        path,
                        seconds: predictions.seconds,
                        summary: Some(summarise(unit, &predictions.probabilities)),
                    },
                    Outcome::Failed(message) => UnitRecord {
                        status: Status::Failed(message),
                        path,
                        seconds: 0.0,
                        summary: None,
                    },
                }
            })
            .collect()
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let count = |wanted: fn(&Status) -> bool| records.iter().filter(|r| wanted(&r.status)).count();
    let counts = RunCounts {
        computed: count(|status| *status == Status::Computed),
        reused: count(|status| *status == Status::Reused),
        failed: count(|status| matches!(status, Status::Failed(_))),
    };
    Ok((records, counts))
}
