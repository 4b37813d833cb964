//! Resampling plans: a strategy (stratified k-fold, 5x2cv, hold-out, leave-one-out, the Aslan
//! and the Wu-Flach protocols) is instantiated once per dataset into concrete, serialisable
//! index splits that every learner shares, so that every comparison is paired.
//!
//! # Stratification procedure
//!
//! All stratified strategies assign instances to folds the same way (see [`stratified_folds`]):
//!
//! 1. The instances are grouped by class; classes are visited in increasing class index and the
//!    indices of each class in increasing order.
//! 2. Each class's index list is shuffled (`rand::seq::SliceRandom::shuffle`) with one seeded
//!    generator, the same generator continuing from one class to the next.
//! 3. The shuffled indices are dealt round-robin into the folds. The fold counter is *not* reset
//!    between classes: the first instance of a class goes to the fold after the one that
//!    received the last instance of the previous class.
//!
//! So every fold holds `floor(n_c / k)` or `ceil(n_c / k)` instances of each class `c`, and
//! fold sizes differ by at most one. A class with fewer than `k` instances is missing from some
//! folds (documented behaviour, not an error). Weka stratifies differently (it sorts by class
//! and deals the sorted instances), so its folds are not reproduced.
//!
//! Stratified hold-out (and the Aslan test set) uses largest-remainder allocation instead (see
//! [`stratified_holdout`]).
//!
//! # Seeds
//!
//! Repetition `r` of a strategy draws from `rand_chacha::ChaCha8Rng::seed_from_u64(seeds::derive_seed(seed,
//! &[r]))`, where `seed` is the seed handed to [`Strategy::splits`]. [`SplitPlan::new`] passes
//! [`dataset_seed`]`(experiment_seed, dataset_name)`, so each dataset has its own stream. The
//! derivation and what `rand` and `rand_chacha` promise about the stability of these streams
//! (the same values for every 0.10.x release, possibly different ones after a minor-version
//! upgrade) are documented in the `seeds` crate.
//!
//! # Example
//!
//! ```
//! let strategy = cv::Strategy::from_toml_str("kind = \"wu_flach\"\nfolds = 3\nrepetitions = 2")?;
//! let classes = [0, 1, 0, 1, 0, 1, 1];
//! let plan = cv::SplitPlan::new("toy", &classes, &strategy, 2009)?;
//! assert_eq!(plan.splits.len(), 6);
//! let first = &plan.splits[0];
//! assert_eq!(first.validation.as_ref(), Some(&plan.splits[1].test));
//! # Ok::<(), cv::CvError>(())
//! ```

mod split;
mod strategy;
mod stratify;
mod train;

pub use split::{dataset_seed, row_numbers, Split, SplitPlan};
pub use strategy::Strategy;
pub use stratify::{stratified_fold_assignment, stratified_folds, stratified_holdout};
pub use train::{Train, TrainRows};

/// The most rows a dataset may have to be split: row numbers are held as `u32` (4 bytes per
/// row and split part, half of `usize`), so at most `u32::MAX` rows.
pub const MAX_INSTANCES: usize = u32::MAX as usize;

/// Why a resampling plan could not be made or configured.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CvError {
    /// A configuration key that the strategy does not know.
    #[error("resampling strategy '{kind}': unknown key '{key}' (allowed keys: {allowed})")]
    UnknownKey {
        /// The strategy kind being configured.
        kind: String,
        /// The offending key.
        key: String,
        /// The keys that this kind accepts, comma separated.
        allowed: String,
    },
    /// The `kind` key is missing or names no strategy.
    #[error("resampling strategy: kind {got} is not one of {allowed}")]
    UnknownKind {
        /// What was given (quoted), or "missing".
        got: String,
        /// The known kinds, comma separated.
        allowed: String,
    },
    /// A key has a value of the wrong type.
    #[error("resampling strategy '{kind}': key '{key}' must be {expected}, got {got}")]
    WrongType {
        /// The strategy kind being configured.
        kind: String,
        /// The offending key.
        key: String,
        /// The expected type.
        expected: String,
        /// The value that was given.
        got: String,
    },
    /// A parameter outside its allowed range.
    #[error("resampling strategy '{kind}': {key} = {value} is out of range; allowed: {allowed}")]
    OutOfRange {
        /// The strategy kind being configured.
        kind: String,
        /// The parameter name.
        key: String,
        /// The value that was given.
        value: String,
        /// The allowed range.
        allowed: String,
    },
    /// The configuration text is not valid TOML.
    #[error("resampling strategy: invalid TOML: {0}")]
    Toml(String),
    /// A saved plan that does not fit its dataset.
    #[error("split plan of dataset '{dataset}', repetition {repetition}, fold {fold}: {problem}")]
    InvalidPlan {
        /// The dataset's name.
        dataset: String,
        /// The repetition of the faulty split.
        repetition: usize,
        /// The fold of the faulty split.
        fold: usize,
        /// What is wrong.
        problem: String,
    },
    /// The dataset is too small for the strategy.
    #[error(
        "resampling strategy '{kind}': needs {needed}, but the data has {instances} instances"
    )]
    TooFewInstances {
        /// The strategy kind.
        kind: String,
        /// What the strategy needs, in words.
        needed: String,
        /// How many instances there are.
        instances: usize,
    },
    /// [`Strategy::Given`] asked to make splits: they come with the data.
    #[error("resampling strategy 'given': its splits come with the data (such as an OpenML task's datasplits.arff) and are not made")]
    NotMade,
    /// The dataset has more rows than row numbers of the splits can hold.
    #[error(
        "the data has {instances} instances, more than the {limit} that splits can number (row numbers are 32-bit)"
    )]
    TooManyInstances {
        /// How many instances there are.
        instances: usize,
        /// The most allowed, [`MAX_INSTANCES`].
        limit: usize,
    },
}
