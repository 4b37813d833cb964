//! The bootstrap engine against scipy.stats.bootstrap (same replicates, its percentile and BCa
//! limits), against exact bootstrap distributions enumerated in Python, against the closed-form
//! bootstrap variance of the AUC, and on its fixed-seed properties (tests/data/issue29_reference.py).

mod common;
use common::*;
use stats::*;

fn labelled(case: &serde_json::Value) -> (Vec<bool>, Vec<f64>) {
    let pos = floats(&case["input"]["positives"]);
    let neg = floats(&case["input"]["negatives"]);
    let mut labels = vec![true; pos.len()];
    labels.extend(vec![false; neg.len()]);
    (labels, pos.into_iter().chain(neg).collect())
}

fn group(name: &str) -> Vec<serde_json::Value> {
    load("bootstrap_reference")["cases"][name]
        .as_array()
        .unwrap()
        .clone()
}

fn close(context: &str, got: f64, expected: f64, relative: f64) {
    assert!(
        (got - expected).abs() <= relative * expected.abs().max(1e-300) + 1e-15,
        "{context}: got {got:e}, expected {expected:e}"
    );
}

#[test]
fn percentile_and_bca_limits_equal_scipy_on_the_same_replicates() {
    for case in group("scipy_bca") {
        let name = case["name"].as_str().unwrap();
        let (labels, scores) = labelled(&case);
        let replicates = floats(&case["input"]["replicates"]);
        let alpha = float(&case["input"]["alpha"]);
        let options = BootstrapOptions::new(replicates.len(), alpha, 0).unwrap();
        let (estimate, jackknife) = auc_jackknife(&labels, &scores).unwrap();
        assert_statistic(name, estimate, float(&case["expected"]["estimate"]));
        let summary = summarize(estimate, replicates, &jackknife, &options).unwrap();
        let interval = match case["input"]["method"].as_str().unwrap() {
            "BCa" => summary.bca.expect("BCa defined").interval,
            _ => summary.percentile,
        };
        close(
            &format!("{name} low"),
            interval.low,
            float(&case["expected"]["low"]),
            1e-12,
        );
        close(
            &format!("{name} high"),
            interval.high,
            float(&case["expected"]["high"]),
            1e-12,
        );
    }
}

/// Replicates of the AUC by the ranked, O(n)-per-resample path.
fn auc_replicates(labels: &[bool], scores: &[f64], resamples: usize, seed: u64) -> Vec<f64> {
    let ranked = RankedScores::new(labels, scores).unwrap();
    let options = BootstrapOptions::new(resamples, 0.05, seed).unwrap();
    let strata = Strata::from_labels(labels);
    replicates(&strata, &options, 1, |counts, out| {
        out[0] = ranked.auc_with_counts(counts);
        Ok::<(), StatsError>(())
    })
    .unwrap()
    .remove(0)
}

fn mean_variance(values: &[f64]) -> (f64, f64) {
    let b = values.len() as f64;
    let mean = values.iter().sum::<f64>() / b;
    let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (b - 1.0);
    (mean, variance)
}

#[test]
fn replicates_follow_the_exact_bootstrap_distribution() {
    let resamples = 20_000;
    for case in group("exact_distribution") {
        let name = case["name"].as_str().unwrap();
        let (labels, scores) = labelled(&case);
        let mut values = auc_replicates(&labels, &scores, resamples, 11);
        values.sort_by(f64::total_cmp);
        let support = floats(&case["expected"]["values"]);
        let probabilities = floats(&case["expected"]["probabilities"]);
        let mut cdf = 0.0;
        for (v, p) in support.iter().zip(&probabilities) {
            cdf += p;
            let empirical = values.partition_point(|x| x <= v) as f64 / resamples as f64;
            // Dvoretzky-Kiefer-Wolfowitz: P(sup |F_B - F| > 0.015) <= 2 exp(-2 B 0.015^2) < 3e-4
            assert!(
                (empirical - cdf).abs() <= 0.015,
                "{name} at {v}: {empirical} vs {cdf}"
            );
        }
        let (mean, variance) = mean_variance(&values);
        let exact_variance = float(&case["expected"]["variance"]);
        let standard_error = (exact_variance / resamples as f64).sqrt();
        assert!((mean - float(&case["expected"]["mean"])).abs() <= 5.0 * standard_error);
        close(&format!("{name} variance"), variance, exact_variance, 0.06);
    }
}

#[test]
fn replicate_variance_matches_the_closed_form_and_the_mean_is_the_auc() {
    let resamples = 20_000;
    for case in group("closed_form_variance") {
        let name = case["name"].as_str().unwrap();
        let (labels, scores) = labelled(&case);
        let values = auc_replicates(&labels, &scores, resamples, 5);
        let (mean, variance) = mean_variance(&values);
        let exact_variance = float(&case["expected"]["variance"]);
        let standard_error = (exact_variance / resamples as f64).sqrt();
        assert!(
            (mean - float(&case["expected"]["mean"])).abs() <= 5.0 * standard_error,
            "{name}: mean {mean}"
        );
        // the sample variance of B = 20 000 replicates has a relative sd of about 1 %
        close(&format!("{name} variance"), variance, exact_variance, 0.05);
    }
}

fn sample_data() -> (Vec<bool>, Vec<f64>, Vec<f64>) {
    let case = &group("closed_form_variance")[0];
    let (labels, scores) = labelled(case);
    let other: Vec<f64> = scores
        .iter()
        .enumerate()
        .map(|(i, s)| s + ((i * 7919) % 13) as f64 / 10.0)
        .collect();
    (labels, scores, other)
}

#[test]
fn ranked_auc_equals_the_sorting_auc_of_the_materialised_resample() {
    let (labels, scores, _) = sample_data();
    let ranked = RankedScores::new(&labels, &scores).unwrap();
    let strata = Strata::from_labels(&labels);
    let mut counts = vec![0u32; labels.len()];
    for index in 0..20 {
        resample_counts(&strata, 3, index, &mut counts);
        let (mut sample_labels, mut sample_scores) = (Vec::new(), Vec::new());
        for (row, &count) in counts.iter().enumerate() {
            for _ in 0..count {
                sample_labels.push(labels[row]);
                sample_scores.push(scores[row]);
            }
        }
        let expected = auc(&sample_labels, &sample_scores).unwrap();
        assert_statistic("resample AUC", ranked.auc_with_counts(&counts), expected);
        for stratum in strata.members() {
            let total: u32 = stratum.iter().map(|&r| counts[r]).sum();
            assert_eq!(
                total as usize,
                stratum.len(),
                "a resample keeps each class's size"
            );
        }
    }
}

#[test]
fn fixed_seed_properties() {
    let (labels, scores, other) = sample_data();
    let options = BootstrapOptions::new(500, 0.05, 42).unwrap();
    let first = bootstrap_auc(&labels, &scores, &options).unwrap();
    assert_eq!(first, bootstrap_auc(&labels, &scores, &options).unwrap());
    let reseeded = BootstrapOptions::new(500, 0.05, 43).unwrap();
    assert_ne!(
        first.percentile,
        bootstrap_auc(&labels, &scores, &reseeded)
            .unwrap()
            .percentile
    );
    let paired = paired_bootstrap_auc(&labels, &scores, &other, &options).unwrap();
    assert_eq!(
        paired.first, first,
        "the paired bootstrap uses the same resamples"
    );
    let same = paired_bootstrap_auc(&labels, &scores, &scores, &options).unwrap();
    assert_eq!(
        same.difference.percentile,
        Interval {
            low: 0.0,
            high: 0.0
        }
    );
    assert!(first.percentile.low <= first.estimate && first.estimate <= first.percentile.high);
    let bca = first.bca.unwrap().interval;
    assert!(bca.low < bca.high);
}

#[test]
fn grouped_jackknife_with_enough_groups_is_the_delete_one_jackknife() {
    let (labels, scores, _) = sample_data();
    let (_, exact) = auc_jackknife(&labels, &scores).unwrap();
    let strata = Strata::from_labels(&labels);
    let grouped = grouped_jackknife(&strata, usize::MAX, |counts| {
        let (mut l, mut s) = (Vec::new(), Vec::new());
        for (row, &c) in counts.iter().enumerate() {
            if c > 0 {
                l.push(labels[row]);
                s.push(scores[row]);
            }
        }
        auc(&l, &s)
    })
    .unwrap();
    for (a, b) in grouped.iter().zip(&exact) {
        for (x, y) in a.iter().zip(b) {
            assert_statistic("jackknife", *x, *y);
        }
    }
}

#[test]
fn bad_input_gives_typed_errors() {
    assert!(BootstrapOptions::new(1, 0.05, 0).is_err());
    assert!(BootstrapOptions::new(100, 1.0, 0).is_err());
    assert!(BootstrapOptions::new(100, f64::NAN, 0).is_err());
    let options = BootstrapOptions::new(100, 0.05, 0).unwrap();
    assert!(matches!(
        bootstrap_auc(&[true, false], &[f64::NAN, 0.0], &options),
        Err(StatsError::NonFinite { .. })
    ));
    assert!(matches!(
        bootstrap_auc(&[true, true], &[0.1, 0.2], &options),
        Err(StatsError::TooFew { .. })
    ));
    assert!(bootstrap_auc(&[], &[], &options).is_err());
    // one instance per class and all-tied scores: defined, degenerate intervals
    let one = bootstrap_auc(&[true, false], &[0.3, 0.3], &options).unwrap();
    assert_eq!(
        one.percentile,
        Interval {
            low: 0.5,
            high: 0.5
        }
    );
    assert!(one.bca.is_none());
}
