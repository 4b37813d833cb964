//! Fair tuning, planned: the config's `[tuning]` table (one budget, search method, measure and
//! inner protocol for every tuned learner), each tuned learner's candidates (its `tune` space,
//! or the space its kind declares with `tune = "declared"`, as a grid sampled down to the
//! budget, or random draws), the inner splits (drawn once per outer training set and shared by
//! every learner) and the inner units: each candidate on each inner fold of each outer split.
//! These are its types; [`crate::plan::tuning_plan`] reads and plans them, and choosing a
//! candidate from the inner units' predictions is the record's ([`crate::record::tuning`]).

use std::collections::HashMap;

use crate::measures::measure::Measure;
use crate::plan::parts::{ConfiguredLearner, Unit};

/// The largest `budget` a config may give.
pub const MAX_BUDGET: usize = 10_000;

/// The largest number of inner folds.
pub const MAX_INNER_FOLDS: usize = 100;

/// How the candidates are chosen from a space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Every point of the grid (the product of the lists, each list's values in the order
    /// written), sampled down to the budget when larger (seeded).
    Grid,
    /// `budget` distinct draws (seeded): a list's values uniformly, a range uniformly or on a
    /// log scale.
    Random,
}

/// Where the candidates are scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inner {
    /// Stratified k-fold cross-validation of each outer training set.
    Folds(usize),
    /// The protocol's validation fold of each outer split (the candidates train on the outer
    /// split's training rows; the chosen one's unit is the outer unit).
    Validation,
}

/// The experiment-wide settings of `[tuning]`.
#[derive(Clone, Debug)]
pub struct TuningSettings {
    /// The number of configurations every tuned learner evaluates.
    pub budget: usize,
    /// Grid or random search.
    pub method: Method,
    /// The measure the candidates are scored by (its direction decides).
    pub measure: Measure,
    /// The inner protocol.
    pub inner: Inner,
    /// Whether each tuned learner's default configuration runs beside it as a learner of its
    /// own (named `<name>_default`), on the same splits.
    pub compare_default: bool,
}

/// One tuned parameter's space as a config gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum Space {
    /// These values, in this order.
    Values(Vec<toml::Value>),
    /// Numbers from `low` to `high`, uniformly or on a log scale (random search only).
    Range {
        /// The smallest value.
        low: f64,
        /// The largest value.
        high: f64,
        /// Drawn uniformly in the logarithm.
        log: bool,
    },
}

/// One candidate configuration of a tuned learner.
pub struct Candidate {
    /// The tuned parameters' values, in the order of [`TunedLearner::parameters`].
    pub values: Vec<toml::Value>,
    /// The learner built with them (named as the tuned learner).
    pub learner: ConfiguredLearner,
}

/// A tuned learner's candidates.
pub struct TunedLearner {
    /// The tuned parameters, in the grid's order (see [`spaces`]).
    pub parameters: Vec<String>,
    /// The candidates, in the grid's order (or drawn order).
    pub candidates: Vec<Candidate>,
    /// The number of points of the whole grid (random search over a range: none).
    pub grid_size: Option<usize>,
}

/// The tuning of a plan: its settings, each learner's candidates (`None` for an untuned
/// learner), the inner units, and the candidate chosen for each outer unit once the inner units
/// have run.
pub struct Tuning {
    /// The `[tuning]` settings.
    pub settings: TuningSettings,
    /// Per learner of the plan, its candidates if tuned.
    pub learners: Vec<Option<TunedLearner>>,
    /// Every candidate on every inner fold of every outer split, ordered by dataset, learner,
    /// split, inner fold, candidate.
    pub units: Vec<Unit>,
    /// The chosen candidate of each (dataset, learner, split) of a tuned learner; none where
    /// every candidate failed.
    pub choices: HashMap<(usize, usize, usize), usize>,
}
