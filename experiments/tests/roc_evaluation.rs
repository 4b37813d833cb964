//! `roc FILE --json --max-fpr 0.2` on a file of three models against the peers' values in
//! tests/data/roc_eval/expected.json (written by generate.py beside it: scikit-learn's average
//! precision, standardised partial AUC, Brier score and error; netcal's ECE and MCE; hmeasure's
//! H; pyprg's PR-Gain area; ROCR's cost curve; DeLong's chi-square, its pairs checked against
//! pROC). The bootstrap has no peer with the same random numbers: it is checked on its fixed-seed
//! properties (the same seed gives the same output, another seed another one; each interval's
//! estimate is the peer's value) and against DeLong's standard error of the AUC (pROC).

mod json_envelope;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/roc_eval")
        .join(name)
}

fn roc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_experiments"))
        .arg("roc")
        .arg(data("models.csv"))
        .args(args)
        .output()
        .unwrap()
}

fn roc_json(args: &[&str]) -> Value {
    let output = roc(args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    json_envelope::result_of(&output.stdout)
}

fn number(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

fn near(what: &str, got: &Value, expected: &Value, tolerance: f64) {
    let (got, expected) = (number(got), number(expected));
    assert!(
        (got - expected).abs() <= tolerance * expected.abs().max(1.0),
        "{what}: {got} != {expected}"
    );
}

/// The envelope's cost at `pc`, linear between its corners.
fn envelope_at(corners: &[Value], pc: f64) -> f64 {
    let pc = pc.clamp(0.0, 1.0);
    let points: Vec<(f64, f64)> = corners
        .iter()
        .map(|c| (number(&c[0]), number(&c[1])))
        .collect();
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        if pc >= x0 && pc <= x1 {
            return if x1 > x0 {
                y0 + (y1 - y0) * (pc - x0) / (x1 - x0)
            } else {
                y0.min(y1)
            };
        }
    }
    panic!("{pc} outside the envelope")
}

fn interval<'a>(model: &'a Value, measure: &str) -> &'a Value {
    model["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["measure"] == measure)
        .unwrap_or_else(|| panic!("no interval of {measure}"))
}

fn check_model(got: &Value, expected: &Value) {
    let name = expected["name"].as_str().unwrap();
    assert_eq!(got["name"], expected["name"]);
    let p = &got["probabilities"];
    let pairs = [
        ("average_precision", &got["average_precision"]),
        (
            "partial_auc_standardized",
            &got["partial_auc"]["standardized"],
        ),
        ("brier", &p["brier"]),
        ("ece", &p["equal_width"]["ece"]),
        ("mce", &p["equal_width"]["mce"]),
        ("h_measure", &got["h_measure"]["h"]),
        ("prg_area", &got["pr_gain"]["area"]),
    ];
    for (key, value) in pairs {
        near(&format!("{name} {key}"), value, &expected[key], 1e-9);
    }
    for (measure, key) in [
        ("auc", "auc"),
        ("error", "error"),
        ("brier", "brier"),
        ("average_precision", "average_precision"),
        ("partial_auc", "partial_auc_standardized"),
        ("h_measure", "h_measure"),
        ("ece", "ece"),
        ("prg_area", "prg_area"),
    ] {
        let i = interval(got, measure);
        near(
            &format!("{name} {measure} estimate"),
            &i["estimate"],
            &expected[key],
            1e-9,
        );
        assert!(number(&i["percentile"]["low"]) <= number(&i["percentile"]["high"]));
        assert!(number(&i["bca"]["interval"]["low"]) <= number(&i["bca"]["interval"]["high"]));
    }
    assert_eq!(got["intervals"].as_array().unwrap().len(), 10);
    let se = number(&interval(got, "auc")["standard_error"]);
    let delong = number(&expected["auc_delong_se"]);
    assert!(
        (se / delong - 1.0).abs() < 0.25,
        "{name}: bootstrap SE {se} far from DeLong's {delong}"
    );
    let corners = got["cost_curve"]["envelope"].as_array().unwrap();
    let (xs, ys) = (
        expected["ecost_x"].as_array().unwrap(),
        expected["ecost_y"].as_array().unwrap(),
    );
    assert!(!xs.is_empty());
    for (x, y) in xs.iter().zip(ys) {
        let cost = envelope_at(corners, number(x));
        assert!(
            (cost - number(y)).abs() < 1e-9,
            "{name}: cost at {x}: {cost} != ROCR's {y}"
        );
    }
}

#[test]
fn several_models_match_scikit_learn_and_the_peers() {
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(data("expected.json")).unwrap()).unwrap();
    let json = roc_json(&["--json", "--max-fpr", "0.2"]);
    let evaluation = &json["evaluation"];
    let models = evaluation["models"].as_array().unwrap();
    let references = expected["models"].as_array().unwrap();
    assert_eq!(models.len(), references.len());
    for (got, reference) in models.iter().zip(references) {
        check_model(got, reference);
    }
    let delong = &evaluation["delong"];
    near(
        "DeLong chi-square",
        &delong["chi_square"],
        &expected["delong"]["chi_square"],
        1e-9,
    );
    near(
        "DeLong chi-square from pROC's var and cov",
        &delong["chi_square"],
        &expected["delong"]["proc_chi_square"],
        1e-9,
    );
    assert_eq!(delong["df"], expected["delong"]["df"]);
    assert_eq!(evaluation["differences"].as_array().unwrap().len(), 30);
    assert!(evaluation["models_cost_curve"]["segments"].is_array());
}

#[test]
fn the_bootstrap_is_seeded() {
    let args = ["--json", "--max-fpr", "0.2", "--resamples", "200"];
    let first = roc_json(&args);
    assert_eq!(first, roc_json(&args));
    let mut other = args.to_vec();
    other.extend(["--seed", "7"]);
    let second = roc_json(&other);
    let auc =
        |json: &Value| interval(&json["evaluation"]["models"][0], "auc")["percentile"].clone();
    assert_ne!(auc(&first), auc(&second));
}

#[test]
fn the_tables_show_the_evaluation() {
    let output = roc(&["--max-fpr", "0.2", "--resamples", "50"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for title in [
        "Precision-recall, partial AUC, H-measure, Brier score and calibration",
        "Murphy's decomposition",
        "Bootstrap intervals (50 class-stratified resamples, seed 1, level 0.95)",
        "Cost curve lower envelope over all models",
        "DeLong's test that all models' AUCs are equal",
        "Paired bootstrap intervals of differences",
    ] {
        assert!(text.contains(title), "no table '{title}' in:\n{text}");
    }
}

#[test]
fn bad_evaluation_options_are_refused_with_the_flag() {
    for (args, flag) in [
        (vec!["--max-fpr", "0"], "--max-fpr"),
        (vec!["--max-fpr", "1.5"], "--max-fpr"),
        (vec!["--max-fpr", "nan"], "--max-fpr"),
        (vec!["--bins", "0"], "--bins"),
        (vec!["--bins", "99999999999999999999999"], "--bins"),
        (vec!["--resamples", "1"], "--resamples"),
        (vec!["--confidence", "1"], "--confidence"),
        (vec!["--h-alpha", "2"], "--h-alpha"),
        (vec!["--h-alpha=-1", "--h-beta", "2"], "--h-alpha"),
        (vec!["--jackknife-groups", "0"], "--jackknife-groups"),
    ] {
        let output = roc(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} accepted");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
