//! The measure registry: every per-fold measure a config can name, with what it needs and how
//! it is computed from one part's predictions. Runs and the commands use this one code path.

use evaluate::{BinaryScores, Predictions};
use learners::Probabilities;
use serde::{Deserialize, Serialize};

/// A per-fold measure.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Misclassification rate at the default (argmax) decision.
    Error,
    /// Area under the ROC curve of the positive class (Hand & Till's M on multi-class tasks).
    Auc,
    /// Scored AUC (Wu & Flach 2005); binary tasks only.
    Sauc,
    /// Brier score: mean squared difference between the probabilities and the one-hot truth.
    Brier,
    /// Log-loss: mean negative natural log of the true class's probability (clipped).
    LogLoss,
}

/// Probabilities below this are raised to it before the log in [`Measure::LogLoss`] (as
/// scikit-learn's `log_loss` clips at the float epsilon), so one confident mistake costs a
/// large but finite amount.
pub const LOG_LOSS_FLOOR: f64 = f64::EPSILON;

impl Measure {
    /// Every measure, in the order they are listed.
    pub const ALL: [Measure; 5] = [
        Measure::Error,
        Measure::Auc,
        Measure::Sauc,
        Measure::Brier,
        Measure::LogLoss,
    ];

    /// The name used in configs and tables.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Error => "error",
            Measure::Auc => "auc",
            Measure::Sauc => "sauc",
            Measure::Brier => "brier",
            Measure::LogLoss => "log_loss",
        }
    }

    /// What the measure is, in one line.
    pub fn doc(self) -> &'static str {
        match self {
            Measure::Error => "misclassification rate of the most probable class (first on ties)",
            Measure::Auc => {
                "area under the ROC curve of the positive class; Hand & Till's M on a \
                 multi-class task"
            }
            Measure::Sauc => "scored AUC (Wu & Flach 2005); binary tasks only",
            Measure::Brier => {
                "Brier score: binary tasks (p(positive) - y)^2 as scikit-learn's \
                 brier_score_loss; multi-class tasks the sum over classes of (p - y)^2, averaged \
                 over rows"
            }
            Measure::LogLoss => {
                "mean of -ln p(true class), p clipped below at the float epsilon, as \
                 scikit-learn's log_loss"
            }
        }
    }

    /// True when a lower value is better.
    pub fn lower_is_better(self) -> bool {
        matches!(self, Measure::Error | Measure::Brier | Measure::LogLoss)
    }

    /// True when the measure is defined only on two-class tasks.
    pub fn needs_binary_task(self) -> bool {
        self == Measure::Sauc
    }

    /// The measure's value for one part's predictions against the true classes. `positive` is
    /// the positive class of a binary task. A value that cannot be computed (e.g. a class absent
    /// from the part, for AUC) is NaN.
    pub fn compute(
        self,
        probabilities: &Probabilities,
        truth: &[usize],
        positive: Option<usize>,
    ) -> f64 {
        match self {
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
            Measure::Brier => brier(probabilities, truth, positive),
            Measure::LogLoss => log_loss(probabilities, truth),
        }
    }

    /// Parses a measure's config name.
    pub fn from_name(name: &str) -> Option<Measure> {
        Measure::ALL
            .into_iter()
            .find(|measure| measure.name() == name)
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

/// The positive class's probability as the score of each row, with its label.
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
