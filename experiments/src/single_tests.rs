//! `experiments compare TEST ...`: every test of the `stats` crate that does not read per-fold
//! results or a results table, with its inputs as flags (or a predictions CSV for DeLong),
//! checked and computed by `comparison::single_tests` (`stats::bundles`, one call each). Each
//! prints `key: value` lines, or with `--json` one JSON object (in the envelope of
//! docs/json-output.md, under `result`): the inputs and the `stats`
//! results serialised as they are (field names as in crates/stats; non-finite floats as the
//! strings "inf", "-inf", "nan").

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand};
use comparison::json_envelope::envelope_text;
use comparison::single_tests::{self, flatten, single_test, DelongRequest, SingleTest as Input};
use comparison::single_tests::{parse_sign_alternative, parse_sign_method};

/// The tests `compare` runs from flags.
#[derive(Subcommand, Debug)]
pub enum SingleTest {
    /// DeLong's test of two correlated AUCs from a predictions CSV (truth and score columns),
    /// with each AUC's Hanley-McNeil, Agarwal and bootstrap intervals.
    Delong(DelongArgs),
    /// Percentile and BCa bootstrap intervals (class-stratified, seeded) of AUC, scored AUC,
    /// error, Brier, average precision, PR and PR-Gain areas, partial AUC, H-measure and ECE of
    /// each model of a predictions CSV, and paired intervals of every two models' differences.
    Bootstrap(crate::bootstrap_command::BootstrapArgs),
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

    /// Significance level, in (0, 1) (intervals: confidence level 1 - alpha).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "ALPHA",
        default_value_t = 0.05
    )]
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
    /// Resamples of the stratified percentile bootstrap interval of each AUC, 1 to 1000000.
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
    /// Rows the first learner gets right and the second wrong (b + c at most 10000000).
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
    /// Trials n (e.g. test-set rows), 1 to 10000000.
    #[arg(long, value_name = "N")]
    trials: u64,
    #[command(flatten)]
    common: Common,
}

/// `compare sign`.
#[derive(Args, Debug)]
pub struct SignArgs {
    /// Comparisons the first learner wins (wins + losses at most 10000000).
    #[arg(long, value_name = "COUNT")]
    wins: u64,
    /// Comparisons the first learner loses.
    #[arg(long, value_name = "COUNT")]
    losses: u64,
    /// Ties (dropped from the test; reported).
    #[arg(long, value_name = "COUNT", default_value_t = 0)]
    ties: u64,
    /// Which outcomes speak against equality: two-sided (either learner better), first-better
    /// (many wins) or second-better (few wins).
    #[arg(long, value_name = "SIDE", default_value = "two-sided", value_parser = parse_sign_alternative)]
    alternative: stats::SignAlternative,
    /// The p-value: exact (the binomial distribution), normal (the normal approximation) or
    /// normal-corrected (with the continuity correction of 1/2).
    #[arg(long, value_name = "METHOD", default_value = "exact", value_parser = parse_sign_method)]
    method: stats::SignMethod,
    #[command(flatten)]
    common: Common,
}

/// `compare auc-interval`.
#[derive(Args, Debug)]
pub struct AucIntervalArgs {
    /// The AUC, in [0, 1].
    #[arg(long, allow_negative_numbers = true, value_name = "AUC")]
    auc: f64,
    /// Number of positive instances.
    #[arg(long, value_name = "COUNT")]
    positives: usize,
    /// Number of negative instances.
    #[arg(long, value_name = "COUNT")]
    negatives: usize,
    /// Classification errors at the threshold (for the Cortes & Mohri moments and interval; at
    /// most positives + negatives, which must then be at most 10000).
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
    /// Average ranks of the learners (1 = best), comma-separated: 2 to 100 of them, each in
    /// [1, k], summing to k(k+1)/2 (within 0.01 k).
    #[arg(
        long,
        value_name = "R1,R2,...",
        value_delimiter = ',',
        required = true,
        allow_hyphen_values = true
    )]
    average_ranks: Vec<f64>,
    /// Number of datasets the ranks were averaged over, 2 to 1000000.
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

/// The library's inputs of a single test other than DeLong and the bootstrap.
fn input(test: &SingleTest) -> (&Common, Input) {
    match test {
        SingleTest::Delong(_) | SingleTest::Bootstrap(_) => {
            unreachable!("DeLong and the bootstrap read a predictions file")
        }
        SingleTest::Mcnemar(args) => (
            &args.common,
            Input::Mcnemar {
                b: args.b,
                c: args.c,
            },
        ),
        SingleTest::Binomial(args) => {
            let (successes, trials) = (args.successes, args.trials);
            (&args.common, Input::Binomial { successes, trials })
        }
        SingleTest::Sign(args) => {
            let (wins, losses, ties) = (args.wins, args.losses, args.ties);
            let (alternative, method) = (args.alternative, args.method);
            let input = Input::Sign {
                wins,
                losses,
                ties,
                alternative,
                method,
            };
            (&args.common, input)
        }
        SingleTest::AucInterval(args) => {
            let input = Input::AucInterval {
                auc: args.auc,
                positives: args.positives,
                negatives: args.negatives,
                errors: args.errors,
                false_negatives: args.false_negatives,
            };
            (&args.common, input)
        }
        SingleTest::Ranks(args) => {
            let input = Input::Ranks {
                average_ranks: args.average_ranks.clone(),
                datasets: args.datasets,
                names: args.names.clone(),
            };
            (&args.common, input)
        }
        SingleTest::Correct(args) => (
            &args.common,
            Input::Correct {
                pvalues: args.pvalues.clone(),
            },
        ),
    }
}

/// The subcommand's name, as typed after `compare`.
fn command_name(test: &SingleTest) -> &'static str {
    match test {
        SingleTest::Delong(_) => "delong",
        SingleTest::Bootstrap(_) => "bootstrap",
        SingleTest::Mcnemar(_) => "mcnemar",
        SingleTest::Binomial(_) => "binomial",
        SingleTest::Sign(_) => "sign",
        SingleTest::AucInterval(_) => "auc-interval",
        SingleTest::Ranks(_) => "ranks",
        SingleTest::Correct(_) => "correct",
    }
}

/// Runs one single test and returns what to print.
pub fn run(test: &SingleTest) -> Result<String> {
    let (common, value) = match test {
        SingleTest::Bootstrap(args) => return crate::bootstrap_command::run(args),
        SingleTest::Delong(args) => {
            let request = DelongRequest {
                path: &args.scores,
                truth: args.truth.as_deref(),
                positive: args.positive.as_deref(),
                models: [args.a.as_deref(), args.b.as_deref()],
                bootstrap: (args.resamples, args.seed),
                alpha: args.common.alpha,
            };
            (&args.common, single_tests::delong(&request)?)
        }
        _ => {
            let (common, input) = input(test);
            (common, single_test(&input, common.alpha)?)
        }
    };
    if common.json {
        let mut inputs = serde_json::json!({ "alpha": common.alpha });
        if let SingleTest::Delong(args) = test {
            inputs["file"] = args.scores.display().to_string().into();
        }
        let command = format!("compare {}", command_name(test));
        return Ok(envelope_text(&command, inputs, &value, &[])?);
    }
    Ok(flatten(&value))
}
