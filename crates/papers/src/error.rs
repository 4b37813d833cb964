//! The papers' error type: a published data file that cannot be read, a run that lacks what an
//! analysis needs, or a computation of a table, curve or test that fails.

/// Why a paper's analysis could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A published data file beside this crate could not be parsed.
    #[error("papers/data/{file}")]
    PublishedFile {
        /// The file under `crates/papers/data/`.
        file: String,
        /// The cause.
        #[source]
        source: toml::de::Error,
    },
    /// A published data file holds a value it should not (a number not as printed, ranges
    /// with gaps, ...).
    #[error("papers/data/{file}: {problem}")]
    Published {
        /// The file under `crates/papers/data/`.
        file: String,
        /// What is wrong, naming the row and key.
        problem: String,
    },
    /// The run lacks what the analysis needs (checked before any fit; met here when an
    /// analysis is computed from a record of another config).
    #[error("{0}")]
    Needs(String),
    /// An option of an analysis is out of its range.
    #[error("{0}")]
    Option(String),
    /// Huang & Ling's exact counts could not be computed or compared.
    #[error("Huang-Ling counts for {positives} positives and {negatives} negatives")]
    Counts {
        /// Positives of the configuration.
        positives: usize,
        /// Negatives of the configuration.
        negatives: usize,
        /// The cause.
        #[source]
        source: evaluate::EvaluateError,
    },
    /// An exact count that the published tables print does not fit 64 bits, or is missing.
    #[error("{0}")]
    Count(String),
    /// A table or figure could not be made.
    #[error(transparent)]
    Report(#[from] report::ReportError),
    /// A statistic or interval could not be computed.
    #[error(transparent)]
    Stats(#[from] stats::StatsError),
    /// A curve or measure could not be computed.
    #[error(transparent)]
    Evaluate(#[from] evaluate::EvaluateError),
}

/// The papers' result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
