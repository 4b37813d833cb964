//! Tests on a protocol's fixed test set (Aslan's protocol, a single hold-out), computed from one
//! model per (dataset, learner) fitted on the whole training part and scored on the test set.
//! Each is declared by a [`TestSetTestSpec`] in the open registry of [`builtin`] tests (a user's
//! crate adds one with `engine.registries.test_set_tests.register(spec)`): DeLong's test of two
//! AUCs and McNemar's exact test between every two learners, Hanley & McNeil's AUC interval and
//! Wilson's binomial interval of the error rate for every learner. Running them on a plan's
//! models is [`crate::record::test_set_run`]'s.

use std::sync::Arc;

use learners::{Params, Probabilities};

use crate::measures::measure::{binary_scores, error_rate};
use crate::measures::registry::{Entry, Registry};
pub use crate::measures::test_set_spec::{
    BuildTestSetTest, Measured, PairwiseFn, SingleFn, TestSetFn, TestSetInput, TestSetTestSpec,
};

/// A test on the test set as configured.
#[derive(Clone)]
pub struct TestSetTest {
    entry: Arc<Entry<TestSetTestSpec>>,
    run: TestSetFn,
}

impl std::fmt::Debug for TestSetTest {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.name())
    }
}

impl TestSetTest {
    /// The test `entry` with the options `params`.
    pub fn build(entry: &Arc<Entry<TestSetTestSpec>>, params: &Params<'_>) -> Result<Self, String> {
        let run = (entry.spec.build)(params).map_err(|error| entry.option_error(error))?;
        Ok(TestSetTest {
            entry: Arc::clone(entry),
            run,
        })
    }

    /// The name used in configs and tables.
    pub fn name(&self) -> &'static str {
        self.entry.spec.name
    }

    /// Its spec.
    pub fn spec(&self) -> &TestSetTestSpec {
        &self.entry.spec
    }

    /// Its function, with the options given.
    pub fn run(&self) -> &TestSetFn {
        &self.run
    }
}

/// The built-in tests on the test set: delong, mcnemar, hanley_mcneil, binomial, DeLong's
/// k-model chi-square ([`crate::measures::test_set_delong_k`]), then the bootstrap intervals of
/// [`crate::measures::test_set_bootstrap`].
pub fn builtin() -> Registry<TestSetTestSpec> {
    let mut registry = Registry::default();
    let specs = [
        TestSetTestSpec {
            name: "delong",
            description: "on the fixed test set: DeLong's test of two correlated AUCs of models \
                          fitted on the whole training part (two-class tasks; protocols with one \
                          test set)",
            measure: "auc",
            note: "DeLong: z of AUC a - AUC b",
            options: Vec::new(),
            build: |_| Ok(TestSetFn::Pairwise(Arc::new(delong))),
        },
        TestSetTestSpec {
            name: "mcnemar",
            description: "on the fixed test set: McNemar's exact test of two whole-training-set \
                          models' errors on the same rows (protocols with one test set)",
            measure: "error",
            note: "McNemar: exact binomial test, statistic min(b, c) with b = rows only a gets \
                   right, c = rows only b gets right",
            options: Vec::new(),
            build: |_| Ok(TestSetFn::Pairwise(Arc::new(mcnemar))),
        },
        TestSetTestSpec {
            name: "hanley_mcneil",
            description: "on the fixed test set: Hanley & McNeil's interval AUC +- z SE of each \
                          whole-training-set model (two-class tasks; protocols with one test set)",
            measure: "auc",
            note: "Hanley-McNeil: statistic = the AUC's standard error, interval AUC +- z SE \
                   clipped to [0, 1]",
            options: Vec::new(),
            build: |_| Ok(TestSetFn::Single(Arc::new(hanley_mcneil))),
        },
        TestSetTestSpec {
            name: "binomial",
            description: "on the fixed test set: Wilson's binomial interval of each \
                          whole-training-set model's error rate (protocols with one test set)",
            measure: "error",
            note: "binomial: Wilson's score interval of the error rate",
            options: Vec::new(),
            build: |_| Ok(TestSetFn::Single(Arc::new(binomial))),
        },
    ];
    let delong_k = std::iter::once(crate::measures::test_set_delong_k::spec());
    let bootstrap = crate::measures::test_set_bootstrap::specs();
    for spec in specs.into_iter().chain(delong_k).chain(bootstrap) {
        registry
            .register(spec)
            .expect("the built-in tests are valid");
    }
    registry
}

/// One test on the test set: a pair of learners or one learner on one dataset.
#[derive(Clone, Debug)]
pub struct TestSetRecord {
    /// Dataset index.
    pub dataset: usize,
    /// First (or only) learner index.
    pub a: usize,
    /// Second learner index, for the pairwise tests.
    pub b: Option<usize>,
    /// For a test over all learners at once, what it compares as the table shows it ("all:
    /// a, b, c", or a contrast's terms); then `a` is 0 and `b` None.
    pub all: Option<String>,
    /// The test's name.
    pub test: &'static str,
    /// The measure each learner is judged on.
    pub measure: &'static str,
    /// What it measured, or why it could not be run.
    pub outcome: std::result::Result<Measured, String>,
}

/// DeLong's test of two learners' test-set AUCs.
pub fn delong(
    input: &TestSetInput,
    first: &Probabilities,
    second: &Probabilities,
) -> std::result::Result<Measured, String> {
    let positive = input.positive.ok_or("needs a two-class task")?;
    let scores = |probabilities| {
        binary_scores(probabilities, input.truth, positive).ok_or("the test set has one class only")
    };
    let (x, y) = (scores(first)?, scores(second)?);
    let result = stats::delong_test(x.labels(), x.scores(), y.scores(), input.alpha)
        .map_err(|error| error.to_string())?;
    Ok(Measured {
        n: input.truth.len(),
        values: (result.auc1, result.auc2),
        statistic: result.z,
        pvalue: result.pvalue,
        interval: None,
        reject: result.reject,
        df: None,
    })
}

/// McNemar's exact test of two learners' errors on the same test rows.
pub fn mcnemar(
    input: &TestSetInput,
    first: &Probabilities,
    second: &Probabilities,
) -> std::result::Result<Measured, String> {
    let truth = input.truth;
    let right = |probabilities: &Probabilities| -> Vec<bool> {
        probabilities
            .predicted_classes()
            .iter()
            .zip(truth)
            .map(|(predicted, actual)| predicted == actual)
            .collect()
    };
    let (x, y) = (right(first), right(second));
    let mut table = [[0u64; 2]; 2];
    for (a_right, b_right) in x.iter().zip(&y) {
        // Row: the first learner wrong (0) or right (1); column: the second.
        table[usize::from(!a_right)][usize::from(!b_right)] += 1;
    }
    // b = first right, second wrong; c = first wrong, second right.
    let result = stats::mcnemar_test(table, input.alpha).map_err(|error| error.to_string())?;
    Ok(Measured {
        n: truth.len(),
        values: (error_rate(first, truth), error_rate(second, truth)),
        statistic: result.exact.statistic,
        pvalue: result.exact.pvalue,
        interval: None,
        reject: result.reject,
        df: None,
    })
}

/// Hanley & McNeil's interval of one learner's test-set AUC.
pub fn hanley_mcneil(
    input: &TestSetInput,
    probabilities: &Probabilities,
) -> std::result::Result<Measured, String> {
    let positive = input.positive.ok_or("needs a two-class task")?;
    let n = input.truth.len();
    let scores = binary_scores(probabilities, input.truth, positive)
        .ok_or("the test set has one class only")?;
    let auc = stats::auc(scores.labels(), scores.scores()).map_err(|e| e.to_string())?;
    let positives = scores.labels().iter().filter(|label| **label).count();
    let negatives = n - positives;
    let se = stats::hanley_mcneil(auc, positives, negatives)
        .map_err(|e| e.to_string())?
        .se;
    let interval = stats::hanley_mcneil_interval(auc, positives, negatives, input.alpha)
        .map_err(|e| e.to_string())?;
    Ok(Measured {
        n,
        values: (auc, f64::NAN),
        statistic: se,
        pvalue: f64::NAN,
        interval: Some((interval.low, interval.high)),
        reject: false,
        df: None,
    })
}

/// Wilson's binomial interval of one learner's test-set error rate.
pub fn binomial(
    input: &TestSetInput,
    probabilities: &Probabilities,
) -> std::result::Result<Measured, String> {
    let truth = input.truth;
    let n = truth.len();
    let wrong = probabilities
        .predicted_classes()
        .iter()
        .zip(truth)
        .filter(|(predicted, actual)| predicted != actual)
        .count();
    let interval =
        stats::wilson_interval(wrong as f64, n as f64, input.alpha).map_err(|e| e.to_string())?;
    Ok(Measured {
        n,
        values: (error_rate(probabilities, truth), f64::NAN),
        statistic: f64::NAN,
        pvalue: f64::NAN,
        interval: Some((interval.low, interval.high)),
        reject: false,
        df: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn floats(value: &Value) -> Vec<f64> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    }

    fn close(context: &str, got: f64, expected: f64) {
        assert!(
            (got - expected).abs() <= 1e-12 * expected.abs().max(1.0),
            "{context}: got {got}, expected {expected}"
        );
    }

    /// The tests on the test set against scipy, statsmodels and DeLong's placement values
    /// written from the paper (tests/data/test_set_reference.py).
    #[test]
    fn tests_on_the_test_set_match_the_outside_references() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/test_set_reference.json"
        );
        let root: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for case in root["cases"].as_array().unwrap() {
            let name = case["name"].as_str().unwrap();
            let classes = case["classes"].as_u64().unwrap() as usize;
            let truth: Vec<usize> = case["truth"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as usize)
                .collect();
            let positive = case["positive"].as_u64().map(|p| p as usize);
            let alpha = case["alpha"].as_f64().unwrap();
            let models: Vec<Probabilities> = case["probabilities"]
                .as_array()
                .unwrap()
                .iter()
                .map(|flat| Probabilities::from_flat(classes, floats(flat)))
                .collect();
            let input = TestSetInput {
                truth: &truth,
                positive,
                alpha,
            };
            let expected = &case["expected"];
            let mcnemar = mcnemar(&input, &models[0], &models[1]).unwrap();
            close(
                name,
                mcnemar.statistic,
                expected["mcnemar_statistic"].as_f64().unwrap(),
            );
            close(
                name,
                mcnemar.pvalue,
                expected["mcnemar_pvalue"].as_f64().unwrap(),
            );
            let errors = floats(&expected["errors"]);
            close(name, mcnemar.values.0, errors[0]);
            close(name, mcnemar.values.1, errors[1]);
            for (model, wilson) in models.iter().zip(expected["wilson"].as_array().unwrap()) {
                let measured = binomial(&input, model).unwrap();
                let (low, high) = measured.interval.unwrap();
                let wilson = floats(wilson);
                close(name, low, wilson[0]);
                close(name, high, wilson[1]);
            }
            let delong = delong(&input, &models[0], &models[1]);
            let Some(delong_z) = expected.get("delong_z") else {
                assert_eq!(delong.err().unwrap(), "needs a two-class task");
                continue;
            };
            let delong = delong.unwrap();
            let aucs = floats(&expected["aucs"]);
            close(name, delong.values.0, aucs[0]);
            close(name, delong.values.1, aucs[1]);
            // The paper's O(mn) placement values against Sun & Xu's midrank algorithm.
            assert!((delong.statistic - delong_z.as_f64().unwrap()).abs() < 1e-9);
            assert!((delong.pvalue - expected["delong_pvalue"].as_f64().unwrap()).abs() < 1e-9);
            for (model, reference) in models
                .iter()
                .zip(expected["hanley_mcneil"].as_array().unwrap())
            {
                let measured = hanley_mcneil(&input, model).unwrap();
                let reference = floats(reference);
                let (low, high) = measured.interval.unwrap();
                close(name, measured.statistic, reference[0]);
                close(name, low, reference[1]);
                close(name, high, reference[2]);
            }
        }
    }
}
