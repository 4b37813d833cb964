//! The command-line entry point: runs experiments from TOML configs, lists the shipped datasets,
//! and analyses users' own predictions and per-fold results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::{Parser, Subcommand};

mod bootstrap_command;
mod compare_command;
mod datasets_command;
mod flag_errors;
mod new_learner;
mod openml_command;
mod output;
mod roc_command;
mod roc_evaluation;
mod single_tests;
mod slurm_command;

/// Compare classifiers honestly: paired splits, ROC and AUC, and the tests that decide.
#[derive(Parser, Debug)]
#[command(name = "experiments", version, args_conflicts_with_subcommands = true)]
struct Cli {
    /// The experiment to run: a TOML file, or the name of one in experiments/configs/.
    #[arg(long, value_name = "FILE")]
    config: Option<String>,

    /// Worker threads, at least 1 (more than this machine's cores are its cores; results are
    /// identical for any value; default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// Folder under which the results folder `<experiment name>/` is written.
    #[arg(long, value_name = "DIR", default_value = "results")]
    results: PathBuf,

    #[command(flatten)]
    limits: LimitArgs,

    /// Only check the config and exit: names, keys and ranges, datasets load and split, every
    /// learner accepts every dataset, every analysis has what it needs. Nothing is fitted.
    #[arg(long, conflicts_with_all = ["shard", "merge"])]
    check: bool,

    /// Run only the I-th of N disjoint slices of the units (counted from 0, balanced by
    /// expected cost; N at most 100000) into the cache, writing no report; `--merge` builds it once all have run.
    #[arg(long, value_name = "I/N", value_parser = parse_shard, conflicts_with = "merge")]
    shard: Option<engine::run::shard::Shard>,

    /// Build the tables, tests and report from the cache without fitting (after the shards);
    /// stops with the missing units and their shards if some are not there.
    #[arg(long)]
    merge: bool,

    /// With --merge: report on the units that are there, saying in the report which are not.
    #[arg(long, requires = "merge")]
    allow_missing: bool,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every shipped dataset and check each file against the catalog.
    Datasets(datasets_command::DatasetsArgs),
    /// AUC, scored AUC, ROC points and convex hulls of your own predictions (a CSV).
    Roc(roc_command::RocArgs),
    /// Paired tests between two learners' per-fold results (a CSV); the across-data-set tests
    /// on a results table (CSV or Parquet); or one test from flags (`compare TEST --help`).
    Compare(Box<compare_command::CompareArgs>),
    /// List every learner kind with its parameters (type, range, default) and capabilities.
    Learners,
    /// List every analysis a config can name in `analyses`, and every measure and paired test.
    Analyses,
    /// Write (and with --submit, submit) Slurm jobs running an experiment as a job array of
    /// shards and a merge job.
    Slurm(slurm_command::SlurmArgs),
    /// Write a crate that benchmarks a learner of your own against C4.5 and naive Bayes: the
    /// learner with its spec, its conformance test, a config and a README.
    NewLearner(new_learner::NewLearnerArgs),
    /// OpenML runs out, offline: `openml export` writes one learner's predictions on a task
    /// as openml-python's run folder, `openml check` checks such a folder as OpenML would.
    Openml(openml_command::OpenmlArgs),
}

/// The bounds on a plan, shared by runs and the `slurm` command.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct LimitArgs {
    /// The largest plan accepted, in units (dataset x learner x split), from 1 to 1000000000;
    /// raise it deliberately.
    #[arg(long, value_name = "N", default_value_t = engine::plan::bounds::Limits::default().units,
          value_parser = clap::value_parser!(u64).range(1..=engine::plan::bounds::MAX_UNITS))]
    pub max_units: u64,

    /// The most memory one dataset's splits may hold, in MB, from 1 to 1048576 (and never
    /// more than this machine's memory); raise it deliberately.
    #[arg(long, value_name = "MB", default_value_t = engine::plan::bounds::Limits::default().split_bytes >> 20,
          value_parser = clap::value_parser!(u64).range(1..=engine::plan::bounds::MAX_SPLIT_MEMORY_MB))]
    pub max_split_memory_mb: u64,

    /// The memory, in MB from 0 to 1048576, that the states a dataset's units share (k-NN's
    /// neighbour lists, C4.5's and naive Bayes' sorted columns) may take at once; 0 shares
    /// nothing. Results are identical for any value.
    #[arg(long, value_name = "MB", default_value_t = (engine::plan::units::DEFAULT_SHARED_MEMORY >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(0..=engine::plan::bounds::MAX_SPLIT_MEMORY_MB))]
    pub shared_memory_mb: u64,
}

/// The engine runs use: everything the project ships (`toolkit::engine`), these limits.
pub fn make_engine(threads: usize, limits: LimitArgs) -> engine::Engine {
    let mut engine = toolkit::engine().with_threads(threads);
    engine.limits = engine::plan::bounds::Limits {
        units: limits.max_units,
        split_bytes: limits.max_split_memory_mb.saturating_mul(1 << 20),
    };
    let shared = usize::try_from(limits.shared_memory_mb.saturating_mul(1 << 20));
    engine.with_shared_memory(shared.unwrap_or(usize::MAX))
}

/// `--shard I/N`: the engine's reading, which bounds N by `engine::run::shard::MAX_SHARDS`.
fn parse_shard(text: &str) -> Result<engine::run::shard::Shard, String> {
    text.parse()
}

/// The exit status of a run that finished and wrote everything, but in which some units failed.
const SOME_UNITS_FAILED: u8 = 3;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let cli = Cli::try_parse_from(&args).unwrap_or_else(|error| {
        use clap::CommandFactory;
        flag_errors::with_allowed(error, &Cli::command(), &args).exit()
    });
    match run(cli) {
        Ok(Finished::Completely) => ExitCode::SUCCESS,
        Ok(Finished::WithFailedUnits) => ExitCode::from(SOME_UNITS_FAILED),
        Err(error) if error.is::<output::Closed>() => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!(
                "error: {}",
                data::lines_within(&format!("{error:#}"), MESSAGE_LINE_CHARACTERS)
            );
            ExitCode::FAILURE
        }
    }
}

/// The most characters of one line of an error message: a longer line (a user's value a
/// message quotes whole, a TOML error's copy of a 1 MB line) is cut, saying its length
/// (`data::lines_within`).
const MESSAGE_LINE_CHARACTERS: usize = 2000;

/// How a command that did not stop on an error ended.
enum Finished {
    /// Everything it was asked to do was done.
    Completely,
    /// A run wrote everything, but some of its units failed (see the report's failures table).
    WithFailedUnits,
}

fn run(cli: Cli) -> Result<Finished> {
    vector_cap::check().map_err(anyhow::Error::msg)?;
    let done = Finished::Completely;
    match (cli.command, cli.config) {
        (Some(Command::Datasets(args)), _) => datasets_command::run(&args).map(|()| done),
        (Some(Command::Roc(args)), _) => roc_command::run(&args).map(|()| done),
        (Some(Command::Compare(args)), _) => compare_command::run(&args).map(|()| done),
        (Some(Command::Learners), _) => {
            output::print(learners::Registry::builtin().describe_all()).map(|()| done)
        }
        (Some(Command::Analyses), _) => output::print(toolkit::describe_analyses()).map(|()| done),
        (Some(Command::Slurm(args)), _) => slurm_command::run(&args).map(|()| done),
        (Some(Command::NewLearner(args)), _) => new_learner::run(&args).map(|()| done),
        (Some(Command::Openml(args)), _) => openml_command::run(&args).map(|()| done),
        (None, Some(config)) => {
            let path = resolve_config(&config)?;
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let (threads, note) = toolkit::worker_threads(cli.threads, cores)?;
            if let Some(note) = note {
                eprintln!("note: {note}");
            }
            let mut engine = make_engine(threads, cli.limits);
            engine.results_root = Some(cli.results.clone());
            let checked = engine.check_file(&path)?;
            if cli.check {
                let target = cli.results.join(&checked.config.name);
                engine::run::publish::check_writable(&target, &checked.plan, false)?;
                output::print(format!(
                    "{}: experiment '{}' is valid ({} datasets, {} learners, {} units)\n",
                    path.display(),
                    checked.config.name,
                    checked.plan.datasets.len(),
                    checked.plan.learners.len(),
                    checked.plan.units.len()
                ))?;
                return Ok(done);
            }
            if let Some(shard) = cli.shard {
                let output = engine.run_shard(checked, &cli.results, shard)?;
                if output.counts.failed > 0 {
                    eprintln!(
                        "note: {} of this shard's {} units failed; their messages are recorded in \
                         the cache, and the merge reports them (and exits with status \
                         {SOME_UNITS_FAILED})",
                        output.counts.failed, output.units
                    );
                }
                eprintln!("shard {shard} done: {}", output.record.display());
                return Ok(done);
            }
            let output = if cli.merge {
                engine.merge(checked, &cli.results, cli.allow_missing)?
            } else {
                engine.run(checked, &cli.results)?
            };
            let record = &output.record;
            if record.counts.failed == 0 {
                return Ok(done);
            }
            eprintln!(
                "error: {} of {} units failed (learners: {}); everything else was written, and \
                 the report's 'Failed units' table gives the first message of each (exit status \
                 {SOME_UNITS_FAILED})",
                record.counts.failed,
                record.plan.units.len(),
                record.failed_learners().join(", ")
            );
            Ok(Finished::WithFailedUnits)
        }
        (None, None) => bail!("nothing to do: give --config FILE or a subcommand (see --help)"),
    }
}

/// Finds a config: a path that exists as given wins, else `experiments/configs/NAME` (or
/// `NAME.toml`) under the current directory or the workspace root.
pub fn resolve_config(name: &str) -> Result<PathBuf> {
    let given = Path::new(name);
    if given.is_file() {
        return Ok(given.to_path_buf());
    }
    if given.is_dir() {
        bail!("--config {name}: is a folder; give a config file (a .toml file) or a config's name");
    }
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    Ok(toolkit::find_config(name, &workspace)?)
}
