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
    // A name over 255 characters is refused by the config check (bad_input_config.rs); a
    // results folder's own name can still be too long for the file system.
    let long = folder.join("x".repeat(256));
    let cases: [(&str, &Path, &[&str]); 3] = [
        (path, &under_file, &["a-file", "not a folder"]),
        (path, Path::new("/proc/results"), &["/proc/results"]),
        (path, &long, &["File name too long"]),
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

/// The ten columns of solar-flare (flare.data2's format, as the shipped solar-flare-1) that
/// hold category codes written as digits: the catalog declares all 12 attributes nominal, and
/// the other two are letters.
const FLARE_DIGIT_CODES: [&str; 10] = [
    "activity",
    "evolution",
    "previous24",
    "hist_complex",
    "comp_on_this_",
    "area",
    "area_of_largest",
    "C_class",
    "M_class",
    "X_class",
];

/// A config at `folder/configs/NAME.toml` with these dataset entries (TOML) and C4.5 on 5 folds.
fn datasets_config(folder: &Path, name: &str, datasets: &str) -> PathBuf {
    let configs = folder.join("configs");
    std::fs::create_dir_all(&configs).unwrap();
    let path = configs.join(format!("{name}.toml"));
    let text = format!(
        "name = \"{name}\"\nseed = 1\ndatasets = [{datasets}]\nmeasures = [\"error\"]\n\
         [protocol]\nkind = \"stratified_kfold\"\nfolds = 5\n[[learners]]\nkind = \"c45\"\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// A copy of the shipped solar-flare file as a file of one's own, `folder/data/solar-flare-2.csv`.
fn solar_flare_copy(folder: &Path) -> PathBuf {
    let data = folder.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let copy = data.join("solar-flare-2.csv");
    let shipped = common::workspace_root().join("datasets/solar-flare-1.csv");
    std::fs::copy(shipped, &copy).unwrap();
    copy
}

#[test]
fn digit_coded_categories_are_named_in_the_log_and_the_report_with_how_to_declare_them() {
    let folder = scratch("notices");
    solar_flare_copy(&folder);
    let path = datasets_config(&folder, "flare", "\"../data/solar-flare-2.csv\"");
    let results = folder.join("results");
    let output = common::run(&["--config", path.to_str().unwrap()], &results);
    let log = stderr(&output);
    assert!(output.status.success(), "{log}");
    let report = std::fs::read_to_string(results.join("flare/index.html"))
        .unwrap()
        .replace("&#39;", "'")
        .replace("&quot;", "\"");
    for text in [&log, &report] {
        assert!(text.contains("Dataset notices") || text.contains("note: dataset"));
        for column in FLARE_DIGIT_CODES {
            assert!(text.contains(&format!("'{column}' (")), "{column}: {text}");
        }
        for words in [
            "solar-flare-2",
            "declare them nominal",
            "nominal_columns = [\"activity\"",
        ] {
            assert!(text.contains(words), "'{words}' in {text}");
        }
    }
    assert!(
        log.contains("note: dataset 'solar-flare-2': columns 'activity'"),
        "{log}"
    );
    assert!(report.contains("Dataset notices"), "{report}");
    // Declared nominal, the notice is gone from both.
    let declared: Vec<String> = FLARE_DIGIT_CODES
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect();
    let entry = format!(
        "{{ name = \"../data/solar-flare-2.csv\", nominal_columns = [{}] }}",
        declared.join(", ")
    );
    let path = datasets_config(&folder, "declared", &entry);
    let output = common::run(&["--config", path.to_str().unwrap()], &results);
    let log = stderr(&output);
    assert!(output.status.success(), "{log}");
    let report = std::fs::read_to_string(results.join("declared/index.html")).unwrap();
    assert!(!log.contains("note: dataset"), "{log}");
    assert!(!report.contains("Dataset notices"), "{report}");
}

#[test]
fn a_missing_dataset_names_the_paths_tried_from_the_configs_folder_and_the_closest_names() {
    let folder = scratch("missing_dataset");
    let path = datasets_config(
        &folder,
        "missing",
        "\"../../datasets/monks-1-train-and-test.csv\", \"glas\"",
    );
    let configs = folder.join("configs");
    // The program runs in the workspace root (see `common::binary`).
    let here = common::workspace_root().canonicalize().unwrap();
    let message = refused(
        &["--check", "--config", path.to_str().unwrap()],
        1,
        &[
            "key 'datasets' entry 1 ('../../datasets/monks-1-train-and-test.csv')",
            &format!(
                "looked for {}",
                configs
                    .join("../../datasets/monks-1-train-and-test.csv")
                    .display()
            ),
            &here
                .join("../../datasets/monks-1-train-and-test.csv")
                .display()
                .to_string(),
            "the closest shipped names: monks-1-train-and-test",
            "key 'datasets' entry 2 ('glas')",
            &configs.join("glas").display().to_string(),
            "the closest shipped names: glass",
        ],
    );
    assert!(
        !message.contains("kr-vs-kp"),
        "not every shipped name: {message}"
    );
}

#[test]
fn one_file_listed_twice_with_different_column_settings_runs_as_two_named_datasets() {
    let folder = scratch("same_file_twice");
    solar_flare_copy(&folder);
    let file = "\"../data/solar-flare-2.csv\"";
    let entries = format!("{file}, {{ name = {file}, nominal_columns = [\"activity\"] }}");
    let path = datasets_config(&folder, "twice", &entries);
    let results = folder.join("results");
    let output = common::run(&["--config", path.to_str().unwrap()], &results);
    let log = stderr(&output);
    assert!(output.status.success(), "{log}");
    assert!(log.contains("listed there more than once"), "{log}");
    let summary = std::fs::read_to_string(results.join("twice/tables/summary.csv")).unwrap();
    let datasets: Vec<&str> = summary
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(
        datasets,
        ["solar-flare-2-entry1", "solar-flare-2-entry2"],
        "{summary}"
    );
    // Labels name them.
    let entries = format!(
        "{{ name = {file}, label = \"codes\" }}, \
         {{ name = {file}, label = \"categories\", nominal_columns = [\"activity\"] }}"
    );
    let path = datasets_config(&folder, "labelled", &entries);
    let output = common::run(&["--config", path.to_str().unwrap()], &results);
    assert!(output.status.success(), "{}", stderr(&output));
    let summary = std::fs::read_to_string(results.join("labelled/tables/summary.csv")).unwrap();
    let datasets: Vec<&str> = summary
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(datasets, ["codes", "categories"], "{summary}");
}

#[test]
fn a_dataset_listed_twice_alike_or_shipped_with_column_settings_is_refused() {
    let folder = scratch("listed_twice");
    let cases = [
        (
            "\"pima\", \"pima\"",
            vec!["'pima' appears twice with the same settings (entries 1 and 2)"],
        ),
        (
            "{ name = \"pima\", label = \"a\" }, { name = \"sonar\", label = \"a\" }",
            vec![
                "the name 'a' is used twice (entries 1 and 2)",
                "distinct `label`",
            ],
        ),
        (
            "{ name = \"pima\", label = \"a b\" }, { name = \"sonar\", label = \"a_b\" }",
            vec!["'a b' (entry 1) and 'a_b' (entry 2) are one file name"],
        ),
        (
            "{ name = \"pima\", label = \" \" }",
            vec!["key 'datasets' entry 1: 'label' must be a non-empty name"],
        ),
        (
            "{ name = \"pima\", nominal_columns = [\"preg\"] }",
            vec![
                "key 'datasets' entry 1 ('pima')",
                "'pima' is a shipped dataset",
                "give its path",
                "pima.csv",
            ],
        ),
    ];
    for (position, (entries, words)) in cases.into_iter().enumerate() {
        let path = datasets_config(&folder, &format!("case{position}"), entries);
        refused(&["--check", "--config", path.to_str().unwrap()], 1, &words);
    }
}

#[test]
fn a_number_of_threads_that_is_not_a_whole_number_is_refused_with_what_is_allowed() {
    let folder = scratch("threads");
    let path = config(&folder, "threads", "");
    let path = path.to_str().unwrap();
    for (value, problem) in [
        ("99999999999999999999", "is too large"),
        ("-1", "is not a whole number"),
    ] {
        let threads = format!("--threads={value}");
        refused(
            &["--check", "--config", path, &threads],
            2,
            &["--threads", problem, "at least 1"],
        );
    }
    refused(
        &["--check", "--config", path, "--threads=0"],
        1,
        &["--threads 0", "at least 1"],
    );
}

#[test]
fn a_bad_vector_cap_is_refused_naming_the_variable_and_a_good_one_runs() {
    let folder = scratch("vector_cap");
    let path = config(&folder, "cap", "measures = [\"error\"]");
    let path = path.to_str().unwrap();
    let results = folder.join("results");
    let results = results.to_str().unwrap();
    let args = ["--check", "--config", path, "--results", results];
    let run = |cap: &str| {
        binary()
            .args(args)
            .env("CLASSIFIERS_VECTOR_CAP", cap)
            .output()
            .unwrap()
    };
    let output = run("sse9");
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    for word in [
        "CLASSIFIERS_VECTOR_CAP=\"sse9\"",
        "portable, avx2 or avx512",
    ] {
        assert!(message.contains(word), "'{word}': {message}");
    }
    for cap in ["avx2", "portable", ""] {
        let output = run(cap);
        assert!(output.status.success(), "{cap}: {}", stderr(&output));
    }
}
