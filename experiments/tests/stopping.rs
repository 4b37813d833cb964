//! `[stopping]` (issue 44) end to end: a small repeated cross-validation with three learners on
//! two shipped datasets writes `tables/stopping.csv` (a row per dataset and pair, the columns
//! of the issue), the fastchess-style lines, the units saved and a path figure per dataset;
//! the same decisions at 1 and 2 threads and after a merge from the cache (what a resumed or
//! sharded run reports). The bad keys are `bad_input_stopping.rs`'s.

mod common;

use std::path::{Path, PathBuf};

use common::{binary, stderr};

fn scratch(name: &str) -> PathBuf {
    common::scratch("stopping", name)
}

/// Three learners, two datasets, 5-fold CV repeated 6 times, `stopping` as the table's body.
fn config(folder: &Path, name: &str, protocol: &str, stopping: &str) -> PathBuf {
    let path = folder.join(format!("{name}.toml"));
    let text = format!(
        "name = \"{name}\"\nseed = 3\nmeasures = [\"error\", \"auc\"]\ntests = [\"paired_t\"]\n\
         analyses = []\ndatasets = [\"breast-cancer-wisconsin\", \"sonar\"]\nprotocol = {protocol}\n\
         [[learners]]\nname = \"nb\"\nkind = \"naive_bayes\"\n\
         [[learners]]\nname = \"c45\"\nkind = \"c45\"\n\
         [[learners]]\nname = \"knn\"\nkind = \"knn\"\n\
         [stopping]\n{stopping}\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

const REPEATED: &str = "{ kind = \"stratified_kfold\", folds = 5, repetitions = 6 }";

fn run(config: &Path, results: &Path, extra: &[&str]) -> String {
    let output = binary()
        .args(["--config", config.to_str().unwrap(), "--results"])
        .arg(results)
        .args(extra)
        .output()
        .unwrap();
    let message = stderr(&output);
    assert!(output.status.success(), "{message}");
    message
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn stopping_decisions_are_written_and_the_same_at_any_thread_count_and_after_a_merge() {
    let folder = scratch("end_to_end");
    let stopping = "rule = \"e_value\"\ndelta_min = 1\nalpha = 0.05\nmin_repetitions = 3\n\
                    measure = \"error\"";
    let path = config(&folder, "seq", REPEATED, stopping);
    let (one, two) = (folder.join("one"), folder.join("two"));
    run(&path, &one, &["--threads", "1"]);
    run(&path, &two, &["--threads", "2"]);
    let table = read(&one.join("seq/tables/stopping.csv"));
    assert_eq!(table, read(&two.join("seq/tables/stopping.csv")));
    let mut lines = table.lines();
    assert_eq!(
        lines.next().unwrap(),
        "dataset,learner_a,learner_b,repetitions,decision,e_value"
    );
    let rows: Vec<Vec<&str>> = lines.map(|line| line.split(',').collect()).collect();
    assert_eq!(rows.len(), 6, "{table}");
    for row in &rows {
        let repetitions: usize = row[3].parse().unwrap();
        assert!((2..=6).contains(&repetitions), "{row:?}");
        assert!(
            ["a_better", "b_better", "equivalent", "undecided"].contains(&row[4]),
            "{row:?}"
        );
        let e: f64 = row[5].parse().unwrap();
        assert_eq!(row[4] != "undecided", e >= 20.0, "{row:?}");
    }
    check_directions(&one.join("seq/per_fold.csv"), &rows);
    let pairs: Vec<(&str, &str)> = rows.iter().map(|row| (row[1], row[2])).collect();
    assert_eq!(&pairs[..3], [("nb", "c45"), ("nb", "knn"), ("c45", "knn")]);
    let page = read(&one.join("seq/index.html"));
    assert!(
        page.contains("Sequential stopping") && page.contains("units"),
        "no section"
    );
    assert!(
        page.contains("not valid under a sequential design"),
        "no note"
    );
    let lines = read(&one.join("seq/tables/stopping_lines.csv"));
    assert!(
        lines.contains("nb vs c45 on breast-cancer-wisconsin: "),
        "{lines}"
    );
    assert!(lines.contains("= 1/alpha"), "{lines}");
    assert!(one.join("seq/figures/stopping_sonar.svg").exists());
    // A merge reads the cache only: the same decisions (a resumed or sharded run's report).
    run(&path, &one, &["--merge"]);
    assert_eq!(read(&one.join("seq/tables/stopping.csv")), table);
}

/// Each decided pair's better learner has the lower mean error over the repetitions used,
/// read from the run's own per-fold table (`per_fold.csv`), not from the decision code.
fn check_directions(per_fold: &Path, rows: &[Vec<&str>]) {
    let text = read(per_fold);
    let mean_error = |dataset: &str, learner: &str, repetitions: usize| {
        let values: Vec<f64> = text
            .lines()
            .map(|line| line.split(',').collect::<Vec<_>>())
            .filter(|f| f[0] == dataset && f[1] == learner && f[4] == "test" && f[5] == "error")
            .filter(|f| f[2].parse::<usize>().unwrap() < repetitions)
            .map(|f| f[6].parse().unwrap())
            .collect();
        values.iter().sum::<f64>() / values.len() as f64
    };
    for row in rows {
        let repetitions: usize = row[3].parse().unwrap();
        let (a, b) = (
            mean_error(row[0], row[1], repetitions),
            mean_error(row[0], row[2], repetitions),
        );
        match row[4] {
            "a_better" => assert!(a < b, "{row:?}: errors {a} {b}"),
            "b_better" => assert!(b < a, "{row:?}: errors {a} {b}"),
            _ => {}
        }
    }
}

#[test]
fn the_confidence_sequence_rule_writes_no_e_value() {
    let folder = scratch("sequence");
    let stopping = "rule = \"confidence_sequence\"\nrope = 0.01\npairs = \"control\"\n\
                    control = \"nb\"\nmeasure = \"auc\"";
    let path = config(&folder, "cs", REPEATED, stopping);
    run(&path, &folder, &[]);
    let table = read(&folder.join("cs/tables/stopping.csv"));
    let rows: Vec<&str> = table.lines().skip(1).collect();
    assert_eq!(rows.len(), 4, "{table}");
    for row in rows {
        assert!(
            row.starts_with("breast") || row.starts_with("sonar"),
            "{row}"
        );
        assert!(row.contains(",nb,") && row.ends_with(','), "{row}");
    }
}

/// The runner stops scheduling a dataset once every pair is decided: no unit of a later
/// repetition runs there, the datasets still undecided go on, and the tables hold the
/// repetitions run. The same outputs at 1 and 2 threads, after a kill and a resume, and from a
/// merge of the cache (which decides again from the cached units, in order).
#[test]
fn the_runner_stops_a_dataset_once_its_pairs_are_decided() {
    let folder = scratch("runner");
    let stopping = "rule = \"e_value\"\ndelta_min = 1\nalpha = 0.05\nmeasure = \"error\"";
    let protocol = "{ kind = \"stratified_kfold\", folds = 5, repetitions = 14 }";
    let path = config(&folder, "early", protocol, stopping);
    let (one, two, killed) = (
        folder.join("one"),
        folder.join("two"),
        folder.join("killed"),
    );
    let log = run(&path, &one, &["--threads", "1"]);
    run(&path, &two, &["--threads", "2"]);
    let mut child = binary()
        .args([
            "--config",
            path.to_str().unwrap(),
            "--threads",
            "1",
            "--results",
        ])
        .arg(&killed)
        .spawn()
        .unwrap();
    common::kill_once_cached(&mut child, &killed.join("early/predictions"), 40);
    run(&path, &killed, &["--threads", "2"]);
    let units = read(&one.join("early/units.csv"));
    let last_repetition = |dataset: &str| {
        units
            .lines()
            .filter(|line| line.starts_with(&format!("{dataset},")))
            .map(|line| line.split(',').nth(2).unwrap().parse::<usize>().unwrap())
            .max()
            .unwrap()
    };
    let table = read(&one.join("early/tables/stopping.csv"));
    for dataset in ["breast-cancer-wisconsin", "sonar"] {
        let used: usize = table
            .lines()
            .filter(|line| line.starts_with(&format!("{dataset},")))
            .map(|line| line.split(',').nth(3).unwrap().parse().unwrap())
            .max()
            .unwrap();
        let stopped = log.contains(&format!("stopping: {dataset}: every pair decided"));
        // A stopped dataset ran exactly the repetitions of its last decision; the others all.
        let expected = if stopped { used - 1 } else { 13 };
        assert_eq!(last_repetition(dataset), expected, "{dataset}: {log}");
    }
    assert!(log.contains("stopping: sonar: every pair decided"), "{log}");
    common::assert_same_outputs(&one.join("early"), &two.join("early"));
    // Resumed after a kill, and merged from the cache: the same tables (their pages count
    // units reused from the cache).
    run(&path, &two, &["--merge"]);
    for other in [&killed, &two] {
        for file in [
            "per_fold.csv",
            "tables/stopping.csv",
            "tables/stopping_lines.csv",
        ] {
            let path = |folder: &Path| folder.join("early").join(file);
            assert_eq!(read(&path(&one)), read(&path(other)), "{file}");
        }
    }
}

/// Shards with `[stopping]`: each runs its units repetition by repetition, reads the other
/// shards' finished units from the cache, and skips its units of a dataset already decided on
/// the repetitions complete so far; the merge decides again from the whole cache and writes
/// the single run's tables. Run one after the other, the last shard sees every other unit and
/// skips the most.
#[test]
fn shards_skip_decided_repetitions_and_merge_to_the_single_run() {
    let folder = scratch("shards");
    let stopping = "rule = \"e_value\"\ndelta_min = 1\nalpha = 0.05\nmeasure = \"error\"";
    let protocol = "{ kind = \"stratified_kfold\", folds = 5, repetitions = 14 }";
    let path = config(&folder, "sharded", protocol, stopping);
    let (single, sharded) = (folder.join("single"), folder.join("sharded"));
    run(&path, &single, &["--threads", "2"]);
    let mut computed = 0;
    for index in 0..3 {
        let log = run(
            &path,
            &sharded,
            &["--threads", "1", "--shard", &format!("{index}/3")],
        );
        let line = log
            .lines()
            .rfind(|line| line.starts_with("units: "))
            .unwrap();
        computed += line["units: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap();
    }
    // 2 datasets x 3 learners x 5 folds x 14 repetitions: the shards skipped some.
    assert!(computed < 420, "{computed}");
    run(&path, &sharded, &["--merge"]);
    for file in [
        "per_fold.csv",
        "tables/stopping.csv",
        "tables/stopping_lines.csv",
    ] {
        let path = |folder: &Path| folder.join("sharded").join(file);
        assert_eq!(read(&path(&single)), read(&path(&sharded)), "{file}");
    }
}
