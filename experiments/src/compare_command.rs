//! `experiments compare FILE`: the paired tests between two learners' per-fold results, or,
//! when FILE is a table of results (a `dataset` column, or a Parquet file), the across-data-set
//! analysis (both computed and printed by `comparison::compare_file`, which gives the layouts
//! and the JSON); `experiments compare TEST ...`: one test from flags (`single_tests`).

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};
use clap::Args;
use comparison::across::{self, Settings};
use comparison::compare_file;
use comparison::flag_ranges::{check_compare_flags, check_hierarchical_flags, parse_fraction};
use comparison::leaderboard;
use comparison::{Choice, Layout, ResultsTable};
use data::TextTable;
use stats::FoldOptions;

use crate::single_tests::SingleTest;

/// Options of the `compare` subcommand.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct CompareArgs {
    /// One test from flags instead of a file.
    #[command(subcommand)]
    test: Option<SingleTest>,

    /// Per-fold CSV (one row per fold, one numeric column per learner, optional `repetition`,
    /// `fold`), or a results table, CSV or Parquet (long: dataset, learner, value; wide: a
    /// dataset column and one column per learner), for the across-data-set tests.
    #[arg(value_name = "FILE", required = true)]
    file: Option<PathBuf>,

    /// Print the results as one JSON object instead of a table.
    #[arg(long)]
    json: bool,

    /// Results table: print the leaderboard alone (mean rank, wins/ties/losses against the
    /// control, mean with a bootstrap interval, normalised score with --anchors), the one a
    /// run's report opens with; with --json `{"leaderboard": [...]}`.
    #[arg(long)]
    leaderboard: bool,

    /// With --leaderboard: print it as a Markdown table.
    #[arg(long, requires = "leaderboard", conflicts_with = "json")]
    markdown: bool,

    /// With --leaderboard: the two learners of AMLB's normalised score, LOW,HIGH (LOW scores
    /// 0 and HIGH 1 on every dataset, e.g. constant,c45).
    #[arg(long, value_name = "LOW,HIGH", requires = "leaderboard")]
    anchors: Option<String>,

    /// With --leaderboard: add the win-rate matrix (the share of datasets where one learner
    /// beats another, a tie one half).
    #[arg(long, requires = "leaderboard")]
    win_rate: bool,

    /// With --leaderboard: add Elo ratings (a Bradley-Terry fit on every two learners' battles
    /// on every dataset, as TabArena; the control at 1000) with bootstrap intervals.
    #[arg(long, requires = "leaderboard")]
    elo: bool,

    /// First learner's column (default: the first of exactly two learner columns).
    #[arg(long, value_name = "COLUMN")]
    a: Option<String>,

    /// Second learner's column (default: the second of exactly two learner columns).
    #[arg(long, value_name = "COLUMN")]
    b: Option<String>,

    /// n_test / n_train of one split, for the corrected resampled t-test, as a number or a
    /// fraction (1/9 for 10-fold CV); without it that test is skipped.
    #[arg(long, allow_negative_numbers = true, value_name = "F", value_parser = parse_fraction)]
    test_fraction: Option<f64>,

    /// Region of practical equivalence of the Bayesian correlated t-test, in the units of the
    /// columns (0 for none; finite, >= 0).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "R",
        default_value_t = 0.01
    )]
    rope: f64,

    /// Significance level of the frequentist tests, in (0, 1).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "ALPHA",
        default_value_t = 0.05
    )]
    alpha: f64,

    /// Use the continuity correction in the Wilcoxon test's normal approximation (off by
    /// default, as in scipy's `wilcoxon` and in a run's tests).
    #[arg(long)]
    wilcoxon_correction: bool,

    /// Results table: the learner Holm and Bonferroni-Dunn compare the others with (default:
    /// the first learner, as a run's `control`).
    #[arg(long, value_name = "LEARNER")]
    control: Option<String>,

    /// Results table: the measure to compare, when a `measure` column has several; also sets
    /// the direction (error, brier and log_loss: lower is better).
    #[arg(long, value_name = "NAME")]
    measure: Option<String>,

    /// Results table: the rows of this `part` (default `test` when the column has it).
    #[arg(long, value_name = "PART")]
    part: Option<String>,

    /// Results table: lower values are better (ranks, wins and the Bayesian test's sides).
    #[arg(long)]
    lower_is_better: bool,

    /// Results table: Monte Carlo samples of the Bayesian signed-rank test, 1 to 1000000.
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    samples: usize,

    /// Results table: seed from which each Monte Carlo part's seed (Bayesian signed-rank,
    /// Plackett-Luce, hierarchical) is derived with the measure and learner names (a run's
    /// `seed` gives its analysis' draws).
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    seed: u64,

    /// Results table: what to do with a missing result (an empty cell, or a dataset and learner
    /// without rows): skillings-mack (the complete-table tests on the complete datasets and the
    /// Skillings-Mack test on the whole table), drop-datasets or drop-learners.
    #[arg(long, value_name = "POLICY", default_value = "skillings-mack")]
    missing: String,

    /// Results table: the pairwise test whose decisions give the CD diagram's bars: wilcoxon,
    /// nemenyi, friedman-z, quade-t, quade-z or aligned-ranks-z.
    #[arg(long, value_name = "TEST", default_value = "wilcoxon")]
    cd_test: String,

    /// Results table: the adjustment of --cd-test's p-values: holm, bonferroni, hochberg,
    /// hommel, finner, li, shaffer or bergmann-hommel (ignored for nemenyi).
    #[arg(long, value_name = "ADJUSTMENT", default_value = "holm")]
    cd_adjustment: String,

    /// Long results table with several rows (folds) per dataset and learner: the correlation
    /// of the hierarchical Bayesian t-test (the test fraction, e.g. 1/10), as a number or a
    /// fraction; default 1 / the number of distinct values of a `fold` column, else the test
    /// is skipped.
    #[arg(long, value_name = "RHO", value_parser = parse_fraction)]
    correlation: Option<f64>,

    /// Long results table with folds: draws kept per chain (4 chains, a quarter as many
    /// warm-up) of the hierarchical test of every pair, 0 to 1000000; 0 skips it.
    #[arg(long, value_name = "N", default_value_t = comparison::across::HIERARCHICAL_SAMPLES)]
    hierarchical_samples: usize,
}

/// Runs the command: reads the file, runs every test that applies, prints a table or JSON.
pub fn run(args: &CompareArgs) -> Result<()> {
    check_compare_flags(args.alpha, args.rope, args.test_fraction, args.samples)?;
    let path = match (&args.test, &args.file) {
        (Some(test), _) => {
            return crate::output::print(crate::single_tests::run(test)?);
        }
        (None, Some(path)) => path,
        (None, None) => bail!("give a FILE or a test (see `compare --help`)"),
    };
    let table = comparison::read_table(path)?;
    // The header alone decides the kind (a `dataset` column): a typo in a cell is an error of
    // per-fold results, never a dataset name.
    match comparison::layout(&table) {
        Some(layout) => across(path, &table, layout, args),
        None => folds(path, &table, args),
    }
}

/// Refuses the first flag given (`true`): it applies only to `what`.
fn refuse(flags: &[(bool, &str)], what: &str) -> Result<()> {
    if let Some((_, flag)) = flags.iter().find(|(given, _)| *given) {
        bail!("{flag} applies to {what}");
    }
    Ok(())
}

/// The analysis settings the flags give for `results`.
fn settings(args: &CompareArgs, results: &ResultsTable) -> Result<Settings> {
    check_hierarchical_flags(args.hierarchical_samples, args.correlation)?;
    let missing = across::missing_policy(&args.missing).map_err(|e| anyhow!("--missing: {e}"))?;
    let cd_procedure = across::cd_procedure(&args.cd_test, &args.cd_adjustment)
        .map_err(|e| anyhow!("--cd-test / --cd-adjustment: {e}"))?;
    let from_folds = results.folds.filter(|&n| n >= 2).map(|n| 1.0 / n as f64);
    Ok(Settings {
        control: args.control.clone(),
        alpha: args.alpha,
        rope: args.rope,
        bayesian_samples: args.samples,
        wilcoxon_correction: args.wilcoxon_correction,
        seed: args.seed,
        missing,
        cd_procedure,
        correlation: args.correlation.or(from_folds),
        hierarchical_samples: args.hierarchical_samples,
    })
}

/// The across-data-set analysis of a table of results.
fn across(path: &Path, table: &TextTable, layout: Layout, args: &CompareArgs) -> Result<()> {
    let file = path.display().to_string();
    refuse(
        &[
            (args.a.is_some(), "--a"),
            (args.b.is_some(), "--b"),
            (args.test_fraction.is_some(), "--test-fraction"),
        ],
        &format!(
            "per-fold results; '{file}' is read as a results table (it has a dataset column) \
             for the across-data-set tests"
        ),
    )?;
    let engine = toolkit::engine();
    let choice = Choice {
        measure: args.measure.as_deref(),
        part: args.part.as_deref(),
        lower_is_better: args.lower_is_better,
        measures: &engine.registries.measures,
    };
    let results: ResultsTable = comparison::read_results(table, layout, choice)?;
    for note in &results.notes {
        eprintln!("note: {note}");
    }
    compare_file::check_learners(&file, &results)?;
    let settings = settings(args, &results)?;
    if args.leaderboard {
        return crate::output::print(leaderboard(&file, &results, &settings, args)?);
    }
    crate::output::print(compare_file::across_output(
        &file, &results, &settings, args.json,
    )?)
}

/// `--leaderboard`: the leaderboard of a results table in the format the flags ask for.
fn leaderboard(
    file: &str,
    results: &ResultsTable,
    settings: &Settings,
    args: &CompareArgs,
) -> Result<String> {
    let format = match (args.json, args.markdown) {
        (true, _) => leaderboard::Format::Json,
        (_, true) => leaderboard::Format::Markdown,
        _ => leaderboard::Format::Text,
    };
    let request = leaderboard::Request {
        anchors: args.anchors.clone(),
        win_rate: args.win_rate,
        elo: args.elo,
    };
    Ok(leaderboard::output(
        file, results, settings, &request, format,
    )?)
}

/// The paired tests of two learners' per-fold results.
fn folds(path: &Path, table: &TextTable, args: &CompareArgs) -> Result<()> {
    let file = path.display().to_string();
    refuse(
        &[
            (args.control.is_some(), "--control"),
            (args.measure.is_some(), "--measure"),
            (args.part.is_some(), "--part"),
            (args.lower_is_better, "--lower-is-better"),
            (args.correlation.is_some(), "--correlation"),
            (args.leaderboard, "--leaderboard"),
        ],
        &format!(
            "a results table (with a dataset column); '{file}' is read as per-fold results \
             (only numeric columns)"
        ),
    )?;
    let options = FoldOptions {
        alpha: args.alpha,
        test_fraction: args.test_fraction,
        rope: args.rope,
        wilcoxon_correction: args.wilcoxon_correction,
    };
    let columns = [args.a.as_deref(), args.b.as_deref()];
    let output = compare_file::folds_output(table, &file, columns, &options, args.json)?;
    crate::output::print(output)
}
