//! Runs the units of a plan in parallel, each single-threaded, through the cache (see
//! [`crate::cache`]): a second run reuses finished units, and a run killed half-way recomputes
//! only what was unfinished. Records come back in unit order, so nothing downstream depends on
//! the number of threads. A shard runs a subset of the units the same way; a merge reads every
//! unit from the cache and fits nothing ([`Fitting::CacheOnly`]).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::cache::{look_up, run_cached, Cached, Provenance};
use crate::error::{Error, Result};
use crate::plan::{Plan, Unit};
use crate::unit::{UnitResult, UnitSpec, UnitStatus};

/// Without a terminal, the runner writes a progress line at most this often (milliseconds).
const PLAIN_LOG_EVERY_MS: u64 = 5_000;

/// What became of one unit, with a summary of its predictions (the predictions themselves stay
/// on disk, so memory does not grow with the number of units).
#[derive(Clone, Debug)]
pub struct UnitRecord<T> {
    /// Computed, reused or failed.
    pub status: Status,
    /// The unit's cache entry (see [`crate::cache::unit_path`]).
    pub path: PathBuf,
    /// Seconds in `fit` when computed (also for reused units).
    pub fit_seconds: f64,
    /// Seconds in `predict_proba` when computed (also for reused units).
    pub predict_seconds: f64,
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
    /// Its cache entry was damaged (why) and it was computed again.
    Repaired(String),
    /// The learner failed: the message.
    Failed(String),
    /// A merge found neither the unit's entry nor a failure record in the cache: why.
    Missing(String),
}

/// Whether units missing from the cache are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fitting {
    /// Reuse what the cache holds and compute the rest (a run or a shard).
    Compute,
    /// Only read the cache; a unit it lacks is [`Status::Missing`] (a merge of shards). With
    /// `allow_missing` a merge reports on what is there; without, a missing unit stops it.
    CacheOnly {
        /// Whether a merge may go on without the missing units.
        allow_missing: bool,
    },
}

/// Counts of what a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunCounts {
    /// Units computed now (repaired ones included).
    pub computed: usize,
    /// Units read back from the cache.
    pub reused: usize,
    /// Units whose cache entry was damaged and which were computed again.
    pub repaired: usize,
    /// Units whose learner failed.
    pub failed: usize,
    /// Units a merge did not find in the cache.
    pub missing: usize,
}

/// The pool of `threads` worker threads (at least one) that the engine's parallel work runs
/// on: the units, and the preparation of the datasets.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(Error::Threads)
}

/// Runs every unit of the plan on `threads` worker threads (each unit on one thread) through
/// the cache under `results`, with a progress bar on a terminal and plain log lines otherwise,
/// and summarises each successful unit's result with `summarise`. Records are in unit order.
pub fn run_all<T, F>(
    results: &Path,
    plan: &Plan,
    threads: usize,
    summarise: F,
) -> Result<(Vec<UnitRecord<T>>, RunCounts)>
where
    T: Send,
    F: Fn(&UnitSpec, &UnitResult) -> T + Sync,
{
    run_units(
        results,
        plan,
        &plan.units,
        Fitting::Compute,
        threads,
        summarise,
    )
}

/// [`run_all`] over the given units of the plan (a shard's, or all), computing missing ones or
/// only reading the cache as `fitting` says. Records are in the order of `units`.
pub fn run_units<T, F>(
    results: &Path,
    plan: &Plan,
    units: &[Unit],
    fitting: Fitting,
    threads: usize,
    summarise: F,
) -> Result<(Vec<UnitRecord<T>>, RunCounts)>
where
    T: Send,
    F: Fn(&UnitSpec, &UnitResult) -> T + Sync,
{
    let total = units.len();
    let pool = thread_pool(threads)?;
    let terminal = std::io::stderr().is_terminal();
    let bar = if terminal {
        let bar = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} units, {per_sec}, ETA {eta} {msg}",
        ) {
            bar.set_style(style);
        }
        Some(bar)
    } else {
        None
    };
    let say = |line: String| match &bar {
        Some(bar) => bar.println(line),
        None => eprintln!("{line}"),
    };
    let finished = AtomicUsize::new(0);
    let reused = AtomicUsize::new(0);
    let failed = AtomicUsize::new(0);
    let started = Instant::now();
    // Without a terminal, a line every few seconds (and the last one).
    let last_line = std::sync::atomic::AtomicU64::new(0);
    let records: Vec<UnitRecord<T>> = pool.install(|| {
        units
            .par_iter()
            .map(|&unit| {
                let spec = plan.spec(unit);
                let (result, provenance, path) = match fitting {
                    Fitting::Compute => run_cached(results, &spec),
                    Fitting::CacheOnly { .. } => match look_up(results, &spec) {
                        (Cached::Found(result), path) => (result, Provenance::Reused, path),
                        (Cached::Failed(result), path) => (result, Provenance::Reused, path),
                        (Cached::Missing(why), path) => {
                            let record = UnitRecord {
                                status: Status::Missing(why),
                                path,
                                fit_seconds: 0.0,
                                predict_seconds: 0.0,
                                summary: None,
                            };
                            finished.fetch_add(1, Ordering::Relaxed);
                            if let Some(bar) = &bar {
                                bar.inc(1);
                            }
                            return record;
                        }
                    },
                };
                let name = || plan.unit_words(unit);
                if let Provenance::Repaired(why) = &provenance {
                    say(format!(
                        "unit {}: its cache entry {} was damaged ({why}); computed again",
                        name(),
                        path.display()
                    ));
                }
                let status = match (&result.status, provenance) {
                    (UnitStatus::Failed(message), _) => {
                        failed.fetch_add(1, Ordering::Relaxed);
                        say(format!("unit failed: {}: {message}", name()));
                        Status::Failed(message.clone())
                    }
                    (UnitStatus::Ok, Provenance::Reused) => {
                        reused.fetch_add(1, Ordering::Relaxed);
                        Status::Reused
                    }
                    (UnitStatus::Ok, Provenance::Computed) => Status::Computed,
                    (UnitStatus::Ok, Provenance::Repaired(why)) => Status::Repaired(why),
                };
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
                    None => {
                        let elapsed = started.elapsed();
                        let now = elapsed.as_millis() as u64;
                        let previous = last_line.load(Ordering::Relaxed);
                        let due = now >= previous + PLAIN_LOG_EVERY_MS
                            && last_line
                                .compare_exchange(
                                    previous,
                                    now,
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                )
                                .is_ok();
                        if due || done == total {
                            let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
                            eprintln!(
                                "[{:>6.1}s] {done}/{total} units ({} reused, {} failed), \
                                 {rate:.1} units/s, about {:.0}s to go",
                                elapsed.as_secs_f64(),
                                reused.load(Ordering::Relaxed),
                                failed.load(Ordering::Relaxed),
                                (total - done) as f64 / rate.max(1e-9)
                            );
                        }
                    }
                }
                let summary = result
                    .predictions
                    .is_some()
                    .then(|| summarise(&spec, &result));
                UnitRecord {
                    status,
                    path,
                    fit_seconds: result.fit_seconds,
                    predict_seconds: result.predict_seconds,
                    summary,
                }
            })
            .collect()
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let count = |wanted: fn(&Status) -> bool| records.iter().filter(|r| wanted(&r.status)).count();
    let counts = RunCounts {
        computed: count(|status| matches!(status, Status::Computed | Status::Repaired(_))),
        reused: count(|status| *status == Status::Reused),
        repaired: count(|status| matches!(status, Status::Repaired(_))),
        failed: count(|status| matches!(status, Status::Failed(_))),
        missing: count(|status| matches!(status, Status::Missing(_))),
    };
    Ok((records, counts))
}
