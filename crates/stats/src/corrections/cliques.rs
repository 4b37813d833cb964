//! The bars of a critical-difference diagram from any pairwise procedure: given average ranks
//! and which pairs of learners differ significantly (Nemenyi, Wilcoxon + Holm, Shaffer, ...),
//! the groups drawn as one bar, as aeon's `plot_critical_difference` builds them.
//!
//! The learners are put in order of average rank (best first; equal ranks in input order).
//! From each learner, its run is it and the learners after it, in rank order, up to the first
//! one that differs significantly from it; runs of one learner and runs inside an earlier run
//! are dropped. With a critical difference (Nemenyi, Bonferroni-Dunn) this gives the maximal
//! groups whose average ranks span less than it.

use serde::Serialize;

use crate::error::{check_finite, StatsError};

/// One bar of a CD diagram.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Clique {
    /// Learner indices (columns of the table), best average rank first.
    pub members: Vec<usize>,
    /// True when every pair inside the bar is not significantly different (false only when a
    /// non-transitive procedure joins two learners that differ through a third).
    pub all_pairs_equivalent: bool,
}

/// Learner indices sorted by average rank, best (smallest) first; ties in input order.
pub fn rank_order(average_ranks: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..average_ranks.len()).collect();
    order.sort_by(|&i, &j| average_ranks[i].total_cmp(&average_ranks[j]));
    order
}

/// The cliques of a CD diagram from `significant[i][j]` (true when learners i and j differ
/// significantly; read for i != j, both halves must agree) and the learners' average ranks.
///
/// Errors: fewer than 2 learners -> `TooFew`; a matrix that is not k x k ->
/// `LengthMismatch`; NaN ranks -> `NonFinite`; an asymmetric matrix -> `OutOfRange`.
pub fn cliques(
    average_ranks: &[f64],
    significant: &[Vec<bool>],
) -> Result<Vec<Clique>, StatsError> {
    let k = average_ranks.len();
    if k < 2 {
        return Err(StatsError::TooFew {
            name: "learners (average ranks)",
            got: k,
            needed: 2,
        });
    }
    check_finite("average_ranks", average_ranks)?;
    if significant.len() != k || significant.iter().any(|row| row.len() != k) {
        return Err(StatsError::LengthMismatch {
            first: "significance matrix rows and columns",
            first_len: significant.len(),
            second: "learners (average ranks)",
            second_len: k,
        });
    }
    for (i, row) in significant.iter().enumerate() {
        for (j, &decision) in row.iter().enumerate().take(i) {
            if decision != significant[j][i] {
                return Err(StatsError::OutOfRange {
                    name: "significance matrix",
                    value: (i * k + j) as f64,
                    allowed: "symmetric (the decision for (i, j) equal to that for (j, i))",
                });
            }
        }
    }
    let order = rank_order(average_ranks);
    let mut result = Vec::new();
    let mut last_end = 0;
    for start in 0..k {
        let mut end = start;
        while end + 1 < k && !significant[order[start]][order[end + 1]] {
            end += 1;
        }
        if end > start && end > last_end {
            let members: Vec<usize> = order[start..=end].to_vec();
            let all_pairs_equivalent = members
                .iter()
                .enumerate()
                .all(|(position, &a)| members[position + 1..].iter().all(|&b| !significant[a][b]));
            result.push(Clique {
                members,
                all_pairs_equivalent,
            });
            last_end = end;
        }
    }
    Ok(result)
}

/// [`cliques`] from a symmetric matrix of (adjusted) p-values: a pair differs significantly
/// when its p-value is <= alpha. Errors as [`cliques`], and NaN p-values -> `NonFinite`.
pub fn cliques_from_pvalues(
    average_ranks: &[f64],
    pvalues: &[Vec<f64>],
    alpha: f64,
) -> Result<Vec<Clique>, StatsError> {
    crate::error::check_alpha(alpha)?;
    for row in pvalues {
        check_finite("pairwise p-values", row)?;
    }
    let significant: Vec<Vec<bool>> = pvalues
        .iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, &p)| i != j && p <= alpha)
                .collect()
        })
        .collect();
    cliques(average_ranks, &significant)
}

/// [`cliques`] from a critical difference: a pair differs significantly when its average
/// ranks differ by at least `difference` (Nemenyi, Bonferroni-Dunn).
pub fn cliques_from_critical_difference(
    average_ranks: &[f64],
    difference: f64,
) -> Result<Vec<Clique>, StatsError> {
    check_finite("average_ranks", average_ranks)?;
    let significant: Vec<Vec<bool>> = average_ranks
        .iter()
        .map(|a| {
            average_ranks
                .iter()
                .map(|b| (a - b).abs() >= difference)
                .collect()
        })
        .collect();
    cliques(average_ranks, &significant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_is_an_error() {
        assert!(cliques(&[1.0], &[vec![false]]).is_err());
        assert!(cliques(&[1.0, 2.0], &[vec![false, true]]).is_err());
        assert!(cliques(&[1.0, f64::NAN], &[vec![false; 2], vec![false; 2]]).is_err());
        let asymmetric = vec![vec![false, true], vec![false, false]];
        assert!(cliques(&[1.0, 2.0], &asymmetric).is_err());
        assert!(
            cliques_from_pvalues(&[1.0, 2.0], &[vec![1.0, f64::NAN], vec![0.2, 1.0]], 0.05)
                .is_err()
        );
    }
}
