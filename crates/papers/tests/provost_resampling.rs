//! papers::provost_resampling against the independent Python rebuild of
//! scripts/fidelity/provost_folds.py (vectors written by
//! tests/data/provost_resampling_reference.py from a run of provost.toml): the shares of the
//! published ranges on the hull of the curves averaged over all folds, the verdict counts over
//! given fold resamples, and dominance read with the intervals.

use papers::provost_resampling::{
    fold_resamples, interval_reading, resample_verdicts, shares, PublishedRange,
};
use serde_json::Value;

fn reference() -> Value {
    let text = include_str!("data/provost_resampling_reference.json");
    serde_json::from_str(text).expect("the reference vectors are JSON")
}

fn number(value: &Value) -> f64 {
    match value {
        Value::String(text) if text == "inf" => f64::INFINITY,
        other => other.as_f64().expect("a number"),
    }
}

fn tprs(domain: &Value) -> Vec<Vec<Vec<f64>>> {
    serde_json::from_value(domain["tprs"].clone()).expect("tprs[learner][fold][sample]")
}

fn ranges(domain: &Value) -> Vec<PublishedRange> {
    domain["ranges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|range| PublishedRange {
            low: number(&range[0]),
            high: number(&range[1]),
            learner: range[2].as_u64().unwrap() as usize,
        })
        .collect()
}

fn positions(value: &Value) -> Vec<usize> {
    serde_json::from_value(value.clone()).expect("learner positions")
}

#[test]
fn shares_over_all_folds_match_the_python_rebuild() {
    for domain in reference()["domains"].as_array().unwrap() {
        let tprs = tprs(domain);
        let folds: Vec<usize> = (0..tprs[0].len()).collect();
        let got = shares(&tprs, &ranges(domain), &folds).unwrap();
        let want: Vec<f64> = serde_json::from_value(domain["shares"].clone()).unwrap();
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (g - w).abs() < 1e-9,
                "{}: share {g} against {w}",
                domain["dataset"]
            );
        }
    }
}

#[test]
fn verdict_counts_over_given_resamples_match_the_python_rebuild() {
    for domain in reference()["domains"].as_array().unwrap() {
        let resamples: Vec<Vec<usize>> =
            serde_json::from_value(domain["resamples"].clone()).unwrap();
        let got = resample_verdicts(&tprs(domain), &ranges(domain), &resamples).unwrap();
        let want: Vec<[usize; 3]> = serde_json::from_value(domain["counts"].clone()).unwrap();
        assert_eq!(got, want, "{}", domain["dataset"]);
    }
}

#[test]
fn dominance_with_intervals_matches_the_python_rebuild() {
    let reference = reference();
    let alpha = reference["alpha"].as_f64().unwrap();
    for domain in reference["domains"].as_array().unwrap() {
        let positives = domain["positives"].as_f64().unwrap();
        let got = interval_reading(&tprs(domain), positives, alpha).unwrap();
        assert_eq!(got.significant, positions(&domain["significant"]));
        assert_eq!(got.never_below, positions(&domain["never_below"]));
    }
}

/// The resamples are lists of fold indices with replacement: `folds` long, in fold order, the
/// same for the same seed, different for another.
#[test]
fn fold_resamples_draw_folds_with_replacement() {
    let drawn = fold_resamples(10, 50, 7);
    assert_eq!(drawn.len(), 50);
    assert!(drawn
        .iter()
        .all(|folds| folds.len() == 10 && folds.windows(2).all(|w| w[0] <= w[1])));
    assert!(drawn
        .iter()
        .any(|folds| folds.windows(2).any(|w| w[0] == w[1])));
    assert_eq!(drawn, fold_resamples(10, 50, 7));
    assert_ne!(drawn, fold_resamples(10, 50, 8));
}
