//! `compare bootstrap --scores FILE` on the three-model file of tests/data/roc_eval: each
//! interval's estimate is the peer's value from expected.json (scikit-learn's AUC, error, Brier,
//! average precision and standardised partial AUC; netcal's ECE; hmeasure; pyprg), each paired
//! difference's estimate the difference of the peers' values; the intervals are those of
//! `roc --json` with the same flags (one computation), seeded (same seed, same output; another
//! seed, other intervals); the flags' ranges and the column choice are checked.

mod json_envelope;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/roc_eval")
        .join(name)
}

fn experiments(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_experiments"))
        .args(args)
        .output()
        .unwrap()
}

fn bootstrap(args: &[&str]) -> Output {
    let file = data("models.csv");
    let mut all = vec!["compare", "bootstrap", "--scores", file.to_str().unwrap()];
    all.extend(args);
    experiments(&all)
}

fn json(output: Output) -> Value {
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

fn near(what: &str, got: f64, expected: f64) {
    assert!(
        (got - expected).abs() <= 1e-9 * expected.abs().max(1.0),
        "{what}: {got} != {expected}"
    );
}

/// Our measure names and expected.json's keys.
const MEASURES: [(&str, &str); 8] = [
    ("auc", "auc"),
    ("error", "error"),
    ("brier", "brier"),
    ("average_precision", "average_precision"),
    ("partial_auc", "partial_auc_standardized"),
    ("h_measure", "h_measure"),
    ("ece", "ece"),
    ("prg_area", "prg_area"),
];

fn reference() -> Value {
    serde_json::from_str(&std::fs::read_to_string(data("expected.json")).unwrap()).unwrap()
}

#[test]
fn estimates_are_the_peers_values_and_differences_their_differences() {
    let expected = reference();
    let peers = expected["models"].as_array().unwrap();
    let got = json(bootstrap(&[
        "--json",
        "--max-fpr",
        "0.2",
        "--resamples",
        "300",
    ]));
    let models = got["models"].as_array().unwrap();
    assert_eq!(models.len(), 3);
    for (model, peer) in models.iter().zip(peers) {
        assert_eq!(model["name"], peer["name"]);
        let intervals = model["intervals"].as_array().unwrap();
        assert_eq!(intervals.len(), 10);
        for (measure, key) in MEASURES {
            let interval = intervals.iter().find(|i| i["measure"] == measure).unwrap();
            let what = format!("{} {measure}", peer["name"]);
            near(&what, number(&interval["estimate"]), number(&peer[key]));
            let (low, high) = (
                number(&interval["percentile"]["low"]),
                number(&interval["percentile"]["high"]),
            );
            assert!(low <= high, "{what}: [{low}, {high}]");
            assert!(interval["bca"]["interval"]["low"].is_number(), "{what}");
        }
    }
    let differences = got["differences"].as_array().unwrap();
    assert_eq!(differences.len(), 3 * 10);
    for difference in differences {
        let peer = |name: &Value| peers.iter().find(|p| p["name"] == *name).unwrap();
        let (first, second) = (peer(&difference["first"]), peer(&difference["second"]));
        let Some((_, key)) = MEASURES.iter().find(|(m, _)| difference["measure"] == *m) else {
            continue;
        };
        near(
            &format!("{} - {}", first["name"], second["name"]),
            number(&difference["difference"]["estimate"]),
            number(&first[key]) - number(&second[key]),
        );
    }
    assert_eq!(got["positive"], "1");
    assert_eq!(got["options"]["bootstrap"]["resamples"], 300);
}

#[test]
fn the_intervals_are_those_of_roc_with_the_same_flags() {
    let flags = [
        "--json",
        "--max-fpr",
        "0.2",
        "--resamples",
        "200",
        "--seed",
        "5",
    ];
    let ours = json(bootstrap(&flags));
    let file = data("models.csv");
    let mut args = vec!["roc", file.to_str().unwrap()];
    args.extend(flags);
    let roc = json(experiments(&args));
    let evaluation = &roc["evaluation"];
    for (model, roc_model) in ours["models"]
        .as_array()
        .unwrap()
        .iter()
        .zip(evaluation["models"].as_array().unwrap())
    {
        assert_eq!(model["intervals"], roc_model["intervals"]);
    }
    assert_eq!(ours["differences"], evaluation["differences"]);
}

#[test]
fn the_bootstrap_is_seeded_and_the_models_can_be_chosen() {
    let args = ["--json", "--resamples", "100", "--models", "good,weak"];
    let first = json(bootstrap(&args));
    assert_eq!(first, json(bootstrap(&args)));
    let mut other = args.to_vec();
    other.extend(["--seed", "7"]);
    let second = json(bootstrap(&other));
    let auc = |v: &Value| v["models"][0]["intervals"][0]["percentile"].clone();
    assert_ne!(auc(&first), auc(&second));
    let names: Vec<&Value> = first["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["name"])
        .collect();
    assert_eq!(names, ["good", "weak"]);
    assert_eq!(first["differences"].as_array().unwrap().len(), 10);
}

#[test]
fn the_tables_show_the_intervals() {
    let output = bootstrap(&["--resamples", "50"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for title in [
        "Bootstrap intervals",
        "Paired bootstrap intervals of differences",
    ] {
        assert!(text.contains(title), "no table '{title}' in:\n{text}");
    }
}

#[test]
fn bad_flags_are_refused_naming_the_flag() {
    for (args, flag) in [
        (vec!["--resamples", "1"], "--resamples"),
        (vec!["--max-fpr", "0"], "--max-fpr"),
        (vec!["--confidence", "1"], "--confidence"),
        (vec!["--bins", "99999999999999999999999"], "--bins"),
        (vec!["--models", "good,nope"], "--models"),
        (vec!["--h-alpha", "2"], "--h-alpha"),
        (vec!["--positive", "7"], "--positive"),
    ] {
        let output = bootstrap(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} accepted");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let output = experiments(&["compare", "bootstrap", "--scores", "/no/such/file.csv"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("/no/such/file.csv"));
}
