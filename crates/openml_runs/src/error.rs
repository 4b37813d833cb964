//! The error type of the writers and the checker.

use std::path::PathBuf;

/// Why a run could not be written or a predictions file not read at all (a file that reads but
/// is wrong gives [`crate::Problem`]s instead).
#[derive(Debug, thiserror::Error)]
pub enum RunsError {
    /// The file could not be read as ARFF text (its reason names the line).
    #[error(transparent)]
    Arff(#[from] data::DataError),
    /// A header that is not a predictions file's: what is wrong, on which line.
    #[error("{path}:{line}: {message}")]
    Header {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// Predictions that cannot be written as they are (a row of the wrong width, a class index
    /// beyond the labels).
    #[error("the predictions cannot be written: {0}")]
    Invalid(String),
}
