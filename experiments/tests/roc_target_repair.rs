//! `roc --target-fpr` and `roc --repair` on a ranking worked by hand (the slides'
//! interpolation between classifiers and repair of concavities).
//!
//! Model `a` ranks the labels + - - + + - (scores 6..1): ROC points (0,0) (0,1/3) (1/3,1/3)
//! (2/3,1/3) (2/3,2/3) (2/3,1) (1,1), hull (0,0) (0,1/3) (2/3,1) (1,1). At FPR 1/3 the hull
//! mixes (0,1/3) (score >= 6) and (2/3,1) (score >= 2) half and half: TPR 2/3. Scores 2..5 lie
//! under the hull edge; inverting their ranking gives + + + - - -, AUC 1 (from 5/9).
//! Model `b` ranks perfectly (hull (0,0) (0,1) (1,1)); over both models, FPR 1/3 mixes b's
//! (0,1) (score >= 0.7) on 2/3 of the cases with the all-positive (1,1): TPR 1.

mod json_envelope;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Runs `roc` on the hand-worked file, written under its own `name` (tests run in parallel).
fn roc(name: &str, args: &[&str]) -> std::process::Output {
    let directory = Path::new(env!("CARGO_TARGET_TMPDIR")).join("roc_target_repair");
    std::fs::create_dir_all(&directory).unwrap();
    let path = directory.join(format!("{name}.csv"));
    std::fs::write(
        &path,
        "truth,a,b\n1,6,0.9\n0,5,0.1\n0,4,0.2\n1,3,0.8\n1,2,0.7\n0,1,0.3\n",
    )
    .unwrap();
    Command::new(env!("CARGO_BIN_EXE_experiments"))
        .arg("roc")
        .arg(&path)
        .args(args)
        .output()
        .unwrap()
}

/// Runs `roc` on the hand-worked file; it must succeed; returns its standard output.
fn roc_succeeds(name: &str, args: &[&str]) -> String {
    let output = roc(name, args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    String::from_utf8(output.stdout).unwrap()
}

fn number(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

fn close(got: &Value, expected: f64) {
    assert!(
        (number(got) - expected).abs() < 1e-12,
        "{got} != {expected}"
    );
}

#[test]
fn target_rate_and_repair_match_the_hand_worked_example() {
    let output = roc_succeeds(
        "json",
        &["--target-fpr", "0.3333333333333333", "--repair", "--json"],
    );
    let json: Value = json_envelope::result_of(output.as_bytes());
    let a = &json["models"][0];
    assert_eq!(a["name"], "a");
    let target = &a["target"];
    close(&target["tpr"], 2.0 / 3.0);
    close(&target["share_first"], 0.5);
    assert_eq!(number(&target["first"]["threshold"]), 6.0);
    assert_eq!(number(&target["second"]["threshold"]), 2.0);
    close(&target["second"]["fpr"], 2.0 / 3.0);
    let repair = &a["repair"];
    assert_eq!(number(&repair["auc"]), 1.0);
    assert_eq!(number(&repair["intervals"][0]["low"]), 2.0);
    assert_eq!(number(&repair["intervals"][0]["high"]), 5.0);
    assert_eq!(repair["intervals"].as_array().unwrap().len(), 1);
    // b is convex: nothing to repair
    assert!(json["models"][1]["repair"]["intervals"]
        .as_array()
        .unwrap()
        .is_empty());
    let all = &json["models_hull"]["target"];
    close(&all["tpr"], 1.0);
    close(&all["share_first"], 2.0 / 3.0);
    assert_eq!(all["first"]["models"], serde_json::json!(["b"]));
    assert_eq!(number(&all["first"]["threshold"]), 0.7);
}

#[test]
fn text_output_and_bad_rates() {
    let text = roc_succeeds("text", &["--target-fpr", "0.5", "--repair"]);
    assert!(
        text.contains("Classifiers on the hull at false positive rate 0.5"),
        "{text}"
    );
    assert!(text.contains("Concavities repaired"), "{text}");
    let bad = roc("bad", &["--target-fpr", "1.5"]);
    assert!(!bad.status.success());
    let message = String::from_utf8_lossy(&bad.stderr);
    assert!(message.contains("--target-fpr 1.5"), "{message}");
}
