//! The `roc` and `compare` commands, run as a user runs them: CSV files are written from the
//! reference vectors of tests/data/ (see its README.md), the built binary reads them, and its
//! `--json` output is compared with the reference values. Bad input must fail cleanly.

mod json_envelope;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn load(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// A float of the vectors or of the command's output ("inf", "-inf", "nan" as strings).
fn float(value: &Value) -> f64 {
    match value {
        Value::String(text) => match text.as_str() {
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            "nan" => f64::NAN,
            other => panic!("not a float: {other}"),
        },
        other => other
            .as_f64()
            .unwrap_or_else(|| panic!("not a float: {other}")),
    }
}

fn floats(value: &Value) -> Vec<f64> {
    value.as_array().unwrap().iter().map(float).collect()
}

/// Exact-type quantities and statistics: |got - expected| <= max(1e-15, 1e-12 |expected|).
fn assert_statistic(what: &str, got: f64, expected: f64) {
    if expected.is_infinite() || expected.is_nan() {
        assert!(
            got == expected || (got.is_nan() && expected.is_nan()),
            "{what}: got {got}, expected {expected}"
        );
        return;
    }
    let tolerance = f64::max(1e-15, 1e-12 * expected.abs());
    assert!(
        (got - expected).abs() <= tolerance,
        "{what}: got {got}, expected {expected}"
    );
}

/// p-values and quantiles: |got - expected| <= 1e-9 |expected| or <= 1e-12.
fn assert_pvalue(what: &str, got: f64, expected: f64) {
    let difference = (got - expected).abs();
    assert!(
        difference <= 1e-9 * expected.abs() || difference <= 1e-12,
        "{what}: got {got}, expected {expected}"
    );
}

/// Writes a CSV file under the test scratch directory.
fn write_csv(name: &str, text: &str) -> PathBuf {
    let directory = Path::new(env!("CARGO_TARGET_TMPDIR")).join("commands");
    std::fs::create_dir_all(&directory).unwrap();
    let path = directory.join(format!("{name}.csv"));
    std::fs::write(&path, text).unwrap();
    path
}

fn experiments(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_experiments"))
        .args(args)
        .output()
        .expect("the experiments binary runs")
}

/// Runs a command that must succeed and returns its JSON output.
fn run_json(args: &[&str]) -> Value {
    let output = experiments(args);
    assert!(
        output.status.success(),
        "experiments {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "experiments {args:?}: not JSON ({e}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    });
    json_envelope::result(value)
}

/// Runs a command that must fail cleanly and returns its error message.
fn run_error(args: &[&str]) -> String {
    let output = experiments(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "experiments {args:?} succeeded");
    // 1: our own error; 2: clap's usage error (an option value it could not parse).
    assert!(
        matches!(output.status.code(), Some(1 | 2)),
        "{args:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    stderr
}

fn path_text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A two-class predictions file: header `truth,score`, one row per instance.
fn predictions_csv(name: &str, labels: &[i64], scores: &[f64]) -> PathBuf {
    let mut text = String::from("truth,score\n");
    for (label, score) in labels.iter().zip(scores) {
        text.push_str(&format!("{label},{score}\n"));
    }
    write_csv(name, &text)
}

/// A per-fold file with columns a and b (and repetition/fold when given).
fn folds_csv(name: &str, a: &[f64], b: &[f64], repetition: Option<&[usize]>) -> PathBuf {
    let mut text = String::from(if repetition.is_some() {
        "repetition,a,b\n"
    } else {
        "a,b\n"
    });
    for (row, (x, y)) in a.iter().zip(b).enumerate() {
        if let Some(repetition) = repetition {
            text.push_str(&format!("{},", repetition[row]));
        }
        text.push_str(&format!("{x},{y}\n"));
    }
    write_csv(name, &text)
}

#[test]
fn roc_reproduces_auc_and_roc_points() {
    for case in load("auc")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let labels: Vec<i64> = input["y_true"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        let path = predictions_csv(&format!("auc_{name}"), &labels, &floats(&input["y_score"]));
        if expected.get("undefined").is_some() {
            let message = run_error(&["roc", path_text(&path), "--json"]);
            assert!(message.contains("only the label"), "{name}: {message}");
            continue;
        }
        let output = run_json(&["roc", path_text(&path), "--json"]);
        assert_eq!(output["kind"], "binary");
        assert_eq!(output["positive"], "1", "{name}");
        let model = &output["models"][0];
        assert_eq!(model["name"], "score");
        assert!(
            output["models_hull"].is_null(),
            "{name}: one model, no hull over models"
        );
        assert_statistic(
            &format!("{name} auc"),
            float(&model["auc"]),
            float(&expected["auc"]),
        );
        assert_eq!(
            float(&model["positives"]),
            float(&expected["n_pos"]),
            "{name}"
        );
        assert_eq!(
            float(&model["negatives"]),
            float(&expected["n_neg"]),
            "{name}"
        );
        let points = model["roc"].as_array().unwrap();
        let thresholds = floats(&expected["roc_thresholds"]);
        assert_eq!(
            points.len(),
            thresholds.len(),
            "{name}: number of ROC points"
        );
        for (index, point) in points.iter().enumerate() {
            let what = format!("{name} ROC point {index}");
            assert_statistic(&what, float(&point["threshold"]), thresholds[index]);
            assert_statistic(
                &what,
                float(&point["fpr"]),
                float(&expected["roc_fpr"][index]),
            );
            assert_statistic(
                &what,
                float(&point["tpr"]),
                float(&expected["roc_tpr"][index]),
            );
            assert_eq!(
                float(&point["fp"]),
                float(&expected["roc_fp_counts"][index]),
                "{what}"
            );
            assert_eq!(
                float(&point["tp"]),
                float(&expected["roc_tp_counts"][index]),
                "{what}"
            );
        }
    }
}

#[test]
fn roc_reproduces_scored_auc() {
    for case in load("sauc")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let positives = floats(&input["pos_scores"]);
        let negatives = floats(&input["neg_scores"]);
        let mut labels = vec![1; positives.len()];
        labels.extend(vec![0; negatives.len()]);
        let scores: Vec<f64> = positives.iter().chain(&negatives).copied().collect();
        let path = predictions_csv(&format!("sauc_{name}"), &labels, &scores);
        let output = run_json(&["roc", path_text(&path), "--json"]);
        let model = &output["models"][0];
        for key in ["sauc", "r_s_plus", "r_s_minus", "auc"] {
            assert_statistic(
                &format!("{name} {key}"),
                float(&model[key]),
                float(&expected[key]),
            );
        }
    }
}

/// Each point of a case becomes one crisp model (scores 0/1) on 200 positives and 200
/// negatives, so that its ROC curve is (0, 0), the point, (1, 1); the hull over all models is
/// then the hull of the points.
#[test]
fn roc_hull_over_models_reproduces_roc_hull() {
    const SIZE: usize = 200;
    for case in load("roc_hull")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        let points: Vec<(usize, usize)> = case["input"]["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|point| {
                let (fpr, tpr) = (float(&point[0]), float(&point[1]));
                let fp = (fpr * SIZE as f64).round() as usize;
                let tp = (tpr * SIZE as f64).round() as usize;
                assert_eq!(
                    fp as f64 / SIZE as f64,
                    fpr,
                    "{name}: fpr not a multiple of 1/200"
                );
                assert_eq!(
                    tp as f64 / SIZE as f64,
                    tpr,
                    "{name}: tpr not a multiple of 1/200"
                );
                (fp, tp)
            })
            .collect();
        let mut text = String::from("truth");
        for index in 0..points.len() {
            text.push_str(&format!(",m{index}"));
        }
        text.push('\n');
        for (label, count_index) in [(1, 1), (0, 0)] {
            for row in 0..SIZE {
                text.push_str(&label.to_string());
                for point in &points {
                    let count = if count_index == 1 { point.1 } else { point.0 };
                    text.push_str(if row < count { ",1" } else { ",0" });
                }
                text.push('\n');
            }
        }
        let path = write_csv(&format!("hull_{name}"), &text);
        let output = run_json(&["roc", path_text(&path), "--json"]);
        let hull = &output["models_hull"];
        let vertices = hull["vertices"].as_array().unwrap();
        let expected_vertices = expected["hull_vertices"].as_array().unwrap();
        assert_eq!(vertices.len(), expected_vertices.len(), "{name}: {hull}");
        for (index, (vertex, wanted)) in vertices.iter().zip(expected_vertices).enumerate() {
            let what = format!("{name} vertex {index}");
            assert_eq!(float(&vertex["fpr"]), float(&wanted[0]), "{what}");
            assert_eq!(float(&vertex["tpr"]), float(&wanted[1]), "{what}");
            let range = &expected["vertex_optimal_slope_range"][index];
            assert_statistic(&what, float(&vertex["slope_low"]), float(&range[0]));
            assert_statistic(&what, float(&vertex["slope_high"]), float(&range[1]));
            let input_index = expected["hull_vertex_input_index"][index].as_i64().unwrap();
            if input_index >= 0 {
                let owner = format!("m{input_index}");
                let owners = vertex["models"].as_array().unwrap();
                assert!(owners.iter().any(|o| *o == owner), "{what}: {owners:?}");
            }
        }
        let slopes = floats(&hull["segment_slopes"]);
        let expected_slopes = floats(&expected["segment_slopes"]);
        assert_eq!(slopes.len(), expected_slopes.len(), "{name}");
        for (index, (&got, &wanted)) in slopes.iter().zip(&expected_slopes).enumerate() {
            assert_statistic(&format!("{name} slope {index}"), got, wanted);
        }
    }
}

/// Multi-class layout: columns named after the classes (one unnamed model) and MODEL:CLASS
/// columns (a second model with the same scores) in one file.
#[test]
fn roc_reproduces_multiclass_auc() {
    for case in load("multiclass_auc")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        let truth = case["input"]["y_true"].as_array().unwrap();
        let scores = case["input"]["y_score"].as_array().unwrap();
        let classes = scores[0].as_array().unwrap().len();
        let mut text = String::from("truth");
        for class in 0..classes {
            text.push_str(&format!(",{class}"));
        }
        for class in 0..classes {
            text.push_str(&format!(",copy:{class}"));
        }
        text.push('\n');
        for (label, row) in truth.iter().zip(scores) {
            let row = floats(row);
            text.push_str(&label.to_string());
            for _ in 0..2 {
                for value in &row {
                    text.push_str(&format!(",{value}"));
                }
            }
            text.push('\n');
        }
        let path = write_csv(&format!("multiclass_{name}"), &text);
        let output = run_json(&["roc", path_text(&path), "--json"]);
        assert_eq!(output["kind"], "multiclass", "{name}");
        let models = output["models"].as_array().unwrap();
        assert_eq!(models.len(), 2, "{name}");
        assert_eq!(models[0]["name"], "scores");
        assert_eq!(models[1]["name"], "copy");
        let per_class = floats(&expected["ovr_auc_per_class"]);
        for model in models {
            let what = format!("{name} {}", model["name"]);
            assert_statistic(
                &format!("{what} M"),
                float(&model["hand_till_m"]),
                float(&expected["hand_till_m"]),
            );
            assert_statistic(
                &format!("{what} Provost-Domingos"),
                float(&model["provost_domingos_auc"]),
                float(&expected["provost_domingos"]),
            );
            for entry in model["classes"].as_array().unwrap() {
                let class: usize = entry["class"].as_str().unwrap().parse().unwrap();
                assert_statistic(
                    &format!("{what} class {class} AUC"),
                    float(&entry["auc"]),
                    per_class[class],
                );
            }
        }
    }
}

#[test]
fn compare_reproduces_paired_t_test() {
    for case in load("ttest")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        if input.get("a").is_none() {
            continue; // the table of critical values has no data
        }
        let expected = &case["expected"];
        let path = folds_csv(
            &format!("ttest_{name}"),
            &floats(&input["a"]),
            &floats(&input["b"]),
            None,
        );
        let output = run_json(&["compare", path_text(&path), "--json"]);
        assert_eq!(output["a"], "a");
        assert_eq!(output["b"], "b");
        let t = &output["paired_t"];
        assert_eq!(float(&t["df"]), float(&expected["df"]), "{name}");
        assert_statistic(
            &format!("{name} mean"),
            float(&t["mean_difference"]),
            float(&expected["mean_diff"]),
        );
        assert_statistic(
            &format!("{name} sd"),
            float(&t["variance_difference"]).sqrt(),
            float(&expected["sd_diff"]),
        );
        assert_pvalue(
            &format!("{name} critical value"),
            float(&t["critical_value"]),
            float(&expected["t_crit_0.025"]),
        );
        if name == "all_differences_zero" {
            // scipy gives NaN; the documented policy (Weka's) is no evidence: t = 0, p = 1.
            assert_eq!(float(&t["statistic"]), 0.0);
            assert_eq!(float(&t["pvalue"]), 1.0);
            assert_eq!(t["reject"], false);
            continue;
        }
        assert_statistic(
            &format!("{name} t"),
            float(&t["statistic"]),
            float(&expected["statistic"]),
        );
        assert_pvalue(
            &format!("{name} p"),
            float(&t["pvalue"]),
            float(&expected["pvalue"]),
        );
    }
}

#[test]
fn compare_reproduces_corrected_resampled_t_test() {
    for case in load("corrected_ttest")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let path = folds_csv(
            &format!("corrected_{name}"),
            &floats(&input["a"]),
            &floats(&input["b"]),
            None,
        );
        let fraction = float(&input["n_test"]) / float(&input["n_train"]);
        let fraction_text = fraction.to_string();
        let output = run_json(&[
            "compare",
            path_text(&path),
            "--json",
            "--test-fraction",
            &fraction_text,
        ]);
        let t = &output["corrected_t"];
        assert_statistic(
            &format!("{name} ratio"),
            float(&output["test_fraction"]),
            float(&expected["test_train_ratio"]),
        );
        assert_eq!(float(&t["df"]), float(&expected["df"]), "{name}");
        assert_statistic(
            &format!("{name} mean"),
            float(&t["mean_difference"]),
            float(&expected["mean_diff"]),
        );
        assert_statistic(
            &format!("{name} variance"),
            float(&t["variance_difference"]),
            float(&expected["var_diff"]),
        );
        assert_statistic(
            &format!("{name} corrected variance"),
            float(&t["variance_of_mean"]),
            float(&expected["corrected_variance"]),
        );
        // Weka's p-value: equal to scipy's except 1 when every difference is 0.
        assert_pvalue(
            &format!("{name} p"),
            float(&t["pvalue"]),
            float(&expected["weka_pvalue"]),
        );
        if float(&expected["t"]).is_nan() {
            assert_eq!(float(&t["statistic"]), 0.0, "{name}");
        } else {
            assert_statistic(
                &format!("{name} t"),
                float(&t["statistic"]),
                float(&expected["t"]),
            );
        }
        let plain = float(&output["paired_t"]["statistic"]);
        let uncorrected = float(&expected["uncorrected_t"]);
        if uncorrected.is_nan() {
            assert_eq!(plain, 0.0, "{name}");
        } else {
            assert_statistic(&format!("{name} uncorrected t"), plain, uncorrected);
        }
    }
}

#[test]
fn compare_reproduces_wilcoxon_signed_rank_test() {
    let permutation = load("wilcoxon_exact");
    for case in load("wilcoxon")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"]["wilcox"];
        let path = folds_csv(
            &format!("wilcoxon_{name}"),
            &floats(&input["x"]),
            &floats(&input["y"]),
            None,
        );
        let output = run_json(&["compare", path_text(&path), "--json"]);
        let w = &output["wilcoxon"];
        for key in ["r_plus", "r_minus"] {
            assert_statistic(
                &format!("{name} {key}"),
                float(&w[key]),
                float(&expected[key]),
            );
        }
        assert_eq!(w["n_used"], expected["n_used"], "{name}");
        assert_statistic(
            &format!("{name} statistic"),
            float(&w["statistic"]),
            float(&expected["exact"]["statistic"]),
        );
        // At most 50 non-zero differences: the exact (conditional) distribution.
        assert_eq!(w["exact"], true, "{name}");
        let reference = permutation["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == format!("{name}_wilcox").as_str());
        let expected_p = match (reference, case.get("exact_is_scipy_convention")) {
            (Some(reference), _) => float(&reference["expected"]["pvalue"]),
            (None, None) => float(&expected["exact"]["pvalue"]),
            (None, Some(_)) => continue, // scipy's tie-free table: not an exact test
        };
        assert_pvalue(&format!("{name} p"), float(&w["pvalue"]), expected_p);
    }
}

#[test]
fn compare_reproduces_sign_test() {
    for case in load("sign_test")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        if input.get("wins").is_none() {
            continue; // tables of critical values
        }
        let count = |key: &str| input[key].as_u64().unwrap() as usize;
        let (wins, losses, ties) = (count("wins"), count("losses"), count("ties"));
        let mut a = vec![0.75; wins];
        let mut b = vec![0.5; wins];
        a.extend(vec![0.25; losses]);
        b.extend(vec![0.5; losses]);
        a.extend(vec![0.5; ties]);
        b.extend(vec![0.5; ties]);
        let path = folds_csv(&format!("sign_{name}"), &a, &b, None);
        let output = run_json(&["compare", path_text(&path), "--json"]);
        let sign = &output["sign"];
        assert_eq!(sign["wins"].as_u64(), Some(wins as u64), "{name}");
        assert_eq!(sign["losses"].as_u64(), Some(losses as u64), "{name}");
        assert_eq!(sign["ties"].as_u64(), Some(ties as u64), "{name}");
        assert_eq!(sign["n"], case["expected"]["n"], "{name}");
        assert_pvalue(
            &format!("{name} p"),
            float(&sign["pvalue"]),
            float(&case["expected"]["pvalue"]),
        );
    }
}

/// The ten rows are written in reverse order with repetitions 1..5 and folds 1..2: the command
/// must find replication 1, fold 1 by the index columns, not by the row order.
#[test]
fn compare_reproduces_5x2cv_tests() {
    for case in load("cv5x2")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        let mut text = String::from("learner_a,fold,Repetition,learner_b\n");
        for replication in (0..5).rev() {
            for fold in (0..2).rev() {
                let difference = float(&case["input"]["p"][replication][fold]);
                text.push_str(&format!(
                    "{difference},{},{},0\n",
                    fold + 1,
                    replication + 1
                ));
            }
        }
        let path = write_csv(&format!("cv5x2_{name}"), &text);
        let output = run_json(&["compare", path_text(&path), "--json"]);
        assert_eq!(output["a"], "learner_a");
        let t = &output["cv5x2_t"];
        let f = &output["cv5x2_f"];
        assert_statistic(
            &format!("{name} t"),
            float(&t["statistic"]),
            float(&expected["t"]),
        );
        assert_pvalue(
            &format!("{name} t p"),
            float(&t["pvalue"]),
            float(&expected["t_pvalue"]),
        );
        assert_eq!(float(&t["df"]), 5.0);
        assert_statistic(
            &format!("{name} F"),
            float(&f["statistic"]),
            float(&expected["f"]),
        );
        assert_pvalue(
            &format!("{name} F p"),
            float(&f["pvalue"]),
            float(&expected["f_pvalue"]),
        );
        assert_eq!((float(&f["df"]), float(&f["df_denominator"])), (10.0, 5.0));
        let s2 = floats(&expected["s2"]);
        for (index, got) in floats(&t["replication_variances"]).into_iter().enumerate() {
            assert_statistic(&format!("{name} s2[{index}]"), got, s2[index]);
        }
        assert_eq!(output["runs"], 5);
    }
}

/// Runs = the number of distinct values of the repetition column (none: 1 run).
#[test]
fn compare_reproduces_bayesian_correlated_t_test() {
    for case in load("bayesian")["correlated_t"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let a = floats(&input["a"]);
        let runs = input["runs"].as_u64().unwrap() as usize;
        let folds = a.len() / runs;
        let repetition: Vec<usize> = (0..a.len()).map(|row| row / folds + 1).collect();
        let path = folds_csv(
            &format!("bayesian_{name}"),
            &a,
            &floats(&input["b"]),
            (runs > 1).then_some(&repetition[..]),
        );
        let rope = float(&input["rope"]).to_string();
        let output = run_json(&["compare", path_text(&path), "--json", "--rope", &rope]);
        let result = &output["bayesian_correlated_t"];
        assert_eq!(output["runs"].as_u64(), Some(runs as u64), "{name}");
        assert_statistic(
            &format!("{name} mean"),
            float(&result["mean"]),
            float(&expected["mean"]),
        );
        assert_statistic(
            &format!("{name} variance"),
            float(&result["variance"]),
            float(&expected["variance"]),
        );
        assert_eq!(float(&result["df"]), float(&expected["df"]), "{name}");
        // left: b better; right: a better (stats' and baycomp's names).
        for region in ["left", "rope", "right"] {
            assert_pvalue(
                &format!("{name} {region}"),
                float(&result["probabilities"][region]),
                float(&expected[region]),
            );
        }
    }
}

/// `--positive` reads a file with more than two labels as that label against the rest; hand
/// count: positives 0.9, 0.2 and negatives 0.8, 0.1 give 3 of 4 ordered pairs, AUC 0.75.
#[test]
fn positive_label_against_the_rest() {
    let path = write_csv("positive_rest", "truth,model\na,0.9\nb,0.8\nc,0.1\na,0.2\n");
    let output = run_json(&["roc", path_text(&path), "--positive", "a", "--json"]);
    assert_eq!(output["kind"], "binary");
    assert_eq!(output["negatives"], serde_json::json!(["b", "c"]));
    let model = &output["models"][0];
    assert_eq!(float(&model["positives"]), 2.0);
    assert_eq!(float(&model["negatives"]), 2.0);
    assert_eq!(float(&model["auc"]), 0.75);
}

#[test]
fn text_output_is_printed_without_json() {
    let path = write_csv(
        "text_roc",
        "id_label,knn,nb\nyes,0.9,0.8\nno,0.7,0.2\nyes,0.6,0.6\nno,0.4,0.5\n",
    );
    let output = experiments(&["roc", path_text(&path), "--truth", "id_label"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("positive 'yes'"), "{text}");
    assert!(
        text.contains("| knn |") && text.contains("over all models"),
        "{text}"
    );

    let path = write_csv(
        "text_compare",
        "fold,knn,nb\n1,0.8,0.7\n2,0.9,0.85\n3,0.7,0.72\n",
    );
    let output = experiments(&["compare", path_text(&path), "--test-fraction", "1/2"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("corrected resampled t (n\\_test/n\\_train = 0.5)"),
        "{text}"
    );
    assert!(text.contains("5x2cv"), "{text}");
}

#[test]
fn bad_input_fails_with_file_line_and_column() {
    let missing = run_error(&["roc", "no/such/predictions.csv"]);
    assert!(missing.contains("no/such/predictions.csv"), "{missing}");
    let missing = run_error(&["compare", "no/such/folds.csv"]);
    assert!(missing.contains("no/such/folds.csv"), "{missing}");

    let ragged = write_csv("bad_ragged", "truth,score\n1,0.5\n0\n");
    let message = run_error(&["roc", path_text(&ragged)]);
    assert!(message.contains("bad_ragged.csv:3"), "{message}");
    let message = run_error(&["compare", path_text(&ragged)]);
    assert!(message.contains("bad_ragged.csv:3"), "{message}");

    let not_number = write_csv("bad_cell", "truth,score\n1,0.5\n0,high\n");
    let message = run_error(&["roc", path_text(&not_number)]);
    assert!(
        message.contains("bad_cell.csv:3, column 'score'") && message.contains("'high'"),
        "{message}"
    );

    let folds = write_csv("bad_folds", "a,b,c\n0.5,0.6,0.7\n0.5,x,0.7\n");
    let message = run_error(&["compare", path_text(&folds), "--a", "a", "--b", "b"]);
    assert!(message.contains("bad_folds.csv:3, column 'b'"), "{message}");
    let message = run_error(&["compare", path_text(&folds), "--a", "a", "--b", "z"]);
    assert!(
        message.contains("no column 'z'") && message.contains("a, b, c"),
        "{message}"
    );
    let message = run_error(&["compare", path_text(&folds)]);
    assert!(
        message.contains("--a") && message.contains("3 learner columns"),
        "{message}"
    );
    let message = run_error(&["roc", path_text(&folds), "--truth", "label"]);
    assert!(message.contains("no column 'label'"), "{message}");
    let message = run_error(&[
        "compare",
        path_text(&folds),
        "--a",
        "a",
        "--b",
        "c",
        "--alpha",
        "2",
    ]);
    assert!(message.contains("--alpha"), "{message}");
    let message = run_error(&["compare", path_text(&folds), "--test-fraction", "a/9"]);
    assert!(message.contains("'a/9'"), "{message}");

    let labels = write_csv("bad_labels", "truth,score\nred,0.5\nblue,0.6\n");
    let message = run_error(&["roc", path_text(&labels)]);
    assert!(message.contains("--positive"), "{message}");
    let message = run_error(&["roc", path_text(&labels), "--positive", "green"]);
    assert!(
        message.contains("'green'") && message.contains("'red'"),
        "{message}"
    );

    let multiclass = write_csv(
        "bad_multiclass",
        "truth,a,b,knn\na,0.5,0.3,0.2\nb,0.1,0.8,0.1\nc,0.2,0.2,0.6\n",
    );
    let message = run_error(&["roc", path_text(&multiclass)]);
    assert!(
        message.contains("column 'knn'") && message.contains("MODEL:CLASS"),
        "{message}"
    );
    let message = run_error(&[
        "roc",
        path_text(&write_csv(
            "bad_multiclass_missing",
            "truth,a,b\na,0.5,0.3\nb,0.1,0.8\nc,0.2,0.2\n",
        )),
    ]);
    assert!(message.contains("no column 'c'"), "{message}");
}

/// The long (dataset, learner, value) and wide (dataset + one column per learner) CSV layouts
/// of one datasets x learners matrix.
fn results_tables(name: &str, scores: &[Vec<f64>], learners: &[String]) -> (PathBuf, PathBuf) {
    let mut long = String::from("dataset,learner,value\n");
    let mut wide = format!("dataset,{}\n", learners.join(","));
    for (row, values) in scores.iter().enumerate() {
        wide.push_str(&format!("d{row}"));
        for (learner, value) in learners.iter().zip(values) {
            long.push_str(&format!("d{row},{learner},{value:?}\n"));
            wide.push_str(&format!(",{value:?}"));
        }
        wide.push('\n');
    }
    (
        write_csv(&format!("{name}_long"), &long),
        write_csv(&format!("{name}_wide"), &wide),
    )
}

#[test]
fn compare_on_a_results_table_reproduces_the_across_dataset_tests() {
    for case in load("across_datasets")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let scores: Vec<Vec<f64>> = input["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(floats)
            .collect();
        let learners: Vec<String> = input["learners"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        let (long, wide) = results_tables(name, &scores, &learners);
        let alpha = float(&input["alpha"]).to_string();
        let rope = float(&input["rope"]).to_string();
        let control = input["control"].as_str().unwrap();
        let mut args = vec![
            "--json",
            "--alpha",
            &alpha,
            "--rope",
            &rope,
            "--control",
            control,
        ];
        if !input["higher_is_better"].as_bool().unwrap() {
            args.push("--lower-is-better");
        }
        let run = |path: &Path| {
            let mut all = vec!["compare", path_text(path)];
            all.extend(&args);
            run_json(&all)
        };
        let output = run(&long);
        let from_wide = run(&wide);
        assert_eq!(
            output["analysis"], from_wide["analysis"],
            "{name}: long and wide differ"
        );
        assert_eq!(
            output["table"]["values"], from_wide["table"]["values"],
            "{name}: long and wide differ"
        );
        let result = &output["analysis"]["core"];
        for (got, want) in floats(&result["average_ranks"])
            .iter()
            .zip(floats(&expected["average_ranks"]))
        {
            assert_statistic(&format!("{name} rank"), *got, want);
        }
        assert_statistic(
            &format!("{name} chi2"),
            float(&result["friedman"]["chi_square"]),
            float(&expected["chi2"]),
        );
        assert_pvalue(
            &format!("{name} F p"),
            float(&result["friedman"]["iman_davenport_pvalue"]),
            float(&expected["iman_davenport_pvalue"]),
        );
        for (comparison, holm) in result["control"]["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .zip(floats(&expected["holm_pvalues"]))
        {
            assert_pvalue(
                &format!("{name} holm"),
                float(&comparison["holm_pvalue"]),
                holm,
            );
        }
        for (got, want) in result["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .zip(expected["pairs"].as_array().unwrap())
        {
            for (field, key) in [
                ("wilcoxon_holm_pvalue", "wilcoxon_holm_pvalue"),
                ("nemenyi_pvalue", "nemenyi_pvalue"),
            ] {
                assert_pvalue(
                    &format!("{name} {field}"),
                    float(&got[field]),
                    float(&want[key]),
                );
            }
            assert_pvalue(
                &format!("{name} wilcoxon"),
                float(&got["wilcoxon"]["pvalue"]),
                float(&want["wilcoxon_pvalue"]),
            );
            assert_pvalue(
                &format!("{name} sign"),
                float(&got["sign_test"]["pvalue"]),
                float(&want["sign_test_pvalue"]),
            );
        }
    }
}

#[test]
fn compare_reads_a_runs_tidy_table_in_csv_and_parquet() {
    // The layout of a run's per_fold.csv: two folds per (dataset, learner) are averaged, the
    // validation rows and the other measure are left out.
    let mut text = String::from("dataset,learner,repetition,fold,part,measure,value\n");
    let folds = [[0.70, 0.80, 0.75], [0.72, 0.82, 0.70], [0.60, 0.90, 0.64]];
    for (dataset, values) in folds.iter().enumerate() {
        for (learner, value) in ["x", "y", "z"].iter().zip(values) {
            for (fold, shift) in [0.01, -0.01].iter().enumerate() {
                for (part, measure, cell) in [
                    ("test", "auc", value + shift),
                    ("validation", "auc", 0.5),
                    ("test", "error", 0.3),
                ] {
                    text.push_str(&format!(
                        "d{dataset},{learner},0,{fold},{part},{measure},{cell}\n"
                    ));
                }
            }
        }
    }
    let csv = write_csv("tidy", &text);
    // Two folds per cell: the hierarchical test would run; off here (its own test is in
    // across_compare_reference.rs).
    let quick = ["--measure", "auc", "--json", "--hierarchical-samples", "0"];
    let output = run_json(&[&["compare", path_text(&csv)], &quick[..]].concat());
    assert_eq!(output["measure"], "auc");
    assert_eq!(output["higher_is_better"], true);
    assert_eq!(output["rows_averaged"], 18);
    // Ranks by hand: y is best on every dataset; x is third on d0 and d2, second on d1.
    assert_eq!(
        floats(&output["analysis"]["core"]["average_ranks"]),
        [8.0 / 3.0, 1.0, 7.0 / 3.0]
    );
    // Without --measure the two measures are ambiguous; the error lists them.
    let message = run_error(&["compare", path_text(&csv)]);
    assert!(
        message.contains("--measure") && message.contains("auc, error"),
        "{message}"
    );
    // error is lower-is-better: the ranks follow.
    let errors = run_json(&[
        "compare",
        path_text(&csv),
        "--measure",
        "error",
        "--json",
        "--hierarchical-samples",
        "0",
    ]);
    assert_eq!(errors["higher_is_better"], false);

    // Parquet input needs the `polars` feature; without it, a clear refusal.
    #[cfg(feature = "polars")]
    {
        use polars::prelude::{Column, DataFrame, ParquetWriter};
        let table = experiments_table(&text);
        let columns: Vec<Column> = table
            .iter()
            .map(|(name, cells)| {
                if name == "value" {
                    let numbers: Vec<f64> = cells.iter().map(|c| c.parse().unwrap()).collect();
                    Column::new(name.as_str().into(), numbers)
                } else {
                    Column::new(name.as_str().into(), cells.clone())
                }
            })
            .collect();
        let mut frame = DataFrame::new(table[0].1.len(), columns).unwrap();
        let parquet = csv.with_extension("parquet");
        ParquetWriter::new(std::fs::File::create(&parquet).unwrap())
            .finish(&mut frame)
            .unwrap();
        let from_parquet = run_json(&[&["compare", path_text(&parquet)], &quick[..]].concat());
        assert_eq!(from_parquet["analysis"], output["analysis"]);
    }
    #[cfg(not(feature = "polars"))]
    {
        let parquet = csv.with_extension("parquet");
        std::fs::write(&parquet, b"PAR1").unwrap();
        let message = run_error(&["compare", path_text(&parquet), "--measure", "auc"]);
        assert!(
            message.contains("--features polars") && message.contains("per_fold.csv"),
            "{message}"
        );
    }
}

/// The columns of a CSV text: (name, cells).
#[cfg(feature = "polars")]
fn experiments_table(text: &str) -> Vec<(String, Vec<String>)> {
    let mut lines = text.lines();
    let mut columns: Vec<(String, Vec<String>)> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|name| (name.to_string(), Vec::new()))
        .collect();
    for line in lines {
        for (column, cell) in columns.iter_mut().zip(line.split(',')) {
            column.1.push(cell.to_string());
        }
    }
    columns
}

#[test]
fn compare_results_table_errors_name_what_is_wrong() {
    let (long, _) = results_tables(
        "errors",
        &[vec![0.8, 0.7], vec![0.6, 0.9], vec![0.5, 0.4]],
        &["a".into(), "b".into()],
    );
    let message = run_error(&["compare", path_text(&long), "--control", "zz"]);
    assert!(
        message.contains("control learner `zz`") && message.contains("a, b"),
        "{message}"
    );
    let message = run_error(&["compare", path_text(&long), "--a", "a", "--b", "b"]);
    assert!(
        message.contains("--a applies to per-fold results"),
        "{message}"
    );
    let missing = write_csv(
        "missing",
        "dataset,learner,value\nd0,a,0.5\nd0,b,0.6\nd1,a,0.7\n",
    );
    let message = run_error(&["compare", path_text(&missing)]);
    assert!(
        message.contains("no value for dataset 'd1' and learner 'b'"),
        "{message}"
    );
    let bad = write_csv("bad_value", "dataset,a,b\nd0,0.5,x\n");
    let message = run_error(&["compare", path_text(&bad)]);
    assert!(message.contains("bad_value.csv:2, column 'b'"), "{message}");
    let folds = folds_csv("per_fold_control", &[0.1, 0.2], &[0.3, 0.1], None);
    let message = run_error(&["compare", path_text(&folds), "--control", "a"]);
    assert!(
        message.contains("--control applies to a results table"),
        "{message}"
    );
}

#[test]
fn compare_mcnemar_reproduces_statsmodels() {
    for case in load("mcnemar")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        let (b, c) = (expected["b"].to_string(), expected["c"].to_string());
        let output = run_json(&["compare", "mcnemar", "--b", &b, "--c", &c, "--json"]);
        let result = &output["result"];
        assert_statistic(
            name,
            float(&result["exact"]["statistic"]),
            float(&expected["exact"]["statistic"]),
        );
        assert_pvalue(
            name,
            float(&result["exact"]["pvalue"]),
            float(&expected["exact"]["pvalue"]),
        );
        if expected["chi2"].is_null() {
            assert!(result["chi_square"].is_null(), "{name}");
            continue;
        }
        assert_pvalue(
            name,
            float(&result["chi_square"]["pvalue"]),
            float(&expected["chi2"]["pvalue"]),
        );
        assert_pvalue(
            name,
            float(&result["chi_square_corrected"]["pvalue"]),
            float(&expected["chi2_cc"]["pvalue"]),
        );
    }
}

#[test]
fn compare_binomial_reproduces_statsmodels_intervals() {
    for case in load("binomial_ci")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let (k, n) = (input["count"].to_string(), input["nobs"].to_string());
        let alpha = float(&input["alpha"]).to_string();
        let output = run_json(&[
            "compare",
            "binomial",
            "--successes",
            &k,
            "--trials",
            &n,
            "--alpha",
            &alpha,
            "--json",
        ]);
        for (side, key) in [("low", "wilson_low"), ("high", "wilson_high")] {
            assert_statistic(
                name,
                float(&output["wilson_interval"][side]),
                float(&expected[key]),
            );
        }
        for (side, key) in [("low", "normal_low"), ("high", "normal_high")] {
            assert_statistic(
                name,
                float(&output["wald_interval"][side]),
                float(&expected[key]),
            );
        }
    }
}

#[test]
fn compare_delong_reproduces_the_reference_vectors() {
    for case in load("delong")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        // The degenerate case's policy (z = 0, p = 1) is checked in crates/stats.
        if case["degenerate"].as_bool() == Some(true) || !expected["z"].is_number() {
            continue;
        }
        let input = &case["input"];
        let labels = input["y_true"].as_array().unwrap();
        let (first, second) = (floats(&input["score1"]), floats(&input["score2"]));
        let mut text = String::from("truth,m1,m2\n");
        for ((label, x), y) in labels.iter().zip(&first).zip(&second) {
            text.push_str(&format!("{label},{x:?},{y:?}\n"));
        }
        let path = write_csv(&format!("delong_{name}"), &text);
        let output = run_json(&["compare", "delong", "--scores", path_text(&path), "--json"]);
        let result = &output["result"];
        assert_statistic(name, float(&result["auc1"]), float(&expected["auc1"]));
        assert_statistic(name, float(&result["auc2"]), float(&expected["auc2"]));
        assert!(
            (float(&result["z"]) - float(&expected["z"])).abs() < 1e-9,
            "{name}"
        );
        assert_pvalue(name, float(&result["pvalue"]), float(&expected["p_value"]));
    }
}

#[test]
fn compare_auc_interval_reproduces_hanley_mcneil() {
    for case in load("hanley_mcneil")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let auc = float(&input["auc"]).to_string();
        let (m, n) = (input["n_pos"].to_string(), input["n_neg"].to_string());
        let output = run_json(&[
            "compare",
            "auc-interval",
            "--auc",
            &auc,
            "--positives",
            &m,
            "--negatives",
            &n,
            "--json",
        ]);
        assert_statistic(
            name,
            float(&output["hanley_mcneil"]["se"]),
            float(&case["expected"]["se"]),
        );
    }
}

#[test]
fn compare_correct_reproduces_statsmodels_multipletests() {
    for case in load("multitest")["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let pvalues: Vec<String> = floats(&input["pvals"])
            .iter()
            .map(|p| format!("{p:?}"))
            .collect();
        let joined = pvalues.join(",");
        let alpha = float(&input["alpha"]).to_string();
        let output = run_json(&[
            "compare",
            "correct",
            "--pvalues",
            &joined,
            "--alpha",
            &alpha,
            "--json",
        ]);
        for method in ["holm", "bonferroni"] {
            for (got, want) in floats(&output[method]["corrected_pvalues"])
                .iter()
                .zip(floats(&case["expected"][method]["pvals_corrected"]))
            {
                assert_pvalue(&format!("{name} {method}"), *got, want);
            }
            assert_eq!(
                output[method]["reject"], case["expected"][method]["reject"],
                "{name}"
            );
        }
    }
}

#[test]
fn compare_ranks_reproduces_demsars_example() {
    let output = run_json(&[
        "compare",
        "ranks",
        "--average-ranks",
        "3.143,2.000,2.893,1.964",
        "--datasets",
        "14",
        "--json",
    ]);
    // Demsar (2006), section 3.2.4: chi2_F = 9.28, F_F = 3.69, CD = 1.25 at alpha 0.05.
    let round = |value: f64| (value * 100.0).round() / 100.0;
    assert_eq!(
        round(float(&output["friedman"]["chi_square_uncorrected"])),
        9.28
    );
    assert_eq!(
        round(float(&output["friedman"]["iman_davenport_f_uncorrected"])),
        3.69
    );
    assert_eq!(
        round(float(&output["nemenyi_critical_difference_demsar_table"])),
        1.25
    );
}

#[test]
fn compare_single_tests_refuse_bad_flags() {
    let message = run_error(&["compare", "binomial", "--successes", "5", "--trials", "3"]);
    assert!(
        message.contains("--successes 5 is more than --trials 3"),
        "{message}"
    );
    let message = run_error(&["compare", "mcnemar", "--b", "x", "--c", "3"]);
    assert!(message.contains("--b"), "{message}");
    let message = run_error(&[
        "compare",
        "ranks",
        "--average-ranks",
        "1,2",
        "--datasets",
        "1",
    ]);
    assert!(
        message.contains("--datasets 1 is out of range"),
        "{message}"
    );
}

#[test]
fn compare_sign_reproduces_scipy_for_every_tail_and_method() {
    // The vectors of crates/stats/tests/data/sign_test_tails.py (scipy binomtest and the
    // normal approximation with and without continuity correction).
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/stats/tests/data/sign_test_tails.json");
    let reference: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for case in reference["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        if input["wins"].is_null() {
            continue; // a critical-value table, checked in crates/stats
        }
        for (method, method_key) in [
            ("exact", "exact"),
            ("normal", "normal"),
            ("normal-corrected", "normal_cc"),
        ] {
            for (alternative, alternative_key) in [
                ("two-sided", "two-sided"),
                ("first-better", "greater"),
                ("second-better", "less"),
            ] {
                let output = run_json(&[
                    "compare",
                    "sign",
                    "--wins",
                    &input["wins"].to_string(),
                    "--losses",
                    &input["losses"].to_string(),
                    "--ties",
                    &input["ties"].to_string(),
                    "--alternative",
                    alternative,
                    "--method",
                    method,
                    "--json",
                ]);
                let label = format!("{name} {method} {alternative}");
                assert_pvalue(
                    &label,
                    float(&output["result"]["pvalue"]),
                    float(&case["expected"][method_key][alternative_key]),
                );
            }
        }
    }
}
