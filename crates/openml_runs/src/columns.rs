//! Where the columns the checker reads stand in a predictions file's rows, and how far its
//! probabilities may stray.

/// How far a row's confidences may sum from 1 (and lie outside [0, 1]) before it is a problem:
/// room for rounding in a learner's probabilities, far below any real error.
pub const PROBABILITY_TOLERANCE: f64 = 1e-6;

/// Where each column the checker reads stands in a row.
#[derive(Clone, Debug)]
pub(crate) struct Columns {
    pub repeat: usize,
    pub fold: usize,
    pub sample: Option<usize>,
    pub row_id: usize,
    pub prediction: usize,
    pub correct: usize,
    /// One per class label, in the task's order.
    pub confidences: Vec<usize>,
}
