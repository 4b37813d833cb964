//! openml-python's cache layout: `<cache>/org/openml/www/tasks/<id>/` holds `task.xml` and
//! `datasplits.arff`, `<cache>/org/openml/www/datasets/<id>/` holds `dataset.arff` and
//! `description.xml`.

use std::path::{Path, PathBuf};

/// The folder of task `id` in the cache folder `cache` (openml-python's `~/.openml/cache`).
pub fn task_dir(cache: &Path, id: u64) -> PathBuf {
    cache
        .join("org")
        .join("openml")
        .join("www")
        .join("tasks")
        .join(id.to_string())
}

/// The folder of dataset `id` in the same cache as the task folder `task_dir`
/// (`<task_dir>/../../datasets/<id>`).
pub fn dataset_dir_beside(task_dir: &Path, id: u64) -> PathBuf {
    let www = task_dir
        .parent()
        .and_then(Path::parent)
        .unwrap_or_else(|| Path::new(".."));
    www.join("datasets").join(id.to_string())
}

/// The task description's file name in a task folder.
pub const TASK_XML: &str = "task.xml";
/// The splits' file name in a task folder.
pub const SPLITS_ARFF: &str = "datasplits.arff";
/// The data's file name in a dataset folder.
pub const DATASET_ARFF: &str = "dataset.arff";
/// The dataset description's file name in a dataset folder.
pub const DATASET_XML: &str = "description.xml";
