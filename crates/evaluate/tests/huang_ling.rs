//! Huang & Ling consistency/discriminancy of AUC vs accuracy: published counts, an independent
//! Python/sklearn brute force (tests/data/huang_ling_bruteforce.py), DP == enumeration, and
//! Python's exact counts up to 2n = 300 by another method (tests/data/huang_ling_large.py).

mod common;

use evaluate::{consistency_discriminancy, RankingHistogram};
use num_bigint::BigUint;

fn counts(r: u64, s: u64, p: u64, q: u64) -> evaluate::ConsistencyCounts {
    evaluate::ConsistencyCounts {
        r: BigUint::from(r),
        s: BigUint::from(s),
        p: BigUint::from(p),
        q: BigUint::from(q),
    }
}

#[test]
fn published_counts_two_and_three_per_class() {
    // Huang & Ling (2005): 2+2: R=9, S=0, P=5, Q=0; 3+3: R=113, S=1, P=62, Q=4
    for method in [
        RankingHistogram::by_enumeration,
        RankingHistogram::by_dynamic_program,
    ] {
        assert_eq!(method(2, 2).unwrap().auc_vs_accuracy(), counts(9, 0, 5, 0));
        let three = method(3, 3).unwrap().auc_vs_accuracy();
        assert_eq!(three, counts(113, 1, 62, 4));
        assert!((three.consistency() - 113.0 / 114.0).abs() < 1e-15);
        assert!((three.discriminancy() - 15.5).abs() < 1e-15);
    }
}

#[test]
fn matches_python_brute_force_over_pairs_of_rankings() {
    for case in common::cases("huang_ling_bruteforce") {
        let n_pos = case["n_pos"].as_u64().unwrap() as usize;
        let n_neg = case["n_neg"].as_u64().unwrap() as usize;
        let expected = counts(
            case["r"].as_u64().unwrap(),
            case["s"].as_u64().unwrap(),
            case["p"].as_u64().unwrap(),
            case["q"].as_u64().unwrap(),
        );
        let dp = RankingHistogram::by_dynamic_program(n_pos, n_neg).unwrap();
        assert_eq!(dp.auc_vs_accuracy(), expected, "{n_pos}+{n_neg}");
    }
}

#[test]
fn matches_python_exact_counts_up_to_three_hundred_positions() {
    let big = |value: &serde_json::Value| value.as_str().unwrap().parse::<BigUint>().unwrap();
    for case in common::cases("huang_ling_large") {
        let n_pos = case["n_pos"].as_u64().unwrap() as usize;
        let n_neg = case["n_neg"].as_u64().unwrap() as usize;
        let expected = evaluate::ConsistencyCounts {
            r: big(&case["r"]),
            s: big(&case["s"]),
            p: big(&case["p"]),
            q: big(&case["q"]),
        };
        let dp = RankingHistogram::by_dynamic_program(n_pos, n_neg).unwrap();
        assert_eq!(dp.auc_vs_accuracy(), expected, "{n_pos}+{n_neg}");
    }
}

#[test]
fn dynamic_program_equals_enumeration_up_to_sixteen_positions() {
    for n in 2..=16 {
        for n_pos in 1..n {
            let n_neg = n - n_pos;
            let enumerated = RankingHistogram::by_enumeration(n_pos, n_neg).unwrap();
            let dp = RankingHistogram::by_dynamic_program(n_pos, n_neg).unwrap();
            assert_eq!(enumerated, dp, "{n_pos}+{n_neg} histogram");
            assert_eq!(
                enumerated.auc_vs_accuracy(),
                dp.auc_vs_accuracy(),
                "{n_pos}+{n_neg} counts"
            );
        }
    }
}

#[test]
fn histogram_counting_equals_generic_pair_counting() {
    // the generic O(m^2) counter over the (AUC, accuracy) of every ranking, for n <= 10
    for n in 2..=10usize {
        for n_pos in 1..n {
            let n_neg = n - n_pos;
            let mut values = Vec::new();
            for mask in 0u32..(1 << n) {
                if mask.count_ones() as usize != n_pos {
                    continue;
                }
                let (mut above, mut u) = (0, 0);
                for position in 0..n {
                    if mask >> position & 1 == 1 {
                        above += 1;
                    } else {
                        u += above;
                    }
                }
                let k = (mask & ((1 << n_pos) - 1)).count_ones() as f64;
                let auc = u as f64 / (n_pos * n_neg) as f64;
                let accuracy = (2.0 * k + n_neg as f64 - n_pos as f64) / n as f64;
                values.push((auc, accuracy));
            }
            let generic = consistency_discriminancy(&values).unwrap();
            let dp = RankingHistogram::by_dynamic_program(n_pos, n_neg)
                .unwrap()
                .auc_vs_accuracy();
            assert_eq!(generic, dp, "{n_pos}+{n_neg}");
        }
    }
}

#[test]
fn rejects_empty_classes_and_oversized_enumeration() {
    assert!(RankingHistogram::by_dynamic_program(0, 3).is_err());
    assert!(RankingHistogram::by_enumeration(20, 20).is_err());
    // far beyond memory: refused before anything is allocated
    assert!(RankingHistogram::by_dynamic_program(1000, 1000).is_err());
    assert!(RankingHistogram::by_dynamic_program(usize::MAX / 8, usize::MAX / 8).is_err());
    assert!(consistency_discriminancy(&[(f64::NAN, 0.0)]).is_err());
}
