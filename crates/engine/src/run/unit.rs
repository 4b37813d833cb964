//! The unit of work: one learner fitted on one split of one dataset, its held-out rows
//! predicted (or the whole training part, scored on the protocol's fixed test set).
//! [`run_unit`] is the one function that turns a [`UnitSpec`] into a
//! [`UnitResult`]; the runner, the cache and library users all go through it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use learners::Probabilities;

use crate::plan::units::{ConfiguredLearner, Plan, PreparedDataset, Training, Unit, UnitKeys};

/// Which part of a split a predicted row belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// The held-out test rows every model of the split is judged on.
    Test,
    /// The validation rows some protocols add (model selection, as Wu & Flach do).
    Validation,
}

impl Part {
    /// The name used in tables and files.
    pub fn name(self) -> &'static str {
        match self {
            Part::Test => "test",
            Part::Validation => "validation",
        }
    }
}

/// Everything one unit depends on: the dataset (after its transforms), the learner with its
/// parameters, the split, and the seed of the learner's random choices.
#[derive(Clone, Copy)]
pub struct UnitSpec<'a> {
    /// The prepared dataset.
    pub dataset: &'a PreparedDataset,
    /// The configured learner.
    pub learner: &'a ConfiguredLearner,
    /// The split (training, optional validation and test rows).
    pub split: &'a cv::Split,
    /// Whether the split is one of the protocol's or the whole training part (it names the
    /// unit's cache entry).
    pub training: Training,
    /// The seed handed to the learner's `fit`.
    pub seed: u64,
    /// The unit itself.
    pub unit: Unit,
    /// Where the cache key is kept once computed.
    pub keys: &'a UnitKeys,
}

impl UnitSpec<'_> {
    /// The rows the unit predicts, in the order of its predictions: the test rows, then the
    /// validation rows if the split has them.
    pub fn predicted_rows(&self) -> Vec<usize> {
        cv::row_numbers(&predicted_rows(self.split))
    }

    /// The number of predicted rows.
    pub fn predicted_len(&self) -> usize {
        self.split.test.len() + self.split.validation.as_ref().map_or(0, Vec::len)
    }

    /// The predictions of this unit from probabilities in [`UnitSpec::predicted_rows`] order.
    pub fn predictions(&self, probabilities: Probabilities) -> UnitPredictions {
        let rows = predicted_rows(self.split);
        let test = self.split.test.len();
        let parts = (0..rows.len())
            .map(|position| {
                if position < test {
                    Part::Test
                } else {
                    Part::Validation
                }
            })
            .collect();
        let truth = rows
            .iter()
            .map(|&row| self.dataset.dataset.class(row as usize))
            .collect();
        UnitPredictions {
            rows,
            parts,
            truth,
            probabilities,
        }
    }
}

impl Plan {
    /// Everything a unit depends on, for [`run_unit`] and the cache.
    pub fn spec(&self, unit: Unit) -> UnitSpec<'_> {
        let dataset = &self.datasets[unit.dataset];
        UnitSpec {
            dataset,
            learner: self.learner_of(unit),
            split: dataset.split(unit.training),
            training: unit.training,
            seed: self.unit_seed(unit),
            unit,
            keys: &self.unit_keys,
        }
    }
}

/// The rows a split's unit predicts: its test rows, then its validation rows if it has them.
fn predicted_rows(split: &cv::Split) -> Vec<u32> {
    let mut rows = split.test.clone();
    rows.extend(split.validation.iter().flatten());
    rows
}

/// One unit's predictions, one entry per predicted row.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitPredictions {
    /// The row ids in the prepared dataset (32-bit, as a split's: the plan refuses a dataset
    /// of more rows than `u32` numbers).
    pub rows: Vec<u32>,
    /// Which part of the split each row belongs to.
    pub parts: Vec<Part>,
    /// The true class of each row (never shown to the learner).
    pub truth: Vec<usize>,
    /// Class probabilities, one row per predicted row, in the dataset's class order.
    pub probabilities: Probabilities,
}

impl UnitPredictions {
    /// The truth and probabilities of one part (test or validation), in row order.
    pub fn part(&self, part: Part) -> (Vec<usize>, Probabilities) {
        let classes = self.probabilities.num_classes();
        let mut truth = Vec::new();
        let mut values = Vec::new();
        for (position, &row_part) in self.parts.iter().enumerate() {
            if row_part == part {
                truth.push(self.truth[position]);
                values.extend_from_slice(self.probabilities.row(position));
            }
        }
        (truth, Probabilities::from_flat(classes, values))
    }

    /// True when some rows belong to `part`.
    pub fn has_part(&self, part: Part) -> bool {
        self.parts.contains(&part)
    }
}

/// Whether a unit produced predictions.
#[derive(Clone, Debug, PartialEq)]
pub enum UnitStatus {
    /// The learner fitted and predicted.
    Ok,
    /// The learner failed (an error or a panic), or returned unusable probabilities.
    Failed(String),
}

/// What one unit gave: its status, timings and predictions (empty when it failed).
#[derive(Clone, Debug)]
pub struct UnitResult {
    /// Ok, or failed with the message.
    pub status: UnitStatus,
    /// Seconds spent in `fit`.
    pub fit_seconds: f64,
    /// Seconds spent in `predict_proba`.
    pub predict_seconds: f64,
    /// The predictions; `None` when the unit failed.
    pub predictions: Option<UnitPredictions>,
}

impl UnitResult {
    /// A failed unit with its message.
    pub fn failed(message: impl Into<String>, fit_seconds: f64, predict_seconds: f64) -> Self {
        UnitResult {
            status: UnitStatus::Failed(message.into()),
            fit_seconds,
            predict_seconds,
            predictions: None,
        }
    }
}

/// Fits the unit's learner on its training rows (with its validation rows when the protocol
/// has them) and predicts its test and validation rows. Errors and panics of the learner become
/// a failed result; so do probabilities of the wrong shape or non-finite ones.
pub fn run_unit(spec: &UnitSpec, shared: &dyn Fn() -> Option<learners::SharedState>) -> UnitResult {
    let dataset = &spec.dataset.dataset;
    let classes = dataset.num_classes();
    let mut fit_seconds = 0.0;
    let mut predict_seconds = 0.0;
    let attempt = catch_unwind(AssertUnwindSafe(|| {
        // Built by the first unit of its dataset that asks, outside the unit's timing.
        let shared = shared();
        let started = Instant::now();
        let train = dataset.subset(spec.split.train_rows().map(|row| row as usize).collect());
        let validation = spec
            .split
            .validation
            .as_ref()
            .map(|rows| dataset.subset(cv::row_numbers(rows)));
        let learner = &spec.learner.learner;
        let fitted = match &shared {
            Some(state) => learner.fit_shared(&train, validation.as_ref(), spec.seed, state),
            None => learner.fit_with_validation(&train, validation.as_ref(), spec.seed),
        };
        fit_seconds = started.elapsed().as_secs_f64();
        let model = fitted?;
        let started = Instant::now();
        let predicted = model.predict_proba(&data::Features::of(dataset, spec.predicted_rows()));
        predict_seconds = started.elapsed().as_secs_f64();
        predicted
    }));
    let probabilities = match attempt {
        Ok(Ok(probabilities)) => probabilities,
        Ok(Err(error)) => {
            return UnitResult::failed(error.to_string(), fit_seconds, predict_seconds)
        }
        Err(panic) => {
            return UnitResult::failed(
                format!("panicked: {}", learners::panic_message(panic.as_ref())),
                fit_seconds,
                predict_seconds,
            );
        }
    };
    let rows = spec.predicted_len();
    if probabilities.len() != rows || probabilities.num_classes() != classes {
        return UnitResult::failed(
            format!(
                "the model returned {} rows of {} probabilities for {rows} rows of {classes} \
                 classes",
                probabilities.len(),
                probabilities.num_classes(),
            ),
            fit_seconds,
            predict_seconds,
        );
    }
    if let Some(bad) = probabilities.as_flat().iter().position(|p| !p.is_finite()) {
        return UnitResult::failed(
            format!(
                "the model returned a non-finite probability (test row {})",
                bad / classes.max(1)
            ),
            fit_seconds,
            predict_seconds,
        );
    }
    UnitResult {
        status: UnitStatus::Ok,
        fit_seconds,
        predict_seconds,
        predictions: Some(spec.predictions(probabilities)),
    }
}
