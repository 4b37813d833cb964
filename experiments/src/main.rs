//! The command-line entry point: runs experiments from TOML configs, lists the shipped datasets,
//! and analyses users' own predictions and per-fold results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::{Parser, Subcommand};

mod aslan;
mod compare_command;
mod config;
mod datasets_command;
mod experiment;
mod huang_ling_report;
mod measures;
mod plan;
mod provost;
mod results;
mod roc_command;
mod runner;
mod section;
mod table_input;
mod wu_flach;

/// Compare classifiers honestly: paired splits, ROC and AUC, and the tests that decide.
#[derive(Parser, Debug)]
#[command(name = "experiments", version, args_conflicts_with_subcommands = true)]
struct Cli {
    /// The experiment to run: a TOML file, or the name of one in experiments/configs/.
    #[arg(long, value_name = "FILE")]
    config: Option<String>,

    /// Worker threads (results are identical for any value; default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// Folder under which the results folder `<experiment name>/` is written.
    #[arg(long, value_name = "DIR", default_value = "results")]
    results: PathBuf,

    /// Only check the config (names, keys, learners, protocol) and exit.
    #[arg(long)]
    check: bool,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every shipped dataset and check each file against the catalog.
    Datasets(datasets_command::DatasetsArgs),
    /// AUC, scored AUC, ROC points and convex hulls of your own predictions (a CSV).
    Roc(roc_command::RocArgs),
    /// Paired tests between two learners' per-fold results (a CSV).
    Compare(compare_command::CompareArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match (cli.command, cli.config) {
        (Some(Command::Datasets(args)), _) => datasets_command::run(&args),
        (Some(Command::Roc(args)), _) => roc_command::run(&args),
        (Some(Command::Compare(args)), _) => compare_command::run(&args),
        (None, Some(config)) => {
            let path = resolve_config(&config)?;
            let checked = experiment::check(&path)?;
            if cli.check {
                println!(
                    "{}: experiment '{}' is valid ({} datasets, {} learners)",
                    path.display(),
                    checked.config.name,
                    checked.requests.len(),
                    checked.learners.len()
                );
                return Ok(());
            }
            let threads = match cli.threads {
                Some(0) => bail!("--threads 0: give at least 1"),
                Some(threads) => threads,
                None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            };
            let options = experiment::RunOptions {
                results_root: cli.results,
                threads,
            };
            experiment::run(checked, &options)?;
            Ok(())
        }
        (None, None) => bail!("nothing to do: give --config FILE or a subcommand (see --help)"),
    }
}

/// Finds a config: a path that exists as given wins, else `experiments/configs/NAME` under the
/// current directory or the workspace root.
fn resolve_config(name: &str) -> Result<PathBuf> {
    let given = Path::new(name);
    if given.is_file() {
        return Ok(given.to_path_buf());
    }
    let roots = [
        PathBuf::from("."),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."),
    ];
    for root in &roots {
        let candidate = root.join("experiments").join("configs").join(name);
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    let configs = roots[1].join("experiments").join("configs");
    let mut known: Vec<String> = std::fs::read_dir(&configs)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok())
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .filter(|file| file.ends_with(".toml"))
                .collect()
        })
        .unwrap_or_default();
    known.sort();
    bail!(
        "config '{name}' not found: no such file, and not in experiments/configs/ (which has: {})",
        if known.is_empty() {
            "nothing".to_string()
        } else {
            known.join(", ")
        }
    )
}
