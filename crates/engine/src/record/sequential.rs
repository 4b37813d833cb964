//! Sequential stopping, run (issue 44): with `[stopping]`, the units of the protocol's splits
//! run repetition by repetition; after each one, every dataset's pairs are decided from its
//! complete repetitions ([`stopping_decisions`], the function the report calls too), and a
//! dataset whose pairs are all decided schedules no more units. Its splits are then cut to the
//! repetitions run, so every table, test and figure after it reads only those. Deterministic:
//! a decision uses completed repetitions in order, whatever the threads or a kill and resume.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::config::experiment::ExperimentConfig;
use crate::error::Result;
use crate::plan::stopping::{resolve, Stopping};
use crate::plan::stopping_decisions::{dataset_stop, repetition_means, stopping_decisions};
use crate::plan::units::{Plan, Unit};
use crate::run::runner::{run_units, Fitting, RunCounts};
use crate::run::unit::{Part, UnitResult, UnitSpec};

/// What the sequential phase did: the units it computed, and per dataset the repetitions run
/// when it stopped before the protocol's last.
#[derive(Default)]
pub struct SequentialRun {
    /// The units computed (the later pass reads them back from the cache).
    pub computed: HashSet<Unit>,
    /// (dataset, repetitions run) of the datasets that stopped early.
    pub stopped: Vec<(usize, usize)>,
}

/// Runs the plan's split units repetition by repetition while some dataset has undecided
/// pairs (nothing without `[stopping]`; a merge reads them from the cache, and so stops where
/// a single run stops), and cuts the stopped datasets' splits to the repetitions run.
pub fn run_sequentially(
    folder: &Path,
    plan: &mut Plan,
    config: &ExperimentConfig,
    (fitting, threads): (Fitting, usize),
) -> Result<SequentialRun> {
    let Some(stopping) = resolve(config, plan)? else {
        return Ok(SequentialRun::default());
    };
    let run = repetitions_in_order(folder, plan, &stopping, (fitting, threads), None)?;
    for &(dataset, repetitions) in &run.stopped {
        cut(plan, dataset, repetitions);
    }
    Ok(run)
}

/// A shard's units with `[stopping]`: its units repetition by repetition, each repetition's
/// other units read from the cache where other shards have finished them, and none after a
/// dataset's pairs are decided on the repetitions complete so far; the units of `mine` it still
/// has to run (all of them without `[stopping]`), and what the phase computed. The merge
/// decides again from the whole cache, so it stops where a single run stops whatever the
/// shards skipped.
pub fn shard_units(
    folder: &Path,
    plan: &Plan,
    config: &ExperimentConfig,
    (mine, threads): (&[Unit], usize),
) -> Result<(Vec<Unit>, SequentialRun)> {
    let Some(stopping) = resolve(config, plan)? else {
        return Ok((mine.to_vec(), SequentialRun::default()));
    };
    let own: HashSet<Unit> = mine.iter().copied().collect();
    let run = repetitions_in_order(
        folder,
        plan,
        &stopping,
        (Fitting::Compute, threads),
        Some(&own),
    )?;
    let stopped_at = |unit: &Unit| {
        let stop = run
            .stopped
            .iter()
            .find(|(dataset, _)| *dataset == unit.dataset);
        let repetition = |split: usize| plan.datasets[unit.dataset].plan.splits[split].repetition;
        stop.is_some_and(|&(_, runs)| unit.split().is_some_and(|split| repetition(split) >= runs))
    };
    let kept = mine
        .iter()
        .copied()
        .filter(|unit| !stopped_at(unit))
        .collect();
    Ok((kept, run))
}

/// The repetitions in order, each dataset until its pairs are decided: every unit computed (or
/// with `own`, only those; the others read from the cache if they are there).
fn repetitions_in_order(
    folder: &Path,
    plan: &Plan,
    stopping: &Stopping,
    (fitting, threads): (Fitting, usize),
    own: Option<&HashSet<Unit>>,
) -> Result<SequentialRun> {
    let mut run = SequentialRun::default();
    let mut values: HashMap<Unit, f64> = HashMap::new();
    let mut active: Vec<bool> = vec![true; plan.datasets.len()];
    for repetition in 0..stopping.settings.max_repetitions {
        let units = repetition_units(plan, &active, repetition);
        if units.is_empty() {
            break;
        }
        let (mine, others): (Vec<Unit>, Vec<Unit>) = units
            .iter()
            .partition(|unit| own.is_none_or(|own| own.contains(unit)));
        let read = Fitting::CacheOnly {
            allow_missing: true,
        };
        for (part, fitting) in [(mine, fitting), (others, read)] {
            let counts = run_part(
                folder,
                (plan, stopping),
                (&part, fitting, threads),
                &mut run,
                &mut values,
            )?;
            if fitting == Fitting::Compute {
                log_repetition(repetition, &counts);
            }
        }
        for (dataset, running) in active.iter_mut().enumerate() {
            if *running && decided(plan, stopping, dataset, &values)? {
                *running = false;
                if repetition + 1 < stopping.repetitions {
                    run.stopped.push((dataset, repetition + 1));
                    eprintln!(
                        "stopping: {}: every pair decided after repetition {} of {}",
                        plan.datasets[dataset].name,
                        repetition + 1,
                        stopping.repetitions
                    );
                }
            }
        }
    }
    Ok(run)
}

/// Runs (or reads) `units`, keeping each one's value of the stopping measure in `values` and
/// the computed ones in `run`.
fn run_part(
    folder: &Path,
    (plan, stopping): (&Plan, &Stopping),
    (units, fitting, threads): (&[Unit], Fitting, usize),
    run: &mut SequentialRun,
    values: &mut HashMap<Unit, f64>,
) -> Result<RunCounts> {
    if units.is_empty() {
        return Ok(RunCounts::default());
    }
    let measure = &plan.measures[stopping.measure];
    let score = |spec: &UnitSpec, result: &UnitResult| {
        let predictions = result.predictions.as_ref().expect("a successful unit");
        let (truth, probabilities) = predictions.part(Part::Test);
        measure.compute(&probabilities, &truth, spec.dataset.positive)
    };
    let (records, counts) = run_units(folder, plan, units, fitting, threads, score)?;
    for (unit, record) in units.iter().zip(&records) {
        if matches!(record.status, crate::run::runner::Status::Computed) {
            run.computed.insert(*unit);
        }
        if let Some(value) = record.summary {
            values.insert(*unit, value);
        }
    }
    Ok(counts)
}

/// The split units of repetition `repetition` of the active datasets, in plan order.
fn repetition_units(plan: &Plan, active: &[bool], repetition: usize) -> Vec<Unit> {
    plan.units
        .iter()
        .filter(|unit| active[unit.dataset])
        .filter(|unit| {
            unit.split().is_some_and(|split| {
                plan.datasets[unit.dataset].plan.splits[split].repetition == repetition
            })
        })
        .copied()
        .collect()
}

/// Whether every deciding pair of `dataset` is decided on the repetitions run so far.
fn decided(
    plan: &Plan,
    stopping: &Stopping,
    dataset: usize,
    values: &HashMap<Unit, f64>,
) -> Result<bool> {
    let prepared = &plan.datasets[dataset];
    let means = repetition_means(prepared, plan.learners.len(), |learner, split| {
        values
            .get(&Unit::on_split(dataset, learner, split))
            .copied()
    });
    Ok(dataset_stop(&stopping_decisions(&means, stopping)?).is_some())
}

/// Cuts `dataset`'s splits (ordered by repetition) and their units to the first `repetitions`.
fn cut(plan: &mut Plan, dataset: usize, repetitions: usize) {
    let splits = &mut plan.datasets[dataset].plan.splits;
    let kept = splits
        .iter()
        .take_while(|split| split.repetition < repetitions)
        .count();
    splits.truncate(kept);
    plan.units
        .retain(|unit| unit.dataset != dataset || unit.split().is_none_or(|split| split < kept));
}

/// The log line of one repetition of the sequential phase.
fn log_repetition(repetition: usize, counts: &RunCounts) {
    eprintln!(
        "stopping: repetition {}: {} units computed, {} reused from the cache, {} failed",
        repetition + 1,
        counts.computed,
        counts.reused,
        counts.failed
    );
}
