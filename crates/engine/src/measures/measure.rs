//! Measures: every per-fold measure a config can name, declared by a [`MeasureSpec`] (name,
//! description, direction, what it needs from the task, options) in the open registry of
//! [`builtin`] measures, which a user's crate extends with one call
//! (`engine.measures.register(spec)`). A run computes each configured [`Measure`] on every
//! unit's test and validation predictions.

use std::sync::Arc;

use evaluate::Predictions;
use learners::{Params, Probabilities};

pub use crate::measures::measure_spec::{binary_scores, BuildMeasure, MeasureFn, MeasureSpec};
use crate::measures::registry::{Entry, Registry};

/// A measure as configured: its spec and its function with the options given.
#[derive(Clone)]
pub struct Measure {
    entry: Arc<Entry<MeasureSpec>>,
    compute: MeasureFn,
}

impl std::fmt::Debug for Measure {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.name())
    }
}

impl PartialEq for Measure {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Measure {
    /// The measure `entry` with the options `params`.
    pub fn build(entry: &Arc<Entry<MeasureSpec>>, params: &Params<'_>) -> Result<Self, String> {
        let compute = (entry.spec.build)(params).map_err(|error| entry.option_error(error))?;
        Ok(Measure {
            entry: Arc::clone(entry),
            compute,
        })
    }

    /// The measure of this name in `registry` (the built-in ones and any a user's crate
    /// registered: an engine's `registries.measures`) with its default options.
    pub fn from_name(registry: &Registry<MeasureSpec>, name: &str) -> Option<Measure> {
        let entry = registry.find(name)?;
        Measure::build(entry, &entry.defaults()).ok()
    }

    /// The name used in configs and tables.
    pub fn name(&self) -> &'static str {
        self.entry.spec.name
    }

    /// Its spec.
    pub fn spec(&self) -> &MeasureSpec {
        &self.entry.spec
    }

    /// True when a lower value is better.
    pub fn lower_is_better(&self) -> bool {
        self.entry.spec.lower_is_better
    }

    /// True when the measure is defined only on two-class tasks.
    pub fn needs_binary_task(&self) -> bool {
        self.entry.spec.needs_binary_task
    }

    /// The measure's value for one part's predictions against the true classes; NaN when it
    /// cannot be computed.
    pub fn compute(
        &self,
        probabilities: &Probabilities,
        truth: &[usize],
        positive: Option<usize>,
    ) -> f64 {
        (self.compute)(probabilities, truth, positive)
    }
}

/// The value of each measure (in the given order) for one part's predictions.
pub fn measure_values(
    measures: &[Measure],
    probabilities: &Probabilities,
    truth: &[usize],
    positive: Option<usize>,
) -> Vec<f64> {
    measures
        .iter()
        .map(|measure| measure.compute(probabilities, truth, positive))
        .collect()
}

/// Probabilities below this are raised to it before the log of `log_loss` (as
/// scikit-learn's `log_loss` clips at the float epsilon), so one confident mistake costs a
/// large but finite amount.
pub const LOG_LOSS_FLOOR: f64 = f64::EPSILON;

/// A measure function from a plain function.
fn function(compute: fn(&Probabilities, &[usize], Option<usize>) -> f64) -> MeasureFn {
    Arc::new(compute)
}

/// The built-in measures: error, auc, sauc, brier, log_loss, then those beyond ROC
/// ([`crate::measures::beyond`]).
pub fn builtin() -> Registry<MeasureSpec> {
    let mut registry = Registry::default();
    let specs = [
        MeasureSpec {
            name: "error",
            description: "misclassification rate of the most probable class (first on ties)",
            lower_is_better: true,
            needs_binary_task: false,
            multi_class_note: None,
            options: Vec::new(),
            build: |_| Ok(function(|p, truth, _| error_rate(p, truth))),
        },
        MeasureSpec {
            name: "auc",
            description: "area under the ROC curve of the positive class; Hand & Till's M on a \
                          multi-class task",
            lower_is_better: false,
            needs_binary_task: false,
            multi_class_note: Some(
                "is Hand & Till's M: the mean over pairs of classes of their pairwise AUC",
            ),
            options: Vec::new(),
            build: |_| Ok(function(auc)),
        },
        MeasureSpec {
            name: "sauc",
            description: "scored AUC (Wu & Flach 2005); binary tasks only",
            lower_is_better: false,
            needs_binary_task: true,
            multi_class_note: None,
            options: Vec::new(),
            build: |_| Ok(function(scored_auc)),
        },
        MeasureSpec {
            name: "brier",
            description: "Brier score: binary tasks (p(positive) - y)^2 as scikit-learn's \
                          brier_score_loss; multi-class tasks the sum over classes of (p - y)^2, \
                          averaged over rows",
            lower_is_better: true,
            needs_binary_task: false,
            multi_class_note: None,
            options: Vec::new(),
            build: |_| Ok(function(brier)),
        },
        MeasureSpec {
            name: "log_loss",
            description: "mean of -ln p(true class), p clipped below at the float epsilon, as \
                          scikit-learn's log_loss",
            lower_is_better: true,
            needs_binary_task: false,
            multi_class_note: None,
            options: Vec::new(),
            build: |_| Ok(function(|p, truth, _| log_loss(p, truth))),
        },
    ];
    for spec in specs.into_iter().chain(crate::measures::beyond::specs()) {
        registry
            .register(spec)
            .expect("the built-in measures are valid");
    }
    registry
}

/// AUC of the positive class on a binary task, Hand & Till's M on a multi-class one.
fn auc(probabilities: &Probabilities, truth: &[usize], positive: Option<usize>) -> f64 {
    match positive {
        Some(positive) => binary_scores(probabilities, truth, positive)
            .map(|scores| evaluate::auc_or_nan(&scores))
            .unwrap_or(f64::NAN),
        None => Predictions::from_flat(
            probabilities.num_classes(),
            truth.to_vec(),
            probabilities.as_flat().to_vec(),
        )
        .and_then(|predictions| evaluate::hand_till_m(&predictions))
        .unwrap_or(f64::NAN),
    }
}

/// Wu & Flach's scored AUC of the positive class (NaN on a multi-class task).
fn scored_auc(probabilities: &Probabilities, truth: &[usize], positive: Option<usize>) -> f64 {
    positive
        .and_then(|positive| binary_scores(probabilities, truth, positive))
        .and_then(|scores| evaluate::scored_auc(&scores).ok())
        .map_or(f64::NAN, |scored| scored.sauc)
}

/// Fraction of rows whose most probable class (first on ties) is not the true one.
pub fn error_rate(probabilities: &Probabilities, truth: &[usize]) -> f64 {
    if truth.is_empty() {
        return f64::NAN;
    }
    let wrong = probabilities
        .predicted_classes()
        .iter()
        .zip(truth)
        .filter(|(predicted, actual)| predicted != actual)
        .count();
    wrong as f64 / truth.len() as f64
}

/// Brier score: with a positive class, the mean of (p(positive) - [positive])^2; otherwise the
/// mean over rows of the sum over classes of (p(class) - [class])^2.
pub fn brier(probabilities: &Probabilities, truth: &[usize], positive: Option<usize>) -> f64 {
    if truth.is_empty() {
        return f64::NAN;
    }
    let total: f64 = truth
        .iter()
        .enumerate()
        .map(|(row, &actual)| {
            let values = probabilities.row(row);
            match positive {
                Some(positive) => {
                    let target = if actual == positive { 1.0 } else { 0.0 };
                    (values[positive] - target).powi(2)
                }
                None => values
                    .iter()
                    .enumerate()
                    .map(|(class, &p)| {
                        let target = if class == actual { 1.0 } else { 0.0 };
                        (p - target).powi(2)
                    })
                    .sum(),
            }
        })
        .sum();
    total / truth.len() as f64
}

/// Mean of -ln p(true class), each probability raised to at least [`LOG_LOSS_FLOOR`].
pub fn log_loss(probabilities: &Probabilities, truth: &[usize]) -> f64 {
    if truth.is_empty() {
        return f64::NAN;
    }
    let total: f64 = truth
        .iter()
        .enumerate()
        .map(|(row, &actual)| -probabilities.row(row)[actual].max(LOG_LOSS_FLOOR).ln())
        .sum();
    total / truth.len() as f64
}
