//! The engine's error type: every failure names what was being done and why.

/// Why an experiment could not be checked, run or reported.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A problem stated in full (a config key and what it allows, a dataset that cannot be used).
    #[error("{0}")]
    Message(String),
    /// A step that failed: what was being done, and the cause.
    #[error("{context}: {cause}")]
    Failed {
        /// What was being done (e.g. "cannot load dataset 'pima'").
        context: String,
        /// The cause, as its own message.
        cause: String,
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

impl Error {
    /// An error stated in full.
    pub fn message(text: impl Into<String>) -> Self {
        Error::Message(text.into())
    }
}

/// The engine's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Adds what was being done to an error, as `anyhow::Context` does, keeping the cause's text.
pub trait Context<T> {
    /// Wraps the error with a fixed context.
    fn context(self, context: impl std::fmt::Display) -> Result<T>;
    /// Wraps the error with a context computed only on failure.
    fn with_context<C: std::fmt::Display>(self, context: impl FnOnce() -> C) -> Result<T>;
}

impl<T, E: std::fmt::Display> Context<T> for std::result::Result<T, E> {
    fn context(self, context: impl std::fmt::Display) -> Result<T> {
        self.map_err(|error| Error::Failed {
            context: context.to_string(),
            cause: error.to_string(),
        })
    }

    fn with_context<C: std::fmt::Display>(self, context: impl FnOnce() -> C) -> Result<T> {
        self.map_err(|error| Error::Failed {
            context: context().to_string(),
            cause: error.to_string(),
        })
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, context: impl std::fmt::Display) -> Result<T> {
        self.ok_or_else(|| Error::Message(context.to_string()))
    }

    fn with_context<C: std::fmt::Display>(self, context: impl FnOnce() -> C) -> Result<T> {
        self.ok_or_else(|| Error::Message(context().to_string()))
    }
}

/// Returns early with an [`Error::Message`] built like `format!`.
#[macro_export]
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::Error::Message(format!($($arg)*)))
    };
}
