//! Runs the units of a plan in parallel, each single-threaded, through the cache (see
//! [`crate::run::cache`]): a second run reuses finished units, and a run killed half-way recomputes
//! only what was unfinished. Records come back in unit order, so nothing downstream depends on
//! the number of threads. A shard runs a subset of the units the same way; a merge reads every
//! unit from the cache and fits nothing ([`Fitting::CacheOnly`]).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::error::Result;
use crate::plan::units::{Plan, Unit};
use crate::run::cache::{look_up, run_cached, Cached, Provenance};
use crate::run::free_memory;
use crate::run::shared::SharedStates;
use crate::run::unit::{UnitResult, UnitSpec, UnitStatus};
use learners::SharedState;

/// Without a terminal, the runner writes a progress line at most this often (milliseconds).
const PLAIN_LOG_EVERY_MS: u64 = 5_000;

/// What became of one unit, with a summary of its predictions (the predictions themselves stay
/// on disk, so memory does not grow with the number of units).
#[derive(Clone, Debug)]
pub struct UnitRecord<T> {
    /// Computed, reused or failed.
    pub status: Status,
    /// The unit's cache entry (see [`crate::run::cache::unit_path`]).
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
    let shared = SharedStates::new(plan, units);
    let ran = run_units_sharing(results, (plan, units, &shared), fitting, threads, summarise);
    shared.log_summary();
    ran
}

/// [`run_units`] with the shared states `shared`, which may span more units than `units` (a
/// tuning's inner units and the outer units after them): a state then lives on for the later
/// units of its dataset. The caller logs their summary.
pub fn run_units_sharing<T, F>(
    results: &Path,
    (plan, units, shared): (&Plan, &[Unit], &SharedStates),
    fitting: Fitting,
    threads: usize,
    summarise: F,
) -> Result<(Vec<UnitRecord<T>>, RunCounts)>
where
    T: Send,
    F: Fn(&UnitSpec, &UnitResult) -> T + Sync,
{
    let pool = crate::threads::thread_pool(threads)?;
    let progress = Progress::start(units.len());
    let records: Vec<UnitRecord<T>> = pool.install(|| {
        units
            .par_iter()
            .map(|&unit| {
                let spec = plan.spec(unit);
                let state = || shared.get(plan, unit);
                let record = run_one(results, (plan, unit, &spec), (fitting, &state), &progress);
                shared.finished(plan, unit);
                let summary = record
                    .result
                    .as_ref()
                    .filter(|result| result.predictions.is_some())
                    .map(|result| summarise(&spec, result));
                drop(record.result);
                let dataset = &spec.dataset.dataset;
                free_memory::release_after_unit(dataset.len() * dataset.schema().num_attributes());
                UnitRecord {
                    status: record.status,
                    path: record.path,
                    fit_seconds: record.fit_seconds,
                    predict_seconds: record.predict_seconds,
                    summary,
                }
            })
            .collect()
    });
    progress.finish();
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

/// What became of one unit, with its result (none when a merge missed it).
struct Ran {
    status: Status,
    path: PathBuf,
    fit_seconds: f64,
    predict_seconds: f64,
    result: Option<UnitResult>,
}

/// Runs one unit through the cache (or only looks it up, for a merge), telling `progress`.
fn run_one(
    results: &Path,
    (plan, unit, spec): (&Plan, Unit, &UnitSpec),
    (fitting, shared): (Fitting, &dyn Fn() -> Option<SharedState>),
    progress: &Progress,
) -> Ran {
    let (result, provenance, path) = match fitting {
        Fitting::Compute => run_cached(results, spec, shared),
        Fitting::CacheOnly { .. } => match look_up(results, spec) {
            (Cached::Found(result) | Cached::Failed(result), path) => {
                (result, Provenance::Reused, path)
            }
            (Cached::Missing(why), path) => {
                progress.unit_done(false, false);
                return Ran {
                    status: Status::Missing(why),
                    path,
                    fit_seconds: 0.0,
                    predict_seconds: 0.0,
                    result: None,
                };
            }
        },
    };
    if let Provenance::Repaired(why) = &provenance {
        progress.say(format!(
            "unit {}: its cache entry {} was damaged ({why}); computed again",
            plan.unit_words(unit),
            path.display()
        ));
    }
    let status = match (&result.status, provenance) {
        (UnitStatus::Failed(message), _) => {
            progress.say(format!("unit failed: {}: {message}", plan.unit_words(unit)));
            Status::Failed(message.clone())
        }
        (UnitStatus::Ok, Provenance::Reused) => Status::Reused,
        (UnitStatus::Ok, Provenance::Computed) => Status::Computed,
        (UnitStatus::Ok, Provenance::Repaired(why)) => Status::Repaired(why),
    };
    progress.unit_done(
        status == Status::Reused,
        matches!(status, Status::Failed(_)),
    );
    Ran {
        status,
        path,
        fit_seconds: result.fit_seconds,
        predict_seconds: result.predict_seconds,
        result: Some(result),
    }
}

/// The runner's progress: a bar on a terminal, plain log lines every few seconds otherwise.
struct Progress {
    total: usize,
    bar: Option<indicatif::ProgressBar>,
    finished: AtomicUsize,
    reused: AtomicUsize,
    failed: AtomicUsize,
    started: Instant,
    /// Milliseconds since the start at the last plain line.
    last_line: AtomicU64,
}

impl Progress {
    /// The progress of `total` units, starting now.
    fn start(total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} units, {per_sec}, ETA {eta} \
                 {msg}",
            ) {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            total,
            bar,
            finished: AtomicUsize::new(0),
            reused: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            started: Instant::now(),
            last_line: AtomicU64::new(0),
        }
    }

    /// A line of news (above the bar on a terminal).
    fn say(&self, line: String) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// One more unit done (reused from the cache, or failed).
    fn unit_done(&self, reused: bool, failed: bool) {
        if reused {
            self.reused.fetch_add(1, Ordering::Relaxed);
        }
        if failed {
            self.failed.fetch_add(1, Ordering::Relaxed);
        }
        let done = self.finished.fetch_add(1, Ordering::Relaxed) + 1;
        let (reused, failed) = (
            self.reused.load(Ordering::Relaxed),
            self.failed.load(Ordering::Relaxed),
        );
        if let Some(bar) = &self.bar {
            bar.set_message(format!("({reused} reused, {failed} failed)"));
            bar.inc(1);
            return;
        }
        // Without a terminal, a line every few seconds (and the last one).
        let elapsed = self.started.elapsed();
        let now = elapsed.as_millis() as u64;
        let previous = self.last_line.load(Ordering::Relaxed);
        let due = now >= previous + PLAIN_LOG_EVERY_MS
            && self
                .last_line
                .compare_exchange(previous, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok();
        if due || done == self.total {
            let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
            eprintln!(
                "[{:>6.1}s] {done}/{} units ({reused} reused, {failed} failed), {rate:.1} \
                 units/s, about {:.0}s to go",
                elapsed.as_secs_f64(),
                self.total,
                (self.total - done) as f64 / rate.max(1e-9)
            );
        }
    }

    /// Clears the bar.
    fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
