//! Tests over the folds: the paired tests between two learners' per-fold values that a config
//! names in `tests`, declared by a [`FoldTestSpec`] in the open registry of [`builtin`] tests
//! (a user's crate adds one with `engine.fold_tests.register(spec)`). The built-in ones are
//! [`PairedTest`]s, the one code path behind a run's tests table, the papers' analyses and the
//! `compare` command. The tests on a protocol's fixed test set are [`crate::measures::test_set`]'s.

use std::sync::Arc;

use learners::{ParamError, ParameterSpec, Params};
use serde::{Deserialize, Serialize};
use stats::{SignTestResult, TTestResult, WilcoxonResult};

use crate::measures::registry::{Entry, Registry};

/// A built-in paired test between two learners over folds.
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
}

impl PairedTest {
    /// Every built-in paired test, in the order they are listed.
    pub const ALL: [PairedTest; 4] = [
        PairedTest::PairedT,
        PairedTest::CorrectedT,
        PairedTest::Wilcoxon,
        PairedTest::Sign,
    ];

    /// The name used in configs and tables.
    pub fn name(self) -> &'static str {
        match self {
            PairedTest::PairedT => "paired_t",
            PairedTest::CorrectedT => "corrected_t",
            PairedTest::Wilcoxon => "wilcoxon",
            PairedTest::Sign => "sign",
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
        };
        outcome.map_err(|error| error.to_string())
    }
}

/// A test's verdict on two learners' paired values: its statistic, two-sided p-value and
/// whether it rejects equality at the run's alpha.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// The statistic (t, W, wins, ...).
    pub statistic: f64,
    /// The two-sided p-value.
    pub pvalue: f64,
    /// Whether equality is rejected.
    pub reject: bool,
}

/// How a configured test over folds runs on two learners' paired values (finite, in split
/// order) with the run's options; the error says why it could not.
pub type FoldTestFn =
    Arc<dyn Fn(&[f64], &[f64], &TestOptions) -> Result<Verdict, String> + Send + Sync>;

/// Builds a test's function from its checked options.
pub type BuildFoldTest = fn(&Params<'_>) -> Result<FoldTestFn, ParamError>;

/// Everything a test over folds declares.
pub struct FoldTestSpec {
    /// The name configs and tables use.
    pub name: &'static str,
    /// What it is, in one line.
    pub description: &'static str,
    /// Its options.
    pub options: Vec<ParameterSpec>,
    /// Builds its function from its options.
    pub build: BuildFoldTest,
}

crate::measures::registry::declares_fields!(FoldTestSpec, "test");

/// A test over folds as configured.
#[derive(Clone)]
pub struct FoldTest {
    entry: Arc<Entry<FoldTestSpec>>,
    run: FoldTestFn,
}

impl std::fmt::Debug for FoldTest {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.name())
    }
}

impl FoldTest {
    /// The test `entry` with the options `params`.
    pub fn build(entry: &Arc<Entry<FoldTestSpec>>, params: &Params<'_>) -> Result<Self, String> {
        let run = (entry.spec.build)(params).map_err(|error| entry.option_error(error))?;
        Ok(FoldTest {
            entry: Arc::clone(entry),
            run,
        })
    }

    /// The name used in configs and tables.
    pub fn name(&self) -> &'static str {
        self.entry.spec.name
    }

    /// Runs the test on paired values `a` and `b`.
    pub fn run(&self, a: &[f64], b: &[f64], options: &TestOptions) -> Result<Verdict, String> {
        (self.run)(a, b, options)
    }
}

/// The built-in tests over folds: paired_t, corrected_t, wilcoxon, sign.
pub fn builtin() -> Registry<FoldTestSpec> {
    let mut registry = Registry::default();
    for test in PairedTest::ALL {
        let build: BuildFoldTest = match test {
            PairedTest::PairedT => |_| Ok(verdict_of(PairedTest::PairedT)),
            PairedTest::CorrectedT => |_| Ok(verdict_of(PairedTest::CorrectedT)),
            PairedTest::Wilcoxon => |_| Ok(verdict_of(PairedTest::Wilcoxon)),
            PairedTest::Sign => |_| Ok(verdict_of(PairedTest::Sign)),
        };
        let spec = FoldTestSpec {
            name: test.name(),
            description: test.doc(),
            options: Vec::new(),
            build,
        };
        registry
            .register(spec)
            .expect("the built-in tests are valid");
    }
    registry
}

/// The function of a built-in paired test.
fn verdict_of(test: PairedTest) -> FoldTestFn {
    Arc::new(move |a, b, options| {
        test.run(a, b, options).map(|outcome| Verdict {
            statistic: outcome.statistic(),
            pvalue: outcome.pvalue(),
            reject: outcome.reject(),
        })
    })
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
