//! The exponential of numbers at most 0, written with additions, multiplications, comparisons
//! and bit operations only (no call, no branch), so that a loop over a slice of them compiles to
//! vector instructions. The softmax of Newton's objective spends most of its time here.
//!
//! `exp(x) = 2^n exp(r)` with `n` the integer nearest `x / ln 2` and `r = x - n ln 2` (in two
//! parts, Cody and Waite's reduction: `n ln2_hi` is exact), `|r| <= ln 2 / 2`; `exp(r)` is its
//! Taylor polynomial of degree 13 (truncation error below 1e-17 relative), summed by Horner's
//! rule with the leading 1 added last; `2^n` is built from its bits. Results below 2^-1022
//! (`x < -708.39`) are flushed to 0, where the objective's terms cannot tell them from 0.

/// `ln 2` split as Cody and Waite (fdlibm's values, 6.93147180369123816490e-01 and
/// 1.90821492927058770002e-10): `LN2_HI` has its last 21 bits zero, so `n * LN2_HI` is exact
/// for the `|n| <= 1022` used here.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);

/// `1 / ln 2`.
const LOG2_E: f64 = std::f64::consts::LOG2_E;

/// `1.5 * 2^52`: adding it to a number of magnitude below `2^51` rounds it to an integer (to
/// nearest, ties to even), which the low bits of the sum then hold.
const ROUNDER: f64 = 6_755_399_441_055_744.0;

/// The smallest argument whose exponential is at least 2^-1022 (the smallest normal number).
const SMALLEST: f64 = -708.396_418_532_264_1;

/// The Taylor coefficients `1 / k!` for `k = 13` down to `2`.
const COEFFICIENTS: [f64; 12] = [
    1.0 / 6_227_020_800.0,
    1.0 / 479_001_600.0,
    1.0 / 39_916_800.0,
    1.0 / 3_628_800.0,
    1.0 / 362_880.0,
    1.0 / 40_320.0,
    1.0 / 5_040.0,
    1.0 / 720.0,
    1.0 / 120.0,
    1.0 / 24.0,
    1.0 / 6.0,
    0.5,
];

/// `exp(x)` for `x <= 0` (a NaN gives NaN), flushed to 0 below 2^-1022; exactly 1 at 0.
#[inline(always)]
pub(super) fn exp_nonpositive(x: f64) -> f64 {
    // (A NaN stays: the comparison is false.)
    let clamped = if x < SMALLEST { SMALLEST } else { x };
    let shifted = clamped * LOG2_E + ROUNDER;
    let n = shifted - ROUNDER;
    let r = (clamped - n * LN2_HI) - n * LN2_LO;
    let mut p = COEFFICIENTS[0];
    for &c in &COEFFICIENTS[1..] {
        p = p * r + c;
    }
    let taylor = 1.0 + (r + r * r * p);
    // The low bits of `shifted` hold n (from -1022 to 0) plus ROUNDER's: 2^n's exponent field
    // is n + 1023.
    let bias = 1023u64.wrapping_sub(ROUNDER.to_bits());
    let power = f64::from_bits(shifted.to_bits().wrapping_add(bias) << 52);
    let value = taylor * power;
    if x < SMALLEST {
        0.0
    } else {
        value
    }
}

/// Replaces every value of `values` (each at most 0) by its exponential ([`exp_nonpositive`]).
#[inline(always)]
pub(super) fn exp_in_place(values: &mut [f64]) {
    for value in values {
        *value = exp_nonpositive(*value);
    }
}

/// `x.exp()`, skipping the call for the exact zero that the largest score always gives (the
/// exponential of +-0 is exactly 1).
#[inline(always)]
pub(super) fn exp_or_one(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        x.exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many units in the last place `got` is from `expected`.
    fn ulps(got: f64, expected: f64) -> u64 {
        (got.to_bits() as i64 - expected.to_bits() as i64).unsigned_abs()
    }

    #[test]
    fn within_two_units_in_the_last_place_of_the_system_exponential() {
        // The system library's exp (glibc: correctly rounded but for rare cases) is the
        // reference, over a million arguments spread over [SMALLEST, 0] and near 0.
        let mut worst = 0;
        for i in 0..1_000_000u64 {
            let x = SMALLEST * (i as f64 / 999_999.0);
            for y in [x, x * 1e-6, x * 1e-12] {
                let error = ulps(exp_nonpositive(y), y.exp());
                worst = worst.max(error);
                assert!(
                    error <= 2,
                    "exp({y}): {} against {}",
                    exp_nonpositive(y),
                    y.exp()
                );
            }
        }
        assert!(worst <= 2);
    }

    #[test]
    fn exact_at_zero_and_flushed_below_the_normal_range() {
        assert_eq!(exp_nonpositive(0.0), 1.0);
        assert_eq!(exp_nonpositive(-0.0), 1.0);
        assert_eq!(exp_nonpositive(-708.5), 0.0);
        assert_eq!(exp_nonpositive(f64::NEG_INFINITY), 0.0);
        assert!(exp_nonpositive(f64::NAN).is_nan());
        assert_eq!(exp_nonpositive(SMALLEST), SMALLEST.exp());
        let mut values = [0.0, -1.0, -20.5];
        exp_in_place(&mut values);
        assert_eq!(values[0], 1.0);
        assert!(ulps(values[2], (-20.5f64).exp()) <= 2);
    }
}
