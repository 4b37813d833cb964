//! `experiments roc FILE`: AUC, scored AUC, ROC points and convex hulls of a user's predictions,
//! computed by `evaluate::binary_summary` / `evaluate::multiclass_summary` and printed as the
//! tables of `comparison::roc_tables`, or with `--json` as the summary itself:
//! `{ file, truth_column, kind: "binary" | "multiclass", ... }` (the fields of
//! `evaluate::BinarySummary` or `evaluate::MulticlassSummary`; floats are JSON numbers, or
//! "inf", "-inf", "nan"). With `--evaluate` or any of its options (`--max-fpr`, `--bins`,
//! `--resamples`, ..., see `roc_evaluation`), two-class files also get `evaluate::evaluation`:
//! tables after the ROC ones, and an `evaluation` object in the JSON.
//!
//! File layout (a CSV with a header row):
//! - the truth column (`--truth`, default `truth`, else the first column) holds the true labels;
//! - two-class reading (two labels, or `--positive` given): every other column is one model's
//!   score for the positive class (higher = more positive); the labels other than the positive
//!   one are negatives;
//! - multi-class reading (more than two labels and no `--positive`): every other column is the
//!   score of one class, named `CLASS` (a single model) or `MODEL:CLASS` (several models); each
//!   model has one column for every label of the truth column.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use data::TextTable;
use evaluate::{BinaryOptions, ClassScores, RocSummary};
use serde::Serialize;

use crate::predictions_file::{positive_label, truth_column};

/// Options of the `roc` subcommand.
#[derive(Args, Debug)]
pub struct RocArgs {
    /// Predictions CSV: a truth column, then one score column per model (two classes) or per
    /// class (`CLASS` or `MODEL:CLASS`, more than two classes).
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// Print the results as one JSON object instead of tables.
    #[arg(long)]
    json: bool,

    /// The column with the true labels (default: `truth` if there is one, else the first column).
    #[arg(long, value_name = "COLUMN")]
    truth: Option<String>,

    /// The positive label; the other labels are negative and every score column is one model's
    /// score for it (default for two labels: 1 of 0/1 and -1/1, true, yes, pos, positive).
    #[arg(long, value_name = "LABEL")]
    positive: Option<String>,

    /// Two classes: for each model and for the hull over all models, the mixture of two hull
    /// vertices (classifiers) that reaches this false positive rate, in [0, 1].
    #[arg(long, allow_negative_numbers = true, value_name = "RATE")]
    target_fpr: Option<f64>,

    /// Two classes: repair the concavities of each model's ROC curve (invert the ranking in
    /// every score interval whose curve lies under the hull) and report the repaired AUC.
    #[arg(long)]
    repair: bool,

    /// Two classes: the evaluation beyond ROC (see `roc_evaluation`); implied by its options.
    #[command(flatten)]
    evaluation: crate::roc_evaluation::EvaluationArgs,
}

/// `roc --json`: the file and its truth column, then the summary.
#[derive(Serialize)]
struct RocJson<'a> {
    file: &'a str,
    truth_column: &'a str,
    #[serde(flatten)]
    summary: &'a RocSummary,
    /// With `--evaluate` or its options: the evaluation beyond ROC.
    #[serde(skip_serializing_if = "Option::is_none")]
    evaluation: Option<&'a evaluate::Evaluation>,
}

/// Runs the command: reads the file, prints tables or JSON.
pub fn run(args: &RocArgs) -> Result<()> {
    let table = TextTable::read(&args.file)?;
    let file = args.file.display().to_string();
    let columns = table.header().len();
    if columns < 2 {
        bail!("'{file}' has only {columns} column(s): expected a truth column and at least one score column");
    }
    if table.is_empty() {
        bail!("'{file}' has a header but no row of predictions");
    }
    if let Some(rate) = args.target_fpr {
        if !(0.0..=1.0).contains(&rate) {
            bail!("--target-fpr {rate}: a false positive rate must be in [0, 1]");
        }
    }
    let (truth, labels) = truth_column(&table, args.truth.as_deref())?;
    let truth_name = table.header()[truth].as_str();
    let evaluation_options = args.evaluation.options()?;
    let mut evaluation = None;
    let options = BinaryOptions {
        target_fpr: args.target_fpr,
        repair: args.repair,
    };
    let summary = if args.positive.is_some() || labels.len() <= 2 {
        let positive = positive_label(args.positive.as_deref(), &labels, &file, truth_name)?;
        let scores = (0..columns).filter(|&column| column != truth);
        let scores = scores
            .map(|column| Ok((table.header()[column].clone(), table.numbers(column, true)?)))
            .collect::<Result<Vec<_>>>()?;
        let summary = evaluate::binary_summary(table.texts(truth), &positive, &scores, options);
        if let Some(options) = &evaluation_options {
            let computed = evaluate::evaluation(table.texts(truth), &positive, &scores, options);
            evaluation = Some(computed.with_context(|| format!("'{file}'"))?);
        }
        RocSummary::Binary(Box::new(summary.with_context(|| format!("'{file}'"))?))
    } else {
        if args.target_fpr.is_some() || args.repair || evaluation_options.is_some() {
            bail!(
                "--target-fpr, --repair, --evaluate and its options need a two-class reading, but column '{truth_name}' \
                 of '{file}' has {} labels: give --positive LABEL",
                labels.len()
            );
        }
        let models = class_models(&table, truth, &labels)?;
        let summary = evaluate::multiclass_summary(table.texts(truth), &labels, &models);
        RocSummary::Multiclass(summary.with_context(|| format!("'{file}'"))?)
    };
    if args.json {
        let json = RocJson {
            file: &file,
            truth_column: truth_name,
            summary: &summary,
            evaluation: evaluation.as_ref(),
        };
        println!("{}", serde_json::to_string_pretty(&json)?);
        return Ok(());
    }
    print!(
        "{}",
        match &summary {
            RocSummary::Binary(binary) =>
                comparison::binary_text(&file, truth_name, binary, options),
            RocSummary::Multiclass(multi) => comparison::multiclass_text(&file, truth_name, multi),
        }?
    );
    if let Some(evaluation) = &evaluation {
        print!("{}", comparison::roc_tables::evaluation_text(evaluation)?);
    }
    Ok(())
}

/// The models of a multi-class file (`evaluate::class_columns`), "scores" for the unnamed one.
fn class_models(table: &TextTable, truth: usize, classes: &[String]) -> Result<Vec<ClassScores>> {
    let columns: Vec<usize> = (0..table.header().len()).filter(|&c| c != truth).collect();
    let names: Vec<String> = columns.iter().map(|&c| table.header()[c].clone()).collect();
    let models = evaluate::class_columns(&names, classes).with_context(|| {
        format!(
            "'{}', read as multi-class (or give --positive LABEL for one class against the rest)",
            table.path().display()
        )
    })?;
    let model = |(name, indices): (String, Vec<usize>)| -> Result<ClassScores> {
        let numbers = indices.iter().map(|&i| table.numbers(columns[i], true));
        Ok(ClassScores {
            name: if name.is_empty() {
                "scores".into()
            } else {
                name
            },
            columns: indices.iter().map(|&i| names[i].clone()).collect(),
            scores: numbers.collect::<Result<_, _>>()?,
        })
    };
    models.into_iter().map(model).collect()
}
