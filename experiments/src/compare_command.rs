//! `experiments compare FILE`: the paired tests between two learners' per-fold results, or,
//! when FILE is a results table (a `dataset` column, or a Parquet file), the across-data-set
//! tests (`across_command`); `experiments compare TEST ...`: one test from flags
//! (`single_tests`).
//!
//! Per-fold file layout (a CSV with a header row): one row per fold (or split), one numeric column per
//! learner, and optionally a `repetition` column (also spelt `rep` or `run`) and a `fold` column.
//! The repetition column gives the number of runs for the Bayesian correlated t-test; the 5x2cv
//! tests are computed when both columns are present and the file has exactly 10 rows: 5
//! repetition values x 2 fold values, each pair once (replication i = the i-th smallest
//! repetition value, fold j = the j-th smallest fold value).
//!
//! `--json` prints one object (d = a - b; floats: JSON numbers, or "inf", "-inf", "nan"; a test
//! that could not be computed is `null` and `notes` says why):
//! ```text
//! { file, a, b, n, runs, alpha, mean_a, mean_b,
//!   paired_t: T, corrected_t: T with test_train_ratio,
//!   T = { statistic, df, pvalue, mean_difference, variance_difference, variance_of_mean,
//!         critical_value, confidence_interval: [low, high], reject },
//!   wilcoxon: { r_plus, r_minus, statistic, n_used, n_zero, z (null when exact), exact, pvalue,
//!               mean_difference, reject },
//!   sign: { wins, ties, losses, n, pvalue, reject },
//!   cv5x2_t / cv5x2_f: { statistic, df, df_denominator (null for t), pvalue, mean_difference,
//!                        replication_variances: [5], reject },
//!   bayesian_correlated_t: { rope, runs, mean, variance, df, probability_a_better,
//!                            probability_rope, probability_b_better },
//!   notes: [text] }
//! ```

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use engine::{PairedTest, TestOptions};
use report::{Cell, Table};
use serde::Serialize;
use stats::{
    correlated_bayesian_t_test, cv5x2_f_test, cv5x2_t_test, AcrossDatasetsOptions,
    CorrelatedTTestResult, Cv5x2Result, SignTestResult, TTestResult, WilcoxonResult,
};

use crate::across_command;
use crate::roc_command::JsonFloat;
use crate::single_tests::SingleTest;
use crate::table_input::CsvTable;

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

    /// First learner's column (default: the first of exactly two learner columns).
    #[arg(long, value_name = "COLUMN")]
    a: Option<String>,

    /// Second learner's column (default: the second of exactly two learner columns).
    #[arg(long, value_name = "COLUMN")]
    b: Option<String>,

    /// n_test / n_train of one split, for the corrected resampled t-test, as a number or a
    /// fraction (1/9 for 10-fold CV); without it that test is skipped.
    #[arg(long, value_name = "F", value_parser = parse_fraction)]
    test_fraction: Option<f64>,

    /// Region of practical equivalence of the Bayesian correlated t-test, in the units of the
    /// columns (0 for none).
    #[arg(long, value_name = "R", default_value_t = 0.01)]
    rope: f64,

    /// Significance level of the frequentist tests.
    #[arg(long, value_name = "ALPHA", default_value_t = 0.05)]
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

    /// Results table: Monte Carlo samples of the Bayesian signed-rank test.
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    samples: usize,

    /// Results table: seed from which each pair's Bayesian signed-rank Monte Carlo seed is
    /// derived with the measure and learner names (a run's `seed` gives its analysis' draws).
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    seed: u64,
}

/// The two columns `--a` and `--b` name, or the only two of `columns` when neither is given;
/// the error names the file and lists the `kind` columns it has.
pub(crate) fn two_columns(
    file: &str,
    kind: &str,
    columns: &[&String],
    a: &Option<String>,
    b: &Option<String>,
) -> Result<(String, String)> {
    let listed = columns
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    match (a, b) {
        (Some(a), Some(b)) => Ok((a.clone(), b.clone())),
        (None, None) if columns.len() == 2 => Ok((columns[0].clone(), columns[1].clone())),
        (None, None) => bail!(
            "'{file}' has {} {kind} columns ({listed}): choose two with --a COLUMN --b COLUMN",
            columns.len()
        ),
        _ => bail!("give both --a and --b ({kind} columns of '{file}': {listed})"),
    }
}

/// Reads a number such as `0.25` or a fraction such as `1/9`.
fn parse_fraction(text: &str) -> Result<f64, String> {
    let number = |part: &str| {
        part.trim()
            .parse::<f64>()
            .map_err(|_| format!("'{text}' is not a number or a fraction such as 1/9"))
    };
    match text.split_once('/') {
        Some((numerator, denominator)) => Ok(number(numerator)? / number(denominator)?),
        None => number(text),
    }
}

/// Column names read as the repetition index.
const REPETITION_COLUMNS: [&str; 3] = ["repetition", "rep", "run"];
/// Column name read as the fold index.
const FOLD_COLUMN: &str = "fold";

fn is_index_column(name: &str) -> bool {
    REPETITION_COLUMNS
        .iter()
        .chain(std::iter::once(&FOLD_COLUMN))
        .any(|reserved| name.eq_ignore_ascii_case(reserved))
}

fn find_ignoring_case(table: &CsvTable, names: &[&str]) -> Option<usize> {
    table
        .header()
        .iter()
        .position(|column| names.iter().any(|n| column.eq_ignore_ascii_case(n)))
}

/// Distinct values in increasing order.
fn sorted_distinct(values: &[f64]) -> Vec<f64> {
    let mut distinct = values.to_vec();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    distinct
}

/// Runs the command: reads the file, runs every test that applies, prints a table or JSON.
pub fn run(args: &CompareArgs) -> Result<()> {
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        bail!("--alpha {} is out of range: must be in (0, 1)", args.alpha);
    }
    if !(args.rope.is_finite() && args.rope >= 0.0) {
        bail!(
            "--rope {} is out of range: must be finite and >= 0",
            args.rope
        );
    }
    if let Some(fraction) = args.test_fraction {
        if !(fraction.is_finite() && fraction > 0.0) {
            bail!("--test-fraction {fraction} is out of range: must be n_test / n_train, finite and > 0");
        }
    }
    let path = match (&args.test, &args.file) {
        (Some(test), _) => {
            print!("{}", crate::single_tests::run(test)?);
            return Ok(());
        }
        (None, Some(path)) => path,
        (None, None) => bail!("give a FILE or a test (see `compare --help`)"),
    };
    let table = CsvTable::read_csv_or_parquet(path)?;
    let shown = path.display().to_string();
    if let Some(layout) = across_command::layout(&table) {
        for (given, flag) in [
            (args.a.is_some(), "--a"),
            (args.b.is_some(), "--b"),
            (args.test_fraction.is_some(), "--test-fraction"),
        ] {
            if given {
                bail!(
                    "{flag} applies to per-fold results; '{shown}' is read as a results table \
                     (it has a dataset column) for the across-data-set tests"
                );
            }
        }
        let table_options = across_command::TableOptions {
            measure: args.measure.as_deref(),
            part: args.part.as_deref(),
        };
        // The direction follows the measure once the table is read (see across_command::run).
        let options = AcrossDatasetsOptions {
            control: args.control.clone(),
            alpha: args.alpha,
            rope: args.rope,
            bayesian_samples: args.samples,
            wilcoxon_correction: args.wilcoxon_correction,
            seed: args.seed,
            ..AcrossDatasetsOptions::default()
        };
        print!(
            "{}",
            across_command::run(
                path,
                &table,
                &layout,
                &table_options,
                options,
                args.lower_is_better,
                args.json
            )?
        );
        return Ok(());
    }
    for (given, flag) in [
        (args.control.is_some(), "--control"),
        (args.measure.is_some(), "--measure"),
        (args.part.is_some(), "--part"),
        (args.lower_is_better, "--lower-is-better"),
    ] {
        if given {
            bail!(
                "{flag} applies to a results table (with a dataset column); '{shown}' is read as \
                 per-fold results (only numeric columns)"
            );
        }
    }
    let learners: Vec<&String> = table
        .header()
        .iter()
        .filter(|name| !is_index_column(name))
        .collect();
    let (name_a, name_b) = two_columns(&shown, "learner", &learners, &args.a, &args.b)?;
    let column_a = table.column(&name_a)?;
    let column_b = table.column(&name_b)?;
    if table.is_empty() {
        bail!("'{shown}' has a header but no row of results");
    }
    let a = table.numbers(column_a, false)?;
    let b = table.numbers(column_b, false)?;
    let repetition = match find_ignoring_case(&table, &REPETITION_COLUMNS) {
        Some(column) => Some(table.numbers(column, false)?),
        None => None,
    };
    let fold = match find_ignoring_case(&table, &[FOLD_COLUMN]) {
        Some(column) => Some(table.numbers(column, false)?),
        None => None,
    };
    let results = Comparison::compute(args, &a, &b, repetition.as_deref(), fold.as_deref());
    if args.json {
        let report = results.to_json(&shown, &name_a, &name_b);
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", results.to_text(&shown, &name_a, &name_b)?);
    }
    Ok(())
}

/// Every test's result (or why it was not computed).
struct Comparison {
    n: usize,
    alpha: f64,
    rope: f64,
    test_fraction: Option<f64>,
    runs: usize,
    mean_a: f64,
    mean_b: f64,
    paired_t: Option<TTestResult>,
    corrected_t: Option<TTestResult>,
    wilcoxon: Option<WilcoxonResult>,
    sign: Option<SignTestResult>,
    cv5x2_t: Option<Cv5x2Result>,
    cv5x2_f: Option<Cv5x2Result>,
    bayesian: Option<CorrelatedTTestResult>,
    notes: Vec<String>,
}

/// Keeps a test's result, or records why it failed.
fn keep<T, E: std::fmt::Display>(
    notes: &mut Vec<String>,
    test: &str,
    result: Result<T, E>,
) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(error) => {
            notes.push(format!("{test}: not computed: {error}"));
            None
        }
    }
}

/// The 5x2 matrix of differences when the rows are 5 repetitions x 2 folds, or why not.
fn five_by_two(
    differences: &[f64],
    repetition: Option<&[f64]>,
    fold: Option<&[f64]>,
) -> Result<[[f64; 2]; 5], String> {
    let (Some(repetition), Some(fold)) = (repetition, fold) else {
        return Err("needs a repetition column and a fold column".to_string());
    };
    if differences.len() != 10 {
        return Err(format!(
            "needs 10 rows (5 repetitions x 2 folds), the file has {}",
            differences.len()
        ));
    }
    let repetitions = sorted_distinct(repetition);
    let folds = sorted_distinct(fold);
    if repetitions.len() != 5 || folds.len() != 2 {
        return Err(format!(
            "needs 5 repetition values x 2 fold values, the file has {} x {}",
            repetitions.len(),
            folds.len()
        ));
    }
    let mut matrix = [[f64::NAN; 2]; 5];
    for row in 0..10 {
        let i = repetitions
            .iter()
            .position(|&r| r == repetition[row])
            .expect("a value");
        let j = folds.iter().position(|&f| f == fold[row]).expect("a value");
        if !matrix[i][j].is_nan() {
            return Err(format!(
                "repetition {} fold {} appears twice",
                repetition[row], fold[row]
            ));
        }
        matrix[i][j] = differences[row];
    }
    Ok(matrix)
}

/// `compare --json`: every test between columns a and b (`null` when not computed; `notes` say why).
#[derive(Serialize)]
struct CompareReport<'a> {
    file: &'a str,
    a: &'a str,
    b: &'a str,
    n: usize,
    runs: usize,
    alpha: f64,
    mean_a: JsonFloat,
    mean_b: JsonFloat,
    paired_t: Option<TTestJson>,
    corrected_t: Option<TTestJson>,
    wilcoxon: Option<WilcoxonJson>,
    sign: Option<SignJson>,
    cv5x2_t: Option<Cv5x2Json>,
    cv5x2_f: Option<Cv5x2Json>,
    bayesian_correlated_t: Option<BayesianJson>,
    notes: &'a [String],
}

#[derive(Serialize)]
struct TTestJson {
    statistic: JsonFloat,
    df: JsonFloat,
    pvalue: JsonFloat,
    mean_difference: JsonFloat,
    variance_difference: JsonFloat,
    variance_of_mean: JsonFloat,
    critical_value: JsonFloat,
    confidence_interval: [JsonFloat; 2],
    reject: bool,
    /// n_test / n_train (corrected test only).
    #[serde(skip_serializing_if = "Option::is_none")]
    test_train_ratio: Option<JsonFloat>,
}

#[derive(Serialize)]
struct WilcoxonJson {
    r_plus: JsonFloat,
    r_minus: JsonFloat,
    statistic: JsonFloat,
    n_used: usize,
    n_zero: usize,
    z: Option<JsonFloat>,
    exact: bool,
    pvalue: JsonFloat,
    mean_difference: JsonFloat,
    reject: bool,
}

#[derive(Serialize)]
struct SignJson {
    wins: u64,
    ties: u64,
    losses: u64,
    n: u64,
    pvalue: JsonFloat,
    reject: bool,
}

#[derive(Serialize)]
struct Cv5x2Json {
    statistic: JsonFloat,
    df: JsonFloat,
    df_denominator: Option<JsonFloat>,
    pvalue: JsonFloat,
    mean_difference: JsonFloat,
    replication_variances: [JsonFloat; 5],
    reject: bool,
}

#[derive(Serialize)]
struct BayesianJson {
    rope: JsonFloat,
    runs: usize,
    mean: JsonFloat,
    variance: JsonFloat,
    df: JsonFloat,
    probability_a_better: JsonFloat,
    probability_rope: JsonFloat,
    probability_b_better: JsonFloat,
}

impl Comparison {
    fn compute(
        args: &CompareArgs,
        a: &[f64],
        b: &[f64],
        repetition: Option<&[f64]>,
        fold: Option<&[f64]>,
    ) -> Comparison {
        let n = a.len();
        let mut notes = Vec::new();
        let alpha = args.alpha;
        let options = TestOptions {
            alpha,
            sizes: args.test_fraction.map(|fraction| (1.0, fraction)),
            wilcoxon_correction: args.wilcoxon_correction,
        };
        let paired_t = keep(
            &mut notes,
            "paired t-test",
            PairedTest::PairedT.run(a, b, &options),
        )
        .and_then(|outcome| outcome.into_t());
        let corrected_t = match args.test_fraction {
            Some(_) => keep(
                &mut notes,
                "corrected resampled t-test",
                PairedTest::CorrectedT.run(a, b, &options),
            )
            .and_then(|outcome| outcome.into_t()),
            None => {
                notes.push(
                    "corrected resampled t-test: not computed: give --test-fraction \
                     (n_test / n_train of one split)"
                        .to_string(),
                );
                None
            }
        };
        let wilcoxon = keep(
            &mut notes,
            "Wilcoxon signed-rank test",
            PairedTest::Wilcoxon.run(a, b, &options),
        )
        .and_then(|outcome| outcome.into_wilcoxon());
        let sign = keep(
            &mut notes,
            "sign test",
            PairedTest::Sign.run(a, b, &options),
        )
        .and_then(|outcome| outcome.into_sign());
        let differences: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
        let (cv5x2_t, cv5x2_f) = match five_by_two(&differences, repetition, fold) {
            Ok(matrix) => (
                keep(&mut notes, "5x2cv t-test", cv5x2_t_test(&matrix, alpha)),
                keep(&mut notes, "5x2cv F-test", cv5x2_f_test(&matrix, alpha)),
            ),
            Err(reason) => {
                notes.push(format!("5x2cv t and F tests: not computed: {reason}"));
                (None, None)
            }
        };
        let runs = repetition.map_or(1, |r| sorted_distinct(r).len());
        let bayesian = keep(
            &mut notes,
            "Bayesian correlated t-test",
            correlated_bayesian_t_test(a, b, args.rope, runs),
        );
        let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
        Comparison {
            n,
            alpha,
            rope: args.rope,
            test_fraction: args.test_fraction,
            runs,
            mean_a: mean(a),
            mean_b: mean(b),
            paired_t,
            corrected_t,
            wilcoxon,
            sign,
            cv5x2_t,
            cv5x2_f,
            bayesian,
            notes,
        }
    }

    fn to_json<'a>(&'a self, file: &'a str, a: &'a str, b: &'a str) -> CompareReport<'a> {
        let t_json = |t: &TTestResult, ratio: Option<f64>| TTestJson {
            statistic: JsonFloat(t.statistic),
            df: JsonFloat(t.df),
            pvalue: JsonFloat(t.pvalue),
            mean_difference: JsonFloat(t.mean_difference),
            variance_difference: JsonFloat(t.variance_difference),
            variance_of_mean: JsonFloat(t.variance_of_mean),
            critical_value: JsonFloat(t.critical_value),
            confidence_interval: [
                JsonFloat(t.confidence_interval.low),
                JsonFloat(t.confidence_interval.high),
            ],
            reject: t.reject,
            test_train_ratio: ratio.map(JsonFloat),
        };
        let cv_json = |r: &Cv5x2Result| Cv5x2Json {
            statistic: JsonFloat(r.statistic),
            df: JsonFloat(r.df),
            df_denominator: r.df_denominator.map(JsonFloat),
            pvalue: JsonFloat(r.pvalue),
            mean_difference: JsonFloat(r.mean_difference),
            replication_variances: r.replication_variances.map(JsonFloat),
            reject: r.reject,
        };
        CompareReport {
            file,
            a,
            b,
            n: self.n,
            runs: self.runs,
            alpha: self.alpha,
            mean_a: JsonFloat(self.mean_a),
            mean_b: JsonFloat(self.mean_b),
            paired_t: self.paired_t.as_ref().map(|t| t_json(t, None)),
            corrected_t: self
                .corrected_t
                .as_ref()
                .map(|t| t_json(t, self.test_fraction)),
            wilcoxon: self.wilcoxon.as_ref().map(|w| WilcoxonJson {
                r_plus: JsonFloat(w.r_plus),
                r_minus: JsonFloat(w.r_minus),
                statistic: JsonFloat(w.statistic),
                n_used: w.n_used,
                n_zero: w.n_zero,
                z: w.z.map(JsonFloat),
                exact: w.exact,
                pvalue: JsonFloat(w.pvalue),
                mean_difference: JsonFloat(w.mean_difference),
                reject: w.reject,
            }),
            sign: self.sign.as_ref().map(|s| SignJson {
                wins: s.wins,
                ties: s.ties,
                losses: s.losses,
                n: s.n,
                pvalue: JsonFloat(s.pvalue),
                reject: s.reject,
            }),
            cv5x2_t: self.cv5x2_t.as_ref().map(cv_json),
            cv5x2_f: self.cv5x2_f.as_ref().map(cv_json),
            bayesian_correlated_t: self.bayesian.as_ref().map(|r| BayesianJson {
                rope: JsonFloat(self.rope),
                runs: self.runs,
                mean: JsonFloat(r.mean),
                variance: JsonFloat(r.variance),
                df: JsonFloat(r.df),
                probability_a_better: JsonFloat(r.probabilities.right),
                probability_rope: JsonFloat(r.probabilities.rope),
                probability_b_better: JsonFloat(r.probabilities.left),
            }),
            notes: &self.notes,
        }
    }

    fn to_text(&self, file: &str, a: &str, b: &str) -> Result<String> {
        let mut out = format!(
            "{file}: {} paired results ({} run(s)); mean of {a} = {:.4}, mean of {b} = {:.4}, \
             mean difference {a} - {b} = {:.4}\n\n",
            self.n,
            self.runs,
            self.mean_a,
            self.mean_b,
            self.mean_a - self.mean_b
        );
        let mut table = Table::new(
            format!(
                "Paired tests of {a} against {b} (d = {a} - {b}, alpha = {})",
                self.alpha
            ),
            ["test", "statistic", "df", "p-value", "decision"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        );
        table.decimals = 4;
        let decision = |reject: bool| {
            Cell::text(if reject {
                "significant difference"
            } else {
                "no significant difference"
            })
        };
        let p_cell = |p: f64| Cell::number(p).with_decimals(if p < 1e-4 { 8 } else { 4 });
        if let Some(t) = &self.paired_t {
            table.push_row(vec![
                Cell::text("paired t"),
                Cell::number(t.statistic),
                Cell::number(t.df).with_decimals(0),
                p_cell(t.pvalue),
                decision(t.reject),
            ]);
        }
        if let Some(t) = &self.corrected_t {
            table.push_row(vec![
                Cell::text(format!(
                    "corrected resampled t (n_test/n_train = {})",
                    self.test_fraction.unwrap_or(f64::NAN)
                )),
                Cell::number(t.statistic),
                Cell::number(t.df).with_decimals(0),
                p_cell(t.pvalue),
                decision(t.reject),
            ]);
        }
        if let Some(w) = &self.wilcoxon {
            table.push_row(vec![
                Cell::text(format!(
                    "Wilcoxon signed-rank (R+ = {}, R- = {}, {})",
                    w.r_plus,
                    w.r_minus,
                    if w.exact {
                        "exact"
                    } else {
                        "normal approximation"
                    }
                )),
                Cell::number(w.statistic),
                Cell::integer(w.n_used as i64),
                p_cell(w.pvalue),
                decision(w.reject),
            ]);
        }
        if let Some(s) = &self.sign {
            table.push_row(vec![
                Cell::text(format!(
                    "sign (wins/ties/losses of {a}: {}/{}/{})",
                    s.wins, s.ties, s.losses
                )),
                Cell::integer(s.wins as i64),
                Cell::integer(s.n as i64),
                p_cell(s.pvalue),
                decision(s.reject),
            ]);
        }
        if let Some(t) = &self.cv5x2_t {
            table.push_row(vec![
                Cell::text("5x2cv t (Dietterich)"),
                Cell::number(t.statistic),
                Cell::number(t.df).with_decimals(0),
                p_cell(t.pvalue),
                decision(t.reject),
            ]);
        }
        if let Some(f) = &self.cv5x2_f {
            table.push_row(vec![
                Cell::text("5x2cv F (Alpaydin)"),
                Cell::number(f.statistic),
                Cell::text(format!(
                    "{}, {}",
                    f.df,
                    f.df_denominator.unwrap_or(f64::NAN)
                )),
                p_cell(f.pvalue),
                decision(f.reject),
            ]);
        }
        table.push_note(
            "df of the Wilcoxon test: the number of non-zero differences ranked; of the sign \
             test: the number of untied pairs (its statistic is the wins).",
        );
        out.push_str(&table.to_markdown()?);
        if let Some(r) = &self.bayesian {
            out.push_str(&format!(
                "\nBayesian correlated t-test (rope {}, {} run(s)): P({a} better) = {:.4}, \
                 P(practically equivalent) = {:.4}, P({b} better) = {:.4}\n",
                self.rope,
                self.runs,
                r.probabilities.right,
                r.probabilities.rope,
                r.probabilities.left
            ));
        }
        for note in &self.notes {
            out.push_str(&format!("\nNote: {note}"));
        }
        if !self.notes.is_empty() {
            out.push('\n');
        }
        Ok(out)
    }
}
