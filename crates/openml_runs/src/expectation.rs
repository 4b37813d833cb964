//! What a task fixes for the predictions of a run on it.

use std::collections::BTreeMap;

/// One fold of a task: its repeat, fold and (learning-curve tasks) sample, all 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FoldKey {
    /// The repeat.
    pub repeat: u32,
    /// The fold.
    pub fold: u32,
    /// The sample (0 unless the task is a learning-curve task).
    pub sample: u32,
}

/// Everything the checker compares a predictions file against.
#[derive(Clone, Debug)]
pub struct TaskExpectation {
    /// The task's id (the relation is `openml_task_<id>_predictions`).
    pub task_id: u64,
    /// The target's declared nominal values, in order.
    pub class_labels: Vec<String>,
    /// The dataset's number of rows (row ids run from 0 below it).
    pub n_rows: usize,
    /// Each fold's test rows (0-based row ids), in the task's order.
    pub folds: BTreeMap<FoldKey, Vec<u32>>,
    /// Each row's true label as an index into `class_labels` (`None`: unknown, not checked).
    pub truth: Vec<Option<usize>>,
}

impl TaskExpectation {
    /// The relation name a predictions file of this task has.
    pub fn relation(&self) -> String {
        format!("openml_task_{}_predictions", self.task_id)
    }
}
