//! Multi-class AUC: Hand & Till's M and Provost & Domingos' prior-weighted one-vs-rest AUC.

use crate::error::{EvaluateError, Result};
use crate::predictions::Predictions;
use crate::roc_curves::roc::auc;

fn check_all_present(measure: &'static str, predictions: &Predictions) -> Result<Vec<f64>> {
    let weights = predictions.class_weights();
    if predictions.n_classes() < 2 {
        return Err(EvaluateError::BadParameter {
            name: "n_classes",
            value: predictions.n_classes() as f64,
            allowed: ">= 2 for a multi-class AUC",
        });
    }
    if let Some(class) = weights.iter().position(|&w| w <= 0.0) {
        return Err(EvaluateError::ClassAbsent { measure, class });
    }
    Ok(weights)
}

/// Hand & Till's A_hat(i, j) = (A(i|j) + A(j|i)) / 2, where A(i|j) is the AUC of score column i
/// on the instances of classes i (positive) and j (negative).
pub fn pairwise_a_hat(predictions: &Predictions, i: usize, j: usize) -> Result<f64> {
    let a_ij = auc(&predictions.pairwise(i, j)?)?;
    let a_ji = auc(&predictions.pairwise(j, i)?)?;
    Ok((a_ij + a_ji) / 2.0)
}

/// Hand & Till (2001) M: the unweighted mean of A_hat(i, j) over all class pairs i < j.
/// Errors if a class has no instance in the test set.
pub fn hand_till_m(predictions: &Predictions) -> Result<f64> {
    check_all_present("Hand & Till M", predictions)?;
    let c = predictions.n_classes();
    let mut sum = 0.0;
    for i in 0..c {
        for j in i + 1..c {
            sum += pairwise_a_hat(predictions, i, j)?;
        }
    }
    Ok(sum * 2.0 / (c * (c - 1)) as f64)
}

/// One-vs-rest AUC of each class, using that class's score column.
pub fn one_vs_rest_aucs(predictions: &Predictions) -> Result<Vec<f64>> {
    check_all_present("one-vs-rest AUC", predictions)?;
    (0..predictions.n_classes())
        .map(|c| auc(&predictions.one_vs_rest(c)?))
        .collect()
}

/// Provost & Domingos (2001) AUC: sum over classes of p(c) AUC(c vs rest), with p(c) the
/// class's share of the test-set weight. Errors if a class has no instance in the test set.
pub fn provost_domingos_auc(predictions: &Predictions) -> Result<f64> {
    let weights = check_all_present("Provost & Domingos AUC", predictions)?;
    let total: f64 = weights.iter().sum();
    let aucs = one_vs_rest_aucs(predictions)?;
    Ok(aucs.iter().zip(&weights).map(|(a, w)| a * w).sum::<f64>() / total)
}
