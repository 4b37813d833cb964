//! What a test on a fixed test set declares ([`TestSetTestSpec`]), is given
//! ([`TestSetInput`]) and returns ([`Measured`]), shared by the built-in tests
//! ([`crate::measures::test_set`]) and the bootstrap ones ([`crate::measures::test_set_bootstrap`]).

use std::sync::Arc;

use learners::{ParamError, ParameterSpec, Params, Probabilities};

/// What a test on the test set is given besides the models' probabilities: the true classes
/// of the test rows, the positive class of a binary task, and the significance level.
#[derive(Clone, Copy, Debug)]
pub struct TestSetInput<'a> {
    /// The true class of each test row.
    pub truth: &'a [usize],
    /// The positive class of a binary task.
    pub positive: Option<usize>,
    /// The significance level (1 - the intervals' level).
    pub alpha: f64,
}

/// What one test on the test set measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Number of test rows.
    pub n: usize,
    /// The value each learner is judged on (the second NaN for a test of one learner).
    pub values: (f64, f64),
    /// The test's statistic (NaN when it has none).
    pub statistic: f64,
    /// Two-sided p-value of a test between two learners (NaN for an interval).
    pub pvalue: f64,
    /// The interval at level 1 - alpha, for a test of one learner.
    pub interval: Option<(f64, f64)>,
    /// Whether a test between two learners (or over all of them) rejects equality at alpha.
    pub reject: bool,
    /// Degrees of freedom of a chi-square statistic (a test over all learners), else `None`.
    pub df: Option<usize>,
}

/// A pairwise test's function: two learners' test-set probabilities.
pub type PairwiseFn = Arc<
    dyn Fn(&TestSetInput, &Probabilities, &Probabilities) -> Result<Measured, String> + Send + Sync,
>;

/// A one-learner test's function (an interval): one learner's test-set probabilities.
pub type SingleFn =
    Arc<dyn Fn(&TestSetInput, &Probabilities) -> Result<Measured, String> + Send + Sync>;

/// A test over every learner at once: all learners' test-set probabilities, in the config's
/// order.
pub type AllFn =
    Arc<dyn Fn(&TestSetInput, &[&Probabilities]) -> Result<Measured, String> + Send + Sync>;

/// How a test on the test set runs: between every two learners, on each learner, or on all.
#[derive(Clone)]
pub enum TestSetFn {
    /// Between every two learners (DeLong, McNemar).
    Pairwise(PairwiseFn),
    /// On each learner (an interval: Hanley-McNeil, binomial).
    Single(SingleFn),
    /// Over all learners at once (DeLong's chi-square for k AUCs).
    All {
        /// The test.
        run: AllFn,
        /// The contrast its options give, if any (one row of coefficients per hypothesis, one
        /// per learner): a config with another number of learners is refused before any fit,
        /// and the table shows it.
        contrast: Option<Vec<Vec<f64>>>,
    },
}

/// Builds a test's function from its checked options.
pub type BuildTestSetTest = fn(&Params<'_>) -> Result<TestSetFn, ParamError>;

/// Everything a test on the test set declares.
pub struct TestSetTestSpec {
    /// The name configs and tables use.
    pub name: &'static str,
    /// What it is, in one line.
    pub description: &'static str,
    /// The measure each learner is judged on, as the table names it ("auc", "error").
    pub measure: &'static str,
    /// How its statistic and interval read, for the table's note.
    pub note: &'static str,
    /// Its options.
    pub options: Vec<ParameterSpec>,
    /// Builds its function from its options.
    pub build: BuildTestSetTest,
}

crate::measures::registry::declares_fields!(TestSetTestSpec, "test");
