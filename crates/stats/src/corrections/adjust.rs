//! Adjusted p-values beyond Bonferroni and Holm (Garcia & Herrera 2008; Garcia et al. 2010):
//! Hochberg's step-up, Hommel's closed Simes procedure, Finner's and Li's procedures for a
//! family of m tests, and Shaffer's static and Bergmann-Hommel's procedures for the
//! k(k-1)/2 pairwise comparisons of k learners, which use the logical relations among those
//! hypotheses (not every subset of them can be true at once).
//!
//! Every function returns adjusted p-values in input order and the decisions "adjusted
//! p-value <= alpha", as [`crate::multitest`]'s Bonferroni and Holm. Pairwise p-values are
//! given in pair order (0,1), (0,2), ..., (0,k-1), (1,2), ... (see [`pair_list`]).

use crate::corrections::multitest::{check_pvalues, CorrectionResult};
use crate::error::{check_alpha, StatsError};

/// Largest number of learners Bergmann-Hommel accepts: its exhaustive sets grow as the Bell
/// numbers (21,147 sets of hypotheses for 9 learners), as in scmamp.
pub const BERGMANN_HOMMEL_MAX_LEARNERS: usize = 9;

/// Indices that sort `pvalues` ascending (ties in input order).
fn ascending_order(pvalues: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..pvalues.len()).collect();
    order.sort_by(|&i, &j| pvalues[i].total_cmp(&pvalues[j]));
    order
}

/// Puts adjusted p-values given in ascending order of the raw ones back in input order, caps
/// them at 1 and decides at alpha.
fn finish(order: &[usize], sorted_adjusted: &[f64], alpha: f64) -> CorrectionResult {
    let mut corrected_pvalues = vec![0.0; order.len()];
    for (position, &index) in order.iter().enumerate() {
        corrected_pvalues[index] = sorted_adjusted[position].min(1.0);
    }
    let reject = corrected_pvalues.iter().map(|p| *p <= alpha).collect();
    CorrectionResult {
        corrected_pvalues,
        reject,
        alpha,
    }
}

/// Running maximum from the smallest raw p-value up (step-down monotonicity).
fn running_max(values: &mut [f64]) {
    let mut largest = f64::NEG_INFINITY;
    for value in values.iter_mut() {
        largest = largest.max(*value);
        *value = largest;
    }
}

/// Validates alpha and the p-values; returns them sorted ascending with their order.
fn prepare(pvalues: &[f64], alpha: f64) -> Result<(Vec<usize>, Vec<f64>), StatsError> {
    check_alpha(alpha)?;
    check_pvalues(pvalues)?;
    let order = ascending_order(pvalues);
    let sorted = order.iter().map(|&i| pvalues[i]).collect();
    Ok((order, sorted))
}

/// Hochberg's step-up procedure: adjusted p_(i) = min over j >= i of (m - j + 1) p_(j)
/// (statsmodels `simes-hochberg`). Empty input -> `TooFew`; a p-value outside [0, 1] or NaN
/// -> `OutOfRange`; alpha outside (0, 1) -> `OutOfRange`.
pub fn hochberg(pvalues: &[f64], alpha: f64) -> Result<CorrectionResult, StatsError> {
    let (order, sorted) = prepare(pvalues, alpha)?;
    let m = sorted.len();
    let mut adjusted = vec![0.0; m];
    let mut smallest = f64::INFINITY;
    for position in (0..m).rev() {
        smallest = smallest.min((m - position) as f64 * sorted[position]);
        adjusted[position] = smallest;
    }
    Ok(finish(&order, &adjusted, alpha))
}

/// Hommel's procedure: the closed test of Simes' tests, by Wright's (1992) algorithm over
/// subset sizes m' = m..2 (statsmodels `hommel`). Same checks as [`hochberg`].
pub fn hommel(pvalues: &[f64], alpha: f64) -> Result<CorrectionResult, StatsError> {
    let (order, sorted) = prepare(pvalues, alpha)?;
    let m = sorted.len();
    let mut adjusted = sorted.clone();
    for size in (2..=m).rev() {
        // Simes' combination of the `size` largest p-values.
        let first = m - size;
        let simes = (0..size)
            .map(|j| size as f64 * sorted[first + j] / (j + 1) as f64)
            .fold(f64::INFINITY, f64::min);
        for (position, value) in adjusted.iter_mut().enumerate() {
            let candidate = if position >= first {
                simes
            } else {
                (size as f64 * sorted[position]).min(simes)
            };
            *value = value.max(candidate);
        }
    }
    Ok(finish(&order, &adjusted, alpha))
}

/// Finner's step-down procedure: adjusted p_(i) = max over j <= i of
/// 1 - (1 - p_(j))^(m / j) (Garcia et al. 2010; scmamp `adjustFinner`). Same checks as
/// [`hochberg`].
pub fn finner(pvalues: &[f64], alpha: f64) -> Result<CorrectionResult, StatsError> {
    let (order, sorted) = prepare(pvalues, alpha)?;
    let m = sorted.len() as f64;
    let mut adjusted: Vec<f64> = sorted
        .iter()
        .enumerate()
        .map(|(position, p)| {
            let exponent = m / (position + 1) as f64;
            // 1 - (1 - p)^e computed as -expm1(e ln(1 - p)) to keep small p accurate.
            -(exponent * (-p).ln_1p()).exp_m1()
        })
        .collect();
    running_max(&mut adjusted);
    Ok(finish(&order, &adjusted, alpha))
}

/// Li's two-step procedure: adjusted p_i = p_i / (p_i + 1 - p_(m)) for every hypothesis, which
/// is p_(m) for the largest (Li 2008; Garcia et al. 2010; scmamp `adjustLi`). A p-value of 0
/// stays 0 (Li's rule p_i <= (1 - p_(m)) alpha / (1 - alpha) rejects it even when p_(m) = 1).
/// Same checks as [`hochberg`].
pub fn li(pvalues: &[f64], alpha: f64) -> Result<CorrectionResult, StatsError> {
    let (order, sorted) = prepare(pvalues, alpha)?;
    let largest = *sorted.last().unwrap_or(&0.0);
    let adjusted: Vec<f64> = sorted
        .iter()
        .map(|&p| {
            if p == 0.0 {
                0.0
            } else {
                (p / (p + (1.0 - largest))).min(largest)
            }
        })
        .collect();
    Ok(finish(&order, &adjusted, alpha))
}

/// The pairs (i, j), i < j, of k learners in the order pairwise p-values are given:
/// (0,1), (0,2), ..., (0,k-1), (1,2), ...
pub fn pair_list(k: usize) -> Vec<(usize, usize)> {
    let mut pairs = Vec::with_capacity(k * k.saturating_sub(1) / 2);
    for first in 0..k {
        for second in (first + 1)..k {
            pairs.push((first, second));
        }
    }
    pairs
}

/// Checks that `pvalues` holds one p-value per pair of k >= 2 learners.
fn check_pairwise(pvalues: &[f64], k: usize) -> Result<(), StatsError> {
    if k < 2 {
        return Err(StatsError::TooFew {
            name: "learners (k)",
            got: k,
            needed: 2,
        });
    }
    let needed = k * (k - 1) / 2;
    if pvalues.len() != needed {
        return Err(StatsError::LengthMismatch {
            first: "pairwise p-values",
            first_len: pvalues.len(),
            second: "pairs of learners k(k-1)/2",
            second_len: needed,
        });
    }
    Ok(())
}

/// Shaffer's S(k): the numbers of pairwise hypotheses among k learners that can be true at
/// once, ascending (Shaffer 1986): S(k) = union over j = 1..k of {C(j,2) + s : s in S(k-j)},
/// S(0) = S(1) = {0}.
pub fn shaffer_true_counts(k: usize) -> Vec<usize> {
    let mut sets: Vec<Vec<usize>> = vec![vec![0]; k + 1];
    for size in 2..=k {
        let mut counts = Vec::new();
        for block in 1..=size {
            let within = block * (block - 1) / 2;
            counts.extend(sets[size - block].iter().map(|s| s + within));
        }
        counts.sort_unstable();
        counts.dedup();
        sets[size] = counts;
    }
    sets.swap_remove(k)
}

/// Shaffer's static procedure for the k(k-1)/2 pairwise comparisons: adjusted p_(i) = max over
/// j <= i of t_j p_(j), where t_j is the largest number of hypotheses that can be true when
/// j - 1 are false (Garcia & Herrera 2008; scmamp `adjustShaffer`). `pvalues` in
/// [`pair_list`] order. k < 2 -> `TooFew`; a count other than k(k-1)/2 -> `LengthMismatch`;
/// otherwise the checks of [`hochberg`].
pub fn shaffer_static(
    pvalues: &[f64],
    k: usize,
    alpha: f64,
) -> Result<CorrectionResult, StatsError> {
    check_pairwise(pvalues, k)?;
    let (order, sorted) = prepare(pvalues, alpha)?;
    let counts = shaffer_true_counts(k);
    let m = sorted.len();
    let mut adjusted: Vec<f64> = sorted
        .iter()
        .enumerate()
        .map(|(position, p)| {
            let at_most = m - position;
            let t = counts
                .iter()
                .copied()
                .filter(|&c| c <= at_most)
                .max()
                .unwrap_or(0);
            t as f64 * p
        })
        .collect();
    running_max(&mut adjusted);
    Ok(finish(&order, &adjusted, alpha))
}

/// The exhaustive sets of pairwise hypotheses among k learners (Bergmann & Hommel 1988): the
/// sets of pairs that can be exactly the true hypotheses, one per partition of the learners
/// into groups of equal learners (all pairs within a group), less the empty set. Each set is a
/// bit mask over [`pair_list`] positions. k > [`BERGMANN_HOMMEL_MAX_LEARNERS`] ->
/// `OutOfRange`.
pub fn exhaustive_sets(k: usize) -> Result<Vec<u64>, StatsError> {
    if k > BERGMANN_HOMMEL_MAX_LEARNERS {
        return Err(StatsError::OutOfRange {
            name: "learners (k) for Bergmann-Hommel",
            value: k as f64,
            allowed: "at most 9 (its exhaustive sets grow as the Bell numbers)",
        });
    }
    let pairs = pair_list(k);
    let mut sets = Vec::new();
    // Restricted growth strings: block[i] <= 1 + max(block[..i]), block[0] = 0.
    let mut block = vec![0usize; k];
    loop {
        let mut mask = 0u64;
        for (position, &(a, b)) in pairs.iter().enumerate() {
            if block[a] == block[b] {
                mask |= 1 << position;
            }
        }
        if mask != 0 {
            sets.push(mask);
        }
        // Next restricted growth string, from the right.
        let mut index = k;
        loop {
            if index <= 1 {
                return Ok(sets);
            }
            index -= 1;
            let ceiling = block[..index].iter().copied().max().unwrap_or(0) + 1;
            if block[index] < ceiling {
                block[index] += 1;
                for later in &mut block[index + 1..] {
                    *later = 0;
                }
                break;
            }
        }
    }
}

/// Bergmann-Hommel's procedure for the k(k-1)/2 pairwise comparisons (k <= 9): adjusted p_i =
/// max over exhaustive sets I containing hypothesis i of |I| min_{j in I} p_j, capped at 1,
/// then made monotone in the order of the raw p-values (Garcia & Herrera 2008; scmamp
/// `adjustBergmannHommel`). `pvalues` in [`pair_list`] order. Checks of [`shaffer_static`],
/// and k > 9 -> `OutOfRange`.
pub fn bergmann_hommel(
    pvalues: &[f64],
    k: usize,
    alpha: f64,
) -> Result<CorrectionResult, StatsError> {
    check_pairwise(pvalues, k)?;
    let (order, _) = prepare(pvalues, alpha)?;
    let sets = exhaustive_sets(k)?;
    let m = pvalues.len();
    let mut raw_adjusted = vec![0.0f64; m];
    for &set in &sets {
        let size = set.count_ones() as f64;
        let smallest = (0..m)
            .filter(|&h| set & (1 << h) != 0)
            .map(|h| pvalues[h])
            .fold(f64::INFINITY, f64::min);
        let value = (size * smallest).min(1.0);
        for (h, adjusted) in raw_adjusted.iter_mut().enumerate() {
            if set & (1 << h) != 0 {
                *adjusted = adjusted.max(value);
            }
        }
    }
    let mut adjusted: Vec<f64> = order.iter().map(|&i| raw_adjusted[i]).collect();
    running_max(&mut adjusted);
    Ok(finish(&order, &adjusted, alpha))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shaffer_counts_match_shaffers_table() {
        // Shaffer (1986): S(4) = {0,1,2,3,6}, S(5) = {0,1,2,3,4,6,10}
        // (partitions of 5 learners into groups: 10, 6, 3+1, 3, 1+1, 1, 0).
        assert_eq!(shaffer_true_counts(4), vec![0, 1, 2, 3, 6]);
        assert_eq!(shaffer_true_counts(5), vec![0, 1, 2, 3, 4, 6, 10]);
        assert_eq!(shaffer_true_counts(2), vec![0, 1]);
    }

    #[test]
    fn exhaustive_sets_count_bell_numbers_less_one() {
        // Bell numbers 2, 5, 15, 52, ..., 21147 for k = 2..9, less the all-singletons partition.
        let bell = [2, 5, 15, 52, 203, 877, 4140, 21147];
        for (k, b) in (2..=9).zip(bell) {
            assert_eq!(exhaustive_sets(k).unwrap().len(), b - 1, "k = {k}");
        }
        assert!(exhaustive_sets(10).is_err());
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(hochberg(&[], 0.05).is_err());
        assert!(hommel(&[0.1, f64::NAN], 0.05).is_err());
        assert!(finner(&[0.1, 1.5], 0.05).is_err());
        assert!(li(&[0.1], 1.0).is_err());
        assert!(shaffer_static(&[0.1, 0.2], 3, 0.05).is_err());
        assert!(bergmann_hommel(&[0.1], 1, 0.05).is_err());
    }

    #[test]
    fn li_with_a_largest_p_of_one() {
        let result = li(&[0.0, 0.3, 1.0], 0.05).unwrap();
        assert_eq!(result.corrected_pvalues, vec![0.0, 1.0, 1.0]);
    }
}
