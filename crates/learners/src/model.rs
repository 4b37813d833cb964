//! The learner and model interface every classifier implements.

use std::any::Any;
use std::sync::Arc;

use data::{Dataset, Features, Schema, View};

use crate::capabilities::Capabilities;

/// Class probabilities for a set of rows: one row per instance, one column per class (in the
/// dataset's class order), each row summing to 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Probabilities {
    num_classes: usize,
    values: Vec<f64>,
}

impl Probabilities {
    /// Wraps row-major values (`rows * num_classes` of them).
    pub fn from_flat(num_classes: usize, values: Vec<f64>) -> Self {
        assert!(
            num_classes > 0 && values.len().is_multiple_of(num_classes),
            "row-major values of whole rows"
        );
        Probabilities {
            num_classes,
            values,
        }
    }

    /// An all-zero matrix to fill in.
    pub fn zeros(rows: usize, num_classes: usize) -> Self {
        Probabilities {
            num_classes,
            values: vec![0.0; rows * num_classes],
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.values.len() / self.num_classes
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Number of classes (columns).
    pub fn num_classes(&self) -> usize {
        self.num_classes
    }

    /// One row of probabilities.
    pub fn row(&self, row: usize) -> &[f64] {
        &self.values[row * self.num_classes..(row + 1) * self.num_classes]
    }

    /// One row of probabilities, to fill in.
    pub fn row_mut(&mut self, row: usize) -> &mut [f64] {
        &mut self.values[row * self.num_classes..(row + 1) * self.num_classes]
    }

    /// All values, row-major.
    pub fn as_flat(&self) -> &[f64] {
        &self.values
    }

    /// All values, row-major, for filling in place.
    pub fn as_flat_mut(&mut self) -> &mut [f64] {
        &mut self.values
    }

    /// The class with the highest probability in each row (the first one on ties).
    pub fn predicted_classes(&self) -> Vec<usize> {
        (0..self.len())
            .map(|row| {
                let values = self.row(row);
                let mut best = 0;
                for (class, &value) in values.iter().enumerate() {
                    if value > values[best] {
                        best = class;
                    }
                }
                best
            })
            .collect()
    }
}

/// The message of a caught panic (`std::panic::catch_unwind`'s payload), for reporting a
/// learner that panicked instead of returning an error.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|text| text.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

/// Why fitting or predicting failed.
#[derive(Debug, thiserror::Error)]
pub enum LearnerError {
    /// The training data cannot be used by this learner (e.g. no rows).
    #[error("{learner}: {message}")]
    Data {
        /// Name of the learner.
        learner: String,
        /// What was wrong.
        message: String,
    },
    /// An external program or library failed.
    #[error("{learner}: {message}")]
    External {
        /// Name of the learner.
        learner: String,
        /// What the outside program or library said.
        message: String,
    },
}

/// The cost hint of a learner that declares none (see [`Learner::cost_hint`]): ten times naive
/// Bayes per row and attribute.
pub const DEFAULT_COST_HINT: f64 = 10.0;

/// A configured learning algorithm: a checked parameter set that fits models.
///
/// A learner of your own implements `name`, `describe`, `revision` and `fit`; the rest have
/// defaults. `revision` has none on purpose: it goes into the cache key of every result, and a
/// default could not change when your code does, so cached results of an older version would
/// be reused silently.
pub trait Learner: Send + Sync {
    /// The learner's display name (e.g. `c45`).
    fn name(&self) -> &str;

    /// The kind and parameters, as a stable text used in cache keys and reports.
    fn describe(&self) -> String;

    /// The revision of the implementation, and of any learner it wraps, as a stable text:
    /// `"c45 r1"`, `"bagging r2 (c45 r1)"`. Results are cached under it, so it must change
    /// whenever the outputs do (built-in learners take it from their spec's `revision`;
    /// [`crate::spec::revision_text`] writes the usual form). Kept apart from
    /// [`Learner::describe`], whose text also seeds random draws.
    fn revision(&self) -> String;

    /// What data this configured learner can handle. The default claims everything, which
    /// [`crate::conformance::check`] then tests; a wrapper reports what its base learner can
    /// handle.
    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    /// Checks, once before any fit, that the learner can run at all, so that `--check` and the
    /// run refuse a config that would fail every unit of it. A learner served by worker
    /// processes starts one and completes its handshake (the Python worker imports the class
    /// and checks its methods then); `Ok` may hold a line for the run's log (e.g. which time
    /// limits apply). The default: ready, nothing to say; a wrapper asks its base learner.
    fn check_ready(&self) -> Result<Option<String>, LearnerError> {
        Ok(None)
    }

    /// Fits a model on labelled training rows, with a seed for any random choice.
    fn fit(&self, train: &View, seed: u64) -> Result<Box<dyn Model>, LearnerError>;

    /// Fits a model when the protocol also supplies a validation set (used e.g. by k-NN to pick
    /// k). Learners that have no use for it ignore it.
    fn fit_with_validation(
        &self,
        train: &View,
        validation: Option<&View>,
        seed: u64,
    ) -> Result<Box<dyn Model>, LearnerError> {
        let _ = validation;
        self.fit(train, seed)
    }

    /// The key of the per-dataset state this learner's units can share (built once per dataset
    /// by [`Learner::build_shared`], read by [`Learner::fit_shared`]; learners with equal keys
    /// share one), or none: the default, every unit computes alone.
    fn shared_key(&self) -> Option<String> {
        None
    }

    /// Builds the state [`Learner::shared_key`] names for a whole dataset, or none when it
    /// would take more than `budget` bytes or not pay for the units `hint` describes.
    fn build_shared(
        &self,
        dataset: &Dataset,
        hint: ShareHint,
        budget: usize,
    ) -> Option<SharedState> {
        let _ = (dataset, hint, budget);
        None
    }

    /// [`Learner::fit_with_validation`] reading a dataset's shared state: the same model, the
    /// same outputs to the bit, computed with less work. The default ignores the state.
    fn fit_shared(
        &self,
        train: &View,
        validation: Option<&View>,
        seed: u64,
        shared: &SharedState,
    ) -> Result<Box<dyn Model>, LearnerError> {
        let _ = shared;
        self.fit_with_validation(train, validation, seed)
    }

    /// The expected cost of a unit of this learner per row it fits and predicts and per
    /// attribute, relative to naive Bayes (1): Slurm shards are balanced by it before any unit
    /// has run (see `engine::run::shard`). A rough ratio is enough; the default,
    /// [`DEFAULT_COST_HINT`], suits a learner of unknown cost. A wrapper multiplies its base
    /// learner's (bagging by its iterations).
    fn cost_hint(&self) -> f64 {
        DEFAULT_COST_HINT
    }

    /// True when an instance of weight 2 gives the same model as the instance duplicated (up to
    /// rounding). Learners randomised over rows (bagging, resampling) return false: duplicating a
    /// row changes their random draws. The conformance suite checks this equivalence otherwise.
    fn exact_weights(&self) -> bool {
        true
    }
}

/// State a learner builds once per dataset and lends to every unit of that dataset (k-NN's
/// neighbour lists); outputs never depend on whether a unit had it.
#[derive(Clone)]
pub struct SharedState {
    /// The state (each learner downcasts its own kind).
    pub state: Arc<dyn Any + Send + Sync>,
    /// Its size in bytes, counted against the engine's memory budget.
    pub bytes: usize,
}

impl std::fmt::Debug for SharedState {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "SharedState({} bytes)", self.bytes)
    }
}

/// What the engine knows, before building a shared state, of the units that would read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShareHint {
    /// The units of the dataset that would read it.
    pub units: usize,
    /// The rows those units predict (test and validation rows), summed over them.
    pub predicted_rows: usize,
}

/// A fitted model: predicts class probabilities from unlabelled rows.
pub trait Model: Send + Sync {
    /// One row of class probabilities per instance of `test`. Built-in models never fail; a
    /// model that runs an outside program can.
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError>;

    /// True when the model only outputs hard (one-hot) decisions, so ROC analysis must treat it
    /// as a discrete classifier with one ROC point.
    fn is_discrete(&self) -> bool {
        false
    }

    /// A human-readable description of the fitted model (a tree, rules, chosen k, ...).
    fn explain(&self, schema: &Schema) -> String {
        let _ = schema;
        String::new()
    }
}
