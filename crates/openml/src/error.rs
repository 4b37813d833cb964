//! The error of every reader of this crate: each names the file (and line, where one applies)
//! and what is wrong there.

use std::path::PathBuf;

use data::DataError;

/// Why an OpenML task folder could not be read, or why its files disagree.
#[derive(Debug, thiserror::Error)]
pub enum OpenmlError {
    /// A file or folder that could not be read.
    #[error("{path}: cannot read: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A folder that is not an OpenML task folder (no `task.xml`, ...).
    #[error("{path}: not an OpenML task folder: {message}")]
    NotATask { path: PathBuf, message: String },
    /// `task.xml` (or a dataset's `description.xml`): malformed XML, or a value missing or out
    /// of range; `line` is 1-based.
    #[error("{path}:{line}: {message}")]
    Xml {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// An ARFF file (the dataset or `datasplits.arff`) whose syntax or values are wrong.
    #[error(transparent)]
    Arff(#[from] DataError),
    /// A row of `datasplits.arff` that is wrong (a row id beyond the data, an unknown type, ...).
    #[error("{path}:{line}: {message}")]
    SplitRow {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// `datasplits.arff` as a whole disagrees with the task or the data (a missing column, a
    /// fold without test rows, a missing fold, ...).
    #[error("{path}: {message}")]
    Splits { path: PathBuf, message: String },
    /// A suite file (task ids) that is wrong; `line` is 1-based.
    #[error("{path}:{line}: {message}")]
    Suite {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// The task's dataset cannot serve it (no such file, the target missing or not nominal).
    #[error("{path}: {message}")]
    Dataset { path: PathBuf, message: String },
}
