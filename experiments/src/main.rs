//! The command-line entry point: runs experiments from TOML configs, lists the shipped datasets,
//! and analyses users' own predictions and per-fold results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::{Parser, Subcommand};

mod config;
mod datasets_command;
mod huang_ling_report;

/// Compare classifiers honestly: paired splits, ROC and AUC, and the tests that decide.
#[derive(Parser, Debug)]
#[command(name = "experiments", version, args_conflicts_with_subcommands = true)]
struct Cli {
    /// The experiment to run: a TOML file, or the name of one in experiments/configs/.
    #[arg(long, value_name = "FILE")]
    config: Option<String>,

    /// Worker threads (results are identical for any value).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every shipped dataset and check each file against the catalog.
    Datasets(datasets_command::DatasetsArgs),
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
        (None, Some(config)) => {
            let path = resolve_config(&config)?;
            let experiment = config::load(&path)?;
            bail!(
                "{} is a valid config for experiment '{}', but the experiment runner is not built \
                 yet (see the runner issue); `experiments datasets` works today",
                path.display(),
                experiment.name
            )
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
