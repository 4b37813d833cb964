//! A run's own surface (issue 28): configs, flags and results folders a user can write that
//! the engine must refuse before any work (huge plans, nested ensembles, duplicate measures,
//! `--shard` past its range, results folders that cannot be written, by `--check` too), and the
//! publication of a report: one step that a kill never leaves half done, and that two runs on
//! one results folder share. Each case asserts the exit status and the words of the message.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Instant;

use common::{binary, stderr};

fn scratch(name: &str) -> PathBuf {
    common::scratch("bad_input_run", name)
}

/// A small experiment on two shipped datasets, with `extra` lines at the top.
fn config(folder: &Path, name: &str, extra: &str) -> PathBuf {
    let path = folder.join(format!("{name}.toml"));
    let text = format!(
        "name = \"{name}\"\nseed = 1\n{extra}\ndatasets = [\"pima\", \"sonar\"]\n\
         [protocol]\nkind = \"stratified_kfold\"\nfolds = 5\n\
         [[learners]]\nkind = \"naive_bayes\"\n[[learners]]\nkind = \"c45\"\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn experiments(args: &[&str]) -> Output {
    binary().args(args).output().unwrap()
}

/// Runs a command that must be refused with `status`, no panic, and every one of `words` in
/// its message; returns the message.
fn refused(args: &[&str], status: i32, words: &[&str]) -> String {
    let output = experiments(args);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(status), "{args:?}: {message}");
    assert!(!message.contains("panicked"), "{args:?}: {message}");
    for word in words {
        assert!(message.contains(word), "'{word}' in {args:?}: {message}");
    }
    message
}

#[test]
fn a_huge_plan_is_refused_at_the_largest_limits() {
    let folder = scratch("huge");
    let path = config(&folder, "huge", "measures = [\"error\"]");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("folds = 5", "folds = 1000000000");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let largest = [
        "--max-units",
        "1000000000",
        "--max-split-memory-mb",
        "1048576",
    ];
    for command in [&["--check", "--config", path][..], &["--config", path][..]] {
        let args: Vec<&str> = command.iter().chain(&largest).copied().collect();
        refused(
            &args,
            1,
            &["dataset 'pima'", "1000000000 splits", "MB", "'folds'"],
        );
    }
    // Past their largest values, the limits themselves are refused with their range.
    refused(
        &[
            "--check",
            "--config",
            path,
            "--max-units",
            "18446744073709551615",
        ],
        2,
        &["--max-units", "1..=1000000000"],
    );
    refused(
        &["--check", "--config", path, "--max-split-memory-mb", "0"],
        2,
        &["--max-split-memory-mb", "1..=1048576"],
    );
}

#[test]
fn shard_numbers_past_the_range_are_refused_with_it() {
    let folder = scratch("shard");
    let path = config(&folder, "shard", "");
    let path = path.to_str().unwrap();
    for shard in [
        "0/18446744073709551615",
        "4294967295/4294967296",
        "0/1000001",
    ] {
        refused(
            &["--config", path, "--shard", shard],
            2,
            &[shard, "the number of shards N must be from 1 to 100000"],
        );
    }
    refused(
        &["--config", path, "--shard", "7/7"],
        2,
        &["below the number of shards 7"],
    );
}

#[test]
fn nested_bagging_is_refused_naming_the_keys_that_multiply_its_work() {
    let folder = scratch("nested");
    let path = folder.join("nested.toml");
    std::fs::write(
        &path,
        "name = \"nested\"\ndatasets = [\"pima\"]\n\
         protocol = { kind = \"stratified_kfold\", folds = 10 }\n\
         [[learners]]\nkind = \"bagging\"\niterations = 10000\n\
         base = { kind = \"bagging\", iterations = 10000, base = { kind = \"bagging\", \
         iterations = 10000, base = { kind = \"c45\" } } }\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    for command in [&["--check", "--config", path][..], &["--config", path][..]] {
        refused(
            command,
            1,
            &[
                "key 'learners' entry 1 ('bagging')",
                "dataset 'pima'",
                "over the limit",
                "'iterations' = 10000",
                "'base.iterations' = 10000",
                "'base.base.iterations' = 10000",
            ],
        );
    }
}

#[test]
fn a_measure_named_twice_is_refused() {
    let folder = scratch("twice");
    let path = config(&folder, "twice", "measures = [\"error\", \"error\"]");
    refused(
        &["--check", "--config", path.to_str().unwrap()],
        1,
        &["key 'measures' entry 2", "'error' appears twice"],
    );
}

/// Every way the results folder can fail to be written, by `--check` and by a run, refused
/// with the path before any unit is fitted.
#[test]
fn a_results_folder_that_cannot_be_written_is_refused_before_any_fit() {
    let folder = scratch("unwritable");
    let path = config(&folder, "unwritable", "");
    let path = path.to_str().unwrap();
    let file = folder.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let under_file = file.join("results");
    let long = folder.join("long");
    std::fs::create_dir_all(&long).unwrap();
    let long_name = config(&long, "long", "");
    let text = std::fs::read_to_string(&long_name).unwrap();
    std::fs::write(
        &long_name,
        text.replace("\"long\"", &format!("\"{}\"", "x".repeat(256))),
    )
    .unwrap();
    let cases: [(&str, &Path, &[&str]); 3] = [
        (path, &under_file, &["a-file", "not a folder"]),
        (path, Path::new("/proc/results"), &["/proc/results"]),
        (long_name.to_str().unwrap(), &long, &["File name too long"]),
    ];
    for (config, results, words) in cases {
        for check in [true, false] {
            let mut args = vec!["--config", config, "--results", results.to_str().unwrap()];
            if check {
                args.insert(0, "--check");
            }
            let message = refused(&args, 1, words);
            assert!(message.contains("cannot create"), "{message}");
            assert!(!message.contains("units:"), "a unit was run: {message}");
        }
    }
    // --check leaves nothing behind in a folder it can write.
    let fine = folder.join("fine");
    let output = experiments(&[
        "--check",
        "--config",
        path,
        "--results",
        fine.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!fine.join("unwritable").exists());
}

#[test]
fn a_read_only_results_folder_is_refused_before_any_fit() {
    use std::os::unix::fs::PermissionsExt;
    let folder = scratch("read-only");
    let path = config(&folder, "ro", "");
    let results = folder.join("results");
    std::fs::create_dir_all(results.join("ro")).unwrap();
    let target = results.join("ro");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o555)).unwrap();
    let message = refused(
        &[
            "--config",
            path.to_str().unwrap(),
            "--results",
            results.to_str().unwrap(),
        ],
        1,
        &["results", "read-only"],
    );
    assert!(!message.contains("units:"), "{message}");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The report files of a results folder (relative paths), the cache left out.
fn report_files(folder: &Path) -> Vec<String> {
    let mut files: Vec<String> = common::walk(folder)
        .iter()
        .map(|path| {
            path.strip_prefix(folder)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|path| !path.starts_with("predictions"))
        .collect();
    files.sort();
    files
}

#[test]
fn kills_while_a_report_is_published_never_leave_an_incomplete_folder() {
    let folder = scratch("kills");
    let path = config(&folder, "kills", "measures = [\"error\", \"auc\"]");
    let results = folder.join("results");
    let args = [
        "--config",
        path.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
        "--threads",
        "1",
    ];
    assert!(experiments(&args).status.success());
    let started = Instant::now();
    assert!(experiments(&args).status.success());
    let duration = started.elapsed();
    let target = results.join("kills");
    let (files, units) = (
        report_files(&target),
        std::fs::read(target.join("units.csv")).unwrap(),
    );
    // Kills spread over a run that reuses every unit (most while it writes its report).
    let kills = 30;
    for kill in 0..kills {
        let mut child = binary()
            .args(args)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(duration.mul_f64(0.3 + 0.8 * kill as f64 / kills as f64));
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(report_files(&target), files, "after kill {kill}");
        assert_eq!(std::fs::read(target.join("units.csv")).unwrap(), units);
    }
    // Nothing cached was lost, and no staging folder is left.
    let output = experiments(&args);
    assert!(
        stderr(&output).contains("units: 0 computed, 20 reused"),
        "{}",
        stderr(&output)
    );
    let leftovers: Vec<_> = std::fs::read_dir(&results)
        .unwrap()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().contains(".staging-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn two_runs_on_one_results_folder_both_finish_with_an_intact_report() {
    let folder = scratch("two");
    let path = config(&folder, "two", "");
    let results = folder.join("results");
    let args = [
        "--config",
        path.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
    ];
    assert!(experiments(&args).status.success());
    let target = results.join("two");
    let files = report_files(&target);
    for _ in 0..3 {
        let children: Vec<_> = (0..2)
            .map(|_| {
                binary()
                    .args(args)
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success());
        }
        assert_eq!(report_files(&target), files);
    }
}

#[test]
fn a_live_runs_staging_folder_is_left_alone_and_a_dead_ones_removed() {
    let folder = scratch("staging");
    let path = config(&folder, "staging", "");
    let results = folder.join("results");
    let args = [
        "--config",
        path.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
    ];
    assert!(experiments(&args).status.success());
    // A staging folder whose owner (this test) lives: its `.owner` is locked.
    let live = results.join(".staging.staging-0000000001-000000001");
    std::fs::create_dir_all(&live).unwrap();
    let owner = std::fs::File::create(live.join(".owner")).unwrap();
    owner.lock().unwrap();
    let dead = results.join(".staging.staging-0000000002-000000002");
    std::fs::create_dir_all(&dead).unwrap();
    std::fs::File::create(dead.join(".owner")).unwrap();
    assert!(experiments(&args).status.success());
    assert!(live.exists(), "the live staging folder was removed");
    assert!(!dead.exists(), "the dead staging folder was left");
    drop(owner);
    assert!(experiments(&args).status.success());
    assert!(
        !live.exists(),
        "a staging folder whose owner has gone was left"
    );
}
