//! The registry of the tests a config names in `tests`: the paired tests between two learners'
//! per-fold values (the one code path behind a run's tests table, the papers' analyses and the
//! `compare` command), and the tests on a protocol's fixed test set, computed from one model per
//! learner fitted on the whole training part (see `crate::test_set`).

use serde::{Deserialize, Serialize};
use stats::{SignTestResult, TTestResult, WilcoxonResult};

/// A test a config can name in `tests`: a paired test between two learners over folds, or a
/// test on the fixed test set ([`PairedTest::on_test_set`]).
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum PairedTest {
    /// The k-fold cv paired t-test.
    PairedT,
    /// Nadeau & Bengio's corrected resampled t-test.
    CorrectedT,
    /// Wilcoxon signed-rank test over folds.
    Wilcoxon,
    /// Sign test over folds.
    Sign,
    /// DeLong's test of two correlated AUCs on the fixed test set (two-class tasks).
    Delong,
    /// McNemar's exact test of two learners' errors on the same test-set rows.
    Mcnemar,
    /// Hanley & McNeil's normal interval of each learner's test-set AUC (two-class tasks).
    HanleyMcneil,
    /// Wilson's binomial interval of each learner's test-set error rate.
    Binomial,
}

impl PairedTest {
    /// Every paired test, in the order they are listed.
    pub const ALL: [PairedTest; 8] = [
        PairedTest::PairedT,
        PairedTest::CorrectedT,
        PairedTest::Wilcoxon,
        PairedTest::Sign,
        PairedTest::Delong,
        PairedTest::Mcnemar,
        PairedTest::HanleyMcneil,
        PairedTest::Binomial,
    ];

    /// True for the tests on the fixed test set (computed from the whole-training-set models'
    /// predictions, not from per-fold values).
    pub fn on_test_set(self) -> bool {
        matches!(
            self,
            PairedTest::Delong
                | PairedTest::Mcnemar
                | PairedTest::HanleyMcneil
                | PairedTest::Binomial
        )
    }

    /// The name used in configs and tables.
    pub fn name(self) -> &'static str {
        match self {
            PairedTest::PairedT => "paired_t",
            PairedTest::CorrectedT => "corrected_t",
            PairedTest::Wilcoxon => "wilcoxon",
            PairedTest::Sign => "sign",
            PairedTest::Delong => "delong",
            PairedTest::Mcnemar => "mcnemar",
            PairedTest::HanleyMcneil => "hanley_mcneil",
            PairedTest::Binomial => "binomial",
        }
    }

    /// What the test is, in one line.
    pub fn doc(self) -> &'static str {
        match self {
            PairedTest::PairedT => "Student's paired t-test on the per-fold differences",
            PairedTest::CorrectedT => {
                "Nadeau & Bengio's corrected resampled t-test (variance scaled by 1/k + \
                 n_test/n_train)"
            }
            PairedTest::Wilcoxon => {
                "Wilcoxon signed-rank test (zero differences dropped; exact up to 50 non-zero \
                 differences (conditional on the observed ranks when they tie), else the \
                 normal approximation; continuity \
                 correction off unless `wilcoxon_correction = true`, as scipy's default)"
            }
            PairedTest::Sign => "two-sided sign test on wins and losses (ties dropped)",
            PairedTest::Delong => {
                "on the fixed test set: DeLong's test of two correlated AUCs of models fitted on \
                 the whole training part (two-class tasks; protocols with one test set)"
            }
            PairedTest::Mcnemar => {
                "on the fixed test set: McNemar's exact test of two whole-training-set models' \
                 errors on the same rows (protocols with one test set)"
            }
            PairedTest::HanleyMcneil => {
                "on the fixed test set: Hanley & McNeil's interval AUC +- z SE of each \
                 whole-training-set model (two-class tasks; protocols with one test set)"
            }
            PairedTest::Binomial => {
                "on the fixed test set: Wilson's binomial interval of each whole-training-set \
                 model's error rate (protocols with one test set)"
            }
        }
    }

    /// Runs the test on paired values `a` and `b`.
    pub fn run(self, a: &[f64], b: &[f64], options: &TestOptions) -> Result<Outcome, String> {
        let alpha = options.alpha;
        let outcome = match self {
            PairedTest::PairedT => stats::paired_t_test(a, b, alpha).map(Outcome::T),
            PairedTest::CorrectedT => {
                let Some((train, test)) = options.sizes else {
                    return Err("needs the training and test sizes of one split".to_string());
                };
                stats::corrected_resampled_t_test(a, b, train, test, alpha).map(Outcome::T)
            }
            PairedTest::Wilcoxon => stats::wilcoxon_signed_rank(
                a,
                b,
                stats::ZeroMethod::Wilcox,
                options.wilcoxon_correction,
                stats::WilcoxonMethod::Auto,
                alpha,
            )
            .map(Outcome::Wilcoxon),
            PairedTest::Sign => stats::win_tie_loss(a, b).and_then(|count| {
                stats::sign_test(count.wins, count.losses, count.ties, alpha).map(Outcome::Sign)
            }),
            PairedTest::Delong
            | PairedTest::Mcnemar
            | PairedTest::HanleyMcneil
            | PairedTest::Binomial => {
                return Err(format!(
                    "'{}' is a test on the fixed test set: it runs on the whole-training-set \
                     models' predictions, not on per-fold values",
                    self.name()
                ))
            }
        };
        outcome.map_err(|error| error.to_string())
    }
}

/// What a paired test needs besides the values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestOptions {
    /// Significance level.
    pub alpha: f64,
    /// Mean training and test sizes of one split (for the corrected t-test).
    pub sizes: Option<(f64, f64)>,
    /// Whether the Wilcoxon test's normal approximation uses the continuity correction (scipy's
    /// default, and ours: false).
    pub wilcoxon_correction: bool,
}

/// A paired test's full result.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// A t-test (paired or corrected).
    T(TTestResult),
    /// The Wilcoxon signed-rank test.
    Wilcoxon(WilcoxonResult),
    /// The sign test.
    Sign(SignTestResult),
}

impl Outcome {
    /// The statistic: t, Wilcoxon's W, or the sign test's wins.
    pub fn statistic(&self) -> f64 {
        match self {
            Outcome::T(result) => result.statistic,
            Outcome::Wilcoxon(result) => result.statistic,
            Outcome::Sign(result) => result.wins as f64,
        }
    }

    /// The two-sided p-value.
    pub fn pvalue(&self) -> f64 {
        match self {
            Outcome::T(result) => result.pvalue,
            Outcome::Wilcoxon(result) => result.pvalue,
            Outcome::Sign(result) => result.pvalue,
        }
    }

    /// Whether the test rejects equality at its significance level.
    pub fn reject(&self) -> bool {
        match self {
            Outcome::T(result) => result.reject,
            Outcome::Wilcoxon(result) => result.reject,
            Outcome::Sign(result) => result.reject,
        }
    }
}

impl Outcome {
    /// The t-test result, if this is one.
    pub fn into_t(self) -> Option<TTestResult> {
        match self {
            Outcome::T(result) => Some(result),
            _ => None,
        }
    }

    /// The Wilcoxon result, if this is one.
    pub fn into_wilcoxon(self) -> Option<WilcoxonResult> {
        match self {
            Outcome::Wilcoxon(result) => Some(result),
            _ => None,
        }
    }

    /// The sign test result, if this is one.
    pub fn into_sign(self) -> Option<SignTestResult> {
        match self {
            Outcome::Sign(result) => Some(result),
            _ => None,
        }
    }
}
