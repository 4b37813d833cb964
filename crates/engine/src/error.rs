//! The engine's error type: one variant per kind of failure, each naming what was being done,
//! with the cause as its source (so that a caller prints the whole chain, as
//! [`Error::sentence`] does).

use std::fmt;
use std::path::PathBuf;

/// Why an experiment could not be checked, run or reported.
#[derive(thiserror::Error)]
pub enum Error {
    /// What a config asks for cannot run: each problem names the key or entry and what is
    /// allowed, on its own line, prefixed with the config's name once it is known.
    #[error("{}", problem_lines(origin.as_deref(), problems))]
    Config {
        /// The config file (or the name given to config text), when known.
        origin: Option<String>,
        /// The problems, one per line.
        problems: Vec<String>,
    },
    /// Checking a config failed for a reason with a cause of its own (a dataset that cannot
    /// be read, say).
    #[error("{origin}")]
    InConfig {
        /// The config file (or the name given to config text).
        origin: String,
        /// What failed.
        #[source]
        source: Box<Error>,
    },
    /// A file could not be read, written, moved or removed.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// What was being done ("read config", "create the results folder", ...).
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A dataset could not be loaded.
    #[error("cannot load dataset '{dataset}'")]
    LoadDataset {
        /// The dataset as named in the config.
        dataset: String,
        /// The cause (boxed: the data layer's errors are large).
        #[source]
        source: Box<data::DataError>,
    },
    /// An OpenML task (its folder, splits or dataset) could not be read, or its files disagree.
    #[error("cannot read OpenML task '{dataset}'")]
    OpenmlTask {
        /// The dataset as named in the plan.
        dataset: String,
        /// The cause, naming the file and line.
        #[source]
        source: Box<openml::OpenmlError>,
    },
    /// A transform of the config could not be applied to a dataset.
    #[error("dataset '{dataset}': {transform}")]
    Transform {
        /// The dataset.
        dataset: String,
        /// The transform's key (two_most_confused, positive_class, subsample).
        transform: &'static str,
        /// The cause (boxed: the data layer's errors are large).
        #[source]
        source: Box<data::DataError>,
    },
    /// A dataset's splits could not be made.
    #[error("dataset '{dataset}': cannot make the splits")]
    Splits {
        /// The dataset.
        dataset: String,
        /// The cause (boxed, as large).
        #[source]
        source: Box<cv::CvError>,
    },
    /// The worker threads could not be started.
    #[error("cannot start the worker threads")]
    Threads(#[source] rayon::ThreadPoolBuildError),
    /// A merge of shards found units missing from the cache.
    #[error(
        "experiment '{experiment}': cannot merge: {missing}. Run those shards again (rerunning \
         `experiments slurm` resubmits just them), or give --merge --allow-missing to report on \
         what is there"
    )]
    MissingUnits {
        /// The experiment.
        experiment: String,
        /// How many units are missing, and their shards.
        missing: String,
    },
    /// An analysis failed while computing its sections.
    #[error("analysis '{analysis}'")]
    Analysis {
        /// The analysis.
        analysis: String,
        /// What failed.
        #[source]
        source: AnalysisError,
    },
    /// A table of results could not be written as Parquet.
    #[error("cannot {action}")]
    Parquet {
        /// What was being done ("write the per-fold table as Parquet", ...).
        action: &'static str,
        /// The cause.
        #[source]
        source: report::ParquetError,
    },
    /// A table of results could not be built as a polars `DataFrame`.
    #[cfg(feature = "polars")]
    #[error("cannot {action}")]
    Frame {
        /// What was being done ("write the per-fold table as Parquet", ...).
        action: &'static str,
        /// The cause (boxed, as large).
        #[source]
        source: Box<polars::error::PolarsError>,
    },
    /// Something could not be written as JSON.
    #[error("cannot write {what} as JSON")]
    Json {
        /// What was being written.
        what: String,
        /// The cause.
        #[source]
        source: serde_json::Error,
    },
    /// A table, plot or file of the report could not be made or written.
    #[error(transparent)]
    Report(#[from] report::ReportError),
    /// A statistical test or interval could not be computed.
    #[error(transparent)]
    Stats(#[from] stats::StatsError),
    /// A learner kind could not be registered.
    #[error(transparent)]
    Registry(#[from] learners::RegistryError),
    /// A measure or curve could not be computed.
    #[error(transparent)]
    Evaluate(#[from] evaluate::EvaluateError),
}

/// What an analysis's computation fails with: its own error type, boxed.
pub type AnalysisError = Box<dyn std::error::Error + Send + Sync>;

/// The problems of a config, one per line, each prefixed with `origin` when known.
fn problem_lines(origin: Option<&str>, problems: &[String]) -> String {
    let lines = problems.iter().flat_map(|problem| problem.lines());
    match origin {
        Some(origin) => lines
            .map(|line| format!("{origin}: {line}"))
            .collect::<Vec<_>>()
            .join("\n"),
        None => lines.collect::<Vec<_>>().join("\n"),
    }
}

impl Error {
    /// A config problem (a key and what it allows), without the config's name yet.
    pub fn config(problem: impl Into<String>) -> Self {
        Error::Config {
            origin: None,
            problems: vec![problem.into()],
        }
    }

    /// Several config problems at once, each on its own line.
    pub fn config_problems(problems: Vec<String>) -> Self {
        Error::Config {
            origin: None,
            problems,
        }
    }

    /// This error, raised while checking the config `origin`, naming it: on every line of a
    /// config problem, or before any other error's chain.
    pub fn in_config(self, origin: &str) -> Self {
        match self {
            Error::Config {
                origin: None,
                problems,
            } => Error::Config {
                origin: Some(origin.to_string()),
                problems,
            },
            Error::Config { .. } | Error::InConfig { .. } => self,
            other => Error::InConfig {
                origin: origin.to_string(),
                source: Box::new(other),
            },
        }
    }

    /// A file operation that failed: what was being done, the path and the cause.
    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            action,
            path: path.into(),
            source,
        }
    }

    /// The error with its causes, as sentences joined by ": " (what the command line prints).
    pub fn sentence(&self) -> String {
        sentence(self)
    }
}

/// An error with its chain of sources, joined by ": ".
pub fn sentence(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        text.push_str(": ");
        text.push_str(&next.to_string());
        cause = next.source();
    }
    text
}

/// The error as a sentence with its causes, so that `fn main() -> engine::Result<()>` prints
/// `Error: cannot load dataset 'x': ...` rather than the variant's fields.
impl fmt::Debug for Error {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.sentence())
    }
}

/// The engine's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Returns early with an [`Error::Config`] problem built like `format!`.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::Error::config(format!($($arg)*)))
    };
}
pub(crate) use bail;
