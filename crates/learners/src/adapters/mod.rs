//! Adapters that put classifiers of the `linfa` and `smartcore` crates behind the
//! [`Learner`](crate::Learner)/[`Model`] interface (the four modules only with the `adapters`
//! feature; the helpers here are shared with the built-in logistic regression).
//!
//! Shared conventions:
//!
//! * Rows are encoded by [`crate::encoding::Encoder`] (nominal attributes as indicator columns,
//!   missing values replaced by training means, standardisation where the method is
//!   scale-sensitive), fitted on the training rows only.
//! * Instance weights: none of these libraries takes per-row weights (linfa-trees takes `f32`
//!   ones but counts rows for its split limits), so a row of whole-number weight `w` is repeated
//!   `w` times in place (weight 0 drops it). Fractional weights are rejected with an error.
//!   Weight 2 is thus exactly the row duplicated.
//! * A training set holding one class only gives a constant model predicting that class.
//! * Classes absent from the training rows get probability 0.

use data::{Features, Schema, View};

use crate::model::{LearnerError, Model, Probabilities};
use crate::spec::Capabilities;

/// What every adapter handles: nominal attributes (indicator columns), missing values (training
/// means) and any number of classes; not arbitrary instance weights, since only whole-number
/// weights can be passed on, by repeating rows.
pub const CAPABILITIES: Capabilities = Capabilities::UNWEIGHTED;

/// The kinds of the adapters over linfa and smartcore, built-in only with the `adapters` feature
/// (on by default in this crate; the workspace's command line turns it on with its own
/// `adapters` feature).
pub const ADAPTER_KINDS: &[&str] = &[
    "linfa_logistic",
    "linfa_gaussian_nb",
    "linfa_tree",
    "smartcore_knn",
    "smartcore_forest",
];

#[cfg(feature = "adapters")]
pub mod decision_tree;
#[cfg(feature = "adapters")]
pub mod gaussian_nb;
#[cfg(feature = "adapters")]
pub mod logistic;
#[cfg(feature = "adapters")]
pub mod smartcore_models;

/// The training rows repeated by their whole-number weights (unit weights), or an error naming
/// the first fractional weight.
pub fn expand_whole_weights<'a>(learner: &str, train: &View<'a>) -> Result<View<'a>, LearnerError> {
    let mut positions = Vec::with_capacity(train.len());
    for position in 0..train.len() {
        let weight = train.weight(position);
        if weight.fract() != 0.0 || weight > 1e6 {
            return Err(LearnerError::Data {
                learner: learner.into(),
                message: format!(
                    "row {position} of the training set has weight {weight}; this adapter \
                     repeats rows and accepts only whole-number weights up to 1e6"
                ),
            });
        }
        for _ in 0..weight as usize {
            positions.push(position);
        }
    }
    if positions.is_empty() {
        return Err(LearnerError::Data {
            learner: learner.into(),
            message: "no training rows of positive weight".into(),
        });
    }
    let count = positions.len();
    Ok(train.subview(&positions).with_weights(vec![1.0; count]))
}

/// The class index of each row, and the distinct classes present (ascending).
pub fn classes_present(train: &View) -> (Vec<usize>, Vec<usize>) {
    let labels: Vec<usize> = (0..train.len()).map(|p| train.class(p)).collect();
    let mut present = labels.clone();
    present.sort_unstable();
    present.dedup();
    (labels, present)
}

/// What an adapter fits its method on.
pub struct Training<'a> {
    /// The training rows, each repeated by its whole-number weight (unit weights).
    pub rows: View<'a>,
    /// The class index of each row.
    pub labels: Vec<usize>,
    /// The distinct classes present, ascending (at least two).
    pub present: Vec<usize>,
    /// The number of classes of the dataset.
    pub num_classes: usize,
}

/// The fit every adapter shares: repeats the rows by their weights ([`expand_whole_weights`]),
/// returns the constant model of the class when only one is present (`discrete` as the
/// method's own models are), and otherwise fits the method with `fit`.
pub fn fit_adapter<'a>(
    learner: &str,
    train: &View<'a>,
    discrete: bool,
    fit: impl FnOnce(Training<'a>) -> Result<Box<dyn Model>, LearnerError>,
) -> Result<Box<dyn Model>, LearnerError> {
    let rows = expand_whole_weights(learner, train)?;
    let num_classes = rows.num_classes();
    let (labels, present) = classes_present(&rows);
    if present.len() == 1 {
        return Ok(Box::new(ConstantModel::one_class(
            present[0],
            num_classes,
            discrete,
        )));
    }
    fit(Training {
        rows,
        labels,
        present,
        num_classes,
    })
}

/// The error of a method that failed to fit: `"{library} failed: {error}"`, naming the learner.
pub fn failed<'a, E: std::fmt::Display>(
    learner: &'a str,
    library: &'a str,
) -> impl FnOnce(E) -> LearnerError + 'a {
    move |error| LearnerError::External {
        learner: learner.into(),
        message: format!("{library} failed: {error}"),
    }
}

/// The share of each class among the rows: the prediction of a model that knows nothing more.
pub fn class_shares(rows: &View) -> Vec<f64> {
    let counts = rows.class_counts();
    let total: f64 = counts.iter().sum();
    counts.iter().map(|c| c / total).collect()
}

/// A model that predicts the same probabilities for every row (one class only in training, or
/// a fallback).
#[derive(Clone, Debug)]
pub struct ConstantModel {
    /// The probability row predicted for every instance.
    pub probabilities: Vec<f64>,
    /// Whether the wrapped method is a discrete one.
    pub discrete: bool,
}

impl ConstantModel {
    /// Predicts `class` with probability 1 among `num_classes`.
    pub fn one_class(class: usize, num_classes: usize, discrete: bool) -> Self {
        let mut probabilities = vec![0.0; num_classes];
        probabilities[class] = 1.0;
        ConstantModel {
            probabilities,
            discrete,
        }
    }
}

impl Model for ConstantModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let values = (0..test.len())
            .flat_map(|_| self.probabilities.iter().copied())
            .collect();
        Ok(Probabilities::from_flat(self.probabilities.len(), values))
    }

    fn is_discrete(&self) -> bool {
        self.discrete
    }

    fn explain(&self, schema: &Schema) -> String {
        let parts: Vec<String> = schema
            .class_values
            .iter()
            .zip(&self.probabilities)
            .map(|(name, p)| format!("{name}={p}"))
            .collect();
        format!("constant prediction: {}", parts.join(" "))
    }
}

/// Normalises log-scores in place into probabilities with log-sum-exp (max shift).
pub fn normalise_log_scores(scores: &mut [f64]) {
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !max.is_finite() {
        let share = 1.0 / scores.len() as f64;
        scores.iter_mut().for_each(|s| *s = share);
        return;
    }
    let mut total = 0.0;
    for score in scores.iter_mut() {
        *score = (*score - max).exp();
        total += *score;
    }
    scores.iter_mut().for_each(|s| *s /= total);
}

/// One-hot probability rows from predicted class indices.
pub fn one_hot(classes: &[usize], num_classes: usize) -> Probabilities {
    let mut probabilities = Probabilities::zeros(classes.len(), num_classes);
    for (row, &class) in classes.iter().enumerate() {
        probabilities.row_mut(row)[class] = 1.0;
    }
    probabilities
}
