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
