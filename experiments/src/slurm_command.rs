//! `experiments slurm`: runs an experiment on a Slurm cluster as a job array of shards and a
//! merge job (the `slurm` crate writes and submits them), and says what it did and how to
//! follow the jobs. Run again, it submits only the shards that still have units missing from
//! the cache (killed or failed tasks), then the merge. See docs/slurm.md.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use slurm::{Invocation, Jobs};

use crate::output::print;

/// Arguments of `experiments slurm`.
#[derive(clap::Args, Debug)]
pub struct SlurmArgs {
    /// The experiment: a TOML file, or the name of one in experiments/configs/.
    #[arg(long, value_name = "FILE")]
    config: String,

    /// The number of array tasks (shards) to split the units into, from 1 to 100000 (more than
    /// the experiment has units are that many, one unit each).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=engine::run::shard::MAX_SHARDS as i64))]
    tasks: u32,

    /// The partition to run in (sbatch --partition): names of letters, digits, `_`, `-`, `.`,
    /// separated by commas; default: the cluster's default.
    #[arg(long, value_name = "P")]
    partition: Option<String>,

    /// Each job's time limit (sbatch --time): MINUTES, M:S, H:M:S, DAYS-H, D-H:M, D-H:M:S or
    /// UNLIMITED, e.g. 2:00:00.
    #[arg(long, value_name = "T")]
    time: Option<String>,

    /// Each job's memory (sbatch --mem): a whole number of MB, or with the unit K, M, G or T,
    /// e.g. 4G.
    #[arg(long, value_name = "M")]
    mem: Option<String>,

    /// CPUs per task (sbatch --cpus-per-task), 1 or more; each task runs that many worker
    /// threads.
    #[arg(long, value_name = "C", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    cpus: u32,

    /// Folder under which the results folder `<experiment name>/` is written (shared by the
    /// cluster's nodes).
    #[arg(long, value_name = "DIR", default_value = "results")]
    results: PathBuf,

    /// Submit the jobs with sbatch (otherwise only write the scripts and say how to submit).
    #[arg(long)]
    submit: bool,

    #[command(flatten)]
    limits: crate::LimitArgs,
}

/// Writes the scripts, finds the shards with units still missing, and submits what is needed.
pub fn run(args: &SlurmArgs) -> Result<()> {
    let config = crate::resolve_config(&args.config)?;
    let engine = crate::make_engine(1, args.limits);
    let current = std::env::current_dir().context("cannot read the current folder")?;
    let jobs = Jobs {
        tasks: args.tasks as usize,
        partition: args.partition.clone(),
        time: args.time.clone(),
        mem: args.mem.clone(),
        cpus: args.cpus,
    };
    let invocation = Invocation {
        binary: std::env::current_exe()
            .context("cannot find this program's own path to put in the job scripts")?,
        config: absolute(&current, &config),
        results_root: absolute(&current, &args.results),
        workdir: current,
        limits: (args.limits.max_units, args.limits.max_split_memory_mb),
    };
    let prepared = slurm::prepare(&engine, &config, &jobs, &invocation)?;
    print(slurm::prepared_text(&prepared, jobs.tasks))?;
    if !args.submit {
        return print(slurm::submit_text(&prepared));
    }
    let array = slurm::submit_shards(&prepared)?;
    if let Some((id, shards)) = &array {
        let last = prepared.tasks - 1;
        print(format!(
            "submitted the job array {id} (shards {shards} of 0-{last})\n"
        ))?;
    }
    let merge_id = slurm::submit_merge(&prepared, array.as_ref().map(|(id, _)| id.as_str()))?;
    print(format!("submitted the merge job {merge_id}\n"))?;
    print(slurm::follow_text(&prepared, &merge_id))
}

/// `path` made absolute against `base` (the jobs may start elsewhere).
fn absolute(base: &Path, path: &Path) -> PathBuf {
    let joined = base.join(path);
    joined.canonicalize().unwrap_or(joined)
}
