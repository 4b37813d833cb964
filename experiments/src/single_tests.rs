//! `experiments compare TEST ...`: every test of the `stats` crate that does not read per-fold
//! results or a results table, with its inputs as flags (or a predictions CSV for DeLong),
//! computed by `stats::bundles` (one call each). Each prints `key: value` lines, or with
//! `--json` one JSON object: the inputs and the `stats` results serialised as they are (field
//! names as in crates/stats; non-finite floats as the strings "inf", "-inf", "nan").

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use comparison::single_tests::{self, flatten, single_test, DelongInput, SingleTest as Input};
use data::TextTable;
use serde_json::Value;

use crate::flag_ranges::check_alpha;
use crate::predictions_file::{positive_label, truth_column, two_columns};

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

/// The library's inputs of a single test other than DeLong, after the checks of its flags.
fn input(test: &SingleTest) -> Result<(&Common, Input)> {
    Ok(match test {
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
            check_alpha(args.common.alpha)?;
            let (k, n) = (args.successes, args.trials);
            if k > n {
                bail!("--successes {k} is more than --trials {n}");
            }
            if n == 0 {
                bail!("--trials 0: give at least one trial");
            }
            let input = Input::Binomial {
                successes: k,
                trials: n,
            };
            (&args.common, input)
        }
        SingleTest::Sign(args) => {
            let alternative = match args.alternative {
                SignAlternativeArg::TwoSided => stats::SignAlternative::TwoSided,
                SignAlternativeArg::FirstBetter => stats::SignAlternative::FirstBetter,
                SignAlternativeArg::SecondBetter => stats::SignAlternative::SecondBetter,
            };
            let method = match args.method {
                SignMethodArg::Exact => stats::SignMethod::Exact,
                SignMethodArg::Normal => stats::SignMethod::Normal {
                    continuity_correction: false,
                },
                SignMethodArg::NormalCorrected => stats::SignMethod::Normal {
                    continuity_correction: true,
                },
            };
            let (wins, losses, ties) = (args.wins, args.losses, args.ties);
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
            check_alpha(args.common.alpha)?;
            if let (Some(errors), Some(false_negatives)) = (args.errors, args.false_negatives) {
                if false_negatives > errors {
                    bail!("--false-negatives {false_negatives} is more than --errors {errors}");
                }
            }
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
            check_alpha(args.common.alpha)?;
            let k = args.average_ranks.len();
            let names: Vec<String> = match args.names.len() {
                0 => (1..=k).map(|i| i.to_string()).collect(),
                given if given == k => args.names.clone(),
                given => bail!("--names gives {given} names for {k} average ranks"),
            };
            let (average_ranks, datasets) = (args.average_ranks.clone(), args.datasets);
            let input = Input::Ranks {
                average_ranks,
                datasets,
                names,
            };
            (&args.common, input)
        }
        SingleTest::Correct(args) => (
            &args.common,
            Input::Correct {
                pvalues: args.pvalues.clone(),
            },
        ),
    })
}

/// Runs one single test and returns what to print.
pub fn run(test: &SingleTest) -> Result<String> {
    if let SingleTest::Bootstrap(args) = test {
        return crate::bootstrap_command::run(args);
    }
    check_ranges(test)?;
    let (common, value) = match test {
        SingleTest::Delong(args) => (&args.common, delong(args)?),
        _ => {
            let (common, input) = input(test)?;
            check_alpha(common.alpha)?;
            let value = single_test(&input, common.alpha);
            // The tests that take a list name the flag of the value they refuse.
            let value = match test {
                SingleTest::Ranks(_) => value.context("--average-ranks"),
                SingleTest::Correct(_) => value.context("--pvalues"),
                _ => value.map_err(anyhow::Error::from),
            };
            (common, value?)
        }
    };
    if common.json {
        return Ok(format!("{}\n", serde_json::to_string_pretty(&value)?));
    }
    Ok(flatten(&value))
}

fn delong(args: &DelongArgs) -> Result<Value> {
    let alpha = args.common.alpha;
    check_alpha(alpha)?;
    let table = TextTable::read(&args.scores)?;
    let file = args.scores.display().to_string();
    if table.is_empty() {
        bail!("'{file}' has a header but no row of predictions");
    }
    let (truth, labels) = truth_column(&table, args.truth.as_deref())?;
    let truth_name = &table.header()[truth];
    let positive = positive_label(args.positive.as_deref(), &labels, &file, truth_name)?;
    let models: Vec<&String> = table.header().iter().filter(|n| *n != truth_name).collect();
    let (a, b) = two_columns(&file, "score", &models, &args.a, &args.b)?;
    let labels: Vec<bool> = table.texts(truth).iter().map(|l| *l == positive).collect();
    let first = table.numbers(table.column(&a)?, true)?;
    let second = table.numbers(table.column(&b)?, true)?;
    let input = DelongInput {
        file: &file,
        positive: &positive,
        models: [&a, &b],
        labels: &labels,
        scores: [&first, &second],
        bootstrap: (args.resamples, args.seed),
    };
    Ok(single_tests::delong(&input, alpha)?)
}

/// Every count flag of a single test within its documented range (`flag_ranges`), before any
/// work.
fn check_ranges(test: &SingleTest) -> Result<()> {
    use crate::flag_ranges::{check_count, check_sum, MAX_RESAMPLES};
    let exact = "untied comparisons the exact binomial test takes (its sums take time in \
                 proportion to the count)";
    let most = stats::MAX_EXACT_COUNT;
    match test {
        SingleTest::Delong(args) => {
            let resamples = args.resamples as u64;
            let what = "the bootstrap resamples";
            check_count("--resamples", resamples, 1, MAX_RESAMPLES as u64, what)
        }
        SingleTest::Mcnemar(args) => check_sum([("--b", args.b), ("--c", args.c)], most, exact),
        SingleTest::Binomial(args) => check_count("--trials", args.trials, 1, most, "trials"),
        SingleTest::Sign(args) => check_sum(
            [("--wins", args.wins), ("--losses", args.losses)],
            most,
            exact,
        ),
        SingleTest::AucInterval(args) => {
            let (m, n) = (args.positives as u64, args.negatives as u64);
            check_count("--positives", m, 1, u64::MAX, "the number of positives")?;
            check_count("--negatives", n, 1, u64::MAX, "the number of negatives")?;
            match args.errors {
                Some(errors) => {
                    let bound = stats::MAX_CORTES_MOHRI_INSTANCES as u64;
                    let why = "instances Cortes & Mohri's exact sums (--errors) take (their \
                               time grows with its square)";
                    check_sum([("--positives", m), ("--negatives", n)], bound, why)?;
                    let what = "errors (at most one per instance)";
                    check_count("--errors", errors as u64, 0, m + n, what)
                }
                None => Ok(()),
            }
        }
        SingleTest::Ranks(args) => {
            let k = args.average_ranks.len() as u64;
            let learners = stats::MAX_RANKED_LEARNERS as u64;
            check_count("--average-ranks", k, 2, learners, "the number of learners")?;
            let datasets = stats::MAX_RANKED_DATASETS as u64;
            check_count("--datasets", args.datasets as u64, 2, datasets, "datasets")
        }
        SingleTest::Correct(_) | SingleTest::Bootstrap(_) => Ok(()),
    }
}
