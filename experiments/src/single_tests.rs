//! `experiments compare TEST ...`: every test of the `stats` crate that does not read per-fold
//! results or a results table, with its inputs as flags (or a predictions CSV for DeLong).
//! Each prints `key: value` lines, or with `--json` one JSON object: the inputs and the `stats`
//! result structs serialised as they are (field names as in crates/stats; non-finite floats as
//! the strings "inf", "-inf", "nan").

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::{Args, Subcommand};
use serde_json::{json, Value};

use crate::table_input::CsvTable;

/// The tests `compare` runs from flags.
#[derive(Subcommand, Debug)]
pub enum SingleTest {
    /// DeLong's test of two correlated AUCs from a predictions CSV (truth and score columns),
    /// with each AUC's Hanley-McNeil, Agarwal and bootstrap intervals.
    Delong(DelongArgs),
    /// McNemar's test from the discordant counts b and c (exact, and chi-square with and
    /// without continuity correction).
    Mcnemar(McnemarArgs),
    /// Binomial proportion intervals of k successes in n trials (Wilson and Wald), and the exact
    /// two-sided test of p = 1/2.
    Binomial(BinomialArgs),
    /// The sign test from wins and losses (ties dropped), one- or two-tailed, exact or by the
    /// normal approximation, with its one- and two-tailed critical values.
    Sign(SignArgs),
    /// Intervals of one AUC from its value and class counts: Hanley-McNeil, Agarwal et al., and
    /// with --errors the Cortes & Mohri moments and intervals (the moments' interval, and the
    /// full 2004 construction with a Chebyshev and a normal bound on the error rate).
    AucInterval(AucIntervalArgs),
    /// Friedman and Iman-Davenport from published average ranks, with Nemenyi's critical
    /// difference and pairwise p-values.
    Ranks(RanksArgs),
    /// Holm and Bonferroni corrections of a family of p-values.
    Correct(CorrectArgs),
}

/// Options every single test shares.
#[derive(Args, Debug)]
pub struct Common {
    /// Print one JSON object instead of `key: value` lines.
    #[arg(long)]
    json: bool,

    /// Significance level (intervals: confidence level 1 - alpha).
    #[arg(long, value_name = "ALPHA", default_value_t = 0.05)]
    alpha: f64,
}

/// `compare delong`.
#[derive(Args, Debug)]
pub struct DelongArgs {
    /// Predictions CSV: a truth column and one positive-class score column per model (the
    /// layout of `roc`).
    #[arg(long, value_name = "FILE")]
    scores: PathBuf,
    /// The column with the true labels (default: `truth`, else the first column).
    #[arg(long, value_name = "COLUMN")]
    truth: Option<String>,
    /// The positive label (default for two labels: 1 of 0/1 and -1/1, true, yes, pos, positive).
    #[arg(long, value_name = "LABEL")]
    positive: Option<String>,
    /// First model's score column (default: the first of exactly two score columns).
    #[arg(long, value_name = "COLUMN")]
    a: Option<String>,
    /// Second model's score column (default: the second of exactly two score columns).
    #[arg(long, value_name = "COLUMN")]
    b: Option<String>,
    /// Resamples of the stratified percentile bootstrap interval of each AUC.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    resamples: usize,
    /// Seed of the bootstrap.
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    common: Common,
}

/// `compare mcnemar`.
#[derive(Args, Debug)]
pub struct McnemarArgs {
    /// Rows the first learner gets right and the second wrong.
    #[arg(long, value_name = "COUNT")]
    b: u64,
    /// Rows the first learner gets wrong and the second right.
    #[arg(long, value_name = "COUNT")]
    c: u64,
    #[command(flatten)]
    common: Common,
}

/// `compare binomial`.
#[derive(Args, Debug)]
pub struct BinomialArgs {
    /// Successes k (e.g. errors on a test set).
    #[arg(long, value_name = "K")]
    successes: u64,
    /// Trials n (e.g. test-set rows).
    #[arg(long, value_name = "N")]
    trials: u64,
    #[command(flatten)]
    common: Common,
}

/// `compare sign`.
#[derive(Args, Debug)]
pub struct SignArgs {
    /// Comparisons the first learner wins.
    #[arg(long, value_name = "COUNT")]
    wins: u64,
    /// Comparisons the first learner loses.
    #[arg(long, value_name = "COUNT")]
    losses: u64,
    /// Ties (dropped from the test; reported).
    #[arg(long, value_name = "COUNT", default_value_t = 0)]
    ties: u64,
    /// Which outcomes speak against equality: either learner better, or one-tailed.
    #[arg(long, value_enum, default_value_t = SignAlternativeArg::TwoSided)]
    alternative: SignAlternativeArg,
    /// The exact binomial p-value, or the normal approximation (with or without the continuity
    /// correction).
    #[arg(long, value_enum, default_value_t = SignMethodArg::Exact)]
    method: SignMethodArg,
    #[command(flatten)]
    common: Common,
}

/// `compare sign --alternative`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum SignAlternativeArg {
    /// Either learner better.
    TwoSided,
    /// The first learner better (many wins).
    FirstBetter,
    /// The second learner better (few wins).
    SecondBetter,
}

/// `compare sign --method`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum SignMethodArg {
    /// The exact binomial distribution.
    Exact,
    /// The normal approximation without continuity correction.
    Normal,
    /// The normal approximation with the continuity correction of 1/2.
    NormalCorrected,
}

/// `compare auc-interval`.
#[derive(Args, Debug)]
pub struct AucIntervalArgs {
    /// The AUC, in [0, 1].
    #[arg(long, value_name = "AUC")]
    auc: f64,
    /// Number of positive instances.
    #[arg(long, value_name = "COUNT")]
    positives: usize,
    /// Number of negative instances.
    #[arg(long, value_name = "COUNT")]
    negatives: usize,
    /// Classification errors at the threshold (for the Cortes & Mohri moments and interval).
    #[arg(long, value_name = "COUNT")]
    errors: Option<usize>,
    /// Of the errors, the false negatives (Cortes & Mohri moments given the split).
    #[arg(long, value_name = "COUNT", requires = "errors")]
    false_negatives: Option<usize>,
    #[command(flatten)]
    common: Common,
}

/// `compare ranks`.
#[derive(Args, Debug)]
pub struct RanksArgs {
    /// Average ranks of the learners (1 = best), comma-separated.
    #[arg(long, value_name = "R1,R2,...", value_delimiter = ',', required = true)]
    average_ranks: Vec<f64>,
    /// Number of datasets the ranks were averaged over.
    #[arg(long, value_name = "N")]
    datasets: usize,
    /// Learner names, comma-separated (default: 1, 2, ...).
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    names: Vec<String>,
    #[command(flatten)]
    common: Common,
}

/// `compare correct`.
#[derive(Args, Debug)]
pub struct CorrectArgs {
    /// The p-values, comma-separated.
    #[arg(long, value_name = "P1,P2,...", value_delimiter = ',', required = true)]
    pvalues: Vec<f64>,
    #[command(flatten)]
    common: Common,
}

/// Any stats error, with the test it came from.
fn computed<T>(test: &str, result: Result<T, stats::StatsError>) -> Result<T> {
    result.map_err(|error| anyhow::anyhow!("{test}: {error}"))
}

fn check_alpha(alpha: f64) -> Result<()> {
    if !(alpha > 0.0 && alpha < 1.0) {
        bail!("--alpha {alpha} is out of range: must be in (0, 1)");
    }
    Ok(())
}

/// Runs one single test and returns what to print.
pub fn run(test: &SingleTest) -> Result<String> {
    let (common, value) = match test {
        SingleTest::Delong(args) => (&args.common, delong(args)?),
        SingleTest::Mcnemar(args) => {
            check_alpha(args.common.alpha)?;
            let result = computed(
                "McNemar",
                stats::mcnemar_test([[0, args.b], [args.c, 0]], args.common.alpha),
            )?;
            (
                &args.common,
                json!({ "test": "mcnemar", "b": args.b, "c": args.c, "result": result }),
            )
        }
        SingleTest::Binomial(args) => {
            check_alpha(args.common.alpha)?;
            if args.successes > args.trials {
                bail!(
                    "--successes {} is more than --trials {}",
                    args.successes,
                    args.trials
                );
            }
            if args.trials == 0 {
                bail!("--trials 0: give at least one trial");
            }
            let (k, n, alpha) = (args.successes as f64, args.trials as f64, args.common.alpha);
            (
                &args.common,
                json!({
                    "test": "binomial",
                    "successes": args.successes,
                    "trials": args.trials,
                    "proportion": k / n,
                    "wilson_interval": computed("Wilson interval", stats::wilson_interval(k, n, alpha))?,
                    "wald_interval": computed("Wald interval", stats::normal_interval(k, n, alpha))?,
                    "test_of_one_half": computed("binomial test", stats::sign_test(
                        args.successes, args.trials - args.successes, 0, alpha))?,
                }),
            )
        }
        SingleTest::Sign(args) => {
            let alpha = args.common.alpha;
            check_alpha(alpha)?;
            let n = args.wins + args.losses;
            (
                &args.common,
                json!({
                    "test": "sign",
                    "alternative": format!("{:?}", args.alternative),
                    "method": format!("{:?}", args.method),
                    "result": computed("sign test", stats::sign_test_with(
                        args.wins,
                        args.losses,
                        args.ties,
                        alpha,
                        match args.alternative {
                            SignAlternativeArg::TwoSided => stats::SignAlternative::TwoSided,
                            SignAlternativeArg::FirstBetter => stats::SignAlternative::FirstBetter,
                            SignAlternativeArg::SecondBetter => stats::SignAlternative::SecondBetter,
                        },
                        match args.method {
                            SignMethodArg::Exact => stats::SignMethod::Exact,
                            SignMethodArg::Normal => stats::SignMethod::Normal { continuity_correction: false },
                            SignMethodArg::NormalCorrected => stats::SignMethod::Normal { continuity_correction: true },
                        },
                    ))?,
                    "critical_max_losses": computed("sign test", stats::sign_test_max_losses(n, alpha))?,
                    "critical_min_wins": computed("sign test", stats::sign_test_min_wins(n, alpha))?,
                    "critical_max_losses_one_tailed": computed(
                        "sign test",
                        stats::sign_test_critical_losses(n, alpha, stats::Tails::One)
                    )?,
                }),
            )
        }
        SingleTest::AucInterval(args) => (&args.common, auc_interval(args)?),
        SingleTest::Ranks(args) => (&args.common, ranks(args)?),
        SingleTest::Correct(args) => {
            let alpha = args.common.alpha;
            check_alpha(alpha)?;
            (
                &args.common,
                json!({
                    "test": "correct",
                    "pvalues": args.pvalues,
                    "holm": computed("Holm", stats::holm(&args.pvalues, alpha))?,
                    "bonferroni": computed("Bonferroni", stats::bonferroni(&args.pvalues, alpha))?,
                }),
            )
        }
    };
    if common.json {
        return Ok(format!("{}\n", serde_json::to_string_pretty(&value)?));
    }
    let mut lines = String::new();
    flatten("", &value, &mut lines);
    Ok(lines)
}

/// `key: value` lines of a JSON value, nested keys joined by dots.
fn flatten(prefix: &str, value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let key = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(&key, inner, out);
            }
        }
        Value::Array(items) if items.iter().any(|item| item.is_object() || item.is_array()) => {
            for (index, inner) in items.iter().enumerate() {
                flatten(&format!("{prefix}[{index}]"), inner, out);
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

fn delong(args: &DelongArgs) -> Result<Value> {
    let alpha = args.common.alpha;
    check_alpha(alpha)?;
    let table = CsvTable::read(&args.scores)?;
    let shown = args.scores.display().to_string();
    if table.is_empty() {
        bail!("'{shown}' has a header but no row of predictions");
    }
    let (truth_column, truth, labels) =
        crate::roc_command::truth_labels(&table, args.truth.as_deref())?;
    let truth_name = &table.header()[truth_column];
    let positive =
        crate::roc_command::positive_label(args.positive.as_deref(), &labels, &shown, truth_name)?;
    let models: Vec<&String> = table
        .header()
        .iter()
        .enumerate()
        .filter(|(column, _)| *column != truth_column)
        .map(|(_, name)| name)
        .collect();
    let (a, b) = crate::compare_command::two_columns(&shown, "score", &models, &args.a, &args.b)?;
    let labels: Vec<bool> = truth.iter().map(|label| *label == positive).collect();
    let positives = labels.iter().filter(|label| **label).count();
    let negatives = labels.len() - positives;
    let mut per_model = serde_json::Map::new();
    let mut scores = Vec::new();
    for name in [&a, &b] {
        let values = table.numbers(table.column(name)?, true)?;
        let auc = computed("AUC", stats::auc(&labels, &values))?;
        per_model.insert(
            name.clone(),
            json!({
                "auc": auc,
                "hanley_mcneil": computed("Hanley-McNeil", stats::hanley_mcneil(auc, positives, negatives))?,
                "hanley_mcneil_interval": computed("Hanley-McNeil", stats::hanley_mcneil_interval(auc, positives, negatives, alpha))?,
                "agarwal_interval": computed("Agarwal", stats::agarwal_interval(auc, positives, negatives, alpha))?,
                "bootstrap_interval": computed("bootstrap", stats::bootstrap_auc_interval(&labels, &values, args.resamples, alpha, args.seed))?,
            }),
        );
        scores.push(values);
    }
    let result = computed(
        "DeLong",
        stats::delong_test(&labels, &scores[0], &scores[1], alpha),
    )?;
    Ok(json!({
        "test": "delong",
        "file": shown,
        "positive": positive,
        "positives": positives,
        "negatives": negatives,
        "a": a,
        "b": b,
        "result": result,
        "models": per_model,
        "bootstrap": { "resamples": args.resamples, "seed": args.seed },
    }))
}

fn auc_interval(args: &AucIntervalArgs) -> Result<Value> {
    let alpha = args.common.alpha;
    check_alpha(alpha)?;
    let (auc, m, n) = (args.auc, args.positives, args.negatives);
    let mut value = json!({
        "test": "auc_interval",
        "auc": auc,
        "positives": m,
        "negatives": n,
        "hanley_mcneil": computed("Hanley-McNeil", stats::hanley_mcneil(auc, m, n))?,
        "hanley_mcneil_interval": computed("Hanley-McNeil", stats::hanley_mcneil_interval(auc, m, n, alpha))?,
        "agarwal_half_width": computed("Agarwal", stats::agarwal_half_width(m, n, alpha))?,
        "agarwal_interval": computed("Agarwal", stats::agarwal_interval(auc, m, n, alpha))?,
    });
    if let Some(errors) = args.errors {
        value["cortes_mohri_moments"] = json!(computed(
            "Cortes-Mohri",
            stats::cortes_mohri_moments(m, n, errors)
        )?);
        value["cortes_mohri_interval"] = json!(computed(
            "Cortes-Mohri",
            stats::cortes_mohri_interval(m, n, errors, alpha)
        )?);
        for (key, bound) in [
            (
                "cortes_mohri_full_interval_chebyshev",
                stats::ErrorRateBound::Chebyshev,
            ),
            (
                "cortes_mohri_full_interval_normal",
                stats::ErrorRateBound::Normal,
            ),
        ] {
            value[key] = json!(computed(
                "Cortes-Mohri",
                stats::cortes_mohri_full_interval(m, n, errors, alpha, bound)
            )?);
        }
        if let Some(false_negatives) = args.false_negatives {
            if false_negatives > errors {
                bail!("--false-negatives {false_negatives} is more than --errors {errors}");
            }
            value["cortes_mohri_moments_given_split"] = json!(computed(
                "Cortes-Mohri",
                stats::cortes_mohri_moments_given_split(
                    m,
                    n,
                    false_negatives,
                    errors - false_negatives
                )
            )?);
        }
    }
    Ok(value)
}

fn ranks(args: &RanksArgs) -> Result<Value> {
    let alpha = args.common.alpha;
    check_alpha(alpha)?;
    let k = args.average_ranks.len();
    let names: Vec<String> = if args.names.is_empty() {
        (1..=k).map(|i| i.to_string()).collect()
    } else if args.names.len() == k {
        args.names.clone()
    } else {
        bail!(
            "--names gives {} names for {k} average ranks",
            args.names.len()
        );
    };
    let friedman = computed(
        "Friedman",
        stats::friedman_from_average_ranks(&args.average_ranks, args.datasets, alpha),
    )?;
    let q = computed("Nemenyi", stats::nemenyi_q(k, alpha))?;
    let table_q = stats::nemenyi_q_demsar_table(k, alpha).ok();
    Ok(json!({
        "test": "ranks",
        "learners": names,
        "n_datasets": args.datasets,
        "friedman": friedman,
        "nemenyi_q": q,
        "nemenyi_critical_difference": computed("Nemenyi", stats::critical_difference(q, k, args.datasets))?,
        "nemenyi_q_demsar_table": table_q,
        "nemenyi_critical_difference_demsar_table": table_q
            .map(|q| stats::critical_difference(q, k, args.datasets))
            .transpose()
            .map_err(|error| anyhow::anyhow!("Nemenyi: {error}"))?,
        "nemenyi_pvalues": computed("Nemenyi", stats::nemenyi_pvalues(&args.average_ranks, args.datasets))?,
    }))
}
