//! DeLong's chi-square test for the AUCs of all learners at once on a protocol's fixed test set
//! (DeLong, DeLong & Clarke-Pearson 1988; `stats::delong_contrast_test`), registered beside the
//! built-in tests on the test set as `delong_k`: by default the equality of all k AUCs
//! (k - 1 degrees of freedom), or any contrast L theta = 0 given as the option `contrast` (one
//! row of k coefficients per hypothesis, the learners in the config's order). Two-class tasks.

use std::sync::Arc;

use learners::{ParamError, ParameterSpec, Params, Probabilities};

use crate::measures::measure_spec::binary_scores;
use crate::measures::test_set_spec::{Measured, TestSetFn, TestSetInput, TestSetTestSpec};

/// DeLong's chi-square of the contrast `contrast` (None: equality) of all `models`' test-set
/// AUCs.
pub fn delong_k(
    contrast: Option<&[Vec<f64>]>,
    input: &TestSetInput,
    models: &[&Probabilities],
) -> Result<Measured, String> {
    let positive = input.positive.ok_or("needs a two-class task")?;
    let scores = models
        .iter()
        .map(|probabilities| {
            binary_scores(probabilities, input.truth, positive)
                .ok_or("the test set has one class only")
        })
        .collect::<Result<Vec<_>, _>>()?;
    let first = scores.first().ok_or("needs at least one learner")?;
    let columns: Vec<&[f64]> = scores.iter().map(|s| s.scores()).collect();
    let result = stats::delong_contrast_test(first.labels(), &columns, contrast, input.alpha)
        .map_err(|error| error.to_string())?;
    Ok(Measured {
        n: input.truth.len(),
        values: (f64::NAN, f64::NAN),
        statistic: result.chi_square,
        pvalue: result.pvalue,
        interval: None,
        reject: result.reject,
        df: Some(result.df),
    })
}

/// Builds the test from its options: the contrast's rows must all have the same length.
fn build(params: &Params<'_>) -> Result<TestSetFn, ParamError> {
    let contrast = params.real_matrix("contrast")?;
    if let Some(rows) = &contrast {
        let k = rows.first().map_or(0, Vec::len);
        if k == 0 || rows.iter().any(|row| row.len() != k) {
            return Err(params.invalid(
                "contrast",
                format!("{rows:?}"),
                "one or more rows, each with one coefficient per learner (all rows as long)",
            ));
        }
    }
    let given = contrast.clone();
    let run = Arc::new(move |input: &TestSetInput, models: &[&Probabilities]| {
        delong_k(given.as_deref(), input, models)
    });
    Ok(TestSetFn::All { run, contrast })
}

/// The spec of `delong_k`.
pub fn spec() -> TestSetTestSpec {
    TestSetTestSpec {
        name: "delong_k",
        description: "on the fixed test set: DeLong's chi-square test that all learners' AUCs \
                      are equal (k - 1 df), or of a contrast, on models fitted on the whole \
                      training part (two-class tasks; protocols with one test set)",
        measure: "auc",
        note: "DeLong k: chi-square of L AUC = 0 over all learners (L: successive differences, \
               i.e. all AUCs equal, unless a contrast is given), df = rank of L S L'",
        options: vec![ParameterSpec::real_matrix(
            "contrast",
            "the equality of all AUCs (k - 1 successive differences)",
            -1e12,
            1e12,
            "contrast rows L, each with one coefficient per learner in the config's order; \
             tests L AUC = 0",
        )],
        build,
    }
}
