//! Consistency and discriminancy of two measures (Huang & Ling 2005), counted exactly.
//!
//! For a domain of items and measures f, g over ordered pairs (a, b):
//! R = #{f(a) > f(b), g(a) > g(b)}, S = #{f(a) > f(b), g(a) < g(b)}, consistency C = R / (R + S);
//! P = #{f(a) > f(b), g(a) = g(b)}, Q = #{g(a) > g(b), f(a) = f(b)}, discriminancy D = P / Q.
//! For AUC (f) versus accuracy (g) over every ranking of n_p positives and n_n negatives
//! (accuracy from labelling the top n_p as positive) the rankings are histogrammed by
//! (accuracy, AUC), either by enumeration or by an exact dynamic program over positions.

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use crate::error::{EvaluateError, Result};

/// The four exact pair counts R, S, P, Q.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsistencyCounts {
    /// Pairs on which both measures agree strictly.
    pub r: BigUint,
    /// Pairs on which the measures disagree strictly.
    pub s: BigUint,
    /// Pairs that f separates and g ties.
    pub p: BigUint,
    /// Pairs that g separates and f ties.
    pub q: BigUint,
}

/// a / b as f64 for arbitrarily large integers (NaN for 0/0, +inf for x/0).
fn big_ratio(a: &BigUint, b: &BigUint) -> f64 {
    if b.is_zero() {
        return if a.is_zero() { f64::NAN } else { f64::INFINITY };
    }
    let bits = a.bits().max(b.bits());
    let shift = bits.saturating_sub(1000);
    let a = (a >> shift).to_f64().unwrap_or(f64::NAN);
    let b = (b >> shift).to_f64().unwrap_or(f64::NAN);
    a / b
}

impl ConsistencyCounts {
    /// C = R / (R + S); NaN when R + S = 0.
    pub fn consistency(&self) -> f64 {
        big_ratio(&self.r, &(&self.r + &self.s))
    }
    /// D = P / Q; +inf when Q = 0 < P, NaN when both are 0.
    pub fn discriminancy(&self) -> f64 {
        big_ratio(&self.p, &self.q)
    }
}

/// Counts R, S, P, Q over all ordered pairs of items with measure values (f, g), O(m^2).
/// Values are compared exactly (NaN values are rejected).
pub fn consistency_discriminancy(values: &[(f64, f64)]) -> Result<ConsistencyCounts> {
    if let Some(index) = values.iter().position(|v| v.0.is_nan() || v.1.is_nan()) {
        return Err(EvaluateError::NanScore { index, column: 0 });
    }
    let (mut r, mut s, mut p, mut q) = (0u128, 0u128, 0u128, 0u128);
    for a in values {
        for b in values {
            if a.0 > b.0 {
                if a.1 > b.1 {
                    r += 1;
                } else if a.1 < b.1 {
                    s += 1;
                } else {
                    p += 1;
                }
            } else if a.0 == b.0 && a.1 > b.1 {
                q += 1;
            }
        }
    }
    Ok(ConsistencyCounts {
        r: r.into(),
        s: s.into(),
        p: p.into(),
        q: q.into(),
    })
}

/// Number of rankings of n_p positives and n_n negatives per (k, U), where k = positives among the
/// top n_p positions (accuracy = (2k + n_n - n_p) / (n_p + n_n)) and U = number of
/// (positive above negative) pairs (AUC = U / (n_p n_n)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankingHistogram {
    n_pos: usize,
    n_neg: usize,
    /// counts[k][u]
    counts: Vec<Vec<BigUint>>,
}

fn check_sizes(n_pos: usize, n_neg: usize, limit: usize) -> Result<()> {
    if n_pos == 0 || n_neg == 0 {
        return Err(EvaluateError::BadParameter {
            name: "n_pos/n_neg",
            value: n_pos.min(n_neg) as f64,
            allowed: ">= 1 each",
        });
    }
    if n_pos + n_neg > limit {
        return Err(EvaluateError::BadParameter {
            name: "n_pos + n_neg",
            value: (n_pos + n_neg) as f64,
            allowed: "small enough for the chosen method (enumeration: <= 30)",
        });
    }
    Ok(())
}

impl RankingHistogram {
    /// Histogram by enumerating all C(n_p + n_n, n_p) rankings (n_p + n_n <= 30).
    pub fn by_enumeration(n_pos: usize, n_neg: usize) -> Result<Self> {
        check_sizes(n_pos, n_neg, 30)?;
        let n = n_pos + n_neg;
        let mut counts = vec![vec![0u64; n_pos * n_neg + 1]; n_pos + 1];
        // bit i set = position i (0 = top) holds a positive
        let mut mask: u64 = (1u64 << n_pos) - 1;
        let limit = 1u64 << n;
        while mask < limit {
            let mut above = 0usize;
            let mut u = 0usize;
            for position in 0..n {
                if mask >> position & 1 == 1 {
                    above += 1;
                } else {
                    u += above;
                }
            }
            let k = (mask & ((1u64 << n_pos) - 1)).count_ones() as usize;
            counts[k][u] += 1;
            // next mask with the same number of bits (Gosper's hack)
            let c = mask & mask.wrapping_neg();
            let r = mask + c;
            mask = (((r ^ mask) >> 2) / c) | r;
        }
        Ok(RankingHistogram {
            n_pos,
            n_neg,
            counts: counts
                .into_iter()
                .map(|row| row.into_iter().map(BigUint::from).collect())
                .collect(),
        })
    }

    /// Histogram by an exact dynamic program over positions: the top n_p positions hold k
    /// positives, the rest n_p - k; within each block the U distribution is the Gaussian binomial
    /// coefficient (built position by position), and every top positive beats every bottom negative.
    pub fn by_dynamic_program(n_pos: usize, n_neg: usize) -> Result<Self> {
        Self::dynamic_program(n_pos, n_neg, true)
    }

    /// The dynamic program, with fixed-width arithmetic where it is known to suffice (`allow_fast`).
    fn dynamic_program(n_pos: usize, n_neg: usize, allow_fast: bool) -> Result<Self> {
        check_sizes(n_pos, n_neg, usize::MAX / 4)?;
        let (top_row, bottom_row) = gaussian_binomial_rows(n_pos, n_neg);
        let width = n_pos * n_neg + 1;
        // fixed-width fast path: block coefficients below 2^128 and every count below 2^256
        let fits_u128 = |rows: &Vec<Vec<BigUint>>| rows.iter().flatten().all(|c| c.bits() <= 128);
        let total_rankings: BigUint = (0..=n_pos).fold(BigUint::zero(), |acc, k| {
            acc + top_row[k].iter().sum::<BigUint>()
                * bottom_row
                    .get(n_pos - k)
                    .map_or(BigUint::zero(), |b| b.iter().sum::<BigUint>())
        });
        let fast = allow_fast
            && fits_u128(&top_row)
            && fits_u128(&bottom_row)
            && total_rankings.bits() <= 256;
        let to_u128 = |poly: &[BigUint]| -> Vec<u128> {
            poly.iter()
                .map(|c| c.to_u128().expect("checked to fit"))
                .collect()
        };
        let mut counts = Vec::with_capacity(n_pos + 1);
        for k in 0..=n_pos {
            let mut row = vec![BigUint::zero(); width];
            let top_negatives = n_pos - k;
            if top_negatives <= n_neg {
                let top = &top_row[k];
                let bottom = &bottom_row[n_pos - k];
                let shift = k * (n_neg - top_negatives);
                if fast {
                    let mut wide = vec![Wide::default(); top.len() + bottom.len() - 1];
                    convolve_wide(&to_u128(top), &to_u128(bottom), &mut wide);
                    for (slot, value) in row[shift..].iter_mut().zip(&wide) {
                        *slot = value.to_biguint();
                    }
                } else {
                    convolve_into(top, bottom, &mut row[shift..]);
                }
            }
            counts.push(row);
        }
        Ok(RankingHistogram {
            n_pos,
            n_neg,
            counts,
        })
    }

    /// Number of positives n_p.
    pub fn n_pos(&self) -> usize {
        self.n_pos
    }

    /// Number of negatives n_n.
    pub fn n_neg(&self) -> usize {
        self.n_neg
    }

    /// Number of rankings with k positives in the top n_p and U correctly ordered pairs.
    pub fn count(&self, k: usize, u: usize) -> &BigUint {
        &self.counts[k][u]
    }

    /// R, S, P, Q for f = AUC and g = accuracy, counted over the histogram in O(n_p * n_p n_n)
    /// big-integer operations (no pair of rankings is enumerated).
    pub fn auc_vs_accuracy(&self) -> ConsistencyCounts {
        let width = self.n_pos * self.n_neg + 1;
        let zero = BigUint::zero();
        // below[k][u] = sum_{u' < u} counts[k][u']
        let below: Vec<Vec<BigUint>> = self
            .counts
            .iter()
            .map(|row| {
                let mut acc = BigUint::zero();
                let mut out = Vec::with_capacity(width);
                for c in row {
                    out.push(acc.clone());
                    acc += c;
                }
                out
            })
            .collect();
        let mut total_below = vec![BigUint::zero(); width];
        for row in &below {
            for (t, b) in total_below.iter_mut().zip(row) {
                *t += b;
            }
        }
        let mut lower_k_below = vec![BigUint::zero(); width]; // sum over k' < k of below[k']
        let mut lower_k_same_u = vec![BigUint::zero(); width]; // sum over k' < k of counts[k'][u]
        let (mut r, mut s, mut p, mut q) = (
            BigUint::zero(),
            BigUint::zero(),
            BigUint::zero(),
            BigUint::zero(),
        );
        for (row, row_below) in self.counts.iter().zip(&below) {
            for u in 0..width {
                let c = &row[u];
                if *c == zero {
                    continue;
                }
                r += c * &lower_k_below[u];
                let higher_k_below = &total_below[u] - &lower_k_below[u] - &row_below[u];
                s += c * higher_k_below;
                p += c * &row_below[u];
                q += c * &lower_k_same_u[u];
            }
            for u in 0..width {
                lower_k_below[u] += &row_below[u];
                lower_k_same_u[u] += &row[u];
            }
        }
        ConsistencyCounts { r, s, p, q }
    }
}

/// Gaussian binomial coefficients [n_pos choose r]_q for all r, and [n_neg choose r]_q for all r,
/// as polynomials in q (coefficient u = number of arrangements of r positives and m - r negatives
/// with u positive-above-negative pairs), built position by position:
/// [m, r] = q^(m - r) [m - 1, r - 1] + [m - 1, r] (first position positive or negative).
#[allow(clippy::type_complexity)]
fn gaussian_binomial_rows(n_pos: usize, n_neg: usize) -> (Vec<Vec<BigUint>>, Vec<Vec<BigUint>>) {
    let max_m = n_pos.max(n_neg);
    let mut row: Vec<Vec<BigUint>> = vec![vec![BigUint::from(1u32)]]; // m = 0
    let mut top = None;
    let mut bottom = None;
    if n_pos == 0 {
        top = Some(row.clone());
    }
    for m in 1..=max_m {
        let mut next: Vec<Vec<BigUint>> = Vec::with_capacity(m + 1);
        for r in 0..=m {
            let mut poly = vec![BigUint::zero(); r * (m - r) + 1];
            if r < m {
                for (u, c) in row[r].iter().enumerate() {
                    poly[u] += c;
                }
            }
            if r > 0 {
                let shift = m - r;
                for (u, c) in row[r - 1].iter().enumerate() {
                    poly[u + shift] += c;
                }
            }
            next.push(poly);
        }
        row = next;
        if m == n_pos {
            top = Some(row.clone());
        }
        if m == n_neg {
            bottom = Some(row.clone());
        }
    }
    (top.expect("n_pos <= max"), bottom.expect("n_neg <= max"))
}

/// out[i + j] += a[i] * b[j].
fn convolve_into(a: &[BigUint], b: &[BigUint], out: &mut [BigUint]) {
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
}

/// Unsigned 256-bit accumulator (low and high 128-bit halves).
#[derive(Debug, Clone, Copy, Default)]
struct Wide {
    low: u128,
    high: u128,
}

impl Wide {
    /// Adds the full 256-bit product a * b (the caller guarantees no overflow of the sum).
    #[inline]
    fn add_product(&mut self, a: u128, b: u128) {
        const MASK: u128 = u64::MAX as u128;
        let (a0, a1) = (a & MASK, a >> 64);
        let (b0, b1) = (b & MASK, b >> 64);
        let p00 = a0 * b0;
        let p01 = a0 * b1;
        let p10 = a1 * b0;
        let p11 = a1 * b1;
        // middle = p01 + p10 + high half of p00, may exceed 128 bits by one carry
        let (middle, carry_middle) = p01.overflowing_add(p10);
        let (middle, carry_middle2) = middle.overflowing_add(p00 >> 64);
        let low = (p00 & MASK) | (middle << 64);
        let high =
            p11 + (middle >> 64) + ((u128::from(carry_middle) + u128::from(carry_middle2)) << 64);
        let (sum_low, carry) = self.low.overflowing_add(low);
        self.low = sum_low;
        self.high = self.high.wrapping_add(high).wrapping_add(u128::from(carry));
    }

    fn to_biguint(self) -> BigUint {
        (BigUint::from(self.high) << 128u32) | BigUint::from(self.low)
    }
}

/// out[i + j] += a[i] * b[j] in 256-bit fixed width.
fn convolve_wide(a: &[u128], b: &[u128], out: &mut [Wide]) {
    for (i, &x) in a.iter().enumerate() {
        if x == 0 {
            continue;
        }
        for (slot, &y) in out[i..i + b.len()].iter_mut().zip(b) {
            slot.add_product(x, y);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_width_product_equals_big_integer_product() {
        let values = [
            0u128,
            1,
            3,
            u64::MAX as u128,
            u64::MAX as u128 + 1,
            u128::MAX / 3,
            u128::MAX,
        ];
        for &a in &values {
            for &b in &values {
                let mut wide = Wide::default();
                wide.add_product(a / 2, b);
                wide.add_product(a - a / 2, b);
                let expected = BigUint::from(a) * BigUint::from(b);
                assert_eq!(wide.to_biguint(), expected, "{a} * {b}");
            }
        }
    }

    #[test]
    fn fast_and_big_integer_dynamic_programs_agree() {
        for (n_pos, n_neg) in [(1, 1), (3, 7), (9, 4), (12, 12), (20, 15)] {
            let fast = RankingHistogram::dynamic_program(n_pos, n_neg, true).unwrap();
            let slow = RankingHistogram::dynamic_program(n_pos, n_neg, false).unwrap();
            assert_eq!(fast, slow, "{n_pos}+{n_neg}");
        }
    }
}
