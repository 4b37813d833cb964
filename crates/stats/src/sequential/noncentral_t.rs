//! The noncentral t density in log space, and the log of the confluent hypergeometric series
//! 1F1(a; b; z) for z >= 0 that the two-sided safe t-test reduces to.
//!
//! With x = ncp t sqrt(2 / (df + t^2)), the density is
//! f(t; df, ncp) = f(t; df, 0) exp(-ncp^2 / 2) sum_j [Gamma((df + j + 1) / 2) /
//! Gamma((df + 1) / 2)] x^j / j! (Johnson, Kotz & Balakrishnan, Continuous Univariate
//! Distributions vol. 2, eq. 31.15). For x >= 0 every term is positive and the series is summed
//! in log space. For x < 0 it alternates and cancels, so the density is integrated instead:
//! f(t) = int_0^inf phi(t s - ncp) s g(s) ds, g the density of s = sqrt(chi^2_df / df); in
//! u = ln s the log integrand is strictly concave with a mode in closed form, and the trapezoid
//! rule over it converges geometrically.

use crate::distributions::ln_gamma;

/// ln(2 pi) / 2.
const HALF_LN_TWO_PI: f64 = 0.918_938_533_204_672_8;

/// The log density of the central t distribution with `df` degrees of freedom at `t`.
pub fn central_t_log_density(t: f64, df: f64) -> f64 {
    ln_gamma((df + 1.0) / 2.0)
        - ln_gamma(df / 2.0)
        - 0.5 * (df * std::f64::consts::PI).ln()
        - (df + 1.0) / 2.0 * (t * t / df).ln_1p()
}

/// The log density of the noncentral t distribution with `df` > 0 degrees of freedom and
/// noncentrality `ncp` at a finite `t`; NaN for a non-finite input or df <= 0.
pub fn noncentral_t_log_density(t: f64, df: f64, ncp: f64) -> f64 {
    if !(t.is_finite() && ncp.is_finite() && df.is_finite()) || df <= 0.0 {
        return f64::NAN;
    }
    if ncp * t >= 0.0 {
        let x = (ncp * t).abs() * (2.0 / (df + t * t)).sqrt();
        central_t_log_density(t, df) - ncp * ncp / 2.0 + log_positive_series(df, x)
    } else {
        log_density_by_quadrature(t, df, ncp)
    }
}

/// The density of the noncentral t distribution (see [`noncentral_t_log_density`]).
pub fn noncentral_t_density(t: f64, df: f64, ncp: f64) -> f64 {
    noncentral_t_log_density(t, df, ncp).exp()
}

/// A running sum of terms given by their logs, kept as (largest log, sum of exp(log - largest)).
#[derive(Clone, Copy)]
struct LogSum {
    largest: f64,
    scaled: f64,
}

impl LogSum {
    fn new() -> Self {
        LogSum {
            largest: f64::NEG_INFINITY,
            scaled: 0.0,
        }
    }

    fn add(&mut self, log_term: f64) {
        if log_term > self.largest {
            self.scaled = self.scaled * (self.largest - log_term).exp() + 1.0;
            self.largest = log_term;
        } else {
            self.scaled += (log_term - self.largest).exp();
        }
    }

    fn ln(self) -> f64 {
        self.largest + self.scaled.ln()
    }
}

/// Terms beyond this many are never needed for the arguments that occur (the peak term sits
/// near j = x^2 / 2 and z respectively); a bound against a hang on absurd input.
const MAX_TERMS: usize = 1_000_000;

/// Whether a series of positive terms, past its peak, may stop at a term of log `log_term`.
fn negligible(sum: &LogSum, log_term: f64, decreasing: bool) -> bool {
    decreasing && log_term < sum.largest - 40.0
}

/// ln sum_j [Gamma((df + j + 1) / 2) / Gamma((df + 1) / 2)] x^j / j! for x >= 0.
fn log_positive_series(df: f64, x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let base = ln_gamma((df + 1.0) / 2.0);
    let ln_x = x.ln();
    let mut sum = LogSum::new();
    let mut previous = f64::NEG_INFINITY;
    for j in 0..MAX_TERMS {
        let jf = j as f64;
        let log_term = ln_gamma((df + jf + 1.0) / 2.0) - base + jf * ln_x - ln_gamma(jf + 1.0);
        sum.add(log_term);
        if negligible(&sum, log_term, log_term < previous) {
            break;
        }
        previous = log_term;
    }
    sum.ln()
}

/// ln 1F1(a; b; z) for a, b > 0 and z >= 0, by its series of positive terms
/// (a)_k z^k / ((b)_k k!), summed in log space.
pub fn log_hypergeometric_1f1(a: f64, b: f64, z: f64) -> f64 {
    if !(a > 0.0 && b > 0.0 && z >= 0.0 && z.is_finite()) {
        return f64::NAN;
    }
    if z == 0.0 {
        return 0.0;
    }
    let ln_z = z.ln();
    let mut sum = LogSum::new();
    let mut log_term = 0.0;
    for k in 0..MAX_TERMS {
        sum.add(log_term);
        let kf = k as f64;
        let next = log_term + ((a + kf) / ((b + kf) * (kf + 1.0))).ln() + ln_z;
        if negligible(&sum, next, next < log_term) {
            break;
        }
        log_term = next;
    }
    sum.ln()
}

/// The log integrand in u = ln s of f(t) = int phi(t s - ncp) s g(s) ds, without its constant.
fn log_integrand(u: f64, t: f64, df: f64, ncp: f64) -> f64 {
    let s = u.exp();
    -(t * s - ncp).powi(2) / 2.0 + (df + 1.0) * u - df * s * s / 2.0
}

/// The constant of [`log_integrand`]: -ln(2 pi)/2 + ln 2 + (df/2) ln df - (df/2) ln 2 -
/// ln Gamma(df/2).
fn log_integrand_constant(df: f64) -> f64 {
    -HALF_LN_TWO_PI + std::f64::consts::LN_2 + df / 2.0 * df.ln()
        - df / 2.0 * std::f64::consts::LN_2
        - ln_gamma(df / 2.0)
}

/// The trapezoid rule in u over the strictly concave log integrand, from its mode outwards
/// until the integrand is below e^-45 of its peak.
fn log_density_by_quadrature(t: f64, df: f64, ncp: f64) -> f64 {
    // L'(u) = 0 is a quadratic in y = e^u with one positive root.
    let a = t * t + df;
    let y = (ncp * t + ((ncp * t).powi(2) + 4.0 * a * (df + 1.0)).sqrt()) / (2.0 * a);
    let mode = y.ln();
    let curvature = 2.0 * a * y * y - ncp * t * y;
    let step = 0.1 / curvature.sqrt();
    let peak = log_integrand(mode, t, df, ncp);
    let mut sum = LogSum::new();
    sum.add(peak);
    for direction in [-1.0, 1.0] {
        for k in 1..MAX_TERMS {
            let value = log_integrand(mode + direction * k as f64 * step, t, df, ncp);
            sum.add(value);
            if value < peak - 45.0 {
                break;
            }
        }
    }
    sum.ln() + step.ln() + log_integrand_constant(df)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two ways of computing the density agree where both apply (x >= 0): the series is
    /// checked against the integral, which does not assume the sign.
    #[test]
    fn the_series_and_the_integral_agree() {
        for (t, df, ncp) in [
            (1.5, 4.0, 2.0),
            (0.3, 29.0, 1.0),
            (8.0, 9.0, 5.0),
            (2.0, 1.0, 0.5),
        ] {
            let series = noncentral_t_log_density(t, df, ncp);
            let integral = log_density_by_quadrature(t, df, ncp);
            assert!(
                (series - integral).abs() < 1e-10,
                "{t} {df} {ncp}: {series} {integral}"
            );
        }
    }

    #[test]
    fn zero_noncentrality_is_the_central_density() {
        let got = noncentral_t_log_density(1.3, 7.0, 0.0);
        assert!((got - central_t_log_density(1.3, 7.0)).abs() < 1e-15);
    }
}
