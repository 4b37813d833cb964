//! The error type of the writers and the checker.

use std::path::PathBuf;

/// Why a run could not be written or a predictions file not read at all (a file that reads but
/// is wrong gives [`crate::Problem`]s instead).
#[derive(Debug, thiserror::Error)]
pub enum RunsError {
    /// The file could not be read as ARFF text (its reason names the line).
    #[error(transparent)]
    Arff(#[from] data::DataError),
    /// The task folder could not be read.
    #[error(transparent)]
    Task(Box<openml::OpenmlError>),
    /// A header that is not a predictions file's: what is wrong, on which line.
    #[error("{path}:{line}: {message}")]
    Header {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// A results folder that is not a finished run's: what is missing.
    #[error("{path}: {message}")]
    NotResults { path: PathBuf, message: String },
    /// The results folder's config does not check (its datasets, learners, ...).
    #[error("the config of the results folder {path} does not check: {source}")]
    Config {
        path: PathBuf,
        #[source]
        source: engine::Error,
    },
    /// `--learner` names no learner of the run.
    #[error("--learner '{}': the run {path} has no such learner; its learners: {}", data::shown(.name), data::shown(&.known.join(", ")))]
    UnknownLearner {
        path: PathBuf,
        name: String,
        known: Vec<String>,
    },
    /// No dataset of the run has the task's splits.
    #[error("the run {path} is not on task {task}: {why}")]
    NotFromTask {
        path: PathBuf,
        task: u64,
        why: String,
    },
    /// Some of the learner's units are missing from the cache, or failed.
    #[error("the run {path} lacks {count} of learner '{}''s {total} units on the task: {}; finish the run (or its shards and --merge) first", data::shown(.learner), .which.join("; "))]
    MissingUnits {
        path: PathBuf,
        learner: String,
        count: usize,
        total: usize,
        which: Vec<String>,
    },
    /// A file of the exported run could not be written.
    #[error("{path}: cannot write: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    /// Predictions that cannot be written as they are (a row of the wrong width, a class index
    /// beyond the labels).
    #[error("the predictions cannot be written: {0}")]
    Invalid(String),
}
