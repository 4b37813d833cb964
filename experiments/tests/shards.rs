//! Shards and merges through the built binary: the merged outputs are byte-identical to a
//! single process's whatever the number of shards and the order they ran in; a killed shard
//! rerun refits only its unfinished units; shards of one slice running at once leave intact
//! entries; failed units reach the merged report; missing units stop a merge, naming their
//! shards, unless --allow-missing.

mod common;

use std::path::Path;

use common::{
    assert_same_outputs, binary, kill_once_cached, run, scratch, stderr, unit_counts, walk,
    FAILING_CONFIG, KILL_CONFIG,
};

const QUICK: &str = "aslan-quick.toml";

/// A single process's results of `config` under `folder`, run twice so that, like a merge,
/// its report counts every unit as read back from the cache.
fn reference(config: &str, folder: &Path) {
    for _ in 0..2 {
        let output = run(&["--config", config, "--threads", "2"], folder);
        assert!(output.status.success(), "{}", stderr(&output));
    }
}

fn shard(config: &str, folder: &Path, shard: &str) -> std::process::Output {
    run(
        &["--config", config, "--threads", "1", "--shard", shard],
        folder,
    )
}

fn merge(config: &str, folder: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["--config", config, "--merge"];
    args.extend(extra);
    run(&args, folder)
}

#[test]
fn merged_outputs_are_byte_identical_whatever_the_number_and_order_of_shards() {
    let folder = scratch("shards", "identical");
    let single = folder.join("single");
    reference(QUICK, &single);
    for (count, order) in [
        (1, vec![0]),
        (2, vec![1, 0]),
        (4, vec![2, 0, 3, 1]),
        (7, vec![6, 5, 4, 3, 2, 1, 0]),
    ] {
        let sharded = folder.join(format!("sharded-{count}"));
        let mut units = 0;
        for index in order {
            let output = shard(QUICK, &sharded, &format!("{index}/{count}"));
            assert!(output.status.success(), "{}", stderr(&output));
            let (computed, reused, failed) = unit_counts(&stderr(&output));
            assert_eq!((reused, failed), (0, 0), "{}", stderr(&output));
            units += computed;
            assert!(sharded
                .join(format!("aslan-quick/shards/{index}-of-{count}.toml"))
                .is_file());
        }
        // The shards are disjoint and cover the plan: 3 datasets x 5 learners x 5 models, and the
        // two models on the whole training part that Figures 6-7 draw.
        assert_eq!(units, 77);
        // A shard writes no report: only the cache and its record.
        assert!(!sharded.join("aslan-quick/per_fold.csv").exists());
        let output = merge(QUICK, &sharded, &[]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(unit_counts(&stderr(&output)), (0, 77, 0));
        assert_same_outputs(&single.join("aslan-quick"), &sharded.join("aslan-quick"));
    }
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_killed_shard_rerun_refits_only_its_unfinished_units() {
    let folder = scratch("shards", "kill");
    let config = folder.join("kill.toml");
    std::fs::write(&config, KILL_CONFIG).unwrap();
    let config = config.to_string_lossy().into_owned();
    let single = folder.join("single");
    reference(&config, &single);

    let sharded = folder.join("sharded");
    let mut child = binary()
        .args([
            "--config",
            &config,
            "--threads",
            "1",
            "--shard",
            "0/2",
            "--results",
        ])
        .arg(&sharded)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let predictions = sharded.join("kill/predictions");
    let entries = kill_once_cached(&mut child, &predictions, 3);
    let finished: Vec<(std::path::PathBuf, std::time::SystemTime, Vec<u8>)> = entries
        .into_iter()
        .map(|path| {
            let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
            let bytes = std::fs::read(&path).unwrap();
            (path, modified, bytes)
        })
        .collect();

    let output = shard(&config, &sharded, "0/2");
    assert!(output.status.success(), "{}", stderr(&output));
    let (computed, reused, failed) = unit_counts(&stderr(&output));
    assert_eq!((reused, failed), (finished.len(), 0), "{}", stderr(&output));
    // The units finished before the kill were read back, not fitted and written again.
    for (path, modified, bytes) in &finished {
        assert_eq!(
            std::fs::metadata(path).unwrap().modified().unwrap(),
            *modified
        );
        assert_eq!(&std::fs::read(path).unwrap(), bytes);
    }
    let output = shard(&config, &sharded, "1/2");
    assert!(output.status.success(), "{}", stderr(&output));
    let (other, _, _) = unit_counts(&stderr(&output));
    assert_eq!(computed + reused + other, 40);
    let output = merge(&config, &sharded, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_same_outputs(&single.join("kill"), &sharded.join("kill"));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn shards_writing_the_same_entries_at_once_leave_every_entry_intact() {
    let folder = scratch("shards", "concurrent");
    let single = folder.join("single");
    reference(QUICK, &single);
    let sharded = folder.join("sharded");
    // Two processes of shard 0/2 write the same entries at the same time, beside shard 1/2.
    let children: Vec<std::process::Child> = ["0/2", "0/2", "1/2"]
        .iter()
        .map(|slice| {
            binary()
                .args([
                    "--config",
                    QUICK,
                    "--threads",
                    "2",
                    "--shard",
                    slice,
                    "--results",
                ])
                .arg(&sharded)
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    // No temporary file is left (only the units' entries, and the transforms' cached choices
    // under `.transforms/`), and the merge finds every entry whole (a damaged one would be
    // missing from the cache and stop it).
    let leftovers: Vec<_> = walk(&sharded.join("aslan-quick/predictions"))
        .into_iter()
        .filter(|path| path.extension().is_none_or(|e| e != "bin"))
        .filter(|path| {
            let cached_transform = path.parent().and_then(|folder| folder.file_name())
                == Some(std::ffi::OsStr::new(".transforms"));
            !(cached_transform && path.extension().is_some_and(|e| e == "json"))
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let output = merge(QUICK, &sharded, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_same_outputs(&single.join("aslan-quick"), &sharded.join("aslan-quick"));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn failed_units_of_shards_reach_the_merged_report_as_in_a_single_run() {
    let folder = scratch("shards", "failing");
    let config = folder.join("failing.toml");
    std::fs::write(&config, FAILING_CONFIG).unwrap();
    let config = config.to_string_lossy().into_owned();
    let single = folder.join("single");
    for _ in 0..2 {
        let output = run(&["--config", &config], &single);
        assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    }
    let sharded = folder.join("sharded");
    for index in ["0/2", "1/2"] {
        // A shard whose units fail has still done its work: it exits 0 and says so.
        let output = shard(&config, &sharded, index);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let output = merge(&config, &sharded, &[]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert!(stderr(&output).contains("3 of 6 units failed (learners: broken)"));
    assert_same_outputs(&single.join("failing"), &sharded.join("failing"));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_merge_names_missing_units_and_their_shards_unless_allowed() {
    let folder = scratch("shards", "missing");
    for index in [0, 2] {
        let output = shard(QUICK, &folder, &format!("{index}/3"));
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let output = merge(QUICK, &folder, &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.contains("units are not in the cache, of 1 shards: shard 1/3: ")
            && message.contains("--allow-missing"),
        "{message}"
    );
    assert!(!folder.join("aslan-quick/index.html").exists());

    let output = merge(QUICK, &folder, &["--allow-missing"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let results = folder.join("aslan-quick");
    let html = std::fs::read_to_string(results.join("index.html")).unwrap();
    assert!(html.contains("merged with --allow-missing"), "{html}");
    let table = std::fs::read_to_string(results.join("tables/missing.csv")).unwrap();
    assert!(table.contains("1/3"), "{table}");
    let units = std::fs::read_to_string(results.join("units.csv")).unwrap();
    let missing = units.matches(",missing,").count();
    assert!(missing > 0 && missing < 77, "{units}");
    // The merge kept the cache and the shard records.
    assert!(results.join("shards/0-of-3.toml").is_file());
    let _ = std::fs::remove_dir_all(&folder);
}

/// Tuned learners in shards: a shard runs every inner unit of its outer units and chooses
/// their candidates itself, so the shards of a tuned experiment run in any order, and the
/// merge (which chooses again from the cache) writes what a single process writes.
#[test]
fn tuned_learners_run_in_shards_and_merge_to_the_single_run() {
    let folder = scratch("shards", "tuned");
    let config = folder.join("tuned.toml");
    std::fs::write(
        &config,
        r#"
name = "tuned"
datasets = ["breast-cancer", "glass"]
protocol = { kind = "stratified_kfold", folds = 3 }
tuning = { budget = 3, method = "grid", measure = "error", inner = { kind = "stratified_kfold", folds = 2 } }
learners = [
  { name = "knn", kind = "knn", select_k = false, tune = { k = [1, 5, 11] } },
  { name = "c45", kind = "c45", tune = { min_leaf = [2, 10] } },
  { kind = "naive_bayes" },
]
"#,
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let single = folder.join("single");
    reference(config, &single);
    let sharded = folder.join("sharded");
    let mut inner = 0;
    for index in [2, 0, 1] {
        let output = shard(config, &sharded, &format!("{index}/3"));
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stderr(&output);
        let line = text
            .lines()
            .find(|line| line.starts_with("tuning: "))
            .unwrap_or_else(|| panic!("no tuning line in {text}"));
        inner += line["tuning: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap();
    }
    // 2 datasets x 3 outer folds x 2 inner folds x (3 + 2) candidates, each in one shard.
    assert_eq!(inner, 60);
    let output = merge(config, &sharded, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("tuning: 60 inner units: 0 computed, 60 reused"),
        "{}",
        stderr(&output)
    );
    assert_same_outputs(&single.join("tuned"), &sharded.join("tuned"));
    let _ = std::fs::remove_dir_all(&folder);
}
