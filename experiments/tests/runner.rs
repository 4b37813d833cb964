//! End-to-end tests of the experiment runner through the built binary: the quick Aslan config,
//! identical results at any thread count, reuse of the cache, resuming after kill -9, failed
//! units, and config errors that name the key.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{binary, kill_once_cached, stderr, unit_counts, FAILING_CONFIG, KILL_CONFIG};

fn scratch(name: &str) -> PathBuf {
    common::scratch("runner", name)
}

fn run(config: &str, results: &Path, threads: usize) -> Output {
    let output = binary()
        .args([
            "--config",
            config,
            "--threads",
            &threads.to_string(),
            "--results",
        ])
        .arg(results)
        .output()
        .unwrap();
    output
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The per-fold Parquet file read by a peer reader, pyarrow (Apache Arrow's C++ reader), must
/// hold exactly the rows and values of the CSV. Skipped, with a message, where python3 has no
/// pyarrow (`.ci/run` installs it, so CI always runs it).
fn assert_parquet_matches_csv(results: &Path) {
    let probe = Command::new("python3")
        .args(["-c", "import pyarrow"])
        .output();
    if !probe.is_ok_and(|output| output.status.success()) {
        eprintln!("skipped the Parquet check: python3 with pyarrow is not available");
        return;
    }
    let script = r#"
import sys, csv, pyarrow.parquet as pq
table = pq.read_table(sys.argv[1]).to_pydict()
rows = list(csv.DictReader(open(sys.argv[2])))
columns = ["dataset", "learner", "repetition", "fold", "part", "measure", "value"]
assert list(table) == columns, list(table)
assert len(rows) == len(table["value"]), (len(rows), len(table["value"]))
for i, row in enumerate(rows):
    for name in columns:
        got, want = table[name][i], row[name]
        if name in ("repetition", "fold"):
            want = int(want)
        elif name == "value":
            want = float(want)
            if got != got and want != want:
                continue
        assert got == want, (i, name, got, want)
print(len(rows))
"#;
    let output = Command::new("python3")
        .args(["-c", script])
        .arg(results.join("per_fold.parquet"))
        .arg(results.join("per_fold.csv"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn quick_aslan_runs_end_to_end_identically_on_one_and_two_threads() {
    let folder = scratch("threads");
    let one = folder.join("one");
    let two = folder.join("two");
    let output = run("aslan-quick.toml", &one, 1);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run("aslan-quick.toml", &two, 2);
    assert!(output.status.success(), "{}", stderr(&output));
    let per_fold = |root: &Path| read(&root.join("aslan-quick").join("per_fold.csv"));
    assert_eq!(per_fold(&one), per_fold(&two));
    // 3 datasets x 5 learners x 5 models x 3 measures on the test and the validation part,
    // plus the header.
    assert_eq!(per_fold(&one).lines().count(), 3 * 5 * 5 * 3 * 2 + 1);
    assert_parquet_matches_csv(&one.join("aslan-quick"));
    let results = one.join("aslan-quick");
    for file in [
        "index.html",
        "config.toml",
        "units.csv",
        "tables/summary.md",
        "tables/tests.csv",
        "tables/aslan_four_cases.md",
        "tables/aslan_four_cases_corrected.tex",
        "splits/pima.json",
    ] {
        assert!(results.join(file).is_file(), "missing {file}");
    }
    let four_cases = read(&results.join("tables/aslan_four_cases.csv"));
    // The paper's 150 comparisons beside our 10 learner pairs on each of 3 datasets.
    assert!(four_cases.contains("total,150,30,-120,"), "{four_cases}");
    let html = read(&results.join("index.html"));
    assert!(html.contains("<svg") && html.contains("Aslan"));
    // The report opens with the side-by-side with the paper, before the per-dataset tables.
    let opening = html.find("Aslan et al. (2009) beside the paper").unwrap();
    assert!(opening < html.find("Results per dataset").unwrap());
    // Figures 6-7 from a model trained on all of train-all: the engine's whole-training-set
    // unit, cached under its own name.
    assert!(results.join("tables/aslan_intervals.csv").is_file());
    assert!(results.join("tables/aslan_interval_readings.csv").is_file());
    let whole = std::fs::read_dir(results.join("predictions/pima/lp"))
        .unwrap()
        .filter(|entry| {
            let name = entry.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("whole-training-")
        })
        .count();
    assert_eq!(whole, 1);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn second_run_reuses_every_unit_and_a_partial_cache_recomputes_only_the_rest() {
    let folder = scratch("reuse");
    let output = run("aslan-quick.toml", &folder, 2);
    assert!(output.status.success(), "{}", stderr(&output));
    let results = folder.join("aslan-quick");
    let first = read(&results.join("per_fold.csv"));
    assert_eq!(unit_counts(&stderr(&output)), (77, 0, 0));

    let output = run("aslan-quick.toml", &folder, 2);
    assert_eq!(unit_counts(&stderr(&output)), (0, 77, 0));
    assert_eq!(read(&results.join("per_fold.csv")), first);

    // Remove some cached units and leave a torn temporary file, as a kill would.
    let knn = results.join("predictions/sonar/knn");
    let mut removed = 0;
    for entry in std::fs::read_dir(&knn).unwrap() {
        let path = entry.unwrap().path();
        if removed < 3 {
            std::fs::rename(&path, knn.join(".torn.tmp-1-x")).unwrap();
            removed += 1;
        }
    }
    let glass_nb = results.join("predictions/glass/nb");
    let truncated = std::fs::read_dir(&glass_nb)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let bytes = std::fs::read(&truncated).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let output = run("aslan-quick.toml", &folder, 2);
    assert_eq!(unit_counts(&stderr(&output)), (4, 73, 0));
    assert_eq!(read(&results.join("per_fold.csv")), first);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn kill_nine_then_rerun_finishes_identically_and_reuses_what_was_finished() {
    let folder = scratch("kill");
    let config = folder.join("kill.toml");
    std::fs::write(&config, KILL_CONFIG).unwrap();
    let config = config.to_string_lossy().into_owned();
    let reference = folder.join("reference");
    let output = run(&config, &reference, 2);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = read(&reference.join("kill/per_fold.csv"));

    let killed = folder.join("killed");
    let mut child = binary()
        .args(["--config", &config, "--threads", "2", "--results"])
        .arg(&killed)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until some units are cached, then kill -9.
    let finished = kill_once_cached(&mut child, &killed.join("kill/predictions"), 5).len();
    let output = run(&config, &killed, 2);
    assert!(output.status.success(), "{}", stderr(&output));
    let (computed, reused, failed) = unit_counts(&stderr(&output));
    assert_eq!((reused, failed), (finished, 0));
    assert_eq!(computed + reused, 40);
    assert_eq!(read(&killed.join("kill/per_fold.csv")), expected);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_failing_learner_is_recorded_and_the_other_units_go_on() {
    let folder = scratch("failing");
    let config = folder.join("failing.toml");
    std::fs::write(&config, FAILING_CONFIG).unwrap();
    let output = run(&config.to_string_lossy(), &folder, 2);
    // Everything is written, and the run says so with its own exit status.
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("3 of 6 units failed (learners: broken)"),
        "{}",
        stderr(&output)
    );
    assert_eq!(unit_counts(&stderr(&output)), (3, 0, 3));
    let units = read(&folder.join("failing/units.csv"));
    assert_eq!(units.matches(",failed,").count(), 3, "{units}");
    assert!(units.contains("this learner is broken"), "{units}");
    let per_fold = read(&folder.join("failing/per_fold.csv"));
    assert!(!per_fold.contains("broken"));
    let summary = read(&folder.join("failing/tables/summary.md"));
    assert!(summary.contains("3 units failed"), "{summary}");
    let failures = read(&folder.join("failing/tables/failures.csv"));
    assert!(
        failures.contains("broken,sonar,3,3,") && failures.contains("this learner is broken"),
        "{failures}"
    );
    assert!(read(&folder.join("failing/index.html")).contains("Failed units"));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn provost_and_wu_flach_analyses_run_end_to_end() {
    let folder = scratch("analyses");
    let provost = folder.join("provost.toml");
    std::fs::write(
        &provost,
        r#"
name = "provost-small"
datasets = ["pima", "vehicle"]
analyses = ["provost_roc"]
transforms = { positive_class = "minority", one_vs_rest = true }
protocol = { kind = "stratified_kfold", folds = 3 }
[[learners]]
name = "MC4"
kind = "c45"
laplace = true
[[learners]]
name = "NB"
kind = "naive_bayes"
discretize = true
"#,
    )
    .unwrap();
    let output = run(&provost.to_string_lossy(), &folder, 2);
    assert!(output.status.success(), "{}", stderr(&output));
    let results = folder.join("provost-small");
    let dominance = read(&results.join("tables/provost_dominance.csv"));
    assert!(
        dominance.contains("vehicle") && dominance.contains(" of 3"),
        "{dominance}"
    );
    assert!(results.join("figures/provost_vehicle.svg").is_file());
    let slopes = read(&results.join("tables/provost_slope_ranges.csv"));
    assert!(slopes.lines().count() > 2, "{slopes}");

    let wu_flach = folder.join("wu_flach.toml");
    std::fs::write(
        &wu_flach,
        r#"
name = "wu-flach-small"
datasets = ["sonar", "glass"]
measures = ["auc", "sauc"]
analyses = ["wu_flach_selection"]
transforms = { positive_class = "majority", one_vs_rest = true }
protocol = { kind = "wu_flach", folds = 4, repetitions = 2 }
[[learners]]
kind = "naive_bayes"
[[learners]]
kind = "c45"
"#,
    )
    .unwrap();
    let output = run(&wu_flach.to_string_lossy(), &folder, 2);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = read(&folder.join("wu-flach-small/tables/wu_flach_selection.csv"));
    // Two datasets and the average row, each with 8 test folds.
    assert!(table.contains("sonar") && table.contains("glass") && table.contains("average"));
    assert_eq!(table.matches(",8,").count(), 2, "{table}");
    let _ = std::fs::remove_dir_all(&folder);
}
