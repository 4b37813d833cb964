//! Bootstrap intervals (percentile and BCa, stratified by class, seeded) for any two-class
//! measure, and for two models on the same rows (paired), on the engine of `stats::bootstrap`.
//!
//! Any measure: a resample is materialised as the rows repeated by their multiplicities, in
//! increasing score order (so the measure's own sort meets sorted input), and the measure is
//! called on it; BCa's acceleration comes from a delete-group jackknife
//! (`stats::grouped_jackknife`, exact delete-one when `jackknife_groups` >= the class sizes).
//! Fast paths ([`FastMeasure`]) rank the scores once and compute each resample in O(n) with
//! the exact delete-one jackknife: AUC (as `stats::bootstrap_auc`), scored AUC, error rate at
//! the decision threshold, and Brier score.

use stats::{BootstrapInterval, BootstrapOptions, PairedBootstrap, Strata};

use crate::bootstrap::fast_measures::{prepare, stats_error, FastMeasure};
use crate::error::{EvaluateError, Result};
use crate::predictions::BinaryScores;

/// Row indices in increasing score order.
fn ascending_rows(data: &BinaryScores) -> Vec<usize> {
    let mut order: Vec<usize> = (0..data.len()).collect();
    order.sort_by(|&a, &b| data.scores()[a].total_cmp(&data.scores()[b]));
    order
}

/// The resample with per-row multiplicities `counts`, rows in the order `order`.
fn materialise(data: &BinaryScores, order: &[usize], counts: &[u32]) -> Result<BinaryScores> {
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    let (mut labels, mut scores) = (Vec::with_capacity(total), Vec::with_capacity(total));
    let mut weights = data.weights().map(|_| Vec::with_capacity(total));
    for &row in order {
        for _ in 0..counts[row] {
            labels.push(data.labels()[row]);
            scores.push(data.scores()[row]);
            if let Some(w) = weights.as_mut() {
                w.push(data.weight(row));
            }
        }
    }
    let sample =
        BinaryScores::new(labels, scores)?.with_decision_threshold(data.decision_threshold())?;
    match weights {
        Some(w) => sample.with_weights(w),
        None => Ok(sample),
    }
}

fn check_groups(jackknife_groups: usize) -> Result<()> {
    if jackknife_groups == 0 {
        return Err(EvaluateError::BadParameter {
            name: "jackknife_groups",
            value: 0.0,
            allowed: ">= 1",
        });
    }
    Ok(())
}

/// Bootstrap of any measure of binary scores: `measure` is called on the data (the estimate),
/// on each of `options.resamples` class-stratified resamples and on the jackknife samples.
/// Cost: (resamples + 2 jackknife_groups) calls of the measure on n rows. An error of the
/// measure on any sample is returned.
pub fn bootstrap_measure(
    data: &BinaryScores,
    options: &BootstrapOptions,
    jackknife_groups: usize,
    measure: impl Fn(&BinaryScores) -> Result<f64>,
) -> Result<BootstrapInterval> {
    check_groups(jackknife_groups)?;
    let estimate = measure(data)?;
    let order = ascending_rows(data);
    let strata = Strata::from_labels(data.labels());
    let mut columns = stats::replicates(&strata, options, 1, |counts, out| {
        out[0] = measure(&materialise(data, &order, counts)?)?;
        Ok::<(), EvaluateError>(())
    })?;
    let jackknife = stats::grouped_jackknife(&strata, jackknife_groups, |counts| {
        measure(&materialise(data, &order, counts)?)
    })?;
    stats::summarize(estimate, columns.remove(0), &jackknife, options).map_err(stats_error)
}

/// Checks that two models' scores are on the same rows (same labels, in order).
fn check_paired(first: &BinaryScores, second: &BinaryScores) -> Result<()> {
    if first.len() != second.len() {
        return Err(EvaluateError::LengthMismatch {
            what: "second model's scores",
            got: second.len(),
            expected: first.len(),
        });
    }
    if first.labels() != second.labels() || first.weights() != second.weights() {
        return Err(EvaluateError::BadParameter {
            name: "second model's labels and weights",
            value: f64::NAN,
            allowed: "the same rows as the first model's (same labels and weights in order)",
        });
    }
    Ok(())
}

fn paired_summary(
    estimates: [f64; 2],
    mut columns: Vec<Vec<f64>>,
    jackknife: [&[Vec<f64>]; 2],
    options: &BootstrapOptions,
) -> Result<PairedBootstrap> {
    let difference_jackknife: Vec<Vec<f64>> = jackknife[0]
        .iter()
        .zip(jackknife[1])
        .map(|(a, b)| a.iter().zip(b).map(|(x, y)| x - y).collect())
        .collect();
    let difference = columns.pop().unwrap_or_default();
    let second = columns.pop().unwrap_or_default();
    let first = columns.pop().unwrap_or_default();
    let summary = |estimate, values, jack: &[Vec<f64>]| {
        stats::summarize(estimate, values, jack, options).map_err(stats_error)
    };
    Ok(PairedBootstrap {
        first: summary(estimates[0], first, jackknife[0])?,
        second: summary(estimates[1], second, jackknife[1])?,
        difference: summary(
            estimates[0] - estimates[1],
            difference,
            &difference_jackknife,
        )?,
    })
}

/// Paired bootstrap of a measure for two models scored on the same rows: every resample's
/// multiplicities are applied to both, giving intervals for each model and for first - second.
pub fn paired_bootstrap_measure(
    first: &BinaryScores,
    second: &BinaryScores,
    options: &BootstrapOptions,
    jackknife_groups: usize,
    measure: impl Fn(&BinaryScores) -> Result<f64>,
) -> Result<PairedBootstrap> {
    check_paired(first, second)?;
    check_groups(jackknife_groups)?;
    let estimates = [measure(first)?, measure(second)?];
    let orders = [ascending_rows(first), ascending_rows(second)];
    let strata = Strata::from_labels(first.labels());
    let columns = stats::replicates(&strata, options, 3, |counts, out| {
        out[0] = measure(&materialise(first, &orders[0], counts)?)?;
        out[1] = measure(&materialise(second, &orders[1], counts)?)?;
        out[2] = out[0] - out[1];
        Ok::<(), EvaluateError>(())
    })?;
    let jackknife_1 = stats::grouped_jackknife(&strata, jackknife_groups, |counts| {
        measure(&materialise(first, &orders[0], counts)?)
    })?;
    let jackknife_2 = stats::grouped_jackknife(&strata, jackknife_groups, |counts| {
        measure(&materialise(second, &orders[1], counts)?)
    })?;
    paired_summary(estimates, columns, [&jackknife_1, &jackknife_2], options)
}

fn check_fast(data: &BinaryScores) -> Result<()> {
    if data.is_empty() {
        return Err(EvaluateError::Empty { what: "scores" });
    }
    if data.weights().is_some_and(|w| w.iter().any(|&x| x != 1.0)) {
        return Err(EvaluateError::WeightsUnsupported {
            measure: "the fast bootstrap (use bootstrap_measure for weighted data)",
        });
    }
    Ok(())
}

/// Bootstrap of AUC, scored AUC, error rate or Brier score in O(n) per resample (unit weights;
/// `WeightsUnsupported` otherwise: [`bootstrap_measure`] handles weights). The AUC's replicates
/// are those of `stats::bootstrap_auc` for the same options.
pub fn bootstrap_fast(
    data: &BinaryScores,
    measure: FastMeasure,
    options: &BootstrapOptions,
) -> Result<BootstrapInterval> {
    check_fast(data)?;
    let prepared = prepare(data, measure)?;
    let strata = Strata::from_labels(data.labels());
    let mut columns = stats::replicates(&strata, options, 1, |counts, out| {
        out[0] = prepared.value(counts);
        Ok::<(), EvaluateError>(())
    })?;
    stats::summarize(
        prepared.estimate(),
        columns.remove(0),
        &prepared.jackknife(),
        options,
    )
    .map_err(stats_error)
}

/// Paired bootstrap of a fast measure for two models on the same rows (see
/// [`paired_bootstrap_measure`]), O(n) per resample.
pub fn paired_bootstrap_fast(
    first: &BinaryScores,
    second: &BinaryScores,
    measure: FastMeasure,
    options: &BootstrapOptions,
) -> Result<PairedBootstrap> {
    check_paired(first, second)?;
    check_fast(first)?;
    let (a, b) = (prepare(first, measure)?, prepare(second, measure)?);
    let strata = Strata::from_labels(first.labels());
    let columns = stats::replicates(&strata, options, 3, |counts, out| {
        out[0] = a.value(counts);
        out[1] = b.value(counts);
        out[2] = out[0] - out[1];
        Ok::<(), EvaluateError>(())
    })?;
    paired_summary(
        [a.estimate(), b.estimate()],
        columns,
        [&a.jackknife(), &b.jackknife()],
        options,
    )
}
