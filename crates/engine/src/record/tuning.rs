//! Fair tuning, run: the inner units of a plan's tuned learners through the one runner and the
//! cache, each candidate scored by the tuning measure on its inner folds (the mean over them),
//! and for every outer unit the candidate of best score (a tie goes to the first in the grid's
//! order, or the first drawn), whose model is then fitted on the outer training rows as any
//! unit is. The choices and the tuning table are plain data of the record.

use std::collections::HashMap;
use std::path::Path;

use crate::error::Result;
use crate::plan::tuning::{Inner, Tuning};
use crate::plan::units::{Plan, Training, Unit};
use crate::run::runner::{run_units_sharing, Fitting, RunCounts, Status, UnitRecord};
use crate::run::shared::SharedStates;
use crate::run::unit::{Part, UnitResult, UnitSpec};

/// One row of `tables/tuning.csv`: the value one tuned parameter took in one outer unit.
#[derive(Clone, Debug, PartialEq)]
pub struct TuningRow {
    /// The dataset.
    pub dataset: String,
    /// The tuned learner.
    pub learner: String,
    /// The outer split's repetition.
    pub repetition: usize,
    /// The outer split's fold.
    pub fold: usize,
    /// True for the model on the whole training part (a fixed test set's tests ask for it):
    /// its repetition and fold then name no split.
    pub whole: bool,
    /// The tuned parameter.
    pub parameter: String,
    /// The value chosen, as a config writes it.
    pub value: String,
    /// The chosen configuration's inner score (the mean of the tuning measure over the inner
    /// folds).
    pub inner_score: f64,
    /// The configurations evaluated (each on every inner fold).
    pub evaluations: usize,
    /// Seconds of fitting and predicting of the inner units of this outer unit.
    pub seconds: f64,
}

/// What the inner units gave: the chosen candidates, the tuning table, the runner's counts,
/// and the outer units none of whose candidates succeeded (with the first failure).
#[derive(Default)]
pub struct TuningOutcome {
    /// The chosen candidate of each (dataset, learner, split).
    pub choices: HashMap<(usize, usize, usize), usize>,
    /// The tuning table's rows, ordered by dataset, learner, split, parameter.
    pub rows: Vec<TuningRow>,
    /// What the runner did with the inner units.
    pub counts: RunCounts,
    /// The outer units every candidate of which failed, with the first failure.
    pub failed: Vec<(Unit, String)>,
    /// Each candidate's mean inner score (none if it failed), per outer unit of a tuned learner.
    pub scores: Vec<CandidateScores>,
}

/// The mean inner score of every candidate of a tuned learner in one outer unit, in candidate
/// order (none for a candidate that failed or could not be scored).
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateScores {
    /// The dataset's index in the plan.
    pub dataset: usize,
    /// The learner's index in the plan.
    pub learner: usize,
    /// The outer split's index.
    pub split: usize,
    /// The scores.
    pub scores: Vec<Option<f64>>,
}

/// Runs (or reads from the cache) the inner units `units` of `tuning` (all of them, or the
/// whole groups of a shard's outer units, in plan order) with the shared states `shared` and
/// chooses a candidate for each outer unit of a tuned learner they cover.
pub fn run_inner(
    folder: &Path,
    plan: &Plan,
    (tuning, units): (&Tuning, &[Unit]),
    (fitting, threads): (Fitting, usize),
    shared: &SharedStates,
) -> Result<TuningOutcome> {
    let measure = &tuning.settings.measure;
    let part = match tuning.settings.inner {
        Inner::Folds(_) => Part::Test,
        Inner::Validation => Part::Validation,
    };
    let score = |spec: &UnitSpec, result: &UnitResult| {
        let predictions = result.predictions.as_ref().expect("a successful unit");
        let (truth, probabilities) = predictions.part(part);
        measure.compute(&probabilities, &truth, spec.dataset.positive)
    };
    let (records, counts) =
        run_units_sharing(folder, (plan, units, shared), fitting, threads, score)?;
    let mut outcome = choose(plan, (tuning, units), &records);
    outcome.counts = counts;
    Ok(outcome)
}

/// The inner units' records of one outer unit (dataset, learner, split), with their candidates.
type Group<'a> = ((usize, usize, usize), Vec<(usize, &'a UnitRecord<f64>)>);

/// The inner units' records grouped by outer unit, each candidate's mean score, and the choice.
fn choose(
    plan: &Plan,
    (tuning, units): (&Tuning, &[Unit]),
    records: &[UnitRecord<f64>],
) -> TuningOutcome {
    let mut groups: Vec<Group> = Vec::new();
    for (unit, record) in units.iter().zip(records) {
        let Training::Inner {
            split, candidate, ..
        } = unit.training
        else {
            continue;
        };
        let key = (unit.dataset, unit.learner, split);
        match groups.last_mut() {
            Some((last, members)) if *last == key => members.push((candidate, record)),
            _ => groups.push((key, vec![(candidate, record)])),
        }
    }
    let lower_is_better = tuning.settings.measure.lower_is_better();
    let mut outcome = TuningOutcome::default();
    for (key, members) in groups {
        let seconds: f64 = members
            .iter()
            .map(|(_, record)| record.fit_seconds + record.predict_seconds)
            .sum();
        let means = candidate_means(&members);
        outcome.scores.push(CandidateScores {
            dataset: key.0,
            learner: key.1,
            split: key.2,
            scores: means.iter().map(|(_, mean)| *mean).collect(),
        });
        match best(&means, &members, lower_is_better) {
            Ok((candidate, score, evaluations)) => {
                outcome.choices.insert(key, candidate);
                outcome.rows.extend(rows(
                    plan,
                    tuning,
                    key,
                    (candidate, score),
                    (evaluations, seconds),
                ));
            }
            Err(failure) => {
                let (dataset, learner, split) = key;
                let outer = if plan.datasets[dataset].is_whole(split) {
                    Unit::on_whole_training(dataset, learner)
                } else {
                    Unit::on_split(dataset, learner, split)
                };
                outcome.failed.push((outer, failure));
            }
        }
    }
    outcome
}

/// Each candidate's mean score over its inner folds, in candidate order: none when one of its
/// folds failed or could not be scored.
fn candidate_means(members: &[(usize, &UnitRecord<f64>)]) -> Vec<(usize, Option<f64>)> {
    let mut sums: Vec<(usize, f64, usize, bool)> = Vec::new();
    for &(candidate, record) in members {
        let position = match sums.iter().position(|entry| entry.0 == candidate) {
            Some(position) => position,
            None => {
                sums.push((candidate, 0.0, 0, true));
                sums.len() - 1
            }
        };
        match record.summary {
            Some(score) if score.is_finite() => {
                sums[position].1 += score;
                sums[position].2 += 1;
            }
            _ => sums[position].3 = false,
        }
    }
    sums.iter()
        .map(|&(candidate, sum, count, scored)| {
            (candidate, (scored && count > 0).then(|| sum / count as f64))
        })
        .collect()
}

/// The candidate of best mean score (the first on a tie), its score and the number of
/// candidates; when every one failed or could not be scored, the first failure.
fn best(
    means: &[(usize, Option<f64>)],
    members: &[(usize, &UnitRecord<f64>)],
    lower_is_better: bool,
) -> std::result::Result<(usize, f64, usize), String> {
    let mut chosen: Option<(usize, f64)> = None;
    for &(candidate, mean) in means {
        let Some(mean) = mean else { continue };
        let better = match chosen {
            None => true,
            Some((_, best)) if lower_is_better => mean < best,
            Some((_, best)) => mean > best,
        };
        if better {
            chosen = Some((candidate, mean));
        }
    }
    chosen
        .map(|(candidate, mean)| (candidate, mean, means.len()))
        .ok_or_else(|| {
            let failure = members.iter().find_map(|(_, record)| match &record.status {
                Status::Failed(message) | Status::Missing(message) => Some(message.clone()),
                _ => None,
            });
            format!(
                "tuning: every configuration failed or could not be scored ({})",
                failure.unwrap_or_else(|| "the tuning measure could not be computed".to_string())
            )
        })
}

/// The tuning table's rows of one outer unit: one per tuned parameter.
fn rows(
    plan: &Plan,
    tuning: &Tuning,
    (dataset, learner, split): (usize, usize, usize),
    (candidate, score): (usize, f64),
    (evaluations, seconds): (usize, f64),
) -> Vec<TuningRow> {
    let tuned = tuning.learners[learner]
        .as_ref()
        .expect("inner units are a tuned learner's");
    let outer = plan.datasets[dataset].outer_split(split);
    tuned
        .parameters
        .iter()
        .zip(&tuned.candidates[candidate].values)
        .map(|(parameter, value)| TuningRow {
            dataset: plan.datasets[dataset].name.clone(),
            learner: plan.learners[learner].name.clone(),
            repetition: outer.repetition,
            fold: outer.fold,
            whole: plan.datasets[dataset].is_whole(split),
            parameter: parameter.clone(),
            value: written(value),
            inner_score: score,
            evaluations,
            seconds,
        })
        .collect()
}

/// A chosen value as a config writes it, without a string's quotes (`1e-8`, `0.25`, `5`,
/// `uniform`).
fn written(value: &toml::Value) -> String {
    match value {
        toml::Value::Float(number) => format!("{number:?}"),
        toml::Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
