//! The papers' worked examples that issue 31 found unreproduced, as test vectors: every expected
//! value is printed in the paper named (docs/reproductions/FINDINGS.md recounts them with
//! scripts/fidelity/worked_examples.py).

use evaluate::{auc, scored_auc, BinaryScores};

/// Wu & Flach (2005), Example 1, model M2 (the extraction lost its digits 1; restored, the
/// scores are +0.95 -0.89 +0.20 +0.16 -0.15 -0.13 -0.10): R_s+ = 0.4067, R_s- = 0.1692,
/// sAUC = 0.2375, and AUC 0.8333 like M1.
#[test]
fn wu_flach_example_1_model_m2() {
    let data = BinaryScores::from_groups(&[0.95, 0.20, 0.16], &[0.89, 0.15, 0.13, 0.10]).unwrap();
    let got = scored_auc(&data).unwrap();
    assert!((got.r_s_plus - 0.4067).abs() < 0.5e-4, "{}", got.r_s_plus);
    assert!((got.r_s_minus - 0.1692).abs() < 0.5e-4, "{}", got.r_s_minus);
    assert!((got.sauc - 0.2375).abs() < 0.5e-4, "{}", got.sauc);
    assert!((auc(&data).unwrap() - 0.8333).abs() < 0.5e-4);
}

/// Accuracy of a ranking when the lower half is called negative and the upper half positive.
fn accuracy_lower_half_negative(ascending: &str) -> f64 {
    let labels: Vec<char> = ascending.chars().filter(|c| !c.is_whitespace()).collect();
    let half = labels.len() / 2;
    let correct = labels
        .iter()
        .enumerate()
        .filter(|&(i, &label)| (i >= half) == (label == '+'))
        .count();
    correct as f64 / labels.len() as f64
}

/// AUC of a ranking given in ascending order of score, as '+' and '-'.
fn auc_of_ranking(ascending: &str) -> f64 {
    let labels: Vec<char> = ascending.chars().filter(|c| !c.is_whitespace()).collect();
    let score = |wanted: char| -> Vec<f64> {
        labels
            .iter()
            .enumerate()
            .filter(|&(_, &label)| label == wanted)
            .map(|(i, _)| i as f64)
            .collect()
    };
    auc(&BinaryScores::from_groups(&score('+'), &score('-')).unwrap()).unwrap()
}

/// The Thai paper's Tables 1-2: two rankings of 5 positives and 5 negatives, both 80% accurate
/// with the lower five called negative, with AUC 24/25 and 16/25.
#[test]
fn thai_paper_tables_1_and_2() {
    let first = "- - - - + - + + + +";
    let second = "+ - - - - + + + + -";
    assert!((auc_of_ranking(first) - 24.0 / 25.0).abs() < 1e-12);
    assert!((auc_of_ranking(second) - 16.0 / 25.0).abs() < 1e-12);
    assert!((accuracy_lower_half_negative(first) - 0.8).abs() < 1e-12);
    assert!((accuracy_lower_half_negative(second) - 0.8).abs() < 1e-12);
}
