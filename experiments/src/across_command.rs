//! `experiments compare TABLE`: the across-data-set tests on a results table (one value per
//! dataset and learner), computed by `stats::across_datasets::compare`, the same function a
//! run's across-data-set analysis calls.
//!
//! Layouts (CSV, or Parquet when the name ends in `.parquet`; column names are matched without
//! regard to case):
//! - long: columns `dataset`, `learner`, `value`, optionally `measure` (choose one with
//!   `--measure` when there are several) and `part` (rows of `--part`, default `test`, are
//!   kept); several rows of one (dataset, learner), such as the folds of a run's
//!   `per_fold.csv` or `per_fold.parquet`, are averaged; any other column is ignored;
//! - wide: a `dataset` column (or a first column that is not numeric) naming the datasets, and
//!   one numeric column per learner.
//!
//! `--json` prints `{ file, measure, higher_is_better, datasets: [name], matrix: [[value]],
//! rows_averaged, result }` where `result` is `stats::AcrossDatasetsResult` serialised: learners,
//! n_datasets, options, ranks, average_ranks, means, friedman, nemenyi, control,
//! sign_test_critical_wins and pairs (each field documented in crates/stats/src/across_datasets.rs);
//! non-finite floats are the strings "inf", "-inf", "nan".

use std::path::Path;

use anyhow::{bail, Result};
use report::{Cell, Table};
use serde::Serialize;
use stats::{AcrossDatasetsOptions, AcrossDatasetsResult, ControlChoice};

use crate::table_input::CsvTable;

/// Column names (any case) of the long layout.
const DATASET_COLUMNS: [&str; 3] = ["dataset", "data set", "data_set"];
const LEARNER_COLUMNS: [&str; 1] = ["learner"];
const VALUE_COLUMNS: [&str; 1] = ["value"];
const MEASURE_COLUMNS: [&str; 1] = ["measure"];
const PART_COLUMNS: [&str; 1] = ["part"];

fn find(table: &CsvTable, names: &[&str]) -> Option<usize> {
    table
        .header()
        .iter()
        .position(|column| names.iter().any(|name| column.eq_ignore_ascii_case(name)))
}

/// How a results table is laid out.
pub(crate) enum Layout {
    /// One row per (dataset, learner[, fold ...]) with a value column.
    Long {
        dataset: usize,
        learner: usize,
        value: usize,
        measure: Option<usize>,
        part: Option<usize>,
    },
    /// One row per dataset, one column per learner.
    Wide { dataset: usize },
}

/// The layout of a results table, or `None` for a per-fold file (only numeric columns).
pub(crate) fn layout(table: &CsvTable) -> Option<Layout> {
    let dataset = find(table, &DATASET_COLUMNS);
    if let (Some(dataset), Some(learner), Some(value)) = (
        dataset,
        find(table, &LEARNER_COLUMNS),
        find(table, &VALUE_COLUMNS),
    ) {
        return Some(Layout::Long {
            dataset,
            learner,
            value,
            measure: find(table, &MEASURE_COLUMNS),
            part: find(table, &PART_COLUMNS),
        });
    }
    if let Some(dataset) = dataset {
        return Some(Layout::Wide { dataset });
    }
    let first_is_text = !table.header().is_empty()
        && table
            .texts(0)
            .iter()
            .any(|cell| cell.parse::<f64>().is_err());
    first_is_text.then_some(Layout::Wide { dataset: 0 })
}

/// What the across-data-set tests read from a results table.
pub(crate) struct Matrix {
    /// Dataset names, in order of first appearance.
    pub datasets: Vec<String>,
    /// Learner names, in order of first appearance.
    pub learners: Vec<String>,
    /// `values[dataset][learner]`.
    pub values: Vec<Vec<f64>>,
    /// The measure the values are of, when the table says or `--measure` names it.
    pub measure: Option<String>,
    /// Rows of the table averaged into the matrix.
    pub rows_averaged: usize,
}

/// The options of `compare` that apply to a results table.
pub(crate) struct TableOptions<'a> {
    pub measure: Option<&'a str>,
    pub part: Option<&'a str>,
}

fn number(table: &CsvTable, row: usize, column: usize, cell: &str) -> Result<f64> {
    let place = || {
        format!(
            "{}:{}, column '{}'",
            table.path().display(),
            table.line_of(row),
            table.header()[column]
        )
    };
    if cell.is_empty() {
        bail!("{}: the cell is empty, expected a number", place());
    }
    match cell.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(value),
        _ => bail!("{}: '{cell}' is not a finite number", place()),
    }
}

/// The one value of `column` that rows must have: `wanted`, else `default` when it occurs,
/// else the only value; the error names the column, its values and the flag to give.
fn choose(
    table: &CsvTable,
    column: usize,
    wanted: Option<&str>,
    default: Option<&str>,
    flag: &str,
) -> Result<String> {
    let mut values: Vec<&str> = Vec::new();
    for cell in table.texts(column) {
        if !values.contains(&cell) {
            values.push(cell);
        }
    }
    let name = &table.header()[column];
    let listed = values.join(", ");
    match wanted {
        Some(wanted) if values.contains(&wanted) => Ok(wanted.to_string()),
        Some(wanted) => bail!(
            "{flag} {wanted}: '{}' has no such value in column '{name}' (its values: {listed})",
            table.path().display()
        ),
        None => match default {
            Some(default) if values.contains(&default) => Ok(default.to_string()),
            _ if values.len() == 1 => Ok(values[0].to_string()),
            _ => bail!(
                "'{}' has several values in column '{name}' ({listed}): choose one with {flag}",
                table.path().display()
            ),
        },
    }
}

/// Reads a results table into a datasets x learners matrix.
pub(crate) fn read_matrix(
    table: &CsvTable,
    layout: &Layout,
    options: &TableOptions,
) -> Result<Matrix> {
    let shown = table.path().display().to_string();
    if table.is_empty() {
        bail!("'{shown}' has a header but no row of results");
    }
    match *layout {
        Layout::Wide { dataset } => {
            if options.part.is_some() {
                bail!("--part applies to a long table with a 'part' column; '{shown}' is a wide table (one column per learner)");
            }
            let learners: Vec<usize> = (0..table.header().len())
                .filter(|&column| column != dataset)
                .collect();
            let names = table.texts(dataset);
            let mut values = Vec::new();
            let mut datasets: Vec<String> = Vec::new();
            for (row, name) in names.iter().enumerate() {
                if name.is_empty() {
                    bail!("{shown}:{}: the dataset name is empty", table.line_of(row));
                }
                if datasets.iter().any(|known| known == name) {
                    bail!(
                        "{shown}:{}: dataset '{name}' appears twice (one row per dataset in a \
                         wide table)",
                        table.line_of(row)
                    );
                }
                datasets.push(name.to_string());
                let cells = learners
                    .iter()
                    .map(|&column| number(table, row, column, table.texts(column)[row]))
                    .collect::<Result<Vec<f64>>>()?;
                values.push(cells);
            }
            Ok(Matrix {
                datasets,
                learners: learners
                    .iter()
                    .map(|&column| table.header()[column].clone())
                    .collect(),
                values,
                measure: options.measure.map(str::to_string),
                rows_averaged: table.len(),
            })
        }
        Layout::Long {
            dataset,
            learner,
            value,
            measure,
            part,
        } => {
            let measure_value = match measure {
                Some(column) => Some(choose(table, column, options.measure, None, "--measure")?),
                None => None,
            };
            let part_value = match part {
                Some(column) => Some(choose(table, column, options.part, Some("test"), "--part")?),
                None if options.part.is_some() => {
                    bail!("--part: '{shown}' has no 'part' column")
                }
                None => None,
            };
            let datasets_text = table.texts(dataset);
            let learners_text = table.texts(learner);
            let values_text = table.texts(value);
            let mut datasets: Vec<String> = Vec::new();
            let mut learners: Vec<String> = Vec::new();
            let mut sums: Vec<((usize, usize), f64, usize)> = Vec::new();
            let mut rows_averaged = 0;
            for row in 0..table.len() {
                let keep = |column: Option<usize>, wanted: &Option<String>| match (column, wanted) {
                    (Some(column), Some(wanted)) => table.texts(column)[row] == wanted.as_str(),
                    _ => true,
                };
                if !keep(measure, &measure_value) || !keep(part, &part_value) {
                    continue;
                }
                let (dataset_name, learner_name) = (datasets_text[row], learners_text[row]);
                for (name, what) in [(dataset_name, "dataset"), (learner_name, "learner")] {
                    if name.is_empty() {
                        bail!("{shown}:{}: the {what} name is empty", table.line_of(row));
                    }
                }
                let value = number(table, row, value, values_text[row])?;
                let index = |names: &mut Vec<String>, name: &str| match names
                    .iter()
                    .position(|known| known == name)
                {
                    Some(index) => index,
                    None => {
                        names.push(name.to_string());
                        names.len() - 1
                    }
                };
                let key = (
                    index(&mut datasets, dataset_name),
                    index(&mut learners, learner_name),
                );
                match sums.iter_mut().find(|(known, _, _)| *known == key) {
                    Some((_, sum, count)) => {
                        *sum += value;
                        *count += 1;
                    }
                    None => sums.push((key, value, 1)),
                }
                rows_averaged += 1;
            }
            let mut values = vec![vec![f64::NAN; learners.len()]; datasets.len()];
            for ((d, l), sum, count) in sums {
                values[d][l] = sum / count as f64;
            }
            for (d, row) in values.iter().enumerate() {
                if let Some(l) = row.iter().position(|v| v.is_nan()) {
                    bail!(
                        "'{shown}' has no value for dataset '{}' and learner '{}': every \
                         dataset needs a value for every learner",
                        datasets[d],
                        learners[l]
                    );
                }
            }
            Ok(Matrix {
                datasets,
                learners,
                values,
                measure: measure_value.or_else(|| options.measure.map(str::to_string)),
                rows_averaged,
            })
        }
    }
}

/// `compare TABLE --json`.
#[derive(Serialize)]
struct Report<'a> {
    file: &'a str,
    measure: Option<&'a str>,
    higher_is_better: bool,
    datasets: &'a [String],
    matrix: &'a [Vec<f64>],
    rows_averaged: usize,
    result: &'a AcrossDatasetsResult,
}

/// Whether higher values are better: false with `--lower-is-better`, else the measure's own
/// direction when the engine knows it, else true.
fn higher_is_better(measure: Option<&str>, lower_flag: bool) -> bool {
    if lower_flag {
        return false;
    }
    !measure
        .and_then(engine::Measure::from_name)
        .is_some_and(|measure| measure.lower_is_better())
}

/// Runs the across-data-set tests on a results table and returns the text or JSON to print;
/// `options.higher_is_better` is set from `lower_is_better` and the table's measure, and
/// `options.measure` (part of each pair's Bayesian seed) to the table's measure, so that a
/// run's `per_fold` file gives the numbers of the run's `across_datasets` analysis.
pub(crate) fn run(
    path: &Path,
    table: &CsvTable,
    layout: &Layout,
    table_options: &TableOptions,
    mut options: AcrossDatasetsOptions,
    lower_is_better: bool,
    json: bool,
) -> Result<String> {
    let shown = path.display().to_string();
    let matrix = read_matrix(table, layout, table_options)?;
    options.higher_is_better = higher_is_better(matrix.measure.as_deref(), lower_is_better);
    options.measure = matrix.measure.clone().unwrap_or_default();
    let result = stats::across_datasets::compare(&matrix.values, &matrix.learners, &options)
        .map_err(|error| anyhow::anyhow!("'{shown}': {error}"))?;
    if json {
        let report = Report {
            file: &shown,
            measure: matrix.measure.as_deref(),
            higher_is_better: options.higher_is_better,
            datasets: &matrix.datasets,
            matrix: &matrix.values,
            rows_averaged: matrix.rows_averaged,
            result: &result,
        };
        return Ok(format!("{}\n", serde_json::to_string_pretty(&report)?));
    }
    text(&shown, &matrix, &result)
}

fn p_cell(p: f64) -> Cell {
    Cell::number(p).with_decimals(if p < 1e-4 { 8 } else { 4 })
}

fn yes_no(reject: bool) -> Cell {
    if reject {
        Cell::text("differ").bold()
    } else {
        Cell::text("no difference")
    }
}

/// The text report: ranks, Friedman, Nemenyi, the control comparisons and every pair.
fn text(file: &str, matrix: &Matrix, result: &AcrossDatasetsResult) -> Result<String> {
    let options = &result.options;
    let direction = if options.higher_is_better {
        "higher is better"
    } else {
        "lower is better"
    };
    let mut out = format!(
        "{file}: {} datasets x {} learners{}, {direction}; alpha = {}, rope = {}\n\n",
        result.n_datasets,
        result.learners.len(),
        matrix
            .measure
            .as_deref()
            .map_or(String::new(), |measure| format!(" ({measure})")),
        options.alpha,
        options.rope
    );
    let mut ranks = Table::new(
        "Average rank of each learner (1 = best)",
        ["learner", "mean value", "average rank"]
            .map(String::from)
            .to_vec(),
    );
    for (index, learner) in result.learners.iter().enumerate() {
        ranks.push_row(vec![
            Cell::text(learner),
            Cell::number(result.means[index]).with_decimals(4),
            Cell::number(result.average_ranks[index]).with_decimals(3),
        ]);
    }
    out.push_str(&ranks.to_markdown()?);
    let friedman = &result.friedman;
    out.push_str(&format!(
        "\nFriedman chi-square = {:.4} (tie-corrected; {:.4} without the tie term), df = {}, \
         p = {:.6}\nIman-Davenport F = {:.4}, df = ({}, {}), p = {:.6}: {}\n",
        friedman.chi_square,
        friedman.chi_square_uncorrected,
        friedman.df,
        friedman.pvalue,
        friedman.iman_davenport_f,
        friedman.iman_davenport_df.0,
        friedman.iman_davenport_df.1,
        friedman.iman_davenport_pvalue,
        if friedman.reject {
            "the learners differ"
        } else {
            "no difference among the learners"
        }
    ));
    let nemenyi = &result.nemenyi;
    out.push_str(&format!(
        "Nemenyi: q = {:.4}, critical difference = {:.4}{}\n",
        nemenyi.q,
        nemenyi.critical_difference,
        nemenyi
            .critical_difference_demsar_table
            .map_or(String::new(), |cd| format!(
                " ({cd:.4} with Demsar's Table 5(a) q)"
            ))
    ));
    if nemenyi.groups.is_empty() {
        out.push_str("  every two learners differ by at least the critical difference\n");
    }
    for group in &nemenyi.groups {
        out.push_str(&format!(
            "  not significantly different: {}\n",
            group.join(", ")
        ));
    }
    let control = &result.control;
    let mut against = Table::new(
        format!(
            "Against the control '{}'{} (z = rank difference / {:.4}; Bonferroni-Dunn CD = {:.4})",
            control.control,
            if control.chosen == ControlChoice::FirstLearner {
                ", the first learner (name one with --control)"
            } else {
                ""
            },
            control.standard_error,
            control.bonferroni_dunn_critical_difference
        ),
        [
            "learner",
            "rank difference",
            "z",
            "p-value",
            "Holm p",
            "Holm",
            "Bonferroni-Dunn p",
            "Bonferroni-Dunn",
        ]
        .map(String::from)
        .to_vec(),
    );
    for comparison in &control.comparisons {
        against.push_row(vec![
            Cell::text(&result.learners[comparison.learner]),
            Cell::number(comparison.rank_difference).with_decimals(3),
            Cell::number(comparison.z).with_decimals(3),
            p_cell(comparison.pvalue),
            p_cell(comparison.holm_pvalue),
            yes_no(comparison.holm_reject),
            p_cell(comparison.bonferroni_dunn_pvalue),
            yes_no(comparison.bonferroni_dunn_reject),
        ]);
    }
    out.push('\n');
    out.push_str(&against.to_markdown()?);
    let mut pairs = Table::new(
        "Every pair over the datasets (wins = the first is better)",
        [
            "first",
            "second",
            "mean difference",
            "wins/ties/losses",
            "sign p",
            "Wilcoxon p",
            "Wilcoxon Holm p",
            "Nemenyi p",
            "P(first better)",
            "P(rope)",
            "P(second better)",
        ]
        .map(String::from)
        .to_vec(),
    );
    for pair in &result.pairs {
        let counts = pair.win_tie_loss;
        let probabilities = pair.bayesian_signed_rank.probabilities;
        pairs.push_row(vec![
            Cell::text(&pair.first),
            Cell::text(&pair.second),
            Cell::number(pair.mean_difference).with_decimals(4),
            Cell::text(format!("{}/{}/{}", counts.wins, counts.ties, counts.losses)),
            p_cell(pair.sign_test.pvalue),
            p_cell(pair.wilcoxon.pvalue),
            p_cell(pair.wilcoxon_holm_pvalue),
            p_cell(pair.nemenyi_pvalue),
            Cell::number(probabilities.right).with_decimals(4),
            Cell::number(probabilities.rope).with_decimals(4),
            Cell::number(probabilities.left).with_decimals(4),
        ]);
    }
    pairs.push_note(format!(
        "Sign test: exact binomial, ties dropped; with {} datasets a learner needs {} wins \
         (ties split evenly; one dataset fewer when a pair's ties are odd) to be significantly \
         better at alpha = {} (Demsar's table). Wilcoxon signed-rank over datasets (zero \
         differences dropped, exact up to 50 non-zero ones), Holm-corrected over the {} pairs. \
         Bayesian signed-rank test (prior {}, {} samples, each pair's seed derived from {}, the \
         measure and the two names): share of posterior samples in which each region is the \
         most probable, rope = {}.",
        result.n_datasets,
        result.sign_test_critical_wins.map_or(
            "more than".to_string() + &result.n_datasets.to_string(),
            |w| w.to_string()
        ),
        options.alpha,
        result.pairs.len(),
        options.bayesian_prior,
        options.bayesian_samples,
        options.seed,
        options.rope
    ));
    out.push('\n');
    out.push_str(&pairs.to_markdown()?);
    Ok(out)
}
