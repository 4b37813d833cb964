//! Bootstrap intervals of the measures: the replicates' mean and variance against the exact
//! moments of the stratified bootstrap (tests/data/bootstrap_closed_form.py), the fast paths
//! against the generic path and `stats::bootstrap_auc`, and fixed-seed properties.

mod common;
use common::*;
use evaluate::*;
use stats::BootstrapOptions;

fn data() -> (BinaryScores, serde_json::Value) {
    let path = format!(
        "{}/tests/data/bootstrap_closed_form.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let root: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let scores = BinaryScores::from_01(
        &ints(&root["input"]["labels"]),
        &floats(&root["input"]["scores"]),
    )
    .unwrap();
    (scores, root["expected"].clone())
}

#[test]
fn replicate_moments_match_the_exact_bootstrap_moments() {
    let (scores, expected) = data();
    let resamples = 20_000;
    let options = BootstrapOptions::new(resamples, 0.05, 2024).unwrap();
    for (key, measure) in [
        ("error_rate", FastMeasure::ErrorRate),
        ("brier", FastMeasure::Brier),
        ("auc", FastMeasure::Auc),
        ("scored_auc", FastMeasure::ScoredAuc),
    ] {
        let result = bootstrap_fast(&scores, measure, &options).unwrap();
        let (mean, variance) = (
            float(&expected[key]["mean"]),
            float(&expected[key]["variance"]),
        );
        assert_close(result.estimate, mean, key);
        let standard_error = (variance / resamples as f64).sqrt();
        assert!(
            (result.replicate_mean - mean).abs() <= 5.0 * standard_error,
            "{key} mean"
        );
        let got = result.standard_error * result.standard_error;
        // the variance of 20 000 replicates has a relative sd of about 1 %
        assert!(
            (got - variance).abs() <= 0.05 * variance,
            "{key}: {got} vs {variance}"
        );
    }
}

fn same_interval(a: &stats::BootstrapInterval, b: &stats::BootstrapInterval, what: &str) {
    let near = |x: f64, y: f64| assert!((x - y).abs() <= 1e-12, "{what}: {x} vs {y}");
    near(a.estimate, b.estimate);
    near(a.percentile.low, b.percentile.low);
    near(a.percentile.high, b.percentile.high);
    let (p, q) = (a.bca.unwrap(), b.bca.unwrap());
    near(p.acceleration, q.acceleration);
    near(p.interval.low, q.interval.low);
    near(p.interval.high, q.interval.high);
}

#[test]
fn fast_paths_equal_the_generic_path_and_stats() {
    let (scores, _) = data();
    let options = BootstrapOptions::new(300, 0.1, 9).unwrap();
    let exact = usize::MAX;
    let sauc = |d: &BinaryScores| Ok(scored_auc(d)?.sauc);
    same_interval(
        &bootstrap_fast(&scores, FastMeasure::ScoredAuc, &options).unwrap(),
        &bootstrap_measure(&scores, &options, exact, sauc).unwrap(),
        "scored AUC",
    );
    let error = |d: &BinaryScores| cost_at_threshold(d, 0.5, 1.0, 1.0);
    same_interval(
        &bootstrap_fast(&scores, FastMeasure::ErrorRate, &options).unwrap(),
        &bootstrap_measure(&scores, &options, exact, error).unwrap(),
        "error rate",
    );
    same_interval(
        &bootstrap_fast(&scores, FastMeasure::Brier, &options).unwrap(),
        &bootstrap_measure(&scores, &options, exact, brier_score).unwrap(),
        "Brier",
    );
    same_interval(
        &bootstrap_fast(&scores, FastMeasure::Auc, &options).unwrap(),
        &bootstrap_measure(&scores, &options, exact, auc).unwrap(),
        "AUC",
    );
    let fast = bootstrap_fast(&scores, FastMeasure::Auc, &options).unwrap();
    let direct = stats::bootstrap_auc(scores.labels(), scores.scores(), &options).unwrap();
    assert_eq!(fast, direct);
}

#[test]
fn paired_intervals_and_any_measure() {
    let (scores, _) = data();
    let other = BinaryScores::new(
        scores.labels().to_vec(),
        scores
            .scores()
            .iter()
            .enumerate()
            .map(|(i, s)| (s + (i % 7) as f64 / 20.0).min(1.0))
            .collect(),
    )
    .unwrap();
    let options = BootstrapOptions::new(200, 0.05, 77).unwrap();
    let paired = paired_bootstrap_fast(&scores, &other, FastMeasure::Brier, &options).unwrap();
    assert_eq!(
        paired.first,
        bootstrap_fast(&scores, FastMeasure::Brier, &options).unwrap()
    );
    let same = paired_bootstrap_fast(&scores, &scores, FastMeasure::Auc, &options).unwrap();
    assert_eq!(
        (
            same.difference.percentile.low,
            same.difference.percentile.high
        ),
        (0.0, 0.0)
    );
    let ap = |d: &BinaryScores| average_precision(d);
    let generic = paired_bootstrap_measure(&scores, &other, &options, 50, ap).unwrap();
    assert_eq!(
        generic,
        paired_bootstrap_measure(&scores, &other, &options, 50, ap).unwrap()
    );
    let single = bootstrap_measure(&scores, &options, 50, ap).unwrap();
    assert_eq!(generic.first, single);
    let d = &generic.difference;
    assert!((d.estimate - (generic.first.estimate - generic.second.estimate)).abs() < 1e-15);
    let h = |d: &BinaryScores| Ok(h_measure(d, None)?.h);
    let result = bootstrap_measure(&scores, &options, 20, h).unwrap();
    assert!(result.percentile.low <= result.estimate && result.estimate <= result.percentile.high);
}

#[test]
fn bad_input_gives_typed_errors() {
    let (scores, _) = data();
    let options = BootstrapOptions::new(50, 0.05, 1).unwrap();
    let weighted = scores
        .clone()
        .with_weights(vec![2.0; scores.len()])
        .unwrap();
    assert!(matches!(
        bootstrap_fast(&weighted, FastMeasure::Auc, &options),
        Err(EvaluateError::WeightsUnsupported { .. })
    ));
    assert!(bootstrap_measure(&weighted, &options, 10, auc).is_ok());
    assert!(bootstrap_measure(&scores, &options, 0, auc).is_err());
    let shorter = BinaryScores::new(vec![true, false], vec![0.1, 0.2]).unwrap();
    assert!(paired_bootstrap_fast(&scores, &shorter, FastMeasure::Auc, &options).is_err());
    let positives = BinaryScores::new(vec![true, true], vec![0.1, 0.2]).unwrap();
    assert!(matches!(
        bootstrap_fast(&positives, FastMeasure::Auc, &options),
        Err(EvaluateError::SingleClass { .. })
    ));
    assert!(bootstrap_fast(&positives, FastMeasure::Brier, &options).is_ok());
    let empty = BinaryScores::new(vec![], vec![]).unwrap();
    assert!(bootstrap_fast(&empty, FastMeasure::ErrorRate, &options).is_err());
    let one_positive = BinaryScores::new(vec![true, false, false], vec![0.9, 0.2, 0.4]).unwrap();
    let result = bootstrap_measure(&one_positive, &options, 10, auc).unwrap();
    assert_eq!(result.estimate, 1.0);
    let not_probability = BinaryScores::new(vec![true, false], vec![2.0, 0.2]).unwrap();
    assert!(bootstrap_fast(&not_probability, FastMeasure::Brier, &options).is_err());
}
