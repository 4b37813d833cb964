//! `experiments compare bootstrap --scores FILE`: percentile and BCa bootstrap intervals
//! (class-stratified, seeded) of AUC, scored AUC, error, Brier, average precision, PR area,
//! PR-Gain area, partial AUC, H-measure and ECE for each model of a two-class predictions file
//! (the layout of `roc` and `compare delong`), and the paired intervals of every two models'
//! differences on the same rows; computed and printed by `comparison::bootstrap_file`. The
//! measure and bootstrap flags are `roc`'s (`roc_evaluation::MeasureArgs`), with the same
//! defaults, so the intervals equal `roc --json --evaluate`'s for the same flags.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use comparison::bootstrap_file::{bootstrap_output, BootstrapRequest};

use crate::roc_evaluation::MeasureArgs;

/// `compare bootstrap`.
#[derive(Args, Debug)]
pub struct BootstrapArgs {
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
    /// The score columns to bootstrap, comma-separated (default: every column but the truth).
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    models: Vec<String>,
    /// The measures' and the bootstrap's options (those of `roc`).
    #[command(flatten)]
    measures: MeasureArgs,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    json: bool,
}

/// Runs `compare bootstrap` and returns what to print.
pub fn run(args: &BootstrapArgs) -> Result<String> {
    let request = BootstrapRequest {
        path: &args.scores,
        truth: args.truth.as_deref(),
        positive: args.positive.as_deref(),
        models: &args.models,
        measures: args.measures.flags(),
        json: args.json,
    };
    Ok(bootstrap_output(&request)?)
}
