//! Execute a checked experiment: every unit of its plan (the splits' units and the
//! whole-training ones) through the one runner and the cache, then the measures per fold, the
//! paired tests and the tests on the test set, as a [`RunRecord`] of plain data. Nothing here
//! writes a report: [`crate::report::write::report`] does, from the record.

use std::path::Path;
use std::time::Instant;

use crate::error::{Error, Result};
use crate::measures::measure::{measure_values, Measure};
use crate::plan::check::CheckedExperiment;
use crate::plan::units::{Plan, Unit};
use crate::record::results::{paired_tests, RunResults, UnitMeasures};
use crate::record::run_record::{MissingUnits, RunRecord};
use crate::record::sequential::{run_sequentially, SequentialRun};
use crate::record::tuning::{run_inner, TuningOutcome};
use crate::run::runner::{run_units_sharing, Fitting, RunCounts, Status, UnitRecord};
use crate::run::shared::SharedStates;
use crate::run::unit::{Part, UnitResult, UnitSpec};

/// Runs (or, for a merge, reads back from the cache under the results folder `folder`) every
/// unit of the experiment's plan on `threads` worker threads, and computes its measures and
/// tests. A merge that misses units stops here, naming them and their shards, unless
/// `allow_missing`.
pub fn execute(
    experiment: CheckedExperiment,
    folder: &Path,
    fitting: Fitting,
    threads: usize,
) -> Result<RunRecord> {
    let started = Instant::now();
    let CheckedExperiment {
        config,
        text,
        mut plan,
    } = experiment;
    crate::run::publish::check_writable(folder, &plan, true)?;
    if plan.datasets.is_empty() {
        let results = RunResults::empty();
        let (units, counts) = (Vec::new(), RunCounts::default());
        let missing = MissingUnits::default();
        return Ok(RunRecord::new(
            (config, text, plan),
            units,
            counts,
            missing,
            results,
            folder,
        ));
    }
    eprintln!(
        "experiment '{}': {} datasets, {} learners, {} units{}",
        config.name,
        plan.datasets.len(),
        plan.learners.len(),
        plan.units.len(),
        match fitting {
            Fitting::Compute => "",
            Fitting::CacheOnly { .. } => ", merged from the cache",
        }
    );
    // With tuning, one set of shared states for the inner units and the outer units: a
    // dataset's state built for its tuning serves its outer units too.
    let spanning = (plan.tuning.is_some())
        .then(|| SharedStates::new(&plan, &spanned_units(&plan, None, &plan.units)));
    let tuning = tune(folder, &mut plan, (fitting, threads), spanning.as_ref())?;
    let sequential = run_sequentially(folder, &mut plan, &config, (fitting, threads))?;
    let shared = spanning.unwrap_or_else(|| SharedStates::new(&plan, &plan.units));
    let measures = plan.measures.clone();
    let summarise = |spec: &UnitSpec, result: &UnitResult| unit_measures(&measures, spec, result);
    let outer = (&plan, &plan.units[..]);
    let outer_run = (fitting, threads, &shared);
    let (mut units, mut counts) = run_outer(folder, outer, &tuning.failed, outer_run, summarise)?;
    shared.log_summary();
    computed_before((&plan.units, &sequential), (&mut units, &mut counts));
    let missing = MissingUnits::of(folder, &plan, &units);
    if fitting
        == (Fitting::CacheOnly {
            allow_missing: false,
        })
        && !missing.is_empty()
    {
        return Err(Error::MissingUnits {
            experiment: config.name,
            missing: missing.describe(&plan),
        });
    }
    log_counts(&counts, started);
    let results = RunResults::new(&plan, &measures, &units)?;
    let tests = paired_tests(
        &plan,
        &results.folds,
        &plan.fold_tests,
        &config.test_options(None),
    );
    let mut record = RunRecord::new(
        (config, text, plan),
        units,
        counts,
        missing,
        results,
        folder,
    );
    record.tests = tests;
    record.tuning = tuning.rows;
    record.tuning_scores = tuning.scores;
    record.tuning_counts = tuning.counts;
    record.test_set_tests = crate::record::test_set_run::test_set_tests(
        &record.plan,
        &record.plan.test_set_tests,
        record.config.alpha,
        |dataset, learner| record.whole_training_predictions(dataset, learner),
    );
    Ok(record)
}

/// The measures of a successful unit's predictions on the test rows, and on its validation
/// rows when it has them.
fn unit_measures(measures: &[Measure], spec: &UnitSpec, result: &UnitResult) -> UnitMeasures {
    let positive = spec.dataset.positive;
    let predictions = result
        .predictions
        .as_ref()
        .expect("summaries are made of successful units");
    let (truth, probabilities) = predictions.part(Part::Test);
    let test = measure_values(measures, &probabilities, &truth, positive);
    let validation = predictions.has_part(Part::Validation).then(|| {
        let (truth, probabilities) = predictions.part(Part::Validation);
        measure_values(measures, &probabilities, &truth, positive)
    });
    UnitMeasures { test, validation }
}

/// Runs the inner units of the plan's tuned learners, if any, and records the choices in the
/// plan (an outer unit of a tuned learner then fits its chosen candidate).
fn tune(
    folder: &Path,
    plan: &mut Plan,
    (fitting, threads): (Fitting, usize),
    shared: Option<&SharedStates>,
) -> Result<TuningOutcome> {
    let (Some(tuning), Some(shared)) = (&plan.tuning, shared) else {
        return Ok(TuningOutcome::default());
    };
    tune_units(
        folder,
        plan,
        &tuning.units.clone(),
        (fitting, threads, shared),
    )
}

/// The units the shared states of a run span: the inner units of the tuning (`inner`, else
/// all of the plan's), then the outer units `outer`.
pub fn spanned_units(plan: &Plan, inner: Option<&[Unit]>, outer: &[Unit]) -> Vec<Unit> {
    let all = plan
        .tuning
        .as_ref()
        .map_or(&[][..], |tuning| &tuning.units[..]);
    let inner = inner.unwrap_or(all);
    inner.iter().chain(outer).copied().collect()
}

/// Runs the inner units `inner` (all of a plan's, or a shard's whole groups), logs what the
/// runner did with them and records the choices in the plan.
pub fn tune_units(
    folder: &Path,
    plan: &mut Plan,
    inner: &[Unit],
    (fitting, threads, shared): (Fitting, usize, &SharedStates),
) -> Result<TuningOutcome> {
    let Some(tuning) = &plan.tuning else {
        return Ok(TuningOutcome::default());
    };
    let mut outcome = run_inner(folder, plan, (tuning, inner), (fitting, threads), shared)?;
    let counts = outcome.counts;
    eprintln!(
        "tuning: {} inner units: {} computed, {} reused from the cache, {} failed",
        inner.len(),
        counts.computed,
        counts.reused,
        counts.failed
    );
    if let Some(tuning) = &mut plan.tuning {
        tuning.choices = std::mem::take(&mut outcome.choices);
    }
    Ok(outcome)
}

/// Runs the plan's units `units` (all, or a shard's) but those of a tuned learner none of whose
/// candidates succeeded, which fail with the tuning's message; records in the order of `units`.
pub fn run_outer<T, F>(
    folder: &Path,
    (plan, units): (&Plan, &[Unit]),
    failed: &[(Unit, String)],
    (fitting, threads, shared): (Fitting, usize, &SharedStates),
    summarise: F,
) -> Result<(Vec<UnitRecord<T>>, RunCounts)>
where
    T: Send,
    F: Fn(&UnitSpec, &UnitResult) -> T + Sync,
{
    if failed.is_empty() {
        return run_units_sharing(folder, (plan, units, shared), fitting, threads, summarise);
    }
    let failure = |unit: &Unit| failed.iter().find(|(other, _)| other == unit);
    let runnable: Vec<Unit> = units
        .iter()
        .copied()
        .filter(|unit| failure(unit).is_none())
        .collect();
    let runnable = (plan, &runnable[..], shared);
    let (records, mut counts) = run_units_sharing(folder, runnable, fitting, threads, summarise)?;
    let mut records = records.into_iter();
    let all = units
        .iter()
        .map(|unit| match failure(unit) {
            Some((_, message)) => UnitRecord {
                status: Status::Failed(message.clone()),
                path: std::path::PathBuf::new(),
                fit_seconds: 0.0,
                predict_seconds: 0.0,
                summary: None,
            },
            None => records.next().expect("a record per runnable unit"),
        })
        .collect();
    counts.failed += units.iter().filter(|unit| failure(unit).is_some()).count();
    Ok((all, counts))
}

/// Marks computed the units (`units`, in the records' order) the sequential phase computed,
/// which the pass over every unit then read back from the cache, and counts them so.
pub fn computed_before<T>(
    (units, sequential): (&[Unit], &SequentialRun),
    (records, counts): (&mut [UnitRecord<T>], &mut RunCounts),
) {
    for (unit, record) in units.iter().zip(records) {
        if record.status == Status::Reused && sequential.computed.contains(unit) {
            record.status = Status::Computed;
            counts.reused -= 1;
            counts.computed += 1;
        }
    }
}

/// The log line of what the runner did with the plan's units.
fn log_counts(counts: &RunCounts, started: Instant) {
    eprintln!(
        "units: {} computed, {} reused from the cache, {} failed{} ({:.1}s so far)",
        counts.computed,
        counts.reused,
        counts.failed,
        if counts.missing > 0 {
            format!(", {} missing", counts.missing)
        } else {
            String::new()
        },
        started.elapsed().as_secs_f64()
    );
}
