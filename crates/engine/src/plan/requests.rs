//! A dataset entry of the config as the plan reads it before loading: its name, source,
//! transforms, reading options, and the OpenML task it comes from.

use crate::config::experiment::Transforms;

/// A dataset reference with its transforms, before loading.
#[derive(Clone, Debug)]
pub struct DatasetRequest {
    /// The name used in tables and file names (the entry's `label`, else the shipped name or
    /// the file's stem; see [`crate::plan::dataset_names`]).
    pub name: String,
    /// Whether the name is the entry's `label`.
    pub labelled: bool,
    /// The position (from 1) of its entry in the config's `datasets`.
    pub entry: usize,
    /// What was decided about it before loading (a name given), in words.
    pub notes: Vec<String>,
    /// Shipped name or path.
    pub source: String,
    /// Transforms to apply.
    pub transforms: Transforms,
    /// How to read the source if it is a file of one's own (column types, missing markers).
    pub options: data::LoadOptions,
    /// The OpenML task the dataset is read from, when the entry names one (then `source` is
    /// the task's folder).
    pub openml: Option<OpenmlSource>,
}

/// Where an OpenML task is: its folder, and its dataset's ARFF when given apart from the cache
/// layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenmlSource {
    /// The task's folder (`task.xml`, `datasplits.arff`).
    pub task_dir: std::path::PathBuf,
    /// The dataset's ARFF, when not in the cache layout beside the task.
    pub dataset: Option<std::path::PathBuf>,
}
