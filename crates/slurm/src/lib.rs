//! An experiment on a Slurm cluster: a job array of shards (`--shard $SLURM_ARRAY_TASK_ID/N`)
//! and a merge job that waits for the whole array (`--dependency=afterok`). [`prepare`] writes
//! the two sbatch scripts under `results/<name>/slurm/` and finds the shards that still have
//! units missing from the cache (all of them on a first run; after killed or failed tasks, only
//! theirs); [`submit_shards`] and [`submit_merge`] submit them with `sbatch --parsable`. See
//! docs/slurm.md.

use std::path::{Path, PathBuf};
use std::process::Command;

mod checks;
mod messages;

pub use checks::{check_directives, check_text, JobError};
use engine::experiment::SLURM_FOLDER;
use engine::file_safe;
use engine::run::cache::{look_up, Cached};
use engine::run::shard::Assignment;
pub use messages::{follow_text, prepared_text, submit_text};

/// Why the jobs could not be written or submitted.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    /// The engine refused the config.
    #[error(transparent)]
    Engine(#[from] engine::Error),
    /// A folder or script could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The folder or file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A value that cannot go into a job script (`--partition`, `--time`, `--mem`, a path).
    #[error(transparent)]
    Job(#[from] JobError),
    /// A script could not be written.
    #[error(transparent)]
    Report(#[from] report::ReportError),
    /// `sbatch` is not installed here.
    #[error("sbatch not found: run this where Slurm's commands are (a login node), or submit the scripts written above there by hand")]
    NoSbatch,
    /// `sbatch` could not run, failed, or printed no job id.
    #[error("{0}")]
    Sbatch(String),
}

/// The jobs' resources (sbatch directives) and the number of shards.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Jobs {
    /// The number of array tasks (shards), at least 1.
    pub tasks: usize,
    /// `--partition`, if given.
    pub partition: Option<String>,
    /// `--time` of each job, if given.
    pub time: Option<String>,
    /// `--mem` of each job, if given.
    pub mem: Option<String>,
    /// `--cpus-per-task`: each task runs that many worker threads.
    pub cpus: u32,
}

/// What every job runs: the built program on the config, from a fixed folder (all absolute).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The program (the built binary, not `cargo run`).
    pub binary: PathBuf,
    /// The config file.
    pub config: PathBuf,
    /// The folder results folders go under (shared by the cluster's nodes).
    pub results_root: PathBuf,
    /// The folder the jobs run in (where shipped datasets are found).
    pub workdir: PathBuf,
    /// The plan's bounds as given: `--max-units` and `--max-split-memory-mb`.
    pub limits: (u64, u64),
}

/// The scripts written for an experiment and the shards still to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    /// The experiment's name.
    pub name: String,
    /// Its number of units.
    pub units: usize,
    /// The number of shards (array tasks): as asked, but at most one per unit.
    pub tasks: usize,
    /// Where the expected costs that balance the shards came from.
    pub costs: String,
    /// Units missing from the cache, per shard.
    pub missing: Vec<usize>,
    /// The shards with missing units.
    pub pending: Vec<usize>,
    /// The experiment's results folder.
    pub folder: PathBuf,
    /// The folder of the scripts and the jobs' logs.
    pub slurm: PathBuf,
    /// The job array of shards.
    pub shards_script: PathBuf,
    /// The merge job.
    pub merge_script: PathBuf,
}

/// Checks the config (`config` as the user named it), writes the scripts and finds the shards
/// with units still to run.
pub fn prepare(
    engine: &engine::Engine,
    config: &Path,
    jobs: &Jobs,
    invocation: &Invocation,
) -> Result<Prepared, SlurmError> {
    check_directives(
        jobs.partition.as_deref(),
        jobs.time.as_deref(),
        jobs.mem.as_deref(),
    )?;
    let paths = [
        ("the program's path", &invocation.binary),
        ("--config", &invocation.config),
        ("--results", &invocation.results_root),
        ("the current folder", &invocation.workdir),
    ];
    for (what, path) in paths {
        check_text(what, &path.to_string_lossy())?;
    }
    let checked = engine.check_file(config)?;
    let name = checked.config.name.clone();
    check_text("the experiment's name", &name)?;
    let plan = &checked.plan;
    let folder = invocation.results_root.join(&name);
    let slurm = folder.join(SLURM_FOLDER);
    std::fs::create_dir_all(&slurm).map_err(|source| SlurmError::Write {
        path: slurm.clone(),
        source,
    })?;
    // More shards than units would start jobs with nothing to do: one unit per shard at most.
    let jobs = &Jobs {
        tasks: jobs.tasks.clamp(1, plan.units.len().max(1)),
        ..jobs.clone()
    };
    let assignment = Assignment::new(plan, &folder, jobs.tasks);
    let mut missing = vec![0usize; jobs.tasks];
    for (&unit, &shard) in plan.units.iter().zip(&assignment.shard_of) {
        if !matches!(look_up(&folder, &plan.spec(unit)).0, Cached::Found(_)) {
            missing[shard] += 1;
        }
    }
    let (shards_text, merge_text) = scripts(jobs, invocation, &name, &slurm);
    let prepared = Prepared {
        name,
        units: plan.units.len(),
        tasks: jobs.tasks,
        costs: assignment.describe_source(),
        pending: (0..jobs.tasks)
            .filter(|&shard| missing[shard] > 0)
            .collect(),
        missing,
        shards_script: slurm.join("shards.sbatch"),
        merge_script: slurm.join("merge.sbatch"),
        folder,
        slurm,
    };
    report::write_file(&prepared.shards_script, &shards_text)?;
    report::write_file(&prepared.merge_script, &merge_text)?;
    Ok(prepared)
}

/// The texts of `shards.sbatch` and `merge.sbatch` for experiment `name`, logging into `slurm`.
pub fn scripts(jobs: &Jobs, invocation: &Invocation, name: &str, slurm: &Path) -> (String, String) {
    let tasks = jobs.tasks;
    let mut directives = Vec::new();
    for (key, value) in [
        ("partition", &jobs.partition),
        ("time", &jobs.time),
        ("mem", &jobs.mem),
    ] {
        if let Some(value) = value {
            directives.push(format!("#SBATCH --{key}={value}"));
        }
    }
    directives.push(format!("#SBATCH --cpus-per-task={}", jobs.cpus));
    let directives = directives.join("\n");
    let command = |extra: &str| {
        format!(
            "exec {} --config {} --results {} --max-units {} --max-split-memory-mb {} \
             --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" {extra}",
            quote(&invocation.binary),
            quote(&invocation.config),
            quote(&invocation.results_root),
            invocation.limits.0,
            invocation.limits.1
        )
    };
    let (job, workdir) = (file_safe(name), quote(&invocation.workdir));
    let shards = format!(
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
        log = slurm
            .join(format!("shard-%a-of-{tasks}-job-%A.log"))
            .display(),
        command = command(&format!("--shard \"$SLURM_ARRAY_TASK_ID/{tasks}\"")),
    );
    let merge = format!(
        "#!/bin/bash\n\
         # Written by `experiments slurm`: the merge of experiment '{name}' (tables, tests and\n\
         # report from the cache), submitted with --dependency=afterok on the shards' array.\n\
         #SBATCH --job-name={job}-merge\n\
         #SBATCH --output={log}\n\
         {directives}\n\
         set -euo pipefail\n\
         cd {workdir}\n\
         {command}\n",
        log = slurm.join("merge-job-%j.log").display(),
        command = command("--merge"),
    );
    (shards, merge)
}

/// Submits the pending shards as a job array: its id and its shards (`0-3`, `1,4-6`), or
/// `None` when no shard is pending.
pub fn submit_shards(prepared: &Prepared) -> Result<Option<(String, String)>, SlurmError> {
    if prepared.pending.is_empty() {
        return Ok(None);
    }
    let array = array_ranges(&prepared.pending);
    let argument = format!("--array={array}");
    let id = sbatch(&[argument.as_ref(), prepared.shards_script.as_os_str()])?;
    Ok(Some((id, array)))
}

/// Submits the merge job, after the job array `after` has succeeded if there is one; its id.
pub fn submit_merge(prepared: &Prepared, after: Option<&str>) -> Result<String, SlurmError> {
    let script = prepared.merge_script.as_os_str();
    match after {
        Some(array) => {
            let dependency = format!("--dependency=afterok:{array}");
            sbatch(&[dependency.as_ref(), script])
        }
        None => sbatch(&[script]),
    }
}

/// A path quoted for bash (single quotes, with `'` written as `'\''`).
fn quote(path: &Path) -> String {
    format!("'{}'", path.to_string_lossy().replace('\'', r"'\''"))
}

/// Shard numbers as a Slurm array list, consecutive runs as ranges: `0-3`, `1,4-6`.
pub fn array_ranges(shards: &[usize]) -> String {
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
fn sbatch(arguments: &[&std::ffi::OsStr]) -> Result<String, SlurmError> {
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(arguments)
        .output();
    let output = match output {
        Ok(output) => output,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(SlurmError::NoSbatch)
        }
        Err(error) => return Err(SlurmError::Sbatch(format!("cannot run sbatch: {error}"))),
    };
    if !output.status.success() {
        return Err(SlurmError::Sbatch(format!(
            "sbatch failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    let printed = String::from_utf8_lossy(&output.stdout);
    // --parsable prints "id" or "id;cluster".
    let id = printed.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        return Err(SlurmError::Sbatch(format!(
            "sbatch printed '{}' where a job id was expected",
            printed.trim()
        )));
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
