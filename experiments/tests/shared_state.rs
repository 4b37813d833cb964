//! What a dataset's units share (k-NN's neighbour lists, C4.5's and naive Bayes' sorted
//! numeric columns, built once per dataset) is invisible in the outputs: the same experiment run with the shared state, without it
//! (`--shared-memory-mb 0`) and under a budget too small for the largest dataset's lists writes
//! the same files byte for byte (but the timings of units.csv), at 1 and 2 threads.

mod common;

use common::{assert_same_outputs, run, scratch, stderr};

/// k-NN three ways (k chosen on the validation fold, a fixed k with inverse-distance votes,
/// and tuned over k on inner folds) beside naive Bayes and C4.5 (tuned too), on all-numeric
/// datasets, one with nominal attributes and missing nominal values, and one with numeric and
/// nominal attributes and missing values of both (where the lists order rows by bounds that
/// count a numeric value missing in one row 1/2, C4.5 sorts alone and naive Bayes reads the
/// sorted columns).
const CONFIG: &str = r#"
name = "shared"
datasets = ["pima", "sonar", "vehicle", "spambase", "breast-cancer", "crx"]
protocol = { kind = "aslan", folds = 5 }
measures = ["error", "auc"]
tests = ["paired_t"]
tuning = { budget = 4, measure = "error", inner = { kind = "stratified_kfold", folds = 2 } }
learners = [
  { name = "knn", kind = "knn" },
  { name = "knn_inverse", kind = "knn", select_k = false, k = 7, weighting = "inverse_distance" },
  { name = "knn_tuned", kind = "knn", select_k = false, tune = { k = [1, 3, 9, 15] } },
  { kind = "naive_bayes" },
  { kind = "c45" },
  { name = "c45_tuned", kind = "c45", tune = { min_leaf = [1, 2, 5, 10] } },
]
"#;

/// The number of shared states a run's log says it built (0 when it says nothing).
fn states_built(log: &str) -> usize {
    log.lines()
        .filter_map(|line| line.strip_prefix("shared per dataset: "))
        .map(|rest| rest.split(' ').next().unwrap().parse::<usize>().unwrap())
        .sum()
}

#[test]
fn outputs_are_the_same_with_the_shared_state_without_it_and_under_a_small_budget() {
    let folder = scratch("shared", "identical");
    let config = folder.join("shared.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let config = config.to_str().unwrap();
    let mut built = Vec::new();
    for (name, memory, threads) in [
        ("on", "1024", "2"),
        ("off", "0", "2"),
        ("small", "1", "1"),
        ("on-1", "1024", "1"),
    ] {
        let results = folder.join(name);
        let output = run(
            &[
                "--config",
                config,
                "--threads",
                threads,
                "--shared-memory-mb",
                memory,
            ],
            &results,
        );
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        built.push(states_built(&stderr(&output)));
        if name != "on" {
            assert_same_outputs(&folder.join("on/shared"), &results.join("shared"));
        }
    }
    // With sharing, the lists of the six datasets are built (once: the states built for the
    // tuning's inner units serve the outer units too), and the sorted columns of the five
    // with numeric attributes; none without; under 1 MB, not spambase's (4,601 rows x 64
    // neighbours x 12 bytes; 57 columns x 4,601 rows x 12 bytes).
    let [on, off, small, on_one] = built[..] else {
        unreachable!()
    };
    assert!(on >= 9, "{built:?}");
    assert_eq!(off, 0);
    assert!(small > 0 && small < on, "{built:?}");
    assert_eq!(on_one, on);
    let _ = std::fs::remove_dir_all(&folder);
}
