//! What a measure declares ([`MeasureSpec`]) and how it computes ([`MeasureFn`]), shared by
//! the built-in measures ([`crate::measures::measure`]) and those beyond ROC
//! ([`crate::measures::beyond`]); and the positive class's scores of one part.

use std::sync::Arc;

use evaluate::BinaryScores;
use learners::{ParamError, ParameterSpec, Params, Probabilities};

/// How a configured measure computes its value from one part's predictions: the class
/// probabilities, the true classes, and the positive class of a binary task. A value that
/// cannot be computed (a class absent from the part, for AUC) is NaN.
pub type MeasureFn = Arc<dyn Fn(&Probabilities, &[usize], Option<usize>) -> f64 + Send + Sync>;

/// Builds a measure's function from its checked options.
pub type BuildMeasure = fn(&Params<'_>) -> Result<MeasureFn, ParamError>;

/// Everything a measure declares.
pub struct MeasureSpec {
    /// The name configs and tables use.
    pub name: &'static str,
    /// What it is, in one line.
    pub description: &'static str,
    /// True when a lower value is better.
    pub lower_is_better: bool,
    /// True when it is defined only on two-class tasks (a config giving it a multi-class
    /// dataset is refused before any fit).
    pub needs_binary_task: bool,
    /// What it is on a multi-class task, when that differs from its two-class meaning (a note
    /// under the summary table: "auc is Hand & Till's M ...").
    pub multi_class_note: Option<&'static str>,
    /// Its options.
    pub options: Vec<ParameterSpec>,
    /// Builds its function from its options.
    pub build: BuildMeasure,
}

crate::measures::registry::declares_fields!(MeasureSpec, "measure");

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
