//! What a run produced, as plain data: the plan as run, what became of every unit, the
//! measures per fold, the paired tests over the folds and the tests on the test set. The units'
//! predictions stay in the cache on disk and are read one unit at a time, when an analysis or
//! a figure asks for them, so memory does not grow with the number of units.

use std::path::{Path, PathBuf};

use crate::config::experiment::ExperimentConfig;
use crate::measures::test_set::TestSetRecord;
use crate::plan::units::{Plan, Unit};
use crate::record::results::{RunResults, TestRecord, UnitMeasures};
use crate::record::tuning::{CandidateScores, TuningRow};
use crate::run::runner::{RunCounts, Status, UnitRecord};
use crate::run::shard::{recorded_shard_count, Assignment, SHARDS_FOLDER};
use crate::run::unit::{Part, UnitPredictions};

/// Everything a run computed, handed to the analyses and to the report.
pub struct RunRecord {
    /// The config as parsed.
    pub config: ExperimentConfig,
    /// The config file's text, saved with the results.
    pub text: String,
    /// The plan as run (the indices of every record below refer to it).
    pub plan: Plan,
    /// What became of each unit of the plan, in plan order, with its measures.
    pub units: Vec<UnitRecord<UnitMeasures>>,
    /// What the runner did.
    pub counts: RunCounts,
    /// The units a merge did not find in the cache (none in a run).
    pub missing: MissingUnits,
    /// The per-fold results (tidy table and indexed view).
    pub results: RunResults,
    /// Every configured paired test between every two learners, per dataset and measure.
    pub tests: Vec<TestRecord>,
    /// Every configured test on the fixed test set (DeLong, McNemar, the intervals).
    pub test_set_tests: Vec<TestSetRecord>,
    /// The value each tuned parameter took in each outer unit (empty without tuning).
    pub tuning: Vec<TuningRow>,
    /// Every candidate's mean inner score per outer unit of a tuned learner (empty without
    /// tuning).
    pub tuning_scores: Vec<CandidateScores>,
    /// What the runner did with the tuning's inner units.
    pub tuning_counts: RunCounts,
    /// The results folder whose `predictions/` holds the units' cached predictions.
    cache: PathBuf,
}

impl RunRecord {
    /// A record of the units run into the cache under `cache`, without its tests (see
    /// [`crate::record::execute::execute`], which adds them).
    pub(crate) fn new(
        (config, text, plan): (ExperimentConfig, String, Plan),
        units: Vec<UnitRecord<UnitMeasures>>,
        counts: RunCounts,
        missing: MissingUnits,
        results: RunResults,
        cache: &Path,
    ) -> RunRecord {
        RunRecord {
            config,
            text,
            plan,
            units,
            counts,
            missing,
            results,
            tests: Vec::new(),
            test_set_tests: Vec::new(),
            tuning: Vec::new(),
            tuning_scores: Vec::new(),
            tuning_counts: RunCounts::default(),
            cache: cache.to_path_buf(),
        }
    }

    /// True for an experiment without data (an analysis computed from its own definition).
    pub fn without_data(&self) -> bool {
        self.plan.datasets.is_empty()
    }

    /// The results folder whose cache the predictions are read from.
    pub fn cache_folder(&self) -> &Path {
        &self.cache
    }

    /// A unit's predictions, read from the cache; `None` if it failed or its entry is missing
    /// or damaged.
    pub fn predictions(&self, unit: Unit) -> Option<UnitPredictions> {
        crate::run::cache::cached_predictions(&self.cache, &self.plan.spec(unit))
    }

    /// A binary task's test scores (positive-class probabilities) of a unit; `None` if the
    /// task is not binary or the unit has no predictions.
    pub fn test_scores(&self, unit: Unit) -> Option<evaluate::BinaryScores> {
        let positive = self.plan.datasets[unit.dataset].positive?;
        let (truth, probabilities) = self.predictions(unit)?.part(Part::Test);
        crate::measures::measure::binary_scores(&probabilities, &truth, positive)
    }

    /// The test-set predictions of `learner`'s model fitted on the whole training part of
    /// `dataset` (protocols with one fixed test set, such as Aslan's), read from the cache. The
    /// error says why there are none: no fixed test set, a unit nothing asked for, or a
    /// learner that failed.
    pub fn whole_training_predictions(
        &self,
        dataset: usize,
        learner: usize,
    ) -> Result<UnitPredictions, String> {
        let (data, model) = (
            &self.plan.datasets[dataset].name,
            &self.plan.learners[learner].name,
        );
        if self.plan.datasets[dataset].whole_training.is_none() {
            return Err(format!(
                "the protocol of dataset '{data}' has no fixed test set (every split must test \
                 on the same rows, as Aslan's protocol or a single hold-out do)"
            ));
        }
        let Some(position) = self.plan.whole_training_unit(dataset, learner) else {
            return Err(format!(
                "the model of '{model}' on the whole training part of '{data}' is not in the \
                 plan (a test on the test set or an analysis asks for it before the run)"
            ));
        };
        match &self.units[position].status {
            Status::Failed(message) => Err(format!(
                "learner '{model}' failed on the whole training part of '{data}': {message}"
            )),
            Status::Missing(why) => Err(format!(
                "the model of '{model}' on the whole training part of '{data}': {why}"
            )),
            _ => self.predictions(self.plan.units[position]).ok_or_else(|| {
                format!(
                    "the cache entry {} cannot be read",
                    self.units[position].path.display()
                )
            }),
        }
    }

    /// A binary task's test-set scores (positive-class probabilities) of the whole-training-set
    /// model of (`dataset`, `learner`); the error says why there are none.
    pub fn whole_training_test_scores(
        &self,
        dataset: usize,
        learner: usize,
    ) -> Result<evaluate::BinaryScores, String> {
        let positive = self.plan.datasets[dataset].positive.ok_or_else(|| {
            format!(
                "dataset '{}' is not a two-class task",
                self.plan.datasets[dataset].name
            )
        })?;
        let (truth, probabilities) = self
            .whole_training_predictions(dataset, learner)?
            .part(Part::Test);
        crate::measures::measure::binary_scores(&probabilities, &truth, positive)
            .ok_or_else(|| "the test set has one class only".to_string())
    }

    /// The per-instance predictions of some units as a long polars `DataFrame` (see
    /// [`crate::record::results::predictions_frame`]), read from the cache one unit at a time.
    #[cfg(feature = "polars")]
    pub fn predictions_frame(
        &self,
        units: &[Unit],
    ) -> crate::error::Result<polars::prelude::DataFrame> {
        crate::record::results::predictions_frame(&self.plan, units, |unit| self.predictions(unit))
    }

    /// The names of the learners with failed units, each once, in the order of their failures.
    pub fn failed_learners(&self) -> Vec<&str> {
        let mut learners: Vec<&str> = Vec::new();
        for (_, learner, _, _) in &self.results.folds.failures {
            let name = self.plan.learners[*learner].name.as_str();
            if !learners.contains(&name) {
                learners.push(name);
            }
        }
        learners
    }
}

/// The units a merge did not find in the cache, each with the shard it belongs to when the
/// shard records say how many shards ran.
#[derive(Clone, Debug, Default)]
pub struct MissingUnits {
    /// The units, in plan order.
    pub units: Vec<Unit>,
    /// The shard of each unit, and the number of shards, when known.
    pub shards: Option<(Vec<usize>, usize)>,
}

impl MissingUnits {
    /// True when no unit is missing.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// The units whose records say they are missing, with their shards (from the assignment
    /// the most recent shard records under `folder` were made with).
    pub fn of<T>(folder: &Path, plan: &Plan, records: &[UnitRecord<T>]) -> MissingUnits {
        let positions: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, record)| matches!(record.status, Status::Missing(_)))
            .map(|(position, _)| position)
            .collect();
        let shards = if positions.is_empty() {
            None
        } else {
            recorded_shard_count(folder).map(|count| {
                let assignment = Assignment::new(plan, folder, count);
                let shard_of = positions
                    .iter()
                    .map(|&position| assignment.shard_of[position])
                    .collect();
                (shard_of, count)
            })
        };
        MissingUnits {
            units: positions
                .iter()
                .map(|&position| plan.units[position])
                .collect(),
            shards,
        }
    }

    /// How many units are missing and which shards they belong to (a few named each).
    pub fn describe(&self, plan: &Plan) -> String {
        const NAMED: usize = 3;
        let listed = |units: &[Unit]| {
            let mut words: Vec<String> = units
                .iter()
                .take(NAMED)
                .map(|&unit| plan.unit_words(unit))
                .collect();
            if units.len() > NAMED {
                words.push(format!("and {} more", units.len() - NAMED));
            }
            words.join(", ")
        };
        let head = format!(
            "{} of {} units are not in the cache",
            self.units.len(),
            plan.units.len()
        );
        let Some((shard_of, count)) = &self.shards else {
            return format!(
                "{head} ({}; no shard records in {SHARDS_FOLDER}/ say how many shards ran)",
                listed(&self.units)
            );
        };
        let mut shards: Vec<usize> = shard_of.clone();
        shards.sort_unstable();
        shards.dedup();
        let parts: Vec<String> = shards
            .iter()
            .map(|&shard| {
                let units: Vec<Unit> = self
                    .units
                    .iter()
                    .zip(shard_of)
                    .filter(|(_, &of)| of == shard)
                    .map(|(&unit, _)| unit)
                    .collect();
                format!(
                    "shard {shard}/{count}: {} units ({})",
                    units.len(),
                    listed(&units)
                )
            })
            .collect();
        format!("{head}, of {} shards: {}", shards.len(), parts.join("; "))
    }
}
