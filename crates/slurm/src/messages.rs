//! What `experiments slurm` says about prepared jobs: what was written and what the cache
//! holds, how to submit by hand, and how to follow the submitted jobs.

use crate::Prepared;

/// The units, shards and scripts written, and what the cache already holds; `asked` is the
/// --tasks given (more than the units are fewer shards, said in a note).
pub fn prepared_text(prepared: &Prepared, asked: usize) -> String {
    let (name, missing, pending) = (&prepared.name, &prepared.missing, &prepared.pending);
    let tasks = prepared.tasks;
    let mut text = String::new();
    if tasks < asked {
        text.push_str(&format!(
            "note: --tasks {asked} is more than the experiment's {} units: {tasks} shards, one \
             unit each (a shard without units would be a job with nothing to do)\n",
            prepared.units
        ));
    }
    text.push_str(&format!(
        "experiment '{name}': {} units in {tasks} shards ({}); scripts in {}\n",
        prepared.units,
        prepared.costs,
        prepared.slurm.display()
    ));
    let already = prepared.units - missing.iter().sum::<usize>();
    if pending.is_empty() {
        text.push_str("every unit is in the cache: only the merge job is needed\n");
    } else if already > 0 {
        let shards: Vec<String> = pending
            .iter()
            .map(|&shard| format!("{shard} ({} units)", missing[shard]))
            .collect();
        text.push_str(&format!(
            "{already} units are in the cache already; shards with units to run: {}\n",
            shards.join(", ")
        ));
    }
    text
}

/// The commands that submit the prepared jobs by hand.
pub fn submit_text(prepared: &Prepared) -> String {
    let (shards, merge) = (
        prepared.shards_script.display(),
        prepared.merge_script.display(),
    );
    let mut text = String::from("submit with:\n");
    if prepared.pending.is_empty() {
        text.push_str(&format!("  sbatch {merge}\n"));
    } else {
        let array = crate::array_ranges(&prepared.pending);
        text.push_str(&format!(
            "  array=$(sbatch --parsable --array={array} {shards}) && sbatch \
             --dependency=afterok:${{array%%;*}} {merge}\n"
        ));
    }
    text.push_str("(or run this command again with --submit)\n");
    text
}

/// How to follow the submitted jobs (the merge job `merge_id`), and where their logs and
/// results go.
pub fn follow_text(prepared: &Prepared, merge_id: &str) -> String {
    format!(
        "follow them with: squeue -u $USER   (or: sacct -j {merge_id} --format=JobID,State,Elapsed,ExitCode)\n\
         logs: {}; results: {}\n\
         if a task fails, run this command again: it resubmits only the shards with missing units\n",
        prepared.slurm.display(),
        prepared.folder.join("index.html").display()
    )
}
