//! The comparison's error type: the run lacks what it needs, a statistic cannot be computed for
//! a measure, or a table, figure or JSON file cannot be made.

/// Why the comparison across datasets could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The run lacks what the analysis needs (at least 2 datasets and 2 learners).
    #[error("{0}")]
    Needs(String),
    /// A statistic of one measure could not be computed.
    #[error("measure '{measure}'")]
    Statistic {
        /// The measure.
        measure: String,
        /// The cause.
        #[source]
        source: stats::StatsError,
    },
    /// Every statistic of a measure could not be written as JSON.
    #[error("cannot write {file}")]
    Json {
        /// The file, relative to the results folder.
        file: String,
        /// The cause.
        #[source]
        source: serde_json::Error,
    },
    /// A table or figure could not be made.
    #[error(transparent)]
    Report(#[from] report::ReportError),
}

/// The comparison's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
