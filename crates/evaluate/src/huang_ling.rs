//! Consistency and discriminancy of two measures (Huang & Ling 2005), counted exactly.
//!
//! For a domain of items and measures f, g over ordered pairs (a, b):
//! R = #{f(a) > f(b), g(a) > g(b)}, S = #{f(a) > f(b), g(a) < g(b)}, consistency C = R / (R + S);
//! P = #{f(a) > f(b), g(a) = g(b)}, Q = #{g(a) > g(b), f(a) = f(b)}, discriminancy D = P / Q.
//! For AUC (f) versus accuracy (g) over every ranking of n_p positives and n_n negatives
//! (accuracy from labelling the top n_p as positive) the rankings are histogrammed by
//! (accuracy, AUC), either by enumeration or by an exact recurrence between the histogram's rows.
//!
//! Cost of the recurrence for n = n_p + n_n: the histogram has (n_p + 1)(n_p n_n + 1) cells of
//! L = ceil(log2 C(n, n_p) / 64) limbs (L <= n / 64 + 1); building it takes about 4 (n_p + 1)
//! passes of L-limb additions over a row, and R, S, P, Q take two L x L-limb multiplications per
//! cell, so the whole is O(n_p^2 n_n L^2) word operations, the counting dominating. Balanced
//! 2n = 200 is 10^6 cells of 4 limbs (3 * 10^7 word multiplications), 2n = 300 is 3.4 * 10^6
//! cells of 5 limbs. The memory is the histogram, (n_p + 1)(n_p n_n + 1) L words.

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
    /// 64-bit limbs per count: every count (at most C(n_p + n_n, n_p)) is below 2^(64 limbs).
    limbs: usize,
    /// Count (k, u) in `counts[(k * width + u) * limbs..][..limbs]`, least significant limb first.
    counts: Vec<u64>,
}

/// The largest histogram built, in 64-bit words (4 GiB; balanced 2n up to about 700).
const MAX_WORDS: usize = 1 << 29;

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

/// C(n, r) exactly.
fn binomial(n: usize, r: usize) -> BigUint {
    (1..=r).fold(BigUint::from(1u32), |acc, i| acc * (n - r + i) / i)
}

impl RankingHistogram {
    /// An all-zero histogram, its limbs sized for C(n_p + n_n, n_p); refused beyond `MAX_WORDS`.
    fn zeroed(n_pos: usize, n_neg: usize) -> Result<Self> {
        let total = n_pos + n_neg;
        let too_large = EvaluateError::BadParameter {
            name: "n_pos + n_neg",
            value: total as f64,
            allowed: "a histogram of at most 4 GiB (balanced 2n up to about 700)",
        };
        // C(total, n_pos) < 2^total, so total / 64 + 1 limbs bound the need before it is computed
        let words = |limbs: usize| {
            n_pos
                .checked_mul(n_neg)
                .and_then(|cells| cells.checked_add(1))
                .and_then(|width| width.checked_mul(n_pos + 1))
                .and_then(|cells| cells.checked_mul(limbs))
                .filter(|&words| words <= MAX_WORDS)
        };
        words(total / 64 + 1).ok_or(too_large)?;
        let limbs = (binomial(total, n_pos).bits() as usize).div_ceil(64).max(1);
        Ok(RankingHistogram {
            n_pos,
            n_neg,
            limbs,
            counts: vec![0; words(limbs).expect("checked with more limbs")],
        })
    }

    /// Number of U values, n_p n_n + 1 (a row of the histogram).
    fn width(&self) -> usize {
        self.n_pos * self.n_neg + 1
    }

    /// The counts of row k (every U), `width * limbs` words.
    fn row(&self, k: usize) -> &[u64] {
        let size = self.width() * self.limbs;
        &self.counts[k * size..][..size]
    }

    /// Histogram by enumerating all C(n_p + n_n, n_p) rankings (n_p + n_n <= 30).
    pub fn by_enumeration(n_pos: usize, n_neg: usize) -> Result<Self> {
        check_sizes(n_pos, n_neg, 30)?;
        let mut histogram = Self::zeroed(n_pos, n_neg)?;
        let (n, width, limbs) = (n_pos + n_neg, histogram.width(), histogram.limbs);
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
            // fewer than 2^30 rankings: the lowest limb never overflows
            histogram.counts[(k * width + u) * limbs] += 1;
            // next mask with the same number of bits (Gosper's hack)
            let c = mask & mask.wrapping_neg();
            let r = mask + c;
            mask = (((r ^ mask) >> 2) / c) | r;
        }
        Ok(histogram)
    }

    /// Histogram by an exact recurrence over k, O(n_p * n_p n_n) additions of fixed-width counts.
    ///
    /// The top n_p positions hold k positives and j = n_p - k negatives, the bottom n_n positions
    /// j positives; every top positive beats every bottom negative, and within each block the U
    /// distribution is a Gaussian binomial coefficient, so row k is the polynomial
    /// c_k(x) = x^(k (n_n - j)) [n_p choose k]_x [n_n choose j]_x. Consecutive rows differ by
    /// c_(k+1) = c_k x^(n_n - j + k + 1) (1 - x^j)^2 / ((1 - x^(k+1)) (1 - x^(n_n - j + 1))), and
    /// multiplying or dividing by (1 - x^a) is one pass of subtractions or additions a apart.
    /// The counts are kept modulo 2^(64 limbs), where every operation is exact (division by
    /// 1 - x^a is the power series 1 + x^a + x^2a + ..., and the true rows are polynomials
    /// whose coefficients fit), so no intermediate needs more room than the final counts.
    pub fn by_dynamic_program(n_pos: usize, n_neg: usize) -> Result<Self> {
        check_sizes(n_pos, n_neg, usize::MAX / 4)?;
        let mut histogram = Self::zeroed(n_pos, n_neg)?;
        let (width, limbs) = (histogram.width(), histogram.limbs);
        let size = width * limbs;
        // the lowest k with at most n_n negatives on top: no shift there
        let first = n_pos.saturating_sub(n_neg);
        let row = &mut histogram.counts[first * size..][..size];
        row[0] = 1;
        times_gaussian_binomial(row, limbs, n_pos, first);
        times_gaussian_binomial(row, limbs, n_neg, n_pos - first);
        for k in first..n_pos {
            let (done, rest) = histogram.counts.split_at_mut((k + 1) * size);
            let (previous, next) = (&done[k * size..], &mut rest[..size]);
            let j = n_pos - k;
            let shift = (n_neg - j) + (k + 1);
            if shift < width {
                next[shift * limbs..].copy_from_slice(&previous[..(width - shift) * limbs]);
            }
            times_one_minus_power(next, limbs, j);
            times_one_minus_power(next, limbs, j);
            over_one_minus_power(next, limbs, k + 1);
            over_one_minus_power(next, limbs, n_neg - j + 1);
        }
        Ok(histogram)
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
    pub fn count(&self, k: usize, u: usize) -> BigUint {
        limbs::to_biguint(&self.row(k)[u * self.limbs..][..self.limbs])
    }

    /// R, S, P, Q for f = AUC and g = accuracy, counted over the histogram in O(n_p * n_p n_n)
    /// fixed-width multiplications (no pair of rankings is enumerated).
    ///
    /// With A(u) = sum_k c_k(u) and T_k = sum_u c_k(u): R = sum over cells of c_k(u) times the
    /// rankings with lower k and lower U; P = (sum_k T_k^2 - sum c_k(u)^2) / 2 (same k, other U);
    /// Q = (sum_u A(u)^2 - sum c_k(u)^2) / 2 (same U, other k); and S = F - R - P, where
    /// F = sum_u A(u) sum_(u' < u) A(u') counts the pairs AUC separates.
    pub fn auc_vs_accuracy(&self) -> ConsistencyCounts {
        let limbs = self.limbs;
        // every sum of pairs is at most C(n, n_p)^2 < 2^(128 limbs)
        let wide = 2 * limbs;
        let mut column = vec![0u64; self.width() * limbs]; // sum over k' < k of c_k'(u)
        let (mut r, mut squares, mut row_squares) = (vec![0; wide], vec![0; wide], vec![0; wide]);
        for k in 0..=self.n_pos {
            let mut lower_below = vec![0u64; limbs]; // rankings with k' < k and u' < u
            let mut row_total = vec![0u64; limbs];
            let cells = self.row(k).chunks_exact(limbs);
            for (c, lower) in cells.zip(column.chunks_exact_mut(limbs)) {
                if c.iter().any(|&limb| limb != 0) {
                    limbs::mul_add(&mut r, c, &lower_below);
                    limbs::mul_add(&mut squares, c, c);
                    limbs::add(&mut row_total, c);
                }
                limbs::add(&mut lower_below, lower);
                limbs::add(lower, c);
            }
            limbs::mul_add(&mut row_squares, &row_total, &row_total);
        }
        // column(u) = A(u) now
        let (mut separated, mut column_squares) = (vec![0u64; wide], vec![0u64; wide]);
        let mut below = vec![0u64; limbs];
        for a in column.chunks_exact(limbs) {
            limbs::mul_add(&mut separated, a, &below);
            limbs::mul_add(&mut column_squares, a, a);
            limbs::add(&mut below, a);
        }
        let half_difference = |mut total: Vec<u64>| {
            limbs::sub(&mut total, &squares);
            limbs::halve(&mut total);
            total
        };
        let p = half_difference(row_squares);
        let q = half_difference(column_squares);
        limbs::sub(&mut separated, &r);
        limbs::sub(&mut separated, &p);
        ConsistencyCounts {
            r: limbs::to_biguint(&r),
            s: limbs::to_biguint(&separated),
            p: limbs::to_biguint(&p),
            q: limbs::to_biguint(&q),
        }
    }
}

/// Multiplies the power series `poly` (truncated to its length) by the Gaussian binomial
/// coefficient [m choose r]_x = prod_(i = 1..r) (1 - x^(m - r + i)) / (1 - x^i).
fn times_gaussian_binomial(poly: &mut [u64], limbs: usize, m: usize, r: usize) {
    for i in 1..=r {
        times_one_minus_power(poly, limbs, m - r + i);
        over_one_minus_power(poly, limbs, i);
    }
}

/// poly(x) (1 - x^a), truncated: coefficient u loses coefficient u - a (highest u first).
fn times_one_minus_power(poly: &mut [u64], limbs: usize, a: usize) {
    let offset = a * limbs;
    for start in (offset..poly.len()).step_by(limbs).rev() {
        let (low, high) = poly.split_at_mut(start);
        limbs::sub(&mut high[..limbs], &low[start - offset..][..limbs]);
    }
}

/// poly(x) / (1 - x^a) for a >= 1, truncated: coefficient u gains the new coefficient u - a
/// (lowest u first).
fn over_one_minus_power(poly: &mut [u64], limbs: usize, a: usize) {
    let offset = a * limbs;
    for start in (offset..poly.len()).step_by(limbs) {
        let (low, high) = poly.split_at_mut(start);
        limbs::add(&mut high[..limbs], &low[start - offset..][..limbs]);
    }
}

/// Unsigned integers of a fixed number of 64-bit limbs (least significant first), modulo
/// 2^(64 limbs): every operation wraps.
mod limbs {
    use num_bigint::BigUint;

    /// x += y (y no longer than x).
    pub fn add(x: &mut [u64], y: &[u64]) {
        let mut carry = false;
        for (i, limb) in x.iter_mut().enumerate() {
            let addend = y.get(i).copied().unwrap_or(0);
            let (sum, c1) = limb.overflowing_add(addend);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *limb = sum;
            carry = c1 || c2;
        }
    }

    /// x -= y (y no longer than x).
    pub fn sub(x: &mut [u64], y: &[u64]) {
        let mut borrow = false;
        for (i, limb) in x.iter_mut().enumerate() {
            let subtrahend = y.get(i).copied().unwrap_or(0);
            let (difference, b1) = limb.overflowing_sub(subtrahend);
            let (difference, b2) = difference.overflowing_sub(u64::from(borrow));
            *limb = difference;
            borrow = b1 || b2;
        }
    }

    /// The limbs up to the last non-zero one.
    fn significant(x: &[u64]) -> &[u64] {
        let used = x.iter().rposition(|&limb| limb != 0).map_or(0, |i| i + 1);
        &x[..used]
    }

    /// acc += a * b (the full product, then wrapped to acc's limbs).
    pub fn mul_add(acc: &mut [u64], a: &[u64], b: &[u64]) {
        let (a, b) = (significant(a), significant(b));
        for (i, &x) in a.iter().enumerate() {
            let mut carry = 0u64;
            let mut slot = i;
            for &y in b.iter().take(acc.len().saturating_sub(i)) {
                // x y + acc + carry <= (2^64 - 1)^2 + 2 (2^64 - 1) = 2^128 - 1
                let t = u128::from(x) * u128::from(y) + u128::from(acc[slot]) + u128::from(carry);
                acc[slot] = t as u64;
                carry = (t >> 64) as u64;
                slot += 1;
            }
            while carry != 0 && slot < acc.len() {
                let (sum, overflow) = acc[slot].overflowing_add(carry);
                acc[slot] = sum;
                carry = u64::from(overflow);
                slot += 1;
            }
        }
    }

    /// x /= 2, rounding down.
    pub fn halve(x: &mut [u64]) {
        let mut carry = 0u64;
        for limb in x.iter_mut().rev() {
            let next = *limb & 1;
            *limb = (*limb >> 1) | (carry << 63);
            carry = next;
        }
    }

    /// The value as a big integer.
    pub fn to_biguint(x: &[u64]) -> BigUint {
        let bytes: Vec<u8> = x.iter().flat_map(|limb| limb.to_le_bytes()).collect();
        BigUint::from_bytes_le(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_biguint(value: &BigUint, size: usize) -> Vec<u64> {
        let mut limbs = value.to_u64_digits();
        limbs.resize(size, 0);
        limbs
    }

    #[test]
    fn fixed_width_arithmetic_equals_big_integer_arithmetic() {
        let modulus = BigUint::from(1u32) << 192u32;
        let values: Vec<BigUint> = [
            0u128,
            1,
            3,
            u64::MAX as u128,
            u64::MAX as u128 + 1,
            u128::MAX,
        ]
        .iter()
        .flat_map(|&v| [BigUint::from(v), (BigUint::from(v) << 64u32) + 7u32])
        .collect();
        for a in &values {
            for b in &values {
                let mut sum = from_biguint(a, 3);
                limbs::add(&mut sum, &from_biguint(b, 3));
                assert_eq!(limbs::to_biguint(&sum), (a + b) % &modulus, "{a} + {b}");
                let mut difference = from_biguint(a, 3);
                limbs::sub(&mut difference, &from_biguint(b, 3));
                let expected = (a + &modulus - b % &modulus) % &modulus;
                assert_eq!(limbs::to_biguint(&difference), expected, "{a} - {b}");
                let mut product = from_biguint(&BigUint::from(5u32), 6);
                limbs::mul_add(&mut product, &from_biguint(a, 3), &from_biguint(b, 3));
                assert_eq!(limbs::to_biguint(&product), a * b + 5u32, "{a} * {b}");
                limbs::halve(&mut product);
                assert_eq!(limbs::to_biguint(&product), (a * b + 5u32) >> 1u32);
            }
        }
    }

    #[test]
    fn rows_sum_to_the_binomial_counts() {
        // row k holds C(n_p, k) C(n_n, n_p - k) rankings (binomials from Pascal's triangle)
        let mut pascal = vec![vec![BigUint::from(1u32)]];
        for n in 1..=70usize {
            let above = &pascal[n - 1];
            let row = (0..=n)
                .map(|r| match r {
                    0 => BigUint::from(1u32),
                    r if r == n => BigUint::from(1u32),
                    r => &above[r - 1] + &above[r],
                })
                .collect();
            pascal.push(row);
        }
        for (n_pos, n_neg) in [(1, 1), (3, 7), (9, 4), (30, 30), (20, 70), (70, 20)] {
            let histogram = RankingHistogram::by_dynamic_program(n_pos, n_neg).unwrap();
            let width = n_pos * n_neg + 1;
            for k in 0..=n_pos {
                let total: BigUint = (0..width).map(|u| histogram.count(k, u)).sum();
                let expected = match pascal[n_neg].get(n_pos - k) {
                    Some(bottom) => &pascal[n_pos][k] * bottom,
                    None => BigUint::zero(),
                };
                assert_eq!(total, expected, "{n_pos}+{n_neg}, k = {k}");
            }
        }
    }
}
