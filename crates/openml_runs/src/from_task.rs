//! A task read by the `openml` crate as what the checker expects: its folds' test rows and each
//! row's true label, read from the task's dataset ARFF (the target's declared value).

use std::collections::BTreeMap;

use crate::error::RunsError;
use crate::expectation::{FoldKey, TaskExpectation};

/// What the task in folder `dir` (openml-python's cache layout) fixes for a run's predictions.
pub fn read_expectation(dir: &std::path::Path) -> Result<TaskExpectation, RunsError> {
    let task = openml::read_task(dir).map_err(|e| RunsError::Task(Box::new(e)))?;
    expectation_of(&task)
}

/// What `task` fixes for a run's predictions; reads the target of every row of its dataset.
pub fn expectation_of(task: &openml::Task) -> Result<TaskExpectation, RunsError> {
    let folds: BTreeMap<FoldKey, Vec<u32>> = task
        .splits
        .iter()
        .map(|f| {
            let key = FoldKey {
                repeat: f.repeat,
                fold: f.fold,
                sample: f.sample,
            };
            (key, f.test.clone())
        })
        .collect();
    Ok(TaskExpectation {
        task_id: task.id,
        class_labels: task.class_labels.clone(),
        n_rows: task.n_rows,
        folds,
        truth: truth_of(task)?,
    })
}

/// Each row's target as an index into the task's labels (`None` where missing).
fn truth_of(task: &openml::Task) -> Result<Vec<Option<usize>>, RunsError> {
    let path = &task.dataset_path;
    let target = std::cell::Cell::new(0);
    let mut truth = Vec::with_capacity(task.n_rows);
    data::visit_arff::<RunsError>(
        (path.as_path(), task.left_out_attributes.as_slice()),
        |attributes| {
            let found = attributes.iter().position(|a| a.name == task.target);
            target.set(found.ok_or_else(|| RunsError::Header {
                path: path.clone(),
                line: 1,
                message: format!(
                    "no attribute '{}' (the task's target)",
                    data::shown(&task.target)
                ),
            })?);
            Ok(())
        },
        |_, row| {
            let value = row[target.get()];
            truth.push((!value.is_nan()).then_some(value as usize));
            Ok(())
        },
    )?;
    Ok(truth)
}
