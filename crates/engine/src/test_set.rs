//! The tests on a protocol's fixed test set (Aslan's protocol, a single hold-out): one model per
//! (dataset, learner) fitted on the whole training part and scored on the test set (the plan's
//! [`crate::plan::Training::Whole`] units, which the selected tests ask for before the run). On
//! those predictions: DeLong's test of two AUCs and McNemar's exact test between every two
//! learners, Hanley & McNeil's AUC interval and Wilson's binomial interval of the error rate for
//! every learner.

use report::{Cell, Table};

use crate::error::Result;
use crate::measures::{binary_scores, error_rate};
use crate::paired::PairedTest;
use crate::plan::Plan;
use crate::unit::{Part, UnitPredictions};

/// The (dataset, learner) pairs whose whole-training models the selected `tests` need: every
/// learner on every dataset whose protocol has a fixed test set, when a test on the test set is
/// selected; none otherwise.
pub fn needed_models(tests: &[PairedTest], plan: &Plan) -> Vec<(usize, usize)> {
    if !tests.iter().any(|test| test.on_test_set()) {
        return Vec::new();
    }
    (0..plan.datasets.len())
        .filter(|&dataset| plan.datasets[dataset].whole_training.is_some())
        .flat_map(|dataset| (0..plan.learners.len()).map(move |learner| (dataset, learner)))
        .collect()
}

/// Checks, before any fit, that every dataset's protocol has one fixed test set when `tests`
/// names a test on the test set; the error names the key, the test and the datasets.
pub fn check(tests: &[PairedTest], plan: &Plan) -> Result<()> {
    let Some(test) = tests.iter().find(|test| test.on_test_set()) else {
        return Ok(());
    };
    let without: Vec<&str> = plan
        .datasets
        .iter()
        .filter(|dataset| dataset.whole_training.is_none())
        .map(|dataset| dataset.name.as_str())
        .collect();
    if without.is_empty() {
        return Ok(());
    }
    crate::bail!(
        "key 'tests': '{}' runs on a fixed test set, but the protocol gives {} none (every \
         split must test on the same rows: protocol kind 'aslan', or 'holdout' with \
         repetitions = 1); remove it or change the protocol",
        test.name(),
        if without.len() == plan.datasets.len() {
            "the datasets".to_string()
        } else {
            format!("datasets {}", without.join(", "))
        }
    )
}

/// One test on the test set: a pair of learners (DeLong, McNemar) or one learner (the
/// intervals) on one dataset.
#[derive(Clone, Debug)]
pub struct TestSetRecord {
    /// Dataset index.
    pub dataset: usize,
    /// First (or only) learner index.
    pub a: usize,
    /// Second learner index, for the pairwise tests.
    pub b: Option<usize>,
    /// The test.
    pub test: PairedTest,
    /// Number of test-set rows.
    pub n: usize,
    /// The value each learner is judged on: AUC (DeLong, Hanley-McNeil) or error rate
    /// (McNemar, binomial); the second is NaN for the intervals.
    pub values: (f64, f64),
    /// DeLong's z, McNemar's min(b, c), Hanley-McNeil's standard error; NaN for the binomial.
    pub statistic: f64,
    /// Two-sided p-value of the pairwise tests; NaN for the intervals.
    pub pvalue: f64,
    /// The interval at level 1 - alpha, for Hanley-McNeil and the binomial.
    pub interval: Option<(f64, f64)>,
    /// Whether a pairwise test rejects equality at alpha.
    pub reject: bool,
    /// Why the test could not be run, if it could not.
    pub problem: Option<String>,
}

/// What one test on the test set measured (the fields of [`TestSetRecord`] of the same names).
struct Measured {
    n: usize,
    values: (f64, f64),
    statistic: f64,
    pvalue: f64,
    interval: Option<(f64, f64)>,
    reject: bool,
}

impl TestSetRecord {
    /// The record of a test on (dataset, a, b): its measurements, or why it did not run.
    fn new(
        (dataset, a, b): (usize, usize, Option<usize>),
        test: PairedTest,
        outcome: std::result::Result<Measured, String>,
    ) -> Self {
        let (measured, problem) = match outcome {
            Ok(measured) => (measured, None),
            Err(why) => (
                Measured {
                    n: 0,
                    values: (f64::NAN, f64::NAN),
                    statistic: f64::NAN,
                    pvalue: f64::NAN,
                    interval: None,
                    reject: false,
                },
                Some(why),
            ),
        };
        TestSetRecord {
            dataset,
            a,
            b,
            test,
            n: measured.n,
            values: measured.values,
            statistic: measured.statistic,
            pvalue: measured.pvalue,
            interval: measured.interval,
            reject: measured.reject,
            problem,
        }
    }
}

/// The test-set part of a whole-training-set model's predictions: truth and probabilities.
fn test_part(predictions: &UnitPredictions) -> (Vec<usize>, learners::Probabilities) {
    predictions.part(Part::Test)
}

/// One pairwise test from two learners' test-set predictions.
fn pairwise(
    test: PairedTest,
    positive: Option<usize>,
    first: &UnitPredictions,
    second: &UnitPredictions,
    alpha: f64,
) -> std::result::Result<Measured, String> {
    let (truth, first) = test_part(first);
    let (_, second) = test_part(second);
    let n = truth.len();
    match test {
        PairedTest::Delong => {
            let positive = positive.ok_or("needs a two-class task")?;
            let scores = |probabilities| {
                binary_scores(probabilities, &truth, positive)
                    .ok_or("the test set has one class only")
            };
            let (x, y) = (scores(&first)?, scores(&second)?);
            let result = stats::delong_test(x.labels(), x.scores(), y.scores(), alpha)
                .map_err(|error| error.to_string())?;
            Ok(Measured {
                n,
                values: (result.auc1, result.auc2),
                statistic: result.z,
                pvalue: result.pvalue,
                interval: None,
                reject: result.reject,
            })
        }
        PairedTest::Mcnemar => {
            let right = |probabilities: &learners::Probabilities| -> Vec<bool> {
                probabilities
                    .predicted_classes()
                    .iter()
                    .zip(&truth)
                    .map(|(predicted, actual)| predicted == actual)
                    .collect()
            };
            let (x, y) = (right(&first), right(&second));
            let mut table = [[0u64; 2]; 2];
            for (a_right, b_right) in x.iter().zip(&y) {
                // Row: the first learner wrong (0) or right (1); column: the second.
                table[usize::from(!a_right)][usize::from(!b_right)] += 1;
            }
            // b = first right, second wrong; c = first wrong, second right.
            let result = stats::mcnemar_test(table, alpha).map_err(|error| error.to_string())?;
            Ok(Measured {
                n,
                values: (error_rate(&first, &truth), error_rate(&second, &truth)),
                statistic: result.exact.statistic,
                pvalue: result.exact.pvalue,
                interval: None,
                reject: result.reject,
            })
        }
        other => Err(format!("'{}' is not a pairwise test", other.name())),
    }
}

/// One interval from one learner's test-set predictions: (n, value, statistic, interval).
fn interval(
    test: PairedTest,
    positive: Option<usize>,
    predictions: &UnitPredictions,
    alpha: f64,
) -> std::result::Result<Measured, String> {
    let (truth, probabilities) = test_part(predictions);
    let n = truth.len();
    match test {
        PairedTest::HanleyMcneil => {
            let positive = positive.ok_or("needs a two-class task")?;
            let scores = binary_scores(&probabilities, &truth, positive)
                .ok_or("the test set has one class only")?;
            let auc = stats::auc(scores.labels(), scores.scores()).map_err(|e| e.to_string())?;
            let positives = scores.labels().iter().filter(|label| **label).count();
            let negatives = n - positives;
            let se = stats::hanley_mcneil(auc, positives, negatives)
                .map_err(|e| e.to_string())?
                .se;
            let interval = stats::hanley_mcneil_interval(auc, positives, negatives, alpha)
                .map_err(|e| e.to_string())?;
            Ok(Measured {
                n,
                values: (auc, f64::NAN),
                statistic: se,
                pvalue: f64::NAN,
                interval: Some((interval.low, interval.high)),
                reject: false,
            })
        }
        PairedTest::Binomial => {
            let wrong = probabilities
                .predicted_classes()
                .iter()
                .zip(&truth)
                .filter(|(predicted, actual)| predicted != actual)
                .count();
            let interval =
                stats::wilson_interval(wrong as f64, n as f64, alpha).map_err(|e| e.to_string())?;
            Ok(Measured {
                n,
                values: (error_rate(&probabilities, &truth), f64::NAN),
                statistic: f64::NAN,
                pvalue: f64::NAN,
                interval: Some((interval.low, interval.high)),
                reject: false,
            })
        }
        other => Err(format!("'{}' is not an interval", other.name())),
    }
}

/// Every selected test on the test set, for every dataset whose protocol has one, in order of
/// dataset, test, learner pair; `predictions` gives the test-set predictions of a (dataset,
/// learner)'s whole-training model, read from the cache, or why there are none. Each dataset's
/// models are read once, one dataset at a time. Empty when no test on the test set is selected.
pub fn test_set_tests(
    plan: &Plan,
    tests: &[PairedTest],
    alpha: f64,
    predictions: impl Fn(usize, usize) -> std::result::Result<UnitPredictions, String>,
) -> Vec<TestSetRecord> {
    let selected: Vec<PairedTest> = tests.iter().copied().filter(|t| t.on_test_set()).collect();
    if selected.is_empty() {
        return Vec::new();
    }
    let learners = plan.learners.len();
    let mut records = Vec::new();
    for (dataset, prepared) in plan.datasets.iter().enumerate() {
        let positive = prepared.positive;
        let models: Vec<std::result::Result<UnitPredictions, String>> = (0..learners)
            .map(|learner| predictions(dataset, learner))
            .collect();
        for &test in &selected {
            let pairwise_test = matches!(test, PairedTest::Delong | PairedTest::Mcnemar);
            for a in 0..learners {
                if !pairwise_test {
                    let outcome = match &models[a] {
                        Err(why) => Err(why.clone()),
                        Ok(predictions) => interval(test, positive, predictions, alpha),
                    };
                    records.push(TestSetRecord::new((dataset, a, None), test, outcome));
                    continue;
                }
                for b in a + 1..learners {
                    let outcome = match (&models[a], &models[b]) {
                        (Err(why), _) | (_, Err(why)) => Err(why.clone()),
                        (Ok(first), Ok(second)) => pairwise(test, positive, first, second, alpha),
                    };
                    records.push(TestSetRecord::new((dataset, a, Some(b)), test, outcome));
                }
            }
        }
    }
    records
}

/// The tests on the test set as a table (the columns of the per-fold tests table, with "rows"
/// for "folds" and the interval's limits added).
pub fn test_set_table(plan: &Plan, records: &[TestSetRecord], alpha: f64) -> Result<Table> {
    let header = [
        "dataset",
        "measure",
        "learner a",
        "learner b",
        "test",
        "test rows",
        "value a",
        "value b",
        "statistic",
        "p-value",
        "interval low",
        "interval high",
        "decision",
    ]
    .map(String::from)
    .to_vec();
    let mut table = Table::new(
        format!(
            "Tests on the fixed test set, one model per learner fitted on the whole training \
             part (alpha = {alpha})"
        ),
        header,
    );
    for record in records {
        let measure = match record.test {
            PairedTest::Delong | PairedTest::HanleyMcneil => "auc",
            _ => "error",
        };
        let decision = match (&record.problem, record.b) {
            (Some(problem), _) => Cell::text(format!("not run: {problem}")),
            (None, None) => Cell::text(format!("{:.0}% interval", 100.0 * (1.0 - alpha))),
            (None, Some(_)) if record.reject => Cell::text("differ").bold(),
            (None, Some(_)) => Cell::text("no difference"),
        };
        let (low, high) = record.interval.unwrap_or((f64::NAN, f64::NAN));
        table.push_row(vec![
            Cell::text(&plan.datasets[record.dataset].name),
            Cell::text(measure),
            Cell::text(&plan.learners[record.a].name),
            Cell::text(record.b.map_or("", |b| plan.learners[b].name.as_str())),
            Cell::text(record.test.name()),
            Cell::integer(record.n as i64),
            Cell::number(record.values.0).with_decimals(4),
            Cell::number(record.values.1).with_decimals(4),
            Cell::number(record.statistic).with_decimals(4),
            Cell::number(record.pvalue).with_decimals(4),
            Cell::number(low).with_decimals(4),
            Cell::number(high).with_decimals(4),
            decision,
        ]);
    }
    table.push_note(
        "DeLong: z of AUC a - AUC b; McNemar: exact binomial test, statistic min(b, c) with b = \
         rows only a gets right, c = rows only b gets right; Hanley-McNeil: statistic = the AUC's \
         standard error, interval AUC +- z SE clipped to [0, 1]; binomial: Wilson's score \
         interval of the error rate. The whole-training-set models have no validation part: a \
         learner that selects a parameter on the protocol's validation fold uses its own inner \
         split instead.",
    );
    table.check()?;
    Ok(table)
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
            let models: Vec<UnitPredictions> = case["probabilities"]
                .as_array()
                .unwrap()
                .iter()
                .map(|flat| UnitPredictions {
                    rows: (0..truth.len()).collect(),
                    parts: vec![Part::Test; truth.len()],
                    truth: truth.clone(),
                    probabilities: learners::Probabilities::from_flat(classes, floats(flat)),
                })
                .collect();
            let expected = &case["expected"];
            let mcnemar =
                pairwise(PairedTest::Mcnemar, positive, &models[0], &models[1], alpha).unwrap();
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
                let measured = interval(PairedTest::Binomial, positive, model, alpha).unwrap();
                let (low, high) = measured.interval.unwrap();
                let wilson = floats(wilson);
                close(name, low, wilson[0]);
                close(name, high, wilson[1]);
            }
            let delong = pairwise(PairedTest::Delong, positive, &models[0], &models[1], alpha);
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
                let measured = interval(PairedTest::HanleyMcneil, positive, model, alpha).unwrap();
                let reference = floats(reference);
                let (low, high) = measured.interval.unwrap();
                close(name, measured.statistic, reference[0]);
                close(name, low, reference[1]);
                close(name, high, reference[2]);
            }
        }
    }
}
