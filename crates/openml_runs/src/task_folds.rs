//! Which of a run's datasets is on the task, and which fold of the task each of its splits is:
//! a split is the task's fold whose test rows it tests (the same rows, in any order), so that a
//! run is known to be on the task by its rows, not by its names.

use std::collections::HashMap;

use crate::expectation::{FoldKey, TaskExpectation};

/// Each split's fold of the task (by index of the dataset's splits), or why the splits are not
/// the task's.
pub(crate) fn folds_of_splits(
    splits: &[cv::Split],
    instances: usize,
    task: &TaskExpectation,
) -> Result<Vec<FoldKey>, String> {
    if instances != task.n_rows {
        return Err(format!(
            "it has {instances} rows; the task's dataset has {}",
            task.n_rows
        ));
    }
    if splits.len() != task.folds.len() {
        return Err(format!(
            "it has {} splits; the task has {} folds",
            splits.len(),
            task.folds.len()
        ));
    }
    let mut by_rows: HashMap<Vec<u32>, Vec<FoldKey>> = HashMap::new();
    for (key, rows) in &task.folds {
        by_rows.entry(sorted(rows)).or_default().push(*key);
    }
    let mut keys = Vec::with_capacity(splits.len());
    for split in splits {
        let candidates = by_rows
            .get_mut(&sorted(&split.test))
            .filter(|c| !c.is_empty());
        let Some(candidates) = candidates else {
            return Err(format!(
                "the test rows of its repetition {} fold {} are those of no fold of the task",
                split.repetition, split.fold
            ));
        };
        let same = candidates
            .iter()
            .position(|k| k.repeat as usize == split.repetition && k.fold as usize == split.fold)
            .unwrap_or(0);
        keys.push(candidates.remove(same));
    }
    Ok(keys)
}

/// `rows` ascending.
fn sorted(rows: &[u32]) -> Vec<u32> {
    let mut rows = rows.to_vec();
    rows.sort_unstable();
    rows
}
