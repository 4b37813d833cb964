//! The tests of `experiments compare TEST ...` that need no per-fold results or results table:
//! each checked against its flags' ranges (`flag_ranges`), computed by `stats::bundles` (one
//! call) and returned as one JSON object (the inputs and the `stats` results serialised as they
//! are), or as `key: value` lines; DeLong's test reads a predictions file (`predictions`).

use std::path::Path;

use data::{DataError, TextTable};
use serde_json::{json, Value};
use stats::{SignAlternative, SignMethod, StatsError};

use crate::flag_ranges::{check_alpha, check_count, check_sum, RangeError, MAX_RESAMPLES};
use crate::predictions::PredictionsError;
use crate::predictions::{positive_label, require_rows, scores, truth_column, two_columns};

/// Why a single test could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum SingleTestError {
    /// McNemar's test refused its counts.
    #[error("McNemar: {0}")]
    Mcnemar(StatsError),
    /// A statistic could not be computed.
    #[error(transparent)]
    Stats(#[from] StatsError),
    /// A flag is out of its range.
    #[error(transparent)]
    Range(#[from] RangeError),
    /// `compare binomial`: more successes than trials.
    #[error("--successes {successes} is more than --trials {trials}")]
    SuccessesAboveTrials {
        /// Successes k.
        successes: u64,
        /// Trials n.
        trials: u64,
    },
    /// `compare auc-interval`: more false negatives than errors.
    #[error("--false-negatives {false_negatives} is more than --errors {errors}")]
    FalseNegativesAboveErrors {
        /// The false negatives.
        false_negatives: usize,
        /// The errors.
        errors: usize,
    },
    /// `compare ranks`: not one name per average rank.
    #[error("--names gives {given} names for {ranks} average ranks")]
    Names {
        /// The names given.
        given: usize,
        /// The average ranks.
        ranks: usize,
    },
    /// The test refused the values of a list flag.
    #[error("{flag}")]
    Flag {
        /// The flag.
        flag: &'static str,
        /// Why.
        #[source]
        source: Box<SingleTestError>,
    },
    /// The predictions file's truth column, positive label or score columns cannot be read.
    #[error(transparent)]
    Predictions(#[from] PredictionsError),
    /// The predictions file cannot be read, or a column is missing or not numeric.
    #[error(transparent)]
    Data(#[from] DataError),
    /// A result could not be serialised.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// One single test's inputs, as its flags give them.
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
        /// The learners' names, one per rank (none: 1, 2, ...).
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

/// `compare sign --alternative`: `two-sided`, `first-better` or `second-better`.
pub fn parse_sign_alternative(text: &str) -> Result<SignAlternative, String> {
    match text {
        "two-sided" => Ok(SignAlternative::TwoSided),
        "first-better" => Ok(SignAlternative::FirstBetter),
        "second-better" => Ok(SignAlternative::SecondBetter),
        _ => Err("allowed: two-sided, first-better, second-better".into()),
    }
}

/// `compare sign --method`: `exact`, `normal` or `normal-corrected`.
pub fn parse_sign_method(text: &str) -> Result<SignMethod, String> {
    let normal = |continuity_correction| SignMethod::Normal {
        continuity_correction,
    };
    match text {
        "exact" => Ok(SignMethod::Exact),
        "normal" => Ok(normal(false)),
        "normal-corrected" => Ok(normal(true)),
        _ => Err("allowed: exact, normal, normal-corrected".into()),
    }
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

/// The test's result at level `alpha`, as one JSON object, once its inputs and `alpha` are
/// checked against their flags' ranges.
pub fn single_test(test: &SingleTest, alpha: f64) -> Result<Value, SingleTestError> {
    check_ranges(test)?;
    check_alpha(alpha)?;
    check_together(test)?;
    // The tests that take a list name the flag of the value they refuse.
    let flag = match test {
        SingleTest::Ranks { .. } => "--average-ranks",
        SingleTest::Correct { .. } => "--pvalues",
        _ => return computed(test, alpha),
    };
    computed(test, alpha).map_err(|source| SingleTestError::Flag {
        flag,
        source: Box::new(source),
    })
}

/// The flags of a single test that bound each other: successes and trials, false negatives
/// and errors, names and average ranks.
fn check_together(test: &SingleTest) -> Result<(), SingleTestError> {
    match test {
        SingleTest::Binomial { successes, trials } if successes > trials => {
            let (successes, trials) = (*successes, *trials);
            Err(SingleTestError::SuccessesAboveTrials { successes, trials })
        }
        SingleTest::AucInterval {
            errors: Some(errors),
            false_negatives: Some(false_negatives),
            ..
        } if false_negatives > errors => {
            let (false_negatives, errors) = (*false_negatives, *errors);
            Err(SingleTestError::FalseNegativesAboveErrors {
                false_negatives,
                errors,
            })
        }
        SingleTest::Ranks {
            average_ranks,
            names,
            ..
        } if !names.is_empty() && names.len() != average_ranks.len() => {
            let (given, ranks) = (names.len(), average_ranks.len());
            Err(SingleTestError::Names { given, ranks })
        }
        _ => Ok(()),
    }
}

/// Every count of a single test within its flag's documented range (`flag_ranges`).
fn check_ranges(test: &SingleTest) -> Result<(), RangeError> {
    let exact = "untied comparisons the exact binomial test takes (its sums take time in \
                 proportion to the count)";
    let most = stats::MAX_EXACT_COUNT;
    match test {
        SingleTest::Mcnemar { b, c } => check_sum([("--b", *b), ("--c", *c)], most, exact),
        SingleTest::Binomial { trials, .. } => check_count("--trials", *trials, 1, most, "trials"),
        SingleTest::Sign { wins, losses, .. } => {
            check_sum([("--wins", *wins), ("--losses", *losses)], most, exact)
        }
        SingleTest::AucInterval {
            positives,
            negatives,
            errors,
            ..
        } => {
            let (m, n) = (*positives as u64, *negatives as u64);
            check_count("--positives", m, 1, u64::MAX, "the number of positives")?;
            check_count("--negatives", n, 1, u64::MAX, "the number of negatives")?;
            match errors {
                Some(errors) => {
                    let bound = stats::MAX_CORTES_MOHRI_INSTANCES as u64;
                    let why = "instances Cortes & Mohri's exact sums (--errors) take (their \
                               time grows with its square)";
                    check_sum([("--positives", m), ("--negatives", n)], bound, why)?;
                    let what = "errors (at most one per instance)";
                    check_count("--errors", *errors as u64, 0, m + n, what)
                }
                None => Ok(()),
            }
        }
        SingleTest::Ranks {
            average_ranks,
            datasets,
            ..
        } => {
            let k = average_ranks.len() as u64;
            let learners = stats::MAX_RANKED_LEARNERS as u64;
            check_count("--average-ranks", k, 2, learners, "the number of learners")?;
            let most = stats::MAX_RANKED_DATASETS as u64;
            check_count("--datasets", *datasets as u64, 2, most, "datasets")
        }
        SingleTest::Correct { .. } => Ok(()),
    }
}

/// The test's result at level `alpha` (its inputs checked), as one JSON object.
fn computed(test: &SingleTest, alpha: f64) -> Result<Value, SingleTestError> {
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
            let names: Vec<String> = match names.len() {
                0 => (1..=average_ranks.len()).map(|i| i.to_string()).collect(),
                _ => names.clone(),
            };
            with("ranks", summary, json!({ "learners": names }))
        }
        SingleTest::Correct { pvalues } => {
            with("correct", stats::corrections(pvalues, alpha)?, json!({}))
        }
    }
}

/// What `compare delong` is asked: the file and its flags.
#[derive(Debug, Clone)]
pub struct DelongRequest<'a> {
    /// The predictions file (`--scores`).
    pub path: &'a Path,
    /// The truth column (`--truth`).
    pub truth: Option<&'a str>,
    /// The positive label (`--positive`).
    pub positive: Option<&'a str>,
    /// The two models' score columns (`--a`, `--b`; default: the only two).
    pub models: [Option<&'a str>; 2],
    /// Bootstrap resamples and seed (`--resamples`, `--seed`).
    pub bootstrap: (usize, u64),
    /// The significance level (`--alpha`).
    pub alpha: f64,
}

/// DeLong's test of the two models `request` names, with each AUC's intervals, as one JSON
/// object, once the file and the flags are checked.
pub fn delong(request: &DelongRequest) -> Result<Value, SingleTestError> {
    let (resamples, seed) = request.bootstrap;
    let what = "the bootstrap resamples";
    check_count(
        "--resamples",
        resamples as u64,
        1,
        MAX_RESAMPLES as u64,
        what,
    )?;
    let alpha = request.alpha;
    check_alpha(alpha)?;
    let table = TextTable::read(request.path)?;
    let file = request.path.display().to_string();
    require_rows(&table, &file)?;
    let (truth, labels) = truth_column(&table, request.truth)?;
    let truth_name = &table.header()[truth];
    let positive = positive_label(request.positive, &labels, &file, truth_name)?;
    let models: Vec<&String> = table.header().iter().filter(|n| *n != truth_name).collect();
    let [a, b] = request.models;
    let (a, b) = two_columns(&file, "score", &models, a, b)?;
    let labels: Vec<bool> = table.texts(truth).iter().map(|l| *l == positive).collect();
    let first = scores(&table, table.column(&a)?)?;
    let second = scores(&table, table.column(&b)?)?;
    let summary = stats::delong_summary(&labels, &first, &second, alpha, request.bootstrap)?;
    let mut models = serde_json::Map::new();
    models.insert(a.clone(), serde_json::to_value(&summary.first)?);
    models.insert(b.clone(), serde_json::to_value(&summary.second)?);
    Ok(json!({
        "test": "delong",
        "file": file,
        "positive": positive,
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
