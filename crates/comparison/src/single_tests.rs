//! The tests of `experiments compare TEST ...` that need no per-fold results or results table:
//! each computed by `stats::bundles` (one call) and returned as one JSON object (the inputs and
//! the `stats` results serialised as they are), or as `key: value` lines.

use serde_json::{json, Value};
use stats::{SignAlternative, SignMethod, StatsError};

/// Why a single test could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum SingleTestError {
    /// McNemar's test refused its counts.
    #[error("McNemar: {0}")]
    Mcnemar(StatsError),
    /// A statistic could not be computed.
    #[error(transparent)]
    Stats(#[from] StatsError),
    /// A result could not be serialised.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// One single test's inputs (checked against their flags' ranges by the caller).
#[derive(Debug, Clone)]
pub enum SingleTest {
    /// McNemar's test from the discordant counts.
    Mcnemar {
        /// First right, second wrong.
        b: u64,
        /// First wrong, second right.
        c: u64,
    },
    /// Binomial intervals and the exact test of p = 1/2.
    Binomial {
        /// Successes k.
        successes: u64,
        /// Trials n.
        trials: u64,
    },
    /// The sign test.
    Sign {
        /// Comparisons the first learner wins.
        wins: u64,
        /// Comparisons it loses.
        losses: u64,
        /// Ties (dropped).
        ties: u64,
        /// The alternative hypothesis.
        alternative: SignAlternative,
        /// Exact or normal.
        method: SignMethod,
    },
    /// Intervals of one AUC.
    AucInterval {
        /// The AUC.
        auc: f64,
        /// Positive instances.
        positives: usize,
        /// Negative instances.
        negatives: usize,
        /// Errors at the threshold (Cortes & Mohri).
        errors: Option<usize>,
        /// Of the errors, the false negatives.
        false_negatives: Option<usize>,
    },
    /// Friedman, Iman-Davenport and Nemenyi from average ranks.
    Ranks {
        /// The average ranks.
        average_ranks: Vec<f64>,
        /// The datasets they were averaged over.
        datasets: usize,
        /// The learners' names, one per rank.
        names: Vec<String>,
    },
    /// Holm and Bonferroni corrections.
    Correct {
        /// The p-values.
        pvalues: Vec<f64>,
    },
}

/// `value` (an object) with the test's name and the inputs added.
fn with(name: &str, value: impl serde::Serialize, inputs: Value) -> Result<Value, SingleTestError> {
    let mut value = serde_json::to_value(value)?;
    value["test"] = name.into();
    for (key, input) in inputs.as_object().into_iter().flatten() {
        value[key] = input.clone();
    }
    Ok(value)
}

/// The name of a sign test's method as `compare sign --method` spells it (in CamelCase).
fn method_name(method: SignMethod) -> &'static str {
    match method {
        SignMethod::Exact => "Exact",
        SignMethod::Normal {
            continuity_correction: false,
        } => "Normal",
        SignMethod::Normal {
            continuity_correction: true,
        } => "NormalCorrected",
    }
}

/// The test's result at level `alpha`, as one JSON object.
pub fn single_test(test: &SingleTest, alpha: f64) -> Result<Value, SingleTestError> {
    match test {
        SingleTest::Mcnemar { b, c } => {
            let result =
                stats::mcnemar_test([[0, *b], [*c, 0]], alpha).map_err(SingleTestError::Mcnemar)?;
            with(
                "mcnemar",
                json!({ "b": b, "c": c, "result": result }),
                json!({}),
            )
        }
        SingleTest::Binomial { successes, trials } => {
            let summary = stats::binomial_summary(*successes, *trials, alpha)?;
            with("binomial", summary, json!({}))
        }
        SingleTest::Sign {
            wins,
            losses,
            ties,
            alternative,
            method,
        } => {
            let summary = stats::sign_summary(*wins, *losses, *ties, alpha, *alternative, *method)?;
            let inputs = json!({
                "alternative": format!("{alternative:?}"),
                "method": method_name(*method),
            });
            with("sign", summary, inputs)
        }
        SingleTest::AucInterval {
            auc,
            positives,
            negatives,
            errors,
            false_negatives,
        } => {
            let (m, n) = (*positives, *negatives);
            let intervals = stats::auc_intervals(*auc, m, n, *errors, *false_negatives, alpha)?;
            with("auc_interval", intervals, json!({}))
        }
        SingleTest::Ranks {
            average_ranks,
            datasets,
            names,
        } => {
            let summary = stats::ranks_summary(average_ranks, *datasets, alpha)?;
            with("ranks", summary, json!({ "learners": names }))
        }
        SingleTest::Correct { pvalues } => {
            with("correct", stats::corrections(pvalues, alpha)?, json!({}))
        }
    }
}

/// DeLong's test of two models' scores read from a predictions file.
#[derive(Debug, Clone)]
pub struct DelongInput<'a> {
    /// The file, as shown.
    pub file: &'a str,
    /// The positive label.
    pub positive: &'a str,
    /// The two models' score columns.
    pub models: [&'a str; 2],
    /// Whether each row is positive.
    pub labels: &'a [bool],
    /// The two models' scores.
    pub scores: [&'a [f64]; 2],
    /// Bootstrap resamples and seed.
    pub bootstrap: (usize, u64),
}

/// DeLong's test with each AUC's intervals at level `alpha`, as one JSON object.
pub fn delong(input: &DelongInput, alpha: f64) -> Result<Value, SingleTestError> {
    let [first, second] = input.scores;
    let summary = stats::delong_summary(input.labels, first, second, alpha, input.bootstrap)?;
    let [a, b] = input.models;
    let mut models = serde_json::Map::new();
    models.insert(a.to_string(), serde_json::to_value(&summary.first)?);
    models.insert(b.to_string(), serde_json::to_value(&summary.second)?);
    let (resamples, seed) = input.bootstrap;
    Ok(json!({
        "test": "delong",
        "file": input.file,
        "positive": input.positive,
        "positives": summary.positives,
        "negatives": summary.negatives,
        "a": a,
        "b": b,
        "result": summary.result,
        "models": models,
        "bootstrap": { "resamples": resamples, "seed": seed },
    }))
}

/// `key: value` lines of a JSON value, nested keys joined by dots.
pub fn flatten(value: &Value) -> String {
    let mut lines = String::new();
    flatten_into("", value, &mut lines);
    lines
}

/// Appends the `key: value` lines of `value` under `prefix` to `out`.
fn flatten_into(prefix: &str, value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let key = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten_into(&key, inner, out);
            }
        }
        Value::Array(items) if items.iter().any(|item| item.is_object() || item.is_array()) => {
            for (index, inner) in items.iter().enumerate() {
                flatten_into(&format!("{prefix}[{index}]"), inner, out);
            }
        }
        Value::Array(items) => {
            let shown: Vec<String> = items.iter().map(Value::to_string).collect();
            out.push_str(&format!("{prefix}: [{}]\n", shown.join(", ")));
        }
        Value::String(text) => out.push_str(&format!("{prefix}: {text}\n")),
        other => out.push_str(&format!("{prefix}: {other}\n")),
    }
}
