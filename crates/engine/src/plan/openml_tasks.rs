//! An OpenML task in the plan: its dataset read with the task's target as the class (the
//! attributes OpenML leaves out of a task's features dropped while reading), and with `protocol = { kind =
//! "openml" }` its splits as the dataset's plan: every repeat and fold, the task's repeat and
//! fold numbers as the splits' repetition and fold.

use std::sync::Arc;

use data::Dataset;

use crate::config::experiment::Transforms;
use crate::error::bail;
use crate::error::{Error, Result};
use crate::plan::requests::{DatasetRequest, OpenmlSource};

/// Reads the task of `request` (checking that its files agree) and loads its dataset.
pub fn load_task(
    request: &DatasetRequest,
    source: &OpenmlSource,
) -> Result<(Dataset, Arc<openml::Task>)> {
    let task =
        openml::read_task_with(&source.task_dir, source.dataset.as_deref()).map_err(|error| {
            Error::OpenmlTask {
                dataset: request.name.clone(),
                source: Box::new(error),
            }
        })?;
    let options = data::LoadOptions {
        class_column: Some(data::ClassColumn::Name(task.target.clone())),
        skip_columns: task.left_out_attributes.clone(),
        ..data::LoadOptions::default()
    };
    let loaded = data::load(&task.dataset_path, &options).map_err(|source| Error::LoadDataset {
        dataset: task.dataset_path.display().to_string(),
        source: Box::new(source),
    })?;
    if loaded.len() != task.n_rows {
        bail!(
            "OpenML task {}: {} holds {} rows as a dataset but {} as the task counted them",
            task.id,
            task.dataset_path.display(),
            loaded.len(),
            task.n_rows
        );
    }
    Ok((loaded, Arc::new(task)))
}

/// Refuses the transforms that change a task's rows (its row ids would no longer fit).
pub fn check_transforms(name: &str, transforms: &Transforms) -> Result<()> {
    let changing: Vec<&str> = [
        ("two_most_confused", transforms.two_most_confused),
        ("subsample", transforms.subsample.is_some()),
    ]
    .into_iter()
    .filter_map(|(key, set)| set.then_some(key))
    .collect();
    if !changing.is_empty() {
        bail!(
            "dataset '{name}' is an OpenML task run on its own splits (protocol kind 'openml'), \
             whose row ids name the rows of its dataset: the transform {} would change the rows; \
             remove it for this dataset (or use another protocol)",
            changing.join(", ")
        );
    }
    Ok(())
}

/// The task's splits as the plan of dataset `name` (of `rows` rows): one split per repeat and
/// fold, in that order; learning-curve samples other than 0 are refused.
pub fn task_plan(
    name: &str,
    task: &openml::Task,
    rows: usize,
    experiment_seed: u64,
) -> Result<cv::SplitPlan> {
    if task.number_of_samples() > 1 {
        bail!(
            "dataset '{name}': OpenML task {} is a learning curve ({} samples a fold); protocol \
             kind 'openml' runs tasks of one sample a fold (Supervised Classification)",
            task.id,
            task.number_of_samples()
        );
    }
    let splits = task
        .splits
        .iter()
        .map(|fold| split_of(fold, rows))
        .collect();
    cv::SplitPlan::given(name, rows, splits, experiment_seed).map_err(|source| Error::Splits {
        dataset: name.to_string(),
        source: Box::new(source),
    })
}

/// One fold of a task as a split: its rows sorted (a split's parts are ascending); its training
/// rows held as the rest when they are every row its test part leaves.
fn split_of(fold: &openml::TaskFold, rows: usize) -> cv::Split {
    let mut test = fold.test.clone();
    test.sort_unstable();
    let mut train = fold.train.clone();
    train.sort_unstable();
    let distinct = train.windows(2).all(|pair| pair[0] != pair[1]);
    let rest = distinct && train.len() + test.len() == rows;
    cv::Split {
        repetition: fold.repeat as usize,
        fold: fold.fold as usize,
        train: if rest {
            cv::Train::Rest { instances: rows }
        } else {
            cv::Train::Listed(train)
        },
        validation: None,
        test,
    }
}

/// A dataset that is not an OpenML task under protocol kind 'openml'.
pub fn not_a_task(name: &str) -> Error {
    Error::config(format!(
        "dataset '{name}' is not an OpenML task, but protocol kind 'openml' runs each task's own \
         splits: give OpenML tasks only (openml_task or openml_cache in its datasets entry), or \
         use another protocol"
    ))
}
