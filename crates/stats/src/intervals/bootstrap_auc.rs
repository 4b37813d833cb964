//! Bootstrap intervals of the AUC and of the difference of two AUCs on the same rows, with
//! the scores ranked once: a resample's AUC is a weighted count over the ranked list
//! (multiplicities as weights, tied scores in one pass), O(n) per resample, no sort.

use crate::error::{check_finite, StatsError};
use crate::intervals::auc::structural_components;
use crate::intervals::bootstrap::{
    replicates, summarize, BootstrapInterval, BootstrapOptions, Strata,
};

/// Scores ranked once: rows in increasing score order and the ends of the groups of tied scores.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedScores {
    rows: Vec<u32>,
    positive: Vec<bool>,
    group_ends: Vec<u32>,
}

impl RankedScores {
    /// Ranks `scores` (finite) of rows labelled `labels` (true = positive), O(n log n).
    /// At most u32::MAX rows.
    pub fn new(labels: &[bool], scores: &[f64]) -> Result<Self, StatsError> {
        if labels.len() != scores.len() {
            return Err(StatsError::LengthMismatch {
                first: "labels",
                first_len: labels.len(),
                second: "scores",
                second_len: scores.len(),
            });
        }
        check_finite("scores", scores)?;
        if scores.len() >= u32::MAX as usize {
            return Err(StatsError::OutOfRange {
                name: "rows",
                value: scores.len() as f64,
                allowed: "fewer than 4294967295",
            });
        }
        let mut order: Vec<(f64, u32)> = scores
            .iter()
            .enumerate()
            .map(|(i, &s)| (s + 0.0, i as u32))
            .collect();
        order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut group_ends = Vec::new();
        for i in 1..order.len() {
            if order[i].0 != order[i - 1].0 {
                group_ends.push(i as u32);
            }
        }
        if !order.is_empty() {
            group_ends.push(order.len() as u32);
        }
        Ok(RankedScores {
            positive: order.iter().map(|&(_, r)| labels[r as usize]).collect(),
            rows: order.into_iter().map(|(_, r)| r).collect(),
            group_ends,
        })
    }

    /// AUC (ties 1/2) of the rows weighted by `counts` (one per row, input order; a shorter
    /// slice is a programming error and panics): twice the
    /// Mann-Whitney U counted exactly in integers over the ranked groups. NaN when either class
    /// has zero total count.
    pub fn auc_with_counts(&self, counts: &[u32]) -> f64 {
        let (mut twice_u, mut negatives_below, mut positives_total) = (0u64, 0u64, 0u64);
        let mut start = 0usize;
        for &end in &self.group_ends {
            let end = end as usize;
            let (mut positives, mut negatives) = (0u64, 0u64);
            for i in start..end {
                let count = u64::from(counts[self.rows[i] as usize]);
                if self.positive[i] {
                    positives += count;
                } else {
                    negatives += count;
                }
            }
            twice_u += positives * (2 * negatives_below + negatives);
            negatives_below += negatives;
            positives_total += positives;
            start = end;
        }
        twice_u as f64 / (2.0 * positives_total as f64 * negatives_below as f64)
    }
}

/// The AUC and its jackknife AUCs per stratum (negatives, then positives) from the placement values:
/// deleting positive i leaves U - n V10_i over (m - 1) n pairs; deleting negative j leaves
/// U - m V01_j over m (n - 1). A stratum of one row gives the estimate itself (its U is 0).
pub fn auc_jackknife(labels: &[bool], scores: &[f64]) -> Result<(f64, Vec<Vec<f64>>), StatsError> {
    let components = structural_components(labels, scores)?;
    let (m, n) = (components.v10.len() as f64, components.v01.len() as f64);
    let u = components.auc * m * n;
    let leave_out = |values: &[f64], own: f64, other: f64| -> Vec<f64> {
        if values.len() < 2 {
            return vec![components.auc; values.len()];
        }
        values
            .iter()
            .map(|v| (u - other * v) / ((own - 1.0) * other))
            .collect()
    };
    let negatives = leave_out(&components.v01, n, m);
    let positives = leave_out(&components.v10, m, n);
    Ok((components.auc, vec![negatives, positives]))
}

/// Bootstrap of the AUC of `scores` for `labels`, stratified by class (each resample keeps the
/// numbers of positives and negatives), with percentile and BCa intervals (exact delete-one
/// jackknife from the placement values). O(n log n) once, then O(n) per resample.
/// Needs both classes (`TooFew`) and finite scores (`NonFinite`).
pub fn bootstrap_auc(
    labels: &[bool],
    scores: &[f64],
    options: &BootstrapOptions,
) -> Result<BootstrapInterval, StatsError> {
    let (estimate, jackknife) = auc_jackknife(labels, scores)?;
    let ranked = RankedScores::new(labels, scores)?;
    let strata = Strata::from_labels(labels);
    let columns = replicates(&strata, options, 1, |counts, out| {
        out[0] = ranked.auc_with_counts(counts);
        Ok::<(), StatsError>(())
    })?;
    let column = columns.into_iter().next().unwrap_or_default();
    summarize(estimate, column, &jackknife, options)
}

/// Paired bootstrap of two models' AUCs on the same rows: each resample's multiplicities are
/// applied to both models, so the interval of the difference accounts for their correlation.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PairedBootstrap {
    /// Interval of the first model's statistic.
    pub first: BootstrapInterval,
    /// Interval of the second model's statistic.
    pub second: BootstrapInterval,
    /// Interval of first - second.
    pub difference: BootstrapInterval,
}

/// Paired, class-stratified bootstrap of AUC(first) - AUC(second) on the same rows, with the
/// intervals of each AUC (the first's replicates equal [`bootstrap_auc`]'s for the same seed).
pub fn paired_bootstrap_auc(
    labels: &[bool],
    first: &[f64],
    second: &[f64],
    options: &BootstrapOptions,
) -> Result<PairedBootstrap, StatsError> {
    let (estimate_1, jackknife_1) = auc_jackknife(labels, first)?;
    let (estimate_2, jackknife_2) = auc_jackknife(labels, second)?;
    let (ranked_1, ranked_2) = (
        RankedScores::new(labels, first)?,
        RankedScores::new(labels, second)?,
    );
    let strata = Strata::from_labels(labels);
    let mut columns = replicates(&strata, options, 3, |counts, out| {
        out[0] = ranked_1.auc_with_counts(counts);
        out[1] = ranked_2.auc_with_counts(counts);
        out[2] = out[0] - out[1];
        Ok::<(), StatsError>(())
    })?;
    let jackknife_difference: Vec<Vec<f64>> = jackknife_1
        .iter()
        .zip(&jackknife_2)
        .map(|(a, b)| a.iter().zip(b).map(|(x, y)| x - y).collect())
        .collect();
    let difference = columns.pop().unwrap_or_default();
    let second_column = columns.pop().unwrap_or_default();
    let first_column = columns.pop().unwrap_or_default();
    Ok(PairedBootstrap {
        first: summarize(estimate_1, first_column, &jackknife_1, options)?,
        second: summarize(estimate_2, second_column, &jackknife_2, options)?,
        difference: summarize(
            estimate_1 - estimate_2,
            difference,
            &jackknife_difference,
            options,
        )?,
    })
}
