//! The across-datasets analysis end to end through the built binary: on by default for a
//! config with 3 datasets and 2 learners, its outputs agree with the `stats` functions applied
//! to the run's own per-fold table and with the `compare` command on that table, `analyses =
//! []` turns it off, and a `control` that names no learner is refused with the names allowed.

mod json_envelope;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CONFIG: &str = r#"
name = "across-tiny"
seed = 7
datasets = ["sonar", "heart-statlog", "ionosphere"]
measures = ["error", "auc"]
control = "c45"
rope = 0.02
hierarchical_samples = 300
hierarchical_correlation = 0.2

[protocol]
kind = "stratified_kfold"
folds = 5

[[learners]]
kind = "naive_bayes"
name = "nb"

[[learners]]
kind = "c45"
"#;

fn experiments(folder: &Path, config: &str, extra: &[&str]) -> Output {
    let file = folder.join("config.toml");
    std::fs::write(&file, config).unwrap();
    Command::new(env!("CARGO_BIN_EXE_experiments"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .arg("--config")
        .arg(&file)
        .arg("--results")
        .arg(folder.join("results"))
        .args(extra)
        .output()
        .unwrap()
}

fn fresh_folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("across-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// The process's standard output, after checking that it succeeded (else its error is shown).
fn succeeded(output: &Output) -> &[u8] {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    &output.stdout
}

/// Runs `CONFIG` in a fresh folder named after `name`: the folder and the run's results folder.
fn run_tiny(name: &str) -> (PathBuf, PathBuf) {
    let folder = fresh_folder(name);
    succeeded(&experiments(&folder, CONFIG, &["--threads", "2"]));
    let results = folder.join("results").join("across-tiny");
    (folder, results)
}

/// Per measure, dataset and learner: the mean of the test values of `per_fold.csv`.
fn means(per_fold: &str) -> BTreeMap<(String, String, String), f64> {
    let mut sums: BTreeMap<(String, String, String), (f64, usize)> = BTreeMap::new();
    for line in per_fold.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let (dataset, learner, part, measure) = (cells[0], cells[1], cells[4], cells[5]);
        if part != "test" {
            continue;
        }
        let entry = sums
            .entry((
                measure.to_string(),
                dataset.to_string(),
                learner.to_string(),
            ))
            .or_default();
        entry.0 += cells[6].parse::<f64>().unwrap();
        entry.1 += 1;
    }
    sums.into_iter()
        .map(|(key, (sum, count))| (key, sum / count as f64))
        .collect()
}

fn close(what: &str, got: f64, expected: f64) {
    assert!(
        (got - expected).abs() <= 1e-12 * expected.abs().max(1.0),
        "{what}: report {got}, stats {expected}"
    );
}

#[test]
fn across_datasets_is_on_by_default_and_agrees_with_the_stats_functions() {
    let (folder, results) = run_tiny("default");
    for file in [
        "figures/across_error_cd.svg",
        "figures/across_auc_cd.svg",
        "figures/across_error_simplex_c45_nb.svg",
        "figures/across_auc_simplex_c45_nb.svg",
        "figures/folds_error_1.svg",
        "figures/folds_auc_1.svg",
        "figures/roc_sonar.svg",
        "tables/across_error_means.csv",
        "tables/across_error_pairs.md",
    ] {
        assert!(results.join(file).is_file(), "{file} is missing");
    }
    let page = std::fs::read_to_string(results.join("index.html")).unwrap();
    assert!(page.contains("Across datasets: error") && page.contains("Across datasets: auc"));
    let means = means(&std::fs::read_to_string(results.join("per_fold.csv")).unwrap());
    let datasets = ["sonar", "heart-statlog", "ionosphere"];
    for (measure, lower_is_better) in [("error", true), ("auc", false)] {
        let json: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(results.join(format!("tables/across_{measure}.json")))
                .unwrap(),
        )
        .unwrap();
        // Scores where higher is better, datasets x [nb, c45], from the run's own table.
        let sign = if lower_is_better { -1.0 } else { 1.0 };
        let scores: Vec<Vec<f64>> = datasets
            .iter()
            .map(|dataset| {
                ["nb", "c45"]
                    .iter()
                    .map(|learner| {
                        sign * means[&(
                            measure.to_string(),
                            dataset.to_string(),
                            learner.to_string(),
                        )]
                    })
                    .collect()
            })
            .collect();
        let friedman = stats::friedman_test(&scores, 0.05).unwrap();
        let json = &json["analysis"]["core"];
        for (l, rank) in friedman.average_ranks.iter().enumerate() {
            close(
                &format!("{measure} average rank {l}"),
                json["average_ranks"][l].as_f64().unwrap(),
                *rank,
            );
        }
        close(
            &format!("{measure} Friedman p"),
            json["friedman"]["pvalue"].as_f64().unwrap(),
            friedman.pvalue,
        );
        assert_eq!(json["control"]["control_index"], 1, "control is c45");
        let (nb, c45): (Vec<f64>, Vec<f64>) = scores.iter().map(|row| (row[0], row[1])).unzip();
        let wilcoxon = stats::wilcoxon_signed_rank(
            &nb,
            &c45,
            stats::ZeroMethod::Wilcox,
            false,
            stats::WilcoxonMethod::Auto,
            0.05,
        )
        .unwrap();
        let pair = &json["pairs"][0];
        close(
            &format!("{measure} Wilcoxon p"),
            pair["wilcoxon"]["pvalue"].as_f64().unwrap(),
            wilcoxon.pvalue,
        );
        let count = stats::win_tie_loss(&nb, &c45).unwrap();
        assert_eq!(pair["win_tie_loss"]["wins"], count.wins);
        assert_eq!(pair["win_tie_loss"]["losses"], count.losses);
        let bayesian = stats::bayesian_signed_rank_test(
            &nb,
            &c45,
            0.02,
            0.5,
            50_000,
            pair["bayesian_seed"].as_u64().unwrap(),
        )
        .unwrap();
        close(
            &format!("{measure} P(nb better)"),
            pair["bayesian_signed_rank"]["probabilities"]["right"]
                .as_f64()
                .unwrap(),
            bayesian.probabilities.right,
        );
    }

    // An explicit empty list turns the default off (the cache makes this run quick).
    let off = CONFIG.replace("seed = 7", "seed = 7\nanalyses = []");
    let output = experiments(&folder, &off, &["--threads", "2"]);
    assert!(output.status.success());
    assert!(!results.join("tables/across_error.json").exists());
    assert!(results.join("figures/folds_error_1.svg").is_file());
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn the_compare_command_on_the_runs_per_fold_table_prints_the_analysis_numbers() {
    let (folder, results) = run_tiny("compare");
    for measure in ["error", "auc"] {
        let report: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(results.join(format!("tables/across_{measure}.json")))
                .unwrap(),
        )
        .unwrap();
        // The config's seed, rope, control and hierarchical settings, given as flags.
        let output = Command::new(env!("CARGO_BIN_EXE_experiments"))
            .arg("compare")
            .arg(results.join("per_fold.csv"))
            .args(["--measure", measure, "--json", "--seed", "7"])
            .args(["--rope", "0.02", "--control", "c45"])
            .args(["--hierarchical-samples", "300", "--correlation", "1/5"])
            .output()
            .unwrap();
        let command = json_envelope::result_of(succeeded(&output));
        // One computation: the whole analysis is the same JSON, every statistic the report
        // shows included (core, Quade, aligned ranks, adjustments, CD bars, effect sizes,
        // autorank, Plackett-Luce, the hierarchical test on the folds).
        assert_eq!(command["table"], report["table"], "{measure} table");
        assert_eq!(
            command["analysis"], report["analysis"],
            "{measure} analysis"
        );
        let analysis = &report["analysis"];
        for part in [
            "core",
            "quade",
            "aligned_ranks",
            "cd_diagram",
            "plackett_luce",
        ] {
            assert!(analysis[part].is_object(), "{measure}: {part} missing");
        }
        assert_eq!(analysis["hierarchical"].as_array().unwrap().len(), 1);
        assert_eq!(
            analysis["hierarchical"][0]["result"]["datasets"]
                .as_array()
                .unwrap()
                .len(),
            3
        );
        assert!(!analysis["effect_sizes"].as_array().unwrap().is_empty());
    }
    let page = std::fs::read_to_string(results.join("index.html")).unwrap();
    for shown in [
        "Quade F",
        "Cliff",
        "Plackett-Luce",
        "hierarchical Bayesian correlated t-test",
        "Missing-results policy: skillings_mack",
        "Wilcoxon signed-rank + Holm",
    ] {
        assert!(page.contains(shown), "the report lacks '{shown}'");
    }
    // Three datasets: Holm finds no difference, and the reading says so in a sentence (issue
    // 43: it said "finds a difference with none").
    assert!(page.contains("Holm&#39;s procedure finds no difference with any other learner."));
    assert!(!page.contains("difference with none"));
    // The post-hoc Wilcoxon table's statistic is the pairs table's W (it was empty).
    for measure in ["error", "auc"] {
        let table = |name: &str| {
            let path = results.join(format!("tables/across_{measure}_{name}.csv"));
            let text = std::fs::read_to_string(path).unwrap();
            let row: Vec<String> = text
                .lines()
                .nth(1)
                .unwrap()
                .split(',')
                .map(String::from)
                .collect();
            row
        };
        let (posthoc, pairs) = (table("posthoc_wilcoxon"), table("pairs"));
        let w = |cell: &str| cell.parse::<f64>().unwrap();
        assert_eq!(
            w(&posthoc[2]),
            w(&pairs[5]),
            "{measure}: {posthoc:?} {pairs:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_control_that_names_no_learner_is_refused_with_the_names_allowed() {
    let folder = fresh_folder("control");
    let config = CONFIG.replace("control = \"c45\"", "control = \"C4.5\"");
    let output = experiments(&folder, &config, &["--check"]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("key 'control' = 'C4.5' names no learner; allowed: nb, c45"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn the_analysis_options_are_checked_with_what_they_allow() {
    let folder = fresh_folder("options");
    for (key, value, allowed) in [
        ("cd_test", "\"bogus\"", "nemenyi"),
        ("cd_adjustment", "\"sidak\"", "bergmann_hommel"),
        ("missing_results", "\"impute\"", "drop_learners"),
        ("hierarchical_samples", "-3", "hierarchical_samples"),
        (
            "hierarchical_correlation",
            "1.5",
            "hierarchical_correlation",
        ),
    ] {
        let config = CONFIG.replace("rope = 0.02", &format!("rope = 0.02\n{key} = {value}"));
        let config = config
            .replace(&format!("{key} = 300\n"), "")
            .replace(&format!("{key} = 0.2\n"), "");
        let output = experiments(&folder, &config, &["--check"]);
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success() && message.contains(key) && message.contains(allowed),
            "{key} = {value}: {message}"
        );
    }
    let _ = std::fs::remove_dir_all(&folder);
}
