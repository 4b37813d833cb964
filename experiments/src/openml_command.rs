//! `experiments openml check` and `experiments openml export`: OpenML runs out, offline. The
//! task is read by the `openml` crate; the run is written and checked by `openml_runs`.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::{Args, Subcommand};

/// The most problems `check` prints (it says how many more there are).
const SHOWN_PROBLEMS: usize = 100;

/// Options of the `openml` subcommand.
#[derive(Args, Debug)]
pub struct OpenmlArgs {
    #[command(subcommand)]
    command: OpenmlCommand,
}

#[derive(Subcommand, Debug)]
enum OpenmlCommand {
    /// Check a run folder (predictions.arff, description.xml) as OpenML's evaluation engine
    /// would: columns by name, a confidence column per class label, row ids, every fold's
    /// count, probabilities summing to 1, nominal values. Prints each problem with its line;
    /// exits 1 if there is any.
    Check(CheckArgs),
    /// Write predictions.arff and description.xml (openml-python's layout) of one learner of a
    /// finished run on an OpenML task (a config on the task folder, protocol `openml`).
    Export(ExportArgs),
}

/// Options of `openml check`.
#[derive(Args, Debug)]
struct CheckArgs {
    /// The run folder (holding predictions.arff and, if there is one, description.xml), or
    /// the predictions file itself.
    #[arg(value_name = "DIR")]
    dir: PathBuf,

    /// The task's folder in openml-python's cache (`.../org/openml/www/tasks/<id>/`).
    #[arg(long, value_name = "DIR")]
    task: PathBuf,
}

/// Options of `openml export`.
#[derive(Args, Debug)]
struct ExportArgs {
    /// The run's results folder (`results/<name>`).
    #[arg(value_name = "RESULTS")]
    results: PathBuf,

    /// The learner whose predictions are exported (its name in the config).
    #[arg(long, value_name = "NAME")]
    learner: String,

    /// The task's folder in openml-python's cache (`.../org/openml/www/tasks/<id>/`).
    #[arg(long, value_name = "DIR")]
    task: PathBuf,

    /// The flow's id on the OpenML server (only the server gives one: publish the flow first),
    /// from 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    flow_id: u64,

    /// The folder to write predictions.arff and description.xml into (made if absent).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,

    /// The config as run, when its relative dataset paths are not found from the current
    /// folder (default: RESULTS/config.toml).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

/// Runs `openml check` or `openml export`.
pub fn run(args: &OpenmlArgs) -> Result<()> {
    match &args.command {
        OpenmlCommand::Check(check) => run_check(check),
        OpenmlCommand::Export(export) => run_export(export),
    }
}

fn run_check(args: &CheckArgs) -> Result<()> {
    let expected = openml_runs::read_expectation(&args.task)?;
    let problems = openml_runs::check_run_folder(&args.dir, &expected)?;
    if problems.is_empty() {
        return crate::output::print(format!(
            "{}: no problems (task {}, {} folds, {} labels)\n",
            args.dir.display(),
            expected.task_id,
            expected.folds.len(),
            expected.class_labels.len()
        ));
    }
    let text = openml_runs::problems_text(&problems, SHOWN_PROBLEMS);
    crate::output::print(text)?;
    bail!(
        "{}: {} problem(s); OpenML's evaluation engine would refuse this run",
        args.dir.display(),
        problems.len()
    )
}

fn run_export(args: &ExportArgs) -> Result<()> {
    let expected = openml_runs::read_expectation(&args.task)?;
    let engine = toolkit::engine();
    let request = openml_runs::ExportRequest {
        results: &args.results,
        config: args.config.as_deref(),
        learner: &args.learner,
        task: &expected,
        flow_id: args.flow_id,
    };
    let run = openml_runs::export_run(&engine, &request)?;
    openml_runs::write_run(&args.out, &run)?;
    let problems = openml_runs::check_run_folder(&args.out, &expected)?;
    if let Some((path, problem)) = problems.first() {
        bail!(
            "the exported run does not pass its own check: {}: {problem}",
            path.display()
        );
    }
    crate::output::print(format!(
        "wrote {} and {} ({} predictions of '{}' on task {} in {} folds); checked: no problems\n",
        args.out.join("predictions.arff").display(),
        args.out.join("description.xml").display(),
        run.predictions.rows.len(),
        args.learner,
        expected.task_id,
        expected.folds.len()
    ))
}
