//! `experiments roc FILE`: AUC, scored AUC, ROC points and convex hulls of a user's predictions,
//! and with `--evaluate` or any of its options (`roc_evaluation`) the evaluation beyond ROC of
//! two-class files; computed and printed by `comparison::roc_file`, which gives the file's
//! layout and the JSON.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use comparison::roc_file::{roc_output, RocReading};
use data::TextTable;
use evaluate::BinaryOptions;

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
    let evaluation = args.evaluation.options()?;
    let positive = if args.positive.is_some() || labels.len() <= 2 {
        Some(positive_label(
            args.positive.as_deref(),
            &labels,
            &file,
            truth_name,
        )?)
    } else {
        if args.target_fpr.is_some() || args.repair || evaluation.is_some() {
            bail!(
                "--target-fpr, --repair, --evaluate and its options need a two-class reading, but column '{truth_name}' \
                 of '{file}' has {} labels: give --positive LABEL",
                labels.len()
            );
        }
        None
    };
    let reading = RocReading {
        file: &file,
        truth,
        positive: positive.as_deref(),
        labels: &labels,
        options: BinaryOptions {
            target_fpr: args.target_fpr,
            repair: args.repair,
        },
        evaluation: evaluation.as_ref(),
    };
    print!("{}", roc_output(&table, &reading, args.json)?);
    Ok(())
}
