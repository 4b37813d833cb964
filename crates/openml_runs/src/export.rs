//! A finished run's predictions of one learner on an OpenML task, read back from its results
//! folder: the config as run (`config.toml`) is checked again to rebuild the plan (datasets
//! loaded and split, nothing fitted), the dataset on the task is found by its splits, and each
//! of the learner's units is read from the folder's cache as a `--merge` reads it.

use std::path::{Path, PathBuf};

use engine::run::cache::{look_up, Cached};
use engine::{Engine, Plan, Unit, UnitPredictions};

use crate::description::RunDescription;
use crate::error::RunsError;
use crate::expectation::{FoldKey, TaskExpectation};
use crate::export_rows::{description, prediction_rows};
use crate::predictions::Predictions;
use crate::task_folds::folds_of_splits;

/// What to export.
#[derive(Clone, Copy, Debug)]
pub struct ExportRequest<'a> {
    /// The run's results folder (`results/<name>`).
    pub results: &'a Path,
    /// The config as run, if not the folder's `config.toml` (relative dataset paths in it are
    /// read from its folder, then the current folder).
    pub config: Option<&'a Path>,
    /// The learner's name in the run.
    pub learner: &'a str,
    /// The task.
    pub task: &'a TaskExpectation,
    /// The flow's id on the server.
    pub flow_id: u64,
}

/// A run on a task, ready to be written.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportedRun {
    /// The predictions file's content.
    pub predictions: Predictions,
    /// The description's content.
    pub description: RunDescription,
}

/// Reads the learner's predictions on the task from the results folder.
pub fn export_run(engine: &Engine, request: &ExportRequest) -> Result<ExportedRun, RunsError> {
    let checked = check_config(engine, request)?;
    let plan = &checked.plan;
    let learner = learner_index(plan, request)?;
    let (dataset, keys) = dataset_on_task(plan, request)?;
    let units = cached_units(plan, dataset, learner, &keys, request)?;
    let classes = &plan.datasets[dataset].dataset.schema().class_values;
    let rows = prediction_rows(classes, &units, request.task)
        .map_err(|why| not_from_task(request, why))?;
    let predictions = Predictions {
        task_id: request.task.task_id,
        class_labels: request.task.class_labels.clone(),
        rows,
    };
    let description = description(&plan.learners[learner].table, &predictions, request.flow_id);
    Ok(ExportedRun {
        predictions,
        description,
    })
}

/// Writes `predictions.arff` and `description.xml` into `folder` (made if absent).
pub fn write_run(folder: &Path, run: &ExportedRun) -> Result<(), RunsError> {
    let write = |name: &str, text: &str| {
        let path = folder.join(name);
        std::fs::create_dir_all(folder)
            .and_then(|()| std::fs::write(&path, text))
            .map_err(|error| RunsError::Write { path, error })
    };
    write(
        "predictions.arff",
        &crate::arff_write::write_predictions(&run.predictions)?,
    )?;
    write(
        "description.xml",
        &crate::description::write_description(&run.description),
    )
}

/// The run's config checked again (its plan), from `--config` or the folder's `config.toml`.
fn check_config(
    engine: &Engine,
    request: &ExportRequest,
) -> Result<engine::CheckedExperiment, RunsError> {
    let path: PathBuf = request
        .config
        .map_or_else(|| request.results.join("config.toml"), Path::to_path_buf);
    let text = std::fs::read_to_string(&path).map_err(|error| RunsError::NotResults {
        path: request.results.to_path_buf(),
        message: format!("cannot read the config as run ({}): {error}; give a finished run's results folder (results/<name>)", path.display()),
    })?;
    let base = request.config.and_then(Path::parent);
    engine
        .check_text_in(&text, &path.display().to_string(), base)
        .map_err(|source| RunsError::Config {
            path: request.results.to_path_buf(),
            source,
        })
}

/// The learner's index in the plan, or the names of those there are.
fn learner_index(plan: &Plan, request: &ExportRequest) -> Result<usize, RunsError> {
    plan.learners
        .iter()
        .position(|l| l.name == request.learner)
        .ok_or_else(|| RunsError::UnknownLearner {
            path: request.results.to_path_buf(),
            name: request.learner.to_string(),
            known: plan.learners.iter().map(|l| l.name.clone()).collect(),
        })
}

/// The dataset whose splits are the task's folds, with each split's fold.
fn dataset_on_task(
    plan: &Plan,
    request: &ExportRequest,
) -> Result<(usize, Vec<FoldKey>), RunsError> {
    let mut why = Vec::new();
    for (index, dataset) in plan.datasets.iter().enumerate() {
        match folds_of_splits(&dataset.plan.splits, dataset.dataset.len(), request.task) {
            Ok(keys) => return Ok((index, keys)),
            Err(reason) => why.push(format!(
                "dataset '{}': {reason}",
                data::shown(&dataset.name)
            )),
        }
    }
    if why.is_empty() {
        why.push("the run has no datasets".into());
    }
    Err(not_from_task(request, why.join("; ")))
}

/// The refusal of a run that is not on the task.
fn not_from_task(request: &ExportRequest, why: String) -> RunsError {
    RunsError::NotFromTask {
        path: request.results.to_path_buf(),
        task: request.task.task_id,
        why,
    }
}

/// Each split's fold and the learner's predictions on it, read from the cache; every unit must
/// be there.
fn cached_units(
    plan: &Plan,
    dataset: usize,
    learner: usize,
    keys: &[FoldKey],
    request: &ExportRequest,
) -> Result<Vec<(FoldKey, UnitPredictions)>, RunsError> {
    let mut units = Vec::with_capacity(keys.len());
    let mut missing = Vec::new();
    for (split, key) in keys.iter().enumerate() {
        let unit = Unit::on_split(dataset, learner, split);
        let which = format!("repeat {} fold {}", key.repeat, key.fold);
        match look_up(request.results, &plan.spec(unit)).0 {
            Cached::Found(result) => match result.predictions {
                Some(predictions) => units.push((*key, predictions)),
                None => missing.push(format!("{which}: no predictions")),
            },
            Cached::Failed(result) => {
                missing.push(format!("{which}: failed ({:?})", result.status))
            }
            Cached::Missing(why) => missing.push(format!("{which}: {why}")),
        }
    }
    if !missing.is_empty() {
        return Err(RunsError::MissingUnits {
            path: request.results.to_path_buf(),
            learner: request.learner.to_string(),
            count: missing.len(),
            total: keys.len(),
            which: missing.into_iter().take(5).collect(),
        });
    }
    units.sort_by_key(|(key, _)| *key);
    Ok(units)
}
