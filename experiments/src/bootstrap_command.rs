//! `experiments compare bootstrap --scores FILE`: percentile and BCa bootstrap intervals
//! (class-stratified, seeded) of AUC, scored AUC, error, Brier, average precision, PR area,
//! PR-Gain area, partial AUC, H-measure and ECE for each model of a two-class predictions file
//! (the layout of `roc` and `compare delong`), and the paired intervals of every two models'
//! differences on the same rows; computed and printed by `comparison::bootstrap_file`. The
//! measure and bootstrap flags are `roc`'s (`roc_evaluation::MeasureArgs`), with the same
//! defaults, so the intervals equal `roc --json --evaluate`'s for the same flags.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use comparison::bootstrap_file::{bootstrap_output, BootstrapReading};
use data::TextTable;
use evaluate::BinInterval;

use crate::predictions_file::{positive_label, truth_column};
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
    let options = args.measures.options(BinInterval::Wilson)?;
    let table = TextTable::read(&args.scores)?;
    let file = args.scores.display().to_string();
    if table.is_empty() {
        bail!("'{file}' has a header but no row of predictions");
    }
    let (truth, labels) = truth_column(&table, args.truth.as_deref())?;
    let truth_name = table.header()[truth].clone();
    if args.positive.is_none() && labels.len() > 2 {
        bail!(
            "column '{truth_name}' of '{file}' has {} labels: give --positive LABEL (the others \
             are negatives)",
            labels.len()
        );
    }
    let positive = positive_label(args.positive.as_deref(), &labels, &file, &truth_name)?;
    let columns = score_columns(&table, truth, &args.models, &file)?;
    let reading = BootstrapReading {
        file: &file,
        truth,
        positive: &positive,
        columns: &columns,
        options: &options,
    };
    Ok(bootstrap_output(&table, &reading, args.json)?)
}

/// The chosen score columns (every column but the truth when none is named); a name that is
/// not a score column is an error listing those there are.
fn score_columns(
    table: &TextTable,
    truth: usize,
    chosen: &[String],
    file: &str,
) -> Result<Vec<usize>> {
    let all: Vec<usize> = (0..table.header().len()).filter(|&c| c != truth).collect();
    if all.is_empty() {
        bail!("'{file}' has no score column besides the truth column");
    }
    if chosen.is_empty() {
        return Ok(all);
    }
    let names: Vec<&str> = all.iter().map(|&c| table.header()[c].as_str()).collect();
    chosen
        .iter()
        .map(|name| match names.iter().position(|n| n == name) {
            Some(index) => Ok(all[index]),
            None => bail!(
                "--models: '{name}' is not a score column of '{file}' (they are: {})",
                names.join(", ")
            ),
        })
        .collect()
}
