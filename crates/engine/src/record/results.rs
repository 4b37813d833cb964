//! The numbers of a run: the tidy per-fold table (also as a polars `DataFrame` with the `polars`
//! feature), per-dataset summaries and the paired tests between learners, all computed from the
//! units' predictions.

#[cfg(feature = "polars")]
use polars::prelude::{Column, DataFrame};
use report::{Cell, ParquetValues, Table};

use crate::error::{Error, Result};
use crate::measures::measure::Measure;
use crate::measures::paired::{FoldTest, TestOptions};
use crate::plan::units::Plan;
#[cfg(feature = "polars")]
use crate::plan::units::Unit;
use crate::run::runner::{Status, UnitRecord};
use crate::run::unit::Part;

/// The measures of one unit: on its test part, and on its validation part if it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitMeasures {
    /// One value per configured measure, on the test rows.
    pub test: Vec<f64>,
    /// One value per configured measure, on the validation rows (protocols with validation).
    pub validation: Option<Vec<f64>>,
}

/// A run's results: the tidy table, and the same values indexed for the analyses.
pub struct RunResults {
    /// Long format: one row per (dataset, learner, repetition, fold, part, measure) with its
    /// value; failed units have no rows (with the `polars` feature).
    #[cfg(feature = "polars")]
    pub tidy: DataFrame,
    /// The same values indexed by dataset, learner and split.
    pub folds: FoldTable,
    /// The tidy table's columns, in plan order, for its Parquet file.
    columns: TidyColumns,
}

impl RunResults {
    /// Arranges the unit records (in plan order) and builds the tidy table.
    pub fn new(
        plan: &Plan,
        measures: &[Measure],
        records: &[UnitRecord<UnitMeasures>],
    ) -> Result<Self> {
        let folds = FoldTable::new(plan, measures, records);
        let columns = TidyColumns::new(&folds.tidy_rows(plan));
        Ok(RunResults {
            #[cfg(feature = "polars")]
            tidy: folds.to_frame(plan)?,
            folds,
            columns,
        })
    }

    /// Results of an experiment without data (no rows).
    pub fn empty() -> Self {
        let plan = Plan::new(Vec::new(), Vec::new());
        let folds = FoldTable::new(&plan, &[], &[]);
        RunResults {
            #[cfg(feature = "polars")]
            tidy: folds.to_frame(&plan).unwrap_or_else(|_| DataFrame::empty()),
            columns: TidyColumns::new(&folds.tidy_rows(&plan)),
            folds,
        }
    }

    /// The tidy table as a Parquet file's bytes: nullable columns dataset, learner, part,
    /// measure (text, read by Arrow as `string_view`), repetition, fold (int64), value (double),
    /// as polars wrote them.
    pub fn to_parquet(&self) -> Result<Vec<u8>> {
        let columns = &self.columns;
        let text = |values| ParquetValues::Text(strs(values));
        let table = [
            ("dataset", text(&columns.dataset)),
            ("learner", text(&columns.learner)),
            (
                "repetition",
                ParquetValues::Int64(columns.repetition.clone()),
            ),
            ("fold", ParquetValues::Int64(columns.fold.clone())),
            ("part", text(&columns.part)),
            ("measure", text(&columns.measure)),
            ("value", ParquetValues::Float64(columns.value.clone())),
        ];
        report::write_parquet(&table, &[("ARROW:schema", TIDY_ARROW_SCHEMA)]).map_err(|source| {
            Error::Parquet {
                action: "write the per-fold table as Parquet",
                source,
            }
        })
    }

    /// The tidy table as CSV. Values are written in the shortest form that reads back to the
    /// same number, so the file is byte-identical between identical runs.
    pub fn to_csv(&self, plan: &Plan) -> String {
        let mut text = String::from("dataset,learner,repetition,fold,part,measure,value\n");
        for row in self.folds.tidy_rows(plan) {
            text.push_str(&format!(
                "{},{},{},{},{},{},{}\n",
                report::table::quote_csv(row.dataset),
                report::table::quote_csv(row.learner),
                row.repetition,
                row.fold,
                row.part.name(),
                row.measure,
                row.value
            ));
        }
        text
    }
}

/// Per-fold measure values, indexed `[dataset][learner][split]`; `None` where the unit failed.
pub struct FoldTable {
    /// The measures, in config order (the order of each cell's values).
    pub measures: Vec<Measure>,
    /// The cells.
    pub cells: Vec<Vec<Vec<Option<Vec<f64>>>>>,
    /// The same on the validation parts, where the protocol has them.
    pub validation: Vec<Vec<Vec<Option<Vec<f64>>>>>,
    /// Failed units: dataset, learner, split index, message.
    pub failures: Vec<(usize, usize, usize, String)>,
}

impl FoldTable {
    /// Arranges the records of the plan's units (in plan order) by dataset, learner and split
    /// (the whole-training units are not folds: they are left out).
    pub fn new(plan: &Plan, measures: &[Measure], records: &[UnitRecord<UnitMeasures>]) -> Self {
        let mut cells: Vec<Vec<Vec<Option<Vec<f64>>>>> = plan
            .datasets
            .iter()
            .map(|dataset| vec![vec![None; dataset.plan.splits.len()]; plan.learners.len()])
            .collect();
        let mut validation = cells.clone();
        let mut failures = Vec::new();
        for (unit, record) in plan.units.iter().zip(records) {
            let Some(split) = unit.split() else {
                continue;
            };
            if let Status::Failed(message) = &record.status {
                failures.push((unit.dataset, unit.learner, split, message.clone()));
            }
            if let Some(summary) = &record.summary {
                cells[unit.dataset][unit.learner][split] = Some(summary.test.clone());
                validation[unit.dataset][unit.learner][split] = summary.validation.clone();
            }
        }
        FoldTable {
            measures: measures.to_vec(),
            cells,
            validation,
            failures,
        }
    }

    /// The values of one measure over the splits of a dataset for one learner.
    pub fn values(&self, dataset: usize, learner: usize, measure: usize) -> Vec<Option<f64>> {
        self.cells[dataset][learner]
            .iter()
            .map(|cell| cell.as_ref().map(|values| values[measure]))
            .collect()
    }

    /// The finite values of one measure over the splits of a dataset for one learner (failed
    /// units and undefined values left out).
    pub fn finite_values(&self, dataset: usize, learner: usize, measure: usize) -> Vec<f64> {
        self.values(dataset, learner, measure)
            .into_iter()
            .flatten()
            .filter(|value| value.is_finite())
            .collect()
    }

    /// The values of one measure on the validation parts of a dataset's splits for one learner.
    pub fn validation_values(
        &self,
        dataset: usize,
        learner: usize,
        measure: usize,
    ) -> Vec<Option<f64>> {
        self.validation[dataset][learner]
            .iter()
            .map(|cell| cell.as_ref().map(|values| values[measure]))
            .collect()
    }

    /// The paired values of two learners: splits where both have a finite value.
    pub fn paired(
        &self,
        dataset: usize,
        measure: usize,
        a: usize,
        b: usize,
    ) -> (Vec<f64>, Vec<f64>) {
        self.values(dataset, a, measure)
            .into_iter()
            .zip(self.values(dataset, b, measure))
            .filter_map(|pair| match pair {
                (Some(x), Some(y)) if x.is_finite() && y.is_finite() => Some((x, y)),
                _ => None,
            })
            .unzip()
    }

    /// The tidy per-fold rows in plan order, the test part of each split before its
    /// validation part (failed units have no rows).
    pub fn tidy_rows<'a>(&'a self, plan: &'a Plan) -> Vec<TidyRow<'a>> {
        let mut rows = Vec::new();
        for (d, dataset) in plan.datasets.iter().enumerate() {
            for (l, learner) in plan.learners.iter().enumerate() {
                for (s, split) in dataset.plan.splits.iter().enumerate() {
                    let parts = [
                        (Part::Test, self.cells[d][l][s].as_ref()),
                        (Part::Validation, self.validation[d][l][s].as_ref()),
                    ];
                    for (part, values) in parts {
                        let Some(values) = values else {
                            continue;
                        };
                        for (measure, &value) in self.measures.iter().zip(values) {
                            rows.push(TidyRow {
                                dataset: &dataset.name,
                                learner: &learner.name,
                                repetition: split.repetition,
                                fold: split.fold,
                                part,
                                measure: measure.name(),
                                value,
                            });
                        }
                    }
                }
            }
        }
        rows
    }

    /// The tidy rows as a polars `DataFrame` (columns dataset, learner, repetition, fold, part,
    /// measure, value).
    #[cfg(feature = "polars")]
    pub fn to_frame(&self, plan: &Plan) -> Result<DataFrame> {
        let rows = self.tidy_rows(plan);
        let text = |pick: for<'r> fn(&'r TidyRow<'r>) -> &'r str| -> Vec<String> {
            rows.iter().map(|row| pick(row).to_string()).collect()
        };
        let columns = vec![
            Column::new("dataset".into(), text(|row| row.dataset)),
            Column::new("learner".into(), text(|row| row.learner)),
            Column::new(
                "repetition".into(),
                rows.iter()
                    .map(|row| row.repetition as i64)
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                "fold".into(),
                rows.iter().map(|row| row.fold as i64).collect::<Vec<_>>(),
            ),
            Column::new("part".into(), text(|row| row.part.name())),
            Column::new("measure".into(), text(|row| row.measure)),
            Column::new(
                "value".into(),
                rows.iter().map(|row| row.value).collect::<Vec<_>>(),
            ),
        ];
        DataFrame::new(rows.len(), columns).map_err(|source| Error::Frame {
            action: "build the per-fold table",
            source: Box::new(source),
        })
    }
}

/// The Arrow schema of the tidy table (the seven fields above, every one nullable) as the
/// base64 IPC message Arrow readers take from a Parquet file's `ARROW:schema` metadata, so that
/// they read its text columns as `string_view`, as from the files polars wrote. Made by pyarrow:
/// `scripts/tidy_arrow_schema.py`.
const TIDY_ARROW_SCHEMA: &str = include_str!("tidy_arrow_schema.txt");

/// The tidy rows as columns.
#[derive(Default)]
struct TidyColumns {
    dataset: Vec<String>,
    learner: Vec<String>,
    repetition: Vec<i64>,
    fold: Vec<i64>,
    part: Vec<String>,
    measure: Vec<String>,
    value: Vec<f64>,
}

/// The strings of a text column.
fn strs(values: &[String]) -> Vec<&str> {
    values.iter().map(String::as_str).collect()
}

impl TidyColumns {
    fn new(rows: &[TidyRow]) -> Self {
        let mut columns = TidyColumns::default();
        for row in rows {
            columns.dataset.push(row.dataset.to_string());
            columns.learner.push(row.learner.to_string());
            columns.repetition.push(row.repetition as i64);
            columns.fold.push(row.fold as i64);
            columns.part.push(row.part.name().to_string());
            columns.measure.push(row.measure.to_string());
            columns.value.push(row.value);
        }
        columns
    }
}

/// One row of the tidy per-fold table.
pub struct TidyRow<'a> {
    /// Dataset name.
    pub dataset: &'a str,
    /// Learner name.
    pub learner: &'a str,
    /// Repetition, from 0.
    pub repetition: usize,
    /// Fold within the repetition, from 0.
    pub fold: usize,
    /// Test or validation.
    pub part: Part,
    /// Measure name.
    pub measure: &'static str,
    /// The value.
    pub value: f64,
}

/// Mean and sample standard deviation of the finite values.
pub fn mean_and_sd(values: &[Option<f64>]) -> (f64, f64, usize) {
    let finite: Vec<f64> = values
        .iter()
        .flatten()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    let n = finite.len();
    if n == 0 {
        return (f64::NAN, f64::NAN, 0);
    }
    let mean = stats::summary::mean(&finite);
    let sd = if n > 1 {
        stats::summary::sample_variance(&finite).sqrt()
    } else {
        f64::NAN
    };
    (mean, sd, n)
}

/// Per dataset and learner, mean and standard deviation of each measure over the splits.
pub fn summary_table(plan: &Plan, folds: &FoldTable) -> Table {
    let mut header = vec!["dataset".to_string(), "learner".to_string()];
    for measure in &folds.measures {
        header.push(format!("{} mean", measure.name()));
        header.push(format!("{} sd", measure.name()));
    }
    header.push("folds".to_string());
    let mut table = Table::new(
        "Per dataset: mean and standard deviation over the folds",
        header,
    );
    for (d, dataset) in plan.datasets.iter().enumerate() {
        for (l, learner) in plan.learners.iter().enumerate() {
            let mut row = vec![Cell::text(&dataset.name), Cell::text(&learner.name)];
            let mut used = 0;
            for m in 0..folds.measures.len() {
                let (mean, sd, n) = mean_and_sd(&folds.values(d, l, m));
                used = used.max(n);
                row.push(Cell::number(mean).with_decimals(4));
                row.push(Cell::number(sd).with_decimals(4));
            }
            let total = dataset.plan.splits.len();
            let mut cell = Cell::integer(used as i64);
            if used < total {
                cell = cell.with_marker(format!("of {total}"));
            }
            row.push(cell);
            table.push_row(row);
        }
    }
    if !folds.failures.is_empty() {
        table.push_note(format!(
            "{} units failed and are left out; see units.csv for their messages.",
            folds.failures.len()
        ));
    }
    let multi_class: Vec<&str> = plan
        .datasets
        .iter()
        .filter(|dataset| dataset.positive.is_none())
        .map(|dataset| dataset.name.as_str())
        .collect();
    for measure in &folds.measures {
        if let (false, Some(note)) = (multi_class.is_empty(), measure.spec().multi_class_note) {
            table.push_note(format!(
                "On the multi-class datasets ({}), {} {note}.",
                multi_class.join(", "),
                measure.name()
            ));
        }
    }
    table
}

/// One paired test between two learners on one dataset and measure.
#[derive(Clone, Debug)]
pub struct TestRecord {
    /// Dataset index.
    pub dataset: usize,
    /// Measure index.
    pub measure: usize,
    /// First learner index.
    pub a: usize,
    /// Second learner index.
    pub b: usize,
    /// The test's name.
    pub test: &'static str,
    /// Number of paired folds used.
    pub n: usize,
    /// Mean of a and of b over the paired folds.
    pub means: (f64, f64),
    /// The statistic (t, or W, or wins for the sign test).
    pub statistic: f64,
    /// Two-sided p-value.
    pub pvalue: f64,
    /// Whether the test rejects equality at the experiment's alpha.
    pub reject: bool,
    /// Why the test could not be run, if it could not.
    pub problem: Option<String>,
}

/// Mean training and test sizes over a dataset's splits (for the corrected t-test).
pub fn mean_sizes(plan: &Plan, dataset: usize) -> (f64, f64) {
    let splits = &plan.datasets[dataset].plan.splits;
    let count = splits.len().max(1) as f64;
    let train = splits.iter().map(|s| s.train_len() as f64).sum::<f64>() / count;
    let test = splits.iter().map(|s| s.test.len() as f64).sum::<f64>() / count;
    (train, test)
}

/// Every configured per-fold test between every pair of learners on every dataset and measure
/// (the tests on the test set are `crate::measures::test_set`'s).
pub fn paired_tests(
    plan: &Plan,
    folds: &FoldTable,
    tests: &[FoldTest],
    options: &TestOptions,
) -> Vec<TestRecord> {
    let mut records = Vec::new();
    for d in 0..plan.datasets.len() {
        let sizes = mean_sizes(plan, d);
        for m in 0..folds.measures.len() {
            for a in 0..plan.learners.len() {
                for b in a + 1..plan.learners.len() {
                    let (x, y) = folds.paired(d, m, a, b);
                    let means = (mean_and_sd_of(&x), mean_and_sd_of(&y));
                    for test in tests {
                        let options = TestOptions {
                            sizes: Some(sizes),
                            ..*options
                        };
                        let outcome = test.run(&x, &y, &options);
                        let (statistic, pvalue, reject, problem) = match outcome {
                            Ok(verdict) => {
                                (verdict.statistic, verdict.pvalue, verdict.reject, None)
                            }
                            Err(problem) => (f64::NAN, f64::NAN, false, Some(problem)),
                        };
                        records.push(TestRecord {
                            dataset: d,
                            measure: m,
                            a,
                            b,
                            test: test.name(),
                            n: x.len(),
                            means,
                            statistic,
                            pvalue,
                            reject,
                            problem,
                        });
                    }
                }
            }
        }
    }
    records
}

fn mean_and_sd_of(values: &[f64]) -> f64 {
    if values.is_empty() {
        f64::NAN
    } else {
        stats::summary::mean(values)
    }
}

/// The paired tests as a table.
pub fn tests_table(
    plan: &Plan,
    folds: &FoldTable,
    records: &[TestRecord],
    alpha: f64,
) -> Result<Table> {
    let header = [
        "dataset",
        "measure",
        "learner a",
        "learner b",
        "test",
        "folds",
        "mean a",
        "mean b",
        "statistic",
        "p-value",
        "decision",
    ]
    .map(String::from)
    .to_vec();
    let mut table = Table::new(
        format!("Paired tests between learners (alpha = {alpha})"),
        header,
    );
    for record in records {
        let decision = match &record.problem {
            Some(problem) => Cell::text(format!("not run: {problem}")),
            None if record.reject => Cell::text("differ").bold(),
            None => Cell::text("no difference"),
        };
        table.push_row(vec![
            Cell::text(&plan.datasets[record.dataset].name),
            Cell::text(folds.measures[record.measure].name()),
            Cell::text(&plan.learners[record.a].name),
            Cell::text(&plan.learners[record.b].name),
            Cell::text(record.test),
            Cell::integer(record.n as i64),
            Cell::number(record.means.0).with_decimals(4),
            Cell::number(record.means.1).with_decimals(4),
            Cell::number(record.statistic).with_decimals(3),
            Cell::number(record.pvalue).with_decimals(4),
            decision,
        ]);
    }
    table.check()?;
    Ok(table)
}

/// The per-instance predictions of some units as a long polars `DataFrame`: one row per
/// predicted row and class, with columns dataset, learner, repetition, fold, part, row (in the
/// prepared dataset), truth and class (class names), and probability. `predictions` reads a
/// unit's predictions (from the cache); units without them (failed, or not run) are left out.
#[cfg(feature = "polars")]
pub fn predictions_frame(
    plan: &Plan,
    units: &[Unit],
    predictions: impl Fn(Unit) -> Option<crate::run::unit::UnitPredictions>,
) -> Result<DataFrame> {
    let mut text: [Vec<String>; 5] = Default::default();
    let mut numbers: [Vec<i64>; 3] = Default::default();
    let mut probability = Vec::new();
    for &unit in units {
        let spec = plan.spec(unit);
        let Some(predictions) = predictions(unit) else {
            continue;
        };
        let classes = &spec.dataset.dataset.schema().class_values;
        for position in 0..predictions.rows.len() {
            for (class, &value) in predictions.probabilities.row(position).iter().enumerate() {
                let cells = [
                    spec.dataset.name.as_str(),
                    spec.learner.name.as_str(),
                    predictions.parts[position].name(),
                    classes[predictions.truth[position]].as_str(),
                    classes[class].as_str(),
                ];
                for (column, cell) in text.iter_mut().zip(cells) {
                    column.push(cell.to_string());
                }
                numbers[0].push(spec.split.repetition as i64);
                numbers[1].push(spec.split.fold as i64);
                numbers[2].push(predictions.rows[position] as i64);
                probability.push(value);
            }
        }
    }
    let height = probability.len();
    let [dataset, learner, part, truth, class] = text;
    let [repetition, fold, row] = numbers;
    let columns = vec![
        Column::new("dataset".into(), dataset),
        Column::new("learner".into(), learner),
        Column::new("repetition".into(), repetition),
        Column::new("fold".into(), fold),
        Column::new("part".into(), part),
        Column::new("row".into(), row),
        Column::new("truth".into(), truth),
        Column::new("class".into(), class),
        Column::new("probability".into(), probability),
    ];
    DataFrame::new(height, columns).map_err(|source| Error::Frame {
        action: "build the predictions table",
        source: Box::new(source),
    })
}
