//! Typed errors of the evaluation measures.

use thiserror::Error;

/// Everything that can go wrong when turning predictions into measures.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EvaluateError {
    /// Two inputs that must have one entry per instance differ in length.
    #[error("length mismatch: {what} has {got} entries, expected {expected}")]
    LengthMismatch {
        /// Which input is too short or too long.
        what: &'static str,
        /// Its length.
        got: usize,
        /// The length it must have.
        expected: usize,
    },
    /// A score is NaN (scores may be infinite, but must be ordered).
    #[error("score of instance {index} (class column {column}) is NaN; scores must be comparable numbers")]
    NanScore {
        /// Instance index.
        index: usize,
        /// Score column (0 for binary scores).
        column: usize,
    },
    /// A weight is negative, NaN or infinite.
    #[error("weight of instance {index} is {value}; weights must be finite and >= 0")]
    BadWeight {
        /// Instance index.
        index: usize,
        /// The offending weight.
        value: f64,
    },
    /// A class index is not below the number of classes.
    #[error("class {class} of instance {index} is out of range: allowed 0..{n_classes}")]
    ClassOutOfRange {
        /// Instance index (or `usize::MAX` for a parameter such as the positive class).
        index: usize,
        /// The class index given.
        class: usize,
        /// Number of classes.
        n_classes: usize,
    },
    /// A binary label is not 0 or 1.
    #[error("label of instance {index} is {label}; binary labels must be 0 or 1")]
    BadLabel {
        /// Instance index.
        index: usize,
        /// The label given.
        label: i64,
    },
    /// A measure that needs both classes was given a test set (or a pair of classes)
    /// in which one side has no instance (or zero total weight).
    #[error("{measure} is undefined: the test set has {n_pos} positive and {n_neg} negative instances (by weight); both must be > 0")]
    SingleClass {
        /// Name of the measure.
        measure: &'static str,
        /// Total positive weight.
        n_pos: f64,
        /// Total negative weight.
        n_neg: f64,
    },
    /// A multi-class measure needs every class to be present in the test set.
    #[error("{measure} is undefined: class {class} has no instance in the test set")]
    ClassAbsent {
        /// Name of the measure.
        measure: &'static str,
        /// The absent class.
        class: usize,
    },
    /// A numeric parameter is outside its allowed range.
    #[error("parameter {name} = {value} is out of range: {allowed}")]
    BadParameter {
        /// Parameter name.
        name: &'static str,
        /// Value given.
        value: f64,
        /// Description of the allowed range.
        allowed: &'static str,
    },
    /// A ROC point lies outside the unit square (or has a NaN coordinate).
    #[error("ROC point {index} = ({fpr}, {tpr}) is outside [0, 1] x [0, 1]")]
    BadPoint {
        /// Index of the point in the input.
        index: usize,
        /// Its false positive rate.
        fpr: f64,
        /// Its true positive rate.
        tpr: f64,
    },
    /// An input is empty where at least one element is needed.
    #[error("{what} is empty")]
    Empty {
        /// Which input.
        what: &'static str,
    },
    /// A score that must be a probability is outside [0, 1].
    #[error("score of instance {index} (class column {column}) is {value}; {measure} needs probabilities in [0, 1]")]
    NotProbability {
        /// Name of the measure.
        measure: &'static str,
        /// Instance index.
        index: usize,
        /// Score column (0 for binary scores).
        column: usize,
        /// The offending score.
        value: f64,
    },
    /// A measure that has no definition for instance weights other than 1 was given such weights.
    #[error("{measure} is defined only for unit weights; the test set has other weights")]
    WeightsUnsupported {
        /// Name of the measure.
        measure: &'static str,
    },
    /// Score columns that do not name one column per class for each model.
    #[error("{problem}")]
    ClassColumn {
        /// What is wrong.
        problem: String,
    },
    /// An error about one part of the input, marked with that part ("column 'x'").
    #[error("{what}: {error}")]
    In {
        /// The part of the input.
        what: String,
        /// Its error.
        error: Box<EvaluateError>,
    },
    /// The confidence interval from the `stats` crate failed.
    #[error("confidence interval: {0}")]
    Interval(String),
}

/// Result type of this crate.
pub type Result<T> = std::result::Result<T, EvaluateError>;
