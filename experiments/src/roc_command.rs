//! `experiments roc FILE`: AUC, scored AUC, ROC points and convex hulls of a user's predictions,
//! and with `--evaluate` or any of its options (`roc_evaluation`) the evaluation beyond ROC of
//! two-class files; computed and printed by `comparison::roc_file`, which gives the file's
//! layout and the JSON.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use comparison::roc_file::{roc_output, RocRequest};
use evaluate::BinaryOptions;

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
    let request = RocRequest {
        path: &args.file,
        truth: args.truth.as_deref(),
        positive: args.positive.as_deref(),
        options: BinaryOptions {
            target_fpr: args.target_fpr,
            repair: args.repair,
        },
        evaluation: args.evaluation.flags(),
        json: args.json,
    };
    crate::output::print(roc_output(&request)?)
}
