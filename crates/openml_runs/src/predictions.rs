//! One learner's predictions on a task, as the predictions file holds them.

use crate::expectation::FoldKey;

/// One predicted row: where it was predicted, what, and with which confidences.
#[derive(Clone, Debug, PartialEq)]
pub struct PredictionRow {
    /// The repeat, fold and sample the row was predicted in.
    pub key: FoldKey,
    /// The row's 0-based id in the task's dataset.
    pub row_id: u32,
    /// The predicted label (an index into the labels).
    pub prediction: usize,
    /// The true label (an index into the labels).
    pub correct: usize,
    /// One probability per label, in the labels' order.
    pub confidences: Vec<f64>,
}

/// A run's predictions on one task.
#[derive(Clone, Debug, PartialEq)]
pub struct Predictions {
    /// The task's id.
    pub task_id: u64,
    /// The task's class labels, in its order.
    pub class_labels: Vec<String>,
    /// The rows, in the order they are written.
    pub rows: Vec<PredictionRow>,
}

impl Predictions {
    /// The accuracy of each fold (the share of its rows whose prediction is the true label),
    /// in fold order.
    pub fn fold_accuracy(&self) -> Vec<(FoldKey, f64)> {
        let mut counts = std::collections::BTreeMap::<FoldKey, (usize, usize)>::new();
        for row in &self.rows {
            let entry = counts.entry(row.key).or_default();
            entry.0 += usize::from(row.prediction == row.correct);
            entry.1 += 1;
        }
        counts
            .into_iter()
            .map(|(key, (right, all))| (key, right as f64 / all as f64))
            .collect()
    }
}
