//! The error type shared by every test in this crate.

use thiserror::Error;

/// Why a statistical test or interval could not be computed from its input.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum StatsError {
    /// A parameter lies outside its allowed range.
    #[error("parameter `{name}` = {value} is out of range: must be {allowed}")]
    OutOfRange {
        /// Name of the parameter.
        name: &'static str,
        /// The value that was given.
        value: f64,
        /// Human-readable allowed range, e.g. "in (0, 1)".
        allowed: &'static str,
    },
    /// An input value is NaN or infinite.
    #[error("input `{name}` has a non-finite value ({value}) at index {index}")]
    NonFinite {
        /// Name of the input slice.
        name: &'static str,
        /// Position of the first offending value.
        index: usize,
        /// The offending value.
        value: f64,
    },
    /// Too few observations for the test.
    #[error("input `{name}` has {got} usable observations; the test needs at least {needed}")]
    TooFew {
        /// Name of the input.
        name: &'static str,
        /// Number of usable observations found.
        got: usize,
        /// Minimum number needed.
        needed: usize,
    },
    /// Two inputs that must have the same length do not.
    #[error("inputs `{first}` (length {first_len}) and `{second}` (length {second_len}) must have the same length")]
    LengthMismatch {
        /// Name of the first input.
        first: &'static str,
        /// Its length.
        first_len: usize,
        /// Name of the second input.
        second: &'static str,
        /// Its length.
        second_len: usize,
    },
    /// A name (a learner, a control) is unknown or repeated; `reason` says which.
    #[error("{what} `{name}` {reason}")]
    UnknownName {
        /// What kind of name it is, e.g. "control learner".
        what: &'static str,
        /// The name that was given.
        name: String,
        /// Why it is refused, with the allowed names where they help.
        reason: String,
    },
    /// The statistic is undefined for this input (e.g. zero variance); the message says why.
    #[error("the {test} is undefined for this input: {reason}")]
    Undefined {
        /// Name of the test.
        test: &'static str,
        /// Why it is undefined.
        reason: &'static str,
    },
    /// An input that no data could have given (average ranks outside 1..k, or not summing to
    /// k(k+1)/2); `reason` says what was found and what is possible.
    #[error("input `{name}` is impossible: {reason}")]
    Impossible {
        /// Name of the input.
        name: &'static str,
        /// What was found and what is possible.
        reason: String,
    },
    /// An error of one test of a bundle (`bundles`), marked with the test's name.
    #[error("{test}: {error}")]
    In {
        /// The test that refused the input.
        test: &'static str,
        /// Its error.
        error: Box<StatsError>,
    },
}

/// Checks that every value of `values` is finite.
pub(crate) fn check_finite(name: &'static str, values: &[f64]) -> Result<(), StatsError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(StatsError::NonFinite {
            name,
            index,
            value: values[index],
        }),
        None => Ok(()),
    }
}

/// Checks that `alpha` lies strictly between 0 and 1.
pub(crate) fn check_alpha(alpha: f64) -> Result<(), StatsError> {
    if alpha > 0.0 && alpha < 1.0 {
        Ok(())
    } else {
        Err(StatsError::OutOfRange {
            name: "alpha",
            value: alpha,
            allowed: "strictly between 0 and 1",
        })
    }
}

/// Checks that two paired inputs have the same length.
pub(crate) fn check_same_length(
    first: &'static str,
    a: &[f64],
    second: &'static str,
    b: &[f64],
) -> Result<(), StatsError> {
    if a.len() == b.len() {
        Ok(())
    } else {
        Err(StatsError::LengthMismatch {
            first,
            first_len: a.len(),
            second,
            second_len: b.len(),
        })
    }
}
