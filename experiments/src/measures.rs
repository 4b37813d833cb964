//! Per-fold measures computed from a unit's test predictions.

use evaluate::{BinaryScores, Predictions};
use learners::Probabilities;

use crate::config::Measure;

/// The measures of one unit: on its test part, and on its validation part if it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitMeasures {
    /// One value per configured measure, on the test rows.
    pub test: Vec<f64>,
    /// One value per configured measure, on the validation rows (protocols with validation).
    pub validation: Option<Vec<f64>>,
}

/// The value of each measure (in the given order) for one unit's predictions against the true
/// classes of its test rows. `positive` is the positive class of a binary task; without it
/// the AUC is Hand & Till's M over all classes. A measure that cannot be computed (e.g. a
/// class absent from the test part) is NaN.
pub fn measure_values(
    measures: &[Measure],
    probabilities: &Probabilities,
    truth: &[usize],
    positive: Option<usize>,
) -> Vec<f64> {
    measures
        .iter()
        .map(|measure| match measure {
            Measure::Error => error_rate(probabilities, truth),
            Measure::Auc => match positive {
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
            },
            Measure::Sauc => positive
                .and_then(|positive| binary_scores(probabilities, truth, positive))
                .and_then(|scores| evaluate::scored_auc(&scores).ok())
                .map_or(f64::NAN, |scored| scored.sauc),
        })
        .collect()
}

/// Fraction of test rows whose most probable class (first on ties) is not the true one.
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

/// The positive class's probability as the score of each test row, with its label.
pub fn binary_scores(
    probabilities: &Probabilities,
    truth: &[usize],
    positive: usize,
) -> Option<BinaryScores> {
    let labels = truth.iter().map(|&class| class == positive).collect();
    let scores = (0..probabilities.len())
        .map(|row| probabilities.row(row)[positive])
        .collect();
    BinaryScores::new(labels, scores).ok()
}
