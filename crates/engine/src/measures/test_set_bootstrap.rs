//! Bootstrap intervals on a protocol's fixed test set, registered beside the built-in tests on
//! the test set: `bootstrap_<measure>` puts a percentile or BCa interval (class-stratified,
//! seeded) on each whole-training-set model's measure, `paired_bootstrap_<measure>` on the
//! difference of two models' measures on the same test rows (the same resamples for both).
//! The measures are `evaluate::IntervalMeasure`'s; two-class tasks only.

use std::sync::Arc;

use evaluate::{BinInterval, EvaluationOptions, IntervalMeasure};
use learners::{ParamError, ParameterSpec, Params, Probabilities};
use stats::{BootstrapInterval, BootstrapOptions};

use crate::measures::measure_spec::binary_scores;
use crate::measures::test_set_spec::{
    BuildTestSetTest, Measured, TestSetFn, TestSetInput, TestSetTestSpec,
};

/// The measure, its single and paired test names.
const ENTRIES: [(IntervalMeasure, &str, &str); 10] = [
    (
        IntervalMeasure::Auc,
        "bootstrap_auc",
        "paired_bootstrap_auc",
    ),
    (
        IntervalMeasure::ScoredAuc,
        "bootstrap_sauc",
        "paired_bootstrap_sauc",
    ),
    (
        IntervalMeasure::Error,
        "bootstrap_error",
        "paired_bootstrap_error",
    ),
    (
        IntervalMeasure::Brier,
        "bootstrap_brier",
        "paired_bootstrap_brier",
    ),
    (
        IntervalMeasure::AveragePrecision,
        "bootstrap_average_precision",
        "paired_bootstrap_average_precision",
    ),
    (
        IntervalMeasure::PrArea,
        "bootstrap_pr_auc",
        "paired_bootstrap_pr_auc",
    ),
    (
        IntervalMeasure::PrGainArea,
        "bootstrap_prg_auc",
        "paired_bootstrap_prg_auc",
    ),
    (
        IntervalMeasure::PartialAuc,
        "bootstrap_partial_auc",
        "paired_bootstrap_partial_auc",
    ),
    (
        IntervalMeasure::HMeasure,
        "bootstrap_h_measure",
        "paired_bootstrap_h_measure",
    ),
    (
        IntervalMeasure::Ece,
        "bootstrap_ece",
        "paired_bootstrap_ece",
    ),
];

/// The options every bootstrap test declares.
fn options() -> Vec<ParameterSpec> {
    vec![
        ParameterSpec::integer("resamples", 2000, 2, 1_000_000, "bootstrap resamples"),
        ParameterSpec::integer("seed", 1, 0, i64::MAX as usize, "seed of the resamples"),
        ParameterSpec::choice(
            "method",
            "bca",
            &["bca", "percentile"],
            "BCa (bias-corrected and accelerated) or percentile interval",
        ),
        ParameterSpec::real(
            "max_fpr",
            0.2,
            1e-9,
            1.0,
            "partial AUC's FPR range [0, max_fpr]",
        ),
        ParameterSpec::integer("bins", 10, 1, 1_000_000, "equal-width bins of the ECE"),
    ]
}

/// The checked options of one configured bootstrap test.
#[derive(Clone, Copy)]
struct Setup {
    measure: IntervalMeasure,
    resamples: usize,
    seed: u64,
    bca: bool,
    max_fpr: f64,
    bins: usize,
}

impl Setup {
    fn read(measure: IntervalMeasure, params: &Params<'_>) -> Result<Setup, ParamError> {
        Ok(Setup {
            measure,
            resamples: params.integer("resamples")?,
            seed: params.integer("seed")? as u64,
            bca: params.choice("method")? == "bca",
            max_fpr: params.real("max_fpr")?,
            bins: params.integer("bins")?,
        })
    }

    /// The evaluation options at significance level `alpha`.
    fn evaluation(&self, alpha: f64) -> Result<EvaluationOptions, String> {
        let bootstrap =
            BootstrapOptions::new(self.resamples, alpha, self.seed).map_err(|e| e.to_string())?;
        EvaluationOptions::new(
            self.max_fpr,
            self.bins,
            BinInterval::Wilson,
            None,
            bootstrap,
            200,
        )
        .map_err(|e| e.to_string())
    }

    /// The chosen interval's limits.
    fn limits(&self, interval: &BootstrapInterval) -> Result<(f64, f64), String> {
        if self.bca {
            let bca = interval.bca.as_ref().ok_or(
                "BCa is undefined here (every replicate on one side of the estimate, or a \
                 jackknife without variation): use method = \"percentile\"",
            )?;
            Ok((bca.interval.low, bca.interval.high))
        } else {
            Ok((interval.percentile.low, interval.percentile.high))
        }
    }
}

/// A model's test-set scores of the positive class.
fn scores(
    input: &TestSetInput,
    probabilities: &Probabilities,
) -> Result<evaluate::BinaryScores, String> {
    let positive = input.positive.ok_or("needs a two-class task")?;
    binary_scores(probabilities, input.truth, positive)
        .ok_or_else(|| "the test set has one class only".to_string())?
        .with_decision_threshold(evaluate::DEFAULT_THRESHOLD)
        .map_err(|e| e.to_string())
}

/// One model's interval.
fn single(setup: Setup, input: &TestSetInput, model: &Probabilities) -> Result<Measured, String> {
    let data = scores(input, model)?;
    let options = setup.evaluation(input.alpha)?;
    let interval = evaluate::evaluation::measure_interval(&data, setup.measure, &options)
        .map_err(|e| e.to_string())?;
    Ok(Measured {
        n: input.truth.len(),
        values: (interval.estimate, f64::NAN),
        statistic: interval.standard_error,
        pvalue: f64::NAN,
        interval: Some(setup.limits(&interval)?),
        reject: false,
        df: None,
    })
}

/// Two models' difference.
fn paired(
    setup: Setup,
    input: &TestSetInput,
    first: &Probabilities,
    second: &Probabilities,
) -> Result<Measured, String> {
    let (a, b) = (scores(input, first)?, scores(input, second)?);
    let options = setup.evaluation(input.alpha)?;
    let result = evaluate::evaluation::paired_interval(&a, &b, setup.measure, &options)
        .map_err(|e| e.to_string())?;
    let (low, high) = setup.limits(&result.difference)?;
    Ok(Measured {
        n: input.truth.len(),
        values: (result.first.estimate, result.second.estimate),
        statistic: result.difference.estimate,
        pvalue: f64::NAN,
        interval: Some((low, high)),
        reject: low > 0.0 || high < 0.0,
        df: None,
    })
}

/// Builds the function of entry `index` of [`ENTRIES`], single or paired.
fn build(index: usize, pair: bool, params: &Params<'_>) -> Result<TestSetFn, ParamError> {
    let setup = Setup::read(ENTRIES[index].0, params)?;
    Ok(if pair {
        TestSetFn::Pairwise(Arc::new(move |input, a, b| paired(setup, input, a, b)))
    } else {
        TestSetFn::Single(Arc::new(move |input, model| single(setup, input, model)))
    })
}

/// The builder of each entry (a plain `fn` per entry, as the registry stores them).
macro_rules! builders {
    ($pair:expr, $($index:literal),*) => {
        [$(|params: &Params<'_>| build($index, $pair, params)),*]
    };
}

/// The bootstrap tests on the test set: each measure's single and paired test.
pub fn specs() -> Vec<TestSetTestSpec> {
    let singles: [BuildTestSetTest; 10] = builders!(false, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    let pairs: [BuildTestSetTest; 10] = builders!(true, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    let mut specs = Vec::new();
    for (index, &(measure, single_name, pair_name)) in ENTRIES.iter().enumerate() {
        specs.push(TestSetTestSpec {
            name: single_name,
            description: "on the fixed test set: class-stratified, seeded bootstrap interval \
                          (BCa or percentile) of each whole-training-set model's measure \
                          (two-class tasks)",
            measure: measure.name(),
            note: "bootstrap: statistic = the bootstrap standard error; interval BCa or \
                   percentile",
            options: options(),
            build: singles[index],
        });
        specs.push(TestSetTestSpec {
            name: pair_name,
            description: "on the fixed test set: paired bootstrap interval of the difference \
                          a - b of two whole-training-set models' measure on the same rows \
                          (two-class tasks)",
            measure: measure.name(),
            note: "paired bootstrap: statistic = a - b, interval of a - b (BCa or \
                   percentile); they differ when it excludes 0",
            options: options(),
            build: pairs[index],
        });
    }
    specs
}
