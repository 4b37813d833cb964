//! Distribution functions used by the tests: normal, Student t, F, chi-square,
//! binomial(n, 1/2) and the studentized range with infinite degrees of freedom.
//!
//! The continuous ones are thin wrappers over `statrs`'s special functions
//! (regularized incomplete beta and gamma, `erfc`), written as survival functions so
//! that small upper-tail p-values keep their relative accuracy (1 - cdf would not).
//! Quantiles start from `statrs`'s inverse and take Newton steps on our own CDF, because
//! the bare inverses are only accurate to about 1e-9..1e-12 relative while confidence
//! limits are checked at 1e-12. `statrs` has no studentized range distribution, so it
//! is integrated here numerically.

use statrs::distribution::{ContinuousCDF, StudentsT};
use statrs::function::erf::erfc_inv;
use statrs::function::gamma::gamma_ur;

const SQRT_2: f64 = std::f64::consts::SQRT_2;
/// 1 / sqrt(2 pi).
const INV_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

/// ln Gamma(x) for x > 0: Stirling's series with 7 Bernoulli terms for x >= 15, shifted
/// up by the recurrence Gamma(x + 1) = x Gamma(x) below. Absolute error about 1e-15 times
/// the magnitude of the terms.
///
/// Written here because `statrs` 0.19's `ln_gamma` is the accuracy bottleneck of its
/// incomplete beta (see [`regularized_beta`]).
pub fn ln_gamma(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    let mut shifted = x;
    let mut product = 1.0;
    while shifted < 15.0 {
        product *= shifted;
        shifted += 1.0;
    }
    let inverse = 1.0 / shifted;
    let inverse2 = inverse * inverse;
    // Bernoulli terms B_2k / (2k (2k - 1) x^(2k - 1)), k = 1..7.
    let series = inverse
        * (1.0 / 12.0
            + inverse2
                * (-1.0 / 360.0
                    + inverse2
                        * (1.0 / 1260.0
                            + inverse2
                                * (-1.0 / 1680.0
                                    + inverse2
                                        * (1.0 / 1188.0
                                            + inverse2
                                                * (-691.0 / 360_360.0
                                                    + inverse2 * (1.0 / 156.0)))))));
    let half_ln_two_pi = 0.918_938_533_204_672_8;
    (shifted - 0.5) * shifted.ln() - shifted + half_ln_two_pi + series - product.ln()
}

/// Regularized incomplete beta I_x(a, b), given both x and y = 1 - x (so callers can pass
/// an accurately computed complement).
///
/// Written here because `statrs` 0.19's `beta_reg` loses up to ~1e-6 relative accuracy in the
/// tails (e.g. the two-sided t p-value for t = 8 with 99 df, checked against mpmath): its
/// log prefactor uses an imprecise `ln_gamma`, and its continued fraction stops after 140
/// terms. This version evaluates the continued fraction (modified Lentz, up to 10 000 terms)
/// on the side where it converges and takes the complement on the other.
pub fn regularized_beta(a: f64, b: f64, x: f64, y: f64) -> f64 {
    if a.is_nan() || b.is_nan() || x.is_nan() || y.is_nan() || a <= 0.0 || b <= 0.0 {
        return f64::NAN;
    }
    if x <= 0.0 {
        return 0.0;
    }
    if y <= 0.0 {
        return 1.0;
    }
    let log_prefactor = a * x.ln() + b * y.ln() + ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b);
    if x < (a + 1.0) / (a + b + 2.0) {
        (log_prefactor.exp() * beta_continued_fraction(a, b, x) / a).min(1.0)
    } else {
        (1.0 - log_prefactor.exp() * beta_continued_fraction(b, a, y) / b).max(0.0)
    }
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn beta_continued_fraction(a: f64, b: f64, x: f64) -> f64 {
    let tiny = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < tiny {
        d = tiny;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..10_000 {
        let m = m as f64;
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 + even * d;
        if d.abs() < tiny {
            d = tiny;
        }
        c = 1.0 + even / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        h *= d * c;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 + odd * d;
        if d.abs() < tiny {
            d = tiny;
        }
        c = 1.0 + odd / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

/// Complementary error function erfc(x) = 1 - erf(x), accurate to a few ulp.
///
/// Written here because `statrs` 0.19's `erfc` has relative errors near 1e-10 for
/// x > 0.5 (checked against mpmath), which would show in normal p-values and spoil the
/// Newton refinement of the normal quantile. For |x| < 1 it sums the positive series
/// erf(x) = 2/sqrt(pi) exp(-x^2) sum 2^n x^(2n+1) / (1 3 5 ... (2n+1)); beyond, it
/// evaluates Laplace's continued fraction with Lentz's method.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 1.0 {
        return 1.0 - erf_series(x);
    }
    if x > 27.3 {
        return 0.0;
    }
    // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
    let tiny = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for n in 1..5000 {
        let a = n as f64 / 2.0;
        d = x + a * d;
        if d.abs() < tiny {
            d = tiny;
        }
        c = x + a / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    exp_minus_square(x) / (f * std::f64::consts::PI.sqrt())
}

/// exp(-x^2) with x^2 split into a high and a low part, so the rounding of x^2 does not
/// cost relative accuracy for large x.
fn exp_minus_square(x: f64) -> f64 {
    let high = (x * 4096.0).trunc() / 4096.0;
    let low = x - high;
    // x^2 = high^2 + low (2 high + low); high^2 is exact.
    (-high * high).exp() * (-low * (2.0 * high + low)).exp()
}

/// erf(x) for |x| < 1 from the series with positive terms.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    for n in 1..200 {
        term *= 2.0 * x2 / (2 * n + 1) as f64;
        sum += term;
        if term < 1e-17 * sum {
            break;
        }
    }
    2.0 / std::f64::consts::PI.sqrt() * exp_minus_square(x) * sum
}

/// Standard normal density.
pub fn normal_pdf(x: f64) -> f64 {
    INV_SQRT_2PI * (-0.5 * x * x).exp()
}

/// Standard normal CDF P(Z <= x).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / SQRT_2)
}

/// Standard normal survival function P(Z > x).
pub fn normal_sf(x: f64) -> f64 {
    0.5 * erfc(x / SQRT_2)
}

/// Two-sided normal p-value 2 P(Z > |z|) (NaN for NaN z).
pub fn normal_two_sided_pvalue(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    (2.0 * normal_sf(z.abs())).min(1.0)
}

/// Inverse standard normal CDF with one Newton refinement of `statrs`'s `erfc_inv`.
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    if p > 0.5 {
        // 1 - p is exact here (Sterbenz), and the upper tail is solved by symmetry.
        return -lower_normal_quantile(1.0 - p);
    }
    lower_normal_quantile(p)
}

/// Quantile for p in (0, 0.5]: refine x so that Phi(x) = p.
fn lower_normal_quantile(p: f64) -> f64 {
    let mut x = -SQRT_2 * erfc_inv(2.0 * p);
    for _ in 0..2 {
        let density = normal_pdf(x);
        if density <= 0.0 || !x.is_finite() {
            break;
        }
        let error = normal_cdf(x) - p;
        // Halley step for the normal CDF: dx = e / (f (1 + x e / (2 f))).
        let step = error / density;
        x -= step / (1.0 + 0.5 * x * step);
    }
    x
}

/// Two-sided Student t p-value 2 P(T_df > |t|); 0 for infinite t, NaN for NaN t.
pub fn student_t_two_sided_pvalue(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return 0.0;
    }
    let t2 = t * t;
    // 2 P(T > |t|) = I_x(df/2, 1/2) with x = df / (df + t^2), 1 - x = t^2 / (df + t^2).
    regularized_beta(df / 2.0, 0.5, df / (df + t2), t2 / (df + t2))
}

/// Student t CDF P(T_df <= t).
pub fn student_t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * student_t_two_sided_pvalue(t, df);
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// Student t density.
fn student_t_pdf(t: f64, df: f64) -> f64 {
    let log_norm =
        ln_gamma((df + 1.0) / 2.0) - ln_gamma(df / 2.0) - 0.5 * (df * std::f64::consts::PI).ln();
    (log_norm - (df + 1.0) / 2.0 * (1.0 + t * t / df).ln()).exp()
}

/// Upper critical value t with P(T_df > t) = upper_tail (e.g. 0.025 for a 5% two-sided test).
pub fn student_t_upper_quantile(upper_tail: f64, df: f64) -> f64 {
    if !(upper_tail > 0.0 && upper_tail < 1.0 && df > 0.0) {
        return f64::NAN;
    }
    let mut t = match StudentsT::new(0.0, 1.0, df) {
        Ok(dist) => dist.inverse_cdf(1.0 - upper_tail),
        Err(_) => return f64::NAN,
    };
    if !t.is_finite() {
        t = normal_quantile(1.0 - upper_tail);
    }
    for _ in 0..8 {
        // Work on the upper tail directly to keep relative accuracy for small tails.
        let tail = if t >= 0.0 {
            0.5 * student_t_two_sided_pvalue(t, df)
        } else {
            1.0 - 0.5 * student_t_two_sided_pvalue(t, df)
        };
        let density = student_t_pdf(t, df);
        if density <= 0.0 {
            break;
        }
        let step = (tail - upper_tail) / density;
        t += step;
        if step.abs() <= 1e-15 * t.abs() {
            break;
        }
    }
    t
}

/// Upper tail P(F_{d1,d2} > f); 0 for infinite f, NaN for NaN f.
pub fn f_sf(f: f64, d1: f64, d2: f64) -> f64 {
    if f.is_nan() {
        return f64::NAN;
    }
    if f == f64::INFINITY {
        return 0.0;
    }
    if f <= 0.0 {
        return 1.0;
    }
    // P(F > f) = I_x(d2/2, d1/2) with x = d2 / (d2 + d1 f).
    let denominator = d2 + d1 * f;
    regularized_beta(d2 / 2.0, d1 / 2.0, d2 / denominator, d1 * f / denominator)
}

/// Upper tail P(chi2_df > x); 0 for infinite x, NaN for NaN x.
pub fn chi_square_sf(x: f64, df: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return 0.0;
    }
    if x <= 0.0 {
        return 1.0;
    }
    gamma_ur(df / 2.0, x / 2.0)
}

/// P(X <= k) for X ~ Binomial(n, 1/2), summed exactly term by term in log space.
pub fn binomial_half_cdf(k: u64, n: u64) -> f64 {
    if k >= n {
        return 1.0;
    }
    // Sum the smaller tail directly for accuracy.
    if 2 * k > n {
        return 1.0 - binomial_half_cdf(n - k - 1, n);
    }
    // Terms C(n, i) / 2^n, i = 0..=k, built by the ratio recurrence from the largest one,
    // whose logarithm is a sum of logs of ratios (more accurate than log-gamma differences).
    let log_top = (1..=k)
        .map(|i| ((n - k + i) as f64 / i as f64).ln())
        .sum::<f64>()
        - (n as f64) * std::f64::consts::LN_2;
    let mut term = 1.0;
    let mut sum = 1.0;
    let mut i = k;
    while i > 0 {
        // C(n, i-1) = C(n, i) * i / (n - i + 1)
        term *= i as f64 / (n - i + 1) as f64;
        sum += term;
        if term < 1e-18 * sum {
            break;
        }
        i -= 1;
    }
    (log_top.exp()) * sum
}

/// Two-sided exact binomial(n, 1/2) p-value min(1, 2 P(X <= min(k, n - k))).
pub fn binomial_half_two_sided_pvalue(k: u64, n: u64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let smaller = k.min(n - k);
    (2.0 * binomial_half_cdf(smaller, n)).min(1.0)
}

/// Gauss-Legendre nodes and weights on [-1, 1] (computed once by Newton's method).
fn gauss_legendre(order: usize) -> (Vec<f64>, Vec<f64>) {
    let mut nodes = vec![0.0; order];
    let mut weights = vec![0.0; order];
    let n = order as f64;
    for i in 0..order.div_ceil(2) {
        let mut x = (std::f64::consts::PI * (i as f64 + 0.75) / (n + 0.5)).cos();
        let mut derivative = 0.0;
        for _ in 0..100 {
            let (mut p0, mut p1) = (1.0, x);
            for j in 2..=order {
                let jf = j as f64;
                let p2 = ((2.0 * jf - 1.0) * x * p1 - (jf - 1.0) * p0) / jf;
                p0 = p1;
                p1 = p2;
            }
            derivative = n * (x * p1 - p0) / (x * x - 1.0);
            let step = p1 / derivative;
            x -= step;
            if step.abs() < 1e-16 {
                break;
            }
        }
        nodes[i] = -x;
        nodes[order - 1 - i] = x;
        let w = 2.0 / ((1.0 - x * x) * derivative * derivative);
        weights[i] = w;
        weights[order - 1 - i] = w;
    }
    (nodes, weights)
}

/// Integrates `f` over [low, high] with composite Gauss-Legendre (`panels` panels of 20 points).
fn integrate(f: impl Fn(f64) -> f64, low: f64, high: f64, panels: usize) -> f64 {
    thread_local! {
        static RULE: (Vec<f64>, Vec<f64>) = gauss_legendre(20);
    }
    RULE.with(|(nodes, weights)| {
        let width = (high - low) / panels as f64;
        let mut total = 0.0;
        for panel in 0..panels {
            let center = low + (panel as f64 + 0.5) * width;
            let mut part = 0.0;
            for (node, weight) in nodes.iter().zip(weights) {
                part += weight * f(center + 0.5 * width * node);
            }
            total += part * 0.5 * width;
        }
        total
    })
}

/// Upper tail P(Q > q) of the range of `k` independent standard normals (studentized
/// range with infinite degrees of freedom).
///
/// `statrs` has no studentized range, so this integrates
/// P(Q > q) = k int phi(z) [Phi(z)^(k-1) - (Phi(z) - Phi(z - q))^(k-1)] dz
/// with a composite 20-point Gauss-Legendre rule. The difference of powers is expanded as
/// b * sum_j a^j (a - b)^(k-2-j) (a = Phi(z), b = Phi(z - q)) so small tails keep their
/// relative accuracy.
pub fn studentized_range_sf(q: f64, k: usize) -> f64 {
    if q.is_nan() || k < 2 {
        return f64::NAN;
    }
    if q <= 0.0 {
        return 1.0;
    }
    if q == f64::INFINITY {
        return 0.0;
    }
    let kf = k as f64;
    // Lower and upper normal tails from one erfc evaluation each.
    let tails = |x: f64| {
        let small = 0.5 * erfc(x.abs() / SQRT_2);
        if x < 0.0 {
            (small, 1.0 - small)
        } else {
            (1.0 - small, small)
        }
    };
    let integrand = |z: f64| {
        let (a, upper_z) = tails(z);
        let (b, upper_shifted) = tails(z - q);
        // Phi(z) - Phi(z - q), taken from whichever tails avoid cancellation.
        let a_minus_b = if z <= 0.0 {
            a - b
        } else if z - q < 0.0 {
            1.0 - upper_z - b
        } else {
            upper_shifted - upper_z
        };
        // sum_{i=0}^{k-2} a^(k-2-i) (a-b)^i: start from the largest term a^(k-2) and
        // multiply by the ratio (a-b)/a <= 1, so nothing underflows before it matters.
        let ratio = if a > 0.0 { a_minus_b / a } else { 0.0 };
        let mut term = a.powi(k as i32 - 2);
        let mut sum = 0.0;
        for _ in 0..(k - 1) {
            sum += term;
            term *= ratio;
            if term <= 1e-17 * sum {
                break;
            }
        }
        kf * normal_pdf(z) * b * sum
    };
    // The integrand is negligible outside [-9, q + 9]; phi(z) Phi(z - q) decays like the
    // normal density on both sides.
    let low = -9.0;
    let high = q + 9.0;
    let panels = (high - low).ceil() as usize;
    integrate(integrand, low, high, panels).clamp(0.0, 1.0)
}

/// Quantile of the studentized range with infinite df: q with P(Q > q) = upper_tail.
pub fn studentized_range_upper_quantile(upper_tail: f64, k: usize) -> f64 {
    if !(upper_tail > 0.0 && upper_tail < 1.0) || k < 2 {
        return f64::NAN;
    }
    // Bracket then bisect/secant on the monotone survival function.
    let (mut low, mut high) = (0.0_f64, 1.0_f64);
    while studentized_range_sf(high, k) > upper_tail {
        low = high;
        high *= 2.0;
        if high > 1e3 {
            return f64::NAN;
        }
    }
    // Illinois-style regula falsi for fast convergence, falling back to bisection.
    let mut f_low = studentized_range_sf(low, k) - upper_tail;
    let mut f_high = studentized_range_sf(high, k) - upper_tail;
    let mut side = 0i8;
    for _ in 0..200 {
        let mut mid = (low * f_high - high * f_low) / (f_high - f_low);
        if !(mid > low && mid < high) {
            mid = 0.5 * (low + high);
        }
        let f_mid = studentized_range_sf(mid, k) - upper_tail;
        if f_mid == 0.0 {
            return mid;
        }
        if (f_mid > 0.0) == (f_low > 0.0) {
            low = mid;
            f_low = f_mid;
            if side == -1 {
                f_high *= 0.5;
            }
            side = -1;
        } else {
            high = mid;
            f_high = f_mid;
            if side == 1 {
                f_low *= 0.5;
            }
            side = 1;
        }
        if high - low <= 1e-15 * high {
            break;
        }
    }
    0.5 * (low + high)
}
