//! `experiments slurm`: runs an experiment on a Slurm cluster as a job array of shards
//! (`--shard $SLURM_ARRAY_TASK_ID/N`) and a merge job that waits for the whole array
//! (`--dependency=afterok`). It writes the two sbatch scripts under `results/<name>/slurm/`
//! and, with `--submit`, submits them with `sbatch --parsable`. Run again, it submits only the
//! shards that still have units missing from the cache (killed or failed tasks), then the merge.
//! See docs/slurm.md.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use engine::cache::{look_up, Cached};
use engine::experiment::SLURM_FOLDER;
use engine::shard::Assignment;

/// Arguments of `experiments slurm`.
#[derive(clap::Args, Debug)]
pub struct SlurmArgs {
    /// The experiment: a TOML file, or the name of one in experiments/configs/.
    #[arg(long, value_name = "FILE")]
    config: String,

    /// The number of array tasks (shards) to split the units into.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    tasks: u32,

    /// The partition to run in (sbatch --partition); default: the cluster's default.
    #[arg(long, value_name = "P")]
    partition: Option<String>,

    /// Each job's time limit (sbatch --time), e.g. 2:00:00.
    #[arg(long, value_name = "T")]
    time: Option<String>,

    /// Each job's memory (sbatch --mem), e.g. 4G.
    #[arg(long, value_name = "M")]
    mem: Option<String>,

    /// CPUs per task (sbatch --cpus-per-task); each task runs that many worker threads.
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

/// The two scripts written for one experiment.
struct Scripts {
    /// The job array of shards.
    shards: PathBuf,
    /// The merge job.
    merge: PathBuf,
}

/// Writes the scripts, finds the shards with units still missing, and submits what is needed.
pub fn run(args: &SlurmArgs) -> Result<()> {
    let config = crate::resolve_config(&args.config)?;
    let engine = crate::make_engine(1, args.limits);
    let checked = engine.check_file(&config)?;
    let name = checked.config.name.clone();
    let plan = &checked.plan;
    let tasks = args.tasks as usize;
    let current = std::env::current_dir().context("cannot read the current folder")?;
    let results_root = absolute(&current, &args.results);
    let folder = results_root.join(&name);
    let slurm = folder.join(SLURM_FOLDER);
    std::fs::create_dir_all(&slurm)
        .with_context(|| format!("cannot create {}", slurm.display()))?;

    let assignment = Assignment::new(plan, &folder, tasks);
    let mut missing = vec![0usize; tasks];
    for (&unit, &shard) in plan.units.iter().zip(&assignment.shard_of) {
        if !matches!(look_up(&folder, &plan.spec(unit)).0, Cached::Found(_)) {
            missing[shard] += 1;
        }
    }
    let pending: Vec<usize> = (0..tasks).filter(|&shard| missing[shard] > 0).collect();

    let binary = std::env::current_exe()
        .context("cannot find this program's own path to put in the job scripts")?;
    let scripts = write_scripts(
        args,
        &Invocation {
            binary: &binary,
            config: &absolute(&current, &config),
            results_root: &results_root,
            workdir: &current,
            limits: args.limits,
        },
        &name,
        &slurm,
    )?;
    println!(
        "experiment '{name}': {} units in {tasks} shards ({}); scripts in {}",
        plan.units.len(),
        assignment.describe_source(),
        slurm.display()
    );
    let already = plan.units.len() - missing.iter().sum::<usize>();
    if pending.is_empty() {
        println!("every unit is in the cache: only the merge job is needed");
    } else if already > 0 {
        println!(
            "{already} units are in the cache already; shards with units to run: {}",
            pending
                .iter()
                .map(|&shard| format!("{shard} ({} units)", missing[shard]))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let array = array_ranges(&pending);
    if !args.submit {
        println!("submit with:");
        if pending.is_empty() {
            println!("  sbatch {}", scripts.merge.display());
        } else {
            println!(
                "  array=$(sbatch --parsable --array={array} {}) && sbatch \
                 --dependency=afterok:${{array%%;*}} {}",
                scripts.shards.display(),
                scripts.merge.display()
            );
        }
        println!("(or run this command again with --submit)");
        return Ok(());
    }
    let merge_id = if pending.is_empty() {
        sbatch(&[scripts.merge.as_os_str()])?
    } else {
        let array_argument = format!("--array={array}");
        let array_id = sbatch(&[array_argument.as_ref(), scripts.shards.as_os_str()])?;
        println!(
            "submitted the job array {array_id} (shards {array} of 0-{})",
            tasks - 1
        );
        let dependency = format!("--dependency=afterok:{array_id}");
        sbatch(&[dependency.as_ref(), scripts.merge.as_os_str()])?
    };
    println!("submitted the merge job {merge_id}");
    println!(
        "follow them with: squeue -u $USER   (or: sacct -j {merge_id} --format=JobID,State,Elapsed,ExitCode)"
    );
    println!(
        "logs: {}; results: {}",
        slurm.display(),
        folder.join("index.html").display()
    );
    println!(
        "if a task fails, run this command again: it resubmits only the shards with missing units"
    );
    Ok(())
}

/// What every job runs: the built program on the config, from a fixed folder.
struct Invocation<'a> {
    /// This program (the built binary, not `cargo run`).
    binary: &'a Path,
    /// The config file.
    config: &'a Path,
    /// The folder results folders go under.
    results_root: &'a Path,
    /// The folder the jobs run in (where shipped datasets are found).
    workdir: &'a Path,
    /// The plan bounds, as given.
    limits: crate::LimitArgs,
}

/// Writes `shards.sbatch` and `merge.sbatch` into the folder `slurm`.
fn write_scripts(
    args: &SlurmArgs,
    invocation: &Invocation,
    name: &str,
    slurm: &Path,
) -> Result<Scripts> {
    let tasks = args.tasks;
    let mut directives = Vec::new();
    if let Some(partition) = &args.partition {
        directives.push(format!("#SBATCH --partition={partition}"));
    }
    if let Some(time) = &args.time {
        directives.push(format!("#SBATCH --time={time}"));
    }
    if let Some(mem) = &args.mem {
        directives.push(format!("#SBATCH --mem={mem}"));
    }
    directives.push(format!("#SBATCH --cpus-per-task={}", args.cpus));
    let directives = directives.join("\n");
    let command = |extra: &str| {
        format!(
            "exec {} --config {} --results {} --max-units {} --max-split-memory-mb {} \
             --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" {extra}",
            quote(invocation.binary),
            quote(invocation.config),
            quote(invocation.results_root),
            invocation.limits.max_units,
            invocation.limits.max_split_memory_mb
        )
    };
    let shards_text = format!(
        "#!/bin/bash\n\
         # Written by `experiments slurm`: the shards of experiment '{name}' as a job array.\n\
         # Submit with sbatch --array=0-{last} (the array is given on the command line, so\n\
         # that a resubmission can name only the shards with missing units).\n\
         #SBATCH --job-name={job}-shards\n\
         #SBATCH --output={log}\n\
         {directives}\n\
         set -euo pipefail\n\
         cd {workdir}\n\
         {command}\n",
        last = tasks - 1,
        job = job_name(name),
        log = slurm
            .join(format!("shard-%a-of-{tasks}-job-%A.log"))
            .display(),
        workdir = quote(invocation.workdir),
        command = command(&format!("--shard \"$SLURM_ARRAY_TASK_ID/{tasks}\"")),
    );
    let merge_text = format!(
        "#!/bin/bash\n\
         # Written by `experiments slurm`: the merge of experiment '{name}' (tables, tests and\n\
         # report from the cache), submitted with --dependency=afterok on the shards' array.\n\
         #SBATCH --job-name={job}-merge\n\
         #SBATCH --output={log}\n\
         {directives}\n\
         set -euo pipefail\n\
         cd {workdir}\n\
         {command}\n",
        job = job_name(name),
        log = slurm.join("merge-job-%j.log").display(),
        workdir = quote(invocation.workdir),
        command = command("--merge"),
    );
    let scripts = Scripts {
        shards: slurm.join("shards.sbatch"),
        merge: slurm.join("merge.sbatch"),
    };
    report::write_file(&scripts.shards, &shards_text)?;
    report::write_file(&scripts.merge, &merge_text)?;
    Ok(scripts)
}

/// `path` made absolute against `base` (the jobs may start elsewhere).
fn absolute(base: &Path, path: &Path) -> PathBuf {
    let joined = base.join(path);
    joined.canonicalize().unwrap_or(joined)
}

/// A path quoted for bash (single quotes, with `'` written as `'\''`).
fn quote(path: &Path) -> String {
    format!("'{}'", path.to_string_lossy().replace('\'', r"'\''"))
}

/// An experiment name as a job name (letters, digits, `-`, `_`, `.`).
fn job_name(name: &str) -> String {
    engine::cache::file_safe(name)
}

/// Shard numbers as a Slurm array list, consecutive runs as ranges: `0-3`, `1,4-6`.
fn array_ranges(shards: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut position = 0;
    while position < shards.len() {
        let start = shards[position];
        let mut end = start;
        while position + 1 < shards.len() && shards[position + 1] == end + 1 {
            position += 1;
            end += 1;
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        position += 1;
    }
    parts.join(",")
}

/// Runs `sbatch --parsable ARGS` and returns the job id it printed.
fn sbatch(arguments: &[&std::ffi::OsStr]) -> Result<String> {
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(arguments)
        .output();
    let output = match output {
        Ok(output) => output,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => bail!(
            "sbatch not found: run this where Slurm's commands are (a login node), or submit the \
             scripts written above there by hand"
        ),
        Err(error) => bail!("cannot run sbatch: {error}"),
    };
    if !output.status.success() {
        bail!(
            "sbatch failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let printed = String::from_utf8_lossy(&output.stdout);
    // --parsable prints "id" or "id;cluster".
    let id = printed.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        bail!(
            "sbatch printed '{}' where a job id was expected",
            printed.trim()
        );
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_lists_use_ranges_for_consecutive_shards() {
        assert_eq!(array_ranges(&[0, 1, 2, 3]), "0-3");
        assert_eq!(array_ranges(&[1, 4, 5, 6, 9]), "1,4-6,9");
        assert_eq!(array_ranges(&[2]), "2");
    }

    #[test]
    fn paths_are_quoted_for_bash() {
        assert_eq!(quote(Path::new("/a b/it's")), r"'/a b/it'\''s'");
    }
}
