//! Property tests: AUC against the O(n^2) pair count, symmetry and invariance of AUC, Wu & Flach's
//! bounds on sAUC (Theorem 2), sAUC against the double loop, and the shape of the ROC hull.

use evaluate::{auc, roc_convex_hull, roc_curve, scored_auc, BinaryScores};
use proptest::prelude::*;

/// Labels with both classes and scores with many ties (integers -20..20 scaled by 0.05).
fn labelled_scores() -> impl Strategy<Value = (Vec<bool>, Vec<f64>)> {
    (2usize..60).prop_flat_map(|n| {
        (
            proptest::collection::vec(any::<bool>(), n),
            proptest::collection::vec(-20i32..=20, n),
        )
            .prop_map(|(mut labels, ints)| {
                labels[0] = true;
                labels[1] = false;
                (labels, ints.into_iter().map(|i| i as f64 * 0.05).collect())
            })
    })
}

/// Twice the Mann-Whitney U by the double loop (exact integer).
fn twice_u_by_pairs(labels: &[bool], scores: &[f64]) -> (u64, u64, u64) {
    let (mut twice_u, mut pos, mut neg) = (0u64, 0u64, 0u64);
    for i in 0..labels.len() {
        if labels[i] {
            pos += 1;
        } else {
            neg += 1;
        }
        for j in 0..labels.len() {
            if labels[i] && !labels[j] {
                if scores[i] > scores[j] {
                    twice_u += 2;
                } else if scores[i] == scores[j] {
                    twice_u += 1;
                }
            }
        }
    }
    (twice_u, pos, neg)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn auc_equals_pair_count((labels, scores) in labelled_scores()) {
        let (twice_u, pos, neg) = twice_u_by_pairs(&labels, &scores);
        let expected = twice_u as f64 / (2 * pos * neg) as f64;
        let data = BinaryScores::new(labels, scores).unwrap();
        prop_assert_eq!(auc(&data).unwrap(), expected);
        let area = roc_curve(&data).unwrap().area();
        prop_assert!((area - expected).abs() <= 1e-15);
    }

    #[test]
    fn negated_scores_give_one_minus_auc((labels, scores) in labelled_scores()) {
        let negated: Vec<f64> = scores.iter().map(|s| -s).collect();
        let a = auc(&BinaryScores::new(labels.clone(), scores).unwrap()).unwrap();
        let b = auc(&BinaryScores::new(labels, negated).unwrap()).unwrap();
        prop_assert!((a + b - 1.0).abs() <= 1e-15);
    }

    #[test]
    fn auc_invariant_under_increasing_transform((labels, scores) in labelled_scores()) {
        let transformed: Vec<f64> = scores.iter().map(|s| (3.0 * s).exp() * 7.0 - 2.0).collect();
        let a = auc(&BinaryScores::new(labels.clone(), scores).unwrap()).unwrap();
        let b = auc(&BinaryScores::new(labels, transformed).unwrap()).unwrap();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn integer_weights_equal_repeated_instances(
        (labels, scores) in labelled_scores(),
        repeat in proptest::collection::vec(1usize..4, 60),
    ) {
        let mut rep_labels = Vec::new();
        let mut rep_scores = Vec::new();
        let mut weights = Vec::new();
        for i in 0..labels.len() {
            weights.push(repeat[i] as f64);
            for _ in 0..repeat[i] {
                rep_labels.push(labels[i]);
                rep_scores.push(scores[i]);
            }
        }
        let weighted = BinaryScores::new(labels, scores).unwrap().with_weights(weights).unwrap();
        let repeated = BinaryScores::new(rep_labels, rep_scores).unwrap();
        prop_assert!((auc(&weighted).unwrap() - auc(&repeated).unwrap()).abs() <= 1e-14);
        let sw = scored_auc(&weighted).unwrap();
        let sr = scored_auc(&repeated).unwrap();
        prop_assert!((sw.sauc - sr.sauc).abs() <= 1e-14);
    }

    #[test]
    fn scored_auc_bounds_and_double_loop(
        positives in proptest::collection::vec(0.0f64..=1.0, 1..40),
        negatives in proptest::collection::vec(0.0f64..=1.0, 1..40),
    ) {
        let data = BinaryScores::from_groups(&positives, &negatives).unwrap();
        let got = scored_auc(&data).unwrap();
        let (p, n) = (positives.len() as f64, negatives.len() as f64);
        let (mut plus, mut minus) = (0.0, 0.0);
        for &x in &positives {
            for &y in &negatives {
                if x > y {
                    plus += x;
                    minus += y;
                }
            }
        }
        prop_assert!((got.r_s_plus - plus / (p * n)).abs() <= 1e-12);
        prop_assert!((got.r_s_minus - minus / (p * n)).abs() <= 1e-12);
        prop_assert!((got.sauc - (plus - minus) / (p * n)).abs() <= 1e-12);
        // Wu & Flach Theorem 2: M+ - M- <= sAUC <= AUC for scores in [0, 1]
        let mean_pos = positives.iter().sum::<f64>() / p;
        let mean_neg = negatives.iter().sum::<f64>() / n;
        prop_assert!(mean_pos - mean_neg <= got.sauc + 1e-12);
        prop_assert!(got.sauc <= auc(&data).unwrap() + 1e-12);
    }

    #[test]
    fn hull_is_concave_subset_above_all_points(
        points in proptest::collection::vec((0.0f64..=1.0, 0.0f64..=1.0), 0..30),
    ) {
        let hull = roc_convex_hull(&points).unwrap();
        let vertices = hull.vertices();
        prop_assert_eq!((vertices[0].fpr, vertices[0].tpr), (0.0, 0.0));
        let last = vertices.last().unwrap();
        prop_assert_eq!((last.fpr, last.tpr), (1.0, 1.0));
        for v in vertices {
            let trivial = (v.fpr, v.tpr) == (0.0, 0.0) || (v.fpr, v.tpr) == (1.0, 1.0);
            match v.input_index {
                Some(i) => prop_assert_eq!(points[i], (v.fpr, v.tpr)),
                None => prop_assert!(trivial),
            }
        }
        let slopes = hull.segment_slopes();
        for w in slopes.windows(2) {
            prop_assert!(w[0] > w[1], "slopes must decrease strictly: {:?}", slopes);
        }
        // every point lies on or under the hull
        for &(x, y) in &points {
            let k = vertices.partition_point(|v| v.fpr < x).min(vertices.len() - 1);
            let right = &vertices[k];
            let bound = if right.fpr == x {
                vertices.iter().filter(|v| v.fpr == x).map(|v| v.tpr).fold(0.0, f64::max)
            } else {
                let left = &vertices[k - 1];
                left.tpr + (right.tpr - left.tpr) * (x - left.fpr) / (right.fpr - left.fpr)
            };
            prop_assert!(y <= bound + 1e-12, "({x}, {y}) above hull");
        }
    }
}
