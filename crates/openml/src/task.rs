//! [`Task`] and [`read_task`]: one task folder of openml-python's cache read and checked
//! against its dataset.

use std::path::{Path, PathBuf};

use crate::dataset_facts::{left_out_attributes, read_facts};
use crate::error::OpenmlError;
use crate::fold_checks::checked_folds;
use crate::layout::{dataset_dir_beside, DATASET_ARFF, DATASET_XML, SPLITS_ARFF, TASK_XML};
use crate::splits::{read_folds, TaskFold};
use crate::task_xml::{read_description, Estimation};

/// An OpenML task read from its folder: the dataset, the target, and every fold's rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// `oml:task_id`.
    pub id: u64,
    /// `oml:task_type_id`: 1 (Supervised Classification) or 3 (Learning Curve).
    pub task_type_id: u32,
    /// `oml:task_type`, e.g. `Supervised Classification`.
    pub task_type: String,
    /// `oml:data_set_id`.
    pub dataset_id: u64,
    /// `oml:target_feature`: the class attribute's name.
    pub target: String,
    /// The target's declared nominal values in the dataset ARFF's order (what predictions use).
    pub class_labels: Vec<String>,
    /// The estimation procedure `task.xml` declares.
    pub estimation: Estimation,
    /// Every repeat, fold and sample, in that order, with its rows as `datasplits.arff` gives
    /// them.
    pub splits: Vec<TaskFold>,
    /// `oml:evaluation_measures`, e.g. `predictive_accuracy` (possibly none).
    pub evaluation_measures: Vec<String>,
    /// The task's folder.
    pub task_dir: PathBuf,
    /// The splits file read.
    pub splits_path: PathBuf,
    /// The dataset ARFF read.
    pub dataset_path: PathBuf,
    /// The dataset's number of rows (row ids are below it).
    pub n_rows: usize,
    /// Attributes OpenML leaves out of the task's features (the row id and ignored attributes
    /// of the `description.xml` beside the dataset's ARFF; none without that file): of any
    /// type (`string` too),
    /// to be dropped when the dataset is read ([`data::LoadOptions::skip_columns`]).
    pub left_out_attributes: Vec<String>,
}

impl Task {
    /// The number of repeats (the largest repeat + 1).
    pub fn number_of_repeats(&self) -> u32 {
        self.splits.iter().map(|f| f.repeat + 1).max().unwrap_or(0)
    }

    /// The number of folds of each repeat.
    pub fn number_of_folds(&self) -> u32 {
        self.splits.iter().map(|f| f.fold + 1).max().unwrap_or(0)
    }

    /// The number of samples of each fold (1 unless a learning curve).
    pub fn number_of_samples(&self) -> u32 {
        self.splits.iter().map(|f| f.sample + 1).max().unwrap_or(0)
    }
}

/// Reads the task folder `dir` (`task.xml`, `datasplits.arff`) with its dataset found in the
/// cache layout beside it (`<dir>/../../datasets/<data_set_id>/dataset.arff`).
pub fn read_task(dir: &Path) -> Result<Task, OpenmlError> {
    read_task_with(dir, None)
}

/// Reads the task folder `dir` with its dataset at `dataset` (an ARFF file), or found in the
/// cache layout when `None`; checks that the splits fit the data.
pub fn read_task_with(dir: &Path, dataset: Option<&Path>) -> Result<Task, OpenmlError> {
    let task_xml = task_file(dir)?;
    let description = read_description(&task_xml)?;
    check_folder_name(dir, &task_xml, description.id)?;
    let dataset_dir = dataset_dir_beside(dir, description.dataset_id);
    let dataset_path = match dataset {
        Some(path) => path.to_path_buf(),
        None => dataset_dir.join(DATASET_ARFF),
    };
    if !dataset_path.is_file() {
        return Err(no_dataset(
            &dataset_path,
            description.dataset_id,
            dataset.is_none(),
        ));
    }
    let beside = dataset_path.with_file_name(DATASET_XML);
    let left_out = left_out_attributes(&beside, &description.target)?;
    let facts = read_facts(&dataset_path, (&description.target, &left_out), &task_xml)?;
    let splits_path = dir.join(SPLITS_ARFF);
    if !splits_path.is_file() {
        return Err(OpenmlError::NotATask {
            path: dir.to_path_buf(),
            message: format!("no {SPLITS_ARFF} beside {TASK_XML}; download the task with openml.tasks.get_task({}, download_splits=True)", description.id),
        });
    }
    let folds = read_folds(&splits_path, facts.n_rows, &dataset_path)?;
    let splits = checked_folds(&splits_path, folds, &description.estimation, facts.n_rows)?;
    Ok(Task {
        id: description.id,
        task_type_id: description.task_type_id,
        task_type: description.task_type,
        dataset_id: description.dataset_id,
        target: description.target,
        class_labels: facts.class_labels,
        estimation: description.estimation,
        splits,
        evaluation_measures: description.evaluation_measures,
        task_dir: dir.to_path_buf(),
        splits_path,
        dataset_path,
        n_rows: facts.n_rows,
        left_out_attributes: left_out,
    })
}

/// The id of the task in folder `dir`, read from its `task.xml` alone (a quick check that the
/// folder is a task's, before [`read_task`] reads the splits and the data).
pub fn read_task_id(dir: &Path) -> Result<u64, OpenmlError> {
    let task_xml = task_file(dir)?;
    let description = read_description(&task_xml)?;
    check_folder_name(dir, &task_xml, description.id)?;
    Ok(description.id)
}

/// `dir/task.xml`, refusing a folder that is not a task folder.
fn task_file(dir: &Path) -> Result<PathBuf, OpenmlError> {
    let not_a_task = |message: String| OpenmlError::NotATask {
        path: dir.to_path_buf(),
        message,
    };
    if !dir.is_dir() {
        return Err(not_a_task(if dir.exists() {
            "it is a file; expected the folder of one task (<cache>/org/openml/www/tasks/<id>/)"
                .into()
        } else {
            "no such folder; expected the folder of one task (<cache>/org/openml/www/tasks/<id>/)"
                .into()
        }));
    }
    let task_xml = dir.join(TASK_XML);
    if !task_xml.is_file() {
        return Err(not_a_task(format!(
            "no {TASK_XML} in it; expected the folder of one task in openml-python's cache (<cache>/org/openml/www/tasks/<id>/ with {TASK_XML} and {SPLITS_ARFF})"
        )));
    }
    Ok(task_xml)
}

/// A folder named by a number must be named by the task's id (the cache layout).
fn check_folder_name(dir: &Path, task_xml: &Path, id: u64) -> Result<(), OpenmlError> {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) && name != id.to_string() {
        return Err(OpenmlError::NotATask {
            path: dir.to_path_buf(),
            message: format!(
                "the folder is named {name} but {} is task {id}; in the cache layout a task's folder is named by its id",
                task_xml.display()
            ),
        });
    }
    Ok(())
}

/// The error for a dataset ARFF that is not there, with how to get it.
fn no_dataset(path: &Path, dataset_id: u64, in_cache: bool) -> OpenmlError {
    let parquet = path.with_file_name(format!("dataset_{dataset_id}.pq"));
    let hint = if in_cache && parquet.is_file() {
        format!(" (only the Parquet copy {} is there: download the ARFF with OPENML_SKIP_PARQUET=true set before openml.datasets.get_dataset({dataset_id}, download_data=True))", parquet.display())
    } else if in_cache {
        format!("; download it with OPENML_SKIP_PARQUET=true set before openml.datasets.get_dataset({dataset_id}, download_data=True), or give the dataset's path")
    } else {
        String::new()
    };
    OpenmlError::Dataset {
        path: path.to_path_buf(),
        message: format!("no such file: the task's dataset {dataset_id} is not there{hint}"),
    }
}
