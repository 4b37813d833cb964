//! The real scheduler: `experiments slurm --submit` runs the quick Aslan config as a 4-task job
//! array plus a merge job through `sbatch`, and the merged outputs are byte-identical to a
//! single process's; after some cache entries are lost, running it again resubmits only the
//! shards that own them.
//!
//! Needs `sbatch` and a running cluster: `scripts/local-slurm.sh start` starts one on this
//! machine (`.ci/run` does), and this test finds it through `SLURM_CONF`, else the script's
//! `$LOCAL_SLURM_DIR/slurm.conf` (default /tmp/local-slurm), else Slurm's own default. Without
//! them it prints why and passes, so `cargo test` still passes on a laptop.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{assert_same_outputs, binary, run, scratch, stderr, stdout, walk};

/// The slurm.conf to use, or why the test cannot run.
fn cluster() -> Result<Option<PathBuf>, String> {
    if Command::new("sbatch").arg("--version").output().is_err() {
        return Err("sbatch is not installed".into());
    }
    let conf = match std::env::var_os("SLURM_CONF") {
        Some(conf) => Some(PathBuf::from(conf)),
        None => {
            let local = PathBuf::from(
                std::env::var_os("LOCAL_SLURM_DIR").unwrap_or_else(|| "/tmp/local-slurm".into()),
            )
            .join("slurm.conf");
            local.is_file().then_some(local)
        }
    };
    let mut sinfo = Command::new("sinfo");
    sinfo.args(["-h", "-o", "%t"]);
    if let Some(conf) = &conf {
        sinfo.env("SLURM_CONF", conf);
    }
    match sinfo.output() {
        Ok(output)
            if output.status.success()
                && String::from_utf8_lossy(&output.stdout)
                    .lines()
                    .any(|state| state.starts_with("idle") || state.starts_with("mix")) =>
        {
            Ok(conf)
        }
        Ok(output) => Err(format!(
            "no Slurm cluster with an idle node is up (sinfo: {}{}); start one with \
             scripts/local-slurm.sh start",
            String::from_utf8_lossy(&output.stdout).trim(),
            String::from_utf8_lossy(&output.stderr).trim()
        )),
        Err(error) => Err(format!("cannot run sinfo: {error}")),
    }
}

/// Runs `experiments slurm --submit` and returns its standard output and the job ids it
/// printed (the array's, if one was submitted, and the merge's).
fn submit(conf: &Option<PathBuf>, results: &Path) -> (String, Vec<String>) {
    let mut command = binary();
    command.args([
        "slurm",
        "--config",
        "aslan-quick.toml",
        "--tasks",
        "4",
        "--submit",
    ]);
    command.arg("--results").arg(results);
    if let Some(conf) = conf {
        command.env("SLURM_CONF", conf);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let ids = text
        .lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("submitted the job array ")
                .or_else(|| line.strip_prefix("submitted the merge job "))?;
            Some(rest.split(' ').next()?.to_string())
        })
        .collect();
    (text, ids)
}

/// Polls squeue until none of the jobs is queued or running.
fn wait_for(conf: &Option<PathBuf>, ids: &[String], logs: &Path) {
    let started = Instant::now();
    loop {
        let mut squeue = Command::new("squeue");
        squeue.args(["-h", "-j", &ids.join(",")]);
        if let Some(conf) = conf {
            squeue.env("SLURM_CONF", conf);
        }
        let output = squeue.output().unwrap();
        if String::from_utf8_lossy(&output.stdout).trim().is_empty() {
            return;
        }
        if started.elapsed() > Duration::from_secs(900) {
            let logs: Vec<String> = walk(logs)
                .iter()
                .map(|log| std::fs::read_to_string(log).unwrap_or_default())
                .collect();
            panic!(
                "jobs {ids:?} still queued after 15 minutes; logs:\n{}",
                logs.join("\n")
            );
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn a_job_array_and_its_merge_give_the_single_process_outputs() {
    let conf = match cluster() {
        Ok(conf) => conf,
        Err(why) => {
            eprintln!("skipped the Slurm test: {why}");
            return;
        }
    };
    let folder = scratch("slurm", "array");
    let single = folder.join("single");
    for _ in 0..2 {
        let output = run(&["--config", "aslan-quick.toml"], &single);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let cluster_results = folder.join("cluster");
    let results = cluster_results.join("aslan-quick");
    let (text, ids) = submit(&conf, &cluster_results);
    assert_eq!(ids.len(), 2, "{text}");
    wait_for(&conf, &ids, &results.join("slurm"));
    let logs = results.join("slurm");
    for index in 0..4 {
        assert!(
            results.join(format!("shards/{index}-of-4.toml")).is_file(),
            "shard {index} did not finish; logs in {}",
            logs.display()
        );
    }
    assert!(
        results.join("index.html").is_file(),
        "the merge did not run; logs in {}",
        logs.display()
    );
    assert_same_outputs(&single.join("aslan-quick"), &results);

    // Lose a cache entry, as a killed task would: running the command again submits only the
    // shard that owns it, then the merge.
    let lost = walk(&results.join("predictions/sonar/knn"))[0].clone();
    std::fs::remove_file(&lost).unwrap();
    let (text, ids) = submit(&conf, &cluster_results);
    assert_eq!(ids.len(), 2, "{text}");
    let line = text
        .lines()
        .find(|line| line.starts_with("submitted the job array"))
        .unwrap();
    let shards = line
        .split("(shards ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert!(
        shards.len() == 1 && shards.chars().all(|c| c.is_ascii_digit()),
        "{text}"
    );
    // aslan-quick's 77 units (75 fold units and the 2 whole-training units of its test-set
    // tests), less the one lost.
    assert!(text.contains("76 units are in the cache already"), "{text}");
    wait_for(&conf, &ids, &logs);
    assert!(lost.is_file(), "{} was not computed again", lost.display());
    assert_same_outputs(&single.join("aslan-quick"), &results);
    let _ = std::fs::remove_dir_all(&folder);
}
